"""The live run sheet without a browser: the sheet built from the program, the page and its files, and the
hub over real WebSockets (FastAPI's TestClient): conduct, follow, late join, refusals, hand-over, and the
state file that survives a restart."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dianli.program.assemble import assemble as assemble_program
from dianli.web import live
from dianli.web.app import create_app

CEREMONY = {"place": "臺灣府", "year": "1752"}
WS = "/live/祀先師/ws?place=臺灣府&year=1752"


@pytest.fixture(scope="module")
def sheet() -> dict[str, Any]:
    return live.sheet("xianshi", "臺灣府", 1752, None, None)


@pytest.fixture(scope="module")
def client(sheet: dict[str, Any]) -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def test_the_sheet_follows_the_programs_steps(sheet: dict[str, Any]) -> None:
    program = assemble_program("xianshi", "臺灣府", 1752)
    assert [s["number"] for s in sheet["steps"]] == [s.number for s in program.steps]
    assert [s["call"] for s in sheet["steps"]] == [s.call for s in program.steps]
    # an occasion of several rites (崇聖祠 before 文廟 …) is one sheet, numbered through, headed rite by rite
    names = list(dict.fromkeys(s["rite_name"] for s in sheet["steps"]))
    assert names == [r.names[0] for r in program.rites]
    assert sheet["key"] == live.ceremony_key(program) == "xianshi|taiwan-fu|1752|spring|taiwan-fuzhi-9"


@pytest.mark.parametrize(
    ("text", "sounding", "dancing", "roles"),
    [
        ("迎神", None, None, ["通贊"]),  # called before the music
        ("樂奏咸平之章", "yingshen", None, ["麾生"]),  # the movement sounds from its start
        ("舞生執籥，未舞", "yingshen", None, ["舞生"]),  # held: an undanced movement shows no dance
        ("樂奏寧平之章", "chuxian", None, ["麾生"]),
        ("舞生按節而舞", "chuxian", "dance", ["舞生"]),
        ("麾生偃麾，樂暫止", None, None, ["麾生"]),  # paused for the prayer
        ("讀畢，麾生舉麾，樂續作，接奏未終之曲", "chuxian", "dance", ["麾生"]),  # resumed
        ("樂奏安平之章", "yaxian", None, ["麾生"]),
    ],
)
def test_music_and_dance_during_each_step(
    sheet: dict[str, Any], text: str, sounding: str | None, dancing: str | None, roles: list[str]
) -> None:
    """The first step whose call or act is ``text``: the movement sounding and the dance going on."""
    step = next(s for s in sheet["steps"] if text in (s["call"], s["action"]))
    assert (step["sounding"], step["dancing"], step["roles"]) == (sounding, dancing, roles)


def test_a_movement_stops_at_its_stop(sheet: dict[str, Any]) -> None:
    for i, step in enumerate(sheet["steps"]):
        if step["music_action"] == "stop":
            assert step["sounding"] is None and sheet["steps"][i - 1]["sounding"] == step["music"]


def test_the_rehearsal_timeline_shares_each_movement_over_its_steps(sheet: dict[str, Any]) -> None:
    cue = sheet["cues"]["chuxian"]
    sounding = [s for s in sheet["steps"] if s["sounding"] == "chuxian"]
    assert sum(s["rehearse_s"] for s in sounding) == pytest.approx(cue["duration_s"], abs=0.01)
    assert sounding[0]["music_at_s"] == 0
    assert sounding[-1]["music_at_s"] + sounding[-1]["rehearse_s"] == pytest.approx(
        cue["duration_s"], abs=0.01
    )
    silent = [s for s in sheet["steps"] if not s["sounding"]]
    assert {s["rehearse_s"] for s in silent} == {sheet["rehearsal"]["call_s"]}
    starts = [s["rehearse_at_s"] for s in sheet["steps"]]
    assert starts == sorted(starts) and starts[0] == 0


@pytest.mark.parametrize(
    ("movement", "first_char", "danced"),
    [("chuxian", "覺", True), ("yingshen", "大", False), ("yaxian", "至", True)],
)
def test_cues_carry_sung_characters_and_their_dance(
    sheet: dict[str, Any], movement: str, first_char: str, danced: bool
) -> None:
    cue = sheet["cues"][movement]
    first = cue["characters"][0]
    assert first["char"] == first_char and cue["audio"] == f"/music/{movement}/audio.ogg"
    assert (first["dance"] is not None) is danced
    if danced:
        assert first["dance"].startswith("東班舞生")


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        (None, ["—"]),
        ("", ["—"]),
        ("通贊", ["通贊"]),
        ("通贊、引贊", ["通贊", "引贊"]),
        ("鼓，讀祝", ["鼓", "讀祝"]),
        ("麾生, 舞生", ["麾生", "舞生"]),
    ],
)
def test_step_roles(role: str | None, expected: list[str]) -> None:
    assert live.step_roles(role) == expected


@pytest.mark.parametrize(
    ("url", "status", "needle"),
    [
        ("/live/祀先師?place=臺灣府&year=1752", 200, 'rel="manifest"'),
        ("/live/xianshi?place=taiwan-fu&year=1752&role=麾生", 200, '<option value="麾生" selected>'),
        ("/live/xianshi?place=臺灣府&year=1752&role=皇帝", 400, "麾生"),  # unknown role: the accepted roles
        ("/live/xianshi?place=臺灣府&year=1000", 400, "1644"),
        ("/live/no-such-rite?place=臺灣府&year=1752", 400, "xianshi"),
        ("/live/", 200, "run sheets"),
        ("/live/sw.js", 200, "dianli-live-shell-"),
        ("/live/manifest.webmanifest", 200, '"scope": "/live/"'),
        ("/live/icon.svg", 200, "<svg"),
        ("/static/live.js", 200, "WebSocket"),
        ("/static/live.css", 200, "body.live"),
    ],
)
def test_pages_and_files(client: TestClient, url: str, status: int, needle: str) -> None:
    response = client.get(url)
    assert response.status_code == status, response.text[:300]
    assert needle in response.text


@pytest.mark.parametrize(
    ("query", "location"),
    [
        (
            "rite=祀先師&place=臺灣府&year=1752",
            "/live/%E7%A5%80%E5%85%88%E5%B8%AB?place=%E8%87%BA%E7%81%A3%E5%BA%9C&year=1752",
        ),
        (
            "rite=xianshi&year=1752&season=autumn&role=麾生&place=",
            "/live/xianshi?year=1752&season=autumn&role=%E9%BA%BE%E7%94%9F",
        ),
    ],
)
def test_the_start_page_opens_a_ceremony(client: TestClient, query: str, location: str) -> None:
    response = client.get(f"/live/?{query}", follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (303, location)


def test_the_start_page_offers_every_rite(client: TestClient) -> None:
    page = client.get("/live/").text
    assert '<option value="xianshi">祀先師' in page and 'name="year" value="1752"' in page


def test_the_service_worker_keeps_the_shell(client: TestClient) -> None:
    text = client.get("/live/sw.js").text
    assert response_type(client, "/live/sw.js").startswith("text/javascript")
    shell = json.loads(text.split("var SHELL = ", 1)[1].split(";", 1)[0])
    for path in shell:
        assert client.get(path).status_code == 200, path
    manifest = client.get("/live/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith(manifest["scope"])


def response_type(client: TestClient, url: str) -> str:
    return str(client.get(url).headers["content-type"])


def _ws(client: TestClient, device: str) -> Any:
    return client.websocket_connect(f"{WS}&device={device}&name={device}")


def _until(ws: Any, kind: str, **values: Any) -> dict[str, Any]:
    """The next message of this kind (with these values), skipping others (presence as devices come and go)."""
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind and all(message.get(k) == v for k, v in values.items()):
            return message
    raise AssertionError(f"no {kind} message with {values}")


def _code(client: TestClient) -> str:
    return str(client.app.state.live_hub.code)  # type: ignore[attr-defined]


def test_conduct_follow_late_join_and_hand_over(client: TestClient, sheet: dict[str, Any]) -> None:
    with _ws(client, "conductor1") as a, _ws(client, "follower1") as b:
        state = _until(a, "state")
        assert state["key"] == sheet["key"] and state["you_conduct"] is False
        a.send_json({"type": "take", "code": _code(client).lower().replace("-", " ")})  # as typed
        granted = _until(a, "conduct")
        assert granted["you"] is True and granted["code"] == _code(client)
        assert granted["link"].endswith(f"#code={_code(client)}") and "<svg" in granted["qr"]
        _until(b, "presence", conductor_name="conductor1", conductor_here=True)
        for step in (1, 2, 3):
            a.send_json({"type": "step", "step": step})
            assert _until(b, "step")["step"] == step
        b.send_json({"type": "step", "step": 9})  # a follower cannot move the ceremony
        assert "only the conducting device" in _until(b, "error")["message"]
        assert _until(b, "state")["step"] == 3
        a.send_json({"type": "step", "step": len(sheet["steps"])})  # past the end
        assert "0.." in _until(a, "error")["message"]
        with _ws(client, "latecomer") as c:
            late = _until(c, "state")
            assert (late["step"], late["conductor_name"], [h[0] for h in late["history"]][-3:]) == (
                3,
                "conductor1",
                [1, 2, 3],
            )
        a.send_json({"type": "devices"})
        listing = _until(a, "devices")["devices"]
        assert [d["name"] for d in listing] == ["follower1"]
        assert listing[0]["id"] != "follower1"  # an opaque handle, not the device's own id
        a.send_json({"type": "handover", "to": listing[0]["id"]})
        assert _until(a, "conduct")["you"] is False
        assert _until(b, "conduct")["you"] is True
        b.send_json({"type": "step", "step": 4})
        assert _until(a, "step")["step"] == 4


@pytest.mark.parametrize("device", ["", "x", "a b c d", "../../etc"])
def test_a_bad_device_id_is_refused(client: TestClient, device: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect(f"{WS}&device={device}") as ws:
        ws.receive_json()
    assert info.value.code == 1008


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("year=abc", "year"),
        ("year=" + "9" * 5000, "year"),
        ("year=%C2%B2", "year"),  # a superscript two: a digit to str.isdigit, not to int
        ("year=99999", "1644..2100"),
        ("place=nowhere&year=1752", "unknown place"),
        ("year=1752&season=winter", "spring"),
    ],
)
def test_a_bad_ceremony_is_refused_with_its_reason(client: TestClient, query: str, reason: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as info,
        client.websocket_connect(f"/live/xianshi/ws?{query}&device=abcd1234") as ws,
    ):
        ws.receive_json()
    assert info.value.code == 1008 and reason in info.value.reason
    assert len(info.value.reason.encode()) <= 123


def test_the_state_file_survives_a_restart(tmp_path: Path, sheet: dict[str, Any]) -> None:
    path = tmp_path / "live.json"
    with TestClient(create_app(path)) as first, _ws(first, "conductor2") as a:
        _until(a, "state")
        a.send_json({"type": "take", "code": _code(first)})
        baton = _until(a, "conduct")["baton"]
        a.send_json({"type": "step", "step": 41})
        _until(a, "step")
        _until(a, "ack", seq=1)  # written: a restart keeps it
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert (saved["format"], saved["version"]) == (live.STATE_FORMAT, live.STATE_VERSION)
    assert saved["ceremonies"][sheet["key"]]["step"] == 41
    assert baton not in path.read_text(encoding="utf-8")  # only its digest is kept
    with (
        TestClient(create_app(path)) as second,
        _ws(second, "follower2") as b,
        _ws(second, "conductor2") as a,
    ):
        state = _until(b, "state")
        assert (state["step"], state["conductor_name"], state["seq"], state["conducted"]) == (
            41,
            "conductor2",
            1,
            True,
        )
        a.send_json({"type": "take", "baton": baton})  # the conducting phone takes its ceremony back
        assert _until(a, "conduct")["you"] is True
    with TestClient(create_app()) as memory, _ws(memory, "follower3") as c:
        assert _until(c, "state")["step"] == 0  # without the file, a restart starts over


@pytest.mark.parametrize(
    ("page", "key"),
    [
        ("/", None),
        ("/rites/xianshi?place=臺灣府&year=1752", "xianshi|taiwan-fu|1752|spring|taiwan-fuzhi-9"),
        ("/program/xianshi?place=臺灣府&year=1752", "xianshi|taiwan-fu|1752|spring|taiwan-fuzhi-9"),
        (
            "/program/xianshi?place=臺灣府&year=1752&season=autumn",
            "xianshi|taiwan-fu|1752|autumn|taiwan-fuzhi-9",
        ),
    ],
)
def test_pages_link_to_their_live_sheet(client: TestClient, page: str, key: str | None) -> None:
    """The home page links to the run sheets, a rite page and a booklet to their own ceremony's sheet."""
    import html
    import re

    links = [html.unescape(h) for h in re.findall(r'href="(/live/[^"]*)"', client.get(page).text)]
    assert len(links) == 1, links
    response = client.get(links[0])
    assert response.status_code == 200, links[0]
    if key is not None:
        data = json.loads(response.text.split('id="live-data">', 1)[1].split("</script>", 1)[0])
        assert data["key"] == key
