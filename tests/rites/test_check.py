"""Every cross reference of the rite data is checked at load: a bad one names file, rite, path and value,
and lists what is accepted."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dianli.errors import DataError
from dianli.rites.check import check_rites
from dianli.rites.load import all_rites
from dianli.rites.model import Altar, Citation, Part, Rite


def _litan(**update: object) -> Rite:
    return all_rites()["litan"].model_copy(update=update)


Case = Callable[[], dict[str, Rite]]

CASES: list[tuple[str, Case, tuple[str, ...]]] = [
    (
        "unknown witness in witnesses",
        lambda: {"litan": _litan(witnesses=("nope-witness",))},
        ("witness 'nope-witness'", "taiwan-fuzhi-9"),
    ),
    (
        "unknown place",
        lambda: {"litan": _litan(places=("北京",))},
        ("place '北京'", "福州府"),
    ),
    (
        "unknown place level",
        lambda: {"litan": _litan(place_levels=("鎮",))},
        ("place level '鎮'", "省城"),
    ),
    (
        "unknown extends",
        lambda: {"litan": _litan(extends="nope-rite")},
        ("rite 'nope-rite'", "litan"),
    ),
    (
        "unknown part extends",
        lambda: {"litan": _litan(parts=(Part(id="p", title="t", extends="#nope-part", assumption="test"),))},
        ("extends part of 'litan' 'nope-part'",),
    ),
    (
        "unknown altar like",
        lambda: {"litan": _litan(altars=(Altar(id="a", name="a", like="nope-altar", assumption="test"),))},
        ("altar like 'nope-altar'",),
    ),
    (
        "observance id of two rites",
        lambda: {
            "litan": _litan(),
            "litan2": _litan(id="litan2"),
        },
        ("observance id already used by rite 'litan'",),
    ),
]


@pytest.mark.parametrize(("label", "rites", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_reference(label: str, rites: Case, expected: tuple[str, ...]) -> None:
    with pytest.raises(DataError) as err:
        check_rites(rites(), {"litan": "litan.yaml", "litan2": "other.yaml"})
    message = str(err.value)
    assert message.startswith(("litan.yaml: rite 'litan'", "other.yaml: rite 'litan2'")), message
    for part in expected:
        assert part in message


def test_a_citation_names_a_known_witness() -> None:
    """A citation checks its witness itself: in a rite file the error names file, rite and field."""
    with pytest.raises(ValueError, match=r"unknown witness 'nope-witness'; accepted: .*fujian-tongzhi-14"):
        Citation(witness="nope-witness", quote="祭厲壇")


def test_the_shipped_data_passes() -> None:
    check_rites(all_rites(), {})
