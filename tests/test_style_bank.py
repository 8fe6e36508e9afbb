"""The style bank: its rule on known answers, the file beside the model, and every way it can be wrong."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from engine.cards import CLASS_LABELS
from tests.test_classifier import write_tiny_model
from vision.classifier import DEFAULT_MODEL_PATH, CardClassifier
from vision.decks import find_cards_root
from vision.style_bank import (
    BANK_FORMAT,
    REVISE_BELOW,
    UNFAMILIAR_BELOW,
    UNFAMILIAR_MIN_CARDS,
    BankError,
    StyleBank,
    bank_path,
    is_unfamiliar_deck,
)
from vision.training import bank as bank_command
from vision.training.bank import build_bank, trained_styles

CARDS_ROOT = find_cards_root()
needs_artwork = pytest.mark.skipif(CARDS_ROOT is None, reason="no card artwork here (../shared/cards)")


def test_a_models_bank_lives_beside_it() -> None:
    assert bank_path(Path("models/cards.onnx")) == Path("models/cards.bank.npz")
    assert bank_path("/tmp/twin.v2.onnx") == Path("/tmp/twin.v2.bank.npz")


def test_the_rule_multiplies_by_the_softmax_of_each_classs_best_cosine_over_the_styles() -> None:
    prototypes = np.array([
        [[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]],  # style one: class a, b, c
        [[0.0, 1.0], [0.6, 0.8], [0.0, 1.0]],  # style two
    ], np.float32)
    bank = StyleBank("v", ("a", "b", "c"), ("one", "two"), prototypes, temperature=0.1)
    similarity = bank.class_similarity(np.array([[1.0, 0.0]], np.float32))
    np.testing.assert_allclose(similarity, [[1.0, 0.6, 0.0]], atol=1e-6)
    adjusted = bank.adjust(np.array([[0.5, 0.5, 0.0]], np.float32), np.array([[1.0, 0.0]], np.float32))
    # 0.5 e^10 : 0.5 e^6 : 0, renormalised.
    np.testing.assert_allclose(adjusted, [[1 / (1 + np.exp(-4)), np.exp(-4) / (1 + np.exp(-4)), 0.0]],
                               rtol=1e-5)


def test_a_crop_read_surely_is_left_as_the_head_reads_it() -> None:
    prototypes = np.array([[[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]], np.float32)
    bank = StyleBank("v", ("a", "b", "c"), ("one",), prototypes, temperature=0.1)
    sure = [0.05, REVISE_BELOW, 0.05]  # the bank would pull this crop towards "a"
    unsure = [0.5, 0.5, 0.0]
    embeddings = np.array([[1.0, 0.0], [1.0, 0.0]], np.float32)
    adjusted = bank.adjust(np.array([sure, unsure], np.float32), embeddings)
    np.testing.assert_allclose(adjusted[0], sure, rtol=1e-6)
    np.testing.assert_allclose(adjusted[1], bank.adjust(np.array([unsure], np.float32), embeddings[:1])[0])
    assert adjusted[1].argmax() == 0
    everything = StyleBank("v", ("a", "b", "c"), ("one",), prototypes, temperature=0.1, revise_below=1.01)
    assert everything.adjust(np.array([sure], np.float32), embeddings[:1])[0].argmax() == 0


@pytest.mark.parametrize("below", [-0.1, float("nan"), True, "0.9"])
def test_a_bad_revise_below_is_refused(below: object) -> None:
    prototypes = np.ones((1, 3, 2), np.float32) / np.sqrt(2)
    with pytest.raises(BankError, match="revise_below must be a probability"):
        StyleBank("v", ("a", "b", "c"), ("one",), prototypes, revise_below=below)  # type: ignore[arg-type]


def test_familiarity_is_each_crops_best_cosine_to_any_prototype() -> None:
    prototypes = np.array([[[1.0, 0.0], [0.0, 1.0]], [[0.6, 0.8], [-1.0, 0.0]]], np.float32)
    bank = StyleBank("v", ("a", "b"), ("one", "two"), prototypes)
    crops = np.array([[0.6, 0.8], [-0.8, -0.6], [0.0, -1.0]], np.float32)
    np.testing.assert_allclose(bank.familiarity(crops), [1.0, 0.8, 0.0], atol=1e-6)
    assert bank.familiarity(np.zeros((0, 2), np.float32)).shape == (0,)


def test_a_deck_is_unfamiliar_only_by_the_median_of_enough_cards() -> None:
    few = np.full(UNFAMILIAR_MIN_CARDS - 1, 0.5)
    assert not is_unfamiliar_deck(few)
    low = np.full(UNFAMILIAR_MIN_CARDS, UNFAMILIAR_BELOW - 0.01)
    assert is_unfamiliar_deck(low)
    assert not is_unfamiliar_deck(np.full(UNFAMILIAR_MIN_CARDS, UNFAMILIAR_BELOW))
    # A few cards far off do not make a known deck unfamiliar: the median decides.
    mostly_known = np.concatenate([np.full(UNFAMILIAR_MIN_CARDS, 0.99), np.full(10, 0.2)])
    assert not is_unfamiliar_deck(mostly_known)


def _tiny_bank(version: str = "tiny-test", styles: int = 2, dims: int = 8) -> StyleBank:
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(styles, len(CLASS_LABELS), dims)).astype(np.float32)
    return StyleBank(version, CLASS_LABELS, tuple(f"style-{i}" for i in range(styles)),
                     vectors / np.linalg.norm(vectors, axis=2, keepdims=True))


def _crops() -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    return [rng.integers(0, 255, (60 + 7 * i, 40 + 5 * i, 3), np.uint8) for i in range(5)]


def test_a_bank_beside_the_model_revises_classify_and_not_read(tmp_path: Path) -> None:
    model = write_tiny_model(tmp_path / "tiny.onnx")
    bank = _tiny_bank()
    bank.save(bank_path(model))
    classifier = CardClassifier.load(model)
    assert classifier.bank is not None and classifier.bank.styles == bank.styles
    readings = classifier.read(_crops())
    expected = classifier.bank.adjust(readings.probabilities, readings.embeddings)
    predictions = classifier.classify(_crops(), top_k=len(CLASS_LABELS))
    got = np.array([[dict(p.top)[label] for label in CLASS_LABELS] for p in predictions])
    np.testing.assert_allclose(got, expected, atol=1e-6)
    assert not np.allclose(expected, readings.probabilities, atol=1e-3)
    plain = CardClassifier.load(model, use_bank=False)
    assert plain.bank is None
    np.testing.assert_allclose(plain.read(_crops()).probabilities, readings.probabilities, rtol=1e-6)


class _FixedProfile:
    """A deck profile stand-in that answers the first class for every crop."""

    def check_model(self, classifier: CardClassifier) -> None:
        return None

    def adjust(self, probabilities: np.ndarray, embeddings: np.ndarray,
               features: np.ndarray | None = None) -> np.ndarray:
        fixed = np.zeros_like(probabilities)
        fixed[:, 0] = 1.0
        return fixed


def test_a_deck_profile_replaces_the_bank(tmp_path: Path) -> None:
    model = write_tiny_model(tmp_path / "tiny.onnx")
    _tiny_bank().save(bank_path(model))
    predictions = CardClassifier.load(model).classify(_crops(), profile=_FixedProfile())
    assert [p.card for p in predictions] == [CLASS_LABELS[0]] * 5
    assert all(p.confidence == 1.0 for p in predictions)


def test_a_bank_round_trips_in_half_precision(tmp_path: Path) -> None:
    bank = _tiny_bank(styles=3)
    loaded = StyleBank.load(bank.save(tmp_path / "b.npz"))
    assert (loaded.model_version, loaded.labels, loaded.styles, loaded.temperature) == (
        bank.model_version, bank.labels, bank.styles, bank.temperature)
    np.testing.assert_allclose(loaded.prototypes, bank.prototypes, atol=1e-3)


def test_a_bank_of_another_model_is_refused_naming_both_versions(tmp_path: Path) -> None:
    model = write_tiny_model(tmp_path / "tiny.onnx")
    _tiny_bank(version="older-model").save(bank_path(model))
    with pytest.raises(BankError, match=r"made for model older-model, the model is tiny-test.*rebuild"):
        CardClassifier.load(model)
    _tiny_bank(dims=4).save(bank_path(model))
    with pytest.raises(BankError, match=r"does not fit .* 8-value embedding"):
        CardClassifier.load(model)


@pytest.mark.parametrize("content", [b"", b"garbage", b"PK\x03\x04 broken zip"])
def test_a_corrupt_bank_is_named(tmp_path: Path, content: bytes) -> None:
    model = write_tiny_model(tmp_path / "tiny.onnx")
    bank_path(model).write_bytes(content)
    with pytest.raises(BankError, match=r"tiny\.bank\.npz: not a style bank"):
        CardClassifier.load(model)


def _write_bank(path: Path, meta: object, prototypes: np.ndarray) -> None:
    with path.open("wb") as stream:
        np.savez(stream, meta=np.array(json.dumps(meta)), prototypes=prototypes)


GOOD_META = {"format": BANK_FORMAT, "model_version": "v", "labels": ["a", "b"], "styles": ["s"],
             "temperature": 0.1}


@pytest.mark.parametrize(("meta", "prototypes", "message"), [
    ({**GOOD_META, "format": "something-else"}, np.ones((1, 2, 3)), "not a style bank of format"),
    ({k: v for k, v in GOOD_META.items() if k != "styles"}, np.ones((1, 2, 3)), "bad metadata.*styles"),
    ({**GOOD_META, "labels": "ab"}, np.ones((1, 2, 3)), "bad metadata"),
    ({**GOOD_META, "temperature": 0}, np.ones((1, 2, 3)), "temperature must be a number above 0"),
    (GOOD_META, np.ones((2, 2, 3)), r"1 styles and 2 classes needs prototypes .* got \(2, 2, 3\)"),
    (GOOD_META, np.full((1, 2, 3), np.nan), "NaN"),
])
def test_a_bank_with_bad_contents_names_the_file_and_the_fault(
    tmp_path: Path, meta: object, prototypes: np.ndarray, message: str,
) -> None:
    path = tmp_path / "bad.bank.npz"
    _write_bank(path, meta, prototypes)
    with pytest.raises(BankError, match=r"bad\.bank\.npz: .*" + message):
        StyleBank.load(path)


def test_a_model_that_names_no_training_styles_needs_them_given(tmp_path: Path) -> None:
    classifier = CardClassifier.load(write_tiny_model(tmp_path / "tiny.onnx"))
    with pytest.raises(ValueError, match=r"'trained_on' names no styles \('nothing'\); give them"):
        trained_styles(classifier)


@needs_artwork
def test_the_bank_command_makes_unit_prototypes_of_every_class_of_each_style(tmp_path: Path) -> None:
    model = write_tiny_model(tmp_path / "tiny.onnx")
    assert bank_command.main(["--model", str(model), "--styles", "francesi,sarde", "--per-class", "1"]) == 0
    bank = StyleBank.load(bank_path(model))
    assert bank.styles == ("francesi", "sarde") and bank.prototypes.shape == (2, len(CLASS_LABELS), 8)
    np.testing.assert_allclose(np.linalg.norm(bank.prototypes, axis=2), 1.0, atol=2e-3)
    assert CardClassifier.load(model).bank is not None


def test_the_shipped_model_has_its_own_bank_of_every_style_it_was_trained_on() -> None:
    classifier = CardClassifier.load(DEFAULT_MODEL_PATH)
    assert classifier.bank is not None
    assert classifier.bank.styles == trained_styles(classifier)


@needs_artwork
def test_building_a_bank_refuses_no_styles_and_no_crops(tmp_path: Path) -> None:
    classifier = CardClassifier.load(write_tiny_model(tmp_path / "tiny.onnx"))
    assert CARDS_ROOT is not None
    with pytest.raises(ValueError, match="at least one style"):
        build_bank(classifier, CARDS_ROOT, ())
    with pytest.raises(ValueError, match="at least one crop per class, got 0"):
        build_bank(classifier, CARDS_ROOT, ("francesi",), per_class=0)
