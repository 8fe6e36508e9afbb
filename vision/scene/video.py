"""Writing a rendered clip: the mp4 through OpenCV's ``VideoWriter``, the truth file, a contact sheet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.decks import Deck
from vision.errors import VisionError
from vision.scene.render import RenderSettings, SceneRenderer
from vision.scene.script import MatchScript
from vision.scene.truth import write_truth

FOURCC = "mp4v"
CONTACT_COLUMNS = 3
CONTACT_WIDTH = 640


class VideoError(VisionError):
    """The clip cannot be written (no mp4 encoder, an unwritable path)."""


@dataclass(frozen=True, slots=True)
class ClipSummary:
    frames: int
    seconds: float
    cards: int
    tricks: int


def open_writer(path: Path, fps: float, size: tuple[int, int]) -> cv2.VideoWriter:
    """An mp4 writer; raise VideoError naming the path when OpenCV cannot open one."""
    if path.suffix.lower() != ".mp4":
        raise VideoError(f"{path}: the clip must be an .mp4 file")
    if not path.parent.is_dir():
        raise VideoError(f"{path}: no such folder {path.parent}")
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*FOURCC), fps, size)
    if not writer.isOpened():
        raise VideoError(f"{path}: OpenCV could not open an mp4 ({FOURCC}) writer here")
    return writer


def contact_sheet(frames: Sequence[np.ndarray], labels: Sequence[str]) -> np.ndarray:
    """Frames shrunk to ``CONTACT_WIDTH`` wide, labelled, in rows of ``CONTACT_COLUMNS``."""
    tiles = []
    for frame, label in zip(frames, labels, strict=True):
        scale = CONTACT_WIDTH / frame.shape[1]
        tile = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        (text_width, text_height), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 1)
        cv2.rectangle(tile, (4, 4), (12 + text_width, 12 + text_height), (0, 0, 0), -1)
        cv2.putText(tile, label, (8, 8 + text_height), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1,
                    cv2.LINE_AA)
        tiles.append(tile)
    while len(tiles) % CONTACT_COLUMNS:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[i:i + CONTACT_COLUMNS]) for i in range(0, len(tiles), CONTACT_COLUMNS)]
    return np.vstack(rows)


def contact_frames(renderer: SceneRenderer, count: int = 6) -> list[int]:
    """Frames worth looking at: spread over the clip, each just before a card lands (a hand in view)."""
    rests = [event.frame for event in renderer.timeline.events if event.kind == "rest"]
    if not rests:
        return list(np.linspace(0, renderer.frame_count - 1, count).astype(int))
    picks = np.linspace(0, len(rests) - 1, count).astype(int)
    lead = renderer.settings.fps
    return [max(0, rests[i] - round(lead * (0.3 + 0.4 * (k % 2)))) for k, i in enumerate(picks)]


def render_clip(script: MatchScript, deck: Deck, settings: RenderSettings, out: Path, truth: Path,
                record_name: str, contact_sheet_path: Path | None = None) -> ClipSummary:
    """Render ``script`` to ``out`` (mp4) and write its truth to ``truth``; optionally a contact sheet."""
    renderer = SceneRenderer(script, deck, settings)
    writer = open_writer(out, settings.fps, settings.size)
    wanted = set(contact_frames(renderer)) if contact_sheet_path else set()
    samples: list[tuple[int, np.ndarray]] = []
    try:
        for index, frame in enumerate(renderer.frames()):
            writer.write(frame)
            if index in wanted:
                samples.append((index, frame))
    finally:
        writer.release()
    events = renderer.truth_events()
    write_truth(truth, renderer.truth_header(record_name), events)
    if contact_sheet_path is not None and samples:
        labels = [f"{settings.difficulty} f{index}" for index, _ in samples]
        sheet = contact_sheet([frame for _, frame in samples], labels)
        if not cv2.imwrite(str(contact_sheet_path), sheet):
            raise VideoError(f"{contact_sheet_path}: could not write the contact sheet")
    return ClipSummary(renderer.frame_count, renderer.frame_count / settings.fps,
                       sum(1 for e in events if e["event"] == "rest"),
                       sum(1 for e in events if e["event"] == "pickup"))
