"""Benchmark: facts read from a witness's text alone, against its curator's (leave one out).

For every curated witness, its facts of the kinds a reader finds in running text — date rules, hymn names,
postures, offering rounds — are read from its text by ``dianli.comparison.facts.text_facts``, each clause
filed under a rite learnt from the *other* witnesses' statements (its own curation left out), and compared
with the facts of its hand statements as (rite, kind, value) triples: precision and recall per kind.

Baseline, in the same run: the same readers, each clause filed under the rite of the element the string
aligner (``dianli align``, the model without the witness's own citations) matched it to — the path a new
witness took before the correspondence table; a clause the aligner finds *new* is filed nowhere.

Then the review a curator would make: for every curated witness, its drafted readings
(``dianli.comparison.drafted.proposals``: the rites whose days, hymns, postures or offering rounds its text
states differently from its base) against its hand readings — each proposal is one decision, to accept when
it gives the hand values, else to reject; a rite and kind whose hand values differ from the base with no
right proposal is a hand edit. Target (issue): under 100 decisions a chapter and no hand-written reading of
its date rules.

Targets (issue: at least 90% precision and recall on these kinds, 80% overall) are printed beside the
figures, never asserted in a unit test. Run: ``python bench/facts.py``.
"""

from __future__ import annotations

import time

from dianli.comparison.align import align
from dianli.comparison.facts import READ_KINDS, Found, Score, curated_witnesses, hand_facts, text_facts
from dianli.comparison.values import facts_in

TARGET = {"date_rule": 0.9, "hymn": 0.9, "posture": 0.9, "rounds": 0.9, "all": 0.8}


def aligner_facts(witness: str) -> tuple[Found, ...]:
    """The baseline: a clause's rite is the rite of the element the string aligner matched it to."""
    out: list[Found] = []
    for aligned in align(witness).clauses:
        if aligned.best is None:
            continue
        rite = aligned.best.span.element.split(".", 1)[0].split("[", 1)[0]
        out.extend(Found(rite, value, aligned.clause) for value in facts_in(aligned.clause.text))
    return tuple(out)


def scores(found: dict[str, set[tuple[str, str, str]]]) -> dict[str, Score]:
    totals = {k: [0, 0, 0] for k in READ_KINDS}
    for witness, triples in found.items():
        hand = hand_facts(witness)
        covered = {rite for rite, _, _ in hand}
        mine = {t for t in triples if t[0] in covered}
        for kind in READ_KINDS:
            a = {t for t in mine if t[1] == kind}
            b = {t for t in hand if t[1] == kind}
            totals[kind][0] += len(a)
            totals[kind][1] += len(b)
            totals[kind][2] += len(a & b)
    out = {k: Score(k, *v) for k, v in totals.items()}
    out["all"] = Score("all", *(sum(v[i] for v in totals.values()) for i in range(3)))
    return out


def main() -> None:
    witnesses = curated_witnesses()
    start = time.perf_counter()
    ours = {w: {f.triple for f in text_facts(w)} for w in witnesses}
    ours_s = time.perf_counter() - start
    start = time.perf_counter()
    base = {w: {f.triple for f in aligner_facts(w)} for w in witnesses}
    base_s = time.perf_counter() - start
    mine, theirs = scores(ours), scores(base)
    print(f"leave one out over {len(witnesses)} curated witnesses (facts as (rite, kind, value))")
    print(f"{'kind':<10} {'hand':>5} {'found':>6} {'precision':>10} {'recall':>7}   baseline P / R   target")
    for kind, s in mine.items():
        b = theirs[kind]
        print(
            f"{kind:<10} {s.hand:>5} {s.found:>6} {s.precision:>10.0%} {s.recall:>7.0%}"
            f"   {b.precision:>6.0%} / {b.recall:<5.0%}  ≥ {TARGET[kind]:.0%}"
        )
    ratio = mine["all"].recall / theirs["all"].recall if theirs["all"].recall else float("inf")
    print(f"recall, ours / baseline: {ratio:.2f}×")
    print(
        f"time: ours {ours_s:.2f} s, baseline (string aligner) {base_s:.2f} s, ratio {base_s / ours_s:.1f}×"
    )


def review() -> None:
    """The decisions and hand edits that bring each curated witness from its draft to its curation: every
    kind a draft proposes (days, hymns, postures, offering rounds)."""
    from dianli.comparison.drafted import PROPOSED_KINDS, Proposal, proposals, rite_values
    from dianli.comparison.table import table
    from dianli.comparison.values import OPEN
    from dianli.corpus.normalise import fold
    from dianli.corpus.witnesses import witness_info
    from dianli.rites.readings import rites_for

    def right(p: Proposal, hand: set[str]) -> bool:
        """The decision a curator makes: accept where the proposal gives the hand values."""
        values = {fold(v) for v in p.values}
        if p.kind == "date_rule":
            return values == hand
        return values <= hand and fold(p.replaces) not in hand

    print("\nreview of the drafted readings (each witness against its base, from its text alone)")
    print(f"{'witness':<30} {'decisions':>9} {'accept':>6} {'reject':>6} {'hand edits':>10}")
    totals = [0, 0, 0, 0]
    by_kind = {k: [0, 0, 0, 0] for k in PROPOSED_KINDS}
    for witness in curated_witnesses():
        base = witness_info(witness).base
        if base is None:
            continue
        found = proposals(witness)
        hand: dict[tuple[str, str], set[str]] = {}
        for s in table().where(witness=witness):
            if s.kind in PROPOSED_KINDS and s.provenance in ("cited", "read") and s.key != fold(OPEN):
                hand.setdefault((s.rite, s.kind), set()).add(s.key)
        theirs = rites_for(base)
        accepted = [p for p in found if right(p, hand.get((p.rite, p.kind), set()))]
        edits = 0
        for (rite, kind), values in hand.items():
            if rite not in theirs:
                continue
            other = {fold(v) for v in rite_values(theirs[rite], kind) if v != OPEN}
            if values <= other or (other and other <= values):
                continue  # agrees with the base: nothing to write
            mine = [p for p in accepted if (p.rite, p.kind) == (rite, kind)]
            covered = {fold(v) for p in mine for v in p.values}
            if not mine or (kind != "date_rule" and not (values - other) <= covered):
                edits += 1
                by_kind[kind][3] += 1
        row = [len(found), len(accepted), len(found) - len(accepted), edits]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        for p in found:
            by_kind[p.kind][0] += 1
            by_kind[p.kind][1 if p in accepted else 2] += 1
        print(f"{witness:<30} {row[0]:>9} {row[1]:>6} {row[2]:>6} {row[3]:>10}")
    print(
        f"{'all':<30} {totals[0]:>9} {totals[1]:>6} {totals[2]:>6} {totals[3]:>10}   target: < 100 a chapter, 0 edits"
    )
    print(
        "by kind: "
        + "; ".join(
            f"{k} {v[0]} ({v[1]} accept, {v[2]} reject, {v[3]} hand edits)" for k, v in by_kind.items()
        )
    )


if __name__ == "__main__":
    main()
    review()
