"""Conducting a ceremony live: the run sheet (``/live/{rite}``), and the hub that keeps every device
of one ceremony on the same step over a WebSocket (``/live/{rite}/ws``).

The sheet is built from the program's step list and music cues (``dianli.ceremony``), whatever their
shape: steps are taken in the order and with the numbers the program gives them, each movement's cue is
found by the step that names it. A ceremony is keyed by its canonical rite id, place id, year, season and
witness (the program's own), so every spelling of one ceremony (祀先師 or its id, a place by name or id)
meets on one key.

The hub keeps per ceremony: the current step, a sequence number, who conducts, and the history of step
changes with their server times (for late joiners, who start at the current step, and for the sung
character a device shows while a movement sounds). Conducting needs a credential: the conduct code
(printed by ``dianli serve``, shown on the conducting device with a QR code) or the conducting device's
hand-over; the device conducting holds a baton, a secret it alone is given, with which it takes its
ceremony back after a lost connection or a restart. No device learns another's id. Each connection has its
own bounded queue and writer, so no device waits for another; every frame is answered or ignored. With a
state file (``dianli serve --live-state FILE``) the state is written off the event loop (coalesced, at
most every SAVE_INTERVAL_S and at once when the conductor changes, atomically), acknowledged to the
conductor once written, and read back at start: a file of another format is refused, never overwritten.
The threat model is in the README ("Conducting a ceremony live").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import itertools
import json
import logging
import os
import re
import secrets
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, WebSocket
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

import dianli
from dianli import __version__
from dianli.dance.notation import dance_witnesses, default_dance_witness
from dianli.dance.notation import parse_movement as parse_dance
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError
from dianli.music.cues import default_timing
from dianli.places.places import default_place
from dianli.program.config import season_ids as program_seasons
from dianli.program.html import environment as booklet_environment
from dianli.program.model import Program
from dianli.rites.variants import rite_catalogue
from dianli.rites.years import FIRST_YEAR as RITE_FIRST_YEAR
from dianli.rites.years import LAST_YEAR as RITE_LAST_YEAR

STATIC_DIR = Path(__file__).parent / "static"
SHEET_CACHE_SIZE = 32
"""Run sheets kept in memory (each built once per ceremony)."""
HISTORY_LIMIT = 2000
"""Step changes kept per ceremony (a 142-step rite conducted a dozen times over)."""
LIVE_YEAR = 1752
"""The year the start page's form offers first (the booklet's example year; any year may be typed)."""
ROLE_SEPARATORS = re.compile(r"[、，,]")
NO_ROLE = "—"
SHELL_FILES = ("live.js", "live.css", "site.css", "site.js")
"""The static files the service worker keeps so that the sheet opens offline."""


# --- the run sheet -------------------------------------------------------------------------------


def step_roles(role: str | None) -> list[str]:
    """The roles a step names (通贊、引贊 names two); a step naming none is on the sheet of ``—``."""
    roles = [r.strip() for r in ROLE_SEPARATORS.split(role or "") if r.strip()]
    return roles or [NO_ROLE]


def ceremony_key(program: Program) -> str:
    """The key devices of one ceremony share: rite, place, year, season and witness, canonical."""
    return "|".join(
        (program.rite, program.place.id, str(program.year), program.season or "", program.witness)
    )


def _dance_witness(program: Program) -> str:
    """The witness whose 舞譜 the sheet shows: the ceremony's own where it has one, else the default."""
    for candidate in (program.witness, program.governing_witness):
        if candidate in dance_witnesses():
            return candidate
    return default_dance_witness()


def _dance_lines(witness: str, movement: str, count: int) -> list[str | None]:
    """Each sung character's dance as the witness writes it (None where it does not parse or count)."""
    try:
        notes = parse_dance(witness, movement)
    except DianliError:
        return [None] * count
    if len(notes) != count:
        return [None] * count
    return [n.description for n in notes]


def _music_spans(steps: list[dict[str, Any]]) -> list[tuple[str, list[int]]]:
    """(movement, indexes of the steps during which it sounds) for each performance of a movement: from
    its start to its stop (or to the next start, or the end), a pause silencing it until its resume."""
    spans: list[tuple[str, list[int]]] = []
    current: tuple[str, list[int]] | None = None
    sounding = False
    for i, step in enumerate(steps):
        mid, action = step["music"], step["music_action"]
        if mid and action == "start":
            current = (mid, [])
            spans.append(current)
            sounding = True
        elif current and mid == current[0] and action == "stop":
            current, sounding = None, False
        elif current and mid == current[0] and action == "pause":
            sounding = False
        elif current and mid == current[0] and action == "resume":
            sounding = True
        if current and sounding:
            current[1].append(i)
    return spans


def build_sheet(program: Program) -> dict[str, Any]:
    """Everything the run sheet shows, as plain data: the steps in the program's order, with the roles
    each names, the movement sounding and the dance going on during each, and a rehearsal timeline."""
    cue_of_step = {n: cue for cue in program.music for n in cue.steps}
    cue_of_movement = {cue.movement: cue for cue in program.music}
    dance_witness = _dance_witness(program)
    timing = default_timing()
    call_s = timing.seconds("call_s")
    rite_names = {section.rite: section.names[0] for section in program.rites}
    steps: list[dict[str, Any]] = []
    for s in program.steps:
        steps.append(
            {
                "number": s.number,
                "rite": s.rite,
                "rite_name": rite_names.get(s.rite, s.rite),
                "part": s.part,
                "kind": s.kind,
                "role": s.role,
                "roles": step_roles(s.role),
                "call": s.call,
                "action": s.action,
                "gloss": s.gloss,
                "posture": s.posture,
                "door": s.door,
                "notes": s.notes,
                "music": s.music,
                "music_action": s.music_action,
                "dance": s.dance,
                "sounding": None,
                "dancing": None,
                "music_at_s": None,
                "rehearse_s": call_s,
            }
        )
    cues: dict[str, dict[str, Any]] = {}
    for mid, indexes in _music_spans(steps):
        first = steps[indexes[0]] if indexes else None
        cue = cue_of_step.get(first["number"]) if first else None
        cue = cue or cue_of_movement.get(mid)
        if cue is None or not indexes:
            continue
        if mid not in cues:
            dances = _dance_lines(dance_witness, mid, len(cue.characters)) if cue.danced else []
            cues[mid] = {
                "movement": mid,
                "name": cue.name,
                "tune": cue.tune,
                "danced": cue.danced,
                "duration_s": cue.duration_s,
                "audio": f"/music/{mid}/audio.ogg",
                "characters": [
                    {
                        "char": c.char,
                        "start_s": c.start_s,
                        "end_s": c.end_s,
                        "dance": dances[i] if dances else None,
                    }
                    for i, c in enumerate(cue.characters)
                ],
            }
        share = cue.duration_s / len(indexes)
        dancing: str | None = None
        for n, i in enumerate(indexes):
            step = steps[i]
            step["sounding"] = mid
            step["music_at_s"] = round(n * share, 3)
            step["rehearse_s"] = round(share, 3)
            if step["dance"]:
                dancing = step["dance"]
            step["dancing"] = dancing if cue.danced else None
    roles = list(dict.fromkeys(r for s in steps for r in s["roles"]))
    at = 0.0
    for step in steps:
        step["rehearse_at_s"] = round(at, 3)
        at += step["rehearse_s"]
    return {
        "key": ceremony_key(program),
        "rite": program.rite,
        "title": program.title,
        "name": program.names[0],
        "place": program.place.name,
        "year": program.year,
        "season": program.season,
        "date": program.date.chinese or "",
        "occasion": program.occasion,
        "several_rites": len(program.rites) > 1,
        "witness": program.witness,
        "dance_witness": dance_witness,
        "roles": roles,
        "steps": steps,
        "cues": cues,
        "rehearsal": {
            "duration_s": round(at, 3),
            "call_s": call_s,
            "assumption": (
                f"Rehearsal timing: the witnesses give no durations. A step without music lasts {call_s:g} s "
                "(the music data's assumed length of a call); the steps during which a movement sounds share "
                "its duration evenly, so its music ends as its stop is called."
            ),
        },
    }


def _year(year: int) -> int:
    if not RITE_FIRST_YEAR <= year <= RITE_LAST_YEAR:
        raise OutOfRangeError("year", year, f"{RITE_FIRST_YEAR}..{RITE_LAST_YEAR}")
    return year


def _season(season: str | None) -> str | None:
    if season and season not in program_seasons():
        raise UnknownValueError("season", season, program_seasons())
    return season or None


_build_lock = threading.Lock()


@functools.lru_cache(maxsize=SHEET_CACHE_SIZE)
def _sheet_cached(
    rite: str, place: str, year: int, season: str | None, witness: str | None
) -> dict[str, Any]:
    return build_sheet(dianli.ceremony(rite, place, year, season=season, witness=witness).program)


def sheet(rite: str, place: str | None, year: int, season: str | None, witness: str | None) -> dict[str, Any]:
    """The run sheet of a ceremony, built once (a lock keeps concurrent first requests to one build)."""
    args = (rite, place or default_place().id, _year(year), _season(season), witness or None)
    with _build_lock:
        return _sheet_cached(*args)


def check_role(data: dict[str, Any], role: str | None) -> str | None:
    if role and role not in data["roles"]:
        raise UnknownValueError("role", role, data["roles"])
    return role or None


# --- the hub -------------------------------------------------------------------------------------

STATE_FORMAT = "dianli-live-state"
STATE_VERSION = 2
STATE_EXPECTED = (
    f'a JSON object {{"format": "{STATE_FORMAT}", "version": {STATE_VERSION}, "ceremonies": {{…}}}} '
    "written by dianli serve --live-state (give a new file name, or move this file aside)"
)
QUEUE_LIMIT = 256
"""Messages waiting for one device: a device that lets more pile up is dropped (it reconnects and catches
up from the full state), so no device waits for another."""
SEND_TIMEOUT_S = 5.0
"""One message's send to one device: longer, and the device is dropped."""
MESSAGE_LIMIT = 4096
"""Characters of one message from a device (the longest the sheet sends is a few dozen)."""
FRAME_LIMIT = 64 * 1024
"""Bytes of one WebSocket frame the server reads at all (``dianli serve``); longer ones close the socket."""
RATE_PER_S = 50.0
RATE_BURST = 200.0
"""Messages a device may send: 50 a second on average (a rehearsal at 100× moves about 33 steps a second),
200 at once; a device sending faster is dropped."""
WRONG_CODES = 5
"""Wrong conduct codes one connection may try before it is dropped."""
SAVE_INTERVAL_S = 0.2
"""The state file is written at most this often (and at once when the conductor changes)."""
IDLE_LIMIT_S = 45.0
"""A device that sends nothing for this long is dropped (the page pings every 15 s): the hub's own
keepalive, which also frees a device that neither reads nor writes (the server's WebSocket ping cannot
close a socket whose peer never reads: its buffer never drains)."""
CLOSE_TIMEOUT_S = 1.0
PRESENCE_DELAY_S = 0.05
"""Devices coming and going within this time are told to the others in one message."""
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""The conduct code's letters: none that reads as another (0/O, 1/I/L)."""
CODE_LENGTH = 8
NAME_LIMIT = 40
DEVICE_RE = re.compile(r"^[A-Za-z0-9_-]{4,64}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_log = logging.getLogger("dianli.live")


class LiveStateError(DianliError):
    """A live state file dianli did not write (or wrote in another format): refused, never overwritten."""

    def __init__(self, path: Path, problem: str) -> None:
        self.path = path
        super().__init__(f"live state file {path}: {problem}; expected {STATE_EXPECTED}")


def new_code() -> str:
    """A conduct code: eight letters and digits that cannot be misread, as two groups (``K7QM-3XPA``)."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{chars[:4]}-{chars[4:]}"


def _normal_code(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isascii() and ch.isalnum())


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def clean_name(name: object) -> str:
    """A device's name as others see it: no control characters, at most NAME_LIMIT characters."""
    if not isinstance(name, str):
        return ""
    return _CONTROL.sub("", name).strip()[:NAME_LIMIT]


def _now_ms() -> float:
    return round(time.time() * 1000, 1)


def _reason(text: str) -> str:
    """A close reason within the protocol's 123 bytes."""
    return text.encode("utf-8")[:120].decode("utf-8", "ignore")


def _json(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


class Connection:
    """One open WebSocket of one device: its own bounded queue and writer, so that a device that does not
    read holds up no one but itself. Its ``handle`` is opaque and told only to the conducting device (to hand
    over to it); the ``device`` id the page chose is never told to anyone."""

    def __init__(self, ws: WebSocket, device: str, name: str, number: int) -> None:
        self.ws = ws
        self.device = device
        self.name = name
        self.number = number
        self.handle = secrets.token_urlsafe(12)
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_LIMIT)
        self.gone = asyncio.Event()
        self.finished = asyncio.Event()
        self.close_code = 1000
        self.close_reason = ""
        self.wrong_codes = 0
        self._tokens = RATE_BURST
        self._refilled = time.monotonic()

    @property
    def label(self) -> str:
        return self.name or f"device {self.number}"

    def post(self, text: str) -> None:
        """Queue a message for this device, never waiting: a full queue drops the device."""
        if self.gone.is_set():
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(1013, f"too slow: more than {QUEUE_LIMIT} messages waiting")

    def drop(self, code: int, reason: str) -> None:
        if not self.gone.is_set():
            self.close_code, self.close_reason = code, reason
            self.gone.set()

    def allow(self) -> bool:
        """One more message from this device within its rate (a token bucket)."""
        now = time.monotonic()
        self._tokens = min(RATE_BURST, self._tokens + (now - self._refilled) * RATE_PER_S)
        self._refilled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def write(self) -> None:
        """The writer: this device's messages in order, each send bounded in time."""
        while not self.gone.is_set():
            text = await self.queue.get()
            try:  # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
                async with asyncio.timeout(SEND_TIMEOUT_S):
                    await self.ws.send_text(text)
            except TimeoutError:
                self.drop(1013, f"not reading: a message waited {SEND_TIMEOUT_S:g} s")
                return
            except Exception:  # the socket is gone, however it says so
                self.drop(1001, "gone")
                return

    async def close(self) -> None:
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT_S):
                await self.ws.close(self.close_code, _reason(self.close_reason))
        except Exception:  # already closed, or the device does not answer
            _log.debug("closing a live connection", exc_info=True)


@dataclass(eq=False)
class Ceremony:
    """One ceremony's shared state, and the devices connected to it."""

    key: str
    total: int
    step: int = 0
    """Index into the sheet's steps (0: the first)."""
    seq: int = 0
    conductor: Connection | None = None
    """The connection conducting now (None while the conducting device is away or no one conducts)."""
    baton: str | None = None
    """SHA-256 of the credential the conducting device holds (it takes the ceremony back with it after a
    lost connection or a restart); None: no one conducts."""
    conductor_name: str = ""
    rehearsing: bool = False
    speed: float = 1.0
    history: list[tuple[int, float]] = field(default_factory=list)
    connections: dict[str, Connection] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    presence_due: bool = False

    def record(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seq": self.seq,
            "baton": self.baton,
            "conductor_name": self.conductor_name,
            "rehearsing": self.rehearsing,
            "history": [list(h) for h in self.history],
        }

    def presence(self) -> dict[str, Any]:
        return {
            "type": "presence",
            "conducted": self.baton is not None,
            "conductor_name": self.conductor_name,
            "conductor_here": self.conductor is not None,
            "rehearsing": self.rehearsing,
            "speed": self.speed,
            "count": len(self.connections),
        }

    def full(self, conn: Connection) -> dict[str, Any]:
        return {
            **self.presence(),
            "type": "state",
            "key": self.key,
            "step": self.step,
            "seq": self.seq,
            "history": self.history,
            "you_conduct": self.conductor is conn,
            "now": _now_ms(),
        }


def _parse_record(key: object, record: object, path: Path) -> dict[str, Any]:
    def bad(what: str) -> LiveStateError:
        return LiveStateError(path, f"ceremony {key!r}: {what}")

    if not isinstance(key, str) or not isinstance(record, dict):
        raise bad("not an object")
    step, seq, history = record.get("step"), record.get("seq"), record.get("history")
    for name, value in (("step", step), ("seq", seq)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise bad(f"{name} is not a whole number ≥ 0")
    baton = record.get("baton")
    if baton is not None and not (isinstance(baton, str) and re.fullmatch(r"[0-9a-f]{64}", baton)):
        raise bad("baton is not a SHA-256 digest")
    if not isinstance(record.get("conductor_name", ""), str) or not isinstance(
        record.get("rehearsing", False), bool
    ):
        raise bad("conductor_name or rehearsing of the wrong type")
    if not isinstance(history, list) or not all(
        isinstance(h, list)
        and len(h) == 2
        and isinstance(h[0], int)
        and not isinstance(h[0], bool)
        and h[0] >= 0
        and isinstance(h[1], int | float)
        and not isinstance(h[1], bool)
        for h in history
    ):
        raise bad("history is not a list of [step, time] pairs")
    return record


class StateFile:
    """Ceremony records in a JSON file of a known format and version, written whole to a temporary file,
    flushed to the disk and moved into place (so a kill at any moment leaves the old file or the new)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, dict[str, Any]]:
        """The records, or :class:`LiveStateError` for a file of another shape or version (never
        overwritten: the server does not start). A temporary file a server killed mid-save left beside it
        (its own name pattern, its process gone) is removed: the file itself is the old state or the new."""
        self._remove_stale_temporaries()
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LiveStateError(self.path, f"not readable as JSON ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            kind = type(data).__name__ if not isinstance(data, dict) else "an object of another format"
            raise LiveStateError(self.path, f"this file holds {kind}, not dianli's live state")
        if data.get("version") != STATE_VERSION:
            raise LiveStateError(self.path, f"format version {data.get('version')!r}")
        ceremonies = data.get("ceremonies")
        if not isinstance(ceremonies, dict):
            raise LiveStateError(self.path, "no ceremonies object")
        return {k: _parse_record(k, r, self.path) for k, r in ceremonies.items()}

    def _remove_stale_temporaries(self) -> None:
        for tmp in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            pid = tmp.name[len(self.path.name) + 2 : -len(".tmp")]
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                tmp.unlink(missing_ok=True)
            except OSError:
                continue

    def save(self, records: dict[str, dict[str, Any]]) -> None:
        body = {"format": STATE_FORMAT, "version": STATE_VERSION, "ceremonies": records}
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(body, ensure_ascii=False))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        try:  # the rename itself on the disk
            folder = os.open(self.path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(folder)
        except OSError:
            pass
        finally:
            os.close(folder)


def _link(ws: WebSocket) -> str:
    """The sheet's address as the conducting device reached it (its page, without device or name)."""
    url = ws.url
    scheme = "https" if url.scheme == "wss" else "http"
    path = url.path[: -len("/ws")] if url.path.endswith("/ws") else url.path
    query = [(k, v) for k, v in urllib.parse.parse_qsl(url.query) if k not in ("device", "name")]
    return f"{scheme}://{url.netloc}{urllib.parse.quote(path)}?{urllib.parse.urlencode(query)}"


@functools.lru_cache(maxsize=64)
def qr_svg(text: str) -> str:
    """A QR code of ``text`` as inline SVG (segno: black modules drawn as one path, no text in it)."""
    import segno

    return str(segno.make(text, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff"))


def same_origin(ws: WebSocket) -> bool:
    """The page that opened the socket is one this server served (its Origin names the Host asked for);
    a socket with no Origin is not from a browser page, which always sends one."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    defaults = {"http": 80, "https": 443, "ws": 80, "wss": 443}
    try:
        o = urllib.parse.urlsplit(origin)
        h = urllib.parse.urlsplit("//" + ws.headers.get("host", ""))
        if o.scheme not in ("http", "https") or not o.hostname or not h.hostname:
            return False
        o_port = o.port or defaults[o.scheme]
        h_port = h.port or defaults.get(ws.url.scheme, 80)
    except ValueError:
        return False
    return (o.hostname.lower(), o_port) == (h.hostname.lower(), h_port)


class Hub:
    """The ceremonies being conducted, in memory, optionally backed by a :class:`StateFile`.

    Every message to a device goes through that device's queue (:meth:`Connection.post`): nothing here
    awaits a socket, so the hub's state changes are atomic between awaits."""

    def __init__(self, state_file: Path | None = None, code: str | None = None) -> None:
        self.code = code or new_code()
        self.store = StateFile(state_file) if state_file else None
        self._saved: dict[str, dict[str, Any]] = self.store.load() if self.store else {}
        self.ceremonies: dict[str, Ceremony] = {}
        self._numbers = itertools.count(1)
        self._wanted: asyncio.Event | None = None
        self._urgent: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._saving = asyncio.Lock()
        self._acked: dict[str, int] = {}
        self.writes = 0

    # --- ceremonies and their state file

    def ceremony(self, key: str, total: int) -> Ceremony:
        found = self.ceremonies.get(key)
        if found is None:
            found = Ceremony(key, total)
            saved = self._saved.get(key)
            if saved:
                found.step = min(saved["step"], total - 1)
                found.seq = saved["seq"]
                found.baton = saved.get("baton")
                found.conductor_name = saved.get("conductor_name", "")
                found.rehearsing = saved.get("rehearsing", False)
                found.history = [(int(s), float(t)) for s, t in saved["history"] if s < total]
                self._acked[key] = found.seq
            self.ceremonies[key] = found
        return found

    def _changed(self, c: Ceremony, urgent: bool = False) -> None:
        """The ceremony changed: written within SAVE_INTERVAL_S (at once if urgent), then acknowledged to
        its conductor; without a state file, acknowledged now."""
        if self.store is None:
            self._ack(c, c.seq)
            return
        if self._wanted is None or self._urgent is None:
            self._wanted, self._urgent = asyncio.Event(), asyncio.Event()
        self._wanted.set()
        if urgent:
            self._urgent.set()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    def _ack(self, c: Ceremony, seq: int) -> None:
        if seq > self._acked.get(c.key, -1):
            self._acked[c.key] = seq
            if c.conductor is not None:
                c.conductor.post(_json({"type": "ack", "seq": seq}))

    def _snapshot(self) -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
        records = {**self._saved, **{k: c.record() for k, c in self.ceremonies.items()}}
        return records, {k: c.seq for k, c in self.ceremonies.items()}

    async def _write_loop(self) -> None:
        assert self.store is not None and self._wanted is not None and self._urgent is not None
        last = -SAVE_INTERVAL_S
        while True:
            await self._wanted.wait()
            wait = last + SAVE_INTERVAL_S - time.monotonic()
            if wait > 0 and not self._urgent.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(wait):
                        await self._urgent.wait()
            try:
                async with self._saving:  # one save at a time, the last one made last
                    self._wanted.clear()
                    self._urgent.clear()
                    records, seqs = self._snapshot()
                    await asyncio.to_thread(self.store.save, records)
            except OSError as exc:
                _log.warning("live state file %s not written (%s); will try again", self.store.path, exc)
                self._wanted.set()
                await asyncio.sleep(1.0)
                continue
            finally:
                last = time.monotonic()
            self.writes += 1
            self._saved = records
            for key, seq in seqs.items():
                self._ack(self.ceremonies[key], seq)

    async def flush(self) -> None:
        """Write what is not written yet (at shutdown), after the save under way if there is one (so
        that no older save lands after it)."""
        async with self._saving:
            if self._writer is not None:
                self._writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._writer
                self._writer = None
            if self.store is not None and self._wanted is not None and self._wanted.is_set():
                records, _ = self._snapshot()
                await asyncio.to_thread(self.store.save, records)
                self._wanted.clear()

    # --- sending

    def _broadcast(self, c: Ceremony, message: dict[str, Any]) -> None:
        text = _json(message)
        for conn in list(c.connections.values()):
            conn.post(text)

    def _presence_soon(self, c: Ceremony) -> None:
        """Tell everyone who is here, once for the arrivals and departures of the next moment."""
        if c.presence_due:
            return
        c.presence_due = True

        def send() -> None:
            c.presence_due = False
            self._broadcast(c, c.presence())

        asyncio.get_running_loop().call_later(PRESENCE_DELAY_S, send)

    def _error(self, conn: Connection, text: str) -> None:
        conn.post(_json({"type": "error", "message": text}))

    # --- one connection

    def arrival(self) -> int:
        """The number of a connection that has just arrived: later arrivals have higher numbers."""
        return next(self._numbers)

    async def serve(
        self, ws: WebSocket, data: dict[str, Any], device: str, name: str, number: int | None = None
    ) -> None:
        """One device's connection, from its acceptance to its end, whatever ends it. ``number`` is the
        connection's :meth:`arrival`, taken before any wait: of one device's connections the one that
        arrived last is kept, whichever finished its preparation first."""
        try:
            await ws.accept()
        except Exception:
            return
        c = self.ceremony(data["key"], len(data["steps"]))
        conn = Connection(ws, device, clean_name(name), self.arrival() if number is None else number)
        lock = c.locks.setdefault(device, asyncio.Lock())
        async with lock:  # one device's reconnects one after the other
            old = c.connections.get(device)
            if old is not None and old.number > conn.number:
                with contextlib.suppress(Exception):
                    await ws.close(code=4000, reason="a newer connection of this device is already here")
                return
            if old is not None:
                old.drop(4000, "replaced by a newer connection of this device")
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(CLOSE_TIMEOUT_S * 2):
                        await old.finished.wait()
                if c.connections.get(device) is old:
                    self._leave(c, old)
            c.connections[device] = conn
        tasks = [
            asyncio.ensure_future(conn.write()),
            asyncio.ensure_future(self._read(c, conn)),
            asyncio.ensure_future(conn.gone.wait()),
        ]
        try:
            conn.post(_json(c.full(conn)))
            self._presence_soon(c)
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            conn.drop(1000, "")
            for task in tasks:
                task.cancel()
            self._leave(c, conn)
            conn.finished.set()
            await asyncio.wait(tasks)
            for task in tasks:  # a socket that failed mid-read: nothing to report
                if not task.cancelled() and task.exception() is not None:
                    _log.debug("live connection ended", exc_info=task.exception())
            await conn.close()

    def _leave(self, c: Ceremony, conn: Connection) -> None:
        if c.connections.get(conn.device) is conn:
            del c.connections[conn.device]
            lock = c.locks.get(conn.device)
            if lock is not None and not lock.locked():
                del c.locks[conn.device]
            self._presence_soon(c)
        if c.conductor is conn:  # the baton stays: the conducting device takes the ceremony back with it
            c.conductor = None
            self._presence_soon(c)

    async def _read(self, c: Ceremony, conn: Connection) -> None:
        """The device's messages: each answered or ignored, none able to raise."""
        while True:
            try:
                async with asyncio.timeout(IDLE_LIMIT_S):
                    message = await conn.ws.receive()
            except TimeoutError:
                conn.drop(1001, f"silent for {IDLE_LIMIT_S:g} s")
                return
            if message["type"] == "websocket.disconnect":
                return
            if not conn.allow():
                conn.drop(1008, f"too many messages (more than {RATE_PER_S:g} a second)")
                return
            text = message.get("text")
            if not isinstance(text, str):
                self._error(conn, "messages are text: one JSON object each")
                continue
            if len(text) > MESSAGE_LIMIT:
                self._error(conn, f"message too long ({len(text)} characters; at most {MESSAGE_LIMIT})")
                continue
            try:
                parsed = json.loads(text)
            except (ValueError, RecursionError):
                self._error(conn, "a message must be JSON")
                continue
            if not isinstance(parsed, dict):
                self._error(conn, 'a message is a JSON object with a "type"')
                continue
            self.handle(c, conn, parsed)

    def handle(self, c: Ceremony, conn: Connection, message: dict[str, Any]) -> None:
        kind = message.get("type")
        conducting = c.conductor is conn
        if kind == "step":
            self._step(c, conn, message.get("step"))
        elif kind == "take":
            self._take(c, conn, message)
        elif kind == "handover":
            target = message.get("to")
            found = [x for x in c.connections.values() if isinstance(target, str) and x.handle == target]
            if not conducting:
                self._error(conn, "only the conducting device can hand over")
            elif not found:
                self._error(conn, "that device is no longer connected")
            else:
                self._conduct(c, found[0])
        elif kind == "release":
            if conducting:
                c.conductor, c.baton, c.conductor_name, c.rehearsing = None, None, "", False
                conn.post(_json({"type": "conduct", "you": False}))
                self._changed(c, urgent=True)
                self._broadcast(c, c.presence())
        elif kind == "devices":
            if not conducting:
                self._error(conn, "only the conducting device sees the devices (to hand over)")
            else:
                listing = [{"id": x.handle, "name": x.label} for x in c.connections.values() if x is not conn]
                conn.post(_json({"type": "devices", "devices": listing}))
        elif kind == "name":
            conn.name = clean_name(message.get("name"))
            if conducting:
                c.conductor_name = conn.name
                self._changed(c)
                self._broadcast(c, c.presence())
        elif kind == "rehearse":
            on, speed = message.get("on"), message.get("speed", 1)
            if not conducting:
                self._error(conn, "only the conducting device rehearses with everyone")
            elif not isinstance(on, bool) or not isinstance(speed, int | float) or not 0.1 <= speed <= 100:
                self._error(conn, 'rehearse: {"on": true or false, "speed": 0.1 to 100}')
            else:
                c.rehearsing, c.speed = on, float(speed)
                self._changed(c)
                self._broadcast(c, c.presence())
        elif kind == "ping":
            t = message.get("t")
            conn.post(
                _json({"type": "pong", "now": _now_ms(), "t": t if isinstance(t, int | float) else None})
            )
        else:
            shown = kind[:40] if isinstance(kind, str) else type(kind).__name__
            self._error(
                conn,
                f"unknown message type {shown!r}; accepted: step, take, handover, release, devices, "
                "name, rehearse, ping",
            )

    def _take(self, c: Ceremony, conn: Connection, message: dict[str, Any]) -> None:
        baton, code = message.get("baton"), message.get("code")
        if isinstance(baton, str) and baton:
            if c.baton is not None and hmac.compare_digest(_digest(baton), c.baton):
                self._conduct(c, conn, baton)
                return
            conn.post(_json({"type": "conduct", "you": False}))
            if not isinstance(code, str):
                self._error(conn, "this device no longer conducts (handed over, or a new ceremony)")
                return
        if isinstance(code, str) and code:
            if hmac.compare_digest(_normal_code(code).encode(), _normal_code(self.code).encode()):
                self._conduct(c, conn)
                return
            conn.wrong_codes += 1
            if conn.wrong_codes >= WRONG_CODES:
                conn.drop(1008, "too many wrong codes")
            else:
                self._error(
                    conn, "wrong code: the code is shown where dianli serve runs and on the conducting phone"
                )
            return
        if c.conductor is conn:
            return
        self._error(
            conn,
            "to conduct, enter the code shown where dianli serve runs (or on the conducting phone), "
            "or ask the conducting phone to hand over",
        )

    def _conduct(self, c: Ceremony, conn: Connection, baton: str | None = None) -> None:
        """``conn`` conducts now: it alone is given the baton (a new one unless it came back with its own),
        the code and the code's link as a QR code, to pass on."""
        previous = c.conductor
        token = baton or secrets.token_urlsafe(24)
        c.conductor, c.baton, c.conductor_name = conn, _digest(token), conn.name
        if previous is not None and previous is not conn:
            previous.post(_json({"type": "conduct", "you": False}))
        link = f"{_link(conn.ws)}#code={self.code}"
        try:
            qr = qr_svg(link)
        except Exception:  # a link too long for a QR code: the code alone is shown
            _log.debug("no QR code for %r", link, exc_info=True)
            qr = ""
        conn.post(
            _json({"type": "conduct", "you": True, "baton": token, "code": self.code, "link": link, "qr": qr})
        )
        self._changed(c, urgent=True)
        self._broadcast(c, c.presence())

    def _step(self, c: Ceremony, conn: Connection, step: Any) -> None:
        if conn is not c.conductor:
            self._error(conn, "only the conducting device moves the ceremony")
            conn.post(_json(c.full(conn)))
            return
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < c.total:
            self._error(conn, f"step must be an index 0..{c.total - 1}")
            return
        if step == c.step and c.history:
            return
        c.step, c.seq = step, c.seq + 1
        now = _now_ms()
        c.history.append((step, now))
        del c.history[:-HISTORY_LIMIT]
        self._changed(c)
        self._broadcast(c, {"type": "step", "step": step, "seq": c.seq, "at": now, "now": now})


async def live_socket(
    websocket: WebSocket,
    rite: str,
    place: str | None = None,
    year: str = str(LIVE_YEAR),
    season: str | None = None,
    witness: str | None = None,
    device: str = "",
    name: str = "",
) -> None:
    """One device's connection to its ceremony: the full state on joining, then every change. Every
    refusal closes the socket with a reason that names it (the year is read here, not by FastAPI, whose
    reason would list its validation errors beyond a close frame's 123 bytes)."""
    hub: Hub = websocket.app.state.live_hub
    number = hub.arrival()  # before the sheet is prepared in a thread: arrivals keep their order
    reason = ""
    if not same_origin(websocket):
        reason = "this page was not served here (its Origin is another site)"
    elif not DEVICE_RE.match(device):
        reason = "device: 4 to 64 letters, digits, - or _"
    elif not re.fullmatch(r"[0-9]{1,6}", year.strip()):
        reason = f"year: a whole number {RITE_FIRST_YEAR}..{RITE_LAST_YEAR}"
    if not reason:
        try:
            data = await run_in_threadpool(sheet, rite, place, int(year), season, witness)
        except DianliError as exc:
            reason = str(exc)
    if reason:
        with contextlib.suppress(Exception):
            await websocket.close(code=1008, reason=_reason(reason))
        return
    await hub.serve(websocket, data, device, name, number)


# --- pages and files -----------------------------------------------------------------------------


def _render(name: str, **context: Any) -> str:
    return booklet_environment("dianli.web").get_template(name).render(version=__version__, **context)


async def live_view(
    rite: str,
    place: str | None = Query(None, description="place name or id (default: the provincial capital)"),
    year: int = Query(LIVE_YEAR, description=f"year {RITE_FIRST_YEAR}..{RITE_LAST_YEAR}"),
    season: str | None = None,
    witness: str | None = None,
    role: str | None = None,
) -> Response:
    data = await run_in_threadpool(sheet, rite, place, year, season, witness)
    check_role(data, role)
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    page = _render("live.html", s=data, payload=payload, role=role or "")
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


def _read_static(name: str) -> str:
    return (STATIC_DIR / name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def shell_version() -> str:
    """A digest of the files the service worker keeps: a new version of any replaces the cache."""
    digest = hashlib.blake2b(__version__.encode(), digest_size=8)
    for name in (*SHELL_FILES, "live-sw.js", "live-icon.svg"):
        digest.update((STATIC_DIR / name).read_bytes())
    return digest.hexdigest()


async def service_worker() -> Response:
    shell = [f"/static/{n}" for n in SHELL_FILES] + ["/live/", "/live/manifest.webmanifest", "/live/icon.svg"]
    text = _read_static("live-sw.js").replace("__VERSION__", shell_version())
    text = text.replace("__SHELL__", json.dumps(shell))
    return Response(text, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


async def manifest() -> Response:
    body = {
        "name": "典禮 dianli — run sheet",
        "short_name": "典禮 live",
        "description": "Conduct and follow a ceremony step by step, offline once opened.",
        "start_url": "/live/",
        "scope": "/live/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#0e0d0b",
        "theme_color": "#0e0d0b",
        "icons": [{"src": "/live/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }
    return Response(json.dumps(body, ensure_ascii=False), media_type="application/manifest+json")


async def icon() -> Response:
    return Response(_read_static("live-icon.svg"), media_type="image/svg+xml")


async def live_index(
    rite: str | None = None,
    place: str | None = None,
    year: int | None = None,
    season: str | None = None,
    role: str | None = None,
) -> Response:
    """The start page of the installed app: the ceremonies this device has opened (kept by the page), and
    a form that opens another (``?rite=…`` sends it on to the ceremony's sheet)."""
    if rite:
        asked = {"place": place, "year": year, "season": season, "role": role}
        query = urllib.parse.urlencode({k: v for k, v in asked.items() if v})
        return RedirectResponse(f"/live/{urllib.parse.quote(rite, safe='')}?{query}", status_code=303)
    page = _render("live_index.html", rites=rite_catalogue(), place=default_place().name, year=LIVE_YEAR)
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


def install(app: FastAPI, state_file: Path | None = None, code: str | None = None) -> Hub:
    """The hub and the WebSocket route on an app (the GET routes are in the app's route table); the hub
    writes what it has not written yet when the app shuts down."""
    hub = Hub(state_file, code)
    app.state.live_hub = hub
    app.add_api_websocket_route("/live/{rite}/ws", live_socket, name="live_ws")
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        async with inner(application) as state:
            try:
                yield state
            finally:
                await hub.flush()

    app.router.lifespan_context = lifespan
    return hub


__all__ = [
    "Ceremony",
    "Connection",
    "Hub",
    "LiveStateError",
    "StateFile",
    "build_sheet",
    "ceremony_key",
    "icon",
    "install",
    "live_index",
    "live_socket",
    "live_view",
    "manifest",
    "new_code",
    "same_origin",
    "service_worker",
    "sheet",
    "step_roles",
]
