"""Editorial marks of a transcription are gaps, never text.

A transcriber's header (``SOURCE:`` … lines ending in a line of ``=====``) and the square-bracket marks
``[OMITTED: …]``, ``[NOT REPEATED HERE: …]`` and ``[卷之三 … (excerpt …)]`` stay in the raw and the
reading text, but are no part of the folding key, of any note or of any clause: a citation or search never
matches inside one, nor across one. Any other square bracket is text.
"""

from __future__ import annotations

import pytest

from dianli.corpus.normalise import EDITORIAL_FORMS, KEY_GAP, fold, normalise
from dianli.corpus.witnesses import load_witness

G = KEY_GAP


@pytest.mark.parametrize(
    ("raw", "gaps", "key"),
    [
        # Each form: (kind, the raw text of the span, the mark's own words).
        (
            "每歲七月十五日祭厲壇\n[OMITTED: 祭厲壇文 (the prayer), not ritual]\n同知主祭",
            [
                (
                    "omitted",
                    "[OMITTED: 祭厲壇文 (the prayer), not ritual]",
                    "祭厲壇文 (the prayer), not ritual",
                )
            ],
            f"每岁七月十五日祭厉坛{G}同知主祭",
        ),
        (
            '知縣率諸生行禮\n[NOT REPEATED HERE: from "獻畢)" through 埙, the same as seed 002]\n禮畢。',
            [
                (
                    "not-repeated",
                    '[NOT REPEATED HERE: from "獻畢)" through 埙, the same as seed 002]',
                    'from "獻畢)" through 埙, the same as seed 002',
                )
            ],
            f"知县率诸生行礼{G}礼毕",
        ),
        (
            "無祀祠。\n\n[卷之三 官师纪 · 职事 (excerpt: the 宣讲上谕 item)]\n　　一、宣讲上谕。",
            [
                (
                    "excerpt-heading",
                    "[卷之三 官师纪 · 职事 (excerpt: the 宣讲上谕 item)]",
                    "卷之三 官师纪 · 职事 (excerpt: the 宣讲上谕 item)",
                )
            ],
            f"无祀祠{G}一宣讲上谕",
        ),
        (
            "SOURCE: a repo, commit 1dbb\nWORK: 鳳山縣志 卷之三\nNOTE: simplified\nSECTIONS: 文廟, 社稷壇\n=====\n卷之三\n",
            [
                (
                    "header",
                    "SOURCE: a repo, commit 1dbb\nWORK: 鳳山縣志 卷之三\nNOTE: simplified\nSECTIONS: 文廟, 社稷壇\n=====",
                    "SOURCE: a repo, commit 1dbb\nWORK: 鳳山縣志 卷之三\nNOTE: simplified\nSECTIONS: 文廟, 社稷壇",
                )
            ],
            "卷之三",
        ),
        (
            "\ufeffSOURCE: x\n=====\n文庙",
            [("header", "SOURCE: x\n=====", "SOURCE: x")],
            "文庙",
        ),
        # Two marks in a row, and marks at the ends of the text: one gap in the key, none at its ends.
        (
            "[OMITTED: a]甲[OMITTED: b]\n[OMITTED: c]乙[OMITTED: d]",
            [
                ("omitted", "[OMITTED: a]", "a"),
                ("omitted", "[OMITTED: b]", "b"),
                ("omitted", "[OMITTED: c]", "c"),
                ("omitted", "[OMITTED: d]", "d"),
            ],
            f"甲{G}乙",
        ),
        # Square brackets that are not one of the forms stay text, and in the key.
        ("壇制舊碑[缺]一字", [], "坛制旧碑缺一字"),
        ("[卷之三]祀典志", [], "卷之三祀典志"),
        ("[卷之三 祀典 (全)]", [], "卷之三祀典全"),
        # Any other one-line bracket whose words hold latin letters is a transcriber's note.
        ("[omitted: 小寫]甲", [("note", "[omitted: 小寫]", "omitted: 小寫")], "甲"),
        ("[OMITTED:無空格]甲", [("note", "[OMITTED:無空格]", "OMITTED:無空格")], "甲"),
        (
            "祭畢。[祝文 omitted: the prayer, 300 characters]乙",
            [
                (
                    "note",
                    "[祝文 omitted: the prayer, 300 characters]",
                    "祝文 omitted: the prayer, 300 characters",
                )
            ],
            f"祭毕{G}乙",
        ),
        ("[OMITTED: 跨\n行]甲", [], "OMITTED跨行甲"),
        ("壇制[缺]一字[一二]", [], "坛制缺一字一二"),
        # Header lines other than SOURCE/WORK/NOTE/SECTIONS (NOTABLE:) are part of the header, before
        # SOURCE too; a line that is no KEY: line ends it.
        (
            "SOURCE: x\nNOTABLE: 乾隆元年 rebuilt\n=====\n正文",
            [
                (
                    "header",
                    "SOURCE: x\nNOTABLE: 乾隆元年 rebuilt\n=====",
                    "SOURCE: x\nNOTABLE: 乾隆元年 rebuilt",
                )
            ],
            "正文",
        ),
        (
            "NOTABLE: y\nSOURCE: x\n=====\n正文",
            [("header", "NOTABLE: y\nSOURCE: x\n=====", "NOTABLE: y\nSOURCE: x")],
            "正文",
        ),
        ("SOURCE: x\n注意 y\n=====\n正文", [], "SOURCEx注意y正文"),
        # A modern editor's notes (〔校注〕, then lines opening with their numbers) are gaps; the heading
        # 〔校注〕 and the number in the text stay (a curated quote holds 无祝〔一〕鬼神); without a 〔校注〕,
        # a line opening with 〔〕 is a restoration and text.
        (
            "無祝〔一〕鬼神。\n〔校注〕\n〔一〕“祝”疑當作“祀”。\n",
            [("footnote", "〔一〕“祝”疑當作“祀”。", "〔一〕“祝”疑當作“祀”。")],
            "无祝一鬼神校注",
        ),
        ("〔一〕“祝”疑當作“祀”。", [], "一祝疑当作祀"),
        ("自〔此始〕。以〔一〕", [], "自此始以一"),
        # A header only at the start of a line, of the named lines, closed by =====.
        ("正文 SOURCE: x\n=====\n下", [], "正文SOURCEx下"),
        ("SOURCE: x\nWORK: y\n正文", [], "SOURCExWORKy正文"),
        ("AUTHOR: x\n=====\n正文", [], "AUTHORx正文"),
        ("=====\n正文", [], "正文"),
    ],
)
def test_editorial_spans(raw: str, gaps: list[tuple[str, str, str]], key: str) -> None:
    norm = normalise(raw)
    found = []
    for gap in norm.editorial:
        r0, r1 = norm.raw_span(gap.start, gap.end)
        found.append((gap.kind, raw[r0:r1], gap.words))
    assert found == gaps
    assert norm.key == key
    # The reading text still holds every mark, and every offset maps back to the raw text.
    for t, char in enumerate(norm.text):
        assert raw[norm.text_to_raw[t]] == char
    assert len(norm.key_to_text) == len(norm.key) + 1
    assert list(norm.key_to_text) == sorted(norm.key_to_text)


@pytest.mark.parametrize(
    ("raw", "quote", "found"),
    [
        ("每歲七月十五日祭厲壇\n[OMITTED: 祭厲壇文]\n同知主祭", "祭厲壇同知主祭", False),
        ("每歲七月十五日祭厲壇\n[OMITTED: 祭厲壇文]\n同知主祭", "祭厲壇", True),
        ("每歲七月十五日祭厲壇\n[OMITTED: 祭厲壇文]\n同知主祭", "同知主祭", True),
        ("每歲七月十五日祭厲壇\n[OMITTED: 祭厲壇文]\n同知主祭", "祭厲壇文", False),
        ("每歲七月十五日祭厲壇\n[OMITTED: 祭厲壇文]\n同知主祭", "OMITTED", False),
        ("SOURCE: 文廟\n=====\n文庙坛庙祠", "文廟文廟", False),
        ("壇制舊碑[缺]一字", "舊碑缺一字", True),
    ],
)
def test_a_quote_never_matches_inside_or_across_a_gap(raw: str, quote: str, found: bool) -> None:
    assert (fold(quote) in normalise(raw).key) is found


@pytest.mark.parametrize(
    ("raw", "notes"),
    [
        # A bracket inside a mark is not a note, even an unbalanced one.
        ('甲[NOT REPEATED HERE: from "獻畢)" (the rest)]乙', []),
        # A note left open before a gap ends where the gap begins.
        ("(甲[OMITTED: a) b]乙)", [("(", "(甲")]),
        ("壇(在西北隅)[OMITTED: x]", [("(", "(在西北隅)")]),
        ("卷三（上）[OMITTED: 卷三（下） 风教]", [("（", "（上）")]),
    ],
)
def test_no_note_inside_a_gap(raw: str, notes: list[tuple[str, str]]) -> None:
    norm = normalise(raw)
    assert [(n.kind, norm.text[n.start : n.end]) for n in norm.notes] == notes


@pytest.mark.parametrize(
    ("raw", "piece", "pieces"),
    [
        (
            "甲[OMITTED: a b]乙",
            "甲[OMITTED:ab]乙",
            [("甲", None), ("[OMITTED:ab]", "omitted"), ("乙", None)],
        ),
        ("甲[OMITTED: a b]乙", "乙", [("乙", None)]),
        ("SOURCE: x\n=====\n乙", "SOURCE:x=====乙", [("SOURCE:x=====", "header"), ("乙", None)]),
        ("壇制[缺]一字", "壇制[缺]一字", [("壇制[缺]一字", None)]),
    ],
)
def test_gap_pieces(raw: str, piece: str, pieces: list[tuple[str, str | None]]) -> None:
    norm = normalise(raw)
    assert [(text, gap.kind if gap else None) for text, gap in norm.gap_pieces(piece)] == pieces


def test_every_form_has_a_kind_and_a_reason() -> None:
    assert [f.kind for f in EDITORIAL_FORMS] == [
        "header",
        "omitted",
        "not-repeated",
        "excerpt-heading",
        "footnote",
        "note",
    ]
    assert all(f.reason and "words" in f.pattern.groupindex for f in EDITORIAL_FORMS)


@pytest.mark.parametrize(
    "witness", ["fujian-tongzhi-14", "fujian-tongzhi-14-modern", "taiwan-fuzhi-9", "tingzhou-fuzhi"]
)
def test_the_seeds_have_no_gaps(witness: str) -> None:
    norm = load_witness(witness).norm
    assert norm.editorial == ()
    assert KEY_GAP not in norm.key
