"""The threads a reading uses beyond onnxruntime's.

A ``CardClassifier`` runs its model on the session's own threads (``threads``). Its other work, a card
cut again out of a rough crop (``vision.recut``) and every crop resized for the model, runs in OpenCV,
whose loops share one pool for the whole process, as many threads as the machine has cores unless told
otherwise. ``held_opencv_threads`` holds that pool to a count for a while, so that "one thread" means one
thread: on a Raspberry Pi the other cores stay free for the camera. On the crops of
``bench/classifier.py`` one OpenCV thread reads no slower than two (``models/NOTEBOOK.md``, "One thread
is one thread"): the images are too small for the pool to pay for its hand-offs. No torch here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import cv2


@contextmanager
def held_opencv_threads(count: int) -> Iterator[None]:
    """OpenCV's pool held to ``count`` threads (1 or more) inside the block, and as it was after it."""
    if count < 1:
        raise ValueError(f"OpenCV threads: {count}, expected 1 or more")
    before = cv2.getNumThreads()
    cv2.setNumThreads(count)
    try:
        yield
    finally:
        cv2.setNumThreads(before)
