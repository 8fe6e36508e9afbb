"""The model in 8-bit integers: the shipped one is its float source quantized and reads as it does,
quantizing keeps the contract, and every way the command can be asked wrongly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from engine.cards import CLASS_LABELS  # noqa: E402
from tests.test_classifier import CROPS_PER_STYLE, rendered_style_crops, write_tiny_model  # noqa: E402
from vision.classifier import DEFAULT_MODEL_PATH, CardClassifier  # noqa: E402
from vision.decks import find_cards_root, list_styles  # noqa: E402
from vision.preprocess import to_model_input  # noqa: E402
from vision.style_bank import bank_path  # noqa: E402
from vision.training import quantize as quantize_module  # noqa: E402
from vision.training.quantize import (  # noqa: E402
    INT8_SUFFIX,
    QUANTIZED_FROM_KEY,
    QuantizeError,
    calibration_batches,
    initializers_digest,
    is_quantized_version_of,
    quantize_model,
    quantize_with_bank,
)
from vision.training.quantize import main as quantize_main  # noqa: E402

FLOAT_MODEL_PATH = DEFAULT_MODEL_PATH.with_name("cards.fp32.onnx")
CARDS_ROOT = find_cards_root()
needs_cards = pytest.mark.skipif(CARDS_ROOT is None, reason="no card artwork here (../shared/cards)")
# Of 8 crops of every style (test_classifier's renderer), the shipped int8 model and its float source give
# the same card to all but a few (374 of 376 with b3e6d6ca1a-int8-bda7c3c5d5, reading 373 right and its
# float source 371; 375 with 5eb9499306-int8-72536f3bbd, reading 371 and 370; all 376 with the version
# before, 9465c902f1-int8-fbf06c34e7, each reading 372 right; 373 with cba246cb80-int8, calibrated on 42
# crops, each reading 371), and read as many right to within this share.
MOST_READINGS_ALIKE = 0.97
SAME_ACCURACY_WITHIN = 0.01


def metadata(path: Path) -> dict[str, str]:
    return {prop.key: prop.value for prop in onnx.load(str(path)).metadata_props}


def test_the_shipped_model_is_its_float_source_quantized_with_the_same_metadata() -> None:
    shipped, source = metadata(DEFAULT_MODEL_PATH), metadata(FLOAT_MODEL_PATH)
    assert is_quantized_version_of(shipped["model_version"], source["model_version"])
    assert shipped["model_version"].endswith(initializers_digest(onnx.load(str(DEFAULT_MODEL_PATH))))
    assert shipped[QUANTIZED_FROM_KEY] == source["model_version"]
    assert {k: v for k, v in shipped.items() if k not in ("model_version", QUANTIZED_FROM_KEY)} == {
        k: v for k, v in source.items() if k != "model_version"}
    assert DEFAULT_MODEL_PATH.stat().st_size < 0.4 * FLOAT_MODEL_PATH.stat().st_size
    operators = {node.op_type for node in onnx.load(str(DEFAULT_MODEL_PATH)).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= operators


def test_each_model_has_its_own_bank_beside_it() -> None:
    for path in (DEFAULT_MODEL_PATH, FLOAT_MODEL_PATH):
        classifier = CardClassifier.load(path)
        assert classifier.bank is not None and classifier.bank.model_version == classifier.info.model_version


@needs_cards
def test_the_shipped_model_reads_rendered_crops_as_its_float_source_does() -> None:
    assert CARDS_ROOT is not None
    crops, truth = [], []
    for number, style in enumerate(list_styles(CARDS_ROOT)):
        style_crops, codes = rendered_style_crops(CARDS_ROOT, style, CROPS_PER_STYLE, seed=number)
        crops += style_crops
        truth += codes
    read = {path: [p.card for p in CardClassifier.load(path).classify(crops)]
            for path in (DEFAULT_MODEL_PATH, FLOAT_MODEL_PATH)}
    alike = np.mean([a == b for a, b in zip(read[DEFAULT_MODEL_PATH], read[FLOAT_MODEL_PATH], strict=True)])
    right = {path: np.mean([card == code for card, code in zip(cards, truth, strict=True)])
             for path, cards in read.items()}
    assert alike >= MOST_READINGS_ALIKE, f"only {alike:.3f} of the readings alike"
    assert right[DEFAULT_MODEL_PATH] >= right[FLOAT_MODEL_PATH] - SAME_ACCURACY_WITHIN, right


@needs_cards
@pytest.mark.slow
def test_quantizing_keeps_the_contract_and_the_readings(tmp_path: Path) -> None:
    assert CARDS_ROOT is not None
    float_model = CardClassifier.load(FLOAT_MODEL_PATH, use_bank=False)
    style = list_styles(CARDS_ROOT)[0]
    out = tmp_path / "q.onnx"
    batches = calibration_batches(CARDS_ROOT, [style], float_model.info)
    version = quantize_model(FLOAT_MODEL_PATH, out, batches)
    quantized = CardClassifier.load(out, use_bank=False)
    assert version == quantized.info.model_version
    assert is_quantized_version_of(version, float_model.info.model_version)
    assert quantized.labels == CLASS_LABELS and quantized.info.features_dim == float_model.info.features_dim
    crops, _ = rendered_style_crops(CARDS_ROOT, list_styles(CARDS_ROOT)[-1], 20, seed=3)
    ours, theirs = quantized.read(crops), float_model.read(crops)
    assert np.mean(ours.probabilities.argmax(1) == theirs.probabilities.argmax(1)) >= 0.9
    assert float(np.mean(np.sum(ours.embeddings * theirs.embeddings, axis=1))) > 0.98


@needs_cards
def test_calibration_crops_are_every_class_of_each_style_seeded() -> None:
    assert CARDS_ROOT is not None
    info = CardClassifier.load(FLOAT_MODEL_PATH, use_bank=False).info
    styles = list_styles(CARDS_ROOT)[:2]
    first, again = list(calibration_batches(CARDS_ROOT, styles, info)), list(calibration_batches(
        CARDS_ROOT, styles, info))
    assert [batch.shape for batch in first] == [(len(CLASS_LABELS), 3, info.height, info.width)] * 2
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert first[0].dtype == to_model_input([np.zeros((60, 40, 3), np.uint8)], info.width, info.height,
                                            info.mean, info.std).dtype


def test_a_quantized_model_is_not_quantized_again(tmp_path: Path) -> None:
    with pytest.raises(QuantizeError, match=r"cards\.onnx: already quantized \(from cardnet-"):
        quantize_model(DEFAULT_MODEL_PATH, tmp_path / "twice.onnx", [])
    assert not (tmp_path / "twice.onnx").exists()


def test_quantizing_without_the_artwork_of_the_models_styles_names_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "cards").mkdir()
    monkeypatch.setenv("TRESSETTE_CARDS", str(tmp_path / "cards"))
    out = tmp_path / "q.onnx"
    with pytest.raises(QuantizeError, match="pysol-"):
        quantize_with_bank(FLOAT_MODEL_PATH, out)
    assert not out.exists() and not bank_path(out).exists()


def test_the_command_names_a_missing_model_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "q.onnx"
    assert quantize_main(["--model", str(tmp_path / "absent.onnx"), "--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: ") and "absent.onnx" in error
    assert not out.exists()


def test_any_model_of_the_contract_is_quantized_with_its_metadata_kept(tmp_path: Path) -> None:
    tiny = tmp_path / "tiny.onnx"
    write_tiny_model(tiny)
    source = metadata(tiny)
    info = CardClassifier.load(tiny, use_bank=False).info
    batches = [np.random.default_rng(0).normal(size=(4, 3, info.height, info.width)).astype(np.float32)]
    version = quantize_model(tiny, tmp_path / "q.onnx", batches)
    assert is_quantized_version_of(version, source["model_version"])
    assert json.loads(metadata(tmp_path / "q.onnx")["labels"]) == list(CLASS_LABELS)


def _input_scale(model: Path) -> float:
    """The scale by which the quantized ``model`` rounds its input to bytes."""
    graph = onnx.load(str(model)).graph
    (node,) = [node for node in graph.node if node.op_type == "QuantizeLinear" and node.input[0] == "image"]
    (scale,) = [init for init in graph.initializer if init.name == node.input[1]]
    return float(onnx.numpy_helper.to_array(scale))


@pytest.mark.parametrize("batches", [5, 8])
def test_the_ranges_are_those_of_every_calibration_batch(tmp_path: Path, batches: int) -> None:
    # Only the first batch reaches +-8: its range must count however many batches follow (onnxruntime's
    # calibrator, told to hold a few batches at a time, dropped all but the last ones, and failed
    # outright on a multiple of their number).
    tiny = write_tiny_model(tmp_path / "tiny.onnx")
    info = CardClassifier.load(tiny, use_bank=False).info
    rng = np.random.default_rng(0)
    shape = (2, 3, info.height, info.width)
    inputs = [np.linspace(-8, 8, int(np.prod(shape)), dtype=np.float32).reshape(shape)]
    inputs += [rng.uniform(-1, 1, shape).astype(np.float32) for _ in range(batches - 1)]
    quantize_model(tiny, tmp_path / "q.onnx", inputs)
    assert _input_scale(tmp_path / "q.onnx") == pytest.approx(16 / 255, rel=0.01)


def test_two_calibrations_of_one_model_have_two_versions(tmp_path: Path) -> None:
    tiny = write_tiny_model(tmp_path / "tiny.onnx")
    info = CardClassifier.load(tiny, use_bank=False).info
    shape = (2, 3, info.height, info.width)
    narrow, wide = (np.random.default_rng(0).uniform(-a, a, shape).astype(np.float32) for a in (1, 4))
    first = quantize_model(tiny, tmp_path / "a.onnx", [narrow])
    assert quantize_model(tiny, tmp_path / "b.onnx", [narrow]) == first  # the same calibration
    other = quantize_model(tiny, tmp_path / "c.onnx", [wide])
    source = metadata(tiny)["model_version"]
    assert other != first and is_quantized_version_of(other, source)
    assert not is_quantized_version_of(source + INT8_SUFFIX, source)  # a hash follows the suffix


@pytest.mark.parametrize("content", [b"", b"this is not a model"])
def test_a_file_that_is_not_a_model_is_named_and_nothing_is_written(tmp_path: Path, content: bytes) -> None:
    bad, out = tmp_path / "broken.onnx", tmp_path / "q.onnx"
    bad.write_bytes(content)
    out.write_bytes(b"the model written before")
    with pytest.raises(QuantizeError, match=r"broken\.onnx: not a readable ONNX model"):
        quantize_model(bad, out, [])
    assert out.read_bytes() == b"the model written before"


def test_a_quantized_model_over_the_size_limit_is_refused_and_the_old_one_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    tiny, out = write_tiny_model(tmp_path / "tiny.onnx"), tmp_path / "q.onnx"
    out.write_bytes(b"the model written before")
    info = CardClassifier.load(tiny, use_bank=False).info
    monkeypatch.setattr(quantize_module, "MAX_MODEL_BYTES", 100)
    batches = [np.zeros((2, 3, info.height, info.width), np.float32)]
    with pytest.raises(QuantizeError, match=r"q\.onnx: the model would be \d+ bytes, over the 100-byte"):
        quantize_model(tiny, out, batches)
    assert out.read_bytes() == b"the model written before"
