"""A witness is a folder: its manifest is strict and cross-checked, its files are carried unchanged, and
more witnesses are added from the folders ``DIANLI_WITNESSES`` names."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from dianli.corpus.witnesses import (
    FRAGMENT_SEPARATOR,
    MANIFEST_FILE,
    load_witness,
    manifest,
    package_root,
    reading_files,
    translation_pairs,
    witness_ids,
    witness_info,
    witness_roots,
)
from dianli.errors import DataError, UnknownValueError

FIXTURES = Path(__file__).parent.parent / "fixtures" / "witnesses"
FIXTURE = "test-fixture-gazetteer"
UseRoots = Callable[..., None]

# id: fragment files, script, language, authority
EXPECTED = {
    "fujian-tongzhi-14": (["003_0d64ae3018f5097c.txt", "004_b8efe50b3f1af946.txt"], "traditional", "classical", "primary"),
    "fujian-tongzhi-14-modern": (["000_e1adf0d084ad04ec.txt"], "simplified", "modern", "gloss"),
    "taiwan-fuzhi-9": (["001_4c9879b1f5e707b1.txt"], "traditional", "classical", "primary"),
    "tingzhou-fuzhi": (["002_1b7263fea57d830b.txt"], "simplified", "classical", "primary"),
}  # fmt: skip

# id: compiled year, translation_of, base, governed (place, from_year, until_year)
DATED = {
    "fujian-tongzhi-14": (1737, None, None, [("fujian", 1737, None)]),
    "fujian-tongzhi-14-modern": (1737, "fujian-tongzhi-14", "fujian-tongzhi-14", []),
    "taiwan-fuzhi-9": (1742, None, None, [("taiwan-fu", 1742, None), ("taiwan-xian", 1742, None),
                                          ("fengshan", 1742, None), ("zhuluo", 1742, None),
                                          ("zhanghua", 1742, None), ("danshui", 1742, None),
                                          ("taiwan-sheng", 1887, None)]),
    # the run of 卷十一 that tingzhou-fuzhi-11 leaves out: the chapter governs 汀州府 through that file
    "tingzhou-fuzhi": (1752, None, "fujian-tongzhi-14", []),
    "tingzhou-fuzhi-11": (1752, None, "tingzhou-fuzhi", [("tingzhou", 1752, None)]),
}  # fmt: skip


def test_package_witnesses_in_order() -> None:
    """Package witnesses by compiled year, then id (the seeds among them in this order)."""
    seeds = ("fujian-tongzhi-14", "fujian-tongzhi-14-modern", "taiwan-fuzhi-9", "tingzhou-fuzhi")
    assert tuple(w for w in witness_ids() if w in seeds) == seeds
    years = [(witness_info(w).compiled_year, w) for w in witness_ids()]
    assert years == sorted(years)


@pytest.mark.parametrize("witness", sorted(EXPECTED))
def test_fragments_are_the_files_unchanged(witness: str) -> None:
    files, script, language, authority = EXPECTED[witness]
    wit = load_witness(witness)
    folder = package_root() / witness
    assert wit.info.folder == folder.resolve()
    assert [f.file for f in wit.fragments] == files
    assert (wit.info.script, wit.info.language, wit.info.authority) == (script, language, authority)
    assert wit.raw == FRAGMENT_SEPARATOR.join((folder / f).read_text(encoding="utf-8") for f in files)
    for fragment in wit.fragments:
        assert wit.raw[fragment.start : fragment.end] == (folder / fragment.file).read_text(encoding="utf-8")
        assert wit.fragment_at(fragment.start) == fragment


@pytest.mark.parametrize("witness", sorted(DATED))
def test_dates_bases_and_governed_places(witness: str) -> None:
    year, translation_of, base, governed = DATED[witness]
    info = witness_info(witness)
    assert (info.compiled_year, info.translation_of, info.base) == (year, translation_of, base)
    assert [(g.place, g.from_year, g.until_year) for g in info.governs] == governed
    assert info.compiled_source.startswith("assumption: ") and info.compiled_cite is None
    # each entry is cited in the witness itself, or says why it is assumed
    assert all((g.cite is not None and g.cite.witness == witness) or g.source.startswith("assumption: ")
               for g in info.governs)  # fmt: skip
    assert all(g.source == g.cite.text for g in info.governs if g.cite is not None)


def test_a_witness_that_governs_no_place_says_why() -> None:
    """Every witness governs places or gives the reason it governs none, never both; the packaged ones that
    govern none: the translation, the run of 汀州府志 卷十一 held apart, 金門志 (no unit), 范咸's 府志 and the
    Taiwan parts of 重纂福建通志 (their units governed by others), the Republican 南平縣志 (written after the Qing rites ended),
    廈門志 (no unit), the 康熙 安溪縣志 whose 問禮 reprints the 嘉靖 text, the second chapters of 諸羅, 鳳山 and 臺灣縣志 (their work's 祀典/典禮 chapter governs the county) and every witness written before the Qing (Song and Ming
    works: no place of the Qing administration is theirs)."""
    from dianli.comparison.dynasty import qing_start

    for info in manifest():
        assert bool(info.governs) != bool(info.governs_no_place), info.id
    packaged = [info for info in manifest() if info.folder.parent == package_root()]
    none = sorted(info.id for info in packaged if not info.governs)
    before_qing = sorted(info.id for info in packaged if info.compiled_year < qing_start())
    assert {"chunxi-sanshan-zhi-8", "bamin-tongzhi-58", "linting-zhi", "yongan-xianzhi-wanli-3"} <= set(
        before_qing
    )
    assert (
        none
        == sorted(
            [
                "chongxiu-taiwan-fuzhi-7",  # 范咸's 府志: the units it was written for are governed by 臺灣府志 (1741)
                "chongzuan-fujian-tongzhi-taiwan-28",  # the Taiwan parts of a provincial gazetteer
                # second chapters of a work whose 祀典/典禮 chapter governs the county (and is their base):
                "fengshan-xianzhi-2",  # 鳳山縣志's 學宮 (卷之三 fengshan-xianzhi-3 governs 鳳山縣)
                "taiwan-xianzhi-2",  # 臺灣縣志's 學校・壇廟 (志六 taiwan-xianzhi-6 governs 臺灣縣)
                "zhuluo-xianzhi-5",  # 諸羅縣志's 學校志 (卷四 zhuluo-xianzhi-4 governs 諸羅縣)
                "fujian-tongzhi-14-modern",
                "fujian-tongzhi-15",  # 卷十五 祠祀 of the edition whose 卷十四 典禮 governs the province
                "jinmen-zhi-4",
                "nanping-xianzhi-11",
                "tingzhou-fuzhi",
                "anxi-xianzhi-kangxi-9",  # its 問禮 reprints the 嘉靖 (1552) text: the Ming code, no Qing place's
                "xiamen-zhi-2",  # 廈門, a 里 of 同安縣: no unit
                *before_qing,
            ]
        )
    )


def test_translation_pairs() -> None:
    assert translation_pairs() == (("fujian-tongzhi-14", "fujian-tongzhi-14-modern"),)


def test_folder_name_is_the_id() -> None:
    assert [info.folder.name for info in manifest()] == list(witness_ids())
    assert all((info.folder / MANIFEST_FILE).is_file() for info in manifest())


def test_attribution_is_shipped() -> None:
    readme = (resources.files("dianli.corpus") / "witnesses" / "README.md").read_text(encoding="utf-8")
    for witness, (files, *_) in EXPECTED.items():
        for file in files:
            assert f"{witness}/{file}" in readme


def test_unknown_witness_lists_the_ids() -> None:
    with pytest.raises(UnknownValueError) as info:
        load_witness("fujian")
    assert all(w in str(info.value) for w in EXPECTED)
    with pytest.raises(UnknownValueError):
        reading_files("fujian")


def test_no_witness_id_in_python_under_src() -> None:
    """Code names no witness: which witness does what is data (manifests, data files)."""
    root = Path(str(resources.files("dianli")))
    pattern = re.compile("|".join(re.escape(w) for w in sorted(witness_ids(), key=len, reverse=True)))
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


# --- extra roots -------------------------------------------------------------------------------------------


def _copy_fixture(root: Path, name: str = FIXTURE) -> Path:
    folder = root / name
    shutil.copytree(FIXTURES / FIXTURE, folder)
    return folder


def _edit(folder: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    path = folder / MANIFEST_FILE
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _rename(old: str, new: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(new, d.pop(old))


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.__setitem__(key, value)


def _set_in(key: str, inner: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: (
        d[key][0].__setitem__(inner, value) if isinstance(d[key], list) else d[key].__setitem__(inner, value)
    )


# A broken manifest: the change, and what the error names besides the manifest's path.
BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("typo anchor", _rename("anchors", "anchor"), ["unknown key 'anchor'", "accepted keys:", "anchors", "governs"]),
    ("nested typo", _set_in("compiled", "asumption", "x"), ["compiled", "unknown key 'asumption'", "assumption, year"]),
    ("missing key", lambda d: d.pop("script"), ["script", "Field required"]),
    ("id not folder", _set("id", "another-id"), ["id:", "'another-id'", f"accepted: '{FIXTURE}'"]),
    ("id not an id", _set("id", "Bad Id"), ["id:", "'Bad Id'"]),
    ("fragment file", _set("fragments", [{"file": "missing.txt"}]), ["fragments.0.file", "'missing.txt'", "fixture_dianli.txt"]),
    ("no fragments", _set("fragments", []), ["fragments"]),
    ("starts_in", _set_in("fragments", "starts_in", "no.such"), ["fragments.0.starts_in", "'no.such'", "litan", "xianshi"]),
    ("anchor section", _set("anchors", [["litan", "祭厲壇禮"], ["no.such", "祀先師禮"]]), ["anchors.1", "'no.such'", "litan"]),
    ("anchor shape", _set("anchors", [["litan"]]), ["anchors.0"]),
    ("translation_of", _set("translation_of", "nowhere"), ["translation_of", "'nowhere'", "taiwan-fuzhi-9"]),
    ("base", _set("base", "nowhere"), ["base:", "'nowhere'", "taiwan-fuzhi-9"]),
    ("base is itself", _set("base", FIXTURE), ["base:", f"{FIXTURE} → {FIXTURE}"]),
    ("authority", _set("authority", "secondary"), ["authority", "'secondary'", "'primary', 'gloss' or 'test-fixture'"]),
    ("script", _set("script", "kaishu"), ["script", "'kaishu'", "'traditional' or 'simplified'"]),
    ("language", _set("language", "vernacular"), ["language", "'vernacular'", "'classical' or 'modern'"]),
    ("punctuated", _set("punctuated", "yes"), ["punctuated", "'yes'"]),
    ("year", _set("compiled", {"year": "1760", "assumption": "x"}), ["compiled.year", "'1760'"]),
    ("cite and assumption", _set("compiled", {"year": 1760, "assumption": "x", "cite": {"witness": "taiwan-fuzhi-9", "quote": "臺灣府"}}), ["compiled", "exactly one of 'cite'"]),
    ("cite witness", _set("compiled", {"year": 1760, "cite": {"witness": "nowhere", "quote": "臺灣府"}}), ["compiled.cite.witness", "'nowhere'", "taiwan-fuzhi-9"]),
    ("cite section", _set("compiled", {"year": 1760, "cite": {"witness": "taiwan-fuzhi-9", "quote": "臺灣府", "section": "no.such"}}), ["compiled.cite.section", "'no.such'"]),
    ("governs place", _set("governs", [{"place": "淡水廳", "assumption": "x"}]), ["governs.0.place", "'淡水廳'"]),
    ("governs years", _set("governs", [{"place": "danshui", "until_year": 1750, "assumption": "x"}]), ["governs.0.until_year", "1750", "1760"]),
    ("governs source", _set("governs", [{"place": "danshui"}]), ["governs.0", "exactly one of 'cite'"]),
    ("governs unknown place", _set("governs", [{"place": "nowhere-fu", "assumption": "x"}]), ["governs.0.place", "unknown place 'nowhere-fu'", "danshui, ", "taiwan-fu"]),
    ("governs none, no reason", _set("governs", []), ["governs:", "does not say why", "governs_no_place"]),
    ("governs and no place", _set("governs_no_place", "x"), ["governs_no_place:", "'danshui'", "not both"]),
    ("governs none, empty reason", lambda d: d.update(governs=[], governs_no_place=""), ["governs_no_place", "at least 1 character"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "expected"), [(c, e) for _, c, e in BROKEN], ids=[n for n, _, _ in BROKEN]
)
def test_broken_manifest_is_a_data_error(
    tmp_path: Path, use_roots: UseRoots, change: Callable[[dict[str, Any]], None], expected: list[str]
) -> None:
    path = _edit(_copy_fixture(tmp_path), change)
    use_roots(tmp_path)
    with pytest.raises(DataError) as info:
        manifest()
    message = str(info.value)
    assert message.startswith(str(path.resolve())), message
    for fragment in expected:
        assert fragment in message, message


def test_invalid_yaml_names_the_file(tmp_path: Path, use_roots: UseRoots) -> None:
    path = _copy_fixture(tmp_path) / MANIFEST_FILE
    path.write_text("id: [unclosed\n", encoding="utf-8")
    use_roots(tmp_path)
    with pytest.raises(DataError, match="not valid YAML") as info:
        manifest()
    assert str(path.resolve()) in str(info.value)


def test_base_cycle_names_the_chain(tmp_path: Path, use_roots: UseRoots) -> None:
    _edit(_copy_fixture(tmp_path, "cycle-a"), lambda d: d.update(id="cycle-a", base="cycle-b"))
    _edit(_copy_fixture(tmp_path, "cycle-b"), lambda d: d.update(id="cycle-b", base="cycle-a"))
    use_roots(tmp_path)
    with pytest.raises(DataError, match="cycle-a → cycle-b → cycle-a"):
        manifest()


def test_translation_cycle_is_an_error(tmp_path: Path, use_roots: UseRoots) -> None:
    _edit(
        _copy_fixture(tmp_path, "cycle-a"),
        lambda d: d.update(id="cycle-a", translation_of="cycle-b", base=None),
    )
    _edit(
        _copy_fixture(tmp_path, "cycle-b"),
        lambda d: d.update(id="cycle-b", translation_of="cycle-a", base=None),
    )
    use_roots(tmp_path)
    with pytest.raises(DataError, match="base: 'cycle-b' leads back"):
        manifest()


def test_duplicate_id_names_both_folders(tmp_path: Path, use_roots: UseRoots) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    a = _copy_fixture(first)
    b = _copy_fixture(second)
    use_roots(first, second)
    with pytest.raises(DataError) as info:
        manifest()
    message = str(info.value)
    assert "defined twice" in message and str(a.resolve()) in message and str(b.resolve()) in message


def test_package_id_in_an_extra_root_is_a_duplicate(tmp_path: Path, use_roots: UseRoots) -> None:
    _edit(_copy_fixture(tmp_path, "taiwan-fuzhi-9"), _set("id", "taiwan-fuzhi-9"))
    use_roots(tmp_path)
    with pytest.raises(DataError, match="'taiwan-fuzhi-9' is defined twice"):
        manifest()


def test_folder_without_manifest_is_an_error(tmp_path: Path, use_roots: UseRoots) -> None:
    (tmp_path / "stray").mkdir()
    (tmp_path / "_skipped").mkdir()
    use_roots(tmp_path)
    with pytest.raises(DataError, match=f"stray: a witness folder without {MANIFEST_FILE}"):
        manifest()


def test_root_that_is_not_a_folder(tmp_path: Path, use_roots: UseRoots) -> None:
    use_roots(tmp_path / "nowhere")
    with pytest.raises(DataError, match=r"DIANLI_WITNESSES: .*nowhere.* is not a folder"):
        witness_roots()


def test_anchor_heading_not_in_the_text(tmp_path: Path, use_roots: UseRoots) -> None:
    from dianli.corpus.sections import sections

    path = _edit(_copy_fixture(tmp_path), _set("anchors", [["xianshi", "祀先師禮"], ["litan", "祭厲壇禮"]]))
    use_roots(tmp_path)
    assert FIXTURE in witness_ids()  # the manifest is valid: the order is checked on the text
    with pytest.raises(DataError) as info:
        sections(FIXTURE)
    assert str(info.value).startswith(str(path.resolve())) and "'祭厲壇禮'" in str(info.value)


def test_extra_roots_follow_the_package_in_order(tmp_path: Path, use_roots: UseRoots) -> None:
    early, late = tmp_path / "early", tmp_path / "late"
    _edit(
        _copy_fixture(late, "b-later"),
        lambda d: d.update(id="b-later", compiled={"year": 1800, "assumption": "x"}),
    )
    _edit(
        _copy_fixture(late, "a-earlier"),
        lambda d: d.update(id="a-earlier", compiled={"year": 1790, "assumption": "x"}),
    )
    _edit(_copy_fixture(early, "z-first-root"), _set("id", "z-first-root"))
    use_roots(early, late, early)
    assert witness_roots() == (package_root().resolve(), early.resolve(), late.resolve())
    assert witness_ids()[-3:] == ("z-first-root", "a-earlier", "b-later")


def test_reading_files_are_the_sorted_yaml_of_readings(tmp_path: Path, use_roots: UseRoots) -> None:
    folder = _copy_fixture(tmp_path)
    readings = folder / "readings"
    shutil.rmtree(readings, ignore_errors=True)
    readings.mkdir()
    for name in ("litan.yaml", "a-first.yaml", "notes.txt"):
        (readings / name).write_text("family: x\n", encoding="utf-8")
    use_roots(tmp_path)
    assert [p.name for p in reading_files(FIXTURE)] == ["a-first.yaml", "litan.yaml"]
    shutil.rmtree(readings)
    assert reading_files(FIXTURE) == ()


def test_translation_pairs_from_an_extra_root(tmp_path: Path, use_roots: UseRoots) -> None:
    _edit(_copy_fixture(tmp_path), lambda d: d.update(translation_of="taiwan-fuzhi-9", base=None))
    use_roots(tmp_path)
    assert translation_pairs() == (
        ("fujian-tongzhi-14", "fujian-tongzhi-14-modern"),
        ("taiwan-fuzhi-9", FIXTURE),
    )
    assert witness_info(FIXTURE).base == "taiwan-fuzhi-9"


def test_empty_entries_and_repeats_are_skipped(tmp_path: Path, use_roots: UseRoots) -> None:
    _copy_fixture(tmp_path)
    use_roots("", tmp_path, "", tmp_path)
    assert witness_roots() == (package_root().resolve(), tmp_path.resolve())
    assert witness_ids()[-1] == FIXTURE


@pytest.mark.parametrize("witness_id", ["taiwan-fuzhi-9", "tingzhou-fuzhi-11", "gemalan-tingzhi-3"])
def test_a_cached_witness_is_the_cold_one(witness_id: str, cold_and_warm: Callable[..., Any]) -> None:
    """The normalised witness kept on disk reads back exactly as a cold load makes it."""
    from dianli.corpus import witnesses

    cold, warm = cold_and_warm(witnesses.load_witness, witness_id)
    assert warm.norm.text == cold.norm.text and warm.fragments == cold.fragments
    assert warm.info == cold.info
    assert warm.norm == cold.norm


def _titles() -> Any:
    from dianli.corpus import labels

    return labels._witness_titles


@pytest.mark.parametrize(
    ("cached", "expected"),
    [
        (lambda: witness_ids, lambda infos: tuple(info.id for info in infos)),
        (_titles, lambda infos: {info.id: info.short_title for info in infos if info.id == "taiwan-fuzhi-9"}),
        (
            lambda: translation_pairs,
            lambda infos: tuple((i.translation_of, i.id) for i in infos if i.translation_of is not None),
        ),
    ],
    ids=["witness_ids", "titles", "translation_pairs"],
)
def test_tables_of_the_manifests_are_read_back_from_the_disk_without_them(
    cached: Callable[[], Any],
    expected: Callable[[tuple[Any, ...]], Any],
    cold_and_warm: Callable[..., tuple[Any, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dianli.corpus import witnesses

    function = cached()
    cold, warm = cold_and_warm(function)
    wanted = expected(manifest())
    assert warm == cold and (cold == wanted if isinstance(cold, tuple) else wanted.items() <= cold.items())

    def refuse() -> Any:
        raise AssertionError("the manifests were read again despite the cache entry")

    monkeypatch.setattr(witnesses, "manifest", refuse)
    function.cache_clear()  # a new process: only the disk holds them
    assert function() == cold


@pytest.mark.parametrize("folders", [("fixtures",), ("fixtures", "nowhere")])
def test_the_witness_ids_follow_the_extra_folders(
    folders: tuple[str, ...], tmp_path: Path, use_roots: UseRoots, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path / "cache"))
    roots = [FIXTURES if name == "fixtures" else tmp_path / name for name in folders]
    use_roots(*roots)
    if all(root.is_dir() for root in roots):
        assert FIXTURE in witness_ids()
    else:  # a folder that is not one is an error, however the cache stands
        with pytest.raises(DataError, match="is not a folder"):
            witness_ids()
