"""The live hub against its threat model (README, "Conducting a ceremony live"), driven in process through
the app's real WebSocket endpoint (ASGI messages, no network): each line of the threat model is a test here,
and hypothesis sends random frames and message sequences from several devices."""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import itertools
import json
import logging
import threading
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uvicorn.protocols.utils import ClientDisconnected

from dianli.web import live
from dianli.web.app import create_app

QUERY = "place=%E8%87%BA%E7%81%A3%E5%BA%9C&year=1752"  # 臺灣府
HOST = "temple.lan:8000"


@pytest.fixture(scope="module", autouse=True)
def built() -> None:
    live.sheet("xianshi", "臺灣府", 1752, None, None)  # once, before any timed wait


class Peer:
    """One device's WebSocket, as the app sees it: ASGI messages in, ASGI messages out. ``stuck``: a device
    whose socket takes nothing (every send by the server waits forever)."""

    def __init__(
        self, app: Any, device: str, name: str = "", origin: str | None = None, stuck: bool = False
    ) -> None:
        self.app, self.stuck = app, stuck
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.messages: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.closed: dict[str, Any] | None = None
        self.accepted = asyncio.Event()
        self.arrived = asyncio.Event()
        headers = [(b"host", HOST.encode())]
        if origin is not None:
            headers.append((b"origin", origin.encode()))
        query = f"{QUERY}&{urllib.parse.urlencode({'device': device, 'name': name})}"
        self.scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "scheme": "ws",
            "path": "/live/xianshi/ws",
            "raw_path": b"/live/xianshi/ws",
            "root_path": "",
            "query_string": query.encode(),
            "headers": headers,
            "server": ("temple.lan", 8000),
            "client": ("192.168.1.20", 50000),
            "subprotocols": [],
            "state": {},
            "app": app,
        }
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.ensure_future(app(self.scope, self.inbox.get, self._send))
        app.state.test_peers.append(self)

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.accept":
            self.accepted.set()
        elif message["type"] == "websocket.close":
            self.closed = message
            self.arrived.set()
        elif message["type"] == "websocket.send":
            if self.stuck:
                await asyncio.Event().wait()
            self.texts.append(message["text"])
            self.messages.append(json.loads(message["text"]))
            self.arrived.set()

    def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
        self.inbox.put_nowait({"type": "websocket.receive", "text": text})

    def send_bytes(self, data: bytes) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "bytes": data})

    def leave(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    async def wait(self, kind: str, timeout: float = 5.0, **values: Any) -> dict[str, Any]:
        """The first message of this kind (with these values) received so far or within the timeout."""

        async def found() -> dict[str, Any]:
            while True:
                for m in self.messages:
                    if m["type"] == kind and all(m.get(k) == v for k, v in values.items()):
                        return m
                self.arrived.clear()
                await self.arrived.wait()

        return await asyncio.wait_for(found(), timeout)


def run(body: Callable[[Any], Awaitable[None]], state: Path | None = None) -> None:
    """Run ``body(app)`` in a fresh loop against a fresh app; fail on any error logged meanwhile."""
    app = create_app(state)
    app.state.test_peers = []

    async def main() -> None:
        async with app.router.lifespan_context(app):
            await body(app)
            for peer in app.state.test_peers:
                peer.leave()
            await asyncio.wait_for(asyncio.gather(*(p.task for p in app.state.test_peers)), 10)

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(logging.ERROR)
    logging.getLogger().addHandler(handler)
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda _loop, context: records.append(logging.makeLogRecord(context)))
    try:
        # in a thread of its own: a browser test of the same session may hold a running loop in this one
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(loop.run_until_complete, main()).result()
    finally:
        loop.close()
        logging.getLogger().removeHandler(handler)
    assert not records, [r.getMessage() for r in records]


async def conductor(app: Any, device: str = "tongzan-phone", name: str = "通贊") -> Peer:
    peer = Peer(app, device, name)
    await peer.wait("state")
    peer.send({"type": "take", "code": app.state.live_hub.code})
    await peer.wait("conduct", you=True)
    return peer


async def read(peer: Peer, timeout: float = 5.0) -> None:
    """Until the hub has taken every frame the peer sent (it handles each as it takes it, without waiting
    in between) or the connection has ended: what the frames did is done, however slow the machine."""

    async def taken() -> None:
        while not peer.inbox.empty() and not peer.task.done():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(taken(), timeout)


async def joined(app: Any, device: str, **kwargs: Any) -> Peer:
    peer = Peer(app, device, **kwargs)
    await peer.wait("state")
    return peer


# --- who is on the LAN, and what each can do (one test per line of the README's threat model) -----


def test_a_follower_cannot_take_without_the_code() -> None:
    async def body(app: Any) -> None:
        follower = await joined(app, "follower-a")
        follower.send({"type": "take"})
        assert "code" in (await follower.wait("error"))["message"]
        for wrong in ("AAAA-AAAA", "", "x" * 100):
            follower.send({"type": "take", "code": wrong})
        await asyncio.sleep(0.05)
        assert not follower.of("conduct") and follower.closed is None
        follower.send({"type": "step", "step": 5})
        assert (await follower.wait("state"))["step"] == 0

    run(body)


def test_wrong_codes_are_counted_and_end_the_connection() -> None:
    async def body(app: Any) -> None:
        guesser = await joined(app, "guesser-1")
        for n in range(live.WRONG_CODES):
            guesser.send({"type": "take", "code": f"2222-22{n:02d}"})
        await asyncio.wait_for(guesser.task, 5)
        assert guesser.closed is not None and guesser.closed["code"] == 1008
        assert not guesser.of("conduct")

    run(body)


def test_no_device_learns_another_devices_id_or_the_baton() -> None:
    """The device ids (what a reconnecting page presents) and the baton never reach another device."""

    async def body(app: Any) -> None:
        lead = await conductor(app, "secret-conductor-id", "通贊")
        baton = lead.of("conduct")[0]["baton"]
        follower = await joined(app, "secret-follower-id", name="麾生")
        lead.send({"type": "devices"})
        follower.send({"type": "devices"})  # refused: only the conductor lists devices
        for step in (1, 2):
            lead.send({"type": "step", "step": step})
        await follower.wait("step", step=2)
        await lead.wait("devices")
        assert "only the conducting device" in (await follower.wait("error"))["message"]
        everything = "\n".join(follower.texts)
        assert "secret-conductor-id" not in everything and baton not in everything
        assert app.state.live_hub.code not in everything
        assert "secret-follower-id" not in "\n".join(lead.texts)
        assert (await follower.wait("presence", conductor_here=True))["conductor_name"] == "通贊"

    run(body)


def test_a_stolen_device_id_does_not_conduct() -> None:
    """A device that connects with the conductor's own device id (found out somehow) replaces that
    connection but does not conduct: conducting is bound to the baton, which it does not have."""

    async def body(app: Any) -> None:
        lead = await conductor(app, "stolen-device-id")
        thief = await joined(app, "stolen-device-id", name="thief")
        assert thief.of("state")[0]["you_conduct"] is False
        thief.send({"type": "step", "step": 7})
        thief.send({"type": "handover", "to": "anyone"})
        thief.send({"type": "take", "baton": "guessed-baton"})
        await thief.wait("conduct", you=False)
        await asyncio.wait_for(lead.task, 5)  # replaced; it comes back with its baton
        back = await joined(app, "stolen-device-id", name="通贊")
        back.send({"type": "take", "baton": lead.of("conduct")[0]["baton"]})
        await back.wait("conduct", you=True)
        assert app.state.live_hub.ceremonies[lead.of("state")[0]["key"]].step == 0

    run(body)


def test_a_follower_cannot_rename_or_remove_another() -> None:
    async def body(app: Any) -> None:
        lead = await conductor(app)
        follower = await joined(app, "follower-b", name="麾生")
        follower.send({"type": "name", "name": "通贊 (fake)"})  # renames itself only
        follower.send({"type": "release"})  # not the conductor: nothing
        follower.send({"type": "handover", "to": follower.of("state")[0]["key"]})
        await follower.wait("error")
        lead.send({"type": "devices"})
        listing = (await lead.wait("devices"))["devices"]
        assert [d["name"] for d in listing] == ["通贊 (fake)"]
        assert lead.closed is None and lead.task.done() is False
        c = next(iter(app.state.live_hub.ceremonies.values()))
        assert (c.conductor_name, c.conductor is not None) == ("通贊", True)

    run(body)


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        (None, True),  # not a browser (a script: it needs the code like anyone)
        (f"http://{HOST}", True),
        ("http://TEMPLE.lan:8000", True),
        ("https://evil.example", False),
        ("http://temple.lan:8001", False),
        ("http://temple.lan", False),
        ("null", False),  # a sandboxed or file:// page
        ("http://[::1", False),
    ],
)
def test_the_origin_is_checked_against_the_host(origin: str | None, accepted: bool) -> None:
    async def body(app: Any) -> None:
        peer = Peer(app, "origin-test", origin=origin)
        await asyncio.wait_for(peer.task if not accepted else peer.accepted.wait(), 5)
        assert peer.accepted.is_set() is accepted
        if not accepted:
            assert peer.closed is not None and peer.closed["code"] == 1008
            assert "Origin" in peer.closed["reason"]
        peer.leave()

    run(body)


def test_the_code_passes_by_qr_and_the_conductor_hands_over() -> None:
    async def body(app: Any) -> None:
        lead = await conductor(app)
        granted = lead.of("conduct")[0]
        assert granted["link"].startswith(f"http://{HOST}/live/xianshi?")
        assert "device=" not in granted["link"] and granted["link"].endswith(f"#code={granted['code']}")
        assert granted["qr"].startswith("<svg") and granted["link"] not in granted["qr"]
        nxt = await joined(app, "next-phone", name="引贊")
        nxt.send({"type": "take", "code": granted["code"]})  # scanned from the conducting phone
        await nxt.wait("conduct", you=True)
        await lead.wait("conduct", you=False)
        lead.send({"type": "take", "baton": granted["baton"]})  # its old baton no longer conducts
        await asyncio.sleep(0.05)
        assert lead.of("conduct")[-1]["you"] is False

    run(body)


# --- no device can stall another ----------------------------------------------------------------


def test_a_device_that_never_reads_is_dropped_and_stalls_no_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "QUEUE_LIMIT", 16)  # its queue fills within a few dozen steps

    async def body(app: Any) -> None:
        lead = await conductor(app)
        followers = [await joined(app, f"follower-{i:02d}") for i in range(5)]
        stuck = Peer(app, "never-reads", stuck=True)
        await stuck.accepted.wait()
        for step in range(1, 41):
            lead.send({"type": "step", "step": step})
            await asyncio.sleep(0)
        for f in followers:
            await f.wait("step", step=40)
        await asyncio.wait_for(stuck.task, 5)  # dropped, its handler ended
        assert stuck.closed is not None and "too slow" in stuck.closed["reason"]
        assert lead.closed is None and not lead.task.done()
        for f in followers:
            assert [m["step"] for m in f.of("step")] == list(range(1, 41))

    run(body)


def test_a_send_that_waits_too_long_drops_that_device_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A device whose socket takes one message and then nothing more (its queue far from full) is dropped
    when a send waits past SEND_TIMEOUT_S; the others get every step meanwhile."""
    monkeypatch.setattr(live, "SEND_TIMEOUT_S", 0.3)

    async def body(app: Any) -> None:
        lead = await conductor(app)
        follower = await joined(app, "follower-e")
        stuck = Peer(app, "stuck-phone", stuck=True)
        await stuck.accepted.wait()
        for step in range(1, 4):
            lead.send({"type": "step", "step": step})
        await follower.wait("step", step=3)
        await asyncio.wait_for(stuck.task, 5)
        assert stuck.closed is not None and "not reading" in stuck.closed["reason"]
        assert [m["step"] for m in follower.of("step")] == [1, 2, 3]
        assert lead.closed is None and not lead.task.done()
        c = next(iter(app.state.live_hub.ceremonies.values()))
        assert "stuck-phone" not in c.connections and c.conductor is not None

    run(body)


class Broken(Peer):
    """A device whose connection fails as the ASGI server reports it: from its ``fails_at``-th message on
    (0: the acceptance itself) every send raises ``error``, as uvicorn raises ``ClientDisconnected`` for a
    client gone."""

    def __init__(self, app: Any, device: str, fails_at: int, error: Exception) -> None:
        self.fails_at, self.error, self.sent, self.failed = fails_at, error, 0, False
        super().__init__(app, device)

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] in ("websocket.accept", "websocket.send") and self.sent == self.fails_at:
            self.failed = True
        if self.failed:
            raise self.error
        self.sent += 1
        await super()._send(message)


@pytest.mark.parametrize("fails_at", [0, 1, 4], ids=["at-accept", "at-its-state", "mid-ceremony"])
@pytest.mark.parametrize(
    "error",
    [
        ClientDisconnected(),
        OSError(104, "Connection reset by peer"),
        RuntimeError("WebSocket is not connected"),
    ],
    ids=["ClientDisconnected", "reset", "not-connected"],
)
def test_a_device_whose_connection_fails_is_removed_without_a_traceback(
    fails_at: int, error: Exception
) -> None:
    """The issue's 341 ClientDisconnected tracebacks: a socket that fails on accept or on any send ends
    that connection alone, with nothing logged; the conductor and the followers go on."""

    async def body(app: Any) -> None:
        lead = await conductor(app)
        follower = await joined(app, "follower-f")
        broken = Broken(app, "broken-phone", fails_at, error)
        for step in range(1, 9):
            lead.send({"type": "step", "step": step})
            await asyncio.sleep(0.01)
        await follower.wait("step", step=8)
        await asyncio.wait_for(broken.task, 5)
        assert broken.failed and broken.task.exception() is None
        assert [m["step"] for m in follower.of("step")] == list(range(1, 9))
        assert lead.closed is None and not lead.task.done()
        c = next(iter(app.state.live_hub.ceremonies.values()))
        assert "broken-phone" not in c.connections and c.conductor is not None
        lead.send({"type": "step", "step": 9})
        await follower.wait("step", step=9)

    run(body)


def test_a_silent_device_is_dropped_and_one_that_pings_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "IDLE_LIMIT_S", 0.6)

    async def body(app: Any) -> None:
        silent = await joined(app, "silent-one")
        talking = await joined(app, "talking-one")
        sent = 0
        while not silent.task.done() and sent < 100:  # a ping every 0.1 s until the silent one is gone
            talking.send({"type": "ping", "t": sent})
            sent += 1
            await asyncio.sleep(0.1)
        await asyncio.wait_for(silent.task, 5)
        assert silent.closed is not None and "silent" in silent.closed["reason"]
        await talking.wait("pong", t=sent - 1)
        assert talking.closed is None and len(talking.of("pong")) == sent >= 5

    run(body)


def test_a_flooder_is_dropped_and_the_conductor_is_not() -> None:
    async def body(app: Any) -> None:
        lead = await conductor(app)
        flooder = await joined(app, "flooder-1")
        for _ in range(int(live.RATE_BURST) + 50):
            flooder.send({"type": "ping"})
        await asyncio.wait_for(flooder.task, 5)
        assert flooder.closed is not None and "too many" in flooder.closed["reason"]
        lead.send({"type": "step", "step": 3})
        await lead.wait("step", step=3)

    run(body)


@pytest.mark.parametrize(
    ("frame", "answer"),
    [
        ("{not json", "JSON"),
        ("[1, 2]", "JSON object"),
        ('"take"', "JSON object"),
        ("null", "JSON object"),
        ("[" * 3000 + "]" * 3000, "too long"),
        ("[" * 2000 + "]" * 2000, "JSON"),  # nested past the parser's depth
        ("x" * (live.MESSAGE_LIMIT + 1), "too long"),
        ('{"type": null}', "unknown message type"),
        ('{"type": ["step"]}', "unknown message type"),
        ('{"type": "' + "z" * 3000 + '"}', "unknown message type"),
        ('{"type": "step", "step": "3"}', "only the conducting"),
        ('{"type": "handover", "to": {"a": 1}}', "only the conducting"),
        ('{"type": "rehearse", "on": 1}', "only the conducting"),
        (b"\x00\xffbinary", "text"),
    ],
)
def test_every_frame_is_answered_without_a_traceback(frame: str | bytes, answer: str) -> None:
    async def body(app: Any) -> None:
        peer = await joined(app, "malformed-1")
        if isinstance(frame, bytes):
            peer.send_bytes(frame)
        else:
            peer.send(frame)
        assert answer in (await peer.wait("error"))["message"]
        peer.send({"type": "ping", "t": 1})
        await peer.wait("pong", t=1)  # still served

    run(body)


def test_reconnects_of_one_device_are_serialised(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = itertools.count()
    prepared = live.sheet

    def slow_first(*args: Any) -> Any:  # the earlier a connection arrived, the later its sheet is ready
        time.sleep(max(0, 9 - next(calls)) * 0.03)
        return prepared(*args)

    async def body(app: Any) -> None:
        lead = await conductor(app)
        monkeypatch.setattr(live, "sheet", slow_first)
        peers = [Peer(app, "flaky-phone", name=f"try {i}") for i in range(8)]
        # each prepares its sheet in a thread of its own, finishing in any order: the last to arrive stays
        await peers[-1].wait("state")
        await asyncio.wait_for(asyncio.gather(*(p.task for p in peers[:-1])), 10)
        assert all(p.closed and p.closed["code"] == 4000 for p in peers[:-1])
        lead.send({"type": "step", "step": 2})
        await peers[-1].wait("step", step=2)
        lead.send({"type": "devices"})
        listing = (await lead.wait("devices"))["devices"]
        assert [d["name"] for d in listing] == ["try 7"]

    run(body)


# --- the state file ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "not readable as JSON"),
        ("[1, 2, 3]", "holds list"),
        ('{"xianshi|taiwan-fu|1752|spring|taiwan-fuzhi-9": {"step": 3}}', "another format"),
        ('{"format": "dianli-live-state", "version": 1, "ceremonies": {}}', "version 1"),
        ('{"format": "dianli-live-state", "version": 2}', "no ceremonies"),
        ('{"format": "dianli-live-state", "version": 2, "ceremonies": {"k": {"step": -1}}}', "step"),
        (
            '{"format": "dianli-live-state", "version": 2, "ceremonies": '
            '{"k": {"step": 1, "seq": 1, "history": [[1]]}}}',
            "history",
        ),
        (
            '{"format": "dianli-live-state", "version": 2, "ceremonies": '
            '{"k": {"step": 1, "seq": 1, "history": [], "baton": "plain"}}}',
            "baton",
        ),
    ],
)
def test_a_foreign_state_file_is_refused_and_kept(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "mine.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(live.LiveStateError) as info:
        create_app(path)
    message = str(info.value)
    assert str(path) in message and problem in message and live.STATE_FORMAT in message
    assert path.read_text(encoding="utf-8") == content


def test_writes_are_coalesced_off_the_loop_and_acknowledged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "live.json"
    saved_in: list[threading.Thread] = []
    save = live.StateFile.save

    def recorded(self: live.StateFile, records: dict[str, dict[str, Any]]) -> None:
        saved_in.append(threading.current_thread())
        save(self, records)

    monkeypatch.setattr(live.StateFile, "save", recorded)

    async def body(app: Any) -> None:
        loop_thread = threading.current_thread()
        hub = app.state.live_hub
        lead = await conductor(app)
        await lead.wait("ack", seq=0)  # the conductor change: written at once
        before = hub.writes
        for step in range(1, 101):
            lead.send({"type": "step", "step": step})
        await lead.wait("step", step=100)
        await lead.wait("ack", seq=100, timeout=5)
        assert hub.writes - before <= 3  # a hundred steps within a few 200 ms windows
        text = path.read_text(encoding="utf-8")
        (record,) = json.loads(text)["ceremonies"].values()
        assert record["step"] == 100
        baton = lead.of("conduct")[0]["baton"]  # the file holds its digest only, never the baton itself
        assert baton not in text and record["baton"] == hashlib.sha256(baton.encode()).hexdigest()
        assert saved_in and loop_thread not in saved_in  # every save in a worker thread, none in the loop

    run(body, path)
    assert [p.name for p in tmp_path.iterdir()] == ["live.json"]  # no temporary file left


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 2),
            st.one_of(
                st.builds(
                    lambda k, v: {"type": k, **v},
                    st.sampled_from(
                        ["step", "take", "handover", "release", "devices", "name", "rehearse", "ping", "?"]
                    ),
                    st.dictionaries(
                        st.sampled_from(["step", "code", "baton", "to", "name", "on", "speed", "t"]),
                        st.one_of(
                            st.integers(-5, 400),
                            st.text(max_size=20),
                            st.booleans(),
                            st.none(),
                            st.floats(allow_nan=True),
                            st.just("CODE"),
                        ),
                        max_size=3,
                    ),
                ),
                st.text(max_size=50),
                st.binary(max_size=20),
                st.just("LEAVE"),
            ),
        ),
        max_size=40,
    )
)
def test_random_messages_from_several_devices_keep_the_invariants(actions: list[Any]) -> None:
    """Three devices send random frames; whatever they send: no error logged, every device sees the steps
    in the order of their sequence numbers, only the holder of the code or the baton conducts, and a step
    moves only when the conductor sent it."""

    async def body(app: Any) -> None:
        hub = app.state.live_hub
        lead = await conductor(app)
        peers: list[Peer | None] = [lead, await joined(app, "device-1"), await joined(app, "device-2")]
        code_users: set[int] = {0}
        for who, action in actions:
            peer = peers[who]
            if peer is None or peer.task.done():
                peer = peers[who] = await joined(app, f"device-{who}")
            if action == "LEAVE":
                peer.leave()
                await asyncio.wait_for(peer.task, 5)
                peers[who] = None
                continue
            if isinstance(action, dict) and action.get("code") == "CODE":
                action = {**action, "code": hub.code}
                if action["type"] == "take" and not isinstance(action.get("baton"), str):
                    code_users.add(who)
            before = {k: c.step for k, c in hub.ceremonies.items()}
            # the scopes of the conducting connections (a Connection wraps the peer's own ASGI scope)
            conducting = [c.conductor.ws.scope for c in hub.ceremonies.values() if c.conductor is not None]
            if isinstance(action, bytes):
                peer.send_bytes(action)
            else:
                peer.send(action)
            await read(peer)
            for key, c in hub.ceremonies.items():
                if c.step != before[key]:  # moved: by the conductor, with a step message
                    assert isinstance(action, dict) and action["type"] == "step"
                    assert any(scope is peer.scope or scope == peer.scope for scope in conducting)
        await asyncio.sleep(0.05)
        (c,) = hub.ceremonies.values()
        assert c.conductor is None or c.conductor in c.connections.values()
        for index, peer in enumerate(peers):
            if peer is not None:
                seqs = [m["seq"] for m in peer.of("step")]
                assert seqs == sorted(seqs)
                assert index in code_users or not any(m.get("you") for m in peer.of("conduct"))
                known = [m["step"] for m in peer.messages if m["type"] in ("state", "step")]
                assert known[-1] == c.step  # every device connected ends on the ceremony's step

    run(body)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    device=st.text(max_size=70),
    name=st.text(max_size=300),
    origin=st.one_of(st.none(), st.text(max_size=40), st.just(f"http://{HOST}")),
)
def test_random_handshakes_are_accepted_or_refused_cleanly(
    device: str, name: str, origin: str | None
) -> None:
    """Whatever a page puts in its address and Origin: accepted with the state, or closed with 1008 and
    a reason; nothing logged; a name never shown longer than its limit or with control characters."""

    async def body(app: Any) -> None:
        peer = Peer(app, device, name=name, origin=origin)
        done = asyncio.ensure_future(peer.wait("state"))
        await asyncio.wait([done, peer.task], timeout=5, return_when=asyncio.FIRST_COMPLETED)
        if peer.accepted.is_set():
            assert done.done()
            c = next(iter(app.state.live_hub.ceremonies.values()))
            shown = c.connections[device].name
            assert len(shown) <= live.NAME_LIMIT and shown == live.clean_name(name)
        else:
            done.cancel()
            assert peer.closed is not None and peer.closed["code"] == 1008 and peer.closed["reason"]

    run(body)
