"""The 樂章 as an MEI 5 edition (lxml): the sung line with its words, 律呂 and 工尺, and an apparatus.

Each movement is an ``<mdiv>``; a bar is a phrase (句) of four characters, a character a half-note beat
(4/2 at the audio's tempo, ♩ = 50 by default): the words, notes and bars are those of the 樂章 as the
witnesses write them — the strokes of the other instruments between characters and phrases are the
performance, written in the MusicXML. Every sung note carries three verses: the character, its 律呂 and
its 工尺 syllable; its departure in cents from the equal-tempered key the pitch is spelt with is an
``<annot type="cents">`` pointing at it.

Where another score witness differs from the default (:mod:`dianli.music.apparatus`), the note stands in
an ``<app>``: the default's reading as ``<lem>``, each other witness's as ``<rdg>`` (its note sung as the
model sings it; its note as written in the 工尺 verse). MEI names a reading's witness with ``@source``,
pointing at the witness's ``<source>`` in the header (TEI's ``@wit``). A character the default
witness's digitised text could not encode is ``<supplied>`` from the gloss that reads it (``@source``).
Sources are listed in the header with their titles.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path

from lxml import etree  # type: ignore[import-untyped]  # no stubs shipped

import dianli
from dianli.corpus.witnesses import load_witness
from dianli.music.apparatus import Variant, collatable_witnesses, movement_apparatus
from dianli.music.cues import default_timing
from dianli.music.musicxml import spelled
from dianli.music.pitch import Tuning, default_tuning, lu, midi_pitch
from dianli.music.score import (
    Movement,
    MovementInfo,
    SungCharacter,
    movement,
    movement_info,
    movement_infos,
    score_witness,
)

MEI_NS = "http://www.music-encoding.org/ns/mei"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
MEI_VERSION = "5.0"
VOICE_OCTAVE = 0
"""The sung line is written in the voice's own octave (黃鐘 at the assumed absolute pitch)."""
TEMPERAMENTS = {"sanfen": "pythagorean", "equal": "equal"}
"""MEI's name for each tuning system (三分損益 generates by pure fifths); ``stated`` has none."""
VERSES = ("字", "律呂", "工尺")
_ACCID = {"sharp": "s", "flat": "f", "natural": "n"}


def _el(parent: etree._Element, tag: str, text: object = None, **attrs: str) -> etree._Element:
    el = etree.SubElement(parent, f"{{{MEI_NS}}}{tag}")
    for key, value in attrs.items():
        el.set(XML_ID if key == "xml_id" else key.replace("_", "."), value)
    if text is not None:
        el.text = str(text)
    return el


def note_id(movement_id: str, c: SungCharacter, witness: str | None = None) -> str:
    """The xml:id of a sung note (the default witness's, or another's reading of it)."""
    base = f"{movement_id}-p{c.phrase}c{c.position}"
    return base if witness is None else f"{base}-{witness}"


class _Writer:
    def __init__(self, tuning: Tuning) -> None:
        self.tuning = tuning
        self.cents: list[tuple[str, float]] = []

    def note(self, parent: etree._Element, c: SungCharacter, xml_id: str, info: MovementInfo) -> None:
        step, alter, octave, accid = spelled(midi_pitch(self.tuning.freq_hz(c.note.lu, VOICE_OCTAVE)))
        attrs = {"xml_id": xml_id, "pname": step.lower(), "oct": str(octave), "dur": "2"}
        if round(alter):
            attrs["accid"] = _ACCID[accid]
        note = _el(parent, "note", **attrs)
        self.cents.append((xml_id, (alter - round(alter)) * 100))
        written = c.note_as_written
        verse = _el(note, "verse", n="1", label=VERSES[0])
        syl = _el(verse, "syl")
        if c.char:
            syl.text = c.char
        else:
            gloss = next(
                ((r, cite) for p, q, r, cite in info.gloss if (p, q) == (c.phrase, c.position)), None
            )
            if gloss is not None:
                supplied = _el(syl, "supplied", gloss[0], source=f"#{gloss[1].witness}")
                supplied.set("reason", "unencoded" if c.unencoded_glyph else "omitted")
            else:
                _el(syl, "gap", reason="omitted")
        _el(_el(note, "verse", n="2", label=VERSES[1]), "syl", lu(c.note.lu).name)
        _el(_el(note, "verse", n="3", label=VERSES[2]), "syl", written[1:] or c.note.gongche)

    def annotations(self, measure: etree._Element) -> None:
        for xml_id, cents in self.cents:
            _el(measure, "annot", f"{cents:+.2f} ¢", type="cents", startid=f"#{xml_id}")
        self.cents = []


def _variants(mid: str) -> dict[tuple[int, int], list[tuple[str, Variant]]]:
    found: dict[tuple[int, int], list[tuple[str, Variant]]] = {}
    for other in collatable_witnesses():
        for entry in movement_apparatus(mid, other):
            for v in entry.variants:
                found.setdefault((v.phrase, v.position), []).append((other, v))
    return found


def _mdiv(body: etree._Element, mv: Movement, writer: _Writer, bpm: float, first: bool) -> int:
    info = mv.info
    mdiv = _el(body, "mdiv", xml_id=f"mdiv-{info.id}", label=f"{info.title}之曲")
    score = _el(mdiv, "score")
    score_def = _el(score, "scoreDef", meter_count="4", meter_unit="2", midi_bpm=f"{bpm:g}")
    if first:
        score_def.set("tune.Hz", f"{writer.tuning.huangzhong_hz:g}")
        score_def.set("tune.pname", "d")
        if writer.tuning.system in TEMPERAMENTS:
            score_def.set("tune.temper", TEMPERAMENTS[writer.tuning.system])
    staff_grp = _el(score_def, "staffGrp")
    staff_def = _el(staff_grp, "staffDef", n="1", lines="5", clef_shape="G", clef_line="2")
    _el(staff_def, "label", "歌")
    section = _el(score, "section")
    # 望瘞 is 送神's music: its variants are 送神's, listed there
    variants = {} if info.same_as else _variants(info.id)
    apps = 0
    for phrase in mv.phrases:
        measure = _el(section, "measure", n=str(phrase.number), label=phrase.text)
        layer = _el(_el(measure, "staff", n="1"), "layer", n="1")
        remarks: list[tuple[str, str]] = []
        for c in phrase.characters:
            here = variants.get((c.phrase, c.position))
            if not here:
                writer.note(layer, c, note_id(info.id, c), info)
                continue
            apps += 1
            app = _el(layer, "app", xml_id=f"app-{note_id(info.id, c)}")
            writer.note(_el(app, "lem", source=f"#{score_witness()}"), c, note_id(info.id, c), info)
            for other, v in here:
                reading = movement(info.id, other).phrases[c.phrase - 1].characters[c.position - 1]
                rdg = _el(app, "rdg", source=f"#{other}", type=" ".join(v.kinds))
                writer.note(rdg, reading, note_id(info.id, c, other), info)
                if v.remark:
                    remarks.append((v.remark, f"#{note_id(info.id, c)} #{note_id(info.id, c, other)}"))
        if phrase.number == 1:
            tempo = _el(measure, "tempo", f"♩ = {bpm:g}", staff="1", tstamp="1", midi_bpm=f"{bpm:g}")
            tempo.set("mm", f"{bpm:g}")
            tempo.set("mm.unit", "4")
            _el(measure, "dir", f"{info.title}之曲", staff="1", tstamp="1", place="above")
        writer.annotations(measure)
        for remark, plist in remarks:
            _el(measure, "annot", remark, type="remark", plist=plist)
    section[-1].set("right", "end")
    return apps


def _head(root: etree._Element, infos: Sequence[MovementInfo], tuning: Tuning) -> None:
    head = _el(root, "meiHead")
    file_desc = _el(head, "fileDesc")
    title_stmt = _el(file_desc, "titleStmt")
    title = "大成樂" + (f" {infos[0].title}之曲" if len(infos) == 1 else "")
    _el(title_stmt, "title", title)
    pub = _el(file_desc, "pubStmt")
    _el(pub, "publisher", f"dianli {dianli.__version__}")
    _el(pub, "date", datetime.date.today().isoformat(), isodate=datetime.date.today().isoformat())
    sources = _el(file_desc, "sourceDesc")
    glosses = {cite.witness for info in infos for _p, _q, _r, cite in info.gloss}
    for witness in (score_witness(), *collatable_witnesses(), *sorted(glosses)):
        w = load_witness(witness).info
        source = _el(sources, "source", xml_id=witness, label=w.short_title or w.title)
        bibl = _el(source, "bibl")
        _el(bibl, "title", w.title)
        if w.compiled_year:
            _el(bibl, "date", w.compiled_year, isodate=str(w.compiled_year))
        # the default witness is the lem; the others are collated as rdg; a gloss supplies characters
        role = (
            "default-score-witness"
            if witness == score_witness()
            else "gloss"
            if witness in glosses
            else "collated-score-witness"
        )
        source.set("type", role)
    encoding = _el(head, "encodingDesc")
    app_info = _el(encoding, "appInfo")
    app = _el(app_info, "application", version=dianli.__version__)
    _el(app, "name", "dianli")
    editorial = _el(encoding, "editorialDecl")
    for text in (
        "A bar is a phrase (句) of the 樂章, a beat (a half note) a sung character, at the tempo of the "
        "audio; the strokes of the other instruments are in the MusicXML.",
        f"Tuning: {tuning.system}, 黃鐘 = {tuning.huangzhong_hz:g} Hz (an assumption); each note's "
        "departure from the equal-tempered key it is spelt with is an annot of type cents.",
        "Verses: 1 the character, 2 its 律呂, 3 its 工尺 as the witness writes it. An app gives the "
        "default witness's reading as lem and each other score witness's as rdg where they differ in the "
        "character, the 律 or the 工尺; differences of script alone (淵/渊: the digitised 汀州府志 is in "
        "simplified script) are not recorded.",
    ):
        _el(editorial, "p", text)


def to_mei(
    movement_ids: Sequence[str] | None = None,
    tuning: Tuning | None = None,
    bpm: float | None = None,
) -> etree._Element:
    """The MEI document of the movements named (None: the whole suite), collated across score witnesses."""
    tuning = tuning or default_tuning()
    infos = [movement_info(m) for m in movement_ids] if movement_ids else list(movement_infos())
    if bpm is None:
        bpm = 60.0 / (default_timing().character_s / 2)
    root = etree.Element(f"{{{MEI_NS}}}mei", nsmap={None: MEI_NS})
    root.set("meiversion", MEI_VERSION)
    _head(root, infos, tuning)
    body = _el(_el(root, "music"), "body")
    writer = _Writer(tuning)
    for i, info in enumerate(infos):
        _mdiv(body, movement(info.id), writer, bpm, i == 0)
    return root


def mei_bytes(
    movement_ids: Sequence[str] | None = None, tuning: Tuning | None = None, bpm: float | None = None
) -> bytes:
    """The MEI file's bytes."""
    out: bytes = etree.tostring(
        to_mei(movement_ids, tuning, bpm), encoding="UTF-8", xml_declaration=True, pretty_print=True
    )
    return out


def write_mei(
    path: str | Path,
    movement_ids: Sequence[str] | None = None,
    tuning: Tuning | None = None,
    bpm: float | None = None,
) -> None:
    """Write the MEI edition."""
    Path(path).write_bytes(mei_bytes(movement_ids, tuning, bpm))
