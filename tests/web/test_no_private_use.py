"""No web page or download shows a box: a character 001's transcription could not encode (a private-use code
point) is always the character another witness supplies, in 〔〕, or 〔缺〕 (dianli.corpus.supplied)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

from .routes_table import URLS

client = TestClient(app)
BOX = re.compile("[\ue000-\uf8ff☒]")
BINARY = {"music_audio", "export_zip"}
# pages that hold 001's unencodable characters (tablets of 先賢樊須 and 先儒王柏, the 樂器 and 祭品 sections)
MORE = {
    "witness_text": "/witnesses/taiwan-fuzhi-9",
    "search_tablet": "/search?q=先儒王",
    "search_music": "/search?q=搖鼗法",
    "collate_json_tablets": "/collate/xianshi.json",
    "calendar_json_occasion": "/calendar.json?place=臺灣府&year=1752",
}


@pytest.mark.parametrize("url", [u for k, u in URLS.items() if k not in BINARY] + list(MORE.values()))
def test_no_private_use_character(url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, url
    found = BOX.findall(response.text)
    assert not found, f"{url}: {[hex(ord(c)) for c in found][:10]}"
