"""The formation: how many dancers stand where, as far as the witnesses give it (data/formation.yaml).

The witnesses give two ranks (東班, 西班), six 班 in each (頭三五 and 二四六), the 節生 at the head of
each rank and the 麾生; they never give the number of dancers. Three dancers to a 班 (36 in all, the
usual Qing 六佾) is outside knowledge, labelled as an assumption with its sources.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from dianli.corpus.cite import Citation
from dianli.dance.schema import formation_data

RANK_SIGN = {"east": 1.0, "west": -1.0}


@dataclass(frozen=True)
class Placed:
    """One figure on the ground: x metres east of the centre line, z metres towards the hall (north)."""

    role: str
    rank: str | None
    file: int | None
    x_m: float
    z_m: float


@dataclass(frozen=True)
class Formation:
    """The formation with what rests on the witnesses and what is assumed."""

    ranks: tuple[str, ...]
    files_per_rank: int
    dancers_per_file: int
    cites: tuple[Citation, ...]
    assumptions: tuple[str, ...]
    sources: tuple[str, ...]
    figures: tuple[Placed, ...]

    @property
    def dancers(self) -> int:
        """Every dancer of both ranks."""
        return len(self.ranks) * self.files_per_rank * self.dancers_per_file

    def as_json(self) -> dict[str, Any]:
        """Plain data for the animation and the CLI."""
        return {
            "ranks": list(self.ranks),
            "files_per_rank": self.files_per_rank,
            "dancers_per_file": self.dancers_per_file,
            "dancers": self.dancers,
            "assumptions": list(self.assumptions),
            "sources": list(self.sources),
            "cites": [{"witness": c.witness, "quote": c.quote} for c in self.cites],
            "figures": [
                {"role": f.role, "rank": f.rank, "file": f.file, "x": f.x_m, "z": f.z_m} for f in self.figures
            ],
        }


@functools.lru_cache(maxsize=1)
def formation() -> Formation:
    """The formation of the 佾舞."""
    data = formation_data()
    files = data.files_per_rank.count
    per_file = data.dancers_per_file.count
    aisle, file_gap, gap = data.spacing.aisle, data.spacing.file_gap, data.spacing.dancer_gap
    ranks = tuple(r.id for r in data.ranks)
    figures: list[Placed] = []
    for rank in ranks:
        sign = RANK_SIGN[rank]
        for number in range(1, files + 1):
            for j in range(per_file):
                x = sign * (aisle / 2 + gap * j)
                figures.append(Placed("舞生", rank, number, x, -file_gap * (number - 1)))
    middle = aisle / 2 + gap * (per_file - 1) / 2
    for leader in data.leaders:
        figures.append(Placed(leader.role, leader.rank, None, RANK_SIGN[leader.rank] * middle, file_gap))
    width = aisle / 2 + gap * per_file
    depth_mid = -file_gap * (files - 1) / 2
    places = {"麾生": (0.0, 2 * file_gap), "木鐸": (width, depth_mid), "相鼓": (-width, depth_mid)}
    for other in data.others:
        x, z = places.get(other.role, (0.0, 2 * file_gap))
        figures.append(Placed(other.role, None, None, x, z))
    return Formation(
        ranks=ranks,
        files_per_rank=files,
        dancers_per_file=per_file,
        cites=data.cites,
        assumptions=data.assumptions,
        sources=data.dancers_per_file.sources,
        figures=tuple(figures),
    )
