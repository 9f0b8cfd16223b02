"""The booklet: a self-contained HTML file of one program (Jinja2, autoescape on; CSS and JS inline).

Audio is embedded as base64 data URIs (``audio``) or, for the web app, linked by URL (``audio_url``);
danced movements embed the dance animation (an ``iframe`` with ``srcdoc``) carrying their audio.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable, Mapping

from jinja2 import ChoiceLoader, Environment, PackageLoader, select_autoescape

from dianli.corpus.sources import sources_mentioned
from dianli.corpus.supplied import supply_value
from dianli.corpus.witnesses import witness_ids
from dianli.dance.animate import render_html as dance_html
from dianli.dance.audio import Audio as DanceAudio
from dianli.errors import DianliError
from dianli.program.audio import MovementAudio
from dianli.program.model import Program
from dianli.rites.model import MUSIC_ACTION_NAMES

AudioUrl = Callable[[str], str]


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
    return env


def data_uri(audio: MovementAudio) -> str:
    return f"data:{audio.mime};base64,{base64.b64encode(audio.data).decode('ascii')}"


def dance_srcdoc(movement: str, audio: MovementAudio | None) -> str | None:
    """The dance animation of a danced movement as a standalone page, or None if it cannot be drawn."""
    try:
        return dance_html(movement, audio=DanceAudio(audio.mime, audio.data) if audio else None)
    except DianliError:
        return None


def booklet_context(
    program: Program,
    audio: Mapping[str, MovementAudio] | None = None,
    audio_url: AudioUrl | None = None,
    dance: bool = True,
) -> dict[str, object]:
    """Everything the booklet template shows, derived from the program."""
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
        "outside_sources": sources_mentioned(program.model_dump_json() + "".join(dances.values())),
        "music_names": {c.movement: f"{c.name} {c.tune}" for c in program.music},
        "music_actions": MUSIC_ACTION_NAMES,
    }


def render_booklet(
    program: Program,
    audio: Mapping[str, MovementAudio] | None = None,
    audio_url: AudioUrl | None = None,
    dance: bool = True,
) -> str:
    """The booklet as one HTML document."""
    return (
        environment().get_template("booklet.html").render(booklet_context(program, audio, audio_url, dance))
    )
