"""The review page: a drafted witness's proposals (its ``readings/drafted.yaml``), accepted or rejected one by
one — what ``dianli align W --review --accept N --reject N`` does, through the same function
(:func:`dianli.comparison.review.decide`), so both write exactly the same files.

Anyone may read the page. Writing needs a credential, as conducting a live run sheet does
(:mod:`dianli.web.live`): the **review code** the server makes at start and ``dianli serve`` prints
(``K7QM-3XPA``; 31⁸ values). A reviewer types it once on the page (``POST /review/W/sign-in``): the server
answers with a session — a random token in a cookie that scripts cannot read (HttpOnly), that no other
site's page sends (SameSite=Strict) and that only ``/review`` receives, kept on the server as a SHA-256
digest — and a second random token that every decision form carries. A decision (``POST /review/W``) is
written only when all hold:

* the session cookie names a live session, and the form's token is that session's (compared in constant
  time): a page on another site can neither send the cookie nor know the token;
* the request's ``Origin`` (or, lacking one, its ``Referer``) names this server, where a browser gives one;
* the witness is one of the corpus (its folder is found by its id, never from a path the client gives), the
  decision is ``accept`` or ``reject`` and the number is a proposal pending (else the error says which are).

Five wrong codes in a minute close the sign-in for a minute. Without the code the page is read-only: the
proposals in words, each with the witness's own quotations, and the decisions made so far. The pages are
never kept in the app's page cache (they change with every decision, and a signed-in page carries its
token).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from dianli.errors import DianliError, UnknownValueError

COOKIE = "dianli_review"
"""The session cookie (sent to ``/review`` only)."""
FORM_LIMIT = 2048
"""Bytes of a form the server reads (a decision or a code is a few dozen)."""
FAIL_LIMIT = 5
FAIL_WINDOW_S = 60.0
SESSION_LIMIT = 64
"""Sessions kept at once (the oldest is forgotten first)."""
DECISIONS = ("accept", "reject")


@dataclass
class ReviewGate:
    """The review code, the sessions signed in with it and the wrong codes of the last minute."""

    code: str
    sessions: dict[str, str] = field(default_factory=dict)
    """SHA-256 of a session token → the form token of that session."""
    failures: list[float] = field(default_factory=list)

    def sign_in(self, given: str) -> tuple[str, str] | None:
        """(session token, form token) for the right code, else None (counted as a failure)."""
        if not hmac.compare_digest(_normal(given).encode(), _normal(self.code).encode()):
            self.failures.append(time.monotonic())
            return None
        token, form = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        self.sessions[_digest(token)] = form
        while len(self.sessions) > SESSION_LIMIT:
            self.sessions.pop(next(iter(self.sessions)))
        return token, form

    def locked(self) -> bool:
        """Whether too many wrong codes came in the last minute."""
        now = time.monotonic()
        self.failures = [t for t in self.failures if now - t < FAIL_WINDOW_S]
        return len(self.failures) >= FAIL_LIMIT

    def form_token(self, request: Request) -> str | None:
        """The form token of the request's session, or None (no cookie, or one of no session)."""
        token = request.cookies.get(COOKIE)
        return self.sessions.get(_digest(token)) if token else None


def _normal(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isascii() and ch.isalnum())


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def gate(request: Request) -> ReviewGate:
    found = request.app.state.review_gate
    assert isinstance(found, ReviewGate)
    return found


def _same_origin(request: Request) -> bool:
    """The form was sent by a page of this server: its Origin (or Referer) names the Host it was sent to;
    a request with neither is no browser's cross-site form (browsers send Origin with every POST)."""
    given = request.headers.get("origin") or request.headers.get("referer")
    if given is None:
        return True
    defaults = {"http": 80, "https": 443}
    try:
        o = urllib.parse.urlsplit(given)
        h = urllib.parse.urlsplit("//" + request.headers.get("host", ""))
        if o.scheme not in defaults or not o.hostname or not h.hostname:
            return False
        return (o.hostname.lower(), o.port or defaults[o.scheme]) == (
            h.hostname.lower(),
            h.port or defaults.get(request.url.scheme, 80),
        )
    except ValueError:
        return False


async def _form(request: Request) -> dict[str, str]:
    """The fields of an urlencoded form (the first value of each), at most :data:`FORM_LIMIT` bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_LIMIT:
            raise DianliError(f"a form of more than {FORM_LIMIT} bytes; accepted: the review page's forms")
    fields = urllib.parse.parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in fields.items() if v}


def _witness(witness: str) -> str:
    """A witness id of the corpus (the only thing of the client's that leads to a folder)."""
    from dianli.corpus.witnesses import witness_ids

    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    return witness


def review_page(witness: str) -> dict[str, Any]:
    """What the page shows: the witness, its pending proposals in words, the decisions made so far."""
    from dianli.comparison.review import decisions, pending
    from dianli.comparison.values import KINDS
    from dianli.corpus.witnesses import witness_info
    from dianli.rites.load import all_rites

    info = witness_info(_witness(witness))
    rites = all_rites()
    made = [
        {
            "rite": rites[str(d.get("rite"))].names.classical[0]
            if d.get("rite") in rites
            else str(d.get("rite")),
            "kind": KINDS[str(d.get("kind", "date_rule"))].label
            if d.get("kind", "date_rule") in KINDS
            else "",
            "values": "、".join(str(v) for v in d.get("values") or []),
            "decision": str(d.get("decision", "")),
        }
        for d in decisions(witness)
    ]
    return {
        "witness": witness,
        "draft": info.status == "draft",
        "proposals": [
            {"number": p.number, "summary": p.summary(), "citations": p.citations} for p in pending(witness)
        ],
        "decisions": made,
        "accepted": sum(1 for d in made if d["decision"] == "accepted"),
    }


async def review_view(request: Request, witness: str, done: str | None = None) -> Response:
    """GET /review/{witness}: the proposals; with a session, a form to accept or reject each."""
    from dianli.web.app import render

    data = await run_in_threadpool(review_page, witness)
    form = gate(request).form_token(request)
    note = done if done in ("accepted", "rejected", "signed-in") else None
    response = render("review.html", form=form, note=note, **data)
    response.headers["Cache-Control"] = "no-store"
    return response


def _refused(status: int, message: str) -> Response:
    from dianli.web.app import render

    response = render("error.html", status=status, message=message, accepted=[])
    response.headers["Cache-Control"] = "no-store"
    return response


async def review_sign_in(request: Request, witness: str) -> Response:
    """POST /review/{witness}/sign-in: the review code → a session (a cookie) and back to the page."""
    _witness(witness)
    if not _same_origin(request):
        return _refused(403, "this form was not sent from a page of this server")
    door = gate(request)
    if door.locked():
        return _refused(
            429, f"{FAIL_LIMIT} wrong codes within a minute: wait a minute, then type the code again"
        )
    made = door.sign_in((await _form(request)).get("code", ""))
    if made is None:
        return _refused(403, "not the review code: it is the one dianli serve printed when it started")
    token, _form_token = made
    target = f"/review/{urllib.parse.quote(witness)}?done=signed-in"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        COOKIE, token, httponly=True, samesite="strict", path="/review", secure=request.url.scheme == "https"
    )
    response.headers["Cache-Control"] = "no-store"
    return response


async def review_decide(request: Request, witness: str) -> Response:
    """POST /review/{witness}: accept or reject one proposal (fields ``number``, ``decision``, ``token``),
    as ``dianli align W --review --accept N`` / ``--reject N`` does; then back to the page."""
    from dianli.comparison.review import decide

    _witness(witness)
    if not _same_origin(request):
        return _refused(403, "this form was not sent from a page of this server")
    form = await _form(request)
    expected = gate(request).form_token(request)
    if expected is None or not hmac.compare_digest(form.get("token", "").encode(), expected.encode()):
        return _refused(403, "reviewing needs the review code: type it on the review page first")
    decision = form.get("decision", "")
    if decision not in DECISIONS:
        raise UnknownValueError("decision", decision, list(DECISIONS))
    try:
        number = int(form.get("number", ""))
    except ValueError:
        raise DianliError(
            f"proposal number {form.get('number', '')!r}; accepted: a number of the page"
        ) from None
    chosen = {number}
    await run_in_threadpool(
        decide, witness, chosen if decision == "accept" else set(), chosen if decision == "reject" else set()
    )
    done = "accepted" if decision == "accept" else "rejected"
    response = RedirectResponse(f"/review/{urllib.parse.quote(witness)}?done={done}", status_code=303)
    response.headers["Cache-Control"] = "no-store"
    return response


def install(app: FastAPI, code: str | None = None) -> None:
    """The review code (new unless given) and the two POST routes (the page itself is in the route table)."""
    from dianli.web.live import new_code

    app.state.review_gate = ReviewGate(code or new_code())
    app.add_api_route("/review/{witness}/sign-in", review_sign_in, methods=["POST"], include_in_schema=False)
    app.add_api_route("/review/{witness}", review_decide, methods=["POST"], include_in_schema=False)
