"""One representative URL for every route of the web app, shared by the HTTP tests (HEAD on every route)
and the browser tests (a phone's viewport, axe-core). A route added to ROUTES needs a line here:
tests/web/test_http.py fails until it has one."""

from __future__ import annotations

PLACE_YEAR = "place=臺灣府&year=1752"

URLS: dict[str, str] = {
    "index": "/",
    "rites": "/rites",
    "rite": f"/rites/xianshi?{PLACE_YEAR}",
    "roles": f"/rites/xianshi/roles?{PLACE_YEAR}",
    "program": f"/program/xianshi?{PLACE_YEAR}",
    "program_json": f"/program/xianshi/data.json?{PLACE_YEAR}",
    "calendar": f"/calendar?{PLACE_YEAR}",
    "calendar_json": f"/calendar.json?{PLACE_YEAR}",
    "calendar_ics": f"/calendar.ics?{PLACE_YEAR}",
    "music_index": "/music",
    "music": "/music/chuxian",
    "music_audio": "/music/chuxian/audio.ogg",
    "dance": "/dance/chuxian",
    "spring_ox": "/spring-ox?year=1752",
    "witnesses": "/witnesses",
    "witness": "/witnesses/taiwan-fuzhi-9",
    "section": "/witnesses/fujian-tongzhi-14/xianshi.zhisheng",
    "search": "/search?q=钟",
    "places": "/places?year=1752",
    "sources": "/sources",
    "align": "/align/tingzhou-fuzhi",
    "export": "/export",
    "export_zip": "/export/datapackage.zip",
    "timeline": "/timeline?place=諸羅縣",
    "variants": "/variants",
    "variants_ranked": "/variants/ranked?kind=date_rule",
    "variants_changes": "/variants/changes?boundary=1723",
    "variant": "/variants/xianshi%3Awangyi-call?year=1752",
    "review": "/review/jinjiang-xianzhi-15",
    "collate_tei": "/collate/sheji.xml?section=sheji.chenshe",
    "collate_json": "/collate/sheji.json?section=sheji.chenshe",
    "collate": "/collate/sheji?section=sheji.chenshe",
    "figures_js": "/figures.js",
    "live_index": "/live/",
    "live_sw": "/live/sw.js",
    "live_manifest": "/live/manifest.webmanifest",
    "live_icon": "/live/icon.svg",
    "live": f"/live/xianshi?{PLACE_YEAR}",
}

NOT_HTML = {
    "program_json",
    "calendar_json",
    "calendar_ics",
    "music_audio",
    "export_zip",
    "collate_tei",
    "collate_json",
    "figures_js",
    "live_sw",
    "live_manifest",
    "live_icon",
}
"""Routes answering with data or a file, not a page."""

PAGES: dict[str, str] = {name: url for name, url in URLS.items() if name not in NOT_HTML}
"""Every HTML page: what a reader opens (a phone's viewport, axe-core)."""
