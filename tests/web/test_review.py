"""The review page (/review/W): a drafted witness's proposals in words, read-only to anyone; accepting or
rejecting one needs the review code the server prints, a session cookie and the page's form token, and
writes exactly what ``dianli align W --review`` writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from dianli.corpus import labels, witnesses
from dianli.web.app import create_app
from dianli.web.review import COOKIE, FAIL_LIMIT, FORM_LIMIT

from ..data_ids import visible_text

FIXTURE = Path(__file__).parents[1] / "fixtures" / "drafts" / "jinjiang_excerpt.txt"
WITNESS = "jinjiang-excerpt"
FILES = ("readings/drafted.yaml", "readings/reviewed.yaml", "review.yaml")
"""What a decision writes, in the witness's folder."""


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=900, check=False
    )


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A witness folder as a user makes one (``dianli ingest --drafts`` of a transcribed file), its drafted
    readings proposed against 福建通志: the 社稷 posture and the 山川 days — two proposals."""
    root = tmp_path_factory.mktemp("review")
    source = root / "gazetteers"
    source.mkdir()
    shutil.copy(FIXTURE, source / FIXTURE.name)
    drafts = root / "drafts"
    env = {**os.environ, "DIANLI_WITNESSES": str(drafts)}
    env.pop("DIANLI_WITH_DRAFTS", None)
    done = _run(["-m", "dianli", "ingest", str(source), "--drafts", str(drafts)], env)
    assert done.returncode == 0, done.stderr
    script = (
        "import sys; from pathlib import Path\n"
        "from dianli import written\n"
        "from dianli.comparison.drafted import drafted_file, proposals\n"
        f"found = proposals({WITNESS!r}, base='fujian-tongzhi-14')\n"
        "written.write(Path(sys.argv[1]), drafted_file(" + repr(WITNESS) + ", found).encode())\n"
    )
    made = _run(["-c", script, str(drafts / WITNESS / "readings" / "drafted.yaml")], env)
    assert made.returncode == 0, made.stderr
    return drafts


def _clear() -> None:
    for function in (
        witnesses.manifest,
        witnesses.witness_ids,
        witnesses.load_witness,
        labels._witness_titles,
    ):
        function.cache_clear()


@pytest.fixture()
def folder(drafted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh copy of the drafted witnesses, the corpus's extra folder for this test."""
    root = tmp_path / "witnesses"
    shutil.copytree(drafted, root)
    monkeypatch.setenv("DIANLI_WITNESSES", str(root))
    _clear()
    yield root / WITNESS
    monkeypatch.delenv("DIANLI_WITNESSES")
    _clear()


@pytest.fixture()
def client(folder: Path) -> TestClient:
    return TestClient(create_app())


def _code(client: TestClient) -> str:
    code = client.app.state.review_gate.code  # type: ignore[attr-defined]
    assert isinstance(code, str)
    return code


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {f: (folder / f).read_bytes() if (folder / f).exists() else None for f in FILES}


def _signed_in(client: TestClient) -> str:
    """Sign in with the server's code; the form token of the page."""
    done = client.post(f"/review/{WITNESS}/sign-in", data={"code": _code(client)}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/review/{WITNESS}?done=signed-in"
    cookie = done.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/review" in cookie
    page = client.get(f"/review/{WITNESS}")
    token = page.text.split('name="token" value="', 1)[1].split('"', 1)[0]
    assert len(token) >= 24
    return token


def test_the_page_lists_the_proposals_in_words_read_only(client: TestClient, folder: Path) -> None:
    page = client.get(f"/review/{WITNESS}")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    text = " ".join(visible_text(page.text).split())
    assert "[1] 祭社稷禮 · 禮節 (posture): 一跪三叩 → 三跪九叩" in text and "「行三跪九叩礼」" in text
    assert "[2] 祭山川禮 · 祭期 (day rule): 二月上戊、八月上戊" in text
    assert "2 proposals to review" in text and "（草稿 draft）" in text
    assert 'name="decision"' not in page.text and 'action="/review/jinjiang-excerpt/sign-in"' in page.text
    assert 'name="viewport"' in page.text


@pytest.mark.parametrize(
    "form",
    [
        {"number": "1", "decision": "accept"},
        {"number": "1", "decision": "accept", "token": "guessed"},
    ],
)
def test_a_decision_without_the_credential_is_refused_and_writes_nothing(
    client: TestClient, folder: Path, form: dict[str, str]
) -> None:
    before = _snapshot(folder)
    refused = client.post(f"/review/{WITNESS}", data=form)
    assert refused.status_code == 403 and "review code" in refused.text
    assert _snapshot(folder) == before


def test_a_wrong_code_signs_nobody_in_and_five_close_the_door(client: TestClient, folder: Path) -> None:
    for _ in range(FAIL_LIMIT):
        wrong = client.post(f"/review/{WITNESS}/sign-in", data={"code": "AAAA-AAAA"}, follow_redirects=False)
        assert wrong.status_code == 403 and COOKIE not in wrong.headers.get("set-cookie", "")
    locked = client.post(f"/review/{WITNESS}/sign-in", data={"code": _code(client)}, follow_redirects=False)
    assert locked.status_code == 429 and COOKIE not in locked.headers.get("set-cookie", "")


def test_the_session_token_of_one_client_is_not_another_s(client: TestClient, folder: Path) -> None:
    token = _signed_in(client)
    other = TestClient(client.app)  # another browser: no cookie
    before = _snapshot(folder)
    refused = other.post(f"/review/{WITNESS}", data={"number": "1", "decision": "reject", "token": token})
    assert refused.status_code == 403 and _snapshot(folder) == before


def test_a_form_from_another_site_is_refused(client: TestClient, folder: Path) -> None:
    token = _signed_in(client)
    before = _snapshot(folder)
    for header in ({"origin": "https://elsewhere.example"}, {"referer": "https://elsewhere.example/x"}):
        refused = client.post(
            f"/review/{WITNESS}", data={"number": "1", "decision": "reject", "token": token}, headers=header
        )
        assert refused.status_code == 403
    assert _snapshot(folder) == before
    signing = client.post(
        f"/review/{WITNESS}/sign-in", data={"code": _code(client)}, headers={"origin": "http://evil.example"}
    )
    assert signing.status_code == 403


@pytest.mark.parametrize(
    ("form", "needle"),
    [
        ({"number": "9", "decision": "accept"}, "pending: 1, 2"),
        ({"number": "one", "decision": "accept"}, "proposal number"),
        ({"number": "1", "decision": "maybe"}, "reject"),
    ],
)
def test_a_bad_decision_is_an_error_naming_what_is_accepted(
    client: TestClient, folder: Path, form: dict[str, str], needle: str
) -> None:
    token = _signed_in(client)
    before = _snapshot(folder)
    bad = client.post(f"/review/{WITNESS}", data={**form, "token": token})
    assert bad.status_code == 400 and needle in bad.text and _snapshot(folder) == before


def test_an_unknown_witness_and_an_oversized_form_are_refused(client: TestClient, folder: Path) -> None:
    token = _signed_in(client)
    for where in ("/review/..%2F..%2Fetc", "/review/%2Fetc%2Fpasswd"):  # a path is no witness: no route
        assert 400 <= client.post(where, data={"token": token}).status_code < 500
    unknown = client.post("/review/nowhere", data={"number": "1", "decision": "accept", "token": token})
    assert unknown.status_code == 400 and "taiwan-fuzhi-9" in unknown.text
    huge = client.post(f"/review/{WITNESS}", data={"token": token, "pad": "x" * (FORM_LIMIT + 1)})
    assert huge.status_code == 400 and str(FORM_LIMIT) in huge.text


def test_decisions_write_exactly_what_the_command_line_writes(
    client: TestClient, folder: Path, tmp_path: Path
) -> None:
    """Accept 2 and reject 1 on the page; the same with ``dianli align W --review --accept 2 --reject 1``
    on a copy of the folder: the three files are byte for byte the same."""
    twin = tmp_path / "twin"
    shutil.copytree(folder.parent, twin)
    token = _signed_in(client)
    accepted = client.post(
        f"/review/{WITNESS}",
        data={"number": "2", "decision": "accept", "token": token},
        follow_redirects=False,
    )
    assert accepted.status_code == 303 and accepted.headers["location"] == f"/review/{WITNESS}?done=accepted"
    rejected = client.post(f"/review/{WITNESS}", data={"number": "1", "decision": "reject", "token": token})
    assert rejected.status_code == 200 and "The proposal was rejected" in rejected.text
    assert "Nothing left to review" in rejected.text and "accepted" in visible_text(rejected.text)
    env = {**os.environ, "DIANLI_WITNESSES": str(twin)}
    cli = _run(["-m", "dianli", "align", WITNESS, "--review", "--accept", "2", "--reject", "1"], env)
    assert cli.returncode == 0, cli.stderr
    assert _snapshot(folder) == _snapshot(twin / WITNESS)
    reviewed = yaml.safe_load((folder / "readings" / "reviewed.yaml").read_text(encoding="utf-8"))
    assert [p["id"] for p in reviewed["rites"]] == ["shanchuan"]


def test_a_drafted_file_edited_by_hand_is_not_replaced(client: TestClient, folder: Path) -> None:
    token = _signed_in(client)
    path = folder / "readings" / "drafted.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "# a curator's note\n", encoding="utf-8")
    before = _snapshot(folder)
    refused = client.post(f"/review/{WITNESS}", data={"number": "1", "decision": "accept", "token": token})
    assert refused.status_code == 400 and "refusing to replace" in refused.text
    assert _snapshot(folder) == before
