"""Deck enrolment: any regional deck a user owns becomes readable after one minute of showing its cards.

From one picture per card (or a few: a scan, or a photo of the card on a table, which is cut out of
it), several seeded views are rendered as the camera would see them, embedded by the classifier, and
averaged into one prototype per picture; a linear head (``vision.deck_head``) is fitted on the
model's pooled features of those views and of harder ones (other cards and fingers across the card, cut
corners), L2-normalised (on the embeddings, for a model without a ``features`` output).
Reading a crop with a ``DeckProfile`` then blends the base model's probabilities with the head's (or,
in a profile without a head, with the crop's nearness to the prototypes).

The blend only moves probability *between the enrolled classes*: the mass the model gives to classes
the profile does not hold (``none``, and ``back`` unless the deck's back was enrolled) is kept as it
is, so a face-down card or an empty patch of table still reads as before. The one exception is a crop
whose embedding lies within cosine ``sure_match`` (``SURE_MATCH``) of an enrolled picture's prototype:
it is that deck's card, and the mass the model gave ``none`` goes to the enrolled classes too (a base
model that never saw the deck may take one of its cards for a pattern of no card: held-out Sarde's
Six and Seven of swords, ``models/NOTEBOOK.md``). Within the enrolled classes, ``(1 - weight)`` of
the mass follows the model and ``weight`` follows the head's softmax (format 1 profiles, which have
no head: ``softmax(similarity / temperature)`` over the classes' best prototype similarities).
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from engine.cards import BACK, CARD_CODES, CLASS_LABELS, NONE
from vision.classifier import CardClassifier, Readings, l2_normalise, softmax
from vision.clip_cards import find_shown_cards
from vision.crops import Artwork, CropSettings, prepare_artwork, render_card_crop
from vision.cutout import cut_out_card, cut_out_card_telling
from vision.deck_head import LinearHead, fit_head
from vision.deck_order import CARDS_IN_ORDER, ORDERS, OrderReading, most_probable_order, orders_of_suits
from vision.decks import IMAGE_SUFFIXES, read_image
from vision.errors import VisionError
from vision.worker_pool import map_with_classifier

PROFILE_FORMAT = 3
READABLE_FORMATS = (1, 2, 3)  # format 1: prototypes only; 2: a head on embeddings; 3: names the head's input
EMBEDDING_INPUT = "embedding"
FEATURES_INPUT = "features"
HEAD_INPUTS = (EMBEDDING_INPUT, FEATURES_INPUT)
DEFAULT_VIEWS = 16
# Hard views per picture for the head, and how far the head rather than the base model decides between
# the enrolled classes. On six held-out decks (models/NOTEBOOK.md) 64 views instead of 32 and a weight of
# 1.0 instead of 0.8, with the momentum fit of ``vision.deck_head``, read 99.3% of the uncovered cards
# against 98.8% and 97.8% of the covered ones against 97.3%; 64 views make enrolment nearly twice as long
# (40 pictures: 23 s against 12 s on one thread here). With cba246cb80, 128 views instead of 64 read the
# twelve held-out designs H enrolled at 99.58% against 99.29% (10 crops wrong of 2,400 against 17),
# for 26 s against 15 s per deck of 40 pictures on one thread here (NOTEBOOK, "128 hard views").
DEFAULT_HEAD_VIEWS = 128
DEFAULT_SEED = 0
BLEND_WEIGHT = 1.0
TEMPERATURE = 0.03
# The cosine to an enrolled picture's prototype from which a crop is taken for a card of the deck even
# where the model says "none". On six decks held out of training, enrolled, the crops of no card reached
# 0.92 at most (those of a card buried under fingers 0.99: the card itself, read anyway), the cards the
# model read as "none" 0.92-0.99; from 0.95 on, 99.72% of the uncovered cards read right against 99.46%.
SURE_MATCH = 0.95
# Two pictures in a row of a sorted deck whose embeddings are this close are taken to show one card twice.
# On rendered clips (models/NOTEBOOK.md, "Enrolment from a clip"), one card in two clips: 0.941-0.998,
# median 0.984; two cards in a row of one clip: at most 0.814 on a known deck, 0.964 on an unseen one.
SAME_CARD_COSINE = 0.97
MAX_PICTURE_HEIGHT = 460
_META_KEY = "meta"
_PROTOTYPES_KEY = "prototypes"
_HEAD_WEIGHTS_KEY = "head_weights"
_HEAD_BIAS_KEY = "head_bias"


class ProfileError(VisionError):
    """A deck profile file that is corrupt, of another format, or made with another model."""


class EnrollmentError(VisionError):
    """Pictures that cannot be enrolled: each bad file is listed with what is wrong with it."""


ViewRenderer = Callable[[Artwork, np.random.Generator], np.ndarray]


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
                f"{classifier.info.model_version!r} ({classifier.path}); enrol the deck again"
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
        """Write the profile as ``.npz`` to exactly ``path`` (no suffix is added)."""
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
        with target.open("wb") as stream:
            np.savez_compressed(stream, **arrays)
        return target

    @classmethod
    def load(cls, path: Path | str) -> DeckProfile:
        """Read a profile written by ``save``; raise ProfileError naming the file and what is wrong."""
        source = Path(path)
        if not source.is_file():
            raise ProfileError(
                f"no deck profile at {source} (make one with: tressette enroll --out {source} DIR)"
            )
        try:
            with np.load(source, allow_pickle=False) as archive:
                meta_text = str(archive[_META_KEY])
                prototypes = np.asarray(archive[_PROTOTYPES_KEY], dtype=np.float32)
                head = None
                if _HEAD_WEIGHTS_KEY in archive.files or _HEAD_BIAS_KEY in archive.files:
                    head = LinearHead(np.asarray(archive[_HEAD_WEIGHTS_KEY], dtype=np.float32),
                                      np.asarray(archive[_HEAD_BIAS_KEY], dtype=np.float32))
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
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


# ---------------------------------------------------------------------------------------------------
# Views: what the camera would make of a picture of the card.


ENROLMENT_CROPS = CropSettings(p_other_card=0.0, p_fingers=0.0, p_corner_cut=0.0)
MIN_CARD_SHARE = 0.8  # of a picture that is the card itself, once its corners are cut round


def picture_artwork(picture: np.ndarray) -> Artwork:
    """The card in a user's picture, ready to render (``vision.crops.prepare_artwork``).

    ``prepare_artwork`` floods a scanned sheet's margin away from the corners; in a photo whose table
    fades into the card's edge (blur, compression) that flood leaks into the card itself. When less
    than MIN_CARD_SHARE of the picture is left, the whole picture is taken as the card instead (its
    corner pixels are made paper-white, which stops the flood).
    """
    art = prepare_artwork(picture)
    if float(art.alpha.mean()) >= MIN_CARD_SHARE:
        return art
    whole = picture.copy()
    whole[[0, 0, -1, -1], [0, -1, 0, -1]] = 255
    return prepare_artwork(whole)


def camera_view(art: Artwork, rng: np.random.Generator) -> np.ndarray:
    """One seeded view of a card as the camera would crop it (``vision.crops``), without the
    occlusions (other cards, fingers, cut corners) that would blur the deck's prototype."""
    return render_card_crop(art, rng, settings=ENROLMENT_CROPS)


def shrink_picture(picture: np.ndarray, max_height: int = MAX_PICTURE_HEIGHT) -> np.ndarray:
    """A phone photo scaled down to at most ``max_height`` pixels tall (the camera never sees more)."""
    if picture.shape[0] <= max_height:
        return picture
    size = (max(8, round(picture.shape[1] * max_height / picture.shape[0])), max_height)
    return cv2.resize(picture, size, interpolation=cv2.INTER_AREA)


def render_views(
    picture: np.ndarray, views: int, rng: np.random.Generator, renderer: ViewRenderer = camera_view,
    art: Artwork | None = None,
) -> list[np.ndarray]:
    """The picture itself followed by ``views - 1`` rendered views of it (of ``art``, the picture's
    ``picture_artwork``, when the caller has it already)."""
    if views <= 1:
        return [picture]
    if art is None:
        art = picture_artwork(picture)
    return [picture] + [renderer(art, rng) for _ in range(views - 1)]


@dataclass(frozen=True)
class ViewWork:
    """How each picture is enrolled: ``views`` clean views (the picture itself among them) for its
    prototype and, with ``head_views``, as many hard views more for the head, drawn from the
    generator seeded ``[seed, picture's index]``: a picture's views do not depend on the others, nor
    on which process renders them."""

    views: int
    head_views: int
    seed: int
    renderer: ViewRenderer
    head_input: str


@dataclass(frozen=True, eq=False)  # holds arrays
class PictureReading:
    """One picture read through its views: its prototype (the direction of its clean views' mean
    embedding) and the head's input rows of all its views (None without head views)."""

    prototype: np.ndarray
    head_rows: np.ndarray | None


def read_picture(
    work: ViewWork, classifier: CardClassifier, numbered: tuple[int, np.ndarray],
) -> PictureReading:
    """The views of a picture, a card already cut out, given with its index, read by ``classifier``."""
    index, card = numbered
    rng = np.random.default_rng([work.seed, index])
    art = picture_artwork(card) if work.views > 1 or work.head_views else None
    readings = classifier.read(render_views(card, work.views, rng, work.renderer, art))
    prototype = readings.embeddings.mean(axis=0)
    if art is None or not work.head_views:
        return PictureReading(prototype, None)
    hard = classifier.read([render_card_crop(art, rng) for _ in range(work.head_views)])
    return PictureReading(prototype, np.concatenate([_head_input(readings, work.head_input),
                                                     _head_input(hard, work.head_input)]))


def enroll_pictures(
    pictures: Mapping[str, Sequence[np.ndarray]],
    classifier: CardClassifier,
    name: str = "deck",
    views: int = DEFAULT_VIEWS,
    seed: int = DEFAULT_SEED,
    renderer: ViewRenderer = camera_view,
    head_views: int = DEFAULT_HEAD_VIEWS,
    cut: bool = True,
    workers: int = 1,
) -> DeckProfile:
    """A profile from BGR pictures by class label: one prototype per picture, the mean of its views,
    and (``head_views`` > 0) a linear head fitted on those views and ``head_views`` hard views of each.
    Each picture is first cut to its card (``vision.cutout.cut_out_card``) unless ``cut`` is False: the
    caller cut them already. With ``workers`` above 1 the pictures are rendered and read in that many
    processes (``vision.worker_pool``; ``renderer`` must then be a module-level function): the same
    profile, sooner."""
    unknown = sorted(set(pictures) - set(classifier.labels))
    if unknown:
        raise EnrollmentError(
            f"not classes of the model: {unknown} (expected card codes such as '3c', or 'back')"
        )
    if views < 1 or head_views < 0:
        raise EnrollmentError(f"views must be 1 or more and head views 0 or more, got {views}, {head_views}")
    labels = [label for label in classifier.labels if label in pictures for _ in pictures[label]]
    if not labels:
        raise EnrollmentError("no pictures to enrol")
    cards = [shrink_picture(cut_out_card(picture) if cut else picture)
             for label in classifier.labels if label in pictures for picture in pictures[label]]
    head_input = FEATURES_INPUT if classifier.info.features_dim else EMBEDDING_INPUT
    work = ViewWork(views, head_views, seed, renderer, head_input)
    # The views are cut round an upright card by construction: no card askew or loose to look for.
    read = map_with_classifier(partial(read_picture, work), list(enumerate(cards)),
                               classifier.not_recutting(), workers)
    profile = DeckProfile(
        name=name, model_version=classifier.info.model_version, model_labels=classifier.labels,
        prototype_labels=tuple(labels), prototypes=l2_normalise(np.stack([r.prototype for r in read])),
    )
    rows = [(reading.head_rows, label) for reading, label in zip(read, labels, strict=True)
            if reading.head_rows is not None]
    if not head_views:
        return profile
    classes = profile.classes
    targets = np.concatenate([np.full(len(r), classes.index(label)) for r, label in rows])
    head = fit_head(np.concatenate([r for r, _ in rows]), targets, len(classes))
    return replace(profile, head=head, head_input=head_input)


def _head_input(readings: Readings, head_input: str) -> np.ndarray:
    if head_input == FEATURES_INPUT and readings.features is not None:
        return l2_normalise(readings.features)
    return readings.embeddings


# ---------------------------------------------------------------------------------------------------
# A folder of pictures: ``3c.jpg`` ... ``10b.png`` (and ``back.jpg``), or folders ``3c/`` of pictures.

_PICTURE_NAME = re.compile(r"(?P<label>[0-9]*[a-z]+)(?:[ _\-.(].*)?", re.IGNORECASE | re.DOTALL)


def parse_picture_name(stem: str) -> str | None:
    """The class label a picture's file name gives, or None: the card code alone (``3c``, ``back``)
    or followed by a separator (space, ``_``, ``-``, ``.``, ``(``) and anything, so that a second
    picture of a card can sit beside the first (``3c-2.jpg``, ``3c (2).jpg``, ``10b_bis.png``)."""
    match = _PICTURE_NAME.fullmatch(stem.strip())
    if match is None:
        return None
    label = match.group("label").lower()
    return label if label in CLASS_LABELS else None


@dataclass(frozen=True)
class FolderPictures:
    """What a folder holds: picture paths by class label, and the cards it lacks."""

    paths: dict[str, tuple[Path, ...]]
    missing_cards: tuple[str, ...]


@dataclass(frozen=True)
class Enrollment:
    """The result of enrolling a folder: the profile, the cards it lacks, how many pictures were used,
    and those in which no card could be cut out (``vision.cutout.cut_out_card_telling``: enrolled whole)."""

    profile: DeckProfile
    missing_cards: tuple[str, ...]
    pictures: int
    uncut: tuple[str, ...] = ()  # the files
    order: OrderReading | None = None  # pictures of a sorted deck (``enroll_sorted``): their order
    back_pictures: tuple[str, ...] = ()  # and the names of those that show the back
    # the pictures enrolled, cut to the card, by class label (from a sorted deck or a clip: so that a
    # player can look at them and keep them, named by card; ``write_card_pictures``)
    labelled: Mapping[str, Sequence[np.ndarray]] = field(default_factory=dict, compare=False, repr=False)
    picture_names: tuple[str, ...] = ()  # of a sorted deck's pictures, in the order taken
    alike_neighbours: tuple[tuple[str, str], ...] = ()  # pictures in a row that look like one card twice


def _is_picture(path: Path) -> bool:
    return path.is_file() and not path.name.startswith(".") and path.suffix.lower() in IMAGE_SUFFIXES


def scan_folder(folder: Path) -> FolderPictures:
    """Find the pictures of each class; raise EnrollmentError listing every file with an unknown name.

    A picture is named by its card code (``parse_picture_name``: ``3c.jpg``, or ``3c-2.jpg`` for
    another picture of the same card), or sits in a folder named by it (``3c/a.jpg``). Files that are
    not pictures (by suffix) and hidden files are ignored.
    """
    if not folder.is_dir():
        raise EnrollmentError(f"{folder}: no such folder of card pictures")
    found: dict[str, list[Path]] = {}
    problems: list[str] = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            label, paths = entry.name.lower(), [p for p in sorted(entry.iterdir()) if _is_picture(p)]
        elif _is_picture(entry):
            label, paths = parse_picture_name(entry.stem) or entry.stem.lower(), [entry]
        else:
            continue
        if label not in CLASS_LABELS:
            problems.append(f"{entry}: {entry.stem if entry.is_file() else entry.name!r} is not a card code")
        elif entry.is_dir() and not paths:
            problems.append(f"{entry}: the folder holds no pictures ({', '.join(IMAGE_SUFFIXES)})")
        else:
            found.setdefault(label, []).extend(paths)
    if problems:
        raise EnrollmentError(
            f"{len(problems)} file(s) cannot be enrolled (name pictures by card code: 3c.jpg, 10b.png, "
            "back.jpg, a second picture 3c-2.jpg, or folders such as 3c/ holding pictures):\n  "
            + "\n  ".join(problems)
        )
    if not found:
        raise EnrollmentError(
            f"{folder}: no card pictures found (name them by card code: 3c.jpg, 10b.png, ...)"
        )
    missing = tuple(code for code in CARD_CODES if code not in found)
    return FolderPictures({label: tuple(paths) for label, paths in found.items()}, missing)


def read_picture_list(paths: Sequence[Path]) -> list[np.ndarray]:
    """Read every picture, in order; raise EnrollmentError listing every unreadable file."""
    pictures: list[np.ndarray] = []
    problems: list[str] = []
    for path in paths:
        try:
            pictures.append(read_image(path))
        except VisionError as error:
            problems.append(str(error))
    if problems:
        raise EnrollmentError(f"{len(problems)} picture(s) cannot be read:\n  " + "\n  ".join(problems))
    return pictures


def read_pictures(paths: Mapping[str, Sequence[Path]]) -> dict[str, list[np.ndarray]]:
    """Read every picture by class label; raise EnrollmentError listing every unreadable file."""
    pictures = iter(read_picture_list([path for label_paths in paths.values() for path in label_paths]))
    return {label: [next(pictures) for _ in label_paths] for label, label_paths in paths.items()}


def _name_order(path: Path) -> list[tuple[int, int | str]]:
    """Sort key of file names as a phone numbers its photos: ``IMG_9`` before ``IMG_10``."""
    return [(0, int(part)) if part.isdigit() else (1, part.lower())
            for part in re.split(r"(\d+)", path.name) if part]


def passes_and_backs(count: int) -> tuple[int, int] | None:
    """How ``count`` pictures of a sorted deck divide: (times the deck was photographed, pictures of
    its back), one pass with up to one back or two passes with up to two; None for another count."""
    for passes in (1, 2):
        backs = count - passes * CARDS_IN_ORDER
        if 0 <= backs <= passes:
            return passes, backs
    return None


def scan_in_order(folder: Path) -> tuple[Path, ...]:
    """The pictures of a sorted deck in ``folder``, in the order of their names (numbers by value);
    raise EnrollmentError unless ``passes_and_backs`` divides them: 40 (the cards), 41 (and the back),
    or the deck photographed twice in the same order, 80 to 82."""
    if not folder.is_dir():
        raise EnrollmentError(f"{folder}: no such folder of card pictures")
    paths = tuple(sorted((p for p in folder.iterdir() if _is_picture(p)), key=_name_order))
    if passes_and_backs(len(paths)) is None:
        raise EnrollmentError(
            f"{folder}: {len(paths)} pictures; the pictures of a sorted deck are its {CARDS_IN_ORDER} cards, "
            f"one after the other, and perhaps its back ({CARDS_IN_ORDER + 1}), or the deck photographed "
            f"twice in the same order ({2 * CARDS_IN_ORDER}, with its back {2 * CARDS_IN_ORDER + 1} or "
            f"{2 * CARDS_IN_ORDER + 2})")
    return paths


def enroll_folder(
    folder: Path | str,
    classifier: CardClassifier,
    views: int = DEFAULT_VIEWS,
    seed: int = DEFAULT_SEED,
    renderer: ViewRenderer = camera_view,
    head_views: int = DEFAULT_HEAD_VIEWS,
    workers: int = 1,
) -> Enrollment:
    """Enrol the deck pictured in ``folder`` (``enroll_pictures``); cards it lacks are listed in
    ``missing_cards``, not an error."""
    source = Path(folder)
    scanned = scan_folder(source)
    pictures = read_pictures(scanned.paths)
    cards: dict[str, list[np.ndarray]] = {}
    uncut: list[Path] = []
    for label, paths in scanned.paths.items():
        for path, picture in zip(paths, pictures[label], strict=True):
            card, is_uncut = cut_out_card_telling(picture)
            cards.setdefault(label, []).append(card)
            uncut.extend([path] if is_uncut else [])
    profile = enroll_pictures(cards, classifier, name=source.resolve().name, views=views, seed=seed,
                              renderer=renderer, head_views=head_views, cut=False, workers=workers)
    return Enrollment(profile, scanned.missing_cards, sum(len(p) for p in pictures.values()),
                      tuple(str(path) for path in uncut))


def enroll_in_order(
    folder: Path | str,
    classifier: CardClassifier,
    views: int = DEFAULT_VIEWS,
    seed: int = DEFAULT_SEED,
    renderer: ViewRenderer = camera_view,
    suits: Sequence[str] | None = None,
    head_views: int = DEFAULT_HEAD_VIEWS,
    workers: int = 1,
) -> Enrollment:
    """Enrol a sorted deck photographed card after card: ``folder`` holds its 40 pictures, named in
    their order (``scan_in_order``), or 80, the deck photographed twice in the same order, and perhaps
    a picture of its back in each pass (``enroll_sorted``)."""
    source = Path(folder)
    paths = scan_in_order(source)
    cut = [cut_out_card_telling(picture) for picture in read_picture_list(paths)]
    uncut = tuple(str(path) for path, (_, is_uncut) in zip(paths, cut, strict=True) if is_uncut)
    return enroll_sorted([card for card, _ in cut], [path.name for path in paths], source.resolve().name,
                         classifier, views=views, seed=seed, renderer=renderer, suits=suits,
                         head_views=head_views, workers=workers, uncut=uncut)


def enroll_clip(
    clip: Path | str,
    classifier: CardClassifier,
    views: int = DEFAULT_VIEWS,
    seed: int = DEFAULT_SEED,
    renderer: ViewRenderer = camera_view,
    suits: Sequence[str] | None = None,
    head_views: int = DEFAULT_HEAD_VIEWS,
    workers: int = 1,
) -> Enrollment:
    """Enrol a sorted deck shown to the camera card after card in the video ``clip``
    (``vision.clip_cards.find_shown_cards``: each card laid on the table and taken back), once or
    twice, perhaps with its back in each pass (``enroll_sorted``). Each picture is named by the clip and
    the time the card lay there (``partita.mp4@0:12.4``). Raise EnrollmentError listing the times of
    the cards found when their number is not one a sorted deck gives (``passes_and_backs``)."""
    source = Path(clip)
    found = find_shown_cards(source)
    times = [found.time_of(card.frame) for card in found.cards]
    if passes_and_backs(len(found.cards)) is None:
        listed = ", ".join(times) if times else "none"
        raise EnrollmentError(
            f"{source}: {len(found.cards)} cards found lying alone ({listed}); a sorted deck shown card "
            f"after card gives {CARDS_IN_ORDER}, or {CARDS_IN_ORDER + 1} with its back, or twice that "
            f"when shown twice. Film from above with the camera still, start on the empty table, lay each "
            f"card on its own in about the same spot and take your hand off it for a moment; a plain white "
            f"cloth hides white cards")
    return enroll_sorted([card.crop for card in found.cards], [f"{source.name}@{t}" for t in times],
                         source.stem, classifier, views=views, seed=seed, renderer=renderer, suits=suits,
                         head_views=head_views, workers=workers)


def enroll_sorted(
    cards: Sequence[np.ndarray],
    names: Sequence[str],
    deck_name: str,
    classifier: CardClassifier,
    views: int = DEFAULT_VIEWS,
    seed: int = DEFAULT_SEED,
    renderer: ViewRenderer = camera_view,
    suits: Sequence[str] | None = None,
    head_views: int = DEFAULT_HEAD_VIEWS,
    workers: int = 1,
    uncut: tuple[str, ...] = (),
) -> Enrollment:
    """Enrol a sorted deck from its ``cards`` (pictures cut to the card), in the order taken, named
    ``names`` for messages: 40, or 80 for the deck taken twice in the same order, and perhaps a picture
    of its back in each pass, taken to be the pictures the model finds most like a back. Which card each
    picture is comes from their order (``vision.deck_order.most_probable_order``: suits in any order,
    or in the order of ``suits`` where given; ranks up or down). EnrollmentError for another count."""
    division = passes_and_backs(len(cards))
    if division is None:
        raise EnrollmentError(f"{deck_name}: {len(cards)} pictures cannot be a sorted deck, taken once or "
                              "twice")
    passes, back_count = division
    readings = classifier.classify(list(cards), top_k=1)
    back_column = classifier.labels.index(BACK)
    likeness = [-reading.probabilities[back_column] for reading in readings]
    backs = sorted(int(i) for i in np.argsort(likeness, kind="stable")[:back_count])
    faces = [i for i in range(len(cards)) if i not in backs]
    orders = ORDERS if suits is None else orders_of_suits(suits)
    alike = _alike_neighbours(np.stack([readings[i].embedding for i in faces]), [names[i] for i in faces])
    faces_read = np.stack([readings[i].probabilities for i in faces])
    order = most_probable_order(faces_read, classifier.labels, orders)
    labelled: dict[str, list[np.ndarray]] = {}
    for code, i in zip(order.codes * passes, faces, strict=True):
        labelled.setdefault(code, []).append(cards[i])
    if backs:
        labelled[BACK] = [cards[i] for i in backs]
    profile = enroll_pictures(labelled, classifier, name=deck_name, views=views, seed=seed,
                              renderer=renderer, head_views=head_views, cut=False, workers=workers)
    return Enrollment(profile, (), len(cards), uncut, order, tuple(names[i] for i in backs), labelled,
                      tuple(names), alike)


def _alike_neighbours(embeddings: np.ndarray, names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The pairs of pictures, one right after the other, whose embeddings (``[N, D]``) are within
    cosine ``SAME_CARD_COSINE``: most likely one card taken twice (and, in a sorted deck, the next one
    skipped), which would shift every name after it."""
    unit = l2_normalise(embeddings)
    cosines = np.einsum("nd,nd->n", unit[:-1], unit[1:])
    return tuple((names[i], names[i + 1]) for i in np.flatnonzero(cosines >= SAME_CARD_COSINE))


def write_card_pictures(folder: Path | str, labelled: Mapping[str, Sequence[np.ndarray]]) -> list[Path]:
    """Write each picture into ``folder`` (made if missing) named by its card, as ``scan_folder``
    reads them back: ``3c.jpg``, a second one ``3c-2.jpg``, ``back.jpg``; return the paths written.
    Raise EnrollmentError naming a file that cannot be written."""
    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise EnrollmentError(f"{out}: cannot make the folder for the card pictures: {error}") from None
    written: list[Path] = []
    for label, pictures in labelled.items():
        for number, picture in enumerate(pictures, start=1):
            path = out / (f"{label}.jpg" if number == 1 else f"{label}-{number}.jpg")
            if not cv2.imwrite(str(path), picture):
                raise EnrollmentError(f"{path}: cannot write the card picture")
            written.append(path)
    return written
