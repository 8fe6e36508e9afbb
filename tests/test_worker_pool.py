"""Reading with the classifier in worker processes (vision.worker_pool): the same results, in order,
and clear errors when a worker cannot do its work."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from tests.test_classifier import write_tiny_model
from vision.classifier import CardClassifier
from vision.errors import VisionError
from vision.worker_pool import WorkerError, map_with_classifier


def _class_count_times(classifier: CardClassifier, item: int) -> int:
    return len(classifier.labels) * item


def _refuse_three(classifier: CardClassifier, item: int) -> int:
    if item == 3:
        raise ValueError(f"item {item} refused")
    return item


def _probabilities(classifier: CardClassifier, crop: np.ndarray) -> np.ndarray:
    return classifier.read([crop]).probabilities[0]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> CardClassifier:
    return CardClassifier.load(write_tiny_model(tmp_path_factory.mktemp("model") / "tiny.onnx"),
                               turned_below=0.5, unsure_below=0.6, recut_below=0.4)


def test_a_classifier_pickles_as_its_model_file_and_reading_rules(tiny: CardClassifier) -> None:
    copy = pickle.loads(pickle.dumps(tiny))
    assert (copy.path, copy.both_orientations, copy.tight_view, copy.unsure_below, copy.turned_below,
            copy.recut_below) == (tiny.path, tiny.both_orientations, tiny.tight_view, 0.6, 0.5, 0.4)
    crops = [np.random.default_rng(seed).integers(0, 256, (60, 40, 3), np.uint8) for seed in range(3)]
    np.testing.assert_allclose(copy.read(crops).probabilities, tiny.read(crops).probabilities, rtol=1e-6)


def test_workers_give_the_results_of_a_loop_in_order(tiny: CardClassifier) -> None:
    items = [5, 1, 4, 2, 3]
    assert map_with_classifier(_class_count_times, items, tiny, workers=2) == [42 * i for i in items]
    crops = [np.random.default_rng(seed).integers(0, 256, (60, 40, 3), np.uint8) for seed in range(4)]
    np.testing.assert_allclose(map_with_classifier(_probabilities, crops, tiny, workers=2),
                               [_probabilities(tiny, crop) for crop in crops], rtol=1e-6)


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_told_as_each_result_arrives(tiny: CardClassifier, workers: int) -> None:
    told: list[tuple[int, int]] = []
    results = map_with_classifier(_class_count_times, [3, 1, 2], tiny, workers=workers,
                                  on_done=lambda done, total: told.append((done, total)))
    assert results == [126, 42, 84]
    assert told == [(1, 3), (2, 3), (3, 3)]


def test_an_error_of_the_work_is_raised_as_it_was(tiny: CardClassifier) -> None:
    with pytest.raises(ValueError, match="item 3 refused"):
        map_with_classifier(_refuse_three, [1, 2, 3, 4], tiny, workers=2)


def test_a_model_file_gone_before_the_workers_start_is_named(tiny: CardClassifier, tmp_path: Path) -> None:
    moved = shutil.copy(tiny.path, tmp_path / "moving.onnx")
    classifier = CardClassifier.load(moved)
    Path(moved).unlink()
    with pytest.raises(WorkerError, match=r"worker process reading with .*moving\.onnx stopped") as caught:
        map_with_classifier(_class_count_times, [1, 2], classifier, workers=2)
    assert isinstance(caught.value, VisionError)
    assert map_with_classifier(_class_count_times, [1, 2], classifier, workers=1) == [42, 84]


def test_a_script_without_a_main_guard_is_told_what_spawned_workers_need(tiny: CardClassifier,
                                                                       tmp_path: Path) -> None:
    script = tmp_path / "unguarded.py"
    script.write_text(textwrap.dedent(f"""
        from vision.classifier import CardClassifier
        from vision.worker_pool import map_with_classifier
        from tests.test_worker_pool import _class_count_times
        classifier = CardClassifier.load({str(tiny.path)!r})
        print(map_with_classifier(_class_count_times, [1, 2], classifier, workers=2))
    """))
    project = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(project)})
    assert done.returncode != 0
    assert "WorkerError" in done.stderr and 'if __name__ == "__main__":' in done.stderr, done.stderr[-2000:]


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_a_bad_worker_count_is_refused(tiny: CardClassifier, workers: object) -> None:
    with pytest.raises(WorkerError, match="workers must be a whole number of 1 or more"):
        map_with_classifier(_class_count_times, [1], tiny, workers)  # type: ignore[arg-type]
