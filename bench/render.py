"""Scene renderer speed on one core: frames per second and the ratio to real time, per difficulty.

Renders the first ``--seconds`` of one hand of a simulated classic match (``engine.simulate``, seed 1)
at 1280x720 and 10 fps with each difficulty preset, encoding the mp4 as ``tressette render`` does,
and prints side by side: frames rendered, render seconds (this process's CPU time, OpenCV on one
thread, so a busy shared machine disturbs it less than wall-clock time), frames per second, and the
ratio render seconds / clip seconds (below 1.0 means faster than real time; the goal is <= 1.0).
Wall-clock seconds are printed too. Setup (surface, textures, camera maps) is timed apart.

    .venv/bin/python bench/render.py [--seconds 30] [--deck DIR] [--size 1280x720] [--fps 10]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

# bench/engine.py would shadow the engine package: look for packages from the checkout, not bench/.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402

from engine.rules import PRESETS  # noqa: E402
from engine.score import score_events  # noqa: E402
from engine.simulate import simulate_match  # noqa: E402
from table.commands.render import draws_by_position, resolve_deck_folder  # noqa: E402
from vision.decks import Deck  # noqa: E402
from vision.scene.camera import parse_size  # noqa: E402
from vision.scene.difficulty import DIFFICULTIES  # noqa: E402
from vision.scene.render import RenderSettings, SceneRenderer  # noqa: E402
from vision.scene.script import MatchScript, script_from_score  # noqa: E402
from vision.scene.video import open_writer  # noqa: E402


def one_hand() -> MatchScript:
    record = simulate_match(PRESETS["classic"], random.Random(1))
    events = record.corrected_events()
    header = record.header
    score = score_events(header.rules, header.seats, header.dealer, events).to_json()
    return script_from_score(score, header.seats, draws_by_position(events)).limited(1)


def measure(script: MatchScript, deck: Deck, settings: RenderSettings, seconds: float,
            folder: Path) -> dict[str, float]:
    start_cpu = time.process_time()
    renderer = SceneRenderer(script, deck, settings)
    renderer.render_frame(0)
    setup = time.process_time() - start_cpu
    frames = min(renderer.frame_count, round(seconds * settings.fps))
    writer = open_writer(folder / f"{settings.difficulty}.mp4", settings.fps, settings.size)
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    for index in range(frames):
        writer.write(renderer.render_frame(index))
    writer.release()
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    clip = frames / settings.fps
    return {"frames": frames, "setup": setup, "cpu": cpu, "wall": wall, "fps": frames / cpu,
            "ratio": cpu / clip, "wall_ratio": wall / clip}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="clip seconds rendered per difficulty")
    parser.add_argument("--deck", default=None, help="deck folder (default napoletane)")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--fps", type=float, default=10.0)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    deck = Deck.load(resolve_deck_folder(args.deck))
    script = one_hand()
    size = parse_size(args.size)
    print(f"scene renderer, {args.size} at {args.fps:g} fps, deck {deck.name}, one core, "
          f"first {args.seconds:g} s of a classic hand")
    print(f"{'difficulty':<10} {'frames':>6} {'setup s':>8} {'render s':>9} {'fps':>7} "
          f"{'render/clip':>11} {'wall/clip':>10}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name in DIFFICULTIES:
            settings = RenderSettings(seed=1, difficulty=name, fps=args.fps, size=size)
            row = measure(script, deck, settings, args.seconds, Path(folder))
            worst = max(worst, row["ratio"])
            print(f"{name:<10} {row['frames']:>6.0f} {row['setup']:>8.2f} {row['cpu']:>9.2f} "
                  f"{row['fps']:>7.1f} {row['ratio']:>11.2f} {row['wall_ratio']:>10.2f}")
    verdict = "faster than real time" if worst <= 1.0 else "SLOWER than real time"
    print(f"worst render/clip ratio {worst:.2f}: {verdict} (goal <= 1.00)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
