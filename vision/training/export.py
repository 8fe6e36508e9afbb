"""Export a trained CardNet to ONNX with the metadata the runtime reads (``models/README.md``).

Contract: input ``image`` float32 ``[N, 3, H, W]`` (RGB, ``to_model_input``); outputs ``logits``
``[N, 42]``, ``embedding`` ``[N, D]`` (unit length) and ``features`` ``[N, F]`` (the pooled activations
the embedding is projected from, for deck profiles' heads); dynamic batch axis; ``metadata_props``
``labels``, ``input_width``, ``input_height``, ``mean``, ``std``, ``color_order``, ``embedding_dim``,
``model_version`` and ``trained_on`` (all strings; lists as JSON).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import onnx
import torch

from vision.classifier import EMBEDDING_NAME, FEATURES_NAME, MAX_MODEL_BYTES
from vision.errors import VisionError
from vision.training.model import CardNet

METADATA_KEYS: tuple[str, ...] = (
    "labels", "input_width", "input_height", "mean", "std", "color_order", "embedding_dim", "model_version",
    "trained_on",
)


class ExportError(VisionError):
    """A model that cannot be exported within the contract (too large, wrong outputs)."""


def weights_digest(model: torch.nn.Module) -> str:
    """A short hash of the weights: part of ``model_version`` so enrolled profiles notice a new model."""
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().cpu().numpy().tobytes())
    return digest.hexdigest()[:10]


def add_features_output(proto: onnx.ModelProto) -> onnx.ModelProto:
    """Expose the pooled activations the embedding is projected from as the output ``features``.

    Found by walking back from ``embedding``: it is the normalised output of a ``Gemm`` (the projection),
    whose first input is the pooled vector. Adding it leaves the weights, and so ``model_version``,
    as they are; a model that already has the output is returned unchanged.
    """
    graph = proto.graph
    if any(output.name == FEATURES_NAME for output in graph.output):
        return proto
    producers = {name: node for node in graph.node for name in node.output}
    normalise = producers.get(EMBEDDING_NAME)
    projection = producers.get(normalise.input[0]) if normalise is not None and normalise.input else None
    if projection is None or projection.op_type != "Gemm":
        raise ExportError("cannot find the embedding's projection (a Gemm feeding 'embedding') in the graph")
    pooled = projection.input[0]
    graph.node.append(onnx.helper.make_node("Identity", [pooled], [FEATURES_NAME], name=FEATURES_NAME))
    graph.output.append(
        onnx.helper.make_tensor_value_info(FEATURES_NAME, onnx.TensorProto.FLOAT, ["batch", None]))
    return proto


def export_onnx(
    model: CardNet,
    out: Path,
    labels: Sequence[str],
    width: int,
    height: int,
    mean: Sequence[float],
    std: Sequence[float],
    trained_on: Sequence[str],
    version_prefix: str = "cardnet",
) -> str:
    """Write ``model`` to ``out`` as ONNX with its metadata; return the ``model_version`` written."""
    model = model.eval()
    example = torch.zeros(1, 3, height, width)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model, (example,), buffer, input_names=["image"], output_names=["logits", "embedding"],
            dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}, "embedding": {0: "batch"}},
            opset_version=17, dynamo=False,
        )
    proto = add_features_output(onnx.load_from_string(buffer.getvalue()))
    version = f"{version_prefix}-{width}x{height}-{weights_digest(model)}"
    metadata = {
        "labels": json.dumps(list(labels)),
        "input_width": str(width),
        "input_height": str(height),
        "mean": json.dumps([float(v) for v in mean]),
        "std": json.dumps([float(v) for v in std]),
        "color_order": "RGB",
        "embedding_dim": str(model.embedding_dim),
        "model_version": version,
        "trained_on": json.dumps(list(trained_on)),
    }
    del proto.metadata_props[:]
    for key, value in metadata.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(proto)
    data = proto.SerializeToString()
    if len(data) > MAX_MODEL_BYTES:
        raise ExportError(f"{out}: the model is {len(data)} bytes, over the {MAX_MODEL_BYTES}-byte limit")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    return version


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.training.export --add-features MODEL...``: give models exported before the
    ``features`` output existed that output, in place (weights and ``model_version`` unchanged)."""
    parser = argparse.ArgumentParser(prog="python -m vision.training.export", description=main.__doc__)
    parser.add_argument("--add-features", type=Path, nargs="+", required=True, metavar="MODEL")
    args = parser.parse_args(argv)
    for path in args.add_features:
        try:
            proto = add_features_output(onnx.load(str(path)))
            onnx.checker.check_model(proto)
        except ExportError as error:
            parser.error(f"{path}: {error}")
        except Exception as error:  # onnx raises protobuf and checker errors of its own
            parser.error(f"{path}: not an ONNX model ({type(error).__name__}: {error})")
        onnx.save(proto, str(path))
        print(f"{path}: output 'features' added")
    return 0


if __name__ == "__main__":
    sys.exit(main())
