"""The music pages with ``?witness=``: 汀州府志's own 樂章, its fingerings and the apparatus against 001."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

client = TestClient(app)
TINGZHOU = "tingzhou-fuzhi-11"


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize(
    ("url", "needles"),
    [
        (
            f"/music/chezhuan?witness={TINGZHOU}",
            [
                "Witness: 汀州府志 卷之十一「撤馔奏咸平之曲(乐作舞止)」",  # witnesses by short title (#14)
                'src="/music/chezhuan/audio.ogg?witness=tingzhou-fuzhi-11"',
                "<b>宣</b><i>林鐘</i><i>尺</i>",
                "汀州府志 卷之十一「林尺琴，七徽四弦",
            ],
        ),
        (
            "/music/chezhuan",
            [
                "Witness: 臺灣府志「徹饌奏咸平之曲(樂作、舞止)」",
                'src="/music/chezhuan/audio.ogg"',
                '<a href="/music/chezhuan?witness=tingzhou-fuzhi-11" title="tingzhou-fuzhi-11">汀州府志 卷之十一</a>',
                "<b>先</b><i>林鐘</i><i>尺</i>",
            ],
        ),
    ],
)
def test_the_page_reads_the_witness_asked_for(url: str, needles: list[str]) -> None:
    page = client.get(url)
    assert page.status_code == 200
    for needle in needles:
        assert needle in page.text


@pytest.mark.parametrize("url", ["/music/chezhuan", f"/music/chezhuan?witness={TINGZHOU}"])
def test_the_page_shows_the_apparatus(url: str) -> None:
    text = _text(client.get(url).text)
    assert "汀州府志 卷之十一 against 臺灣府志: 32 characters compared (1 not readable in one)" in text
    assert "先(林尺)「先(林尺)」宣(林尺)「宣林尺」" in text


def test_the_gongche_difference_is_labelled() -> None:
    text = _text(client.get("/music/zhongxian").text)
    assert "6.1工尺惟(南工)「惟(南工)」惟(南二)「惟南二」" in text


@pytest.mark.parametrize("url", ["/music/chuxian?witness=nope", "/music/chuxian/audio.ogg?witness=nope"])
def test_a_bad_witness_is_a_400_listing_the_score_witnesses(url: str) -> None:
    page = client.get(url)
    assert page.status_code == 400
    assert "unknown score witness" in page.text
    assert "<code>taiwan-fuzhi-9</code>" in page.text
    assert "<code>tingzhou-fuzhi-11</code>" in page.text
