"""The console script's root group: it lists every command from :mod:`dianli.cli.commands` and imports a
command's module only when that command runs, so ``dianli date …`` does not load the music, the dance or
the rites (:mod:`dianli.cli.main` starts it).

Typer converts every parameter's value with a pydantic ``TypeAdapter`` built when the value is converted;
building the first loads pydantic, a good part of a command's start. :func:`lighten` gives the plain
cases — no value given, a ``str`` given as text, an ``int`` given as ASCII digits (within the
parameter's bounds), an ``Enum`` given by one of its values — the conversion
typer's own adapter would make (typer's ``coerce_cli_choice`` for a choice), and hands every other value
to typer's adapter, built then, so that messages for bad values stay typer's."""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import typing
from dataclasses import dataclass
from enum import Enum
from typing import Any

import typer
import typer.core
import typer.main

from dianli.cli.commands import COMMANDS
from dianli.cli.common import collect_from_here

_INTEGER = re.compile(r"[+-]?[0-9]+")
"""An integer as ASCII digits: converted without pydantic (any other text goes to typer's adapter)."""


def _leaf(annotation: Any) -> Any:
    """``int`` for ``int`` and ``int | None`` (an optional parameter's annotation), else ``annotation``."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    return args[0] if len(args) == 1 and type(None) in typing.get_args(annotation) else annotation


@functools.cache
def _plain_conversion() -> type | None:
    """:class:`_Plain` on typer's conversion layer (typer's ``_coercion``), or None for a typer without it
    (its parameters then keep typer's own conversion)."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer._param_types import coerce_cli_choice
    except ImportError:  # pragma: no cover - another typer
        return None

    @dataclass(frozen=True)
    class _Plain(RuntimeParam):
        """A parameter's conversion that needs no pydantic for the plain cases (see the module's doc)."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            annotation, info = self.annotation, self.parameter_info
            if info.parser is None and getattr(info, "click_type", None) is None:
                if annotation is str and type(value) is str:
                    return value  # typer's adapter: str(value), validated as str — the same string
                if _leaf(annotation) is int and type(value) is str and _INTEGER.fullmatch(value):
                    number = int(value)  # pydantic's lax int of the same digits: the same number
                    low, high = info.min, info.max
                    if (low is None or number >= low) and (high is None or number <= high):
                        return number  # out of range, typer's adapter says so (or clamps)
                if isinstance(annotation, type) and issubclass(annotation, Enum):
                    try:
                        return coerce_cli_choice(
                            value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx
                        )
                    except ValueError:
                        pass  # typer's adapter says why
            return build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    return _Plain


def lighten(params: list[Any]) -> None:
    """Give each parameter not yet converted the plain conversion (see the module's doc)."""
    plain = _plain_conversion()
    if plain is None:  # pragma: no cover - another typer
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or getattr(param, "_runtime_param", False) is not None:
            continue
        param._runtime_param = plain(
            parameter_info=descriptor.parameter_info, annotation=descriptor.annotation, descriptor=descriptor
        )


def load_command(name: str) -> Any:
    """The real command ``name``, registered by its module on an application of its own."""
    app = typer.Typer()
    importlib.import_module(f"dianli.cli.{COMMANDS[name].module}").register(app)
    command = typer.main.get_group(app).commands[name]
    original = command.get_params

    def get_params(ctx: Any) -> list[Any]:
        params = original(ctx)  # the command's, with its help option (made on first use)
        lighten(params)
        return list(params)

    setattr(command, "get_params", get_params)  # noqa: B010 - an instance's method, wrapped
    collect_from_here()
    return command


class LazyCommand(typer.core.TyperCommand):
    """Stands for a command in the root's listing (name and summary); loads it when it is run."""

    def __init__(self, name: str) -> None:
        super().__init__(name=name, short_help=COMMANDS[name].summary, help=COMMANDS[name].summary)
        self._real: Any = None

    def real(self) -> Any:
        if self._real is None:
            self._real = load_command(str(self.name))
        return self._real

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        return self.real().make_context(info_name, args, parent=parent, **extra)


class LazyGroup(typer.core.TyperGroup):
    """The root group: every command of the table, each loaded on first use."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # the root's own options (--width …) and its help option
        lighten(params)
        return list(params)

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        """The root's help, wrapped in display columns (click counts characters: a line with 典禮 would be
        two columns too wide)."""
        from dianli.cli.common import wrap

        text = inspect.cleandoc(self.help or "")
        if not text:
            return
        formatter.write_paragraph()
        with formatter.indentation():
            room = max(formatter.width - formatter.current_indent, 20)
            for number, paragraph in enumerate(text.split("\n\n")):
                if number:
                    formatter.write_paragraph()
                for line in wrap(" ".join(paragraph.split()), room, indent=0):
                    formatter.write(f"{'':>{formatter.current_indent}}{line}\n")

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.commands, *(name for name in COMMANDS if name not in self.commands)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = LazyCommand(cmd_name)
        return self.commands.get(cmd_name)
