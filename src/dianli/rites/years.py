"""The one range of years of ``rites show``, ``program`` and ``calendar`` (CLI and web), apart from the code
that uses it, so that a command can check a year without loading the rites."""

from __future__ import annotations

from dianli.calendar.reigns import FIRST_QING_YEAR, LAST_QING_CHINESE_YEAR

FIRST_YEAR = FIRST_QING_YEAR
"""The first year of ``rites show``, ``program`` and ``calendar`` (the Qing's first, 順治元年)."""
QING_LAST_YEAR = LAST_QING_CHINESE_YEAR
"""The last year of the Qing (宣統三年): up to it a rite is resolved for the place as it stood that year."""
LAST_YEAR = 2100
"""The last year of ``rites show``, ``program`` and ``calendar``, in the CLI and on the web: the one range
of the three commands is FIRST_YEAR..LAST_YEAR. After QING_LAST_YEAR a year means the rite as the text
prescribes it for the unit as it stood in its last Qing year, its day computed (see
:func:`dianli.rites.resolve.standing`)."""
CALENDAR_LAST_YEAR = LAST_YEAR
"""The calendar's last year: the one range of ``rites show``, ``program`` and ``calendar``; past the dynasty
the days are computed or a practice's."""
