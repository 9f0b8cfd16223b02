"""``dianli serve``: the web app on a local address (uvicorn)."""

from __future__ import annotations

import typer

from dianli.cli.common import run_guarded


@run_guarded
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="port"),
) -> None:
    """Serve every page of dianli: rites, calendar, program, music, dance, spring ox, witnesses, places."""
    import uvicorn

    typer.echo(f"dianli: http://{host}:{port}/")
    uvicorn.run("dianli.web.app:app", host=host, port=port, log_level="warning")


def register(app: typer.Typer) -> None:
    app.command("serve", help="Serve the web app (FastAPI) on a local address.")(serve)
