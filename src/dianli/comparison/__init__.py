"""The comparison of witnesses: which witness states what about each element of the model, with which
value, and the views that read it — alignment of a new text (:mod:`.align`, :mod:`.ingest`), coverage,
collation (character by character within a textual family, synoptic otherwise), and variation of the rites
and of the spring-ox rule sets across places and reigns.

The package sits above :mod:`dianli.rites` and :mod:`dianli.corpus` and reads them; nothing below imports it.
"""
