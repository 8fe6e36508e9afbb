"""Rules engine speed: four-player hands scored per second on one core, against the goal of 5,000.

Simulates random legal matches once with the product's own ``engine.simulate`` (seeded), then
times ``score_events`` over their events and prints hands per second and the ratio to the goal,
side by side for the classic and accuso presets and for stepping ``MatchState.apply`` event by
event. Time is this process's CPU time (``time.process_time``), best of ``--repeat`` runs, so other
work on a shared machine counts less.

    .venv/bin/python bench/engine.py [--matches 200] [--seed 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and this file would hide the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from engine.events import Event  # noqa: E402
from engine.rules import PRESETS, Rules  # noqa: E402
from engine.score import score_events  # noqa: E402
from engine.simulate import simulate_match  # noqa: E402
from engine.state import MatchState  # noqa: E402

GOAL_HANDS_PER_SECOND = 5_000

Match = tuple[int, tuple[Event, ...]]  # first dealer, corrected events
HandsOfMatch = Callable[[Rules, Match], int]


def make_matches(rules: Rules, count: int, seed: int) -> list[Match]:
    """``count`` random legal matches from the product's own simulator, seeded."""
    rng = random.Random(seed)
    records = (simulate_match(rules, rng) for _ in range(count))
    return [(record.header.dealer, record.corrected_events()) for record in records]


def hands_by_score_events(rules: Rules, match: Match) -> int:
    dealer, events = match
    return len(score_events(rules, rules.seats, dealer, events).hands)


def hands_by_apply(rules: Rules, match: Match) -> int:
    dealer, events = match
    state = MatchState.start(rules, rules.seats, dealer)
    for event in events:
        state = state.apply(event)
    return len(state.hands)


def best_time(fold: HandsOfMatch, rules: Rules, matches: Sequence[Match], repeat: int) -> tuple[float, int]:
    """Best of ``repeat`` runs: CPU seconds to fold every match, and the hands folded."""
    best = float("inf")
    hands = 0
    for _ in range(repeat):
        started = time.process_time()
        hands = sum(fold(rules, match) for match in matches)
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
    for name, fold in (("classic score_events", hands_by_score_events),
                       ("accuso score_events", hands_by_score_events),
                       ("classic apply() each", hands_by_apply)):
        rules = PRESETS[name.split()[0]]
        matches = make_matches(rules, args.matches, args.seed)
        seconds, hands = best_time(fold, rules, matches, args.repeat)
        rate = hands / seconds
        print(f"{name:24s} {hands:6d} hands in {seconds:6.3f} s = {rate:9.0f} hands/s"
              f"  ratio to goal {rate / GOAL_HANDS_PER_SECOND:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
