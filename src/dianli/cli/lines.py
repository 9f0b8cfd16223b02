"""The command line's text laid out for the terminal (:mod:`dianli.lines`, the one way every line is
broken), a character the transcription could not encode supplied first."""

from __future__ import annotations

from dianli.cli.common import supplied_text, width, write_text_output
from dianli.lines import fit_line


def fit_text(text: str, width: int, hang: int = 2) -> str:
    """Each line of ``text`` fitted to ``width`` columns (:func:`fit_line`); the characters a
    transcription could not encode are supplied first (see :func:`dianli.cli.common.supplied_text`), so that
    the lines are measured as they are shown."""
    return "\n".join(part for line in supplied_text(text).split("\n") for part in fit_line(line, width, hang))


def write_fitted(text: str, out: str | None = None, hang: int = 2, force: bool = False) -> None:
    """Print ``text`` fitted to the console's width (the terminal's, ``--width``, or 80 when piped), or
    write it as it is to the file ``out`` (a path the user gave; '-' means stdout)."""
    if out is None or out == "-":
        write_text_output(fit_text(text, width(), hang), None)
    else:
        write_text_output(text, out, force)
