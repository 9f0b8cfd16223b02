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
    from importlib import resources  # only to read a file (a start that reads kept results needs none)

    where = f"dianli/{package}/{path}"
    text = resources.files(f"dianli.{package}").joinpath(path).read_text(encoding="utf-8")
    return parse_model(where, text, model)


def load_model_path(path: Path, model: type[M]) -> M:
    """Load the YAML file at ``path`` as an instance of ``model``; errors start with the path."""
    return parse_model(str(path), read_text_file(path, what="YAML data file"), model)


def check_inside(path: Path, within: Path, what: str = "file") -> None:
    """A :class:`DataError` when ``path`` (a symbolic link, or a path) leads outside the folder ``within``."""
    try:
        inside = path.resolve().is_relative_to(within.resolve())
    except (OSError, RuntimeError):  # a loop of links
        inside = False
    if not inside:
        shown = os.path.realpath(path)
        raise DataError(
            f"{path}: leads to {shown}, outside the folder {within}; accepted: a {what} inside the folder "
            "(a link out of it is refused: its file would be read, and served, as the folder's)"
        )


def read_text_file(
    path: Path, within: Path | None = None, limit: int | None = None, what: str = "file", why: str = ""
) -> str:
    """The UTF-8 text of the file ``path`` a user gave (a transcription, a fragment of a witness folder),
    or a :class:`DataError` naming the file and what is accepted: a file that is not there or cannot be
    read; a symbolic link (or a path) leading outside the folder ``within``; more than ``limit`` bytes;
    binary data (a NUL byte: its offset); bytes that are not UTF-8 (the offset of the first)."""
    if within is not None:
        check_inside(path, within, what)
    try:
        size = path.stat().st_size
        if limit is not None and size > limit:
            raise DataError(
                f"{path}: {size:,} bytes, more than the {limit:,} a {what} may have{why}; accepted: a {what} "
                f"of at most {limit / 1e6:g} MB (split it: a juan or a section a file)"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(
            f"{path}: cannot be read: {exc.strerror or exc}; accepted: a readable {what}"
        ) from exc
    nul = data.find(b"\0")
    if nul >= 0:
        raise DataError(f"{path}: binary data, not text (a NUL byte at byte {nul:,}); accepted: UTF-8 text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(
            f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start:,}: {data[exc.start : exc.start + 4]!r}); "
            "accepted: UTF-8 (convert it first, e.g. iconv -f BIG5 -t UTF-8)"
        ) from exc


TRANSCRIPTION_LIMIT_BYTES = 4_000_000
"""The largest transcription dianli drafts and aligns: 4 MB, some 1.3 million characters, a whole
gazetteer of a dozen juan (the largest shipped witness file is 0.11 MB). The aligner's time and memory grow
faster than the text (bench/transcription_size.py: 0.8 MB 7.9 s and 190 MB, 1.6 MB 22 s and 280 MB, 3.2 MB
74 s and 450 MB — about 3.4× the time for twice the text), so a 20 MB file would take hours and gigabytes;
it is refused at once instead, naming this limit and why."""
TRANSCRIPTION_LIMIT_WHY = (
    " (aligning takes time and memory growing faster than the text: 74 s and 450 MB for 3.2 MB, "
    "about 3.4 times as long for twice as much)"
)


def read_transcription(path: Path) -> str:
    """The text of a transcribed gazetteer file a user gave (:func:`read_text_file` within its folder, at
    most :data:`TRANSCRIPTION_LIMIT_BYTES`); an empty one is a :class:`DataError` too."""
    text = read_text_file(
        path, path.parent, TRANSCRIPTION_LIMIT_BYTES, "transcription", TRANSCRIPTION_LIMIT_WHY
    )
    if not text.strip():
        raise DataError(f"{path}: empty (no text at all); accepted: a transcribed text, UTF-8")
    return text


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

    data = _load_bounded(text)
    try:
        blob = pickle.dumps(data, protocol=_PICKLE_PROTOCOL)
    except (pickle.PicklingError, TypeError, RecursionError):  # pragma: no cover - safe YAML is plain data
        return data
    cache.write(YAML_CACHE, entry, blob, ".pickle")
    return data


ALIAS_EXPANSION_LIMIT = 100_000
"""Nodes a YAML document's aliases may add when expanded. A data file repeats a mapping by alias a few
times; an alias bomb (each level aliasing the one below nine times) adds hundreds of millions, which
validation would walk (72 s and 3 GB measured for a nine-level bomb before the bound)."""


def _load_bounded(text: str) -> Any:
    """The data of ``text``, read with :func:`_loader`, once its node graph is known to expand (aliases
    followed) to at most :data:`ALIAS_EXPANSION_LIMIT` nodes more than it holds; else ``yaml.YAMLError``.
    A text with no ``*`` holds no alias (YAML writes every alias ``*name``): its graph is a tree, each node
    met once, so there is nothing to walk."""
    loader = _loader()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "*" in text:
            _check_expansion(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _check_expansion(root: yaml.Node) -> None:
    """Raise ``yaml.YAMLError`` when ``root`` (aliases shared, as composed) expands to too many nodes, or
    holds itself (a recursive alias). Each distinct mapping or sequence is visited once (its expanded size
    memoised); a scalar is counted where it stands, never visited: an alias of a scalar adds one node, as
    the text writes it, so only shared mappings and sequences can multiply."""
    import yaml

    nested = (yaml.SequenceNode, yaml.MappingNode)
    if not isinstance(root, nested):
        return
    sizes: dict[int, int] = {}
    written = 0  # nodes as written: each mapping or sequence once, with the scalars it holds
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, list[yaml.Node] | None]] = [(root, None)]
    while stack:
        node, inner = stack.pop()
        key = id(node)
        if inner is not None:  # its mappings and sequences are done
            open_nodes.discard(key)
            held = len(node.value) * (2 if isinstance(node, yaml.MappingNode) else 1)
            sizes[key] = 1 + held - len(inner) + sum(sizes[id(c)] for c in inner)
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise yaml.YAMLError(f"a recursive alias at {node.start_mark}; accepted: data without cycles")
        children = (
            node.value if isinstance(node, yaml.SequenceNode) else [p for pair in node.value for p in pair]
        )
        inner = [c for c in children if isinstance(c, nested)]
        written += 1 + len(children) - len(inner)
        open_nodes.add(key)
        stack.append((node, inner))
        for child in inner:
            if id(child) in open_nodes:
                raise yaml.YAMLError(
                    f"a recursive alias at {child.start_mark}; accepted: data without cycles"
                )
            if id(child) not in sizes:
                stack.append((child, None))
    expanded = sizes[id(root)]
    if expanded - written > ALIAS_EXPANSION_LIMIT:
        raise yaml.YAMLError(
            f"its aliases expand it to {expanded:,} nodes from {written:,} (an alias bomb?); accepted: "
            f"aliases adding at most {ALIAS_EXPANSION_LIMIT:,} nodes"
        )


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
