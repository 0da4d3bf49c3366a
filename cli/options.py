"""The options several commands share, their parsing, and the settings they turn into.

A command module declares its parameters with the option objects here (one meaning per flag across commands:
``-o`` is always ``--objective``, ``--out`` is always an output file) and turns them into the arguments of its
library function with the helpers below. Settings travel as arguments: ``--table-mb`` becomes an engine handed to
the analysis, never an environment variable that code deep inside would read.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from pathlib import Path
from typing import Any, Iterable, Sequence

import typer

from solver.announcements import parse_announcements
from solver.deal import written_as
from solver.errors import FlagGivenTwiceError, StichError, objective_meant
from solver.games import GAMES, check_flags_of_some_game, game_list, games_with, get_game, score_units
from solver.generate import (DEFAULT_SEED as LIBRARY_DEFAULT_SEED, MAX_SEED, SEED_RANGE, contract_refusal,
                             everyday_refusal)
from solver.limits import DEFAULT_WORKER_WAIT_SECONDS, MAX_LIMIT_S, MAX_WORKER_WAIT_SECONDS
from solver.position import Position
from solver.scoring import MAX_POT, set_or_check_pot
from solver.search.engine import (DEFAULT_TT_MEGABYTES, MAX_THREADS, MAX_TT_MEGABYTES, EngineSolver, implementation,
                                  table_megabytes, usable_cores)
from solver.variant import PAIR_FORM, Variant, example_pair, note_once

from .errors import file_name, input_errors, message
from .render import plural
from .whatif import game_examples


def variant_examples() -> str:
    """Every game's example of ``--variant`` (:func:`solver.variant.example_pair` of its flags)."""
    return game_examples(lambda game: example_pair(game.flags))


def all_objectives() -> list[str]:
    """Every objective name of every game, ``score`` (every game's) and ``all``."""
    return sorted({name for game in GAMES for name in game.objectives} | {"all", "score"})


def names_completing(incomplete: str, names: Iterable[str]) -> list[str]:
    """Tab completion of an option whose ``names`` are read in any case: those that start with what is typed, in any
    case, completed after the letters typed (``s`` gives ``schafkopf``, ``SC`` gives ``SCore``: Typer offers only
    what starts with the letters typed)."""
    return [incomplete + name[len(incomplete):] for name in names if name.lower().startswith(incomplete.lower())]


def game_names(incomplete: str) -> list[str]:
    """``--game``'s Tab completion: the games' names (:func:`names_completing`). An alias is taken, not offered."""
    return names_completing(incomplete, (game.name for game in GAMES))


def game_option(default: Any, help: str | None = None) -> Any:
    """``-g/--game``, one option in every command that names its game (``deal``, ``bench``, ``analyse``, ``match``):
    the game by name or alias, checked, its names offered to Tab; ``help`` by default names the games."""
    return typer.Option(default, "--game", "-g", metavar="GAME", callback=checked_game, autocompletion=game_names,
                        help=help or f"{game_list()} (or an alias).")


def objective_names(incomplete: str) -> list[str]:
    """``--objective``'s Tab completion: every game's objective names (:func:`names_completing`)."""
    return names_completing(incomplete, all_objectives())


#: What ``match``'s bots play for and ``postmortem`` grades by, its ``-o``: the score, or the game's own measure as
#: solve names it (the card points; Kratzen's own tricks).
SCORE_OR_MEASURE = ("score", "points", "tricks")


def score_or_measure_names(incomplete: str) -> list[str]:
    """``match -o`` and ``postmortem -o``'s Tab completion: :data:`SCORE_OR_MEASURE` (:func:`names_completing`)."""
    return names_completing(incomplete, SCORE_OR_MEASURE)


def checked_objectives(values: Sequence[str] | str | None) -> Sequence[str] | str | None:
    """An ``--objective`` option's callback: a name that is no game's objective is a usage error (exit 2), with
    the closest names; one that some game has but a record's contract has not is that record's error (exit 1)."""
    return objectives_among(values, all_objectives())


def objective_by_title(value: str) -> str:
    """``value`` as an objective's name where it is an objective as the tables title it (``Pagat Ultimo beaten``,
    ``Valat against``: ``stich check`` and ``solve`` name the rows so, and a player asks with the words he read), or
    a bonus the cards decide as check titles it (``4 Kings``: told so rather than taken for a misspelling); any other
    value as given. The titles are read in any case, one space or underscore between words."""
    return _objective_titles().get(_title_words(value), value)


def _title_words(value: str) -> str:
    """``value`` as :func:`objective_by_title` matches it: lower case, one underscore between words."""
    return "_".join(value.replace("_", " ").split()).lower()


@functools.cache
def _objective_titles() -> dict[str, str]:
    """Each objective's and dealt bonus's row title (:func:`_title_words`) with its name."""
    return {_title_words(title): name for name, title in _row_titles().items()}


@functools.cache
def _row_titles() -> dict[str, str]:
    """Each objective's and dealt bonus's name with its row title as the tables print it (``4 Kings``)."""
    return {name: game.row_title(name) for game in GAMES
            for name in (*game.objectives, *game.dealt_bonus_names)}


def _written_as_title(value: str) -> bool:
    """Whether ``value`` is written as a row title (``Pagat Ultimo beatn``, ``Valt``, ``4 King``) rather than as a
    name (``pagat_beatn``, ``valt``): words apart or a capital, and no underscore."""
    return "_" not in value and (len(value.split()) > 1 or value != value.lower())


def objectives_among(values: Sequence[str] | str | None, known: Sequence[str]) -> Sequence[str] | str | None:
    """:func:`checked_objectives` against the names ``known`` (a command that takes fewer); each name the tables
    title an objective with (:func:`objective_by_title`) given as the objective's own name."""
    given = [values] if isinstance(values, str) else list(values or [])
    if isinstance(values, str):
        values = objective_by_title(values)
    elif values is not None:
        values = [objective_by_title(value) for value in values]
    dealt = {name: game.name for game in GAMES for name in game.dealt_bonus_names}
    for written, value in zip(given, [values] if isinstance(values, str) else values or []):
        if value.strip().lower() in dealt:  # RULES.md 1.6: the Trull and the 4 Kings need no search
            raise typer.BadParameter(f"{written!r} is decided by the cards ({dealt[value.strip().lower()]}: who "
                                     "holds them), not by a search of the play: stich check lists it beside the "
                                     "searched bonuses")
        if value.strip().lower() not in known:
            # a misspelt title (Pagat Ultimo beatn, 4 King) is matched against the titles of as many words too,
            # naming the objective or the dealt bonus, which the next try is then told the cards decide
            words = _title_words(value)
            named = (*known, *dealt)
            meant = {**{name: name for name in named},
                     **{title: name for title, name in _objective_titles().items()
                        if name in named and title.count("_") == words.count("_")}}
            if _written_as_title(value):  # offered as typed: a title for a title, a name for a name
                meant = {key: _row_titles().get(name, name) for key, name in meant.items()}
            raise typer.BadParameter(f"{value!r} is no game's objective{objective_meant(words, meant)} (the "
                                     f"objectives: {', '.join(known)})")
    return values


FILE = typer.Argument(..., metavar="FILE", show_default=False, parser=file_name,
                      help="A .tbn file (- for standard input); every record is analysed (see --board, "
                           "--record).")
BOARD = typer.Option(None, "--board", "-b", metavar="BOARD", help="Only the records whose [Board] tag is this.")
# the highest --record a file can be counted to (itertools.islice's limit: a larger one was a traceback)
MAX_RECORD_NUMBER = sys.maxsize


def checked_record_number(value: int | None) -> int | None:
    """``--record``'s callback: a number past what a file can be counted to is a usage error (exit 2), checked here
    rather than by the option's range, whose 19-digit bound would stand in every help page."""
    if value is not None and value > MAX_RECORD_NUMBER:
        raise typer.BadParameter(f"{value} is more records than a file can hold (at most {MAX_RECORD_NUMBER:,})")
    return value


RECORD = typer.Option(None, "--record", "-r", metavar="N", min=1, callback=checked_record_number,
                      help="Only the file's Nth record (1-based, counting every record in the file), for records "
                           "without a [Board] tag.")
VARIANT = typer.Option(None, "--variant", metavar="NAME=VALUE",
                       help="A variant flag (repeatable); overrides each record's [Variant] tag.")
JSON = typer.Option(False, "--json", help="One JSON document per record on stdout (JSON Lines, docs/json.md).")
#: Every record's message on stderr, not the first 20 and a count (:class:`cli.errors.RecordMessages`): for a file
#: whose errors are to be read or grepped all at once.
ALL_MESSAGES = typer.Option(False, "--all-messages",
                            help="Say the message of every record not answered in full on stderr (by default the "
                                 "first 20, then the first of each new kind, then a count).")
TABLE_MB = typer.Option(None, "--table-mb", metavar="MB", min=1, max=MAX_TT_MEGABYTES,
                        help=f"The transposition table's size in MB (default {DEFAULT_TT_MEGABYTES}, or "
                             "STICH_TABLE_MB).")
THREADS = typer.Option(None, "--threads", metavar="N", min=1, max=MAX_THREADS,
                       help="The threads each question is searched on, sharing one table (default: every core).")
#: ``--table-mb`` where a pool of workers searches (``analyse``, ``batch``): every local worker's table, capped by
#: ``--worker-memory``
POOL_TABLE_MB = typer.Option(None, "--table-mb", metavar="MB", min=1, max=MAX_TT_MEGABYTES,
                             help=f"Each local worker's transposition tables in MB (default {DEFAULT_TT_MEGABYTES}, or "
                                  "STICH_TABLE_MB; with --worker-memory, at most an eighth of it each: its points and "
                                  "settlement searches' tables share a quarter).")
#: ``--scheduler`` of ``analyse`` and ``batch``: one text, with what to install
SCHEDULER = typer.Option(None, "--scheduler", metavar="tcp://HOST:PORT",
                         help="Run on this Dask cluster instead (pip install 'stich[cluster]').")
#: ``--worker-wait`` and ``--verbose`` of ``analyse`` and ``batch``, which only a Dask cluster uses
#: (:data:`CLUSTER_ONLY`)
WORKER_WAIT = typer.Option(
    DEFAULT_WORKER_WAIT_SECONDS, "--worker-wait", metavar="SECONDS", min=0, max=MAX_WORKER_WAIT_SECONDS,
    help="With --scheduler: how many seconds to wait for a Dask worker to join, at the start or after every worker "
         "left, before giving up (0: give up at once).")
DASK_VERBOSE = typer.Option(False, "--verbose", help="With --scheduler: Dask's own log messages on stderr too.")
#: ``--threads`` where a pool of workers keeps every core busy: not shown, only answered with what to give instead
POOL_THREADS = typer.Option(None, "--threads", metavar="N", hidden=True)


#: ``-j``'s remark where a pool may be capped by ``--worker-memory`` (``analyse``, ``batch``)
CAPPED_POOL = "; with --worker-memory, 1 is one capped worker"


def workers_option(what: str = "Worker processes", after: str = "", one: str = "in this process") -> Any:
    """``-j/--workers``, one text in every command that has it (``analyse``, ``batch``, ``match``): ``what`` names
    the processes, ``one`` says what ``-j 1`` does, ``after`` is the command's own remark."""
    return typer.Option(None, "--workers", "-j", metavar="N", min=1,
                        help=f"{what}, each searching on one thread (default: every core this process may use; 1: "
                             f"{one}){after}.")


def refuse_pool_threads(threads: int | None) -> None:
    """A command whose workers each search on one thread takes no ``--threads``: say what it takes instead (Typer
    alone said 'No such option' and listed look-alikes)."""
    if threads is not None:
        raise typer.BadParameter("each worker searches on one thread, so that the cores are never oversubscribed: "
                                 "give the number of workers with -j/--workers", param_hint="'--threads'")


def workers_within_cores(workers: int | None) -> int | None:
    """``-j/--workers`` cut to the cores this process may use, said in one line on stderr when it is cut: a local
    pool's workers each search on one thread with a table of its own, so workers beyond the cores only take turns on
    them, slower and with more memory (a cluster's workers are its own and never cut)."""
    cores = usable_cores()
    if workers is None or workers <= cores:
        return workers
    from solver.workers import workers_cut_text  # the pool's module loads with a pool

    message(f"stich: {workers_cut_text(f'-j {workers}', cores)}")
    return cores


def note_threads_over_cores(threads: int | None) -> None:
    """One line on stderr for a ``--threads`` above the cores this process may use: the engine's budget of cores
    (``CORES``) gives a question no more threads than cores, so the flag is not taken as asked, and says so as
    ``-j`` does."""
    cores = usable_cores()
    if threads is not None and threads > cores:
        message(f"stich: --threads {threads}: this process may use {plural(cores, 'core')}, so a question searches "
                f"on at most {plural(cores, 'thread')} (more would only take turns on them)")


OBJECTIVES = typer.Option(None, "--objective", "-o", metavar="NAME", callback=checked_objectives,
                          autocompletion=objective_names,
                          help="What to solve (repeatable): score (the net settlement, in the game's unit: "
                               f"{score_units()}), points, game, valat, ... or 'all'. Default: the score beside "
                               "points (in a game without them, beside every seat's tricks); cards are ranked by the "
                               "score.")


#: What follows a refused limit where 0 is no limit
NO_LIMIT_HINT = " (0 is no limit)"
#: The range of every ``--time-limit`` and of ``match --card-time``, said in their help and in the message that
#: refuses a value out of it
LIMIT_RANGE = f"0 to {MAX_LIMIT_S:,.0f} seconds"


def seconds_refusing(value: float | None) -> float | None:
    """A number of seconds in :data:`LIMIT_RANGE`, checked here rather than by the option's range, which refused
    ``inf`` as out of range before a callback could say how to ask for no limit (and let ``nan`` through); anything
    else is a usage error (exit 2), saying how to ask for no limit (:data:`NO_LIMIT_HINT`)."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds{NO_LIMIT_HINT}")
    if value is not None and not 0 <= value <= MAX_LIMIT_S:
        raise typer.BadParameter(f"{value} is not in the range {LIMIT_RANGE}{NO_LIMIT_HINT}")
    return value


def seconds_or_no_limit(value: float | None) -> float | None:
    """A ``--time-limit`` option's callback where the reference solver takes a limit too (``analyse`` and ``match``
    look at it between samples and boards; ``bench`` and ``board`` make engines of their own): a finite number of
    seconds (``nan`` and ``inf`` refused with how to ask for none), or None for 0, which is no limit in every command
    (:data:`NO_LIMIT`)."""
    return seconds_refusing(value) or None


def seconds_kept_or_no_limit(value: float | None) -> float | None:
    """``bench --limit``'s callback (``--time-limit``'s old name): ``nan`` and ``inf`` refused as
    :func:`seconds_or_no_limit` refuses them, but 0 kept, so that a ``--limit 0`` is told from no ``--limit``."""
    return seconds_refusing(value)


def checked_time_limit(value: float | None) -> float | None:
    """A ``--time-limit`` option's callback: :func:`seconds_or_no_limit`, and no limit under
    STICH_IMPLEMENTATION=python, whose reference solver has no stop check and runs to the end (a usage error,
    exit 2)."""
    if seconds_or_no_limit(value) is None:
        return None
    try:
        reference = implementation() == "python"
    except StichError:
        return value  # engine_for says a bad STICH_IMPLEMENTATION, once, before any record
    if reference:
        raise typer.BadParameter("the reference solver (STICH_IMPLEMENTATION=python) runs to the end and takes no "
                                 "time limit")
    return value


#: What ``--time-limit 0`` (and ``match --card-time 0``) means in every command, said in each one's help: no limit,
#: as ``timeout 0`` has none; the library takes None for it and refuses ``time_limit=0``, which would read either way.
NO_LIMIT = "0: no limit"


#: How to have no ``--time-limit`` where the command has none by default
WITHOUT_IT_NO_LIMIT = f"Without it, or {NO_LIMIT}."


def time_limit_help(bounds: str, past: str, no_limit: str) -> str:
    """Every ``--time-limit``'s help (and ``match --card-time``'s) in one pattern: what the limit ``bounds`` (a
    record's searches, one question, the whole match) and what happens ``past`` it, so that its unit is never left to
    guess; then ``no_limit``, how to have none (``--card-time``: no deadline), and the
    range (:data:`LIMIT_RANGE`, which the option's type does not show: :func:`seconds_refusing` checks it)."""
    return f"Time limit, in seconds, of {bounds}: past it {past}. {no_limit} From {LIMIT_RANGE}."


def time_limit_option(bounds: str, past: str, default: float | None = None, reference_refuses: bool = True,
                      with_none: str = "") -> Any:
    """A ``--time-limit`` option, one range and one meaning of 0 in every command: from 0 to :data:`MAX_LIMIT_S`
    seconds (a longer wait overflows the engine's poll clock), ``nan`` and ``inf`` refused, 0 no limit (the value is
    then None). ``default`` is the command's own (``bench``'s and ``board``'s, so that a run or a question ends;
    Typer shows it); ``reference_refuses``: the limit stops searches inside a record, which the reference solver
    (STICH_IMPLEMENTATION=python) cannot, so it refuses one (``analyse`` and ``match`` look at theirs between
    samples and boards, ``bench`` and ``board`` make engines of their own: they take one); ``with_none``: what else
    no limit does, said after it."""
    no_limit = WITHOUT_IT_NO_LIMIT if default is None else f"{NO_LIMIT}{with_none}."
    return typer.Option(default, "--time-limit", metavar="SECONDS",
                        callback=checked_time_limit if reference_refuses else seconds_or_no_limit,
                        help=time_limit_help(bounds, past, no_limit))


#: The seconds one record's searches may take together; a record not answered in time is said on stderr and the
#: others are still answered (:func:`cli.records.run_over_records`).
TIME_LIMIT = time_limit_option("each record's searches together", "the record is said on stderr and not answered "
                               "(exit 1); the other records still are")
#: ``score``'s --time-limit: only --dd searches, and a finished deal's score needs none, so it is given all the same.
SCORE_TIME_LIMIT = time_limit_option("each record's --dd searches together", "the record's settlement is left out "
                                     "(said on stderr, exit 1), a finished deal's score still given (a deal whose "
                                     "play stops short is not answered); the other records still are")


def output_file(help: str, required: bool = False) -> Path:
    """An ``--out`` option (never ``-o``, which is ``--objective``), FILE in every command."""
    return typer.Option(... if required else None, "--out", metavar="FILE", parser=file_name,
                        show_default=False, help=help)


def checked_game(value: str | None) -> str | None:
    """A ``--game`` option's callback: the game's name, or a usage error (exit 2) naming the known games."""
    if value is None:
        return None
    try:
        return get_game(value).name
    except StichError as error:
        raise typer.BadParameter(str(error)) from None


def parse_variant_options(values: Sequence[str] | None) -> dict[str, str]:
    """``--variant NAME=VALUE`` options as a dict (later ones win); a malformed one is a usage error, and so is an
    empty one (an unset shell variable), which the pairs' parser would read as no flag at all, a [Variant] tag's
    list copied into one (said as the options to give, or as a flag given twice), and a flag no game has or a value
    no game reads (wrong whatever the records: exit 2 in every command; a flag of another game than a record's is
    that record's error, exit 1)."""
    if any(not value.strip() for value in values or []):
        raise typer.BadParameter(f"an empty value (an unset shell variable?), not of the form {PAIR_FORM}",
                                 param_hint="'--variant'")
    for value in values or []:
        pairs = [pair.strip() for pair in value.split(",") if pair.strip()]
        if len(pairs) > 1 and all("=" in pair for pair in pairs):  # a [Variant] tag's value, copied
            spelt: dict[str, str] = {}
            try:  # one flag twice, whatever the other pairs' form: no options to give
                for pair in pairs:
                    if name := pair.partition("=")[0].strip().lower():
                        note_once(spelt, name, pair)
            except FlagGivenTwiceError as error:
                raise typer.BadParameter(str(error), param_hint="'--variant'") from None
            split = (pair.partition("=") for pair in pairs)
            given = [f"{name.strip()}={flag.strip()}" for name, _, flag in split]  # each one shell word
            raise typer.BadParameter("one flag per --variant, not a list of them: give "
                                     + " ".join(f"--variant {pair}" for pair in given), param_hint="'--variant'")
    try:
        flags = Variant.parse_pairs(list(values or []))
        check_flags_of_some_game(flags)
    except StichError as error:
        raise typer.BadParameter(str(error), param_hint="'--variant'") from None
    return flags


def check_game_options(game: str, flags: dict[str, str], seats: int | None = None, declarer: int | None = None,
                       contract: str | None = None, cards: Sequence[tuple[str, str]] = (),
                       everyday: bool = False, seat_options: Sequence[tuple[str, int]] = (),
                       pot: int | None = None, announcements: str | None = None) -> None:
    """The options of a command that names its game itself (``deal``, ``bench --game``, ``analyse --game``),
    checked against it: a flag, seat count, declarer, contract or card (``cards``: (option, text) pairs such as
    ``("--hand", "EO GO")``) the game has not, or a card one option gives twice, is a usage error (exit 2), as any
    option's value out of its range is; no record is involved to point at. So is another seat the game has not
    (``seat_options``: (option, seat) pairs such as ``("--seat", 5)``), a ``pot`` for a game paid from none and
    ``announcements`` for a game without them, each named by its own option. ``everyday``: without a contract the
    deals are the game's everyday ones (``deal``, ``match``), which the declarer must be able to bid."""
    try:
        chosen = get_game(game)
    except StichError as error:
        raise typer.BadParameter(str(error), param_hint="'--game'") from None
    try:
        chosen.variant(flags)
    except StichError as error:
        raise typer.BadParameter(str(error), param_hint="'--variant'") from None
    if seats is not None and seats not in chosen.seat_counts:
        raise typer.BadParameter(f"{chosen.name} is played by {chosen.seat_counts_text()} seats, not {seats}",
                                 param_hint="'--seats'")
    most = seats or chosen.seat_counts[0]
    for option, seat in (("--declarer", declarer), *seat_options):
        if seat is not None and not 1 <= seat <= most:
            raise typer.BadParameter(f"{chosen.name} with {most} seats has no seat {seat}", param_hint=f"'{option}'")
    if pot is not None and not chosen.has_pot:
        raise typer.BadParameter(f"{chosen.name} has no pot (it is for {games_with('has_pot')})", param_hint="'--pot'")
    if announcements is not None and not chosen.has_announcements:
        raise typer.BadParameter(f"{chosen.name} has no announcements (they are for {games_with('has_announcements')})",
                                 param_hint="'--announce'")
    if announcements is not None:  # its form (seat, colon, words), as --hand's cards; what the deal allows is later's
        try:
            parse_announcements(announcements, most)
        except StichError as error:
            raise typer.BadParameter(str(error), param_hint="'--announce'") from None
    if contract is not None:
        try:
            refusal = contract_refusal(chosen, contract, declarer or 1)
        except StichError as error:
            raise typer.BadParameter(str(error), param_hint="'--contract'") from None
        if refusal is not None:
            raise typer.BadParameter(refusal, param_hint="'--declarer'")
    elif everyday and declarer is not None and (refusal := everyday_refusal(chosen, declarer)) is not None:
        raise typer.BadParameter(refusal + " (give --contract)", param_hint="'--declarer'")
    # card index: the option that named it and the token, so that a card twice is one rule for all
    named: dict[int, tuple[str, str]] = {}
    for option, text in cards:
        for token in text.split():
            try:
                card = chosen.pack.parse(token)
            except StichError as error:
                raise typer.BadParameter(str(error), param_hint=f"'{option}'") from None
            if card.index in named:
                first, written = named[card.index]
                also = "" if first == option else f" (and in {first})"
                raise typer.BadParameter(f"{card.name} appears twice{written_as(card.name, written, token)}{also}",
                                         param_hint=f"'{option}'")
            named[card.index] = option, token
        if option == "--hand" and len(text.split()) != chosen.hand_size:
            raise typer.BadParameter(f"a {chosen.name} hand holds {chosen.hand_size} cards, this one "
                                     f"{len(text.split())}", param_hint="'--hand'")


def engine_for(table_mb: int | None, threads: int | None = None) -> EngineSolver | None:
    """The engine a command's searches use: for ``--table-mb`` one with a table of that size, made here and passed
    down as ``engine=``; without it None, the library's shared engine (STICH_TABLE_MB's size, a user's default that
    docs/cli.md documents, or 64 MB).

    Every command that searches calls this first, so that a bad STICH_TABLE_MB or STICH_IMPLEMENTATION is said
    once, before any record, and not once per record; the commands that never search (``deal``, any ``--help``) do
    not read them. Under STICH_IMPLEMENTATION=python no engine is made (the reference solver has no table).
    ``--threads`` likewise: an engine searching each question on that many threads (without it, every core)."""
    with input_errors():
        reference = implementation() == "python"
        table_megabytes(table_mb)
    note_threads_over_cores(threads)
    if (table_mb is None and threads is None) or reference:
        return None
    with input_errors():
        return EngineSolver(table_mb, threads=threads)


#: A Dask scheduler's address: an optional network protocol Dask knows, a host and an optional port (``inproc://`` is
#: a scheduler inside the same process, which a command line cannot reach).
SCHEDULER_ADDRESS = re.compile(r"(?:(?P<protocol>tcp|tls|ucx|ws|wss)://)?"
                               r"(?P<host>[A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\])(?P<port>:[0-9]{1,5})?")


def scheduler_address(text: str) -> str:
    """``--scheduler``'s address checked (a usage error if malformed), with Dask's default port where a network
    address has none."""
    match = SCHEDULER_ADDRESS.fullmatch(text.strip())
    if match is None or (match["port"] and not 0 < int(match["port"][1:]) < 65536):
        raise typer.BadParameter(f"{text!r} is not a Dask scheduler address ([tcp://]HOST[:PORT])",
                                 param_hint="'--scheduler'")
    from solver.workers import scheduler_with_port  # the pool's module loads with a pool

    return scheduler_with_port(text.strip())


def cluster_address(scheduler: str | None, workers: int | None, worker_memory: int | None,
                    table_mb: int | None) -> str | None:
    """``--scheduler``'s address checked, or None for a local run; the options that size local workers are a usage
    error beside it (a Dask cluster's workers are started, and sized, by whoever runs the cluster)."""
    if scheduler is None:
        return None
    address = scheduler_address(scheduler)
    if workers is not None or worker_memory is not None or table_mb is not None:
        raise typer.BadParameter("the cluster's workers are its own: --workers, --worker-memory and --table-mb "
                                 "are for local runs", param_hint="'--scheduler'")
    return address


def given(context: typer.Context, name: str) -> bool:
    """Whether the user gave the option whose parameter is ``name`` (on the command line),
    not merely left its default: an option that means nothing without another is refused only when given, never
    for its default value (``--worker-wait``'s 120 seconds)."""
    source = context.get_parameter_source(name)  # Typer's own click's enum: compared by name
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


#: The options that are about a Dask cluster alone: (parameter, flag, what a local run lacks)
CLUSTER_ONLY = (("worker_wait", "--worker-wait", "there are no workers to wait for"),
                ("verbose", "--verbose", "there is no Dask log"))


def refuse_cluster_only(context: typer.Context, scheduler: str | None) -> None:
    """``--worker-wait`` and ``--verbose`` without ``--scheduler``: a usage error naming both flags, as
    ``--scheduler`` beside the options of a local run is: one rule for both directions."""
    if scheduler is not None:
        return
    for name, flag, lacks in CLUSTER_ONLY:
        if given(context, name):
            raise typer.BadParameter(f"only with --scheduler: without it the run is local, and {lacks}",
                                     param_hint=f"'{flag}'")


def pool_options(threads: int | None, scheduler: str | None, workers: int | None, worker_memory: int | None,
                 table_mb: int | None, context: typer.Context) -> tuple[str | None, int | None]:
    """The pool options of ``analyse`` and ``batch`` checked in one order, so that the same bad pair gives the same
    first error in both (they checked them in opposite orders): ``--threads`` refused, then ``--scheduler`` beside
    the options that size local workers, then the cluster's own options without ``--scheduler``, then ``-j`` cut
    to the cores. Returns the cluster's address (None: a local run) and the number of workers."""
    refuse_pool_threads(threads)
    address = cluster_address(scheduler, workers, worker_memory, table_mb)
    refuse_cluster_only(context, scheduler)
    return address, workers_within_cores(workers)


#: ``--seed``'s default in every command that draws at random (``deal``, ``analyse``, ``match``): the library's
#: (:data:`solver.generate.DEFAULT_SEED`), so that the same command without ``--seed`` gives the same answer everywhere
#: and as the library's functions without ``seed=`` (``bench`` alone defaults to each game's fixed benchmark seed, so
#: that its runs compare).
DEFAULT_SEED = LIBRARY_DEFAULT_SEED


def checked_seed(value: int | None) -> int | None:
    """``--seed``'s callback: a seed in the range every command and the board take (a usage error, exit 2,
    saying the range; checked here rather than by the option's range, which would crowd every help page)."""
    if value is not None and not -MAX_SEED <= value <= MAX_SEED:
        raise typer.BadParameter(f"{value} is not {SEED_RANGE}")
    return value


POT = typer.Option(None, "--pot", metavar="CHIPS", min=0, max=MAX_POT,
                   help="The pot at the start of the deal, for a game paid from one (overrides a [Pot] tag).")


class PotOption:
    """``--pot`` over a file's records: the pot of a record of a game paid from one, None for the others, whose
    scores do not change; that it is not used there is said once (a file may mix records of several games)."""

    def __init__(self, pot: int | None) -> None:
        self.pot = pot
        self.said = False

    def __call__(self, position: Position) -> int | None:
        if self.pot is None or position.game.has_pot:
            return self.pot
        if not self.said:
            self.said = True
            message(f"stich: --pot is for {games_with('has_pot')} records; {position.game.name} has no pot, so it is "
                    "not used there")
        return None

    def apply(self, position: Position) -> None:
        """The pot given to the record, or its own ``[Pot]`` checked (:func:`~solver.scoring.set_or_check_pot`)."""
        set_or_check_pot(position, self(position))
