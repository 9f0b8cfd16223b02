"""The kinds and types of eclipse, apart from their computation (:mod:`dianli.calendar.eclipses`), so that a
rule or a model can name them without loading numpy and the ephemeris."""

from __future__ import annotations

from enum import StrEnum


class EclipseKind(StrEnum):
    SOLAR = "solar"
    LUNAR = "lunar"

    @property
    def chinese(self) -> str:
        return "日食" if self is EclipseKind.SOLAR else "月食"


class EclipseType(StrEnum):
    TOTAL = "total"
    ANNULAR = "annular"
    HYBRID = "hybrid"
    PARTIAL = "partial"
    PENUMBRAL = "penumbral"
