"""The catalogue of the rites (what differs between the witnesses' readings of them is
:mod:`dianli.comparison.variation`, read from the correspondence table)."""

from __future__ import annotations

from dianli.rites.load import all_rites


def rite_catalogue() -> list[tuple[str, tuple[str, ...], str]]:
    """(id, classical names, gloss) of every rite."""
    return [(r.id, r.names.classical, r.names.gloss) for r in all_rites().values()]
