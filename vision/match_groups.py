"""The deals of one match, played with one deck: each card's appearances grouped, the groups named together.

Deal after deal the same 40 cards come back, and the cards of one deck look far more like themselves
than like each other, even where the model cannot name them (``models/NOTEBOOK.md``, section "A deal
holds each card once": the groups are 97-99% pure on decks it never saw).

The rule (``group_deals``): the first deal's crops open one group each; each later deal's crops join
the groups so far by the assignment with the greatest summed cosine between a crop's embedding and
its group's mean direction, a group taking at most one crop of a deal; while there are fewer groups
than the 40 cards, a crop whose cosine to the group it would join is under ``NEW_GROUP_BELOW`` opens
a group of its own instead (a card that an earlier, incomplete deal did not show). ``read_match``
names the groups one-to-one by their crops' summed log probabilities
(``vision.distinct.distinct_by_scores``) and gives every crop its group's card.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from scipy.optimize import linear_sum_assignment

from engine.cards import CARD_CODES
from vision.classifier import Prediction, l2_normalise
from vision.distinct import distinct_by_scores, log_probabilities

# Matches whose first two deals showed 15 and 25 cards (models/NOTEBOOK.md, "A deal holds each card
# once"): with 0.8 the groups of three decks the model never saw were 92.6-99.4% pure, with 0.5 or 0.7
# 92.8-98.4%. Two photos of one card can be as far apart as 0.72, different cards as close as 0.98.
NEW_GROUP_BELOW = 0.8


def group_deals(deals: Sequence[Sequence[Prediction]], new_group_below: float = NEW_GROUP_BELOW,
                ) -> list[np.ndarray]:
    """For every deal (its crops' predictions, each crop a different card), the group of each crop:
    groups numbered from 0 in the order they open (module docstring). ValueError for a deal of more
    crops than there are cards."""
    sums: list[np.ndarray] = []  # per group, the sum of its crops' embeddings
    groups: list[np.ndarray] = []
    for number, deal in enumerate(deals):
        if len(deal) > len(CARD_CODES):
            raise ValueError(f"deal {number} has {len(deal)} crops; a deal holds each of the "
                             f"{len(CARD_CODES)} cards once at most")
        ids = np.empty(len(deal), np.int64)
        if deal:
            embeddings = np.stack([p.embedding for p in deal]).astype(np.float64)
            existing = len(sums)
            for row, group in enumerate(_join(embeddings, sums, new_group_below)):
                if group < existing:
                    sums[group] = sums[group] + embeddings[row]
                else:
                    group = len(sums)
                    sums.append(embeddings[row].copy())
                ids[row] = group
        groups.append(ids)
    return groups


def _join(embeddings: np.ndarray, sums: list[np.ndarray], new_group_below: float) -> list[int]:
    """The group each crop of one deal joins, ``len(sums)`` or more where it opens a new one."""
    count = len(embeddings)
    if not sums:
        return list(range(count))
    cosines = embeddings @ l2_normalise(np.stack(sums)).T.astype(np.float64)
    # New groups, each open to any crop, while the groups are fewer than the cards of a deck.
    opening = np.full((count, min(count, len(CARD_CODES) - len(sums))), new_group_below)
    rows, columns = linear_sum_assignment(-np.concatenate([cosines, opening], axis=1))
    joined = [0] * count
    for row, column in zip(rows, columns, strict=True):
        joined[row] = int(column)
    return joined


def read_match(deals: Sequence[Sequence[Prediction]], labels: Sequence[str],
               new_group_below: float = NEW_GROUP_BELOW) -> list[list[Prediction]]:
    """The predictions of a match's deals revised together: every crop takes the card its group is
    named (``card``) and the probability it gave that card (``confidence``); ``top`` stays its reading
    alone. ``labels`` is the order of each prediction's ``probabilities``."""
    groups = group_deals(deals, new_group_below)
    flat = [p for deal in deals for p in deal]
    if not flat:
        return [[] for _ in deals]
    ids = np.concatenate(groups)
    scores = np.zeros((int(ids.max()) + 1, len(labels)))
    np.add.at(scores, ids, log_probabilities(np.stack([p.probabilities for p in flat])))
    names = distinct_by_scores(scores, labels)
    revised = [replace(p, card=labels[int(names[g])], confidence=float(p.probabilities[int(names[g])]))
               for p, g in zip(flat, ids, strict=True)]
    starts = np.cumsum([0] + [len(deal) for deal in deals])
    return [revised[a:b] for a, b in itertools.pairwise(starts)]
