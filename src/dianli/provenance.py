"""What an output was made from: the dianli version and the digest of its data, so that a paper can name
exactly what it used.

The digest is the package digest of :mod:`dianli.cache` (every file of the installed package: code, rites,
witnesses, places), read under the files' status, and — where ``DIANLI_WITNESSES`` names folders of extra
witnesses — the digest of those folders too. Nothing here hashes anything of its own.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from functools import cache as memo

from dianli import __version__, cache

CITATION_TITLE = "dianli: the Qing state ritual code of Fujian and Taiwan as executable, cited software"
"""The title a citation gives (the one of CITATION.cff)."""


@dataclass(frozen=True)
class Provenance:
    """The version of dianli and the digest of the data an output was made from."""

    version: str
    data_digest: str
    """SHA-256 of every file of the installed package (:func:`dianli.cache.current_package_digest`)."""
    extra_witnesses_digest: str | None = None
    """The digest of the folders ``DIANLI_WITNESSES`` names, where it names any."""

    @property
    def short(self) -> str:
        """``dianli 0.1.0, data 1a2b3c4d5e6f``: the line an output carries."""
        extra = f" + witnesses {self.extra_witnesses_digest[:12]}" if self.extra_witnesses_digest else ""
        return f"dianli {self.version}, data {self.data_digest[:12]}{extra}"

    def as_dict(self) -> dict[str, str]:
        """The fields as plain strings (a table's ``attrs``, a JSON file's metadata)."""
        found = {"dianli_version": self.version, "data_digest": self.data_digest}
        if self.extra_witnesses_digest:
            found["extra_witnesses_digest"] = self.extra_witnesses_digest
        return found

    def citation(self) -> str:
        """A reference a paper can give, naming the version and the data digest."""
        return f"dianli developers. {CITATION_TITLE}. Version {self.version}; data digest {self.data_digest}."

    def html_comment(self) -> str:
        """The provenance as an HTML or SVG/XML comment (its text cannot close the comment)."""
        return f"<!-- made with {self.short.replace('--', '- -')}; data digest sha256:{self.data_digest} -->"

    def __repr__(self) -> str:
        return f"Provenance({self.short})"

    def _repr_html_(self) -> str:
        return (
            f"<p><b>dianli {html.escape(self.version)}</b>, data digest "
            f"<code>{html.escape(self.data_digest)}</code></p>"
        )


@memo
def _extra(folders: str) -> str | None:
    if not any(f.strip() and os.path.isdir(f) for f in folders.split(os.pathsep)):
        return None
    return cache._extra_digest(folders)


def provenance() -> Provenance:
    """What outputs made now are made from: the version of dianli and the digest of its data."""
    return Provenance(
        __version__, cache.current_package_digest(), _extra(os.environ.get(cache.EXTRA_WITNESSES_ENV, ""))
    )


def stamp_markup(text: str) -> str:
    """An HTML page or an SVG drawing with its provenance: a ``<meta>`` in an HTML head (and a comment), a
    comment after the XML declaration or the root element's start of an SVG."""
    found = provenance()
    comment = found.html_comment()
    head = text.find("<head>")
    if head >= 0:
        at = head + len("<head>")
        meta = (
            f'<meta name="generator" content="{html.escape(found.short)}">'
            f'<meta name="dianli-data-digest" content="sha256:{found.data_digest}">'
        )
        return text[:at] + comment + meta + text[at:]
    svg = text.find("<svg")
    if svg >= 0:
        at = text.find(">", svg) + 1
        return text[:at] + comment + text[at:]
    return comment + "\n" + text
