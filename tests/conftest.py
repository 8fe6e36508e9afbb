"""The suite is fast by default: the end-to-end runs marked ``slow`` are left out unless ``--slow`` is
given (``test.sh``, and so CI, gives it), a ``-m`` expression chooses, or the test is named by its node
id on the command line (``pytest tests/test_enrollment.py::test_...`` runs it, slow or not)."""

from __future__ import annotations

from pathlib import Path

import pytest

SLOW = "slow"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="run the end-to-end runs marked slow too (test.sh does)")


def files_named_by_node_id(config: pytest.Config) -> set[Path]:
    """The files the command line names tests of (``file.py::test``): pytest collects only those tests
    of them, so every one was asked for by name."""
    start = config.invocation_params.dir
    return {(start / arg.split("::", 1)[0]).resolve() for arg in config.args if "::" in arg}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow") or config.getoption("markexpr"):
        return
    named = files_named_by_node_id(config)
    left_out = [item for item in items
                if item.get_closest_marker(SLOW) is not None and item.path.resolve() not in named]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]
