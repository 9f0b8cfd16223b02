"""Nothing a user wrote is lost: every command that writes a file refuses to replace one dianli did not
write (or that was changed since), naming it, unless --force; ``-o -`` pipes; names give the format.

Each case of issue 28's "Data loss on write" is here, run as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.written import MANIFEST

runner = CliRunner()
MINE = "my own notes, not dianli's\n"


def _said(output: str) -> str:
    return " ".join(output.split())


def _names(output: str, path: Path) -> bool:
    """Whether the output names ``path`` (a long path may be wrapped across lines)."""
    return "".join(str(path).split()) in "".join(output.split())


# (arguments with {f} for the output path, the file name) — every command that writes a file
WRITERS = [
    (["rites", "show", "祀先師", "-p", "臺灣府", "-y", "1750", "-o", "{f}"], "rite.html"),
    (["temples", "-o", "{f}"], "temples.txt"),
    (["eclipses", "1752", "-o", "{f}"], "eclipses.json"),
    (["variants", "-o", "{f}"], "variants.csv"),
    (["places", "-o", "{f}"], "places.json"),
    (["places", "--year", "1752", "--svg", "{f}"], "map.svg"),
    (["timeline", "--witness", "taiwan-fuzhi-9", "--svg", "{f}"], "timeline.svg"),
    (["spring-ox", "1752", "--svg", "{f}"], "ox.svg"),
    (["calendar", "1752", "--ics", "{f}"], "year.ics"),
    (["dance", "寧平", "--html", "{f}", "--no-audio"], "dance.html"),
    (["dance", "寧平", "-o", "{f}"], "dance.txt"),
    (["music", "寧平", "-o", "{f}"], "ningping.mid"),
    (["collate", "社稷", "-o", "{f}"], "collation.tei.xml"),
    (["align", "taiwan-fuzhi-9", "-o", "{f}"], "align.json"),
    (["align", "taiwan-fuzhi-9", "--draft", "{f}"], "reading.yaml"),
]


@pytest.mark.parametrize(("args", "name"), WRITERS, ids=[" ".join(a[:2]) for a, _ in WRITERS])
def test_a_file_dianli_did_not_write_is_never_replaced(tmp_path: Path, args: list[str], name: str) -> None:
    mine = tmp_path / name
    mine.write_text(MINE, encoding="utf-8")
    result = runner.invoke(app, [a.replace("{f}", str(mine)) for a in args])
    assert result.exit_code == 2, result.output
    said = _said(result.output)
    assert _names(result.output, mine) and "not written by dianli" in said and "--force" in said
    assert "Traceback" not in said
    assert mine.read_text(encoding="utf-8") == MINE


def test_its_own_file_is_replaced_and_an_edited_one_is_not(tmp_path: Path) -> None:
    out = tmp_path / "rite.json"
    args = ["rites", "show", "祀先師", "-p", "臺灣府", "-y", "1750", "-o", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    first = out.read_text(encoding="utf-8")
    assert json.loads(first)["rite"]  # the format is the name's: JSON
    assert runner.invoke(app, args).exit_code == 0  # dianli's own, unchanged: replaced
    assert json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))["files"]["rite.json"][
        "bytes"
    ] == len(first.encode("utf-8"))
    out.write_text(first + "\n", encoding="utf-8")  # a user edits it
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "changed since dianli wrote it" in _said(result.output)
    assert out.read_text(encoding="utf-8") == first + "\n"
    assert runner.invoke(app, [*args, "--force"]).exit_code == 0
    assert out.read_text(encoding="utf-8") == first


def test_force_replaces_a_users_file(tmp_path: Path) -> None:
    mine = tmp_path / "temples.txt"
    mine.write_text(MINE, encoding="utf-8")
    result = runner.invoke(app, ["temples", "-o", str(mine), "--force"])
    assert result.exit_code == 0, result.output
    assert mine.read_text(encoding="utf-8") != MINE


def test_a_link_is_not_followed_to_replace_its_target(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text(MINE, encoding="utf-8")
    link = tmp_path / "temples.txt"
    link.symlink_to(target)
    result = runner.invoke(app, ["temples", "-o", str(link)])
    assert result.exit_code == 2 and "a symbolic link" in _said(result.output)
    assert runner.invoke(app, ["temples", "-o", str(link), "--force"]).exit_code == 0
    assert target.read_text(encoding="utf-8") == MINE and not link.is_symlink()


# --- export: the two cases of the issue ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "mine"),
    [
        ("json", "data/places.csv"),  # a json export removed every table-named CSV, whoever wrote it
        ("csv", "datapackage.json"),  # a csv export overwrote a descriptor it did not write
        ("csv", "data/steps.csv"),
    ],
)
def test_export_never_replaces_nor_removes_a_users_file(tmp_path: Path, fmt: str, mine: str) -> None:
    path = tmp_path / mine
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(MINE, encoding="utf-8")
    result = runner.invoke(app, ["export", "--out", str(tmp_path), "--format", fmt])
    assert result.exit_code == 2, result.output
    assert _names(result.output, path) and "--force" in _said(result.output)
    assert path.read_text(encoding="utf-8") == MINE


# --- music -o - --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "magic"), [("wav", b"RIFF"), ("mid", b"MThd")])
def test_music_to_standard_output_is_the_file_not_a_file_named_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, magic: bytes
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["music", "寧平", "-f", fmt, "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes.startswith(magic) and len(result.stdout_bytes) > 1000
    assert not (tmp_path / "-").exists()


def test_music_bytes_to_a_terminal_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # standard output taken for a terminal
    result = runner.invoke(app, ["music", "寧平", "-o", "-"])
    assert result.exit_code == 2
    assert "standard output" in _said(result.output) and "-o FILE" in _said(result.output)
    assert list(tmp_path.iterdir()) == []


# --- the format is the name's (issue 27, item 2) ----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "name", "magic"),
    [
        (["music", "寧平"], "n.mid", b"MThd"),
        (["music", "寧平"], "n.flac", b"fLaC"),
        (["music", "寧平"], "n.musicxml", b"<?xml"),
        (["rites", "show", "祀先師", "-p", "臺灣府", "-y", "1750"], "r.html", b"<!DOCTYPE html>"),
        (["temples"], "t.json", b"["),
        (["places"], "p.csv", b"id,from_year,"),
    ],
)
def test_the_name_picks_the_format(tmp_path: Path, args: list[str], name: str, magic: bytes) -> None:
    result = runner.invoke(app, [*args, "-o", str(tmp_path / name)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / name).read_bytes().lstrip().startswith(magic)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["music", "寧平", "-o", "n.flac", "--format", "wav"], ("'.flac'", "'wav'")),
        (
            ["rites", "show", "祀先師", "-p", "臺灣府", "-y", "1750", "-o", "r.json", "-f", "html"],
            ("'.json'", "'html'"),
        ),
        (["places", "-o", "p.csv", "-f", "json"], ("'.csv'", "'json'")),
        (["music", "寧平", "-o", "n.ogg"], ("'.ogg'", ".wav")),
    ],
)
def test_a_name_contradicting_the_format_is_an_error_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], named: tuple[str, str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    said = _said(result.output)
    assert all(n in said for n in named), said
    assert list(tmp_path.iterdir()) == []


def test_a_program_booklet_never_replaces_a_users_file(tmp_path: Path) -> None:
    args = ["program", "祀先師", "--place", "臺灣府", "--year", "1750", "--no-audio", "--out", str(tmp_path)]
    made = runner.invoke(app, args)
    assert made.exit_code == 0, made.output
    booklet = Path(made.stdout.strip().splitlines()[0])
    assert runner.invoke(app, args).exit_code == 0  # its own: replaced
    booklet.write_text(MINE, encoding="utf-8")
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and _names(again.output, booklet)
    assert booklet.read_text(encoding="utf-8") == MINE


# --- ingest --drafts: a curator's manifest merged or the conflict reported, never overwritten ----------


def _gazetteer(folder: Path, name: str = "zhuluo.txt", work: str = "諸羅縣志 卷四") -> Path:
    """A transcribed gazetteer file: a shipped witness's text under a transcriber's header."""
    from dianli.corpus.witnesses import manifest

    info = next(i for i in manifest() if i.id == "zhuluo-xianzhi-4")
    body = (info.folder / info.files[0].file).read_text(encoding="utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"SOURCE: a test\nWORK: {work}\n=====\n{body}", encoding="utf-8")
    return path


def test_a_new_draft_keeps_a_curators_edits(tmp_path: Path) -> None:
    from dianli.comparison.ingest import draft_corpus

    _gazetteer(tmp_path / "in")
    draft_corpus(tmp_path / "in", tmp_path / "drafts")
    manifest_path = tmp_path / "drafts" / "zhuluo" / "witness.yaml"
    curated = manifest_path.read_text(encoding="utf-8").replace(
        "language: classical", "language: classical  # checked"
    )
    manifest_path.write_text(curated, encoding="utf-8")
    _gazetteer(tmp_path / "in", work="諸羅縣志 卷四 二校")  # the draft's title changes
    draft_corpus(tmp_path / "in", tmp_path / "drafts")
    merged = manifest_path.read_text(encoding="utf-8")
    assert "language: classical  # checked" in merged  # the curator's line
    assert "title: 諸羅縣志 卷四 二校" in merged  # the new draft's


def test_a_draft_conflicting_with_a_curators_edit_is_reported(tmp_path: Path) -> None:
    from dianli.comparison.ingest import draft_corpus

    _gazetteer(tmp_path / "in")
    draft_corpus(tmp_path / "in", tmp_path / "drafts")
    folder = tmp_path / "drafts" / "zhuluo"
    manifest_path = folder / "witness.yaml"
    text = manifest_path.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    curated = text.replace(title, "title: 諸羅縣志 (curated)")
    manifest_path.write_text(curated, encoding="utf-8")
    _gazetteer(tmp_path / "in", work="諸羅縣志 卷四 二校")
    result = runner.invoke(app, ["ingest", str(tmp_path / "in"), "--drafts", str(tmp_path / "drafts")])
    assert result.exit_code == 2, result.output
    said = _said(result.output)
    line = text.splitlines().index(title) + 1
    assert _names(result.output, manifest_path) and f"lines {line}" in said and "--force" in said
    assert manifest_path.read_text(encoding="utf-8") == curated  # kept as the curator left it
    assert "二校" in (folder / "witness.new-draft.yaml").read_text(encoding="utf-8")


def test_a_curators_change_of_the_copied_text_is_kept(tmp_path: Path) -> None:
    from dianli.comparison.ingest import draft_corpus
    from dianli.errors import DianliError

    source = _gazetteer(tmp_path / "in")
    draft_corpus(tmp_path / "in", tmp_path / "drafts")
    copy = tmp_path / "drafts" / "zhuluo" / source.name
    corrected = copy.read_text(encoding="utf-8") + "\n（校）\n"
    copy.write_text(corrected, encoding="utf-8")
    with pytest.raises(DianliError, match="changed since dianli wrote it"):
        draft_corpus(tmp_path / "in", tmp_path / "drafts")
    assert copy.read_text(encoding="utf-8") == corrected
    draft_corpus(tmp_path / "in", tmp_path / "drafts", force=True)
    assert copy.read_bytes() == source.read_bytes()


def test_names_giving_one_witness_id_are_an_error_naming_them(tmp_path: Path) -> None:
    for name in ("a b.txt", "a-b.txt", "a_b.txt"):
        _gazetteer(tmp_path / "in", name)
    result = runner.invoke(app, ["ingest", str(tmp_path / "in"), "--drafts", str(tmp_path / "drafts")])
    assert result.exit_code == 2
    said = _said(result.output)
    assert all(name in said for name in ("a b.txt", "a-b.txt", "a_b.txt")) and "a-b" in said
    assert not (tmp_path / "drafts").exists() or not any((tmp_path / "drafts").iterdir())


# --- '-' for the other writers: standard output, or refused ---------------------------------------


def test_a_booklet_to_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["program", "祀先師", "--place", "臺灣府", "--year", "1750", "--no-audio", "--out", "-"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes.startswith(b"<!DOCTYPE html>") and list(tmp_path.iterdir()) == []
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "--out FOLDER" in _said(refused.output)


@pytest.mark.parametrize(
    "args",
    [["export", "--out", "-"], ["ingest", "--drafts", "-"], ["ingest", "--out", "-"]],
)
def test_a_folder_option_refuses_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert f"{args[-2]} names a folder" in _said(result.output)
    assert list(tmp_path.iterdir()) == []


# (arguments, the option given '-') — every option that writes a file beside what its command prints
FILE_OPTIONS = [
    (["calendar", "1752", "--ics", "-"], "--ics"),
    (["spring-ox", "1752", "--svg", "-"], "--svg"),
    (["places", "--year", "1752", "--svg", "-"], "--svg"),
    (["timeline", "--witness", "taiwan-fuzhi-9", "--svg", "-"], "--svg"),
    (["dance", "寧平", "--html", "-", "--no-audio"], "--html"),
    (["variants", "--rule", "chenghuang.date_rule", "--svg-timeline", "-"], "--svg-timeline"),
    (["variants", "--rule", "chenghuang.date_rule", "--year", "1752", "--svg-map", "-"], "--svg-map"),
    (["align", "taiwan-fuzhi-9", "--draft", "-"], "--draft"),
]


@pytest.mark.parametrize(("args", "option"), FILE_OPTIONS, ids=[f"{a[0]} {o}" for a, o in FILE_OPTIONS])
def test_a_file_option_refuses_standard_output_and_writes_no_file_named_dash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], option: str
) -> None:
    """Each of these wrote a file named '-' (as music -o - did); standard output holds the command's own
    text, so '-' is refused, before any work, naming the option."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert f"{option} -: {option} writes a file beside what the command prints" in _said(result.output)
    assert "accepted: a file path" in _said(result.output)
    assert list(tmp_path.iterdir()) == []
