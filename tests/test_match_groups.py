"""A match's deals read together (vision.match_groups): each card's appearances grouped by how they look,
the groups named together; known answers, the rule's limits, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CARD_CODES, CLASS_LABELS
from vision.classifier import Prediction, predictions_from
from vision.match_groups import group_deals, read_match

LABELS = ("1c", "2c", "3c", "back", "none")


def _deal(rows: list[tuple[int, dict[str, float]]], dimensions: int = 8, noise: float = 0.0,
          seed: int = 0) -> list[Prediction]:
    """Predictions of crops whose embedding is (near) the unit vector of their true card's index and
    whose probabilities are given; what a row does not name shares the rest of its mass."""
    rng = np.random.default_rng(seed)
    embeddings = np.zeros((len(rows), dimensions), np.float32)
    probabilities = np.zeros((len(rows), len(LABELS)), np.float32)
    for r, (card, named) in enumerate(rows):
        embeddings[r, card] = 1.0
        embeddings[r] += noise * rng.normal(size=dimensions)
        rest = [i for i, label in enumerate(LABELS) if label not in named]
        for label, p in named.items():
            probabilities[r, LABELS.index(label)] = p
        probabilities[r, rest] = (1.0 - sum(named.values())) / len(rest)
    embeddings /= np.linalg.norm(embeddings, axis=1, keepdims=True)
    return predictions_from(probabilities, embeddings, LABELS, top_k=2)


def test_a_card_misread_in_one_deal_is_named_by_its_other_appearances() -> None:
    # Card 0 (1c) and card 1 (2c): in the first deal both read right; in the second the 2c reads as
    # 1c and the 1c as 2c, a little. Deal by deal the second stays wrong; grouped, both are right.
    first = _deal([(0, {"1c": 0.8}), (1, {"2c": 0.8})])
    second = _deal([(1, {"1c": 0.5, "2c": 0.3}), (0, {"2c": 0.45, "1c": 0.35})])
    assert [p.card for p in second] == ["1c", "2c"]
    assert [g.tolist() for g in group_deals([first, second])] == [[0, 1], [1, 0]]
    revised = read_match([first, second], LABELS)
    assert [[p.card for p in deal] for deal in revised] == [["1c", "2c"], ["2c", "1c"]]
    assert revised[1][0].confidence == pytest.approx(0.3) and revised[1][0].top[0][0] == "1c"


def test_a_card_an_incomplete_deal_did_not_show_opens_a_group() -> None:
    first = _deal([(0, {"1c": 0.9})])
    second = _deal([(2, {"3c": 0.9}), (0, {"1c": 0.9})])
    assert [g.tolist() for g in group_deals([first, second])] == [[0], [1, 0]]
    assert [[p.card for p in deal] for deal in read_match([first, second], LABELS)] == [["1c"], ["3c", "1c"]]


def test_no_more_groups_than_cards() -> None:
    rng = np.random.default_rng(1)
    deals = []
    for _ in range(3):  # 40 crops each, embeddings all unlike each other: only the first opens groups
        embeddings = rng.normal(size=(40, 64)).astype(np.float32)
        embeddings /= np.linalg.norm(embeddings, axis=1, keepdims=True)
        probabilities = rng.dirichlet(np.ones(len(CLASS_LABELS)), size=40).astype(np.float32)
        deals.append(predictions_from(probabilities, embeddings, CLASS_LABELS))
    groups = group_deals(deals)
    assert max(int(g.max()) for g in groups) == len(CARD_CODES) - 1
    assert all(len(set(g.tolist())) == 40 for g in groups)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=6), st.integers(0, 2**32 - 1))
def test_two_crops_of_one_deal_never_share_a_group(sizes: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    deals = []
    for size in sizes:
        cards = rng.choice(8, size=size, replace=False)
        deals.append(_deal([(int(c), {}) for c in cards], noise=0.3, seed=int(rng.integers(1000))))
    groups = group_deals(deals)
    assert [len(g) for g in groups] == sizes
    assert all(len(set(g.tolist())) == len(g) for g in groups)
    revised = read_match(deals, LABELS)
    assert [len(deal) for deal in revised] == sizes


def test_no_deals_and_empty_deals() -> None:
    assert group_deals([]) == [] and read_match([], LABELS) == []
    assert [len(d) for d in read_match([[], []], LABELS)] == [0, 0]


def test_a_deal_of_more_crops_than_cards_is_refused() -> None:
    embeddings = np.eye(41, 64, dtype=np.float32)
    uniform = np.full((41, len(CLASS_LABELS)), 1 / len(CLASS_LABELS), np.float32)
    too_many = predictions_from(uniform, embeddings, CLASS_LABELS)
    with pytest.raises(ValueError, match="deal 1 has 41 crops; a deal holds each of the 40 cards once"):
        group_deals([too_many[:3], too_many])
