"""``dianli serve``: the web app on a local address (uvicorn)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import socket
import sys
import tempfile
from pathlib import Path

import typer

from dianli.cli.common import run_guarded
from dianli.errors import DianliError, OutputPathError


def _check_state_file(path: Path) -> None:
    """Fail before serving when the live state file could not be written (its folder missing, read-only)."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputPathError(path, FileNotFoundError(f"no folder {folder}"))
    try:  # a probe of a name no other file has: nothing of the user's is written over or removed
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        raise OutputPathError(path, exc) from exc


def _check_tls(certfile: str | None, keyfile: str | None) -> None:
    """Fail before serving (before the address is printed) when the certificate or its key is missing,
    unreadable, or not a certificate and key that go together: what uvicorn would find only on start."""
    import ssl

    if keyfile is not None and certfile is None:
        raise DianliError(
            f"--ssl-keyfile {keyfile} without --ssl-certfile; accepted: both, or --ssl-certfile alone "
            "(a PEM file holding the certificate and its key)"
        )
    if certfile is None:
        return
    for option, path in (("--ssl-certfile", certfile), ("--ssl-keyfile", keyfile)):
        if path is not None and not Path(path).is_file():
            raise DianliError(f"{option} {path}: no such file; accepted: a PEM file that exists")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError, ValueError) as exc:
        given = f"--ssl-certfile {certfile}" + (f" --ssl-keyfile {keyfile}" if keyfile else "")
        reason = exc.reason if isinstance(exc, ssl.SSLError) and exc.reason else None
        why = f" ({reason.replace('_', ' ').lower()})" if reason and reason != "PEM lib" else ""
        raise DianliError(
            f"{given}: cannot be loaded as a certificate with its private key{why}; accepted: PEM files, e.g. "
            "made by mkcert or openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem"
        ) from exc


@run_guarded
def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="address to listen on (0.0.0.0: every device on the local network)"
    ),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="port"),
    live_state: str | None = typer.Option(
        None,
        "--live-state",
        help="keep the live run sheets' state (step, conductor, history of each ceremony) in this JSON file, "
        "so a restart loses nothing; without it the state is in memory only",
    ),
    ssl_certfile: str | None = typer.Option(
        None,
        "--ssl-certfile",
        help="serve HTTPS with this certificate (phones install the run sheet only over HTTPS)",
    ),
    ssl_keyfile: str | None = typer.Option(None, "--ssl-keyfile", help="the certificate's private key"),
) -> None:
    """Serve every page of dianli: rites, calendar, program, music, dance, spring ox, witnesses, places,
    and the live run sheets (/live/RITE) that keep every device of a ceremony in step."""
    import uvicorn

    from dianli.web import live
    from dianli.web.app import create_app

    _check_tls(ssl_certfile, ssl_keyfile)
    state = Path(live_state) if live_state else None
    if state is not None:
        _check_state_file(state)
    app = create_app(state)  # reads the state file now: a bad one is an error before serving
    if importlib.util.find_spec("websockets") is None and importlib.util.find_spec("wsproto") is None:
        typer.echo(
            "dianli: warning: no WebSocket library (pip install websockets): live sheets will not sync",
            err=True,
        )
    scheme = "https" if ssl_certfile else "http"
    typer.echo(f"dianli: {scheme}://{host}:{port}/")
    if live_state is not None:
        typer.echo(f"dianli: live run sheets keep their state in {live_state}")
    _conduct_code(app.state.live_hub.code, f"{scheme}://{_reachable(host)}:{port}/live/")
    typer.echo(
        f"dianli: review code for the drafted readings (/review/WITNESS): {app.state.review_gate.code}"
    )
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ssl_certfile=ssl_certfile,
        ssl_keyfile=ssl_keyfile,
        ws_max_size=live.FRAME_LIMIT,
    )


def _reachable(host: str) -> str:
    """The address phones reach: for 0.0.0.0 or ::, this machine's address on its local network (the
    interface a packet would leave by; nothing is sent)."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    return "127.0.0.1"


def _conduct_code(code: str, start: str) -> None:
    """The code that lets a phone conduct a live sheet, and (on a terminal) a QR code of the start page
    carrying it: a phone that scans it opens the run sheets and conducts the ceremony it opens."""
    typer.echo(f"dianli: conduct code for the live run sheets: {code}")
    typer.echo(
        f"dianli: on the phone that conducts, scan the QR code or open\n        {start} and enter the code"
    )
    if sys.stdout.isatty():
        import segno

        segno.make(f"{start}#code={code}", error="m").terminal(compact=True)


def register(app: typer.Typer) -> None:
    app.command("serve", help="Serve the web app (FastAPI) on a local address.")(serve)
