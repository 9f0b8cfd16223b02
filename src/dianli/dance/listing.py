"""Each sung character's parsed pose for both ranks, as plain data (for ``--format json``)."""

from __future__ import annotations

from typing import Any

from dianli.dance.formation import formation
from dianli.dance.notation import movement, parse_movement
from dianli.dance.pose import FilePose, character_poses
from dianli.dance.timing import character_timing
from dianli.dance.vocabulary import vocabulary


def poses_json(witness: str, movement_name: str) -> list[dict[str, Any]]:
    """Per character: its words, each rank's phrases (with slots and glosses), phases and citation span."""
    mov = movement(movement_name)
    notes = parse_movement(witness, mov.id)
    timing = character_timing(mov.id, len(notes))
    vocab = vocabulary()
    files = formation().files_per_rank
    previous: dict[tuple[str, int], FilePose] | None = None
    rows: list[dict[str, Any]] = []
    for note, (start, end) in zip(notes, timing.spans_s, strict=True):
        poses = character_poses(note, files, previous)
        previous = poses
        rows.append(
            {
                "index": note.index,
                "char": note.char,
                "start_s": start,
                "end_s": end,
                "text_span": [note.start, note.end],
                "description": note.description,
                "emendations": [f"{e.reading} → {e.read_as}" for e in note.emendations],
                "ranks": [
                    {
                        "rank": clause.rank,
                        "files": list(clause.files) if clause.files else "all",
                        "subject": clause.subject.text,
                        "phrases": [
                            {
                                "text": t.text,
                                "phrase": t.phrase,
                                "term": vocab.phrase(t.phrase).term,
                                "gloss": vocab.phrase(t.phrase).gloss,
                                "slots": {name: word for name, _, word in t.slots},
                            }
                            for t in clause.tokens
                        ],
                        "phases": [
                            p.as_json() for p in poses[(clause.rank, (clause.files or (1,))[0])].phases
                        ],
                    }
                    for clause in note.clauses
                ],
            }
        )
    return rows
