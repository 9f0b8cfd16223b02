"""Ingest: every witness folder of a folder aligned to the model, in parallel with Dask.

A *corpus folder* holds witness folders (each with its ``witness.yaml``, text files and optional readings,
as ``docs/adding-a-witness.md`` describes), or is one. Ingesting it aligns every witness of it to the model
(:func:`dianli.comparison.align.align`) as one Dask task per witness, and gathers per witness: its clauses, the four
classes, the alignment report (JSON), the curator's draft reading and the ``alignment.yaml`` that
``dianli align --write`` would write.

Schedulers: by default Dask's local *processes* scheduler on this machine (``workers`` processes, one
witness each at a time: the aligner is pure Python and holds the GIL, so threads would not help); with
``scheduler`` the address of a ``dask.distributed`` scheduler (``tcp://host:8786``), the tasks run on its
workers. A worker reads the corpus folder through ``DIANLI_WITNESSES``: set here before the local pool
starts; on a cluster, each worker must see the folder at the same path (the task adds it to the variable
on a fresh worker, and refuses, naming the variable, on a worker that already loaded another corpus).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dianli import parallel
from dianli.errors import DataError, UnknownValueError

if TYPE_CHECKING:
    from dianli.comparison.align import ModelSpan

ProgressHook = Callable[[str], None]
"""Called in the calling process with the witness id each time a witness is done."""


@dataclass(frozen=True)
class WitnessResult:
    """What ingesting one witness gave (picklable: it travels back from a worker)."""

    witness: str
    folder: str
    clauses: int
    counts: dict[str, int]
    seconds: float
    report: dict[str, Any]
    draft: str
    alignment_yaml: str
    drafted_readings: str = ""
    """For a drafted witness (``status: draft``) with facts (days, hymns, postures, offering rounds) that
    differ from its base: its ``readings/drafted.yaml`` (:mod:`dianli.comparison.drafted`); else empty."""

    @property
    def clauses_per_second(self) -> float:
        return self.clauses / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class IngestRun:
    """All witnesses of a corpus folder ingested, with the wall time and the workers used."""

    folder: str
    scheduler: str
    workers: int
    seconds: float
    results: tuple[WitnessResult, ...]

    @property
    def clauses(self) -> int:
        return sum(r.clauses for r in self.results)


RAW_SUFFIX = ".txt"
"""A file of a corpus folder with this suffix is a transcribed gazetteer (drafted into a witness folder)."""


def _is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder; a name the file system refuses (too long …) names none."""
    try:
        return path.is_dir()
    except OSError:
        return False


def raw_files(folder: Path) -> tuple[Path, ...]:
    """The transcribed gazetteer files directly in ``folder`` (sorted; none where it cannot be listed)."""
    if not _is_folder(folder):
        return ()
    try:
        return tuple(sorted(p for p in folder.glob(f"*{RAW_SUFFIX}") if p.is_file()))
    except OSError:  # unreadable
        return ()


def draft_corpus(folder: Path, into: Path, force: bool = False) -> Path:
    """Draft a witness folder under ``into`` for each transcribed file of ``folder``
    (:func:`dianli.corpus.draft.write_drafts`: a curator's edits merged, never overwritten, unless
    ``force``); return ``into``, a corpus folder."""
    from dianli.corpus.draft import write_drafts

    files = raw_files(folder)
    if not files:
        raise UnknownValueError("gazetteer folder", str(folder), [f"a folder holding *{RAW_SUFFIX} files"])
    write_drafts(files, into, force)
    return into


def corpus_folder(folder: Path) -> tuple[Path, tuple[tuple[str, Path], ...]]:
    """The root that holds the witness folders of ``folder`` (the folder itself, or its parent when it is
    one witness folder) and (witness id, folder) of each, read from the manifests."""
    from dianli.corpus.witnesses import MANIFEST_FILE, WitnessManifest
    from dianli.datafile import load_model_path

    if not _is_folder(folder):
        raise UnknownValueError("corpus folder", str(folder), ["an existing folder of witness folders"])
    single = (folder / MANIFEST_FILE).is_file()
    root = folder.parent if single else folder
    candidates = (
        [folder]
        if single
        else [c for c in sorted(folder.iterdir()) if c.is_dir() and not c.name.startswith((".", "_"))]
    )
    manifests = [
        (load_model_path(c / MANIFEST_FILE, WitnessManifest), c)
        for c in candidates
        if (c / MANIFEST_FILE).is_file()
    ]
    # a text that stays out of the corpus (made: {stays_out: why}) is no witness to align
    found = tuple((m.id, c) for m, c in manifests if m.made is None or m.made.stays_out is None)
    if not found:
        raise UnknownValueError(
            "corpus folder",
            str(folder),
            [
                f"a folder whose sub-folders each hold a {MANIFEST_FILE}",
                f"one folder with a {MANIFEST_FILE}",
                f"a folder of transcribed gazetteers (*{RAW_SUFFIX}) with --drafts DIR",
            ],
        )
    return root.resolve(), found


def _ensure_root(root: str) -> None:
    """Make the corpus folder's witnesses visible in this process (a worker)."""
    from dianli.corpus.witnesses import ENV_VAR, manifest, witness_roots

    if Path(root) in witness_roots():
        return
    if manifest.cache_info().currsize:
        raise DataError(
            f"this worker already loaded a corpus without {root}; start the workers with "
            f"{ENV_VAR}={root} (folders of witness folders, separated by {os.pathsep!r})"
        )
    parts = [p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p.strip()]
    os.environ[ENV_VAR] = os.pathsep.join([*parts, root])


def ingest_witness(root: str, witness: str, model: tuple[ModelSpan, ...] | None = None) -> WitnessResult:
    """Align one witness of the corpus folder ``root`` to the model: the task each worker runs. ``model``:
    the model built once by the process that started the workers (else each worker builds its own)."""
    _ensure_root(root)
    from dianli.comparison.align import align, use_model

    if model is not None:
        use_model(model)
    from dianli.comparison.align_report import alignment_file, draft_reading, to_data
    from dianli.corpus.witnesses import manifest

    start = time.perf_counter()
    result = align(witness)
    seconds = time.perf_counter() - start
    info = next(i for i in manifest() if i.id == witness)
    folder = str(info.folder)
    drafted = ""
    if info.status == "draft":
        from dianli.comparison.drafted import drafted_file, proposals

        found = proposals(witness)
        drafted = drafted_file(witness, found) if found else ""
    return WitnessResult(
        witness=witness,
        folder=folder,
        clauses=len(result.clauses),
        counts=dict(result.counts()),
        seconds=seconds,
        report=to_data(result, None),
        draft=draft_reading(result),
        alignment_yaml=alignment_file(result),
        drafted_readings=drafted,
    )


@contextlib.contextmanager
def _corpus_env(root: str) -> Iterator[None]:
    """``DIANLI_WITNESSES`` holding the corpus folder while the local worker processes start (they inherit
    it); restored afterwards, so this process's own corpus is unchanged."""
    from dianli.corpus.witnesses import ENV_VAR

    before = os.environ.get(ENV_VAR)
    parts = [p for p in (before or "").split(os.pathsep) if p.strip()]
    os.environ[ENV_VAR] = os.pathsep.join([*parts, root]) if root not in parts else os.pathsep.join(parts)
    try:
        yield
    finally:
        if before is None:
            del os.environ[ENV_VAR]
        else:
            os.environ[ENV_VAR] = before


def _model_here(root: Path) -> tuple[ModelSpan, ...] | None:
    """The model built once in this process for every worker — where this process's corpus is the one the
    workers read (the folder is the installed corpus, or among the folders this process already reads);
    else None, and each worker builds its own."""
    from dianli.comparison.align import the_model
    from dianli.corpus.witnesses import witness_roots

    return the_model() if root.resolve() in witness_roots() else None


def _calls(root: str, witnesses: list[str]) -> list[tuple[str, tuple[Any, ...]]]:
    """One task per witness: its key and its arguments."""
    return [(f"ingest-{w}", (root, w)) for w in witnesses]


def _done(progress: ProgressHook | None) -> parallel.Done | None:
    return None if progress is None else lambda result: progress(result.witness)


def ingest(
    folder: Path,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    witnesses: tuple[str, ...] | None = None,
    progress: ProgressHook | None = None,
    connect_timeout_s: float = 10.0,
) -> IngestRun:
    """Align every witness of a corpus folder in parallel (see the module docstring for the schedulers).
    ``witnesses`` narrows to some of them (an unknown id is an error naming the folder's)."""
    root, found = corpus_folder(folder)
    ids = [w for w, _ in found]
    chosen = list(witnesses) if witnesses else ids
    for w in chosen:
        if w not in ids:
            raise UnknownValueError("witness", w, ids)
    start = time.perf_counter()
    if scheduler:
        results, used = parallel.on_cluster(
            scheduler, ingest_witness, _calls(str(root), chosen), _done(progress), connect_timeout_s
        )
        label = f"dask.distributed at {scheduler}"
    else:
        used = max(1, min(workers or os.cpu_count() or 1, len(chosen)))
        shared = {"model": _model_here(root)} if used > 1 else None
        with _corpus_env(str(root)):
            results = parallel.on_processes(
                ingest_witness, _calls(str(root), chosen), used, _done(progress), shared
            )
        label = "local processes"
    order = {w: i for i, w in enumerate(chosen)}
    ordered = tuple(sorted(results, key=lambda r: order[r.witness]))
    return IngestRun(str(root), label, used, time.perf_counter() - start, ordered)
