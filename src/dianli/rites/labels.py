"""What a reader sees for a rule the witnesses read differently: its rite and what it is about, in words.

A rule's id (``shanchuan.date_rule``, ``xianshi.parts.chuxian``, ``guandi:guandi-wangliao``) is a handle for
the command line and URLs; a page, the booklet and the text output name it 「山川·祭期」, 「先師·初獻」. The
words come from the rite data (the rite's name, a part's title, an altar's name, a variant group's own
Chinese label); only where the data has no name — a field of a rite, a variant group labelled by a key —
from the table ``rites/data/labels/rules.yaml``. An id the data does not know keeps its last segment, so a
label never hides an error.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from dianli.datafile import parse_model
from dianli.rites.load import all_rites
from dianli.rites.model import Rite

SEPARATOR = "·"
"""Between the rite's name and what the rule is about (「山川·祭期」)."""

MAX_RITE_NAME = 6
"""A rite without a short alias is named by its first classical name up to this many characters, else by
its shortest (詣萬壽亭慶賀 rather than the full 詣萬壽亭慶賀萬壽聖節、正旦、冬至禮)."""

_KEY = re.compile(r"[a-z0-9_]+(?:[-_][a-z0-9]+)*")


class RuleWords(BaseModel):
    """The table of ``rules.yaml``: words for a rite's fields and for variant groups labelled by a key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    fields: dict[str, str]
    variants: dict[str, dict[str, str]]


class NamedRule(Protocol):
    """What naming needs of a rule (dianli.comparison.variation.Rule has it)."""

    @property
    def id(self) -> str: ...

    @property
    def rite(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def label(self) -> str: ...


@functools.cache
def rule_words() -> RuleWords:
    path = "data/labels/rules.yaml"
    text = resources.files("dianli.rites").joinpath(path).read_text(encoding="utf-8")
    return parse_model(f"dianli/rites/{path}", text, RuleWords)


def is_key(label: str) -> bool:
    """True for a label written as a key (``gengji-officiants``), not as words."""
    return _KEY.fullmatch(label) is not None


def rite_short_name(rite_id: str) -> str:
    """A rite by its short name: its first alias (山川, 先師 …), else its first classical name when short,
    else its shortest one; an unknown id as it is."""
    rite = all_rites().get(rite_id)
    if rite is None:
        return rite_id
    names = rite.names
    if names.aliases:
        return names.aliases[0]
    first = names.classical[0]
    return first if len(first) <= MAX_RITE_NAME else min(names.classical, key=len)


def _item_name(item: Any) -> str | None:
    for attribute in ("name", "title"):
        value = item.get(attribute) if isinstance(item, dict) else getattr(item, attribute, None)
        if isinstance(value, str) and value:
            return value
    return None


@functools.cache
def _reading_items(rite_id: str, field: str) -> dict[str, str]:
    """id → name of the items of ``field`` that the witnesses' readings add to the rite (an altar only one
    gazetteer has)."""
    from dianli.corpus.witnesses import witness_ids  # the corpus is read only for such an item
    from dianli.rites.readings import own_readings

    found: dict[str, str] = {}
    for witness in witness_ids():
        for _where, patch in own_readings(witness).get(rite_id, ()):
            for item in patch.get(field) or ():
                name = _item_name(item)
                if isinstance(item, dict) and name and "id" in item:
                    found.setdefault(str(item["id"]), name)
    return found


def _field_item_name(rite: Rite, field: str, item: str) -> str | None:
    for element in getattr(rite, field, ()) or ():
        if str(getattr(element, "id", "")) == item:
            return _item_name(element)
    return _reading_items(rite.id, field).get(item)


def element_words(rite_id: str, path: str) -> str:
    """What a field path of a rite is about: ``date_rule`` → 祭期, ``parts.chuxian`` → 初獻 (the part's
    title), ``altars.xiwu`` → 西廡 (the altar's name)."""
    field, _, item = path.partition(".")
    words = rule_words().fields.get(field, field)
    rite = all_rites().get(rite_id)
    if not item or rite is None:
        return words
    named = _field_item_name(rite, field, item)
    return named if named else f"{words} {item}"


def rule_subject(rule: NamedRule) -> str:
    """What the rule is about, without its rite: a variant group's label (words from the table where the
    label is a key), a field's or an item's name, a spring-ox attribute's name."""
    if rule.kind == "variant":
        if not is_key(rule.label):
            return rule.label
        return rule_words().variants.get(rule.rite, {}).get(rule.label, rule.label)
    if rule.kind == "reading":
        return element_words(rule.rite, rule.label.split(".", 1)[-1])
    return rule.label.split()[0] if rule.label.strip() else rule.id  # 角 horns → 角


def rule_label(rule: NamedRule) -> str:
    """The rule named by what it is: its rite's short name and what it is about (「山川·祭期」,
    「先師·初獻」, 「迎春·角」); a variant label that begins with the rite's name is not repeated."""
    rite = rite_short_name(rule.rite)
    subject = rule_subject(rule)
    if subject.startswith(rite):
        return subject
    return f"{rite}{SEPARATOR}{subject}"
