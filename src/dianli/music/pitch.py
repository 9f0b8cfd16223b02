"""律呂, 清聲 and 工尺: the pitch standard of the 大成樂, its tunings and the cents table.

Two tunings come from the witnesses: **三分損益** (lengths generated from 黃鐘's nine 寸 by taking two
thirds or four thirds in turn) and **stated** (the 鳳簫 pipe lengths as written in 臺灣府志). A third,
equal temperament, is only a reference. Frequencies follow from lengths by inverse proportion, and the
absolute pitch of 黃鐘 is a configurable assumption (see ``data/pitch.yaml``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.errors import DataError, OutOfRangeError, UnknownValueError
from dianli.music.findings import Finding
from dianli.music.measures import UNITS_CUN, Length, parse_length
from dianli.music.schema import pitch_data

_FILE = "music/data/pitch.yaml"
TUNING_SYSTEMS: tuple[str, ...] = ("sanfen", "stated", "equal")
CENTS_PER_OCTAVE = 1200.0
SEMITONES_PER_OCTAVE = 12
AGREEMENT_CENTS = 0.5
"""A stated length within this many cents of 三分損益 agrees with it (the witness truncates digits)."""
MAX_COPYING_DIGITS = 2
"""A departure confined to at most this many written digits looks like a copying error."""


@dataclass(frozen=True)
class Lu:
    """One of the twelve 律呂 or four 清聲, with its 鳳簫 pipe and stated length."""

    id: str
    name: str
    short: str
    semitone: int
    pipe: int
    qing_of: str | None
    stated: Length
    cite: Citation
    parallels: tuple[Citation, ...] = ()
    """The same pipe in the other witnesses (汀州府志, the modern translation)."""

    @property
    def stated_length_cun(self) -> float:
        """The pipe length as written, in 寸."""
        return self.stated.length_cun


@dataclass(frozen=True)
class GongChe:
    """A 工尺 syllable and the 律 it names."""

    name: str
    lu: str
    cite: Citation
    assumption: str | None


@dataclass(frozen=True)
class Note:
    """A note as the 樂章 writes it after a character: 律 abbreviation + 工尺 (e.g. 太四)."""

    token: str
    lu: str
    gongche: str


@functools.lru_cache(maxsize=1)
def lus() -> tuple[Lu, ...]:
    """The sixteen pitches in order of their pipes (黃鐘 … 清夾鐘)."""
    return tuple(
        Lu(
            id=entry.id,
            name=entry.name,
            short=entry.short,
            semitone=entry.semitone,
            pipe=entry.pipe,
            qing_of=entry.qing_of,
            stated=parse_length(entry.cite.quote.split("長", 1)[-1]),
            cite=entry.cite,
            parallels=entry.parallels,
        )
        for entry in pitch_data().lu
    )


def lu_ids() -> tuple[str, ...]:
    """Ids of the sixteen pitches."""
    return tuple(x.id for x in lus())


def lu(name: str) -> Lu:
    """A pitch by id (``taicu``) or name (太簇, 太蔟, 清黃鐘; script-insensitive)."""
    for x in lus():
        if name == x.id or fold(name) == fold(x.name):
            return x
    raise UnknownValueError("lü", name, [f"{x.id} ({x.name})" for x in lus()])


@functools.lru_cache(maxsize=1)
def gongche_table() -> tuple[GongChe, ...]:
    """The 工尺 syllables (合 四 一 上 尺 工 凡 六 五 乙) with their 律."""
    return tuple(
        GongChe(name=entry.name, lu=lu(entry.lu).id, cite=entry.cite, assumption=entry.assumption)
        for entry in pitch_data().gongche
    )


def gongche(name: str) -> GongChe:
    """A 工尺 syllable by name."""
    for g in gongche_table():
        if g.name == name:
            return g
    raise UnknownValueError("gongche syllable", name, [g.name for g in gongche_table()])


def mode_syllables() -> tuple[str, ...]:
    """The six syllables the 大成樂 uses (合 四 上 尺 工 六)."""
    return pitch_data().mode.syllables


def mode_cite() -> Citation:
    """Where the witness names the six syllables of the 大成樂."""
    return pitch_data().mode.cite


def gekoupu_cites() -> tuple[Citation, ...]:
    """The 歌口譜: where each syllable starts and falls in the mouth (every witness that gives it)."""
    return pitch_data().gekoupu.cites


def note_tokens() -> tuple[str, ...]:
    """Every well-formed note token: 律 abbreviation + 工尺 syllable (黃合, 太四, …, 黃六, 太五 …)."""
    return tuple(lu(g.lu).short + g.name for g in gongche_table())


def parse_note(token: str) -> Note:
    """Read a note token such as 太四 or 黃六; its 律 abbreviation must agree with its 工尺 syllable."""
    token = token.strip()
    if len(token) == 2:
        for g in gongche_table():
            pitch = lu(g.lu)
            if token[1] == g.name and fold(token[0]) == fold(pitch.short):
                return Note(token=token, lu=pitch.id, gongche=g.name)
    raise UnknownValueError("note", token, note_tokens(), "a note is a 律 abbreviation and a 工尺 syllable")


# --- tuning -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def sanfen_lengths() -> dict[str, Fraction]:
    """Pipe lengths in 寸 by 三分損益, exact fractions, for all sixteen pitches."""
    spec = pitch_data().sanfen
    factors = {k: Fraction(numerator, denominator) for k, (numerator, denominator) in spec.factors.items()}
    lengths: dict[str, Fraction] = {lu(spec.start.lu).id: Fraction(spec.start.length_cun)}
    for i, (src, dst, op) in enumerate(spec.steps):
        if lu(src).id not in lengths or op not in factors:
            raise DataError(f"{_FILE}: sanfen.steps[{i}] uses {src!r} before it is generated or op {op!r}")
        lengths[lu(dst).id] = lengths[lu(src).id] * factors[op]
    for x in lus():
        if x.qing_of is not None:
            lengths[x.id] = lengths[x.qing_of] / 2
    missing = [x.id for x in lus() if x.id not in lengths]
    if missing:
        raise DataError(f"{_FILE}: sanfen does not generate {missing}")
    return lengths


def default_huangzhong_hz() -> float:
    """The assumed frequency of 黃鐘 (see ``absolute_pitch`` in data/pitch.yaml)."""
    return pitch_data().absolute_pitch.huangzhong_hz


def assumptions() -> dict[str, str]:
    """The pitch assumptions, by topic, as shown to users."""
    data = pitch_data()
    return {
        "absolute_pitch": data.absolute_pitch.assumption,
        "pipe_length_to_pitch": data.pipes.assumption,
        "sanfen_order": data.sanfen.assumption,
    }


@dataclass(frozen=True)
class Tuning:
    """A tuning system and the absolute pitch of 黃鐘."""

    system: str = "sanfen"
    huangzhong_hz: float = 293.66

    def __post_init__(self) -> None:
        if self.system not in TUNING_SYSTEMS:
            raise UnknownValueError("tuning system", self.system, TUNING_SYSTEMS)
        if not 20.0 <= self.huangzhong_hz <= 2000.0:
            raise OutOfRangeError("huangzhong_hz", self.huangzhong_hz, "20 to 2000 Hz")

    def ratio(self, lu_id: str) -> float:
        """Frequency of the pitch relative to 黃鐘."""
        pitch = lu(lu_id)
        if self.system == "equal":
            return float(2.0 ** (pitch.semitone / SEMITONES_PER_OCTAVE))
        if self.system == "sanfen":
            return float(Fraction(9) / sanfen_lengths()[pitch.id])
        return lu("huangzhong").stated_length_cun / pitch.stated_length_cun

    def freq_hz(self, lu_id: str, octave_shift: int = 0) -> float:
        """Frequency of the pitch in Hz, optionally octaves up (+) or down (−)."""
        return self.huangzhong_hz * self.ratio(lu_id) * 2.0**octave_shift

    def cents(self, lu_id: str) -> float:
        """Cents above 黃鐘."""
        return CENTS_PER_OCTAVE * math.log2(self.ratio(lu_id))


def default_tuning() -> Tuning:
    """三分損益 (the stated lengths carry suspected copying errors), 黃鐘 at the assumed pitch."""
    return Tuning("sanfen", default_huangzhong_hz())


def midi_pitch(freq_hz: float) -> float:
    """Fractional MIDI key number of a frequency (A4 = 69 = 440 Hz)."""
    return 69.0 + SEMITONES_PER_OCTAVE * math.log2(freq_hz / 440.0)


# --- cents table and findings -------------------------------------------------------------------


@dataclass(frozen=True)
class CentsRow:
    """One pitch compared across the tunings; ``verdict`` says how the stated length relates to 三分損益."""

    lu: Lu
    stated_cun: float
    sanfen_cun: float
    stated_cents: float
    sanfen_cents: float
    equal_cents: float
    deviation_cents: float
    verdict: str
    differing_units: tuple[str, ...]
    expected_digits: tuple[tuple[str, int], ...]

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready mapping."""
        return {
            "lu": self.lu.id,
            "name": self.lu.name,
            "pipe": self.lu.pipe,
            "stated_text": self.lu.stated.text,
            "stated_cun": self.stated_cun,
            "sanfen_cun": round(self.sanfen_cun, 6),
            "stated_cents": round(self.stated_cents, 2),
            "sanfen_cents": round(self.sanfen_cents, 2),
            "equal_cents": round(self.equal_cents, 2),
            "deviation_cents": round(self.deviation_cents, 2),
            "verdict": self.verdict,
            "differing_units": list(self.differing_units),
        }


def _expected_digits(value: Fraction, stated: Length) -> tuple[tuple[str, int], ...]:
    """The digits 三分損益 gives, written in the same units as the stated length (truncated)."""
    digits = []
    rest = value
    for unit, _ in stated.digits:
        size = Fraction(UNITS_CUN[unit]).limit_denominator(10**6)
        digit = math.floor(rest / size)
        digits.append((unit, digit))
        rest -= digit * size
    return tuple(digits)


def _ninths_reading(stated: Length) -> float | None:
    """The stated length if its 分 are read as ninths of a 寸 (the old 九分寸), when it has only 寸 and 分."""
    units = [u for u, _ in stated.digits]
    if units != ["寸", "分"]:
        return None
    values = dict(stated.digits)
    return values["寸"] + values["分"] / 9


NINTHS_VERDICT = "half of its 律 in ninths"
"""The verdict on a 清 pipe whose length is its 律's written in ninths, halved as if decimal."""


def ninths_digits(value: Fraction, count: int) -> tuple[int, ...]:
    """The first ``count`` digits of a length in 寸 written in the old ninths notation (九分寸: nine 分 to
    the 寸, nine 釐 to the 分 …): 大呂 8.42798… 寸 is 8寸3分7釐6毫."""
    digits = []
    rest = value
    for _ in range(count):
        digit = math.floor(rest)
        digits.append(digit)
        rest = (rest - digit) * 9
    return tuple(digits)


def halved_from_ninths(pitch: Lu) -> tuple[tuple[int, ...], float] | None:
    """For a 清 pipe: its 律's 三分損益 length written in ninths, those digits read as decimal and halved
    (truncated to the units the witness writes) — (the digits, the half) — if that is the stated length."""
    if pitch.qing_of is None:
        return None
    units = len(pitch.stated.digits)
    digits = ninths_digits(sanfen_lengths()[pitch.qing_of], units + 1)
    as_decimal = sum(Fraction(d, 10**i) for i, d in enumerate(digits))
    smallest = Fraction(UNITS_CUN[pitch.stated.digits[-1][0]]).limit_denominator(10**6)
    half = math.floor(as_decimal / 2 / smallest) * smallest
    if abs(float(half) - pitch.stated_length_cun) > 1e-9:
        return None
    return digits, float(half)


def cents_table() -> tuple[CentsRow, ...]:
    """Every pitch in the three tunings, with the verdict on its stated length."""
    rows = []
    hz = default_huangzhong_hz()
    stated_t, sanfen_t, equal_t = Tuning("stated", hz), Tuning("sanfen", hz), Tuning("equal", hz)
    for pitch in lus():
        exact = sanfen_lengths()[pitch.id]
        deviation = stated_t.cents(pitch.id) - sanfen_t.cents(pitch.id)
        expected = _expected_digits(exact, pitch.stated)
        differing = tuple(u for (u, a), (_, b) in zip(pitch.stated.digits, expected, strict=True) if a != b)
        ninths = _ninths_reading(pitch.stated)
        if abs(deviation) < AGREEMENT_CENTS:
            verdict = "agrees"
        elif ninths is not None and abs(ninths - float(exact)) < 1e-9:
            verdict = "agrees if 分 are ninths"
        elif halved_from_ninths(pitch) is not None:
            verdict = NINTHS_VERDICT
        elif len(differing) <= MAX_COPYING_DIGITS:
            verdict = "copying error?"
        else:
            verdict = "departs"
        rows.append(
            CentsRow(
                lu=pitch,
                stated_cun=pitch.stated_length_cun,
                sanfen_cun=float(exact),
                stated_cents=stated_t.cents(pitch.id),
                sanfen_cents=sanfen_t.cents(pitch.id),
                equal_cents=equal_t.cents(pitch.id),
                deviation_cents=deviation,
                verdict=verdict,
                differing_units=differing,
                expected_digits=expected,
            )
        )
    return tuple(rows)


_UNITS = ("寸", "分", "釐", "毫", "絲", "忽")


def _written(digits: tuple[tuple[str, int], ...]) -> str:
    numerals = "零一二三四五六七八九"
    return "".join(f"{numerals[d] if d < 10 else d}{u}" for u, d in digits)


def pitch_findings() -> tuple[Finding, ...]:
    """Stated pipe lengths that depart from 三分損益, each with its size in cents and likely cause."""
    result = []
    for row in cents_table():
        if row.verdict == "agrees":
            continue
        subject = f"{row.lu.name} (pipe {row.lu.pipe})"
        said = f"stated {row.lu.stated.text} = {row.stated_cun:g} 寸; 三分損益 gives {row.sanfen_cun:.5f} 寸"
        cents = f"{row.deviation_cents:+.1f} cents"
        if row.verdict == "agrees if 分 are ninths":
            message = (
                f"{said}. Read decimally the pipe is {cents} off; read with 分 as ninths of a 寸 "
                "(the old 九分寸 notation) it is exact — the witness mixes the two notations."
            )
        elif row.verdict == NINTHS_VERDICT:
            parent = lu(row.lu.qing_of or "")
            found = halved_from_ninths(row.lu)
            assert found is not None
            digits, half = found
            written = "".join(f"{d}{u}" for d, u in zip(digits, _UNITS, strict=False))
            message = (
                f"{said}: {cents}. It is half of {parent.name} ({float(sanfen_lengths()[parent.id]):.5f} 寸) "
                f"written in ninths (九分寸, as 姑洗 and 南呂 are): {written}, whose digits read as decimal, "
                f"{digits[0]}.{''.join(str(d) for d in digits[1:])} 寸, halve to "
                f"{half:g} 寸 (to the {row.lu.stated.digits[-1][0]} it writes) — the witness's figure: the 清 pipe "
                "was computed from the 律 written in the old notation and halved as if in the new."
            )
        elif row.verdict == "copying error?":
            message = (
                f"{said} ({_written(row.expected_digits)}): {cents}. Only the "
                f"{'/'.join(row.differing_units)} digit(s) differ — this looks like a copying error."
            )
        else:
            message = (
                f"{said} ({_written(row.expected_digits)}): {cents}. The digits differ in "
                f"{len(row.differing_units)} places, more than a copying slip; the witness may follow "
                "another computation."
            )
        result.append(Finding("pitch", subject, message, (row.lu.cite,)))
    return tuple(result)
