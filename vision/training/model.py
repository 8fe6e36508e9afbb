"""The card classifier network: a small MobileNet-style CNN with a cosine classifier head.

Depthwise-separable convolutions with batch norm and ReLU, global average pooling, then a linear
projection to a ``embedding_dim`` vector that is L2-normalised. The logits are the cosines between
that embedding and one learned unit vector per class, times a fixed scale: so the embedding the
runtime uses for enrolment (nearest prototype) lives in exactly the space the classes were learned in.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

# (output channels, stride) of each depthwise-separable block after the stem. The first block
# already halves the resolution: on a CPU the full-resolution layers dominate the training time, and
# halving early makes training about twice as fast for the same accuracy budget. Doubling the widths of
# the first design (16 .. 160 channels) cost only 17% more time per training step on one CPU thread
# (batch norm and memory traffic, not multiply-adds, dominate there) and the small net was underfitting.
DEFAULT_BLOCKS: tuple[tuple[int, int], ...] = (
    (48, 2), (64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (256, 1),
)
DEFAULT_STEM = 24


def _conv_bn_relu(in_ch: int, out_ch: int, kernel: int, stride: int, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_ch, out_ch, kernel, stride, kernel // 2, groups=groups, bias=False),
        nn.BatchNorm2d(out_ch),
        nn.ReLU(inplace=True),
    )


class SeparableBlock(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, each with BN and ReLU; a residual add when shapes match."""

    def __init__(self, in_ch: int, out_ch: int, stride: int) -> None:
        super().__init__()
        self.depthwise = _conv_bn_relu(in_ch, in_ch, 3, stride, groups=in_ch)
        self.pointwise = _conv_bn_relu(in_ch, out_ch, 1, 1)
        self.residual = stride == 1 and in_ch == out_ch

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pointwise(self.depthwise(x))
        return x + y if self.residual else y


class CardNet(nn.Module):
    """Image ``[N, 3, H, W]`` -> (logits ``[N, classes]``, unit embedding ``[N, embedding_dim]``)."""

    def __init__(self, num_classes: int, embedding_dim: int = 128, stem: int = DEFAULT_STEM,
                 blocks: tuple[tuple[int, int], ...] = DEFAULT_BLOCKS, scale: float = 16.0) -> None:
        super().__init__()
        layers: list[nn.Module] = [_conv_bn_relu(3, stem, 3, 2)]
        channels = stem
        for out_ch, stride in blocks:
            layers.append(SeparableBlock(channels, out_ch, stride))
            channels = out_ch
        self.features = nn.Sequential(*layers)
        self.project = nn.Linear(channels, embedding_dim)
        self.class_vectors = nn.Parameter(torch.randn(num_classes, embedding_dim) * 0.1)
        self.scale = scale
        self.embedding_dim = embedding_dim

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        pooled = self.features(image).mean(dim=(2, 3))
        embedding = F.normalize(self.project(pooled), dim=1)
        logits = self.scale * embedding @ F.normalize(self.class_vectors, dim=1).t()
        return logits, embedding
