"""A character no shipped font draws (「𩚏」 U+2968F) is shown by its components with a note, never as a box
(issue 27 item 6); the guard (tests/web/test_guard.py) finds such characters in the browser."""

from __future__ import annotations

import pytest

from dianli.program.nofont import NoFont, nofont_html, supplied_forms


def test_the_table_has_the_character_the_fonts_lack() -> None:
    assert supplied_forms()["𩚏"].ids == "⿰飠也"


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (
            "<td>𩚏食</td>",
            '<td><span class="nofont" role="img" aria-label="',
        ),  # in text: an element with a note
        ('<td title="𩚏食">x</td>', '<td title="〔⿰飠也〕食">x</td>'),  # in an attribute: plain
        ("<svg><text>𩚏食</text></svg>", "<svg><text>〔⿰飠也〕食</text></svg>"),  # in a drawing: plain
        ("<p>nothing to do</p>", "<p>nothing to do</p>"),
    ],
)
def test_where_it_stands(html: str, expected: str) -> None:
    assert nofont_html(html).startswith(expected)
    assert "𩚏食" not in nofont_html(html).split(">", 1)[-1].split("aria-label")[0]


def test_across_chunks_the_tag_is_remembered() -> None:
    drawn = NoFont()
    assert drawn.html('<td title="') == '<td title="'
    assert drawn.html("𩚏") == "〔⿰飠也〕"
    assert drawn.html('">') == '">'
    assert drawn.html("𩚏").startswith('<span class="nofont"')


def test_the_booklet_shows_it_by_its_components() -> None:
    from dianli.program.assemble import assemble as assemble_program
    from dianli.program.html import render_booklet

    page = render_booklet(assemble_program("xianshi", "臺灣府", 1752), dance=False, audio=False)
    assert "〔⿰飠也〕食</td>" in page.replace("</span>", "")
    assert "no font shipped with this page draws it" in page
