"""One meaning per flag across commands: each long flag has one metavar and one short form in every command that
has it, each short form stands for one long flag, and the flags that bound a time or count a number say so in one
pattern (docs/cli.md, "Flags shared by the commands")."""

from __future__ import annotations

import importlib
from collections import defaultdict

import click
import pytest
import typer
from typer.testing import CliRunner
from typer.main import get_command_from_info
from typer.models import CommandInfo

from solver.cli.main import COMMANDS, Command, app
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
runner = CliRunner()


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


#: Shared flags whose range differs in one command, and why: everything else a flag takes is the same everywhere.
RANGE_EXCEPTIONS = {
    ("--count", "match"): "at most 1,000,000 boards: play_match's own range (solver/match.py), which --count takes "
                          "as it is (match keeps no boards: keep_deals=False); deal has no such check",
    ("--count", "bench"): "at most MAX_BENCH_DEALS (10,000) deals a line: a saved run keeps each deal's figures, and "
                          "--compare reads it back whole",
    ("--objective", "postmortem"): "one objective, not repeatable: a post-mortem grades by one",
    ("--objective", "tree"): "one objective, not repeatable: a tree has one value on each node",
    ("--objective", "match"): "one objective, not repeatable: what the bots play for",
}
#: Shared flags whose default differs in one command, and why (each command's help says its own).
DEFAULT_EXCEPTIONS = {
    ("--count", "deal"): "one deal unless told; a benchmark line and a match are 10",
    ("--seed", "bench"): "each game's fixed benchmark seed, so that runs compare",
    ("--objective", "match"): "what the bots play for, the score, not what is solved",
    ("--samples", "match"): "a sampling bot's samples a card (50), not an analysis's",
    ("--declarer", "analyse"): "None tells a given --declarer from none: contract advice's declarer is the --seat",
    ("--time-limit", "bench"): "a benchmark's run ends: each solve stops at 60 s",
    ("--time-limit", "board"): "a question on the page ends: 120 s",
}


def _range(param: object) -> tuple:
    kind = param.type  # type: ignore[attr-defined]
    return (type(kind).__name__, getattr(kind, "min", None), getattr(kind, "max", None),
            getattr(kind, "min_open", None), getattr(kind, "max_open", None), param.multiple,  # type: ignore
            param.is_flag)  # type: ignore[attr-defined]


SHARED = sorted(flag for flag, uses in OPTIONS.items() if len(uses) > 1)


@pytest.mark.parametrize("flag", SHARED)
def test_a_shared_flag_has_one_type_range_and_default_everywhere(flag):
    """A flag two commands share takes the same values in both (type, range, repeatable or not) and has the same
    default, but for the documented exceptions, which must still differ (a stale one is taken off the list)."""
    uses = OPTIONS[flag]
    ranges = {command: _range(param) for command, param in uses if (flag, command) not in RANGE_EXCEPTIONS}
    assert len(set(ranges.values())) == 1, ranges
    defaults = {command: param.default for command, param in uses if (flag, command) not in DEFAULT_EXCEPTIONS}
    assert len(set(defaults.values())) == 1, defaults
    (common,) = set(defaults.values())
    for command, param in uses:
        if (flag, command) in RANGE_EXCEPTIONS:
            assert _range(param) != next(iter(ranges.values())), (flag, command)
        if (flag, command) in DEFAULT_EXCEPTIONS:
            assert param.default != common, (flag, command)


def test_the_exceptions_name_shared_flags_of_their_commands():
    for flag, command in {**RANGE_EXCEPTIONS, **DEFAULT_EXCEPTIONS}:
        assert flag in SHARED and command in {name for name, _ in OPTIONS[flag]}, (flag, command)


def _context() -> click.Context:
    return click.Context(click.Command("stich"))


@pytest.mark.parametrize("command, param", OPTIONS["--time-limit"], ids=[name for name, _ in OPTIONS["--time-limit"]])
def test_every_time_limit_takes_one_range_and_0_is_no_limit(command, param):
    """0 to MAX_LIMIT_S seconds in every command (checked by the callback, which the help says), 0 no limit (the value
    None, as without the flag); the default none but where a command's runs must end (:data:`DEFAULT_EXCEPTIONS`)."""
    assert type(param.type).__name__ == "FloatParamType"  # no range of Click's: it refused inf without the hint
    assert param.default == {"bench": DEFAULT_LIMIT_S, "board": DEFAULT_BOARD_TIME_LIMIT_S}.get(command)
    assert param.callback(_context(), param, 0.0) is None and param.callback(_context(), param, -0.0) is None
    assert param.callback(_context(), param, 2.5) == 2.5
    assert param.callback(_context(), param, MAX_LIMIT_S) == MAX_LIMIT_S
    no_limit = {"bench": "0: no limit (each deal then solved in this process).",
                "board": "0: no limit."}.get(command, "Without it, or 0: no limit.")
    assert f"{no_limit} From 0 to 1,000,000 seconds." in " ".join(param.help.split()), param.help


#: What a command line says of a --time-limit out of its range: the hint how to ask for no limit each time
WRONG_TIME_LIMITS = {
    "nan": "nan is not a number of seconds (0 is no limit)",
    "inf": "inf is not a number of seconds (0 is no limit)",
    "1e7": "10000000.0 is not in the range 0 to 1,000,000 seconds (0 is no limit)",
    "-1": "-1.0 is not in the range 0 to 1,000,000 seconds (0 is no limit)",
}


@pytest.mark.parametrize("command", [name for name, _ in OPTIONS["--time-limit"]] + ["bench --limit"])
def test_a_time_limit_out_of_range_is_a_usage_error_that_says_how_to_ask_for_none(command):
    """Through the command line (the option comes first, so that it is parsed before a missing FILE or --bots), in
    every command and bench's hidden old name."""
    name, _, flag = command.partition(" ")
    for value, said in WRONG_TIME_LIMITS.items():
        result = runner.invoke(app, [name, flag or "--time-limit", value])
        assert result.exit_code == 2 and "Traceback" not in result.stderr, (command, value, result.stderr)
        assert f"Invalid value for '{flag or '--time-limit'}': {said}" in " ".join(result.stderr.split()), result.stderr


#: The commands whose --time-limit stops searches inside a record, which the reference solver cannot (docs/cli.md)
REFERENCE_REFUSES = ["check", "postmortem", "score", "solve", "table", "tree"]


def test_the_reference_solver_takes_no_limit_as_0(monkeypatch):
    """Under STICH_IMPLEMENTATION=python, whose solver has no stop check, a limit is a usage error where it would stop
    a record's searches, and 0 (no limit) is taken everywhere; analyse and match look at theirs between samples and
    boards, bench and board make engines of their own: they take a limit."""
    monkeypatch.setenv("STICH_IMPLEMENTATION", "python")
    refusing = []
    for command, param in OPTIONS["--time-limit"]:
        assert param.callback(_context(), param, 0.0) is None
        try:
            assert param.callback(_context(), param, 5.0) == 5.0
        except typer.BadParameter as error:
            assert "takes no time limit" in str(error)
            refusing.append(command)
    assert sorted(refusing) == REFERENCE_REFUSES


def test_card_time_is_a_deadline_in_the_same_range():
    """``match --card-time``: the range of every --time-limit, nan and inf refused, and 0 no deadline, as every
    --time-limit's 0 is no limit (the library refuses ``time_limit=0``, so the two cannot read it two ways)."""
    ((_, param),) = OPTIONS["--card-time"]
    assert param.default is None and param.callback(_context(), param, 0.0) is None
    assert param.callback(_context(), param, -0.0) is None and param.callback(_context(), param, 2.5) == 2.5
    for value, said in {"inf": "inf is not a number of seconds", "-1": "-1.0 is not in the range 0 to 1,000,000 "
                        "seconds", "2e6": "2000000.0 is not in the range 0 to 1,000,000 seconds"}.items():
        result = runner.invoke(app, ["match", "--card-time", value])
        assert result.exit_code == 2 and f"'--card-time': {said}" in " ".join(result.stderr.split()), result.stderr
    help_text = " ".join(param.help.split())
    assert "Without it, or 0: no deadline, every sample is solved (one sample a card: the bot sampling:1)." in help_text
    assert help_text.endswith("From 0 to 1,000,000 seconds.")


def _help(flag: str, command: str) -> str:
    return " ".join(next(param.help for name, param in OPTIONS[flag] if name == command).split())


def test_analyse_declarer_says_what_happens_without_it():
    """``analyse --declarer``'s default is None (a given seat is told from none), so its help says what none is: seat
    1, or in contract advice the --seat; ``deal`` and ``match`` take 1, which Typer shows."""
    assert [param.default for name, param in OPTIONS["--declarer"] if name != "analyse"] == [1, 1]
    assert _help("--declarer", "analyse") == ("The declaring seat, without FILE (default 1; in contract advice the "
                                              "--seat, which announces).")
    assert _help("--declarer", "deal") == _help("--declarer", "match") == "The declaring seat."


def test_a_file_continued_on_a_rerun_says_so_in_one_phrase():
    """``batch --out`` is batch's checkpoint: its help says so in the words of every ``--checkpoint``."""
    phrase = "rerun the same command to continue from it."
    assert all(phrase in _help("--checkpoint", command) for command, _ in OPTIONS["--checkpoint"])
    assert _help("--out", "batch") == ("The JSON Lines output, batch's checkpoint too: each record's result is "
                                       f"appended to it; {phrase}")


def test_the_settlement_switches_say_why_their_defaults_differ():
    """``score --dd`` is off and ``table --settlement`` on by default: each help names the other and says why."""
    assert OPTIONS["--dd"][0][1].default is False and OPTIONS["--settlement"][0][1].default is True
    assert "unlike table's --settlement: without it score searches nothing" in _help("--dd", "score")
    assert "On by default, unlike score's --dd: a table searches every contract anyway" in _help("--settlement",
                                                                                                  "table")


def test_the_samples_flags_take_the_same_most():
    assert {param.type.max for _, param in OPTIONS["--samples"]} == {MAX_SAMPLES}
