"""Quantize an exported card classifier to 8-bit integers: the model the runtime ships.

    .venv/bin/python -m vision.training.quantize --model models/cards.fp32.onnx --out models/cards.onnx

writes a copy of the float model whose convolutions and matrix products run on 8-bit integers
(onnxruntime's static quantization, QDQ format: weights signed per output channel,
activations unsigned per tensor, their ranges the minimum and maximum seen on calibration crops) and,
beside it, the quantized model's own style bank (``vision.training.bank``). The calibration crops are
rendered from the artwork of the styles the model was trained on (its ``trained_on``:
``find_cards_root()`` must hold them all, as for its bank), one crop of each of the 42 classes of each
style, under the evaluation's ``hard`` protocol (the training augmentation: covered cards, cut
corners, any light), seeded: the same float model and artwork give the same quantized model.

The quantized model keeps the float model's contract and metadata (``models/README.md``) with two
changes: ``model_version`` is the float model's, then ``INT8_SUFFIX`` and a hash of the quantized weights
(``initializers_digest``: a deck profile or style bank made with the float model, or with another
calibration of it, is refused by it, and the other way round) and ``quantized_from`` names the float
model's version. The weights keep all 8 bits: an x86 processor without VNNI instructions, which would
multiply unsigned by signed bytes in pairs summed into 16 bits that such weights can overflow, is
asked by the runtime to multiply them as unsigned bytes there (``vision.classifier``'s session option
``session.x64quantprecision``); weights cut to 7 bits (``reduce_range``) read fewer cards (measured in
``models/NOTEBOOK.md``, "A model in 8-bit integers").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import onnx
import onnx.numpy_helper

from vision.classifier import INPUT_NAME, MAX_MODEL_BYTES, CardClassifier, ModelInfo
from vision.decks import find_cards_root
from vision.errors import VisionError
from vision.preprocess import to_model_input
from vision.style_bank import bank_path
from vision.training.bank import build_bank, trained_styles
from vision.training.dataset import NO_ARTWORK
from vision.training.evaluate import render_eval_set
from vision.training.pysol_decks import unknown_styles_message

INT8_SUFFIX = "-int8"
QUANTIZED_FROM_KEY = "quantized_from"
CALIBRATION_PER_CLASS = 1  # crops of each class of each style: 4,746 for the 113 of the shipped model
CALIBRATION_SEED = 20261204
CALIBRATION_PROTOCOL = "hard"


class QuantizeError(VisionError):
    """A model that cannot be quantized: unreadable, already quantized, too large once quantized, or
    without the artwork of its styles to calibrate on."""


def calibration_batches(root: Path, styles: Sequence[str], info: ModelInfo,
                        per_class: int = CALIBRATION_PER_CLASS,
                        seed: int = CALIBRATION_SEED) -> Iterator[np.ndarray]:
    """The model's input ``[N, 3, H, W]`` for ``per_class`` seeded crops of each class of each style,
    one style at a time (rendered as they are asked for)."""
    for style in styles:
        crops = render_eval_set(root, style, per_class, seed, CALIBRATION_PROTOCOL)[0]
        yield to_model_input(crops, info.width, info.height, info.mean, info.std)


def model_metadata(model: Path) -> dict[str, str]:
    """The ``metadata_props`` of the ONNX file ``model``; QuantizeError naming it when it is missing or
    not an ONNX model."""
    try:
        proto = onnx.load(str(model))
    except Exception as error:  # OSError for a missing file, protobuf's DecodeError for one not a model
        raise QuantizeError(f"{model}: not a readable ONNX model ({type(error).__name__})") from None
    if not proto.graph.node:  # an empty file reads as an empty model
        raise QuantizeError(f"{model}: not a readable ONNX model (no graph)")
    return {prop.key: prop.value for prop in proto.metadata_props}


def is_quantized_version_of(version: str, float_version: str) -> bool:
    """Whether ``version`` is a ``model_version`` this module gives a quantization of the float model
    ``float_version``: that version, ``INT8_SUFFIX`` and a 10-digit hash of the quantized weights."""
    return re.fullmatch(re.escape(float_version + INT8_SUFFIX) + r"-[0-9a-f]{10}", version) is not None


def initializers_digest(model: onnx.ModelProto) -> str:
    """A short hash of a model's initializers (its weights, and a quantized model's scales and zero
    points), by name: the part of a quantized model's ``model_version`` that tells two calibrations of
    one float model apart."""
    digest = hashlib.sha256()
    for tensor in sorted(model.graph.initializer, key=lambda tensor: tensor.name):
        digest.update(tensor.name.encode())
        digest.update(onnx.numpy_helper.to_array(tensor).tobytes())
    return digest.hexdigest()[:10]


def quantize_model(model: Path, out: Path, inputs: Iterable[np.ndarray]) -> str:
    """Write ``model`` quantized to 8-bit integers, calibrated on ``inputs`` (batches of the model's
    input), to ``out``; returns the quantized model's ``model_version``. Raises QuantizeError, and
    leaves ``out`` as it was, for a model that is not readable or already quantized, or whose quantized
    file would exceed the size limit."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter(inputs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(self.batches, None)
            return None if batch is None else {INPUT_NAME: batch}

    metadata = model_metadata(model)
    if QUANTIZED_FROM_KEY in metadata:
        raise QuantizeError(f"{model}: already quantized (from {metadata[QUANTIZED_FROM_KEY]}); "
                            "quantize the float model it was made from")
    with tempfile.TemporaryDirectory() as work:
        prepared, quantized_path = Path(work) / "prepared.onnx", Path(work) / "quantized.onnx"
        quant_pre_process(str(model), str(prepared))
        # Not given CalibMaxIntermediateOutputs: up to onnxruntime 1.32 at least, the calibrator empties
        # its store every that many batches without folding them into the ranges (onnxruntime issue
        # 18893), so only the batches after the last emptying would count. Holding every batch costs
        # little: a minimum and a maximum of each calibrated tensor per batch.
        quantize_static(str(prepared), str(quantized_path), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
        quantized = onnx.load(str(quantized_path))
    version = f"{metadata.get('model_version', '')}{INT8_SUFFIX}-{initializers_digest(quantized)}"
    del quantized.metadata_props[:]
    for key, value in {**metadata, "model_version": version,
                       QUANTIZED_FROM_KEY: metadata.get("model_version", "")}.items():
        quantized.metadata_props.add(key=key, value=value)
    data = quantized.SerializeToString()
    if len(data) > MAX_MODEL_BYTES:
        raise QuantizeError(f"{out}: the model would be {len(data)} bytes, over the "
                            f"{MAX_MODEL_BYTES}-byte limit; nothing written")
    out.write_bytes(data)
    return version


def quantize_with_bank(model: Path, out: Path, threads: int = 1) -> tuple[str, Path]:
    """Quantize ``model`` to ``out``, calibrated on the artwork of the styles it was trained on, and
    write the quantized model's style bank (of those styles) beside it; returns (its
    ``model_version``, the bank's path)."""
    root = find_cards_root()
    if root is None:
        raise QuantizeError(NO_ARTWORK)
    classifier = CardClassifier.load(model, threads=threads, use_bank=False)
    styles = trained_styles(classifier)
    problem = unknown_styles_message(styles, root)
    if problem:
        raise QuantizeError(problem)
    version = quantize_model(model, out, calibration_batches(root, styles, classifier.info))
    quantized = CardClassifier.load(out, threads=threads, use_bank=False)
    return version, build_bank(quantized, root, styles).save(bank_path(out))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.quantize",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, required=True, help="the float model (vision.training.export)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the quantized model")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        version, bank = quantize_with_bank(args.model, args.out, args.threads)
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"out": str(args.out), "bank": str(bank), "model_version": version,
                      "bytes": args.out.stat().st_size}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
