"""Assembling one ceremony: the resolved rite, its day, its music and pictures, as a :class:`Program`.

Everything comes from typed models: the resolved rite (its officiants, altars, steps … as validated
elements), the calendar's observances with their related days, the 祝文 date clause, the music's
movements and the spring ox. Nothing here knows a particular rite: the rules it applies (seasons, which rites show the
spring ox, the tablet plan) are data in ``data/program.yaml``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, timedelta
from typing import Any

from dianli import cache
from dianli.calendar.date_clause import fill_date_clause
from dianli.calendar.year_names import chinese_date_label
from dianli.errors import UnknownValueError
from dianli.layout.figures import layout_figures
from dianli.places.places import PlaceAt
from dianli.places.regions import place_region
from dianli.program import model as m
from dianli.program.config import config, season_ids, season_of_month
from dianli.program.passages import PassageBook
from dianli.program.textview import parallels
from dianli.rites import model as rm
from dianli.rites.expand import NumberedStep
from dianli.rites.model import Element
from dianli.rites.observances import Occurrence, observances_for
from dianli.rites.occasion import Member, Occasion, occasion_of, placement_citations, relation_text
from dianli.rites.prayer import fill_text
from dianli.rites.preparation_days import dated_preparations
from dianli.rites.resolve import ResolvedRite, preferred_citations


def _refs(element: Element, witness: str, book: PassageBook) -> tuple[str, ...]:
    """The passage ids of an element's citations, the reading witness's first."""
    return tuple(book.cite(c) for c in preferred_citations(element, witness))


# --- the day -------------------------------------------------------------------------------------


def _season_occurrences(resolved: ResolvedRite) -> tuple[Occurrence, ...]:
    """The rite's observances that year at its place, in the reading the rite was resolved in."""
    practice = resolved.practice.id if resolved.practice is not None else None
    return observances_for(
        resolved.place.id, resolved.year, [resolved.rite.id], witness=resolved.witness, practice=practice
    )


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


def ceremony_date(
    occ: Occurrence | None, rule_text: str | None, book: PassageBook, region: str | None = None
) -> m.CeremonyDate:
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
        chinese=chinese_date_label(occ.chinese_date, region) if occ.chinese_date else None,
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


def preparations(
    rows: Iterable[rm.Preparation],
    related: Iterable[Occurrence],
    rite_day: date | None,
    witness: str,
    book: PassageBook,
    region: str | None = None,
) -> tuple[m.Preparation, ...]:
    """The rite's preparations, each dated from its rule (:func:`dianli.rites.preparation_days.
    dated_preparations`: its own day rule, else the calendar's related day of its kind, else undated
    with the reason); related days that match no preparation are added from the calendar."""
    out: list[m.Preparation] = []
    for p in dated_preparations(rows, rite_day, related, witness):
        d = p.preparation
        day_cites = tuple(book.cite(c) for c in p.cites)
        own = _refs(d, witness, book) if d is not None else ()
        out.append(
            m.Preparation(
                kind=p.kind,
                text=d.text if d is not None else None,
                gloss=d.gloss if d is not None else None,
                who=d.who if d is not None else (),
                when=p.rule if p.time is None else f"{p.rule}{p.time}",
                days=p.days,
                chinese_days=tuple(chinese_date_label(c, region) for c in p.chinese),
                cites=tuple(dict.fromkeys((*own, *day_cites))),
                assumption=d.assumption if d is not None else None,
                day_note=p.note,
            )
        )
    return tuple(out)


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
            notes=a.notes,
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
    rows: Iterable[rm.Text],
    occ: Occurrence | None,
    witness: str,
    book: PassageBook,
    region: str | None = None,
    resolved: ResolvedRite | None = None,
) -> tuple[m.Prayer, ...]:
    """The rite's texts, each filled for the occasion (:func:`dianli.rites.prayer.fill_text`: alternatives
    read, date and office blanks filled, names labelled) when the resolved rite is given."""
    out = []
    for d in rows:
        if resolved is not None:
            filled: str | None = fill_text(d, resolved, occ)
        else:
            filled = fill_date_clause(d.text, occ.day, region=region) if occ is not None and occ.day else None
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


def steps(
    rows: Iterable[NumberedStep], witness: str, book: PassageBook, rite: str = "", first: int = 1
) -> tuple[m.Step, ...]:
    """The rite's steps numbered from ``first`` on (the occasion numbers its rites' steps across)."""
    out = []
    for n in rows:
        st = n.step
        out.append(
            m.Step(
                number=n.number + first - 1,
                rite=rite,
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


def _sung(movement_id: str) -> tuple[dict[str, Any], ...]:
    """Each sung character of a movement: its note and, where the music times it, its span."""
    from dianli.music.cues import character_times
    from dianli.music.score import movement

    chars = movement(movement_id).characters
    times = character_times(movement_id)
    timed = len(times) == len(chars)
    return tuple(
        {
            "char": c.display,
            "lu": c.note.lu,
            "gongche": c.note.gongche,
            "token": c.note.token,
            "start_s": round(times[i][1], 3) if timed else None,
            "end_s": round(times[i][2], 3) if timed else None,
        }
        for i, c in enumerate(chars)
    )


def _movement_cue(movement_id: str) -> dict[str, Any]:
    """What a cue shows of a movement (names, length, sung characters, the passage it rests on), as plain
    data made from the music's data alone."""
    from dianli.music.cues import timeline
    from dianli.music.score import movement_info
    from dianli.music.synth import rendered_seconds

    info = movement_info(movement_id)
    tl = timeline(movement_id)
    return {
        "name": info.name,
        "tune": info.tune,
        "danced": info.danced,
        "same_as": info.same_as,
        "duration_s": round(tl.duration_s, 3),
        "audio_s": round(rendered_seconds(tl), 3),
        "characters": _sung(movement_id),
        "cite": (info.cite.witness, info.cite.quote, info.cite.section),
    }


def movement_cue(movement_id: str) -> dict[str, Any]:
    """:func:`_movement_cue`, kept in the on-disk cache under a key naming every file of the package
    (the music's data and code among them) and the libraries: a booklet for a new place or year does not
    compute the music's timelines again (nor import the music package)."""
    entry = cache.installed_key("program.movement_cue", movement_id)
    return cache.pickled(cache.DERIVED, entry, lambda: _movement_cue(movement_id))


def known_movements() -> frozenset[str]:
    """The ids of the music's movements (kept on disk as :func:`movement_cue` is)."""

    def make() -> frozenset[str]:
        from dianli.music.score import movement_ids

        return frozenset(movement_ids())

    return cache.pickled(cache.DERIVED, cache.installed_key("program.movement_ids"), make)


def music_cues(program_steps: Iterable[m.Step], book: PassageBook) -> tuple[m.MusicCue, ...]:
    """One cue per movement named by the steps, in order, with the numbers of the steps naming it."""
    known = known_movements()
    order: dict[str, list[int]] = {}
    for s in program_steps:
        if s.music and s.music in known:
            order.setdefault(s.music, []).append(s.number)
    cues = []
    for mid, numbers in order.items():
        cue = movement_cue(mid)
        cues.append(
            m.MusicCue(
                movement=mid,
                name=cue["name"],
                tune=cue["tune"],
                danced=cue["danced"],
                same_as=cue["same_as"],
                duration_s=cue["duration_s"],
                audio_s=cue["audio_s"],
                steps=tuple(numbers),
                characters=tuple(m.SungCharacter(**c) for c in cue["characters"]),
                cites=(book.ref(*cue["cite"]),),
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
    from dianli.spring_ox.figure import choose_rule, spring_ox  # imported only for a rite that shows it
    from dianli.spring_ox.profiles import profile_ids
    from dianli.spring_ox.report import render_text as spring_ox_text
    from dianli.spring_ox.svg import render_svg as spring_ox_svg

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


def companion_day(
    occurrences: Iterable[Occurrence], main: Occurrence | None, shift: int, season: str | None
) -> tuple[Occurrence | None, list[str]]:
    """A rite's observance on the day its occasion puts it: ``shift`` days from the rite asked for's
    day; where it has none that day, its own observance for the season, and an assumption says so."""
    items = tuple(occurrences)
    if main is not None and main.day is not None:
        want = main.day + timedelta(days=shift)
        found = [o for o in items if o.part is None and o.day == want]
        if found:
            return found[0], []
    chosen, _, notes = choose_day(items, season)
    if main is not None and main.day is not None and chosen is not None:
        notes.append(f"its own calendar does not put it on the occasion's day: {chosen.name} is shown")
    return chosen, notes


def _relations(member: Member, occasion: Occasion, witness: str, book: PassageBook) -> tuple[m.Relation, ...]:
    def name_of(rite_id: str) -> str:
        return occasion.member(rite_id).name

    merged: dict[str, tuple[str, list[str]]] = {}
    for p in member.relations():
        text = relation_text(p, member.rite, name_of)
        other = p.second if p.first == member.rite else p.first
        cites = merged.setdefault(text, (other, []))[1]
        cites.extend(c for c in (book.cite(c) for c in placement_citations(p, witness)) if c not in cites)
    return tuple(m.Relation(text=t, other=o, cites=tuple(c)) for t, (o, c) in merged.items())


def _section(
    member: Member,
    occasion: Occasion,
    occ: Occurrence | None,
    occurrences: tuple[Occurrence, ...],
    book: PassageBook,
    shown_ox: set[str],
    relations: tuple[m.Relation, ...],
) -> m.RiteSection:
    """Everything of one rite but its steps, built in the booklet's order (citations numbered as met)."""
    resolved = member.resolved
    w = resolved.witness
    related = related_days(occurrences, occ)
    region = place_region(resolved.place)
    day = ceremony_date(occ, occ.rule_text if occ is not None else None, book, region)
    officiants = people(resolved.officiants, w, book)
    roles = people(resolved.roles, w, book)
    preps = preparations(resolved.preparations, related, occ.day if occ else None, w, book, region)
    altar_list = altars(resolved.altars, w, book)
    tablet_list = tablets(resolved.tablets, w, book)
    figure_list = figures(resolved, book)
    vessels = things(resolved.vessels, w, book)
    foods = things(resolved.foods, w, book)
    texts = prayers(resolved.texts, occ, w, book, region, resolved)
    pictures = tuple(
        p for p in spring_ox_pictures(resolved, resolved.place, resolved.year, book) if p.rule not in shown_ox
    )
    shown_ox.update(p.rule for p in pictures)
    return m.RiteSection(
        rite=resolved.rite.id,
        names=resolved.rite.names.classical,
        gloss=resolved.rite.names.gloss,
        main=member.rite == occasion.rite,
        day=member.day,
        relations=relations,
        notes=resolved.rite.notes if not occasion.alone else (),
        witness=w,
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
        spring_ox=pictures,
    )


STAGES = (
    "reading the rites and the witnesses",
    "dating the ceremony",
    "the people, altars, offerings and prayers",
    "the order of service and its music",
)
"""The stages of :func:`assemble`, as it names them to ``progress``: the first (the occasion's rites, resolved
in the witness's reading) is most of the work when nothing is cached."""


def assemble(
    rite: str,
    place: str,
    year: int,
    season: str | None = None,
    witness: str | None = None,
    practice: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> m.Program:
    """One ceremony fully resolved: the occasion of ``rite`` (id or name) at ``place`` in ``year`` — the
    rite and the rites its data holds before or after it, in their order — ``season`` picking among a
    year's observances, in ``witness``'s reading (default: the place's governing witness); ``practice``
    (a practice profile id) gives the day a living temple holds it. ``progress`` is told the name of
    each stage as it begins (:data:`STAGES`: a progress bar's words)."""
    stage = progress or (lambda _: None)
    stage(STAGES[0])
    occasion = occasion_of(rite, place, year, witness, practice)
    stage(STAGES[1])
    main = occasion.main
    resolved = main.resolved
    where = resolved.place
    book = PassageBook()
    main_occurrences = _season_occurrences(resolved)
    occ, season_used, notes = choose_day(main_occurrences, season)
    assumptions = [*notes]
    days: dict[str, tuple[Occurrence | None, tuple[Occurrence, ...]]] = {}
    for member in occasion.members:
        if member is main:
            days[member.rite] = (occ, main_occurrences)
            continue
        own = _season_occurrences(member.resolved)
        chosen, why = companion_day(own, occ, member.day - main.day, season_used)
        days[member.rite] = (chosen, own)
        assumptions.extend(f"{member.name}: {n}" for n in why)
    # Built in the booklet's order, so citations are numbered as a reader meets them: each rite's day,
    # people, preparations, altar and prayer, then the order of service of the whole occasion.
    stage(STAGES[2])
    ceremony_date(occ, occ.rule_text if occ is not None else None, book, place_region(where))  # opens it
    relations = {
        mb.rite: _relations(mb, occasion, mb.resolved.witness, book) if not occasion.alone else ()
        for mb in occasion.members
    }
    shown_ox: set[str] = set()
    sections = [
        _section(mb, occasion, *days[mb.rite], book, shown_ox, relations[mb.rite]) for mb in occasion.members
    ]
    stage(STAGES[3])
    program_steps: list[m.Step] = []
    for i, member in enumerate(occasion.members):
        first = len(program_steps) + 1
        mine = steps(member.resolved.steps, member.resolved.witness, book, member.rite, first)
        program_steps.extend(mine)
        if mine:
            sections[i] = sections[i].model_copy(update={"first_step": first, "last_step": mine[-1].number})
    cues = music_cues(program_steps, book)
    for member, section in zip(occasion.members, sections, strict=True):
        chosen = days[member.rite][0]
        prefix = "" if occasion.alone else f"{section.name}: "
        if chosen is not None and chosen.assumption:
            assumptions.append(f"{prefix}date: {chosen.assumption}")
        if chosen is not None and chosen.open_reason:
            assumptions.append(f"{prefix}date: {chosen.open_reason}")
        if member.reading_note:
            assumptions.append(member.reading_note)
    assumptions.extend(f"step {s.number}: {s.assumption}" for s in program_steps if s.assumption)
    for section in sections:
        prefix = "" if occasion.alone else f"{section.name}: "
        assumptions.extend(prefix + a for a in figure_assumptions(section.figures))
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
        date=sections[occasion.members.index(main)].date,
        occasion=occasion.summary,
        rites=tuple(sections),
        steps=tuple(program_steps),
        music=cues,
        assumptions=tuple(dict.fromkeys(assumptions)),
        passages=book.passages,
        parallels=parallels(p.section_id for p in book.passages if p.section_id),
    )
