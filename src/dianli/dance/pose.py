"""From parsed phrases to drawn figures: each phrase's ``draw`` operations applied to a figure state.

A pose is a sequence of phases (先…次…復…, 由…拱於… give more than one); each phase is a complete
:class:`FigureState`. The operations are data (vocabulary.yaml); this module is the small interpreter
that applies them, knowing nothing of any particular character.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from dianli.dance.notation import CharacterNotation, RankClause, Token
from dianli.dance.vocabulary import load_data, vocabulary
from dianli.errors import DataError

SIDES = ("left", "right")
IMPLEMENT_ARRANGEMENTS = ("open", "joined", "together", "clasped", "down")
FULL_TURN_DEG = 360.0
HALF = 0.5


@dataclass(frozen=True)
class Hand:
    """Where one hand is: a named position of figure.yaml, swung round the body by ``azimuth_deg``."""

    at: str
    azimuth_deg: float = 0.0
    joined: bool = False
    """Held together with the other hand (拱, 合 …)."""


@dataclass(frozen=True)
class FigureState:
    """One dancer's whole figure in one phase."""

    bearing_deg: float
    """The body's facing, degrees clockwise from 上 (the hall)."""
    head_deg: float
    """The head's turn relative to the body (positive: to the dancer's right)."""
    bow_deg: float
    crouch: float
    head_down_deg: float
    left: Hand
    right: Hand
    implements: str
    left_foot: str
    right_foot: str
    advance_steps: int
    turning: bool
    drum_strokes: int

    def hand(self, side: str) -> Hand:
        """The left or right hand."""
        return self.left if side == "left" else self.right

    def as_json(self) -> dict[str, Any]:
        """Plain data for the animation."""
        return {
            "bearing": self.bearing_deg,
            "head": self.head_deg,
            "bow": self.bow_deg,
            "crouch": self.crouch,
            "headDown": self.head_down_deg,
            "lh": {"at": self.left.at, "az": self.left.azimuth_deg, "joined": self.left.joined},
            "rh": {"at": self.right.at, "az": self.right.azimuth_deg, "joined": self.right.joined},
            "impl": self.implements,
            "lf": self.left_foot,
            "rf": self.right_foot,
            "adv": self.advance_steps,
            "turning": self.turning,
            "drum": self.drum_strokes,
        }


@functools.lru_cache(maxsize=1)
def figure() -> dict[str, Any]:
    """The figure model (figure.yaml)."""
    return load_data("figure.yaml")


def rest_state() -> FigureState:
    """The standing pose a dancer returns to between characters (an assumption of figure.yaml)."""
    rest = figure()["rest"]
    return FigureState(
        bearing_deg=float(rest["bearing"]),
        head_deg=0.0,
        bow_deg=0.0,
        crouch=0.0,
        head_down_deg=0.0,
        left=Hand(rest["hands"]["left"]),
        right=Hand(rest["hands"]["right"]),
        implements=rest["implements"],
        left_foot=rest["feet"]["left"],
        right_foot=rest["feet"]["right"],
        advance_steps=0,
        turning=False,
        drum_strokes=0,
    )


def _wrap(deg: float) -> float:
    return deg % FULL_TURN_DEG


def _signed(deg: float) -> float:
    """An angle in (−180, 180]."""
    d = _wrap(deg)
    return d - FULL_TURN_DEG if d > FULL_TURN_DEG / 2 else d


@dataclass(frozen=True)
class Context:
    """What an operation's ``$placeholder`` values resolve against."""

    token: Token

    def value(self, ref: Any) -> Any:
        """A literal, or the meaning of the slot word a ``$name`` placeholder took."""
        if not (isinstance(ref, str) and ref.startswith("$")):
            return ref
        name = ref[1:]
        for slot_name, slot, word in self.token.slots:
            if slot_name == name:
                return dict(vocabulary().slots[slot][word].meaning)
        raise DataError(
            f"dance/data/vocabulary.yaml: phrase {self.token.phrase!r} draws with unknown ${name}"
        )


def _sides(ref: Any, ctx: Context) -> tuple[str, ...]:
    value = ctx.value(ref)
    if value == "both":
        return SIDES
    if isinstance(value, dict):
        value = value.get("side") or value.get("hand")
    if value not in SIDES:
        raise DataError(f"dance/data/vocabulary.yaml: phrase {ctx.token.phrase!r}: bad side {ref!r}")
    return (str(value),)


def _check_hand(at: str) -> str:
    if at not in figure()["hands"]:
        raise DataError(
            f"dance/data/figure.yaml: no hand position {at!r}; accepted: {', '.join(figure()['hands'])}"
        )
    return at


def _op_hand(state: FigureState, spec: dict[str, Any], ctx: Context) -> FigureState:
    at = _check_hand(spec["at"])
    for side in _sides(spec["side"], ctx):
        state = replace(state, left=Hand(at)) if side == "left" else replace(state, right=Hand(at))
    return state


def _op_hands(state: FigureState, spec: dict[str, Any], ctx: Context) -> FigureState:
    at = spec["at"]
    azimuth = 0.0
    toward = ctx.value(spec.get("toward"))
    if isinstance(toward, str) and toward in ("left", "right"):
        toward = dict(vocabulary().slots["target"]["左" if toward == "left" else "右"].meaning)
    if isinstance(toward, dict):
        if "bearing" in toward:
            azimuth = _signed(float(toward["bearing"]) - state.bearing_deg)
        elif "azimuth" in toward:
            azimuth = float(toward["azimuth"])
        elif "level" in toward:
            at = figure()["levels"][toward["level"]]
    _check_hand(at)
    hand = Hand(at, azimuth, joined=True)
    return replace(state, left=hand, right=hand)


def _op_implements(state: FigureState, spec: Any, ctx: Context) -> FigureState:
    if spec not in IMPLEMENT_ARRANGEMENTS:
        raise DataError(
            f"dance/data/vocabulary.yaml: implements {spec!r}; accepted: {IMPLEMENT_ARRANGEMENTS}"
        )
    return replace(state, implements=spec)


def _op_face(state: FigureState, spec: dict[str, Any], ctx: Context) -> FigureState:
    value = ctx.value(spec["bearing"])
    bearing = float(value["bearing"] if isinstance(value, dict) else value)
    mode = spec["mode"]
    if mode == "body":
        return replace(state, bearing_deg=_wrap(bearing), head_deg=0.0)
    if mode == "head":
        return replace(state, head_deg=_signed(bearing - state.bearing_deg))
    if mode == "half":
        half = _signed(bearing - state.bearing_deg) * HALF
        return replace(state, bearing_deg=_wrap(state.bearing_deg + half), head_deg=half)
    raise DataError(f"dance/data/vocabulary.yaml: face mode {mode!r}; accepted: body, head, half")


def _op_foot(state: FigureState, spec: dict[str, Any], ctx: Context) -> FigureState:
    do = spec["do"]
    if do not in figure()["feet"]:
        raise DataError(
            f"dance/data/figure.yaml: no foot state {do!r}; accepted: {', '.join(figure()['feet'])}"
        )
    for side in _sides(spec["side"], ctx):
        state = replace(state, left_foot=do) if side == "left" else replace(state, right_foot=do)
    return state


def _op_body(state: FigureState, spec: dict[str, Any], ctx: Context) -> FigureState:
    fields = ("bow_deg", "crouch", "head_down_deg")
    if not set(spec) <= set(fields):
        raise DataError(f"dance/data/vocabulary.yaml: body {spec!r}; accepted keys: {', '.join(fields)}")
    return replace(
        state,
        bow_deg=float(spec.get("bow_deg", state.bow_deg)),
        crouch=float(spec.get("crouch", state.crouch)),
        head_down_deg=float(spec.get("head_down_deg", state.head_down_deg)),
    )


def _op_advance(state: FigureState, spec: Any, ctx: Context) -> FigureState:
    return replace(state, advance_steps=state.advance_steps + int(spec))


def _op_turning(state: FigureState, spec: Any, ctx: Context) -> FigureState:
    return replace(state, turning=bool(spec))


def _op_drum(state: FigureState, spec: Any, ctx: Context) -> FigureState:
    return replace(state, drum_strokes=int(spec))


def _op_who(state: FigureState, spec: Any, ctx: Context) -> FigureState:
    return state


OPERATIONS = {
    "hand": _op_hand,
    "hands": _op_hands,
    "implements": _op_implements,
    "face": _op_face,
    "foot": _op_foot,
    "body": _op_body,
    "advance": _op_advance,
    "turning": _op_turning,
    "drum": _op_drum,
    "who": _op_who,
}


def apply_draw(
    phases: list[FigureState], state: FigureState, draw: tuple[dict[str, Any], ...], ctx: Context
) -> FigureState:
    """Apply a phrase's operations; ``phase: next`` closes the current phase into ``phases``."""
    for op in draw:
        ((name, spec),) = op.items()
        if name == "phase":
            phases.append(state)
            state = replace(state, turning=False, drum_strokes=0)
            continue
        if name not in OPERATIONS:
            raise DataError(
                f"dance/data/vocabulary.yaml: unknown draw operation {name!r}; accepted: {', '.join(OPERATIONS)}"
            )
        state = OPERATIONS[name](state, spec, ctx)
    return state


def clause_phases(clause: RankClause, start: FigureState | None = None) -> tuple[FigureState, ...]:
    """The phases of one rank's pose for one character, from the rest pose."""
    vocab = vocabulary()
    phases: list[FigureState] = []
    state = start or rest_state()
    for token in clause.tokens:
        state = apply_draw(phases, state, vocab.phrase(token.phrase).draw, Context(token))
    phases.append(state)
    return tuple(phases)


@dataclass(frozen=True)
class FilePose:
    """The phases of one 班 of one rank for one character, and whether the notation names it."""

    rank: str
    file: int
    phases: tuple[FigureState, ...]
    named: bool


def character_poses(
    note: CharacterNotation, files_per_rank: int, previous: dict[tuple[str, int], FilePose] | None = None
) -> dict[tuple[str, int], FilePose]:
    """Every (rank, 班) pose for one character. A 班 the notation does not name holds its last pose."""
    result: dict[tuple[str, int], FilePose] = {}
    for rank in ("east", "west"):
        for clause in note.rank(rank):
            files = clause.files or tuple(range(1, files_per_rank + 1))
            phases = clause_phases(clause)
            for number in files:
                result[(rank, number)] = FilePose(rank, number, phases, True)
        for number in range(1, files_per_rank + 1):
            if (rank, number) not in result:
                held = previous[(rank, number)].phases[-1:] if previous else (rest_state(),)
                result[(rank, number)] = FilePose(rank, number, held, False)
    return result
