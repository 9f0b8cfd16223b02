"""How to cite: CITATION.cff at the root, and every output — booklet, table, figure — naming the version and
the data digest (dianli.cache's package digest) it was made from."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

import dianli
from dianli import cache

ROOT = Path(__file__).resolve().parents[2]


def test_the_provenance_is_the_package_digest() -> None:
    found = dianli.provenance()
    assert found.version == dianli.__version__
    assert found.data_digest == cache.package_digest()
    assert found.data_digest in found.citation() and dianli.__version__ in found.citation()


def test_citation_cff_names_this_version() -> None:
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert cff["version"] == dianli.__version__
    assert cff["license"] == "GPL-3.0-or-later"
    assert cff["title"].startswith("dianli")
    assert "data digest" in cff["message"]


FIGURES: dict[str, Callable[[], str]] = {
    "spring ox": lambda: dianli.spring_ox(1752).svg(),
    "variants map": lambda: dianli.variants(rite="祀先師").map_svg(
        1752, dianli.variants(rite="祀先師")[0]["rule"]
    ),
    "collation page": lambda: dianli.collate("社稷").html(),
}


@pytest.mark.parametrize("name", list(FIGURES))
def test_figures_carry_version_and_digest(name: str) -> None:
    made = FIGURES[name]()
    found = dianli.provenance()
    assert f"dianli {found.version}" in made and f"sha256:{found.data_digest}" in made


def test_the_booklet_carries_them_and_replaces_no_file(tmp_path: Path) -> None:
    c = dianli.ceremony("祀先師", "臺灣府", 1752)
    path = c.booklet(tmp_path / "booklet.html", appendix="none")
    text = path.read_text(encoding="utf-8")
    assert f'<meta name="dianli-data-digest" content="sha256:{dianli.provenance().data_digest}">' in text
    assert f"dianli {dianli.__version__}" in text
    theirs = tmp_path / "theirs.html"
    theirs.write_text("mine", encoding="utf-8")
    with pytest.raises(FileExistsError, match="there already"):
        c.booklet(theirs)
    assert theirs.read_text(encoding="utf-8") == "mine"


# --- the command line's outputs carry them too -------------------------------------------------------------

CLI_FIGURES = {
    "spring-ox picture": ["spring-ox", "1752", "--svg", "{out}"],
    "map of the places": ["places", "--year", "1752", "--svg", "{out}"],
    "timeline of dated events": ["timeline", "--place", "諸羅縣", "--svg", "{out}"],
    "variants map": ["variants", "--rule", "{rule}", "--svg-map", "{out}", "--year", "1752"],
    "variants timeline": ["variants", "--rule", "{rule}", "--svg-timeline", "{out}"],
    "booklet": [
        "program",
        "祀先師",
        "--place",
        "臺灣府",
        "--year",
        "1752",
        "--no-audio",
        "--out",
        "{folder}",
    ],
}


@pytest.mark.parametrize("name", list(CLI_FIGURES))
def test_command_line_outputs_carry_version_and_digest(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from dianli.cli import app

    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path / "cache"))  # the booklet made, not copied
    out = tmp_path / "figure.svg"
    rule = dianli.variants(rite="祀先師")[0]["rule"]
    args = [a.format(out=out, rule=rule, folder=tmp_path / "booklet") for a in CLI_FIGURES[name]]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    made = out if out.exists() else next((tmp_path / "booklet").glob("*.html"))
    text = made.read_text(encoding="utf-8")
    found = dianli.provenance()
    assert f"dianli {found.version}" in text and f"sha256:{found.data_digest}" in text


def test_the_data_package_names_them() -> None:
    from dianli.opendata.package import descriptor

    made = descriptor(None, "csv")["dianli"]
    assert made["dianli_version"] == dianli.__version__
    assert made["data_digest"] == dianli.provenance().data_digest


def test_the_web_app_s_booklet_names_them() -> None:
    from fastapi.testclient import TestClient

    from dianli.web.app import app

    page = TestClient(app).get("/program/祀先師", params={"place": "臺灣府", "year": "1752"})
    assert page.status_code == 200
    assert f'content="sha256:{dianli.provenance().data_digest}"' in page.text
