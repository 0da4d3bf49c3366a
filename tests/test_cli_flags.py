"""One meaning per flag across commands: each long flag has one metavar and one short form in every command that
has it, each short form stands for one long flag, and the flags that bound a time or count a number say so in one
pattern (docs/cli.md, "Flags shared by the commands")."""

from __future__ import annotations

import importlib
import math
from collections import defaultdict

import click
import pytest
import typer
from typer.main import get_command_from_info
from typer.models import CommandInfo

from solver.cli.main import COMMANDS, Command
from solver.limits import DEFAULT_BOARD_TIME_LIMIT_S, DEFAULT_LIMIT_S, MAX_LIMIT_S, MAX_SAMPLES

#: Short forms that stand for two long flags, where and why: ``-n`` is how many of the command's own units it makes, the
#: long flag naming them: ``--count`` (deals, boards) but ``analyse``'s ``--samples`` (``match --samples``, a sampling
#: bot's samples a card, is not what its ``-n`` counts, its boards).
SHORT_FORM_EXCEPTIONS = {("-n", "analyse"): "--samples"}


def visible_options() -> dict[str, list[tuple[str, object]]]:
    """Every option shown in some command's help, by each of its long flags: (command, click option) pairs."""
    options: dict[str, list[tuple[str, object]]] = defaultdict(list)
    for name, target, _ in COMMANDS:
        module_name, function_name = target.split(":")
        module = importlib.import_module(f"solver.cli.{module_name}")
        info = CommandInfo(name, cls=Command, callback=getattr(module, function_name))
        command = get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=None)
        for param in command.params:
            if param.param_type_name != "option" or param.hidden:
                continue
            for flag in param.opts + param.secondary_opts:
                if flag.startswith("--"):
                    options[flag].append((name, param))
    return options


OPTIONS = visible_options()


def short_forms(param: object) -> set[str]:
    return {flag for flag in param.opts if not flag.startswith("--")}  # type: ignore[attr-defined]


def excepted(short: str, command: str, flag: str) -> bool:
    """Whether ``short`` for ``flag`` in ``command`` is a documented exception (:data:`SHORT_FORM_EXCEPTIONS`)."""
    return SHORT_FORM_EXCEPTIONS.get((short, command)) == flag


@pytest.mark.parametrize("flag", sorted(OPTIONS))
def test_a_long_flag_has_one_metavar_and_one_short_form_everywhere(flag):
    metavars = {(param.metavar, param.is_flag) for _, param in OPTIONS[flag]}
    assert len(metavars) == 1, {command: param.metavar for command, param in OPTIONS[flag]}
    shorts = {command: sorted(short for short in short_forms(param) if not excepted(short, command, flag))
              for command, param in OPTIONS[flag]}
    assert len({tuple(forms) for forms in shorts.values()}) == 1, shorts


def test_a_short_form_stands_for_one_long_flag_everywhere():
    """Each short form has one long flag that it is in every command (``-o`` is ``--objective``, in ``match`` too,
    where it is also ``--plays-for``), but for the documented exceptions."""
    longs: dict[str, list[set[str]]] = defaultdict(list)
    seen = set()
    for flag, uses in OPTIONS.items():
        for command, param in uses:
            for short in short_forms(param):
                if excepted(short, command, flag):
                    seen.add((short, command))
                else:
                    longs[short].append({name for name in param.opts if name.startswith("--")})
    assert seen == set(SHORT_FORM_EXCEPTIONS)  # an exception no longer needed is taken off the list
    shared = {short: set.intersection(*flags) for short, flags in longs.items()}
    assert {short: flags for short, flags in shared.items() if len(flags) != 1} == {}
    assert (shared["-n"], shared["-o"]) == ({"--count"}, {"--objective"})


def test_every_time_limit_says_what_it_bounds_and_every_count_what_it_counts():
    """``--time-limit`` bounds a record's searches, a question, a deal's solve or a whole match: its help says which,
    in one pattern, and so does ``match --card-time``; every ``-n`` says how many of what."""
    timed = OPTIONS["--time-limit"] + OPTIONS["--card-time"]
    assert {command for command, _ in OPTIONS["--time-limit"]} >= {"solve", "bench", "analyse", "board", "match"}
    for command, param in timed:
        assert param.metavar == "SECONDS"
        assert param.help.startswith("Time limit, in seconds, of "), (command, param.help)
        assert ": past it " in param.help, (command, param.help)
    counted = [(command, param) for uses in OPTIONS.values() for command, param in uses if "-n" in param.opts]
    assert sorted({command for command, _ in counted}) == ["analyse", "bench", "deal", "match"]
    for command, param in counted + OPTIONS["--samples"]:
        assert param.help.startswith("How many "), (command, param.help)


def _context() -> click.Context:
    return click.Context(click.Command("stich"))


@pytest.mark.parametrize("command, param", OPTIONS["--time-limit"], ids=[name for name, _ in OPTIONS["--time-limit"]])
def test_every_time_limit_takes_one_range_and_0_is_no_limit(command, param):
    """0 to MAX_LIMIT_S seconds in every command, 0 no limit (the value None, as without the flag), nan and inf a
    usage error that says so; the default none but where a command's runs must end (``bench``, ``board``)."""
    assert (type(param.type).__name__, param.type.min, param.type.max) == ("FloatRange", 0, MAX_LIMIT_S)
    assert not param.type.min_open and not param.type.max_open
    assert param.default == {"bench": DEFAULT_LIMIT_S, "board": DEFAULT_BOARD_TIME_LIMIT_S}.get(command)
    assert param.callback(_context(), param, 0.0) is None and param.callback(_context(), param, -0.0) is None
    assert param.callback(_context(), param, 2.5) == 2.5
    for wrong in (math.nan, math.inf):
        with pytest.raises(typer.BadParameter, match=r"is not a number of seconds \(0 is no limit\)"):
            param.callback(_context(), param, wrong)
    assert ("Without it, or 0: no limit." if param.default is None else "0: no limit.") in param.help, param.help


def test_the_reference_solver_takes_no_limit_as_0(monkeypatch):
    """Under STICH_IMPLEMENTATION=python, whose solver has no stop check, a limit is a usage error and 0 (no limit)
    is taken, in every command that searches with the library's solver."""
    monkeypatch.setenv("STICH_IMPLEMENTATION", "python")
    for command, param in OPTIONS["--time-limit"]:
        assert param.callback(_context(), param, 0.0) is None
        if command not in ("bench", "board"):  # bench and board make engines of their own
            with pytest.raises(typer.BadParameter, match="takes no time limit"):
                param.callback(_context(), param, 5.0)


def test_card_time_is_a_deadline_in_the_same_range():
    """``match --card-time``: the range of every --time-limit, nan and inf refused, but 0 kept: a deadline already
    past, one sample a card (the library's ``time_limit=0``), which its help says beside --time-limit's no limit."""
    ((_, param),) = OPTIONS["--card-time"]
    assert (param.type.min, param.type.max, param.default) == (0, MAX_LIMIT_S, None)
    assert param.callback(_context(), param, 0.0) == 0.0
    with pytest.raises(typer.BadParameter, match="^inf is not a number of seconds$"):
        param.callback(_context(), param, math.inf)
    assert "0: a deadline already past, one sample a card (a budget, not --time-limit's no limit)" in param.help

