"""The table of commands: each command's name, the module under ``dianli.cli`` that registers it, and the
line that lists it in ``dianli --help``.

It is the one place a command is declared. The console script reads it to list the commands without
importing them (a command's module, and the libraries it needs, load only when that command runs); the
full application registers the modules it names and takes the listing lines from it too.
"""

from __future__ import annotations

from typing import NamedTuple


class Command(NamedTuple):
    module: str
    summary: str


COMMANDS: dict[str, Command] = {
    "texts": Command("texts", "Read and search the witnesses (the source texts)."),
    "cite": Command("cite", "Find a quotation in a witness: its context, section and offsets."),
    "date": Command("dates", "Convert a day between the Gregorian and the Chinese calendar."),
    "calendar": Command("ritual_calendar", "Every rite of a year at a place, each day with its source."),
    "spring-ox": Command("spring_ox", "The spring ox (土牛) and 芒神 of a year, each attribute sourced."),
    "rites": Command("rites", "The rites as cited data: list, order of service, diff."),
    "music": Command("music", "The 大成樂: sound, score, fingerings, witnesses' differences."),
    "coverage": Command("coverage", "How much of each witness the model covers, per section."),
    "dance": Command("dance", "The 佾舞 of a movement: each character's pose, or animated."),
    "temples": Command("temples", "The 祠祀 of 臺灣府 and its 縣/廳 as their witness lists them."),
    "program": Command("program", "One ceremony as a self-contained HTML booklet (or JSON)."),
    "serve": Command("serve", "Serve the web app on a local address."),
    "eclipses": Command("eclipses", "The eclipses of a year, their local circumstances, and 救護."),
    "places": Command("places", "The 府, 州, 廳 and 縣 over time: names, levels, seats."),
    "align": Command("align", "Align a witness with the model: same, variant, new, missing."),
    "timeline": Command("timeline", "Every reign date the witnesses state, converted, in order."),
    "harvest": Command("harvest", "Find the ritual chapters of whole gazetteers, for ingest."),
    "ingest": Command("ingest", "Align every witness of a folder to the model, in parallel."),
    "export": Command("export", "The whole model as a Frictionless data package (CSV + schemas)."),
    "variants": Command("variants", "Who reads each differing rule how, where and from when."),
    "compare": Command("compare", "The witnesses compared as facts: who states which value, where."),
    "collate": Command("collate", "Collate a rite's witnesses: text, HTML, TEI or CollateX JSON."),
    "sources": Command("sources", "Every outside source, its grade and what it supports."),
    "check": Command("check", "Check the data: manifests, rites, every quote of every reading."),
}


def command_modules() -> tuple[str, ...]:
    """The modules that register the commands, each once, in the table's order."""
    return tuple(dict.fromkeys(c.module for c in COMMANDS.values()))
