"""``dianli.ceremony``: one occasion — its day, people, order of service, prayers and music, each statement
cited — as tables, and as the booklet ``dianli program`` writes."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dianli.provenance import stamp_markup
from dianli.public.table import Row, Table

if TYPE_CHECKING:
    from dianli.program.model import Passage, Program

APPENDICES = ("full", "compact", "none")


class BookletExistsError(FileExistsError):
    """The booklet's path names a file that is there already (dianli replaces no file it did not write)."""


class Ceremony:
    """One ceremony (``dianli.ceremony``): ``date``, and the tables ``people``, ``steps``, ``prayers``,
    ``music``; ``booklet(path)`` writes it as one HTML file that opens offline."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.rite = program.rite
        self.place = program.place.id
        self.year = program.year
        self.witness = program.witness
        """The witness whose reading is followed (the place's governing witness unless another was asked)."""
        self._passages = {p.id: p for p in program.passages}

    @property
    def title(self) -> str:
        return self.program.title

    @property
    def date(self) -> dict[str, Any]:
        """The day: ISO date, weekday, Chinese date, where the day comes from, the witness's words."""
        d = self.program.date
        return {
            "day": d.western.isoformat() if d.western else None,
            "weekday": d.weekday,
            "chinese_date": d.chinese,
            "observance": d.observance_name,
            "time": d.time_label,
            "source": d.source,
            "source_detail": d.source_detail,
            "rule_text": d.rule_text,
            "open_reason": d.open_reason,
            **self._cite(d.cites),
        }

    def _cite(self, refs: tuple[str, ...]) -> Row:
        """The first citation of a statement: its witness id and exact quote."""
        found: Passage | None = next((self._passages[r] for r in refs if r in self._passages), None)
        return {
            "cite_witness": found.witness if found else None,
            "cite_quote": found.quote if found else None,
        }

    def _table(
        self,
        name: str,
        columns: tuple[str, ...],
        rows: list[Row],
        key: tuple[str, ...],
        shown: tuple[str, ...],
    ) -> Table:
        keyed = [{"rite_of_occasion": self.rite, "place": self.place, "year": self.year, **r} for r in rows]
        head = ("rite_of_occasion", "place", "year")
        return Table(f"{name} — {self.title}", (*head, *columns), keyed, (*head, *key), shown=shown)

    @property
    def people(self) -> Table:
        """Who officiates and serves: one row per officiant or role (numbered within its rite and kind), by
        rite of the occasion."""
        rows = [
            {
                "rite": s.rite,
                "kind": kind,
                "number": number,
                "function": o.function,
                "office": o.office,
                "count": o.count,
                "notes": o.notes,
                **self._cite(o.cites),
                "assumption": o.assumption,
            }
            for s in self.program.rites
            for kind, group in (("officiant", s.officiants), ("role", s.roles))
            for number, o in enumerate(group, start=1)
        ]
        columns = (
            "rite",
            "kind",
            "number",
            "function",
            "office",
            "count",
            "notes",
            "cite_witness",
            "cite_quote",
            "assumption",
        )
        return self._table(
            "People", columns, rows, ("rite", "kind", "number"), ("kind", "function", "office", "count")
        )

    @property
    def steps(self) -> Table:
        """The order of service, numbered across the occasion: who calls what, the action, music, dance."""
        rows = [
            {
                "number": s.number,
                "rite": s.rite,
                "part": s.part,
                "kind": s.kind,
                "role": s.role,
                "call": s.call,
                "action": s.action,
                "posture": s.posture,
                "music": s.music,
                "dance": s.dance,
                "gloss": s.gloss,
                **self._cite(s.cites),
                "assumption": s.assumption,
            }
            for s in self.program.steps
        ]
        columns = (
            "number",
            "rite",
            "part",
            "kind",
            "role",
            "call",
            "action",
            "posture",
            "music",
            "dance",
            "gloss",
            "cite_witness",
            "cite_quote",
            "assumption",
        )
        return self._table(
            "Order of service", columns, rows, ("number",), ("number", "role", "call", "action")
        )

    @property
    def prayers(self) -> Table:
        """The prayers (祝文): the witness's template and the text filled for this day and place."""
        rows = [
            {
                "rite": s.rite,
                "prayer": p.id,
                "title": p.title,
                "template": p.template,
                "filled": p.filled,
                "gloss": p.gloss,
                **self._cite(p.cites),
            }
            for s in self.program.rites
            for p in s.prayers
        ]
        columns = ("rite", "prayer", "title", "template", "filled", "gloss", "cite_witness", "cite_quote")
        return self._table("Prayers", columns, rows, ("rite", "prayer"), ("title", "filled"))

    @property
    def music(self) -> Table:
        """The movements of the 大成樂 the ceremony performs, with the steps that cue them."""
        rows = [
            {
                "movement": c.movement,
                "name": c.name,
                "tune": c.tune,
                "danced": c.danced,
                "duration_s": round(c.duration_s, 1),
                "steps": list(c.steps),
                "sung": "".join(ch.char for ch in c.characters),
                **self._cite(c.cites),
            }
            for c in self.program.music
        ]
        columns = (
            "movement",
            "name",
            "tune",
            "danced",
            "duration_s",
            "steps",
            "sung",
            "cite_witness",
            "cite_quote",
        )
        return self._table("Music", columns, rows, ("movement",), ("name", "tune", "danced", "duration_s"))

    def booklet(
        self, path: str | Path, audio: bool = False, appendix: str = "full", overwrite: bool = False
    ) -> Path:
        """Write the booklet (one HTML file, offline; ``audio``: the music embedded, about 30 s to render)
        to ``path`` and return it. It names the dianli version and data digest it was made from. A file
        already at ``path`` is left alone (an error) unless ``overwrite``."""
        from dianli.errors import UnknownValueError
        from dianli.program.html import booklet_chunks

        if appendix not in APPENDICES:
            raise UnknownValueError("appendix", appendix, APPENDICES)
        target = Path(path).expanduser()
        if target.exists() and not overwrite:
            raise BookletExistsError(f"{target} is there already: give another path, or overwrite=True")
        found = {}
        if audio:
            from dianli.program.audio import render_all, workers_for

            movements = [c.movement for c in self.program.music]
            found = render_all(movements, workers=workers_for(len(movements)), lean=True)
        text = "".join(booklet_chunks(self.program, audio=found, appendix=appendix))
        target.write_text(stamp_markup(text), encoding="utf-8")
        return target

    def to_json(self) -> str:
        """The ceremony as JSON (the content of the booklet; ``dianli program --format json``)."""
        from dianli.program.export import to_json

        return to_json(self.program)

    def __repr__(self) -> str:
        from dianli.corpus.labels import witness_label

        d = self.date
        return (
            f"Ceremony({self.title}: {d['day'] or 'day open'} {d['chinese_date'] or ''}, "
            f"{len(self.program.steps)} steps, {len(self.program.music)} movements, in the reading of {witness_label(self.witness)})"
        )

    def _repr_html_(self) -> str:
        from dianli.corpus.labels import witness_label

        d = self.date
        day = html.escape(f"{d['day'] or 'day open'} ({d['weekday'] or ''}) {d['chinese_date'] or ''}")
        return (
            f"<p><b>{html.escape(self.title)}</b> — {day}; {len(self.program.steps)} steps, "
            f"{len(self.program.music)} movements; in the reading of "
            f"{html.escape(witness_label(self.witness))}</p>"
        )


def ceremony(
    rite: str,
    place: str,
    year: int,
    season: str | None = None,
    witness: str | None = None,
    practice: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> Ceremony:
    """The ceremony of ``rite`` (id or name: 祀先師, xianshi) at ``place`` in ``year`` — the occasion with
    the rites held with it — on the day of ``season`` (spring, autumn …, where the rite has several), in
    ``witness``'s reading (default: the witness governing the place that year); ``practice`` (a practice
    profile's id) gives the day a living temple holds it instead of the texts' rule; ``progress`` is told
    the name of each stage as it begins (for a progress bar: the first time, nothing cached, takes seconds)."""
    from dianli.program.assemble import assemble

    made = assemble(rite, place, year, season=season, witness=witness, practice=practice, progress=progress)
    return Ceremony(made)
