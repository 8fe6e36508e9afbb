"""The training pool cache: the same settings read the pool back; other settings render a new one. A
deck's cards that are not Tressette cards are drawn as ``none``, only when asked."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import CARD_CODES, CLASS_LABELS, NONE
from tests.artwork_helpers import flat_style
from vision.crops import Artwork, prepare_artwork
from vision.decks import find_cards_root, list_styles
from vision.errors import VisionError
from vision.training import dataset
from vision.training.dataset import (
    CHUNK,
    Augmentations,
    DatasetError,
    StyleArt,
    cached_pool,
    draw_sample,
    load_style,
    render_pool,
)
from vision.training.pysol_decks import FOREIGN_DIR

CARDS_ROOT = find_cards_root()


@pytest.mark.skipif(CARDS_ROOT is None, reason="needs the deck artwork in shared/cards")
def test_a_cached_pool_is_read_back_and_a_restyled_one_is_kept_apart(tmp_path: Path) -> None:
    assert CARDS_ROOT is not None
    style = list_styles(CARDS_ROOT)[0]
    first = cached_pool(tmp_path, CARDS_ROOT, [style], 6, 32, 48, seed=1, workers=1)
    files = sorted(tmp_path.iterdir())
    again = cached_pool(tmp_path, CARDS_ROOT, [style], 6, 32, 48, seed=1, workers=1)
    assert sorted(tmp_path.iterdir()) == files and len(files) == 1
    assert np.array_equal(first.images, again.images) and np.array_equal(first.labels, again.labels)
    assert np.array_equal(first.style_ids, again.style_ids) and again.style_names == (style,)
    restyled = cached_pool(tmp_path, CARDS_ROOT, [style], 6, 32, 48, seed=1, workers=1,
                           augmentations=Augmentations(p_restyle=1.0))
    assert len(list(tmp_path.iterdir())) == 2
    assert not np.array_equal(restyled.images, first.images)
    cached_pool(tmp_path, CARDS_ROOT, [style], 6, 32, 48, seed=1, workers=1,
                augmentations=Augmentations(p_figure_swap=0.5))
    assert len(list(tmp_path.iterdir())) == 3  # a pool with swapped figures is kept apart too


@pytest.mark.skipif(CARDS_ROOT is None, reason="needs the deck artwork in shared/cards")
def test_a_pool_of_several_chunks_is_the_same_from_one_worker_or_two() -> None:
    assert CARDS_ROOT is not None
    styles = list_styles(CARDS_ROOT)[:2]
    count = CHUNK + 7  # a full chunk and a short one, filled in place in order
    alone = render_pool(CARDS_ROOT, styles, count, 16, 24, seed=2, workers=1)
    shared = render_pool(CARDS_ROOT, styles, count, 16, 24, seed=2, workers=2)
    assert alone.images.shape == (count, 24, 16, 3) and len(alone.labels) == len(alone.style_ids) == count
    for field in ("images", "labels", "style_ids"):
        assert np.array_equal(getattr(alone, field), getattr(shared, field)), field
    assert len(set(alone.labels.tolist())) > 10
    longer = render_pool(CARDS_ROOT, styles, count + 2, 16, 24, seed=2, workers=2)  # each chunk its own seed
    assert np.array_equal(longer.images[:count], alone.images)
    assert np.array_equal(longer.labels[:count], alone.labels)


def _style_with_foreign(value: int) -> StyleArt:
    """A flat deck of grey ``value`` that also holds two cards a Tressette deck does not."""
    base = flat_style("pysol-test", value)
    foreign = (prepare_artwork(np.full((90, 60, 3), 10, np.uint8)),
               prepare_artwork(np.full((90, 60, 3), 20, np.uint8)))
    return replace(base, foreign=foreign)


def test_a_none_of_a_deck_with_foreign_cards_is_drawn_as_one_of_them_by_its_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    style = _style_with_foreign(128)
    drawn: list[Artwork] = []
    real_render = dataset.render_card_crop

    def render_and_note(art: Artwork, *args: object, **kwargs: object) -> np.ndarray:
        drawn.append(art)
        return real_render(art, *args, **kwargs)

    monkeypatch.setattr(dataset, "render_card_crop", render_and_note)
    rng = np.random.default_rng(5)
    nones = foreign = 0
    for _ in range(400):
        drawn.clear()
        _, label, _ = draw_sample(rng, [style], Augmentations(p_foreign_none=0.5))
        if CLASS_LABELS[label] == NONE:
            nones += 1
            foreign += any(art is card for art in drawn for card in style.foreign)
        else:
            assert not any(art is card for art in drawn for card in style.foreign)
    assert nones > 10 and 0.2 * nones < foreign < 0.8 * nones


def test_foreign_cards_change_no_draw_unless_asked() -> None:
    plain, with_foreign = flat_style("pysol-test", 128), _style_with_foreign(128)
    for style, shares in ((with_foreign, Augmentations()), (plain, Augmentations(p_foreign_none=1.0))):
        first, second = np.random.default_rng(9), np.random.default_rng(9)
        for _ in range(60):
            crop, label, _ = draw_sample(first, [style], shares)
            expected, expected_label, _ = draw_sample(second, [plain])
            assert label == expected_label and np.array_equal(crop, expected)


def test_a_pool_drawing_foreign_cards_is_cached_apart() -> None:
    assert Augmentations(p_foreign_none=0.5).cache_key() == [0.0, 0.0, ["foreign_none", 0.5]]
    assert Augmentations().cache_key() == [0.0, 0.0]
    with pytest.raises(DatasetError, match="p_foreign_none"):
        Augmentations(p_foreign_none=1.5)


def test_a_deck_folder_lends_the_pictures_of_its_foreign_folder(tmp_path: Path) -> None:
    folder = tmp_path / "pysol-test"
    (folder / FOREIGN_DIR).mkdir(parents=True)
    for code in CARD_CODES:
        cv2.imwrite(str(folder / f"{code}.png"), np.full((60, 40, 3), 100, np.uint8))
    for stem, value in (("09h", 90), ("08c", 80)):
        cv2.imwrite(str(folder / FOREIGN_DIR / f"{stem}.png"), np.full((60, 40, 3), value, np.uint8))
    (folder / FOREIGN_DIR / "notes.txt").write_text("not a picture")
    style = load_style(tmp_path, "pysol-test")
    assert [int(card.image[0, 0, 0]) for card in style.foreign] == [80, 90]
    cv2.imwrite(str(tmp_path / "plain.png"), np.zeros((4, 4, 3), np.uint8))
    (tmp_path / "plain").mkdir()
    for code in CARD_CODES:
        cv2.imwrite(str(tmp_path / "plain" / f"{code}.png"), np.full((60, 40, 3), 100, np.uint8))
    assert load_style(tmp_path, "plain").foreign == ()


def test_the_training_commands_name_where_the_artwork_goes_when_there_is_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setenv("TRESSETTE_CARDS", str(tmp_path))
    assert dataset.cards_root() == tmp_path
    monkeypatch.setattr(dataset, "find_cards_root", lambda: None)  # no TRESSETTE_CARDS, no shared/cards
    with pytest.raises(VisionError, match="no card artwork found: set TRESSETTE_CARDS"):
        dataset.cards_root()
