"""Input with bounds (issue 28, "Bad input"): every case ends in one error naming the file or value and
what is accepted — exit 2, no traceback, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()
FIXTURE = Path(__file__).parent.parent / "fixtures" / "witnesses" / "test-fixture-gazetteer"
TEXT = "SOURCE: a test\nWORK: 某縣志 卷一\n=====\n康熙五十五年，建文廟。\n"


def _said(output: str) -> str:
    return "".join(output.split())  # long paths and words may be wrapped across lines


def _bomb(levels: int = 9) -> str:
    """A YAML alias bomb: each level aliases the one below nine times (9**9 ≈ 387 million strings)."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels + 1):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


# (what the transcription file holds, words the error must say)
TRANSCRIPTIONS = [
    (b"", ["empty"]),
    (b"   \n\n", ["empty"]),
    (b"SOURCE: x\nWORK: y\n=====\n\n", ["noTextAfterIt".lower()]),
    (TEXT.encode("utf-8")[:40] + b"\x00\x01\x02binary", ["binarydata", "NULbyteatbyte40"]),
    (TEXT.encode("big5", errors="replace"), ["notUTF-8text", "atbyte"]),
    (b"SOURCE: x\n" + "康熙".encode() + b"\xff\xfe", ["notUTF-8text", "atbyte16"]),
]


@pytest.mark.parametrize(("data", "words"), TRANSCRIPTIONS)
def test_a_bad_transcription_is_named_with_what_is_wrong(
    tmp_path: Path, data: bytes, words: list[str]
) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "gazetteer.txt").write_bytes(data)
    result = runner.invoke(app, ["ingest", str(source), "--drafts", str(tmp_path / "drafts")])
    assert result.exit_code == 2, result.output
    said = _said(result.output)
    assert str(source / "gazetteer.txt") in said, said
    assert all(w.lower() in said.lower() for w in words), said
    assert "Traceback" not in result.output
    assert not (tmp_path / "drafts" / "gazetteer").exists()


def test_a_transcription_too_large_to_align_is_refused_at_once(tmp_path: Path) -> None:
    from dianli.datafile import TRANSCRIPTION_LIMIT_BYTES

    source = tmp_path / "in"
    source.mkdir()
    line = "康熙五十五年，建文廟。\n".encode()
    with (source / "big.txt").open("wb") as out:
        out.write(line * (TRANSCRIPTION_LIMIT_BYTES // len(line) + 1))
    result = runner.invoke(app, ["ingest", str(source), "--drafts", str(tmp_path / "drafts")])
    assert result.exit_code == 2
    said = _said(result.output)
    assert f"{TRANSCRIPTION_LIMIT_BYTES:,}" in said and "atmost4MB" in said and "fasterthanthetext" in said


def test_a_transcription_linked_from_outside_its_folder_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "passwd.txt").symlink_to("/etc/passwd")
    result = runner.invoke(app, ["ingest", str(source), "--drafts", str(tmp_path / "drafts")])
    assert result.exit_code == 2
    assert "/etc/passwd" in _said(result.output) and "outsidethefolder" in _said(result.output)
    assert not (tmp_path / "drafts" / "passwd").exists()


def test_a_fragment_linked_out_of_its_witness_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "corpus" / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    fragment = next(folder.glob("*.txt"))
    fragment.unlink()
    fragment.symlink_to("/etc/passwd")
    result = runner.invoke(app, ["ingest", str(tmp_path / "corpus"), "--workers", "1"])
    assert result.exit_code == 2
    said = _said(result.output)
    assert str(fragment) in said and "/etc/passwd" in said and "outsidethefolder" in said
    assert "root:" not in result.output


def test_a_reading_linked_out_of_its_witness_folder_is_refused(tmp_path: Path) -> None:
    """A readings/*.yaml that is a link to a file outside the witness folder is not read as its reading."""
    folder = tmp_path / "corpus" / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("rites: []\n", encoding="utf-8")
    (folder / "readings").mkdir(exist_ok=True)
    link = folder / "readings" / "linked.yaml"
    link.symlink_to(outside)
    result = runner.invoke(app, ["ingest", str(tmp_path / "corpus"), "--workers", "1"])
    assert result.exit_code == 2
    said = _said(result.output)
    assert str(link) in said and "outsidethefolder" in said


def test_a_yaml_alias_bomb_in_a_manifest_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "corpus" / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    manifest = folder / "witness.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\n" + _bomb(), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(tmp_path / "corpus"), "--workers", "1"])
    assert result.exit_code == 2
    said = _said(result.output)
    assert str(manifest) in said and "aliasbomb" in said and "100,000" in said


TLS = Path(__file__).parent.parent / "fixtures" / "tls"
"""A self-signed certificate (cert.pem) with its key (key.pem), and a key of no certificate (other-key.pem)."""


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--ssl-certfile", "{missing}"], ["nosuchfile"]),
        (["--ssl-certfile", "{garbage}"], ["cannotbeloadedasacertificate"]),
        (["--ssl-certfile", "{cert}", "--ssl-keyfile", "{other}"], ["keyvaluesmismatch"]),
        (["--ssl-certfile", "{cert}", "--ssl-keyfile", "{missing}"], ["nosuchfile"]),
        (["--ssl-keyfile", "{key}"], ["without--ssl-certfile"]),
    ],
)
def test_tls_files_are_checked_before_serving(tmp_path: Path, options: list[str], words: list[str]) -> None:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n", encoding="utf-8")
    paths = {
        "cert": str(TLS / "cert.pem"),
        "key": str(TLS / "key.pem"),
        "other": str(TLS / "other-key.pem"),
        "garbage": str(garbage),
        "missing": str(tmp_path / "missing.pem"),
    }
    result = runner.invoke(app, ["serve", "--port", "1", *(o.format(**paths) for o in options)])
    assert result.exit_code == 2, result.output
    said = _said(result.output)
    assert all(w.lower() in said.lower() for w in words), said
    assert "://" not in said  # the address is not printed: the server never starts
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["music", "寧平", "--huangzhong-hz", "0"], ["--huangzhong-hz0.0", "20to2000Hz"]),
        (["music", "寧平", "--huangzhong-hz", "nan"], ["--huangzhong-hznan", "20to2000Hz"]),
        (["music", "寧平", "--tempo", "0"], ["tempo0.0", "0.1to100"]),
        (["music", "寧平", "--character-seconds", "-1"], ["characterseconds-1.0"]),
        (["music", "寧平", "--stroke-seconds", "1e9"], ["strokeseconds"]),
        (["places", "--year", "1"], ["--year1", "1644..1911"]),
        (["spring-ox", "99999"], ["year99999", "1644..2200"]),
        (["eclipses", "99999"], ["year99999", "1600..2200"]),
        (["--width", "0", "places"], ["--width"]),
        (["ingest", "--workers", "0"], ["--workers"]),
        (["collate", "社稷", "--width", "5"], ["--width"]),
    ],
)
def test_every_number_is_checked_against_its_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    said = _said(result.output)
    assert all(w.lower() in said.lower() for w in words), said
    assert list(tmp_path.iterdir()) == []


def test_a_certificate_with_its_key_passes_the_check() -> None:
    from dianli.cli.serve import _check_tls

    _check_tls(str(TLS / "cert.pem"), str(TLS / "key.pem"))
    _check_tls(None, None)
