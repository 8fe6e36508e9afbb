"""The classifier runtime: the shipped model reads rendered crops of every deck style; bad model files
give errors that name the file and the key."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.cards import CLASS_LABELS
from vision.classifier import (
    DEFAULT_MODEL_PATH,
    MODEL_ENV,
    CardClassifier,
    ModelError,
    default_model_path,
    predictions_from,
)
from vision.errors import VisionError

# ---------------------------------------------------------------------------------------------------
# A tiny hand-written ONNX file (protobuf wire format), for the error paths only: the `onnx` package is
# a training dependency and is not installed for the tests. Graph: image -> GlobalAveragePool ->
# Flatten -> MatMul -> logits, and -> MatMul -> LpNormalization -> embedding.


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _int_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _bytes_field(number: int, payload: bytes | str) -> bytes:
    data = payload.encode() if isinstance(payload, str) else payload
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _value_info(name: str, dims: list[int | str]) -> bytes:
    shape = b"".join(
        _bytes_field(1, _bytes_field(2, d) if isinstance(d, str) else _int_field(1, d)) for d in dims
    )
    tensor_type = _int_field(1, 1) + _bytes_field(2, shape)  # elem_type FLOAT, shape
    return _bytes_field(1, name) + _bytes_field(2, _bytes_field(1, tensor_type))


def _initializer(name: str, array: np.ndarray) -> bytes:
    dims = b"".join(_int_field(1, d) for d in array.shape)
    return dims + _int_field(2, 1) + _bytes_field(8, name) + _bytes_field(9, array.astype("<f4").tobytes())


def _node(op_type: str, inputs: list[str], outputs: list[str]) -> bytes:
    return (b"".join(_bytes_field(1, i) for i in inputs) + b"".join(_bytes_field(2, o) for o in outputs)
            + _bytes_field(4, op_type))


def tiny_model_bytes(metadata: dict[str, str], classes: int = 42, embedding_dim: int = 8) -> bytes:
    """A valid ONNX model with the classifier's input/outputs, ``classes`` logits and the given metadata."""
    rng = np.random.default_rng(0)
    graph = b"".join([
        _bytes_field(1, _node("GlobalAveragePool", ["image"], ["pooled"])),
        _bytes_field(1, _node("Flatten", ["pooled"], ["flat"])),
        _bytes_field(1, _node("MatMul", ["flat", "w_logits"], ["logits"])),
        _bytes_field(1, _node("MatMul", ["flat", "w_embed"], ["raw"])),
        _bytes_field(1, _node("LpNormalization", ["raw"], ["embedding"])),
        _bytes_field(2, "tiny"),
        _bytes_field(5, _initializer("w_logits", rng.normal(size=(3, classes)))),
        _bytes_field(5, _initializer("w_embed", rng.normal(size=(3, embedding_dim)))),
        _bytes_field(11, _value_info("image", ["N", 3, "H", "W"])),
        _bytes_field(12, _value_info("logits", ["N", classes])),
        _bytes_field(12, _value_info("embedding", ["N", embedding_dim])),
    ])
    props = b"".join(_bytes_field(14, _bytes_field(1, k) + _bytes_field(2, v)) for k, v in metadata.items())
    opset = _bytes_field(8, _bytes_field(1, "") + _int_field(2, 13))
    return _int_field(1, 7) + _bytes_field(2, "tests") + opset + _bytes_field(7, graph) + props


def good_metadata(**changes: str) -> dict[str, str]:
    """Metadata that keeps the contract, with ``changes`` applied (a value of "" removes the key)."""
    metadata = {
        "labels": json.dumps(list(CLASS_LABELS)), "input_width": "32", "input_height": "48",
        "mean": "[0.5, 0.5, 0.5]", "std": "[0.25, 0.25, 0.25]", "color_order": "RGB",
        "embedding_dim": "8", "model_version": "tiny-test", "trained_on": "nothing",
    }
    metadata.update(changes)
    return {k: v for k, v in metadata.items() if v != ""}


def write_tiny_model(path: Path, metadata: dict[str, str] | None = None, **kwargs: int) -> Path:
    path.write_bytes(tiny_model_bytes(good_metadata() if metadata is None else metadata, **kwargs))
    return path


# ---------------------------------------------------------------------------------------------------
# Error paths: every bad model file is named, with the key at fault.


def test_missing_model_names_the_path_and_how_to_rebuild(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.onnx"
    with pytest.raises(ModelError, match=r"no model at .*nowhere\.onnx .*rebuild"):
        CardClassifier.load(missing)


def test_model_error_is_a_vision_error() -> None:
    assert issubclass(ModelError, VisionError) and issubclass(ModelError, ValueError)


@pytest.mark.parametrize("content", [b"", b"this is not a model", bytes(range(256)) * 4])
def test_a_file_that_is_not_onnx_is_named(tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "broken.onnx"
    bad.write_bytes(content)
    with pytest.raises(ModelError, match=r"broken\.onnx: not a usable ONNX model"):
        CardClassifier.load(bad)


def test_a_truncated_model_is_named(tmp_path: Path) -> None:
    whole = tiny_model_bytes(good_metadata())
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ModelError, match=r"cut\.onnx: not a usable ONNX model"):
        CardClassifier.load(cut)


def test_the_tiny_model_keeps_the_contract(tmp_path: Path) -> None:
    classifier = CardClassifier.load(write_tiny_model(tmp_path / "tiny.onnx"))
    assert classifier.labels == CLASS_LABELS
    assert (classifier.info.width, classifier.info.height, classifier.info.embedding_dim) == (32, 48, 8)
    assert classifier.info.model_version == "tiny-test"


@pytest.mark.parametrize("key", ["labels", "input_width", "input_height", "mean", "std", "color_order",
                                 "embedding_dim", "model_version"])
def test_missing_metadata_names_the_key(tmp_path: Path, key: str) -> None:
    path = write_tiny_model(tmp_path / "m.onnx", good_metadata(**{key: ""}))
    with pytest.raises(ModelError, match=rf"m\.onnx: metadata key '{key}' is missing"):
        CardClassifier.load(path)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("labels", "[\"1c\", ", "'labels' is not valid JSON"),
    ("labels", json.dumps(list(CLASS_LABELS[:-1])), "'labels' must hold the 42 classes.*got 41 labels"),
    ("labels", json.dumps([*CLASS_LABELS[:-1], "joker"]), r"unknown \['joker'\]"),
    ("labels", json.dumps({"a": 1}), "'labels' must be a JSON list of strings"),
    ("input_width", "wide", "'input_width' must be a positive whole number, got 'wide'"),
    ("input_height", "0", "'input_height' must be a positive whole number"),
    ("mean", "[0.5, 0.5]", "'mean' must be a JSON list of 3 numbers"),
    ("std", "[0.2, 0.0, 0.2]", "'std' must be positive"),
    ("color_order", "BGR", "'color_order' must be 'RGB', got 'BGR'"),
    ("embedding_dim", "-3", "'embedding_dim' must be a positive whole number"),
])
def test_bad_metadata_names_the_key_and_value(tmp_path: Path, key: str, value: str, message: str) -> None:
    path = write_tiny_model(tmp_path / "m.onnx", good_metadata(**{key: value}))
    with pytest.raises(ModelError, match=message):
        CardClassifier.load(path)


def test_labels_that_disagree_with_the_logits_are_named(tmp_path: Path) -> None:
    path = write_tiny_model(tmp_path / "m.onnx", classes=43)
    with pytest.raises(ModelError, match=r"m\.onnx: metadata 'labels' lists 42 classes but output 'logits' "
                                         r"has shape \[1, 43\]"):
        CardClassifier.load(path)


def test_an_embedding_size_that_disagrees_is_named(tmp_path: Path) -> None:
    path = write_tiny_model(tmp_path / "m.onnx", good_metadata(embedding_dim="16"))
    with pytest.raises(ModelError, match=r"'embedding_dim' is 16 but output 'embedding' has shape \[1, 8\]"):
        CardClassifier.load(path)


@pytest.mark.parametrize("threads", [0, -1, 1.5, True])
def test_a_bad_thread_count_is_refused(tmp_path: Path, threads: object) -> None:
    with pytest.raises(ModelError, match="threads must be a whole number"):
        CardClassifier.load(write_tiny_model(tmp_path / "m.onnx"), threads=threads)  # type: ignore[arg-type]


def test_the_model_path_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(MODEL_ENV, raising=False)
    assert default_model_path() == DEFAULT_MODEL_PATH
    assert DEFAULT_MODEL_PATH.parent.name == "models" and (DEFAULT_MODEL_PATH.parents[1] / "vision").is_dir()
    monkeypatch.setenv(MODEL_ENV, str(tmp_path / "other.onnx"))
    with pytest.raises(ModelError, match=r"no model at .*other\.onnx"):
        CardClassifier.load()


def test_predictions_rank_the_labels() -> None:
    probabilities = np.array([[0.1, 0.7, 0.2], [0.5, 0.2, 0.3]], np.float32)
    embeddings = np.eye(2, 4, dtype=np.float32)
    first, second = predictions_from(probabilities, embeddings, ["a", "b", "c"], top_k=2)
    assert (first.card, second.card) == ("b", "a")
    assert first.top == (("b", pytest.approx(0.7)), ("c", pytest.approx(0.2)))
    assert len(predictions_from(probabilities, embeddings, ["a", "b", "c"], top_k=0)[0].top) == 1
