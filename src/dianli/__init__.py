"""dianli (典禮): the Qing state ritual code of Fujian and Taiwan as executable, cited software.

The public API — ``dianli.ceremony``, ``calendar``, ``date``, ``places``, ``witnesses``, ``witness``,
``variants``, ``collate``, ``timeline``, ``spring_ox``, ``music``, ``provenance`` and the types they return —
is listed once, in ``__init__.pyi``: ``lazy_loader`` (SPEC 1) reads that stub when a name is first asked for
and imports the name's module then, so ``import dianli`` (and the command line) loads nothing of it.
"""

import sys as _sys
import types as _types

__version__ = "0.1.0"

# Type checkers read __init__.pyi, not this file; it imports nothing more than sys and types (typing alone
# would double what importing dianli costs).
_attached: list = []  # type: ignore[type-arg]


def _stub():  # type: ignore[no-untyped-def]
    """lazy_loader's ``__getattr__``, ``__dir__`` and ``__all__`` for the stub, made on first use (reading
    the stub parses it: tens of milliseconds that ``import dianli`` need not spend)."""
    if not _attached:
        import lazy_loader

        _attached.append(lazy_loader.attach_stub(__name__, __file__))
    return _attached[0]


def __getattr__(name: str) -> object:
    if name == "__all__":
        return _stub()[2]
    return _stub()[0](name)


def __dir__() -> list[str]:
    return _stub()[1]()


class _Package(_types.ModuleType):
    """The package, whose entry points keep their names: three of them share one with a subpackage
    (``dianli.calendar``, ``dianli.music``, ``dianli.spring_ox``), which the import system would otherwise
    bind on the package once imported. The subpackages stay importable by name (``from dianli.music.score
    import movement``); only the attribute is the entry point's."""

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, _types.ModuleType) and name in _stub()[2]:
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
