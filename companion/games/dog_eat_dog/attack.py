"""One attack, from its declaration to its outcome: the rolls it asks for and what it does to the table.

An attack is declared (`{"type": "attack", "attacker": id, "target": id, "treehouse": bool}`), then the
attacker rolls once, then each defender rolls its own dice top down until one of them beats that result
or all are beaten (rules 1.5). The state keeps the attack under way in `state["attack"]`.
"""

from __future__ import annotations

from ..dice import D6, TREEHOUSE, DieRequest, RollRequest
from ..errors import IllegalAction
from .odds import attacker_wins_duel
from .pieces import CAPTURED, IN_STACK, TIPPED, listing
from .table import attacker_problem, attackers, name, owner_name, seat_of, stack_of, target_problem, targets

State = dict
Event = dict

ATTACK_TAG = "attack"
DEFENCE_TAG = "defence"


def attack_actions(state: State, seat: int) -> list[dict]:
    """Every attack the seat may declare now (with the Treehouse option, medium and large may use the die)."""
    use_die = state["options"]["treehouse"]
    own, other = attackers(state, seat), targets(state, seat)
    actions = []
    for attacker in own:
        choices = (False, True) if use_die and state["pyramids"][attacker]["size"] > 1 else (False,)
        for target in other:
            for treehouse in choices:
                action = {"type": "attack", "attacker": attacker, "target": target}
                if use_die:
                    action["treehouse"] = treehouse
                actions.append(action)
    return actions


def declare(state: State, seat: int, action: dict) -> list[Event]:
    """Check an attack and ask for the attacker's roll; raise IllegalAction with the reason if not legal."""
    attacker, target, treehouse = action["attacker"], action["target"], action.get("treehouse", False)
    problem = attacker_problem(state, seat, attacker) or target_problem(state, seat, target)
    if problem:
        raise IllegalAction(problem)
    if treehouse and not state["options"]["treehouse"]:
        raise IllegalAction("this game is played without the Treehouse die (option treehouse)")
    if treehouse and state["pyramids"][attacker]["size"] == 1:
        raise IllegalAction("a small pyramid cannot use the Treehouse die: it must still roll one d6")
    stack = stack_of(state, target)
    defenders = list(reversed(stack)) if stack else [target]
    state["attack"] = {
        "attacker": attacker, "target": target, "treehouse": treehouse, "stack": stack is not None,
        "defenders": defenders, "result": None, "face": None, "beaten": 0,
    }
    state["roll"] = _attack_request(state, seat).to_json()
    what = name(state, target)
    if stack:
        what = f"the stack under {what} ({len(defenders)} pyramids)"
    player = state["players"][seat]["name"]
    text = f"{player} attacks {what} with {name(state, attacker)}"
    text += " and the Treehouse die." if treehouse else "."
    return [{"type": "attack", "text": text, "attacker": attacker, "target": target, "treehouse": treehouse}]


def _dice_words(count: int) -> str:
    return "1 die" if count == 1 else f"{count} dice"


def _attack_request(state: State, seat: int) -> RollRequest:
    attack = state["attack"]
    pips = state["pyramids"][attack["attacker"]]["size"]
    d6 = pips - 1 if attack["treehouse"] else pips
    dice = (DieRequest(D6),) * d6 + ((DieRequest(TREEHOUSE),) if attack["treehouse"] else ())
    words = _dice_words(d6) + (" and the Treehouse die" if attack["treehouse"] else "")
    reason = f"{state['players'][seat]['name']}: {words} for {name(state, attack['attacker'])}"
    extra = {"attacker": attack["attacker"], "target": attack["target"], "treehouse": attack["treehouse"]}
    return RollRequest(seat, dice, reason, ATTACK_TAG, extra)


def _defence_request(state: State) -> RollRequest:
    attack = state["attack"]
    index, defenders = attack["beaten"], attack["defenders"]
    defender = defenders[index]
    pips = state["pyramids"][defender]["size"]
    seat = seat_of(state, state["pyramids"][defender]["colour"])
    reason = f"{state['players'][seat]['name']}: {_dice_words(pips)} for {name(state, defender)}"
    if attack["stack"]:
        reason += f", defender {index + 1} of {len(defenders)} in the stack"
    extra = {"attacker": attack["attacker"], "defender": defender, "position": index + 1,
             "of": len(defenders)}
    return RollRequest(seat, (DieRequest(D6),) * pips, reason, DEFENCE_TAG, extra)


def on_attack_roll(state: State, values: list) -> tuple[list[Event], bool]:
    """Record the attacker's roll; returns the events and whether the attack is over (TIP or HOP)."""
    attack = state["attack"]
    d6, face = (values[:-1], values[-1]) if attack["treehouse"] else (values, None)
    attack["result"], attack["face"] = max(d6), face
    who = owner_name(state, attack["attacker"])
    shown = ", ".join(str(v) for v in values)
    events = [{"type": "attack_roll", "text": f"{who} rolls {shown}: the attack result is {max(d6)}.",
               "values": values, "result": max(d6), "face": face}]
    if face == "TIP":
        events.append({"type": "treehouse", "face": face,
                       "text": "The Treehouse die shows TIP: the attack fails."})
        return events + _lose(state, attack["defenders"][0]), True
    if face == "HOP":
        events.append({"type": "treehouse", "face": face,
                       "text": "The Treehouse die shows HOP: the attack succeeds."})
        return events + _win(state), True
    state["roll"] = _defence_request(state).to_json()
    return events, False


def on_defence_roll(state: State, values: list) -> tuple[list[Event], bool]:
    """Compare one defender's roll with the attack result; returns the events and whether the attack ended."""
    attack = state["attack"]
    pyramids = state["pyramids"]
    defender = attack["defenders"][attack["beaten"]]
    a_pips, d_pips = pyramids[attack["attacker"]]["size"], pyramids[defender]["size"]
    result, defence = attack["result"], max(values)
    won = attacker_wins_duel(result, a_pips, defence, d_pips)
    shown = ", ".join(str(v) for v in values)
    text = f"{owner_name(state, defender)} rolls {shown} for {name(state, defender)}: "
    text += _duel_words(state, result, defence, attack["attacker"], defender, won)
    events = [{"type": "defence_roll", "text": text, "defender": defender, "values": values,
               "result": defence, "attacker_wins": won}]
    if not won:
        return events + _lose(state, defender), True
    attack["beaten"] += 1
    if attack["beaten"] == len(attack["defenders"]):
        return events + _win(state), True
    state["roll"] = _defence_request(state).to_json()
    return events, False


def _duel_words(state: State, attack: int, defence: int, attacker: str, defender: str, won: bool) -> str:
    winner = name(state, attacker if won else defender)
    if attack != defence:
        return f"{max(attack, defence)} beats {min(attack, defence)}, {winner} wins."
    a_pips, d_pips = state["pyramids"][attacker]["size"], state["pyramids"][defender]["size"]
    if a_pips == d_pips:
        return f"a tie at {attack} between equal pyramids goes to the defender, {winner}."
    return f"a tie at {attack} goes to the pyramid with fewer pips, {winner}."


def _win(state: State) -> list[Event]:
    """The attacker beat every defender: it goes on top, and its owner controls the stack (rules 1.5 a, b)."""
    attack = state["attack"]
    attacker, target = attack["attacker"], attack["target"]
    pyramids = state["pyramids"]
    who = owner_name(state, attacker)
    stack = stack_of(state, target)
    if stack is None:
        pyramids[target]["status"] = IN_STACK
        stack = [target]
        state["stacks"].append(stack)
        text = f"Put {name(state, attacker)} on top of {name(state, target)}: {who} controls the new stack."
    else:
        text = (f"Put {name(state, attacker)} on top of the stack under {name(state, target)}: "
                f"{who} now controls all {len(stack) + 1} pyramids.")
    stack.append(attacker)
    pyramids[attacker]["status"] = IN_STACK
    return [{"type": "attack_won", "text": text, "attacker": attacker, "stack": list(stack)}]


def _lose(state: State, defender: str) -> list[Event]:
    """A defender held: a lone duel tips both pyramids; a stack keeps still and someone takes the attacker."""
    attack = state["attack"]
    attacker = attack["attacker"]
    pyramids = state["pyramids"]
    if not attack["stack"]:
        pyramids[attacker]["status"] = pyramids[defender]["status"] = TIPPED
        both = listing([name(state, attacker), name(state, defender)])
        text = f"Tip both pyramids: {both} are out of play until their owners' next turns."
        return [{"type": "attack_lost", "text": text, "attacker": attacker, "tipped": [attacker, defender]}]
    if state["options"]["stack_captor"] == "controller":
        captor_colour = pyramids[attack["defenders"][0]]["colour"]
    else:
        captor_colour = pyramids[defender]["colour"]
    captor = seat_of(state, captor_colour)
    pyramids[attacker]["status"] = CAPTURED
    pyramids[attacker]["captured_by"] = captor
    who = state["players"][captor]["name"]
    text = f"{who} takes {name(state, attacker)}: set it aside in front of {who}, it scores for {who}."
    return [{"type": "attack_lost", "text": text, "attacker": attacker, "captured_by": captor}]
