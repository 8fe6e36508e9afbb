"""Deck enrolment: any regional deck a user owns becomes readable after one minute of showing its cards.

From one picture per card (or a few: a scan, or a photo of the card on a table, which is cut out of
it), several seeded views are rendered as the camera would see them, embedded by the classifier, and
averaged into one prototype per picture; a linear head (``vision.deck_head``) is fitted on the
model's pooled features of those views and of harder ones (other cards and fingers across the card, cut
corners), L2-normalised (on the embeddings, for a model without a ``features`` output). The result is a
``vision.deck_profile.DeckProfile``, which says how a crop is then read with it. Where the pictures come
from (a folder named by card, a sorted deck, a clip): ``vision.deck_pictures``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import cv2
import numpy as np

from vision.classifier import CardClassifier, Readings, l2_normalise
from vision.crops import Artwork, CropSettings, prepare_artwork, render_card_crop
from vision.cutout import cut_out_card
from vision.deck_head import fit_head
from vision.deck_profile import EMBEDDING_INPUT, FEATURES_INPUT, DeckProfile
from vision.errors import VisionError
from vision.worker_pool import Progress, map_with_classifier

DEFAULT_VIEWS = 16
# Hard views per picture for the head. On six held-out decks (models/NOTEBOOK.md) 64 views instead of 32
# and a blend weight of 1.0 instead of 0.8 (``vision.deck_profile.BLEND_WEIGHT``), with the momentum fit
# of ``vision.deck_head``, read 99.3% of the uncovered cards against 98.8% and 97.8% of the covered ones
# against 97.3%; 64 views make enrolment nearly twice as long (40 pictures: 23 s against 12 s on one
# thread here). With cba246cb80, 128 views instead of 64 read the twelve held-out designs H enrolled at
# 99.58% against 99.29% (10 crops wrong of 2,400 against 17), for 26 s against 15 s per deck of 40
# pictures on one thread here (NOTEBOOK, "128 hard views"). With 9465c902f1, 384 views read H enrolled
# at 99.59% against 99.46% over seven evaluation seeds (16,800 cards) for 2.7 times the time, over the
# minute: left to ``tressette enroll --head-views 384`` (NOTEBOOK, "`H` enrolled over seven evaluation
# seeds").
DEFAULT_HEAD_VIEWS = 128
DEFAULT_SEED = 0
MAX_PICTURE_HEIGHT = 460


class EnrollmentError(VisionError):
    """Pictures that cannot be enrolled: each bad file is listed with what is wrong with it."""


ViewRenderer = Callable[[Artwork, np.random.Generator], np.ndarray]


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
class EnrollmentSettings:
    """How each picture of a deck is enrolled (``enroll_pictures``): ``views`` clean views (the picture
    itself among them) for its prototype and, with ``head_views``, as many hard views more for the
    head, drawn by ``renderer`` from the generator seeded ``[seed, picture's index]`` (a picture's views
    depend neither on the others nor on which of the ``workers`` processes renders them)."""

    views: int = DEFAULT_VIEWS
    seed: int = DEFAULT_SEED
    renderer: ViewRenderer = camera_view
    head_views: int = DEFAULT_HEAD_VIEWS
    workers: int = 1
    progress: Progress | None = field(default=None, compare=False)  # (pictures read, pictures in all)

    def enroll(self, pictures: Mapping[str, Sequence[np.ndarray]], classifier: CardClassifier, name: str,
               cut: bool = True) -> DeckProfile:
        """``enroll_pictures`` with these settings."""
        return enroll_pictures(pictures, classifier, name=name, views=self.views, seed=self.seed,
                               renderer=self.renderer, head_views=self.head_views, cut=cut,
                               workers=self.workers, progress=self.progress)


DEFAULT_SETTINGS = EnrollmentSettings()


@dataclass(frozen=True, eq=False)  # holds arrays
class PictureReading:
    """One picture read through its views: its prototype (the direction of its clean views' mean
    embedding) and the head's input rows of all its views (None without head views)."""

    prototype: np.ndarray
    head_rows: np.ndarray | None


def read_picture(
    settings: EnrollmentSettings, head_input: str, classifier: CardClassifier,
    numbered: tuple[int, np.ndarray],
) -> PictureReading:
    """The views of a picture, a card already cut out, given with its index, read by ``classifier``;
    the head's rows from its ``head_input`` output."""
    index, card = numbered
    rng = np.random.default_rng([settings.seed, index])
    art = picture_artwork(card) if settings.views > 1 or settings.head_views else None
    readings = classifier.read(render_views(card, settings.views, rng, settings.renderer, art))
    prototype = readings.embeddings.mean(axis=0)
    if art is None or not settings.head_views:
        return PictureReading(prototype, None)
    hard = classifier.read([render_card_crop(art, rng) for _ in range(settings.head_views)])
    return PictureReading(prototype, np.concatenate([_head_input(readings, head_input),
                                                     _head_input(hard, head_input)]))


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
    progress: Progress | None = None,
) -> DeckProfile:
    """A profile from BGR pictures by class label: one prototype per picture, the mean of its views,
    and (``head_views`` > 0) a linear head fitted on those views and ``head_views`` hard views of each.
    Each picture is first cut to its card (``vision.cutout.cut_out_card``) unless ``cut`` is False: the
    caller cut them already. With ``workers`` above 1 the pictures are rendered and read in that many
    processes (``vision.worker_pool``; ``renderer`` must then be a module-level function): the same
    profile, sooner. ``progress(done, total)`` is called as each picture's views are read (the head is
    fitted after the last)."""
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
    settings = EnrollmentSettings(views, seed, renderer, head_views, workers)
    # The views are cut round an upright card by construction: no card askew or loose to look for.
    read = map_with_classifier(partial(read_picture, settings, head_input), list(enumerate(cards)),
                               classifier.not_recutting(), workers, on_done=progress)
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

