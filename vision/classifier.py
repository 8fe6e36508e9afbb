"""The card classifier at run time: a warped card crop in, a card code and its confidence out.

Runs the shipped ONNX model (``models/cards.onnx``, in 8-bit integers, quantized from
``models/cards.fp32.onnx`` by ``vision.training.quantize``; any model of the contract loads) with
onnxruntime alone; torch is never needed here. The model's contract (``models/README.md``): input
``image`` float32 ``[N, 3, H, W]`` made by ``vision.preprocess.to_model_input``; outputs ``logits``
``[N, 42]`` and ``embedding`` ``[N, D]`` (L2-normalised), and optionally ``features`` ``[N, F]`` (the
pooled activations the embedding is projected from, which a deck profile's head reads when the model
has them); metadata ``labels`` (JSON list in ``engine.cards.CLASS_LABELS`` order), ``input_width``,
``input_height``, ``mean``, ``std`` (JSON lists), ``color_order`` (``RGB``),
``embedding_dim``, ``model_version`` and ``trained_on``.

A card lies on the table either way up, so by default a crop is also read turned half a turn, and the
two readings averaged, where its upright reading is unsure (``both_orientations``: best class
probability under ``TURNED_BELOW``; ``turned_below`` above 1 turns every crop). Measured with the corner
model cba246cb80 (``models/NOTEBOOK.md``, "Turning only the unsure crops"): on the 47 known styles
(99.01% of 19,740 uncovered crops, 98.11% of the hard ones) and on twelve held-out ones (86.92%) it
reads as many crops right as turning every crop, with 1.7 and 2.3 model runs per crop instead of 2.2 and
2.7. A crop whose best class probability is then under ``RECUT_BELOW`` is looked at for a card
lying askew in it or with much table round it (``vision.recut``: a phone photo cut to a rectangle round
a card turned on the table, or hardly cut); where one is found, the card cut again, upright and close,
is read too (turned by the same rule) and, where that reading is surer, it and its crop take the place of
the first (``recut_below`` 0 never looks). A crop as square as a card turned far inside it stands in
(``vision.recut.SQUARE_CROP_FROM``) is looked at however sure its reading, and so is a crop first read as
no card (``none``): a card with much table round it can look like table alone, surely. Such a crop takes
the reading of its card cut again where that reads a card or a back at ``recut_below`` or more, even if
less surely than the ``none`` (``models/NOTEBOOK.md``, "A crop read as no card is looked at"). A crop
first read as a back is looked at too, as surely as a checked tablecloth round a card can read as a
back's pattern, and takes the reading of its card cut again where that reads a card (not a back) at
``recut_below`` or more (the notebook's "A French deck's 8, 9, 10 and jokers read as no card"). Any crop
looked at also takes it where the card cut again reads a card or a back at ``CONFIRMED_FROM`` or more,
less surely, and its view cut tighter still reads the same class again at ``CONFIRMED_AT`` or more (the
notebook's "A card cut again, read twice"), unless that card was guessed from the square crop's shape
alone: such a view is taken only where it reads surer (the notebook's "A card stretched to a square").
By default a crop whose best class probability is then under ``UNSURE_BELOW`` is read a second time
cut by ``TIGHT_VIEW_CUT`` of its width and height on every side (turned too by the same rule), and all
its readings averaged (``tight_view``, the second look): a rough crop's margin of table, or of the
card's own border, then weighs less. Measured with the 64x96 model before the corner branch
(``models/NOTEBOOK.md``): on six held-out deck styles the tight view read 74.5% of the uncovered cards
zero-shot against 73.4%, and the styles the model knows 99.1% against 98.9%; taken only where the first
reading is unsure it reads as well and costs a second look at about one crop in twenty of a deck the
model knows (``unsure_below`` above 1 gives every crop the second look).

Where the model has a style bank beside it (``cards.bank.npz``, ``vision.style_bank``), ``classify``
without a deck profile revises by it the probabilities of the crops read under its ``revise_below``
(0.9); ``read`` always gives the model's own.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from engine.cards import BACK, CLASS_LABELS, NONE
from vision.cpu import this_machine_has_overflowing_byte_products
from vision.errors import VisionError
from vision.preprocess import to_model_input
from vision.recut import is_square_crop, recut_view
from vision.style_bank import StyleBank, bank_path

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

MODEL_ENV = "TRESSETTE_MODEL"
DEFAULT_MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "cards.onnx"
REBUILD_HINT = "rebuild it as models/README.md describes, or set TRESSETTE_MODEL to a model file"
REBUILD_HINT_IT = ("ricostruitelo come spiega models/README.md, o indicate un file di modello con "
                   "TRESSETTE_MODEL")
INPUT_NAME = "image"
LOGITS_NAME = "logits"
EMBEDDING_NAME = "embedding"
FEATURES_NAME = "features"
BATCH_SIZE = 32
DEFAULT_TOP_K = 3
TIGHT_VIEW_CUT = 0.05
MAX_MODEL_BYTES = 5 * 1024 * 1024  # the contract's limit on a model file (models/README.md)
# onnxruntime's session option that multiplies a quantized model's bytes as unsigned ones (vision.cpu).
EXACT_BYTE_PRODUCTS_OPTION = "session.x64quantprecision"
UNSURE_BELOW = 0.7  # best class probability under which a crop gets the tight view too
# Best upright class probability under which a view is read turned half a turn too, and best probability
# under which a crop's card is looked for, and cut again if askew or loose. Both 0.9 until the crops read
# `none` and the square ones were looked at whatever their probability, and a card was found by its hull
# and its colours; at 0.85 a reading then takes 0.8 of the time, the cards the model knows and the
# designs it never saw read as at 0.9 (a card or two of 18,800 and of 4,800), and the crops with much
# table round them lose a fifth of a point (models/NOTEBOOK.md, "The second looks from 0.85"). 0.8 for
# the recut with model cba246cb80, 0.9 from 9465c902f1 (notebook, "Shipped after all").
TURNED_BELOW = 0.85
RECUT_BELOW = 0.85
# A card cut again that reads a card or a back from CONFIRMED_FROM, though less surely than its crop,
# is taken where its view cut tighter still reads the same class at CONFIRMED_AT or more: a card lost in
# table reads so again, a bare patch of table or a card's edge mostly does not (models/NOTEBOOK.md, "A
# card cut again, read twice"). Not a card guessed from a square crop's shape alone
# (``vision.recut.RecutView.is_shape_guess``): in a card stretched to fill a square crop, as a dataset's
# square images show cards, the guess cuts a turned card out of a card that lies upright (notebook,
# "A card stretched to a square").
CONFIRMED_FROM = 0.5
CONFIRMED_AT = 0.7
# Crops whose narrower side is under this many pixels are read less surely: of the 47 styles' uncovered
# crops, 97.7% under 60 px against 99.5% from 60 px (models/README.md, "How large the camera must see a
# card").
SMALL_CROP_WIDTH = 60
REQUIRED_METADATA: tuple[str, ...] = (
    "labels", "input_width", "input_height", "mean", "std", "color_order", "embedding_dim", "model_version",
)


class ModelError(VisionError):
    """A model file that is missing, is not ONNX, or does not keep the classifier's contract."""


@dataclass(frozen=True)
class ModelInfo:
    """What the model's metadata says about it: its classes, its input size and its normalisation."""

    labels: tuple[str, ...]
    width: int
    height: int
    mean: tuple[float, float, float]
    std: tuple[float, float, float]
    embedding_dim: int
    model_version: str
    trained_on: str = ""
    features_dim: int = 0  # 0: the model has no 'features' output


@dataclass(frozen=True, eq=False)  # holds arrays
class Readings:
    """What the model makes of N crops: class probabilities ``[N, len(labels)]``, L2-normalised
    embeddings ``[N, D]`` and, when the model has them, pooled features ``[N, F]`` (else None)."""

    probabilities: np.ndarray
    embeddings: np.ndarray
    features: np.ndarray | None


@dataclass(frozen=True, eq=False)  # holds arrays
class _ViewSums:
    """Readings of a batch of crops summed over the views each crop was read in (``views`` per crop)."""

    probabilities: np.ndarray
    embeddings: np.ndarray
    features: np.ndarray | None
    views: np.ndarray

    def best_class(self) -> np.ndarray:
        return self.probabilities.argmax(axis=1)

    def best_probability(self) -> np.ndarray:
        return self.probabilities.max(axis=1) / self.views

    def taken(self, rows: np.ndarray) -> _ViewSums:
        """The sums of the crops at ``rows`` only."""
        features = None if self.features is None else self.features[rows]
        return _ViewSums(self.probabilities[rows], self.embeddings[rows], features, self.views[rows])

    def replaced(self, rows: np.ndarray, more: _ViewSums) -> _ViewSums:
        """These sums with the rows at ``rows`` replaced by ``more`` (readings of those crops only)."""
        return self._with_rows(rows, more, lambda _mine, theirs: theirs)

    def plus(self, rows: np.ndarray, more: _ViewSums) -> _ViewSums:
        """These sums with ``more`` (readings of the crops at ``rows`` only) added to those rows."""
        return self._with_rows(rows, more, np.add)

    def _with_rows(self, rows: np.ndarray, more: _ViewSums,
                   combine: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> _ViewSums:
        """New sums: these, with the rows at ``rows`` of each array ``combine``d with ``more``'s; the
        features only where both have them."""
        def merged(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
            out = mine.copy()
            out[rows] = combine(mine[rows], theirs)
            return out

        features = None
        if self.features is not None and more.features is not None:
            features = merged(self.features, more.features)
        return _ViewSums(merged(self.probabilities, more.probabilities),
                         merged(self.embeddings, more.embeddings), features, merged(self.views, more.views))

    def readings(self) -> Readings:
        """Probabilities and features by their mean over the views; embeddings as the direction of the sum."""
        features = None if self.features is None else (self.features / self.views[:, None]).astype(np.float32)
        return Readings((self.probabilities / self.views[:, None]).astype(np.float32),
                        l2_normalise(self.embeddings).astype(np.float32), features)


@dataclass(frozen=True)
class Prediction:
    """One crop's reading: the most likely label (a card code, ``back`` or ``none``), its probability,
    the ``top`` labels with their probabilities (most likely first), the crop's L2-normalised embedding
    and the probabilities of all the classifier's labels, in its ``labels`` order."""

    card: str
    confidence: float
    top: tuple[tuple[str, float], ...]
    embedding: np.ndarray = field(repr=False, compare=False)
    probabilities: np.ndarray = field(repr=False, compare=False)


class ProbabilityAdjuster(Protocol):
    """Anything that revises the model's class probabilities from the crops' readings (a deck profile)."""

    def check_model(self, classifier: CardClassifier) -> None:
        """Raise a VisionError unless the adjuster was made for this classifier's model."""
        ...

    def adjust(self, probabilities: np.ndarray, embeddings: np.ndarray,
               features: np.ndarray | None = None) -> np.ndarray: ...


def default_model_path() -> Path:
    """``$TRESSETTE_MODEL`` when set, else ``models/cards.onnx`` in the checkout."""
    configured = os.environ.get(MODEL_ENV)
    return Path(configured) if configured else DEFAULT_MODEL_PATH


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax, computed stably in float64 and returned as float32."""
    shifted = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    exps = np.exp(shifted)
    return (exps / exps.sum(axis=1, keepdims=True)).astype(np.float32)


def crop_width(crop: np.ndarray) -> int:
    """A crop's width as the model sees it: its narrower side in pixels (a landscape crop is turned)."""
    return int(min(crop.shape[:2]))


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length (an all-zero row stays zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)


def _metadata_json(metadata: dict[str, str], key: str, path: Path) -> object:
    try:
        return json.loads(metadata[key])
    except json.JSONDecodeError as error:
        raise ModelError(
            f"{path}: metadata {key!r} is not valid JSON ({error.msg}): {metadata[key]!r}"
        ) from None


def _metadata_int(metadata: dict[str, str], key: str, path: Path) -> int:
    text = metadata[key].strip()
    if not text.isdigit() or int(text) < 1:
        raise ModelError(f"{path}: metadata {key!r} must be a positive whole number, got {metadata[key]!r}")
    return int(text)


def _metadata_triple(metadata: dict[str, str], key: str, path: Path) -> tuple[float, float, float]:
    value = _metadata_json(metadata, key, path)
    is_triple = isinstance(value, list) and len(value) == 3
    if not is_triple or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise ModelError(f"{path}: metadata {key!r} must be a JSON list of 3 numbers, got {metadata[key]!r}")
    if key == "std" and min(value) <= 0:
        raise ModelError(f"{path}: metadata 'std' must be positive, got {metadata[key]!r}")
    return (float(value[0]), float(value[1]), float(value[2]))


def _metadata_labels(metadata: dict[str, str], path: Path) -> tuple[str, ...]:
    value = _metadata_json(metadata, "labels", path)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ModelError(
            f"{path}: metadata 'labels' must be a JSON list of strings, got {metadata['labels']!r}"
        )
    if len(value) != len(CLASS_LABELS) or set(value) != set(CLASS_LABELS):
        missing = sorted(set(CLASS_LABELS) - set(value))
        unknown = sorted(set(value) - set(CLASS_LABELS))
        raise ModelError(
            f"{path}: metadata 'labels' must hold the {len(CLASS_LABELS)} classes once each; "
            f"got {len(value)} labels, missing {missing}, unknown {unknown}"
        )
    return tuple(value)


def parse_model_info(metadata: dict[str, str], path: Path) -> ModelInfo:
    """Read and check the model's metadata; raise ModelError naming the file and the key at fault."""
    for key in REQUIRED_METADATA:
        if key not in metadata:
            raise ModelError(f"{path}: metadata key {key!r} is missing (the model keeps: {sorted(metadata)})")
    if metadata["color_order"].strip().upper() != "RGB":
        raise ModelError(f"{path}: metadata 'color_order' must be 'RGB', got {metadata['color_order']!r}")
    return ModelInfo(
        labels=_metadata_labels(metadata, path),
        width=_metadata_int(metadata, "input_width", path),
        height=_metadata_int(metadata, "input_height", path),
        mean=_metadata_triple(metadata, "mean", path),
        std=_metadata_triple(metadata, "std", path),
        embedding_dim=_metadata_int(metadata, "embedding_dim", path),
        model_version=metadata["model_version"],
        trained_on=metadata.get("trained_on", ""),
    )


def _open_session(path: Path, threads: int) -> InferenceSession:
    import onnxruntime as ort  # imported here so that `tressette` starts fast when no card is read

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = threads
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    if this_machine_has_overflowing_byte_products():  # vision.cpu: exact, slower, where needed only
        options.add_session_config_entry(EXACT_BYTE_PRODUCTS_OPTION, "1")
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own untyped errors for a bad file
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelError(f"{path}: not a usable ONNX model ({reason[:300]})",
                         f"{path}: non è un modello ONNX utilizzabile ({reason[:300]})") from None


def _check_signature(session: InferenceSession, info: ModelInfo, path: Path) -> ModelInfo:
    """Check the model's input and outputs against ``info``; return ``info`` with ``features_dim`` set."""
    inputs = {i.name: i for i in session.get_inputs()}
    outputs = {o.name for o in session.get_outputs()}
    if INPUT_NAME not in inputs or len(inputs[INPUT_NAME].shape) != 4:
        raise ModelError(f"{path}: the model needs one input 'image' [N, 3, H, W]; it has {sorted(inputs)}")
    for name in (LOGITS_NAME, EMBEDDING_NAME):
        if name not in outputs:
            raise ModelError(f"{path}: the model has no output {name!r} (it has {sorted(outputs)})")
    names = [LOGITS_NAME, EMBEDDING_NAME] + ([FEATURES_NAME] if FEATURES_NAME in outputs else [])
    probe = np.zeros((1, 3, info.height, info.width), np.float32)
    try:
        logits, embedding, *features = session.run(names, {INPUT_NAME: probe})
    except Exception as error:
        reason = str(error).strip().splitlines()[0]
        raise ModelError(
            f"{path}: the model does not run on a {info.width}x{info.height} input as its metadata "
            f"'input_width'/'input_height' say ({reason[:300]})"
        ) from None
    if logits.shape != (1, len(info.labels)):
        raise ModelError(
            f"{path}: metadata 'labels' lists {len(info.labels)} classes but output 'logits' "
            f"has shape {list(logits.shape)}"
        )
    if embedding.shape != (1, info.embedding_dim):
        raise ModelError(
            f"{path}: metadata 'embedding_dim' is {info.embedding_dim} but output 'embedding' "
            f"has shape {list(embedding.shape)}"
        )
    if not features:
        return info
    if features[0].ndim != 2 or features[0].shape[0] != 1 or features[0].shape[1] < 1:
        raise ModelError(f"{path}: output 'features' must be [N, F]; it has shape {list(features[0].shape)}")
    return replace(info, features_dim=int(features[0].shape[1]))


class CardClassifier:
    """The shipped card classifier; ``classify`` reads any number of BGR uint8 crops of any size."""

    def __init__(
        self, session: InferenceSession, info: ModelInfo, path: Path, both_orientations: bool,
        tight_view: bool = True, unsure_below: float = UNSURE_BELOW, bank: StyleBank | None = None,
        turned_below: float = TURNED_BELOW, recut_below: float = RECUT_BELOW,
    ) -> None:
        self._session = session
        self.info = info
        self.path = path
        self.both_orientations = both_orientations
        self.tight_view = tight_view
        self.unsure_below = unsure_below
        self.turned_below = turned_below
        self.recut_below = recut_below
        self.bank = bank
        self._none_index = info.labels.index(NONE)  # parse_model_info holds the labels to CLASS_LABELS
        self._back_index = info.labels.index(BACK)

    @classmethod
    def load(
        cls,
        path: Path | str | None = None,
        threads: int = 1,
        both_orientations: bool = True,
        tight_view: bool = True,
        unsure_below: float = UNSURE_BELOW,
        use_bank: bool = True,
        turned_below: float = TURNED_BELOW,
        recut_below: float = RECUT_BELOW,
    ) -> CardClassifier:
        """Open and check a model file (default: ``default_model_path()``); ``both_orientations`` and
        ``turned_below`` decide which crops are read turned half a turn too, ``recut_below`` which
        are looked at for a card lying askew or loose in them, ``tight_view`` and ``unsure_below``
        which get the second, tighter look (module docstring); with ``use_bank``, the style bank beside
        the model is opened too where there is one.

        ``threads`` sets onnxruntime's intra- and inter-op thread counts. Raises ModelError for a
        missing file, a file that is not ONNX, or metadata that is missing or disagrees with the outputs;
        BankError (``vision.style_bank``) for a bank beside it that is unreadable or of another model.
        """
        model_path = Path(path) if path is not None else default_model_path()
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ModelError(f"threads must be a whole number of 1 or more, got {threads!r}")
        _check_threshold("unsure_below", unsure_below)
        _check_threshold("turned_below", turned_below)
        _check_threshold("recut_below", recut_below)
        if not model_path.is_file():
            raise ModelError(f"no model at {model_path} ({REBUILD_HINT})",
                             f"nessun modello in {model_path} ({REBUILD_HINT_IT})")
        session = _open_session(model_path, threads)
        info = parse_model_info(dict(session.get_modelmeta().custom_metadata_map), model_path)
        info = _check_signature(session, info, model_path)
        classifier = cls(session, info, model_path, both_orientations, tight_view, float(unsure_below),
                         turned_below=float(turned_below), recut_below=float(recut_below))
        bank_file = bank_path(model_path)
        if use_bank and bank_file.is_file():
            bank = StyleBank.load(bank_file)
            bank.check_model(classifier)
            classifier.bank = bank
        return classifier

    def __reduce__(self) -> tuple[object, ...]:
        """A classifier pickles as its model file and reading rules (an onnxruntime session cannot
        cross a process): unpickled, in a worker process, it opens the file again on one thread."""
        return (_reopen, (self.path, self.both_orientations, self.tight_view, self.unsure_below,
                          self.bank is not None, self.turned_below, self.recut_below))

    def not_recutting(self) -> CardClassifier:
        """This classifier (the same session and rules) never looking for a card askew or loose in a
        crop: for crops cut round an upright card by construction, such as the views enrolment renders."""
        upright = copy.copy(self)
        upright.recut_below = 0.0
        return upright

    @property
    def labels(self) -> tuple[str, ...]:
        return self.info.labels

    def infer(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities ``[N, len(labels)]`` and L2-normalised embeddings ``[N, D]`` for the crops."""
        readings = self.read(crops)
        return readings.probabilities, readings.embeddings

    def read(self, crops: Sequence[np.ndarray]) -> Readings:
        """Everything the model outputs for the crops, in batches of ``BATCH_SIZE``; the views of a crop
        (turned half a turn with ``both_orientations`` where its upright reading is unsure, cut tighter
        with ``tight_view`` where its first readings are unsure) averaged: probabilities and features
        by their mean, embeddings by the direction of their sum."""
        count, info = len(crops), self.info
        probabilities = np.empty((count, len(info.labels)), np.float32)
        embeddings = np.empty((count, info.embedding_dim), np.float32)
        features = np.empty((count, info.features_dim), np.float32) if info.features_dim else None
        for start in range(0, count, BATCH_SIZE):
            stop = min(start + BATCH_SIZE, count)
            batch = self._read_batch(crops[start:stop])
            probabilities[start:stop], embeddings[start:stop] = batch.probabilities, batch.embeddings
            if features is not None and batch.features is not None:
                features[start:stop] = batch.features
        return Readings(probabilities, embeddings, features)

    def _read_batch(self, crops: Sequence[np.ndarray]) -> Readings:
        sums = self._read_views(crops)
        crops, sums = self._recut_where_surer(crops, sums)
        if self.tight_view:
            unsure = np.flatnonzero(sums.best_probability() < self.unsure_below)
            if unsure.size:
                sums = sums.plus(unsure, self._read_views([cut_tighter(crops[i]) for i in unsure]))
        return sums.readings()

    def _recut_where_surer(self, crops: Sequence[np.ndarray],
                           sums: _ViewSums) -> tuple[Sequence[np.ndarray], _ViewSums]:
        """The crops, and their readings, with each crop read unsure (under ``recut_below``), or square
        (``is_square_crop``) or read as ``none`` or ``back`` where looking is on, in which a card lies askew
        or loose replaced by that card cut again (``vision.recut``) where the card so cut reads surer; or,
        for a crop read ``none``, reads a card or a back at ``recut_below`` or more; for a crop read
        ``back``, a card at ``recut_below`` or more; or reads a card or a back
        at ``CONFIRMED_FROM`` or more and, cut tighter still, the same class at ``CONFIRMED_AT`` or more,
        where the card so cut was seen in the crop, not guessed from its shape alone."""
        read_none = sums.best_class() == self._none_index
        read_back = sums.best_class() == self._back_index
        looked = sums.best_probability() < self.recut_below
        if self.recut_below > 0:
            looked |= np.array([is_square_crop(crop) for crop in crops])
            looked |= read_none | read_back
        found = {int(i): recut_view(crops[i]) for i in np.flatnonzero(looked)}
        views = {i: view for i, view in found.items() if view is not None}
        rows = np.array(list(views), np.intp)
        if not rows.size:
            return crops, sums
        cut_views = [views[i].crop for i in rows]
        seen_in_crop = np.array([not views[i].is_shape_guess for i in rows], dtype=bool)
        more = self._read_views(cut_views)
        cut_reads_a_card = more.best_class() != self._none_index
        taken = more.best_probability() > sums.best_probability()[rows]
        sure_cut = more.best_probability() >= self.recut_below
        taken |= read_none[rows] & cut_reads_a_card & sure_cut
        taken |= read_back[rows] & cut_reads_a_card & (more.best_class() != self._back_index) & sure_cut
        less_sure_card = (~taken & seen_in_crop & cut_reads_a_card
                          & (more.best_probability() >= CONFIRMED_FROM))
        taken |= self._read_again_alike(cut_views, more, less_sure_card)
        if not taken.any():
            return crops, sums
        chosen = list(crops)
        for i in rows[taken]:
            chosen[i] = views[int(i)].crop
        return chosen, sums.replaced(rows[taken], more.taken(np.flatnonzero(taken)))

    def _read_again_alike(self, views: Sequence[np.ndarray], readings: _ViewSums,
                          candidates: np.ndarray) -> np.ndarray:
        """For each of ``views`` (cards cut again, read as ``readings``): whether it is a candidate whose
        view cut tighter (``cut_tighter``) reads the same class again at ``CONFIRMED_AT`` or more."""
        alike = np.zeros(len(views), dtype=bool)
        rows = np.flatnonzero(candidates)
        if rows.size:
            again = self._read_views([cut_tighter(views[i]) for i in rows])
            alike[rows] = ((again.best_class() == readings.best_class()[rows])
                           & (again.best_probability() >= CONFIRMED_AT))
        return alike

    def _read_views(self, crops: Sequence[np.ndarray]) -> _ViewSums:
        """The model's outputs for the crops upright and, with ``both_orientations``, turned half a turn
        for the crops whose upright best probability is under ``turned_below``, summed per crop."""
        info = self.info
        batch = to_model_input(crops, info.width, info.height, info.mean, info.std)
        sums = self._run(batch)
        if self.both_orientations:
            unsure = np.flatnonzero(sums.best_probability() < self.turned_below)
            if unsure.size:
                # A half turn of the resized crop is the resized half-turned crop: flip H and W.
                sums = sums.plus(unsure, self._run(np.ascontiguousarray(batch[unsure, :, ::-1, ::-1])))
        return sums

    def _run(self, batch: np.ndarray) -> _ViewSums:
        """The model's outputs for a prepared input batch, one view per row."""
        names = [LOGITS_NAME, EMBEDDING_NAME] + ([FEATURES_NAME] if self.info.features_dim else [])
        logits, embeddings, *pooled = self._session.run(names, {INPUT_NAME: batch})
        features = pooled[0].astype(np.float64) if pooled else None
        return _ViewSums(softmax(logits).astype(np.float64), embeddings.astype(np.float64), features,
                         np.ones(len(batch), np.float64))

    def classify(
        self,
        crops: Sequence[np.ndarray],
        top_k: int = DEFAULT_TOP_K,
        profile: ProbabilityAdjuster | None = None,
    ) -> list[Prediction]:
        """Read each crop; with a deck ``profile`` (made with this model, else a VisionError naming it)
        the probabilities are revised by it (its head, or its prototypes), else by the model's style
        bank where it has one."""
        if profile is not None:
            profile.check_model(self)
        readings = self.read(crops)
        probabilities = readings.probabilities
        adjuster = profile if profile is not None else self.bank
        if adjuster is not None:
            probabilities = adjuster.adjust(probabilities, readings.embeddings, readings.features)
        return predictions_from(probabilities, readings.embeddings, self.info.labels, top_k)


def _reopen(path: Path, both_orientations: bool, tight_view: bool, unsure_below: float, use_bank: bool,
            turned_below: float, recut_below: float) -> CardClassifier:
    return CardClassifier.load(path, 1, both_orientations, tight_view, unsure_below, use_bank, turned_below,
                               recut_below)


def _check_threshold(name: str, value: object) -> None:
    """Refuse a view threshold that is not a probability of 0 or more (NaN and booleans included)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:  # NaN too
        raise ModelError(f"{name} must be a probability of 0 or more, got {value!r}")


def cut_tighter(crop: np.ndarray, share: float = TIGHT_VIEW_CUT) -> np.ndarray:
    """The crop without ``share`` of its width and height on every side (a view, not a copy)."""
    height, width = crop.shape[:2]
    dy, dx = round(height * share), round(width * share)
    if height - 2 * dy < 8 or width - 2 * dx < 8:
        return crop
    return crop[dy:height - dy, dx:width - dx]


def predictions_from(
    probabilities: np.ndarray,
    embeddings: np.ndarray,
    labels: Sequence[str],
    top_k: int = DEFAULT_TOP_K,
) -> list[Prediction]:
    """One Prediction per row: the most probable label and the ``top_k`` best (at least one)."""
    keep = max(1, min(int(top_k), len(labels)))
    order = np.argsort(-probabilities, axis=1, kind="stable")[:, :keep]
    predictions = []
    for row, ranked in enumerate(order):
        top = tuple((labels[i], float(probabilities[row, i])) for i in ranked)
        predictions.append(Prediction(top[0][0], top[0][1], top, embeddings[row], probabilities[row]))
    return predictions
