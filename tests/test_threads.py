"""OpenCV's pool held to a count of threads for a while (`vision.threads`)."""

from __future__ import annotations

import cv2
import pytest

from vision.threads import held_opencv_threads


def test_the_pool_is_held_inside_the_block_and_given_back_after() -> None:
    before = cv2.getNumThreads()
    with held_opencv_threads(1):
        assert cv2.getNumThreads() == 1
    assert cv2.getNumThreads() == before


def test_the_pool_is_given_back_when_the_block_fails() -> None:
    before = cv2.getNumThreads()
    with pytest.raises(RuntimeError), held_opencv_threads(1):
        raise RuntimeError("a reading failed")
    assert cv2.getNumThreads() == before


@pytest.mark.parametrize("count", [0, -2])
def test_no_threads_at_all_is_refused_with_the_count(count: int) -> None:
    with pytest.raises(ValueError, match=f"OpenCV threads: {count}"), held_opencv_threads(count):
        pass
