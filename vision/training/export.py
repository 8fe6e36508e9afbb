"""Export a trained CardNet to ONNX with the metadata the runtime reads (``models/README.md``).

Contract: input ``image`` float32 ``[N, 3, H, W]`` (RGB, ``to_model_input``); outputs ``logits``
``[N, 42]`` and ``embedding`` ``[N, D]`` (unit length); dynamic batch axis; ``metadata_props``
``labels``, ``input_width``, ``input_height``, ``mean``, ``std``, ``color_order``, ``embedding_dim``,
``model_version`` and ``trained_on`` (all strings; lists as JSON).
"""

from __future__ import annotations

import hashlib
import io
import json
import warnings
from collections.abc import Sequence
from pathlib import Path

import onnx
import torch

from vision.errors import VisionError
from vision.training.model import CardNet

MAX_MODEL_BYTES = 5 * 1024 * 1024
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
    proto = onnx.load_from_string(buffer.getvalue())
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
