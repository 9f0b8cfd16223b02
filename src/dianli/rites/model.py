"""The rite schema: every element of a rite as validated, cited data.

A rite file (``data/<family>.yaml``) holds ``rites:``; each rite names itself, its date rule, its
officiants by place, its roles, preparations, altars with their offerings, vessels, foods, tablets,
texts and the ordered ``parts`` of its order of service. Every element derives from :class:`Element`
and so carries a citation (or a labelled assumption), a validity in years, a place scope and the
witnesses whose reading it is. Composition (``extends``, ``include``, ``overrides``) is declared here and
carried out by :mod:`dianli.rites.expand`; nothing in this module knows any particular rite.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from dianli.calendar.date_rules import DateRule as RuleSpec
from dianli.corpus.cite import Citation
from dianli.rites.vocabulary import acts, postures

STEP_KINDS = ("call", "action", "music_cue", "dance_cue")
"""What a step is: a call (唱/贊), an action, a cue to the musicians, a cue to the dancers."""

MUSIC_MOVEMENTS = ("yingshen", "chuxian", "yaxian", "zhongxian", "chezhuan", "songshen", "wangyi")
"""Ids of the movements of the 大成樂 (迎神 … 望瘞), shared with the music domain."""

DANCE_CUES = ("hold", "dance", "stop")
"""執籥未舞 (dancers hold, not dancing), 按節而舞 (dance), 舞止 (dancing stops)."""

Kind = Literal["call", "action", "music_cue", "dance_cue"]
Movement = Literal["yingshen", "chuxian", "yaxian", "zhongxian", "chezhuan", "songshen", "wangyi"]
DanceCue = Literal["hold", "dance", "stop"]
MusicAction = Literal["start", "pause", "resume", "stop"]
"""舉麾 樂作 (start), 偃麾 樂暫止 (pause), 樂續作 (resume), 偃麾 櫟敔止樂 (stop)."""
MUSIC_ACTION_NAMES: dict[str, str] = {"start": "樂作", "pause": "樂暫止", "resume": "樂續作", "stop": "樂止"}
"""How a reader sees each music action: the texts' own words."""
Year = Annotated[int, Field(ge=1600, le=1950)]
ModelT = TypeVar("ModelT", bound=BaseModel)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Element(_Strict):
    """What every element carries: where it says so, when and where it holds, and whose reading it is.

    ``cite`` is the main citation, ``cites`` more (other witnesses that agree, or further clauses the
    element covers); ``also_in`` lists witnesses where the main quote occurs too (same words, folded). ``assumption`` replaces a citation where the sources are silent and the program
    must choose. ``from_year``/``until_year`` are inclusive Gregorian years; ``places`` and
    ``place_levels`` restrict the element to places (ids or names from :mod:`dianli.places`) or levels;
    ``witnesses`` makes it the reading of those witnesses only, and ``variant`` names the point on which
    readings differ (elements sharing a ``variant`` label are alternative readings of one rule).
    """

    cite: Citation | None = None
    cites: tuple[Citation, ...] = ()
    also_in: tuple[str, ...] = ()
    assumption: str | None = None
    from_year: Year | None = None
    until_year: Year | None = None
    places: tuple[str, ...] = ()
    place_levels: tuple[str, ...] = ()
    witnesses: tuple[str, ...] = ()
    variant: str | None = None

    @model_validator(mode="after")
    def _sourced(self) -> Element:
        if self.cite is None and not self.cites and not self.assumption:
            raise ValueError("needs a 'cite' (witness and quote) or an 'assumption' saying why")
        if self.also_in and self.cite is None:
            raise ValueError("'also_in' repeats the main 'cite' quote in other witnesses: it needs a 'cite'")
        if self.from_year is not None and self.until_year is not None and self.from_year > self.until_year:
            raise ValueError(f"from_year {self.from_year} is after until_year {self.until_year}")
        return self

    @property
    def citations(self) -> tuple[Citation, ...]:
        """Every citation of the element, the main one first, then ``cites``, then the main quote as
        found in each witness of ``also_in`` (the same words, folded, in the same section)."""
        main = (self.cite,) if self.cite else ()
        echoes = _echoes(self.cite, self.also_in) if self.cite and self.also_in else ()
        return main + self.cites + echoes


@functools.lru_cache(maxsize=8192)
def _echoes(cite: Citation, witnesses: tuple[str, ...]) -> tuple[Citation, ...]:
    """The main quote as cited in each witness of ``also_in`` (built once: a citation validates itself)."""
    return tuple(Citation(witness=w, quote=cite.quote, section=cite.section) for w in witnesses)


class Names(Element):
    """The rite's names: classical (first is the title), a modern gloss, and other accepted names."""

    classical: tuple[str, ...] = Field(min_length=1)
    gloss: str
    aliases: tuple[str, ...] = ()


class TimeOfDay(_Strict):
    """A time of day the witness gives for the rite (四鼓, 五鼓 …), cited."""

    label: str
    cite: Citation


class Related(_Strict):
    """A day tied to the rite day (齋戒, 省牲, 習儀 …): ``offsets`` in days (−1 = the day before), cited."""

    id: str
    name: str
    offsets: tuple[int, ...] = Field(min_length=1)
    cite: Citation


class DateRule(Element):
    """When the rite is held: one dated observance (``id``, e.g. the spring or the autumn sacrifice) and the
    calendar rule that yields its days (``rule``, a rule of :mod:`dianli.calendar.date_rules`).

    It is an element like any other: its validity, place scope and witnesses decide where and in whose
    reading it holds, so the calendar derives every rite's days from the resolved rites. ``scope_cite`` or
    ``scope_assumption`` says where the scope (places, years) comes from when the rule's own citation
    does not. ``related`` are the days tied to it, ``time`` a time of day the witness gives."""

    id: str
    name: str
    rule: RuleSpec
    text: str | None = None
    gloss: str | None = None
    related: tuple[Related, ...] = ()
    time: TimeOfDay | None = None
    scope_cite: Citation | None = None
    scope_assumption: str | None = None


class Dimension(Element):
    """One measure of a vessel or a venue (口徑, 深, 高, 寬 …) in 尺/寸/分, a capacity (升/合) or an area (畝);
    ``of`` names what is measured where one element carries several (京師's altar vs the local one)."""

    measure: str
    of: str | None = None
    value: float = Field(ge=0)
    unit: str
    text: str | None = None


class Venue(Element):
    """Where the rite is held (a hall, an altar, a field), with its measures where the witnesses give them."""

    name: str
    gloss: str | None = None
    dimensions: tuple[Dimension, ...] = ()


class Officiant(Element):
    """Who performs a function (正獻, 分獻, 陪祭 …) at a place of a level: an office, with a count."""

    function: str
    office: str
    count: int | None = Field(default=None, ge=1)
    notes: str | None = None


class Role(Element):
    """A role other than the officiants (通贊, 引贊, 麾生, 司尊 …), with its count and duty."""

    name: str
    count: int | None = Field(default=None, ge=1)
    duty: str | None = None
    gloss: str | None = None


class PreparationDay(Element):
    """The day of a preparation as a witness words it, counted from the rite day: ``text`` the words
    (先期二日, 前三日, 祭之日), ``offsets`` the days (先期二日: [-2]; 祭前三日 … 散齋二日: [-3, -2];
    祭之日: [0]), ``time`` a time of day the witness gives (是夕, 昧爽, 黎明). Cited like every element: the
    witness whose words they are is the one that gives the day."""

    text: str
    offsets: tuple[int, ...] = Field(min_length=1)
    time: str | None = None


class Preparation(Element):
    """A preparation (齋戒 散齋/致齋, 省牲, 宰牲, 視祭器, 治祭物, 習儀): when, who, what; ``day_rule`` its
    day from the rite day, where a witness gives it (:mod:`dianli.rites.preparation_days`)."""

    kind: str
    days: int | None = Field(default=None, ge=0)
    when: str | None = None
    who: tuple[str, ...] = ()
    text: str | None = None
    gloss: str | None = None
    day_rule: PreparationDay | None = None


class Vessel(Element):
    """A ritual vessel (籩, 豆, 簠, 簋, 鉶, 登, 爵 …): material, dimensions, what it holds."""

    name: str
    material: str | None = None
    dimensions: tuple[Dimension, ...] = ()
    holds: str | None = None
    description: str | None = None
    gloss: str | None = None


class Food(Element):
    """An offering food and how it is prepared (治祭物)."""

    name: str
    preparation: str
    vessel: str | None = None
    gloss: str | None = None


class Offering(Element):
    """Vessels of one kind on an altar: the vessel, how many, and their contents in order."""

    vessel: str
    count: int = Field(ge=1)
    contents: tuple[str, ...] = ()
    position: str | None = None


class Silk(Element):
    """帛: how many, its colour and its size."""

    count: int = Field(ge=1)
    colour: str | None = None
    size: str | None = None


class Victim(Element):
    """牲: the animal (太牢 牛羊豕, 少牢 羊豕 …) and how many."""

    animal: str
    count: int = Field(ge=1)
    position: str | None = None
    notes: str | None = None


class Cup(Element):
    """爵: how many and of what material."""

    count: int = Field(ge=1)
    material: str | None = None


class GridPoint(_Strict):
    """A cell of a plan: steps along the plan's ``across`` axis and along its ``down`` axis."""

    across: int
    down: int


class Cell(GridPoint):
    """One thing laid out (an offering, a cup, a burner, a standing place) at a cell of a plan."""

    item: str


class Layout(Element):
    """Where each thing stands before a tablet, as a witness's diagram draws it: cells relative to the
    tablet's own cell (the altar's ``at``), counted along the rite's :class:`Plan` axes."""

    cells: tuple[Cell, ...] = Field(min_length=1)
    notes: str | None = None


class Plan(Element):
    """The frame of a rite's diagram (陳設圖): the compass word at each end of its two axes.

    ``across`` is the horizontal axis (first word at the left, second at the right), ``down`` the
    vertical one (first word at the top). ``mirror_positions`` swaps the words, so a layout inherited
    through a mirror reads the other way round on the same grid.
    """

    across: tuple[str, str]
    down: tuple[str, str] | None = None
    notes: str | None = None


class Altar(Element):
    """An altar or a tablet's table (案) and what is laid before it.

    ``like`` names another altar (of this rite, or of the rite it extends) whose offerings, silk,
    victims, cups, items and layout this one repeats where it does not set its own (「陳設俱與社稷同」,
    「每位各羊一…」). ``at`` is the tablet's cell in the rite's plan, ``layout`` what stands around it.
    """

    id: str
    name: str
    notes: str | None = None
    """An editor's note on the altar (which witness lists it and why), shown beside its name, never in it."""
    like: str | None = None
    tablets: tuple[str, ...] = ()
    position: str | None = None
    at: GridPoint | None = None
    layout: Layout | None = None
    offerings: tuple[Offering, ...] = ()
    silk: tuple[Silk, ...] = ()
    victims: tuple[Victim, ...] = ()
    cups: tuple[Cup, ...] = ()
    items: tuple[Offering, ...] = ()
    """Other things laid out (香爐, 燭臺, 尊 …)."""


class Tablet(Element):
    """A spirit tablet and its position: the hall, the side, its rank in the row."""

    name: str
    hall: str
    side: str | None = None
    order: int | None = Field(default=None, ge=1)
    gloss: str | None = None


class Text(Element):
    """A text read or written in the rite (祝文, 表, 律令 …), with placeholders in 某."""

    id: str
    title: str
    text: str
    gloss: str | None = None


class Step(Element):
    """One step of the order of service.

    ``role`` calls or acts; ``call`` is the classical call text; ``action`` what is done (classical);
    ``posture`` one of the postures of ``data/vocabulary.yaml`` (一跪三叩, 三跪九叩 …); ``music`` the
    movement cued; ``dance`` the dancers' cue. ``id`` and ``tags`` let overrides aim at the step.
    Text fields may hold ``{name}`` placeholders filled by an include's ``with``.
    """

    id: str | None = None
    tags: tuple[str, ...] = ()
    kind: Kind
    role: str | None = None
    call: str | None = None
    action: str | None = None
    gloss: str | None = None
    actors: tuple[str, ...] = ()
    posture: str | None = None
    place: str | None = None
    door: str | None = None
    music: Movement | None = None
    music_action: MusicAction | None = None
    dance: DanceCue | None = None
    notes: str | None = None

    @model_validator(mode="after")
    def _has_content(self) -> Step:
        self.check_content()
        return self

    def check_content(self) -> None:
        """Raise ValueError if the step's kind lacks what it needs (a call's text …) or its posture is
        unknown: the check every validation of a step runs, and the one a change of its text needs."""
        if self.posture is not None and self.posture not in postures():
            raise ValueError(f"unknown posture {self.posture!r}; accepted: {', '.join(postures())}")
        if self.kind == "call" and not self.call:
            raise ValueError("a step of kind 'call' needs the 'call' text")
        if self.kind == "music_cue" and self.music is None and not self.call and not self.action:
            raise ValueError("a 'music_cue' step needs 'music' (the movement) or its call/action")
        if self.kind == "dance_cue" and self.dance is None:
            raise ValueError("a 'dance_cue' step needs 'dance' (hold, dance or stop)")
        if self.kind == "action" and not (self.action or self.posture):
            raise ValueError("an 'action' step needs 'action' text or a 'posture'")


class ReplaceText(_Strict):
    """Replace ``old`` by ``new`` in one text field of the steps (``call``, ``action`` …), in the part
    titles (``title``), or in every text field and the part titles (``all``)."""

    field: str = "call"
    old: str
    new: str


class Mirror(_Strict):
    """Swap two position words (南 ↔ 北) in every ``position`` of the inherited altars and offerings
    and at the ends of the inherited plan's axes."""

    a: str
    b: str


class Drop(_Strict):
    """Remove the steps with these ids or any of these tags."""

    ids: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


class Insert(_Strict):
    """Insert steps after (or before) the step with this id; at the end if neither is given."""

    after: str | None = None
    before: str | None = None
    steps: tuple[Step, ...] = Field(min_length=1)


class ReplaceStep(_Strict):
    id: str
    step: Step


class SetField(_Strict):
    """Set one field of the step with this id (or of the steps with this tag)."""

    id: str | None = None
    tag: str | None = None
    field: str
    value: Any


class Override(Element):
    """One change applied to an extended or included sequence; exactly one operation is given.

    ``replaces_act`` names the act (``data/vocabulary.yaml`` ``acts``) the change does away with (「但改望瘞
    為望燎」 replaces 望瘞): the steps that depend on it must be changed or dropped by further overrides, and
    the expander refuses a sequence in which a step in the override's reach still performs it."""

    replace_text: ReplaceText | None = None
    mirror_positions: Mirror | None = None
    drop: Drop | None = None
    insert: Insert | None = None
    replace_step: ReplaceStep | None = None
    set: SetField | None = None
    unchanged: bool | None = None
    """True: this witness's reading of the point changes nothing (「餘儀節與祭社稷同」) — the reading, in a
    ``variant`` group, that stands against an override other witnesses state."""
    replaces_act: str | None = None

    @model_validator(mode="after")
    def _one_operation(self) -> Override:
        ops = [name for name in OVERRIDE_OPS if getattr(self, name) is not None]
        if len(ops) != 1:
            raise ValueError(
                f"an override needs exactly one of {', '.join(OVERRIDE_OPS)}; got {ops or 'none'}"
            )
        if self.replaces_act is not None and self.replaces_act not in acts():
            raise ValueError(f"unknown act {self.replaces_act!r}; accepted: {', '.join(acts())}")
        return self

    @property
    def operation(self) -> str:
        return next(name for name in OVERRIDE_OPS if getattr(self, name) is not None)


OVERRIDE_OPS = ("replace_text", "mirror_positions", "drop", "insert", "replace_step", "set", "unchanged")


class Include(Element):
    """「如前儀」: the steps of another part (``rite#part``, or ``#part`` in this rite, or a whole rite),
    with placeholders filled from ``with`` and ``overrides`` applied."""

    include: str
    with_: dict[str, str] = Field(default_factory=dict, alias="with")
    overrides: tuple[Override, ...] = ()

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


def _item_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "Include" if "include" in value else "Step"
    return "Include" if isinstance(value, Include) else "Step"


SequenceItem = Annotated[
    Annotated[Step, Tag("Step")] | Annotated[Include, Tag("Include")], Discriminator(_item_kind)
]
"""A step, or an include of another part; told apart by the ``include`` key."""


class Part(Element):
    """A titled part of the order of service (迎神, 初獻 …); may ``extends`` another part with overrides."""

    id: str
    title: str
    gloss: str | None = None
    extends: str | None = None
    overrides: tuple[Override, ...] = ()
    steps: tuple[SequenceItem, ...] = ()
    with_: dict[str, str] = Field(default_factory=dict, alias="with")
    in_sequence: bool = True
    """False for a part that only serves as a template for includes."""
    shows: tuple[str, ...] = ()
    """Engine outputs shown with this part, by name (``spring_ox``: the year's ox and god, for the rite's
    place and year); the program resolves the names, the model knows none of them."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


class OccasionLink(Element):
    """Another rite held on the same occasion, and where this rite stands to it: ``before`` it or
    ``after`` it (exactly one), ``days`` apart (0: the same day, one after the other; 1: the day before
    or after). A rite's occasion is every rite its links reach, held at the place in the year, in the
    links' order (「凡祭文廟，必先崇聖祠」: 崇聖祠 ``before`` 文廟)."""

    before: str | None = None
    after: str | None = None
    days: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _one_side(self) -> OccasionLink:
        if (self.before is None) == (self.after is None):
            raise ValueError("an occasion link needs exactly one of 'before' or 'after' (a rite id)")
        return self

    @property
    def other(self) -> str:
        """The rite the link names."""
        return self.before if self.before is not None else str(self.after)


class Rite(Element):
    """A rite: who, what, when, where and how; ``extends`` another rite with ``overrides``."""

    id: str
    names: Names
    category: str | None = None
    venue: tuple[Venue, ...] = ()
    date_rule: tuple[DateRule, ...] = ()
    extends: str | None = None
    overrides: tuple[Override, ...] = ()
    officiants: tuple[Officiant, ...] = ()
    roles: tuple[Role, ...] = ()
    preparations: tuple[Preparation, ...] = ()
    vessels: tuple[Vessel, ...] = ()
    foods: tuple[Food, ...] = ()
    altars: tuple[Altar, ...] = ()
    tablets: tuple[Tablet, ...] = ()
    texts: tuple[Text, ...] = ()
    plan: Plan | None = None
    parts: tuple[Part, ...] = ()
    notes: tuple[str, ...] = ()
    occasion: tuple[OccasionLink, ...] = ()
    """The rites held with this one on the same occasion, before or after it (its own: not inherited by
    ``extends``); see :mod:`dianli.rites.occasion`."""


class RiteFile(_Strict):
    """One YAML file of rite data: a family of rites."""

    family: str
    rites: tuple[Rite, ...] = Field(min_length=1)


def walk_elements(node: object) -> Iterator[Element]:
    """Every element inside a model (the node itself first, if it is one), depth first."""
    for _path, element in walk_paths(node, ""):
        yield element


def walk_paths(node: object, path: str) -> list[tuple[str, Element]]:
    """(path, element) for every element inside a model, depth first; paths like ``.altars[dongzhe]``."""
    out: list[tuple[str, Element]] = []
    _walk(node, path, out)
    return out


def _walk(node: object, path: str, out: list[tuple[str, Element]]) -> None:
    if isinstance(node, Element):
        out.append((path, node))
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            value = getattr(node, name)
            if isinstance(value, BaseModel):
                _walk(value, f"{path}.{name}", out)
            elif isinstance(value, tuple):
                for i, item in enumerate(value):
                    if isinstance(item, BaseModel):
                        label = getattr(item, "id", None) or i
                        _walk(item, f"{path}.{name}[{label}]", out)


def add_citations(node: ModelT, path: str, extra: Mapping[str, tuple[Citation, ...]]) -> ModelT:
    """A copy of ``node`` (at ``path``, as :func:`walk_paths` names it) with ``extra[p]`` appended to the
    ``cites`` of every element at path ``p``; parts of the tree no key reaches are shared, not copied."""
    prefixes = _prefixes(tuple(sorted(extra)))
    return _add(node, path, extra, prefixes)


@functools.lru_cache(maxsize=64)
def _prefixes(keys: tuple[str, ...]) -> frozenset[str]:
    out: set[str] = set()
    for key in keys:
        for i, char in enumerate(key):
            if char in ".[":
                out.add(key[:i])
        out.add(key)
    return frozenset(out)


def _add(
    node: ModelT, path: str, extra: Mapping[str, tuple[Citation, ...]], prefixes: frozenset[str]
) -> ModelT:
    if path not in prefixes:
        return node
    update: dict[str, Any] = {}
    for name in type(node).model_fields:
        value = getattr(node, name)
        if isinstance(value, BaseModel):
            new = _add(value, f"{path}.{name}", extra, prefixes)
            if new is not value:
                update[name] = new
        elif isinstance(value, tuple) and any(isinstance(item, BaseModel) for item in value):
            items = tuple(
                _add(item, f"{path}.{name}[{getattr(item, 'id', None) or i}]", extra, prefixes)
                if isinstance(item, BaseModel)
                else item
                for i, item in enumerate(value)
            )
            if any(a is not b for a, b in zip(items, value, strict=True)):
                update[name] = items
    if isinstance(node, Element) and path in extra:
        update["cites"] = node.cites + tuple(c for c in extra[path] if c not in node.citations)
    return node.model_copy(update=update) if update else node
