"""Overrides carry their consequences: every override of the rite data (the shared base and every
witness's readings) is checked on the sequence it reaches, as resolved for real places and witnesses —
the text it replaces, the steps it drops, the act it does away with are gone; and the mechanism itself
(``replaces_act``, mirrored layouts) on small rites."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.corpus.witnesses import witness_ids
from dianli.errors import DataError, OutOfRangeError, QingRuleEndedError, UnknownValueError
from dianli.rites.expand import Placed, effective_rite, expand, left_performing, performs
from dianli.rites.load import parse_rite_file
from dianli.rites.model import Element, Include, Override, Rite
from dianli.rites.readings import rites_for, witnesses_with_rite
from dianli.rites.resolve import resolve_rite, scope_for
from dianli.rites.vocabulary import acts

PLACES = ("福州", "臺灣府", "汀州府", "鳳山縣", "長汀縣", "淡水海防廳", "噶瑪蘭廳", "澎湖廳", "晉江縣")
YEAR = 1752


@dataclass(frozen=True)
class Found:
    """One override as it stands in the data: the rite, where (rite / part / include) and its holder."""

    rite: str
    where: str
    holder: Element | None
    """The part or include whose overrides hold it (None: the rite's own overrides)."""
    override: Override


def _overrides(rite: Rite) -> Iterator[Found]:
    for o in rite.overrides:
        yield Found(rite.id, "rite", None, o)
    for part in rite.parts:
        for o in part.overrides:
            yield Found(rite.id, f"part {part.id}", part, o)
        for item in part.steps:
            if isinstance(item, Include):
                for o in item.overrides:
                    yield Found(rite.id, f"part {part.id} include {item.include}", item, o)


@functools.cache
def _all_overrides() -> dict[str, tuple[Found, tuple[str, ...]]]:
    """Every override of every witness's reading, once, with the witnesses whose reading holds it."""
    found: dict[str, tuple[Found, list[str]]] = {}
    for witness in witness_ids():
        for rite in rites_for(witness).values():
            for f in _overrides(rite):
                key = f.override.model_dump_json(exclude_unset=True)
                found.setdefault(f"{f.rite}:{f.where}:{key}", (f, []))[1].append(witness)
    out: dict[str, tuple[Found, tuple[str, ...]]] = {}
    for f, ws in found.values():
        label = f"{f.rite}:{f.where}:{_what(f.override)}"
        n = sum(1 for k in out if k == label or k.startswith(f"{label}#"))
        out[f"{label}#{n + 1}" if n else label] = (f, tuple(ws))
    return out


def _what(o: Override) -> str:
    """A short label of an override for test ids (``replace_text 望瘞→望燎``, ``drop 奠帛+讀祝`` …)."""
    if o.replace_text is not None:
        return f"replace_text {o.replace_text.old}→{o.replace_text.new}"
    if o.drop is not None:
        return "drop " + "+".join((*o.drop.ids, *o.drop.tags))
    if o.replace_step is not None:
        return f"replace_step {o.replace_step.id}"
    if o.set is not None:
        return f"set {o.set.id or o.set.tag}.{o.set.field}"
    if o.insert is not None:
        return f"insert after {o.insert.after or o.insert.before}"
    return o.operation


def _reach(steps: tuple[Placed, ...], found: Found) -> list[Placed]:
    """The steps an override can have reached: the whole rite, or those brought by its part or include."""
    if found.holder is None:
        return list(steps)
    return [p for p in steps if any(v is found.holder or v == found.holder for v in p.via)]


def _resolutions(found: Found, witnesses: tuple[str, ...]) -> list[tuple[str, str, tuple[Placed, ...]]]:
    out = []
    holders = set(witnesses_with_rite(found.rite))
    for witness in witnesses:
        if witness not in holders:
            continue
        for place in PLACES:
            try:
                r = resolve_rite(found.rite, place, YEAR, witness)
            except (UnknownValueError, OutOfRangeError, QingRuleEndedError):
                continue
            keeps = scope_for(r.rite.id, r.place, r.year, witness).keeps
            if keeps(found.override) and found.override in _in_force(r.rite, found):
                out.append((witness, place, tuple(n.placed for n in r.steps)))
    return out


def _in_force(effective: Rite, found: Found) -> tuple[Override, ...]:
    """The overrides of the same place in the effective rite (an override another reading replaced is
    not in force there)."""
    return tuple(f.override for f in _overrides(effective) if f.where == found.where) + tuple(
        o for o in effective.overrides if found.holder is None
    )


def _text(p: Placed, field: str) -> str:
    fields = ("call", "action", "gloss", "place", "door", "notes") if field in ("all", "title") else (field,)
    texts = [getattr(p.step, f) or "" for f in fields]
    if field in ("all", "title"):
        texts.append(p.part_title)
    return " ".join(texts)


def _left_over(found: Found, reach: list[Placed]) -> list[str]:
    """What the override replaced or dropped that is still in its reach."""
    o = found.override
    left: list[str] = []
    if o.replaces_act is not None:
        left += [
            f"performs {o.replaces_act}: {p.step.call or p.step.action}"
            for p in left_performing(reach, o.replaces_act)
        ]
    if o.replace_text is not None and o.replace_text.old not in o.replace_text.new:
        rt = o.replace_text
        left += [f"still reads {rt.old}: {_text(p, rt.field)}" for p in reach if rt.old in _text(p, rt.field)]
    if o.drop is not None:
        d = o.drop
        left += [
            f"dropped step still there: {p.step.id or p.step.tags}"
            for p in reach
            if (p.step.id is not None and p.step.id in d.ids) or set(p.step.tags) & set(d.tags)
        ]
    if o.replace_step is not None and o.replace_step.step.id != o.replace_step.id:
        left += [f"replaced step still there: {p.step.id}" for p in reach if p.step.id == o.replace_step.id]
    return left


CHECKED = ("replace_text", "drop", "replace_step")
CASES = {
    key: value
    for key, value in _all_overrides().items()
    if value[0].override.operation in CHECKED or value[0].override.replaces_act is not None
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_an_override_leaves_nothing_of_what_it_replaces(key: str) -> None:
    found, witnesses = CASES[key]
    resolutions = _resolutions(found, witnesses)
    for witness, place, steps in resolutions:
        reach = _reach(steps, found)
        assert _left_over(found, reach) == [], (witness, place)


def test_every_override_that_replaces_an_act_is_checked() -> None:
    replacing = [f for f, _ in CASES.values() if f.override.replaces_act is not None]
    assert {f.override.replaces_act for f in replacing} == {"望瘞"}
    assert all(_resolutions(f, ws) for f, ws in CASES.values() if f.override.replaces_act is not None)


# --- 山川: 望燎 for 望瘞, with its consequences ------------------------------------------------------

BURIAL = re.compile("瘞所|坎中|實坎|以土")


@pytest.mark.parametrize("witness", [None, "taiwan-fuzhi-9", "fujian-tongzhi-14", "tingzhou-fuzhi-11"])
@pytest.mark.parametrize("place", ["福州", "臺灣府", "汀州府", "淡水海防廳"])
def test_shanchuan_burns_and_buries_no_prayer_or_silk(place: str, witness: str | None) -> None:
    r = resolve_rite("shanchuan", place, YEAR, witness)
    last = [n for n in r.steps if n.placed.part_title == "望燎"]
    calls = [n.step.call or n.step.action for n in last]
    assert "讀祝者捧祝、進帛者捧帛，各詣燎所" in calls and "執事者以帛焚於燎爐" in calls
    assert calls[-1] == "禮畢"
    assert not any(performs(n.step, "望瘞", n.placed.part_title) for n in r.steps)
    assert [
        n.step.action for n in r.steps if BURIAL.search(" ".join(filter(None, (n.step.call, n.step.action))))
    ] == []


@pytest.mark.parametrize(("step_id", "assumed"), [("yi-liaosuo", "燎所"), ("fen-liaolu", "燎爐")])
def test_shanchuan_liao_steps_say_where_they_come_from(step_id: str, assumed: str) -> None:
    (step,) = [n.step for n in resolve_rite("shanchuan", "福州", YEAR).steps if n.step.id == step_id]
    assert step.assumption and assumed in step.assumption and "改望瘞為望燎" in step.assumption
    assert all(c.resolve() for c in step.citations)


def test_sheji_still_buries() -> None:
    r = resolve_rite("sheji", "福州", YEAR)
    assert [n.step.action for n in r.steps if n.step.id == "shi-kan"] == ["焚畢，以土實坎"]


def test_rites_show_shanchuan_buries_nothing_at_the_end() -> None:
    result = CliRunner().invoke(
        app, ["rites", "show", "山川", "--place", "福州", "--year", "1752", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    shown = result.stdout
    steps = json.loads(shown)["steps"]
    said = [" ".join(filter(None, (s.get("call"), s.get("action"), s.get("place")))) for s in steps]
    assert [s for s in said if BURIAL.search(s) or "望瘞" in s] == []
    assert "讀祝者捧祝、進帛者捧帛，各詣燎所" in said and "執事者以帛焚於燎爐" in said


@pytest.mark.parametrize(
    ("rite", "across", "down"),
    [("sheji", ("南", "北"), ("西", "東")), ("shanchuan", ("北", "南"), ("東", "西"))],
)
def test_plans_are_maps_not_mirror_images(rite: str, across: tuple[str, str], down: tuple[str, str]) -> None:
    plan = resolve_rite(rite, "福州", YEAR).plan
    assert plan is not None and (plan.across, plan.down) == (across, down)
    # going round the frame (left, top, right, bottom) is going round the compass (clockwise or not)
    ring = "北東南西"
    left, top, right = ring.index(across[0]), ring.index(down[0]), ring.index(across[1])
    assert (top - left) % 4 == (right - top) % 4 in (1, 3)


# --- the mechanism ----------------------------------------------------------------------------------

BASE = """
family: test
rites:
  - id: base
    cite: {witness: taiwan-fuzhi-9, quote: 祭社稷禮}
    names: {classical: [祭社稷禮], gloss: base, cite: {witness: taiwan-fuzhi-9, quote: 祭社稷禮}}
    plan: {across: [南, 北], down: [西, 東], cite: {witness: taiwan-fuzhi-9, quote: 南祝獻官位北}}
    altars:
      - id: she
        name: 社
        at: {across: 2, down: 3}
        layout: {cells: [{item: 帛, across: 5, down: 0}, {item: 爵, across: 8, down: -1}], cite: {witness: taiwan-fuzhi-9, quote: 南祝獻官位北}}
        offerings: [{vessel: 籩, count: 4, position: 在豆之南, cite: {witness: taiwan-fuzhi-9, quote: 祭社稷禮}}]
        cite: {witness: taiwan-fuzhi-9, quote: 祭社稷禮}
      - id: ji
        name: 稷
        at: {across: 6, down: 9}
        cite: {witness: taiwan-fuzhi-9, quote: 祭社稷禮}
    parts:
      - id: wangyi
        title: 望瘞
        cite: {witness: taiwan-fuzhi-9, quote: 通贊唱：『望瘞』}
        steps:
          - {kind: call, id: yi, role: 通贊, call: 各詣瘞所, cite: {witness: taiwan-fuzhi-9, quote: 各詣瘞所}}
          - {kind: call, role: 通贊, call: 望瘞, cite: {witness: taiwan-fuzhi-9, quote: 通贊唱：『望瘞』}}
          - {kind: action, id: shi, action: 焚畢，以土實坎, cite: {witness: taiwan-fuzhi-9, quote: 焚畢，以土實坎}}
  - id: child
    extends: base
    cite: {witness: taiwan-fuzhi-9, quote: 祭山川禮}
    names: {classical: [祭山川禮], gloss: child, cite: {witness: taiwan-fuzhi-9, quote: 祭山川禮}}
    overrides:
      - {replace_text: {field: all, old: 望瘞, new: 望燎}, replaces_act: 望瘞, cite: {witness: taiwan-fuzhi-9, quote: 但改望瘞為望燎}}
      - {mirror_positions: {a: 南, b: 北}, cite: {witness: taiwan-fuzhi-9, quote: 當改作在某品之北}}
{more}
"""
CONSEQUENCES = """
      - {replace_text: {field: call, old: 瘞所, new: 燎所}, assumption: test}
      - {drop: {ids: [shi]}, assumption: test}
"""


def _rites(more: str) -> dict[str, Rite]:
    return {r.id: r for r in parse_rite_file("test.yaml", BASE.replace("{more}", more)).rites}


def test_an_act_replaced_with_its_dependent_steps_left_is_refused() -> None:
    with pytest.raises(DataError) as err:
        expand("child", _rites(""))
    message = str(err.value)
    assert "rite 'child'" in message and "'望瘞'" in message
    assert "各詣瘞所" in message and "焚畢，以土實坎" in message
    assert "change or drop them" in message


def test_an_act_replaced_with_its_consequences_expands() -> None:
    steps = expand("child", _rites(CONSEQUENCES))
    assert [n.step.call or n.step.action for n in steps] == ["各詣燎所", "望燎"]
    assert {n.placed.part_title for n in steps} == {"望燎"}


def test_the_base_keeps_its_act() -> None:
    steps = expand("base", _rites(CONSEQUENCES))
    assert [n.step.id for n in steps] == ["yi", None, "shi"]


def test_an_unknown_act_is_refused_with_the_accepted_ones() -> None:
    bad = BASE.replace("replaces_act: 望瘞", "replaces_act: 望埋").replace("{more}", "")
    with pytest.raises(DataError) as err:
        parse_rite_file("test.yaml", bad)
    assert "望埋" in str(err.value) and all(name in str(err.value) for name in acts())


@pytest.mark.parametrize(
    ("step", "act", "performs_it"),
    [
        ({"kind": "call", "call": "詣望瘞位"}, "望瘞", True),
        ({"kind": "action", "action": "執事者以帛焚於坎中"}, "望瘞", True),
        ({"kind": "action", "action": "執事者先以毛血瘞於坎"}, "望瘞", False),
        ({"kind": "call", "call": "瘞毛血"}, "望瘞", False),
        ({"kind": "action", "action": "執事者以帛焚於燎爐"}, "望燎", True),
        ({"kind": "action", "action": "獻爵", "tags": ["望燎"]}, "望燎", True),
    ],
)
def test_performs(step: dict[str, object], act: str, performs_it: bool) -> None:
    from dianli.rites.model import Step

    assert performs(Step.model_validate({**step, "assumption": "test"}), act) is performs_it


def test_a_mirror_reflects_the_inherited_layout_and_keeps_the_frame() -> None:
    rites = _rites(CONSEQUENCES)
    child = effective_rite("child", rites)
    base = effective_rite("base", rites)
    assert child.plan == base.plan
    she_base, ji_base = base.altars
    she, ji = child.altars
    assert she.offerings[0].position == "在豆之北"
    assert she.at is not None and ji.at is not None and she_base.at is not None and ji_base.at is not None
    # the tablets' cells change ends on the mirrored axis (2..6), the other axis stays
    assert (she.at.across, she.at.down) == (6, 3) and (ji.at.across, ji.at.down) == (2, 9)
    assert she.layout is not None and she_base.layout is not None
    assert [(c.item, c.across, c.down) for c in she.layout.cells] == [("帛", -5, 0), ("爵", -8, -1)]


def test_a_witness_that_reads_no_liao_keeps_its_burial() -> None:
    """噶瑪蘭廳志's 山川 is 「餘儀節與祭社稷同」: its own 社稷 ending (瘞祝帛), none of the 望燎 overrides."""
    r = resolve_rite("shanchuan", "噶瑪蘭廳", 1830, "gemalan-tingzhi-3")
    calls = [n.step.call for n in r.steps]
    assert "瘞祝帛" in calls and "望燎" not in calls
    keeps = scope_for("shanchuan", r.place, r.year, r.witness).keeps
    liao = [o for o in r.rite.overrides if o.variant == "山川望燎"]
    assert [o.operation for o in liao if keeps(o)] == ["unchanged"]
    assert len([o for o in liao if not keeps(o)]) == 4


_CITE = {"witness": "taiwan-fuzhi-9", "quote": "行初獻禮"}
_CALL = {"kind": "call", "call": "行初獻禮", "role": "通贊", "cite": _CITE}
_ACTION = {"kind": "action", "action": "跪", "cite": _CITE}


@pytest.mark.parametrize(
    ("step", "field", "value"),
    [
        (_CALL, "call", "行亞獻禮"),  # text into a text field: copied, checked
        (_CALL, "place", "讀祝位"),
        (_ACTION, "action", "叩首"),
        (_ACTION, "posture", "一跪三叩"),  # not a text field: validated whole
        (_CALL, "music", "yaxian"),  # a word of a Literal: kept as it is
        (_CALL, "music_action", "start"),
        (_CALL, "actors", ["初獻官", "亞獻官"]),  # another type: validated whole (a list becomes a tuple)
    ],
)
def test_setting_a_field_gives_what_validating_the_step_gives(
    step: dict[str, object], field: str, value: str
) -> None:
    from dianli.rites.expand import _set_field
    from dianli.rites.model import Step

    before = Step.model_validate(step)
    changed = _set_field(before, field, value)
    whole = Step.model_validate({**before.model_dump(by_alias=True, exclude_unset=True), field: value})
    assert changed == whole and getattr(changed, field) in (value, tuple(value))
    assert changed.model_fields_set == whole.model_fields_set


@pytest.mark.parametrize(
    ("step", "field", "value", "message"),
    [
        (_CALL, "call", "", "a step of kind 'call' needs the 'call' text"),
        (_ACTION, "posture", "倒立", "unknown posture '倒立'"),
        (_CALL, "music", "nope", "'yingshen'"),  # the accepted movements named
    ],
)
def test_setting_a_field_is_checked(step: dict[str, object], field: str, value: str, message: str) -> None:
    from dianli.rites.expand import _set_field
    from dianli.rites.model import Step

    with pytest.raises(ValueError, match=re.escape(message)):
        _set_field(Step.model_validate(step), field, value)
