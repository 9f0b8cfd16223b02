"""Facts as values: what a statement says, normalised so that two witnesses are compared without
comparing their strings.

One table, :data:`KINDS`, names every kind of fact the comparison knows: which elements of the rite model
state it, where it sits (its *slot*, so that two witnesses' statements of one point meet however their
readings number the items), and how its value is written. The same kinds are read from running text by
:func:`facts_in`, so a clause of a gazetteer nobody has curated yields the values a hand reading would
give (a date rule 「春秋二仲月上丁」 → 二月上丁, 八月上丁; 「樂奏咸和之曲」 → 咸和; 「行三跪九叩頭禮」 →
三跪九叩). Where no kind applies, a statement's value is its folded text, and only identity of text is
compared (kind ``text``).

Values are written as a reader of the witnesses writes them (二月上丁, 霜降前一日, 知府, 籩×10), never as
keys: they are shown as they are.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dianli.calendar.reigns import parse_integer_chinese
from dianli.calendar.term_names import SOLAR_TERMS
from dianli.corpus.normalise import fold
from dianli.errors import DianliError
from dianli.rites.model import (
    DateRule,
    Dimension,
    Element,
    Offering,
    Officiant,
    Override,
    Part,
    Silk,
    Step,
    Venue,
    Victim,
)

OPEN = "無定日"
"""The value of a rule that gives no day (an edict's arrival, a day the sources leave open)."""
MONTHS = ("正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二")
"""The month numbers as the witnesses write them (正月 … 十二月)."""
NTH = {1: "上", 2: "中", 3: "下"}
_DAY_NAMES = {1: "初一日", 15: "十五日"}


@dataclass(frozen=True, slots=True)
class Value:
    """One fact: its kind, the slot it answers, and its value in words."""

    kind: str
    slot: str
    """The point of the model it is a value of (``xianshi.date_rule``, ``xianshi.parts[chuxian].hymn``)."""
    text: str
    about: str = ""
    """The slot's item in words, where the kind alone does not say it (正獻官, 東配·籩, 初獻)."""


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of fact: its name in words, and whether a statement states one value or a set of values
    (a rite has several days, several officiants: the set is compared, not each member)."""

    id: str
    label: str
    many: bool
    described: str


KINDS: dict[str, Kind] = {
    k.id: k
    for k in (
        Kind("date_rule", "祭期 (day rule)", True, "the days of the rite, by rule (二月上丁, 霜降前一日)"),
        Kind("officiant", "主祭 (officiant)", True, "the office that performs a function (正獻官: 知府)"),
        Kind("venue", "壇廟 (venue)", True, "where the rite is held, by name"),
        Kind("dimension", "尺寸 (dimension)", False, "a measure of an altar or building, in 尺"),
        Kind("offering", "祭品 (offering)", False, "an offering with its count (籩×10)"),
        Kind("hymn", "樂章 (hymn)", True, "the name of the movement played at a part (寧平, 咸和)"),
        Kind("posture", "禮節 (posture)", True, "a bowing formula (三跪九叩, 一跪三叩, 再拜)"),
        Kind("rounds", "獻 (offering rounds)", True, "the offering rounds of a service (初獻, 亞獻, 終獻)"),
        Kind("text", "文 (wording)", False, "anything else: compared as text, by identity only"),
    )
}
"""Every kind of fact, in the order a reader meets them."""

FACT_KINDS = tuple(k for k in KINDS if k != "text")


# --- writing a value ------------------------------------------------------------------------------


def month_name(month: int) -> str:
    return f"{MONTHS[month - 1]}月"


def day_name(day: int) -> str:
    if day <= 10:
        return "初" + ("一二三四五六七八九十"[day - 1]) + "日"
    return _number(day) + "日"


def _number(n: int) -> str:
    units = "一二三四五六七八九"
    if n < 10:
        return units[n - 1]
    tens, rest = divmod(n, 10)
    return ("" if tens == 1 else units[tens - 1]) + "十" + (units[rest - 1] if rest else "")


def rule_text(rule: Any) -> str:
    """A date rule (a ``rule:`` block of the rite data) in the witnesses' words: 二月上丁, 清明,
    霜降前一日, 冬至後辰日, 七月十五日, 每月朔、望 …"""
    kind = getattr(rule, "kind", "")
    if kind == "stem_day_of_month":
        return f"{month_name(rule.month)}{NTH[rule.nth]}{rule.stem}"
    if kind == "branch_day_of_month":
        return f"{month_name(rule.month)}{NTH[rule.nth]}{rule.branch}"
    if kind == "solar_term":
        before = rule.days_before
        return str(rule.term) + (f"前{_number(before)}日" if before else "")
    if kind == "branch_day_after_term":
        return f"{rule.term}後{rule.branch}日"
    if kind == "lunar_day":
        return month_name(rule.month) + day_name(rule.day)
    if kind == "monthly":
        names = {1: "朔", 15: "望"}
        return "每月" + "、".join(names.get(d, day_name(d)) for d in rule.days)
    if kind == "wanshou":
        return "萬壽聖節"
    if kind == "default":
        return rule_text(rule.rule)  # the day chosen by default, as a value
    if kind == "lunar_months_before":
        return f"{rule_text(rule.of)}前{_number(rule.months)}月"
    if kind == "eclipse_visible":
        return "日月食之日"
    return OPEN


def _parent(path: str) -> str:
    return path.rsplit(".", 1)[0] if "." in path else path


def _part_of(path: str) -> str:
    match = re.match(r"^(.*?\.parts\[[^\]]+\])", path)
    return match.group(1) if match else path.split(".", 1)[0]


def _clean_name(name: str) -> str:
    return re.sub(r"[（(][^）)]*[）)]", "", name).strip()


def _altar_of(path: str) -> str:
    match = re.match(r"^(.*?\.altars\[[^\]]+\])", path)
    return match.group(1) if match else _parent(path)


def element_values(
    rite: str, path: str, element: Element, names: Mapping[str, str] | None = None
) -> tuple[Value, ...]:
    """The facts an element of the rite data states, each with its slot (an element that states no fact
    of a known kind yields none: its statements are compared as text). ``names`` gives the words of the
    elements that have them (an altar's name, a part's title), by path, for :attr:`Value.about`."""
    named = names or {}
    if isinstance(element, DateRule):
        return (Value("date_rule", f"{rite}.date_rule", rule_text(element.rule)),)
    if isinstance(element, Officiant):
        return (
            Value("officiant", f"{rite}.officiants[{element.function}]", element.office, element.function),
        )
    if isinstance(element, Venue):
        return (Value("venue", f"{rite}.venue", _clean_name(element.name)),)
    if isinstance(element, Dimension):
        of = element.of or named.get(_parent(path), "")
        about = f"{of}·{element.measure}" if of else element.measure
        return (Value("dimension", f"{rite}.dimensions[{about}]", f"{element.value:g}{element.unit}", about),)
    altar = _altar_of(path)
    where = named.get(altar, "")
    if isinstance(element, Offering):
        about = f"{where}·{element.vessel}" if where else element.vessel
        return (Value("offering", f"{altar}.offerings[{element.vessel}]", str(element.count), about),)
    if isinstance(element, Victim):
        about = f"{where}·{element.animal}" if where else element.animal
        return (Value("offering", f"{altar}.victims[{element.animal}]", str(element.count), about),)
    if isinstance(element, Silk):
        about = f"{where}·帛" if where else "帛"
        return (Value("offering", f"{altar}.silk", str(element.count), about),)
    if isinstance(element, Part):
        title = _clean_name(element.title)
        rounds = [v.text for v in facts_in(title) if v.kind == "rounds"]
        if not rounds and fold(title).endswith(fold("獻")):
            rounds = [title]
        return tuple(Value("rounds", f"{rite}.rounds", r) for r in rounds)
    if isinstance(element, Step | Override):
        part = _part_of(path)
        if isinstance(element, Step):
            words = " ".join(t for t in (element.call, element.action, element.posture) if t)
            found = [(v.kind, v.text) for v in facts_in(words) if v.kind in ("hymn", "posture", "rounds")]
        else:
            found = list(override_facts(element, rite_hymns(rite)))
        return tuple(
            Value(kind, f"{rite}.rounds", text)  # a step that calls a round (「行亞獻禮」) states it
            if kind == "rounds"
            else Value(kind, f"{part}.{kind}", text, named.get(part, ""))
            for kind, text in found
        )
    return ()


def override_facts(override: Override, hymns: frozenset[str] = frozenset()) -> tuple[tuple[str, str], ...]:
    """(kind, value) of the hymns and postures an override puts in the steps it changes: a replaced text
    whose old words are a hymn of the rite (``hymns``: folded; 寧平) or a posture (一跪三叩) names the new
    one (the 亞獻 that is 「如前儀」 but for 「樂奏安平之章」 states 安平); a field set to words that state one,
    states it."""
    out: list[tuple[str, str]] = []
    if override.replace_text is not None:
        old, new = override.replace_text.old, override.replace_text.new
        if fold(old) in hymns:
            out.append(("hymn", new))
        for kind in ("posture", "rounds"):
            if any(v.kind == kind and same_value(v.text, old) for v in facts_in(old)):
                out.extend((v.kind, v.text) for v in facts_in(new) if v.kind == kind)
    elif override.set is not None and override.set.field in ("call", "action", "posture"):
        out.extend(
            (v.kind, v.text)
            for v in facts_in(str(override.set.value))
            if v.kind in ("hymn", "posture", "rounds")
        )
    return tuple(out)


@functools.cache
def rite_hymns(rite_id: str) -> frozenset[str]:
    """The hymns (folded) the steps of a rite of the shared data name (「樂奏寧平之章」 → 寧平), and those its
    overrides put in place of one (寧平 → 安平 → 景平)."""
    from dianli.rites.load import all_rites
    from dianli.rites.model import walk_paths

    rite = all_rites().get(rite_id)
    if rite is None:
        return frozenset()
    elements = [e for _p, e in walk_paths(rite, rite_id)]
    words = (" ".join(t for t in (e.call, e.action) if t) for e in elements if isinstance(e, Step))
    found = {fold(v.text) for text in words for v in facts_in(text) if v.kind == "hymn"}
    replaced = [e.replace_text for e in elements if isinstance(e, Override) and e.replace_text is not None]
    while True:
        more = {fold(r.new) for r in replaced if fold(r.old) in found} - found
        if not more:
            return frozenset(found)
        found |= more


def element_names(rite: Element, rite_id: str) -> dict[str, str]:
    """path → the words of every element of a rite that has a name or a title (altars, parts, venues)."""
    from dianli.rites.model import walk_paths

    out: dict[str, str] = {}
    for path, element in walk_paths(rite, rite_id):
        words = getattr(element, "name", None) or getattr(element, "title", None)
        if isinstance(words, str):
            out[path] = _clean_name(words)
    return out


# --- reading a value from running text --------------------------------------------------------------
# The readers work on the folding key (:func:`dianli.corpus.normalise.fold`: one script, no punctuation),
# so their patterns are folded the same way (:func:`_f`); the values they give compare by that key.


def folded_pattern(pattern: str) -> str:
    """A pattern with each of its ideographs replaced by its folding key (regex syntax left alone)."""
    from dianli.corpus.normalise import fold_char

    return "".join(fold_char(c) or c if "\u3400" <= c <= "\u9fff" else c for c in pattern)


_SEASONS = {
    folded_pattern("春"): 2,
    folded_pattern("夏"): 5,
    folded_pattern("秋"): 8,
    folded_pattern("冬"): 11,
}
_ORDER = {folded_pattern("孟"): -1, folded_pattern("仲"): 0, folded_pattern("季"): 1}
"""孟, 仲, 季: the first, middle and last month of a season (孟春 正月, 仲春 二月, 季春 三月)."""
_STEMS = "甲乙丙丁戊己庚辛壬癸"
_BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
_TERMS = tuple(folded_pattern(t) for t in SOLAR_TERMS)
_MONTH_WORD = r"(正|十[一二]|[二三四五六七八九十])月"
_DAY_WORD = r"(初[一二三四五六七八九十]|[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])(日)?"
_DATED = re.compile(r"(?:年|閏|闰)$")
_DOCUMENT = re.compile(folded_pattern(r"(?:據|奉|准|接|到)"))
_NTH_DAY = re.compile(rf"([上中下])([{_STEMS}{_BRANCHES}已])")
"""上丁, 上戊, 上巳 … (上已: the scribes' and the digitisers' 已 for 巳, as 「二仲上已之日」)."""
_SEASON_DAY = re.compile(
    folded_pattern(rf"(?:([孟仲季])([春夏秋冬])|(二仲))(?:月)?(?:之)?([{_STEMS}])(?:日|祭)")
)
"""A season's month and a stem with no 上/中/下: its first such day (「仲春辛日」 二月上辛, 「二仲丁祭」)."""
_PAIRED = re.compile(folded_pattern(r"(春秋|二仲)"))
_SEASON_MONTH = re.compile(folded_pattern(r"([孟仲季])([春夏秋冬])|([春夏秋冬])仲"))
_TERM_AFTER = re.compile(
    folded_pattern(r"(?:節)?(?:的)?(?:前([一二三])日|後(?:的)?([子丑寅卯辰巳午未申酉戌亥])日)")
)
_TERM_BEFORE = re.compile(folded_pattern(r"先(\w{2})([一二三])日"))
"""「先立春一日」: the day before a solar term."""
_TEN_DAYS = re.compile(_MONTH_WORD + folded_pattern(r"(?:([上中下])旬|旬有)([一二三四五六七八九十])日"))
"""「六月下旬三日」 (the 23rd), 「五月旬有三日」 (the 13th)."""
_SEASON_NEW_FULL = re.compile(folded_pattern(r"([孟仲季])([春夏秋冬])(?:之)?(朔|望)"))
_MONTHLY = re.compile(folded_pattern(r"每月(?:之)?((?:(?:朔|望|初一|十五)(?:日|旦)?(?:及|與|、)?)+)"))
_ECLIPSE = re.compile(folded_pattern(r"[日月](?:薄)?[食蝕]"))
_INCENSE = re.compile(folded_pattern(r"(?:俱)?(?:行|拈|上)香"))


def _season_month(order: str, season: str) -> int:
    """孟春 → 1, 仲春 → 2, 季冬 → 12."""
    return (_SEASONS[season] + _ORDER[order] - 1) % 12 + 1


def _month_number(word: str) -> int:
    return 1 if word == "正" else parse_integer_chinese(word)


def day_number(word: str) -> int | None:
    """The day of the month a word names (初一, 十五, 二十一日), or None if it names none."""
    try:
        number = parse_integer_chinese(word.removeprefix("初").removesuffix("日"))
    except DianliError:
        return None
    return number if 1 <= number <= 30 else None


def _months_before(before: str, wide: str) -> list[int]:
    """The months the words before a day (上丁 …) give it: 春秋二仲 both, else the nearest named month or
    season's month (仲春, 季秋, 春仲)."""
    season = None
    for found in _SEASON_MONTH.finditer(before):
        season = found
    named = list(re.finditer(_MONTH_WORD, before))
    if _PAIRED.search(before) and (season or "仲" in before or "二月" in before):
        return [2, 8]
    if named and (season is None or named[-1].start() > season.start()):
        return [_month_number(named[-1].group(1))]
    if season is not None:
        if season.group(1):
            return [_season_month(season.group(1), season.group(2))]
        return [_SEASONS[season.group(3)]]
    if named:
        return [_month_number(named[-1].group(1))]
    if _PAIRED.search(wide) and "仲" in wide:  # 「春、秋二祭，俱於仲月上旬擇日（今多用上巳日）」
        return [2, 8]
    return []


_TERM_AS_MEASURE = re.compile(
    folded_pattern(
        r"(?:(?:所在)?(?:之)?年|(?:日)?(?:的)?納音|(?:時辰?)?為(?:法|依據)"
        r"|[日的當]{0,4}[干支]|為?[子丑寅卯辰巳午未申酉戌亥]日)"
    )
)
"""What follows a solar term named as a measure, not a day: its year (「以立春年為法」, 「立春所在年份」), its
day's 納音 (「以立春納音為法」), the term or its hour as the rule (「老少，以立春為法」, 「罨耳用立春時為法」,
「以立春时辰为依据」), its day's stem or branch (「用立春日支辰受剋為衣色」, 「以立春日日干為籠頭色」,
「如立春子日屬水」)."""
_FORM = re.compile(folded_pattern(r"[\w、]{0,8}?表(?:式|文)"))
"""What follows days named as a document's title, within a list of them (「皇上萬壽、元旦、冬至表式」): no day
of a rite."""


def _term_days(text: str, start: int) -> Iterator[str]:
    """Days by a solar term: the term itself, a day before it (霜降前一日, 「先立春一日」) or the first day of
    a branch after it (冬至後辰日). A clause that names both a term and a day before it (「霜降前一日迎請
    旗纛…至霜降日五鼓」) holds the rite on the term: the day before is its preparation."""
    bare: list[str] = []
    counted: list[tuple[str, str]] = []
    before_terms: set[int] = set()
    for match in _TERM_BEFORE.finditer(text, start):
        if match.group(1) in _TERMS:
            before_terms.add(match.start(1))
            counted.append((match.group(1), f"{match.group(1)}前{match.group(2)}日"))
    for term in _TERMS:
        for match in re.finditer(term, text[start:]):
            at = start + match.start()
            if at in before_terms:
                continue  # read as 「先立春一日」 above
            if _DATED.search(text[max(0, at - 1) : at]):
                continue  # 「甲子年立春」: a year's term, an example, not the rite's day
            if _TERM_AS_MEASURE.match(text, at + len(term)) or _FORM.match(text, at + len(term)):
                continue  # 「以立春年為法」, 「冬至表式」: a measure or a document, not a day
            after = _TERM_AFTER.match(text, at + len(term))
            if after and after.group(1):
                counted.append((term, f"{term}前{after.group(1)}日"))
            elif after and after.group(2):
                yield f"{term}後{after.group(2)}日"
            else:
                bare.append(term)
    yield from (day for term, day in counted if term not in bare)
    yield from bare


_AHEAD = re.compile(folded_pattern(r"每於([一二三])月前"))
"""「萬壽聖節、元旦、冬至，每於二月前涓吉拜進賀表」: the rite is held so many months before each day named."""


def _dates(text: str, start: int = 0) -> Iterator[str]:
    """The date rules folded running text states from ``start`` on (what comes before is context: the
    clause a note annotates), in the words of :func:`rule_text`; a day named with 「每於二月前」 gives the
    day so many months before it (萬壽聖節前二月)."""
    ahead = _AHEAD.search(text, start)
    for day in _days(text, start):
        yield f"{day}前{ahead.group(1)}月" if ahead and day in _DAYS_AHEAD else day


def _days(text: str, start: int) -> Iterator[str]:
    for match in _NTH_DAY.finditer(text, start):
        nth, day = match.groups()
        months = _months_before(
            text[max(0, match.start() - 10) : match.start()], text[max(0, match.start() - 30) : match.start()]
        )
        n = {"上": 1, "中": 2, "下": 3}[nth]
        day = "巳" if day == "已" else day
        for m in months:
            yield f"{month_name(m)}{NTH[n]}{day}"
    for match in _SEASON_DAY.finditer(text, start):
        order, season, both, stem = match.groups()
        for m in [2, 8] if both else [_season_month(order, season)]:
            yield f"{month_name(m)}上{stem}"
    yield from _term_days(text, start)
    for match in re.finditer(_MONTH_WORD + _DAY_WORD, text[start:]):
        month, day, suffix = match.groups()
        number = day_number(day)
        at = start + match.start()
        if number is None or (not suffix and number not in (1, 15)):
            continue
        if _DATED.search(text[max(0, at - 4) : at]) or _DOCUMENT.match(text, start + match.end()):
            continue  # 「雍正十年三月初七日」, 「七月十七日據…申稱」: the day of an event, not a rule
        yield month_name(_month_number(month)) + day_name(number)
    for match in _TEN_DAYS.finditer(text, start):
        month, ten, unit = match.groups()
        number = {"上": 0, "中": 10, "下": 20}.get(ten, 10) + parse_integer_chinese(unit)
        yield month_name(_month_number(month)) + day_name(number)
    for match in re.finditer(_MONTH_WORD + folded_pattern("(朔|望)"), text[start:]):
        month, day = match.groups()
        yield month_name(_month_number(month)) + day_name(1 if day == "朔" else 15)
    for match in _SEASON_NEW_FULL.finditer(text, start):
        order, season, day = match.groups()
        yield month_name(_season_month(order, season)) + day_name(1 if day == "朔" else 15)
    for word, value in _FESTIVALS:
        if any(not _FORM.match(text, m.end()) for m in word.finditer(text, start)):
            yield value
    monthly = False
    for match in _MONTHLY.finditer(text, start):
        if _INCENSE.match(text, match.end()):
            continue  # 「朔望行香」 is the fortnightly incense, not the rite's day
        days = match.group(1)
        first = "朔" in days or "初一" in days
        full = "望" in days or "十五" in days
        monthly = True
        yield "每月朔、望" if first and full else "每月朔" if first else "每月望"
    if not monthly and any(
        not _INCENSE.match(text, m.end()) for m in re.compile("朔望").finditer(text, start)
    ):
        yield "每月朔、望"  # 「朔望行香」 is the fortnightly incense, not the rite's day
    if _ECLIPSE.search(text, start):
        yield "日月食之日"


_FESTIVALS = tuple(
    (re.compile(folded_pattern(word)), value)
    for word, value in (
        ("中元", "七月十五日"),
        ("上元", "正月十五日"),
        ("寒食", "清明前一日"),
        ("元旦", "正月初一日"),
        ("萬壽聖節", "萬壽聖節"),
    )
)
"""Festivals the witnesses name a day by, with the day they are (寒食 is the day before 清明)."""
_DAYS_AHEAD = frozenset((*(value for _, value in _FESTIVALS), *_TERMS))
"""The days a rite can be held months before (a festival's, a solar term's)."""


_HYMN = re.compile(folded_pattern(r"樂(?:奏|奉|作)(\w{2})之(?:曲|章)"))
_POSTURE = re.compile(r"([一二三])跪([三六九])叩")
_NINE = re.compile(folded_pattern(r"(?:行|三號)九叩"))
"""「行九叩禮」, 「行三號九叩禮」: the nine knocks of the 三跪九叩."""
_BOWS = re.compile(folded_pattern(r"(再拜|四拜|兩拜)"))
_ROUND = re.compile(folded_pattern(r"(?<!同)(?<!如)(初獻|亞獻|終獻)|行(分獻)禮"))
"""The rounds a clause calls (「行初獻禮」, 「亞獻、終獻同前」, the 崇聖祠's 「行分獻禮」); 「儀同初獻」, 「如初獻」
refer to a round, they call none."""


def _hymns(text: str) -> Iterator[str]:
    for match in _HYMN.finditer(text):
        yield match.group(1)


_SPELLED = re.compile(folded_pattern(r"(?:跪(?:叩首|叩頭|叩){3}(?:興|起)?(?:平身)?){1,3}"))
"""The posture spelled out, as a 通贊 calls it: 「跪，叩首、叩首、叩首，興」 is 一跪三叩; three times, 三跪九叩."""
_KNEEL = re.compile(folded_pattern(r"跪"))


def _postures(text: str) -> Iterator[str]:
    for match in _POSTURE.finditer(text):
        yield f"{match.group(1)}跪{match.group(2)}叩"
    for match in _SPELLED.finditer(text):
        kneels = len(_KNEEL.findall(match.group(0)))
        yield f"{'一二三'[kneels - 1]}跪{'三六九'[kneels - 1]}叩"
    for _ in _NINE.finditer(text):
        yield "三跪九叩"
    for match in _BOWS.finditer(text):
        yield match.group(1)


def _rounds(text: str) -> Iterator[str]:
    for match in _ROUND.finditer(text):
        yield match.group(1) or match.group(2)


_READERS: dict[str, Callable[[str], Iterator[str]]] = {
    "date_rule": _dates,
    "hymn": _hymns,
    "posture": _postures,
    "rounds": _rounds,
}
"""The kinds read from running text, each by its own reader (officiants, venues, offerings and dimensions
are read from the rite data's elements only: their words vary too much for a pattern)."""


def facts_in(text: str, slot: str = "", context: str = "") -> tuple[Value, ...]:
    """Every fact of a readable kind that ``text`` states (either script; punctuation does not matter),
    each kind's values in text order, none twice. ``context`` is the text before it (the clause a note
    annotates): it gives a day its months (「…俱於仲月上旬擇日」 then 「今郡縣多用上巳日」), never facts of its own."""
    plain = fold(text)
    before = fold(context)
    out: list[Value] = []
    for kind, reader in _READERS.items():
        found = _dates(before + plain, len(before)) if kind == "date_rule" else reader(plain)
        for value in dict.fromkeys(found):
            out.append(Value(kind, slot, _in_own_words(text, value)))
    return tuple(out)


def _in_own_words(text: str, value: str) -> str:
    """``value`` as ``text`` writes it, where the text holds it (寧平 in a traditional text, 宁平 in a
    simplified one); a value the reader composed (二月上丁 from 「春秋二仲月上丁」) as composed."""
    size = len(value)
    for start in range(len(text) - size + 1):
        piece = text[start : start + size]
        if fold(piece) == value:
            return piece
    return value


WORDED_KINDS = ("date_rule", "officiant", "venue", "hymn", "posture", "rounds")
"""The kinds whose value is words a clause states (a day rule, an office, a place, a hymn, a posture, a
round); offerings and dimensions are numbers a clause writes in its own numerals."""


def quote_states(value: Value, quote: str) -> bool:
    """Whether ``quote`` states ``value`` in its own words: it holds the value's words, or a reader of the
    value's kind finds it there (「春秋二仲月上丁日」 states 二月上丁). A value of a kind written in numerals
    (an offering's count, a dimension) is taken as stated."""
    if value.kind not in WORDED_KINDS:
        return True
    key, plain = fold(value.text), fold(quote)
    if key and key in plain:
        return True
    return value.kind in _READERS and any(
        v.kind == value.kind and fold(v.text) == key for v in facts_in(quote)
    )


def same_value(a: str, b: str) -> bool:
    """Two values are the same fact when their folding keys agree (script and punctuation aside)."""
    return fold(a) == fold(b)
