"""A print-quality SVG of the spring ox and the Mang god, drawn with the computed colours and dress.

Only draws; every value comes from the evaluated attributes of a :class:`~dianli.spring_ox.figure.SpringOx`.
Every painted region carries ``data-attribute`` (the attribute it shows) so tests can check the fills.
Where a rule gives no colour (the god's trousers, his cap) a neutral colour is used and the legend says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from dianli.spring_ox.figure import SpringOx
from dianli.spring_ox.rules import Outcome

WIDTH_PX = 1414  # the height follows from the text (the legend is never cut)
SCENE_WIDTH_PX = 980
MIRROR_AXIS_PX = 1000  # x ↦ MIRROR_AXIS_PX − x when the god stands on the ox's right
GROUND_Y = 760
GOD_HEIGHT_PX = 280
INK = "#3a2e25"
PAPER = "#fbf8f1"
SKIN = "#f0d2b0"
NEUTRAL_TROUSERS = "#7d8596"  # not given by either rule
NEUTRAL_CAP = "#6b5a4a"  # not given by either rule
SHOE = "#3b3430"
WOOD = "#8b5a2b"
WILLOW = "#7a6a3a"
UNPAINTED_CLAY = "#b9a58a"
ROPE_COLOURS = {"hemp": "#c8b27a", "ramie": "#d9d6c3", "silk": "#e9d59a"}
KNOT_COLOURS = ("#2e7d6b", "#c8322c", "#e0b43a", "#f4f1e8", "#26262b")
FONT = "'Noto Serif CJK TC','Noto Sans CJK TC','Source Han Serif TC','WenQuanYi Micro Hei','PMingLiU',serif"
MUTED = "#5d5248"
MARGIN_PX = 40
SCENE_TOP_PX = 340  # the scene is drawn between these in its own coordinates (measures to the god's feet)
SCENE_BOTTOM_PX = 820
NOTES_X = 1000  # the notes' column, right of the scene
LINE_PITCH = 1.5  # baseline to baseline, in em: CJK fonts' line boxes are 1.44 em tall
DESCENT = 0.32  # the part of a line below its baseline, in em
SUBTITLE_PX = 16
NOTE_PX = 14
LABEL_PX = 15
LEGEND_HEAD_PX = 16
LEGEND_TEXT_PX = 14
LEGEND_COLUMNS = 3
LEGEND_GAP_PX = 10
COLUMN_GAP_PX = 32
SWATCH_PX = 18


class _Look:
    """Read the attributes the picture needs from a result (with neutral defaults where a rule is silent)."""

    def __init__(self, result: SpringOx) -> None:
        self.by_id: dict[str, Outcome] = {o.id: o for o in result.outcomes}

    def fill(self, attribute_id: str, default: str = UNPAINTED_CLAY) -> str:
        outcome = self.by_id.get(attribute_id)
        if outcome is None:
            return default
        if outcome.primary.colour is not None:
            return outcome.primary.colour.hex
        value = outcome.primary.value
        if isinstance(value, dict) and "hex" in value:
            return str(value["hex"])
        return default

    def field(self, attribute_id: str, name: str, default: Any = None) -> Any:
        outcome = self.by_id.get(attribute_id)
        if outcome is None or not isinstance(outcome.primary.value, dict):
            return default
        return outcome.primary.value.get(name, default)


def _attr(attribute: str | None) -> str:
    return f' data-attribute="{attribute}"' if attribute else ""


def _path(
    d: str, fill: str, attribute: str | None = None, stroke: str = INK, width: float = 2.5, extra: str = ""
) -> str:
    return f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{width}" stroke-linejoin="round"{_attr(attribute)}{extra}/>'


def _ellipse(
    cx: float, cy: float, rx: float, ry: float, fill: str, attribute: str | None = None, width: float = 2.5
) -> str:
    return (
        f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{rx:.1f}" ry="{ry:.1f}" fill="{fill}" stroke="{INK}" '
        f'stroke-width="{width}"{_attr(attribute)}/>'
    )


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    fill: str = INK,
    weight: str = "normal",
    anchor: str = "start",
    halo: bool = False,
) -> str:
    """A line of text; ``halo`` outlines it in the paper's colour, to be read over the drawing."""
    ring = f' stroke="{PAPER}" stroke-width="5" stroke-linejoin="round" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" font-weight="{weight}" '
        f'text-anchor="{anchor}"{ring}>{escape(text)}</text>'
    )


# --- the ox (drawn facing left; mirrored when the god stands on its right) -------------------------


def _ox_leg(x: float, look: _Look, far: bool) -> list[str]:
    top, knee, hoof_top = 630.0, 700.0, GROUND_Y - 22.0
    w = 34.0
    shade = ' opacity="0.82"' if far else ""
    out = [
        f"<g{shade}>",
        _path(
            f"M {x} {top} L {x + w} {top} L {x + w - 3} {knee} L {x + 3} {knee} Z",
            look.fill("ox.body"),
            "ox.body",
        ),
        _path(
            f"M {x + 3} {knee} L {x + w - 3} {knee} L {x + w - 5} {hoof_top} L {x + 5} {hoof_top} Z",
            look.fill("ox.shins"),
            "ox.shins",
        ),
        _path(
            f"M {x + 3} {hoof_top} L {x + w - 3} {hoof_top} L {x + w + 2} {GROUND_Y} L {x - 2} {GROUND_Y} Z",
            look.fill("ox.hooves"),
            "ox.hooves",
        ),
        f'<path d="M {x + w / 2 + 1} {hoof_top + 4} L {x + w / 2 + 1} {GROUND_Y}" stroke="{INK}" stroke-width="1.5"/>',
        "</g>",
    ]
    return out


def _ox_tail(look: _Look) -> list[str]:
    flick = look.field("ox.tail_flick", "tail")
    if flick == "left":  # towards the near flank
        d, tuft = "M 785 500 Q 830 560 790 650", (786, 664)
    elif flick == "right":  # swung out behind
        d, tuft = "M 785 500 Q 880 520 862 640", (860, 654)
    else:
        d, tuft = "M 785 500 Q 815 570 808 648", (807, 662)
    colour = look.fill("ox.tail")
    return [
        f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="13" stroke-linecap="round"/>',
        f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="8" stroke-linecap="round" data-attribute="ox.tail"/>',
        _ellipse(tuft[0], tuft[1], 11, 20, colour, "ox.tail"),
    ]


def _ox_head(look: _Look) -> list[str]:
    out = [
        # far horn, then head, then near horn
        _path("M 352 478 Q 352 425 392 408 Q 378 445 372 482 Z", look.fill("ox.horns"), "ox.horns"),
        _path(
            "M 405 478 C 360 464 318 476 296 500 L 266 580 Q 264 612 296 614 L 342 612 Q 384 592 410 560 Z",
            look.fill("ox.head"),
            "ox.head",
        ),
        _path("M 326 486 Q 290 440 310 408 Q 322 440 346 480 Z", look.fill("ox.horns"), "ox.horns"),
        _path("M 372 498 Q 414 474 440 488 Q 410 514 372 508 Z", look.fill("ox.ears"), "ox.ears"),
        _ellipse(318, 522, 6, 5, INK, None, 1),
    ]
    if look.field("ox.mouth", "mouth") == "open":
        out.append(_path("M 268 592 L 314 598 L 274 614 Z", "#5a2a2a", "ox.mouth", width=2))
    else:
        out.append(
            f'<path d="M 270 600 L 308 602" stroke="{INK}" stroke-width="2.5" data-attribute="ox.mouth"/>'
        )
    halter = look.fill("ox.halter")
    for d in ("M 290 548 L 352 566", "M 352 566 Q 366 526 352 486", "M 352 486 Q 372 478 392 486"):
        out.append(f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="10" stroke-linecap="round"/>')
        out.append(
            f'<path d="{d}" fill="none" stroke="{halter}" stroke-width="6" stroke-linecap="round" data-attribute="ox.halter"/>'
        )
    out.append(_ellipse(276, 584, 6, 6, WOOD, "ox.nose_peg", 1.5))
    rope = ROPE_COLOURS.get(str(look.field("ox.rope", "material", "")), ROPE_COLOURS["hemp"])
    rope_d = "M 290 560 Q 250 660 300 690 Q 340 700 352 652"
    out.append(f'<path d="{rope_d}" fill="none" stroke="{INK}" stroke-width="6" stroke-linecap="round"/>')
    out.append(
        f'<path d="{rope_d}" fill="none" stroke="{rope}" stroke-width="3.5" stroke-linecap="round" data-attribute="ox.rope"/>'
    )
    return out


def _ox(look: _Look) -> list[str]:
    out: list[str] = []
    if "ox.treadle" in look.by_id:
        out.append(
            f'<rect x="380" y="{GROUND_Y}" width="440" height="18" rx="3" fill="#a07850" stroke="{INK}" '
            f'stroke-width="2" data-attribute="ox.treadle"/>'
        )
    out += _ox_leg(440, look, far=True)
    out += _ox_leg(735, look, far=True)
    out += _ox_tail(look) if look.field("ox.tail_flick", "tail") == "right" else []
    out.append(
        _path(
            "M 400 470 Q 560 440 780 480 Q 800 540 790 600 Q 770 670 700 672 L 440 672 Q 380 660 372 600 Q 372 520 400 470 Z",
            look.fill("ox.body"),
            "ox.body",
        )
    )
    out.append(
        _path("M 440 628 Q 590 602 742 630 L 738 660 Q 590 690 446 664 Z", look.fill("ox.belly"), "ox.belly")
    )
    out += _ox_leg(408, look, far=False)
    out += _ox_leg(700, look, far=False)
    out += _ox_tail(look) if look.field("ox.tail_flick", "tail") != "right" else []
    out += _ox_head(look)
    return out


# --- the god (frontal; his left is the viewer's right) ---------------------------------------------


def _hair_knot(cx: float, cy: float, r: float) -> str:
    return _ellipse(cx, cy, r, r * 0.9, "#1d1a18", "god.hair", 1.5)


def _knot_positions(where: str, side: int, hx: float, hy: float, r: float) -> tuple[float, float]:
    # side: -1 viewer's left (the god's right), +1 viewer's right (the god's left)
    if where == "front":
        return hx + side * r * 0.98, hy + r * 0.25
    if where == "behind":
        return hx + side * r * 1.12, hy - r * 0.55
    return hx + side * r * 0.42, hy - r * 1.38  # crown


def _ear_flap(hx: float, hy: float, r: float, side: int, lifted: bool, cap: str) -> str:
    x = hx + side * r * 0.92
    if lifted:
        d = f"M {x} {hy - r * 0.35} L {x + side * r * 0.62} {hy - r * 1.15} L {x + side * r * 0.28} {hy - r * 1.3} L {x - side * r * 0.1} {hy - r * 0.55} Z"
    else:
        d = f"M {x - side * r * 0.12} {hy - r * 0.45} L {x + side * r * 0.34} {hy - r * 0.3} L {x + side * r * 0.3} {hy + r * 0.75} Q {x} {hy + r * 0.95} {x - side * r * 0.16} {hy + r * 0.6} Z"
    return _path(d, cap, "god.ear_flaps", width=2)


def _god(look: _Look, gx: float, gy: float) -> list[str]:
    h = float(GOD_HEIGHT_PX)
    age = look.field("god.age", "age", "prime")
    r = h * (0.105 if age == "child" else 0.085)
    hx, hy = gx, gy - h + r * 1.45
    robe, belt = look.fill("god.robe"), look.fill("god.belt")
    flaps = look.by_id.get("god.ear_flaps")
    flap = flaps.primary.value if flaps and isinstance(flaps.primary.value, dict) else {}
    held_hand = flap.get("hand") if flap.get("state") == "held" else None
    whip_hand = "left" if held_hand == "right" else "right"
    dress = look.by_id.get("god.dress")
    dv: dict[str, Any] = dress.primary.value if dress and isinstance(dress.primary.value, dict) else {}
    out: list[str] = []
    hem_y, waist_y = gy - h * 0.3, gy - h * 0.58
    shoulder_y = hy + r * 1.25
    # legs (trousers or bare), leggings, shoes
    for side in (-1, 1):
        lx = gx + side * h * 0.065
        leg_fill = NEUTRAL_TROUSERS if dv.get("trousers") else SKIN
        leg_attr = "god.dress"
        out.append(
            _path(
                f"M {lx - 13} {hem_y - 4} L {lx + 13} {hem_y - 4} L {lx + 11} {gy - 12} L {lx - 11} {gy - 12} Z",
                leg_fill,
                leg_attr,
                width=2,
            )
        )
        legging = dv.get("legging_left" if side == 1 else "legging_right", "none")
        if legging == "worn":
            top, bottom = gy - h * 0.17, gy - 14
            out.append(
                _path(
                    f"M {lx - 13} {top} L {lx + 13} {top} L {lx + 12} {bottom} L {lx - 12} {bottom} Z",
                    "#d8cfb8",
                    "god.dress",
                    width=2,
                )
            )
            y = top + 8
            while y < bottom - 4:
                out.append(
                    f'<path d="M {lx - 12} {y + 6} L {lx + 12} {y}" stroke="{INK}" stroke-width="1.2"/>'
                )
                y += 9
        foot = _ellipse(lx + side * 4, gy - 6, 17, 8, SHOE if dv.get("shoes") else SKIN, "god.dress", 2)
        out.append(foot)
    # robe with sleeves
    out.append(
        _path(
            f"M {gx - h * 0.13} {shoulder_y} L {gx + h * 0.13} {shoulder_y} L {gx + h * 0.2} {hem_y} Q {gx} {hem_y + 10} {gx - h * 0.2} {hem_y} Z",
            robe,
            "god.robe",
        )
    )
    out.append(
        f'<path d="M {gx} {shoulder_y + 4} L {gx - 10} {waist_y}" stroke="{INK}" stroke-width="1.5" fill="none"/>'
    )
    # belt and its ends
    out.append(
        _path(
            f"M {gx - h * 0.155} {waist_y} L {gx + h * 0.155} {waist_y} L {gx + h * 0.16} {waist_y + 12} L {gx - h * 0.16} {waist_y + 12} Z",
            belt,
            "god.belt",
            width=2,
        )
    )
    out.append(
        _path(
            f"M {gx - 8} {waist_y + 10} L {gx - 16} {waist_y + 62} L {gx - 4} {waist_y + 60} L {gx} {waist_y + 12} Z",
            belt,
            "god.belt",
            width=1.5,
        )
    )
    out.append(
        _path(
            f"M {gx + 4} {waist_y + 10} L {gx + 14} {waist_y + 56} L {gx + 24} {waist_y + 52} L {gx + 12} {waist_y + 10} Z",
            belt,
            "god.belt",
            width=1.5,
        )
    )
    # a legging taken off hangs at the waist on its side
    for side, key in ((1, "legging_left"), (-1, "legging_right")):
        if dv.get(key) == "hung":
            x = gx + side * h * 0.15
            out.append(
                _path(
                    f"M {x - 7} {waist_y + 8} L {x + 7} {waist_y + 8} L {x + 5} {waist_y + 70} L {x - 5} {waist_y + 70} Z",
                    "#d8cfb8",
                    "god.dress",
                    width=1.8,
                )
            )
    # arms: one holds the whip, one may lift an ear flap
    for side, hand in ((-1, "right"), (1, "left")):
        sx = gx + side * h * 0.13
        if hand == held_hand:
            ex, ey = hx + side * r * 1.25, hy - r * 0.55
            out.append(
                _path(
                    f"M {sx} {shoulder_y + 4} L {sx + side * 26} {shoulder_y - 8} L {ex + side * 6} {ey + 16} L {ex - side * 8} {ey + 12} L {sx - side * 10} {shoulder_y + 24} Z",
                    robe,
                    "god.robe",
                    width=2,
                )
            )
            out.append(_ellipse(ex, ey + 4, 9, 9, SKIN, None, 1.8))
        else:
            ex, ey = sx + side * 34, waist_y + 34
            out.append(
                _path(
                    f"M {sx} {shoulder_y} L {sx + side * 22} {shoulder_y + 6} L {ex + side * 10} {ey} L {ex - side * 12} {ey} Z",
                    robe,
                    "god.robe",
                    width=2,
                )
            )
            out.append(_ellipse(ex, ey + 6, 9, 9, SKIN, None, 1.8))
            if hand == whip_hand:
                out.append(
                    f'<path d="M {ex} {ey + 6} L {ex + side * 70} {ey - 150}" stroke="{INK}" stroke-width="6" stroke-linecap="round"/>'
                )
                out.append(
                    f'<path d="M {ex} {ey + 6} L {ex + side * 70} {ey - 150}" stroke="{WILLOW}" stroke-width="3.5" stroke-linecap="round" data-attribute="god.whip"/>'
                )
                kx, ky = ex + side * 62, ey - 133
                for i, colour in enumerate(KNOT_COLOURS if "god.whip_knot" in look.by_id else ("#c8b27a",)):
                    out.append(
                        f'<path d="M {kx} {ky} l {side * (6 + 4 * i)} {18 + 3 * i}" stroke="{colour}" stroke-width="3" data-attribute="god.whip"/>'
                    )
    # hair knots behind the head go first
    hair = look.by_id.get("god.hair")
    hv: dict[str, Any] = hair.primary.value if hair and isinstance(hair.primary.value, dict) else {}
    knots = [(-1, str(hv.get("right", "front"))), (1, str(hv.get("left", "front")))]
    for side, where in knots:
        if where == "behind":
            out.append(_hair_knot(*_knot_positions(where, side, hx, hy, r), r * 0.34))
    # head, face and age
    out.append(_ellipse(hx, hy, r * 0.9, r, SKIN, None))
    out.append(_ellipse(hx - r * 0.32, hy - r * 0.05, 2.6, 2.6, INK, None, 1))
    out.append(_ellipse(hx + r * 0.32, hy - r * 0.05, 2.6, 2.6, INK, None, 1))
    out.append(
        f'<path d="M {hx - r * 0.2} {hy + r * 0.45} Q {hx} {hy + r * 0.58} {hx + r * 0.2} {hy + r * 0.45}" fill="none" stroke="{INK}" stroke-width="1.8"/>'
    )
    if age == "old":
        out.append(
            _path(
                f"M {hx - r * 0.55} {hy + r * 0.55} Q {hx} {hy + r * 2.1} {hx + r * 0.55} {hy + r * 0.55} Q {hx} {hy + r * 0.8} {hx - r * 0.55} {hy + r * 0.55} Z",
                "#f2f0ea",
                "god.age",
                width=1.5,
            )
        )
    elif age == "prime":
        out.append(
            f'<path d="M {hx - r * 0.3} {hy + r * 0.34} Q {hx} {hy + r * 0.22} {hx + r * 0.3} {hy + r * 0.34}" fill="none" stroke="#1d1a18" stroke-width="3" data-attribute="god.age"/>'
        )
    else:
        out.append(_ellipse(hx - r * 0.5, hy + r * 0.3, r * 0.16, r * 0.1, "#f3a7a0", "god.age", 0))
        out.append(_ellipse(hx + r * 0.5, hy + r * 0.3, r * 0.16, r * 0.1, "#f3a7a0", "god.age", 0))
    # cap (頭巾) and ear flaps
    out.append(
        _path(
            f"M {hx - r * 0.95} {hy - r * 0.3} Q {hx} {hy - r * 1.55} {hx + r * 0.95} {hy - r * 0.3} Q {hx} {hy - r * 0.62} {hx - r * 0.95} {hy - r * 0.3} Z",
            NEUTRAL_CAP,
            None,
            width=2,
        )
    )
    state = flap.get("state", "worn")
    for side, god_side in ((-1, "right"), (1, "left")):
        lifted = state == "held" and flap.get("hand") == god_side
        lifted = lifted or (state == "lifted" and flap.get("side") == god_side)
        out.append(_ear_flap(hx, hy, r, side, lifted, NEUTRAL_CAP))
    for side, where in knots:
        if where != "behind":
            out.append(_hair_knot(*_knot_positions(where, side, hx, hy, r), r * 0.34))
    return out


# --- layout ------------------------------------------------------------------------------------------


def _god_place(look: _Look) -> tuple[float, float, bool]:
    """Where the god stands (x, baseline) and whether the scene is mirrored (god on the ox's right)."""
    position = look.field("placing.god_position", "position", "beside")
    side = look.field("placing.god_side", "side", look.field("placing.god_position", "side", "left"))
    x = {"front": 185.0, "behind": 880.0}.get(str(position), 560.0)
    baseline = GROUND_Y + (50.0 if position == "beside" else 8.0)
    mirrored = side == "right"
    if mirrored:
        x = MIRROR_AXIS_PX - x
    return x, baseline, mirrored


def _em(char: str) -> float:
    """A generous estimate of a character's advance in em (CJK, dashes, arrows 1; Latin about 0.6):
    wrapping on it keeps every line inside its column whichever serif font the reader has."""
    if ord(char) >= 0x2000:
        return 1.0
    if char in " .,:;'!|()[]{}·ijl-":
        return 0.4
    if char.isupper() or char in "mw@%&":
        return 0.84
    if char.isdigit():
        return 0.7
    return 0.64


def text_width(text: str, size: float) -> float:
    """The estimated width of ``text`` at font size ``size`` (px)."""
    return size * sum(_em(c) for c in text)


def wrap(text: str, size: float, width: float) -> list[str]:
    """Every line of ``text`` at ``size`` within ``width`` px: broken at a space inside Latin words, or
    between any two characters of Chinese. Nothing is dropped."""
    lines: list[str] = []
    line = ""
    for char in text:
        if line and text_width(line + char, size) > width:
            cut = line.rfind(" ")
            if char != " " and _em(char) < 1 and cut > len(line) // 3:
                lines.append(line[:cut].rstrip())
                line = line[cut + 1 :]
            else:
                lines.append(line.rstrip())
                line = ""
            if char == " ":
                continue
        line += char
    if line.strip():
        lines.append(line.rstrip())
    return lines


LEGEND_ORDER = (
    "ox.head",
    "ox.horns",
    "ox.ears",
    "ox.body",
    "ox.belly",
    "ox.shins",
    "ox.hooves",
    "ox.tail",
    "ox.halter",
    "ox.rope",
    "ox.mouth",
    "ox.tail_flick",
    "ox.treadle",
    "god.age",
    "god.robe",
    "god.belt",
    "god.hair",
    "god.ear_flaps",
    "god.dress",
    "god.whip",
    "placing.god_position",
    "placing.god_side",
)


@dataclass(frozen=True)
class _Block:
    """Lines of text set from a top edge: each line (text, size, weight, fill) on its own baseline."""

    lines: tuple[tuple[str, float, str, str], ...]
    swatch: str = ""
    attribute: str = ""

    @property
    def height(self) -> float:
        return sum(LINE_PITCH * size for _, size, _, _ in self.lines)

    def draw(self, x: float, top: float) -> list[str]:
        out = []
        if self.swatch:
            out.append(
                f'<rect x="{x:.1f}" y="{top + 3:.1f}" width="{SWATCH_PX}" height="{SWATCH_PX}" fill="{self.swatch}" '
                f'stroke="{INK}" stroke-width="1.5" data-legend="{self.attribute}"/>'
            )
        y = top
        for text, size, weight, fill in self.lines:
            y += LINE_PITCH * size
            out.append(_text(x + SWATCH_PX + 8, y - DESCENT * size, text, size, fill=fill, weight=weight))
        return out


def _legend_blocks(look: _Look, width: float) -> list[_Block]:
    blocks = []
    room = width - SWATCH_PX - 8
    for attribute_id in LEGEND_ORDER:
        outcome = look.by_id.get(attribute_id)
        if outcome is None:
            continue
        colour = outcome.primary.colour
        swatch = colour.hex if colour else look.fill(attribute_id, "") if attribute_id == "ox.shins" else ""
        heading = f"{outcome.label} {outcome.gloss}: {outcome.primary.text}"
        lines = [(line, LEGEND_HEAD_PX, "bold", INK) for line in wrap(heading, LEGEND_HEAD_PX, room)]
        reason = outcome.primary.reason if outcome.primary.reason != "fixed by the rule" else ""
        if outcome.primary.evidence and outcome.primary.evidence[0].assumption and not reason:
            reason = "assumption: " + outcome.primary.evidence[0].assumption.strip()
        if outcome.disputed:
            reason += " · disputed: " + "; ".join(
                f"{a.reading} → {a.text}" for a in outcome.alternatives if a.key != outcome.primary.key
            )
        lines += [(line, LEGEND_TEXT_PX, "normal", MUTED) for line in wrap(reason, LEGEND_TEXT_PX, room)]
        blocks.append(_Block(tuple(lines), swatch, attribute_id))
    return blocks


def _columns(blocks: list[_Block], count: int) -> list[list[_Block]]:
    """The blocks in reading order, cut into ``count`` columns of about equal height."""
    total = sum(b.height + LEGEND_GAP_PX for b in blocks)
    columns: list[list[_Block]] = [[]]
    height = 0.0
    for block in blocks:
        step = block.height + LEGEND_GAP_PX
        if columns[-1] and len(columns) < count and height + step / 2 > total / count:
            columns.append([])
            height = 0.0
        columns[-1].append(block)
        height += step
    return columns


def _legend(look: _Look, top: float) -> tuple[list[str], float]:
    """The legend in columns under the picture: every attribute with its value and its whole reason."""
    width = (WIDTH_PX - 2 * MARGIN_PX - (LEGEND_COLUMNS - 1) * COLUMN_GAP_PX) / LEGEND_COLUMNS
    out = [_text(MARGIN_PX, top + 22, "圖例 Legend — each attribute and its reason", 20, weight="bold")]
    top += 36
    bottom = top
    for number, column in enumerate(_columns(_legend_blocks(look, width), LEGEND_COLUMNS)):
        x, y = MARGIN_PX + number * (width + COLUMN_GAP_PX), top
        for block in column:
            out += block.draw(x, y)
            y += block.height + LEGEND_GAP_PX
        bottom = max(bottom, y)
    neutral = "Not given by the rule (neutral): trousers, cap."
    out.append(_text(MARGIN_PX, bottom + LEGEND_TEXT_PX, neutral, LEGEND_TEXT_PX, fill=MUTED))
    return out, bottom + LINE_PITCH * LEGEND_TEXT_PX


def _header(result: SpringOx) -> tuple[list[str], float]:
    """Title, the reading's line (wrapped), a rule under them; and where the rule is."""
    lc, reading = result.lichun, result.reading
    title = f"土牛芒神 {result.year} {lc.year_sexagenary.name}年"
    sub = (
        f"{result.profile.title} · {result.place.name} · 立春 {reading.clock_time:%Y-%m-%d %H:%M} "
        f"({result.scenario.clock}) {reading.hour.label}, day {reading.day_sexagenary.name} ({reading.day_sexagenary.nayin.name})"
    )
    out = [_text(MARGIN_PX, 62, title, 34, weight="bold")]
    y = 80.0
    for line in wrap(sub, SUBTITLE_PX, WIDTH_PX - 2 * MARGIN_PX):
        y += LINE_PITCH * SUBTITLE_PX
        out.append(_text(MARGIN_PX, y - DESCENT * SUBTITLE_PX, line, SUBTITLE_PX, fill=MUTED))
    y += 12
    out.append(
        f'<path d="M {MARGIN_PX} {y:.1f} L {WIDTH_PX - MARGIN_PX} {y:.1f}" stroke="{INK}" stroke-width="1"/>'
    )
    return out, y


def _notes(result: SpringOx, top: float) -> tuple[list[str], float]:
    """The subtle points of the reading, whole, in the column right of the scene."""
    out = []
    y = top
    width = WIDTH_PX - MARGIN_PX - NOTES_X
    for point in result.subtle_points:
        for line in wrap(point, NOTE_PX, width):
            y += LINE_PITCH * NOTE_PX
            out.append(_text(NOTES_X, y - DESCENT * NOTE_PX, line, NOTE_PX, fill=MUTED))
        y += 8
    return out, y


def _dimension(x1: float, y1: float, x2: float, y2: float, label: str, attribute: str) -> list[str]:
    """A measuring line with end ticks and its label (the witness's measure and what it stands for),
    the label above the line's top end, centred on it."""
    horizontal = abs(y2 - y1) < abs(x2 - x1)
    tick = "M 0 -7 L 0 7" if horizontal else "M -7 0 L 7 0"
    lx, ly = ((x1 + x2) / 2, y1 - 12) if horizontal else (x1, min(y1, y2) - 14)
    return [
        f'<g stroke="#8a7d6b" stroke-width="1.2" data-attribute="{attribute}"><path d="M {x1} {y1} L {x2} {y2}"/>'
        f'<path d="{tick}" transform="translate({x1} {y1})"/><path d="{tick}" transform="translate({x2} {y2})"/></g>',
        _text(lx, ly, label, LABEL_PX, fill="#6d6155", anchor="middle", halo=True),
    ]


def _measures(look: _Look, mirrored: bool) -> list[str]:
    def m(x: float) -> float:
        return MIRROR_AXIS_PX - x if mirrored else x

    out: list[str] = []
    length = look.by_id.get("ox.head_to_tail")
    height = look.by_id.get("ox.height")
    if length is not None:
        out += _dimension(
            min(m(266), m(850)), 380, max(m(266), m(850)), 380, f"頭至尾 {length.text}", "ox.head_to_tail"
        )
    if height is not None and look.field("placing.god_position", "position") != "behind":
        out += _dimension(m(884), 450, m(884), GROUND_Y, f"身高 {height.text}", "ox.height")
    return out


def render_svg(result: SpringOx) -> str:
    """The picture as an SVG document (UTF-8 text): the title and reading, the scene with the notes
    beside it, and the legend in columns under them; as tall as its text needs (nothing is cut)."""
    look = _Look(result)
    gx, gy, mirrored = _god_place(look)
    ox = "\n".join(_ox(look))
    if mirrored:
        ox = f'<g transform="translate({MIRROR_AXIS_PX} 0) scale(-1 1)">{ox}</g>'
    measures = "\n".join(_measures(look, mirrored))
    god = "\n".join(_god(look, gx, gy))
    god_height = look.by_id.get("god.height")
    if god_height is not None:
        god += "\n" + _text(
            gx,
            gy - GOD_HEIGHT_PX - 22,
            f"芒神 身高 {god_height.text}",
            LABEL_PX,
            fill="#6d6155",
            anchor="middle",
            halo=True,
        )
    ground = (
        f'<path d="M 30 {GROUND_Y} L {SCENE_WIDTH_PX - 10} {GROUND_Y}" stroke="#9c8f7a" stroke-width="2"/>'
    )
    header, rule_y = _header(result)
    shift = rule_y + 28 - SCENE_TOP_PX  # the scene's own coordinates start at SCENE_TOP_PX
    notes, notes_bottom = _notes(result, rule_y + 16)
    scene_bottom = SCENE_BOTTOM_PX + shift
    legend, legend_bottom = _legend(look, max(scene_bottom, notes_bottom) + 24)
    height = round(legend_bottom + 32)
    body = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH_PX}" height="{height}" viewBox="0 0 {WIDTH_PX} {height}" font-family="{FONT}" '
        f'data-focus="{SCENE_WIDTH_PX / 2:.0f},{GROUND_Y:.0f}">',  # a narrow box opens on the ox and the god
        f"<title>{escape(f'土牛芒神 {result.year} — {result.profile.id} rule')}</title>",
        f'<rect width="{WIDTH_PX}" height="{height}" fill="{PAPER}"/>',
        *header,
        f'<g id="scene" transform="translate(0 {shift:.1f})">',
        ground,
        f'<g id="ox">{ox}</g>',
        f'<g id="measures">{measures}</g>',
        f'<g id="god">{god}</g>',
        "</g>",
        f'<g id="notes">{"".join(notes)}</g>',
        f'<g id="legend">{"".join(legend)}</g>',
        "</svg>",
    ]
    return "\n".join(body) + "\n"
