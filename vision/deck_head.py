"""A per-deck linear head: a softmax layer over the classifier's embeddings, fitted at enrolment time.

Nearest prototypes treat every embedding dimension alike; a linear head fitted on many camera-like views
of the user's own cards learns which directions separate *this* deck's cards (its spade from its
bastoni, its 8 from its 9), which is where an unseen regional deck goes wrong. It is fitted with plain
gradient descent in numpy (no torch at run time), from zero weights, so the same views give the same
head.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classifier import softmax

SCALE = 16.0  # the base model's cosine-logit scale: embeddings are unit vectors
STEPS = 300
LEARNING_RATE = 0.5
WEIGHT_DECAY = 1e-3


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
    head = LinearHead(weights, bias)  # shares the arrays, which are updated in place
    for _ in range(STEPS):
        error = (head.probabilities(x) - one_hot) / len(x)
        weights -= LEARNING_RATE * (SCALE * x.T @ error + WEIGHT_DECAY * weights)
        bias -= LEARNING_RATE * error.sum(axis=0)
    return head
