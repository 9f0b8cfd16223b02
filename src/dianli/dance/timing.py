"""When each sung character is danced: the music's timeline when it exists, else a stated tempo.

The music module (issue 6) gives per movement the start and end seconds of each sung character
(``character_times``); the poses use it. The tempo assumption of data/movements.yaml remains for a
caller that asks for it (or if the music cannot time a movement), and every output says which it used.
"""

from __future__ import annotations

from dataclasses import dataclass

from dianli.dance.notation import movement
from dianli.dance.schema import movements_data


@dataclass(frozen=True)
class Timing:
    """Start and end seconds of each sung character, and where they come from."""

    spans_s: tuple[tuple[float, float], ...]
    source: str
    assumption: str | None
    total_s: float | None = None
    """How long the movement runs: its audio's length where the music times it, else the last span's end."""

    @property
    def duration_s(self) -> float:
        """The time a player runs to."""
        return self.total_s if self.total_s is not None else (self.spans_s[-1][1] if self.spans_s else 0.0)


def tempo_timing(count: int) -> Timing:
    """Even timing from the tempo assumption."""
    tempo = movements_data().tempo
    step = tempo.seconds_per_character
    spans = tuple((i * step, (i + 1) * step) for i in range(count))
    return Timing(spans, f"tempo assumption: {step:g} s per character", " ".join(tempo.assumption.split()))


def music_timing(movement_id: str, count: int) -> Timing | None:
    """The music module's timeline of the movement (its sung characters), if it gives one per character."""
    try:
        from dianli.music.cues import character_times
        from dianli.music.render import movement_audio_seconds
    except ImportError:  # pragma: no cover - the music module is part of the package
        return None
    spans = character_times(movement_id)
    if len(spans) != count:
        return None
    return Timing(
        tuple((float(start), float(end)) for _, start, end in spans),
        "the music's timeline: each sung character starts and ends as the rehearsal audio sings it",
        None,
        round(movement_audio_seconds(movement_id), 3),
    )


def character_timing(movement_name: str, count: int | None = None, use_music: bool = True) -> Timing:
    """The timing used for a movement: the music's if available (and asked for), else the tempo assumption."""
    mov = movement(movement_name)
    count = count if count is not None else movements_data().characters
    timed = music_timing(mov.id, count) if use_music else None
    return timed or tempo_timing(count)
