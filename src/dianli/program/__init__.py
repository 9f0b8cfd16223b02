"""The ceremony program: one rite at one place in one year, fully resolved, and its HTML booklet.

The program sits above the other domains and imports their modules directly; the public API
(``dianli.ceremony``) and the interfaces are built on it.
"""
