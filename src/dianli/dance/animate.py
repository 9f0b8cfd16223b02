"""The animation: one self-contained HTML file (inline SVG, CSS and JS; no network) of a danced movement.

Figures for the whole formation move through the parsed poses, one pose per sung character, on the
music's timeline (or the stated tempo); the panel shows the character, each rank's description, the
other witness's reading where it differs, the modern gloss and any asymmetry or emendation.
"""

from __future__ import annotations

import base64
import html
import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from dianli import cache
from dianli.dance.audio import Audio

if TYPE_CHECKING:
    from dianli.dance.notation import CharacterNotation, RankClause
    from dianli.dance.pose import FilePose
    from dianli.dance.timing import Timing

CACHE_NAME = "dance.animation_data"
"""The name of the animation's data in the on-disk cache (:func:`animation_data`)."""


def _template(name: str) -> str:
    return (resources.files("dianli.dance") / "data" / name).read_text(encoding="utf-8")


def _clauses_json(clauses: tuple[RankClause, ...]) -> list[dict[str, Any]]:
    from dianli.dance.vocabulary import vocabulary

    vocab = vocabulary()
    return [
        {
            "subject": c.subject.text,
            "tokens": [{"text": t.text, "gloss": vocab.phrase(t.phrase).gloss} for t in c.tokens],
        }
        for c in clauses
    ]


def _flags(note: CharacterNotation) -> list[dict[str, str]]:
    from dianli.dance.mirror import asymmetries

    flags: list[dict[str, str]] = []
    for asym in asymmetries():
        if (asym.movement, asym.index) != (note.movement, note.index):
            continue
        for r in asym.readings:
            for d in r.differences:
                flags.append(
                    {
                        "kind": "asymmetry",
                        "text": f"{r.witness}: 西班 {d.west}, mirror of 東班 expects {d.expected_west}",
                    }
                )
    for em in note.emendations:
        flags.append({"kind": "emendation", "text": f"emended: {em.reading} read as {em.read_as}"})
    return flags


def _other_char(other: str, char: str, witness: str, own: str) -> bool:
    """Whether another witness writes the sung character differently: any other form in a witness of
    the same script (羣 for 群), only another character on the folding key across scripts (覺 is 觉)."""
    from dianli.corpus.normalise import fold
    from dianli.corpus.witnesses import load_witness

    if load_witness(other).info.script == load_witness(witness).info.script:
        return char != own
    return fold(char) != fold(own)


def _poses_json(poses: dict[tuple[str, int], FilePose], files: int) -> tuple[dict[str, Any], dict[str, Any]]:
    by_rank: dict[str, Any] = {}
    named: dict[str, Any] = {}
    for rank in ("east", "west"):
        by_rank[rank] = [[p.as_json() for p in poses[(rank, n)].phases] for n in range(1, files + 1)]
        named[rank] = [poses[(rank, n)].named for n in range(1, files + 1)]
    return by_rank, named


def animation_data(
    movement_name: str, witness: str | None = None, timing: Timing | None = None
) -> dict[str, Any]:
    """Everything the page draws, as plain data (``witness`` defaults to :func:`dianli.dance.notation.
    default_dance_witness`). With the music's own timing (``timing`` None) it is made from the package's
    data alone, so it is kept in the on-disk cache (:mod:`dianli.cache`) under a key of every file of the
    package and of the extra witness folders, the libraries and the arguments: a booklet for a new place
    or year reuses its dances, and an edit of any file makes them again."""
    if timing is not None:
        return _animation_data(movement_name, witness, timing)
    entry = cache.installed_key(CACHE_NAME, movement_name, "" if witness is None else f"witness {witness}")
    return cache.pickled(cache.DERIVED, entry, lambda: _animation_data(movement_name, witness, None))


def _animation_data(movement_name: str, witness: str | None, timing: Timing | None) -> dict[str, Any]:
    from dianli.corpus.labels import witness_label
    from dianli.corpus.normalise import fold
    from dianli.corpus.witnesses import load_witness
    from dianli.dance.formation import formation
    from dianli.dance.gloss import gloss_witness, glosses
    from dianli.dance.notation import dance_witnesses, default_dance_witness, movement, parse_movement
    from dianli.dance.pose import character_poses, figure, rest_state
    from dianli.dance.schema import formation_data
    from dianli.dance.timing import character_timing
    from dianli.errors import UnknownValueError

    witness = witness if witness is not None else default_dance_witness()
    if witness not in dance_witnesses():
        raise UnknownValueError("dance witness", witness, dance_witnesses())
    mov = movement(movement_name)
    notes = parse_movement(witness, mov.id)
    others = {w: parse_movement(w, mov.id) for w in dance_witnesses() if w != witness}
    gloss = glosses(mov.id)
    timing = timing or character_timing(mov.id, len(notes))
    form = formation()
    previous: dict[tuple[str, int], FilePose] | None = None
    chars: list[dict[str, Any]] = []
    for k, note in enumerate(notes):
        poses = character_poses(note, form.files_per_rank, previous)
        previous = poses
        pose_json, named = _poses_json(poses, form.files_per_rank)
        other_readings = [
            {"witness": w, "title": witness_label(w), "text": f"{n[k].char}（{n[k].description}）"}
            for w, n in others.items()
            if fold(n[k].description) != fold(note.description)
            or _other_char(w, n[k].char, witness, note.char)
        ]
        start, end = timing.spans_s[k]
        chars.append(
            {
                "index": note.index,
                "char": note.char,
                "start": start,
                "end": end,
                "east": _clauses_json(note.rank("east")),
                "west": _clauses_json(note.rank("west")),
                "poses": pose_json,
                "named": named,
                "flags": _flags(note),
                "others": other_readings,
                "gloss": gloss[k].text if k < len(gloss) else "",
            }
        )
    info = load_witness(witness).info
    form_json = form.as_json()
    form_json["aisle_m"] = formation_data().spacing.aisle
    return {
        "movement": {"id": mov.id, "names": list(mov.names), "title": f"{mov.names[0]} · {mov.names[1]}"},
        "witness": {"id": witness, "title": info.title},
        "gloss_witness": {"id": gloss_witness(), "title": witness_label(gloss_witness())},
        "timing": {"source": timing.source, "assumption": timing.assumption, "total_s": timing.duration_s},
        "characters": chars,
        "formation": form_json,
        "figure": figure(),
        "rest": rest_state().as_json(),
    }


def _about(data: dict[str, Any]) -> str:
    items = [
        f"<p><b>Witness</b>: {html.escape(data['witness']['title'])}</p>"  # its title, not its id (#14)
    ]
    items.append(f"<p><b>Timing</b>: {html.escape(data['timing']['source'])}</p>")
    if data["timing"]["assumption"]:
        items.append(f"<p>assumption: {html.escape(data['timing']['assumption'])}</p>")
    form = data["formation"]
    items.append(
        f"<p><b>Formation</b>: {form['dancers']} dancers, {form['files_per_rank']} 班 × "
        f"{form['dancers_per_file']} in each of the two ranks.</p>"
    )
    items.extend(f"<p>assumption: {html.escape(a)}</p>" for a in form["assumptions"])
    items.append(f"<p>assumption: {html.escape(' '.join(str(data['figure']['assumption']).split()))}</p>")
    items.append(
        f"<p>assumption: {html.escape(' '.join(str(data['figure']['rest']['assumption']).split()))}</p>"
    )
    return "\n".join(items)


def render_html(
    movement_name: str,
    witness: str | None = None,
    timing: Timing | None = None,
    audio: Audio | None = None,
) -> str:
    """The self-contained HTML page of a movement's dance (``witness`` defaults as in :func:`animation_data`)."""
    data = animation_data(movement_name, witness, timing)
    title = f"佾舞 {data['movement']['title']}"
    subtitle = (
        f"{data['witness']['title']} · {len(data['characters'])} characters · {data['timing']['source']}"
    )
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    audio_html = ""
    if audio is not None:
        encoded = base64.b64encode(audio.data).decode("ascii")
        audio_html = f'<audio id="music" preload="auto" src="data:{audio.mime};base64,{encoded}"></audio>'
    page = _template("animate.html")
    for key, value in (
        ("__CSS__", _template("animate.css")),
        ("__JS__", _template("animate.js")),
        ("__TITLE__", html.escape(title)),
        ("__SUBTITLE__", html.escape(subtitle)),
        ("__ABOUT__", _about(data)),
        ("__AUDIO__", audio_html),
        ("__DATA__", payload),
    ):
        page = page.replace(key, value)
    return page
