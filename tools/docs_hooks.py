"""MkDocs hooks of the dianli documentation (``hooks:`` in ``mkdocs.yml``): the reference pages written from
the code and the data themselves, so they cannot drift from what the program does.

A page asks for generated text with a directive on a line of its own::

    <!-- dianli:cli -->                          every command of ``dianli``, from the Typer application
    <!-- dianli:api -->                          every name of ``dianli.__all__``, by mkdocstrings
    <!-- dianli:schema MODULE:CLASS [TITLE] -->  a pydantic model's JSON schema, as lists of fields (TITLE:
                                                 the heading of the model itself, e.g. its file's name)
    <!-- dianli:file PATH [LANGUAGE] -->         a file of the repository, whole, as a code block
    <!-- dianli:include PATH -->                 a Markdown file of the repository, inline
    <!-- dianli:corpus -->                       the corpus table (``dianli texts list --format csv``): every
                                                 witness, its year, how it was made and its figures

``PATH`` is relative to the repository's root and must stay inside it. An unknown directive, a class that
is not a pydantic model, a missing file: the build fails, naming the page and the directive.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DIRECTIVE = re.compile(r"^<!--\s*dianli:(?P<name>[a-z-]+)(?P<args>[^>]*?)\s*-->[ \t]*$", re.M)


class DirectiveError(Exception):
    """A directive that cannot be carried out: the build stops (a page must never show stale text)."""


# --- the hook ------------------------------------------------------------------------------------------


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace every directive of the page by what it generates."""

    def replace(match: re.Match[str]) -> str:
        name, args = match.group("name"), match.group("args").split()
        try:
            return render(name, args)
        except DirectiveError as error:
            raise DirectiveError(
                f"{page.file.src_uri}: <!-- dianli:{name} {' '.join(args)} -->: {error}"
            ) from None

    return DIRECTIVE.sub(replace, markdown)


_SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|obj|exc|const):(?=<code)")


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """The docstrings' Sphinx roles (``:func:`x` ``) shown as the code they name, without the role."""
    return _SPHINX_ROLE.sub("", html)


def render(name: str, args: Sequence[str]) -> str:
    """The Markdown a directive stands for."""
    if name == "cli" and not args:
        return cli_reference()
    if name == "api" and not args:
        return api_reference()
    if name == "schema" and args:
        return schema_reference(_model(args[0]), title=" ".join(args[1:]) or None)
    if name == "file" and len(args) in (1, 2):
        path = repository_file(args[0])
        language = args[1] if len(args) == 2 else path.suffix.lstrip(".")
        return fenced(path.read_text(encoding="utf-8"), language, title=args[0])
    if name == "include" and len(args) == 1:
        return repository_file(args[0]).read_text(encoding="utf-8")
    if name == "corpus" and not args:
        return corpus_reference()
    raise DirectiveError(
        "unknown directive or wrong arguments; accepted: cli, api, schema MODULE:CLASS, file PATH [LANG], "
        "include PATH, corpus"
    )


def corpus_reference() -> str:
    """The corpus as a table: each witness by title, the year it was compiled, the place it governs, how it
    was made, its clauses, the share aligned *same* and its review decisions (the corpus table of
    :mod:`dianli.comparison.record`, the same rows as ``dianli texts list --format csv``)."""
    from dianli.comparison.record import corpus_table
    from dianli.corpus.witnesses import manifest
    from dianli.program.labels import place_label

    def cell(text: str) -> str:
        return escape(text).replace("|", "\\|")

    infos = {info.id: info for info in manifest()}
    lines = [
        "| witness | title | compiled | governs | made | clauses | aligned *same* | review (accepted / rejected) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in corpus_table():
        info = infos.get(row.witness)
        if info is None:
            lines.append(
                f"| `{row.witness}` | {cell(row.title)} | | | stays out: {cell(row.stays_out)} | | | |"
            )
            continue
        governs = ", ".join(f"{place_label(g.place)} from {g.from_year}" for g in info.governs) or "none"
        review = f"{row.accepted} / {row.rejected}" if row.decisions not in ("", 0) else ""
        lines.append(
            f"| `{row.witness}` | {cell(row.title)} | {info.compiled_year} | {governs} | {row.made_by} | "
            f"{row.clauses} | {row.share_aligned} | {review} |"
        )
    return "\n".join(lines) + "\n"


def repository_file(relative: str) -> Path:
    """A file of the repository, by its path from the root; nothing outside it."""
    path = (ROOT / relative).resolve()
    if not path.is_relative_to(ROOT):
        raise DirectiveError(f"{relative!r} is outside the repository")
    if not path.is_file():
        raise DirectiveError(f"no file {relative!r} in the repository")
    return path


def fenced(text: str, language: str, title: str = "") -> str:
    """A fenced code block that no backtick run inside ``text`` can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    caption = f"`{title}`:\n\n" if title else ""
    return f"{caption}{fence}{language}\n{text.rstrip()}\n{fence}\n"


# --- Markdown text -------------------------------------------------------------------------------------

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def escape(text: str) -> str:
    """Plain text as Markdown that shows it as written: ``&``, ``<`` and the emphasis and link characters
    escaped; what the text itself puts in backticks stays a code span."""
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_escape_plain(text[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_escape_plain(text[last:]))
    return "".join(out)


def _escape_plain(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\*_\[\]|])", r"\\\1", text)


def code(text: str) -> str:
    """Inline code, whatever backticks ``text`` holds."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def paragraphs(text: str) -> str:
    """A docstring or help text as Markdown paragraphs: lines of a paragraph joined, Click's ``\\b`` marks
    dropped and anything after ``\\f`` (Click's cut) left out."""
    text = inspect.cleandoc(text.split("\f", 1)[0])
    blocks = [
        " ".join(line.strip() for line in block.splitlines() if line.strip() != "\b")
        for block in re.split(r"\n\s*\n", text)
    ]
    return "\n\n".join(escape(block) for block in blocks if block)


# --- the command line ----------------------------------------------------------------------------------


def cli_reference() -> str:
    """Every command of ``dianli``, as ``dianli COMMAND --help`` shows it: usage, help, arguments and
    options, walked from the application that the console script runs."""
    import typer

    from dianli.cli import app

    root = typer.main.get_command(app)
    context = root.make_context("dianli", [], resilient_parsing=True)
    return "\n".join(_command_text(command, ctx) for command, ctx in _walk(root, context))


def _walk(command: Any, context: Any) -> Iterator[tuple[Any, Any]]:
    yield command, context
    if hasattr(command, "list_commands"):  # a group (Typer vendors Click: no isinstance on click's classes)
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            if sub is None or getattr(sub, "hidden", False):
                continue
            yield from _walk(sub, sub.make_context(name, [], parent=context, resilient_parsing=True))


def _command_text(command: Any, context: Any) -> str:
    path = context.command_path
    depth = path.count(" ")
    heading = "#" * min(2 + depth - (1 if depth else 0), 4)
    usage = " ".join([path, *command.collect_usage_pieces(context)])
    lines = [f"{heading} {code(path)}", ""]
    if command.help:
        lines += [paragraphs(command.help), ""]
    lines += [fenced(usage, "text").rstrip(), ""]
    params = [(record, p) for p in command.get_params(context) if (record := p.get_help_record(context))]
    if params:
        for (names, help_text), param in params:
            kind = "argument" if getattr(param, "param_type_name", "") == "argument" else ""
            label = f"{code(names)} ({kind})" if kind else code(names)
            lines.append(f"- {label}: {escape(' '.join(help_text.split()))}" if help_text else f"- {label}")
        lines.append("")
    if hasattr(command, "list_commands"):
        subs = [(name, command.get_command(context, name)) for name in command.list_commands(context)]
        listed = [(name, sub) for name, sub in subs if sub is not None and not getattr(sub, "hidden", False)]
        if listed:
            lines.append("Commands:")
            lines.append("")
            for name, sub in listed:
                summary = sub.get_short_help_str(limit=200)
                lines.append(f"- [{code(name)}](#{_anchor(f'{path} {name}')}): {escape(summary)}")
            lines.append("")
    return "\n".join(lines)


def _anchor(path: str) -> str:
    """The id Python-Markdown's table of contents gives the heading ``path`` (in backticks)."""
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", path).strip().lower())


# --- the Python API ------------------------------------------------------------------------------------


def api_reference() -> str:
    """The package's docstring, then a mkdocstrings block for each public name (``dianli.__all__``): the
    entry points first, then the types they return. Each block names the object where it is defined, as
    the running package resolves it — some entry points share their name with a subpackage
    (``dianli.calendar`` the function, ``dianli.calendar`` the package), which a reader of the source
    alone would take for the package."""
    import dianli

    names = [name for name in getattr(dianli, "__all__", ()) if not name.startswith("_")]
    objects = [(name, getattr(dianli, name)) for name in names]
    entry_points = [(name, obj) for name, obj in objects if not inspect.isclass(obj)]
    types = [(name, obj) for name, obj in objects if inspect.isclass(obj)]
    blocks = [_autodoc("dianli", "show_root_heading: false", "members: false")]
    for title, group in (("Entry points", entry_points), ("What they return", types)):
        if group:
            blocks.append(f"## {title}\n")
            blocks += [_autodoc(_defined_at(name, obj), "heading_level: 3") for name, obj in group]
    return "\n".join(blocks)


def _defined_at(name: str, obj: Any) -> str:
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not module or not qualname:
        raise DirectiveError(f"dianli.{name} is neither a function nor a class: no definition to document")
    return f"{module}.{qualname}"


def _autodoc(identifier: str, *options: str) -> str:
    lines = [f"::: {identifier}", "    options:", "      show_root_full_path: false"]
    lines += [f"      {option}" for option in options]
    return "\n".join(lines) + "\n"


# --- data schemas --------------------------------------------------------------------------------------


def _model(target: str) -> Any:
    module_name, _, class_name = target.partition(":")
    try:
        model = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise DirectiveError(f"no class {target!r}: {error}") from None
    if not hasattr(model, "model_json_schema"):
        raise DirectiveError(f"{target!r} is not a pydantic model")
    return model


def schema_reference(model: Any, title: str | None = None) -> str:
    """A pydantic model's JSON schema as Markdown: the model's fields, then each model it uses, in the order
    first met; each field with its type, whether it is required (or its default) and its description."""
    schema = model.model_json_schema()
    definitions: Mapping[str, Any] = schema.get("$defs", {})
    order = [str(schema.get("title", model.__name__))]
    bodies = {order[0]: schema}
    queue = [schema]
    while queue:
        for name in _references(queue.pop(0)):
            if name not in bodies and name in definitions:
                bodies[name] = definitions[name]
                order.append(name)
                queue.append(definitions[name])
    headings = {order[0]: f"{title} {{#{order[0].lower()}}}"} if title else {}
    return "\n".join(_model_text(headings.get(name, name), bodies[name]) for name in order)


def _references(node: Any) -> Iterator[str]:
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref.rsplit("/", 1)[-1]
        for key, value in node.items():
            if key != "$defs":
                yield from _references(value)
    elif isinstance(node, list):
        for item in node:
            yield from _references(item)


def _model_text(name: str, body: Mapping[str, Any]) -> str:
    lines = [f"### {name}", ""]
    if body.get("description"):
        lines += [paragraphs(str(body["description"])), ""]
    properties: Mapping[str, Any] = body.get("properties", {})
    if not properties:
        lines += [f"A value of type {type_text(body)}.", ""]
        return "\n".join(lines)
    required = set(body.get("required", ()))
    if body.get("additionalProperties") is False:
        lines += ["No other key is accepted.", ""]
    for field, spec in properties.items():
        if field in required:
            status = "required"
        elif "default" in spec:
            status = f"default {code(json.dumps(spec['default'], ensure_ascii=False))}"
        else:
            status = "optional"
        text = f"- {code(field)} ({type_text(spec)}; {status})"
        if spec.get("description"):
            text += ": " + " ".join(paragraphs(str(spec["description"])).split())
        lines.append(text)
    lines.append("")
    return "\n".join(lines)


def type_text(spec: Mapping[str, Any]) -> str:
    """A JSON schema's type in words, with the constraints a writer of the file must meet."""
    if "$ref" in spec:
        name = str(spec["$ref"]).rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    if "const" in spec:
        return code(json.dumps(spec["const"], ensure_ascii=False))
    if "enum" in spec:
        return "one of " + ", ".join(code(json.dumps(v, ensure_ascii=False)) for v in spec["enum"])
    for key in ("anyOf", "oneOf", "allOf"):
        if key in spec:
            kinds = [type_text(option) for option in spec[key]]
            return " or ".join(dict.fromkeys(kinds))
    kind = spec.get("type")
    if isinstance(kind, list):
        return " or ".join(type_text({**spec, "type": k}) for k in kind)
    if kind == "array":
        if "prefixItems" in spec:
            return "a list of " + ", ".join(type_text(item) for item in spec["prefixItems"])
        items = spec.get("items")
        counted = _bounds(spec, "minItems", "maxItems", "items")
        return f"a list{counted} of {type_text(items)}" if isinstance(items, Mapping) else f"a list{counted}"
    if kind == "object":
        values = spec.get("additionalProperties")
        if isinstance(values, Mapping):
            return f"a mapping of text to {type_text(values)}"
        return "a mapping"
    words = {
        "string": "text",
        "integer": "integer",
        "number": "number",
        "boolean": "true or false",
        "null": "null",
    }
    if kind in words:
        text = words[str(kind)]
        if kind == "string":
            text += _bounds(spec, "minLength", "maxLength", "characters")
            if "pattern" in spec:
                text += f" matching {code(str(spec['pattern']))}"
            if "format" in spec:
                text += f" ({spec['format']})"
        elif kind in ("integer", "number"):
            text += _range(spec)
        return text
    return "any value" if not spec else code(json.dumps(spec, ensure_ascii=False))


def _bounds(spec: Mapping[str, Any], low: str, high: str, unit: str) -> str:
    if low in spec and high in spec:
        return f" of {spec[low]} to {spec[high]} {unit}"
    if low in spec and spec[low] > 0:
        return f" of at least {spec[low]} {unit}"
    if high in spec:
        return f" of at most {spec[high]} {unit}"
    return ""


def _range(spec: Mapping[str, Any]) -> str:
    parts = []
    for key, word in (
        ("minimum", "≥"),
        ("exclusiveMinimum", ">"),
        ("maximum", "≤"),
        ("exclusiveMaximum", "<"),
    ):
        if key in spec:
            parts.append(f"{word} {spec[key]}")
    return f" ({', '.join(parts)})" if parts else ""
