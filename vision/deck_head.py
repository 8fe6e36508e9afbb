"""A per-deck linear head: a softmax layer over the classifier's embeddings, fitted at enrolment time.

Nearest prototypes treat every embedding dimension alike; a linear head fitted on many camera-like views
of the user's own cards learns which directions separate *this* deck's cards (its spade from its
bastoni, its 8 from its 9), which is where an unseen regional deck goes wrong. It is fitted with
Nesterov-momentum gradient descent in numpy (no torch at run time), from zero weights, so the same views
give the same head. Plain gradient descent with the same 300 steps left the head underfit: on six
held-out decks momentum read 99.1% of the uncovered cards against 98.8% from the same views
(``models/NOTEBOOK.md``), in the same fitting time; plain descent needed 1,000 steps at twice the rate
to come as near.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classifier import softmax

SCALE = 16.0  # the base model's cosine-logit scale: embeddings are unit vectors
STEPS = 300
LEARNING_RATE = 0.5
WEIGHT_DECAY = 1e-3
MOMENTUM = 0.9


@dataclass(frozen=True, eq=False)  # holds arrays
class LinearHead:
    """``weights`` ``[D, K]`` and ``bias`` ``[K]`` over K enrolled classes."""

    weights: np.ndarray
    bias: np.ndarray

    def probabilities(self, embeddings: np.ndarray) -> np.ndarray:
        """``[N, K]``: softmax of ``SCALE * embeddings @ weights + bias``."""
        return softmax(SCALE * embeddings.astype(np.float32) @ self.weights + self.bias)


def fit_head(embeddings: np.ndarray, targets: np.ndarray, classes: int) -> LinearHead:
    """Fit a softmax layer: ``embeddings`` ``[N, D]``, ``targets`` ``[N]`` class indices below ``classes``."""
    if embeddings.ndim != 2 or len(embeddings) != len(targets) or not len(targets):
        raise ValueError(f"need [N, D] embeddings and N targets, got {embeddings.shape} and {len(targets)}")
    if targets.min() < 0 or targets.max() >= classes:
        raise ValueError(f"targets must lie in 0..{classes - 1}, got {targets.min()}..{targets.max()}")
    x = embeddings.astype(np.float32)
    one_hot = np.eye(classes, dtype=np.float32)[targets]
    weights = np.zeros((x.shape[1], classes), np.float32)
    bias = np.zeros(classes, np.float32)
    weights_velocity, bias_velocity = np.zeros_like(weights), np.zeros_like(bias)
    for _ in range(STEPS):
        ahead = LinearHead(weights + MOMENTUM * weights_velocity, bias + MOMENTUM * bias_velocity)
        error = (ahead.probabilities(x) - one_hot) / len(x)
        weights_velocity = MOMENTUM * weights_velocity - LEARNING_RATE * (
            SCALE * x.T @ error + WEIGHT_DECAY * ahead.weights)
        bias_velocity = MOMENTUM * bias_velocity - LEARNING_RATE * error.sum(axis=0)
        weights += weights_velocity
        bias += bias_velocity
    return LinearHead(weights, bias)
