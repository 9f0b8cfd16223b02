"""Keeping a ceremony in step (loopback only, bounded): the delay from a step change sent by the
conducting device to the moment the last follower has it, with 1, 10 and 100 followers on WebSockets.

Starts ``dianli serve --live-state FILE`` (uvicorn, one worker; the state written to a file at every
change, as a temple would run it) on a free 127.0.0.1 port, builds the run sheet once, opens
one conducting and N following connections (the ``websockets`` client, all in this process's event
loop), then for each of STEPS step changes measures the time from the conductor's send until the last
follower has received it; one change at a time, each bounded by a timeout. The baseline, measured in the
same run on the same server: the round trip of one message on one connection (ping → pong). Prints p50
and p95 of each, and the p95 against the target (200 ms) and the baseline.
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from websockets.asyncio.client import ClientConnection, connect

FOLLOWERS = (1, 10, 100)
STEPS = 60
PINGS = 200
STEP_TIMEOUT_S = 10.0
START_TIMEOUT_S = 60.0
SHEET_TIMEOUT_S = 300.0
TARGET_P95_MS = 200.0
QUERY = urllib.parse.urlencode({"place": "臺灣府", "year": 1752})
RITE = "xianshi"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


async def until(ws: ClientConnection, kind: str) -> dict[str, object]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == kind:
            return dict(message)


async def baseline(url: str) -> list[float]:
    """Round trips of one message on one connection (ping → pong)."""
    times = []
    async with connect(f"{url}&device=bench-ping") as ws:
        await until(ws, "state")
        for i in range(PINGS):
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "t": i}))
            await asyncio.wait_for(until(ws, "pong"), STEP_TIMEOUT_S)
            times.append(time.perf_counter() - start)
    return times


async def hear(ws: ClientConnection, step: int) -> float:
    """When this follower has the step."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "step" and message["step"] == step:
            return time.perf_counter()


async def fan_out(url: str, followers: int, run: int) -> list[float]:
    """Delays from a step change to its last follower, over STEPS changes."""
    conductor = await connect(f"{url}&device=bench-conductor-{run}")
    following = [await connect(f"{url}&device=bench-follower-{run}-{i}") for i in range(followers)]
    try:
        await until(conductor, "state")
        for ws in following:
            await until(ws, "state")
        await conductor.send(json.dumps({"type": "take"}))
        while True:
            presence = await until(conductor, "presence")
            if presence["conductor"] == f"bench-conductor-{run}":
                break
        delays = []
        for n in range(STEPS):
            step = 1 + n  # a new step each time (the first run starts from step 0, later ones from STEPS)
            start = time.perf_counter()
            await conductor.send(json.dumps({"type": "step", "step": step}))
            heard = await asyncio.wait_for(
                asyncio.gather(*(hear(ws, step) for ws in following)), STEP_TIMEOUT_S
            )
            delays.append(max(heard) - start)
            await until(conductor, "step")  # its own echo, so the next change starts clean
        return delays
    finally:
        for ws in [conductor, *following]:
            await ws.close()


async def measure(port: int) -> None:
    url = f"ws://127.0.0.1:{port}/live/{RITE}/ws?{QUERY}"
    pings = await baseline(url)
    base_p50, base_p95 = statistics.median(pings), percentile(pings, 0.95)
    print(f"{STEPS} step changes per run, loopback, one uvicorn worker, state file written at each change;")
    print("the clients share one asyncio loop in this process")
    print(f"{'what':34} {'p50 ms':>8} {'p95 ms':>8} {'p95 ÷ base':>10} {'target':>8}")
    print(
        f"{'one round trip (baseline)':34} {base_p50 * 1e3:>8.2f} {base_p95 * 1e3:>8.2f} {1.0:>10.1f} {'':>8}"
    )
    for run, followers in enumerate(FOLLOWERS):
        delays = await fan_out(url, followers, run)
        p50, p95 = statistics.median(delays), percentile(delays, 0.95)
        verdict = "met" if p95 * 1e3 < TARGET_P95_MS else "MISSED"
        name = f"step → last of {followers} follower{'s' if followers > 1 else ''}"
        print(f"{name:34} {p50 * 1e3:>8.2f} {p95 * 1e3:>8.2f} {p95 / base_p95:>10.1f} {verdict:>8}")
    print(f"target: p95 < {TARGET_P95_MS:g} ms from a step change to the last follower")


def main() -> None:
    port = free_port()
    folder = tempfile.TemporaryDirectory(prefix="dianli-live-bench-")
    state = f"{folder.name}/live.json"
    server = subprocess.Popen(
        [sys.executable, "-m", "dianli", "serve", "--port", str(port), "--live-state", state],
        stdout=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                urllib.request.urlopen(base + "/static/site.css", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("server did not start") from None
                time.sleep(0.3)
        started = time.perf_counter()
        urllib.request.urlopen(f"{base}/live/{RITE}?{QUERY}", timeout=SHEET_TIMEOUT_S).read()
        print(f"run sheet built in {time.perf_counter() - started:.1f} s (once per ceremony and process)")
        asyncio.run(measure(port))
    finally:
        server.terminate()
        server.wait(timeout=10)
        folder.cleanup()


if __name__ == "__main__":
    main()
