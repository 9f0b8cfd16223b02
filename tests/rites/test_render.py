"""rites/render: a step as a reader sees it — the music actions in the texts' words, no data id for a prayer."""

from __future__ import annotations

import pytest

from dianli.rites.model import MUSIC_ACTION_NAMES
from dianli.rites.render import step_line
from dianli.rites.resolve import resolve_rite


@pytest.mark.parametrize(("action", "words"), sorted(MUSIC_ACTION_NAMES.items()))
def test_a_music_action_is_shown_in_the_texts_words(action: str, words: str) -> None:
    steps = [n.step for n in resolve_rite("xianshi", "臺灣府", 1752).steps if n.step.music_action == action]
    assert steps, action
    line = step_line(steps[0])
    assert words in line and f" {action}" not in line


@pytest.mark.parametrize("rite", ["xianshi", "chongsheng"])
def test_the_reading_of_the_prayer_names_no_id(rite: str) -> None:
    resolved = resolve_rite(rite, "臺灣府", 1752)
    lines = [step_line(n.step) for n in resolved.steps if n.step.call == "讀祝文"]
    assert lines and all(f"{rite}-zhu" not in line for line in lines)
