"""`companion odds GAME ...`: exact probabilities before a roll, the same figures the phones show."""

from __future__ import annotations

import json

from companion.cli import CommandError

SIZES = {"S": 1, "M": 2, "L": 3}


def add_parser(sub) -> None:
    p = sub.add_parser("odds", help="exact odds of an attack or a fight")
    games = p.add_subparsers(dest="game", required=True, metavar="GAME")

    ded = games.add_parser("dog-eat-dog", help="chance that an attack succeeds")
    ded.add_argument("--attacker", required=True, help="the attacking pyramid's size: S, M or L")
    ded.add_argument("--defender", required=True, help="a size, or a stack top first: M,S")
    ded.add_argument("--treehouse", action="store_true", help="the attacker rolls the Treehouse die")
    ded.add_argument("--json", action="store_true", help="print one JSON object")
    ded.set_defaults(handler=run_dog_eat_dog)

    dd = games.add_parser("dice-devils", help="each fighter's chance to win a fight")
    dd.add_argument("--fighters", required=True, help="ranks in the fight: oberteufel,satansbraten")
    dd.add_argument("--known", action="append", default=[], metavar="RANK=V,V[,V]",
                    help="dice already seen (repeatable)")
    dd.add_argument("--json", action="store_true", help="print one JSON object")
    dd.set_defaults(handler=run_dice_devils)


def parse_size(text: str) -> int:
    size = SIZES.get(text.strip().upper())
    if size is None:
        raise CommandError(f"unknown size {text.strip()!r}: use S, M or L")
    return size


def run_dog_eat_dog(args) -> int:
    from companion.games.dog_eat_dog.odds import p_attack_succeeds

    attacker = parse_size(args.attacker)
    parts = [s for s in args.defender.split(",")]
    if not args.defender.strip() or any(not s.strip() for s in parts):
        raise CommandError("the defender needs at least one size, e.g. M or M,S (top first)")
    defenders = [parse_size(s) for s in parts]
    if args.treehouse and attacker == 1:
        raise CommandError("a small pyramid cannot use the Treehouse die: it must still roll one d6")
    p = p_attack_succeeds(attacker, defenders, treehouse=args.treehouse)
    if args.json:
        print(json.dumps({"p_attack_succeeds": float(p)}))
    else:
        print(f"attack succeeds: {float(p):.1%} (exactly {p.numerator}/{p.denominator})")
    return 0


def run_dice_devils(args) -> int:
    from companion.games.dice_devils.odds import RANKS, p_win

    fighters = [f.strip().lower() for f in args.fighters.split(",") if f.strip()]
    for rank in fighters:
        if rank not in RANKS:
            raise CommandError(f"unknown rank {rank!r}; ranks: {', '.join(RANKS)}")
    if len(fighters) < 2 or len(set(fighters)) != len(fighters):
        raise CommandError("a fight needs two or more different ranks")
    known: dict[str, list[int]] = {}
    for item in args.known:
        rank, _, values = item.partition("=")
        rank = rank.strip().lower()
        if rank not in RANKS:
            raise CommandError(f"unknown rank {rank!r} in --known {item}")
        try:
            known[rank] = [int(v) for v in values.split(",")]
        except ValueError:
            raise CommandError(f"--known {item}: dice are whole numbers, e.g. spielteufel=5,6") from None
    try:
        odds = p_win(fighters, known)
    except ValueError as err:
        raise CommandError(str(err)) from None
    if args.json:
        print(json.dumps({"p_win": {rank: float(p) for rank, p in odds.items()}}))
    else:
        for rank, p in odds.items():
            print(f"{rank}: {float(p):.1%}")
    return 0
