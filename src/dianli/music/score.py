"""The 大成樂 score read from the witness: movements → phrases → characters, each with its note.

The 樂章 of a score witness writes a note after every sung character: ``大(太四)哉(南工)…`` in brackets,
or unbracketed, ``大太四　哉南工…``. The score witnesses, and how each writes its notes, are listed in
``data/movements.yaml`` (the first is the default). This module reads those pairs from each movement's
section of a score witness, checks them (a note with no character, a note outside the six syllables of
the mode, a phrase that is not four characters), and cross-checks the sung text with the characters
that the 舞譜 of the dance witnesses dance to.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, replace

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import NOTE_BRACKETS, fold, is_key_char
from dianli.corpus.sections import find_sections
from dianli.corpus.witnesses import load_witness
from dianli.errors import DataError, DianliError, UnknownValueError
from dianli.music.findings import Finding
from dianli.music.pitch import Note, mode_cite, mode_syllables, parse_note
from dianli.music.schema import Emendation, ScoreWitness, movements_data

_FILE = "music/data/movements.yaml"
MISSING_CHARACTER = "□"
"""Shown for a note the witness writes with no character before it."""

# A character (optional: the witness sometimes drops it) and the note in brackets after it.
_PAIR_RE = re.compile(r"(?P<char>[^\s()（），；．。、:：]?)[(（](?P<note>[^()（）]{1,4})[)）]")


@dataclass(frozen=True)
class SungCharacter:
    """One sung character with its note and where the witness writes them."""

    char: str
    """As written; empty when the witness gives the note without its character."""
    note: Note
    phrase: int
    """1-based phrase number within the movement."""
    position: int
    """1-based position within the phrase."""
    text_start: int
    text_end: int
    gloss_reading: str | None = None
    """A reading supplied by the gloss (000) where the character is missing."""
    unencoded_glyph: str = ""
    """A private-use code point standing for a glyph the digitised witness could not encode."""
    witness: str = ""
    """The score witness that writes it (empty: the default score witness)."""
    written_note: str = ""
    """The note as the witness writes it, where the score sings an emended reading (see ``note``)."""

    @property
    def display(self) -> str:
        """The character, or the gloss's reading in brackets, or □."""
        if self.char:
            return self.char
        return f"[{self.gloss_reading}]" if self.gloss_reading else MISSING_CHARACTER

    @property
    def citation(self) -> Citation:
        """The character and its note as quoted from the witness."""
        # A missing character leaves only the note, which recurs: quote the pair before it as well.
        witness = self.witness or score_witness()
        start = self.text_start if self.char else max(0, self.text_start - 4)
        quote = load_witness(witness).norm.text[start : self.text_end]
        return Citation(witness=witness, quote=quote)

    @property
    def note_as_written(self) -> str:
        """The note token as the witness writes it (an emended note keeps its written form here)."""
        return self.written_note or self.note.token


@dataclass(frozen=True)
class Phrase:
    """Four characters (one 句)."""

    number: int
    characters: tuple[SungCharacter, ...]

    @property
    def text(self) -> str:
        """The sung words."""
        return "".join(c.display for c in self.characters)


@dataclass(frozen=True)
class MovementInfo:
    """A movement's identity: id, 禮 name, tune name, section, whether it is danced."""

    id: str
    name: str
    tune: str
    section: str
    danced: bool
    same_as: str | None
    cite: Citation
    gloss: tuple[tuple[int, int, str, Citation], ...]
    text_cites: tuple[Citation, ...] = ()
    """The sung text line by line: the scored lines of the score witness, the paraphrase of the gloss."""
    tune_reading: str = ""
    """The tune's name as the calls speak it: pinyin with tone numbers."""

    @property
    def title(self) -> str:
        """e.g. 初獻 寧平."""
        return f"{self.name} {self.tune}"


@dataclass(frozen=True)
class Movement:
    """A movement with its phrases."""

    info: MovementInfo
    phrases: tuple[Phrase, ...]
    witness: str = ""
    """The score witness read."""

    @property
    def id(self) -> str:
        """The movement id."""
        return self.info.id

    @property
    def characters(self) -> tuple[SungCharacter, ...]:
        """All sung characters in order."""
        return tuple(c for p in self.phrases for c in p.characters)


def score_witness() -> str:
    """The default score witness: the first of ``score_witnesses`` in data/movements.yaml."""
    return movements_data().score_witnesses[0].witness


def score_witnesses() -> tuple[str, ...]:
    """Every witness whose 樂章 the score can be read from, the default first."""
    return tuple(w.witness for w in movements_data().score_witnesses)


def check_score_witness(witness: str | None) -> str:
    """The score witness asked for (None: the default); an unknown one is refused with the list."""
    if witness is None:
        return score_witness()
    if witness not in score_witnesses():
        raise UnknownValueError("score witness", witness, score_witnesses())
    return witness


def _score_witness_entry(witness: str) -> ScoreWitness:
    return next(w for w in movements_data().score_witnesses if w.witness == check_score_witness(witness))


def notation_cite(witness: str | None = None) -> Citation:
    """Where the score witness writes a character with its note (how its notation was read)."""
    return _score_witness_entry(check_score_witness(witness)).notation_cite


def emendations(witness: str | None = None) -> tuple[Emendation, ...]:
    """The notes of a score witness that are no notes of the mode, with the reading sung instead."""
    return _score_witness_entry(check_score_witness(witness)).emendations


def _shape() -> tuple[int, int]:
    data = movements_data()
    return data.phrases_per_movement, data.characters_per_phrase


@functools.lru_cache(maxsize=1)
def movement_infos() -> tuple[MovementInfo, ...]:
    """The movements in the order of the rite."""
    return tuple(
        MovementInfo(
            id=entry.id,
            name=entry.name,
            tune=entry.tune,
            section=entry.section,
            danced=entry.danced,
            same_as=entry.same_as,
            cite=entry.cite,
            gloss=tuple((g.position[0], g.position[1], g.reading, g.cite) for g in entry.gloss),
            text_cites=entry.text_cites,
            tune_reading=entry.tune_reading,
        )
        for entry in movements_data().movements
    )


def movement_ids() -> tuple[str, ...]:
    """Movement ids in the order of the rite."""
    return tuple(m.id for m in movement_infos())


def accepted_movement_names() -> tuple[str, ...]:
    """What :func:`movement_info` accepts: ids, 禮 names (迎神 …) and the tune names that are unique."""
    tunes = [m.tune for m in movement_infos()]
    names = [m.id for m in movement_infos()] + [m.name for m in movement_infos()]
    return tuple(names + [t for t in dict.fromkeys(tunes) if tunes.count(t) == 1])


def movement_info(name: str) -> MovementInfo:
    """A movement by id (``chuxian``), 禮 name (初獻, 初献) or unique tune name (寧平, 宁平).

    咸平 names four movements (迎神, 徹饌, 送神, 望瘞), so it is refused with the list of them.
    """
    key = fold(name.strip())
    for m in movement_infos():
        if name.strip().lower() == m.id or key == fold(m.name) or key == fold(m.title.replace(" ", "")):
            return m
    by_tune = [m for m in movement_infos() if fold(m.tune) == key]
    if len(by_tune) == 1:
        return by_tune[0]
    hint = ""
    if len(by_tune) > 1:
        hint = f"{name} is the tune of {', '.join(m.name for m in by_tune)}; name the movement instead"
    raise UnknownValueError("movement", name, accepted_movement_names(), hint)


def _section_span(info: MovementInfo, witness: str) -> tuple[int, int, int]:
    found = find_sections(witness, info.section)
    if not found:
        raise DataError(f"{_FILE}: section {info.section!r} not found in {witness}")
    sec = found[0]
    return sec.start, sec.start + len(sec.heading or ""), sec.end


def witness_movement_info(name: str, witness: str | None = None) -> MovementInfo:
    """A movement as a score witness heads it: its own heading citation and sung lines.

    The default witness's are the movement's own (:func:`movement_info`); another witness lists them
    under its entry of ``score_witnesses``.
    """
    info = movement_info(name)
    witness = check_score_witness(witness)
    if witness == score_witness():
        return info
    entry = next(m for m in _score_witness_entry(witness).movements if m.id == info.id)
    return replace(info, cite=entry.cite, gloss=(), text_cites=entry.text_cites)


def parse_inline_pairs(text: str, offset: int = 0) -> list[tuple[str, str, int, int]]:
    """The (character, note token, start, end) triples of a 樂章 that writes each note unbracketed after
    its character (``大太四　哉南工…``): the characters outside notes, read three at a time as the sung
    character, the 律 abbreviation and the 工尺 syllable. Punctuation between them (``圣！仲上``) and notes in
    brackets (``(有乐、无舞)``) are skipped; a last incomplete group is dropped (the count check names it)."""
    closers = set(NOTE_BRACKETS.values())
    depth = 0
    keys: list[int] = []
    for i, char in enumerate(text):
        if char in NOTE_BRACKETS:
            depth += 1
        elif char in closers:
            depth = max(0, depth - 1)
        elif depth == 0 and (is_key_char(char) or _unencoded(char)):
            keys.append(i)
    return [
        (text[keys[i]], text[keys[i + 1]] + text[keys[i + 2]], offset + keys[i], offset + keys[i + 2] + 1)
        for i in range(0, len(keys) - 2, 3)
    ]


def parse_pairs(text: str, offset: int = 0) -> list[tuple[str, str, int, int]]:
    """The (character, note token, start, end) pairs in ``text``; bracketed words that are not notes are
    skipped only if they contain a 、 or are longer than two characters (the 有樂、無舞 remarks)."""
    pairs = []
    for match in _PAIR_RE.finditer(text):
        note = match.group("note")
        if len(note) != 2 or "、" in note:
            continue
        pairs.append((match.group("char"), note, offset + match.start(), offset + match.end()))
    return pairs


def parse_score_text(
    text: str,
    offset: int = 0,
    where: str = "score",
    notation: str = "bracketed",
    emended: dict[tuple[int, int], Emendation] | None = None,
) -> tuple[tuple[str, Note, int, int], ...]:
    """Read one movement's scored text (大(太四)哉(南工)…, or 大太四哉南工… ``inline``) into
    (character, note, start, end).

    Raises :class:`DataError` (naming ``where``) unless there are exactly phrases × characters notes
    and every note is a well-formed 律 + 工尺 token, or is written as an emendation at its (phrase,
    position) says (then the emendation's reading is the note).
    """
    return tuple(
        (char, note, s, e) for char, _written, note, s, e in _scored(text, offset, where, notation, emended)
    )


def _scored(
    text: str,
    offset: int,
    where: str,
    notation: str,
    emended: dict[tuple[int, int], Emendation] | None,
) -> tuple[tuple[str, str, Note, int, int], ...]:
    """(character, note as written where an emendation replaced it else "", note, start, end)."""
    pairs = parse_inline_pairs(text, offset) if notation == "inline" else parse_pairs(text, offset)
    n_phrases, per_phrase = _shape()
    if len(pairs) != n_phrases * per_phrase:
        raise DataError(f"{where}: {len(pairs)} notes, expected {n_phrases * per_phrase}")
    result = []
    for i, (char, token, s, e) in enumerate(pairs):
        fix = (emended or {}).get((i // per_phrase + 1, i % per_phrase + 1))
        applies = fix is not None and fold(fix.written) == fold(token)
        try:
            note = parse_note(fix.reading if fix is not None and applies else token)
        except DianliError as exc:
            raise DataError(f"{where}: note {token!r} — {exc}") from exc
        result.append((char, token if applies else "", note, s, e))
    return tuple(result)


def movement(name: str, witness: str | None = None) -> Movement:
    """The parsed movement as the score witness writes it (None: the default witness).

    望瘞 is 送神's music: its score is 送神's.
    """
    return _movement(movement_info(name).id, check_score_witness(witness))


@functools.cache
def _movement(movement_id: str, witness: str) -> Movement:
    info = witness_movement_info(movement_id, witness)
    if info.same_as:
        return Movement(info, _movement(info.same_as, witness).phrases, witness)
    entry = _score_witness_entry(witness)
    _start, body, end = _section_span(info, witness)
    text = load_witness(witness).norm.text
    fixes = {e.position: e for e in entry.emendations if e.movement == info.id}
    scored = _scored(text[body:end], body, f"{witness} {info.section}", entry.notation, fixes)
    n_phrases, per_phrase = _shape()
    glosses = {(p, q): (r, c) for p, q, r, c in info.gloss}
    chars = []
    for i, (char, written, note, s, e) in enumerate(scored):
        phrase, position = i // per_phrase + 1, i % per_phrase + 1
        reading = glosses.get((phrase, position), (None, None))[0]
        glyph = char if char and _unencoded(char) else ""
        char = "" if glyph else char
        chars.append(
            SungCharacter(
                char,
                note,
                phrase,
                position,
                s,
                e,
                reading if not char else None,
                glyph,
                witness,
                written,
            )
        )
    phrases = tuple(
        Phrase(p + 1, tuple(chars[p * per_phrase : (p + 1) * per_phrase])) for p in range(n_phrases)
    )
    return Movement(info, phrases, witness)


def suite(witness: str | None = None) -> tuple[Movement, ...]:
    """Every movement in the order of the rite, as the score witness writes it."""
    return tuple(movement(m.id, witness) for m in movement_infos())


# --- the dance cross-check and anomalies --------------------------------------------------------


def dance_characters(witness: str, movement_id: str) -> tuple[tuple[str, int], ...]:
    """The characters the 舞譜 of ``witness`` dances to, with their reading-text offsets (notes skipped).

    Movements without dance (迎神, 徹饌, 送神, 望瘞) give an empty tuple.
    """
    info = movement_info(movement_id)
    found = find_sections(witness, f"wupu.{info.id}")
    if not found:
        return ()
    sec = found[0]
    text = load_witness(witness).norm.text
    begin = sec.start
    for marker in ("之章", "之曲"):
        at = text.find(marker, sec.start, min(sec.end, sec.start + 12))
        if at >= 0:
            begin = at + len(marker)
            break
    # Count bracket depth ourselves: the dance descriptions are notes in () or 【】 after each character.
    closers = set(NOTE_BRACKETS.values())
    depth = 0
    result = []
    for i in range(begin, sec.end):
        char = text[i]
        if char in NOTE_BRACKETS:
            depth += 1
        elif char in closers:
            depth = max(0, depth - 1)
        elif depth == 0 and (is_key_char(char) or _unencoded(char)):
            result.append((char, i))
    return tuple(result)


def _unencoded(char: str) -> bool:
    """A private-use code point: a glyph the digitised witness could not encode."""
    return unicodedata.category(char) == "Co"


def dance_witnesses() -> tuple[str, ...]:
    """Witnesses whose 舞譜 is cross-checked against the score."""
    return movements_data().dance_witnesses


def score_findings() -> tuple[Finding, ...]:
    """Anomalies of the score: missing characters, notes outside the mode, sung vs danced characters."""
    result: list[Finding] = []
    mode = set(mode_syllables())
    for info in movement_infos():
        if info.same_as:
            continue
        mv = movement(info.id)
        for c in mv.characters:
            where = f"{info.title}, phrase {c.phrase}, character {c.position}"
            if not c.char:
                gloss = [g for g in info.gloss if (g[0], g[1]) == (c.phrase, c.position)]
                extra = ""
                cites: tuple[Citation, ...] = (c.citation,)
                if gloss:
                    extra = f"; the modern translation (000, a gloss only) reads {gloss[0][2]}"
                    cites += (gloss[0][3],)
                what = (
                    f"the character before the note ({c.note.token}) is a glyph the digitised witness could "
                    f"not encode (private-use U+{ord(c.unencoded_glyph):04X})"
                    if c.unencoded_glyph
                    else f"the note ({c.note.token}) has no character before it"
                )
                result.append(Finding("score", where, f"{what}{extra}", cites))
            if c.note.gongche not in mode:
                result.append(
                    Finding(
                        "score",
                        where,
                        f"{c.display}({c.note.token}) uses {c.note.gongche}, outside the six syllables "
                        f"{'、'.join(mode_syllables())}",
                        (c.citation, mode_cite()),
                    )
                )
        if not info.danced:
            continue
        sung = [c.char for c in mv.characters]
        for witness in dance_witnesses():
            danced = dance_characters(witness, info.id)
            if len(danced) != len(sung):
                result.append(
                    Finding(
                        "dance",
                        f"{info.title}, {witness}",
                        f"the 舞譜 dances {len(danced)} characters, the score sings {len(sung)}",
                    )
                )
            for i, (s, (d, at)) in enumerate(zip(sung, danced, strict=False)):
                if fold(s) != fold(d):
                    phrase, position = i // 4 + 1, i % 4 + 1
                    c = mv.characters[i]
                    context = load_witness(witness).norm.text[at : at + 1]
                    result.append(
                        Finding(
                            "dance",
                            f"{info.title}, phrase {phrase}, character {position}",
                            f"the score sings {s or MISSING_CHARACTER}, the 舞譜 of {witness} dances {d}",
                            (c.citation, Citation(witness=witness, quote=context, section=f"wupu.{info.id}")),
                        )
                    )
    return tuple(result)


def score_citations() -> tuple[Citation, ...]:
    """The structural citations of the score data (for the citation test)."""
    data = movements_data()
    return (data.structure_cite, data.one_note_per_character_cite)
