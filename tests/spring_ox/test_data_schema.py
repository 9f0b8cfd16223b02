"""Every spring-ox data file is read through one loader and a strict model: an unknown key, at the top or
in a nested element, is a DataError naming the file, the element, the key and the accepted keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from dianli.datafile import load_model_path
from dianli.errors import DataError
from dianli.spring_ox.profiles import (
    Glosses,
    Phases,
    Profile,
    check_glosses,
    load_glosses,
    load_phases,
    load_profile,
)

BAD_KEY = "unexpected_key"
DataCopy = Callable[[str, str, tuple[str | int, ...], str, object], Path]
UnknownKey = Callable[[Path, type[BaseModel], str, str, str], None]


@pytest.mark.parametrize(
    ("name", "model", "path", "element", "accepted"),
    [
        ("gazetteer.yaml", Profile, (), "top level", "attributes"),
        ("gazetteer.yaml", Profile, ("defaults",), "defaults", "clock"),
        ("gazetteer.yaml", Profile, ("notes", 2), "notes.2", "assumption"),
        ("gazetteer.yaml", Profile, ("attributes", 5), "attributes.5", "alternatives"),
        ("gazetteer.yaml", Profile, ("attributes", 5, "colour"), "attributes.5.colour", "via"),
        ("gazetteer.yaml", Profile, ("attributes", 15, "cases", 0), "attributes.15.cases.0", "when"),
        (
            "gazetteer.yaml",
            Profile,
            ("attributes", 16, "first_day_after_term"),
            "first_day_after_term",
            "branch",
        ),
        ("gazetteer.yaml", Profile, ("attributes", 0, "cite"), "attributes.0.cite", "section"),
        ("almanac.yaml", Profile, (), "top level", "summary"),
        ("almanac.yaml", Profile, ("notes", 1, "sources", 0), "notes.1.sources.0", "quote"),
        ("almanac.yaml", Profile, ("bases", "rule"), "bases.rule", "witness"),
        ("almanac.yaml", Profile, ("attributes", 11, "alternatives", 0), "alternatives.0", "label"),
        ("phases.yaml", Phases, (), "top level", "overcomes_evidence"),
        ("phases.yaml", Phases, ("phases", 0), "phases.0", "hex"),
        ("phases.yaml", Phases, ("overcomes_evidence",), "overcomes_evidence", "assumption"),
        ("glosses.yaml", Glosses, (), "top level", "profile"),
        ("glosses.yaml", Glosses, ("glosses", 0), "glosses.0", "phases"),
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
    unknown_key_fails(data_copy("spring_ox", name, path, BAD_KEY, 1), model, element, accepted, BAD_KEY)


@pytest.mark.parametrize(
    ("path", "key", "value", "said"),
    [
        (("glosses", 0), "phases", ["石"], "glosses.0.phases: unknown 石; accepted: 木"),
        (
            ("glosses", 5),
            "attributes",
            ["ox.wings"],
            "glosses.5.attributes: unknown ox.wings; accepted: ox.frame",
        ),
        ((), "profile", "calendar", "profile: unknown 'calendar'; accepted: gazetteer, almanac"),
    ],
)
def test_a_gloss_names_existing_attributes_and_phases(
    data_copy: DataCopy, path: tuple[str | int, ...], key: str, value: object, said: str
) -> None:
    copy_path = data_copy("spring_ox", "glosses.yaml", path, key, value)
    with pytest.raises(DataError) as info:
        check_glosses(load_model_path(copy_path, Glosses), str(copy_path))
    assert str(info.value).startswith(f"{copy_path}: {said}")


@pytest.mark.parametrize(
    ("loader", "count"),
    [
        (lambda: len(load_profile("gazetteer").attributes), 30),
        (lambda: len(load_profile("almanac").attributes), 27),
        (lambda: len(load_phases().phases), 5),
        (lambda: len(load_glosses().glosses), 49),
    ],
)
def test_the_shipped_files_load(loader: Any, count: int) -> None:
    assert loader() == count
