"""dianli (典禮): the Qing state ritual code of Fujian and Taiwan as executable, cited software.

This stub is the one list of the public API (SPEC 1): ``dianli/__init__.py`` hands it to ``lazy_loader``,
which imports each name's module when the name is first used, and type checkers and editors read it.
"""

from .provenance import Provenance as Provenance
from .provenance import provenance as provenance
from .public.calendar import Day as Day
from .public.calendar import calendar as calendar
from .public.calendar import date as date
from .public.calendar import places as places
from .public.ceremony import Ceremony as Ceremony
from .public.ceremony import ceremony as ceremony
from .public.comparison import Collated as Collated
from .public.comparison import Compared as Compared
from .public.comparison import Variants as Variants
from .public.comparison import changes as changes
from .public.comparison import collate as collate
from .public.comparison import compare as compare
from .public.comparison import variants as variants
from .public.corpus import Quotation as Quotation
from .public.corpus import WitnessText as WitnessText
from .public.corpus import timeline as timeline
from .public.corpus import witness as witness
from .public.corpus import witnesses as witnesses
from .public.figures import Audio as Audio
from .public.figures import Music as Music
from .public.figures import SpringOxFigure as SpringOxFigure
from .public.figures import music as music
from .public.figures import spring_ox as spring_ox
from .public.table import Table as Table

__version__: str

__all__ = [
    "Audio",
    "Ceremony",
    "Collated",
    "Compared",
    "Day",
    "Music",
    "Provenance",
    "Quotation",
    "SpringOxFigure",
    "Table",
    "Variants",
    "WitnessText",
    "__version__",
    "calendar",
    "ceremony",
    "changes",
    "collate",
    "compare",
    "date",
    "music",
    "places",
    "provenance",
    "spring_ox",
    "timeline",
    "variants",
    "witness",
    "witnesses",
]
