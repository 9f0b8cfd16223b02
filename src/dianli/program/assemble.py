"""Assembling one ceremony: the resolved rite, its day, its music and pictures, as a :class:`Program`.

Everything comes from typed models: the resolved rite (its officiants, altars, steps … as validated
elements), the calendar's observances with their related days, the 祝文 date clause, the music's
movements and the spring ox. Nothing here knows a particular rite: the rules it applies (seasons, which rites show the
spring ox, the tablet plan) are data in ``data/program.yaml``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from dianli.calendar.date_clause import fill_date_clause
from dianli.corpus.normalise import fold
from dianli.errors import UnknownValueError
from dianli.layout.figures import layout_figures
from dianli.music.cues import character_times, timeline
from dianli.music.score import movement, movement_ids, movement_info
from dianli.places.places import PlaceAt
from dianli.program import model as m
from dianli.program.config import config, season_ids, season_of_month
from dianli.program.passages import PassageBook
from dianli.program.textview import parallels
from dianli.rites import model as rm
from dianli.rites.expand import NumberedStep
from dianli.rites.model import Element
from dianli.rites.observances import Occurrence, observances_for
from dianli.rites.resolve import ResolvedRite, preferred_citations, resolve_rite
from dianli.spring_ox.figure import choose_rule, spring_ox
from dianli.spring_ox.profiles import profile_ids
from dianli.spring_ox.report import render_text as spring_ox_text
from dianli.spring_ox.svg import render_svg as spring_ox_svg


def _refs(element: Element, witness: str, book: PassageBook) -> tuple[str, ...]:
    """The passage ids of an element's citations, the reading witness's first."""
    return tuple(book.cite(c) for c in preferred_citations(element, witness))


# --- the day -------------------------------------------------------------------------------------


def _season_occurrences(resolved: ResolvedRite) -> tuple[Occurrence, ...]:
    """The rite's observances that year at its place, in the reading the rite was resolved in."""
    return observances_for(resolved.place.id, resolved.year, [resolved.rite.id], witness=resolved.witness)


def choose_day(
    occurrences: Iterable[Occurrence], season: str | None
) -> tuple[Occurrence | None, str | None, list[str]]:
    """The rite's own occurrence for ``season`` (or the first of the year), the season, assumptions."""
    main = [o for o in occurrences if o.part is None]
    if season is not None and season not in season_ids():
        raise UnknownValueError("season", season, season_ids())
    if not main:
        return None, season, []
    by_season = [(season_of_month(o.chinese_date.month) if o.chinese_date else None, o) for o in main]
    if season is not None:
        chosen = [o for s, o in by_season if s == season]
        if not chosen:
            held = sorted({s for s, _ in by_season if s})
            raise UnknownValueError("season for this rite", season, held or ["(no dated observance)"])
        return chosen[0], season, []
    first_season, first = by_season[0]
    notes = []
    if len({s for s, _ in by_season}) > 1:
        notes.append(
            f"no season asked for: the first observance of the year is shown ({first.name}); "
            f"others: {', '.join(o.name for _, o in by_season[1:])}"
        )
    return first, first_season, notes


def ceremony_date(occ: Occurrence | None, rule_text: str | None, book: PassageBook) -> m.CeremonyDate:
    if occ is None:
        return m.CeremonyDate(
            source="open",
            source_detail="the calendar has no observance of this rite",
            rule_text=rule_text,
        )
    source = occ.source.value if occ.source else "open"
    detail = occ.source.description if occ.source else (occ.open_reason or "")
    return m.CeremonyDate(
        observance=occ.observance_id,
        observance_name=occ.name,
        western=occ.day,
        weekday=occ.weekday,
        chinese=occ.chinese_date.label if occ.chinese_date else None,
        source=source,
        source_detail=detail,
        time_label=occ.time_label,
        rule_text=rule_text,
        open_reason=occ.open_reason,
        cites=(book.cite(occ.cite),),
    )


def related_days(occurrences: Iterable[Occurrence], occ: Occurrence | None) -> list[Occurrence]:
    """The related days (齋戒, 省牲 …) of ``occ``: those of its observance nearest to its day."""
    if occ is None or occ.day is None:
        return []
    items = list(occurrences)
    mains = [o.day for o in items if o.part is None and o.observance_id == occ.observance_id and o.day]

    def nearest(day: date) -> date:
        return min(mains, key=lambda d: abs((d - day).days))

    return [
        o
        for o in items
        if o.part is not None and o.observance_id == occ.observance_id and o.day and nearest(o.day) == occ.day
    ]


# --- preparations --------------------------------------------------------------------------------


def _related_name(occ: Occurrence, main_name: str) -> str:
    suffix = f"（{main_name}）"
    return occ.name[: -len(suffix)] if occ.name.endswith(suffix) else occ.name


def preparations(
    rows: Iterable[rm.Preparation],
    related: Iterable[Occurrence],
    main_name: str,
    witness: str,
    book: PassageBook,
) -> tuple[m.Preparation, ...]:
    """The rite's preparations, dated by the calendar's related days whose name starts with the
    preparation's kind; related days that match no preparation are added from the calendar."""
    days = [(fold(_related_name(o, main_name)), o) for o in related]
    used: set[int] = set()
    out: list[m.Preparation] = []
    for d in rows:
        hits = [(i, o) for i, (name, o) in enumerate(days) if name.startswith(fold(d.kind))]
        used.update(i for i, _ in hits)
        out.append(
            m.Preparation(
                kind=d.kind,
                text=d.text,
                gloss=d.gloss,
                who=d.who,
                when=d.when,
                days=tuple(o.day for _, o in hits if o.day),
                chinese_days=tuple(o.chinese_date.label for _, o in hits if o.chinese_date),
                cites=_refs(d, witness, book),
                assumption=d.assumption,
            )
        )
    extra: dict[str, list[Occurrence]] = {}
    for i, (_, o) in enumerate(days):
        if i not in used:
            extra.setdefault(_related_name(o, main_name), []).append(o)
    for name, occs in extra.items():
        out.append(
            m.Preparation(
                kind=name,
                days=tuple(o.day for o in occs if o.day),
                chinese_days=tuple(o.chinese_date.label for o in occs if o.chinese_date),
                cites=(book.cite(occs[0].cite),),
            )
        )
    return tuple(sorted(out, key=lambda p: (p.days[0] if p.days else date.max, 0)))


# --- altars, tablets, things ---------------------------------------------------------------------


def offering_lines(altar: rm.Altar, witness: str, book: PassageBook) -> tuple[m.OfferingLine, ...]:
    """What is laid before a tablet, one line per kind of thing, in the data's order."""
    lines: list[m.OfferingLine] = []
    for offering in altar.offerings:
        lines.append(_line(offering.vessel, offering.count, None, offering, witness, book))
    for silk in altar.silk:
        lines.append(_line("帛", silk.count, silk.colour, silk, witness, book))
    for victim in altar.victims:
        lines.append(_line(victim.animal, victim.count, victim.notes, victim, witness, book))
    for cup in altar.cups:
        lines.append(_line("爵", cup.count, cup.material, cup, witness, book))
    for item in altar.items:
        lines.append(_line(item.vessel, item.count, None, item, witness, book))
    return tuple(lines)


def _line(
    what: str, count: int | None, detail: str | None, element: Element, witness: str, book: PassageBook
) -> m.OfferingLine:
    return m.OfferingLine(what=what, count=count, detail=detail, cites=_refs(element, witness, book))


def altars(rows: Iterable[rm.Altar], witness: str, book: PassageBook) -> tuple[m.Altar, ...]:
    return tuple(
        m.Altar(
            id=a.id,
            name=a.name,
            tablets=a.tablets,
            position=a.position,
            lines=offering_lines(a, witness, book),
            cites=_refs(a, witness, book),
        )
        for a in rows
    )


def tablets(rows: Iterable[rm.Tablet], witness: str, book: PassageBook) -> tuple[m.Tablet, ...]:
    return tuple(
        m.Tablet(name=t.name, hall=t.hall, side=t.side, order=t.order, cites=_refs(t, witness, book))
        for t in rows
    )


def figures(resolved: ResolvedRite, book: PassageBook) -> tuple[m.Figure, ...]:
    """The layout figures of the rite (plans, seating, tablets, tables) with their passages."""
    return tuple(
        m.Figure(
            kind=f.kind,
            title=f.title,
            caption=f.caption,
            svg=f.svg,
            cites=tuple(dict.fromkeys(book.cite(c) for c in f.citations)),
            assumptions=f.assumptions,
        )
        for f in layout_figures(resolved)
    )


def figure_assumptions(figs: Iterable[m.Figure]) -> list[str]:
    """Each assumption of the figures once, naming the figures it concerns."""
    titles: dict[str, list[str]] = {}
    for fig in figs:
        for a in fig.assumptions:
            titles.setdefault(a, []).append(fig.title)
    return [f"{'; '.join(names)}: {a}" for a, names in titles.items()]


def things(rows: Iterable[rm.Vessel | rm.Food], witness: str, book: PassageBook) -> tuple[m.Thing, ...]:
    """Vessels (material, what they hold, description) and foods (preparation, vessel) in a line each."""
    out = []
    for d in rows:
        if isinstance(d, rm.Vessel):
            fields: tuple[str | None, ...] = (d.material, d.holds, d.description)
        else:
            fields = (d.preparation, d.vessel)
        detail = "；".join(f for f in fields if f)
        out.append(m.Thing(name=d.name, detail=detail or None, gloss=d.gloss, cites=_refs(d, witness, book)))
    return tuple(out)


def people(
    rows: Iterable[rm.Officiant | rm.Role], witness: str, book: PassageBook
) -> tuple[m.Officiant, ...]:
    """Officiants (function, office) and roles (name, duty) as the booklet lists them."""
    out = []
    for d in rows:
        if isinstance(d, rm.Officiant):
            function, office, notes = d.function, d.office, d.notes
        else:
            function, office, notes = d.name, d.duty or "", d.gloss
        out.append(
            m.Officiant(
                function=function,
                office=office,
                count=d.count,
                notes=notes,
                cites=_refs(d, witness, book),
                assumption=d.assumption,
            )
        )
    return tuple(out)


def prayers(
    rows: Iterable[rm.Text], occ: Occurrence | None, witness: str, book: PassageBook
) -> tuple[m.Prayer, ...]:
    out = []
    for d in rows:
        filled = fill_date_clause(d.text, occ.day) if occ is not None and occ.day else None
        out.append(
            m.Prayer(
                id=d.id,
                title=d.title,
                template=d.text,
                filled=filled if filled != d.text else None,
                gloss=d.gloss,
                cites=_refs(d, witness, book),
            )
        )
    return tuple(out)


# --- steps and music -----------------------------------------------------------------------------


def steps(rows: Iterable[NumberedStep], witness: str, book: PassageBook) -> tuple[m.Step, ...]:
    out = []
    for n in rows:
        st = n.step
        out.append(
            m.Step(
                number=n.number,
                part=n.placed.part_title,
                kind=st.kind,
                role=st.role,
                call=st.call,
                action=st.action,
                gloss=st.gloss,
                posture=st.posture,
                door=st.door,
                notes=st.notes,
                music=st.music,
                music_action=st.music_action,
                dance=st.dance,
                cites=_refs(st, witness, book),
                assumption=st.assumption,
            )
        )
    return tuple(out)


def _sung(movement_id: str) -> tuple[m.SungCharacter, ...]:
    chars = movement(movement_id).characters
    times = character_times(movement_id)
    timed = len(times) == len(chars)
    return tuple(
        m.SungCharacter(
            char=c.display,
            lu=c.note.lu,
            gongche=c.note.gongche,
            token=c.note.token,
            start_s=round(times[i][1], 3) if timed else None,
            end_s=round(times[i][2], 3) if timed else None,
        )
        for i, c in enumerate(chars)
    )


def music_cues(program_steps: Iterable[m.Step], book: PassageBook) -> tuple[m.MusicCue, ...]:
    """One cue per movement named by the steps, in order, with the numbers of the steps naming it."""
    known = set(movement_ids())
    order: dict[str, list[int]] = {}
    for s in program_steps:
        if s.music and s.music in known:
            order.setdefault(s.music, []).append(s.number)
    cues = []
    for mid, numbers in order.items():
        info = movement_info(mid)
        cues.append(
            m.MusicCue(
                movement=mid,
                name=info.name,
                tune=info.tune,
                danced=info.danced,
                same_as=info.same_as,
                duration_s=round(timeline(mid).duration_s, 3),
                steps=tuple(numbers),
                characters=_sung(mid),
                cites=(book.cite(info.cite),),
            )
        )
    return tuple(cues)


def spring_ox_pictures(
    resolved: ResolvedRite, place: PlaceAt, year: int, book: PassageBook
) -> tuple[m.SpringOxPicture, ...]:
    """The pictures when a part of the rite shows the spring ox (``shows: [spring_ox]``): the rule set the
    place takes that year (its governing witness's own, if it states one), then the fixed profiles."""
    if not any("spring_ox" in part.shows for part in resolved.rite.parts):
        return ()
    book.cite(config().exhibits.spring_ox.cite)
    out = []
    choice = choose_rule(year, place.id)
    for profile in dict.fromkeys((choice.rule, *profile_ids())):
        ox = spring_ox(year, place=place.id, rule=profile)
        summary = spring_ox_text(ox).splitlines()[0]
        if profile == choice.rule and profile not in profile_ids():
            summary += f" — {choice.reason}"
        out.append(m.SpringOxPicture(rule=profile, summary=summary, svg=spring_ox_svg(ox)))
    return tuple(out)


# --- the program ---------------------------------------------------------------------------------


def assemble(
    rite: str, place: str, year: int, season: str | None = None, witness: str | None = None
) -> m.Program:
    """One ceremony fully resolved: ``rite`` (id or name) at ``place`` in ``year`` (``season`` picks
    among a year's observances), in ``witness``'s reading (default: the place's governing witness)."""
    resolved = resolve_rite(rite, place, year, witness)
    w = resolved.witness
    where = resolved.place
    book = PassageBook()
    occurrences = _season_occurrences(resolved)
    occ, season_used, notes = choose_day(occurrences, season)
    related = related_days(occurrences, occ)
    rule_text = occ.rule_text if occ is not None else None
    # Built in the booklet's order, so citations are numbered as a reader meets them.
    day = ceremony_date(occ, rule_text, book)
    officiants = people(resolved.officiants, w, book)
    roles = people(resolved.roles, w, book)
    preps = preparations(resolved.preparations, related, occ.name if occ else "", w, book)
    altar_list = altars(resolved.altars, w, book)
    tablet_list = tablets(resolved.tablets, w, book)
    figure_list = figures(resolved, book)
    vessels = things(resolved.vessels, w, book)
    foods = things(resolved.foods, w, book)
    texts = prayers(resolved.texts, occ, w, book)
    program_steps = steps(resolved.steps, w, book)
    cues = music_cues(program_steps, book)
    pictures = spring_ox_pictures(resolved, where, year, book)
    assumptions = [*notes]
    if occ is not None and occ.assumption:
        assumptions.append(f"date: {occ.assumption}")
    if occ is not None and occ.open_reason:
        assumptions.append(f"date: {occ.open_reason}")
    assumptions.extend(f"step {s.number}: {s.assumption}" for s in program_steps if s.assumption)
    assumptions.extend(figure_assumptions(figure_list))
    if cues:
        assumptions.append(f"music: {config().audio.assumption}")
    return m.Program(
        rite=resolved.rite.id,
        names=resolved.rite.names.classical,
        gloss=resolved.rite.names.gloss,
        place=m.PlaceRef(id=where.id, name=where.name, level=str(where.level)),
        year=year,
        season=season_used,
        witness=resolved.witness,
        governing_witness=resolved.governing_witness,
        date=day,
        officiants=officiants,
        roles=roles,
        preparations=preps,
        altars=altar_list,
        tablets=tablet_list,
        figures=figure_list,
        vessels=vessels,
        foods=foods,
        prayers=texts,
        steps=program_steps,
        music=cues,
        spring_ox=pictures,
        assumptions=tuple(assumptions),
        passages=book.passages,
        parallels=parallels(p.section_id for p in book.passages if p.section_id),
    )
