"""The witnesses as a cited corpus: texts, normalisation, sections, clauses, citations, search."""
