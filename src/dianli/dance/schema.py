"""The dance data files (``data/*.yaml``) as models: every key is a field, an unknown key is an error.

Each file has one model, loaded once through :func:`dianli.datafile.load_model`; a broken file is a
DataError naming the file, the element and the bad key or value. The ``draw`` operations of the
vocabulary are a small language of one-key mappings (``{hand: {side: $side, at: shoulder}}``); they are
typed dictionaries, checked as strictly as the models (an unknown operation or key is an error) and
handed to the interpreter in :mod:`dianli.dance.pose` as the mappings they are.
"""

from __future__ import annotations

import functools
from typing import Annotated, Literal, NotRequired, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
    with_config,
)
from typing_extensions import TypedDict

from dianli.corpus.cite import Citation
from dianli.datafile import load_model

_STRICT = ConfigDict(extra="forbid")


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# --- the draw operations (vocabulary.yaml) ---------------------------------------------------------

Ref = str
"""A literal (``both``, ``shoulder`` …) or ``$name``: the meaning of the word a pattern's slot took."""
ImplementArrangement = Literal["open", "joined", "together", "clasped", "down"]
FaceMode = Literal["body", "head", "half"]


@with_config(_STRICT)
class HandSpec(TypedDict):
    """One hand (or ``both``) to a hand position of figure.yaml."""

    side: Ref
    at: str


@with_config(_STRICT)
class HandsSpec(TypedDict):
    """Both hands joined at a position, optionally held out toward a target (``$target``, left, right)."""

    at: str
    toward: NotRequired[Ref]


@with_config(_STRICT)
class FaceSpec(TypedDict):
    """Turn the body, the head, or both halfway, to a bearing (``$facing``)."""

    bearing: Ref | float
    mode: FaceMode


@with_config(_STRICT)
class FootSpec(TypedDict):
    """One foot to a foot state of figure.yaml."""

    side: Ref
    do: str


@with_config(_STRICT)
class BodySpec(TypedDict, total=False):
    """Bow, crouch and lower the head (degrees; crouch 0–1)."""

    bow_deg: float
    crouch: float
    head_down_deg: float


@with_config(_STRICT)
class DrawOp(TypedDict, total=False):
    """One operation: exactly one of these keys."""

    hand: HandSpec
    hands: HandsSpec
    implements: ImplementArrangement
    face: FaceSpec
    foot: FootSpec
    body: BodySpec
    advance: int
    turning: bool
    drum: int
    phase: Literal["next"]
    who: str


def _one_operation(op: DrawOp) -> DrawOp:
    if len(op) != 1:
        raise ValueError(f"a draw operation has exactly one key, got {sorted(op)}")
    return op


Draw = tuple[Annotated[DrawOp, AfterValidator(_one_operation)], ...]


# --- vocabulary.yaml -------------------------------------------------------------------------------


class SlotMeaning(_Data):
    """What a slot word means (one field or two), and the forms the witnesses write it in."""

    side: Literal["left", "right"] | None = None
    rank: Literal["east", "west"] | None = None
    bearing: float | None = None
    azimuth: float | None = None
    level: str | None = None
    hand: Literal["left", "right"] | None = None
    forms: tuple[str, ...] | None = None


class SlotNote(_Data):
    """What a slot rests on: a citation or an assumption."""

    cite: Citation | None = None
    assumption: str | None = None

    @model_validator(mode="after")
    def _says_something(self) -> Self:
        if self.cite is None and self.assumption is None:
            raise ValueError("a slot note needs cite or assumption")
        return self


class TermEntry(_Data):
    """One of the 籥翟 terms as the witnesses define it."""

    id: str
    char: str
    gloss: str
    cite: Citation
    draw: Draw


class GlossModern(_Data):
    cite: Citation


class PhraseEntry(_Data):
    """A phrase of the notation: its pattern over the witness text, what it means and draws."""

    id: str
    kind: Literal["subject", "action"] = "action"
    pattern: str
    gloss: str
    term: str | None = None
    files: tuple[int, ...] | None = None
    cite: Citation
    gloss_modern: GlossModern | None = None
    assumption: str | None = None
    draw: Draw


class VocabularyFile(_Data):
    """``data/vocabulary.yaml``; every slot the mirror and the slot notes name must exist."""

    slots: dict[str, dict[str, SlotMeaning]]
    mirror: dict[str, dict[str, str]]
    slot_cites: dict[str, tuple[SlotNote, ...]]
    terms: tuple[TermEntry, ...]
    phrases: tuple[PhraseEntry, ...]

    @field_validator("mirror", "slot_cites")
    @classmethod
    def _slots_exist(cls, table: dict[str, object], info: ValidationInfo) -> dict[str, object]:
        if "slots" not in info.data:
            return table  # the slots themselves are broken: that error is reported
        slots: dict[str, dict[str, SlotMeaning]] = info.data["slots"]
        for slot, words in table.items():
            if slot not in slots:
                raise ValueError(f"{slot}: unknown slot; accepted: {', '.join(slots)}")
            if info.field_name == "mirror" and isinstance(words, dict):
                for word, other in words.items():
                    if word not in slots[slot] or other not in slots[slot]:
                        raise ValueError(
                            f"{slot}: {word} → {other} names a word that is not in slots.{slot}; "
                            f"accepted: {', '.join(slots[slot])}"
                        )
        return table


# --- figure.yaml -----------------------------------------------------------------------------------

Point = tuple[float, float, float]
"""x to the dancer's right, y up, z forward (figure units: the height is ``height``)."""


class Joints(_Data):
    shoulder: Point
    hip: Point
    neck: Point
    head_radius: float
    upper_arm: float
    forearm: float
    thigh: float
    shin: float


class HandPosition(_Data):
    """Where the right hand is held (x mirrored for the left) and the term it draws, if any."""

    at: Point
    term: str | None = None


class FootState(_Data):
    """Where the right ankle goes (x mirrored for the left), how far the knee comes forward, the toe."""

    ankle: Point
    knee_forward: float | None = None
    toe_down: bool | None = None


class ImplementLengths(_Data):
    yue_length: float
    di_length: float


class Sides(_Data):
    left: str
    right: str


class Rest(_Data):
    """The standing pose between characters (an assumption)."""

    bearing: float
    implements: ImplementArrangement
    hands: Sides
    feet: Sides
    assumption: str


class FigureFile(_Data):
    """``data/figure.yaml``; the rest pose's hands and feet must be positions of the figure."""

    assumption: str
    height: float
    joints: Joints
    hands: dict[str, HandPosition]
    joined_half_gap: float
    levels: dict[str, str]
    feet: dict[str, FootState]
    crouch_drop: float
    step_length: float
    implements: ImplementLengths
    rest: Rest

    @field_validator("levels")
    @classmethod
    def _levels_are_hand_positions(cls, levels: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        hands = list(info.data.get("hands", {}))
        for level, at in levels.items():
            if "hands" in info.data and at not in hands:
                raise ValueError(f"{level}: no hand position {at!r}; accepted: {', '.join(hands)}")
        return levels

    @field_validator("rest")
    @classmethod
    def _rest_positions_exist(cls, rest: Rest, info: ValidationInfo) -> Rest:
        for kind, sides in (("hands", rest.hands), ("feet", rest.feet)):
            known = list(info.data.get(kind, {}))
            for side, name in (("left", sides.left), ("right", sides.right)):
                if kind in info.data and name not in known:
                    raise ValueError(f"{kind}.{side}: no position {name!r}; accepted: {', '.join(known)}")
        return rest


# --- formation.yaml --------------------------------------------------------------------------------


class Rank(_Data):
    id: Literal["east", "west"]
    name: str
    side: str
    cite: Citation


class FilesPerRank(_Data):
    count: int = Field(ge=1)
    cite: Citation
    note: str
    first_cite: Citation


class DancersPerFile(_Data):
    count: int = Field(ge=1)
    assumption: str
    sources: tuple[str, ...]


class Leader(_Data):
    role: str
    rank: Literal["east", "west"]
    count: int
    place: str
    cite: Citation


class LeadersPlace(_Data):
    cite: Citation
    lead_cite: Citation
    assumption: str


class Other(_Data):
    """A figure beside the dancers (麾生, 木鐸, 相鼓): where it stands is an assumption."""

    role: str
    count: int
    cite: Citation
    assumption: str


class Spacing(_Data):
    """Distances in metres (an assumption)."""

    file_gap: float
    dancer_gap: float
    aisle: float
    assumption: str


class FormationFile(_Data):
    """``data/formation.yaml``."""

    ranks: tuple[Rank, ...]
    files_per_rank: FilesPerRank
    dancers_per_file: DancersPerFile
    leaders: tuple[Leader, ...]
    leaders_place: LeadersPlace
    others: tuple[Other, ...]
    spacing: Spacing

    @property
    def cites(self) -> tuple[Citation, ...]:
        """Every citation of the file, in the order of the file."""
        return (
            *(r.cite for r in self.ranks),
            self.files_per_rank.cite,
            self.files_per_rank.first_cite,
            *(leader.cite for leader in self.leaders),
            self.leaders_place.cite,
            self.leaders_place.lead_cite,
            *(o.cite for o in self.others),
        )

    @property
    def assumptions(self) -> tuple[str, ...]:
        """Every assumption of the file, in the order of the file, as written (layout not kept)."""
        found = (
            self.dancers_per_file.assumption,
            self.leaders_place.assumption,
            *(o.assumption for o in self.others),
            self.spacing.assumption,
        )
        return tuple(" ".join(a.split()) for a in found)


# --- movements.yaml --------------------------------------------------------------------------------


class HeadingNote(_Data):
    cite: Citation


class MovementEntry(_Data):
    """A danced movement: id shared with the music, its 舞譜 section, the names a user may type."""

    id: str
    section: str
    names: tuple[str, ...] = Field(min_length=1)
    cite: Citation
    modern_cite: Citation
    heading_004: HeadingNote | None = None
    """The heading as 福建通志 writes it where it differs (之曲 for 之章)."""


class Undanced(_Data):
    id: str
    cite: Citation


class Tempo(_Data):
    seconds_per_character: float = Field(gt=0)
    assumption: str
    cite: Citation


class MovementsFile(_Data):
    """``data/movements.yaml``; ``default_witness`` must be one of ``witnesses``."""

    witnesses: tuple[str, ...] = Field(min_length=1)
    default_witness: str
    gloss_witness: str
    characters: int
    movements: tuple[MovementEntry, ...]
    undanced: tuple[Undanced, ...]
    tempo: Tempo

    @field_validator("default_witness")
    @classmethod
    def _a_dance_witness(cls, witness: str, info: ValidationInfo) -> str:
        witnesses = info.data.get("witnesses", ())
        if "witnesses" in info.data and witness not in witnesses:
            raise ValueError(f"{witness!r} is not a dance witness; accepted: {', '.join(witnesses)}")
        return witness


# --- emendations.yaml ------------------------------------------------------------------------------


class Support(_Data):
    cite: Citation


class EmendationEntry(_Data):
    """A reading the parser reads as another: where, what, as what, and the other witness's words."""

    witness: str
    movement: str
    char: str
    reading: str
    read_as: str
    cite: Citation
    support: Support
    assumption: str


class EmendationsFile(_Data):
    """``data/emendations.yaml``."""

    emendations: tuple[EmendationEntry, ...]


# --- citations.yaml (generated by dianli.dance.citations) ------------------------------------------


class CharacterCite(_Data):
    """A parsed rank clause of a sung character and the words it rests on."""

    movement: str
    index: int
    char: str
    rank: str
    cite: Citation


class GlossCite(_Data):
    movement: str
    index: int
    char: str
    cite: Citation


class SectionCite(_Data):
    """A heading or a clause of the definitions, by section."""

    section: str
    cite: Citation


class CitationsFile(_Data):
    """``data/citations.yaml``."""

    characters: tuple[CharacterCite, ...]
    glosses: tuple[GlossCite, ...]
    headings: tuple[SectionCite, ...]
    definitions: tuple[SectionCite, ...]


# --- loading ---------------------------------------------------------------------------------------


@functools.cache
def vocabulary_data() -> VocabularyFile:
    """``data/vocabulary.yaml``, validated."""
    return load_model("dance", "data/vocabulary.yaml", VocabularyFile)


@functools.cache
def figure_data() -> FigureFile:
    """``data/figure.yaml``, validated."""
    return load_model("dance", "data/figure.yaml", FigureFile)


@functools.cache
def formation_data() -> FormationFile:
    """``data/formation.yaml``, validated."""
    return load_model("dance", "data/formation.yaml", FormationFile)


@functools.cache
def movements_data() -> MovementsFile:
    """``data/movements.yaml``, validated."""
    return load_model("dance", "data/movements.yaml", MovementsFile)


@functools.cache
def emendations_data() -> EmendationsFile:
    """``data/emendations.yaml``, validated."""
    return load_model("dance", "data/emendations.yaml", EmendationsFile)
