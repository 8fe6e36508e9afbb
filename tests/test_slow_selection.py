"""The suite's own rule for slow tests (``tests/conftest.py``), run on a small suite of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text(encoding="utf-8")
SUITE = '''
import pytest

def test_quick():
    pass

@pytest.mark.slow
def test_long():
    pass

@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
def test_long_many(n):
    pass
'''


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makeini("[pytest]\nmarkers =\n    slow: long runs\naddopts = --strict-markers -p no:xdist\n")
    pytester.makepyfile(test_suite=SUITE)
    return pytester


def test_a_plain_run_leaves_the_slow_tests_out(suite: pytest.Pytester) -> None:
    result = suite.runpytest()
    result.assert_outcomes(passed=1, deselected=3)


def test_slow_runs_every_test(suite: pytest.Pytester) -> None:
    suite.runpytest("--slow").assert_outcomes(passed=4)


def test_a_mark_expression_chooses_by_itself(suite: pytest.Pytester) -> None:
    suite.runpytest("-m", "slow").assert_outcomes(passed=3, deselected=1)


def test_a_slow_test_named_by_its_node_id_runs(suite: pytest.Pytester) -> None:
    suite.runpytest("test_suite.py::test_long").assert_outcomes(passed=1)
    suite.runpytest("test_suite.py::test_long_many").assert_outcomes(passed=2)


def test_naming_the_file_alone_still_leaves_its_slow_tests_out(suite: pytest.Pytester) -> None:
    suite.runpytest("test_suite.py").assert_outcomes(passed=1, deselected=3)
