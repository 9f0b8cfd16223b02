"""The dated events drawn as a timeline: an SVG made offline, one lane per witness, years on the axis.

Each event is a mark in its witness's lane at its date (filled where the text gives the day, open where
it gives only the year or the month); the mark's ``<title>`` holds the date and the quotation, and it
links to ``#event-N`` (the N-th event of the list that a page prints below the picture). Marks of one
lane in the same year stack. The witnesses' own dates crowd the Qing centuries, so when earlier dynasties
are quoted too the axis is broken at :data:`BREAK_YEAR`: the centuries before it take :data:`EARLY_SHARE`
of the width, and a zigzag on the axis says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from dianli.corpus.dated_events import DatedEvent

BREAK_YEAR = 1600
EARLY_SHARE = 0.25
WIDTH = 960
LEFT = 130
RIGHT = 20
TOP = 34
LANE = 34
STACK_STEP = 6
STACK_MAX = 4
FILLED = "#8b1a1a"


def _year_of(event: DatedEvent) -> float:
    """The event's position in years: its day (or the first day of its month or year) as a fraction."""
    day = event.gregorian_date or event.first_day
    if day is None:
        return float(event.chinese_year)
    return day.year + (day.timetuple().tm_yday - 1) / 366


def _scale(first: int, last: int) -> tuple[Callable[[float], float], list[int], bool]:
    """x of a year, the years to label, and whether the axis is broken at BREAK_YEAR."""
    span = WIDTH - LEFT - RIGHT
    broken = first < BREAK_YEAR - 50 and last > BREAK_YEAR
    if not broken:
        lo, hi = first, max(last, first + 1)

        def linear(year: float) -> float:
            return LEFT + (year - lo) / (hi - lo) * span

        return linear, _ticks(lo, hi, 8), False
    early_width = span * EARLY_SHARE

    def piecewise(year: float) -> float:
        if year < BREAK_YEAR:
            return LEFT + (year - first) / (BREAK_YEAR - first) * early_width
        return LEFT + early_width + (year - BREAK_YEAR) / max(1, last - BREAK_YEAR) * (span - early_width)

    early = [t for t in _ticks(first, BREAK_YEAR, 3) if first + 60 < t < BREAK_YEAR - 60]
    ticks = [first, *early, *_ticks(BREAK_YEAR, last, 6)]
    return piecewise, ticks, True


TICK_DIGIT_PX = 7.0
"""The width of a digit of a tick's label (11 px); labels keep :data:`TICK_GAP_PX` between them."""
TICK_GAP_PX = 8.0


def spaced(ticks: list[int], x_of: Callable[[float], float]) -> list[int]:
    """The ticks whose labels do not run into each other (「15001600」): from the left, a tick too close to
    the one kept before it is left out — unless it is the axis's break, which then replaces that one."""
    kept: list[int] = []
    for tick in ticks:
        if kept:
            room = (len(str(kept[-1])) + len(str(tick))) / 2 * TICK_DIGIT_PX + TICK_GAP_PX
            if x_of(tick) - x_of(kept[-1]) < room:
                if tick == BREAK_YEAR and len(kept) > 1:
                    kept[-1] = tick
                continue
        kept.append(tick)
    return kept


def _ticks(lo: int, hi: int, count: int) -> list[int]:
    step = max(1, (hi - lo) // count)
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        if nice >= step:
            step = nice
            break
    start = -(-lo // step) * step
    return list(range(start, hi + 1, step))


def timeline_svg(
    events: Sequence[DatedEvent],
    labels: dict[str, str],
    title: str = "",
    link: bool = True,
) -> str:
    """An SVG of ``events`` (sorted by date), a lane per witness labelled by ``labels[witness]``.

    With ``link``, each mark links to ``#event-N`` (N counts from 1 in the order of ``events``)."""
    lanes = list(dict.fromkeys(e.witness for e in events))
    height = TOP + LANE * max(1, len(lanes)) + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'role="{"group" if link else "img"}" aria-label="{escape(title or "dated events")}" '
        'font-family="sans-serif">'  # a group: its marks are links (an img's children are not reachable)
    ]
    if title:
        out.append(f'<text x="{LEFT}" y="16" font-size="13">{escape(title)}</text>')
    if not events:
        out.append(f'<text x="{LEFT}" y="{TOP + 16}" font-size="12">no dated events</text></svg>')
        return "".join(out)
    years = [_year_of(e) for e in events]
    x_of, ticks, broken = _scale(int(min(years)), int(max(years)) + 1)
    axis_y = TOP + LANE * len(lanes) + 6
    for index, witness in enumerate(lanes):
        y = TOP + LANE * index
        out.append(
            f'<line x1="{LEFT}" y1="{y + LANE - 4}" x2="{WIDTH - RIGHT}" y2="{y + LANE - 4}" '
            'stroke="#ddd" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{LEFT - 6}" y="{y + LANE / 2 + 4:.0f}" font-size="12" text-anchor="end">'
            f"{escape(labels.get(witness, witness))}</text>"
        )
    out.append(f'<line x1="{LEFT}" y1="{axis_y}" x2="{WIDTH - RIGHT}" y2="{axis_y}" stroke="#333"/>')
    for tick in spaced(ticks, x_of):
        x = x_of(tick)
        out.append(f'<line x1="{x:.1f}" y1="{axis_y}" x2="{x:.1f}" y2="{axis_y + 5}" stroke="#333"/>')
        out.append(f'<text x="{x:.1f}" y="{axis_y + 18}" font-size="11" text-anchor="middle">{tick}</text>')
    if broken:
        x = x_of(BREAK_YEAR) - 6
        out.append(
            f'<path d="M{x - 4:.1f} {axis_y + 4} l4 -8 l4 8 l4 -8" fill="none" stroke="#333" '
            'stroke-width="1.2"><title>axis broken: the years before it are compressed</title></path>'
        )
    stacked: dict[tuple[str, int], int] = {}
    for number, (event, year) in enumerate(zip(events, years, strict=True), start=1):
        lane = lanes.index(event.witness)
        key = (event.witness, int(year))
        level = stacked.get(key, 0)
        stacked[key] = level + 1
        x = x_of(year)
        mark_y = TOP + LANE * lane + LANE / 2 + 6 - (level % STACK_MAX) * STACK_STEP
        exact = event.gregorian_date is not None
        fill = FILLED if exact else "#fff"
        when = event.gregorian_date.isoformat() if event.gregorian_date else str(event.gregorian_year)
        tip = f"{when} {event.shown_date} ({event.dynasty_name}) · {labels.get(event.witness, event.witness)}: {event.quote}"
        if event.carry is not None:
            tip += f" · {event.notes[0]}"  # 「era carried over from …」: the program supplied the era
        mark = (
            f'<circle cx="{x:.1f}" cy="{mark_y:.1f}" r="4" fill="{fill}" stroke="{FILLED}" stroke-width="1.5">'
            f"<title>{escape(tip)}</title></circle>"
        )
        out.append(f'<a href="#event-{number}">{mark}</a>' if link else mark)
    out.append("</svg>")
    return "\n".join(out)
