"""Load on the web app (loopback only, bounded): cached pages under 100 concurrent clients, against a
static file served by the same server in the same run.

The server (uvicorn, two worker processes) runs on one core and this load generator on another
(``taskset``/``sched_setaffinity``), so the clients do not take the server's CPU. The generator is one
asyncio loop holding 100 keep-alive HTTP/1.1 connections, as browsers do, each sending its next request
as soon as the last answer is read (a closed loop: no think time, the hardest case), with
``Accept-Encoding: gzip`` as browsers send it. Every page is first requested on fresh connections until
both workers have it (each worker keeps its own precomputed responses, dianli.web.responses), then
measured: p50 and p95 of the time from sending a request to having read the whole answer, the
throughput, and the ratio of each p50/p95 to the static file's (``/static/site.css``). A second table
repeats the pages with ``If-None-Match`` (a browser revalidating what it holds: 304).

Target (issue 14): p95 < 100 ms for the cached pages at 100 clients. Run: ``python bench/web.py
[--requests N] [--clients N] [--workers N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

TARGET_P95_MS = 100.0
TIMEOUT_S = 30.0
PLACE_YEAR = urllib.parse.urlencode({"place": "臺灣府", "year": 1752})
STATIC = "/static/site.css"
PAGES = {
    "static file (baseline)": STATIC,
    "program page": f"/program/xianshi?{PLACE_YEAR}",
    "calendar": f"/calendar?{PLACE_YEAR}",
    "rite page": f"/rites/xianshi?{PLACE_YEAR}",
    "calendar JSON": f"/calendar.json?{PLACE_YEAR}",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cores() -> tuple[list[str], set[int] | None]:
    """The taskset prefix for the server and the core set for the load generator (none on one core)."""
    available = sorted(os.sched_getaffinity(0))
    if len(available) < 2 or shutil.which("taskset") is None:
        return [], None
    return ["taskset", "-c", str(available[0])], {available[1]}


class Client:
    """One keep-alive connection: send a GET, read the status line, headers and the body."""

    def __init__(self, port: int, headers: dict[str, str]) -> None:
        self.port = port
        self.extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> tuple[int, int]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.extra}\r\n"
        self.writer.write(request.encode("utf-8"))
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length, close = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "connection" and "close" in value.lower():
                close = True
        body = await self.reader.readexactly(length)
        if close:
            await self.close()
        return status, len(body)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()
        self.reader = self.writer = None


async def load(port: int, path: str, clients: int, requests: int, headers: dict[str, str]) -> list[float]:
    """Latencies (s) of ``requests`` GETs of ``path`` from ``clients`` concurrent keep-alive clients."""
    left = requests
    latencies: list[float] = []
    errors = 0

    async def one_client() -> None:
        nonlocal left, errors
        client = Client(port, headers)
        try:
            while left > 0:
                left -= 1
                start = time.perf_counter()
                try:
                    status, _ = await asyncio.wait_for(client.get(path), TIMEOUT_S)
                except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                    errors += 1
                    await client.close()
                    continue
                latencies.append(time.perf_counter() - start)
                if status not in (200, 304):
                    errors += 1
        finally:
            await client.close()

    await asyncio.gather(*(one_client() for _ in range(clients)))
    if errors:
        raise SystemExit(f"{errors} failed requests on {path}")
    return latencies


def server_cpu_s(pid: int) -> float:
    """User + system CPU seconds of the server's processes (the supervisor and its workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def warm(port: int, path: str) -> str:
    """Request ``path`` on fresh connections until both workers answer it fast; its ETag."""
    etag = ""
    for _ in range(40):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=300) as response:
            response.read()
            etag = response.headers.get("ETag", "")
    return etag


def table(
    server: int, port: int, clients: int, requests: int, revalidate: dict[str, str] | None
) -> list[tuple[str, float]]:
    print(
        f"{'page':24} {'p50 ms':>8} {'p95 ms':>8} {'req/s':>7} {'server cpu':>10} {'client cpu':>10} "
        f"{'p50 ÷ static':>12} {'p95 ÷ static':>12}"
    )
    base: tuple[float, float] | None = None
    p95s = []
    for name, path in PAGES.items():
        headers = {"Accept-Encoding": "gzip"}
        if revalidate is not None and revalidate.get(path):
            headers["If-None-Match"] = revalidate[path]
        start, cpu, own = time.perf_counter(), server_cpu_s(server), time.process_time()
        latencies = asyncio.run(load(port, path, clients, requests, headers))
        elapsed, cpu = time.perf_counter() - start, server_cpu_s(server) - cpu
        own = time.process_time() - own
        p50, p95 = statistics.median(latencies), percentile(latencies, 0.95)
        base = base or (p50, p95)
        p95s.append((name, p95 * 1e3))
        print(
            f"{name:24} {p50 * 1e3:8.1f} {p95 * 1e3:8.1f} {len(latencies) / elapsed:7.0f} "
            f"{cpu / len(latencies) * 1e3:10.2f} {own / len(latencies) * 1e3:10.2f} "
            f"{p50 / base[0]:12.2f} {p95 / base[1]:12.2f}"
        )
    return p95s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000, help="requests per page")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--h11", action="store_true", help="pure-Python HTTP and asyncio (no httptools, uvloop)"
    )
    args = parser.parse_args()
    port = free_port()
    server_cores, client_cores = cores()
    command = [sys.executable, "-m", "uvicorn", "dianli.web.app:app", "--host", "127.0.0.1",
               "--port", str(port), "--workers", str(args.workers), "--log-level", "warning"]  # fmt: skip
    if args.h11:
        command += ["--http", "h11", "--loop", "asyncio"]
    server = subprocess.Popen([*server_cores, *command])
    try:
        if client_cores:
            os.sched_setaffinity(0, client_cores)
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{STATIC}", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.3)
        etags = {path: asyncio.run(warm(port, path)) for path in PAGES.values()}
        where = (
            f"server on core {server_cores[-1]}, load generator on core {min(client_cores)}"
            if client_cores
            else "server and load generator share the cores (taskset not available or one core)"
        )
        http = "h11, asyncio" if args.h11 else "httptools, uvloop where installed (uvicorn[standard])"
        print(f"uvicorn ({http}), {args.workers} workers; {where}")
        print(
            f"{args.clients} concurrent keep-alive clients, {args.requests} requests per page, gzip accepted"
        )
        print("server cpu, client cpu: CPU milliseconds per request of the server's processes, of this one")
        print()
        print("full answers (200)")
        p95s = table(server.pid, port, args.clients, args.requests, None)
        print()
        print("revalidation (If-None-Match → 304)")
        table(server.pid, port, args.clients, args.requests, etags)
        print()
        slowest = max(p95s[1:], key=lambda item: item[1])
        verdict = "met" if slowest[1] < TARGET_P95_MS else "NOT met"
        print(f"target p95 < {TARGET_P95_MS:.0f} ms for the cached pages: {verdict} (slowest: {slowest[0]}, "
              f"{slowest[1]:.1f} ms)")  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
