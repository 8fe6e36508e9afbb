"""The training pool cache: the same settings read the pool back; other settings render a new one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.decks import find_cards_root, list_styles
from vision.training.dataset import CHUNK, Augmentations, cached_pool, render_pool

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
