"""How fast a clip of a deck shown card after card is searched for its cards (``vision.clip_cards``),
side by side with decoding the clip alone and with the clip's own length.

Renders one clip of ``--cards`` cards of the test deck drawn in code (no artwork needed) at each size
asked (``vision.scene.showing``, 10 fps), then per size prints: milliseconds to decode a frame,
milliseconds to search one (decoding included), the search's ratio to the frame budget (10 fps = 100 ms
per frame), and how many seconds of clip one second of search covers (above 1: faster than the
player shows the cards). All in one run, on one process, so the ratios hold on a noisy machine.
Run from the checkout: ``.venv/bin/python bench/clip_scan.py [--cards N] [--sizes 1280x720,1920x1080]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and bench/engine.py would hide the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from engine.cards import CARD_CODES  # noqa: E402
from vision.clip_cards import find_shown_cards, read_frames  # noqa: E402
from vision.scene.camera import parse_size  # noqa: E402
from vision.scene.drawn_deck import drawn_deck  # noqa: E402
from vision.scene.render import RenderSettings  # noqa: E402
from vision.scene.showing import render_showing_clip  # noqa: E402

FRAME_BUDGET_MS = 100.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=8, help="cards shown in each clip (default 8)")
    parser.add_argument("--sizes", default="1280x720,1920x1080", help="frame sizes, comma-separated")
    args = parser.parse_args(argv)
    codes = CARD_CODES[: args.cards]
    print(f"{'size':>10} {'frames':>6} {'decode ms':>10} {'search ms':>10} {'of budget':>10} "
          f"{'clip s per s':>12} {'cards':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for size_text in args.sizes.split(","):
            size = parse_size(size_text)
            clip = Path(folder) / f"{size_text}.mp4"
            frames = render_showing_clip(codes, drawn_deck(), RenderSettings(seed=1, size=size), clip)
            start = time.perf_counter()
            decoded = sum(1 for _ in read_frames(clip))
            decode_ms = (time.perf_counter() - start) * 1000 / decoded
            start = time.perf_counter()
            found = find_shown_cards(clip)
            search_s = time.perf_counter() - start
            search_ms = search_s * 1000 / frames
            print(f"{size_text:>10} {frames:>6} {decode_ms:>10.1f} {search_ms:>10.1f} "
                  f"{search_ms / FRAME_BUDGET_MS:>10.2f} {frames / found.fps / search_s:>12.2f} "
                  f"{len(found.cards):>3}/{len(codes)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
