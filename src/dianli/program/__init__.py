"""The ceremony program: one rite at one place in one year, fully resolved, and its HTML booklet.

The program is built on the public facade only; importing :mod:`dianli.api` first lets the facade
re-export the program's names while the program's modules import the other domains' names from it.
"""

import dianli.api  # noqa: F401  (import order: the facade first)
