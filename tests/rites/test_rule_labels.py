"""A rule read differently is named by words (issue 27 item 5): its rite's name and what it is about, from the
rite data or, where the data has no name, from rites/data/labels/rules.yaml."""

from __future__ import annotations

import re

import pytest

from dianli.comparison.variation import variation
from dianli.rites.labels import is_key, rite_short_name, rule_label, rule_words
from dianli.rites.load import all_rites


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("shanchuan.date_rule", "山川·祭期"),
        ("chongsheng.parts.chuxian", "崇聖祠·初獻"),
        ("chongsheng.altars.liangwu", "崇聖祠·兩廡"),
        ("xianshi:wangyi-call", "祀先師·望瘞樂章"),
        ("gengji:gengji-tasks-county", "耕耤禮·州縣耕耤執事"),
        ("shanchuan:山川望燎", "山川望燎"),
        ("spring_ox.ox.horns", "迎春·角"),
    ],
)
def test_a_rule_is_named_by_words(rule: str, words: str) -> None:
    assert rule_label(variation(rule)[0]) == words


def test_every_rule_has_words_and_no_two_share_them() -> None:
    labels = {rule.id: rule_label(rule) for rule in variation()}
    keyed = {i: label for i, label in labels.items() if re.search(r"[a-z]{2,}[-_.:]?[a-z]", label)}
    assert keyed == {}
    assert len(set(labels.values())) == len(labels)


def test_the_table_names_only_what_exists() -> None:
    words = rule_words()
    variants = {(r.rite, r.label) for r in variation() if r.kind == "variant"}
    for rite, table in words.variants.items():
        for label in table:
            assert (rite, label) in variants, f"{rite}: {label} is no variant group of the data"
    keyed = {(rite, label) for rite, label in variants if is_key(label)}
    assert keyed <= {(rite, label) for rite, table in words.variants.items() for label in table}


@pytest.mark.parametrize(
    ("rite", "name"),
    [("shanchuan", "山川"), ("gengji", "耕耤禮"), ("wanshouting", "詣萬壽亭慶賀"), ("nope", "nope")],
)
def test_a_rite_by_its_short_name(rite: str, name: str) -> None:
    assert rite == "nope" or rite in all_rites()
    assert rite_short_name(rite) == name
