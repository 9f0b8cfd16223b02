"""``dianli.witnesses``, ``dianli.witness`` and ``dianli.timeline``: the texts of the ritual code, their
sections, quotations located in them, and the dates they state."""

from __future__ import annotations

import html

from dianli.public.table import Table


def witnesses() -> Table:
    """Every witness (gazetteer chapter or translation): the data package's ``witnesses`` table. Key: ``id``
    (the ``witness`` / ``cite_witness`` of every other table)."""
    from dianli.opendata.schema import table_schema
    from dianli.opendata.tables import witness_rows

    columns = table_schema("witnesses").field_names
    shown = ("short_title", "compiled_year", "script", "authority", "characters")
    return Table("Witnesses", columns, witness_rows(), ("id",), shown=shown)


class Quotation:
    """A quotation located in its witness: the section, the offsets (raw text, half-open) and the passage."""

    def __init__(self, witness: str, quote: str, section: str | None = None) -> None:
        from dianli.corpus.cite import resolve

        found = resolve(witness, quote, section)
        self.witness = witness
        self.quote = quote
        self.section = found.section.id
        self.section_title = found.section.title
        self.start = found.raw_start
        self.end = found.raw_end
        self.occurrences = found.occurrences
        """How many times the quote occurs in the searched range (the first is the one located)."""
        self.passage = found.passage

    def as_dict(self) -> dict[str, object]:
        return {
            "witness": self.witness,
            "quote": self.quote,
            "section": self.section,
            "section_title": self.section_title,
            "start": self.start,
            "end": self.end,
            "occurrences": self.occurrences,
        }

    def __repr__(self) -> str:
        from dianli.corpus.labels import witness_label

        return (
            f"Quotation(「{self.quote}」 in {witness_label(self.witness)}, {self.section_title}, characters "
            f"{self.start}–{self.end})"
        )

    def _repr_html_(self) -> str:
        from dianli.corpus.labels import witness_label

        return (
            f"<blockquote>「{html.escape(self.passage)}」</blockquote><p>{html.escape(witness_label(self.witness))}"
            f", {html.escape(self.section_title)}, characters {self.start}–{self.end}</p>"
        )


class WitnessText:
    """One witness: its manifest entry, its text, its sections, and :meth:`cite` to locate a quotation."""

    def __init__(self, witness_id: str) -> None:
        from dianli.corpus.witnesses import load_witness

        self._witness = load_witness(witness_id)
        self.id = witness_id
        self.info = self._witness.info
        """The manifest entry (title, compiled year, edition, the places it governs …)."""

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def text(self) -> str:
        """The reading text: layout removed, punctuation and notes kept (what quotations are matched in)."""
        return self._witness.norm.text

    @property
    def raw(self) -> str:
        """The text as transcribed (offsets of tables and citations count in it)."""
        return self._witness.raw

    @property
    def sections(self) -> Table:
        """The witness's sections in text order: id, title, heading, reading-text offsets."""
        from dianli.corpus.sections import sections

        rows = [
            {
                "witness": s.witness,
                "section": s.id,
                "title": s.title,
                "heading": s.heading,
                "start": s.start,
                "end": s.end,
                "characters": s.end - s.start,
            }
            for s in sections(self.id)
        ]
        columns = ("witness", "section", "title", "heading", "start", "end", "characters")
        return Table(
            f"Sections of {self.title}",
            columns,
            rows,
            ("witness", "section", "start"),
            shown=("title", "heading", "characters"),
        )

    def section_text(self, section: str) -> str:
        """The reading text of a section (by id), its occurrences joined by a blank line."""
        from dianli.corpus.sections import find_sections, resolve_section_id

        found = find_sections(self.id, resolve_section_id(section))
        return "\n\n".join(self.text[s.start : s.end] for s in found)

    def cite(self, quote: str, section: str | None = None) -> Quotation:
        """Where ``quote`` stands in the witness (within ``section`` if given); a quote that is not there is
        an error naming the closest passage."""
        return Quotation(self.id, quote, section)

    def __repr__(self) -> str:
        return f"Witness({self.id}: {self.title}, {len(self.text)} characters)"

    def _repr_html_(self) -> str:
        info = self.info
        year = f", compiled {info.compiled_year}" if info.compiled_year else ""
        return (
            f"<p><b>{html.escape(info.title)}</b> <code>{html.escape(self.id)}</code>{html.escape(year)}"
            f" — {len(self.text)} characters, {len(self.sections)} sections</p>"
            f"<blockquote>{html.escape(self.text[:120])}…</blockquote>"
        )


def witness(witness_id: str) -> WitnessText:
    """One witness by id (``dianli.witnesses()`` lists them): ``.text``, ``.sections``, ``.cite(quote)``."""
    return WitnessText(witness_id)


def timeline(
    place: str | None = None,
    witness: str | None = None,
    from_year: int | None = None,
    until_year: int | None = None,
    explicit_only: bool = False,
) -> Table:
    """Every reign date the witnesses state (康熙五十一年, 雍正元年六月初四日 …), converted, in date order:
    of the witnesses that govern ``place``, or of ``witness`` alone, between the years given. ``date`` is an
    ISO date where the text gives a day; ``first_day``/``last_day`` bound the year, month or day stated.
    Keys: ``witness``, ``section``, ``offset``."""
    from dianli.corpus.dated_events import timeline as dated_timeline

    rows = [
        {
            "witness": e.witness,
            "section": e.section,
            "offset": e.offset,
            "chinese_text": e.chinese_text,
            "dynasty": e.dynasty,
            "era": e.era,
            "year_number": e.year_number,
            "month": e.month,
            "leap": e.leap,
            "day_number": e.day,
            "gregorian_year": e.gregorian_year,
            "date": e.gregorian_date,
            "first_day": e.first_day,
            "last_day": e.last_day,
            "quote": e.quote,
            "notes": list(e.notes),
        }
        for e in dated_timeline(place, witness, from_year, until_year, explicit_only)
    ]
    columns = tuple(rows[0]) if rows else ("witness", "section", "offset", "chinese_text", "date", "quote")
    title = "Dated events" + (f" at {place}" if place else "") + (f" in {witness}" if witness else "")
    return Table(
        title,
        columns,
        rows,
        ("witness", "section", "offset"),
        shown=("gregorian_year", "chinese_text", "quote"),
    )
