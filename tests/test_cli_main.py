"""The `tressette` entry point: default command, unknown commands, a closed pipe."""

import subprocess
import sys

import pytest

from table.cli import DEFAULT_COMMAND, build_parser, main


def test_every_command_module_registers_a_subcommand() -> None:
    choices = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"score", "replay", "simulate", DEFAULT_COMMAND} <= set(choices)


def test_unknown_command_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["scorre", "x.jsonl"])
    assert exit_info.value.code == 2
    assert "scorre" in capsys.readouterr().err


def test_output_cut_short_by_a_closed_pipe_is_not_an_error() -> None:
    # A chiamata match to 21 writes far more than a pipe holds, so the writer meets the closed pipe.
    arguments = ["simulate", "--preset", "chiamata", "--seed", "1"]
    script = f"import sys; from table.cli import main; sys.exit(main({arguments!r}))"
    command = [sys.executable, "-c", script]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(10)
        proc.stdout.close()
        stderr = proc.stderr.read().decode()
        proc.wait(timeout=60)
    assert "Broken pipe" not in stderr
    assert proc.returncode == 0
