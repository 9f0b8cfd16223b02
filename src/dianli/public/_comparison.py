"""The comparison of witnesses as the public API reaches it: the one place that names the modules that
align, collate and compare readings, so that moving them (into ``dianli.comparison``) changes these
imports and nothing else of the API."""

from __future__ import annotations

from dianli.comparison.collate import Collation, collate
from dianli.comparison.collate_report import text_lines as collation_lines
from dianli.comparison.collate_report import to_html as collation_html
from dianli.comparison.collate_tei import to_tei as collation_tei
from dianli.comparison.variation import Reading, Rule, variation
from dianli.comparison.variation_svg import map_svg as variation_map_svg
from dianli.comparison.variation_svg import timeline_svg as variation_timeline_svg

__all__ = [
    "Collation",
    "Reading",
    "Rule",
    "collate",
    "collation_html",
    "collation_lines",
    "collation_tei",
    "variation",
    "variation_map_svg",
    "variation_timeline_svg",
]
