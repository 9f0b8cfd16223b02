"""The live run sheet in Debian's chromium (Playwright), several browser contexts (separate devices)
against ``dianli serve --live-state`` on a free loopback port: one conducts, two follow (one filtered to
麾生) and stay in step; a follower cut off the network catches up when it returns; the service worker
serves the sheet and the music offline; rehearsal plays by itself; axe finds no serious violation.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SERVER_START_S = 60.0
SHEET_BUILD_S = 240.0
STEP_WAIT_MS = 10_000
AUDIO_WAIT_MS = 120_000
PHONE = {"width": 412, "height": 915}
ROLE = "麾生"
QUERY = urllib.parse.urlencode({"place": "臺灣府", "year": 1752})
SHEET = "/live/xianshi?" + QUERY

pytestmark = pytest.mark.browser
CODES: dict[str, str] = {}
"""The conduct code each server printed, by its address."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(port: int, state: Path | None) -> subprocess.Popen[bytes]:
    """``dianli serve`` on the port, once it answers and has built the sheet."""
    cmd = [sys.executable, "-m", "dianli", "serve", "--port", str(port)]
    cmd += ["--live-state", str(state)] if state else []
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = f"http://127.0.0.1:{port}"
    assert proc.stdout is not None
    for line in proc.stdout:  # the conduct code, printed before the server listens
        if "conduct code" in line:
            CODES[base] = line.rsplit(" ", 1)[1].strip()
            break
    deadline = time.monotonic() + SERVER_START_S
    while True:
        try:
            urllib.request.urlopen(base + "/static/site.css", timeout=2).read()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.terminate()
                pytest.fail("the server did not start")
            time.sleep(0.3)
    urllib.request.urlopen(base + SHEET, timeout=SHEET_BUILD_S).read()  # build the sheet once
    return proc


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    proc = _start(port, tmp_path_factory.mktemp("live") / "state.json")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        _stop(proc)


class Devices:
    """Browser contexts, each a separate device (own storage, own service worker, own network)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, url: str) -> Any:
        context = self.browser.new_context(viewport=PHONE, has_touch=True)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(url)
        page.wait_for_function("document.body.dataset.step !== undefined")
        return page


@pytest.fixture()
def devices(browser: Any) -> Iterator[Devices]:
    ARTIFACTS.mkdir(exist_ok=True)
    d = Devices(browser)
    yield d
    for context in d.contexts:
        context.close()
    assert d.errors == []


def _step(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.step"))


def _wait_step(page: Any, step: int) -> None:
    try:
        page.wait_for_function(f"document.body.dataset.step === '{step}'", timeout=STEP_WAIT_MS)
    except Exception as exc:
        shown = page.evaluate(
            "[document.body.dataset.step, document.body.dataset.mode, document.getElementById('status').textContent]"
        )
        raise AssertionError(f"{page.url}: waiting for step {step}, shows {shown}") from exc


def _sheet_data(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("JSON.parse(document.getElementById('live-data').textContent)"))


def _conduct(page: Any) -> None:
    page.wait_for_function("document.body.dataset.mode !== 'solo'", timeout=STEP_WAIT_MS)
    page.click("#conduct")
    origin = urllib.parse.urlsplit(page.url)
    page.fill("#code-input", CODES[f"{origin.scheme}://{origin.netloc}"])
    page.click("#code-form button")
    page.wait_for_function("document.body.dataset.mode === 'conduct'", timeout=STEP_WAIT_MS)


def _advance(page: Any, count: int) -> None:
    for _ in range(count):
        page.keyboard.press("Space")


def test_one_conducts_two_follow_one_filtered(server: str, devices: Devices) -> None:
    key = f"{server}/live/祀先師?place=taiwan-fu&year=1752"  # another spelling of the same ceremony
    conductor = devices.open(server + SHEET)
    follower = devices.open(key)
    filtered = devices.open(f"{server}{SHEET}&role={urllib.parse.quote(ROLE)}")
    _conduct(conductor)
    for page in (follower, filtered):
        page.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)
    steps = _sheet_data(conductor)["steps"]
    first_cue = next(i for i, s in enumerate(steps) if ROLE in s["roles"])
    assert first_cue > 2
    start = _step(conductor)
    _advance(conductor, first_cue - 2 - start)  # two steps before the 麾生's first cue
    for page in (conductor, follower, filtered):
        _wait_step(page, first_cue - 2)
    warning = filtered.inner_text("#warn")
    assert f"{ROLE}: your cue in 2 steps" in warning and steps[first_cue]["call"] in warning
    assert filtered.locator("#warn").is_visible() and not conductor.locator("#warn").is_visible()
    assert "waiting" in filtered.inner_text("#now-who")
    filtered.screenshot(path=str(ARTIFACTS / "live-filtered-warning.png"))
    conductor.locator("#sheet").tap()  # one tap advances
    _advance(conductor, 1)
    for page in (conductor, follower, filtered):
        _wait_step(page, first_cue)
    assert filtered.evaluate("document.body.classList.contains('my-turn')")
    assert steps[first_cue]["call"] in filtered.inner_text("#now-call")
    assert follower.inner_text("#now-call") == conductor.inner_text("#now-call")
    assert str(steps[first_cue]["number"]) == follower.inner_text("#num")
    assert "咸平" in follower.inner_text("#now-cue")  # the music cue
    conductor.screenshot(path=str(ARTIFACTS / "live-conductor.png"))
    # a late joiner starts at the current step
    late = devices.open(server + SHEET)
    _wait_step(late, first_cue)
    # the conductor hands over to the first follower, who then moves everyone
    conductor.click("#handover")
    conductor.locator("#devices button").first.wait_for()
    conductor.click("#devices button:has-text('device')")  # the only device without a role
    follower.wait_for_function("document.body.dataset.mode === 'conduct'", timeout=STEP_WAIT_MS)
    conductor.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)
    _advance(follower, 1)
    for page in (conductor, filtered, late):
        _wait_step(page, first_cue + 1)
    _advance(conductor, 1)  # no longer conducting: nothing moves
    time.sleep(0.5)
    assert _step(conductor) == first_cue + 1 == _step(follower)


def test_a_follower_cut_off_catches_up(server: str, devices: Devices) -> None:
    conductor = devices.open(server + SHEET)
    follower = devices.open(server + SHEET)
    _conduct(conductor)
    follower.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)
    _advance(conductor, 1)
    before = _step(conductor)
    _wait_step(follower, before)
    follower.context.set_offline(True)
    follower.wait_for_function("document.body.dataset.mode === 'solo'", timeout=STEP_WAIT_MS)
    assert "offline" in follower.inner_text("#status")
    _advance(conductor, 3)
    _wait_step(conductor, before + 3)
    time.sleep(0.5)
    assert _step(follower) == before  # cut off: it did not hear
    follower.context.set_offline(False)
    _wait_step(follower, before + 3)
    follower.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)


def test_a_conductor_cut_off_runs_alone_and_resyncs(server: str, devices: Devices) -> None:
    conductor = devices.open(server + SHEET)
    follower = devices.open(server + SHEET)
    _conduct(conductor)
    follower.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)
    before = _step(conductor)
    conductor.context.set_offline(True)
    conductor.wait_for_function("document.body.dataset.mode === 'solo'", timeout=STEP_WAIT_MS)
    _advance(conductor, 2)  # the ceremony goes on while the network is down
    assert _step(conductor) == before + 2
    time.sleep(0.5)
    assert _step(follower) == before
    conductor.context.set_offline(False)
    conductor.wait_for_function("document.body.dataset.mode === 'conduct'", timeout=STEP_WAIT_MS)
    _wait_step(follower, before + 2)


def test_the_sheet_and_its_music_work_offline(server: str, devices: Devices) -> None:
    page = devices.open(server + SHEET)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(
        "caches.keys().then(k => k.some(n => n.startsWith('dianli-live-shell-')))", timeout=STEP_WAIT_MS
    )
    page.reload()  # now controlled by the service worker
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=STEP_WAIT_MS)
    size = page.evaluate("fetch('/music/chuxian/audio.ogg').then(r => r.blob()).then(b => b.size)")
    assert size > 10_000
    page.context.set_offline(True)
    page.goto(server + SHEET + f"&role={urllib.parse.quote(ROLE)}")  # another role: the same cached sheet
    page.wait_for_function("document.body.dataset.step !== undefined")
    assert page.text_content("#now-label") == "now 今"
    assert page.evaluate("document.querySelector('link[rel=manifest]') !== null")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(14, 13, 11)"  # dark
    offline = page.evaluate("fetch('/music/chuxian/audio.ogg').then(r => r.blob()).then(b => b.size)")
    assert offline == size  # the music plays from the cache
    start = _step(page)
    _advance(page, 2)  # alone, it keeps running its sheet
    assert _step(page) == start + 2
    page.screenshot(path=str(ARTIFACTS / "live-offline.png"))
    page.context.set_offline(False)


@pytest.mark.parametrize("conducting", [False, True])
def test_rehearsal_plays_by_itself(server: str, devices: Devices, conducting: bool) -> None:
    """Alone, a device rehearses by itself; a conducting device's rehearsal moves its followers too."""
    page = devices.open(server + SHEET)
    other = devices.open(server + SHEET)
    if conducting:
        _conduct(page)
        other.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)
    page.fill("#speed", "32")
    start = _step(page)
    page.click("#rehearse")
    page.wait_for_function(f"+document.body.dataset.step >= {start + 3}", timeout=STEP_WAIT_MS)
    assert "rehearsal 32×" in page.inner_text("#status")
    page.click("#rehearse")
    stopped = _step(page)
    time.sleep(0.5)
    assert _step(page) == stopped
    if conducting:
        _wait_step(other, stopped)
    else:
        assert _step(other) == start


def test_two_tabs_the_conductors_role_and_a_rehearsal_on_the_followers(server: str, devices: Devices) -> None:
    """Two tabs of one browser are two devices (no fight over one id); followers name the conductor by
    its role, never by an id, and show its rehearsal as a rehearsal."""
    conductor = devices.open(f"{server}{SHEET}&role={urllib.parse.quote('通贊')}")
    _conduct(conductor)
    tab = devices.open(server + SHEET)
    second = tab.context.new_page()  # a second tab of the same browser
    second.on("pageerror", lambda e: devices.errors.append(str(e)))
    second.goto(server + SHEET)
    ids = [p.evaluate("sessionStorage.getItem('dianli-live-device')") for p in (tab, second)]
    assert ids[0] != ids[1]
    for page in (tab, second):
        page.wait_for_function("document.getElementById('status').textContent.includes('following 通贊')")
    time.sleep(2)  # two tabs fighting over one id would reconnect each other away meanwhile
    assert "following 通贊" in tab.inner_text("#status") and "following 通贊" in second.inner_text("#status")
    assert not tab.locator("#rehearsal-banner").is_visible()
    conductor.click("#rehearse")
    for page in (tab, second):
        page.locator("#rehearsal-banner").wait_for(state="visible", timeout=STEP_WAIT_MS)
        assert "(not the ceremony)" in page.inner_text("#status")
    conductor.click("#rehearse")
    tab.locator("#rehearsal-banner").wait_for(state="hidden", timeout=STEP_WAIT_MS)


def test_the_conducting_phone_shows_its_code_and_a_qr_code(server: str, devices: Devices) -> None:
    """The code passes to the next phone: the conducting phone shows it and a QR code of the sheet's
    address carrying it; opening that address conducts (the code taken out of the address)."""
    conductor = devices.open(server + SHEET)
    _conduct(conductor)
    conductor.click("#show-code")
    origin = urllib.parse.urlsplit(conductor.url)
    code = CODES[f"{origin.scheme}://{origin.netloc}"]
    assert conductor.inner_text("#code-text") == code
    assert conductor.locator("#code-qr svg").is_visible()
    scanned = devices.open(f"{server}{SHEET}#code={code}")
    scanned.wait_for_function("document.body.dataset.mode === 'conduct'", timeout=STEP_WAIT_MS)
    conductor.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)
    assert "code=" not in scanned.url


@pytest.mark.parametrize("state_file", [True, False])
def test_a_restart_loses_nothing_that_matters(browser: Any, tmp_path: Path, state_file: bool) -> None:
    """With the state file a restarted server knows the step and the conductor, who takes the ceremony
    back with its baton; in memory it knows nothing, and the conducting device keeps its step, conducts
    again with the code the new server shows, and sends its step."""
    devices = Devices(browser)
    port = _free_port()
    state = tmp_path / "state.json" if state_file else None
    proc = _start(port, state)
    try:
        base = f"http://127.0.0.1:{port}"
        conductor = devices.open(base + SHEET)
        follower = devices.open(base + SHEET)
        _conduct(conductor)
        follower.wait_for_function("document.body.dataset.mode === 'follow'", timeout=STEP_WAIT_MS)
        _advance(conductor, 5)
        _wait_step(follower, 5)
        _stop(proc)
        follower.wait_for_function("document.body.dataset.mode === 'solo'", timeout=STEP_WAIT_MS)
        proc = _start(port, state)
        late = devices.open(base + SHEET)
        if not state_file:
            conductor.locator("#code-form").wait_for(state="visible", timeout=STEP_WAIT_MS)
            conductor.fill("#code-input", CODES[base])
            conductor.click("#code-form button")
        for page in (conductor, follower, late):
            page.wait_for_function("document.body.dataset.mode !== 'solo'", timeout=STEP_WAIT_MS)
            _wait_step(page, 5)
        conductor.wait_for_function("document.body.dataset.mode === 'conduct'", timeout=STEP_WAIT_MS)
        _advance(conductor, 1)
        _wait_step(late, 6)
        assert devices.errors == []
    finally:
        _stop(proc)
        for context in devices.contexts:
            context.close()


@pytest.mark.parametrize("path", [SHEET, f"{SHEET}&role={urllib.parse.quote(ROLE)}", "/live/"])
def test_no_serious_accessibility_violation(server: str, browser: Any, path: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(server + path)
        page.wait_for_load_state("load")
        results = Axe().run(page)
    finally:
        context.close()
    serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == [], json.dumps(serious, ensure_ascii=False)[:2000]
