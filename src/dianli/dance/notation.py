"""The 舞譜 parser: each sung character's description, read completely into phrases for each rank.

The notation writes, after every sung character, what the 東班 and the 西班 do:
``覺(東班舞生，開籥向上，起左手於肩…；西班舞生，…)`` in 001, ``覺【東班舞生開籥向上…西班舞生…】`` in 004;
or, unbracketed, the character followed at once by its description, which begins with a rank (東班舞生,
東頭三五班舞生 …) and runs to the next such entry: ``。覺東班舞生開籥向上…。西班舞生…。我東班舞生…``
(汀州府志, one entry a line; its normalised text has no line breaks, so the rank after a sung character
that follows punctuation is what starts an entry).
A description is read phrase by phrase with the vocabulary (longest phrase first, punctuation and script
ignored); a phrase the vocabulary does not know is an error that quotes it. Nothing is skipped.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold, fold_char, is_key_char
from dianli.corpus.sections import find_sections
from dianli.corpus.witnesses import load_witness
from dianli.dance.schema import emendations_data, movements_data
from dianli.dance.vocabulary import Phrase, SlotValue, vocabulary
from dianli.errors import DataError, DianliError, UnknownValueError

_OPEN, _CLOSE = "(（【", ")）】"
_ENTRY_RE = re.compile(rf"(\w)[{_OPEN}]([^{_CLOSE}]*)[{_CLOSE}]")
# An unbracketed entry: a sung character (not preceded by another word character, so not the last
# character of a phrase) directly followed by a rank subject.
_RANK_START = r"[東东西][頭头二三四五六、，]*班舞生"
_BARE_ENTRY_RE = re.compile(rf"(?<!\w)(\w)(?={_RANK_START})")


class NotationError(DianliError):
    """A description the parser cannot read completely; the message quotes the unknown phrase."""

    def __init__(self, phrase: str, description: str, where: str) -> None:
        self.phrase = phrase
        self.description = description
        super().__init__(f"{where}: unknown phrase {phrase!r} in {description!r}")


@dataclass(frozen=True)
class Movement:
    """A danced movement: id shared with the music (chuxian …), its 舞譜 section and names."""

    id: str
    section: str
    names: tuple[str, ...]
    cite: Citation


@dataclass(frozen=True)
class Token:
    """One phrase read from a witness: which phrase, its words and its slot values."""

    phrase: str
    text: str
    """The witness's own characters of the phrase (as emended, if an emendation applies)."""
    start: int
    end: int
    """Reading-text offsets in the witness (-1 for text that is not in a witness)."""
    slots: tuple[tuple[str, str, str], ...]
    """(placeholder name, slot type, word)."""

    def slot_word(self, name: str) -> str | None:
        """The word a placeholder took, or None."""
        for slot_name, _, word in self.slots:
            if slot_name == name:
                return word
        return None


@dataclass(frozen=True)
class RankClause:
    """What one rank (or some 班 of it) does for one character: the subject and the phrases."""

    rank: str
    """east or west."""
    files: tuple[int, ...] | None
    """The 班 named (頭三五 → 1, 3, 5), or None for the whole rank."""
    subject: Token
    tokens: tuple[Token, ...]
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Emendation:
    """A reading the parser reads as another (data/emendations.yaml), recorded with the parse."""

    witness: str
    movement: str
    char: str
    reading: str
    read_as: str
    assumption: str
    support: Citation


@dataclass(frozen=True)
class CharacterNotation:
    """One sung character with its description, as one witness writes it."""

    witness: str
    movement: str
    index: int
    """1-based position of the character in the movement."""
    char: str
    description: str
    start: int
    end: int
    """Reading-text span of the character and its description."""
    clauses: tuple[RankClause, ...]
    emendations: tuple[Emendation, ...]

    def rank(self, rank: str) -> tuple[RankClause, ...]:
        """The clauses of one rank (east or west)."""
        return tuple(c for c in self.clauses if c.rank == rank)


@functools.lru_cache(maxsize=1)
def movements() -> tuple[Movement, ...]:
    """The three danced movements, in order."""
    return tuple(Movement(m.id, m.section, m.names, m.cite) for m in movements_data().movements)


def dance_witnesses() -> tuple[str, ...]:
    """The witnesses that hold the dance notation."""
    return movements_data().witnesses


def default_dance_witness() -> str:
    """The witness an animation shows when none is asked for (``default_witness`` of movements.yaml,
    checked at load to be one of ``witnesses``)."""
    return movements_data().default_witness


def movement(name: str) -> Movement:
    """A movement by id (chuxian) or by a Chinese name in either script (初獻, 初献, 寧平, 宁平)."""
    key = fold(name.strip())
    for mov in movements():
        if name.strip().lower() == mov.id or key in {fold(n) for n in mov.names}:
            return mov
    accepted = [m.id for m in movements()] + [n for m in movements() for n in m.names]
    from dianli.music.score import movement_info

    try:
        sung = movement_info(name)
    except UnknownValueError:
        raise UnknownValueError("movement", name, accepted) from None
    raise UnknownValueError(
        "danced movement",
        name,
        [f"{' '.join(m.names)} ({m.id})" for m in movements()],
        hint=f"{sung.name} {sung.tune} is sung but not danced (有樂無舞)",
    )


@functools.lru_cache(maxsize=1)
def emendations() -> tuple[Emendation, ...]:
    """Every emendation the parser applies."""
    return tuple(
        Emendation(e.witness, e.movement, e.char, e.reading, e.read_as, e.assumption, e.support.cite)
        for e in emendations_data().emendations
    )


def _keyed(text: str, base: int) -> tuple[str, list[int]]:
    """The folding key of ``text`` and, for each key character, its reading-text offset."""
    chars: list[str] = []
    offsets: list[int] = []
    for i, char in enumerate(text):
        if is_key_char(char):
            chars.append(fold_char(char))
            offsets.append(base + i)
    return "".join(chars), offsets


def _apply_emendations(
    key: str, offsets: list[int], applicable: tuple[Emendation, ...]
) -> tuple[str, list[int], str, tuple[Emendation, ...]]:
    """Replace each emended reading by its 'read as'; return the key, offsets, the key text and what applied."""
    applied: list[Emendation] = []
    for em in applicable:
        needle, repl = fold(em.reading), fold(em.read_as)
        at = key.find(needle)
        if at < 0:
            raise DataError(
                f"dance/data/emendations.yaml: reading {em.reading!r} of {em.witness} {em.movement} {em.char} "
                f"not found in its description"
            )
        start = offsets[at]
        new_offsets = [start + min(i, len(needle) - 1) for i in range(len(repl))]
        key = key[:at] + repl + key[at + len(needle) :]
        offsets = offsets[:at] + new_offsets + offsets[at + len(needle) :]
        applied.append(em)
    return key, offsets, key, tuple(applied)


def _match_at(key: str, at: int) -> tuple[Phrase, re.Match[str]] | None:
    best: tuple[Phrase, re.Match[str]] | None = None
    for phrase in vocabulary().phrases:
        found = phrase.regex.match(key, at)
        if found and (best is None or found.end() > best[1].end()):
            best = (phrase, found)
    return best


def _unknown_span(key: str, at: int) -> int:
    """The end of an unknown phrase: the next position where some phrase matches."""
    end = at + 1
    while end < len(key) and _match_at(key, end) is None:
        end += 1
    return end


def tokenize(key: str, offsets: list[int], text_of: str, where: str, description: str) -> tuple[Token, ...]:
    """Read a folded description completely into tokens; an unknown phrase raises NotationError."""
    tokens: list[Token] = []
    at = 0
    while at < len(key):
        found = _match_at(key, at)
        if found is None:
            end = _unknown_span(key, at)
            raise NotationError(text_of[at:end], description, where)
        phrase, match = found
        slots = tuple((name, slot, _word(slot, match.group(name))) for name, slot in phrase.slots)
        start = offsets[at] if offsets else -1
        stop = offsets[match.end() - 1] + 1 if offsets else -1
        tokens.append(Token(phrase.id, text_of[at : match.end()], start, stop, slots))
        at = match.end()
    return tuple(tokens)


def _word(slot: str, folded: str) -> str:
    value: SlotValue = vocabulary().slot_value(slot, folded)
    return value.word


def split_ranks(tokens: tuple[Token, ...], description: str, where: str) -> tuple[RankClause, ...]:
    """Group tokens into clauses, one per subject (東班舞生 …); text before any subject is an error."""
    vocab = vocabulary()
    clauses: list[RankClause] = []
    current: list[Token] = []
    subject: Token | None = None

    def close() -> None:
        if subject is None:
            return
        phrase = vocab.phrase(subject.phrase)
        rank_word = subject.slot_word("rank") or ""
        rank = str(vocab.slots["rank"][rank_word].meaning.rank)
        end = current[-1].end if current else subject.end
        text = "".join(t.text for t in (subject, *current))
        clauses.append(RankClause(rank, phrase.files, subject, tuple(current), text, subject.start, end))

    for token in tokens:
        if vocab.phrase(token.phrase).kind == "subject":
            close()
            subject, current = token, []
        elif subject is None:
            raise NotationError(token.text, description, f"{where}: no rank (東班舞生/西班舞生) before")
        else:
            current.append(token)
    close()
    if not clauses:
        raise NotationError(description, description, f"{where}: no rank named")
    return tuple(clauses)


def parse_description(description: str, where: str = "description") -> tuple[RankClause, ...]:
    """Parse one description given as text (no witness offsets); bad input raises a DianliError."""
    key, _ = _keyed(description, 0)
    if not key:
        raise NotationError(description, description, f"{where}: empty description")
    tokens = tokenize(key, [], key, where, description)
    return split_ranks(tokens, description, where)


def _entries(witness: str, mov: Movement) -> list[tuple[str, str, int, int, int, int]]:
    """(char, description, span start, span end, description start, description end) per character."""
    text = load_witness(witness).norm.text
    found = find_sections(witness, mov.section)
    if not found:
        raise UnknownValueError(f"section of {witness}", mov.section, [m.section for m in movements()])
    sec = found[0]
    result = []
    for match in _ENTRY_RE.finditer(text, sec.start, sec.end):
        if "班" not in match.group(2):
            continue
        result.append(
            (match.group(1), match.group(2), match.start(), match.end(), match.start(2), match.end(2))
        )
    result.extend(_bare_entries(text, sec.start, sec.end, [(r[2], r[3]) for r in result]))
    return sorted(result, key=lambda r: r[2])


def _bare_entries(
    text: str, start: int, end: int, bracketed: list[tuple[int, int]]
) -> list[tuple[str, str, int, int, int, int]]:
    """The unbracketed entries of ``text[start:end]`` outside the bracketed ones: each runs from its
    character to the next entry (or the section's end), trailing punctuation and spaces left out."""
    starts = [
        m.start()
        for m in _BARE_ENTRY_RE.finditer(text, start, end)
        if not any(b0 <= m.start() < b1 for b0, b1 in bracketed)
    ]
    stops = [*starts[1:], end] if starts else []
    result = []
    for at, stop in zip(starts, stops, strict=True):
        for b0, _ in bracketed:
            if at < b0 < stop:
                stop = b0
        while stop > at + 1 and not is_key_char(text[stop - 1]):
            stop -= 1
        result.append((text[at], text[at + 1 : stop], at, stop, at + 1, stop))
    return result


@functools.lru_cache(maxsize=16)
def parse_movement(witness: str, movement_name: str) -> tuple[CharacterNotation, ...]:
    """Every sung character of a movement in one witness, each description parsed completely."""
    if witness not in dance_witnesses():
        raise UnknownValueError("dance witness", witness, dance_witnesses())
    mov = movement(movement_name)
    result = []
    for index, (char, description, start, end, d0, _d1) in enumerate(_entries(witness, mov), start=1):
        where = f"{witness} {mov.id} #{index} {char}"
        key, offsets = _keyed(description, d0)
        applicable = tuple(
            e for e in emendations() if (e.witness, e.movement, e.char) == (witness, mov.id, char)
        )
        key, offsets, key_text, applied = _apply_emendations(key, offsets, applicable)
        text = load_witness(witness).norm.text
        own = "".join(text[o] for o in offsets)
        # Token text: the witness's own characters, except where an emendation replaced them.
        shown = "".join(
            own[i] if fold_char(own[i]) == key_text[i] else key_text[i] for i in range(len(key_text))
        )
        tokens = tokenize(key, offsets, shown, where, description)
        clauses = split_ranks(tokens, description, where)
        result.append(
            CharacterNotation(witness, mov.id, index, char, description, start, end, clauses, applied)
        )
    expected = movements_data().characters
    if len(result) != expected:
        raise DataError(f"{witness} {mov.section}: found {len(result)} sung characters, expected {expected}")
    return tuple(result)
