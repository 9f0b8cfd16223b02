"""``dianli serve --live-state`` killed (SIGKILL) at random moments while a conductor moves the ceremony:
the restarted server resumes at (or after) the last step it had acknowledged, the state file is never left
half-written, and the conductor takes the ceremony back with its baton."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from dianli.web import live

QUERY = urllib.parse.urlencode({"place": "臺灣府", "year": 1752})
START_S = 120.0


T = TypeVar("T")


def _in_thread(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: a browser test of the same session may hold a running loop in
    this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, state: Path) -> None:
        self.state, self.port = state, _free_port()
        self.proc: subprocess.Popen[str] | None = None
        self.code = ""

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "dianli",
            "serve",
            "--port",
            str(self.port),
            "--live-state",
            str(self.state),
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if "conduct code" in line:
                self.code = line.rsplit(" ", 1)[1].strip()
                break
        base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + START_S
        while True:
            try:
                urllib.request.urlopen(f"{base}/live/xianshi?{QUERY}", timeout=START_S).read()
                return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    pytest.fail(
                        f"the server did not start: {self.proc.stderr.read() if self.proc.stderr else ''}"
                    )
                time.sleep(0.2)

    def kill(self) -> str:
        """SIGKILL; what the server had written to its standard error."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        return self.proc.stderr.read() if self.proc.stderr else ""

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/live/xianshi/ws?{QUERY}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "live.json")
    try:
        yield s
    finally:
        if s.proc is not None and s.proc.poll() is None:
            s.proc.terminate()
            s.proc.wait(timeout=10)


async def _until(ws: ClientConnection, kind: str, **values: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == kind and all(message.get(k) == v for k, v in values.items()):
            return dict(message)


async def _conduct_then_killed(server: Server, rng: random.Random, baton: str) -> tuple[int, int, str]:
    """Steps sent until the server is killed at a random moment: (last acknowledged seq, the highest seq
    the server could have reached, the baton)."""
    last_ack = -1
    async with connect(f"{server.url}&device=conductor-phone&name=%E9%80%9A%E8%B4%8A") as ws:
        first = (await _until(ws, "state"))["seq"]
        await ws.send(
            json.dumps({"type": "take", "baton": baton} if baton else {"type": "take", "code": server.code})
        )
        baton = (await _until(ws, "conduct", you=True))["baton"]

        async def acks() -> None:
            nonlocal last_ack
            try:
                async for text in ws:
                    message = json.loads(text)
                    if message["type"] == "ack":
                        last_ack = max(last_ack, message["seq"])
            except ConnectionClosed:
                pass

        listener = asyncio.ensure_future(acks())
        kill_at = time.monotonic() + rng.uniform(0.05, 1.2)
        sent = 0
        while time.monotonic() < kill_at:
            sent += 1
            await ws.send(json.dumps({"type": "step", "step": sent % 300 + 1}))
            await asyncio.sleep(rng.uniform(0, 0.02))
        log = server.kill()
        acked = last_ack
        listener.cancel()
    assert "Traceback" not in log, log
    return acked, first + sent, baton


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_killed_server_resumes_at_the_last_acknowledged_step(server: Server, seed: int) -> None:
    rng = random.Random(seed)
    server.start()
    baton = ""
    for _ in range(2):
        acked, highest, baton = _in_thread(_conduct_then_killed(server, rng, baton))
        saved = json.loads(server.state.read_text(encoding="utf-8"))  # whole, never half-written
        assert (saved["format"], saved["version"]) == (live.STATE_FORMAT, live.STATE_VERSION)
        server.start()

        async def resumed() -> dict[str, Any]:
            async with connect(f"{server.url}&device=latecomer") as ws:
                return await _until(ws, "state")

        state = _in_thread(resumed())
        assert acked <= state["seq"] <= highest  # nothing acknowledged lost, nothing made up
        assert state["conducted"] and state["conductor_name"] == "通贊"
        assert not [p for p in server.state.parent.iterdir() if p.name != "live.json"]


def test_a_temporary_file_left_by_a_killed_save_is_removed_at_load(tmp_path: Path) -> None:
    """A server killed between writing its temporary file and moving it into place leaves the file behind;
    the next start removes it (its own name pattern, its process gone) and keeps the state file as it was."""
    import subprocess
    import sys

    from dianli.web.live import StateFile

    state = StateFile(tmp_path / "live.json")
    state.save({})
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    stale = tmp_path / f".live.json.{int(dead.stdout)}.tmp"
    stale.write_text("{", encoding="utf-8")
    other = tmp_path / ".other.json.1.tmp"  # not its own: left alone
    other.write_text("{", encoding="utf-8")
    assert state.load() == {}
    assert not stale.exists() and other.exists()
