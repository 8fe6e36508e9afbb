"""The card prototypes of the deck styles the model was trained on: a zero-shot nudge towards the
known deck an unseen card most resembles.

A bank holds, for each training style and each class, the unit mean embedding of a few rendered crops
(``prototypes [styles, classes, D]``; ``python -m vision.training.bank`` makes it, and the trainer
writes one beside every model it exports). It lives beside its model as ``cards.bank.npz``
(``bank_path``) and belongs to that model alone (``model_version``).

The rule (``adjust``): each class's similarity is the crop's best cosine to that class's prototypes
over all styles; the head's probabilities are multiplied by the softmax of those similarities at
``temperature`` and renormalised. A crop of a deck the model never saw is thus read a little more like
the known deck it is nearest to: on the held-out twins in ``models/NOTEBOOK.md`` about one point more
of the unseen styles' crops, and the same on the styles the model knows. A crop the head reads at
``revise_below`` or surer is left as it reads it: on the held-out decks measured the bank never changed
such a crop's card, and its product over every prototype is, after the network itself, the costliest
step of reading a card. A deck profile, where the player enrolled the deck, replaces the bank: it
knows that deck better.

The bank also tells a deck the model never saw (``familiarity``, ``is_unfamiliar_deck``): the cards of
a deck it trained on sit close to their prototypes, those of an unseen Italian pattern (the decks it
reads worst) clearly lower once a whole deck's worth of cards is counted. ``tressette classify`` then
suggests enrolling the deck.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.errors import VisionError
from vision.npz_archive import read_npz, write_npz

if TYPE_CHECKING:
    from vision.classifier import CardClassifier

BANK_FORMAT = "tressette-style-bank/1"
BANK_SUFFIX = ".bank.npz"
DEFAULT_TEMPERATURE = 0.1
# The best probability from which the head's reading is left as it is (models/NOTEBOOK.md, "The paper
# first, and the bank only where unsure": of 4,800 crops of the twelve `H` designs and 1,200 of the
# twin's unseen Italian-suited three, not one card read otherwise than revising every crop).
REVISE_BELOW = 0.9
# A deck whose cards' median familiarity is under this, over at least UNFAMILIAR_MIN_CARDS of them, is one
# the model never saw (measured on a held-out twin, models/NOTEBOOK.md, "A deck the model does not know").
UNFAMILIAR_BELOW = 0.96
UNFAMILIAR_MIN_CARDS = 30
REBUILD_BANK = "rebuild it: .venv/bin/python -m vision.training.bank --model {model}"
_META_KEY = "meta"
_PROTOTYPES_KEY = "prototypes"


class BankError(VisionError):
    """A style bank that cannot be read, is malformed, or was made for another model."""


def bank_path(model_path: Path | str) -> Path:
    """Where a model's bank lives: ``models/cards.onnx`` -> ``models/cards.bank.npz``."""
    model = Path(model_path)
    return model.with_name(model.stem + BANK_SUFFIX)


@dataclass(frozen=True, eq=False)  # holds an array
class StyleBank:
    """Prototypes ``[len(styles), len(labels), D]`` (unit rows) of one model (``model_version``)."""

    model_version: str
    labels: tuple[str, ...]
    styles: tuple[str, ...]
    prototypes: np.ndarray
    temperature: float = DEFAULT_TEMPERATURE
    revise_below: float = REVISE_BELOW

    def __post_init__(self) -> None:
        shape = self.prototypes.shape
        if len(shape) != 3 or shape[:2] != (len(self.styles), len(self.labels)) or shape[2] < 1:
            raise BankError(f"a bank of {len(self.styles)} styles and {len(self.labels)} classes needs "
                            f"prototypes [styles, classes, D], got {shape}")
        if not np.isfinite(self.prototypes).all():
            raise BankError("the bank's prototypes hold NaN or infinite values")
        number = isinstance(self.temperature, (int, float)) and not isinstance(self.temperature, bool)
        if not (number and self.temperature > 0):
            raise BankError(f"the bank's temperature must be a number above 0, got {self.temperature!r}")
        below = self.revise_below
        if isinstance(below, bool) or not isinstance(below, (int, float)) or not below >= 0:  # NaN too
            raise BankError(f"the bank's revise_below must be a probability of 0 or more, got {below!r}")

    def class_similarity(self, embeddings: np.ndarray) -> np.ndarray:
        """``[N, classes]``: each crop's best cosine to each class's prototypes over the styles."""
        styles, classes, dims = self.prototypes.shape
        cosines = embeddings.astype(np.float32) @ self.prototypes.reshape(styles * classes, dims).T
        return cosines.reshape(len(embeddings), styles, classes).max(axis=1)

    def familiarity(self, embeddings: np.ndarray) -> np.ndarray:
        """``[N]``: each crop's best cosine to any prototype of the bank (1 is a crop like one the bank's
        decks were rendered into; a deck the model never saw sits lower)."""
        return self.class_similarity(embeddings).max(axis=1)

    def adjust(self, probabilities: np.ndarray, embeddings: np.ndarray,
               features: np.ndarray | None = None) -> np.ndarray:
        """Each crop's ``probabilities`` whose best is under ``revise_below`` times the softmax of
        ``class_similarity / temperature``, renormalised; the others as they are (``features`` is
        not used; it is there for ``ProbabilityAdjuster``)."""
        revised = probabilities.astype(np.float32)
        rows = np.flatnonzero(probabilities.max(axis=1) < self.revise_below)
        if not rows.size:
            return revised
        scaled = self.class_similarity(embeddings[rows]).astype(np.float64) / self.temperature
        scaled -= scaled.max(axis=1, keepdims=True)
        combined = probabilities[rows].astype(np.float64) * np.exp(scaled)
        revised[rows] = combined / combined.sum(axis=1, keepdims=True)
        return revised

    def check_model(self, classifier: CardClassifier) -> None:
        """Raise BankError unless this bank was made with ``classifier``'s model (version, labels, D)."""
        info = classifier.info
        if self.model_version != info.model_version:
            raise BankError(
                f"the style bank beside {classifier.path} was made for model {self.model_version}, "
                f"the model is {info.model_version}; " + REBUILD_BANK.format(model=classifier.path))
        if self.labels != info.labels or self.prototypes.shape[2] != info.embedding_dim:
            raise BankError(f"the style bank beside {classifier.path} does not fit the model's classes "
                            f"or its {info.embedding_dim}-value embedding; "
                            + REBUILD_BANK.format(model=classifier.path))

    def save(self, path: Path | str) -> Path:
        """Write the bank as ``.npz`` to exactly ``path``, whole or not at all
        (``vision.npz_archive.write_npz``); raise BankError naming ``path`` where it cannot be written."""
        target = Path(path)
        meta = {"format": BANK_FORMAT, "model_version": self.model_version, "labels": list(self.labels),
                "styles": list(self.styles), "temperature": self.temperature}
        return write_npz(target, {_META_KEY: np.array(json.dumps(meta)),
                                  _PROTOTYPES_KEY: self.prototypes.astype(np.float16)}, BankError)

    @classmethod
    def load(cls, path: Path | str) -> StyleBank:
        """Read a bank written by ``save``; raise BankError naming the file and what is wrong."""
        source = Path(path)
        arrays = read_npz(source, "style bank", BankError, what_it="archivio degli stili")
        try:
            meta_text = str(arrays[_META_KEY])
            prototypes = np.asarray(arrays[_PROTOTYPES_KEY], dtype=np.float32)
        except (KeyError, ValueError) as error:
            raise BankError(f"{source}: not a style bank ({type(error).__name__}: {error})") from None
        try:
            meta = json.loads(meta_text)
            if not isinstance(meta, dict) or meta.get("format") != BANK_FORMAT:
                raise BankError(f"{source}: not a style bank of format {BANK_FORMAT!r}")
            return cls(model_version=str(meta["model_version"]), labels=_strings(meta["labels"]),
                       styles=_strings(meta["styles"]), prototypes=prototypes,
                       temperature=float(meta["temperature"]))
        except BankError as error:
            message = str(error)
            raise BankError(message if message.startswith(str(source)) else f"{source}: {message}") from None
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise BankError(f"{source}: a style bank with bad metadata ({type(error).__name__}: "
                            f"{error})") from None


def _strings(values: Sequence[object]) -> tuple[str, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise TypeError(f"expected a list of strings, got {values!r}")
    return tuple(values)


def is_unfamiliar_deck(familiarities: np.ndarray) -> bool:
    """Whether the cards of one deck (``StyleBank.familiarity`` of the crops read as cards) look like a
    deck the model never saw: at least ``UNFAMILIAR_MIN_CARDS`` of them, median under ``UNFAMILIAR_BELOW``.
    Fewer cards never decide it: a dozen crops of a known deck can sit as low as an unseen deck's."""
    return len(familiarities) >= UNFAMILIAR_MIN_CARDS and float(np.median(familiarities)) < UNFAMILIAR_BELOW
