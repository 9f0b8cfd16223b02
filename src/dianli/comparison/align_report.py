"""An alignment for readers: plain data (JSON), text lines, a self-contained HTML page, and the draft of the
witness's reading that holds only the decisions a curator must make."""

from __future__ import annotations

import html
from typing import Any

import yaml

from dianli.comparison.align import AlignedClause, Alignment, Measure
from dianli.comparison.gaps import missing_parts, rites_not_in_model
from dianli.rites.load import all_rites
from dianli.rites.readings import AlignedCite, AlignmentFile

EDGE_PUNCTUATION = "，．。、；：,.;: 　「」『』"
"""Trimmed from the ends of a clause when it becomes a quote."""
DIFF_MARKS = {"=": ("", ""), "-": ("〔-", "〕"), "+": ("〔+", "〕")}
"""How the text view marks the differing characters of a variant: 〔-model only〕〔+witness only〕."""


def _clause_data(a: AlignedClause) -> dict[str, Any]:
    data: dict[str, Any] = {
        "section": a.clause.section,
        "start": a.clause.start,
        "end": a.clause.end,
        "text": a.clause.text,
        "class": a.kind,
        "elements": list(a.elements),
    }
    if a.best is not None:
        data["model"] = {"witness": a.best.span.witness, "quote": a.best.span.quote, "score": a.best.score}
    if a.kind == "variant":
        data["diff"] = [{"op": op, "text": text} for op, text in a.diff()]
    return data


def to_data(result: Alignment, measured: Measure | None = None) -> dict[str, Any]:
    """Plain data: the counts, every clause with its class, and the missing elements."""
    data: dict[str, Any] = {
        "witness": result.witness,
        "model_witnesses": list(result.model_witnesses),
        "counts": result.counts(),
        "clauses": [_clause_data(a) for a in result.clauses],
        "missing": sorted({m.element for m in result.missing}),
        "missing_parts": [
            {"rite": m.rite, "part": m.part, "title": m.title, "model_statements": m.spans}
            for m in missing_parts(result)
        ],
        "rites_not_in_model": [
            {
                "name": n.name,
                "clauses": [c.text for c in n.clauses],
                "days": list(n.days),
                "skeleton": n.skeleton(result.witness),
            }
            for n in rites_not_in_model(result)
        ],
    }
    if measured is not None:
        data["measure"] = {
            "hand_citations": measured.hand,
            "alignable": measured.alignable,
            "recalled": measured.recalled,
            "automatic_same": measured.automatic,
            "correct_same": measured.correct,
            "recall": round(measured.recall, 4),
            "recall_alignable": round(measured.recall_alignable, 4),
            "precision": round(measured.precision, 4),
            "precision_nested": round(measured.precision_nested, 4),
        }
    return data


def marked(a: AlignedClause) -> str:
    """The clause with its differences from the model marked 〔-…〕〔+…〕 (a variant), or as it stands."""
    if a.kind != "variant":
        return a.clause.text
    return "".join(DIFF_MARKS[op][0] + text + DIFF_MARKS[op][1] for op, text in a.diff())


def text_lines(result: Alignment, classes: tuple[str, ...] = ("same", "variant", "new")) -> list[str]:
    """One line per clause of the given classes: class, section, the clause (variants marked), the elements."""
    lines = []
    for a in result.clauses:
        if a.kind not in classes:
            continue
        where = ", ".join(a.elements[:3]) + (" …" if len(a.elements) > 3 else "")
        lines.append(f"{a.kind:<7} {a.clause.section:<22} {marked(a)}" + (f"  → {where}" if where else ""))
    return lines


def gap_lines(result: Alignment) -> list[str]:
    """What the witness lacks and what the model lacks, at the level of parts and rites."""
    parts = missing_parts(result)
    rites = rites_not_in_model(result)
    lines = [f"missing parts ({len(parts)}: no clause states them)"] if parts else []
    lines += [f"  {m.title} ({m.spans} statements in the model)" for m in parts]
    if rites:
        lines.append(f"rites not in the model ({len(rites)}: a skeleton each in --format json)")
    for n in rites:
        days = f"; days {'、'.join(n.days)}" if n.days else ""
        lines.append(f"  {n.name}: {len(n.clauses)} clauses{days} — 「{n.clauses[0].text[:30]}」")
    return lines


def to_html(result: Alignment) -> str:
    """A self-contained page (no external resources; every value escaped): counts, then each clause."""
    from dianli.corpus.labels import witness_label, witness_labels

    e = html.escape
    counts = result.counts()
    rows = []
    for a in result.clauses:
        if a.kind == "variant":
            cells = "".join(
                f"<{tag}>{e(text)}</{tag}>" if (tag := {"-": "del", "+": "ins"}.get(op)) else e(text)
                for op, text in a.diff()
            )
        else:
            cells = e(a.clause.text)
        model = f"{e(a.best.span.witness)}「{e(a.best.span.quote)}」 {a.best.score:g}" if a.best else ""
        rows.append(
            f"<tr class='{e(a.kind)}'><td>{e(a.kind)}</td><td>{e(a.clause.section)}</td><td>{cells}</td>"
            f"<td>{model}</td><td>{e(', '.join(a.elements))}</td></tr>"
        )
    missing = "".join(f"<li>{e(m)}</li>" for m in sorted({m.element for m in result.missing}))
    summary = " · ".join(f"{k} {v}" for k, v in counts.items())
    return (
        "<!DOCTYPE html><html lang='zh-Hant'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{e(witness_label(result.witness))} aligned</title><style>body{{font-family:serif;margin:1em;max-width:70em}}"
        "table{border-collapse:collapse;width:100%}td{border-top:1px solid #ccc;padding:.2em .4em;"
        "vertical-align:top}del{color:#a00}ins{color:#060}.new td:first-child{color:#a40}"
        "@media (max-width:40em){td:nth-child(5){display:none}}</style></head><body>"
        f"<h1>{e(witness_label(result.witness))} aligned to the model</h1>"
        f"<p>model witnesses: {e(witness_labels(result.model_witnesses))}</p><p>{e(summary)}</p>"
        "<table><tr><th>class</th><th>section</th><th>clause</th><th>model</th><th>elements</th></tr>"
        + "".join(rows)
        + f"</table><h2>missing elements</h2><ul>{missing}</ul></body></html>\n"
    )


def draft_reading(result: Alignment) -> str:
    """The YAML draft of the witness's reading: only what a curator must decide — each variant (both texts,
    the differences marked, the elements it reads differently) and each new clause. Clauses the aligner
    found *same* need no decision and are left out."""
    decisions: list[dict[str, Any]] = []
    for a in result.clauses:
        if a.kind == "same":
            continue
        entry: dict[str, Any] = {
            "decide": a.kind,
            "section": a.clause.section,
            "witness_text": a.clause.text,
            "cite": {"witness": result.witness, "quote": a.clause.text.strip("，．。、；：,. ")},
        }
        if a.best is not None:
            entry["model"] = {"witness": a.best.span.witness, "quote": a.best.span.quote}
            entry["marked"] = marked(a)
            entry["elements"] = list(a.elements)
        decisions.append(entry)
    head = (
        f"# Draft reading of {result.witness}, generated by `dianli align {result.witness} --draft`.\n"
        "# Not loaded by dianli: each entry is a decision for a curator — a *variant* reads a modelled\n"
        "# element differently (write the element, with this witness's citation, into readings/*.yaml as a\n"
        "# patch of its rite), a *new* clause states something no witness of the model has (model it, or\n"
        "# mark it not procedural). Clauses found *same* are agreeing citations and need no decision.\n"
    )
    body = yaml.safe_dump({"decisions": decisions}, allow_unicode=True, sort_keys=False, width=110)
    return head + body


def alignment_file(result: Alignment) -> str:
    """The witness folder's ``alignment.yaml``: every *same* clause as an agreeing citation of each rite
    element it states (the quote is the clause, its edges' punctuation trimmed; narrowed to its section)."""
    rites = all_rites()
    same = [
        AlignedCite(
            element=element,
            witness=result.witness,
            quote=a.clause.text.strip(EDGE_PUNCTUATION),
            section=a.clause.section,
            score=a.best.score if a.best else 0.0,
        )
        for a in result.clauses
        if a.kind == "same" and a.clause.text.strip(EDGE_PUNCTUATION)
        for element in a.elements
        if element.split(".", 1)[0].split("[", 1)[0]
        in rites  # the music, dance … data: no reading to cite in
    ]
    data = AlignmentFile(witness=result.witness, model=result.model_witnesses, same=tuple(same))
    head = (
        f"# Generated by `dianli align {result.witness} --write`: the clauses of {result.witness} found *same*\n"
        "# as a modelled element, each an agreeing citation of that element in this witness's reading.\n"
        "# Do not edit: re-run the command after the rite data changes (a test checks it is current).\n"
    )
    body = yaml.safe_dump(data.model_dump(), allow_unicode=True, sort_keys=False, width=120)
    return head + body
