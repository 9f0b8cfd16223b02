"""Load on the web app (loopback only, bounded): the program page and the calendar JSON under 20 and 100
concurrent clients, against a static file served by the same server in the same run.

Starts uvicorn on a free 127.0.0.1 port, warms the caches (the program page is rendered once and kept
in an LRU cache — see dianli.web.pages.booklet_html), then for each (page, clients) sends a fixed number
of requests with that many concurrent clients (threads), each bounded by a timeout, and stops the server.
Prints p50/p95 latency, errors, and the ratio of each p50 to the static file's p50.
"""

from __future__ import annotations

import http.client
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

REQUESTS_PER_RUN = 400
CLIENTS = (20, 100)
TIMEOUT_S = 30.0
PAGES = {
    "static file (baseline)": "/static/site.css",
    "program page (cached)": "/program/xianshi?" + urllib.parse.urlencode({"place": "臺灣府", "year": 1752}),
    "calendar JSON": "/calendar.json?" + urllib.parse.urlencode({"place": "臺灣府", "year": 1752}),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(port: int, path: str) -> tuple[float, bool]:
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        ok = response.status == 200
        conn.close()
    except OSError:
        ok = False
    return time.perf_counter() - start, ok


def run(port: int, path: str, clients: int) -> tuple[float, float, int]:
    with ThreadPoolExecutor(max_workers=clients) as pool:
        results = list(pool.map(lambda _: fetch(port, path), range(REQUESTS_PER_RUN)))
    times = sorted(t for t, _ in results)
    errors = sum(1 for _, ok in results if not ok)
    p95 = times[int(0.95 * (len(times) - 1))]
    return statistics.median(times), p95, errors


def main() -> None:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "dianli.web.app:app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning"],
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not fetch(port, "/static/site.css")[1]:
            if time.monotonic() > deadline:
                raise SystemExit("server did not start")
            time.sleep(0.2)
        for path in PAGES.values():
            fetch(port, path)  # warm the caches
        print(f"{REQUESTS_PER_RUN} requests per run, loopback, one uvicorn worker")
        print(f"{'page':26} {'clients':>7} {'p50 ms':>8} {'p95 ms':>8} {'errors':>6} {'p50 ÷ static':>12}")
        for clients in CLIENTS:
            base_p50 = None
            for name, path in PAGES.items():
                p50, p95, errors = run(port, path, clients)
                base_p50 = base_p50 or p50
                print(
                    f"{name:26} {clients:>7} {p50 * 1e3:>8.1f} {p95 * 1e3:>8.1f} {errors:>6} {p50 / base_p50:>12.1f}"
                )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
