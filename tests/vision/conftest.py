"""Shared helpers of the vision tests: seeded scenes and the path of the real photographs."""

from __future__ import annotations

from pathlib import Path

import pytest

DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "dice"


@pytest.fixture
def datasets() -> Path:
    """The labelled real photos (../shared/datasets/dice next to the repo); skipped when absent."""
    if not (DATASETS / "wood-white-train" / "labels.csv").is_file():
        pytest.skip(f"the real dice photos are not at {DATASETS} (they live in the shared folder)")
    return DATASETS
