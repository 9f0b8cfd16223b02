"""Every music data file is read through one loader and a strict model: an unknown key, at the top or in
a nested element, is a DataError naming the file, the element, the key and the accepted keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from dianli.datafile import load_model_path
from dianli.errors import DataError
from dianli.music.schema import (
    CuesFile,
    InstrumentsFile,
    MovementsFile,
    PitchFile,
    cues_data,
    instruments_data,
    movements_data,
    pitch_data,
)

BAD_KEY = "unexpected_key"
DataCopy = Callable[[str, str, tuple[str | int, ...], str, object], Path]
UnknownKey = Callable[[Path, type[BaseModel], str, str, str], None]


@pytest.mark.parametrize(
    ("name", "model", "path", "element", "accepted"),
    [
        ("pitch.yaml", PitchFile, (), "top level", "absolute_pitch"),
        ("pitch.yaml", PitchFile, ("lu", 3), "lu.3", "semitone"),
        ("pitch.yaml", PitchFile, ("sanfen", "start"), "sanfen.start", "length_cun"),
        ("pitch.yaml", PitchFile, ("gongche", 9), "gongche.9", "assumption"),
        ("cues.yaml", CuesFile, (), "top level", "stroke_kinds"),
        ("cues.yaml", CuesFile, ("rules", 10), "rules.10", "interval"),
        ("cues.yaml", CuesFile, ("rules", 14, "cycle"), "rules.14.cycle", "over"),
        ("cues.yaml", CuesFile, ("timing",), "timing", "assumption"),
        ("cues.yaml", CuesFile, ("stroke_kinds",), "stroke_kinds", "velocity_cite"),
        ("cues.yaml", CuesFile, ("stroke_kinds", "鼕"), "stroke_kinds.syllables.鼕", "velocity"),
        ("instruments.yaml", InstrumentsFile, (), "top level", "fingering"),
        ("instruments.yaml", InstrumentsFile, ("instruments", 1, "midi"), "instruments.1.midi", "program"),
        (
            "instruments.yaml",
            InstrumentsFile,
            ("instruments", 1, "dimensions", 0),
            "dimensions.0",
            "ratio_to",
        ),
        ("instruments.yaml", InstrumentsFile, ("families", 0), "families.0", "parallels"),
        ("instruments.yaml", InstrumentsFile, ("fingering", "林尺", "se"), "林尺.instruments.se", "written"),
        ("movements.yaml", MovementsFile, (), "top level", "score_witnesses"),
        ("movements.yaml", MovementsFile, ("movements", 4), "movements.4", "same_as"),
        ("movements.yaml", MovementsFile, ("movements", 0, "gloss", 0), "movements.0.gloss.0", "reading"),
    ],
)
def test_an_unknown_key_names_file_element_and_accepted_keys(
    data_copy: DataCopy,
    unknown_key_fails: UnknownKey,
    name: str,
    model: type[BaseModel],
    path: tuple[str | int, ...],
    element: str,
    accepted: str,
) -> None:
    unknown_key_fails(data_copy("music", name, path, BAD_KEY, 1), model, element, accepted, BAD_KEY)


@pytest.mark.parametrize(
    ("name", "model", "path", "key", "value", "said"),
    [
        (
            "cues.yaml",
            CuesFile,
            ("rules", 0),
            "interval",
            "slow_s",
            "rules: Value error, 0 (tuogu_warning_open): interval 'slow_s'",
        ),
        (
            "cues.yaml",
            CuesFile,
            ("rules", 1),
            "pattern",
            "扎扎咚",
            "1 (tuogu_qigu_open): pattern strokes ['咚'] are not",
        ),
        ("cues.yaml", CuesFile, ("rules", 0), "at", "dawn", "rules.0.at: Input should be 'rite_start'"),
        ("cues.yaml", CuesFile, ("rules", 23, "cycle"), "over", "year", "rules.23.cycle.over"),
        ("cues.yaml", CuesFile, ("timing",), "stroke_s", "quick", "timing.durations.stroke_s"),
        (
            "cues.yaml",
            CuesFile,
            ("rules", 10),
            "cite",
            {"witness": "nowhere", "quote": "x"},
            "unknown witness",
        ),
        (
            "instruments.yaml",
            InstrumentsFile,
            ("fingering", "太四"),
            "pipa",
            {"written": "琵琶", "text": "x", "cite": {"witness": "taiwan-fuzhi-9", "quote": "琴"}},
            "fingering: Value error, 太四: unknown instrument 'pipa'; accepted: hui, dazhong",
        ),
        (
            "instruments.yaml",
            InstrumentsFile,
            ("instruments", 2),
            "family",
            "bamboo",
            "2 (bozhong): unknown family 'bamboo'",
        ),
        # In a fingering row a key starting with _ is the schema's (_rule, _gloss); any other is an instrument id.
        (
            "instruments.yaml",
            InstrumentsFile,
            ("fingering", "林尺"),
            "_rules",
            {"cite": {"witness": "taiwan-fuzhi-9", "quote": "琴"}},
            "fingering.林尺: unknown key '_rules'; accepted keys: _rule, _gloss",
        ),
        ("movements.yaml", MovementsFile, ("movements", 0, "gloss", 0), "position", [7], "gloss.0.position"),
        # how a call is spoken: a syllable with its tone for each character (樂止: yue4 zhi3)
        ("cues.yaml", CuesFile, ("rules", 28), "call_reading", None, "the call 樂止 needs its call_reading"),
        ("cues.yaml", CuesFile, ("rules", 28), "call_reading", "yue4", "per character (2), 1 given"),
        ("cues.yaml", CuesFile, ("rules", 11), "call_reading", "le zou4 {tune} zhi1 qu3", "le is not pinyin"),
        ("movements.yaml", MovementsFile, ("movements", 1), "tune_reading", "ningping2", "per character (2)"),
    ],
)
def test_a_bad_value_or_reference_names_file_and_element(
    data_copy: DataCopy,
    name: str,
    model: type[BaseModel],
    path: tuple[str | int, ...],
    key: str,
    value: object,
    said: str,
) -> None:
    copy = data_copy("music", name, path, key, value)
    with pytest.raises(DataError) as info:
        load_model_path(copy, model)
    assert str(info.value).startswith(f"{copy}: ") and said in str(info.value)


def test_a_new_named_duration_is_data_not_schema(data_copy: DataCopy) -> None:
    """Keys of ``timing`` ending in ``_s`` are durations a rule may name: a new one is accepted."""
    copy = data_copy("music", "cues.yaml", ("timing",), "yu_s", 0.4)
    assert load_model_path(copy, CuesFile).timing.durations["yu_s"] == 0.4


@pytest.mark.parametrize(
    ("loader", "count"),
    [
        (lambda: len(pitch_data().lu), 16),
        (lambda: len(pitch_data().gongche), 10),
        (lambda: len(cues_data().rules), 30),
        (lambda: len(cues_data().stroke_kinds.syllables), 3),
        (lambda: len(instruments_data().instruments), 34),
        (lambda: len(instruments_data().fingering), 6),
        (lambda: len(movements_data().movements), 7),
    ],
)
def test_the_shipped_files_load(loader: Any, count: int) -> None:
    assert loader() == count
