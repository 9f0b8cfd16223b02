"""Every dance data file is read through one loader and a strict model: an unknown key, at the top or in
a nested element, is a DataError naming the file, the element, the key and the accepted keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from dianli.dance.schema import (
    CitationsFile,
    EmendationsFile,
    FigureFile,
    FormationFile,
    MovementsFile,
    VocabularyFile,
    emendations_data,
    figure_data,
    formation_data,
    movements_data,
    vocabulary_data,
)
from dianli.datafile import load_model, load_model_path
from dianli.errors import DataError

BAD_KEY = "unexpected_key"
DataCopy = Callable[[str, str, tuple[str | int, ...], str, object], Path]
UnknownKey = Callable[[Path, type[BaseModel], str, str, str], None]


@pytest.mark.parametrize(
    ("name", "model", "path", "element", "accepted"),
    [
        ("vocabulary.yaml", VocabularyFile, (), "top level", "mirror"),
        ("vocabulary.yaml", VocabularyFile, ("phrases", 5), "phrases.5", "term"),
        ("vocabulary.yaml", VocabularyFile, ("phrases", 1, "gloss_modern"), "phrases.1.gloss_modern", "cite"),
        ("vocabulary.yaml", VocabularyFile, ("terms", 0), "terms.0", "draw"),
        ("vocabulary.yaml", VocabularyFile, ("slots", "facing", "東"), "slots.facing.東", "bearing"),
        ("vocabulary.yaml", VocabularyFile, ("slot_cites", "facing", 0), "slot_cites.facing.0", "assumption"),
        ("figure.yaml", FigureFile, (), "top level", "joints"),
        ("figure.yaml", FigureFile, ("joints",), "joints", "shoulder"),
        ("figure.yaml", FigureFile, ("hands", "shoulder"), "hands.shoulder", "term"),
        ("figure.yaml", FigureFile, ("feet", "lift"), "feet.lift", "knee_forward"),
        ("figure.yaml", FigureFile, ("rest", "hands"), "rest.hands", "left"),
        ("formation.yaml", FormationFile, (), "top level", "spacing"),
        ("formation.yaml", FormationFile, ("leaders", 1), "leaders.1", "place"),
        ("formation.yaml", FormationFile, ("dancers_per_file",), "dancers_per_file", "sources"),
        ("movements.yaml", MovementsFile, (), "top level", "default_witness"),
        ("movements.yaml", MovementsFile, ("movements", 1, "heading_004"), "movements.1.heading_004", "cite"),
        ("movements.yaml", MovementsFile, ("tempo",), "tempo", "seconds_per_character"),
        ("movements.yaml", MovementsFile, ("undanced", 3), "undanced.3", "id"),
        ("emendations.yaml", EmendationsFile, (), "top level", "emendations"),
        ("emendations.yaml", EmendationsFile, ("emendations", 2), "emendations.2", "read_as"),
        ("emendations.yaml", EmendationsFile, ("emendations", 2, "support"), "emendations.2.support", "cite"),
        ("citations.yaml", CitationsFile, (), "top level", "definitions"),
        ("citations.yaml", CitationsFile, ("characters", 7), "characters.7", "rank"),
        ("citations.yaml", CitationsFile, ("headings", 0, "cite"), "headings.0.cite", "section"),
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
    unknown_key_fails(data_copy("dance", name, path, BAD_KEY, 1), model, element, accepted, BAD_KEY)


@pytest.mark.parametrize(
    ("name", "model", "path", "key", "value", "said"),
    [
        # the draw operations: one key each, from a fixed set, each with its own keys
        (
            "vocabulary.yaml",
            VocabularyFile,
            ("terms", 0, "draw", 0),
            "hnad",
            {},
            "terms.0.draw.0: unknown key 'hnad'",
        ),
        (
            "vocabulary.yaml",
            VocabularyFile,
            ("terms", 0, "draw", 0, "hand"),
            "sdie",
            "left",
            "terms.0.draw.0.hand: unknown key 'sdie'",
        ),
        (
            "vocabulary.yaml",
            VocabularyFile,
            ("terms", 0, "draw", 0),
            "implements",
            "open",
            "terms.0.draw.0: Value error, a draw operation has exactly one key, got ['hand', 'implements']",
        ),
        (
            "vocabulary.yaml",
            VocabularyFile,
            ("phrases", 56, "draw", 0, "face"),
            "mode",
            "aside",
            "'body', 'head'",
        ),
        (
            "vocabulary.yaml",
            VocabularyFile,
            ("phrases", 3, "draw", 0),
            "implements",
            "apart",
            "'open', 'joined'",
        ),
        ("vocabulary.yaml", VocabularyFile, ("phrases", 0), "kind", "object", "phrases.0.kind"),
        (
            "vocabulary.yaml",
            VocabularyFile,
            ("mirror", "side"),
            "左",
            "中",
            "mirror: Value error, side: 左 → 中",
        ),
        (
            "vocabulary.yaml",
            VocabularyFile,
            ("mirror",),
            "hand",
            {"左": "右"},
            "mirror: Value error, hand: unknown slot",
        ),
        (
            "figure.yaml",
            FigureFile,
            ("rest", "hands"),
            "left",
            "elbow",
            "rest: Value error, hands.left: no position 'elbow'",
        ),
        (
            "figure.yaml",
            FigureFile,
            ("levels",),
            "high",
            "sky",
            "levels: Value error, high: no hand position 'sky'",
        ),
        ("figure.yaml", FigureFile, ("joints",), "hip", [0.1, 0.9], "joints.hip"),
        ("formation.yaml", FormationFile, ("leaders", 0), "rank", "north", "leaders.0.rank"),
        (
            "movements.yaml",
            MovementsFile,
            (),
            "default_witness",
            "tingzhou-fuzhi",
            "default_witness: Value error, 'tingzhou-fuzhi' is not a dance witness",
        ),
        (
            "movements.yaml",
            MovementsFile,
            ("tempo",),
            "seconds_per_character",
            0,
            "tempo.seconds_per_character",
        ),
        (
            "emendations.yaml",
            EmendationsFile,
            ("emendations", 0, "cite"),
            "witness",
            "nowhere",
            "unknown witness",
        ),
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
    copy_path = data_copy("dance", name, path, key, value)
    with pytest.raises(DataError) as info:
        load_model_path(copy_path, model)
    assert str(info.value).startswith(f"{copy_path}: ") and said in str(info.value)


@pytest.mark.parametrize(
    ("loader", "count"),
    [
        (lambda: len(vocabulary_data().terms), 11),
        (lambda: len(vocabulary_data().phrases), 77),
        (lambda: len(figure_data().hands), 15),
        (lambda: formation_data().files_per_rank.count, 6),
        (lambda: len(movements_data().movements), 3),
        (lambda: len(emendations_data().emendations), 10),
        (lambda: len(load_model("dance", "data/citations.yaml", CitationsFile).characters), 576),
    ],
)
def test_the_shipped_files_load(loader: Any, count: int) -> None:
    assert loader() == count
