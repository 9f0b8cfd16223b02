"""dianli (典禮): the Qing state ritual code of Fujian and Taiwan as executable, cited software.

The public API — ``dianli.ceremony``, ``calendar``, ``date``, ``places``, ``witnesses``, ``witness``,
``variants``, ``collate``, ``timeline``, ``spring_ox``, ``music``, ``provenance`` and the types they return —
is listed once, in ``__init__.pyi``; ``lazy_loader`` (SPEC 1) reads that stub and imports a name's module
only when the name is first used, so ``import dianli`` (and the command line) stays fast.
"""

import sys as _sys
import types as _types

import lazy_loader as _lazy

__version__ = "0.1.0"

__getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)


class _Package(_types.ModuleType):
    """The package, whose entry points keep their names: three of them share one with a subpackage
    (``dianli.calendar``, ``dianli.music``, ``dianli.spring_ox``), which the import system would otherwise
    bind on the package once imported. The subpackages stay importable by name (``from dianli.music.score
    import movement``); only the attribute is the entry point's."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in __all__ and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
