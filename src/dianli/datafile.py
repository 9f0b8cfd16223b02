"""Data files: read a YAML file and validate it with a model — one loader for every data file.

:func:`load_model` reads a file shipped with a dianli package, :func:`load_model_path` any file on disk
(a witness folder a user adds, for example). A broken file is a :class:`DataError` whose message starts
with the file (``dianli/<package>/<path>`` or the path on disk) and names, for each problem, the element
(``fragments.0.file``), the bad value and what is accepted — the accepted keys for an unknown key.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import pickle
import sys
import typing
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from dianli import cache
from dianli.errors import DataError

if TYPE_CHECKING:
    import yaml
    from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound="BaseModel")

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


@functools.cache
def _loader() -> type[yaml.SafeLoader]:
    """libyaml's safe loader where PyYAML was built with it (ten times faster), else the pure-Python one.
    PyYAML is imported only when a text is not in the cache."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


YAML_CACHE = "yaml"
"""The cache's folder (:mod:`dianli.cache`) for the data of YAML texts already read."""
_PICKLE_PROTOCOL = 5


@functools.cache
def _reader() -> str:
    """Which reader makes the data: PyYAML's version and whether its libyaml extension is installed (known
    without importing PyYAML, so that a cache hit costs no import)."""
    spec = importlib.util.find_spec("yaml")  # a top-level name: found, not imported
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    libyaml = any(
        name.startswith("_yaml.") and name.endswith((".so", ".pyd"))
        for folder in folders
        for name in (os.listdir(folder) if os.path.isdir(folder) else ())
    )
    return f"{cache.versions('PyYAML')}; {'libyaml' if libyaml else 'pure Python'}"


def yaml_key(text: str) -> str:
    """The cache key of the data of ``text``: the text itself, the reader that reads it (PyYAML's version,
    libyaml or not), the Python version and the pickle format that stores it — nothing else goes into the
    data."""
    return cache.key("yaml-data", _reader(), str(_PICKLE_PROTOCOL), sys.version, text)


def read_yaml(text: str) -> Any:
    """The data of one YAML document, read safely (plain data only) — every data file goes through here.

    The data is kept in the on-disk cache (:mod:`dianli.cache`) under :func:`yaml_key`, so a file read
    before is not parsed again: a changed text is another key. A text that is not valid YAML raises
    ``yaml.YAMLError`` every time (errors are not kept)."""
    entry = yaml_key(text)
    stored = cache.read(YAML_CACHE, entry, ".pickle")
    if stored is not None:
        try:
            return pickle.loads(stored)
        except Exception:  # a damaged entry is read afresh and replaced
            pass
    import yaml

    data = yaml.load(text, Loader=_loader())
    try:
        blob = pickle.dumps(data, protocol=_PICKLE_PROTOCOL)
    except (pickle.PicklingError, TypeError, RecursionError):  # pragma: no cover - safe YAML is plain data
        return data
    cache.write(YAML_CACHE, entry, blob, ".pickle")
    return data


def parse_model(where: str, text: str, model: type[M]) -> M:
    """Validate the YAML ``text`` of the file ``where`` as an instance of ``model``.

    A model of dianli's own is kept validated in the on-disk cache (:mod:`dianli.cache`) under a key
    naming the text, the model, every file of the package and of the extra witness folders (the model's
    code and whatever its validators consult: witness ids, places …) and the versions of pydantic and
    PyYAML; a text that fails is validated (and fails) every time. A model defined elsewhere is always
    validated afresh (its code is not part of the key)."""
    if model.__module__.partition(".")[0] != "dianli":
        return _validate(where, text, model)
    entry = cache.installed_key(
        "datafile.parse_model",
        f"{model.__module__}.{model.__qualname__}",
        where,
        text,
        cache.versions("pydantic", "pydantic-core", "PyYAML"),
    )
    return cache.pickled(cache.DERIVED, entry, lambda: _validate(where, text, model))


def _validate(where: str, text: str, model: type[M]) -> M:
    from pydantic import ValidationError

    try:
        data = read_yaml(text)
    except Exception as exc:
        import yaml  # loaded by read_yaml when it parsed the text

        if not isinstance(exc, yaml.YAMLError):
            raise
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
    from pydantic import BaseModel

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
