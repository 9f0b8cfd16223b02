"""Where a witness governs, what it states itself is what the resolved rite says: an element it does not state,
inherited from its base, never contradicts a value it does state.

For every witness that governs a place, at each place it governs (in the first year it governs there), every
rite it gives a reading of is resolved in its reading, and each element it does not state (inherited: a step,
a part's title) is compared, value by value, with what its own reading states of the same kind:

- the day: an inherited element restating a base date rule's day (its words, 霜降日五鼓) that the witness's
  own rule of that observance replaced with another day (鳳山縣志: 霜降前一日);
- the venue: an inherited element naming a venue of the base (its name, or the words it is cited by:
  「歸纛於廟」 for 旗纛廟) where the witness states the rite's venues and that one is not among them;
- the people: an inherited step done by a role or an office of the base (齎詔官) where the witness states
  the rite's roles and officiants and that one is not among them.

A contradiction found so is fixed in the witness's readings, with its own words; any left is listed below with
the reason it stands.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import manifest
from dianli.errors import DianliError
from dianli.places.governs import governance
from dianli.rites.load import all_rites
from dianli.rites.readings import own_readings, rites_for
from dianli.rites.resolve import inherited_from, resolve_rite


@dataclass(frozen=True)
class Contradiction:
    witness: str
    place: str
    rite: str
    kind: str
    element: str
    """The inherited element's words."""
    value: str
    """The base's value it restates, which the witness's own reading does not hold."""


def _words(text: str | None) -> str:
    return fold(text or "")


def _first_years(witness: str) -> list[tuple[str, int]]:
    info = next(i for i in manifest() if i.id == witness)
    out = []
    for entry in info.governs:
        if governance(entry.place, entry.from_year).witness == witness:
            out.append((entry.place, entry.from_year))
    return out


def contradictions(witness: str) -> list[Contradiction]:
    found: list[Contradiction] = []
    base = all_rites()
    for place, year in _first_years(witness):
        for rite_id, patches in own_readings(witness).items():
            given = {key for _, patch in patches for key in patch}
            try:
                resolved = resolve_rite(rite_id, place, year)
            except DianliError:
                continue  # not held at this place (its level), or not in this year
            reading = rites_for(witness)[rite_id]
            # the values of the base the witness's own reading replaced, by kind: (kind, words, label)
            replaced: list[tuple[str, str, str]] = []
            if "date_rule" in given:
                mine = {r.id: r for r in reading.date_rule}
                for rule in base[rite_id].date_rule:
                    own = mine.get(rule.id)
                    if own is not None and own.rule == rule.rule:
                        continue
                    for text in (rule.text, rule.time.label if rule.time and rule.text else None):
                        if text and not any(_words(text) in _words(r.text) for r in reading.date_rule):
                            replaced.append(("day", _words(text), text))
            if "venue" in given:
                names = [_words(v.name) for v in reading.venue]
                for venue in base[rite_id].venue:
                    if any(_words(venue.name) in n or n in _words(venue.name) for n in names):
                        continue
                    for words in (venue.name, *(c.quote for c in venue.citations)):
                        replaced.append(("venue", _words(words), f"{venue.name} 「{words}」"))
            if "officiants" in given:
                # an office of the base for a function the witness states another office for
                offices: dict[str, set[str]] = {}
                for o in reading.officiants:
                    offices.setdefault(o.function, set()).add(_words(o.office))
                for o in base[rite_id].officiants:
                    if o.function in offices and not any(_words(o.office) in w for w in offices[o.function]):
                        replaced.append(("people", _words(o.office), f"{o.function}: {o.office}"))
            mine = {_words(o.office) for o in reading.officiants}
            parts = {p.id: p for p in reading.parts}
            seen: set[tuple[str, str]] = set()
            for numbered in resolved.steps:
                step, part = numbered.step, parts.get(numbered.placed.part_id)
                texts: list[tuple[str, str]] = []
                if inherited_from(step, witness) is not None:
                    words = " ".join([step.action or "", step.call or "", step.place or ""])
                    texts.append((step.action or step.call or "", words))
                if part is not None and inherited_from(part, witness) is not None:
                    texts.append((f"part 「{part.title}」", part.title))
                for label, text in texts:
                    for kind, words, value in replaced:
                        if kind == "people":  # a step done by someone the base's office names
                            actors = [_words(a) for a in step.actors] if not label.startswith("part ") else []
                            hit = any(a and a in words and not any(a in w for w in mine) for a in actors)
                        else:
                            hit = bool(words) and words in _words(text)
                        if hit and (label, value) not in seen:
                            seen.add((label, value))
                            found.append(Contradiction(witness, place, rite_id, kind, label, value))
    return found


GOVERNING = [i.id for i in manifest() if i.governs and i.authority == "primary"]

LEFT: dict[tuple[str, str, str, str], str] = {
    ("jinjiang-xianzhi-15", "gengji", "day", "午時，行耕耤禮"): (
        "晉江縣志 gives no hour: 「禮畢，耕籍田」 (the ploughing follows the sacrifice) does not contradict the "
        "base's 午時"
    ),
    ("jinjiang-xianzhi-15", "gengji", "day", "part 「午時行耕耤禮」"): "as the step above",
    ("gemalan-zhilue-7", "gengji", "day", "午時，行耕耤禮"): (
        "噶瑪蘭志略 gives the days of the 先農 sacrifice (「春秋仲月上丁」) but no hour and no ploughing: it does "
        "not contradict the base's 午時"
    ),
    ("gemalan-zhilue-7", "gengji", "day", "part 「午時行耕耤禮」"): "as the step above",
    ("taiwan-xianzhi-6", "yingchun", "people", "初獻爵，再獻爵，三獻爵"): (
        "長官 (the chief official) is generic: at 臺灣縣 it is the 縣官 the witness names"
    ),
}
"""(witness, rite, kind, element) → why a contradiction found stands."""


@pytest.mark.parametrize("witness", GOVERNING)
def test_no_inherited_element_contradicts_the_governing_witness(witness: str) -> None:
    found = [c for c in contradictions(witness) if (c.witness, c.rite, c.kind, c.element) not in LEFT]
    assert found == []


def related_contradictions(witness: str) -> list[Contradiction]:
    """The related days (齋戒, 習儀, 坐班 …) a witness's date rule keeps from the base's rule of its id (it states
    none of its own) that name a venue of the base its own reading replaced (金門志 「金門不立明倫堂」: no
    「赴明倫堂習儀」). A witness that governs no place is read so too (its reading is asked for by name)."""
    found: list[Contradiction] = []
    base = all_rites()
    for rite_id, patches in own_readings(witness).items():
        given = {key for _, patch in patches for key in patch}
        if not {"date_rule", "venue"} <= given:
            continue
        reading = rites_for(witness)[rite_id]
        names = [_words(v.name) for v in reading.venue]
        gone = [
            v.name
            for v in base[rite_id].venue
            if not any(_words(v.name) in n or n in _words(v.name) for n in names)
        ]
        for rule in reading.date_rule:
            for day in rule.related:
                if day.cite.witness == witness:
                    continue
                for name in gone:
                    if _words(name) in _words(day.name):
                        found.append(Contradiction(witness, "", rite_id, "related day", day.name, name))
    return found


WITH_READINGS = [i.id for i in manifest() if own_readings(i.id)]


@pytest.mark.parametrize("witness", WITH_READINGS)
def test_no_related_day_kept_from_the_base_names_a_venue_the_witness_replaced(witness: str) -> None:
    assert related_contradictions(witness) == []


def test_the_finder_finds_what_it_looks_for() -> None:
    """The cases left are found (the finder still sees them), each with its reason."""
    found = {(c.witness, c.rite, c.kind, c.element) for w in GOVERNING for c in contradictions(w)}
    assert set(LEFT) <= found


# The cases found, fixed in the readings with the governing witness's own words: rite, place, year → the steps
# of the resolved rite (its part's title and the step), and whether each is inherited from the base.
FIXED = [
    # 鳳山縣志 「霜降前一日率軍士具儀仗、肅軍容，迎旗纛於演武亭，用羊一、豕一、帛一以祭，行三獻禮。祭畢，仍束裝戎服，
    # 依次而回」 and 「無立廟」 (was: 霜降日五鼓 at the 教場, 歸纛於廟, from 臺灣府志)
    ("旗纛", "鳳山縣", 1730, [
        ("霜降前一日 迎旗纛於演武亭", "霜降前一日，鎮防官率軍士具儀仗、肅軍容，迎旗纛於演武亭", False),
        ("霜降前一日 三獻", "用羊一、豕一、帛一以祭，行三獻禮", False),
        ("祭畢 依次而回", "祭畢，仍束裝戎服，依次而回", False),
    ]),
    # 重修鳳山縣志 「旗纛廟（未有特建）：每歲霜降日，就營署迎至演武廳而祭之」
    ("旗纛", "鳳山縣", 1770, [
        ("霜降日 就營署迎至演武廳", "每歲霜降日，就營署迎至演武廳", False),
        ("霜降日五鼓 三獻", "至霜降日五鼓，以帛一（白色）、羊一、豕一，行三獻禮", True),
        ("放炮揚威、整伍回營", "禮畢，放炮揚威", True),
        ("放炮揚威、整伍回營", "整伍回營", True),
        ("放炮揚威、整伍回營", "各營皆然", True),
    ]),
    # 諸羅縣志 「原無廟」: the base's close of the rite without 歸纛於廟
    ("旗纛", "諸羅縣", 1720, [
        ("霜降前一日 迎請旗纛", "霜降前一日，鎮標暨城守及三營將士盛裝鎧仗，迎請旗纛到教場，張幕劄營", True),
        ("霜降日五鼓 三獻", "至霜降日五鼓，以帛一（白色）、羊一、豕一，行三獻禮", True),
        ("放炮揚威、撤幕回營", "禮畢，放炮揚威", True),
        ("放炮揚威、撤幕回營", "撤幕束裝，整伍回營", True),
        ("放炮揚威、撤幕回營", "各營皆然", True),
    ]),
    # 臺灣縣志 「原無廟祀。…畢，撤幕，裝束結隊回營」
    ("旗纛", "臺灣縣", 1725, [
        ("霜降前一日 迎請旗纛", "霜降前一日，鎮標暨城守及三營將士盛裝鎧仗，迎請旗纛到教場，張幕劄營", True),
        ("霜降日五鼓 三獻", "至霜降日五鼓，以帛一（白色）、羊一、豕一，行三獻禮", True),
        ("放炮揚威、撤幕回營", "禮畢，放炮揚威", True),
        ("放炮揚威、撤幕回營", "畢，撤幕，裝束結隊回營", False),
    ]),
    # 噶瑪蘭廳志 「歲霜降前一日，合標暨存城官弁兵士，盛裝鎧仗，迎請旗纛到教場，張幕剳營」 (was: 鎮標暨城守及三營將士)
    ("旗纛", "噶瑪蘭廳", 1860, [
        ("霜降前一日 迎請旗纛", "霜降前一日，合標暨存城官弁兵士，盛裝鎧仗，迎請旗纛到教場，張幕劄營", False),
        ("霜降日五鼓 三獻", "至霜降日五鼓，以帛一（白色）、羊一、豕一，行三獻禮", True),
        ("放炮揚威、歸纛於廟", "禮畢，放炮揚威", False),
        ("放炮揚威、歸纛於廟", "撤幕束裝，整伍回營，歸纛於廟", False),
        ("放炮揚威、歸纛於廟", "各營皆然", True),
    ]),
    # 噶瑪蘭廳志 「詔書由郡轉派員弁齎送至城外；隨傳報各文武官員，具龍亭、彩輿、儀仗、鼓樂出城外道右迎接。…鼓樂前導
    # 至公所」 (was: by ship at 鹿耳門, the 西關外接官亭, the 明倫堂, from 臺灣府志)
    ("接詔", "噶瑪蘭廳", 1860, [
        ("迎詔", "詔書由郡轉派員弁齎送至城外；隨傳報各文武官員", False),
        ("迎詔", "具龍亭、彩輿、儀仗、鼓樂出城外道右迎接", False),
        ("迎詔", "齎送官捧詔書置龍亭中，南向", False),
        ("迎詔", "文武官員具朝服，北向跪迎", False),
        ("迎詔", "鼓樂前導至公所", False),
        ("開讀", "文武各官分東西序立", False),
        ("開讀", "齎送官東立，西向", False),
        ("開讀", "排班", False),
        ("開讀", "樂作", False),
        ("開讀", "依序北向，行三跪九叩禮", False),
        ("開讀", "齎送官捧詔授展讀官，展讀官跪受", False),
        ("開讀", "詣開讀案前宣讀，眾官跪聽", False),
        ("開讀", "讀畢，展讀官捧詔授齎送官，捧置龍亭中", False),
        ("開讀", "眾官行三跪九叩禮", False),
        ("開讀", "畢，皆退", False),
        ("開讀", "分送各衙門掛示，宣布軍民", False),
    ]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rite", "place", "year", "steps"), FIXED, ids=[f"{r} {p} {y}" for r, p, y, _ in FIXED]
)
def test_the_fixed_readings(rite: str, place: str, year: int, steps: list[tuple[str, str, bool]]) -> None:
    resolved = resolve_rite(rite, place, year)
    found = [
        (
            n.placed.part_title,
            n.step.action or n.step.call or "",
            inherited_from(n.step, resolved.witness) is not None,
        )
        for n in resolved.steps
    ]
    assert found == steps


def test_gemalan_receives_the_edict_from_the_prefecture() -> None:
    resolved = resolve_rite("接詔", "噶瑪蘭廳", 1860)
    assert [v.name for v in resolved.venues] == ["公所", "城外道右"]
    assert [(d.text, d.citations[0].witness) for d in resolved.date_rules] == [
        ("詔書由郡轉派員弁齎送至城外；隨傳報各文武官員", "gemalan-tingzhi-3")
    ]
    assert [r.name for r in resolved.roles] == ["齎送官", "展讀官", "禮生"]
