"""An altar laid out ``like`` another follows the reading of its own witness, whatever the file's order."""

from __future__ import annotations

import pytest

from dianli.places.places import place_at
from dianli.rites.load import all_rites
from dianli.rites.resolve import resolve_rite, resolve_with


def test_xizhe_repeats_its_own_witness_dongzhe() -> None:
    """004: 「西哲與東哲同」 (001 lays out its 西哲 on its own)."""
    resolved = resolve_rite("xianshi", "福州府", 1752, "fujian-tongzhi-14")
    altars = {a.id: a for a in resolved.altars}
    assert altars["xizhe"].like == "dongzhe"
    assert altars["xizhe"].offerings == altars["dongzhe"].offerings


@pytest.mark.parametrize("witness", ["fujian-tongzhi-14", "taiwan-fuzhi-9", "tingzhou-fuzhi"])
def test_order_of_altars_in_the_file_does_not_matter(witness: str) -> None:
    rites = dict(all_rites())
    original = rites["xianshi"]
    backward = {**rites, "xianshi": original.model_copy(update={"altars": tuple(reversed(original.altars))})}
    place = place_at("福州府", 1752)
    forward_altars = {a.id: a.offerings for a in resolve_with(rites, "xianshi", place, 1752, witness).altars}
    backward_altars = {
        a.id: a.offerings for a in resolve_with(backward, "xianshi", place, 1752, witness).altars
    }
    assert forward_altars == backward_altars
