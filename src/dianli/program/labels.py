"""The filters that name things for a reader in every template (booklet and web pages): ids stay in
attributes and URLs, text shows names (#14). Witnesses and sections: dianli.corpus.labels."""

from __future__ import annotations

from dianli.corpus.labels import address_label, name_ids, section_label, witness_labels
from dianli.errors import DianliError
from dianli.places.places import get_place
from dianli.rites.labels import rule_label
from dianli.rites.load import all_rites
from dianli.rites.render import movement_label


def place_label(place_id: str) -> str:
    """A place by its name (臺灣府 for ``taiwan-fu``); an unknown id as it is."""
    try:
        return get_place(place_id).name
    except DianliError:
        return place_id


def rite_label(rite_id: str) -> str:
    """A rite by its first classical name (祭崇聖祠儀注 for ``chongsheng``); an unknown id as it is."""
    found = all_rites().get(rite_id)
    return found.names.classical[0] if found else rite_id


FILTERS = {
    "witness_name": witness_labels,
    "section_name": section_label,
    "place_name": place_label,
    "rite_name": rite_label,
    "movement_name": movement_label,
    "name_ids": name_ids,
    "rule_name": rule_label,
    "address": address_label,
}
"""Jinja filters: ``{{ w|witness_name }}`` (one id or a list, joined by 、), ``{{ s|section_name }}``, ``{{ rule|rule_name }}`` (a rule read differently: 「山川·祭期」) …;
``name_ids`` names every witness and compound section id inside a composed line."""
