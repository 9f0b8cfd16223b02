"""sources_mentioned through its index of beginnings (corpus/sources.py): the sources a text names are
those a scan of every source over the whole text finds — each address (as written, percent-encoded or
decoded, inside a longer address), each ``dianli sources ID`` — in the same order."""

from __future__ import annotations

from urllib.parse import quote, unquote

import pytest

from dianli.corpus.sources import OutsideSource, outside_sources, source_needles, sources_mentioned


def scanned(text: str) -> tuple[OutsideSource, ...]:
    """The sources of ``text`` by the direct scan: every source, every address, over the whole text."""
    plain = unquote(text)
    found = [
        s
        for s in outside_sources().values()
        if f"dianli sources {s.id}`" in text or any(unquote(a) in plain for a in s.addresses)
    ]
    return tuple(sorted(found, key=lambda s: (s.kind.rank, s.weak, s.id)))


SOURCES = list(outside_sources().values())
ADDRESSED = [s for s in SOURCES if s.addresses]
ENCODED = next(s for s in ADDRESSED if "%" in s.addresses[0])
PLAIN = next(s for s in ADDRESSED if "%" not in s.addresses[0])
LONGEST_FIRST = sorted(SOURCES, key=lambda s: -len(s.id))

TEXTS: dict[str, str] = {
    "nothing named": "先師 迎神 https://example.org/ dianli sources",
    "every mention": " ".join(f"(`dianli sources {s.id}`)" for s in SOURCES),
    "every address": "\n".join(a for s in SOURCES for a in s.addresses),
    "every address, decoded": "".join(unquote(a) for s in SOURCES for a in s.addresses),
    "an address, encoded again": quote(unquote(ENCODED.addresses[0]), safe=":/"),
    "an address inside a longer one": f"<a href='{PLAIN.addresses[0]}/more?x=1'>",
    "an address cut short": PLAIN.addresses[0][:-1],
    "a mention without its backtick": f"dianli sources {SOURCES[0].id} and no more",
    "a mention of an unknown id": "`dianli sources no-such-source`",
    "a mention of a longer id": f"`dianli sources {LONGEST_FIRST[0].id}x`",
    "a mention written twice over": f"dianli sources dianli sources {SOURCES[1].id}`",
    "an escape in Chinese text": f"樂%E5%85%88師 {ENCODED.addresses[0]} 50% 舞",
    "the beginnings alone": "https:// http:// dianli sources `",
    "empty": "",
}


@pytest.mark.parametrize("name", TEXTS)
def test_the_index_finds_what_the_scan_finds(name: str) -> None:
    assert sources_mentioned(TEXTS[name]) == scanned(TEXTS[name])


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("nothing named", set()),
        ("every mention", {s.id for s in SOURCES}),
        ("every address", {s.id for s in ADDRESSED}),
        ("every address, decoded", {s.id for s in ADDRESSED}),
        ("an address, encoded again", {ENCODED.id}),
        ("an address inside a longer one", {PLAIN.id}),
        ("a mention without its backtick", set()),
        ("a mention of an unknown id", set()),
        ("a mention written twice over", {SOURCES[1].id}),
        ("an escape in Chinese text", {ENCODED.id}),
        ("empty", set()),
    ],
)
def test_the_sources_named(name: str, named: set[str]) -> None:
    assert {s.id for s in sources_mentioned(TEXTS[name])} == named


def test_the_index_holds_every_mention_and_address_under_its_beginning() -> None:
    mentions, addresses = source_needles()
    assert sorted(i for group in mentions.values() for _, i in group) == sorted(s.id for s in SOURCES)
    assert sorted(n for group in addresses.values() for n, _ in group) == sorted(
        unquote(a) for s in SOURCES for a in s.addresses
    )
    for needles in (mentions, addresses):
        for start, group in needles.items():
            assert start and all(n.startswith(start) for n, _ in group)
    assert list(mentions) == ["dianli sources "]  # one search of the text for all the mentions


@pytest.mark.parametrize(("rite", "place", "year"), [("祀先師", "臺灣府", 1752), ("guandi", "福州府", 1800)])
def test_a_booklets_text_names_what_the_scan_finds(rite: str, place: str, year: int) -> None:
    from dianli.program.assemble import assemble as assemble_program

    text = assemble_program(rite, place, year).model_dump_json()
    assert sources_mentioned(text) == scanned(text)
