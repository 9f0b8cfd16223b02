"""The booklet's rendering (program/html.py) made faster and the same (#14): the booklet's values supplied a
chunk at a time instead of one by one (``finalize``), citation links written by one filter call, the dance
pages and the sources they name read from the on-disk cache. Each gives exactly the text it replaces."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from jinja2.bccache import Bucket
from markupsafe import Markup

from dianli.corpus.sources import OutsideSource, outside_sources, sources_mentioned
from dianli.corpus.supplied import PRIVATE_USE, supply
from dianli.program import html
from dianli.program.assemble import assemble as assemble_program
from dianli.program.model import Program
from dianli.program.nofont import nofont_html

BOOKLETS = [  # rite, place, year, appendix, served by the web app (audio by URL, no dances)
    ("祀先師", "臺灣府", 1752, "full", False),
    ("祀先師", "臺灣府", 1752, "compact", True),
    ("祀先師", "汀州府", 1760, "none", False),
    ("guandi", "福州府", 1800, "full", True),
    ("gengji", "泉州府", 1790, "compact", False),
]


def _program(rite: str, place: str, year: int) -> Program:
    return assemble_program(rite, place, year)


@pytest.mark.parametrize(("rite", "place", "year", "appendix", "served"), BOOKLETS)
def test_the_chunks_are_the_booklet_with_every_value_supplied(
    rite: str, place: str, year: int, appendix: str, served: bool
) -> None:
    """The booklet as :func:`booklet_chunks` writes it (supplied chunk by chunk) is the template rendered
    with the ``finalize`` that supplies each value."""
    program = _program(rite, place, year)
    url = (lambda m: f"/music/{m}/audio.ogg") if served else None
    context = html.booklet_context(program, audio_url=url, dance=not served, appendix=appendix)
    by_value = html.environment().get_template("booklet.html").render(context)
    chunks = list(html.booklet_chunks(program, audio_url=url, dance=not served, appendix=appendix))
    assert "".join(chunks) == nofont_html(by_value)  # then every character no font draws, by its components
    assert not any(PRIVATE_USE.search(c) for c in chunks)
    assert len(chunks) < 100  # tens of chunks, not the template's thirty thousand pieces


def test_a_booklet_supplies_characters() -> None:
    """The booklet above has private-use code points to supply (the test compares supplying, not nothing)."""
    program = _program("祀先師", "臺灣府", 1752)
    context = html.booklet_context(program)
    raw = html.environment(finalize=False).get_template("booklet.html").render(context)
    assert PRIVATE_USE.search(raw) and not PRIVATE_USE.search(supply(raw))


@pytest.mark.parametrize("name", ["booklet.html", "macros.html", "booklet.css", "player.js", "figures.js"])
def test_the_templates_hold_no_private_use_code_point(name: str) -> None:
    """Supplying the output is supplying its values only if the templates' own text has none to supply."""
    text = (resources.files("dianli.program") / "templates" / name).read_text(encoding="utf-8")
    assert not PRIVATE_USE.search(text)


MACRO = """{% for c in ids %}<a class="cite" href="{{ prefix }}#{{ c }}" title="witness passage \
{{ numbers[c] }}">[{{ numbers[c] }}]</a>{% endfor %}"""
"""The ``cites`` macro as macros.html wrote it before the filter."""


@pytest.mark.parametrize(
    ("ids", "numbers", "prefix"),
    [
        (["c1", "c12"], {"c1": "1", "c12": "12"}, ""),
        (["c3"], {"c3": 3}, "/program/xianshi?place=taiwan-fu&year=1752"),
        (["c<1>"], {"c<1>": "a&b"}, '"quoted"'),
        (["c9"], {}, ""),  # no number: none written, as for an undefined value
        (["先師1"], {"先師1": Markup("<b>1</b>")}, "/p?a=1&b=2"),  # markup stays markup
        ([], {"c1": "1"}, "/x"),
    ],
)
def test_cite_links_write_what_the_macro_wrote(
    ids: list[str], numbers: dict[str, object], prefix: str
) -> None:
    macro = html.environment().from_string(MACRO).render(ids=ids, numbers=numbers, prefix=prefix)
    assert html.cite_links(ids, numbers, prefix) == macro
    through = html.environment().from_string(
        '{% from "macros.html" import cites %}{{ cites(ids, numbers, prefix) }}'
    )
    assert through.render(ids=ids, numbers=numbers, prefix=prefix) == macro


LARGE = "data:audio/ogg;base64," + "A" * html.LARGE_PIECE
PIECES = {
    "small pieces": ["<p>", "先師", "</p>"] * 5000,
    "a private-use code point": ["<p>", "\ue000", "樊\ue001", "</p>"] * 3000,
    "a large piece among small": ["<p>", "迎神", LARGE, "送神", "\ue000", "</p>"],
    "large pieces only": [LARGE, LARGE.replace("A", "先")],
    "nothing": [],
}


@pytest.mark.parametrize("name", PIECES)
def test_chunks_are_the_pieces_supplied(name: str) -> None:
    pieces = PIECES[name]
    chunks = list(html._supplied_chunks(pieces))
    assert "".join(chunks) == supply("".join(pieces))
    assert (
        len(chunks)
        <= len(pieces) // html.CHUNK_PIECES + 2 * sum(len(p) >= html.LARGE_PIECE for p in pieces) + 1
    )
    for piece in pieces:
        if len(piece) >= html.LARGE_PIECE and piece.isascii():
            assert any(c is piece for c in chunks)  # alone and not copied


def test_the_compiled_code_is_keyed_by_the_finalize() -> None:
    keys = set()
    for finalize in (True, False):
        env = html.environment(finalize=finalize)
        assert isinstance(env.bytecode_cache, html.TemplateCode)
        bucket = Bucket(env, env.bytecode_cache.get_cache_key("booklet.html", "/t/booklet.html"), "a" * 40)
        keys.add(env.bytecode_cache.key_of(bucket))
    assert len(keys) == 2


@pytest.mark.parametrize("movement", ["chuxian", "yaxian", "zhongxian"])
def test_a_cached_dance_page_is_the_page_drawn_and_names_its_sources(movement: str) -> None:
    found = html._silent_dance(movement)
    assert found is not None
    page, sources = found
    assert page == html._dance_page(movement, None) == html.dance_srcdoc(movement, None)
    assert sources == tuple(s.id for s in sources_mentioned(re.sub(html._DATA_URI, "", page)))
    assert sources  # the dances name their outside sources (the 36 dancers' count …)


def test_the_known_sources_of_a_part_stand_for_searching_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`html.mentioned` with the cached dance pages' sources finds what searching every part finds,
    and searches only the parts whose sources are not known (the program)."""
    program = _program("祀先師", "臺灣府", 1752)
    pages = [html._silent_dance(c.movement) for c in program.music if c.danced]
    parts = [program.model_dump_json(), *(re.sub(html._DATA_URI, "", p[0]) for p in pages if p)]
    registry = outside_sources()
    known = {i: tuple(registry[s] for s in p[1]) for i, p in enumerate((p for p in pages if p), 1)}
    assert len(known) == len(parts) - 1 >= 3
    searched: list[str] = []

    def counted(text: str) -> tuple[OutsideSource, ...]:
        searched.append(text)
        return sources_mentioned(text)

    expected = html.mentioned(parts)
    monkeypatch.setattr(html, "sources_mentioned", counted)
    assert html.mentioned(parts, known) == expected
    assert searched == [parts[0]]
