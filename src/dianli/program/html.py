"""The booklet: a self-contained HTML file of one program (Jinja2, autoescape on; CSS and JS inline).

Audio is embedded as base64 data URIs (``audio``) or, for the web app, linked by URL (``audio_url``);
danced movements embed the dance animation (an ``iframe`` with ``srcdoc``) carrying their audio.
"""

from __future__ import annotations

import base64
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING
from urllib.parse import unquote

from jinja2 import BytecodeCache, ChoiceLoader, Environment, PackageLoader, select_autoescape
from jinja2.bccache import Bucket
from markupsafe import Markup, escape

from dianli import cache
from dianli.corpus.sources import OutsideSource, outside_sources, sources_mentioned
from dianli.corpus.supplied import supply, supply_value
from dianli.corpus.witnesses import witness_ids
from dianli.errors import DianliError, UnknownValueError
from dianli.program.labels import FILTERS as LABEL_FILTERS
from dianli.program.model import Program
from dianli.program.nofont import NoFont
from dianli.rites.model import MUSIC_ACTION_NAMES

if TYPE_CHECKING:
    from dianli.program.audio import MovementAudio

AudioUrl = Callable[[str], str]
_DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]*")
"""Embedded audio in a dance page: no source is named in it, so it is not scanned for one."""
APPENDICES = ("full", "compact", "none")
"""How the booklet ends: every witness passage in context, every passage quoted alone, or none."""
CHUNK_PIECES = 2048
"""How many of the template's pieces :func:`booklet_chunks` joins into one."""
LARGE_PIECE = 4096
"""A piece of the template this long or longer is a chunk of :func:`booklet_chunks` of its own."""
DANCE_CACHE_NAME = "program.html.dance_page"
"""The name of a movement's dance page (without audio) in the on-disk cache (:func:`dance_srcdoc`)."""
BYTECODE_KIND = "jinja"
"""The folder of the on-disk cache holding compiled templates (:class:`TemplateCode`)."""


class TemplateCode(BytecodeCache):
    """Compiled templates kept in the on-disk cache (:mod:`dianli.cache`), so that a booklet for a new
    place or year does not compile its templates again. The key names the template (its name and file),
    the checksum of its source, whether its environment has a ``finalize`` (compiled into the code), and —
    through :func:`dianli.cache.installed_key` — every file of the package (the templates and the code
    that sets up the environment), the Python version and the versions of Jinja2 and MarkupSafe: an entry
    is never stale. A damaged entry is compiled again."""

    def key_of(self, bucket: Bucket) -> str:
        finalize = "finalize" if bucket.environment.finalize is not None else "no finalize"
        return cache.installed_key(
            "program.html.template_code",
            cache.versions("Jinja2", "MarkupSafe"),
            bucket.key,
            bucket.checksum,
            finalize,
        )

    def load_bytecode(self, bucket: Bucket) -> None:
        data = cache.read(BYTECODE_KIND, self.key_of(bucket), ".code")
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # a damaged entry: the template is compiled again and the entry replaced
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        cache.write_checked(BYTECODE_KIND, self.key_of(bucket), bucket.bytecode_to_string(), ".code")


def _supplied(value: object) -> object:
    """:func:`dianli.corpus.supplied.supply_value`, at once for ASCII text (the embedded audio: megabytes
    in which no private-use code point can be)."""
    if isinstance(value, str) and value.isascii():
        return value
    return supply_value(value)


def cite_links(ids: Iterable[str], numbers: Mapping[str, object], prefix: str = "") -> Markup:
    """The links of citations to their witness passages (``[12]``), as the ``cites`` macro of
    macros.html writes them: one Python call for a list of links instead of a macro call and four
    escaped values for each (the booklet has over a thousand); an id without a number gets none, as
    an undefined value in the template. Not supplied here: the output of the expression is."""
    before = _escaped(prefix)
    out = []
    for c in ids:
        number = _escaped(numbers.get(c, ""))
        out.append(
            f'<a class="cite" href="{before}#{_escaped(c)}" title="witness passage {number}">[{number}]</a>'
        )
    return Markup("".join(out))


def _escaped(value: object) -> str:
    """:func:`markupsafe.escape` of ``value`` as a string: at once for letters and digits (a citation's
    id and number), where there is nothing to escape."""
    if type(value) is str and value.isalnum():
        return value
    return str(escape(value))


@functools.cache
def environment(*extra_packages: str, finalize: bool = True) -> Environment:
    """The Jinja2 environment: the program's templates (and those of ``extra_packages`` first), their
    compiled code kept on disk (:class:`TemplateCode`). Every value written goes through
    :func:`dianli.corpus.supplied.supply_value` (a ``finalize``), unless ``finalize`` is False: then the
    caller supplies the output (as :func:`booklet_chunks` does, a chunk at a time, rather than twenty
    thousand values one by one; the same text, since the templates hold no private-use code point and
    escaping neither makes nor changes one)."""
    loaders = [PackageLoader(p, "templates") for p in extra_packages]
    loaders.append(PackageLoader("dianli.program", "templates"))
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        # never a private-use code point: a supplied character in 〔〕
        finalize=_supplied if finalize else None,
        bytecode_cache=TemplateCode(),
    )
    env.filters["seconds"] = lambda s: f"{int(s) // 60}:{int(s) % 60:02d}"
    env.filters["cite_links"] = cite_links
    # a reader sees names, never ids (#14): a witness by its short title, a section by its heading
    env.filters.update(LABEL_FILTERS)
    return env


def data_uri(audio: MovementAudio) -> str:
    return f"data:{audio.mime};base64,{base64.b64encode(audio.data).decode('ascii')}"


def dance_srcdoc(movement: str, audio: MovementAudio | None) -> str | None:
    """The dance animation of a danced movement as a standalone page, or None if it cannot be drawn.
    Without audio the page is made from the package's data alone, so it is kept in the on-disk cache
    (:mod:`dianli.cache`) under :func:`dianli.cache.installed_key` of the movement: a booklet for another
    place or year reads the pages of the dances an earlier booklet drew."""
    if audio is not None:
        return _dance_page(movement, audio)
    found = _silent_dance(movement)
    return None if found is None else found[0]


def _silent_dance(movement: str) -> tuple[str, tuple[str, ...]] | None:
    """A movement's dance page without audio and the ids of the outside sources it names (its
    :func:`dianli.corpus.sources.sources_mentioned`, embedded data left out as :func:`booklet_context`
    leaves it out), kept in the on-disk cache under :func:`dianli.cache.installed_key` of the movement;
    None if the dance cannot be drawn."""

    def make() -> tuple[str, tuple[str, ...]] | None:
        page = _dance_page(movement, None)
        if page is None:
            return None
        return page, tuple(s.id for s in sources_mentioned(_DATA_URI.sub("", page)))

    return cache.pickled(cache.DERIVED, cache.installed_key(DANCE_CACHE_NAME, movement), make)


def _dance_page(movement: str, audio: MovementAudio | None) -> str | None:
    from dianli.dance.animate import render_html as dance_html  # its data is cached: imported when drawn
    from dianli.dance.audio import Audio as DanceAudio

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


@functools.cache
def _needles() -> tuple[str, ...]:
    """Every mention and address :func:`mentioned` must not find cut at a seam (addresses as written
    and unquoted)."""
    needles = [f"dianli sources {s.id}`" for s in outside_sources().values()]
    needles += [form for s in outside_sources().values() for a in s.addresses for form in (a, unquote(a))]
    return tuple(needles)


def mentioned(
    parts: list[str], known: Mapping[int, tuple[OutsideSource, ...]] | None = None
) -> tuple[OutsideSource, ...]:
    """:func:`dianli.corpus.sources.sources_mentioned` of the text ``"".join(parts)``, found part by part:
    the same sources, without unquoting the whole (the program's Chinese with the dances' CSS, whose
    ``%`` makes :func:`urllib.parse.unquote` split all of it: a tenth of a second). The same, because a
    part that does not end in ``%`` or a hex digit does not end inside a ``%XX`` escape, so the unquoted
    whole is the parts unquoted, and a mention or address found in the whole but in no part would run
    across two parts: it would hold the characters where they meet (the last of one, the first of the
    next, raw or unquoted). Where a mention or an address holds such a pair, the whole is searched.
    ``known`` gives the sources of some parts, by their index in ``parts`` (a cached dance page's): those
    parts are not searched again."""
    known = known or {}
    indexed = [(i, p) for i, p in enumerate(parts) if p]
    texts = [p for _, p in indexed]
    seams = {a[-1] + b[0] for a, b in itertools.pairwise(texts)}
    seams |= {a[-1] + unquote(b[:12])[:1] for a, b in itertools.pairwise(texts)}  # %XX×4: one character
    if any(t[-1] in "%0123456789abcdefABCDEF" for t in texts[:-1]) or any(
        seam in n for seam in seams for n in _needles()
    ):
        return sources_mentioned("".join(texts))
    found = {s.id: s for i, t in indexed for s in (known[i] if i in known else sources_mentioned(t))}
    return tuple(sorted(found.values(), key=lambda s: (s.kind.rank, s.weak, s.id)))


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
    named: dict[str, tuple[str, ...]] = {}  # a dance page read from the cache → the sources it names
    for cue in program.music:
        found = (audio or {}).get(cue.movement)
        if found is not None:
            sources[cue.movement] = data_uri(found)
        elif audio_url is not None:
            sources[cue.movement] = audio_url(cue.movement)
        if not (dance and cue.danced):
            continue
        if found is not None:
            doc = dance_srcdoc(cue.movement, found)
            if doc is not None:
                dances[cue.movement] = doc
        elif (silent := _silent_dance(cue.movement)) is not None:  # dance_srcdoc's page and its sources
            dances[cue.movement], named[cue.movement] = silent
    registry = outside_sources()
    known = {i: tuple(registry[s] for s in named[m]) for i, m in enumerate(dances, 1) if m in named}
    numbers = {p.id: p.id[1:] for p in program.passages}
    return {
        "p": program,
        "audio_src": sources,
        "dances": dances,
        "numbers": numbers,
        "passages": {p.id: p for p in program.passages},
        "witnesses": witness_ids(),
        "outside_sources": mentioned(
            [program.model_dump_json(), *(_DATA_URI.sub("", d) for d in dances.values())], known
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
    without holding the whole text in memory): the template's pieces joined :data:`CHUNK_PIECES` at a
    time, an embedded page or audio alone, each supplied (:func:`dianli.corpus.supplied.supply`)."""
    context = booklet_context(program, audio, audio_url, dance, appendix)
    return _supplied_chunks(environment(finalize=False).get_template("booklet.html").generate(context))


def _supplied_chunks(pieces: Iterable[str]) -> Iterator[str]:
    """``pieces`` joined :data:`CHUNK_PIECES` at a time, a piece of :data:`LARGE_PIECE` characters or
    more alone (an embedded page or audio: never copied, nor held with the next), every private-use
    code point supplied: the text of the pieces, supplied as :func:`environment`'s ``finalize`` would
    supply it value by value, in fewer strings (the template writes some thirty thousand)."""
    held: list[str] = []
    drawn = NoFont()  # a character no shipped font draws: shown by its components (issue 27)
    for piece in pieces:
        if len(piece) >= LARGE_PIECE:
            if held:
                yield drawn.html(_supplied_text("".join(held)))
                held = []
            yield drawn.html(_supplied_text(piece))
            continue
        held.append(piece)
        if len(held) == CHUNK_PIECES:
            yield drawn.html(_supplied_text("".join(held)))
            held = []
    if held:
        yield drawn.html(_supplied_text("".join(held)))


def _supplied_text(text: str) -> str:
    """:func:`dianli.corpus.supplied.supply`, at once for ASCII text (where no private-use code point is)."""
    return text if text.isascii() else supply(text)
