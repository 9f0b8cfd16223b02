"""The rich console of the command line (imported by :mod:`dianli.cli.common` when one is first used)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment

from dianli.cli.common import supplied_text


class SuppliedConsole(Console):
    """A console that never prints a private-use code point: a character the transcription could not
    encode is shown as the character another witness supplies, in 〔〕 (:func:`dianli.corpus.supplied.supply`)."""

    def print(self, *objects: Any, **options: Any) -> None:
        # text is supplied before it is laid out, so that a line keeps its width (〔須〕 is wider than a box)
        super().print(*(supplied_text(o) if isinstance(o, str) else o for o in objects), **options)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return supplied_text(super()._render_buffer(buffer))  # whatever else reaches the screen
