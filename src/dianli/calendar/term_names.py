"""The names of the 24 solar terms (節氣), in this project's order: 0 = 小寒 (early January) … 23 = 冬至."""

from __future__ import annotations

SOLAR_TERMS: tuple[str, ...] = (
    "小寒", "大寒", "立春", "雨水", "驚蟄", "春分", "清明", "穀雨", "立夏", "小滿", "芒種", "夏至",
    "小暑", "大暑", "立秋", "處暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
)  # fmt: skip

SIMPLIFIED_TERM_NAMES: dict[str, str] = {
    "驚蟄": "惊蛰",
    "穀雨": "谷雨",
    "小滿": "小满",
    "芒種": "芒种",
    "處暑": "处暑",
}
"""The names that simplified script writes differently (the others are the same in both scripts)."""
