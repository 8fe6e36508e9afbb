"""Random convolutions over a training batch (``train --randconv SHARE``), tried on held-out twins.

Xu et al., "Robust and generalizable visual representation learning via random convolutions" (ICLR
2021): a convolution with random weights keeps the shapes of an image and changes its local texture,
colours and line quality at random, which helped small networks trained from scratch on a few domains
read unseen ones. Here a share of the crops of each batch is passed through one of a few random
3->3 convolutions (kernel 1, 3, 5 or 7; weights drawn as for a fresh layer), rescaled to the crop's
own mean and spread per channel, and blended with the crop by a weight drawn uniformly. Training
only: the exported model never sees it. No numpy randomness: everything comes from the
``torch.Generator`` passed in, so the same seed gives the same batches.
"""

from __future__ import annotations

import torch
from torch.nn import functional as F  # noqa: N812

KERNEL_SIZES: tuple[int, ...] = (1, 3, 5, 7)
CROPS_PER_KERNEL = 16  # the chosen crops are convolved in groups, one random kernel per group


def _rescaled_like(output: torch.Tensor, source: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """``output`` moved to ``source``'s mean and standard deviation, per crop and channel."""
    out_mean = output.mean(dim=(2, 3), keepdim=True)
    out_std = output.std(dim=(2, 3), keepdim=True)
    return (output - out_mean) / (out_std + eps) * source.std(dim=(2, 3), keepdim=True) + source.mean(
        dim=(2, 3), keepdim=True)


def random_convolution(crops: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One random convolution of ``crops`` ``[N, 3, H, W]`` (edges replicated), rescaled to each crop's
    own statistics and blended with it by a uniform weight per crop."""
    kernel = KERNEL_SIZES[int(torch.randint(len(KERNEL_SIZES), (1,), generator=generator))]
    channels = crops.shape[1]
    spread = 1.0 / (kernel * channels ** 0.5)
    weights = torch.randn(channels, channels, kernel, kernel, generator=generator) * spread
    padded = F.pad(crops, (kernel // 2,) * 4, mode="replicate") if kernel > 1 else crops
    convolved = _rescaled_like(F.conv2d(padded, weights), crops)
    blend = torch.rand(len(crops), 1, 1, 1, generator=generator)
    return blend * crops + (1.0 - blend) * convolved


def random_convolutions(batch: torch.Tensor, share: float, generator: torch.Generator) -> torch.Tensor:
    """``batch`` with about ``share`` of its crops passed through ``random_convolution`` (a new kernel for
    each group of ``CROPS_PER_KERNEL``); the other crops are returned as they were."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"the random-convolution share is between 0 and 1, got {share}")
    chosen = torch.nonzero(torch.rand(len(batch), generator=generator) < share).flatten()
    if len(chosen) == 0:
        return batch
    result = batch.clone()
    for start in range(0, len(chosen), CROPS_PER_KERNEL):
        group = chosen[start:start + CROPS_PER_KERNEL]
        result[group] = random_convolution(batch[group], generator)
    return result
