"""Variants: every element that is one witness's reading of a rule, grouped by its ``variant`` label."""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel

from dianli.rites.load import all_rites
from dianli.rites.model import Element, Step
from dianli.rites.resolve import find_rite

VariantRow = tuple[str, str, tuple[str, ...], str, str]


def _walk(node: object, path: str) -> Iterator[tuple[str, Element]]:
    if isinstance(node, Element):
        yield path, node
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            value = getattr(node, name)
            if isinstance(value, BaseModel):
                yield from _walk(value, f"{path}.{name}")
            elif isinstance(value, tuple):
                for i, item in enumerate(value):
                    if isinstance(item, BaseModel):
                        label = getattr(item, "id", None) or i
                        yield from _walk(item, f"{path}.{name}[{label}]")


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
    for path, element in _walk(all_rites()[rite_id], rite_id):
        if element.variant is None:
            continue
        cite = element.citations[0] if element.citations else None
        source = f"{cite.witness}「{cite.quote}」" if cite else f"assumption: {element.assumption}"
        rows.append((path, element.variant, element.witnesses or ("all",), _reading(element), source))
    rows.sort(key=lambda row: (row[1], row[0]))
    return rows


def rite_catalogue() -> list[tuple[str, tuple[str, ...], str]]:
    """(id, classical names, gloss) of every rite."""
    return [(r.id, r.names.classical, r.names.gloss) for r in all_rites().values()]
