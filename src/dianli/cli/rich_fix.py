"""A fix for rich's wrapping of wide characters, applied when rich is first imported (by dianli or by typer).

rich (15.0) wraps a text to a width in display cells, then strips the spaces that end a line beyond the
width, but measures that line in *characters* (``Text.rstrip_end`` takes ``len``). A line holding 漢字 is
wider in cells than in characters, so its trailing space is kept, the line counts one cell too wide, and
with ``overflow="ellipsis"`` — the default of a table's cells, and so of typer's help panels — its last
word loses its last letter to "…": ``default: the …`` printed as ``default…``. The fix measures in cells,
as the rest of rich does. It changes nothing for a line without wide characters.

:func:`install` applies it now if rich's text module is loaded, else when it is (an import hook that
removes itself), so that a command that never shows a table or a help panel still starts without rich.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import importlib.abc
    import importlib.machinery

_MODULE = "rich.text"


def _patch(module: ModuleType) -> None:
    text_class: Any = module.Text
    if getattr(text_class.rstrip_end, "_dianli_cells", False):
        return
    from rich.cells import cell_len

    whitespace = module._re_whitespace

    def rstrip_end(self: Any, size: int) -> None:
        """Remove the whitespace that ends the text beyond ``size`` display cells."""
        excess = cell_len(self.plain) - size
        if excess > 0:
            found = whitespace.search(self.plain)
            if found is not None:
                self.right_crop(min(len(found.group(0)), excess))

    rstrip_end._dianli_cells = True  # type: ignore[attr-defined]
    text_class.rstrip_end = rstrip_end


class _Loader:
    """rich's own loader for its text module, then the fix. (The import system asks a loader for these two
    methods only; importing :mod:`importlib.abc` for its base class would load :mod:`importlib.resources`,
    2 ms of every command's start.)"""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        _patch(module)


class _Finder:
    """Finds rich's text module as the other finders do, and hands it to :class:`_Loader` (once). (A finder
    on ``sys.meta_path`` needs only ``find_spec``.)"""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _MODULE:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None and spec.loader is not None:
                spec.loader = cast("importlib.abc.Loader", _Loader(spec.loader))  # a loader by its methods
                return spec
        return None


def install() -> None:
    """Apply the fix to rich's ``Text`` now, or when rich's text module is first imported."""
    loaded = sys.modules.get(_MODULE)
    if loaded is not None:
        _patch(loaded)
    elif not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
