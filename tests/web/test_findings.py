"""Findings on the web pages: the music's findings on the music index, the dance's east/west asymmetries
on the dance page — every value escaped."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from dianli.corpus.cite import Citation
from dianli.corpus.labels import name_ids
from dianli.corpus.supplied import supply
from dianli.dance.mirror import asymmetries as dance_asymmetries
from dianli.music.findings import Finding
from dianli.music.render import music_findings
from dianli.web.app import app, render

client = TestClient(app)


def test_music_index_lists_every_finding() -> None:
    page = client.get("/music")
    assert page.status_code == 200
    findings = music_findings()
    assert findings and f"({len(findings)})" in page.text
    for f in findings:
        # as the template escapes it (' is &#39;), witnesses named by short title (#14)
        assert str(escape(name_ids(f.message))) in page.text
        for c in f.cites:  # as shown: a character 001 could not encode is supplied (〔…〕)
            assert str(escape(supply(c.quote))) in page.text


@pytest.mark.parametrize("name", ["chuxian", "yaxian", "zhongxian"])
def test_dance_page_shows_the_asymmetries(name: str) -> None:
    page = client.get(f"/dance/{name}")
    assert page.status_code == 200
    found = dance_asymmetries()
    assert found and 'id="asymmetries"' in page.text
    for a in found:
        assert name_ids(a.verdict) in page.text  # witnesses named by short title (#14)
        for r in a.readings:
            assert r.witness in page.text and r.west in page.text
    assert 'class="dance dance-page"' in page.text  # the animation is still there, in its frame


def test_the_known_asymmetry_of_001() -> None:
    (a,) = [x for x in dance_asymmetries() if x.movement == "chuxian" and x.index == 29]
    broken = [r for r in a.readings if not r.mirrors]
    assert [r.witness for r in broken] == ["taiwan-fuzhi-9"]
    assert broken[0].differences[0].west == "蹺右足"
    page = client.get("/dance/chuxian").text
    assert "expected 「蹺左足」, written 「蹺右足」" in page


def test_findings_are_escaped() -> None:
    nasty = Finding(
        topic="<script>alert(1)</script>",
        subject="a & b",
        message='"quoted" <b>bold</b>',
        cites=(Citation(witness="taiwan-fuzhi-9", quote="<q>"),),
    )
    body = render("music_index.html", movements=[], findings=[nasty]).body.decode()
    assert "<script>alert" not in body and "<b>bold</b>" not in body
    assert "&lt;script&gt;" in body and "&lt;q&gt;" in body and "a &amp; b" in body


def test_dance_page_escapes_its_frame() -> None:
    body = render("dance.html", movement_id="<x>", srcdoc='<p>"hi"</p>', items=[], danced=[]).body.decode()
    assert 'srcdoc="&lt;p&gt;&#34;hi&#34;&lt;/p&gt;"' in body
    assert "<x>" not in body
