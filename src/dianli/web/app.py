"""The web app: a declarative route table over small page functions, Jinja2 templates (autoescape on),
local static files. Bad parameters give a 4xx page saying what is accepted.

Caching: the program page (the booklet) is rendered once per ceremony and kept in an LRU cache
(:func:`dianli.web.pages.booklet_html`, keyed by canonical ids); the movements' audio is rendered once
per process (:func:`dianli.program.audio.movement_audio`); responses of both carry ``Cache-Control`` so a browser
keeps them too. In front of every route, :class:`dianli.web.responses.PageCache` keeps each successful
GET answer (the pages are pure functions of their URL) and gives HEAD, ETag/304, Range (206/416) and gzip;
a route whose answer must not be kept sends ``Cache-Control: no-store``.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from dianli import __version__
from dianli.corpus.witnesses import all_witnesses
from dianli.dance.animate import render_html as dance_html
from dianli.dance.audio import Audio as DanceAudio
from dianli.dance.mirror import asymmetries as dance_asymmetries
from dianli.dance.notation import movement as dance_movement
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError
from dianli.music.render import music_findings
from dianli.music.score import check_score_witness, movement_ids, movement_info
from dianli.places.places import default_place
from dianli.places.places import year_range as place_year_range
from dianli.program.audio import movement_audio as program_audio
from dianli.program.config import season_ids as program_seasons
from dianli.program.export import to_json as program_json
from dianli.program.html import APPENDICES as BOOKLET_APPENDICES
from dianli.program.html import environment as booklet_environment
from dianli.program.nofont import nofont_html
from dianli.rites.subscription import calendar_feed
from dianli.rites.years import FIRST_YEAR as RITE_FIRST_YEAR
from dianli.rites.years import LAST_YEAR as RITE_LAST_YEAR
from dianli.spring_ox.figure import FIRST_YEAR as SPRING_OX_FIRST_YEAR
from dianli.spring_ox.figure import LAST_YEAR as SPRING_OX_LAST_YEAR
from dianli.web import live, pages, review
from dianli.web.responses import PageCache

STATIC_DIR = Path(__file__).parent / "static"
CACHE_SECONDS = 3600
FIRST_YEAR, LAST_YEAR = RITE_FIRST_YEAR, RITE_LAST_YEAR
Handler = Callable[..., Awaitable[Response]]


def render(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    page = nofont_html(
        booklet_environment("dianli.web").get_template(name).render(version=__version__, **context)
    )
    return HTMLResponse(page, status_code=status)


def _year(year: int) -> int:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_YEAR}..{LAST_YEAR}")
    return year


def _season(season: str | None) -> str | None:
    if season and season not in program_seasons():
        raise UnknownValueError("season", season, program_seasons())
    return season or None


def _movement(name: str) -> str:
    if name not in movement_ids():
        raise UnknownValueError("movement", name, movement_ids())
    return name


# --- handlers ------------------------------------------------------------------------------------

YearQ = Query(1752, description=f"year {FIRST_YEAR}..{LAST_YEAR}")
PlaceQ = Query(None, description="place name or id (default: the provincial capital)")


def _place(place: str | None) -> str:
    """The place asked for, or the default place of the data (the provincial capital)."""
    return place if place else default_place().id


async def index() -> Response:
    return render("index.html")


async def rites() -> Response:
    return render("rites.html", first_year=FIRST_YEAR, last_year=LAST_YEAR, **pages.rites_list())


async def rite(
    rite: str, place: str | None = PlaceQ, year: int = YearQ, witness: str | None = None
) -> Response:
    ctx = pages.order_of_service(rite, _place(place), _year(year), witness or None)
    return render("rite.html", **ctx)


async def roles(
    rite: str, place: str | None = PlaceQ, year: int = YearQ, witness: str | None = None
) -> Response:
    ctx = pages.order_of_service(rite, _place(place), _year(year), witness or None)
    return render("roles.html", sheets=pages.cue_sheets(ctx["p"]), **ctx)


async def program(
    rite: str,
    place: str | None = PlaceQ,
    year: int = YearQ,
    season: str | None = None,
    witness: str | None = None,
    appendix: str = "full",
) -> Response:
    if appendix not in BOOKLET_APPENDICES:
        raise UnknownValueError("appendix", appendix, BOOKLET_APPENDICES)
    page = pages.booklet_html(rite, _place(place), _year(year), _season(season), witness or None, appendix)
    return HTMLResponse(page, headers={"Cache-Control": f"public, max-age={CACHE_SECONDS}"})


async def program_data(
    rite: str,
    place: str | None = PlaceQ,
    year: int = YearQ,
    season: str | None = None,
    witness: str | None = None,
) -> Response:
    model = pages.program_model(rite, _place(place), _year(year), _season(season), witness or None)
    return Response(program_json(model), media_type="application/json")


async def calendar(request: Request, place: str | None = PlaceQ, year: int = YearQ) -> Response:
    chosen = {
        k.removeprefix("day-"): v for k, v in request.query_params.items() if k.startswith("day-") and v
    }
    ctx = pages.calendar_rows(_place(place), _year(year), chosen)
    feeds = pages.calendar_feeds(str(request.base_url), _place(place), year, [r["rite"] for r in ctx["rows"]])
    return render("calendar.html", feeds=feeds, first_year=FIRST_YEAR, last_year=LAST_YEAR, **ctx)


async def calendar_json(place: str | None = PlaceQ, year: int = YearQ) -> Response:
    return Response(pages.calendar_json(_place(place), _year(year)), media_type="application/json")


async def calendar_ics(
    place: str | None = PlaceQ,
    year: int | None = Query(None, description=f"year {FIRST_YEAR}..{LAST_YEAR}; none: a subscription"),
    rite: str | None = Query(None, description="one rite (id or name); none: every rite"),
    practice: str | None = Query(None, description="a practice profile id"),
) -> Response:
    """One year's entries (a download), or without ``year`` a subscription: the years around today, so
    the same ``webcal://…/calendar.ics?place=…&rite=…`` URL keeps a phone's calendar current."""
    given = _year(year) if year is not None else None
    body, name = calendar_feed(_place(place), rite or None, practice or None, given)
    disposition = "attachment" if year is not None else "inline"
    return Response(
        body,
        media_type="text/calendar",
        headers={"Content-Disposition": f'{disposition}; filename="{name}"', "Cache-Control": "max-age=3600"},
    )


async def music_index() -> Response:
    movements = [pages.music_page(m)["info"] for m in movement_ids()]
    return render("music_index.html", movements=movements, findings=music_findings())


async def music(name: str, witness: str | None = None) -> Response:
    return render("music.html", **pages.music_page(name, witness or None))


async def music_audio(name: str, witness: str | None = None) -> Response:
    read = check_score_witness(witness or None)  # an unknown witness is refused before a render starts
    audio = await run_in_threadpool(program_audio, _movement(name), witness=read)  # not on the loop
    return Response(
        audio.data, media_type=audio.mime, headers={"Cache-Control": f"public, max-age={CACHE_SECONDS}"}
    )


async def figures_js() -> Response:
    """The script that keeps figures legible and reachable (one file with the booklet's, which inlines it)."""
    text = resources.files("dianli.program").joinpath("templates", "figures.js").read_text(encoding="utf-8")
    return Response(
        text, media_type="text/javascript", headers={"Cache-Control": f"public, max-age={CACHE_SECONDS}"}
    )


async def dance(name: str) -> Response:
    mov = dance_movement(name)  # by id or name; a sung but undanced movement is a 400 saying so
    audio = await run_in_threadpool(program_audio, mov.id)
    page = dance_html(mov.id, audio=DanceAudio(audio.mime, audio.data))
    danced = [m for m in movement_ids() if movement_info(m).danced]
    return render("dance.html", movement_id=mov.id, srcdoc=page, items=dance_asymmetries(), danced=danced)


async def spring_ox_view(
    year: int = Query(1752, description=f"year {SPRING_OX_FIRST_YEAR}..{SPRING_OX_LAST_YEAR}"),
    place: str | None = None,
    rule: str | None = None,
) -> Response:
    return render(
        "spring_ox.html", **pages.spring_ox_page(year, place or None, rule or None)
    )  # range: spring_ox


ALIGN_CLASSES = ("same", "variant", "new", "missing")


async def align_view(witness: str, show: str | None = None) -> Response:
    if show and show not in ALIGN_CLASSES:
        raise UnknownValueError("show", show, ALIGN_CLASSES)
    data = await run_in_threadpool(pages.alignment_page, witness)  # seconds on a first call: off the loop
    return render("align.html", data=data, show=show or None)


async def export_view() -> Response:
    return render("export.html", **pages.export_page())


async def export_zip() -> Response:
    data = await run_in_threadpool(pages.export_zip)  # some 20 s on a first call, then cached: off the loop
    headers = {
        "Content-Disposition": 'attachment; filename="dianli-datapackage.zip"',
        "Cache-Control": f"public, max-age={CACHE_SECONDS}",
    }
    return Response(data, media_type="application/zip", headers=headers)


async def timeline_view(
    place: str | None = None,
    witness: str | None = None,
    from_year: int | None = Query(None, alias="from"),
    until_year: int | None = Query(None, alias="until"),
    explicit: bool = False,
    rite: str | None = None,
) -> Response:
    data = await run_in_threadpool(
        pages.timeline_page, place or None, witness or None, from_year, until_year, explicit, rite or None
    )
    return render("timeline.html", **data)


async def variants_view() -> Response:
    data = await run_in_threadpool(pages.variants_index)  # seconds on a first call: off the loop
    return render("variants.html", **data)


async def variants_ranked_view(kind: str | None = None) -> Response:
    data = await run_in_threadpool(pages.variants_ranked, kind or None)
    return render("variants_ranked.html", **data)


async def variants_changes_view(boundary: int | None = Query(None, ge=1000, le=1911)) -> Response:
    data = await run_in_threadpool(pages.variants_changes, boundary)
    return render("variants_changes.html", **data)


async def variant_view(rule: str, year: int | None = None) -> Response:
    data = await run_in_threadpool(pages.variant_page, rule, year)
    return render("variant.html", **data)


async def collate_view(rite: str, section: str | None = None, base: str | None = None) -> Response:
    data = await run_in_threadpool(pages.collation_page, rite, section or None, base or None)
    return render("collate.html", **data)


async def collate_tei(rite: str, section: str | None = None, base: str | None = None) -> Response:
    text = await run_in_threadpool(pages.collation_export, rite, section or None, base or None, "tei")
    return Response(text, media_type="application/tei+xml; charset=utf-8")


async def collate_json(rite: str, section: str | None = None, base: str | None = None) -> Response:
    text = await run_in_threadpool(pages.collation_export, rite, section or None, base or None, "json")
    return Response(text, media_type="application/json")


async def witnesses() -> Response:
    return render("witnesses.html", witnesses=all_witnesses())


async def witness(witness: str) -> Response:
    return render("witness.html", **pages.witness_page(witness))


async def section(witness: str, section: str) -> Response:
    return render("section.html", **pages.section_page(witness, section))


async def search_view(q: str = "", witness: str | None = None) -> Response:
    return render("search.html", **pages.search_page(q, witness or None))


async def places(year: int | None = None) -> Response:
    return render("places.html", **pages.places_page(year))  # the places' own range (1644..1911)


async def sources_view(kind: str | None = None, weak: bool = False) -> Response:
    return render("sources.html", **pages.sources_page(kind or None, weak))


@dataclass(frozen=True)
class Route:
    path: str
    handler: Handler
    name: str
    title: str


ROUTES: tuple[Route, ...] = (
    Route("/", index, "index", "dianli"),
    Route("/rites", rites, "rites", "rites"),
    Route("/rites/{rite}", rite, "rite", "order of service"),
    Route("/rites/{rite}/roles", roles, "roles", "cue sheets by role"),
    Route("/program/{rite}", program, "program", "program booklet"),
    Route("/program/{rite}/data.json", program_data, "program_json", "program as JSON"),
    Route("/calendar", calendar, "calendar", "calendar"),
    Route("/calendar.json", calendar_json, "calendar_json", "calendar as JSON"),
    Route("/calendar.ics", calendar_ics, "calendar_ics", "calendar as iCalendar"),
    Route("/music", music_index, "music_index", "music"),
    Route("/music/{name}", music, "music", "a movement"),
    Route("/music/{name}/audio.ogg", music_audio, "music_audio", "a movement's audio"),
    Route("/dance/{name}", dance, "dance", "a danced movement"),
    Route("/spring-ox", spring_ox_view, "spring_ox", "spring ox"),
    Route("/witnesses", witnesses, "witnesses", "witnesses"),
    Route("/witnesses/{witness}", witness, "witness", "a witness"),
    Route("/witnesses/{witness}/{section}", section, "section", "a section"),
    Route("/search", search_view, "search", "search"),
    Route("/places", places, "places", "places"),
    Route("/sources", sources_view, "sources", "outside sources, graded: what each supports and where"),
    Route("/align/{witness}", align_view, "align", "a witness aligned to the model"),
    Route("/export", export_view, "export", "the model as open data"),
    Route("/export/datapackage.zip", export_zip, "export_zip", "the data package (CSV) as a zip"),
    Route("/timeline", timeline_view, "timeline", "dated events on a timeline"),
    Route("/variants", variants_view, "variants", "rules read differently across the corpus"),
    Route(
        "/variants/ranked",
        variants_ranked_view,
        "variants_ranked",
        "the rules ranked by how much the witnesses contradict each other",
    ),
    Route(
        "/variants/changes",
        variants_changes_view,
        "variants_changes",
        "what changed at the Qing's start (or another year): values, rites dropped and added",
    ),
    Route("/variants/{rule}", variant_view, "variant", "one rule: its readings, timeline and map"),
    Route(
        "/review/{witness}",
        review.review_view,
        "review",
        "a drafted witness's proposals, to accept or reject",
    ),
    Route("/collate/{rite}.xml", collate_tei, "collate_tei", "a collation as TEI P5"),
    Route("/collate/{rite}.json", collate_json, "collate_json", "a collation as CollateX JSON"),
    Route("/collate/{rite}", collate_view, "collate", "the witnesses of a section side by side"),
    Route("/figures.js", figures_js, "figures_js", "the script that keeps figures legible on a phone"),
    Route("/live/", live.live_index, "live_index", "run sheets opened on this device"),
    Route("/live/sw.js", live.service_worker, "live_sw", "the run sheet's service worker"),
    Route(
        "/live/manifest.webmanifest", live.manifest, "live_manifest", "the run sheet as an installable app"
    ),
    Route("/live/icon.svg", live.icon, "live_icon", "the run sheet's icon"),
    Route("/live/{rite}", live.live_view, "live", "a ceremony's live run sheet (conduct, follow, rehearse)"),
)


# --- errors --------------------------------------------------------------------------------------


def _accepted(exc: DianliError) -> list[str]:
    accepted = getattr(exc, "accepted", None)
    if accepted is None:
        valid = getattr(exc, "valid", None)
        return [str(valid)] if valid is not None else []
    return [str(a) for a in accepted][:80]


def _without_server_paths(message: str) -> str:
    """``message`` with the server's own folders left out: a path inside the package or a witness folder is
    written from that folder down (``fixture/a.txt``), the folder itself as words — a reader of the page
    learns what was wrong, not where the server keeps its files."""
    from dianli.corpus.witnesses import witness_roots

    roots = sorted({str(r) for r in witness_roots()} | {str(Path(__file__).resolve().parents[1])}, key=len)
    for root in reversed(roots):
        message = message.replace(root + os.sep, "").replace(root, "the witness folders")
    home = str(Path.home())
    return message.replace(home + os.sep, "~" + os.sep) if len(home) > 1 else message


async def dianli_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, DianliError)
    return render("error.html", status=400, message=_without_server_paths(str(exc)), accepted=_accepted(exc))


async def validation_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    problems = [f"{'.'.join(str(p) for p in e['loc'][1:])}: {e['msg']}" for e in exc.errors()]
    place_first, place_last = place_year_range()
    return render(
        "error.html",
        status=422,
        message="; ".join(problems),
        accepted=[
            f"year: an integer {FIRST_YEAR}..{LAST_YEAR} (rites, programs, calendars; "
            f"{place_first}..{place_last} for /places)",
            "place: a place name or id (see /places)",
        ],
    )


async def http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    accepted = [r.path for r in ROUTES] if exc.status_code == 404 else []
    return render("error.html", status=exc.status_code, message=str(exc.detail), accepted=accepted)


async def favicon() -> Response:
    """The site's icon (static/favicon.svg, drawn by hand: a red seal with a 豆 vessel)."""
    body = (STATIC_DIR / "favicon.svg").read_bytes()
    headers = {"Cache-Control": f"public, max-age={CACHE_SECONDS}"}
    return Response(body, media_type="image/svg+xml", headers=headers)


async def favicon_ico() -> Response:
    return RedirectResponse("/favicon.svg", status_code=301)


def create_app(live_state: Path | None = None) -> FastAPI:
    """The app; ``live_state`` a file keeping the live run sheets' state across restarts (else memory)."""
    app = FastAPI(title="dianli", version=__version__, docs_url=None, redoc_url=None, openapi_url=None)
    for route in ROUTES:
        app.add_api_route(
            route.path, route.handler, name=route.name, methods=["GET"], response_class=Response
        )
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_api_route("/favicon.svg", favicon, methods=["GET"], include_in_schema=False)
    app.add_api_route("/favicon.ico", favicon_ico, methods=["GET"], include_in_schema=False)
    app.add_middleware(PageCache)  # HEAD, ETag/304, Range, gzip: every GET answered from memory once made
    app.add_exception_handler(DianliError, dianli_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    live.install(app, live_state)
    review.install(app)
    return app


app = create_app()
__all__ = ["ROUTES", "Route", "app", "create_app"]
