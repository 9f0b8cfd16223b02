"""Conducting a ceremony live: the run sheet (``/live/{rite}``), and the hub that keeps every device
of one ceremony on the same step over a WebSocket (``/live/{rite}/ws``).

The sheet is built from the program's step list and music cues (``dianli.api``), whatever their shape:
steps are taken in the order and with the numbers the program gives them, each movement's cue is found
by the step that names it. A ceremony is keyed by its canonical rite id, place id, year, season and
witness (the program's own), so every spelling of one ceremony (祀先師 or its id, a place by name or id)
meets on one key.

The hub keeps per ceremony: the current step, a sequence number, the device conducting, and the history of
step changes with their server times (for late joiners, who start at the current step, and for the sung
character a device shows while a movement sounds). It lives in memory; with a state file
(``dianli serve --live-state FILE``) every change is written to the file (atomically) and read back at
start, so a restart loses nothing but the open connections, which the devices re-open by themselves.
Without one, a restart loses each ceremony's step, conductor and history; a conducting device that
reconnects takes its ceremony back and sends its step, so what is lost is lost only if that device is
gone too.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import os
import re
import threading
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from dianli import __version__
from dianli.api import (
    RITE_FIRST_YEAR,
    RITE_LAST_YEAR,
    DianliError,
    OutOfRangeError,
    Program,
    UnknownValueError,
    assemble_program,
    booklet_environment,
    dance_witnesses,
    default_dance_witness,
    default_place,
    default_timing,
    parse_dance,
    program_seasons,
    rite_catalogue,
)

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
    return build_sheet(assemble_program(rite, place, year, season=season, witness=witness))


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


@dataclass
class Ceremony:
    """One ceremony's shared state, and the devices connected to it."""

    key: str
    total: int
    step: int = 0
    """Index into the sheet's steps (0: the first)."""
    seq: int = 0
    conductor: str | None = None
    conductor_name: str = ""
    history: list[tuple[int, float]] = field(default_factory=list)
    devices: dict[str, tuple[WebSocket, str]] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seq": self.seq,
            "conductor": self.conductor,
            "conductor_name": self.conductor_name,
            "history": self.history,
        }

    def presence(self) -> dict[str, Any]:
        return {
            "type": "presence",
            "conductor": self.conductor,
            "conductor_name": self.conductor_name,
            "conductor_here": self.conductor in self.devices,
            "count": len(self.devices),
        }

    def full(self) -> dict[str, Any]:
        return {**self.presence(), **self.record(), "type": "state", "key": self.key, "now": _now_ms()}


def _now_ms() -> float:
    return round(time.time() * 1000, 1)


class StateFile:
    """Ceremony records in a JSON file, written whole to a temporary file and moved into place."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, dict[str, Any]]:
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise DianliError(f"live state file {self.path}: not readable as JSON ({exc})") from exc
        return data if isinstance(data, dict) else {}

    def save(self, records: dict[str, dict[str, Any]]) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.path)


class Hub:
    """The ceremonies being conducted, in memory, optionally backed by a :class:`StateFile`."""

    def __init__(self, state_file: Path | None = None) -> None:
        self.store = StateFile(state_file) if state_file else None
        self._saved: dict[str, dict[str, Any]] = self.store.load() if self.store else {}
        self.ceremonies: dict[str, Ceremony] = {}

    def ceremony(self, key: str, total: int) -> Ceremony:
        found = self.ceremonies.get(key)
        if found is None:
            found = Ceremony(key, total)
            saved = self._saved.get(key)
            if saved:
                found.step = min(max(int(saved.get("step", 0)), 0), total - 1)
                found.seq = int(saved.get("seq", 0))
                found.conductor = saved.get("conductor")
                found.conductor_name = str(saved.get("conductor_name", ""))
                found.history = [(int(s), float(t)) for s, t in saved.get("history", [])]
            self.ceremonies[key] = found
        return found

    def _persist(self, c: Ceremony) -> None:
        if self.store is None:
            return
        self._saved[c.key] = c.record()
        self.store.save(self._saved)

    async def _send(self, c: Ceremony, message: dict[str, Any], only: Iterable[str] | None = None) -> None:
        text = json.dumps(message, ensure_ascii=False)
        targets = [c.devices[d][0] for d in (only if only is not None else list(c.devices)) if d in c.devices]
        await asyncio.gather(*(_safe_send(ws, text) for ws in targets))

    async def join(self, c: Ceremony, device: str, name: str, ws: WebSocket) -> None:
        old = c.devices.get(device)
        c.devices[device] = (ws, name)
        if old is not None and old[0] is not ws:
            await _safe_close(old[0])
        if device == c.conductor:
            c.conductor_name = name
        await self._send(c, c.full(), only=[device])
        await self._send(c, c.presence())

    async def leave(self, c: Ceremony, device: str, ws: WebSocket) -> None:
        if device in c.devices and c.devices[device][0] is ws:
            del c.devices[device]
            await self._send(c, c.presence())

    async def handle(self, c: Ceremony, device: str, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "step":
            await self.set_step(c, device, message.get("step"))
        elif kind == "take":
            if c.conductor is None or c.conductor == device or c.conductor not in c.devices:
                await self._conduct(c, device)
            else:
                await self._error(
                    c, device, f"{c.conductor_name or 'another device'} conducts; ask for a handover"
                )
        elif kind == "handover":
            target = message.get("to")
            if c.conductor != device:
                await self._error(c, device, "only the conducting device can hand over")
            elif not isinstance(target, str) or target not in c.devices:
                await self._error(c, device, "that device is not connected")
            else:
                await self._conduct(c, target)
        elif kind == "release":
            if c.conductor == device:
                c.conductor, c.conductor_name = None, ""
                self._persist(c)
                await self._send(c, c.presence())
        elif kind == "devices":
            listing = [{"id": d, "name": n} for d, (_, n) in c.devices.items()]
            await self._send(c, {"type": "devices", "devices": listing}, only=[device])
        elif kind == "ping":
            await self._send(c, {"type": "pong", "now": _now_ms(), "t": message.get("t")}, only=[device])
        else:
            await self._error(c, device, f"unknown message type {kind!r}")

    async def _conduct(self, c: Ceremony, device: str) -> None:
        c.conductor = device
        c.conductor_name = c.devices[device][1] if device in c.devices else ""
        self._persist(c)
        await self._send(c, c.presence())

    async def _error(self, c: Ceremony, device: str, text: str) -> None:
        await self._send(c, {"type": "error", "message": text}, only=[device])

    async def set_step(self, c: Ceremony, device: str, step: Any) -> None:
        if device != c.conductor:
            await self._error(c, device, "only the conducting device moves the ceremony")
            await self._send(c, c.full(), only=[device])
            return
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < c.total:
            await self._error(c, device, f"step must be an index 0..{c.total - 1}")
            return
        if step == c.step and c.history:
            return
        c.step, c.seq = step, c.seq + 1
        now = _now_ms()
        c.history.append((step, now))
        del c.history[:-HISTORY_LIMIT]
        self._persist(c)
        await self._send(c, {"type": "step", "step": step, "seq": c.seq, "at": now, "now": now})


async def _safe_send(ws: WebSocket, text: str) -> None:
    try:
        await ws.send_text(text)
    except (RuntimeError, OSError, WebSocketDisconnect):
        pass  # the device went away; its own handler removes it


async def _safe_close(ws: WebSocket) -> None:
    try:
        await ws.close(code=1000, reason="replaced by a newer connection of the same device")
    except (RuntimeError, OSError):
        pass


DEVICE_RE = re.compile(r"^[A-Za-z0-9_-]{4,64}$")


async def live_socket(
    websocket: WebSocket,
    rite: str,
    place: str | None = None,
    year: int = LIVE_YEAR,
    season: str | None = None,
    witness: str | None = None,
    device: str = "",
    name: str = "",
) -> None:
    """One device's connection to its ceremony: the full state on joining, then every change."""
    if not DEVICE_RE.match(device):
        await websocket.close(code=1008, reason="device: 4 to 64 letters, digits, - or _")
        return
    try:
        data = await run_in_threadpool(sheet, rite, place, year, season, witness)
    except DianliError as exc:
        await websocket.close(code=1008, reason=str(exc)[:120])
        return
    hub: Hub = websocket.app.state.live_hub
    await websocket.accept()
    c = hub.ceremony(data["key"], len(data["steps"]))
    await hub.join(c, device, name.strip()[:40] or device[:8], websocket)
    try:
        while True:
            text = await websocket.receive_text()
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if isinstance(message, dict):
                await hub.handle(c, device, message)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.leave(c, device, websocket)


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


def install(app: FastAPI, state_file: Path | None = None) -> None:
    """The hub and the WebSocket route on an app (the GET routes are in the app's route table)."""
    app.state.live_hub = Hub(state_file)
    app.add_api_websocket_route("/live/{rite}/ws", live_socket, name="live_ws")


__all__ = [
    "Ceremony",
    "Hub",
    "StateFile",
    "build_sheet",
    "ceremony_key",
    "icon",
    "install",
    "live_index",
    "live_socket",
    "live_view",
    "manifest",
    "service_worker",
    "sheet",
    "step_roles",
]
