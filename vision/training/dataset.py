"""Training data: a seeded pool of synthetic crops rendered from the deck artwork, kept in memory.

Each sample is drawn by ``draw_sample``: a style, a class (the 40 cards, ``back`` or ``none``), then one
crop from ``vision.crops``; a ``none`` may be one of the style's cards that a Tressette deck does not
hold (a French deck's 8, 9, 10 or joker, ``StyleArt.foreign``), rendered like a card. Crops are stored
already resized to the model's input size with ``vision.preprocess.resize_crop`` (the resize inside
``to_model_input``), so a batch becomes the model's input through ``to_model_input`` exactly as at run
time. Chunks of the pool are rendered in worker processes, each chunk from its own seed, so the pool is
the same whatever the worker count. Every crop keeps the index of its style, so a run that holds styles
out can train on the crops of the others from the very same pool (``Pool.without``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields
from pathlib import Path

import cv2
import numpy as np

from engine.cards import BACK, CARD_CODES, CLASS_LABELS, NONE
from vision import (
    crop_textures,
    crops,
    decorate,
    figure_swap,
    half_mix,
    index_erase,
    index_typeface,
    italian_index,
    jumbo_index,
    numeral_swap,
    photometric,
    restyle,
)
from vision.crops import (
    Artwork,
    CropSettings,
    prepare_artwork,
    random_back_artwork,
    render_card_crop,
    render_none_crop,
)
from vision.decks import (
    IMAGE_SUFFIXES,
    SYNTH_LATIN_PREFIX,
    Deck,
    find_cards_root,
    is_italian_style,
    read_image,
)
from vision.decorate import decoration_donors
from vision.errors import VisionError
from vision.figure_swap import (
    FIGURE_RANKS,
    INDEXED_STYLES,
    figure_donors,
    legible_settings,
    number_donors,
    swap_figure,
)
from vision.half_mix import half_mixed, is_same_suit_system
from vision.index_erase import erase_index
from vision.index_typeface import retype_index
from vision.italian_index import print_index
from vision.jumbo_index import enlarge_index
from vision.numeral_swap import numbered_card, numeral_donors
from vision.preprocess import resize_crop
from vision.training.pysol_decks import FOREIGN_DIR, INDEXED_DECKS, STYLE_PREFIX

CHUNK = 256
# Relative share of each class among the samples: every card 1, back 1.5, none 3 (none is many things).
CLASS_WEIGHTS: np.ndarray = np.array([1.0] * len(CARD_CODES) + [1.5, 3.0], np.float64)
P_PROCEDURAL_BACK = 0.5
MAX_ART_HEIGHT = 460
NO_ARTWORK = "no card artwork found: set TRESSETTE_CARDS or place shared/cards beside the checkout"


def cards_root() -> Path:
    """The folder of deck styles (``vision.decks.find_cards_root``); a VisionError saying where to put
    the artwork when there is none, as every training command needs it."""
    root = find_cards_root()
    if root is None:
        raise VisionError(NO_ARTWORK)
    return root


class DatasetError(VisionError):
    """Settings that cannot make a training pool (no styles, a bad size...)."""


@dataclass(frozen=True)
class Augmentations:
    """The share of the training cards drawn in each of the trainer's ways, each between 0 and 1 (else a
    DatasetError naming it). A share of 0 draws no random number, so pools made without it stay the same.

    ``p_restyle``: the artwork redrawn as another deck's print (``vision.restyle``); ``p_figure_swap``:
    a figure of a style with corner indices drawn with another figure's picture, then only where its
    index can be read (``vision.figure_swap``); ``p_decorate``: a number card 2..7 with a piece of a
    figure between its pips (``vision.decorate``); ``p_numeral_swap``: a number card 2..7 of an
    Italian-suited style with numerals that tell its rank, over its own or another card's pips, then
    only where they can be read (``vision.numeral_swap``); ``p_half_mix``: the card's lower part from
    the same card of another rendered style of its suits (``vision.half_mix``); ``italian_share``: the
    share of the crops drawn from the Italian-suited styles together (``style_draw_weights``), so that
    many French designs (``vision.training.pysol_decks``) do not crowd out the patterns a Tressette
    table uses; 0 draws every style alike (the previous recipe's 47 styles: 12 of them, 25.5%; the
    shipped recipe asks 0.25);
    ``pysol_share``: the same for the PySolFC designs together, so that they do not crowd out the
    French decks of ``../shared/cards`` either; ``synth_share``: the same for the invented
    Italian-suited decks ``synth-latin-*`` (``vision.training.synth_latin``) together, which then do not
    count among the Italian-suited styles of ``italian_share``; ``p_number_swap``: a number card of a
    style with corner indices drawn with the pips of another number card of its suit, then only where
    its index can be read (``vision.figure_swap.number_donors``); ``p_jumbo_index``: a card of a style
    with corner indices printed with its index enlarged (``vision.jumbo_index``), after any swap, then
    only where its index can be read; ``p_ink_tint``: of the restyled cards, the share whose black ink is
    printed in a colour, as a four-colour deck prints its clubs and spades (``vision.restyle``);
    ``p_foreign_none``: of the ``none`` samples drawn from a style with cards a Tressette deck does not
    hold (``StyleArt.foreign``), the share drawn as one of those cards, so that a French deck's 8, 9, 10
    and jokers read as no card; ``p_index_typeface``: a card of a style with corner indices printed with
    the rank of its index in another typeface (``vision.index_typeface``), after any swap and before a
    jumbo index, so that a rank is read by its shape in any face; ``index_fonts``: the TrueType or OpenType
    faces it may print them (and a Triestine index) in besides OpenCV's stroke faces
    (``vision.training.index_fonts``; they name the pool by their bytes); ``p_index_erase``: of the figures
    of a style with corner indices that figure swap left as they are, the share drawn with their indices
    painted out (``vision.index_erase``), so that a figure without an index is read by its picture; such
    a card gets no retyped or jumbo index;
    ``p_italian_index``: a card of an Italian-suited style without numerals stamped by numeral swap
    printed with its rank in two opposite corners as Triestine prints it (``vision.italian_index``), so
    that such an index, by its ink or its digits, does not tell the model another card (in ``index_fonts``
    too where they are given).
    """

    p_restyle: float = 0.0
    p_figure_swap: float = 0.0
    p_decorate: float = 0.0
    p_numeral_swap: float = 0.0
    p_half_mix: float = 0.0
    italian_share: float = 0.0
    pysol_share: float = 0.0
    synth_share: float = 0.0
    p_number_swap: float = 0.0
    p_jumbo_index: float = 0.0
    p_ink_tint: float = 0.0
    p_foreign_none: float = 0.0
    p_index_typeface: float = 0.0
    index_fonts: tuple[str, ...] = ()
    p_index_erase: float = 0.0
    p_italian_index: float = 0.0

    def __post_init__(self) -> None:
        for item in fields(self):
            if item.name == "index_fonts":
                continue
            share = getattr(self, item.name)
            if not 0.0 <= share <= 1.0:
                raise DatasetError(f"{item.name} must be a share between 0 and 1, got {share}")

    def cache_key(self) -> list[object]:
        """The shares as they name a cached pool (those added later only when they are used, so that
        the earlier keys stay as they were)."""
        key: list[object] = [self.p_restyle, self.p_figure_swap]
        if self.p_decorate:
            key.append(self.p_decorate)
        if self.p_numeral_swap:
            key.append(["numeral_swap", self.p_numeral_swap])
        if self.p_half_mix:
            key.append(["half_mix", self.p_half_mix])
        if self.italian_share:
            key.append(["italian_share", self.italian_share])
        if self.pysol_share:
            key.append(["pysol_share", self.pysol_share])
        if self.synth_share:
            key.append(["synth_share", self.synth_share])
        if self.p_number_swap:
            key.append(["number_swap", self.p_number_swap])
        if self.p_jumbo_index:
            key.append(["jumbo_index", self.p_jumbo_index])
        if self.p_ink_tint:
            key.append(["ink_tint", self.p_ink_tint])
        if self.p_foreign_none:
            key.append(["foreign_none", self.p_foreign_none])
        if self.p_index_typeface:
            key.append(["index_typeface", self.p_index_typeface])
        if self.index_fonts:
            faces = hashlib.sha256(b"".join(Path(path).read_bytes() for path in self.index_fonts))
            key.append(["index_fonts", len(self.index_fonts), faces.hexdigest()[:16]])
        if self.p_index_erase:
            key.append(["index_erase", self.p_index_erase])
        if self.p_italian_index:
            key.append(["italian_index", self.p_italian_index])
        return key


NO_AUGMENTATIONS = Augmentations()


@dataclass(frozen=True)
class StyleArt:
    """One deck style's prepared artwork: faces by code, the back if the deck has one, and the cards of
    its deck that are not Tressette cards (``foreign``: a French deck's 8, 9, 10 and jokers)."""

    name: str
    faces: dict[str, Artwork]
    back: Artwork | None
    foreign: tuple[Artwork, ...] = ()


def _shrink(image: np.ndarray) -> np.ndarray:
    if image.shape[0] <= MAX_ART_HEIGHT:
        return image
    scale = MAX_ART_HEIGHT / image.shape[0]
    size = (round(image.shape[1] * scale), MAX_ART_HEIGHT)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def load_style(root: Path, name: str) -> StyleArt:
    """Load and prepare one style's artwork (faces at most MAX_ART_HEIGHT pixels tall), with the pictures
    of its ``foreign/`` folder (``vision.training.pysol_decks.FOREIGN_DIR``) where it has one."""
    deck = Deck.load(root / name)
    faces = {code: prepare_artwork(_shrink(image)) for code, image in deck.faces.items()}
    back = prepare_artwork(_shrink(deck.back)) if deck.back is not None else None
    foreign = tuple(prepare_artwork(_shrink(read_image(path))) for path in foreign_pictures(root / name))
    return StyleArt(name=name, faces=faces, back=back, foreign=foreign)


def foreign_pictures(folder: Path) -> list[Path]:
    """The pictures in deck ``folder``'s ``foreign/`` sub-folder, in name order (none if it has none)."""
    foreign = folder / FOREIGN_DIR
    if not foreign.is_dir():
        return []
    return sorted(p for p in foreign.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


@dataclass(frozen=True)
class Pool:
    """Rendered crops ``[N, H, W, 3]`` (BGR uint8), their class indices and the index of each crop's style
    in ``style_names``."""

    images: np.ndarray
    labels: np.ndarray
    style_ids: np.ndarray
    style_names: tuple[str, ...]

    def without(self, held_out: Sequence[str]) -> Pool:
        """The crops of every style except ``held_out``."""
        dropped = [i for i, name in enumerate(self.style_names) if name in held_out]
        keep = ~np.isin(self.style_ids, dropped)
        return Pool(self.images[keep], self.labels[keep], self.style_ids[keep], self.style_names)


_PYSOL_INDEXED_STYLES = frozenset(STYLE_PREFIX + name for name in INDEXED_DECKS)


def has_figure_index(style_name: str) -> bool:
    """Whether the figures of style ``style_name`` carry a corner index that figure swap keeps: a style of
    ``vision.figure_swap.INDEXED_STYLES`` or a PySolFC set of ``pysol_decks.INDEXED_DECKS``."""
    return style_name in INDEXED_STYLES or style_name in _PYSOL_INDEXED_STYLES


def style_group(name: str) -> str:
    """The group a style is drawn in: ``synth`` (the invented ``synth-latin-*`` decks), ``italian``,
    ``pysol`` (Debian's PySolFC designs) or ``french`` (the other French-suited styles)."""
    if name.startswith(SYNTH_LATIN_PREFIX):
        return "synth"
    if is_italian_style(name):
        return "italian"
    return "pysol" if name.startswith(STYLE_PREFIX) else "french"


def style_draw_weights(names: Sequence[str], italian_share: float = 0.0,
                       pysol_share: float = 0.0, synth_share: float = 0.0) -> np.ndarray:
    """How often each style is drawn. A group of ``style_group`` given a share (``italian_share``,
    ``pysol_share``, ``synth_share``; 0: none) gets it together, alike within the group; the other
    styles share the rest alike; normalised to sum 1, so a group that is not there gives its share back."""
    group_shares = {"italian": italian_share, "pysol": pysol_share, "synth": synth_share}
    groups = [style_group(name) for name in names]
    fixed = {group: share for group, share in group_shares.items() if share and group in groups}
    unfixed = sum(group not in fixed for group in groups)
    rest = (1.0 - sum(fixed.values())) / unfixed if unfixed else 0.0
    weights = np.array([fixed[group] / groups.count(group) if group in fixed else rest for group in groups])
    return weights / weights.sum()


@functools.lru_cache(maxsize=8)
def _cached_draw_weights(names: tuple[str, ...], italian_share: float, pysol_share: float,
                         synth_share: float) -> np.ndarray:
    """``style_draw_weights`` once per set of styles (a pool draws from the same styles every time)."""
    weights = style_draw_weights(names, italian_share, pysol_share, synth_share)
    weights.flags.writeable = False
    return weights


def draw_sample(rng: np.random.Generator, styles: Sequence[StyleArt],
                shares: Augmentations = NO_AUGMENTATIONS) -> tuple[np.ndarray, int, int]:
    """One (crop, class index, style index) triple: a style and a class at random, then a rendered crop,
    its card drawn in the trainer's ways by ``shares``."""
    settings = CropSettings(p_restyle=shares.p_restyle, p_ink_tint=shares.p_ink_tint)
    if shares.italian_share or shares.pysol_share or shares.synth_share:
        names = tuple(style.name for style in styles)
        weights = _cached_draw_weights(names, shares.italian_share, shares.pysol_share, shares.synth_share)
        style_index = int(rng.choice(len(styles), p=weights))
    else:
        style_index = int(rng.integers(len(styles)))
    style = styles[style_index]
    label = int(rng.choice(len(CLASS_LABELS), p=CLASS_WEIGHTS / CLASS_WEIGHTS.sum()))
    faces = list(style.faces.values())
    occluders = [faces[int(i)] for i in rng.integers(0, len(faces), 3)]
    name = CLASS_LABELS[label]
    if name == NONE and style.foreign and shares.p_foreign_none and rng.random() < shares.p_foreign_none:
        art = style.foreign[int(rng.integers(len(style.foreign)))]
        crop = render_card_crop(art, rng, occluders, settings)
    elif name == NONE:
        crop = render_none_crop(rng, faces)
    elif name == BACK:
        use_procedural = style.back is None or rng.random() < P_PROCEDURAL_BACK
        art = random_back_artwork(rng, faces[0].aspect) if use_procedural else style.back
        crop = render_card_crop(art, rng, occluders, settings)
    else:
        art, settings = _card_artwork(rng, styles, style, name, shares, settings)
        crop = render_card_crop(art, rng, occluders, settings)
    return crop, label, style_index


def _card_artwork(rng: np.random.Generator, styles: Sequence[StyleArt], style: StyleArt, name: str,
                  shares: Augmentations, settings: CropSettings) -> tuple[Artwork, CropSettings]:
    """The artwork of card ``name`` of ``style``, drawn in each of the trainer's ways with its share,
    and the crop settings it needs (a card told by its index or numerals is rendered legible)."""
    art = style.faces[name]
    halves = [other.faces[name] for other in styles if other is not style and name in other.faces
              and is_same_suit_system(style.name, other.name)] if shares.p_half_mix else []
    if halves and rng.random() < shares.p_half_mix:
        art = half_mixed(art, halves, rng)
    # A figure's share is figure swap's, a number card's number swap's; the label follows the index.
    indexed = has_figure_index(style.name)
    swap_share = shares.p_figure_swap if figure_donors(name) else shares.p_number_swap
    can_swap = swap_share > 0.0 and indexed
    donors = [style.faces[c] for c in figure_donors(name) or number_donors(name) if c in style.faces] \
        if can_swap else []
    swapped = bool(donors) and rng.random() < swap_share
    if swapped:
        art = swap_figure(art, donors[int(rng.integers(len(donors)))])
        settings = legible_settings(settings)
    # A swapped figure's label is its index's: with the index gone the picture would tell another card.
    can_erase = shares.p_index_erase > 0.0 and indexed and not swapped and name[:-1] in FIGURE_RANKS
    if can_erase and rng.random() < shares.p_index_erase:
        return erase_index(art), settings
    if shares.p_index_typeface and indexed and rng.random() < shares.p_index_typeface:
        art = retype_index(art, name, rng, shares.index_fonts)
    if shares.p_jumbo_index and indexed and rng.random() < shares.p_jumbo_index:
        art = enlarge_index(art, rng)
        settings = legible_settings(settings)
    can_number = shares.p_numeral_swap > 0.0 and is_italian_style(style.name)
    pips = [style.faces[c] for c in numeral_donors(name) if c in style.faces] if can_number else []
    numbered = bool(pips) and rng.random() < shares.p_numeral_swap
    if numbered:
        art = numbered_card(art, pips, name, style.name, rng)
        settings = legible_settings(settings, numeral_swap.LEGIBLE_MIN_CARD_WIDTH)
    can_print = shares.p_italian_index > 0.0 and is_italian_style(style.name) and not numbered
    if can_print and rng.random() < shares.p_italian_index:
        art = print_index(art, name, rng, shares.index_fonts)
    pieces = [style.faces[c] for c in decoration_donors(name) if c in style.faces] if shares.p_decorate \
        else []
    if pieces and rng.random() < shares.p_decorate:
        art = decorate.decorate(art, pieces[int(rng.integers(len(pieces)))], rng)
    return art, settings


# Worker state: the prepared styles, loaded once per process by ``_init_worker``.
_WORKER_STYLES: list[StyleArt] = []


def _init_worker(root: str, names: Sequence[str]) -> None:
    _WORKER_STYLES.clear()
    _WORKER_STYLES.extend(load_style(Path(root), name) for name in names)


def _render_chunk(
    args: tuple[int, int, int, int, int, Augmentations],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, chunk_index, count, width, height, augmentations = args
    rng = np.random.default_rng([seed, chunk_index])
    images = np.empty((count, height, width, 3), np.uint8)
    labels = np.empty(count, np.int64)
    style_ids = np.empty(count, np.int16)
    for i in range(count):
        crop, label, style_ids[i] = draw_sample(rng, _WORKER_STYLES, augmentations)
        images[i] = resize_crop(crop, width, height)
        labels[i] = label
    return images, labels, style_ids


def render_pool(
    root: Path, styles: Sequence[str], count: int, width: int, height: int, seed: int, workers: int = 2,
    augmentations: Augmentations = NO_AUGMENTATIONS,
) -> Pool:
    """``count`` crops of ``styles`` (in sorted order, so the order given does not matter), from ``seed``,
    their cards drawn in the trainer's ways by the shares of ``augmentations``."""
    styles = sorted(styles)
    if not styles:
        raise DatasetError(f"no deck styles to render from under {root}")
    if count < 1 or width < 8 or height < 8:
        raise DatasetError(f"a pool needs count >= 1, size 8x8 or more, got {count} at {width}x{height}")
    jobs = [(seed, i, min(CHUNK, count - start), width, height, augmentations)
            for i, start in enumerate(range(0, count, CHUNK))]
    images = np.empty((count, height, width, 3), np.uint8)
    labels = np.empty(count, np.int64)
    style_ids = np.empty(count, np.int16)
    # Each chunk is copied into place as it comes, so the pool is held once, not once more in pieces.
    if workers <= 1:
        _init_worker(str(root), list(styles))
        _fill(images, labels, style_ids, map(_render_chunk, jobs))
    else:
        initargs = (str(root), list(styles))
        with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=initargs) as pool:
            _fill(images, labels, style_ids, pool.map(_render_chunk, jobs))
    return Pool(images, labels, style_ids, style_names=tuple(styles))


def _fill(images: np.ndarray, labels: np.ndarray, style_ids: np.ndarray,
          chunks: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
    """Copy the rendered ``chunks``, in order, into the pool's arrays."""
    start = 0
    for chunk in chunks:
        end = start + len(chunk[1])
        images[start:end], labels[start:end], style_ids[start:end] = chunk
        start = end


def _renderer_digest() -> str:
    """A hash of the source of every module that draws the crops: a changed renderer makes a new pool."""
    digest = hashlib.sha256()
    for module in (crop_textures, crops, decorate, figure_swap, half_mix, index_erase, index_typeface,
                   italian_index, jumbo_index, numeral_swap, photometric, restyle, sys.modules[__name__]):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


def cached_pool(
    cache: Path | None, root: Path, styles: Sequence[str], count: int, width: int, height: int, seed: int,
    workers: int = 2, augmentations: Augmentations = NO_AUGMENTATIONS,
) -> Pool:
    """``render_pool``, kept in ``cache`` (a folder) under a name made from every argument that shapes it,
    so that a second training run with the same pool skips the rendering. ``cache`` None renders."""
    if cache is None:
        return render_pool(root, styles, count, width, height, seed, workers, augmentations)
    shape = [sorted(styles), count, width, height, seed, CHUNK, CLASS_WEIGHTS.tolist(),
             *augmentations.cache_key(), _renderer_digest()]
    key = json.dumps(shape)
    path = cache / f"pool-{hashlib.sha256(key.encode()).hexdigest()[:16]}.npz"
    if path.is_file():
        with np.load(path) as stored:
            return Pool(stored["images"], stored["labels"], stored["style_ids"], tuple(sorted(styles)))
    pool = render_pool(root, styles, count, width, height, seed, workers, augmentations)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=pool.images, labels=pool.labels, style_ids=pool.style_ids)
    return pool
