"""Per-frame cost of the scene renderer's realism layers at 1280x720 on one core.

Prints, for each layer, the median milliseconds per frame and its share of the 100 ms a frame may
take (10 fps in real time on one core, everything included). Times are this process's CPU time
(``time.process_time``) with OpenCV on one thread, so other work on a shared machine disturbs them
less than wall-clock time would. Surfaces are made once per clip, so
they are reported apart, with their cost spread over a one-minute clip.

    .venv/bin/python bench/render_layers.py [--repeats 30]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# bench/engine.py would shadow the engine package: look for packages from the checkout, not bench/.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.scene.people import ArmPose, HeadShadows, Look, draw_arm  # noqa: E402
from vision.scene.sensor import SensorSettings, SensorTrack  # noqa: E402
from vision.scene.surfaces import SURFACE_KINDS, make_surface  # noqa: E402

WIDTH, HEIGHT, FPS = 1280, 720, 10
BUDGET_MS = 1000.0 / FPS
KNUCKLES_PX = 60.0   # an 8.5 cm hand on an 84 cm table filling the 720 px height


def median_ms(action: Callable[[int], object], repeats: int) -> float:
    action(0)   # warm caches and OpenCV's lazy initialisation
    times = []
    for index in range(1, repeats + 1):
        start = time.process_time()
        action(index)
        times.append((time.process_time() - start) * 1000.0)
    return statistics.median(times)


def arm_poses() -> dict[str, ArmPose]:
    entry, hand = (WIDTH / 2, float(HEIGHT)), (WIDTH / 2 + 20, HEIGHT - 260.0)
    return {
        "arm, flat hand": ArmPose(entry, hand, KNUCKLES_PX, grip="flat"),
        "arm, open hand": ArmPose(entry, hand, KNUCKLES_PX, grip="open", lift=0.8),
        "arm, holding a card": ArmPose(entry, hand, KNUCKLES_PX, grip="holding", card_size=(85.0, 140.0),
                                       lift=0.6),
        "arm, moving (blur 15 px)": ArmPose(entry, hand, KNUCKLES_PX, grip="holding", lift=0.6,
                                            blur=(6.0, -14.0)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(0)
    table = make_surface("felt_green", WIDTH, HEIGHT, rng)
    rows: list[tuple[str, float]] = []

    heads = HeadShadows.from_rng(rng, [(WIDTH / 2, HEIGHT + 80), (WIDTH + 80, HEIGHT / 2), (WIDTH / 2, -80),
                                       (-80, HEIGHT / 2)], (WIDTH, HEIGHT), FPS, darkness=0.3)
    rows.append(("head shadows (4 players)", median_ms(lambda i: heads.apply(table.copy(), i), args.repeats)))
    copy_ms = median_ms(lambda i: table.copy(), args.repeats)
    rows[-1] = (rows[-1][0], max(0.0, rows[-1][1] - copy_ms))

    look = Look((120, 156, 208), (84, 50, 30), 0.6)
    for name, pose in arm_poses().items():
        frame = table.copy()
        rows.append((name, median_ms(lambda i, p=pose, f=frame: draw_arm(f, p, look), args.repeats)))

    for name, settings in (("sensor, clean", SensorSettings.clean()), ("sensor, normal", SensorSettings()),
                           ("sensor, hard (with JPEG)", SensorSettings.hard())):
        track = SensorTrack(settings, (WIDTH, HEIGHT), FPS, np.random.default_rng(1))
        rows.append((name, median_ms(lambda i, t=track: t.apply(table, i), args.repeats)))

    typical = rows[0][1] + 2 * rows[1][1] + rows[-2][1]
    worst = rows[0][1] + 2 * rows[4][1] + rows[-1][1]
    print(f"Realism layers at {WIDTH}x{HEIGHT}, one core, median of {args.repeats}; "
          f"budget {BUDGET_MS:.0f} ms/frame")
    print(f"{'layer':34} {'ms/frame':>9} {'share of budget':>16}")
    for name, ms in rows:
        print(f"{name:34} {ms:9.2f} {ms / BUDGET_MS:15.1%}")
    print(f"{'typical: heads + 2 arms + normal':34} {typical:9.2f} {typical / BUDGET_MS:15.1%}")
    print(f"{'worst: heads + 2 moving + hard':34} {worst:9.2f} {worst / BUDGET_MS:15.1%}")

    print("\nOnce per clip (table surface, 1280x720), spread over a one-minute clip at 10 fps:")
    for kind in SURFACE_KINDS:
        ms = median_ms(lambda i, k=kind: make_surface(k, WIDTH, HEIGHT, np.random.default_rng(i)), 3)
        per_frame = ms / (60 * FPS)
        print(f"{kind:34} {ms:9.0f} ms once = {per_frame:6.2f} ms/frame {per_frame / BUDGET_MS:7.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
