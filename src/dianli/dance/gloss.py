"""The modern translation's gloss of each sung character (000), aligned with the classical notation.

000 writes ``“觉”：东班舞生……；西班舞生……。`` for each character; it is a gloss only, shown beside the
classical reading and never parsed into poses. Where it repeats a character's marker for the second
rank (“行”：西班…) the two parts are joined; where its character differs from the classical one
(防 for 旨) the gloss keeps its own.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from dianli.corpus.sections import find_sections
from dianli.corpus.witnesses import load_witness
from dianli.dance.notation import movement
from dianli.dance.schema import movements_data
from dianli.errors import DataError

_MARK_RE = re.compile(r"“(\w)”：")
_SECOND_RANK = "西班"


@dataclass(frozen=True)
class Gloss:
    """The modern reading of one character: its own character, its text and reading-text span."""

    char: str
    text: str
    start: int
    end: int


def gloss_witness() -> str:
    """The witness whose text glosses the notation."""
    return movements_data().gloss_witness


@functools.lru_cache(maxsize=4)
def glosses(movement_name: str) -> tuple[Gloss, ...]:
    """The gloss of every sung character of a movement, in order."""
    mov = movement(movement_name)
    witness = gloss_witness()
    text = load_witness(witness).norm.text
    found = find_sections(witness, mov.section)
    if not found:
        raise DataError(f"{witness}: no section {mov.section}")
    sec = found[0]
    marks = list(_MARK_RE.finditer(text, sec.start, sec.end))
    pieces: list[Gloss] = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else sec.end
        body = text[mark.end() : end]
        if pieces and pieces[-1].char == mark.group(1) and body.startswith(_SECOND_RANK):
            prev = pieces.pop()
            pieces.append(Gloss(prev.char, text[prev.start : end].strip(), prev.start, end))
            continue
        pieces.append(Gloss(mark.group(1), text[mark.start() : end].strip(), mark.start(), end))
    return tuple(pieces)
