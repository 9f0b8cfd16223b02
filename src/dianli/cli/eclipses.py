"""``dianli eclipses YEAR [--place P]``: the eclipses of a year, seen from a place, and whether 救護 is held."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from dianli.calendar.eclipses import (
    ECLIPSE_ASSUMPTIONS,
    LocalCircumstances,
    eclipses_in_year,
    ephemeris_label,
    local_circumstances,
)
from dianli.calendar.lunisolar import to_chinese
from dianli.calendar.timekeeping import local_apparent_time
from dianli.calendar.year_names import chinese_date_label
from dianli.cli.common import FORCE_HELP, check_output_path, format_for, run_guarded, write_text_output
from dianli.cli.lines import write_fitted
from dianli.places.places import PlaceAt, default_place, get_place
from dianli.places.regions import place_chinese_date_label


class Format(StrEnum):
    text = "text"
    json = "json"


def _clock(jd_ut: float | None, longitude_deg: float) -> str | None:
    if jd_ut is None:
        return None
    return local_apparent_time(jd_ut, longitude_deg).replace(microsecond=0).isoformat()


def record(local: LocalCircumstances) -> dict[str, object]:
    """One eclipse at one place as plain data."""
    eclipse = local.eclipse
    day = local.day
    return {
        "kind": eclipse.kind.value,
        "type": eclipse.type.value,
        "greatest_ut": eclipse.greatest_ut.isoformat(),
        "greatest_tt_jd": round(eclipse.greatest_tt_jd, 6),
        "delta_t_s": round(eclipse.delta_t_s, 1),
        "gamma": round(eclipse.gamma, 4),
        "umbral_magnitude": None if eclipse.umbral_magnitude is None else round(eclipse.umbral_magnitude, 4),
        "penumbral_magnitude": (
            None if eclipse.penumbral_magnitude is None else round(eclipse.penumbral_magnitude, 4)
        ),
        "local": {
            "magnitude": round(local.magnitude, 4),
            "fen": round(local.fen, 2),
            "phases": [
                {
                    "name": p.name,
                    "local_apparent_time": _clock(p.jd_ut, local.longitude_deg),
                    "double_hour": p.double_hour.label,
                    "ke_of_day": p.ke,
                    "altitude_deg": round(p.altitude_deg, 2),
                }
                for p in local.phases
            ],
            "visible": local.visible,
            "visible_from": _clock(local.visible_from_jd_ut, local.longitude_deg),
            "visible_until": _clock(local.visible_until_jd_ut, local.longitude_deg),
            "day": day.isoformat() if day else None,
            "chinese_date": chinese_date_label(to_chinese(day)) if day else None,
        },
        "rite_held": local.rite_held,
        "reason": local.reason,
        "source": ephemeris_label(),
    }


def render_text(place: PlaceAt, year: int, found: list[LocalCircumstances]) -> str:
    lines = [
        f"Eclipses of {year} seen from {place.name} ({place.latitude_deg:.2f}°N, {place.longitude_deg:.2f}°E)",
        f"source: {ephemeris_label()}",
        "",
    ]
    for local in found:
        eclipse = local.eclipse
        held = "救護 held" if local.rite_held else "no 救護"
        day = local.day
        when = (
            f"{day.isoformat()} {place_chinese_date_label(to_chinese(day), place)}"
            if day
            else "not seen here"
        )
        lines.append(
            f"{eclipse.greatest_ut:%Y-%m-%d %H:%M} UT  {eclipse.kind.chinese} {eclipse.label}, "
            f"gamma {eclipse.gamma:+.4f} — {held}"
        )
        lines.append(f"    {when}; {local.fen:.1f}分 here; {local.reason}")
        if local.phases:
            lines.append(f"    {local.time_label()} (local apparent time)")
    if not found:
        lines.append("no eclipse")
    lines.append("")
    lines.extend(f"assumption: {a}" for a in ECLIPSE_ASSUMPTIONS)
    return "\n".join(lines)


@run_guarded
def eclipses_command(
    year: int = typer.Argument(
        ..., help="Gregorian year (1600–2200): eclipses whose greatest instant falls in it."
    ),
    place_name: Annotated[
        str | None,
        typer.Option(
            "--place", "-p", help="Place id or name (福州府, 臺灣府 …); default: the provincial capital."
        ),
    ] = None,
    fmt: Annotated[
        Format | None,
        typer.Option("--format", "-f", help="text or json (default: from the --out name, else text)."),
    ] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="Write to this file.")] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """Solar and lunar eclipses of a year with their local circumstances, and whether 救護 is held there."""
    fmt = format_for(Format, fmt, out, Format.text)
    check_output_path(out or "-", force)
    unit = get_place(place_name, year) if place_name is not None else default_place()
    place = unit.nearest(year)  # the seat of that year (or the nearest it had)
    found = [local_circumstances(e, place.latitude_deg, place.longitude_deg) for e in eclipses_in_year(year)]
    if fmt is Format.json:
        payload = {
            "year": year,
            "place": place.id,
            "source": ephemeris_label(),
            "assumptions": list(ECLIPSE_ASSUMPTIONS),
            "eclipses": [record(x) for x in found],
        }
        write_text_output(json.dumps(payload, ensure_ascii=False, indent=2), out, force)
        return
    write_fitted(render_text(place, year, found), out, force=force)


def register(app: typer.Typer) -> None:
    """Add ``dianli eclipses`` to the root command."""
    app.command("eclipses")(eclipses_command)
