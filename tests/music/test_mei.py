"""The MEI edition: loaded by verovio, the sung text with its 律呂 and 工尺, the apparatus of the score
witnesses (lem/rdg), the characters supplied from the gloss, the cents of each note."""

from __future__ import annotations

from pathlib import Path

import pytest
import verovio
from lxml import etree

from dianli.music.apparatus import apparatus
from dianli.music.mei import MEI_NS, mei_bytes
from dianli.music.pitch import cents_table, lu, midi_pitch
from dianli.music.score import movement, movement_ids

NS = {"m": MEI_NS, "xml": "http://www.w3.org/XML/1998/namespace"}
BASE = "taiwan-fuzhi-9"
OTHER = "tingzhou-fuzhi-11"
GLOSS = "fujian-tongzhi-14-modern"


def _tree(*ids: str) -> etree._Element:
    return etree.fromstring(mei_bytes(list(ids) or None))


def _toolkit(query: str | None = None) -> verovio.toolkit:
    tk = verovio.toolkit()
    tk.setOptions({"adjustPageHeight": True, "pageHeight": 60000, "footer": "none", "header": "none"})
    if query:
        tk.setOptions({"appXPathQuery": [query]})
    return tk


@pytest.mark.parametrize("movement_id", [*movement_ids(), None])
def test_verovio_loads_it(movement_id: str | None) -> None:
    data = mei_bytes([movement_id] if movement_id else None).decode()
    tk = _toolkit()
    assert tk.loadData(data)
    assert "Error" not in tk.getLog()
    svg = tk.renderToSVG(1)
    timemap = tk.renderToTimemap()
    onsets = [n for entry in timemap for n in entry.get("on", [])]
    expected = movement_ids() if movement_id is None else [movement_id]
    if movement_id is None:
        assert tk.getPageCount() >= 1
    else:
        assert len(onsets) == 32
        assert all(c.display.strip("[]") in svg for c in movement(movement_id).characters)
    assert onsets[0] == f"{expected[0]}-p1c1"


@pytest.mark.parametrize("movement_id", [m for m in movement_ids() if m != "wangyi"])
def test_an_app_for_every_variant(movement_id: str) -> None:
    tree = _tree(movement_id)
    (entry,) = apparatus(movement_id, OTHER)
    apps = tree.findall(".//m:app", NS)
    assert len(apps) == len(entry.variants)
    for app, v in zip(apps, entry.variants, strict=True):
        assert (
            app.get("{http://www.w3.org/XML/1998/namespace}id")
            == f"app-{movement_id}-p{v.phrase}c{v.position}"
        )
        assert app.find("m:lem", NS).get("source") == f"#{BASE}"
        rdg = app.find("m:rdg", NS)
        assert rdg.get("source") == f"#{OTHER}"
        assert rdg.get("type") == " ".join(v.kinds)


@pytest.mark.parametrize(
    ("movement_id", "phrase", "position", "lem", "rdg"),
    [
        ("chezhuan", 3, 3, ("先", "林鐘", "尺"), ("宣", "林鐘", "尺")),
        ("zhongxian", 6, 1, ("惟", "南呂", "工"), ("惟", "南呂", "二")),
    ],
)
def test_readings_carry_text_lu_and_gongche(
    movement_id: str, phrase: int, position: int, lem: tuple[str, ...], rdg: tuple[str, ...]
) -> None:
    app = _tree(movement_id).find(f".//m:app[@xml:id='app-{movement_id}-p{phrase}c{position}']", NS)
    assert app is not None
    for tag, expected in (("lem", lem), ("rdg", rdg)):
        verses = app.findall(f"m:{tag}/m:note/m:verse", NS)
        assert tuple("".join(v.itertext()).strip() for v in verses) == expected


@pytest.mark.parametrize(
    ("movement_id", "phrase", "position", "char"), [("yingshen", 7, 3, "簠"), ("chezhuan", 8, 1, "羹")]
)
def test_unencoded_characters_supplied_from_the_gloss(
    movement_id: str, phrase: int, position: int, char: str
) -> None:
    note = _tree(movement_id).find(f".//m:lem/m:note[@xml:id='{movement_id}-p{phrase}c{position}']", NS)
    assert note is not None
    supplied = note.find("m:verse[@n='1']/m:syl/m:supplied", NS)
    assert supplied is not None
    assert (supplied.text, supplied.get("source"), supplied.get("reason")) == (char, f"#{GLOSS}", "unencoded")
    assert movement(movement_id).phrases[phrase - 1].characters[position - 1].char == ""


def test_verovio_renders_the_other_witness_on_request() -> None:
    data = mei_bytes(["chezhuan"]).decode()
    default, other = _toolkit(), _toolkit(f"./rdg[contains(@source, '{OTHER}')]")
    assert default.loadData(data) and other.loadData(data)
    a, b = default.renderToSVG(1), other.renderToSVG(1)
    assert (a.count("宣"), a.count("先")) == (0, 1)
    assert (b.count("宣"), b.count("先")) == (1, 0)


def test_bars_are_phrases_and_verses_the_notes() -> None:
    tree = _tree("chuxian")
    measures = tree.findall(".//m:measure", NS)
    mv = movement("chuxian")
    assert [m.get("label") for m in measures] == [p.text for p in mv.phrases]
    notes = tree.findall(".//m:layer/m:note", NS)
    assert len(notes) == 32
    for n, c in zip(notes, mv.characters, strict=True):
        verses = ["".join(v.itertext()).strip() for v in n.findall("m:verse", NS)]
        assert verses == [c.display, lu(c.note.lu).name, c.note.gongche]


@pytest.mark.parametrize(("lu_id", "cents"), [("taicu", "+3.88"), ("zhonglu", "+21.48"), ("nanlu", "+5.84")])
def test_cents_annotations(lu_id: str, cents: str) -> None:
    tree = _tree("chuxian")
    table = {r.lu.id: r for r in cents_table()}
    ids = [f"#chuxian-p{c.phrase}c{c.position}" for c in movement("chuxian").characters if c.note.lu == lu_id]
    annots = {a.get("startid"): a.text for a in tree.iterfind(".//m:annot[@type='cents']", NS)}
    assert ids and {annots[i] for i in ids} == {f"{cents} ¢"}
    # 黃鐘 = 293.66 Hz sits 0.03 cents under D4: the annotation is the table's deviation plus that
    d4 = (midi_pitch(293.66) - 62) * 100
    assert float(cents) == pytest.approx(table[lu_id].sanfen_cents - table[lu_id].equal_cents + d4, abs=0.006)


def test_header_names_the_sources_and_the_tuning() -> None:
    tree = _tree("yingshen")
    sources = [s.get("{http://www.w3.org/XML/1998/namespace}id") for s in tree.iterfind(".//m:source", NS)]
    assert sources == [BASE, OTHER, GLOSS]
    score_def = tree.find(".//m:scoreDef", NS)
    assert score_def is not None
    assert (score_def.get("tune.temper"), score_def.get("tune.Hz"), score_def.get("midi.bpm")) == (
        "pythagorean",
        "293.66",
        "50",
    )


@pytest.mark.parametrize(
    ("source", "role"),
    [(BASE, "default-score-witness"), (OTHER, "collated-score-witness"), (GLOSS, "gloss")],
)
def test_each_source_says_its_role(source: str, role: str) -> None:
    found = _tree("chezhuan").find(f".//m:source[@xml:id='{source}']", NS)
    assert found is not None and found.get("type") == role


MEI_SCHEMA = Path(__file__).parent / "fixtures" / "mei-all.rng"


@pytest.fixture(scope="module")
def mei_schema() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(MEI_SCHEMA)))


@pytest.mark.parametrize("movement_id", ["yingshen", "chezhuan", "zhongxian", "wangyi", None])
def test_valid_against_the_mei_schema(mei_schema: etree.RelaxNG, movement_id: str | None) -> None:
    doc = etree.fromstring(mei_bytes([movement_id] if movement_id else None))
    assert mei_schema.validate(doc), [e.message for e in mei_schema.error_log][:5]
