"""Readings of crops known to show different cards: the most probable labelling in which no card is
read twice.

A deck laid out card by card, or the cards of one deal, holds each of the 40 cards at most once.
Read alone, two crops of an unfamiliar deck may both be read as the same card; read together, the
better claim keeps it and the other crop falls back to its next most probable card.

The rule (``distinct_labelling``): every crop gets one label of the classifier; no card code
(``engine.cards.CARD_CODES``) goes to two crops, while ``back`` and ``none`` (not cards) go to as many
as they fit. Of all such labellings the one with the greatest sum over the crops of the log
probability of their label is chosen, exactly (an assignment problem, solved by
``scipy.optimize.linear_sum_assignment``). A crop not labelled as a card takes the more probable of
the labels that are not cards. Crops that read as different cards alone keep their readings.

Measured (``models/NOTEBOOK.md``, section "A deal holds each card once"): on decks the model never saw,
the whole deal labelled one-to-one reads more cards right than each crop alone; taking, as each card
lands, the best card not yet taken reads fewer (a wrong early reading takes a later card's label),
so a caller that gets cards one by one labels everything seen so far again with each new card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from scipy.optimize import linear_sum_assignment

from engine.cards import is_card_code
from vision.classifier import Prediction

SMALLEST_PROBABILITY = 1e-12  # a probability of 0 still has a finite cost


def log_probabilities(probabilities: np.ndarray) -> np.ndarray:
    """The log of each probability, in float64, a probability of 0 taken as ``SMALLEST_PROBABILITY``."""
    return np.log(np.maximum(np.asarray(probabilities, dtype=np.float64), SMALLEST_PROBABILITY))


def distinct_labelling(probabilities: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """For each row of ``probabilities`` (``[N, len(labels)]``, each row a distribution over
    ``labels``), the index of its label in the most probable labelling that gives no card code to two
    rows (module docstring). Raises ValueError for a matrix of the wrong shape or with values that are
    not probabilities, and when there are more rows than cards and no label that is not a card."""
    matrix = np.asarray(probabilities, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[1] != len(labels):
        raise ValueError(f"probabilities must be [N, {len(labels)}] (one column per label), "
                         f"got shape {list(matrix.shape)}")
    if matrix.size and not (np.isfinite(matrix).all() and matrix.min() >= 0.0):
        raise ValueError("probabilities must be finite and not negative")
    return distinct_by_scores(log_probabilities(matrix), labels)


def distinct_by_scores(scores: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """``distinct_labelling`` on scores that add up as log probabilities do (``[N, len(labels)]``,
    finite): the labelling with the greatest sum of its rows' scores that gives no card code to two
    rows. A row not labelled as a card takes its best-scored label that is not a card."""
    count = scores.shape[0]
    cards = [i for i, label in enumerate(labels) if is_card_code(label)]
    others = [i for i, label in enumerate(labels) if not is_card_code(label)]
    if count == 0:
        return np.zeros(0, np.int64)
    if not others and count > len(cards):
        raise ValueError(f"{count} crops cannot all be different cards: there are only {len(cards)} cards")
    columns = [scores[:, cards]]
    best_other = np.zeros(count, np.int64)
    if others:
        best_other = np.asarray(others)[np.argmax(scores[:, others], axis=1)]
        # One "not a card" column per crop, each open to every crop: as many crops as need it.
        columns.append(np.repeat(scores[np.arange(count), best_other][:, None], count, axis=1))
    rows, chosen = linear_sum_assignment(-np.concatenate(columns, axis=1))
    result = np.empty(count, np.int64)
    for row, column in zip(rows, chosen, strict=True):
        result[row] = cards[column] if column < len(cards) else best_other[row]
    return result


def read_distinct(predictions: Sequence[Prediction], labels: Sequence[str]) -> list[Prediction]:
    """The predictions of crops that show different cards, revised by ``distinct_labelling``: each
    takes its label there as ``card`` and that label's probability as ``confidence``; ``top`` and the
    embedding stay as read alone (so ``top[0]`` is the reading alone). ``labels`` is the order of each
    prediction's ``probabilities`` (the classifier's ``labels``)."""
    if not predictions:
        return []
    matrix = np.stack([p.probabilities for p in predictions])
    chosen = distinct_labelling(matrix, labels)
    return [replace(p, card=labels[int(i)], confidence=float(p.probabilities[int(i)]))
            for p, i in zip(predictions, chosen, strict=True)]
