"""A bounded cache of values derived from long-lived objects, looked up by identity.

Parsed lines are cached by text and the dice of small dice are built once per face, so
the same object comes back roll after roll: what is derived from it (a node's step, a
die's JSON) can be made once. Looked up by ``id``, not by value: hashing a tree or a die
costs more than the lookup saves. Each entry holds its object, so the identity cannot be
reused by another object while the entry lives; past ``limit`` entries the cache starts
again empty, so objects made once (the dice of a d10000) cannot grow it without bound.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    def __init__(self, make: Callable[[K], V], limit: int = 4096) -> None:
        self._make = make
        self._limit = limit
        self._entries: dict[int, tuple[K, V]] = {}

    def __call__(self, key: K) -> V:
        """What ``make`` gives for ``key``, made on the first call for this object."""
        entry = self._entries.get(id(key))
        if entry is None:
            if len(self._entries) >= self._limit:
                self._entries.clear()
            entry = self._entries[id(key)] = (key, self._make(key))
        return entry[1]

    def many(self, keys: Iterable[K]) -> list[V]:
        """What ``make`` gives for each of ``keys``, in order (one call for all of them:
        cheaper than a call per key, for the dice of a roll)."""
        entries = self._entries
        found = []
        for key in keys:
            entry = entries.get(id(key))
            found.append(self(key) if entry is None else entry[1])
        return found
