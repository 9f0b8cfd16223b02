"""The readings curated for 噶瑪蘭廳志 (gemalan-tingzhi-3) in its second pass: 關帝 (the 京師 order of
service and both 祝文), 鄉飲酒 (the 通禮 persons, seats, music and the 補笙詩), 鄉約 (the 六諭, the 十六條
and the 訓飭士子文 as the rite's texts), 救護日月, the 神祇壇 with its 常/雩/祈/報, and the 祀事提要."""

from __future__ import annotations

import pytest

from dianli.rites.readings import rites_for
from dianli.rites.resolve import resolve_rite

W = "gemalan-tingzhi-3"


def _calls(rite: str) -> list[str]:
    r = resolve_rite(rite, "噶瑪蘭廳", 1852, witness=W)
    return [n.step.call for n in r.steps if n.step.call]


@pytest.mark.parametrize(
    ("rite", "first_calls"),
    [
        (
            "guandi",
            ["執事者各共乃職", "就位", "迎神", "詣上香位", "上香", "復位", "跪、叩、興", "奠帛爵，行初獻禮"],
        ),
        ("jiuhu", ["日初虧", "跪、叩、興", "上香", "伐鼓", "日復圓"]),
    ],
)
def test_order_of_service_begins(rite: str, first_calls: list[str]) -> None:
    assert _calls(rite)[: len(first_calls)] == first_calls


def test_guandi_front_hall_ends_with_chezhuan_songshen_then_fire() -> None:
    calls = _calls("guandi")
    front = calls[: calls.index("望燎") + 1]
    assert front[-5:] == ["徹饌", "送神", "跪、叩、興", "奉祝帛饌送燎", "望燎"]
    assert "詣望瘞位" not in calls  # the base's (taiwan-fuzhi-9) 望瘞 is not this witness's


@pytest.mark.parametrize(
    ("text_id", "words"),
    [
        ("guandi-qiandian-zhuwen", "忠義神武靈佑仁勇威顯關聖大帝之神"),
        ("guandi-houdian-zhuwen", "惟公世澤貽庥，靈源積慶"),
    ],
)
def test_guandi_prayers(text_id: str, words: str) -> None:
    (text,) = [t for t in rites_for(W)["guandi"].texts if t.id == text_id]
    assert words in text.text
    assert text.cite is not None and text.cite.witness == W


@pytest.mark.parametrize(
    ("altar", "vessel", "count"),
    [
        ("qiandian-chunqiu", "籩", 10),
        ("houdian-chunqiu-光昭公", "籩", 8),
        ("qiandian-wuyue", "盤", 5),
    ],
)
def test_guandi_offerings(altar: str, vessel: str, count: int) -> None:
    (a,) = [x for x in rites_for(W)["guandi"].altars if x.id == altar]
    assert [o.count for o in a.offerings if o.vessel == vessel] == [count]


@pytest.mark.parametrize(
    ("text_id", "words"),
    [
        ("bu-nangai", "我逝南陔，言陟其岵"),
        ("bu-baihua", "有白者華，不污纖塵"),
        ("bu-huashu", "瞻彼阪田，厥黍始華"),
        ("bu-yougeng", "王庚便便，東西朔南"),
        ("bu-chongqiu", "澗松童童，蛙黽鄰兮"),
        ("bu-youyi", "在上曰天，在下曰地"),
        ("zuoci", "布賓席於堂西北，南向"),
    ],
)
def test_xiangyinjiu_texts(text_id: str, words: str) -> None:
    (text,) = [t for t in rites_for(W)["xiangyinjiu"].texts if t.id == text_id]
    assert words in text.text
    assert text.cite is not None and text.cite.witness == W


def test_xiangyinjiu_gap_kept() -> None:
    (text,) = [t for t in rites_for(W)["xiangyinjiu"].texts if t.id == "bu-nangai"]
    assert "籜實□之" in text.text  # the blank of the source is a gap, not a supplied character


@pytest.mark.parametrize(
    ("name", "count"),
    [("賓", 1), ("司正", 1), ("司爵", 2), ("贊禮", 2), ("引禮", 2), ("讀律令者", 1)],
)
def test_xiangyinjiu_persons(name: str, count: int) -> None:
    (role,) = [r for r in rites_for(W)["xiangyinjiu"].roles if r.name == name]
    assert role.count == count


@pytest.mark.parametrize(
    ("text_id", "words", "from_year"),
    [
        ("liuyu", "孝順父母，恭敬長上", 1652),
        ("shangyu-01", "敦孝弟以重人倫", 1670),
        ("shangyu-16", "解仇忿以重身命", 1670),
        ("xunchi-shizi", "士為四民之首", 1745),
    ],
)
def test_xiangyue_texts(text_id: str, words: str, from_year: int) -> None:
    (text,) = [t for t in rites_for(W)["xiangyue"].texts if t.id == text_id]
    assert words in text.text
    assert text.from_year == from_year


@pytest.mark.parametrize(
    ("observance", "kind"),
    [
        ("shanchuan-spring", "open"),
        ("shanchuan-yu", "open"),
        ("shanchuan-qi", "open"),
        ("shanchuan-bao", "open"),
    ],
)
def test_shenqi_observances(observance: str, kind: str) -> None:
    rules = {d.id: d for d in rites_for(W)["shanchuan"].date_rule}
    assert rules[observance].rule.kind == kind
    assert rules[observance].cite is not None and rules[observance].cite.witness == W


def test_shenqi_prayer() -> None:
    (text,) = [t for t in rites_for(W)["shanchuan"].texts if t.id == "shanchuan-zhuwen"]
    assert "惟神贊襄天澤，福佑蒼黎" in text.text


@pytest.mark.parametrize("kind", ["辨官", "執事", "省牲", "視祭器", "治祭物"])
def test_sishi_tiyao_preparations(kind: str) -> None:
    preps = [p for p in rites_for(W)["sheji"].preparations if p.kind == kind and p.when == "祀事提要"]
    assert len(preps) == 1
