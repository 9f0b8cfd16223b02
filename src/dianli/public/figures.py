"""``dianli.spring_ox`` and ``dianli.music``: the spring ox and Mang god of a year, and a movement of the
大成樂 as score, MusicXML and sound."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import TYPE_CHECKING

from dianli.provenance import stamp_markup
from dianli.public.table import Row, Table

if TYPE_CHECKING:
    import pandas

    from dianli.music.score import Movement
    from dianli.spring_ox.figure import SpringOx
    from dianli.spring_ox.profiles import Evidence


def _evidence(evidence: tuple[Evidence, ...]) -> Row:
    cite = next((e.cite for e in evidence if e.cite is not None), None)
    assumption = next((e.assumption for e in evidence if e.assumption), None)
    sources = [f"{s.source}「{s.quote}」" for e in evidence for s in e.sources]
    return {
        "cite_witness": cite.witness if cite else None,
        "cite_quote": cite.quote if cite else None,
        "sources": sources,
        "assumption": assumption if cite is None else None,
    }


class SpringOxFigure:
    """The spring ox (土牛) and the Mang god (芒神) of a year: every attribute with its reason and evidence
    (:attr:`attributes`), the picture (:meth:`svg`), the report (:meth:`text`)."""

    def __init__(self, result: SpringOx) -> None:
        self.result = result
        self.year = result.year
        self.place = result.place.id
        self.rule = result.profile.id
        self.lichun = result.reading.day
        """The day of 立春 the figure is made for."""

    @property
    def attributes(self) -> Table:
        """One row per attribute (the ox's colours, the god's dress, height, place …): its value, the reason,
        and the witness quote, outside source or assumption it rests on. Keys: ``year``, ``rule``, ``attribute``."""
        rows = [
            {
                "year": self.year,
                "place": self.place,
                "rule": self.rule,
                "attribute": o.id,
                "part": o.part,
                "label": o.label,
                "value": o.text,
                "reason": o.primary.reason,
                "disputed": bool(o.alternatives),
                **_evidence(o.primary.evidence),
            }
            for o in self.result.outcomes
        ]
        columns = (
            "year",
            "place",
            "rule",
            "attribute",
            "part",
            "label",
            "value",
            "reason",
            "disputed",
            "cite_witness",
            "cite_quote",
            "sources",
            "assumption",
        )
        return Table(
            f"Spring ox of {self.year} ({self.rule})",
            columns,
            rows,
            ("year", "rule", "attribute"),
            shown=("label", "value", "reason"),
        )

    def to_frame(self) -> pandas.DataFrame:
        """:attr:`attributes` as a pandas DataFrame."""
        return self.attributes.to_frame()

    def svg(self) -> str:
        """The picture (an offline SVG) with the version and data digest it was made from."""
        from dianli.spring_ox.svg import render_svg

        return stamp_markup(render_svg(self.result))

    def text(self) -> str:
        """The report ``dianli spring-ox`` prints: every attribute with its reason."""
        from dianli.spring_ox.report import render_text

        return render_text(self.result)

    def __repr__(self) -> str:
        return f"SpringOx({self.year}, 立春 {self.lichun.isoformat()}, rule {self.rule}, {len(self.result.outcomes)} attributes)"

    def _repr_html_(self) -> str:
        return self.svg()


def spring_ox(year: int, rule: str | None = None, place: str | None = None) -> SpringOxFigure:
    """The spring ox and Mang god of the year that begins at 立春 of ``year``, by ``rule`` (``gazetteer``,
    ``almanac`` or a witness id); without one, by the place's governing witness where it states its own."""
    from dianli.spring_ox.figure import spring_ox as compute

    return SpringOxFigure(compute(year, place, rule))


class Audio:
    """Rendered sound: ``.data`` (the bytes of a FLAC or WAV file), ``.save(path)``, and a player in a
    notebook."""

    def __init__(self, data: bytes, fmt: str, seconds: float) -> None:
        self.data = data
        self.format = fmt
        self.seconds = seconds

    def save(self, path: str | Path, overwrite: bool = False) -> Path:
        """Write the file; one already at ``path`` is left alone (an error) unless ``overwrite``."""
        target = Path(path).expanduser()
        if target.exists() and not overwrite:
            raise FileExistsError(f"{target} is there already: give another path, or overwrite=True")
        target.write_bytes(self.data)
        return target

    def __repr__(self) -> str:
        return f"Audio({self.format}, {self.seconds:.1f} s, {len(self.data)} bytes)"

    def _repr_html_(self) -> str:
        encoded = base64.b64encode(self.data).decode("ascii")
        return f'<audio controls src="data:audio/{self.format};base64,{encoded}"></audio>'


class Music:
    """A movement of the 大成樂 (``dianli.music``): ``score`` (a table of its sung characters and notes),
    :meth:`musicxml`, :meth:`audio`."""

    def __init__(self, movement: Movement) -> None:
        self.movement = movement
        self.id = movement.id
        self.title = movement.info.title
        self.witness = movement.witness

    @property
    def score(self) -> Table:
        """One row per sung character: phrase, position, character, its note (律呂 and 工尺), the score
        witness and the quote of character and note. Keys: ``movement``, ``phrase``, ``position``."""
        from dianli.music.pitch import lus

        names = {lu.id: lu.name for lu in lus()}
        rows = []
        for c in self.movement.characters:
            cite = c.citation
            rows.append(
                {
                    "movement": self.id,
                    "phrase": c.phrase,
                    "position": c.position,
                    "character": c.display,
                    "lu": names.get(c.note.lu, c.note.lu),
                    "gongche": c.note.gongche,
                    "written_note": c.note_as_written,
                    "cite_witness": cite.witness,
                    "cite_quote": cite.quote,
                }
            )
        columns = (
            "movement",
            "phrase",
            "position",
            "character",
            "lu",
            "gongche",
            "written_note",
            "cite_witness",
            "cite_quote",
        )
        return Table(
            f"Score of {self.title}",
            columns,
            rows,
            ("movement", "phrase", "position"),
            shown=("phrase", "position", "character", "lu", "gongche"),
        )

    def to_frame(self) -> pandas.DataFrame:
        """:attr:`score` as a pandas DataFrame."""
        return self.score.to_frame()

    def musicxml(self) -> str:
        """The movement as MusicXML (a bar per phrase, every instrument a part)."""
        from dianli.music.render import render_movement

        return render_movement(self.id, "musicxml", "-", witness=self.witness or None)

    def audio(self, fmt: str = "flac", sample_rate_hz: int = 22050) -> Audio:
        """The movement synthesised with its full percussion, as FLAC (default) or WAV."""
        from dianli.music.render import render_movement_samples
        from dianli.music.synth import encode_audio

        samples = render_movement_samples(self.id, sample_rate_hz, witness=self.witness or None)
        return Audio(encode_audio(samples, fmt, sample_rate_hz), fmt, len(samples) / sample_rate_hz)

    def __repr__(self) -> str:
        return f"Music({self.title}: {len(self.movement.phrases)} phrases, {len(self.movement.characters)} characters)"

    def _repr_html_(self) -> str:
        from dianli.music.pitch import lus

        names = {lu.id: lu.name for lu in lus()}
        lines = "".join(
            f"<tr><th>{p.number}</th>"
            + "".join(
                f"<td>{html.escape(c.display)}<br><small>{html.escape(names.get(c.note.lu, c.note.lu))} {html.escape(c.note.gongche)}</small></td>"
                for c in p.characters
            )
            + "</tr>"
            for p in self.movement.phrases
        )
        return f"<p><b>{html.escape(self.title)}</b></p><table>{lines}</table>"


def music(movement: str, witness: str | None = None) -> Music:
    """A movement of the 大成樂 by name or id (寧平, 初獻, chuxian), from the score witness ``witness``
    (default: the default score witness)."""
    from dianli.music.score import movement as load

    return Music(load(movement, witness))
