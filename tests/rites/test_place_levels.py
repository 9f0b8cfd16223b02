"""A level of place that no place has (衛所) keeps its rules without applying them anywhere."""

from __future__ import annotations

import pytest

from dianli.api import all_places, resolve_rite


@pytest.mark.parametrize(
    "place", [p.id for p in all_places() if p.established is None or p.established.year <= 1752]
)
def test_garrison_step_applies_nowhere(place: str) -> None:
    resolved = resolve_rite("gengji", place, 1752, "fujian-tongzhi-14-modern")
    assert not any("衛所" in (n.step.action or "") for n in resolved.steps)


def test_no_place_is_a_garrison() -> None:
    assert all(str(p.level) != "garrison" for p in all_places())
