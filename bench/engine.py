"""Rules engine speed: four-player hands scored per second on one core, against the goal of 5,000.

Deals and plays random legal matches (seeded ``random.Random``) once, then times ``score_events`` over
their events; prints the figure and its ratio to the goal, side by side for the classic and accuso
presets and for stepping ``MatchState.apply`` event by event. Time is this process's CPU time
(``time.process_time``), best of ``--repeat`` runs, so other work on a shared machine counts less.

    .venv/bin/python bench/engine.py [--matches 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.events import Event
from engine.rules import PRESETS, Rules
from engine.score import score_events
from engine.state import MatchState
from tests.engine_matches import random_match

GOAL_HANDS_PER_SECOND = 5_000


def make_matches(rules: Rules, count: int, seed: int) -> list[list[Event]]:
    rng = random.Random(seed)
    return [random_match(rules, rng)[0] for _ in range(count)]


def time_score(rules: Rules, matches: list[list[Event]], repeat: int) -> tuple[float, int]:
    """Best of ``repeat`` runs: seconds to score every match, and the hands scored."""
    best = float("inf")
    hands = 0
    for _ in range(repeat):
        started = time.process_time()
        hands = 0
        for events in matches:
            report = score_events(rules, rules.seats, rules.seats - 1, events)
            hands += len(report.hands)
        best = min(best, time.process_time() - started)
    return best, hands


def time_apply(rules: Rules, matches: list[list[Event]], repeat: int) -> tuple[float, int]:
    best = float("inf")
    hands = 0
    for _ in range(repeat):
        started = time.process_time()
        hands = 0
        for events in matches:
            state = MatchState.start(rules, rules.seats, rules.seats - 1)
            for event in events:
                state = state.apply(event)
            hands += len(state.hands)
        best = min(best, time.process_time() - started)
    return best, hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"goal: {GOAL_HANDS_PER_SECOND} four-player hands/s on one core, scored by score_events "
          "(the apply() row steps one event at a time, for reference)")
    for name, timer in (("classic score_events", time_score), ("accuso score_events", time_score),
                        ("classic apply() each", time_apply)):
        rules = PRESETS[name.split()[0]]
        matches = make_matches(rules, args.matches, args.seed)
        seconds, hands = timer(rules, matches, args.repeat)
        rate = hands / seconds
        print(f"{name:24s} {hands:6d} hands in {seconds:6.3f} s = {rate:9.0f} hands/s"
              f"  ratio to goal {rate / GOAL_HANDS_PER_SECOND:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
