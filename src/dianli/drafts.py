"""Whether a run lets drafted witnesses count: the one switch, light enough for the command line's root to
read (no manifest, no pydantic)."""

from __future__ import annotations

import os

DRAFTS_VAR = "DIANLI_WITH_DRAFTS"
"""Set (to 1) by ``dianli --with-drafts``: drafted witnesses govern the places their manifests name."""


def with_drafts() -> bool:
    """Whether drafted witnesses govern their places in this run (``dianli --with-drafts``)."""
    return os.environ.get(DRAFTS_VAR, "").strip().lower() in ("1", "yes", "true", "on")
