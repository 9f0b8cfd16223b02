"""Data files: read a YAML file and validate it with a model — one loader for every data file.

:func:`load_model` reads a file shipped with a dianli package, :func:`load_model_path` any file on disk
(a witness folder a user adds, for example). A broken file is a :class:`DataError` whose message starts
with the file (``dianli/<package>/<path>`` or the path on disk) and names, for each problem, the element
(``fragments.0.file``), the bad value and what is accepted — the accepted keys for an unknown key.
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from dianli.errors import DataError

M = TypeVar("M", bound=BaseModel)

_SHOWN_INPUT = 80
"""A bad value longer than this (as repr) is cut in the message."""


def load_model(package: str, path: str, model: type[M]) -> M:
    """Load ``path`` (relative to the package ``dianli.<package>``) as an instance of ``model``."""
    where = f"dianli/{package}/{path}"
    text = resources.files(f"dianli.{package}").joinpath(path).read_text(encoding="utf-8")
    return parse_model(where, text, model)


def load_model_path(path: Path, model: type[M]) -> M:
    """Load the YAML file at ``path`` as an instance of ``model``; errors start with the path."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text: {exc}") from exc
    return parse_model(str(path), text, model)


_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it (ten times faster), else the pure-Python one."""


def read_yaml(text: str) -> Any:
    """The data of one YAML document, read safely (plain data only) — every data file goes through here."""
    return yaml.load(text, Loader=_LOADER)


def parse_model(where: str, text: str, model: type[M]) -> M:
    """Validate the YAML ``text`` of the file ``where`` as an instance of ``model``."""
    try:
        data = read_yaml(text)
    except yaml.YAMLError as exc:
        raise DataError(f"{where}: not valid YAML: {exc}") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise DataError("\n".join(_problems(where, exc, model))) from None


def _problems(where: str, exc: ValidationError, model: type[BaseModel]) -> list[str]:
    lines = []
    for error in exc.errors():
        loc = error["loc"]
        if error["type"] == "extra_forbidden":
            parent = ".".join(str(p) for p in loc[:-1]) or "top level"
            accepted = _accepted_keys(model, loc[:-1])
            shown = f"; accepted keys: {', '.join(accepted)}" if accepted else ""
            lines.append(f"{where}: {parent}: unknown key {loc[-1]!r}{shown}")
            continue
        element = ".".join(str(p) for p in loc) or "top level"
        message = f"{where}: {element}: {error['msg']}"
        if error["type"] != "missing":
            value = repr(error.get("input"))
            if len(value) > _SHOWN_INPUT:
                value = value[: _SHOWN_INPUT - 1] + "…"
            message += f"; got {value}"
        lines.append(message)
    return lines


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models an annotation holds (``tuple[X, ...]``, ``X | None``, ``dict[str, X]`` …)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _accepted_keys(model: type[BaseModel], loc: Sequence[int | str]) -> list[str]:
    """The keys the model at ``loc`` accepts (its fields, by alias where one is set)."""
    current = [model]
    for part in loc:
        if not isinstance(part, str):
            continue  # an index into a list: the element models are already current
        inner = [
            m for c in current if part in c.model_fields for m in _models_in(c.model_fields[part].annotation)
        ]
        if inner:
            current = inner
        elif any(part in c.model_fields for c in current):
            return []  # a field that holds no model: nothing to list
    keys: dict[str, None] = {}
    for candidate in current:
        for name, field in candidate.model_fields.items():
            keys.setdefault(field.alias or name, None)
    return list(keys)
