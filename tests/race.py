"""A tiny dice race used to test the table session and the web part without a real game's rules.

Each turn the player to move bets on 1 or 2 dice (a decision), rolls them (chance), and adds the pips;
the first to reach `goal` wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games import CHANCE, D6, DieRequest, Game, IllegalAction, Options, RollRequest, register
from companion.games.shapes import Whole


@dataclass(frozen=True)
class RaceOptions(Options):
    goal: int = 12


class Race(Game):
    name = "race"
    title = "Dice race"
    options_type = RaceOptions
    action_shapes = {"bet": {"dice": Whole()}}  # 1 or 2: the rules below say so in their own words

    def new_game(self, players, options=None):
        opts = RaceOptions.from_json(options)
        return {"players": list(players), "scores": [0] * len(players), "turn": 0, "roll": None,
                "goal": opts.goal, "version": 0}

    def current_player(self, state):
        if self.is_over(state):
            return None
        return CHANCE if state["roll"] else state["turn"]

    def legal_actions(self, state):
        if self.is_over(state):
            return []
        if state["roll"]:
            return [{"type": "roll", "values": v} for v in RollRequest.from_json(state["roll"]).outcomes()]
        return [{"type": "bet", "dice": 1}, {"type": "bet", "dice": 2}]

    def is_over(self, state):
        return max(state["scores"]) >= state["goal"]

    def _apply(self, state, action):
        name = state["players"][state["turn"]]
        if action["type"] == "bet":
            if action.get("dice") not in (1, 2):
                raise IllegalAction("bet on 1 or 2 dice")
            dice = tuple(DieRequest(D6) for _ in range(action["dice"]))
            state["roll"] = RollRequest(state["turn"], dice, f"{name}: roll {action['dice']} dice").to_json()
            return [{"type": "bet", "text": f"{name} bets on {action['dice']} dice"}]
        if action["type"] != "roll":
            raise IllegalAction(f"unknown action {action['type']!r}")
        total = sum(action["values"])
        state["scores"][state["turn"]] += total
        state["roll"] = None
        state["turn"] = (state["turn"] + 1) % len(state["players"])
        return [{"type": "moved", "text": f"{name} moves {total}"}]

    def summary(self, state):
        best = max(state["scores"])
        players = zip(state["players"], state["scores"], strict=True)
        return {"scores": state["scores"], "winners": [p for p, s in players if s == best]}


register("race", "tests.race:Race")
