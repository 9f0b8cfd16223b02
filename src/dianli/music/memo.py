"""A small in-process cache for rendered audio: least recently used first out, bounded in bytes, and
computing each key once even when several threads ask for it at the same time (the web app's first
requests for a movement arrive together)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

V = TypeVar("V")


@dataclass
class BoundedCache(Generic[V]):
    """``get(key, compute)``: the cached value, or ``compute()`` stored while the total size allows.

    ``size_of`` measures a value in bytes; the oldest entries are dropped once the total passes
    ``max_bytes`` (a single value larger than that is returned but not kept).
    """

    max_bytes: int
    size_of: Callable[[V], int]
    _values: OrderedDict[Hashable, V] = field(default_factory=OrderedDict)
    _locks: dict[Hashable, threading.Lock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)
    hits: int = 0
    misses: int = 0

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        found = self._lookup(key)
        if found is not None:
            return found
        with self._guard:
            key_lock = self._locks.setdefault(key, threading.Lock())
        with key_lock:
            found = self._lookup(key)
            if found is not None:
                return found
            value = compute()
            self._store(key, value)
            return value

    def _lookup(self, key: Hashable) -> V | None:
        with self._guard:
            if key in self._values:
                self._values.move_to_end(key)
                self.hits += 1
                return self._values[key]
            return None

    def _store(self, key: Hashable, value: V) -> None:
        with self._guard:
            self.misses += 1
            self._locks.pop(key, None)
            if self.size_of(value) > self.max_bytes:
                return
            self._values[key] = value
            while sum(self.size_of(v) for v in self._values.values()) > self.max_bytes:
                self._values.popitem(last=False)

    @property
    def total_bytes(self) -> int:
        with self._guard:
            return sum(self.size_of(v) for v in self._values.values())

    def clear(self) -> None:
        with self._guard:
            self._values.clear()
            self.hits = self.misses = 0
