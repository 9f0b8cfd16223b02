"""Every cross reference of the rite data, checked when it is loaded.

The schema (:mod:`dianli.rites.model`) checks each element's shape; this module checks what an element
names elsewhere: witness ids (citations, ``also_in``, ``witnesses``), places, place levels, the rite a
rite ``extends``, the part a part ``extends`` or an ``include`` splices (``rite#part``), the altar an altar
is ``like``, the rite an ``occasion`` link names, and that an observance (a ``date_rule`` id) belongs to one rite. A bad reference is a
:class:`DataError` naming the file, the rite, the element's path and the bad value, and listing what is
accepted.
"""

from __future__ import annotations

from collections.abc import Mapping

from dianli.corpus.witnesses import witness_ids
from dianli.errors import DataError, DianliError
from dianli.places.places import get_place, place_names
from dianli.rites.model import Altar, Include, OccasionLink, Part, Rite, walk_paths
from dianli.rites.vocabulary import place_levels


def _extends_chain(rite_id: str, rites: Mapping[str, Rite]) -> list[Rite]:
    chain: list[Rite] = []
    seen: set[str] = set()
    current: str | None = rite_id
    while current is not None and current in rites and current not in seen:
        seen.add(current)
        chain.append(rites[current])
        current = rites[current].extends
    return chain


def _parts(rite_id: str, rites: Mapping[str, Rite]) -> set[str]:
    return {p.id for r in _extends_chain(rite_id, rites) for p in r.parts}


def _altars(rite_id: str, rites: Mapping[str, Rite]) -> set[str]:
    return {a.id for r in _extends_chain(rite_id, rites) for a in r.altars}


def _fail(
    where: str, what: str, value: object, accepted: list[str] | set[str] | tuple[str, ...]
) -> DataError:
    listed = ", ".join(sorted(accepted)) or "(none)"
    return DataError(f"{where}: {what} {value!r} is unknown; accepted: {listed}")


def _check_ref(ref: str, rite: Rite, rites: Mapping[str, Rite], where: str, what: str) -> None:
    rite_ref, _, part_ref = ref.partition("#")
    target = rite_ref or rite.id
    if target not in rites:
        raise _fail(where, f"{what} rite", target, list(rites))
    if part_ref and part_ref not in _parts(target, rites):
        raise _fail(where, f"{what} part of {target!r}", part_ref, _parts(target, rites))


def check_rites(rites: Mapping[str, Rite], origin: Mapping[str, str]) -> None:
    """Raise DataError at the first broken reference of the rite data (see the module docstring)."""
    witnesses = set(witness_ids())
    levels = place_levels()
    owner: dict[str, str] = {}
    for rite_id, rite in rites.items():
        file = origin.get(rite_id, "rite data")
        if rite.extends is not None and rite.extends not in rites:
            raise _fail(f"{file}: rite {rite_id!r}: field extends", "rite", rite.extends, list(rites))
        for rule in rite.date_rule:
            other = owner.setdefault(rule.id, rite_id)
            if other != rite_id:
                raise DataError(
                    f"{file}: rite {rite_id!r}: date_rule {rule.id!r}: observance id already used by rite {other!r}"
                )
        for path, element in walk_paths(rite, rite_id):
            where = f"{file}: rite {rite_id!r}: {path}"
            named = [c.witness for c in element.citations] + list(element.witnesses)
            extra = [getattr(element, "scope_cite", None)]
            named += [c.witness for c in extra if c is not None]
            for witness in named:
                if witness not in witnesses:
                    raise _fail(where, "witness", witness, witnesses)
            for name in element.places:
                try:
                    get_place(name)
                except DianliError:
                    raise _fail(where, "place", name, place_names()) from None
            for name in element.place_levels:
                if name not in levels:
                    raise _fail(where, "place level", name, list(levels))
            if isinstance(element, Part) and element.extends is not None:
                _check_ref(element.extends, rite, rites, where, "extends")
            if isinstance(element, Include):
                _check_ref(element.include, rite, rites, where, "include")
            if isinstance(element, Altar) and element.like is not None:
                pool = _altars(rite_id, rites)
                if element.like not in pool:
                    raise _fail(where, "altar like", element.like, pool)
            if isinstance(element, OccasionLink) and (element.other not in rites or element.other == rite_id):
                raise _fail(where, "occasion rite", element.other, [r for r in rites if r != rite_id])
