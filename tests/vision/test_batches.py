"""Training data made in a fixed order (`vision.batches`): batches cut ahead in a thread or by forked
processes come as a plain loop would make them, and an error in one stops the training."""

from __future__ import annotations

import numpy as np
import pytest


def test_batches_made_ahead_are_the_batches_a_plain_loop_makes_in_its_order():
    from vision.batches import ahead

    def batches(rng):
        return lambda: rng.integers(0, 1000, 4)

    rng = np.random.default_rng(7)
    loop = [rng.integers(0, 1000, 4) for _ in range(9)]
    made = list(ahead(batches(np.random.default_rng(7)), 9, depth=3))
    assert len(made) == 9 and all((a == b).all() for a, b in zip(made, loop, strict=True))
    assert list(ahead(batches(rng), 0)) == []


def test_batches_made_by_forked_processes_come_in_order_each_from_its_own_seeded_generator():
    from vision.batches import forked

    made = list(forked(lambda rng: rng.integers(0, 1000, 4), 11, seed=5, stream=10, workers=2, depth=2))
    want = [np.random.default_rng([5, 10, k]).integers(0, 1000, 4) for k in range(11)]
    assert len(made) == 11 and all((a == b).all() for a, b in zip(made, want, strict=True))
    assert list(forked(lambda rng: 0, 0, seed=5, stream=10, workers=2)) == []

    def broken(rng):
        raise ValueError("a photo could not be cut")

    with pytest.raises(ValueError, match="could not be cut"):
        list(forked(broken, 5, seed=5, stream=10, workers=2))


def test_a_batch_that_cannot_be_made_stops_the_training_with_its_error():
    from vision.batches import ahead

    def make():
        raise ValueError("a photo could not be cut")

    with pytest.raises(ValueError, match="could not be cut"):
        list(ahead(make, 5))
