"""One meaning per flag across commands: each long flag has one metavar and one short form in every command that
has it, each short form stands for one long flag, and the flags that bound a time or count a number say so in one
pattern (docs/cli.md, "Flags shared by the commands")."""

from __future__ import annotations

import importlib
from collections import defaultdict

import pytest
from typer.main import get_command_from_info
from typer.models import CommandInfo

from solver.cli.main import COMMANDS, Command

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
