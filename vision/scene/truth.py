"""The ground truth of a rendered clip, as JSON Lines.

Line 1, the header::

    {"truth": 1, "record": "demo.jsonl", "seed": 7, "deck": "napoletane", "difficulty": "normal",
     "fps": 10.0, "size": [1280, 720], "frames": 1093, "seats": 4, "surface": "felt_green",
     "camera": {...Camera.to_json()...}, "corner_order": "top-left, top-right, bottom-right, bottom-left"}

Then one line per event, in frame order (``hand`` and ``trick`` count from 0 within the clip/hand):

- ``{"frame": 57, "event": "rest", "hand": 0, "trick": 0, "seat": 1, "card": "3c", "corners": [[x, y] x 4],
  "occluded": 0.12}``: the card comes to rest on the cloth at this frame; ``corners`` are output-frame
  pixels of the card's corners in ``corner_order``: the artwork's own top-left, top-right, bottom-right
  and bottom-left as printed with the card upright, whatever way it lies on the table; ``occluded`` is
  the share of the card hidden under arms in that frame (usually the releasing hand's fingers);
- ``{"frame": 102, "event": "pickup", "hand": 0, "trick": 0, "winner": 2, "cards": [...]}``: the winner's
  hand touches the trick to take it (cards in play order);
- ``{"frame": 130, "event": "draw", "hand": 0, "trick": 0, "seat": 0, "card": "7d"}``: two players with
  drawing: the drawn card is shown face up;
- ``{"frame": 400, "event": "camera", "camera": {...}}``: someone bumped the camera (``hard``);
- ``{"frame": 900, "event": "hand_end", "hand": 0}``: the table is cleared after the hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.errors import VisionError

TRUTH_VERSION = 1
CORNER_ORDER = "top-left, top-right, bottom-right, bottom-left"
EVENT_KINDS: tuple[str, ...] = ("rest", "pickup", "draw", "camera", "hand_end")
HEADER_KEYS: tuple[str, ...] = (
    "truth", "record", "seed", "deck", "difficulty", "fps", "size", "frames", "camera",
)


class TruthError(VisionError):
    """A truth file that cannot be read: names the file, the line and the key."""


@dataclass(frozen=True)
class Truth:
    """A truth file's header and its events (plain JSON objects, in frame order)."""

    header: dict[str, Any]
    events: tuple[dict[str, Any], ...]

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [event for event in self.events if event["event"] == kind]


def write_truth(path: Path, header: dict[str, Any], events: Iterable[dict[str, Any]]) -> None:
    """Write the header then the events, one compact JSON object per line."""
    head = {"truth": TRUTH_VERSION, **header, "corner_order": CORNER_ORDER}
    lines = [json.dumps(head, separators=(",", ":"))]
    lines.extend(json.dumps(event, separators=(",", ":")) for event in events)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_truth(path: Path) -> Truth:
    """Read and check a truth file; raise TruthError naming the file, line and key at fault."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise TruthError(f"{path}: cannot read the truth file: {error}") from error
    rows: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise TruthError(f"{path}:{number}: not JSON ({error.msg}): {line[:80]!r}") from error
        if not isinstance(value, dict):
            raise TruthError(f"{path}:{number}: expected a JSON object, got {line[:80]!r}")
        rows.append((number, value))
    if not rows:
        raise TruthError(f"{path}: empty truth file (expected a header line)")
    header_line, header = rows[0]
    for key in HEADER_KEYS:
        if key not in header:
            raise TruthError(f"{path}:{header_line}: header lacks {key!r}")
    last_frame = -1
    for number, event in rows[1:]:
        kind, frame = event.get("event"), event.get("frame")
        if kind not in EVENT_KINDS:
            expected = ", ".join(EVENT_KINDS)
            raise TruthError(f"{path}:{number}: unknown 'event' {kind!r} (expected one of {expected})")
        if not isinstance(frame, int) or frame < last_frame:
            raise TruthError(f"{path}:{number}: 'frame' must be an integer, not before {last_frame}; "
                             f"got {frame!r}")
        last_frame = frame
    return Truth(header, tuple(event for _, event in rows[1:]))
