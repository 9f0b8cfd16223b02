"""The web pages follow the occasion: the rite page, the program and the calendar put 崇聖祠 first."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

client = TestClient(app)
XIANSHI_TAIWAN = ["chongsheng", "xianshi", "zhuwengong", "minghuan", "xiangxian"]


@pytest.mark.parametrize(
    ("url", "rows"),
    [
        ("/rites/xianshi?place=臺灣府&year=1752", XIANSHI_TAIWAN),
        ("/program/xianshi?place=臺灣府&year=1752", XIANSHI_TAIWAN),
        ("/rites/迎春?place=臺灣府&year=1752", ["yingchun", "bianchun"]),
        ("/rites/sheji?place=臺灣府&year=1752", []),
    ],
)
def test_a_heading_per_rite_in_the_order_of_service(url: str, rows: list[str]) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text[:300]
    assert re.findall(r'class="rite-row" id="order-([\w-]+)"', response.text) == rows


def test_program_json_begins_with_chongsheng() -> None:
    data = json.loads(client.get("/program/xianshi/data.json?place=臺灣府&year=1752").text)
    assert [r["rite"] for r in data["rites"]] == XIANSHI_TAIWAN
    assert data["steps"][0]["rite"] == "chongsheng" and data["steps"][0]["number"] == 1


def test_calendar_page_keeps_the_occasion_together() -> None:
    page = client.get("/calendar?place=臺灣府&year=1752").text
    start = page.index("乾隆十七年二月初五")  # the spring 上丁
    links = re.findall(r"/program/([\w-]+)\?", page[start:])[:5]
    assert links == XIANSHI_TAIWAN
    assert "occasion 1/5: 祭崇聖祠儀注 → 祀先師禮 → 朱文公祠 → 名宦祠 → 鄉賢祠" in page
