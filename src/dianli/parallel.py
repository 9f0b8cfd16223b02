"""One task per item on Dask — local processes by default, or a ``dask.distributed`` cluster — with a
callback as each task ends: the engine under ``dianli harvest`` and ``dianli ingest``.

Local processes, not threads: the aligner and the harvester are pure Python and hold the GIL. On a cluster,
a value every task needs (the harvest's lexicon) is scattered once to each worker, not sent with each task.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dianli.errors import UnknownValueError

Done = Callable[[Any], None]
"""Called with each task's result as it ends (for a progress bar)."""


def on_processes(
    function: Callable[..., Any],
    calls: Sequence[tuple[str, tuple[Any, ...]]],
    workers: int,
    done: Done | None,
    shared: dict[str, Any] | None = None,
) -> list[Any]:
    """``function(*args, **shared)`` for each ``(key, args)`` of ``calls`` on ``workers`` local processes,
    results in the order of ``calls``. ``shared`` (keyword arguments every call takes) is one node of the
    graph, sent to each worker once."""
    from dask.base import compute
    from dask.callbacks import Callback
    from dask.delayed import delayed

    keys = {key for key, _ in calls}
    common = {
        name: delayed(value, pure=True, name=f"shared-{name}") for name, value in (shared or {}).items()
    }
    tasks = [delayed(function, pure=False)(*args, **common, dask_key_name=key) for key, args in calls]

    class _Done(Callback):
        def _posttask(
            self, key: object, result: object, dsk: object, state: object, worker_id: object
        ) -> None:
            if done is not None and key in keys:
                done(result)

    with _Done():  # type: ignore[no-untyped-call]  # dask's Callback is untyped
        return list(compute(*tasks, scheduler="processes", num_workers=workers))  # type: ignore[no-untyped-call]


def on_cluster(
    address: str,
    function: Callable[..., Any],
    calls: Sequence[tuple[str, tuple[Any, ...]]],
    done: Done | None,
    timeout_s: float,
    shared: dict[str, Any] | None = None,
) -> tuple[list[Any], int]:
    """``function(*args, **shared)`` for each ``(key, args)`` of ``calls`` on the cluster whose scheduler
    is at ``address`` (``shared`` scattered once to each worker): the results as they end, and how many
    workers the cluster had. An address with no scheduler behind it is an error naming what is accepted."""
    from distributed import Client, as_completed

    try:
        client = Client(address, timeout=timeout_s, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise UnknownValueError(
            "--scheduler", address, ["the address of a running dask scheduler, e.g. tcp://127.0.0.1:8786"]
        ) from exc
    with client, client.as_current():
        used = len(client.scheduler_info().get("workers", {})) or 1
        common = {
            name: client.scatter(value, broadcast=True)  # type: ignore[no-untyped-call]
            for name, value in (shared or {}).items()
        }
        futures = [client.submit(function, *args, **common, pure=False, key=key) for key, args in calls]
        results: list[Any] = []
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            result = future.result()
            results.append(result)
            if done is not None:
                done(result)
    return results, used
