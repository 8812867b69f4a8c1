"""DOG's options: one field per alternative ruling in rules/dog.md, the documented default first."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..base import Options, about
from ..errors import BadOptions

HANDS = ("entered", "laid")
LAYOUTS = ("3x2", "2x3")


@dataclass(frozen=True)
class DogOptions(Options):
    """`hands`: "entered", each phone enters the cards dealt to its seat and gives its exchange card
    through the companion (forced play and folding are checked), or "laid", the game runs without hands
    and each card is entered as it is laid; `canadian_seven`: any 7 may also move the partner's marbles
    (2.6); `joker_ban`: a Joker may not bring a team's 8th marble home (2.6); `jack_without_effect`: a
    player with no other play may lay a Jack that has no swap without effect (D5) rather than fold;
    `dealer`: the seat that deals first (the next seat starts round 1; by default the last seat);
    `rotate_dealer`: the deal passes on each round (the issue's reading) instead of one dealer for the
    whole game (2.3). Who starts each round rotates either way (D11). `teams`: six players play as three
    pairs, partners opposite ("3x2"), or two teams of three, every second seat ("2x3"); the rulings give
    no default (2.6): "3x2" is chosen because it keeps the four-player game's teams (partners opposite,
    one partner to exchange with and to play for). Ignored for other player counts: 4 play in two pairs,
    2, 3 and 5 each for themselves."""

    hands: str = field(default="entered", metadata=about(
        "Cards in hand", "Whether each phone knows its hand (forced play and folding are checked).",
        {"entered": "each phone types the cards dealt to it",
         "laid": "no hands: type each card as it is laid"}))
    canadian_seven: bool = field(default=False, metadata=about(
        "Canadian 7", "Any 7 may also move the partner's marbles (2.6)."))
    joker_ban: bool = field(default=False, metadata=about(
        "Joker ban", "A Joker may not bring a team's last marble home (2.6)."))
    jack_without_effect: bool = field(default=True, metadata=about(
        "Jack without effect", "With no other play, a Jack that has no swap is laid without effect (D5)."))
    dealer: int = field(default=3, metadata=about(
        "First dealer", "The seat that deals first (the next seat starts round 1); by default the last."))
    rotate_dealer: bool = field(default=False, metadata=about(
        "Rotate the dealer", "The deal passes on each round instead of one dealer for the whole game."))
    teams: str = field(default="3x2", metadata=about(
        "Six players' teams", "Six players: three pairs, partners opposite, or two teams of three (2.6).",
        {"3x2": "three pairs, partners opposite", "2x3": "two teams of three, every second seat"}))

    def check(self) -> None:
        """Raise BadOptions with a readable reason when a value does not fit."""
        if self.hands not in HANDS:
            raise BadOptions(f"hands is one of {', '.join(HANDS)}, not {self.hands!r}")
        for flag in ("canadian_seven", "joker_ban", "jack_without_effect", "rotate_dealer"):
            if type(getattr(self, flag)) is not bool:
                raise BadOptions(f"option {flag} is true or false")
        if self.teams not in LAYOUTS:
            raise BadOptions(f"teams is one of {', '.join(LAYOUTS)}, not {self.teams!r}")
        if type(self.dealer) is not int or not 0 <= self.dealer < 6:
            raise BadOptions("dealer is a seat number, 0 to 5")
