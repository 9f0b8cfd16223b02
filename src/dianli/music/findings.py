"""Findings: what the music domain noticed in the witnesses (copying errors, anomalies, variants)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dianli.corpus.cite import Citation


@dataclass(frozen=True)
class Finding:
    """One observation about the witnesses, with what it rests on."""

    topic: str
    """The area: ``pitch``, ``score``, ``dance``, ``fingering``, ``cues``."""
    subject: str
    """What it is about (a pipe, a movement and position, an instrument)."""
    message: str
    cites: tuple[Citation, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready mapping."""
        return {
            "topic": self.topic,
            "subject": self.subject,
            "message": self.message,
            "cites": [{"witness": c.witness, "quote": c.quote} for c in self.cites],
        }
