"""``dianli music``: JSON, MIDI, WAV and FLAC to files, fingering, findings, cents, instrument, bad names."""

from __future__ import annotations

import json
from pathlib import Path

import mido
import pytest
import soundfile as sf
from typer.testing import CliRunner

from dianli.cli import app
from dianli.music.cues import timeline
from dianli.music.score import accepted_movement_names

runner = CliRunner()
FAST = ["--tempo", "50"]
"""Fifty times the data's tempo: a movement renders as a few seconds of audio."""


def _run(*args: str) -> str:
    result = runner.invoke(app, ["music", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_json_to_stdout_has_the_movement_and_its_assumptions() -> None:
    payload = json.loads(_run("寧平", "--format", "json"))
    assert payload["movements"] == ["chuxian"]
    assert "timing" in payload["assumptions"]
    sung = [e for e in payload["events"] if e["rule"] == "sung" and e["instrument"] == "voice"]
    assert [e["lyric"] for e in sung[:4]] == ["覺", "我", "生", "民"]


def test_mid_to_a_file_reads_back_with_one_track_per_instrument(tmp_path: Path) -> None:
    out = tmp_path / "chuxian.mid"
    _run("初獻", "-f", "mid", "-o", str(out))
    tracks = mido.MidiFile(str(out)).tracks
    assert len(tracks) > 10


@pytest.mark.parametrize("fmt", ["wav", "flac"])
def test_audio_to_a_file_reads_back_with_soundfile(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"chuxian.{fmt}"
    _run("chuxian", "-f", fmt, "-o", str(out), *FAST)
    samples, rate = sf.read(str(out))
    assert rate == 44100
    assert samples.ndim == 1
    assert len(samples) / rate >= timeline("chuxian", None).duration_s / 50
    assert 0.1 < abs(samples).max() <= 1.0


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("太四", "七徽、二絃，左手食指按，右手中指勾"),
        ("工", "七徽、五絃，左手大指按，右手食指剔"),
        ("黃六", "吹第十二管、第十三管"),
    ],
)
def test_fingering(note: str, expected: str) -> None:
    assert expected in _run("fingering", note)


def test_findings_include_pipes_and_the_rotation() -> None:
    out = _run("findings")
    assert "仲呂" in out
    assert "八曲八響" in out


def test_findings_json() -> None:
    found = json.loads(_run("findings", "--json"))
    assert {"pitch", "cues"} <= {f["topic"] for f in found}


def test_cents_table_has_sixteen_pipes() -> None:
    lines = _run("cents").strip().splitlines()
    assert len(lines) == 17
    assert lines[1].split("\t")[1] == "黃鐘"


@pytest.mark.parametrize(
    ("name", "expected"), [("編鐘", "簨"), ("搏拊", "中实以糠"), ("埙", "今廟中俱用雅塤")]
)
def test_instrument_shows_its_description_per_witness(name: str, expected: str) -> None:
    out = _run("instrument", name)
    assert expected in out or expected in out.replace("實", "实")


@pytest.mark.parametrize(
    ("name", "first", "not_shown"),
    [
        ("編鐘", "編鐘 (金)", ["bianzhong", "taiwan-fuzhi-9", "jin"]),
        ("埙", "塤 (土)", ["xun", "tingzhou-fuzhi"]),
    ],
)
def test_instrument_names_its_family_and_witnesses_as_readers_do(
    name: str, first: str, not_shown: list[str]
) -> None:
    out = _run("instrument", name)
    assert out.startswith(first)
    assert "[臺灣府志]" in out
    for word in not_shown:
        assert word not in out


@pytest.mark.parametrize(
    "args",
    [
        ["咸", "-f", "json"],
        ["nosuch"],
        ["fingering", "太太"],
        ["instrument", "琵琶"],
        ["寧平", "--format", "ogg"],
        ["寧平", "--tempo", "0"],
    ],
)
def test_bad_input_exits_2_naming_the_accepted_values(args: list[str]) -> None:
    result = runner.invoke(app, ["music", *args])
    assert result.exit_code == 2
    assert "error" in result.output.lower() or "accepted" in result.output or "valid" in result.output


def test_bad_movement_names_every_accepted_name() -> None:
    result = runner.invoke(app, ["music", "咸"])
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    for name in (*accepted_movement_names(), "suite", "fingering"):
        assert name in flat


# --- score witnesses and the apparatus ------------------------------------------------------------

TINGZHOU = "tingzhou-fuzhi-11"


def test_json_of_another_score_witness_sings_its_words_and_names_it() -> None:
    payload = json.loads(_run("徹饌", "--format", "json", "--witness", TINGZHOU))
    assert payload["score_witness"] == TINGZHOU
    sung = [e["lyric"] for e in payload["events"] if e["rule"] == "sung" and e["instrument"] == "voice"]
    assert sung[8:12] == ["既", "歆", "宣", "圣"]


def test_the_default_witness_json_is_unchanged_by_naming_it() -> None:
    assert _run("寧平", "-f", "json", "-w", "taiwan-fuzhi-9") == _run("寧平", "-f", "json")
    assert "score_witness" not in json.loads(_run("寧平", "-f", "json"))


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["-m", "徹饌"],
            [
                "徹饌 咸平: 汀州府志 卷之十一 against 臺灣府志",  # witnesses by short title (#14)
                "  32 characters compared: 1 character and 0 notes differ; 1 unencoded",
                "  3.3 character: 先(林尺) 臺灣府志 | 宣(林尺) 汀州府志 卷之十一",
                "      「先(林尺)」 「宣林尺」",
            ],
        ),
        (["終獻"], ["  6.1 工尺: 惟(南工) 臺灣府志 | 惟(南二) 汀州府志 卷之十一"]),
        (["-m", "wangyi"], ["  the music of 送神, collated there"]),
    ],
)
def test_apparatus_text(args: list[str], expected: list[str]) -> None:
    lines = _run("apparatus", *args).splitlines()
    for line in expected:
        assert line in lines


def test_apparatus_text_fits_80_columns() -> None:
    from dianli.cli.common import display_width

    assert max(display_width(line) for line in _run("apparatus").splitlines()) <= 80


def test_apparatus_json_counts_every_movement() -> None:
    data = json.loads(_run("apparatus", "--format", "json", "--witness", TINGZHOU))
    counts = {a["movement"]: (a["characters_differing"], a["notes_differing"]) for a in data}
    assert counts == {
        "yingshen": (0, 0),
        "chuxian": (0, 0),
        "yaxian": (0, 0),
        "zhongxian": (0, 1),
        "chezhuan": (1, 0),
        "songshen": (0, 0),
        "wangyi": (0, 0),
    }


def test_fingering_of_another_witness_ends_with_its_rule() -> None:
    lines = _run("fingering", "太四", "--witness", TINGZHOU).splitlines()
    # by its title (two juan of one book share the short title 汀州府志, #14)
    assert lines[0] == "琴\t琴，七徽二弦，左手食指按，右手中指勾\t[汀州府志 卷之十一]"
    assert lines[-1] == "\t凡太四谱皆仿此\t[汀州府志 卷之十一]"
    assert len([line for line in lines if not line.startswith(" ")]) == 10  # a long one continues below


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["寧平", "-f", "json", "--witness", "nope"],
            "unknown score witness 'nope'; accepted: taiwan-fuzhi-9",
        ),
        (["apparatus", "--witness", "taiwan-fuzhi-9"], "accepted: tingzhou-fuzhi-11"),
        (["apparatus", "--format", "xml"], "unknown apparatus format 'xml'; accepted: text, json"),
        (["fingering", "太四", "--witness", "fujian-tongzhi-14"], "unknown fingering witness"),
    ],
)
def test_bad_witness_or_format_is_an_error_with_the_accepted_values(args: list[str], said: str) -> None:
    result = runner.invoke(app, ["music", *args])
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("fmt", "marker"),
    [
        ("musicxml", "<work-title>大成樂</work-title>"),
        ("mei", 'meiversion="5.0"'),
        ("svg", "Engraved by Verovio"),
        ("columns", 'class="columns"'),
    ],
)
def test_edition_formats_to_stdout(fmt: str, marker: str) -> None:
    assert marker in _run("寧平", "--format", fmt, "-o", "-")


@pytest.mark.parametrize(("fmt", "name"), [("mei", "chuxian.mei"), ("columns", "chuxian.columns.svg")])
def test_edition_formats_default_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    assert name in _run("寧平", "--format", fmt)
    assert (tmp_path / name).stat().st_size > 1000


def test_suite_refuses_the_columns_with_the_formats_it_takes() -> None:
    result = runner.invoke(app, ["music", "suite", "--format", "columns"])
    assert result.exit_code != 0
    assert "columns" in result.output and "mei" in result.output
