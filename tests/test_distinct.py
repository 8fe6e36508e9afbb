"""Crops known to show different cards, labelled one-to-one (vision.distinct): known answers, the
rule checked against every labelling of small cases, and bad input."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CARD_CODES, CLASS_LABELS, is_card_code
from vision.classifier import predictions_from
from vision.distinct import distinct_labelling, read_distinct
from vision.training.evaluate import deal_accuracy

SMALL_LABELS = ("1c", "2c", "3c", "back", "none")


def _rows(*rows: dict[str, float], labels: tuple[str, ...] = SMALL_LABELS) -> np.ndarray:
    """Probability rows over ``labels``; what a row does not name shares the rest of its mass."""
    matrix = np.zeros((len(rows), len(labels)))
    for r, row in enumerate(rows):
        rest = [i for i, label in enumerate(labels) if label not in row]
        for label, p in row.items():
            matrix[r, labels.index(label)] = p
        matrix[r, rest] = (1.0 - sum(row.values())) / max(len(rest), 1)
    return matrix


def _labels_of(matrix: np.ndarray, labels: tuple[str, ...] = SMALL_LABELS) -> list[str]:
    return [labels[i] for i in distinct_labelling(matrix, labels)]


def test_the_stronger_claim_keeps_the_card_and_the_other_takes_its_next() -> None:
    # Both read as 1c alone; the first only just (its second choice, 2c, is close), the second surely.
    # Taking cards in the order they come would give the first 1c and leave the second a poor card.
    matrix = _rows({"1c": 0.5, "2c": 0.4}, {"1c": 0.9, "3c": 0.05})
    assert _labels_of(matrix) == ["2c", "1c"]


def test_crops_read_as_different_cards_keep_their_readings() -> None:
    matrix = _rows({"3c": 0.6}, {"1c": 0.7}, {"2c": 0.4})
    assert _labels_of(matrix) == ["3c", "1c", "2c"]


def test_backs_and_nones_may_repeat() -> None:
    matrix = _rows({"back": 0.9}, {"back": 0.8}, {"none": 0.95}, {"none": 0.7}, {"1c": 0.9})
    assert _labels_of(matrix) == ["back", "back", "none", "none", "1c"]


def test_a_crop_left_without_a_card_takes_the_likelier_of_back_and_none() -> None:
    # Four crops, three cards: the one least sure of a card is not a card, and of back and none it
    # takes the likelier.
    matrix = _rows({"1c": 0.9, "back": 0.02}, {"2c": 0.9, "back": 0.02}, {"3c": 0.9, "back": 0.02},
                   {"1c": 0.5, "2c": 0.2, "3c": 0.2, "back": 0.03, "none": 0.07})
    assert _labels_of(matrix) == ["1c", "2c", "3c", "none"]


def test_more_crops_than_cards_give_every_card_once_with_the_classifier_labels() -> None:
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(45, len(CLASS_LABELS)))
    logits[:, [CLASS_LABELS.index(c) for c in CARD_CODES]] += 4.0  # all of them look like cards
    matrix = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    chosen = [CLASS_LABELS[i] for i in distinct_labelling(matrix, CLASS_LABELS)]
    cards = [label for label in chosen if is_card_code(label)]
    assert sorted(cards) == sorted(CARD_CODES)
    assert len(chosen) - len(cards) == 5


def test_no_crops_no_labels() -> None:
    assert distinct_labelling(np.zeros((0, len(SMALL_LABELS))), SMALL_LABELS).shape == (0,)
    assert read_distinct([], CLASS_LABELS) == []


@pytest.mark.parametrize("matrix, message", [
    (np.ones((2, 3)) / 3, r"must be \[N, 5\].*got shape \[2, 3\]"),
    (np.ones(5) / 5, r"got shape \[5\]"),
    (np.full((1, 5), np.nan), "finite and not negative"),
    (np.array([[1.2, -0.2, 0.0, 0.0, 0.0]]), "finite and not negative"),
])
def test_a_matrix_that_is_not_probabilities_is_refused(matrix: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        distinct_labelling(matrix, SMALL_LABELS)


def test_more_crops_than_cards_and_no_other_label_is_refused() -> None:
    with pytest.raises(ValueError, match="4 crops cannot all be different cards: there are only 3"):
        distinct_labelling(np.full((4, 3), 1 / 3), ("1c", "2c", "3c"))


def _total(matrix: np.ndarray, chosen: list[int]) -> float:
    return sum(math.log(max(matrix[r, c], 1e-12)) for r, c in enumerate(chosen))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_the_labelling_is_the_most_probable_of_those_without_a_repeated_card(count: int, seed: int) -> None:
    matrix = np.random.default_rng(seed).dirichlet(np.full(len(SMALL_LABELS), 0.5), size=count)
    chosen = [int(i) for i in distinct_labelling(matrix, SMALL_LABELS)]
    cards = [SMALL_LABELS[i] for i in chosen if is_card_code(SMALL_LABELS[i])]
    assert len(cards) == len(set(cards))
    valid = [labelling for labelling in itertools.product(range(len(SMALL_LABELS)), repeat=count)
             if len([i for i in labelling if i < 3]) == len({i for i in labelling if i < 3})]
    best = max(_total(matrix, list(labelling)) for labelling in valid)
    assert _total(matrix, chosen) == pytest.approx(best, abs=1e-9)


def test_read_distinct_revises_card_and_confidence_and_keeps_the_reading_alone() -> None:
    matrix = _rows({"1c": 0.5, "2c": 0.4}, {"1c": 0.9, "3c": 0.05}).astype(np.float32)
    alone = predictions_from(matrix, np.eye(2, dtype=np.float32), SMALL_LABELS, top_k=2)
    first, second = read_distinct(alone, SMALL_LABELS)
    assert (first.card, first.confidence) == ("2c", pytest.approx(0.4))
    assert first.top == alone[0].top and first.top[0][0] == "1c"
    assert second == alone[1]


def test_deal_accuracy_labels_each_deal_one_to_one() -> None:
    # Two crops of each of 1c and 2c (per_class 2, in render_eval_set's order: 1c, 1c, 2c, 2c). In
    # deal 0 both read as 1c alone, the 2c less surely; deal 1 reads right alone.
    matrix = _rows({"1c": 0.9}, {"1c": 0.9}, {"1c": 0.5, "2c": 0.45}, {"2c": 0.9})
    predictions = predictions_from(matrix.astype(np.float32), np.eye(4, dtype=np.float32), SMALL_LABELS)
    truth = ["1c", "1c", "2c", "2c"]
    assert [p.card for p in predictions] == ["1c", "1c", "1c", "2c"]
    assert deal_accuracy(predictions, truth, SMALL_LABELS, per_class=2) == 1.0
