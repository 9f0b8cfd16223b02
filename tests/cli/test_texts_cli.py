"""The texts and cite commands, run as a user runs them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "code", "expected"),
    [
        (["texts", "list"], 0, ["taiwan-fuzhi-9", "tingzhou-fuzhi", "fujian-tongzhi-14-modern"]),
        (["texts", "show", "tingzhou-fuzhi"], 0, ["xianshi.chongsheng", "starts mid-section"]),
        (["texts", "show", "taiwan-fuzhi-9", "舞器"], 0, ["yue.yueqi.wuqi", "旌節"]),
        (["texts", "show", "fujian-tongzhi-14", "shanchuan", "--raw"], 0, ["【今郡縣多用上巳日】"]),
        (["texts", "show", "taiwan-fuzhi-9", "土牛式"], 0, ["土牛式⟨土牛胎骨", "按十二月"]),
        (["texts", "search", "土牛"], 0, ["taiwan-fuzhi-9", "fujian-tongzhi-14-modern"]),
        (["texts", "search", "钟", "--witness", "taiwan-fuzhi-9", "-n", "3"], 0, ["鐘"]),
        (["texts", "search", "東班", "--section", "wupu.chuxian", "-n", "1"], 0, ["wupu.chuxian"]),
        (["cite", "taiwan-fuzhi-9", "大钟即镛钟"], 0, ["yue.yueqi.jin", "大鐘(即鏞鐘"]),
        (["texts", "show", "nowhere"], 2, ["unknown witness", "taiwan-fuzhi-9"]),
        (["texts", "show", "tingzhou-fuzhi", "舞譜"], 2, ["not in this witness"]),
        (["texts", "search", "钟", "--witness", "001"], 2, ["accepted"]),
        (["cite", "taiwan-fuzhi-9", "無此文字之引"], 2, ["not found", "closest passage"]),
        (["--version"], 0, ["dianli"]),
    ],
)
def test_commands(args: list[str], code: int, expected: list[str]) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    output = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == code, output
    for fragment in expected:
        assert fragment in output


def test_search_json() -> None:
    result = runner.invoke(app, ["texts", "search", "鐘", "--json", "-n", "2"])
    assert result.exit_code == 0
    payload = json.loads(result.output)
    assert payload["total"] > 2 and len(payload["hits"]) == 2
    assert {"witness", "section", "text", "matches"} <= set(payload["hits"][0])
