"""Work that reads with the classifier, spread over worker processes: results in order, as a loop gives.

Rendering a picture's views is Python and numpy bound, so threads would take turns; processes do not.
Each worker receives the classifier once, pickled as its model file and reading rules
(``CardClassifier.__reduce__``), and opens that file itself on one thread. Workers are started with
``spawn``, not ``fork``: a forked child of a process whose onnxruntime and OpenCV thread pools are
running may inherit their locks held. The function and the items must pickle (a module-level function,
or a ``functools.partial`` of one).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TypeVar

from vision.classifier import CardClassifier
from vision.errors import VisionError

Item = TypeVar("Item")
Result = TypeVar("Result")
Progress = Callable[[int, int], None]  # (items done, items in all)

_worker_classifier: CardClassifier | None = None


class WorkerError(VisionError):
    """A worker process that could not start or died (its model file gone, out of memory)."""


def machine_cores() -> int:
    """The processor cores this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def map_with_classifier(
    function: Callable[[CardClassifier, Item], Result],
    items: Sequence[Item],
    classifier: CardClassifier,
    workers: int = 1,
    on_done: Progress | None = None,
) -> list[Result]:
    """``[function(classifier, item) for item in items]``, in up to ``workers`` processes when more than
    one (each with its own copy of the classifier), else in this one; ``on_done(done, total)`` is called
    in this process as each result arrives, in order. An exception raised by ``function`` is raised
    here as it was; a worker that cannot start or dies raises WorkerError."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise WorkerError(f"workers must be a whole number of 1 or more, got {workers!r}")
    if workers == 1 or len(items) <= 1:
        return _counted((function(classifier, item) for item in items), len(items), on_done)
    context = multiprocessing.get_context("spawn")
    try:
        with ProcessPoolExecutor(max_workers=min(workers, len(items)), mp_context=context,
                                 initializer=_keep_classifier, initargs=(classifier,)) as pool:
            return _counted(pool.map(partial(_call_in_worker, function), items), len(items), on_done)
    except BrokenProcessPool as error:
        raise WorkerError(
            f"a worker process reading with {classifier.path} stopped ({error}): was the model file "
            f"moved, is the machine out of memory, or (in a script of your own) is its main code not "
            f"under `if __name__ == \"__main__\":`, which processes started by spawning need? With one "
            f"worker the work runs in this process and shows why"
        ) from None


def _counted(results: Iterable[Result], total: int, on_done: Progress | None) -> list[Result]:
    collected: list[Result] = []
    for result in results:
        collected.append(result)
        if on_done is not None:
            on_done(len(collected), total)
    return collected


def _keep_classifier(classifier: CardClassifier) -> None:
    global _worker_classifier
    _worker_classifier = classifier


def _call_in_worker(function: Callable[[CardClassifier, Item], Result], item: Item) -> Result:
    if _worker_classifier is None:
        raise WorkerError("a worker process was started without its classifier")
    return function(_worker_classifier, item)
