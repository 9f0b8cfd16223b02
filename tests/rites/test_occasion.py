"""A ceremony day made of rites: the occasion a rite belongs to, from the rites' own ``occasion`` links."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.errors import DataError, DianliError
from dianli.rites import occasion as occasion_module
from dianli.rites.check import check_rites
from dianli.rites.load import all_rites, parse_rite_file
from dianli.rites.model import OccasionLink
from dianli.rites.observances import observances_for
from dianli.rites.occasion import occasion_calendar, occasion_of, occasion_relation
from dianli.rites.resolve import resolve_rite

runner = CliRunner()
XIANSHI_TAIWAN = ["chongsheng", "xianshi", "zhuwengong", "minghuan", "xiangxian"]


@pytest.mark.parametrize(
    ("rite", "place", "order"),
    [
        ("祀先師", "臺灣府", XIANSHI_TAIWAN),  # 朱文公祠 after 文廟 (臺灣府志), then 名宦祠, 鄉賢祠
        ("崇聖祠", "臺灣府", XIANSHI_TAIWAN),  # any rite of the occasion gives the same occasion
        ("名宦祠", "臺灣府", XIANSHI_TAIWAN),
        (
            "xianshi",
            "福州",
            ["chongsheng", "xianshi", "changgong", "minghuan", "xiangxian"],
        ),  # 常公祠 at 福州
        ("xianshi", "汀州府", ["chongsheng", "xianshi", "minghuan", "xiangxian"]),  # no 常公祠, no 朱文公祠
        ("xianshi", "長汀縣", ["chongsheng", "xianshi", "minghuan", "xiangxian"]),
        ("鞭春", "臺灣府", ["yingchun", "bianchun"]),
        ("社稷", "臺灣府", ["sheji"]),  # a rite with no links is an occasion of one
    ],
)
def test_order_of_the_occasion(rite: str, place: str, order: list[str]) -> None:
    found = occasion_of(rite, place, 1752)
    assert [m.rite for m in found.members] == order
    assert found.alone is (len(order) == 1)
    assert found.main.rite == resolve_rite(rite, place, 1752).rite.id


@pytest.mark.parametrize(
    ("rite", "days"),
    [("迎春", {"yingchun": 0, "bianchun": 1}), ("鞭春", {"yingchun": -1, "bianchun": 0})],
)
def test_days_counted_from_the_rite_asked_for(rite: str, days: dict[str, int]) -> None:
    assert {m.rite: m.day for m in occasion_of(rite, "臺灣府", 1752).members} == days


@pytest.mark.parametrize(
    ("place", "rite", "text", "quote"),
    [
        ("臺灣府", "chongsheng", "before 祀先師禮", "凡祭文廟，必先崇聖祠"),
        ("臺灣府", "xianshi", "after 祭崇聖祠儀注", "祭崇聖祠畢，文廟中鼓初嚴"),
        ("臺灣府", "zhuwengong", "after 祀先師禮", "文廟祭畢，乃祭朱文公祠"),
        ("臺灣府", "xiangxian", "after 名宦祠", "次祭名宦祠、次祭鄉賢祠"),
        ("福州", "changgong", "after 祀先師禮", "文廟祭畢乃祭常公祠"),
        ("福州", "minghuan", "after 常公祠", "文廟祭畢乃祭常公祠帛一羊一豕一簠一簋一籩四豆四次祭名宦祠"),
        ("汀州府", "minghuan", "after 祀先師禮", "文庙祭毕，乃祭名宦祠"),
        ("臺灣府", "bianchun", "the day after 迎春禮", "立春前一日，府、廳、縣率屬俱穿蟒袍、補服，至春牛亭"),
    ],
)
def test_each_place_cites_its_witness(place: str, rite: str, text: str, quote: str) -> None:
    found = occasion_of(rite, place, 1752)
    relations = dict(occasion_relation(found.member(rite), found))
    assert text in relations
    quotes = [c.quote for c in relations[text]]
    assert quote in quotes
    assert all(c.resolve() for c in relations[text])


def test_links_scoped_by_the_rites_held() -> None:
    """At 福州 名宦祠 follows 常公祠; the link to 臺灣府's 朱文公祠 does not count there (not held)."""
    minghuan = occasion_of("名宦祠", "福州", 1752).member("minghuan")
    others = {p.first for p in minghuan.placements if p.second == "minghuan"}
    assert others == {"xianshi", "changgong"}


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"before": "xianshi", "after": "xianshi"}, "exactly one of 'before' or 'after'"),
        ({}, "exactly one of 'before' or 'after'"),
        ({"after": "xianshi", "days": -1}, "days"),
    ],
)
def test_schema_of_a_link(patch: dict[str, object], message: str) -> None:
    body = ", ".join(f"{k}: {v}" for k, v in patch.items())
    text = f"""
family: test
rites:
  - id: demo
    cite: {{witness: taiwan-fuzhi-9, quote: 祭社稷禮}}
    names: {{classical: [祭社稷禮], gloss: demo, cite: {{witness: taiwan-fuzhi-9, quote: 祭社稷禮}}}}
    occasion:
      - {{{body}{", " if body else ""}cite: {{witness: taiwan-fuzhi-9, quote: 凡祭文廟，必先崇聖祠}}}}
"""
    with pytest.raises(DataError, match=message) as info:
        parse_rite_file("demo.yaml", text)
    assert "rite 'demo'" in str(info.value) and "occasion[0]" in str(info.value)


@pytest.mark.parametrize("target", ["no-such-rite", "chongsheng"])
def test_a_link_names_another_known_rite(target: str) -> None:
    rites = dict(all_rites())
    link = OccasionLink.model_validate({"before": target, "assumption": "test"})
    rites["chongsheng"] = rites["chongsheng"].model_copy(update={"occasion": (link,)})
    with pytest.raises(DataError, match=f"occasion rite '{target}' is unknown"):
        check_rites(rites, {})


def test_links_in_a_cycle_are_a_data_error(monkeypatch: pytest.MonkeyPatch) -> None:
    links = occasion_module._links("taiwan-fuzhi-9")
    back = OccasionLink.model_validate({"after": "xianshi", "assumption": "test"})
    monkeypatch.setattr(occasion_module, "_links", lambda _w: (*links, ("chongsheng", back)))
    occasion_module._occasion.cache_clear()
    try:
        with pytest.raises(DataError, match="cycle"):
            occasion_of("xianshi", "臺灣府", 1752)
    finally:
        occasion_module._occasion.cache_clear()


@pytest.mark.parametrize(("place", "year"), [("臺灣府", 1752), ("福州", 1760), ("汀州府", 1800)])
def test_the_calendar_keeps_an_occasion_together(place: str, year: int) -> None:
    plain = observances_for(place, year)
    entries = occasion_calendar(plain, place, year)
    unnoted = [replace(e, notes=tuple(n for n in e.notes if not n.startswith("occasion "))) for e in entries]
    assert sorted(map(repr, unnoted)) == sorted(map(repr, plain))  # reordered and noted, nothing lost
    expected = [m.rite for m in occasion_of("xianshi", place, year).members]
    days = [o.day for o in entries if o.rite == "xianshi" and o.part is None]
    assert len(days) == 2  # spring and autumn
    for day in days:
        mains = [o for o in entries if o.day == day and o.part is None]
        rites = [o.rite for o in mains]
        start = rites.index(expected[0])
        assert rites[start : start + len(expected)] == expected
        assert all(
            any(n.startswith("occasion ") for n in o.notes) for o in mains[start : start + len(expected)]
        )


def test_a_day_not_the_occasions_gets_no_note() -> None:
    entries = occasion_calendar(observances_for("臺灣府", 1752), "臺灣府", 1752)
    songniu = [o for o in entries if o.observance_id == "yingchun-songniu"]
    yingchun = next(o for o in entries if o.observance_id == "yingchun")
    bianchun = next(o for o in entries if o.observance_id == "bianchun")
    assert songniu and not any(n.startswith("occasion ") for o in songniu for n in o.notes)
    assert bianchun.day == yingchun.day + timedelta(days=1) == date(1752, 2, 4)
    assert "occasion 1/2: 迎春禮 → 鞭春儀注（+1日）" in yingchun.notes


def test_cli_rites_show_says_the_occasion() -> None:
    result = runner.invoke(app, ["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1752"])
    assert result.exit_code == 0, result.output
    assert "the occasion" in result.output and "凡祭文廟，必先崇聖祠" in result.output
    assert result.output.index("1. 祭崇聖祠儀注") < result.output.index("2. 祀先師禮")


def test_cli_rites_show_json_numbers_the_occasion() -> None:
    args = ["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1752", "--format", "json"]
    data = json.loads(runner.invoke(app, args).output)
    assert [m["rite"] for m in data["occasion"]] == XIANSHI_TAIWAN
    assert [s["number"] for s in data["steps"]] == list(range(1, len(data["steps"]) + 1))
    assert data["steps"][0]["rite"] == "chongsheng" and data["steps"][-1]["rite"] == "xiangxian"
    alone = json.loads(runner.invoke(app, [*args, "--alone"]).output)
    own = resolve_rite("xianshi", "臺灣府", 1752).steps
    assert [s["number"] for s in alone["steps"]] == [n.number for n in own]
    assert {s["rite"] for s in alone["steps"]} == {"xianshi"}


def test_cli_role_across_the_occasion() -> None:
    args = ["rites", "show", "祀先師", "-p", "臺灣府", "-y", "1752", "--role", "通贊", "--format", "json"]
    data = json.loads(runner.invoke(app, args).output)
    assert {s["rite"] for s in data["steps"]} >= {"chongsheng", "xianshi", "minghuan"}
    assert all("通贊" in s["role"] for s in data["steps"])


def test_bad_input_is_the_usual_error() -> None:
    with pytest.raises(DianliError, match="accepted"):
        occasion_of("常公祠", "臺灣府", 1752)


PLACES = ("福州", "臺灣府", "汀州府", "長汀縣", "鳳山縣", "淡水海防廳", "永春州")


@pytest.mark.parametrize("rite", sorted(all_rites()))
def test_every_rite_has_an_occasion_or_a_clear_error(rite: str) -> None:
    """Every rite at a place of each level: an occasion holding it once, every rite in it held there, each
    day consistent with every link; or the usual error for a rite not held there."""
    for place in PLACES:
        try:
            found = occasion_of(rite, place, 1752)
        except DianliError:
            continue
        ids = [m.rite for m in found.members]
        assert found.main.rite == rite and len(set(ids)) == len(ids)
        days = {m.rite: m.day for m in found.members}
        for m in found.members:
            assert resolve_rite(m.rite, place, 1752).rite.id == m.rite
            for p in m.placements:
                assert days[p.second] - days[p.first] == p.days
                assert ids.index(p.first) < ids.index(p.second)


@pytest.mark.parametrize(("extra", "rows"), [([], 5), (["--alone"], 0)])
def test_cli_rites_show_html(extra: list[str], rows: int) -> None:
    args = ["rites", "show", "祀先師", "-p", "臺灣府", "-y", "1752", "--format", "html", *extra]
    page = runner.invoke(app, args).output
    assert page.startswith("<!DOCTYPE html>") and page.count("class='rite-row'") == rows
    assert ("凡祭文廟，必先崇聖祠" in page) is (rows > 0)
    assert "<script" not in page
