"""The booklet: a self-contained HTML file of one program (Jinja2, autoescape on; CSS and JS inline).

Audio is embedded as base64 data URIs (``audio``) or, for the web app, linked by URL (``audio_url``);
danced movements embed the dance animation (an ``iframe`` with ``srcdoc``) carrying their audio.
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Callable, Iterator, Mapping

from jinja2 import ChoiceLoader, Environment, PackageLoader, select_autoescape

from dianli.corpus.sources import sources_mentioned
from dianli.corpus.supplied import supply_value
from dianli.corpus.witnesses import witness_ids
from dianli.dance.animate import render_html as dance_html
from dianli.dance.audio import Audio as DanceAudio
from dianli.errors import DianliError, UnknownValueError
from dianli.program.audio import MovementAudio
from dianli.program.labels import FILTERS as LABEL_FILTERS
from dianli.program.model import Program
from dianli.rites.model import MUSIC_ACTION_NAMES

AudioUrl = Callable[[str], str]
_DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]*")
"""Embedded audio in a dance page: no source is named in it, so it is not scanned for one."""
APPENDICES = ("full", "compact", "none")
"""How the booklet ends: every witness passage in context, every passage quoted alone, or none."""


@functools.cache
def environment(*extra_packages: str) -> Environment:
    """The Jinja2 environment: the program's templates (and those of ``extra_packages`` first)."""
    loaders = [PackageLoader(p, "templates") for p in extra_packages]
    loaders.append(PackageLoader("dianli.program", "templates"))
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=supply_value,  # never a private-use code point: a supplied character in 〔〕
    )
    env.filters["seconds"] = lambda s: f"{int(s) // 60}:{int(s) % 60:02d}"
    # a reader sees names, never ids (#14): a witness by its short title, a section by its heading
    env.filters.update(LABEL_FILTERS)
    return env


def data_uri(audio: MovementAudio) -> str:
    return f"data:{audio.mime};base64,{base64.b64encode(audio.data).decode('ascii')}"


def dance_srcdoc(movement: str, audio: MovementAudio | None) -> str | None:
    """The dance animation of a danced movement as a standalone page, or None if it cannot be drawn."""
    try:
        return dance_html(movement, audio=DanceAudio(audio.mime, audio.data) if audio else None)
    except DianliError:
        return None


def _edition_query(program: Program) -> list[tuple[str, str]]:
    """The query that serves this booklet again (the web app's program page), but for the edition."""
    query = [("place", program.place.name), ("year", str(program.year))]
    if program.season:
        query.append(("season", program.season))
    if program.witness != program.governing_witness:
        query.append(("witness", program.witness))
    return query


def booklet_context(
    program: Program,
    audio: Mapping[str, MovementAudio] | None = None,
    audio_url: AudioUrl | None = None,
    dance: bool = True,
    appendix: str = "full",
) -> dict[str, object]:
    """Everything the booklet template shows, derived from the program; ``appendix`` is one of
    :data:`APPENDICES`."""
    if appendix not in APPENDICES:
        raise UnknownValueError("appendix", appendix, APPENDICES)
    sources: dict[str, str] = {}
    dances: dict[str, str] = {}
    for cue in program.music:
        found = (audio or {}).get(cue.movement)
        if found is not None:
            sources[cue.movement] = data_uri(found)
        elif audio_url is not None:
            sources[cue.movement] = audio_url(cue.movement)
        if dance and cue.danced:
            doc = dance_srcdoc(cue.movement, found)
            if doc is not None:
                dances[cue.movement] = doc
    numbers = {p.id: p.id[1:] for p in program.passages}
    return {
        "p": program,
        "audio_src": sources,
        "dances": dances,
        "numbers": numbers,
        "passages": {p.id: p for p in program.passages},
        "witnesses": witness_ids(),
        "outside_sources": sources_mentioned(
            program.model_dump_json() + _DATA_URI.sub("", "".join(dances.values()))
        ),
        "music_names": {c.movement: f"{c.name} {c.tune}" for c in program.music},
        "music_actions": MUSIC_ACTION_NAMES,
        "appendix": appendix,
        "appendices": APPENDICES,
        "edition_choice": audio_url is not None,  # served: the page offers the other editions
        "edition_query": _edition_query(program),
    }


def render_booklet(
    program: Program,
    audio: Mapping[str, MovementAudio] | None = None,
    audio_url: AudioUrl | None = None,
    dance: bool = True,
    appendix: str = "full",
) -> str:
    """The booklet as one HTML document. ``appendix``: the witness passages quoted in context (``full``;
    printed compact all the same), quoted alone in columns (``compact``), or left out (``none``)."""
    return "".join(booklet_chunks(program, audio, audio_url, dance, appendix))


def booklet_chunks(
    program: Program,
    audio: Mapping[str, MovementAudio] | None = None,
    audio_url: AudioUrl | None = None,
    dance: bool = True,
    appendix: str = "full",
) -> Iterator[str]:
    """The booklet as :func:`render_booklet` makes it, piece by piece (to write a booklet with its audio
    without holding the whole text in memory)."""
    context = booklet_context(program, audio, audio_url, dance, appendix)
    return environment().get_template("booklet.html").generate(context)
