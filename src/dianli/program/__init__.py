"""The ceremony program: one rite at one place in one year, fully resolved, and its HTML booklet.

The program sits above the other domains and imports their modules directly; the facade
(:mod:`dianli.api`) re-exports the program's names, so the program must not import the facade.
"""
