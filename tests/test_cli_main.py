"""The `tressette` entry point: default command, unknown commands, a closed pipe."""

import os
import sys

import pytest

from table.cli import DEFAULT_COMMAND, build_parser, main


def test_every_command_module_registers_a_subcommand() -> None:
    choices = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"score", "replay", "simulate", DEFAULT_COMMAND} <= set(choices)


def test_options_without_a_command_go_to_the_default_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert main([]) == 0
    italian = capsys.readouterr().out
    assert "Trick 1" in english
    assert "Presa 1" in italian and "Trick 1" not in italian


def test_unknown_command_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["scorre", "x.jsonl"])
    assert exit_info.value.code == 2
    assert "scorre" in capsys.readouterr().err


def test_output_cut_short_by_a_closed_pipe_is_not_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader (`| head`) has gone away
    with capsys.disabled(), open(write_end, "w", encoding="utf-8") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        status = main(["demo"])
        monkeypatch.undo()
    assert status == 0
