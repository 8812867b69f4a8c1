"""Training data made beside the training, in a fixed order: rendered in worker processes (`parallel`,
`forked`) or cut in a background thread (`ahead`), so that the same seed gives the same data however the
work is shared out. Used by `companion train dice` (`vision.dicetrain`) and its calibration
(`vision.readerfit`)."""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TypeVar

import numpy as np


def parallel(fn, jobs: list, workers: int) -> list:
    """[fn(job) for job in jobs], in `workers` processes when more than one (fn and jobs then pickle)."""
    if workers <= 1:
        return [fn(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, jobs))


def chunks(seed: int, total: int, size: int, *extra: int) -> list[tuple[int, ...]]:
    """Jobs (seed, *extra, first, count) that share `total` items out `size` at a time."""
    return [(seed, *extra, first, min(size, total - first)) for first in range(0, total, size)]


T = TypeVar("T")


def _in_order(submit: Callable[[int], Future], count: int, depth: int) -> Iterator:
    """The results of `submit(k)`'s futures for k = 0 .. count-1, in order, at most `depth` in flight."""
    pending = deque(submit(k) for k in range(min(depth, count)))
    for k in range(count):
        made = pending.popleft().result()
        if k + depth < count:
            pending.append(submit(k + depth))
        yield made


def ahead(make: Callable[[], T], count: int, depth: int = 2) -> Iterator[T]:
    """`make()`'s results, `count` of them, made in one background thread up to `depth` ahead: the next
    batches are cut and augmented (numpy and OpenCV, which let go of the GIL) while PyTorch trains on
    this one. One thread calls `make` in order, so a seeded `make` gives the same batches as a loop."""
    with ThreadPoolExecutor(1, thread_name_prefix="batches") as pool:
        yield from _in_order(lambda _: pool.submit(make), count, depth)


_MAKER: Callable[[np.random.Generator], object] | None = None  # what `forked`'s processes call


def _made(job: tuple[int, int, int]) -> object:
    seed, stream, k = job
    return _MAKER(np.random.default_rng([seed, stream, k]))


def forked(make: Callable[[np.random.Generator], T], count: int, seed: int, stream: int, workers: int,
           depth: int = 4) -> Iterator[T]:
    """`make(rng)`'s results for batches 0 .. count-1 in order, batch k drawn from its own generator
    [seed, stream, k], made by `workers` forked processes up to `depth` each ahead: where a training
    step is far quicker than cutting its batch (on a GPU the detector's step takes a few ms, its batch
    about 60 ms of one core), the batches keep up. Another draw than `ahead`'s one generator, so other
    weights than the CPU's (which are the committed ones). `make` may be a closure: the processes are
    forked after it is set, so it is never pickled."""
    global _MAKER
    _MAKER = make
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            yield from _in_order(lambda k: pool.submit(_made, (seed, stream, k)), count, depth * workers)
    finally:
        _MAKER = None
