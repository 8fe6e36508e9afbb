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
Six and Seven of swords, ``models/README.md``). Within the enrolled classes, ``(1 - weight)`` of
the mass follows the model and ``weight`` follows the head's softmax (format 1 profiles, which have
no head: ``softmax(similarity / temperature)`` over the classes' best prototype similarities).
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from engine.cards import CARD_CODES, CLASS_LABELS, NONE
from vision.classifier import CardClassifier, Readings, l2_normalise, softmax
from vision.crops import Artwork, CropSettings, prepare_artwork, render_card_crop
from vision.deck_head import LinearHead, fit_head
from vision.decks import IMAGE_SUFFIXES, read_image
from vision.errors import VisionError

PROFILE_FORMAT = 3
READABLE_FORMATS = (1, 2, 3)  # format 1: prototypes only; 2: a head on embeddings; 3: names the head's input
EMBEDDING_INPUT = "embedding"
FEATURES_INPUT = "features"
HEAD_INPUTS = (EMBEDDING_INPUT, FEATURES_INPUT)
DEFAULT_VIEWS = 16
# Hard views per picture for the head, and how far the head rather than the base model decides between
# the enrolled classes. On six held-out decks (models/README.md) 64 views instead of 32 and a weight of
# 1.0 instead of 0.8, with the momentum fit of ``vision.deck_head``, read 99.3% of the uncovered cards
# against 98.8% and 97.8% of the covered ones against 97.3%; 64 views make enrolment nearly twice as long
# (40 pictures: 23 s against 12 s on one thread here).
DEFAULT_HEAD_VIEWS = 64
DEFAULT_SEED = 0
BLEND_WEIGHT = 1.0
TEMPERATURE = 0.03
# The cosine to an enrolled picture's prototype from which a crop is taken for a card of the deck even
# where the model says "none". On six decks held out of training, enrolled, the crops of no card reached
# 0.92 at most (those of a card buried under fingers 0.99: the card itself, read anyway), the cards the
# model read as "none" 0.92-0.99; from 0.95 on, 99.72% of the uncovered cards read right against 99.46%.
SURE_MATCH = 0.95
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
    features separates an unseen deck's cards better: measured in ``models/README.md``).
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

    def nearness(self, embeddings: np.ndarray, features: np.ndarray | None = None) -> np.ndarray:
        """``[N, len(classes)]``, rows summing to 1: the head's probabilities, or without a head the softmax
        of the prototype similarities over ``temperature``. A head on features needs ``features``."""
        if self.head is None:
            return softmax(self.similarities(embeddings) / self.temperature)
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
        nearness = self.nearness(embeddings, features)
        revised = probabilities.astype(np.float32).copy()
        if NONE in self.model_labels and NONE not in self.classes:
            self._move_none_of_sure_matches(revised, embeddings, columns)
        enrolled_mass = revised[:, columns].sum(axis=1, keepdims=True)
        following_model = (1.0 - self.weight) * revised[:, columns]
        revised[:, columns] = following_model + self.weight * enrolled_mass * nearness
        return revised

    def _move_none_of_sure_matches(self, revised: np.ndarray, embeddings: np.ndarray,
                                   columns: list[int]) -> None:
        """In place: on the rows within ``sure_match`` of a prototype, none's mass joins the enrolled
        classes' in the proportions the model gave them (evenly where it gave them nothing)."""
        sure = np.flatnonzero(self.similarities(embeddings).max(axis=1) >= self.sure_match)
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


def _outer_ring(image: np.ndarray) -> np.ndarray:
    """``[N, 3]``: the pixels of the image's outer ring, 3% of its shorter side wide."""
    k = max(2, round(0.03 * min(image.shape[:2])))
    return np.concatenate([image[:k].reshape(-1, 3), image[-k:].reshape(-1, 3),
                           image[:, :k].reshape(-1, 3), image[:, -k:].reshape(-1, 3)])


def _looks_cut_to_the_card(picture: np.ndarray) -> bool:
    """True when the picture's outer ring is card paper (light, unsaturated): a scan or a tight crop."""
    hsv = cv2.cvtColor(_outer_ring(picture).reshape(1, -1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    return float(np.median(hsv[:, 2])) > 170 and float(np.median(hsv[:, 1])) < 70


def _ring_colour(image: np.ndarray) -> np.ndarray:
    """The median CIELAB colour of the image's outer ring."""
    ring = _outer_ring(image).reshape(1, -1, 3)
    return np.median(cv2.cvtColor(ring, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32), axis=0)


def _is_card_on_a_light_table(picture: np.ndarray, card: np.ndarray) -> bool:
    """Whether ``card``, cut out of a picture whose outer ring is paper-like, is a card lying on a
    light table rather than a part of a scanned card: its own edge is card paper too, of another
    colour than the picture's edge (the table)."""
    distance = float(np.linalg.norm(_ring_colour(card) - _ring_colour(picture)))
    return _looks_cut_to_the_card(card) and distance >= MIN_TABLE_TO_PAPER_DISTANCE


# A picture whose outer ring looks like card paper may still be a photo on a light table: a card found
# in it is taken only when it fills this much of the picture (a scan's inner frame, around a French
# figure, fills less; a light table around a card in a phone photo, more).
MIN_CARD_IN_LIGHT_PICTURE = 0.6
MIN_TABLE_TO_PAPER_DISTANCE = 10.0  # CIELAB (8-bit scale) between a light table and the card's edge


def _closed(mask: np.ndarray) -> np.ndarray:
    """The mask with gaps under 15 px (the print on the card's paper) filled."""
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15)))


def _paper_mask(small: np.ndarray) -> np.ndarray:
    """Paper-like pixels: value minus saturation above Otsu's threshold."""
    hsv = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2HSV).astype(np.int16)
    paper = np.clip(hsv[:, :, 2] - hsv[:, :, 1], 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(paper, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return _closed(mask)


def _unlike_table_mask(small: np.ndarray) -> np.ndarray:
    """Pixels far in colour (CIELAB) from the picture's outer ring, the table, above Otsu's threshold:
    a card on a table as light as its paper."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (7, 7), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    k = max(2, round(0.03 * min(small.shape[:2])))
    ring = np.concatenate([lab[:k].reshape(-1, 3), lab[-k:].reshape(-1, 3),
                           lab[:, :k].reshape(-1, 3), lab[:, -k:].reshape(-1, 3)])
    distance = np.linalg.norm(lab - np.median(ring, axis=0), axis=2)
    scaled = (distance * (255.0 / max(float(distance.max()), 1.0))).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return cv2.morphologyEx(_closed(mask), cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))


def _outline_mask(small: np.ndarray) -> np.ndarray:
    """The convex hull of the longest run of edges: a card whose outline is drawn but whose paper and
    table are alike in colour (a grey card on a grey cloth)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros_like(gray)
    if contours:
        cv2.fillPoly(mask, [max((cv2.convexHull(c) for c in contours), key=cv2.contourArea)], 255)
    return mask


RotatedBox = tuple[tuple[float, float], tuple[float, float], float]  # cv2.minAreaRect: centre, size, angle


@dataclass(frozen=True, eq=False)  # holds arrays
class Region:
    """The largest region of a mask: its outline, its rotated box, the share of the picture the box
    covers and how fully the region fills the box."""

    outline: np.ndarray
    box: RotatedBox
    share: float
    filled: float

    def has_card_shape(self, min_share: float) -> bool:
        """A box over ``min_share``..97% of the picture, a card's proportions, filled over 85%."""
        proportion = min(self.box[1]) / max(*self.box[1], 1.0)
        return min_share <= self.share <= 0.97 and 0.45 <= proportion <= 0.85 and self.filled > 0.85

    def corners(self) -> np.ndarray:
        """``[4, 2]`` float32, clockwise from the top left: the outline's four corners where it is a
        quadrilateral (a card seen at an angle), else its box's."""
        hull = cv2.convexHull(self.outline)
        perimeter = cv2.arcLength(hull, True)
        for tolerance in (0.02, 0.03, 0.04, 0.05):
            polygon = cv2.approxPolyDP(hull, tolerance * perimeter, True)
            if len(polygon) == 4 and cv2.contourArea(polygon) >= 0.9 * cv2.contourArea(hull):
                return _clockwise_from_top_left(polygon.reshape(4, 2).astype(np.float32))
        return _clockwise_from_top_left(cv2.boxPoints(self.box).astype(np.float32))


def _largest_region(mask: np.ndarray) -> Region | None:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea)
    box = cv2.minAreaRect(outline)
    box_area = box[1][0] * box[1][1]
    return Region(outline, box, box_area / (mask.shape[0] * mask.shape[1]),
                  cv2.contourArea(outline) / max(box_area, 1.0))


def _clockwise_from_top_left(points: np.ndarray) -> np.ndarray:
    """Four points in clockwise order (on the image, y down), the one nearest the top left first."""
    centre = points.mean(axis=0)
    clockwise = points[np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))]
    return np.roll(clockwise, -int(clockwise.sum(axis=1).argmin()), axis=0)


def _is_all_paper(paper: np.ndarray) -> bool:
    """Whether one region of paper fills the picture: a card cut from a sheet with a little of the
    sheet at its corners, whose drawing must not be taken for the card."""
    region = _largest_region(paper)
    return region is not None and region.share > 0.97 and region.filled > 0.85


def cut_out_card(picture: np.ndarray) -> np.ndarray:
    """The card cut out of a photo that shows it on a table, upright; the picture itself when it is
    already cut to the card or no card-shaped region (15..97% of it, a card's proportions) is found.

    Three guesses at the card: the largest region of paper-like pixels, of pixels unlike the table
    (the picture's outer ring) and, on a picture that does not look cut already, the hull of its
    longest edges; of those whose box has a card's proportions, the one that fills its box best wins.
    A picture whose outer ring is paper-like (a scan, or a light table) only gives up a card that
    fills MIN_CARD_IN_LIGHT_PICTURE of it and whose own edge is paper of another colour than the
    picture's (``_is_card_on_a_light_table``): a scan is not cut to the frame printed on it.
    """
    looks_cut = _looks_cut_to_the_card(picture)
    height, width = picture.shape[:2]
    scale = min(1.0, 400 / max(height, width))
    small = cv2.resize(picture, (max(8, round(width * scale)), max(8, round(height * scale))),
                       interpolation=cv2.INTER_AREA)
    paper = _paper_mask(small)
    if not looks_cut and _is_all_paper(paper):
        return picture
    masks = [paper, _unlike_table_mask(small)] + ([] if looks_cut else [_outline_mask(small)])
    min_share = MIN_CARD_IN_LIGHT_PICTURE if looks_cut else 0.15
    regions = [_largest_region(mask) for mask in masks]
    found = [region for region in regions if region is not None and region.has_card_shape(min_share)]
    for region in sorted(found, key=lambda region: -region.filled):
        card = _warp_quad(picture, region.corners() / scale)
        if not looks_cut or _is_card_on_a_light_table(picture, card):
            return card
    return picture


def _warp_quad(picture: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The part of the picture inside ``quad`` (clockwise from the top left), straightened, upright."""
    out_w = max(8, round(float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2))
    out_h = max(8, round(float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2))
    target = np.float32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    card = cv2.warpPerspective(picture, cv2.getPerspectiveTransform(quad, target), (out_w, out_h),
                               flags=cv2.INTER_AREA)
    return cv2.rotate(card, cv2.ROTATE_90_CLOCKWISE) if out_w > out_h else card


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


def enroll_pictures(
    pictures: Mapping[str, Sequence[np.ndarray]],
    classifier: CardClassifier,
    name: str = "deck",
    views: int = DEFAULT_VIEWS,
    seed: int = DEFAULT_SEED,
    renderer: ViewRenderer = camera_view,
    head_views: int = DEFAULT_HEAD_VIEWS,
) -> DeckProfile:
    """A profile from BGR pictures by class label: one prototype per picture, the mean of its views,
    and (``head_views`` > 0) a linear head fitted on those views and ``head_views`` hard views of each."""
    unknown = sorted(set(pictures) - set(classifier.labels))
    if unknown:
        raise EnrollmentError(
            f"not classes of the model: {unknown} (expected card codes such as '3c', or 'back')"
        )
    if views < 1 or head_views < 0:
        raise EnrollmentError(f"views must be 1 or more and head views 0 or more, got {views}, {head_views}")
    rng = np.random.default_rng(seed)
    labels: list[str] = []
    prototypes: list[np.ndarray] = []
    head_input = FEATURES_INPUT if classifier.info.features_dim else EMBEDDING_INPUT
    seen: list[np.ndarray] = []  # every view's head input (features, or embeddings), for the head
    seen_labels: list[str] = []
    for label in (label for label in classifier.labels if label in pictures):
        for picture in pictures[label]:  # one picture's views at a time: a few MB, not hundreds
            card = shrink_picture(cut_out_card(picture))
            art = picture_artwork(card) if views > 1 or head_views else None
            readings = classifier.read(render_views(card, views, rng, renderer, art))
            prototypes.append(readings.embeddings.mean(axis=0))
            labels.append(label)
            if art is not None and head_views:
                hard = classifier.read([render_card_crop(art, rng) for _ in range(head_views)])
                seen.extend([_head_input(readings, head_input), _head_input(hard, head_input)])
                seen_labels.extend([label] * (len(readings.embeddings) + len(hard.embeddings)))
    if not labels:
        raise EnrollmentError("no pictures to enrol")
    profile = DeckProfile(
        name=name, model_version=classifier.info.model_version, model_labels=classifier.labels,
        prototype_labels=tuple(labels), prototypes=l2_normalise(np.stack(prototypes)),
    )
    if not head_views:
        return profile
    classes = profile.classes
    targets = np.array([classes.index(label) for label in seen_labels])
    head = fit_head(np.concatenate(seen), targets, len(classes))
    return replace(profile, head=head, head_input=head_input)


def _head_input(readings: Readings, head_input: str) -> np.ndarray:
    if head_input == FEATURES_INPUT and readings.features is not None:
        return l2_normalise(readings.features)
    return readings.embeddings


# ---------------------------------------------------------------------------------------------------
# A folder of pictures: ``3c.jpg`` ... ``10b.png`` (and ``back.jpg``), or folders ``3c/`` of pictures.


@dataclass(frozen=True)
class FolderPictures:
    """What a folder holds: picture paths by class label, and the cards it lacks."""

    paths: dict[str, tuple[Path, ...]]
    missing_cards: tuple[str, ...]


@dataclass(frozen=True)
class Enrollment:
    """The result of enrolling a folder: the profile, the cards it lacks and how many pictures were used."""

    profile: DeckProfile
    missing_cards: tuple[str, ...]
    pictures: int


def _is_picture(path: Path) -> bool:
    return path.is_file() and not path.name.startswith(".") and path.suffix.lower() in IMAGE_SUFFIXES


def scan_folder(folder: Path) -> FolderPictures:
    """Find the pictures of each class; raise EnrollmentError listing every file with an unknown name.

    Files that are not pictures (by suffix) and hidden files are ignored.
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
            label, paths = entry.stem.lower(), [entry]
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
            "back.jpg, or folders such as 3c/ holding pictures):\n  " + "\n  ".join(problems)
        )
    if not found:
        raise EnrollmentError(
            f"{folder}: no card pictures found (name them by card code: 3c.jpg, 10b.png, ...)"
        )
    missing = tuple(code for code in CARD_CODES if code not in found)
    return FolderPictures({label: tuple(paths) for label, paths in found.items()}, missing)


def read_pictures(paths: Mapping[str, Sequence[Path]]) -> dict[str, list[np.ndarray]]:
    """Read every picture; raise EnrollmentError listing every unreadable file."""
    pictures: dict[str, list[np.ndarray]] = {}
    problems: list[str] = []
    for label, label_paths in paths.items():
        for path in label_paths:
            try:
                pictures.setdefault(label, []).append(read_image(path))
            except VisionError as error:
                problems.append(str(error))
    if problems:
        raise EnrollmentError(f"{len(problems)} picture(s) cannot be read:\n  " + "\n  ".join(problems))
    return pictures


def enroll_folder(
    folder: Path | str,
    classifier: CardClassifier,
    views: int = DEFAULT_VIEWS,
    seed: int = DEFAULT_SEED,
    renderer: ViewRenderer = camera_view,
) -> Enrollment:
    """Enrol the deck pictured in ``folder``; cards it lacks are listed in ``missing_cards``, not an error."""
    source = Path(folder)
    scanned = scan_folder(source)
    pictures = read_pictures(scanned.paths)
    profile = enroll_pictures(pictures, classifier, name=source.resolve().name, views=views, seed=seed,
                              renderer=renderer)
    return Enrollment(profile, scanned.missing_cards, sum(len(p) for p in pictures.values()))
