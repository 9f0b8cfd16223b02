"""The program of one ceremony as plain, validated data (pydantic): what the booklet and JSON show.

Every element refers to its witness passages by ``cites`` (ids of :class:`Passage` entries in
``Program.passages``), so the booklet can link each statement to the passage quoted in context.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Passage(_Frozen):
    """A witness passage as the program quotes it: the quote found in its witness, with context."""

    id: str
    witness: str
    witness_title: str
    quote: str
    section_id: str | None = None
    section_title: str | None = None
    before: str = ""
    passage: str = ""
    after: str = ""
    error: str | None = None
    """Set when the quote does not resolve (then the closest passage is named here)."""


class Segment(_Frozen):
    """A run of witness text: main text or a note (small print, 【】, ())."""

    text: str
    note: bool


class Parallel(_Frozen):
    """A section of the classical witness beside the same section of its modern translation."""

    section_id: str
    title: str
    classical: tuple[Segment, ...]
    modern: tuple[Segment, ...]


class PlaceRef(_Frozen):
    id: str
    name: str
    level: str


class CeremonyDate(_Frozen):
    """The day of the ceremony and where it comes from."""

    observance: str | None = None
    observance_name: str | None = None
    western: date | None = None
    weekday: str | None = None
    chinese: str | None = None
    source: str
    """``almanac table``, ``computation``, ``assumption`` or ``open``."""
    source_detail: str
    time_label: str | None = None
    rule_text: str | None = None
    open_reason: str | None = None
    cites: tuple[str, ...] = ()


class Officiant(_Frozen):
    function: str
    office: str
    count: int | None = None
    notes: str | None = None
    cites: tuple[str, ...] = ()
    assumption: str | None = None


class Preparation(_Frozen):
    """One preparation on the timeline; ``days`` are its dates when the calendar gives them."""

    kind: str
    text: str | None = None
    gloss: str | None = None
    who: tuple[str, ...] = ()
    when: str | None = None
    days: tuple[date, ...] = ()
    chinese_days: tuple[str, ...] = ()
    cites: tuple[str, ...] = ()
    assumption: str | None = None
    day_note: str | None = None
    """Why it is undated, or which witness gives its day when the reading witness does not."""


class OfferingLine(_Frozen):
    """One kind of thing laid before a tablet, with its count."""

    what: str
    count: int | None = None
    detail: str | None = None
    cites: tuple[str, ...] = ()


class Altar(_Frozen):
    id: str
    name: str
    notes: str | None = None
    tablets: tuple[str, ...] = ()
    position: str | None = None
    lines: tuple[OfferingLine, ...] = ()
    cites: tuple[str, ...] = ()


class Tablet(_Frozen):
    name: str
    hall: str
    side: str | None = None
    order: int | None = None
    cites: tuple[str, ...] = ()


class Thing(_Frozen):
    """A vessel or a food, with what it holds or how it is prepared."""

    name: str
    detail: str | None = None
    gloss: str | None = None
    cites: tuple[str, ...] = ()


class Prayer(_Frozen):
    """A text read in the rite: the witness's template and the same text with its date clause filled."""

    id: str
    title: str
    template: str
    filled: str | None = None
    gloss: str | None = None
    cites: tuple[str, ...] = ()


class Step(_Frozen):
    """One step of the occasion's order of service, numbered across the whole occasion."""

    number: int
    rite: str
    """The id of the rite (a :class:`RiteSection` of the program) the step belongs to."""
    part: str
    kind: str
    role: str | None = None
    call: str | None = None
    action: str | None = None
    gloss: str | None = None
    posture: str | None = None
    door: str | None = None
    notes: str | None = None
    music: str | None = None
    music_action: str | None = None
    dance: str | None = None
    cites: tuple[str, ...] = ()
    assumption: str | None = None


class SungCharacter(_Frozen):
    char: str
    lu: str
    gongche: str
    token: str
    start_s: float | None = None
    end_s: float | None = None


class MusicCue(_Frozen):
    """A movement of the music, the steps that start and stop it, its sung line and (later) its audio."""

    movement: str
    name: str
    tune: str
    danced: bool
    same_as: str | None = None
    duration_s: float
    """From the first stroke to the last: how long the steps that cue it wait."""
    audio_s: float
    """How long its audio lasts (the last strokes ring on): the length shown beside it."""
    steps: tuple[int, ...]
    characters: tuple[SungCharacter, ...] = ()
    cites: tuple[str, ...] = ()


class Figure(_Frozen):
    """A layout figure (altar plan, seating, tablet plan, table of offerings) as SVG, with its sources."""

    kind: str
    title: str
    caption: str
    svg: str
    cites: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()


class SpringOxPicture(_Frozen):
    rule: str
    summary: str
    svg: str


class Relation(_Frozen):
    """Where a rite stands in its occasion, as the rite data's link says (``before 祀先師禮``), cited."""

    text: str
    other: str
    """The id of the other rite."""
    cites: tuple[str, ...] = ()


class RiteSection(_Frozen):
    """One rite of the occasion with everything the booklet shows for it; its steps are those of the
    program numbered ``first_step`` to ``last_step``."""

    rite: str
    names: tuple[str, ...]
    gloss: str
    main: bool
    """True for the rite the program was asked for."""
    day: int
    """Days from the day of the rite asked for (−1: the day before)."""
    relations: tuple[Relation, ...] = ()
    notes: tuple[str, ...] = ()
    witness: str
    date: CeremonyDate
    officiants: tuple[Officiant, ...]
    roles: tuple[Officiant, ...]
    preparations: tuple[Preparation, ...]
    altars: tuple[Altar, ...]
    tablets: tuple[Tablet, ...]
    figures: tuple[Figure, ...] = ()
    vessels: tuple[Thing, ...]
    foods: tuple[Thing, ...]
    prayers: tuple[Prayer, ...]
    spring_ox: tuple[SpringOxPicture, ...] = ()
    first_step: int | None = None
    last_step: int | None = None

    @property
    def name(self) -> str:
        return self.names[0]


class Program(_Frozen):
    """One ceremony, fully resolved: the occasion of the rite asked for — the rites held with it, in
    their order (``rites``; one when the rite is held alone) — with one order of service numbered
    across all of them (``steps``)."""

    rite: str
    names: tuple[str, ...]
    gloss: str
    place: PlaceRef
    year: int
    season: str | None
    witness: str
    governing_witness: str
    date: CeremonyDate
    """The day of the rite asked for (each rite's own is in its section)."""
    occasion: str
    """The rites in order in one line (崇聖祠 → 祀先師禮 → …)."""
    rites: tuple[RiteSection, ...]
    steps: tuple[Step, ...]
    music: tuple[MusicCue, ...]
    assumptions: tuple[str, ...] = ()
    passages: tuple[Passage, ...] = ()
    parallels: tuple[Parallel, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.names[0]} — {self.place.name} {self.year}"

    @property
    def main(self) -> RiteSection:
        """The section of the rite asked for."""
        return next(s for s in self.rites if s.main)

    @property
    def alone(self) -> bool:
        return len(self.rites) == 1

    def section(self, rite: str) -> RiteSection:
        return next(s for s in self.rites if s.rite == rite)

    @property
    def spring_ox(self) -> tuple[SpringOxPicture, ...]:
        """The spring-ox pictures of every rite that shows them (once)."""
        seen: dict[str, SpringOxPicture] = {}
        for s in self.rites:
            for picture in s.spring_ox:
                seen.setdefault(picture.rule, picture)
        return tuple(seen.values())
