"""``stich tree``: the strategy tree of a record's position to a few cards, written as GraphML, GEXF or JSON, or
printed: its summary for people, or with ``--json`` the JSON document on stdout."""

from __future__ import annotations

import os
import stat
import sys
from contextlib import ExitStack
from itertools import islice
from pathlib import Path
from typing import List, Optional, cast

import typer

from solver.errors import (CommandVariantError, InvalidSeatError, ParseError, SearchStopped, StichError, shown_name,
                           source_name)
from solver.formats.tbn import Record, iter_records, no_records_said
from solver.games import score_units
from solver.position import position_from_record
from solver.search.engine import MAX_PERFT_DEPTH
from solver.limits import DEFAULT_MAX_NODES, MAX_TREE_NODES

from .errors import (EXIT_BAD_INPUT, file_name, input_errors, interrupts_held, message, objective_refused,
                     refused_for_record, say_interrupted)
from .output import atomic_path, checked_output, names_stdout
from .options import (BOARD, POT, RECORD, TABLE_MB, THREADS, VARIANT, PotOption, all_objectives, engine_for,
                      names_completing, objectives_among, output_file, parse_variant_options, time_limit_option)
from .records import (BoardsSeen, GameRefusals, OptionRefused, broken_selected, check_selection, emit_json,
                      failed_document, located, no_such_record, record_place, selected, stdin_bytes, stopped_record,
                      unanswered_document, with_what_if)
from .render import plural, progress_on_stderr, stdout_console, wrapped_at_words
from .whatif import PLAY, ForeignPlayCard, what_if


#: ``tree``'s --time-limit: its one record's searches (the shared text's "the other records still are" does not apply)
TREE_TIME_LIMIT = time_limit_option("the tree's searches together", "no tree is written, said on stderr (exit 1; "
                                    "with --json, a line that says so)")


def one_objective(value: str | None) -> str | None:
    """``--objective``'s callback: a name some game has (:func:`checked_objectives`), and one, not ``all``: a tree
    has one value on each node, so ``all`` is a usage error (exit 2), as in ``postmortem``, whatever the record; a
    misspelt name is offered the names a tree takes."""
    if value is not None and value.strip().lower() == "all":
        raise typer.BadParameter("a tree has one value on each node: give one objective, not 'all'")
    return cast(Optional[str], objectives_among(value, tree_objectives()))


def tree_objectives() -> list[str]:
    """The objectives a tree takes: every game's, not ``all``."""
    return [name for name in all_objectives() if name != "all"]


def tree_objective_names(incomplete: str) -> list[str]:
    """``tree -o``'s Tab completion: the objectives a tree takes (``all``, which it refuses, is not offered)."""
    return names_completing(incomplete, tree_objectives())


def input_is_regular_file(file: Path) -> bool:
    """Whether ``tree --board`` reads the records after the one it takes, to say the board is on several: from a
    regular file (``-`` redirected from one too), never from a pipe or a terminal, whose writer it would wait on."""
    try:
        status = os.fstat(sys.stdin.fileno()) if str(file) == "-" else os.stat(file)
    except (OSError, ValueError, AttributeError):  # stdin closed, or no file (a test's)
        return False
    return stat.S_ISREG(status.st_mode)


def board_on_several_records_said(name: str, board: str, found: list[tuple[int, int]],
                                  at_least: bool = False) -> str:
    """What ``tree --board`` says where the board is on several records (``found``: each one's number, as
    ``--record`` counts them, and line; ``at_least`` where the records after them were not read): that the tree is
    of the first, and the ``--record`` that picks another. The other commands answer every record of the board; a
    tree is of one (the board's page opens the first too)."""
    shown = found[:MAX_RECORDS_NAMED + 1]
    lines = [str(line) for _, line in shown] + (["..."] if len(found) > len(shown) else [])
    numbers = [str(number) for number, _ in shown[1:]]
    picks = f"{', '.join(numbers[:-1])} or {numbers[-1]}" if len(numbers) > 1 else numbers[0]
    more = f" (or one of the {len(found) - len(shown):,} more)" if len(found) > len(shown) else ""
    return (f"{shown_name(name)}: board {board} is on {'at least ' if at_least else ''}{len(found):,} records (lines "
            f"{', '.join(lines)}): the tree is of the first; --record {picks}{more} picks another")


#: How many of the other records of a board ``tree --board`` names (:func:`board_on_several_records_said`).
MAX_RECORDS_NAMED = 5

#: How many records after the one it takes ``tree --board`` reads to find the board's others: a few tenths of a
#: second at most, however long the file.
MAX_RECORDS_READ_ON = 1_000


def tree(
    file: Path = typer.Argument(..., metavar="FILE", show_default=False, parser=file_name,
                                help="A .tbn file (- for standard input); its first record is used (see --board, "
                                     "--record)."),
    depth: int = typer.Option(..., "--depth", "-d", metavar="K", min=0, max=MAX_PERFT_DEPTH,
                              help="How many cards (plies) deep; a tree ends with the deal, so at most the cards "
                                   "left."),
    out: Optional[Path] = output_file("Write the tree to FILE, in the format its suffix names: .graphml, .gexf or "
                                      ".json (without --out: the tree's summary on stdout, or with --json the tree "
                                      "itself)."),
    board: Optional[str] = BOARD,
    record_number: Optional[int] = RECORD,
    objective: Optional[str] = typer.Option(None, "--objective", "-o", metavar="NAME", show_default=False,
                                            callback=one_objective, autocompletion=tree_objective_names,
                                            help=f"The value on nodes and edges: score ({score_units()}), points, ... "
                                                 "(default points; in Kratzen, which has none, the attacker's "
                                                 "tricks, or --seat's)."),
    seat: Optional[int] = typer.Option(None, "--seat", metavar="SEAT",
                                       help="The seat the answer is for, with a per-seat objective (a "
                                            "seat's own tricks)."),
    play: Optional[str] = PLAY,
    max_nodes: int = typer.Option(DEFAULT_MAX_NODES, "--max-nodes", metavar="N", min=0, max=MAX_TREE_NODES,
                                  help="Refuse a tree of more than N nodes, counted before it is built (about 10 "
                                       "KB of memory a node as GraphML or GEXF, 4 KB as JSON); 0: as many as the "
                                       "available memory holds."),
    variant: Optional[List[str]] = VARIANT,
    pot: Optional[int] = POT,
    table_mb: Optional[int] = TABLE_MB,
    threads: Optional[int] = THREADS,
    time_limit: Optional[float] = TREE_TIME_LIMIT,
    as_json: bool = typer.Option(False, "--json", help="The tree as one JSON document on stdout (docs/json.md, "
                                                       "tree: every node by id, every card an edge), not a file."),
) -> None:
    """Every play sequence of K (--depth) cards from the position after the record's Play section (and --play's
    cards), each node with the double-dummy value and every card an edge marked optimal when it keeps the value. The
    first record (or the one of --board or --record) is used; --time-limit bounds its searches together (past it
    no tree is written, exit 1). Without --out, the tree's summary (the root's value and cards) is printed, or with
    --json the whole tree as JSON, on stdout."""
    from solver.tree import (FORMATS, TreeTooLarge, format_refused, node_memory_text, nodes_memory_holds,
                             strategy_tree, tree_document, write_tree)  # the tree's work: its --help loads none of it

    flags = parse_variant_options(variant)
    check_selection(board, record_number)
    if names_stdout(out):
        out, as_json = None, True  # stdout's names: the tree as --json prints it (with --json too: both say stdout)
    if out is not None and as_json:
        raise typer.BadParameter("--out writes the tree to a file and --json prints it: give one",
                                 param_hint="'--json'")
    if out is not None:
        if out.suffix.lower() not in FORMATS:  # a usage error, said before what the path is (the input, a folder)
            raise typer.BadParameter(format_refused(out), param_hint="'--out'")
        with input_errors():
            # a file stdout is redirected to gets the tree in its name's format too, as deal's --out does its records
            checked_output(out, inputs=[file], redirect_is_stdout=False)
    suffix = ".json" if out is None else out.suffix  # what a node costs held: a summary's tree is held as JSON's
    nothing = "no tree printed" if out is None else "nothing written"  # with --json a line is printed in its place
    # what a node costs, in the words of the case: without --out nothing is written, the tree is held to be printed
    per_node = node_memory_text(suffix, to_print=out is None)
    engine = engine_for(table_mb, threads)

    def failed_line(item: Record | ParseError, said: str) -> None:
        """With --json, a record tried and not answered gets the ``failed`` line every command's --json gives one in
        its place (docs/json.md), with what stderr says of it: a script tells it from the tree by ``stopped``."""
        if as_json:
            with interrupts_held():
                emit_json(failed_document("tree", item, said))

    with input_errors():
        source = stdin_bytes() if str(file) == "-" else file
        name = source_name(file)
        # the first record that matches: the records after it need not be readable (with --board, at most
        # MAX_RECORDS_READ_ON of them are read, from a regular file only, to say the board's other records); with
        # --board, one before it too broken to read is said where it broke before its [Board] (it might have been
        # that board; one whose [Board] was read is that board's or passed over) and the search goes on,
        # as in every command that reads records (the exit code then says 1); with --record, the ones before it are
        # only counted
        record, unreadable, count = None, 0, 0
        seen = BoardsSeen()  # what --board could have named
        items = iter_records(source, name=name)
        for count, item in enumerate(items if record_number is None else islice(items, record_number), 1):
            if record_number is not None and count != record_number:
                continue
            if isinstance(item, ParseError):
                chosen = broken_selected(item, board)
                if chosen is False:
                    continue  # another board's
                failed_line(item, str(item))
                if board is None or chosen:
                    raise item
                message(f"stich: {item}")
                unreadable += 1
            else:
                seen.add(item)
                if selected(item, board):
                    record = item
                    break
        if record is None:  # a file of no record at all is said so, whatever was asked of it, as every command says
            raise StichError(no_such_record(name, board, record_number, count, unreadable, seen) if count else
                             no_records_said(name, items.comments_alone, items.lines_read))
        if board is not None and input_is_regular_file(file):
            after = list(islice(enumerate(items, count + 1), MAX_RECORDS_READ_ON))
            others = [(number, item.line) for number, item in after
                      if not isinstance(item, ParseError) and selected(item, board)]
            if others:
                said = board_on_several_records_said(name, board, [(count, record.line), *others],
                                                     at_least=len(after) == MAX_RECORDS_READ_ON)
                message(f"stich: {said}")
        try:
            position = position_from_record(record, variant=flags)
            position = what_if(position, play)  # the root: after --play's cards
        except (CommandVariantError, ForeignPlayCard) as error:  # the command's flag or card, not the record's
            refused = GameRefusals("--variant" if isinstance(error, CommandVariantError) else "--play")
            refused.add(error, record)  # said as every command says it
            failed_line(record, refused_for_record(refused.option, error.bare, record))
            refused.say()
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except OptionRefused as error:  # a --play card the record's position refuses
            failed_line(record, error.said(position))
            raise StichError(error.said(position)) from None
        except StichError as error:  # the record is wrong: a bad deal, contract or Play section
            failed_line(record, str(error))
            raise
        PotOption(pot).apply(position)  # read where the game reads its [Pot], as solve does
        holds = nodes_memory_holds(suffix)  # held whole until written: never more than memory holds
        try:
            with progress_on_stderr("tree") as report, objective_refused(objective is not None):
                graph = strategy_tree(position, depth, objective=objective, seat=seat, engine=engine,
                                      max_nodes=min(max_nodes or holds, holds), time_limit=time_limit,
                                      progress=lambda made, total: report(f"{made:,} of {total:,} nodes"))
        except TreeTooLarge as error:
            if not max_nodes or holds < max_nodes:  # memory's bound, not the one asked
                held = error.memory_text(suffix, to_print=out is None)
                too_large = f"{shown_name(name)}:{record.line}: {held}; {nothing}: ask for fewer cards (--depth)"
            else:
                too_large = (f"{shown_name(name)}:{record.line}: {error.tree_text()} has {error.size_text()}, "
                             f"over --max-nodes {error.max_nodes:,} ({per_node}); {nothing}: ask for fewer cards "
                             "(--depth), or a larger --max-nodes (0: as many as the available memory holds)")
            failed_line(record, too_large)
            raise StichError(too_large) from None
        except (InvalidSeatError, OptionRefused) as error:  # --seat's own, or an --objective the record's contract
            # has not: the option refused as analyse refuses it, for the record is not wrong
            option_refused = error if isinstance(error, OptionRefused) else OptionRefused("--seat", str(error))
            refusal = option_refused.said(position)
            failed_line(record, refusal)
            raise StichError(refusal) from None
        except StichError as error:  # the record's deal or contract, which the search refused: pointed at the record
            pointed = located(error, position)
            failed_line(record, str(pointed))
            raise pointed from None
        except SearchStopped:
            stopped = stopped_record(position, time_limit, nothing)
            message(f"stich: {stopped}")
            if as_json:  # the line of a record --time-limit stopped, as every command's --json gives it
                with interrupts_held():
                    emit_json(with_what_if(unanswered_document(position, "tree", stopped), position, play))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except KeyboardInterrupt:
            say_interrupted("tree", f"in the record at {record_place(position)}: {nothing}"
                                    f"{'' if out is None else f' to {shown_name(out)}'}")
            raise
        finished = graph.nodes["root"]["over"]  # a tree of one node: said so, not as a tree of K cards
        # a tree ends with the deal (its depth attribute the cards it goes): a --depth past it is said after --out's
        shallower = "" if finished or graph.graph["depth"] == depth else (
            f": the tree of the {plural(graph.graph['depth'], 'card')} left, to the deal's end (not {depth})")
        if out is None:
            with interrupts_held():  # printed whole or not at all
                if as_json:
                    emit_json(tree_document(graph))
                else:
                    sys.stdout.write(f"{wrapped_at_words(str(graph), stdout_console())}\n")
                    sys.stdout.flush()
            if unreadable:
                raise typer.Exit(EXIT_BAD_INPUT)
            return
        written = False  # renamed into place
        try:
            with ExitStack() as writing:  # an interrupt while it is written leaves no file, as one before
                write_tree(graph, writing.enter_context(atomic_path(out)))
                with interrupts_held():  # renamed into place and said so together, for what an interrupt says
                    writing.close()
                    written = True  # before the line: a second interrupt may cut a line to a full stderr
                    message(f"stich: wrote {shown_name(out)} ({plural(graph.number_of_nodes(), 'node')}, "
                            f"{plural(graph.number_of_edges(), 'edge')})"
                            f"{': the deal is finished, no cards left to play' if finished else shallower}")
        except KeyboardInterrupt:
            if written:
                say_interrupted("tree", f"after the tree of the record at {record_place(position)} was written whole "
                                        f"to {shown_name(out)}")
            else:
                say_interrupted("tree", f"in the record at {record_place(position)}, while its tree was written: "
                                        f"nothing written to {shown_name(out)}")
            raise
    if unreadable:
        raise typer.Exit(EXIT_BAD_INPUT)
