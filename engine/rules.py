"""Rule options and the nine presets of RULES.md, as one immutable value.

A match's rules are a preset plus overrides, exactly as the game record's header
writes them: ``{"preset": "accuso", "target": 41}``. ``Rules.from_mapping`` reads
that object and refuses anything RULES.md does not allow with a ``RuleError`` that
names the key and the value; ``Rules.to_mapping`` writes it back (every option,
so that a record states its rules in full).

Seats are numbered in playing order, so ``direction`` only tells the table which
way the play turns; the engine's logic never needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from engine.errors import Message, RuleError

SideSpec = tuple[tuple[int, ...], ...]

ACCUSO_MODES = ("off", "mandatory", "declared")
ACCUSO_WINDOWS = ("first_trick", "first_three_tricks", "any_own_turn")
WIN_MODES = ("end_of_hand", "immediate")
CAPPOTTO_MODES = ("none", "match", "games")
LAST_TRICK_MODES = ("point", "third")
FIRST_LEAD_MODES = ("after_dealer", "four_of_denari")
DIRECTIONS = ("counterclockwise", "clockwise")
SCORING_MODES = ("points", "hands", "avoid")
SIDE_MODES = ("alone", "called", "dummy")
FOUR_OF_A_KIND_VALUES = (4, 3)

# Targets RULES.md names: 21 without accusi, 31 with them.
TARGET_PLAIN = 21
TARGET_WITH_ACCUSI = 31


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of RULES.md. Build one with ``Rules.from_mapping`` (validated) or from ``PRESETS``.

    - ``seats``: seats in the record (2, 4 or 5; morto has four, the dummy included).
    - ``sides``: the fixed sides as seat tuples, or ``"alone"`` (each plays alone), ``"called"``
      (chiamata del tre: the first player + the holder of the called 3) or ``"dummy"`` (morto: the first
      player + the dummy against the other two).
    - ``dummy``: the dummy's seat when ``sides == "dummy"``.
    - ``drawing``: two players only: ``True`` = draw from the stock after each trick, ``False`` = two deals
      of ten each played out. Either way one hand is 20 tricks.
    - ``accuso``: ``off`` | ``mandatory`` | ``declared``; ``accuso_window`` when declarations are accepted;
      ``accuso_after_draw`` (with drawing: also after each own draw); ``accuso_second_deal`` (two deals:
      also the second deal's combinations); ``four_of_a_kind``: 4 or 3 points for four of a kind.
    - ``target``; ``win``: ``end_of_hand`` | ``immediate``; ``claim``: claims allowed (right wins, wrong
      loses); ``cappotto``: ``none`` | ``match`` | ``games``.
    - ``last_trick``: ``point`` (+1, fractions dropped) | ``third`` (+1/3, leftover thirds to its taker).
    - ``first_lead``: ``after_dealer`` | ``four_of_denari`` (first hand of the match only).
    - ``direction``: ``counterclockwise`` | ``clockwise`` (the table's layout; play follows seat order).
    - ``renounce_penalty``: a proven renounce loses the hand 11 to 0 (otherwise it is only flagged).
    - ``scoring``: ``points`` (card points to the target), ``hands`` (each hand won +1, lost -1; the
      dummy's partner +2/-2), ``avoid`` (traversone: take as few points as possible; first to the target
      loses).
    """

    preset: str = "classic"
    seats: int = 4
    sides: SideSpec | str = ((0, 2), (1, 3))
    dummy: int | None = None
    drawing: bool = False
    accuso: str = "off"
    accuso_window: str = "first_trick"
    accuso_after_draw: bool = False
    accuso_second_deal: bool = False
    four_of_a_kind: int = 4
    target: int = TARGET_PLAIN
    win: str = "end_of_hand"
    claim: bool = False
    cappotto: str = "none"
    last_trick: str = "point"
    first_lead: str = "after_dealer"
    direction: str = "counterclockwise"
    renounce_penalty: bool = False
    scoring: str = "points"

    @property
    def has_accusi(self) -> bool:
        return self.accuso != "off"

    @property
    def tricks_per_hand(self) -> int:
        """Tricks in one hand: 40 cards shared among the seats (two players play 20 tricks)."""
        return 40 // self.seats

    @property
    def cards_per_deal(self) -> int:
        """Cards each seat receives in a deal: 10, or 8 with five players."""
        return 10 if self.seats == 2 else 40 // self.seats

    @property
    def plays_alone(self) -> bool:
        return self.sides == "alone"

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> Rules:
        """The record header's ``rules`` object: a preset (default ``classic``), then every other key
        overriding it. Raises ``RuleError`` naming an unknown key, an unknown preset or a bad value."""
        if not isinstance(mapping, Mapping):
            raise RuleError(Message(
                f"rules must be an object like {{\"preset\": \"classic\"}}, got {mapping!r}",
                f"le regole sono un oggetto come {{\"preset\": \"classic\"}}, non {mapping!r}"))
        preset_name = mapping.get("preset", "classic")
        if not isinstance(preset_name, str) or preset_name not in PRESETS:
            raise _bad(f"unknown preset {preset_name!r} (known: {', '.join(PRESETS)})",
                       f"preset sconosciuto {preset_name!r} (quelli noti: {', '.join(PRESETS)})")
        base = PRESETS[preset_name]
        changes: dict[str, Any] = {}
        for key, value in mapping.items():
            if key == "preset":
                continue
            if key not in _PARSERS:
                raise _bad(f"unknown option {key!r} = {value!r} (known: {', '.join(_PARSERS)})",
                           f"opzione sconosciuta {key!r} = {value!r} (quelle note: {', '.join(_PARSERS)})")
            changes[key] = _PARSERS[key](key, value)
        if "accuso" in changes and "target" not in changes:
            # RULES.md: the default target is 21 without accusi and 31 with them.
            turned_on = changes["accuso"] != "off" and not base.has_accusi
            turned_off = changes["accuso"] == "off" and base.has_accusi
            if turned_on and base.target == TARGET_PLAIN:
                changes["target"] = TARGET_WITH_ACCUSI
            elif turned_off and base.target == TARGET_WITH_ACCUSI:
                changes["target"] = TARGET_PLAIN
        if "seats" in changes and "sides" not in changes and isinstance(base.sides, tuple):
            changes["sides"] = default_sides(changes["seats"])
        rules = replace(base, **changes)
        rules.check()
        return rules

    def to_mapping(self) -> dict[str, Any]:
        """Every option as the record header writes it; ``Rules.from_mapping`` reads it back equal."""
        out: dict[str, Any] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name == "sides" and isinstance(value, tuple):
                value = [list(side) for side in value]
            out[item.name] = value
        return out

    def check(self) -> None:
        """Raise ``RuleError`` when options contradict each other (naming the options and values)."""
        _check_seats_and_sides(self)
        if self.scoring == "avoid" and self.has_accusi:
            raise _bad(f"accuso = {self.accuso!r} but there are no accusi when avoiding points "
                       "(scoring = 'avoid')",
                       f"accuso = {self.accuso!r}, ma chi evita i punti non accusa (scoring = 'avoid')")
        if self.claim and (self.scoring != "points" or not isinstance(self.sides, tuple)
                           or len(self.sides) != 2):
            raise _bad("claim = true needs two fixed sides scoring points "
                       f"(sides = {self.sides!r}, scoring = {self.scoring!r})",
                       "claim = true vuole due squadre fisse che contano i punti "
                       f"(sides = {self.sides!r}, scoring = {self.scoring!r})")
        if self.sides == "called" and self.first_lead == "four_of_denari":
            raise _bad("first_lead = 'four_of_denari' cannot go with sides = 'called': the first "
                       "player calls before anyone has led",
                       "first_lead = 'four_of_denari' non va con sides = 'called': il primo di mano "
                       "chiama prima che qualcuno apra")
        if self.drawing and self.seats != 2:
            raise _bad(f"drawing = true is for two players, but seats = {self.seats}",
                       f"drawing = true è per due giocatori, ma seats = {self.seats}")
        if self.cappotto != "none" and self.scoring != "points":
            raise _bad(f"cappotto = {self.cappotto!r} needs scoring = 'points', got {self.scoring!r}",
                       f"cappotto = {self.cappotto!r} vuole scoring = 'points', non {self.scoring!r}")


def default_sides(seats: int) -> SideSpec:
    """Fixed sides by seat count: 0+2 / 1+3 with four, one each with two, 0+2 / 1+3+4 with five."""
    if seats == 2:
        return ((0,), (1,))
    if seats == 4:
        return ((0, 2), (1, 3))
    if seats == 5:
        return ((0, 2), (1, 3, 4))
    raise _bad_seats("seats", seats)


def _check_seats_and_sides(rules: Rules) -> None:
    seats = rules.seats
    if isinstance(rules.sides, tuple):
        flat = sorted(seat for side in rules.sides for seat in side)
        if flat != list(range(seats)) or len(rules.sides) != 2 or any(not side for side in rules.sides):
            shown = [list(side) for side in rules.sides]
            raise _bad(f"sides = {shown!r} must split seats 0..{seats - 1} into two sides, each seat once",
                       f"sides = {shown!r} deve dividere i posti 0..{seats - 1} in due squadre, "
                       "ogni posto una volta")
    if rules.scoring == "avoid" and rules.sides != "alone":
        raise _bad(f"scoring = 'avoid' (traversone) is played each alone: sides = 'alone', "
                   f"not {rules.sides!r}; two sides need scoring = 'points' or 'hands'",
                   f"scoring = 'avoid' (traversone) si gioca ognuno per sé: sides = 'alone', "
                   f"non {rules.sides!r}; due squadre vogliono scoring = 'points' o 'hands'")
    if rules.sides == "alone" and rules.scoring != "avoid":
        raise _bad(f"sides = 'alone' is for avoiding points (traversone); scoring = {rules.scoring!r}",
                   f"sides = 'alone' è per chi evita i punti (traversone); scoring = {rules.scoring!r}")
    if rules.sides == "dummy":
        if seats != 4:
            raise _bad(f"sides = 'dummy' (morto) needs 4 seats, the dummy included; seats = {seats}",
                       f"sides = 'dummy' (morto) vuole 4 posti, il morto compreso; seats = {seats}")
        if rules.dummy is None or not 0 <= rules.dummy < seats:
            raise _bad(f"dummy = {rules.dummy!r} must be a seat 0..{seats - 1} when sides = 'dummy'",
                       f"dummy = {rules.dummy!r} deve essere un posto 0..{seats - 1} con sides = 'dummy'")
    elif rules.dummy is not None:
        raise _bad(f"dummy = {rules.dummy!r} but sides = {rules.sides!r}; a dummy needs sides = 'dummy'",
                   f"dummy = {rules.dummy!r} ma sides = {rules.sides!r}; il morto vuole sides = 'dummy'")
    if rules.sides == "called" and seats != 4:
        raise _bad(f"sides = 'called' (chiamata del tre) needs 4 seats; seats = {seats}",
                   f"sides = 'called' (chiamata del tre) vuole 4 posti; seats = {seats}")
    if rules.scoring == "hands" and rules.sides == "alone":
        raise _bad("scoring = 'hands' needs two sides, got sides = 'alone'",
                   "scoring = 'hands' vuole due squadre, non sides = 'alone'")
    if rules.scoring == "points" and rules.sides in ("called", "dummy"):
        raise _bad(f"sides = {rules.sides!r} changes every hand, so it scores by hands won "
                   "(scoring = 'hands'), not 'points'",
                   f"con sides = {rules.sides!r} le squadre cambiano a ogni mano, quindi si contano le mani "
                   "vinte (scoring = 'hands'), non i punti ('points')")
    if seats not in (2, 4, 5):
        default_sides(seats)


def _bad(english: str, italian: str) -> RuleError:
    """A rule error, its text headed by the word for the record header's ``rules`` object."""
    return RuleError(Message("rules: " + english, "regole: " + italian))


def _bad_seats(key: str, value: Any) -> RuleError:
    return _bad(f"{key} = {value!r}: Tressette is played by 2, 4 or 5 seats "
                "(three players play col morto, with the dummy as a fourth seat)",
                f"{key} = {value!r}: a Tressette si gioca in 2, 4 o 5 posti "
                "(in tre si gioca col morto, che fa da quarto posto)")


def _choice(options: tuple[Any, ...]) -> Any:
    def parse(key: str, value: Any) -> Any:
        if isinstance(value, bool) or value not in options:
            raise _bad(f"{key} = {value!r} is not one of {', '.join(map(repr, options))}",
                       f"{key} = {value!r} non è uno di {', '.join(map(repr, options))}")
        return value
    return parse


def _flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad(f"{key} = {value!r} must be true or false", f"{key} = {value!r} deve essere true o false")
    return value


def _positive_int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _bad(f"{key} = {value!r} must be a whole number of at least 1",
                   f"{key} = {value!r} deve essere un numero intero di almeno 1")
    return value


def _seats(key: str, value: Any) -> int:
    seats = _positive_int(key, value)
    if seats not in (2, 4, 5):
        raise _bad_seats(key, value)
    return seats


def _accuso(key: str, value: Any) -> str:
    if value is True:
        return "mandatory"
    if value is False:
        return "off"
    return _choice(ACCUSO_MODES)(key, value)


def _sides(key: str, value: Any) -> SideSpec | str:
    if isinstance(value, str):
        return _choice(SIDE_MODES)(key, value)
    if isinstance(value, list | tuple) and all(isinstance(side, list | tuple) for side in value):
        sides = tuple(tuple(seat for seat in side) for side in value)
        if all(isinstance(seat, int) and not isinstance(seat, bool) for side in sides for seat in side):
            return sides
    raise _bad(f"{key} = {value!r} must be a list of seat lists like [[0, 2], [1, 3]], "
               f"or one of {', '.join(map(repr, SIDE_MODES))}",
               f"{key} = {value!r} deve essere una lista di liste di posti come [[0, 2], [1, 3]], "
               f"o uno di {', '.join(map(repr, SIDE_MODES))}")


def _dummy(key: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _bad(f"{key} = {value!r} must be a seat number",
                   f"{key} = {value!r} deve essere il numero di un posto")
    return value


_PARSERS = {
    "seats": _seats,
    "sides": _sides,
    "dummy": _dummy,
    "drawing": _flag,
    "accuso": _accuso,
    "accuso_window": _choice(ACCUSO_WINDOWS),
    "accuso_after_draw": _flag,
    "accuso_second_deal": _flag,
    "four_of_a_kind": _choice(FOUR_OF_A_KIND_VALUES),
    "target": _positive_int,
    "win": _choice(WIN_MODES),
    "claim": _flag,
    "cappotto": _choice(CAPPOTTO_MODES),
    "last_trick": _choice(LAST_TRICK_MODES),
    "first_lead": _choice(FIRST_LEAD_MODES),
    "direction": _choice(DIRECTIONS),
    "renounce_penalty": _flag,
    "scoring": _choice(SCORING_MODES),
}

_CLASSIC = Rules()

PRESETS: dict[str, Rules] = {
    "classic": _CLASSIC,
    "accuso": replace(_CLASSIC, preset="accuso", accuso="mandatory", target=TARGET_WITH_ACCUSI),
    "fitres": replace(_CLASSIC, preset="fitres", cappotto="match", win="immediate", claim=True),
    "due": replace(_CLASSIC, preset="due", seats=2, sides=((0,), (1,)), drawing=True),
    "due-senza": replace(_CLASSIC, preset="due-senza", seats=2, sides=((0,), (1,)), drawing=False),
    "morto": replace(_CLASSIC, preset="morto", sides="dummy", dummy=3, scoring="hands"),
    "chiamata": replace(_CLASSIC, preset="chiamata", sides="called", scoring="hands"),
    "cinque": replace(_CLASSIC, preset="cinque", seats=5, sides=((0, 2), (1, 3, 4))),
    "traversone": replace(_CLASSIC, preset="traversone", sides="alone", scoring="avoid"),
}
