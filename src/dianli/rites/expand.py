"""Composition as the texts do it: ``extends``, ``include`` and ``overrides`` → a flat, numbered sequence.

The expander knows no rite. It follows four general mechanisms:

* a rite ``extends`` another: it inherits every field it does not set; its parts replace inherited parts
  of the same id (others are appended), and its ``overrides`` apply to the whole inherited sequence;
* a part ``extends`` another part: the base part's steps, with the part's ``overrides``, then its own;
* an ``include`` (「如前儀」) splices another part or rite, filling ``{placeholders}`` from ``with``;
* overrides replace text, drop steps, insert or replace steps, set a field, or mirror positions; an
  override that ``replaces_act`` (望瘞 by 望燎) is checked: no step in its reach may still perform that act;
* an altar may be ``like`` another (「陳設俱與社稷同」): it repeats that altar's offerings and layout.

A rite's ``mirror_positions`` overrides act on what it inherits (the base rite's altars), before its own
altars are laid out ``like`` the inherited ones — so 「品物在某品之南者當改作在某品之北」 turns the 社稷
陳設 round and every altar of 山川 laid out like it. The plan's frame is never mirrored (a frame with its
compass words reflected is no map): the inherited layout's cells are reflected on the axis whose ends are
the two words instead.

Which elements take part is decided by a ``keep`` predicate (see :mod:`dianli.rites.resolve`), applied
to every element before it is used, so dated, place-scoped and per-witness readings compose too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import UnionType
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from dianli.errors import DataError
from dianli.rites.model import (
    Altar,
    Cell,
    Element,
    GridPoint,
    Include,
    Offering,
    Override,
    Part,
    Plan,
    Rite,
    Step,
    Victim,
)
from dianli.rites.vocabulary import acts

Keep = Callable[[Element], bool]
T = TypeVar("T", Offering, Victim)
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
TEXT_FIELDS = ("call", "action", "gloss", "place", "door", "notes")
LIKE_FIELDS = ("offerings", "silk", "victims", "cups", "items", "layout")
"""What an altar ``like`` another repeats when it does not set it itself."""


def keep_all(_element: Element) -> bool:
    return True


@dataclass(frozen=True)
class Placed:
    """A step in the expanded sequence, with the part it belongs to and how it got there."""

    step: Step
    part_id: str
    part_title: str
    via: tuple[Element, ...] = field(default=())
    """The includes, extends and overrides (each cited) that brought or changed this step."""


@dataclass(frozen=True)
class NumberedStep:
    number: int
    placed: Placed

    @property
    def step(self) -> Step:
        return self.placed.step


def effective_rite(
    rite_id: str, rites: Mapping[str, Rite], keep: Keep = keep_all, _seen: tuple[str, ...] = ()
) -> Rite:
    """The rite with everything it inherits by ``extends`` (fields it sets win; parts merge by id)."""
    if rite_id not in rites:
        raise DataError(f"rite {_seen[-1] if _seen else rite_id!r}: extends unknown rite {rite_id!r}")
    rite = rites[rite_id]
    if rite.extends is None:
        if not any(a.like for a in rite.altars):
            return rite
        pool = {a.id: a for a in rite.altars if keep(a)}
        return rite.model_copy(update={"altars": like_altars(rite.altars, pool, f"rite {rite_id!r}")})
    if rite.extends in _seen or rite.extends == rite_id:
        raise DataError(
            f"rite {rite_id!r}: field extends: cycle {' → '.join((*_seen, rite_id, rite.extends))}"
        )
    base = effective_rite(rite.extends, rites, keep, (*_seen, rite_id))
    own = {name: getattr(rite, name) for name in rite.model_fields_set}
    parts = list(base.parts)
    for part in rite.parts:
        at = next((i for i, p in enumerate(parts) if p.id == part.id), None)
        if at is None:
            parts.append(part)
        else:
            parts[at] = part
    own["parts"] = tuple(parts)
    own["overrides"] = base.overrides + rite.overrides
    inherited = mirror_altars(base.altars, rite.overrides, keep, base.plan)
    pool = {a.id: a for a in inherited}
    if "altars" in rite.model_fields_set:
        pool.update({a.id: a for a in rite.altars if keep(a)})
        own["altars"] = like_altars(rite.altars, pool, f"rite {rite_id!r}")
    else:
        own["altars"] = inherited
    if "plan" not in rite.model_fields_set and base.plan is not None:
        own["plan"] = base.plan
    own["extends"] = None
    merged = base.model_dump(by_alias=True, exclude_unset=True)
    merged.update({k: v for k, v in own.items()})
    return Rite.model_validate({k: v for k, v in merged.items()})


def like_altars(altars: tuple[Altar, ...], pool: Mapping[str, Altar], where: str) -> tuple[Altar, ...]:
    """Fill each altar ``like`` another with that altar's offerings and layout it does not set itself.

    ``pool`` holds only the altars in force for the reading being resolved, so where witnesses give one
    altar id two readings, ``like`` follows the reading of the same witness whatever the file's order."""
    out = []
    for altar in altars:
        seen = [altar.id]
        source = altar
        while source.like is not None:
            if source.like not in pool:
                raise DataError(
                    f"{where}: altar {altar.id!r}: field like: no altar {source.like!r}; "
                    f"accepted: {', '.join(sorted(pool))}"
                )
            if source.like in seen:
                raise DataError(f"{where}: altar {altar.id!r}: field like: cycle {' → '.join(seen)}")
            seen.append(source.like)
            source = pool[source.like]
            fill = {
                name: getattr(source, name)
                for name in LIKE_FIELDS
                if name not in altar.model_fields_set and name in source.model_fields_set
            }
            altar = altar.model_copy(update=fill)
        out.append(altar)
    return tuple(out)


def _fill(text: str | None, params: Mapping[str, str], where: str) -> str | None:
    if text is None:
        return None

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in params:
            raise DataError(
                f"{where}: placeholder {{{name}}} has no value; given: {', '.join(params) or 'none'}"
            )
        return params[name]

    return _PLACEHOLDER.sub(sub, text)


def _fill_step(step: Step, params: Mapping[str, str], where: str) -> Step:
    if not params and not any(_PLACEHOLDER.search(getattr(step, f) or "") for f in TEXT_FIELDS):
        return step
    update = {f: _fill(getattr(step, f), params, where) for f in TEXT_FIELDS}
    return step.model_copy(update=update)


def _matches(step: Step, ids: tuple[str, ...], tags: tuple[str, ...]) -> bool:
    return (step.id is not None and step.id in ids) or any(t in step.tags for t in tags)


def _set_field(step: Step, field: str, value: Any) -> Step:
    """``step`` with one field set, validated. Text set into one of the step's own fields that hold text
    or one of a few words (``str | None``, ``Literal[…] | None``: not the sources, years and places every
    element has) is what validation would keep unchanged: the step is copied with it and its content
    check (:meth:`Step.check_content`) runs on the copy, without building the model's validation schema
    (a cost on every first run). Any other field or value (a word not among those accepted, which the
    error then lists) is validated with the whole step."""
    accepted = _TEXT_FIELDS_ACCEPTING.get(field)
    if isinstance(value, str) and accepted is not None and (accepted == "any text" or value in accepted):
        changed = step.model_copy(update={field: value})
        changed.check_content()
        return changed
    data = step.model_dump(by_alias=True, exclude_unset=True)
    data[field] = value
    return Step.model_validate(data)


def _accepting(annotation: Any) -> frozenset[str] | str | None:
    """What a field of this type accepts as text and keeps as it is: "any text" (``str | None``), the words
    of ``Literal[…] | None``, or None (another type: validated with the whole step)."""
    if get_origin(annotation) not in (Union, UnionType) or type(None) not in get_args(annotation):
        return None
    (kept, *more) = [a for a in get_args(annotation) if a is not type(None)]
    if more:
        return None
    if kept is str:
        return "any text"
    words = get_args(kept) if get_origin(kept) is Literal else ()
    return frozenset(words) if words and all(isinstance(w, str) for w in words) else None


_TEXT_FIELDS_ACCEPTING = {
    name: found
    for name, info in Step.model_fields.items()
    if name not in Element.model_fields and not info.metadata
    if (found := _accepting(info.annotation)) is not None
}
"""The step's own fields that hold text or a word, and what they accept (see :func:`_set_field`)."""


def apply_override(seq: list[Placed], override: Override, where: str) -> list[Placed]:
    """Apply one override to a sequence of steps (``mirror_positions`` acts on altars, not steps)."""
    via = (override,)
    if override.replace_text is not None:
        rt = override.replace_text
        fields = TEXT_FIELDS if rt.field == "all" else () if rt.field == "title" else (rt.field,)
        for name in fields:
            if name not in Step.model_fields:
                raise DataError(f"{where}: replace_text names unknown step field {name!r}")
        out = []
        for p in seq:
            update = {
                n: getattr(p.step, n).replace(rt.old, rt.new)
                for n in fields
                if isinstance(getattr(p.step, n), str) and rt.old in getattr(p.step, n)
            }
            title = p.part_title.replace(rt.old, rt.new) if rt.field in ("all", "title") else p.part_title
            if update or title != p.part_title:
                p = Placed(p.step.model_copy(update=update), p.part_id, title, p.via + via)
            out.append(p)
        return out
    if override.drop is not None:
        d = override.drop
        return [p for p in seq if not _matches(p.step, d.ids, d.tags)]
    if override.replace_step is not None:
        rs = override.replace_step
        return [
            Placed(rs.step, p.part_id, p.part_title, p.via + via) if p.step.id == rs.id else p for p in seq
        ]
    if override.set is not None:
        s = override.set
        if s.field not in Step.model_fields:
            raise DataError(f"{where}: set names unknown step field {s.field!r}")
        out = []
        for p in seq:
            if (s.id is not None and p.step.id == s.id) or (s.tag is not None and s.tag in p.step.tags):
                try:
                    changed = _set_field(p.step, s.field, s.value)
                except ValueError as exc:
                    raise DataError(f"{where}: set {s.field}={s.value!r}: {exc}") from None
                out.append(Placed(changed, p.part_id, p.part_title, p.via + via))
            else:
                out.append(p)
        return out
    if override.insert is not None:
        ins = override.insert
        anchor = ins.after or ins.before
        at = len(seq)
        if anchor is not None:
            found = next((i for i, p in enumerate(seq) if p.step.id == anchor), None)
            if found is None:
                raise DataError(f"{where}: insert anchor {anchor!r} is not a step id of the sequence")
            at = found + 1 if ins.after else found
        neighbour = seq[min(at, len(seq) - 1)] if seq else None
        part_id = neighbour.part_id if neighbour else ""
        title = neighbour.part_title if neighbour else ""
        added = [Placed(step, part_id, title, via) for step in ins.steps]
        return seq[:at] + added + seq[at:]
    return seq  # mirror_positions: applied to altars by mirror_altars; unchanged: changes nothing


def performs(step: Step, act: str, part_title: str = "") -> bool:
    """Whether a step performs an act of the vocabulary (tagged with it, or one of its words in a text
    field or in the title of the part it stands in)."""
    if act in step.tags:
        return True
    words = acts()[act].words
    texts = [getattr(step, f) or "" for f in TEXT_FIELDS] + [part_title]
    return any(word in text for word in words for text in texts)


def left_performing(seq: list[Placed], act: str) -> list[Placed]:
    """The steps of ``seq`` that still perform ``act``."""
    return [p for p in seq if performs(p.step, act, p.part_title)]


def check_replaced_acts(seq: list[Placed], overrides: tuple[Override, ...], keep: Keep, where: str) -> None:
    """Refuse a sequence in which a step still performs an act one of ``overrides`` replaces."""
    for override in overrides:
        act = override.replaces_act
        if act is None or not keep(override):
            continue
        left = left_performing(seq, act)
        if left:
            shown = "; ".join(
                f"{p.part_title}: {p.step.id or ''} {p.step.call or p.step.action or ''}".strip()
                for p in left
            )
            raise DataError(
                f"{where}: an override replaces the act {act!r} but steps still perform it ({shown}); "
                "change or drop them with further overrides"
            )


class Expander:
    """Expands the parts of rites, with a keep predicate and memo of effective rites."""

    def __init__(self, rites: Mapping[str, Rite], keep: Keep = keep_all) -> None:
        self.rites = rites
        self.keep = keep
        self._effective: dict[str, Rite] = {}

    def rite(self, rite_id: str) -> Rite:
        if rite_id not in self._effective:
            self._effective[rite_id] = effective_rite(rite_id, self.rites, self.keep)
        return self._effective[rite_id]

    def _part(self, rite: Rite, part_id: str, where: str) -> Part:
        for part in rite.parts:
            if part.id == part_id and self.keep(part):
                return part
        raise DataError(
            f"{where}: rite {rite.id!r} has no part {part_id!r}; parts: {', '.join(p.id for p in rite.parts)}"
        )

    def _target(self, ref: str, rite: Rite, where: str) -> tuple[Rite, Part | None]:
        rite_ref, _, part_ref = ref.partition("#")
        target = self.rite(rite_ref) if rite_ref else rite
        return target, (self._part(target, part_ref, where) if part_ref else None)

    def sequence(self, rite_id: str, _stack: tuple[str, ...] = ()) -> list[Placed]:
        """The whole rite: its parts in order (template parts left out), rite overrides applied."""
        rite = self.rite(rite_id)
        seq: list[Placed] = []
        for part in rite.parts:
            if part.in_sequence and self.keep(part):
                seq.extend(self.part(rite, part, {}, (*_stack, rite_id)))
        for override in rite.overrides:
            if self.keep(override):
                seq = apply_override(seq, override, f"rite {rite_id!r}: overrides")
        check_replaced_acts(seq, rite.overrides, self.keep, f"rite {rite_id!r}: overrides")
        return seq

    def part(self, rite: Rite, part: Part, params: Mapping[str, str], stack: tuple[str, ...]) -> list[Placed]:
        key = f"{rite.id}#{part.id}"
        where = f"rite {rite.id!r}: part {part.id!r}"
        if key in stack:
            raise DataError(f"{where}: cycle {' → '.join((*stack, key))}")
        stack = (*stack, key)
        scope = {**params, **part.with_}
        seq: list[Placed] = []
        if part.extends is not None:
            base_rite, base_part = self._target(part.extends, rite, where)
            base = (
                self.part(base_rite, base_part, scope, stack)
                if base_part is not None
                else self.sequence(base_rite.id, stack)
            )
            seq = [Placed(p.step, part.id, part.title, (part, *p.via)) for p in base]
            for override in part.overrides:
                if self.keep(override):
                    seq = apply_override(seq, override, where)
        for item in part.steps:
            if not self.keep(item):
                continue
            if isinstance(item, Include):
                target_rite, target_part = self._target(item.include, rite, where)
                inner = {**scope, **item.with_}
                sub = (
                    self.part(target_rite, target_part, inner, stack)
                    if target_part is not None
                    else self.sequence(target_rite.id, stack)
                )
                if target_part is not None:
                    sub = [Placed(p.step, part.id, part.title, (item, *p.via)) for p in sub]
                else:
                    sub = [Placed(p.step, p.part_id, p.part_title, (item, *p.via)) for p in sub]
                for override in item.overrides:
                    if self.keep(override):
                        sub = apply_override(sub, override, where)
                check_replaced_acts(sub, item.overrides, self.keep, f"{where}: include {item.include!r}")
                seq.extend(sub)
            else:
                seq.append(Placed(_fill_step(item, scope, where), part.id, part.title))
        check_replaced_acts(seq, part.overrides, self.keep, where)
        return seq


def number(seq: list[Placed]) -> tuple[NumberedStep, ...]:
    return tuple(NumberedStep(i, p) for i, p in enumerate(seq, start=1))


def expand(rite_id: str, rites: Mapping[str, Rite], keep: Keep = keep_all) -> tuple[NumberedStep, ...]:
    """The flat, numbered order of service of a rite."""
    return number(Expander(rites, keep).sequence(rite_id))


def _swap(text: str | None, a: str, b: str) -> str | None:
    if text is None:
        return None
    return "".join(b if ch == a else a if ch == b else ch for ch in text)


def mirror_axis(plan: Plan | None, a: str, b: str) -> str | None:
    """The plan axis (``across`` or ``down``) whose two ends are the words ``a`` and ``b``, if any."""
    if plan is None:
        return None
    if set(plan.across) == {a, b}:
        return "across"
    if plan.down is not None and set(plan.down) == {a, b}:
        return "down"
    return None


def _reflect_cells(altar: Altar, axis: str, lo: int, hi: int) -> Altar:
    """The altar's tablet cell and layout reflected on ``axis`` (within the span ``lo``..``hi``)."""
    update: dict[str, object] = {}
    if altar.at is not None:
        point = altar.at.model_dump()
        point[axis] = lo + hi - point[axis]
        update["at"] = GridPoint(**point)
    if altar.layout is not None:
        cells = []
        for cell in altar.layout.cells:
            data = cell.model_dump()
            data[axis] = -data[axis]
            cells.append(Cell(**data))
        update["layout"] = altar.layout.model_copy(update={"cells": tuple(cells)})
    return altar.model_copy(update=update) if update else altar


def mirror_altars(
    altars: tuple[Altar, ...],
    overrides: tuple[Override, ...],
    keep: Keep = keep_all,
    plan: Plan | None = None,
) -> tuple[Altar, ...]:
    """Apply every ``mirror_positions`` override to the positions of altars and their offerings, and
    reflect their cells on the axis of ``plan`` whose ends are the two words (the frame stays a map)."""
    result = altars
    for override in overrides:
        m = override.mirror_positions
        if m is None or not keep(override):
            continue

        def flip(o: T, a: str = m.a, b: str = m.b) -> T:
            return o.model_copy(update={"position": _swap(o.position, a, b)})

        result = tuple(
            alt.model_copy(
                update={
                    "position": _swap(alt.position, m.a, m.b),
                    "offerings": tuple(flip(o) for o in alt.offerings),
                    "items": tuple(flip(o) for o in alt.items),
                    "victims": tuple(flip(v) for v in alt.victims),
                }
            )
            for alt in result
        )
        axis = mirror_axis(plan, m.a, m.b)
        spots = [getattr(alt.at, axis) for alt in result if axis is not None and alt.at is not None]
        if axis is not None:
            lo, hi = (min(spots), max(spots)) if spots else (0, 0)
            result = tuple(_reflect_cells(alt, axis, lo, hi) for alt in result)
    return result
