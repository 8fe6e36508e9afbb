"""A deck profile: what enrolment learnt of one user's deck, and how it revises the model's readings.

A profile (``tressette enroll --out DECK``, made by ``vision.enrollment``) holds one prototype per
enrolled picture (the direction of its views' mean embedding) and, from format 2 on, a linear head
(``vision.deck_head``) fitted on the model's pooled features of those views and of harder ones,
L2-normalised (on the embeddings, for a model without a ``features`` output). It is tied to the model
that made it: ``check_model`` refuses another. Reading a crop with a profile then blends the base
model's probabilities with the head's (or, in a profile without a head, with the crop's nearness to
the prototypes).

The blend only moves probability *between the enrolled classes*: the mass the model gives to classes
the profile does not hold (``none``, and ``back`` unless the deck's back was enrolled) is kept as it
is, so a face-down card or an empty patch of table still reads as before. The one exception is a crop
whose embedding lies within cosine ``sure_match`` (``SURE_MATCH``) of an enrolled picture's prototype:
it is that deck's card, and the mass the model gave ``none`` goes to the enrolled classes too (a base
model that never saw the deck may take one of its cards for a pattern of no card: held-out Sarde's
Six and Seven of swords, ``models/NOTEBOOK.md``). Within the enrolled classes, ``(1 - weight)`` of
the mass follows the model and ``weight`` follows the head's softmax (format 1 profiles, which have
no head: ``softmax(similarity / temperature)`` over the classes' best prototype similarities).

The file is a compressed ``.npz``: a JSON ``meta`` (format, name, the model's version and labels, the
prototypes' labels, weight, temperature, sure match, the head's input), the ``prototypes`` and the
head's weights and bias; ``load`` names the file and the key at fault in anything else.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.cards import NONE
from vision.classifier import l2_normalise, softmax
from vision.deck_head import LinearHead
from vision.errors import VisionError
from vision.npz_archive import read_npz, write_npz

if TYPE_CHECKING:
    from vision.classifier import CardClassifier

PROFILE_FORMAT = 3
READABLE_FORMATS = (1, 2, 3)  # format 1: prototypes only; 2: a head on embeddings; 3: names the head's input
EMBEDDING_INPUT = "embedding"
FEATURES_INPUT = "features"
HEAD_INPUTS = (EMBEDDING_INPUT, FEATURES_INPUT)
# How far the head rather than the base model decides between the enrolled classes: 1.0 rather than 0.8,
# measured on six held-out decks together with the head's views (``vision.enrollment.DEFAULT_HEAD_VIEWS``).
BLEND_WEIGHT = 1.0
TEMPERATURE = 0.03
# The cosine to an enrolled picture's prototype from which a crop is taken for a card of the deck even
# where the model says "none". On six decks held out of training, enrolled, the crops of no card reached
# 0.92 at most (those of a card buried under fingers 0.99: the card itself, read anyway), the cards the
# model read as "none" 0.92-0.99; from 0.95 on, 99.72% of the uncovered cards read right against 99.46%.
SURE_MATCH = 0.95
_META_KEY = "meta"
_PROTOTYPES_KEY = "prototypes"
_HEAD_WEIGHTS_KEY = "head_weights"
_HEAD_BIAS_KEY = "head_bias"


class ProfileError(VisionError):
    """A deck profile file that is corrupt, of another format, or made with another model."""


@dataclass(frozen=True, eq=False)  # holds arrays: compare profiles by their fields, not with ==
class DeckProfile:
    """Per-class prototypes of one user's deck, tied to the model that embedded them.

    ``prototype_labels[i]`` is the class of ``prototypes[i]`` (L2-normalised rows); a class may have
    several prototypes (one per enrolled picture). ``model_labels`` is the model's class order, which
    the probabilities passed to ``adjust`` follow. ``head``, when present, scores the ``classes`` from
    ``head_input``: the crops' embeddings, or their L2-normalised pooled features (a head fitted on
    features separates an unseen deck's cards better: measured in ``models/NOTEBOOK.md``).
    """

    name: str
    model_version: str
    model_labels: tuple[str, ...]
    prototype_labels: tuple[str, ...]
    prototypes: np.ndarray
    weight: float = BLEND_WEIGHT
    temperature: float = TEMPERATURE
    sure_match: float = SURE_MATCH
    head: LinearHead | None = None
    head_input: str = EMBEDDING_INPUT
    source: Path | None = field(default=None, compare=False)  # the file it was loaded from, for errors

    @property
    def classes(self) -> tuple[str, ...]:
        """The enrolled classes, in the model's order."""
        held = set(self.prototype_labels)
        return tuple(label for label in self.model_labels if label in held)

    def similarities(self, embeddings: np.ndarray) -> np.ndarray:
        """``[N, len(classes)]``: each crop's best cosine similarity to each enrolled class."""
        cosine = embeddings.astype(np.float32) @ self.prototypes.T
        columns = []
        for label in self.classes:
            rows = [i for i, held in enumerate(self.prototype_labels) if held == label]
            columns.append(cosine[:, rows].max(axis=1))
        return np.stack(columns, axis=1)

    def nearness(self, embeddings: np.ndarray, features: np.ndarray | None = None,
                 similarities: np.ndarray | None = None) -> np.ndarray:
        """``[N, len(classes)]``, rows summing to 1: the head's probabilities, or without a head the softmax
        of the prototype similarities (``similarities(embeddings)``, unless the caller has them) over
        ``temperature``. A head on features needs ``features``."""
        if self.head is None:
            if similarities is None:
                similarities = self.similarities(embeddings)
            return softmax(similarities / self.temperature)
        if self.head_input == EMBEDDING_INPUT:
            return self.head.probabilities(embeddings)
        if features is None:
            where = self.source or f"deck profile {self.name!r}"
            raise ProfileError(f"{where}: its head reads the model's 'features' output, which the model "
                               "in use does not have; enrol the deck again")
        return self.head.probabilities(l2_normalise(features))

    def adjust(self, probabilities: np.ndarray, embeddings: np.ndarray,
               features: np.ndarray | None = None) -> np.ndarray:
        """The model's probabilities revised by the profile (see the module's docstring)."""
        columns = [self.model_labels.index(label) for label in self.classes]
        similarities = self.similarities(embeddings)
        nearness = self.nearness(embeddings, features, similarities)
        revised = probabilities.astype(np.float32).copy()
        if NONE in self.model_labels and NONE not in self.classes:
            self._move_none_of_sure_matches(revised, similarities.max(axis=1), columns)
        enrolled_mass = revised[:, columns].sum(axis=1, keepdims=True)
        following_model = (1.0 - self.weight) * revised[:, columns]
        revised[:, columns] = following_model + self.weight * enrolled_mass * nearness
        return revised

    def _move_none_of_sure_matches(self, revised: np.ndarray, best_similarity: np.ndarray,
                                   columns: list[int]) -> None:
        """In place: on the rows within ``sure_match`` of a prototype, none's mass joins the enrolled
        classes' in the proportions the model gave them (evenly where it gave them nothing)."""
        sure = np.flatnonzero(best_similarity >= self.sure_match)
        if not sure.size:
            return
        none = self.model_labels.index(NONE)
        held = revised[np.ix_(sure, columns)]
        total = held.sum(axis=1, keepdims=True)
        share = np.where(total > 0, held / np.maximum(total, np.finfo(np.float32).tiny), 1.0 / len(columns))
        revised[np.ix_(sure, columns)] = held + revised[sure, none][:, None] * share
        revised[sure, none] = 0.0

    def check_model(self, classifier: CardClassifier) -> None:
        """Raise ProfileError (naming the profile's file) unless it was made with this classifier's model."""
        where = self.source or f"deck profile {self.name!r}"
        if classifier.info.model_version != self.model_version or classifier.labels != self.model_labels:
            raise ProfileError(
                f"{where}: made with model {self.model_version!r}, but the model in use is "
                f"{classifier.info.model_version!r} ({classifier.path}); enrol the deck again",
                f"{where}: fatto col modello {self.model_version!r}, ma il modello in uso è "
                f"{classifier.info.model_version!r} ({classifier.path}); registrate di nuovo il mazzo"
            )
        if self.prototypes.shape[1] != classifier.info.embedding_dim:
            raise ProfileError(
                f"{where}: prototypes have {self.prototypes.shape[1]} dimensions, the model's embedding "
                f"has {classifier.info.embedding_dim}; enrol the deck again"
            )
        on_features = self.head is not None and self.head_input == FEATURES_INPUT
        reads = self.head.weights.shape[0] if on_features and self.head is not None else 0
        if reads and classifier.info.features_dim != reads:
            raise ProfileError(
                f"{where}: its head reads {reads} features, the model's 'features' output has "
                f"{classifier.info.features_dim or 'none'}; enrol the deck again"
            )

    def save(self, path: Path | str) -> Path:
        """Write the profile as ``.npz`` to exactly ``path`` (no suffix is added), whole or not at all
        (``vision.npz_archive.write_npz``); raise ProfileError naming ``path`` where it cannot be written."""
        target = Path(path)
        meta = {
            "format": PROFILE_FORMAT, "name": self.name, "model_version": self.model_version,
            "model_labels": list(self.model_labels), "prototype_labels": list(self.prototype_labels),
            "weight": self.weight, "temperature": self.temperature, "sure_match": self.sure_match,
            "head_input": self.head_input,
        }
        arrays = {_META_KEY: np.array(json.dumps(meta)), _PROTOTYPES_KEY: self.prototypes.astype(np.float32)}
        if self.head is not None:
            arrays[_HEAD_WEIGHTS_KEY] = self.head.weights.astype(np.float32)
            arrays[_HEAD_BIAS_KEY] = self.head.bias.astype(np.float32)
        return write_npz(target, arrays, ProfileError)

    @classmethod
    def load(cls, path: Path | str) -> DeckProfile:
        """Read a profile written by ``save``; raise ProfileError naming the file and what is wrong."""
        source = Path(path)
        if source.is_dir():
            raise ProfileError(
                f"{source} is a folder, not a deck profile; to enrol the pictures in it: tressette enroll "
                f"--out my-deck.npz {source}, then --deck my-deck.npz",
                f"{source} è una cartella, non un profilo di mazzo; per registrare le foto che contiene: "
                f"tressette enroll --out mio-mazzo.npz {source}, poi --deck mio-mazzo.npz")
        if not source.is_file():
            raise ProfileError(
                f"no deck profile at {source} (make one with: tressette enroll --out {source} DIR)",
                f"nessun profilo di mazzo in {source} (createlo con: tressette enroll --out {source} "
                "CARTELLA)"
            )
        arrays = read_npz(source, "deck profile", ProfileError, what_it="profilo di mazzo")
        try:
            meta_text = str(arrays[_META_KEY])
            prototypes = np.asarray(arrays[_PROTOTYPES_KEY], dtype=np.float32)
            head = None
            if _HEAD_WEIGHTS_KEY in arrays or _HEAD_BIAS_KEY in arrays:
                head = LinearHead(np.asarray(arrays[_HEAD_WEIGHTS_KEY], dtype=np.float32),
                                  np.asarray(arrays[_HEAD_BIAS_KEY], dtype=np.float32))
        except (KeyError, ValueError) as error:
            raise ProfileError(f"{source}: not a deck profile ({type(error).__name__}: {error})") from None
        return _profile_from(meta_text, prototypes, head, source)


def _check_head(head: LinearHead, dimensions: int | None, classes: int, source: Path) -> None:
    """``dimensions`` None: a head on features, whose width only the model can tell (``check_model``)."""
    expected = [dimensions if dimensions is not None else "F", classes]
    rows_ok = head.weights.ndim == 2 and (dimensions is None or head.weights.shape[0] == dimensions)
    if not rows_ok or head.weights.shape[1:] != (classes,) or list(head.bias.shape) != [classes]:
        raise ProfileError(
            f"{source}: '{_HEAD_WEIGHTS_KEY}' has shape {list(head.weights.shape)} and '{_HEAD_BIAS_KEY}' "
            f"{list(head.bias.shape)}, expected {expected} and [{classes}] for the enrolled classes"
        )
    if not (np.isfinite(head.weights).all() and np.isfinite(head.bias).all()):
        raise ProfileError(f"{source}: the profile's head holds values that are not finite numbers")


def _profile_from(meta_text: str, prototypes: np.ndarray, head: LinearHead | None,
                  source: Path) -> DeckProfile:
    try:
        meta = json.loads(meta_text)
    except json.JSONDecodeError as error:
        raise ProfileError(f"{source}: the profile's metadata is not valid JSON ({error.msg})") from None
    if not isinstance(meta, dict):
        raise ProfileError(f"{source}: the profile's metadata is not a JSON object")
    if meta.get("format") not in READABLE_FORMATS:
        raise ProfileError(
            f"{source}: deck profile format {meta.get('format')!r}, this program reads formats "
            f"{', '.join(map(str, READABLE_FORMATS))}; enrol the deck again"
        )
    for key, kind in (("name", str), ("model_version", str), ("model_labels", list),
                      ("prototype_labels", list), ("weight", float), ("temperature", float)):
        value = meta.get(key)
        if not isinstance(value, kind) and not (kind is float and isinstance(value, int)):
            raise ProfileError(
                f"{source}: profile key {key!r} is missing or not a {kind.__name__}: {value!r}"
            )
    labels = tuple(meta["prototype_labels"])
    unknown = sorted(set(labels) - set(meta["model_labels"]))
    if prototypes.ndim != 2 or prototypes.shape[0] != len(labels) or not labels or unknown:
        raise ProfileError(
            f"{source}: 'prototypes' has shape {list(prototypes.shape)} for {len(labels)} prototype labels"
            + (f" (unknown labels {unknown})" if unknown else "")
        )
    if not 0.0 <= meta["weight"] <= 1.0 or meta["temperature"] <= 0:
        raise ProfileError(f"{source}: profile 'weight' must lie in 0..1 and 'temperature' be positive, "
                           f"got {meta['weight']!r}, {meta['temperature']!r}")
    sure_match = meta.get("sure_match", SURE_MATCH)  # absent from profiles written before it
    if isinstance(sure_match, bool) or not isinstance(sure_match, (int, float)) or not 0 < sure_match <= 1:
        raise ProfileError(f"{source}: profile key 'sure_match' must be a cosine in (0, 1], "
                           f"got {sure_match!r}")
    head_input = meta.get("head_input", EMBEDDING_INPUT)
    if head_input not in HEAD_INPUTS:
        raise ProfileError(f"{source}: profile key 'head_input' must be one of {list(HEAD_INPUTS)}, "
                           f"got {head_input!r}")
    if head is not None:
        dimensions = prototypes.shape[1] if head_input == EMBEDDING_INPUT else None
        _check_head(head, dimensions, len(set(labels)), source)
    return DeckProfile(
        name=meta["name"], model_version=meta["model_version"], model_labels=tuple(meta["model_labels"]),
        prototype_labels=labels, prototypes=l2_normalise(prototypes),
        weight=float(meta["weight"]), temperature=float(meta["temperature"]),
        sure_match=float(sure_match), head=head,
        head_input=head_input, source=source,
    )
