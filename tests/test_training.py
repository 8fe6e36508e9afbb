"""A tiny training run end to end: render a pool, take a few steps, export an ONNX that keeps the contract.

Skipped cleanly where torch (the ``train`` extra) is not installed, as in CI.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from engine.cards import CLASS_LABELS  # noqa: E402
from vision.decks import find_cards_root, list_styles  # noqa: E402
from vision.preprocess import to_model_input  # noqa: E402
from vision.training.dataset import DatasetError, render_pool  # noqa: E402
from vision.training.export import METADATA_KEYS, export_onnx  # noqa: E402
from vision.training.model import CardNet, CornerSpec, MixStyle  # noqa: E402
from vision.training.train import TrainConfig, parse_args, train  # noqa: E402
from vision.training.train import main as train_main  # noqa: E402


def test_model_outputs_logits_and_unit_embeddings() -> None:
    model = CardNet(len(CLASS_LABELS), embedding_dim=64).eval()
    logits, embedding = model(torch.zeros(3, 3, 96, 64))
    assert logits.shape == (3, 42) and embedding.shape == (3, 64)
    assert torch.allclose(embedding.norm(dim=1), torch.ones(3), atol=1e-5)


def test_export_writes_a_valid_onnx_with_every_metadata_key(tmp_path: Path) -> None:
    import onnx
    import onnxruntime as ort

    model = CardNet(len(CLASS_LABELS), embedding_dim=64)
    out = tmp_path / "cards.onnx"
    version = export_onnx(model, out, CLASS_LABELS, 64, 96, (0.5, 0.5, 0.5), (0.25, 0.25, 0.25), ["a", "b"])
    onnx.checker.check_model(onnx.load(str(out)))
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    metadata = session.get_modelmeta().custom_metadata_map
    assert set(METADATA_KEYS) <= set(metadata)
    assert json.loads(metadata["labels"]) == list(CLASS_LABELS)
    assert metadata["model_version"] == version and metadata["color_order"] == "RGB"
    sizes = (metadata["input_width"], metadata["input_height"], metadata["embedding_dim"])
    assert sizes == ("64", "96", "64")
    crops = [np.full((150, 100, 3), v, np.uint8) for v in (0, 128, 255, 60, 200)]
    batch = to_model_input(crops, 64, 96, json.loads(metadata["mean"]), json.loads(metadata["std"]))
    logits, embedding = session.run(["logits", "embedding"], {"image": batch})
    assert logits.shape == (5, 42) and embedding.shape == (5, 64)
    with torch.no_grad():
        expected, _ = model.eval()(torch.from_numpy(batch))
        pooled = model.pooled(torch.from_numpy(batch))
    assert np.allclose(logits, expected.numpy(), atol=1e-4)
    (features,) = session.run(["features"], {"image": batch})
    assert features.shape == (5, pooled.shape[1]) and np.allclose(features, pooled.numpy(), atol=1e-4)


def test_the_corner_branch_reads_the_top_left_corner_at_the_full_input_resolution() -> None:
    corner = CornerSpec(width=16, height=20, factor=2)
    model = CardNet(len(CLASS_LABELS), embedding_dim=32, corner=corner).eval()
    assert model.input_factor == 2
    image = torch.rand(1, 3, 96, 64, generator=torch.Generator().manual_seed(1))
    trunk_width = model.features[-1].pointwise[0].out_channels
    with torch.no_grad():
        pooled = model.pooled(image)
        elsewhere, inside = image.clone(), image.clone()
        elsewhere[:, :, 40:, 30:] = 0.0
        inside[:, :, :20, :16] = 0.0
        corner_unchanged = model.pooled(elsewhere)[:, trunk_width:]
        corner_changed = model.pooled(inside)[:, trunk_width:]
        logits, embedding = model(image)
    assert pooled.shape == (1, trunk_width + model.corner_features[-1].pointwise[0].out_channels)
    assert torch.equal(corner_unchanged, pooled[:, trunk_width:])
    assert not torch.allclose(corner_changed, pooled[:, trunk_width:])
    assert logits.shape == (1, 42) and torch.allclose(embedding.norm(dim=1), torch.ones(1), atol=1e-5)


def test_a_corner_model_exports_its_full_input_size_and_the_concatenated_features(tmp_path: Path) -> None:
    from vision.classifier import CardClassifier

    model = CardNet(len(CLASS_LABELS), embedding_dim=16, corner=CornerSpec(width=16, height=20))
    out = tmp_path / "corner.onnx"
    version = export_onnx(model, out, CLASS_LABELS, 64, 96, (0.5,) * 3, (0.25,) * 3, ["a"],
                          version_prefix="cardnet-corner")
    classifier = CardClassifier.load(out)
    crops = [np.full((150, 100, 3), v, np.uint8) for v in (30, 220)]
    readings = classifier.read(crops)
    assert version.startswith("cardnet-corner-64x96-")
    assert (classifier.info.width, classifier.info.height) == (64, 96)
    assert readings.features is not None and readings.features.shape == (2, classifier.info.features_dim)
    assert classifier.info.features_dim == model.pooled(torch.zeros(1, 3, 96, 64)).shape[1]


def test_a_corner_branch_doubles_the_input_the_trainer_renders_and_feeds() -> None:
    plain = parse_args(["--out", "m.onnx"])
    corner = parse_args(["--out", "m.onnx", "--corner", "--width", "40", "--height", "60"])
    assert plain.input_size == (64, 96) and plain.corner_spec is None
    assert corner.input_size == (80, 120) and corner.corner_spec == CornerSpec()
    narrow = parse_args(["--out", "m.onnx", "--corner", "--corner-width", "24"])
    assert narrow.corner_spec == CornerSpec(width=24)
    tall = parse_args(["--out", "m.onnx", "--corner", "--corner-height", "64"])
    assert tall.corner_spec == CornerSpec(height=64) and tall.input_size == (128, 192)


def test_a_full_trunk_sees_detail_that_the_average_pooled_trunk_cannot() -> None:
    """A pattern whose every 2x2 block averages to grey, away from the corner: the pooled trunk reads the
    grey card, the full-resolution trunk reads the pattern."""
    torch.manual_seed(0)
    grey = torch.full((1, 3, 96, 64), 0.5)
    checked = grey.clone()
    checked[:, :, 40:, :] += 0.4 * (torch.arange(64) % 2 * 2 - 1).float()
    for full_trunk in (False, True):
        model = CardNet(len(CLASS_LABELS), embedding_dim=16, corner=CornerSpec(width=16, height=20),
                        full_trunk=full_trunk).eval()
        with torch.no_grad():
            plain, patterned = model.pooled(grey), model.pooled(checked)
        assert torch.allclose(plain, patterned, atol=1e-5) is not full_trunk
        assert plain.shape == (1, 256 + 96)


def test_a_full_trunk_is_asked_for_with_a_corner_branch_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_args(["--out", "m.onnx", "--corner", "--full-trunk"]).full_trunk
    assert not parse_args(["--out", "m.onnx", "--corner"]).full_trunk
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--full-trunk"])
    assert "--full-trunk reads the input of a corner model" in capsys.readouterr().err
    with pytest.raises(ValueError, match="full-resolution trunk"):
        CardNet(len(CLASS_LABELS), full_trunk=True)


def test_corner_dropout_silences_the_branch_for_some_training_crops_and_never_when_reading() -> None:
    torch.manual_seed(0)
    model = CardNet(len(CLASS_LABELS), embedding_dim=16, corner=CornerSpec(width=16, height=20, dropout=0.5))
    trunk_width = model.features[-1].pointwise[0].out_channels
    image = torch.rand(64, 3, 96, 64, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        training = model.train().pooled(image)[:, trunk_width:]
        reading = model.eval().pooled(image)[:, trunk_width:]
    silenced = (training == 0).all(dim=1)
    assert 10 <= int(silenced.sum()) <= 54
    assert not (reading == 0).all(dim=1).any()


def test_the_network_trains_on_the_cpu_unless_a_device_is_named() -> None:
    assert parse_args(["--out", "m.onnx"]).device == "cpu"
    assert parse_args(["--out", "m.onnx", "--device", "cpu"]).device == "cpu"


def test_a_device_that_is_not_a_torch_device_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--device", "gpu0"])
    assert "--device 'gpu0' is not a torch device" in capsys.readouterr().err


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA GPU")
def test_a_cuda_device_on_a_machine_without_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--device", "cuda"])
    assert "--device 'cuda': this torch has no CUDA GPU to use" in capsys.readouterr().err


def test_a_corner_dropout_outside_zero_to_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--corner", "--corner-dropout", "1.0"])
    assert "--corner-dropout is a share of the training crops" in capsys.readouterr().err
    with pytest.raises(ValueError, match="corner dropout"):
        CornerSpec(dropout=-0.1)


def test_mixstyle_mixes_each_crops_feature_statistics_with_another_crops_and_only_in_training() -> None:
    torch.manual_seed(3)
    layer = MixStyle(p=1.0, alpha=0.5)
    offsets = torch.arange(8, dtype=torch.float32).view(8, 1, 1, 1) * 10
    features = torch.randn(8, 4, 6, 6, generator=torch.Generator().manual_seed(1)) + offsets
    mixed = layer.train()(features)
    means_before, means_after = features.mean(dim=(2, 3)), mixed.mean(dim=(2, 3))
    assert not torch.allclose(means_before, means_after)
    assert (means_after >= means_before.min(dim=0).values - 1e-4).all()
    assert (means_after <= means_before.max(dim=0).values + 1e-4).all()
    # Normalised to zero mean and unit spread per channel, each crop keeps its own pattern.
    def normalised(x: torch.Tensor) -> torch.Tensor:
        return (x - x.mean(dim=(2, 3), keepdim=True)) / x.std(dim=(2, 3), keepdim=True)
    assert torch.allclose(normalised(mixed), normalised(features), atol=1e-3)
    assert layer.eval()(features) is features
    assert MixStyle(p=0.0).train()(features) is features


def test_a_mixstyle_model_reads_exactly_like_one_without_when_not_training() -> None:
    def built(mixstyle: float) -> CardNet:
        torch.manual_seed(0)
        return CardNet(len(CLASS_LABELS), embedding_dim=16, corner=CornerSpec(width=16, height=20),
                       mixstyle=mixstyle).eval()

    mixing, plain = built(1.0), built(0.0)
    assert sum(isinstance(layer, MixStyle) for layer in mixing.modules()) == 4
    assert not any(isinstance(layer, MixStyle) for layer in plain.modules())
    image = torch.rand(4, 3, 96, 64, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        assert torch.equal(mixing(image)[0], plain(image)[0])
    assert parse_args(["--out", "m.onnx", "--mixstyle", "0.5"]).mixstyle == 0.5


def test_a_mixstyle_probability_outside_zero_to_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--mixstyle", "1.5"])
    assert "--mixstyle is a probability per batch" in capsys.readouterr().err
    with pytest.raises(ValueError, match="MixStyle's probability"):
        MixStyle(p=-0.1)


@pytest.mark.parametrize("option", ["--corner-width", "--corner-height"])
def test_a_corner_smaller_than_eight_pixels_is_refused(option: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="8x8"):
        CornerSpec(width=4, height=48)
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--corner", option, "6"])
    assert f"{option} is at least 8 input pixels; got 6" in capsys.readouterr().err


def test_the_features_output_is_added_once_and_keeps_the_weights(tmp_path: Path) -> None:
    import onnx

    from vision.training.export import add_features_output, main

    out = tmp_path / "cards.onnx"
    export_onnx(CardNet(len(CLASS_LABELS), embedding_dim=16), out, CLASS_LABELS, 32, 48, (0.5,) * 3,
                (0.25,) * 3, ["a"])
    exported = onnx.load(str(out))
    again = add_features_output(onnx.load(str(out)))
    assert [o.name for o in again.graph.output] == ["logits", "embedding", "features"]
    assert again.SerializeToString() == exported.SerializeToString()
    assert main(["--add-features", str(out)]) == 0  # a model that has it already is kept as it is
    assert onnx.load(str(out)).graph.initializer == exported.graph.initializer


def test_adding_features_to_a_file_that_is_not_a_model_names_it(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from vision.training.export import main

    bad = tmp_path / "broken.onnx"
    bad.write_bytes(b"garbage")
    with pytest.raises(SystemExit):
        main(["--add-features", str(bad)])
    assert "broken.onnx: not an ONNX model" in capsys.readouterr().err
    assert bad.read_bytes() == b"garbage"


@pytest.mark.skipif(find_cards_root() is None, reason="needs the deck artwork in shared/cards")
@pytest.mark.parametrize("corner", [False, True])
def test_a_tiny_training_run_steps_and_the_pool_is_seeded(tmp_path: Path, corner: bool) -> None:
    root = find_cards_root()
    style = list_styles(root)[0]
    first = render_pool(root, [style], 24, 32, 48, seed=3, workers=1)
    again = render_pool(root, [style], 24, 32, 48, seed=3, workers=1)
    assert np.array_equal(first.images, again.images) and np.array_equal(first.labels, again.labels)
    assert first.images.shape == (24, 48, 32, 3) and set(first.style_ids.tolist()) == {0}
    config = TrainConfig(out=tmp_path / "m.onnx", width=32, height=48, pool=64, val_pool=16, steps=3,
                         batch=16, workers=1, threads=1, embedding_dim=64, styles=(style,), corner=corner)
    model = train(config)
    factor = model.input_factor
    assert config.input_size == (32 * factor, 48 * factor) and factor == (2 if corner else 1)
    logits, _ = model(torch.zeros(1, 3, 48 * factor, 32 * factor))
    assert torch.isfinite(logits).all()


@pytest.mark.skipif(find_cards_root() is None, reason="needs the deck artwork in shared/cards")
def test_a_pool_drops_the_crops_of_held_out_styles() -> None:
    root = find_cards_root()
    styles = list_styles(root)[:3]
    pool = render_pool(root, list(reversed(styles)), 40, 32, 48, seed=5, workers=1)
    assert pool.style_names == tuple(sorted(styles))
    kept = pool.without([styles[1]])
    dropped = pool.style_names.index(styles[1])
    assert dropped not in kept.style_ids.tolist() and len(kept.images) == len(kept.labels)
    assert len(kept.images) == int((pool.style_ids != dropped).sum()) < len(pool.images)


def test_a_pool_without_styles_is_refused() -> None:
    with pytest.raises(DatasetError, match="no deck styles"):
        render_pool(Path("/nowhere"), [], 10, 64, 96, seed=0)


@pytest.mark.slow
@pytest.mark.skipif(find_cards_root() is None, reason="needs the deck artwork in shared/cards")
def test_evaluation_reads_a_style_zero_shot_and_enrolled(tmp_path: Path) -> None:
    from vision.classifier import CardClassifier
    from vision.training.evaluate import evaluate_style, markdown_table

    out = tmp_path / "cards.onnx"
    model = CardNet(len(CLASS_LABELS), embedding_dim=64)
    export_onnx(model, out, CLASS_LABELS, 32, 48, (0.5,) * 3, (0.25,) * 3, ["bolognesi"])
    result = evaluate_style(CardClassifier.load(out), find_cards_root(), "bolognesi", 1, seed=1, enrol=True)
    assert result.crops == len(CLASS_LABELS)
    assert 0.0 <= result.cards <= 1.0 and result.cards_enrolled is not None
    table = markdown_table([result])
    assert "| bolognesi | 42 |" in table


def test_a_restyle_share_outside_zero_to_one_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--restyle", "1.5"])
    error = capsys.readouterr().err
    assert "--restyle" in error and "1.5" in error
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--figure-swap", "-0.2"])
    error = capsys.readouterr().err
    assert "--figure-swap" in error and "-0.2" in error


@pytest.mark.parametrize("option", ["--restyle", "--figure-swap", "--decorate", "--numeral-swap",
                                    "--number-swap", "--jumbo-index", "--ink-tint", "--half-mix",
                                    "--italian-share", "--pysol-share", "--synth-share", "--randconv",
                                    "--mixstyle", "--foreign-none", "--index-typeface", "--index-erase",
                                    "--italian-index"])
def test_every_share_option_refuses_a_value_outside_zero_to_one_and_keeps_a_valid_one(
    option: str, capsys: pytest.CaptureFixture[str],
) -> None:
    for bad in ("1.01", "-0.5"):
        with pytest.raises(SystemExit):
            parse_args(["--out", "m.onnx", option, bad])
        error = capsys.readouterr().err
        assert f"{option} is a " in error and "between 0 and 1" in error and f"got {float(bad)}" in error
    assert getattr(parse_args(["--out", "m.onnx", option, "0.25"]), option[2:].replace("-", "_")) == 0.25


def test_the_foreign_none_share_reaches_the_pool_the_trainer_renders() -> None:
    config = parse_args(["--out", "m.onnx", "--foreign-none", "0.75"])
    assert config.augmentations.p_foreign_none == 0.75
    assert parse_args(["--out", "m.onnx"]).augmentations.p_foreign_none == 0.0


def test_the_index_erase_share_reaches_the_pool_the_trainer_renders() -> None:
    assert parse_args(["--out", "m.onnx", "--index-erase", "0.4"]).augmentations.p_index_erase == 0.4
    assert parse_args(["--out", "m.onnx"]).augmentations.p_index_erase == 0.0


def test_the_italian_index_share_reaches_the_pool_the_trainer_renders() -> None:
    assert parse_args(["--out", "m.onnx", "--italian-index", "0.3"]).augmentations.p_italian_index == 0.3
    assert parse_args(["--out", "m.onnx"]).augmentations.p_italian_index == 0.0


def test_a_decorate_share_outside_zero_to_one_is_refused_and_a_valid_one_kept(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--decorate", "2"])
    assert "--decorate is a share of the number cards" in capsys.readouterr().err
    assert parse_args(["--out", "m.onnx", "--decorate", "0.3"]).decorate == 0.3


@pytest.mark.skipif(find_cards_root() is None, reason="needs the deck artwork in shared/cards")
def test_the_training_command_writes_the_model_and_its_style_bank_beside_it(tmp_path: Path) -> None:
    """Here with the tried options that act inside the training loop (random convolutions, suit and
    rank heads): the exported model keeps the contract with them; and its 8-bit copy is written too,
    with its own bank."""
    from vision.classifier import CardClassifier
    from vision.style_bank import bank_path
    from vision.training.quantize import is_quantized_version_of

    style = list_styles(find_cards_root())[0]
    out, quantized_out = tmp_path / "m.fp32.onnx", tmp_path / "m.onnx"
    assert train_main(["--out", str(out), "--quantized-out", str(quantized_out), "--width", "32",
                       "--height", "48", "--pool", "64", "--val-pool", "16", "--steps", "2", "--batch", "16",
                       "--workers", "1", "--threads", "1", "--styles", style, "--randconv", "0.5",
                       "--suit-rank", "0.5"]) == 0
    classifier, quantized = CardClassifier.load(out), CardClassifier.load(quantized_out)
    assert classifier.bank is not None and bank_path(out).is_file()
    assert classifier.bank.styles == (style,)
    assert classifier.bank.model_version == classifier.info.model_version
    assert is_quantized_version_of(quantized.info.model_version, classifier.info.model_version)
    assert quantized.bank is not None and quantized.bank.model_version == quantized.info.model_version


@pytest.mark.skipif(find_cards_root() is None, reason="needs the deck artwork in shared/cards")
def test_averaged_weights_are_exported_and_the_last_ones_kept_beside_them_when_asked(tmp_path: Path) -> None:
    from vision.classifier import CardClassifier

    style = list_styles(find_cards_root())[0]
    out, final = tmp_path / "m.onnx", tmp_path / "final.onnx"
    assert train_main(["--out", str(out), "--width", "32", "--height", "48", "--pool", "64",
                       "--val-pool", "16", "--steps", "30", "--batch", "16", "--workers", "1",
                       "--threads", "1", "--styles", style, "--average-from", "0.5",
                       "--keep-final", str(final)]) == 0
    averaged, last = CardClassifier.load(out), CardClassifier.load(final)
    assert averaged.bank is not None and last.bank is not None
    assert averaged.info.model_version != last.info.model_version


@pytest.mark.skipif(find_cards_root() is None, reason="needs the deck artwork in shared/cards")
def test_an_average_is_of_the_weights_and_its_batch_norm_is_measured_again(tmp_path: Path) -> None:
    from vision.training.train import train_both

    root = find_cards_root()
    config = TrainConfig(out=tmp_path / "m.onnx", width=32, height=48, pool=64, val_pool=16, steps=30,
                         batch=16, workers=1, threads=1, embedding_dim=16, styles=(list_styles(root)[0],),
                         average_from=0.5)
    final, averaged = train_both(config)
    assert final is not averaged and not averaged.training
    last_weights = dict(final.named_parameters())
    moved = [name for name, value in averaged.named_parameters()
             if not torch.allclose(value, last_weights[name])]
    assert len(moved) > len(last_weights) // 2
    stem_norm = averaged.features[0][1]
    assert not torch.allclose(stem_norm.running_mean, final.features[0][1].running_mean)
    assert stem_norm.momentum == final.features[0][1].momentum
    plain = TrainConfig(out=tmp_path / "p.onnx", width=32, height=48, pool=64, val_pool=16, steps=2,
                        batch=16, workers=1, threads=1, embedding_dim=16, styles=config.styles)
    once, same = train_both(plain)
    assert once is same


def test_averaging_options_are_checked_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_args(["--out", "m.onnx", "--average-from", "0.75"]).average_from == 0.75
    for argv, message in ((["--average-from", "1"], "--average-from is a share of the steps"),
                          (["--keep-final", "f.onnx"], "--keep-final keeps the last weights")):
        with pytest.raises(SystemExit):
            parse_args(["--out", "m.onnx", *argv])
        assert message in capsys.readouterr().err


def test_the_suit_and_rank_heads_learn_each_cards_suit_and_rank_and_skip_backs_and_nones() -> None:
    from vision.training.train import RANK_TARGETS, SUIT_TARGETS, suit_rank_loss

    assert (SUIT_TARGETS[CLASS_LABELS.index("3s")], RANK_TARGETS[CLASS_LABELS.index("3s")]) == (2, 2)
    assert (SUIT_TARGETS[CLASS_LABELS.index("10c")], RANK_TARGETS[CLASS_LABELS.index("10c")]) == (0, 9)
    assert SUIT_TARGETS[CLASS_LABELS.index("back")] == RANK_TARGETS[CLASS_LABELS.index("none")] == -100
    torch.manual_seed(0)
    model = CardNet(len(CLASS_LABELS), embedding_dim=16, suit_rank=True)
    embedding = torch.nn.functional.normalize(torch.randn(3, 16), dim=1)
    cards = np.array([CLASS_LABELS.index(code) for code in ("1c", "7b", "10d")])
    loss = suit_rank_loss(model, embedding, cards)
    assert loss.item() > 0 and loss.requires_grad
    blanks = np.array([CLASS_LABELS.index("back"), CLASS_LABELS.index("none"), CLASS_LABELS.index("none")])
    assert suit_rank_loss(model, embedding, blanks).item() == 0.0
    mixed = np.array([cards[0], blanks[0], blanks[1]])
    assert suit_rank_loss(model, embedding, mixed).item() == pytest.approx(
        suit_rank_loss(model, embedding[:1], cards[:1]).item(), rel=1e-5)


def test_the_suit_and_rank_heads_leave_the_reading_as_it_is_and_are_asked_for() -> None:
    def built(suit_rank: bool) -> CardNet:
        torch.manual_seed(0)
        return CardNet(len(CLASS_LABELS), embedding_dim=16, suit_rank=suit_rank).eval()

    with_heads, without = built(True), built(False)
    image = torch.rand(2, 3, 96, 64, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        assert torch.equal(with_heads(image)[0], without(image)[0])
    with pytest.raises(ValueError, match="no suit and rank heads"):
        without.suit_rank_logits(torch.zeros(1, 16))
    assert parse_args(["--out", "m.onnx", "--suit-rank", "0.5"]).suit_rank == 0.5


def test_a_negative_suit_rank_weight_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--suit-rank", "-1"])
    assert "--suit-rank is the weight of a loss" in capsys.readouterr().err


def test_the_train_command_wants_the_typeface_share_and_a_folder_with_faces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    face_file = tmp_path / "faces" / "Face.ttf"
    face_file.parent.mkdir()
    face_file.write_bytes(b"a face file (only its name is looked at here)")
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--index-fonts", str(face_file.parent)])
    assert "give --index-typeface or --italian-index too" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SystemExit):
        parse_args(["--out", "m.onnx", "--index-typeface", "0.4", "--index-fonts", str(empty)])
    assert f"--index-fonts: {empty}: no TrueType or OpenType face" in capsys.readouterr().err
    args = parse_args(["--out", "m.onnx", "--index-typeface", "0.4", "--index-fonts", str(face_file.parent)])
    assert args.index_fonts == face_file.parent
    args = parse_args(["--out", "m.onnx", "--italian-index", "0.3", "--index-fonts", str(face_file.parent)])
    assert args.index_fonts == face_file.parent
