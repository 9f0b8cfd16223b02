"""Variants: every element that is one witness's reading of a rule, grouped by its ``variant`` label."""

from __future__ import annotations

from dianli.corpus.witnesses import witness_ids
from dianli.rites.load import all_rites
from dianli.rites.model import Element, Rite, Step, walk_paths
from dianli.rites.readings import apply_reading, own_readings
from dianli.rites.resolve import find_rite

VariantRow = tuple[str, str, tuple[str, ...], str, str]


def _reading(element: Element) -> str:
    if isinstance(element, Step):
        return "　".join(
            x for x in (element.call and f"「{element.call}」", element.action, element.door) if x
        )
    for name in ("name", "office", "text", "title"):
        value = getattr(element, name, None)
        if isinstance(value, str):
            return value
    return type(element).__name__


def diff_rite(rite: str) -> list[VariantRow]:
    """(where, variant, witnesses, reading, source) for every variant reading of a rite."""
    rite_id = find_rite(rite)
    rows: list[VariantRow] = []
    for path, element in walk_paths(all_rites()[rite_id], rite_id):
        if element.variant is None:
            continue
        cite = element.citations[0] if element.citations else None
        source = f"{cite.witness}「{cite.quote}」" if cite else f"assumption: {element.assumption}"
        rows.append((path, element.variant, element.witnesses or ("all",), _reading(element), source))
    rows.sort(key=lambda row: (row[1], row[0]))
    for witness in witness_ids():
        for where, patch in own_readings(witness).get(rite_id, ()):
            read = apply_reading(all_rites()[rite_id], patch, where)
            for key in (k for k in patch if k != "id" and k in Rite.model_fields):
                for path, element in walk_paths(read, rite_id):
                    if not path.startswith(f"{rite_id}.{key}"):
                        continue
                    cite = element.citations[0] if element.citations else None
                    source = (
                        f"{cite.witness}「{cite.quote}」" if cite else f"assumption: {element.assumption}"
                    )
                    rows.append((path, f"reading of {witness}", (witness,), _reading(element), source))
    return rows


def rite_catalogue() -> list[tuple[str, tuple[str, ...], str]]:
    """(id, classical names, gloss) of every rite."""
    return [(r.id, r.names.classical, r.names.gloss) for r in all_rites().values()]
