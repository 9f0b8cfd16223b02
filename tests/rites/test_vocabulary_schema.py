"""The rite vocabulary (postures, place levels) is read through one loader and a strict model: an unknown
key is a DataError naming the file, the element, the key and the accepted keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import BaseModel

from dianli.rites.vocabulary import VocabularyFile, place_levels, postures

BAD_KEY = "unexpected_key"
DataCopy = Callable[[str, str, tuple[str | int, ...], str, object], Path]
UnknownKey = Callable[[Path, type[BaseModel], str, str, str], None]


@pytest.mark.parametrize(
    ("path", "element", "accepted"),
    [
        ((), "top level", "place_levels"),
        (("postures", 6), "postures.6", "kowtow"),
        (("place_levels", 1), "place_levels.1", "levels"),
    ],
)
def test_an_unknown_key_names_file_element_and_accepted_keys(
    data_copy: DataCopy,
    unknown_key_fails: UnknownKey,
    path: tuple[str | int, ...],
    element: str,
    accepted: str,
) -> None:
    copy = data_copy("rites", "vocabulary.yaml", path, BAD_KEY, 1)
    unknown_key_fails(copy, VocabularyFile, element, accepted, BAD_KEY)


@pytest.mark.parametrize(
    ("name", "kneel", "kowtow"),
    [("三跪九叩", 3, 9), ("一跪三叩", 1, 3), ("鞠躬", 0, 0)],
)
def test_postures_count_what_their_words_say(name: str, kneel: int, kowtow: int) -> None:
    assert (postures()[name].kneel, postures()[name].kowtow) == (kneel, kowtow)


@pytest.mark.parametrize(
    ("name", "levels"),
    [("府", {"prefecture"}), ("州", {"independent-department"}), ("county", {"county"})],
)
def test_place_level_names(name: str, levels: set[str]) -> None:
    assert place_levels()[name] == levels
