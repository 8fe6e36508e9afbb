"""Accusi (declarations): the Napoletana and the Bongioco (RULES.md, "Accusi").

- Napoletana (napoli): Asso, 2 and 3 of one suit: 3 points; it names its suit.
- Bongioco: three Assi, three 2s or three 3s: 3 points, naming the missing suit; all four: 4 points
  (or 3 with ``four_of_a_kind = 3``).

Combinations add up and one card may serve in several (Napoletana of coppe + four 2s = 7;
four Assi + three 2s + Napoletana of denari = 10).

Mandatory accusi are tallied here from what each seat is seen to hold: its cards, with the trick in
which each came into the hand (0 for the deal, later for a drawn card or the second deal) and the trick
in which it was played. A combination counts at a moment when every card of it is in the hand; a
later moment counts it again only if it holds a card not counted before in that kind of combination
(so three 2s, then the fourth 2 drawn, give 3 then 4 more points, as seed 000 describes).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import DECK, SUITS, Card, Suit

HONOURS: tuple[int, ...] = (1, 2, 3)
KIND_NAPOLETANA = "napoletana"
KIND_BONGIOCO = "bongioco"
NAPOLETANA_POINTS = 3
THREE_OF_A_KIND_POINTS = 3


@dataclass(frozen=True, slots=True)
class Combo:
    """One accuso: a Napoletana of ``suit``, or a Bongioco of ``rank`` (``missing`` names the suit that
    is not there for three of a kind; ``None`` for all four)."""

    kind: str
    cards: tuple[Card, ...]
    points: int
    suit: Suit | None = None
    rank: int | None = None
    missing: Suit | None = None

    @property
    def key(self) -> tuple[str, str | int | None]:
        """What makes two combinations 'the same kind': the Napoletana's suit, the Bongioco's rank."""
        return (self.kind, self.suit if self.kind == KIND_NAPOLETANA else self.rank)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        if self.kind == KIND_NAPOLETANA:
            out["suit"] = self.suit
        else:
            out["rank"] = self.rank
            if self.missing is not None:
                out["missing"] = self.missing
        out["cards"] = [card.code for card in self.cards]
        out["points"] = self.points
        return out


def _bit(rank: int, suit: Suit) -> int:
    return 1 << DECK.index(Card(rank, suit))


_NAPOLETANA_MASKS: tuple[tuple[int, Combo], ...] = tuple(
    (sum(_bit(rank, suit) for rank in HONOURS),
     Combo(KIND_NAPOLETANA, tuple(Card(rank, suit) for rank in HONOURS), NAPOLETANA_POINTS, suit=suit))
    for suit in SUITS)
_RANK_MASKS: tuple[tuple[int, int], ...] = tuple(
    (rank, sum(_bit(rank, suit) for suit in SUITS)) for rank in HONOURS)


def _bongioco_table(four_of_a_kind: int) -> dict[int, Combo]:
    """Every three- or four-card set of one honour rank, by its mask, with its Bongioco."""
    table: dict[int, Combo] = {}
    for rank in HONOURS:
        every = tuple(Card(rank, suit) for suit in SUITS)
        all_four = sum(_bit(rank, suit) for suit in SUITS)
        table[all_four] = Combo(KIND_BONGIOCO, every, four_of_a_kind, rank=rank)
        for missing in SUITS:
            three = tuple(card for card in every if card.suit != missing)
            mask = sum(_bit(card.rank, card.suit) for card in three)
            table[mask] = Combo(KIND_BONGIOCO, three, THREE_OF_A_KIND_POINTS, rank=rank, missing=missing)
    return table


_BONGIOCHI: dict[int, dict[int, Combo]] = {value: _bongioco_table(value) for value in (3, 4)}


def combos_of_mask(mask: int, four_of_a_kind: int = 4) -> tuple[Combo, ...]:
    """``combos_in`` for a 40-bit mask of cards (bit i = ``DECK[i]``)."""
    found = [combo for napoli, combo in _NAPOLETANA_MASKS if mask & napoli == napoli]
    table = _BONGIOCHI[four_of_a_kind]
    for _rank, rank_mask in _RANK_MASKS:
        same = mask & rank_mask
        if same in table:
            found.append(table[same])
    return tuple(found)


def combos_in(cards: Iterable[Card], four_of_a_kind: int = 4) -> tuple[Combo, ...]:
    """Every combination these cards hold: each Napoletana, and for each honour rank with three or four
    cards one Bongioco of all of them."""
    mask = 0
    for card in cards:
        mask |= 1 << DECK.index(card)
    return combos_of_mask(mask, four_of_a_kind)


def declared_combos(cards: Sequence[Card], four_of_a_kind: int = 4) -> tuple[Combo, ...] | None:
    """The combinations a declaration names, or ``None`` when its cards are not wholly made of
    combinations (a stray card, a pair, a repeated card)."""
    if len(set(cards)) != len(cards) or len(cards) < 3:
        return None
    combos = combos_in(cards, four_of_a_kind)
    covered = {card for combo in combos for card in combo.cards}
    if not combos or covered != set(cards):
        return None
    return combos


def new_combos(combos: Iterable[Combo], counted: Iterable[Combo]) -> tuple[Combo, ...]:
    """The combinations that count now: those holding a card never counted before in a combination of the
    same kind (same Napoletana suit, same Bongioco rank)."""
    used: dict[tuple[str, str | int | None], set[Card]] = {}
    for combo in counted:
        used.setdefault(combo.key, set()).update(combo.cards)
    return tuple(combo for combo in combos if not set(combo.cards) <= used.get(combo.key, set()))


@dataclass(frozen=True, slots=True)
class HeldCard:
    """A card a seat is known to have held: the trick index it came into the hand (0 = dealt) and the
    trick index it was played in (``None`` while still in the hand, e.g. a drawn card not yet played)."""

    card: Card
    acquired: int
    played: int | None


def tally(held: Sequence[HeldCard], moments: Sequence[int], four_of_a_kind: int = 4) -> tuple[Combo, ...]:
    """Mandatory accusi of one seat: at each moment (a trick index at which accusi may be made, in order),
    the combinations of the cards in the hand then, counted once per new card as ``new_combos`` says."""
    counted: list[Combo] = []
    for moment in moments:
        in_hand = [item.card for item in held
                   if item.acquired <= moment and (item.played is None or item.played >= moment)]
        counted.extend(new_combos(combos_in(in_hand, four_of_a_kind), counted))
    return tuple(counted)
