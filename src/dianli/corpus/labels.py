"""What a reader sees for an id of the corpus: a witness by its short title, a section by its heading.

Ids (a witness's ``<book>-<juan>``, a section's ``<rite>.<name>``) are handles for programs, URLs and the command line; text a
reader reads names the thing (臺灣府志, 祭器). The names are data: the manifests' ``short_title``
(corpus/witnesses/*/witness.yaml) and the section tree's ``title`` (corpus/data/sections.yaml). An id the data
does not know is returned as it is, so a label never hides an error.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable

from dianli.corpus.tree import section_defs
from dianli.corpus.witnesses import WitnessInfo, manifest_table


@functools.lru_cache(maxsize=1)
def _witness_titles() -> dict[str, str]:
    """Each witness's short title; where two witnesses share one (two juan of one book), the first two words
    of their full titles (汀州府志 卷之十一), so that a label always tells the witnesses apart (kept on disk:
    :func:`dianli.corpus.witnesses.manifest_table`)."""
    return manifest_table("titles", _titles)


def _titles(infos: tuple[WitnessInfo, ...]) -> dict[str, str]:
    shared = Counter(info.short_title for info in infos)
    return {
        info.id: (info.short_title if shared[info.short_title] == 1 else " ".join(info.title.split()[:2]))
        + (DRAFT_MARK if info.status == "draft" else "")
        for info in infos
    }


DRAFT_MARK = "（草稿 draft）"
"""Written after the title of a drafted, unreviewed witness wherever a reader sees it."""


def witness_label(witness_id: str) -> str:
    """The witness's short title (its manifest's ``short_title``), or its full title where two share one;
    a drafted witness's marked as a draft, so that every output that uses one says so."""
    return _witness_titles().get(witness_id, witness_id)


def witness_labels(witness_ids: str | Iterable[str]) -> str:
    """Several witnesses by their short titles, joined by 、 (a string is one id)."""
    ids = [witness_ids] if isinstance(witness_ids, str) else list(witness_ids)
    return "、".join(witness_label(i) for i in ids)


def section_label(section_id: str) -> str:
    """The section's heading (its title in the section tree)."""
    found = section_defs().get(section_id)
    return found.title if found else section_id


_ID = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:[-.][a-z0-9]+)+(?![\w-])")


def name_ids(text: str) -> str:
    """``text`` with every witness id and compound section id written in it replaced by the witness's short
    title or the section's heading (for lines composed from ids, such as a governance entry's source
    「<witness id> (<section id>)」 → 「<short title> (<heading>)」)."""
    titles = _witness_titles()
    sections = section_defs()

    def name(m: re.Match[str]) -> str:
        found = m.group(0)
        if found in titles:
            return titles[found]
        return sections[found].title if found in sections else found

    return _ID.sub(name, text)
