"""A per-client rate limit (a token bucket by remote address): one client cannot make thousands of tables."""

from __future__ import annotations

import math
import threading
import time


class RateLimit:
    """`burst` uses at once, then one more every `every_s` seconds, per client key (the remote address).

    `wait_s(key)` takes one use and answers 0, or, when none is left, the seconds until one is (for a
    429's Retry-After) without taking anything."""

    def __init__(self, burst: int, every_s: float, clock=time.monotonic) -> None:
        self.burst, self.every_s, self._clock = burst, every_s, clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (uses left, at)

    def wait_s(self, key: str) -> int:
        now = self._clock()
        with self._lock:
            left, at = self._buckets.get(key, (float(self.burst), now))
            left = min(float(self.burst), left + (now - at) / self.every_s)
            if left < 1:
                self._buckets[key] = (left, now)
                return max(1, math.ceil((1 - left) * self.every_s))
            self._buckets[key] = (left - 1, now)
            if len(self._buckets) > 10_000:  # forget clients that are full again
                rate = 1 / self.every_s
                full = [k for k, (n, t) in self._buckets.items() if n + (now - t) * rate >= self.burst]
                for k in full:
                    del self._buckets[k]
            return 0
