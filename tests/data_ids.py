"""The ids of the data, and how to find one in what a reader sees (issue #14 item 5).

An id is the data's handle for a thing (``taiwan-fuzhi-9``, ``chongsheng``, ``xianshi.jiqi-vessels``,
``wangyi``); a reader sees the thing's name (臺灣府志, 崇聖祠, 祭器, 望瘞). Ids may stay where a reader does
not read them: attributes (href, id, data-*, title tooltips), URLs, scripts and styles.

Which ids are looked for, by one rule: an id is *distinctive* when it cannot be ordinary prose —
- it is compound: it holds ``-``, ``.`` or ``:`` (``taiwan-fuzhi-9``, ``xianshi.jiqi``, ``xianshi:wangyi-call``);
- or it is romanised Chinese of two or more syllables: it splits into Hanyu Pinyin syllables and needs at
  least two (``chongsheng``, ``wangyi``, ``chuxian``).
An id followed by ``=`` is the key of a command-line argument (``--day gengji=DATE``), one followed by ``[``
the head of a path into the data (``xianshi.tablets[0]``: an address, as in ``dianli rites diff``), and a ``<code>``
that begins ``dianli `` is a command for the user to type: neither is a name shown to a reader.
Ids of one syllable (``an``, ``ji``, ``li``) are English words or too short to tell from prose, and ids that
are English words rather than pinyin (``front``, ``back``, ``setup``, ``gazetteer``) are prose: neither is
looked for. Matching is case-sensitive (ids are lower case; an English proper name such as "Tongan" or
"Nanjing" is capitalised) and on whole tokens (an id inside a longer word, path or file name is not one).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable

import lxml.html

from dianli.comparison.variation import rule_ids as variation_rule_ids
from dianli.corpus.sections import section_defs
from dianli.corpus.witnesses import witness_ids
from dianli.music.score import movement_ids
from dianli.places.places import all_places
from dianli.rites.load import all_rites
from dianli.rites.practice import practice_ids
from dianli.spring_ox.profiles import rule_ids as spring_ox_rule_ids

_INITIALS = ("", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q", "x")
_INITIALS += ("zh", "ch", "sh", "r", "z", "c", "s", "y", "w")
_FINALS = "a o e i u v ai ei ao ou an en ang eng ong er ia ie iao iu ian in iang ing iong ua uo uai ui uan un"
_FINALS += " uang ue ve"
SYLLABLES = frozenset(i + f for i in _INITIALS for f in _FINALS.split())
"""Every initial with every final: a superset of Hanyu Pinyin's syllables, enough to tell pinyin from English."""


def pinyin_syllables(word: str) -> int:
    """The fewest pinyin syllables ``word`` splits into, or 0 if it is not pinyin."""

    @functools.cache
    def fewest(start: int) -> int | None:
        if start == len(word):
            return 0
        counts = [
            rest + 1
            for end in range(start + 1, min(len(word), start + 6) + 1)
            if word[start:end] in SYLLABLES and (rest := fewest(end)) is not None
        ]
        return min(counts) if counts else None

    return fewest(0) or 0


def distinctive(data_id: str) -> bool:
    """Whether ``data_id`` is looked for in a reader's text (the module's rule)."""
    return bool(re.search(r"[-.:]", data_id)) or pinyin_syllables(data_id) >= 2


@functools.cache
def data_ids() -> dict[str, str]:
    """Every id of the data, taken from the data by the modules that own them, with what it names."""
    ids: dict[str, str] = {}

    def add(kind: str, values: Iterable[str | None]) -> None:
        for v in values:
            if v:
                ids.setdefault(v, kind)

    add("witness", witness_ids())
    add("section", section_defs())
    add("movement", movement_ids())
    add("place", (p.id for p in all_places()))
    add("practice", practice_ids())
    add("spring-ox rule", spring_ox_rule_ids())
    add("variation rule", variation_rule_ids())
    for rid, rite in all_rites().items():
        add("rite", [rid])
        for rule in rite.date_rule:
            add("observance", [rule.id])
            add("preparation", (r.id for r in rule.related))
        add("altar", (a.id for a in rite.altars))
        add("text", (t.id for t in rite.texts))
        for part in rite.parts:
            add("part", [part.id])
            add("step", (getattr(s, "id", None) for s in part.steps))
    return ids


@functools.cache
def _pattern() -> re.Pattern[str]:
    looked_for = sorted((i for i in data_ids() if distinctive(i)), key=len, reverse=True)
    alternation = "|".join(re.escape(i) for i in looked_for)
    return re.compile(rf"(?<![A-Za-z0-9_.:/@#=-])({alternation})(?![A-Za-z0-9_:/=\[-]|\.[A-Za-z0-9])")


URL = re.compile(r"\S+://\S+|(?<!\S)/\S+")
"""A URL or an absolute path shown as text (a link spelled out): ids in it are addresses, not names."""


def ids_in(text: str) -> Counter[str]:
    """The distinctive data ids ``text`` shows, as whole tokens, with how often (URLs left out)."""
    return Counter(m.group(1) for m in _pattern().finditer(URL.sub(" ", text)))


def visible_text(html: str) -> str:
    """What a reader of ``html`` sees: the text of its elements, without tags, attributes, scripts, styles
    or tooltips (an SVG ``<title>`` is a tooltip, like the ``title`` attribute). An element of class
    ``data-id`` is an id shown on purpose, as the handle a user types (a URL or a command's argument), and
    labelled so: it is not counted."""
    doc = lxml.html.fromstring(html)
    hidden = "//script|//style|//template|//*[local-name()='title'][ancestor::*[local-name()='svg']]"
    hidden += "|//*[contains(concat(' ', normalize-space(@class), ' '), ' data-id ')]"
    hidden += "|//code[starts-with(normalize-space(.), 'dianli ')]"
    for element in doc.xpath(hidden):
        element.drop_tree()
    return str(doc.text_content())


def shown(text: str, found: Counter[str], width: int = 50) -> list[str]:
    """Each id found with the words around its first occurrence, for a failure message."""
    out = []
    for data_id, count in found.most_common():
        at = text.find(data_id)
        context = " ".join(text[max(0, at - width) : at + len(data_id) + width].split())
        out.append(f"{data_ids()[data_id]} id {data_id!r} ×{count}: …{context}…")
    return out
