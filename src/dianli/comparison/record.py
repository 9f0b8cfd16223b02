"""The corpus table: for every witness, how it was made and how far it was reviewed, read from its folder.

One row per witness folder (and per text set aside, with why), derived — never stored twice — from:

- its manifest: ``status``, and ``made:`` (how it was made; its chapter states nothing beyond its base;
  why it stays out, :class:`dianli.corpus.witnesses.Made`);
- its text files' headers: the pages its text was harvested from (``SOURCE:``) and the day (``WORK: …
  harvested by dianli harvest on DAY``);
- its clauses (:func:`dianli.corpus.clauses.clauses`) and its ``alignment.yaml`` (the clauses aligned
  *same* with a modelled element): the share aligned;
- ``readings/drafted.yaml`` (proposals still pending), ``review.yaml`` (every decision), and
  ``readings/reviewed.yaml`` (the accepted readings as they stand: one whose days differ from the days
  accepted, or that is gone, was edited by hand after the review).

``dianli texts list --format csv`` prints it.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

FIELDS = (
    "witness",
    "title",
    "status",
    "made_by",
    "pages",
    "harvested_on",
    "clauses",
    "aligned",
    "share_aligned",
    "pending",
    "decisions",
    "accepted",
    "rejected",
    "edited",
    "nothing_beyond_base",
    "stays_out",
)
_HARVESTED = re.compile(r"harvested by dianli harvest on (\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True)
class Record:
    """One row of the corpus table (empty strings where a figure does not apply)."""

    witness: str
    title: str
    status: str
    made_by: str
    """``harvest`` or ``hand`` as the manifest's ``made:`` says; ``hand`` where it has none (the witnesses
    curated by hand before harvesting existed)."""
    pages: str
    """The pages (or files) its text was taken from, as its text files' headers name them."""
    harvested_on: str
    clauses: int | str
    aligned: int | str
    """Clauses aligned *same* with a modelled element (its ``alignment.yaml``)."""
    share_aligned: str
    pending: int | str
    """Drafted readings still to review."""
    decisions: int | str
    accepted: int | str
    rejected: int | str
    edited: int | str
    """Accepted readings changed by hand since (their days differ from the days accepted, or gone)."""
    nothing_beyond_base: str
    stays_out: str

    def row(self) -> list[str]:
        return [str(v) for v in asdict(self).values()]


def _yaml(path: Path, key: str) -> list[dict[str, Any]]:
    """The mappings listed under ``key`` in a witness folder's YAML file (none where the file is absent); a
    file that is no YAML mapping is an error naming it."""
    import yaml

    from dianli.datafile import read_yaml
    from dianli.errors import DataError

    if not path.is_file():
        return []
    try:
        data = read_yaml(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise DataError(
            f"{path}: not readable as YAML ({exc}); accepted: the file as dianli writes it"
        ) from exc
    if not isinstance(data, dict):
        raise DataError(f"{path}: holds no mapping; accepted: a mapping with {key!r} listing entries")
    return [d for d in (data.get(key) or []) if isinstance(d, dict)]


def _headers(folder: Path, files: list[str]) -> tuple[str, str]:
    """(the pages or files named, the harvest day) from the headers of the witness's text files."""
    from dianli.corpus.draft import read_header

    pages: list[str] = []
    days: list[str] = []
    for name in files:
        header = read_header((folder / name).read_text(encoding="utf-8"))
        source = header.fields.get("SOURCE", "")
        pages.append(source.split(" paths ", 1)[1] if " paths " in source else source)
        days.extend(_HARVESTED.findall(header.fields.get("WORK", "")))
    return "; ".join(p for p in pages if p), ", ".join(dict.fromkeys(days))


def _edited(reviewed: list[dict[str, Any]], accepted: list[dict[str, Any]]) -> int:
    """Accepted decisions whose reading no longer states what was accepted (or is gone)."""
    from dianli.comparison.review import describe

    stand = set()
    for patch in reviewed:
        kind, values, _quotes = describe(patch)
        stand.add((str(patch.get("id")), kind, tuple(values)))
    return sum(
        1
        for d in accepted
        if (str(d.get("rite")), str(d.get("kind", "date_rule")), tuple(str(v) for v in d.get("values") or []))
        not in stand
    )


def record(witness: str) -> Record:
    """The corpus table's row of one witness (module docstring)."""
    from dianli.comparison.review import REVIEW_LOG, REVIEWED_FILE
    from dianli.corpus.clauses import clauses
    from dianli.corpus.witnesses import ALIGNMENT_FILE, DRAFTED_FILE, READINGS_DIR, witness_info

    info = witness_info(witness)
    folder = info.folder
    pages, day = _headers(folder, [f.file for f in info.files])
    count = len(clauses(witness))
    aligned = len(
        {(str(d.get("quote")), str(d.get("section"))) for d in _yaml(folder / ALIGNMENT_FILE, "same")}
    )
    decisions = _yaml(folder / REVIEW_LOG, "decisions")
    accepted = [d for d in decisions if d.get("decision") == "accepted"]
    reviewed = _yaml(folder / READINGS_DIR / REVIEWED_FILE, "rites")
    made = info.made
    return Record(
        witness=info.id,
        title=info.title,
        status=info.status,
        made_by=made.by if made else "hand",  # no made: block — curated by hand before harvesting
        pages=pages,
        harvested_on=day,
        clauses=count,
        aligned=aligned,
        share_aligned=f"{aligned / count:.2f}" if count else "",
        pending=len(_yaml(folder / READINGS_DIR / DRAFTED_FILE, "rites")),
        decisions=len(decisions),
        accepted=len(accepted),
        rejected=sum(1 for d in decisions if d.get("decision") == "rejected"),
        edited=_edited(reviewed, accepted),
        nothing_beyond_base=(made.nothing_beyond_base or "") if made else "",
        stays_out="",
    )


def corpus_table() -> list[Record]:
    """Every witness's row, in the corpus's order, then every text set aside (with why it stays out)."""
    from dianli.corpus.witnesses import manifest, set_aside

    rows = [record(info.id) for info in manifest()]
    rows += [
        Record(s.id, s.title, "stays out", "", "", "", "", "", "", "", "", "", "", "", "", s.why)
        for s in set_aside()
    ]
    return rows
