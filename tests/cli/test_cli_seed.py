"""One parser of ``--seed`` for every command (laocheck.cli._common.parse_seed): the same rule
and the same one-line message, whichever command and whichever way the value is wrong."""
import argparse

import pytest

from laocheck.cli import _build_parser, main
from laocheck.cli._common import parse_seed

#: every command that takes --seed, with the arguments it needs before parsing the seed
COMMANDS = {"verify": ["verify"], "check": ["check", "mypkg:Thing"],
            "baseline": ["baseline", "save", "mine", "--estimator", "mypkg:Thing"],
            "report": ["report"],
            "bounds": ["bounds"]}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("typed", ["-1", "seven", "1.5", ""])
def test_every_command_refuses_a_bad_seed_with_one_message(command, typed, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*COMMANDS[command], "--seed", typed])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"`--seed` must be an integer >= 0; got {typed!r}" in err, err
    assert len(err.strip().splitlines()) == 1


def test_every_command_with_a_seed_uses_the_one_parser():
    """No command parses --seed its own way (a second parser is how the messages drifted)."""
    root = _build_parser()
    sub = next(a for a in root._actions if isinstance(a, argparse._SubParsersAction))
    seeded = {name: next(a for a in p._actions if "--seed" in a.option_strings)
              for name, p in sub.choices.items()
              if any("--seed" in a.option_strings for a in p._actions)}
    assert set(seeded) == set(COMMANDS)
    assert all(action.type is parse_seed for action in seeded.values())


def test_the_parser_accepts_what_a_seed_sequence_takes():
    assert parse_seed("0") == 0 and parse_seed("12345678901234567890") == 12345678901234567890
