"""A bounded cache of values derived from long-lived objects, looked up by identity.

Parsed lines are cached by text and the dice of small dice are built once per face, so
the same object comes back roll after roll: what is derived from it (a node's step, a
die's JSON) can be made once. Looked up by ``id``, not by value: hashing a tree or a die
costs more than the lookup saves. Each entry holds its object, so the identity cannot be
reused by another object while the entry lives; past ``limit`` entries the cache starts
again empty, so objects made once (the dice of a d10000) cannot grow it without bound.
A ``weigh`` function bounds it by a size measure of what it holds as well (``capacity``):
a few entries that each hold a lot (the dice of many different big dice) start it again
empty as many small ones do.

:class:`SizedCache` is the same bound for a cache looked up by value (a line's text, a
dice term): at most ``limit`` entries and ``capacity`` of what they hold, measured by
``weigh``; the oldest entries make way.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, KeysView
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    def __init__(
        self,
        make: Callable[[K], V],
        limit: int = 4096,
        weigh: Callable[[K], int] | None = None,
        capacity: int = 0,
    ) -> None:
        self._make = make
        self._limit = limit
        self._weigh = weigh
        self._capacity = capacity
        self._held = 0
        self._entries: dict[int, tuple[K, V]] = {}

    def __call__(self, key: K) -> V:
        """What ``make`` gives for ``key``, made on the first call for this object."""
        entry = self._entries.get(id(key))
        if entry is None:
            weight = 0 if self._weigh is None else self._weigh(key)
            if len(self._entries) >= self._limit or self._held + weight > self._capacity > 0:
                self._entries.clear()
                self._held = 0
            entry = self._entries[id(key)] = (key, self._make(key))
            self._held += weight
        return entry[1]

    def found(self, key: K) -> V | None:
        """What ``make`` gave for ``key`` if its entry is kept, else None (nothing made)."""
        entry = self._entries.get(id(key))
        return None if entry is None else entry[1]

    def many(self, keys: Iterable[K]) -> list[V]:
        """What ``make`` gives for each of ``keys``, in order (one call for all of them:
        cheaper than a call per key, for the dice of a roll)."""
        entries = self._entries
        found = []
        for key in keys:
            entry = entries.get(id(key))
            found.append(self(key) if entry is None else entry[1])
        return found


class SizedCache(Generic[K, V]):
    """What ``make`` gives for a key, kept for keys equal to it: at most ``limit``
    entries, holding at most ``capacity`` by the measure ``weigh(key, value)`` (an
    entry that alone weighs more is made, not kept). The oldest entries make way; a
    look-up that finds its entry is one dictionary read."""

    def __init__(
        self, make: Callable[[K], V], weigh: Callable[[K, V], int], capacity: int, limit: int
    ) -> None:
        self._make = make
        self._weigh = weigh
        self._capacity = capacity
        self._limit = limit
        self._held = 0
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def __call__(self, key: K) -> V:
        entries = self._entries
        entry = entries.get(key)
        if entry is not None:
            return entry[0]
        value = self._make(key)
        weight = self._weigh(key, value)
        capacity = self._capacity
        if weight > capacity:
            return value
        held = self._held + weight
        if len(entries) >= self._limit:  # a full cache: the oldest entry makes way
            held -= entries.popitem(False)[1][1]
        while held > capacity:  # and more, while what it holds is too much
            held -= entries.popitem(False)[1][1]
        entries[key] = (value, weight)
        self._held = held
        return value

    @property
    def held(self) -> int:
        """The measure of what the cache holds now."""
        return self._held

    def keys(self) -> KeysView[K]:
        """The keys held, as a live view: ``key in cache.keys()`` asks without a call of
        Python code, for a caller that asks it of every line."""
        return self._entries.keys()

    def __len__(self) -> int:
        return len(self._entries)

    def cache_clear(self) -> None:
        """Forget every entry."""
        self._entries.clear()
        self._held = 0
