"""Precomputed responses: an ASGI middleware in front of the web app that keeps every successful GET
response (the pages are pure functions of their URL: the data do not change while the server runs) and
answers from memory, with what HTTP offers for it:

- ``HEAD`` on every route: the request is run as ``GET`` and the body left out (same headers, same length);
- ``ETag`` (a hash of the body) and ``If-None-Match`` → ``304 Not Modified``;
- ``Range: bytes=…`` → ``206 Partial Content`` with ``Content-Range`` (``If-Range`` honoured), and
  ``416 Range Not Satisfiable`` with ``Content-Range: bytes */size`` past the end. Media players need this:
  without it Chromium cannot seek in an ``<audio>`` element and shows an infinite duration;
- text compressed once with gzip and sent to clients that accept it (``Vary: Accept-Encoding``).

Bounded: entries larger than ``max_entry`` are passed through uncached (a Range on them is then ignored,
which HTTP allows: the whole body with 200), and the least recently used entries are dropped beyond
``max_bytes``. A route opts out with ``Cache-Control: no-store``; ``/static`` is left to its own server
(files with ETag, Range and HEAD already).
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Literal

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Header = tuple[bytes, bytes]

MAX_BYTES = 96 << 20
"""Memory for cached responses in one worker (bodies and their gzip forms)."""
MAX_ENTRY = 12 << 20
"""A larger response is passed through, not kept."""
COMPRESSIBLE = (b"text/", b"application/json", b"application/javascript", b"image/svg+xml", b"+xml")
MIN_GZIP = 1024
RANGE = re.compile(r"bytes=(\d*)-(\d*)")
PASS_THROUGH_PREFIXES = ("/static/", "/review/")
"""Never kept: static files (served by their own app) and the review pages (they change with each decision,
and a signed-in page carries its session's form token)."""


@dataclass(frozen=True)
class Entry:
    """A kept response: its status line, headers (without length and encoding) and body variants."""

    status: int
    headers: tuple[Header, ...]
    body: bytes
    gzipped: bytes | None
    etag: bytes

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")


def etag_of(body: bytes) -> bytes:
    """A strong validator: the body's hash, quoted."""
    return b'"' + hashlib.blake2b(body, digest_size=12).hexdigest().encode("ascii") + b'"'


def byte_range(header: str, size: int) -> tuple[int, int] | Literal["unsatisfiable"] | None:
    """The first and last byte asked for by a ``Range`` header on a body of ``size`` bytes.

    None when the header is to be ignored (not one well-formed byte range: HTTP lets a server answer
    those with the whole body); "unsatisfiable" when it is well formed but lies wholly past the end."""
    match = RANGE.fullmatch(header.strip())
    if match is None:
        return None
    first, last = match.group(1), match.group(2)
    if not first and not last:
        return None
    if not first:  # a suffix: the last N bytes
        length = int(last)
        if length == 0 or size == 0:
            return "unsatisfiable"
        return max(0, size - length), size - 1
    start = int(first)
    end = int(last) if last else size - 1
    if last and end < start:
        return None
    if start >= size:
        return "unsatisfiable"
    return start, min(end, size - 1)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _accepts_gzip(scope: Scope) -> bool:
    value = _header(scope, b"accept-encoding") or ""
    for part in value.split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() == "gzip":
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def _etag_matches(header: str | None, etag: bytes) -> bool:
    if header is None:
        return False
    tag = etag.decode("ascii")
    return any(t.strip().removeprefix("W/") in (tag, "*") for t in header.split(","))


class PageCache:
    """The middleware (see the module's description)."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BYTES, max_entry: int = MAX_ENTRY) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_entry = max_entry
        self.entries: OrderedDict[tuple[str, bytes], Entry] = OrderedDict()
        self.size = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        inner = dict(scope, method="GET") if head else scope
        if str(scope["path"]).startswith(PASS_THROUGH_PREFIXES):
            if not head:
                await self.app(scope, receive, send)
                return
            status, headers, _body = await self._run(inner, receive)  # HEAD: the GET's headers
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        key = (str(scope["path"]), bytes(scope.get("query_string", b"")))
        entry = self.entries.get(key)
        if entry is not None:
            self.entries.move_to_end(key)
        else:
            status, headers, body = await self._run(inner, receive)
            entry = self._keep(key, status, headers, body)
            if entry is None:  # not kept: sent as it came (HEAD without its body)
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": b"" if head else body})
                return
        await self._answer(scope, entry, head, send)

    async def _run(self, scope: Scope, receive: Receive) -> tuple[int, list[Header], bytes]:
        start: Message = {}
        chunks: list[bytes] = []

        async def collect(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))

        await self.app(scope, receive, collect)
        return (
            int(start["status"]),
            [(bytes(k), bytes(v)) for k, v in start.get("headers", ())],
            b"".join(chunks),
        )

    def _keep(self, key: tuple[str, bytes], status: int, headers: list[Header], body: bytes) -> Entry | None:
        names = {k.lower(): v for k, v in headers}
        if (
            status != 200
            or b"set-cookie" in names
            or b"no-store" in names.get(b"cache-control", b"")
            or b"content-encoding" in names
            or len(body) > self.max_entry
        ):
            return None
        kept = tuple((k, v) for k, v in headers if k.lower() not in (b"content-length", b"etag"))
        etag = names.get(b"etag") or etag_of(body)
        kept += ((b"accept-ranges", b"bytes"),)
        if b"cache-control" not in names:
            kept += ((b"cache-control", b"no-cache"),)  # revalidate with the ETag: a 304 costs nothing
        gzipped = None
        media = names.get(b"content-type", b"")
        if len(body) >= MIN_GZIP and any(c in media for c in COMPRESSIBLE):
            gzipped = gzip.compress(body, compresslevel=6, mtime=0)
            kept += ((b"vary", b"Accept-Encoding"),)
        entry = Entry(status, kept, body, gzipped, etag)
        self.entries[key] = entry
        self.size += entry.size
        while self.size > self.max_bytes and len(self.entries) > 1:
            _, dropped = self.entries.popitem(last=False)
            self.size -= dropped.size
        return entry

    async def _answer(self, scope: Scope, entry: Entry, head: bool, send: Send) -> None:
        validators = [(b"etag", entry.etag)]
        if _etag_matches(_header(scope, b"if-none-match"), entry.etag):
            kept = [(k, v) for k, v in entry.headers if k in (b"cache-control", b"vary")]
            await send({"type": "http.response.start", "status": 304, "headers": [*validators, *kept]})
            await send({"type": "http.response.body", "body": b""})
            return
        asked = _header(scope, b"range")
        if_range = _header(scope, b"if-range")
        if asked is not None and (if_range is None or if_range.strip() == entry.etag.decode("ascii")):
            size = len(entry.body)
            span = byte_range(asked, size)
            if span == "unsatisfiable":
                await self._send(send, 416, [(b"content-range", f"bytes */{size}".encode())], b"", head)
                return
            if isinstance(span, tuple):
                first, last = span
                part = [(b"content-range", f"bytes {first}-{last}/{size}".encode())]
                await self._send(
                    send, 206, [*validators, *entry.headers, *part], entry.body[first : last + 1], head
                )
                return
        if entry.gzipped is not None and _accepts_gzip(scope):
            headers = [*validators, *entry.headers, (b"content-encoding", b"gzip")]
            await self._send(send, entry.status, headers, entry.gzipped, head)
            return
        await self._send(send, entry.status, [*validators, *entry.headers], entry.body, head)

    @staticmethod
    async def _send(send: Send, status: int, headers: list[Header], body: bytes, head: bool) -> None:
        headers = [*headers, (b"content-length", str(len(body)).encode("ascii"))]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if head else body})


__all__ = ["MAX_BYTES", "MAX_ENTRY", "Entry", "PageCache", "byte_range", "etag_of"]
