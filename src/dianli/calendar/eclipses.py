"""Solar and lunar eclipses, and their circumstances at a place: the days of 救護日月.

The witnesses hold the rite 「凡日月薄蝕」 on the times the 欽天監 computed and sent to the province; the
almanac office's own predictions are not in the witnesses, so this module *computes* the eclipses. The
result is a computation, not the 欽天監's announcement, and every output says so.

Ephemeris and time scale (chosen and measured):

* ``skyfield-data`` ships JPL DE421, which covers only 1899-07-29 … 2053-10-09: it cannot date an eclipse
  of 1644. The PyPI package ``de405`` ships JPL DE405 (1599-12-09 … 2201-02-20) as Chebyshev arrays for
  ``jplephem``'s (deprecated but still shipped) ``jplephem.ephem.Ephemeris``. :class:`_De405Segment`
  exposes those arrays to skyfield as ordinary vector functions, so skyfield does the light-time,
  aberration and frame work. Nothing is downloaded at run time. Measured: over 1900–2050 the apparent
  geocentric Moon from this adapter agrees with skyfield's own DE421 kernel to 0.02″ (tests).
  PyEphem (``ephem``, VSOP87/ELP truncated, ~10″ for the Moon) was the fallback; DE405 is both more
  accurate and what skyfield reads, so it was kept.
* ΔT (TT − UT) is skyfield's built-in model (IERS values from 1973, Stephenson, Morrison & Hohenkerk 2016
  before, shipped inside skyfield). NASA's catalogue uses the Espenak–Meeus ΔT polynomials; our
  greatest-eclipse times in TT agree with NASA's TD to seconds, in UT they differ by the ΔT difference.

How it is fast: mean lunations (Meeus, *Astronomical Algorithms*, 2nd ed., ch. 49 eq. 49.1) and the
Moon's mean argument of latitude F at them (ch. 49 / ch. 54: no eclipse when |sin F| > 0.36) pick the
candidate syzygies; each candidate's true syzygy is found with a few skyfield evaluations; around it the
apparent geocentric Sun and Moon are evaluated at 13 Chebyshev nodes over ±6 h and kept as polynomials
(as Besselian elements are). Everything after that — greatest eclipse, magnitudes, contacts, and the local
circumstances at any place — is numpy on those polynomials.

Definitions (NASA's, so that the catalogue can be the test's authority):

* Solar greatest eclipse: the instant the axis of the Moon's shadow passes closest to the Earth's centre
  (Earth's flattening taken out by stretching the polar axis). ``gamma`` is that distance in Earth
  equatorial radii, positive north.
* Lunar greatest eclipse: the instant the Moon's centre passes closest to the axis of the Earth's shadow.
  Shadow radii with Chauvenet's 1/50 enlargement and the 0.998340 parallax factor,
  http://eclipse.gsfc.nasa.gov/LEcat5/shadow.html (eq. 1-3, 1-4).
* Local contacts: topocentric separation of the centres equal to the sum of the semi-diameters (solar);
  the Moon entering and leaving the umbra (lunar; the penumbra for a penumbral eclipse).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from dianli.calendar.eclipse_kinds import EclipseKind as EclipseKind
from dianli.calendar.eclipse_kinds import EclipseType as EclipseType
from dianli.calendar.timekeeping import DoubleHour, double_hour, ke_of_day, local_apparent_time
from dianli.corpus.sources import source_mention
from dianli.errors import OutOfRangeError

FloatArray = npt.NDArray[np.float64]

# --- range and constants ---

FIRST_YEAR = 1600  # DE405 starts 1599-12-09
LAST_YEAR = 2200  # DE405 ends 2201-02-20
LAST_DAY = date(2201, 2, 15)  # last day searched (the Chinese year 2200 ends 2201-02-03)
TESTED_YEARS = (1644, 2100)  # the range the tests check against NASA (1644–1911) and use

EARTH_EQUATORIAL_RADIUS_KM = 6378.137  # WGS84
EARTH_FLATTENING = 1.0 / 298.257223563  # WGS84
SUN_RADIUS_KM = 696_000.0  # NASA's eclipse canons
MOON_K_PENUMBRAL = 0.2725076  # Moon radius in Earth radii for penumbral contacts (NASA)
MOON_K_UMBRAL = 0.272281  # for the umbral cone (NASA)
SHADOW_ENLARGEMENT = 1.02  # Chauvenet's 1/50
MOON_PARALLAX_FACTOR = 0.998340  # Earth's radius at latitude 45° (Astronomical Almanac)
HORIZON_ALTITUDE_DEG = -0.833  # centre of Sun/Moon at the horizon with refraction and semi-diameter
SIDEREAL_RATE_REV_PER_DAY = 1.00273781191135448  # Earth rotation angle per UT1 day

SYNODIC_MONTH_DAYS = 29.530588861  # Meeus eq. 49.1
MEAN_NEW_MOON_JDE_K0 = 2451550.09766  # Meeus eq. 49.1, k = 0 (2000-01-06)
MEAN_F_K0_DEG = 160.7108  # Moon's argument of latitude at k = 0 (Meeus ch. 49)
MEAN_F_PER_LUNATION_DEG = 390.67050284
ECLIPSE_LIMIT_SIN_F = 0.40  # Meeus: none if |sin F| > 0.36; a margin, the geometry decides
MEAN_ELONGATION_RATE_DEG_PER_DAY = 360.0 / SYNODIC_MONTH_DAYS

WINDOW_HALF_DAYS = 0.25  # ±6 h around the syzygy, longer than any eclipse's half-duration
CHEBYSHEV_NODES = 13
GRID_STEP_DAYS = 2.0 / 1440.0  # 2-minute grid for minima and contacts (linear/parabolic refinement)
LOCAL_STEP_DAYS = 10.0 / 1440.0  # at a place: a 10-minute grid, each contact refined on a finer one
REFINE_POINTS = 41  # 30-second steps across a 20-minute bracket
# The Moon moves ~0.55°/h against the Sun: within one 10-minute step the separation cannot fall by more
# than ~0.1°, so a coarse minimum above this margin means no contact at the place.
NO_CONTACT_MARGIN_RAD = math.radians(0.25)
BLOCK_YEARS = 10
SECONDS_PER_DAY = 86400.0
J2000_OBLIQUITY_DEG = 23.4392911

COMPUTATION_LABEL = (
    "computation (skyfield {skyfield}, JPL DE405 from the PyPI package de405; not the 欽天監's announcement)"
)

ASSUMPTION_VISIBLE = (
    "the rite is held where the eclipse can be seen: the Sun (Moon) above the horizon at some moment "
    "between first contact and the end (the 欽天監 computed what was seen at each place: 「月食時必本地之日"
    "未東升或已西沉，乃得見之」, " + source_mention("gujin-tushu-lifa-jianshi") + ")"
)
ASSUMPTION_PENUMBRAL = (
    "a penumbral lunar eclipse (the Moon never in the umbra) is not rescued: it is barely perceptible and "
    "the 欽天監's records list umbral eclipses with their 分秒 ("
    + source_mention("wenxian-tongkao-264")
    + ")"
)
ASSUMPTION_PREDICTION = (
    "times are a modern computation; the 欽天監's own predictions (時憲曆 methods) could differ by many "
    "minutes and in magnitude, and partial eclipses were announced too (e.g. 順治三年十二月戊子望 月食三分"
    "五十二秒, " + source_mention("wenxian-tongkao-264") + ")"
)
ASSUMPTION_DAY = (
    "the day of the rite is the local date (apparent solar time) on which the visible eclipse begins"
)


# --- the ephemeris: DE405 from its PyPI package, read by skyfield ---


@cache
def _skyfield() -> tuple[object, object, object, object]:
    """(timescale, earth, sun, moon) — loaded once, from installed packages only."""
    import de405
    from jplephem.ephem import Ephemeris
    from skyfield.api import load

    ephemeris = Ephemeris(de405)
    segment = _segment_class()
    sun = segment(ephemeris, 0, 10, "sun", 1.0)
    emb = segment(ephemeris, 0, 3, "earthmoon", 1.0)
    earth = emb + segment(ephemeris, 3, 399, "moon", -float(ephemeris.earth_share))
    moon = emb + segment(ephemeris, 3, 301, "moon", float(ephemeris.moon_share))
    return load.timescale(builtin=True), earth, sun, moon


@cache
def _segment_class() -> type:
    from skyfield.constants import AU_KM
    from skyfield.vectorlib import VectorFunction

    class _De405Segment(VectorFunction):  # type: ignore[misc]
        """One body of the legacy DE405 package as a skyfield vector function (km → au)."""

        def __init__(self, ephemeris: object, center: int, target: int, name: str, scale: float) -> None:
            self.center, self.target = center, target
            self._ephemeris, self._name, self._scale = ephemeris, name, scale

        def _at(self, t: object) -> tuple[FloatArray, FloatArray, None, None]:
            whole = np.atleast_1d(t.whole)  # type: ignore[attr-defined]
            fraction = np.atleast_1d(t.tdb_fraction)  # type: ignore[attr-defined]
            position, velocity = self._ephemeris.position_and_velocity(self._name, whole, fraction)  # type: ignore[attr-defined]
            if not np.shape(t.whole):  # type: ignore[attr-defined]
                position, velocity = position[:, 0], velocity[:, 0]
            factor = self._scale / AU_KM
            return position * factor, velocity * factor, None, None

    return _De405Segment


def ephemeris_label() -> str:
    import skyfield

    return COMPUTATION_LABEL.format(skyfield=skyfield.__version__)


def _apparent_km(tt_jd: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Apparent geocentric (GCRS) Sun and Moon, km, shape (3, n)."""
    ts, earth, sun, moon = _skyfield()
    t = ts.tt_jd(tt_jd)  # type: ignore[attr-defined]
    at = earth.at(t)  # type: ignore[attr-defined]
    sun_km = at.observe(sun).apparent(deflectors=()).xyz.km
    moon_km = at.observe(moon).apparent(deflectors=()).xyz.km
    return np.asarray(sun_km, dtype=np.float64), np.asarray(moon_km, dtype=np.float64)


def _delta_t_s(tt_jd: FloatArray) -> FloatArray:
    ts = _skyfield()[0]
    return np.asarray(ts.tt_jd(tt_jd).delta_t, dtype=np.float64)  # type: ignore[attr-defined]


# --- Chebyshev tracks: the Sun and the Moon around one syzygy ---


@cache
def _nodes() -> FloatArray:
    j = np.arange(CHEBYSHEV_NODES)
    return np.cos(np.pi * (j + 0.5) / CHEBYSHEV_NODES)


def _chebyshev_matrix(x: FloatArray) -> FloatArray:
    """T_m(x) = cos(m·arccos x) for m = 0..K-1, shape (len(x), K); x within [-1, 1]."""
    angles = np.arccos(np.clip(x, -1.0, 1.0))
    return np.asarray(np.cos(np.outer(angles, np.arange(CHEBYSHEV_NODES))), dtype=np.float64)


@cache
def _fit_matrix() -> FloatArray:
    """Values at the nodes → Chebyshev coefficients (discrete orthogonality)."""
    t = _chebyshev_matrix(_nodes())
    weights = np.full(CHEBYSHEV_NODES, 2.0 / CHEBYSHEV_NODES)
    weights[0] = 1.0 / CHEBYSHEV_NODES
    return np.asarray((t * weights).T, dtype=np.float64)  # (K coefficients, K nodes)


@dataclass(frozen=True, eq=False)
class _Track:
    """Apparent geocentric Sun and Moon around ``center_tt`` as Chebyshev series, and the rotation to an
    Earth-fixed frame (true equator of date, turned by Greenwich apparent sidereal time)."""

    center_tt: float
    sun_coeffs: FloatArray  # (3, K)
    moon_coeffs: FloatArray  # (3, K)
    to_date: FloatArray  # (3, 3): GCRS → true equator and equinox of date
    gast0_rad: float
    delta_t_s: float

    def _eval(self, tt_jd: FloatArray) -> tuple[FloatArray, FloatArray]:
        x = (np.asarray(tt_jd) - self.center_tt) / WINDOW_HALF_DAYS
        t = _chebyshev_matrix(np.clip(x, -1.0, 1.0))
        return self.to_date @ (self.sun_coeffs @ t.T), self.to_date @ (self.moon_coeffs @ t.T)

    def of_date(self, tt_jd: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Sun and Moon, km, equator of date, shape (3, n)."""
        return self._eval(tt_jd)

    def earth_fixed(self, tt_jd: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Sun and Moon, km, in the rotating Earth frame (polar motion neglected)."""
        sun, moon = self._eval(tt_jd)
        theta = self.gast0_rad + 2.0 * math.pi * SIDEREAL_RATE_REV_PER_DAY * (
            np.asarray(tt_jd) - self.center_tt
        )
        c, s = np.cos(theta), np.sin(theta)
        return _rotate_z(sun, c, s), _rotate_z(moon, c, s)

    def ut(self, tt_jd: float) -> float:
        return tt_jd - self.delta_t_s / SECONDS_PER_DAY


def _rotate_z(v: FloatArray, c: FloatArray, s: FloatArray) -> FloatArray:
    out = np.empty_like(v)
    out[0] = c * v[0] + s * v[1]
    out[1] = c * v[1] - s * v[0]
    out[2] = v[2]
    return out


def _tracks(centers_tt: FloatArray) -> list[_Track]:
    if centers_tt.size == 0:
        return []
    ts = _skyfield()[0]
    times = (centers_tt[:, None] + WINDOW_HALF_DAYS * _nodes()[None, :]).ravel()
    sun, moon = _apparent_km(times)
    n = centers_tt.size
    fit = _fit_matrix()
    sun_c = np.einsum("mk,cnk->ncm", fit, sun.reshape(3, n, CHEBYSHEV_NODES))
    moon_c = np.einsum("mk,cnk->ncm", fit, moon.reshape(3, n, CHEBYSHEV_NODES))
    t0 = ts.tt_jd(centers_tt)  # type: ignore[attr-defined]
    matrices = np.asarray(t0.M)  # (3, 3, n)
    gast = np.asarray(t0.gast) * (math.pi / 12.0)
    delta_t = np.asarray(t0.delta_t)
    return [
        _Track(
            float(centers_tt[i]),
            sun_c[i],
            moon_c[i],
            matrices[:, :, i],
            float(gast[i]),
            float(delta_t[i]),
        )
        for i in range(n)
    ]


# --- candidate syzygies ---


def _ecliptic_elongation_deg(tt_jd: FloatArray) -> FloatArray:
    """Moon minus Sun apparent longitude on the J2000 ecliptic (enough to locate a syzygy)."""
    sun, moon = _apparent_km(tt_jd)
    eps = math.radians(J2000_OBLIQUITY_DEG)

    def longitude(v: FloatArray) -> FloatArray:
        y = math.cos(eps) * v[1] + math.sin(eps) * v[2]
        return np.asarray(np.degrees(np.arctan2(y, v[0])), dtype=np.float64)

    return np.asarray(longitude(moon) - longitude(sun), dtype=np.float64)


def _syzygies(first_jd: float, last_jd: float) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Candidate syzygies between two TT Julian dates: (true syzygy TT, is_full_moon)."""
    k_first = math.floor((first_jd - MEAN_NEW_MOON_JDE_K0) / SYNODIC_MONTH_DAYS) - 1
    k_last = math.ceil((last_jd - MEAN_NEW_MOON_JDE_K0) / SYNODIC_MONTH_DAYS) + 1
    k = np.arange(2 * k_first, 2 * k_last + 1) / 2.0
    f_deg = MEAN_F_K0_DEG + MEAN_F_PER_LUNATION_DEG * k
    keep = np.abs(np.sin(np.radians(f_deg))) < ECLIPSE_LIMIT_SIN_F
    k = k[keep]
    full = (k % 1.0) != 0.0
    t = MEAN_NEW_MOON_JDE_K0 + SYNODIC_MONTH_DAYS * k
    target = np.where(full, 180.0, 0.0)
    for _ in range(4):
        d = (_ecliptic_elongation_deg(t) - target + 180.0) % 360.0 - 180.0
        t = t - d / MEAN_ELONGATION_RATE_DEG_PER_DAY
    inside = (t >= first_jd) & (t < last_jd)
    return t[inside], full[inside]


# --- eclipses ---


@dataclass(frozen=True)
class Eclipse:
    """One eclipse as seen from the whole Earth (NASA's general circumstances)."""

    kind: EclipseKind
    type: EclipseType
    greatest_tt_jd: float
    delta_t_s: float
    gamma: float  # shadow axis (solar) / Moon's centre (lunar) from the other body's axis, Earth radii
    umbral_magnitude: float | None = None  # lunar
    penumbral_magnitude: float | None = None  # lunar
    contacts_tt_jd: dict[str, float] = field(default_factory=dict, compare=False)  # lunar P1 U1 U2 U3 U4 P4
    track: _Track | None = field(default=None, repr=False, compare=False)

    @property
    def greatest_ut_jd(self) -> float:
        return self.greatest_tt_jd - self.delta_t_s / SECONDS_PER_DAY

    @property
    def greatest_ut(self) -> datetime:
        return ut_datetime(self.greatest_ut_jd)

    @property
    def label(self) -> str:
        return f"{self.type.value} {self.kind.value} eclipse"


def ut_datetime(jd_ut: float) -> datetime:
    """A UT Julian date as a naive UT datetime."""
    from dianli.calendar.timekeeping import local_mean_time

    return local_mean_time(jd_ut, 0.0)


def _unit(v: FloatArray) -> FloatArray:
    return np.asarray(v / np.linalg.norm(v, axis=0), dtype=np.float64)


def _parabola_vertex(t: FloatArray, y: FloatArray, i: int) -> float:
    """Time of the minimum of y near grid index i (3-point parabola)."""
    i = min(max(i, 1), t.size - 2)
    y0, y1, y2 = y[i - 1], y[i], y[i + 1]
    denom = y0 - 2.0 * y1 + y2
    step = t[i + 1] - t[i]
    if denom <= 0.0:
        return float(t[i])
    return float(t[i] + 0.5 * step * (y0 - y2) / denom)


def _crossings(t: FloatArray, f: FloatArray, i_min: int) -> tuple[float | None, float | None]:
    """Where f changes sign before and after index i_min (f < 0 at i_min): linear interpolation."""
    before: float | None = None
    after: float | None = None
    neg = f < 0.0
    j = i_min
    while j > 0 and neg[j - 1]:
        j -= 1
    if j > 0:
        before = float(t[j - 1] + (t[j] - t[j - 1]) * f[j - 1] / (f[j - 1] - f[j]))
    j = i_min
    while j < f.size - 1 and neg[j + 1]:
        j += 1
    if j < f.size - 1:
        after = float(t[j] + (t[j + 1] - t[j]) * f[j] / (f[j] - f[j + 1]))
    return before, after


def _grid(track: _Track, step_days: float = GRID_STEP_DAYS) -> FloatArray:
    return track.center_tt + np.arange(-WINDOW_HALF_DAYS, WINDOW_HALF_DAYS + 1e-9, step_days)


def _stretch(v: FloatArray) -> FloatArray:
    """Take the Earth's flattening out: scale the polar (z) axis so the ellipsoid becomes a sphere."""
    out = v.copy()
    out[2] = out[2] / (1.0 - EARTH_FLATTENING)
    return out


def _solar_axis(
    sun: FloatArray, moon: FloatArray, stretched: bool
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """(perpendicular from Earth's centre to the shadow axis, axis unit vector, Moon's distance along the
    axis from the fundamental plane, Sun–Moon distance); ``stretched`` takes the flattening out."""
    s, m = (_stretch(sun), _stretch(moon)) if stretched else (sun, moon)
    axis = s - m  # towards the Sun: the Moon lies at +zm above the fundamental plane
    dist = np.linalg.norm(axis, axis=0)
    u = axis / dist
    zm = np.sum(m * u, axis=0)
    perp = m - zm * u
    return perp, u, zm, dist


def _solar_eclipse(track: _Track) -> Eclipse | None:
    t = _grid(track)
    sun, moon = track.of_date(t)
    perp, _, _, _ = _solar_axis(sun, moon, stretched=False)
    d2 = np.sum(perp * perp, axis=0)
    i = int(np.argmin(d2))
    if i in (0, t.size - 1):
        return None
    tg = _parabola_vertex(t, d2, i)
    sun_g, moon_g = track.of_date(np.array([tg]))
    # NASA's greatest eclipse and gamma: the spherical Earth (measured: 1.3 s and 8e-5 from NASA);
    # whether and how the shadow touches the Earth: the flattened Earth (else 3 partials too many).
    plain, _, _, _ = _solar_axis(sun_g, moon_g, stretched=False)
    perp_g, _, zm_arr, dist_arr = _solar_axis(sun_g, moon_g, stretched=True)
    a = EARTH_EQUATORIAL_RADIUS_KM
    d = float(np.linalg.norm(perp_g[:, 0]))
    zm, dist = float(zm_arr[0]), float(dist_arr[0])
    r_mp, r_mu = MOON_K_PENUMBRAL * a, MOON_K_UMBRAL * a
    f1 = math.asin((SUN_RADIUS_KM + r_mp) / dist)
    f2 = math.asin((SUN_RADIUS_KM - r_mu) / dist)
    l1 = zm * math.tan(f1) + r_mp / math.cos(f1)

    def umbra_radius(z_km: float) -> float:
        """Umbral radius at height z above the fundamental plane: > 0 total, < 0 annular."""
        return r_mu / math.cos(f2) - (zm - z_km) * math.tan(f2)

    if d >= a + l1:
        return None
    if d < a:
        surface = umbra_radius(math.sqrt(a * a - d * d))
        plane = umbra_radius(0.0)
        if surface > 0.0:
            kind = EclipseType.HYBRID if plane < 0.0 else EclipseType.TOTAL
        else:
            kind = EclipseType.ANNULAR
    elif d < a + abs(umbra_radius(0.0)):
        kind = EclipseType.TOTAL if umbra_radius(0.0) > 0.0 else EclipseType.ANNULAR
    else:
        kind = EclipseType.PARTIAL
    gamma = math.copysign(float(np.linalg.norm(plain[:, 0])) / a, float(plain[2, 0]))
    return Eclipse(EclipseKind.SOLAR, kind, tg, track.delta_t_s, gamma, track=track)


def _lunar_geometry(sun: FloatArray, moon: FloatArray) -> dict[str, FloatArray]:
    a = EARTH_EQUATORIAL_RADIUS_KM
    rs, rm = np.linalg.norm(sun, axis=0), np.linalg.norm(moon, axis=0)
    cos_d = np.clip(-np.sum(sun * moon, axis=0) / (rs * rm), -1.0, 1.0)
    pm, ps = np.arcsin(a / rm), np.arcsin(a / rs)
    ss, sm = np.arcsin(SUN_RADIUS_KM / rs), np.arcsin(MOON_K_PENUMBRAL * a / rm)
    return {
        "one_minus_cos": 1.0 - cos_d,
        "d": np.arccos(cos_d),
        "rp": SHADOW_ENLARGEMENT * (MOON_PARALLAX_FACTOR * pm + ss + ps),
        "ru": SHADOW_ENLARGEMENT * (MOON_PARALLAX_FACTOR * pm - ss + ps),
        "sm": sm,
        "rm": rm,
    }


def _lunar_eclipse(track: _Track) -> Eclipse | None:
    t = _grid(track)
    sun, moon = track.of_date(t)
    g = _lunar_geometry(sun, moon)
    i = int(np.argmin(g["one_minus_cos"]))
    if i in (0, t.size - 1):
        return None
    tg = _parabola_vertex(t, g["one_minus_cos"], i)
    sun_g, moon_g = track.of_date(np.array([tg]))
    gg = {k: float(v[0]) for k, v in _lunar_geometry(sun_g, moon_g).items()}
    pen = (gg["rp"] + gg["sm"] - gg["d"]) / (2.0 * gg["sm"])
    umb = (gg["ru"] + gg["sm"] - gg["d"]) / (2.0 * gg["sm"])
    if pen <= 0.0:
        return None
    kind = EclipseType.TOTAL if umb >= 1.0 else EclipseType.PARTIAL if umb > 0.0 else EclipseType.PENUMBRAL
    contacts: dict[str, float] = {}
    for first, last, radius, sign in (
        ("P1", "P4", "rp", 1.0),
        ("U1", "U4", "ru", 1.0),
        ("U2", "U3", "ru", -1.0),
    ):
        f = g["d"] - (g[radius] + sign * g["sm"])
        if f[i] >= 0.0:
            continue
        begin, end = _crossings(t, f, i)
        if begin is not None:
            contacts[first] = begin
        if end is not None:
            contacts[last] = end
    # sign: Moon north (+) or south of the shadow axis
    north = float(moon_g[2, 0] / np.linalg.norm(moon_g[:, 0]) + sun_g[2, 0] / np.linalg.norm(sun_g[:, 0]))
    gamma = math.copysign(gg["rm"] * math.sin(gg["d"]) / EARTH_EQUATORIAL_RADIUS_KM, north)
    return Eclipse(EclipseKind.LUNAR, kind, tg, track.delta_t_s, gamma, umb, pen, contacts, track)


def _check_year(year: int) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise OutOfRangeError("eclipse year", year, f"{FIRST_YEAR}..{LAST_YEAR} (JPL DE405 coverage)")


_JD_OF_ORDINAL_ZERO = 1721424.5


def _jd_of_day(day: date) -> float:
    return day.toordinal() + _JD_OF_ORDINAL_ZERO


def _jd_of_year_start(year: int) -> float:
    return _jd_of_day(date(year, 1, 1))


_FIRST_JD = _jd_of_year_start(FIRST_YEAR)
_LAST_JD = _jd_of_day(LAST_DAY)


@lru_cache(maxsize=128)
def _block(first_year: int) -> tuple[Eclipse, ...]:
    """Every eclipse whose greatest instant (UT) falls in [first_year, first_year + BLOCK_YEARS)."""
    start = max(_jd_of_year_start(first_year), _FIRST_JD)
    end = min(_jd_of_year_start(first_year + BLOCK_YEARS), _LAST_JD)
    times, full = _syzygies(start - 1.0, end + 1.0)
    out: list[Eclipse] = []
    for track, is_full in zip(_tracks(times), full, strict=True):
        eclipse = _lunar_eclipse(track) if is_full else _solar_eclipse(track)
        if eclipse is not None and start <= eclipse.greatest_ut_jd < end:
            out.append(eclipse)
    out.sort(key=lambda e: e.greatest_tt_jd)
    return tuple(out)


def eclipses_between(first_ut_jd: float, last_ut_jd: float) -> tuple[Eclipse, ...]:
    """Every solar and lunar eclipse (penumbral ones included) with greatest eclipse in [first, last)."""
    if first_ut_jd < _FIRST_JD or last_ut_jd > _LAST_JD:
        raise OutOfRangeError(
            "eclipse search",
            f"{ut_datetime(first_ut_jd):%Y-%m-%d}..{ut_datetime(last_ut_jd):%Y-%m-%d}",
            f"{FIRST_YEAR}-01-01..{LAST_DAY.isoformat()} (JPL DE405 coverage)",
        )
    first_year = ut_datetime(first_ut_jd).year
    last_year = ut_datetime(min(last_ut_jd, _LAST_JD - 1.0)).year
    out: list[Eclipse] = []
    block = first_year - (first_year - FIRST_YEAR) % BLOCK_YEARS
    while block <= last_year:
        out.extend(e for e in _block(block) if first_ut_jd <= e.greatest_ut_jd < last_ut_jd)
        block += BLOCK_YEARS
    return tuple(out)


def eclipses_in_year(year: int) -> tuple[Eclipse, ...]:
    """Every eclipse whose greatest instant falls in Gregorian ``year`` (UT)."""
    _check_year(year)
    return eclipses_between(_jd_of_year_start(year), min(_jd_of_year_start(year + 1), _LAST_JD))


# --- local circumstances ---


@dataclass(frozen=True)
class Phase:
    """One instant of the rite's three calls (初食, 食甚, 復圓) at a place."""

    name: str
    jd_ut: float
    longitude_deg: float
    altitude_deg: float

    @property
    def local_time(self) -> datetime:
        """Local apparent solar time at the place."""
        return local_apparent_time(self.jd_ut, self.longitude_deg)

    @property
    def double_hour(self) -> DoubleHour:
        return double_hour(self.local_time)

    @property
    def ke(self) -> int:
        return ke_of_day(self.local_time, self.local_time.year)

    @property
    def above_horizon(self) -> bool:
        return self.altitude_deg > HORIZON_ALTITUDE_DEG

    @property
    def label(self) -> str:
        clock = self.local_time
        where = "" if self.above_horizon else "，地平下"
        return f"{self.name} {self.double_hour.label}（{clock:%H:%M}{where}）"


@dataclass(frozen=True)
class LocalCircumstances:
    """An eclipse at one place: its phases, magnitude, what can be seen, and whether the rite is held."""

    eclipse: Eclipse
    latitude_deg: float
    longitude_deg: float
    phases: tuple[Phase, ...]  # 初食, 食甚, 復圓 (empty when the place sees no solar eclipse)
    magnitude: float  # fraction of the diameter covered (solar: local; lunar: umbral, or penumbral)
    visible_from_jd_ut: float | None
    visible_until_jd_ut: float | None
    rite_held: bool
    reason: str

    @property
    def visible(self) -> bool:
        return self.visible_from_jd_ut is not None

    @property
    def day(self) -> date | None:
        """The local date on which the visible eclipse begins (None when nothing is seen here)."""
        if self.visible_from_jd_ut is None:
            return None
        return local_apparent_time(self.visible_from_jd_ut, self.longitude_deg).date()

    @property
    def fen(self) -> float:
        """Magnitude in 分 (tenths of the diameter), as the 欽天監 wrote 食幾分幾秒."""
        return self.magnitude * 10.0

    def time_label(self) -> str:
        return "；".join(p.label for p in self.phases)


def _observer(latitude_deg: float, longitude_deg: float) -> tuple[FloatArray, FloatArray]:
    """WGS84 position (km) and the local vertical (unit), Earth-fixed frame."""
    phi, lam = math.radians(latitude_deg), math.radians(longitude_deg)
    e2 = EARTH_FLATTENING * (2.0 - EARTH_FLATTENING)
    n = EARTH_EQUATORIAL_RADIUS_KM / math.sqrt(1.0 - e2 * math.sin(phi) ** 2)
    up = np.array([math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi)])
    pos = np.array([n * up[0], n * up[1], n * (1.0 - e2) * up[2]])
    return pos, up


def _altitude_deg(topo: FloatArray, up: FloatArray) -> FloatArray:
    return np.asarray(
        np.degrees(np.arcsin(np.clip((up @ topo) / np.linalg.norm(topo, axis=0), -1.0, 1.0))),
        dtype=np.float64,
    )


def _visible_window(
    track: _Track, begin_tt: float, end_tt: float, body: int, pos: FloatArray, up: FloatArray
) -> tuple[float | None, float | None]:
    """First and last instants (TT) in [begin, end] with the body above the horizon."""
    inner = np.arange(begin_tt, end_tt, LOCAL_STEP_DAYS)
    t = np.append(inner, end_tt)
    bodies = track.earth_fixed(t)
    alt = _altitude_deg(bodies[body] - pos[:, None], up) - HORIZON_ALTITUDE_DEG
    above = alt > 0.0
    if not above.any():
        return None, None
    idx = np.nonzero(above)[0]
    i, j = int(idx[0]), int(idx[-1])
    first = (
        float(t[i]) if i == 0 else float(t[i - 1] + (t[i] - t[i - 1]) * alt[i - 1] / (alt[i - 1] - alt[i]))
    )
    last = (
        float(t[j]) if j == t.size - 1 else float(t[j] + (t[j + 1] - t[j]) * alt[j] / (alt[j] - alt[j + 1]))
    )
    return first, last


def _phases(
    track: _Track,
    names_times: Iterable[tuple[str, float]],
    body: int,
    pos: FloatArray,
    up: FloatArray,
    lon: float,
) -> tuple[Phase, ...]:
    pairs = list(names_times)
    t = np.array([tt for _, tt in pairs])
    alt = _altitude_deg(track.earth_fixed(t)[body] - pos[:, None], up)
    return tuple(Phase(name, track.ut(tt), lon, float(a)) for (name, tt), a in zip(pairs, alt, strict=True))


def _solar_here(track: _Track, t: FloatArray, pos: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """At a place: (separation − sum of semi-diameters, 1 − cos separation, Sun's semi-diameter)."""
    sun, moon = track.earth_fixed(t)
    ts_, tm = sun - pos[:, None], moon - pos[:, None]
    rs, rm = np.linalg.norm(ts_, axis=0), np.linalg.norm(tm, axis=0)
    cos_sep = np.clip(np.sum(ts_ * tm, axis=0) / (rs * rm), -1.0, 1.0)
    sep = np.arccos(cos_sep)
    s_sun = np.arcsin(SUN_RADIUS_KM / rs)
    s_moon = np.arcsin(MOON_K_PENUMBRAL * EARTH_EQUATORIAL_RADIUS_KM / rm)
    return sep - s_sun - s_moon, 1.0 - cos_sep, s_sun


def _refine_crossing(track: _Track, pos: FloatArray, t0: float, t1: float) -> float:
    """The contact between two coarse grid times, on a fine grid (linear interpolation)."""
    t = np.linspace(t0, t1, REFINE_POINTS)
    f = _solar_here(track, t, pos)[0]
    k = int(np.nonzero(np.sign(f[1:]) != np.sign(f[:-1]))[0][0])
    return float(t[k] + (t[k + 1] - t[k]) * f[k] / (f[k] - f[k + 1]))


def _partly(begin: float, end: float, first: float | None, last: float | None, body: str) -> str:
    """'帶食' when the body rises or sets eclipsed: the almanac makers' term, 「此條曆家所謂『帶食』者也」
    (古今圖書集成; outside source ``gujin-tushu-daishi``, `dianli sources gujin-tushu-daishi`)."""
    if first is None or last is None:
        return ""
    rises, sets = first > begin + 1e-6, last < end - 1e-6
    if rises or sets:
        what = "rises" if rises and not sets else "sets" if sets and not rises else "rises and sets"
        return f"; only partly seen: the {body} {what} eclipsed (帶食)"
    return ""


def _local_solar(eclipse: Eclipse, track: _Track, lat: float, lon: float) -> LocalCircumstances:
    pos, up = _observer(lat, lon)
    t = _grid(track, LOCAL_STEP_DAYS)
    f, closeness, _ = _solar_here(track, t, pos)
    i = int(np.argmin(closeness))
    if f[i] > NO_CONTACT_MARGIN_RAD:  # far outside the penumbra even between two grid points
        return LocalCircumstances(
            eclipse, lat, lon, (), 0.0, None, None, False, "the Moon's penumbra does not reach this place"
        )
    fine = np.linspace(t[max(i - 1, 0)], t[min(i + 1, t.size - 1)], REFINE_POINTS)
    f_fine, close_fine, s_sun_fine = _solar_here(track, fine, pos)
    j = int(np.argmin(close_fine))
    if f_fine[j] >= 0.0:
        return LocalCircumstances(
            eclipse, lat, lon, (), 0.0, None, None, False, "the Moon's penumbra does not reach this place"
        )
    tg = _parabola_vertex(fine, close_fine, j)
    magnitude = float(-f_fine[j] / (2.0 * s_sun_fine[j]))
    neg = np.nonzero(f < 0.0)[0]
    if neg.size == 0:  # a grazing eclipse shorter than the coarse step: contacts inside the fine bracket
        begin = _refine_crossing(track, pos, float(fine[0]), tg) if f_fine[0] > 0.0 else float(fine[0])
        end = _refine_crossing(track, pos, tg, float(fine[-1])) if f_fine[-1] > 0.0 else float(fine[-1])
    else:
        lo, hi = int(neg[0]), int(neg[-1])
        begin = _refine_crossing(track, pos, float(t[lo - 1]), float(t[lo])) if lo > 0 else float(t[0])
        final = t.size - 1
        end = _refine_crossing(track, pos, float(t[hi]), float(t[hi + 1])) if hi < final else float(t[-1])
    phases = _phases(track, (("初食", begin), ("食甚", tg), ("復圓", end)), 0, pos, up, lon)
    first, last = _visible_window(track, begin, end, 0, pos, up)
    seen = first is not None
    reason = (
        f"partial or central solar eclipse here, {magnitude * 10:.1f}分, the Sun above the horizon"
        + _partly(begin, end, first, last, "Sun")
        if seen
        else "the eclipse happens while the Sun is below the horizon here"
    )
    return LocalCircumstances(
        eclipse,
        lat,
        lon,
        phases,
        magnitude,
        track.ut(first) if first is not None else None,
        track.ut(last) if last is not None else None,
        seen,
        reason,
    )


def _local_lunar(eclipse: Eclipse, track: _Track, lat: float, lon: float) -> LocalCircumstances:
    pos, up = _observer(lat, lon)
    c = eclipse.contacts_tt_jd
    umbral = eclipse.type is not EclipseType.PENUMBRAL
    first_key, last_key = ("U1", "U4") if umbral else ("P1", "P4")
    begin = c.get(first_key, track.center_tt - WINDOW_HALF_DAYS)
    end = c.get(last_key, track.center_tt + WINDOW_HALF_DAYS)
    phases = _phases(
        track, (("初食", begin), ("食甚", eclipse.greatest_tt_jd), ("復圓", end)), 1, pos, up, lon
    )
    first, last = _visible_window(track, begin, end, 1, pos, up)
    seen = first is not None
    magnitude = eclipse.umbral_magnitude if umbral else eclipse.penumbral_magnitude
    if not umbral:
        reason = "penumbral only (the Moon never enters the umbra): not rescued (an assumption)"
    elif seen:
        reason = f"the Moon is above the horizon here during the eclipse ({(magnitude or 0.0) * 10:.1f}分)"
        reason += _partly(begin, end, first, last, "Moon")
    else:
        reason = "the Moon is below the horizon here for the whole eclipse"
    return LocalCircumstances(
        eclipse,
        lat,
        lon,
        phases,
        float(magnitude or 0.0),
        track.ut(first) if first is not None else None,
        track.ut(last) if last is not None else None,
        seen and umbral,
        reason,
    )


def local_circumstances(eclipse: Eclipse, latitude_deg: float, longitude_deg: float) -> LocalCircumstances:
    """The eclipse at a place (geodetic latitude, east longitude in degrees)."""
    if not -90.0 <= latitude_deg <= 90.0:
        raise OutOfRangeError("latitude", latitude_deg, "-90..90 degrees")
    if not -180.0 <= longitude_deg <= 360.0:
        raise OutOfRangeError("longitude", longitude_deg, "-180..360 degrees east")
    track = eclipse.track
    if track is None:  # pragma: no cover - eclipses are built with their track
        raise OutOfRangeError("eclipse", eclipse.label, "an eclipse returned by eclipses_in_year")
    if eclipse.kind is EclipseKind.SOLAR:
        return _local_solar(eclipse, track, latitude_deg, longitude_deg)
    return _local_lunar(eclipse, track, latitude_deg, longitude_deg)


@lru_cache(maxsize=1 << 16)
def _local_cached(eclipse: Eclipse, latitude_deg: float, longitude_deg: float) -> LocalCircumstances:
    return local_circumstances(eclipse, latitude_deg, longitude_deg)


def local_eclipses(
    first_day: date,
    end_day: date,
    latitude_deg: float,
    longitude_deg: float,
    kinds: tuple[EclipseKind, ...] = (EclipseKind.SOLAR, EclipseKind.LUNAR),
    skip_penumbral: bool = False,
) -> tuple[LocalCircumstances, ...]:
    """Every eclipse of ``kinds`` whose greatest instant falls in [first_day, end_day) (UT dates), seen
    from a place; ``skip_penumbral`` leaves out penumbral lunar eclipses (never a 救護 day)."""
    first, last = _jd_of_day(first_day), _jd_of_day(end_day)
    return tuple(
        _local_cached(e, latitude_deg, longitude_deg)
        for e in eclipses_between(first, last)
        if e.kind in kinds and not (skip_penumbral and e.type is EclipseType.PENUMBRAL)
    )


ECLIPSE_ASSUMPTIONS: tuple[str, ...] = (
    ASSUMPTION_PREDICTION,
    ASSUMPTION_VISIBLE,
    ASSUMPTION_PENUMBRAL,
    ASSUMPTION_DAY,
    f"visible means the centre of the Sun or Moon above {HORIZON_ALTITUDE_DEG}° (refraction and "
    "semi-diameter, the usual rising/setting altitude); the place's coordinates are modern ones",
)
