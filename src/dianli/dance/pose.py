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
from dianli.dance.schema import (
    BodySpec,
    Draw,
    DrawOp,
    FaceSpec,
    FootSpec,
    HandSpec,
    HandsSpec,
    Ref,
    SlotMeaning,
    figure_data,
)
from dianli.dance.vocabulary import vocabulary
from dianli.errors import DataError

SIDES = ("left", "right")
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
    """The figure model (figure.yaml) as plain data, for the animation."""
    return figure_data().model_dump(mode="json", exclude_none=True)


def rest_state() -> FigureState:
    """The standing pose a dancer returns to between characters (an assumption of figure.yaml)."""
    rest = figure_data().rest
    return FigureState(
        bearing_deg=rest.bearing,
        head_deg=0.0,
        bow_deg=0.0,
        crouch=0.0,
        head_down_deg=0.0,
        left=Hand(rest.hands.left),
        right=Hand(rest.hands.right),
        implements=rest.implements,
        left_foot=rest.feet.left,
        right_foot=rest.feet.right,
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

    def value(self, ref: Ref | float) -> Ref | float | SlotMeaning:
        """A literal, or the meaning of the slot word a ``$name`` placeholder took."""
        if not (isinstance(ref, str) and ref.startswith("$")):
            return ref
        name = ref[1:]
        for slot_name, slot, word in self.token.slots:
            if slot_name == name:
                return vocabulary().slots[slot][word].meaning
        raise DataError(
            f"dance/data/vocabulary.yaml: phrase {self.token.phrase!r} draws with unknown ${name}"
        )


def _sides(ref: Ref, ctx: Context) -> tuple[str, ...]:
    value = ctx.value(ref)
    if value == "both":
        return SIDES
    side = (value.side or value.hand) if isinstance(value, SlotMeaning) else value
    if side not in SIDES:
        raise DataError(f"dance/data/vocabulary.yaml: phrase {ctx.token.phrase!r}: bad side {ref!r}")
    return (str(side),)


def _check_hand(at: str) -> str:
    hands = figure_data().hands
    if at not in hands:
        raise DataError(f"dance/data/figure.yaml: no hand position {at!r}; accepted: {', '.join(hands)}")
    return at


def _op_hand(state: FigureState, spec: HandSpec, ctx: Context) -> FigureState:
    at = _check_hand(spec["at"])
    for side in _sides(spec["side"], ctx):
        state = replace(state, left=Hand(at)) if side == "left" else replace(state, right=Hand(at))
    return state


def _op_hands(state: FigureState, spec: HandsSpec, ctx: Context) -> FigureState:
    at = spec["at"]
    azimuth = 0.0
    toward = ctx.value(spec["toward"]) if "toward" in spec else None
    if toward in SIDES:
        toward = vocabulary().slots["target"]["左" if toward == "left" else "右"].meaning
    if isinstance(toward, SlotMeaning):
        if toward.bearing is not None:
            azimuth = _signed(toward.bearing - state.bearing_deg)
        elif toward.azimuth is not None:
            azimuth = toward.azimuth
        elif toward.level is not None:
            at = figure_data().levels[toward.level]
    _check_hand(at)
    hand = Hand(at, azimuth, joined=True)
    return replace(state, left=hand, right=hand)


def _op_face(state: FigureState, spec: FaceSpec, ctx: Context) -> FigureState:
    value = ctx.value(spec["bearing"])
    bearing = value.bearing if isinstance(value, SlotMeaning) else value
    if not isinstance(bearing, float | int):
        raise DataError(f"dance/data/vocabulary.yaml: phrase {ctx.token.phrase!r}: no bearing in {value!r}")
    mode = spec["mode"]
    if mode == "body":
        return replace(state, bearing_deg=_wrap(bearing), head_deg=0.0)
    if mode == "head":
        return replace(state, head_deg=_signed(bearing - state.bearing_deg))
    half = _signed(bearing - state.bearing_deg) * HALF
    return replace(state, bearing_deg=_wrap(state.bearing_deg + half), head_deg=half)


def _op_foot(state: FigureState, spec: FootSpec, ctx: Context) -> FigureState:
    do = spec["do"]
    feet = figure_data().feet
    if do not in feet:
        raise DataError(f"dance/data/figure.yaml: no foot state {do!r}; accepted: {', '.join(feet)}")
    for side in _sides(spec["side"], ctx):
        state = replace(state, left_foot=do) if side == "left" else replace(state, right_foot=do)
    return state


def _op_body(state: FigureState, spec: BodySpec) -> FigureState:
    return replace(
        state,
        bow_deg=spec.get("bow_deg", state.bow_deg),
        crouch=spec.get("crouch", state.crouch),
        head_down_deg=spec.get("head_down_deg", state.head_down_deg),
    )


OPERATIONS = ("hand", "hands", "implements", "face", "foot", "body", "advance", "turning", "drum", "who")
"""The operations of a ``draw`` besides ``phase`` (each a key of :class:`DrawOp`)."""


def _apply(state: FigureState, op: DrawOp, ctx: Context) -> FigureState:
    """One operation (the schema guarantees one key of :class:`DrawOp`; ``who`` draws nothing)."""
    if "hand" in op:
        return _op_hand(state, op["hand"], ctx)
    if "hands" in op:
        return _op_hands(state, op["hands"], ctx)
    if "implements" in op:
        return replace(state, implements=op["implements"])
    if "face" in op:
        return _op_face(state, op["face"], ctx)
    if "foot" in op:
        return _op_foot(state, op["foot"], ctx)
    if "body" in op:
        return _op_body(state, op["body"])
    if "advance" in op:
        return replace(state, advance_steps=state.advance_steps + op["advance"])
    if "turning" in op:
        return replace(state, turning=op["turning"])
    if "drum" in op:
        return replace(state, drum_strokes=op["drum"])
    if "who" in op:
        return state
    raise DataError(
        f"dance/data/vocabulary.yaml: unknown draw operation {op!r}; accepted: {', '.join(OPERATIONS)}"
    )


def apply_draw(phases: list[FigureState], state: FigureState, draw: Draw, ctx: Context) -> FigureState:
    """Apply a phrase's operations; ``phase: next`` closes the current phase into ``phases``."""
    for op in draw:
        if "phase" in op:
            phases.append(state)
            state = replace(state, turning=False, drum_strokes=0)
            continue
        state = _apply(state, op, ctx)
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
