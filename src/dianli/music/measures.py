"""Chinese measures of length as the witnesses write them (九寸, 八寸四分二釐七毫, 長七尺), in 寸."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dianli.errors import DianliError

NUMERALS: dict[str, int] = {
    "零": 0,
    "一": 1,
    "二": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
UNITS_CUN: dict[str, float] = {
    "丈": 100.0,
    "尺": 10.0,
    "寸": 1.0,
    "分": 0.1,
    "釐": 0.01,
    "厘": 0.01,
    "毫": 0.001,
    "絲": 0.0001,
    "丝": 0.0001,
    "忽": 0.00001,
}
"""Each unit of length in 寸 (ten of each make the next larger, 十分為寸, 十寸為尺)."""

_TERM_RE = re.compile(r"([零一二兩三四五六七八九十]+)([丈尺寸分釐厘毫絲丝忽])")


@dataclass(frozen=True)
class Length:
    """A length as written: its value in 寸 and its digits, one per unit from the largest written."""

    text: str
    length_cun: float
    digits: tuple[tuple[str, int], ...]


def _number(numeral: str, text: str) -> int:
    if numeral == "十":
        return 10
    if "十" in numeral:
        tens, _, ones = numeral.partition("十")
        return (NUMERALS[tens] if tens else 1) * 10 + (NUMERALS[ones] if ones else 0)
    if len(numeral) != 1:
        raise DianliError(f"cannot read the numeral {numeral!r} in the length {text!r}")
    return NUMERALS[numeral]


def parse_length(text: str) -> Length:
    """Read the first run of numeral+unit terms in ``text`` (e.g. ``長八寸四分二釐七毫``)."""
    terms = list(_TERM_RE.finditer(text))
    if not terms:
        raise DianliError(f"no length (numeral followed by 丈/尺/寸/分/釐/毫/絲/忽) in {text!r}")
    run = [terms[0]]
    for match in terms[1:]:
        gap = text[run[-1].end() : match.start()]
        if gap not in ("", "有"):
            break
        run.append(match)
    total = 0.0
    digits: list[tuple[str, int]] = []
    for match in run:
        value = _number(match.group(1), text)
        total += value * UNITS_CUN[match.group(2)]
        digits.append((match.group(2), value))
    return Length(text=text[run[0].start() : run[-1].end()], length_cun=round(total, 6), digits=tuple(digits))
