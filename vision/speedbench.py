"""`companion bench speed [--models DIR] [--against DIR] [--frames N]`: the learned reader's CPU ms per frame
on one core, at 640x480 (the target: a median of at most 15 ms) and 1280x720.

Each size reads the same rendered tables (1-25 dice, seeds held out of training), each frame the best of
three reads after a first. This machine's speed drifts by a fifth from one minute to the next, more than
most changes to the reader, so with `--against` the two readers take turns frame by frame and the figure
to trust is the median of the per-frame ratios: read one after the other, two runs of the same files
differed by 15.8-19.9 ms (notes s47)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

SIZES = ((640, 480), (1280, 720))  # px: the target's frame size, and a 720p camera's
FRAMES = 30  # rendered tables read at each size
READS = 3  # timed reads of each frame (`best_of`; the speed bench's after a first): the least counts
T = TypeVar("T")


@contextmanager
def one_core() -> Iterator[None]:
    """Run the body on one CPU core with OpenCV on one thread (ONNX Runtime's sessions already run one):
    the speed target is one core's, and OpenCV's helper threads on a busy 2-core machine count their
    handing over of small jobs as CPU time, about 3 ms of a 640x480 frame's 19 here."""
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    threads = cv2.getNumThreads()
    try:
        if cores:
            os.sched_setaffinity(0, {min(cores)})
        cv2.setNumThreads(1)
        yield
    finally:
        cv2.setNumThreads(threads)
        if cores:
            os.sched_setaffinity(0, cores)


def frame_times(readers: Mapping[str, Callable[[np.ndarray], object]],
                sizes: tuple[tuple[int, int], ...] = SIZES, frames: int = FRAMES
                ) -> dict[str, dict[tuple[int, int], list[float]]]:
    """Each reader's CPU ms on each frame (its best of READS reads after a first), by size, on one core
    (`one_core`); a reader is how it reads a frame (`LearnedReader.read`). The readers take turns on each
    frame, so the machine's drift falls on all alike."""
    from vision.diceset import HELD_OUT_SEED  # here, not at the top: `vision.bench` times with this module
    from vision.scenes import random_scene

    out: dict[str, dict[tuple[int, int], list[float]]] = {name: {} for name in readers}
    with one_core():
        for w, h in sizes:
            for k in range(frames):
                image, _ = random_scene(np.random.default_rng(HELD_OUT_SEED + 50_000 + k), w, h)
                for name, read in readers.items():
                    read(image)
                    out[name].setdefault((w, h), []).append(best_of(partial(read, image))[1])
    return out


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """What `call()` returns, and the CPU ms it took (this process's: a busy machine's other work is not
    counted, its drift is)."""
    t0 = time.process_time()
    result = call()
    return result, (time.process_time() - t0) * 1000


def best_of(call: Callable[[], T], reads: int = READS) -> tuple[T, float]:
    """What `call()` returns, and the least CPU ms of `reads` calls: other processes on a shared machine
    slow some calls, never speed one up."""
    runs = [timed(call) for _ in range(reads)]
    return runs[-1][0], min(ms for _, ms in runs)


def speed(read: Callable[[np.ndarray], object], sizes: tuple[tuple[int, int], ...] = SIZES,
          frames: int = FRAMES) -> dict[tuple[int, int], float]:
    """A reader's median CPU ms per frame at each size (`frame_times`); `read`: how it reads a frame."""
    return {size: float(np.median(ms)) for size, ms in frame_times({"": read}, sizes, frames)[""].items()}


def run(args) -> int:
    """Entry point of `companion bench speed`."""
    from vision.learned import DATA, LearnedReader

    folders = [Path(args.models or DATA), *([Path(args.against)] if args.against else [])]
    names = [str(folders[0]), *(f"{folder} (again)" if folder == folders[0] else str(folder)
                                for folder in folders[1:])]  # a reader against itself: the drift's size
    readers = {name: LearnedReader.in_folder(folder).read
               for name, folder in zip(names, folders, strict=True)}
    times = frame_times(readers, frames=args.frames)
    print(f"learned reader, CPU ms per frame on one core: {args.frames} rendered tables a size, each the "
          f"best of {READS} reads (target: a median of at most 15 ms at 640x480)")
    for w, h in SIZES:
        line = ", ".join(f"{name} {np.median(ms[(w, h)]):.1f} ms" for name, ms in times.items())
        print(f"  {w}x{h}: median {line}")
        if len(readers) == 2:
            (a, at), (b, bt) = times.items()
            ratio = float(np.median(np.array(at[(w, h)]) / np.array(bt[(w, h)])))
            print(f"    frame by frame, {a} takes {ratio:.3f} of {b}'s time (median)")
    return 0
