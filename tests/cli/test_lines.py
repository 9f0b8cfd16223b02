"""dianli.cli.lines: the command line's text fitted to the terminal, every character measured as shown."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dianli.cli.lines import fit_text
from dianli.lines import fit_line, shown_width


def test_fit_text_supplies_before_it_measures() -> None:
    """A character the transcription could not encode (private use) is shown as 〔…〕, wider: measured so."""
    text = "\ue000" * 10
    fitted = fit_text(text, 12)
    assert "\ue000" not in fitted
    assert all(shown_width(line) <= 12 for line in fitted.splitlines())


WORDS = st.text(alphabet="ab漢字「」。\t ", max_size=60)


@given(text=st.lists(WORDS, max_size=5).map("\n".join), width=st.integers(min_value=4, max_value=40))
def test_nothing_is_lost_and_only_a_lone_word_stands_out(text: str, width: int) -> None:
    fitted = fit_text(text, width)
    assert "".join(fitted.split()) == "".join(text.split())
    for line in fitted.splitlines():
        assert shown_width(line) <= width or len(line.split()) == 1, (line, width)
    for line in text.split("\n"):
        if shown_width(line) <= width:
            assert fit_line(line, width) == [line]
