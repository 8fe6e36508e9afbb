"""Pictures of a sorted deck, taken one after the other: which card each one is, from their order.

A player enrolling a deck (``tressette enroll --in-order``) sorts it and photographs the cards one
after the other, so the pictures need no names. The rule (``most_probable_order``): the 40 pictures,
in their order, are the four suits one after the other, each from the Asso to the Re (Asso, 2 ... 7,
Fante, Cavallo, Re) or each from the Re to the Asso; the suits may come in any of their 24 orders.
Of those 48 orders the one under which the classifier finds the pictures most probable (the sum of
the log probabilities of each picture being its card) is taken. Telling the suit of a card is what
even a deck the model never saw is read best by, and a whole suit of ten pictures decides each place.
A deck photographed twice, in the same order both times, is 80 pictures: the order is the one under
which all of them are most probable.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.cards import RANKS, SUITS
from vision.distinct import log_probabilities

CARDS_IN_ORDER = len(SUITS) * len(RANKS)
# Under this margin (summed log probability per picture over the next best order) the order is
# unsure. Measured (models/NOTEBOOK.md, "A sorted deck needs no names"): decks the model knows and
# unseen French designs 1.2-4.3, an unseen Siciliane 1.2-1.3; an unseen Sarde 0.005-0.27, whose
# spade and bastoni it cannot tell apart (three of eight photographed orders wrong, by 0.05-0.12).
UNSURE_MARGIN = 0.5


@dataclass(frozen=True)
class DeckOrder:
    """One way a sorted deck can lie: its suits in order, and its ranks rising (Asso first) or not."""

    suits: tuple[str, ...]
    ascending: bool

    @property
    def codes(self) -> tuple[str, ...]:
        """The card code of each picture, in the pictures' order."""
        ranks = RANKS if self.ascending else tuple(reversed(RANKS))
        return tuple(f"{rank}{suit}" for suit in self.suits for rank in ranks)


STANDARD_ORDER = DeckOrder(SUITS, True)
ORDERS: tuple[DeckOrder, ...] = tuple(
    DeckOrder(suits, ascending) for suits in itertools.permutations(SUITS) for ascending in (True, False))


def orders_of_suits(suits: Sequence[str]) -> tuple[DeckOrder, ...]:
    """The two orders of a deck sorted with its suits in the order given: ranks up, ranks down."""
    return (DeckOrder(tuple(suits), True), DeckOrder(tuple(suits), False))


@dataclass(frozen=True)
class OrderReading:
    """The most probable order of the pictures, the next most probable, and how much more probable
    the first is: ``margin``, the difference of their summed log probabilities, per picture."""

    order: DeckOrder
    runner_up: DeckOrder
    margin: float

    @property
    def codes(self) -> tuple[str, ...]:
        return self.order.codes

    @property
    def is_unsure(self) -> bool:
        return self.margin < UNSURE_MARGIN


def most_probable_order(probabilities: np.ndarray, labels: Sequence[str],
                        orders: Sequence[DeckOrder] = ORDERS) -> OrderReading:
    """The order (module docstring) of ``orders`` (two at least) under which the pictures, read as
    ``probabilities`` ``[40 * passes, len(labels)]`` in their order, are most probable: the 40 cards,
    or the deck photographed ``passes`` times in the same order. Raises ValueError for another number
    of pictures or a matrix whose columns are not ``labels``."""
    matrix = np.asarray(probabilities, dtype=np.float64)
    if (matrix.ndim != 2 or not matrix.shape[0] or matrix.shape[0] % CARDS_IN_ORDER
            or matrix.shape[1] != len(labels)):
        raise ValueError(f"the pictures of a sorted deck are {CARDS_IN_ORDER} (or {2 * CARDS_IN_ORDER}, the "
                         f"deck photographed twice), read over {len(labels)} labels; got probabilities of "
                         f"shape {list(matrix.shape)}")
    passes = matrix.shape[0] // CARDS_IN_ORDER
    log_p = log_probabilities(matrix)
    column = {label: i for i, label in enumerate(labels)}
    rows = np.arange(matrix.shape[0])
    totals = np.array([log_p[rows, [column[code] for code in order.codes * passes]].sum()
                       for order in orders])
    best, runner_up = (int(i) for i in np.argsort(-totals, kind="stable")[:2])
    margin = float(totals[best] - totals[runner_up]) / matrix.shape[0]
    return OrderReading(orders[best], orders[runner_up], margin)
