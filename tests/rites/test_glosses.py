"""No step inherited through ``extends`` keeps words of the part it came from: a step numbered in the
亞獻 part must not gloss or call the first offering (the class of mistake where an override changed the
call but not the gloss)."""

from __future__ import annotations

import pytest

from dianli.errors import DianliError
from dianli.rites.expand import NumberedStep
from dianli.rites.resolve import resolve_rite, rite_ids

OFFERINGS: dict[str, tuple[str, ...]] = {
    "初獻": ("first offering", "初獻", "寧平"),
    "亞獻": ("second offering", "亞獻", "安平"),
    "終獻": ("final offering", "third offering", "終獻", "景平"),
}
"""Each offering's names in a gloss or a call: its English name, its own name and its hymn (大成樂)."""
PLACES = ("臺灣府", "福州府", "汀州府")
YEARS = (1700, 1752, 1850)


def _steps(rite: str) -> list[NumberedStep]:
    out: list[NumberedStep] = []
    for place in PLACES:
        for year in YEARS:
            try:
                out.extend(resolve_rite(rite, place, year).steps)
            except DianliError:
                continue
    return out


def _offering_of(title: str) -> str | None:
    named = [o for o in OFFERINGS if o in title]
    return named[0] if len(named) == 1 else None


@pytest.mark.parametrize("rite", rite_ids())
def test_no_step_names_another_offering(rite: str) -> None:
    wrong = []
    for n in _steps(rite):
        own = _offering_of(n.placed.part_title)
        if own is None:
            continue
        text = f"{n.step.gloss or ''} {n.step.call or ''}".lower()
        for other, words in OFFERINGS.items():
            if other != own and any(w.lower() in text for w in words):
                wrong.append(f"step {n.number} ({n.placed.part_title}): {n.step.call!r} / {n.step.gloss!r}")
    assert not wrong, "\n".join(sorted(set(wrong)))


@pytest.mark.parametrize(
    ("number", "gloss"),
    [
        (19, "Perform the first offering"),
        (62, "Perform the second offering"),
        (65, "The banner is raised: the 安平 hymn, begun by striking the 柷"),
        (90, "Perform the final offering"),
        (93, "The banner is raised: the 景平 hymn, begun by striking the 柷"),
    ],
)
def test_xianshi_offering_glosses(number: int, gloss: str) -> None:
    steps = {n.number: n.step for n in resolve_rite("祀先師", "臺灣府", 1752).steps}
    assert steps[number].gloss == gloss
