"""Benchmark of the dance: parsing the notation and building the animation, as ratios to a baseline.

The baseline, measured in the same run, is finding the sung characters and their descriptions in the
witness text with one regular expression (no parsing). Run: ``python bench/dance.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from dianli.dance import notation
from dianli.dance.animate import animation_data
from dianli.dance.animate import render_html as dance_html
from dianli.dance.mirror import asymmetries
from dianli.dance.notation import dance_witnesses
from dianli.dance.notation import movements as dance_movements

REPEATS = 5


def _best(func: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def baseline() -> None:
    for w in dance_witnesses():
        for m in dance_movements():
            notation._entries(w, m)


def parse_all() -> None:
    notation.parse_movement.cache_clear()
    for w in dance_witnesses():
        for m in dance_movements():
            notation.parse_movement(w, m.id)


def mirror_all() -> None:
    parse_all()
    asymmetries.cache_clear()
    asymmetries()


def build_animation() -> None:
    for m in dance_movements():
        animation_data(m.id)


def render_page() -> None:
    dance_html("chuxian")


def main() -> None:
    baseline()
    parse_all()
    base = _best(baseline)
    print(f"baseline (find 192 descriptions by regex): {base * 1000:.2f} ms")
    for name, func in (
        ("parse 2 witnesses × 96 characters", parse_all),
        ("parse + mirror check", mirror_all),
        ("build animation data, 3 movements", build_animation),
        ("render one HTML page (no audio)", render_page),
    ):
        t = _best(func)
        print(f"{name}: {t * 1000:.1f} ms = {t / base:.0f}× baseline")


if __name__ == "__main__":
    main()
