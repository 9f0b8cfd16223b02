"""Where a fact of the corpus's own data comes from: a quotation of a witness, or a labelled assumption.

These are the shapes the corpus data files use (witness manifests, the variant table). They name a
witness by id only: the lowest layer cannot resolve a quote while it is still reading the manifests, so
the ids are checked when the manifests load and the quotes resolve through :class:`dianli.corpus.cite.Citation`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class WitnessCite(BaseModel):
    """A quotation: the witness id, the exact words, and optionally the section to look in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    witness: str = Field(min_length=1)
    quote: str = Field(min_length=1)
    section: str | None = None

    @property
    def text(self) -> str:
        where = f" ({self.section})" if self.section else ""
        return f"{self.witness}{where}: 「{self.quote}」"


class Source(BaseModel):
    """Exactly one of ``cite`` (a witness says so) or ``assumption`` (why the value is taken as it is)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cite: WitnessCite | None = None
    assumption: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _one_source(self) -> Source:
        if (self.cite is None) == (self.assumption is None):
            raise ValueError("give exactly one of 'cite' (a quotation) or 'assumption' (the reason)")
        return self

    @property
    def text(self) -> str:
        """The source in words: ``witness (section): 「quote」`` or ``assumption: …``."""
        if self.cite is not None:
            return self.cite.text
        return f"assumption: {self.assumption}"
