"""The 56 hot-item tiles: eleven types, their counts and values (ruling E1), and final scoring (E12).

Item types are short English ids; `NAMES` gives the words the phones show.
"""

from __future__ import annotations

from collections import Counter

#: type -> (tiles in the box, value in points), the 1-point types first.
ITEMS: dict[str, tuple[int, int]] = {
    "bed": (6, 1),
    "heater": (6, 1),
    "ear_muffs": (6, 1),
    "scarf": (6, 1),
    "tea_cup": (6, 1),
    "hot_water_bottle": (6, 1),
    "night_cap": (6, 1),
    "chili_pepper": (4, 2),
    "hot_bath": (4, 2),
    "iron": (3, 3),
    "grill": (3, 3),
}

NAMES = {
    "bed": "bed",
    "heater": "heater",
    "ear_muffs": "ear muffs",
    "scarf": "scarf",
    "tea_cup": "tea cup",
    "hot_water_bottle": "hot-water bottle",
    "night_cap": "night cap",
    "chili_pepper": "chili pepper",
    "hot_bath": "hot bath",
    "iron": "iron",
    "grill": "grill",
}

TOTAL_TILES = sum(count for count, _ in ITEMS.values())  # 56
TRIPLE_BONUS = 3


def value(item: str) -> int:
    """Points of one tile of this type."""
    return ITEMS[item][1]


def full_supply() -> dict[str, int]:
    """Every tile, by type: the face-down supply at setup."""
    return {item: count for item, (count, _) in ITEMS.items()}


def triples(collection: list[str]) -> int:
    """Complete sets of 3 identical items (6 beds are 2 sets)."""
    return sum(n // 3 for n in Counter(collection).values())


def score(collection: list[str]) -> int:
    """Final points: item values plus 3 per set of 3 identical items."""
    return sum(value(item) for item in collection) + TRIPLE_BONUS * triples(collection)
