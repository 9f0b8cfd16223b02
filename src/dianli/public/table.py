"""The table every entry point that returns rows returns: plain Python rows with stable keys, shown in a
notebook, turned into a pandas DataFrame by :meth:`Table.to_frame`.

Keys are those of the data package (:mod:`dianli.opendata.schema`): witness ids, place ids with their CHGIS
ids, rite ids, ISO dates; so a calendar joins places joins variants joins witnesses in pandas.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from dianli.provenance import Provenance, provenance

if TYPE_CHECKING:
    import pandas

Row = dict[str, Any]
SHOWN_ROWS = 20
"""Rows a notebook shows of a table (the first ones; :meth:`Table.to_frame` has them all)."""
PANDAS_MISSING = (
    "to_frame needs pandas, an optional dependency of dianli: pip install 'dianli[tables]' "
    "(or pip install pandas)"
)


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as exc:
        raise ImportError(PANDAS_MISSING) from exc
    return pandas


def _cell(value: Any) -> Any:
    """A value as a table cell: a day as its ISO date (the join key), a tuple as a list."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return list(value)
    return value


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


class Table(Sequence[Row]):
    """Rows (dicts) with named columns and a key; ``len``, iteration and indexing work as on a list."""

    def __init__(
        self,
        title: str,
        columns: Sequence[str],
        rows: Sequence[Mapping[str, Any]],
        key: Sequence[str] = (),
        made_with: Provenance | None = None,
        shown: Sequence[str] = (),
    ) -> None:
        self.title = title
        self.columns = tuple(columns)
        self.key = tuple(key)
        self.rows: tuple[Row, ...] = tuple({c: _cell(r.get(c)) for c in self.columns} for r in rows)
        self.provenance = made_with or provenance()
        self.shown = tuple(shown) or self.columns[:6]
        """The columns a text ``repr`` shows (the words a reader reads first)."""

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __getitem__(self, index: Any) -> Any:
        return self.rows[index]

    def column(self, name: str) -> list[Any]:
        """The values of one column, in row order."""
        if name not in self.columns:
            raise KeyError(f"no column {name!r}; the columns are {', '.join(self.columns)}")
        return [r[name] for r in self.rows]

    def to_frame(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame (days as ISO dates, lists kept), its ``attrs`` naming the title,
        the key columns and what it was made from (version, data digest). Needs pandas (``dianli[tables]``)."""
        frame = _pandas().DataFrame(list(self.rows), columns=list(self.columns))
        frame.attrs.update({"title": self.title, "key": list(self.key), **self.provenance.as_dict()})
        return frame

    def to_records(self) -> list[Row]:
        """The rows as a list of dicts (JSON-ready: days as ISO dates)."""
        return [dict(r) for r in self.rows]

    def __repr__(self) -> str:
        shown = self.rows[:5]
        lines = [f"{self.title}: {len(self)} rows; columns {', '.join(self.columns)}"]
        lines += ["  " + " | ".join(_text(r[c]) for c in self.shown)[:100] for r in shown]
        if len(self) > len(shown):
            lines.append(f"  … {len(self) - len(shown)} more (.to_frame() for all)")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(_text(r[c]))}</td>" for c in self.columns) + "</tr>"
            for r in self.rows[:SHOWN_ROWS]
        )
        more = (
            f"<p>… {len(self) - SHOWN_ROWS} more rows: <code>.to_frame()</code> has them all.</p>"
            if len(self) > SHOWN_ROWS
            else ""
        )
        return (
            f"<p><b>{html.escape(self.title)}</b> — {len(self)} rows</p>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"
            f"<p><small>{html.escape(self.provenance.short)}</small></p>"
        )
