"""The card classifier network: a small MobileNet-style CNN with a cosine classifier head.

Depthwise-separable convolutions with batch norm and ReLU, global average pooling, then a linear
projection to a ``embedding_dim`` vector that is L2-normalised. The logits are the cosines between
that embedding and one learned unit vector per class, times a fixed scale: so the embedding the
runtime uses for enrolment (nearest prototype) lives in exactly the space the classes were learned in.

Optional suit and rank heads (``train --suit-rank WEIGHT``, training only) read the embedding as the
card's suit and rank apart, so that what a rank looks like is learnt across the four suits.

An optional corner branch (``CornerSpec``, ``train --corner``, the shipped recipe: see ``models/README.md``)
reads the crop's top-left corner at twice the trunk's resolution; with ``full_trunk`` (``train --full-trunk``)
the trunk too reads the whole input at that resolution, through one more halving stage in place of the
average pooling; with ``lite0_blocks`` (``train --lite0-blocks``) the trunk is the first blocks of
EfficientNet-Lite0 (``vision.training.pretrained``), started from ImageNet weights. An optional
``MixStyle`` (training only) mixes the early feature statistics of two crops, so that the deck's print
matters less than the shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

from engine.cards import RANKS, SUITS
from vision.training.pretrained import Lite0Trunk

# (output channels, stride) of each depthwise-separable block after the stem. The first block
# already halves the resolution: on a CPU the full-resolution layers dominate the training time, and
# halving early makes training about twice as fast for the same accuracy budget. Doubling the widths of
# the first design (16 .. 160 channels) cost only 17% more time per training step on one CPU thread
# (batch norm and memory traffic, not multiply-adds, dominate there) and the small net was underfitting.
DEFAULT_BLOCKS: tuple[tuple[int, int], ...] = (
    (48, 2), (64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (256, 1),
)
DEFAULT_STEM = 24
# The corner branch (``CornerSpec``): a few narrow blocks over the top-left corner at twice the trunk's
# resolution, where a French card's index prints its rank and, under it, a suit symbol a few pixels wide.
CORNER_BLOCKS: tuple[tuple[int, int], ...] = ((32, 1), (64, 2), (96, 2), (96, 1))
CORNER_STEM = 16
# ``full_trunk``: the stem and the stage that take the trunk from the full input to the resolution its
# blocks read, learnt instead of an average pooling (narrow: they run at four times the trunk's pixels).
FULL_TRUNK_STEM = 16
FULL_TRUNK_STAGE: tuple[int, int] = (24, 2)
# How many of the first blocks of each stack a MixStyle follows: the early ones, whose statistics are style.
MIXSTYLE_BLOCKS = 2


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


class MixStyle(nn.Module):
    """Training only: with probability ``p`` per batch, each crop's per-channel feature mean and standard
    deviation are mixed with another crop's of the batch (weight drawn from Beta(``alpha``, ``alpha``)).

    Zhou et al., "Domain generalization with MixStyle" (ICLR 2021): the statistics of early features
    carry the style (here: a deck's palette, line weight and print), so mixing them makes up new styles
    between the decks of a batch. In eval mode, and so in the exported ONNX, it is the identity.
    """

    def __init__(self, p: float, alpha: float = 0.1, eps: float = 1e-6) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"MixStyle's probability is between 0 and 1, got {p}")
        self.p = p
        self.beta = torch.distributions.Beta(alpha, alpha)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.training or len(x) < 2 or torch.rand(()).item() >= self.p:
            return x
        mean = x.mean(dim=(2, 3), keepdim=True).detach()
        std = (x.var(dim=(2, 3), keepdim=True) + self.eps).sqrt().detach()
        weight = self.beta.sample((len(x), 1, 1, 1)).to(x.device, x.dtype)
        partner = torch.randperm(len(x), device=x.device)
        mixed_mean = weight * mean + (1 - weight) * mean[partner]
        mixed_std = weight * std + (1 - weight) * std[partner]
        return (x - mean) / std * mixed_std + mixed_mean


def _separable_stack(stem: int, blocks: tuple[tuple[int, int], ...], stem_stride: int,
                     mixstyle: float = 0.0) -> nn.Sequential:
    """The stem and the blocks; with ``mixstyle`` > 0, a ``MixStyle`` after each of the first two blocks."""
    layers: list[nn.Module] = [_conv_bn_relu(3, stem, 3, stem_stride)]
    channels = stem
    for number, (out_ch, stride) in enumerate(blocks):
        layers.append(SeparableBlock(channels, out_ch, stride))
        if mixstyle > 0 and number < MIXSTYLE_BLOCKS:
            layers.append(MixStyle(mixstyle))
        channels = out_ch
    return nn.Sequential(*layers)


@dataclass(frozen=True)
class CornerSpec:
    """A corner branch: the input is ``factor`` times the trunk's size; the trunk reads it average-pooled
    by ``factor``, the branch reads its top-left ``width`` x ``height`` input pixels at full resolution.

    The runtime reads a crop both ways up where its upright reading is unsure, so the branch then sees
    both printed corners of a card.
    """

    width: int = 40
    height: int = 48
    factor: int = 2
    dropout: float = 0.0  # in training, the share of crops whose corner features are zeroed (rest rescaled)

    def __post_init__(self) -> None:
        if self.factor < 1 or self.width < 8 or self.height < 8:
            raise ValueError(f"a corner of at least 8x8 input pixels and a factor of 1 or more, got {self}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(
                f"corner dropout is a share of the crops, 0 or more and below 1, got {self.dropout}")


def input_factor(corner: CornerSpec | None) -> int:
    """How many times the trunk's input size a model with this corner branch (or none) reads."""
    return corner.factor if corner is not None else 1


class CardNet(nn.Module):
    """Image ``[N, 3, H, W]`` -> (logits ``[N, classes]``, unit embedding ``[N, embedding_dim]``).

    With a ``corner`` spec the image is ``corner.factor`` times the trunk's input size, and the pooled
    vector the embedding is projected from is the trunk's and the corner branch's, concatenated. With
    ``full_trunk`` (a corner of factor 2 only) the trunk reads the image itself, not its average pooling:
    a narrow stem and one more halving stage first, then the same blocks at the same resolutions.
    """

    def __init__(self, num_classes: int, embedding_dim: int = 128, stem: int = DEFAULT_STEM,
                 blocks: tuple[tuple[int, int], ...] = DEFAULT_BLOCKS, scale: float = 16.0,
                 corner: CornerSpec | None = None, mixstyle: float = 0.0, suit_rank: bool = False,
                 full_trunk: bool = False, lite0_blocks: int = 0) -> None:
        super().__init__()
        if full_trunk and (corner is None or corner.factor != 2):
            raise ValueError("a full-resolution trunk reads the input of a corner model of factor 2, "
                             f"got corner={corner}")
        if lite0_blocks and (full_trunk or mixstyle > 0):
            raise ValueError("an EfficientNet-Lite0 trunk has neither a full-resolution stage nor MixStyle, "
                             f"got full_trunk={full_trunk}, mixstyle={mixstyle}")
        self.full_trunk = full_trunk
        self.features: nn.Module
        channels = blocks[-1][0] if blocks else stem
        if lite0_blocks:
            self.features = Lite0Trunk(lite0_blocks)
            channels = self.features.channels
        elif full_trunk:
            self.features = _separable_stack(FULL_TRUNK_STEM, (FULL_TRUNK_STAGE, *blocks), 2, mixstyle)
        else:
            self.features = _separable_stack(stem, blocks, 2, mixstyle)
        self.corner = corner
        self.corner_features = None
        if corner is not None:
            self.corner_features = _separable_stack(CORNER_STEM, CORNER_BLOCKS, 2, mixstyle)
            channels += CORNER_BLOCKS[-1][0]
        self.project = nn.Linear(channels, embedding_dim)
        self.class_vectors = nn.Parameter(torch.randn(num_classes, embedding_dim) * 0.1)
        self.scale = scale
        self.embedding_dim = embedding_dim
        self.suit_head: nn.Linear | None = None
        self.rank_head: nn.Linear | None = None
        if suit_rank:
            self.suit_head = nn.Linear(embedding_dim, len(SUITS))
            self.rank_head = nn.Linear(embedding_dim, len(RANKS))

    @property
    def input_factor(self) -> int:
        """How many times the trunk's input size the model's input is (1 without a corner branch)."""
        return input_factor(self.corner)

    def pooled(self, image: torch.Tensor) -> torch.Tensor:
        """``[N, F]``: the pooled activations the embedding is projected from (the ONNX ``features``):
        the trunk's, then (with a corner branch) the branch's over the image's top-left corner."""
        if self.corner is None or self.corner_features is None:
            return self.features(image).mean(dim=(2, 3))
        factor = self.corner.factor
        trunk = F.avg_pool2d(image, factor) if factor > 1 and not self.full_trunk else image
        corner = image[:, :, :self.corner.height, :self.corner.width]
        corner_pooled = self.corner_features(corner).mean(dim=(2, 3))
        if self.training and self.corner.dropout > 0:
            keep = torch.rand(len(image), 1, device=image.device) >= self.corner.dropout
            corner_pooled = corner_pooled * keep / (1.0 - self.corner.dropout)
        return torch.cat([self.features(trunk).mean(dim=(2, 3)), corner_pooled], dim=1)

    def suit_rank_logits(self, embedding: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Training only: (suit logits ``[N, 4]``, rank logits ``[N, 10]``) of unit embeddings, in the
        order of ``engine.cards.SUITS`` and ``RANKS``. A ValueError for a net built without the heads."""
        if self.suit_head is None or self.rank_head is None:
            raise ValueError("this CardNet has no suit and rank heads (built with suit_rank=False)")
        return self.scale * self.suit_head(embedding), self.scale * self.rank_head(embedding)

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        embedding = F.normalize(self.project(self.pooled(image)), dim=1)
        logits = self.scale * embedding @ F.normalize(self.class_vectors, dim=1).t()
        return logits, embedding
