"""The per-deck linear head: fitted in numpy, deterministic, and it separates what its views separate."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classifier import l2_normalise
from vision.deck_head import fit_head


def clusters(seed: int, per_class: int = 20, classes: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors scattered around one random centre per class, and their class indices."""
    rng = np.random.default_rng(seed)
    centres = l2_normalise(rng.normal(size=(classes, 16)).astype(np.float32))
    targets = np.repeat(np.arange(classes), per_class)
    points = centres[targets] + 0.075 * rng.normal(size=(len(targets), 16)).astype(np.float32)
    return l2_normalise(points.astype(np.float32)), targets


def test_the_head_reads_fresh_points_of_its_classes() -> None:
    train, targets = clusters(1)
    head = fit_head(train, targets, 5)
    rng = np.random.default_rng(2)
    fresh = l2_normalise(train + 0.05 * rng.normal(size=train.shape).astype(np.float32))
    probabilities = head.probabilities(fresh)
    assert probabilities.shape == (len(train), 5)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, atol=1e-5)
    assert (probabilities.argmax(axis=1) == targets).mean() >= 0.95


def test_the_same_views_make_the_same_head() -> None:
    train, targets = clusters(3)
    first, again = fit_head(train, targets, 5), fit_head(train, targets, 5)
    np.testing.assert_array_equal(first.weights, again.weights)
    np.testing.assert_array_equal(first.bias, again.bias)


@pytest.mark.parametrize(("embeddings", "targets", "message"), [
    (np.zeros((3, 4), np.float32), np.array([0, 1]), r"got \(3, 4\) and 2"),
    (np.zeros((2, 4), np.float32), np.array([0, 5]), r"targets must lie in 0..2, got 0..5"),
    (np.zeros(4, np.float32), np.array([0]), r"need \[N, D\] embeddings"),
])
def test_bad_views_are_refused_with_what_is_wrong(embeddings: np.ndarray, targets: np.ndarray,
                                                  message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit_head(embeddings, targets, 3)


def test_momentum_fits_overlapping_views_closer_than_plain_descent_in_the_same_steps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.deck_head as deck_head

    rng = np.random.default_rng(1)
    centres = l2_normalise(rng.normal(size=(5, 16)).astype(np.float32))
    targets = np.repeat(np.arange(5), 40)
    views = l2_normalise((centres[targets] + 0.35 * rng.normal(size=(200, 16))).astype(np.float32))

    def training_loss() -> float:
        probabilities = fit_head(views, targets, 5).probabilities(views)
        return float(-np.log(probabilities[np.arange(len(targets)), targets]).mean())

    with_momentum = training_loss()
    monkeypatch.setattr(deck_head, "MOMENTUM", 0.0)
    assert with_momentum < 0.5 * training_loss()
