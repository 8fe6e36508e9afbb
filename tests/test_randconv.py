"""Random convolutions over a training batch (``train --randconv``): which crops change, and how.

Skipped cleanly where torch (the ``train`` extra) is not installed, as in CI.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from vision.training.randconv import random_convolution, random_convolutions  # noqa: E402
from vision.training.train import parse_args  # noqa: E402


def _batch(count: int = 40) -> torch.Tensor:
    """Crops with a bright square on a dark ground, each at its own brightness."""
    crops = torch.full((count, 3, 24, 16), -1.0)
    crops[:, :, 8:16, 4:12] = 1.0
    return crops * torch.linspace(0.5, 2.0, count).view(count, 1, 1, 1)


def test_only_about_the_share_of_crops_change_and_the_rest_are_returned_as_they_were() -> None:
    batch = _batch(400)
    result = random_convolutions(batch, 0.25, torch.Generator().manual_seed(4))
    changed = (result - batch).abs().flatten(1).amax(dim=1) > 1e-6
    assert 60 <= int(changed.sum()) <= 140
    assert torch.equal(result[~changed], batch[~changed])
    assert torch.equal(batch, _batch(400))  # the input is not touched


def test_a_share_of_zero_returns_the_batch_and_one_changes_every_crop() -> None:
    batch = _batch()
    assert random_convolutions(batch, 0.0, torch.Generator().manual_seed(1)) is batch
    everything = random_convolutions(batch, 1.0, torch.Generator().manual_seed(1))
    assert ((everything - batch).abs().flatten(1).amax(dim=1) > 1e-6).all()


def test_a_convolved_crop_keeps_its_statistics_and_its_shape() -> None:
    batch = _batch(16)
    for seed in range(8):
        result = random_convolution(batch, torch.Generator().manual_seed(seed))
        assert result.shape == batch.shape
        # Blended with a copy rescaled to the crop's own mean per channel: the mean stays.
        assert torch.allclose(result.mean(dim=(2, 3)), batch.mean(dim=(2, 3)), atol=1e-4)
        # The square still stands apart from the ground in some channel (in one direction or the other).
        inside, outside = result[:, :, 10:14, 6:10].mean(dim=(2, 3)), result[:, :, :4, :].mean(dim=(2, 3))
        assert ((inside - outside).abs().amax(dim=1) > 0.05).all()


def test_the_same_seed_gives_the_same_batch() -> None:
    batch = _batch()
    first = random_convolutions(batch, 0.5, torch.Generator().manual_seed(9))
    again = random_convolutions(batch, 0.5, torch.Generator().manual_seed(9))
    other = random_convolutions(batch, 0.5, torch.Generator().manual_seed(10))
    assert torch.equal(first, again) and not torch.equal(first, other)


def test_a_share_outside_zero_to_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match=r"random-convolution share is between 0 and 1, got 1\.5"):
        random_convolutions(_batch(), 1.5, torch.Generator())
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--randconv", "-0.2"])
    assert "--randconv is a share of the crops of each batch" in capsys.readouterr().err
    assert parse_args(["--out", "m.onnx", "--randconv", "0.5"]).randconv == 0.5
