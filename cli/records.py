"""The record loop of the analysis commands: read every record of a file, turn each into a document, print it.

A bad record is reported and skipped; the others are still answered (the exit code then says 1). The loop knows
nothing of what a document holds: the command gives the function that builds it and the one that renders it
(:mod:`cli.render`), and ``--json`` prints it as one JSON line instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

import typer
from rich.console import Console

from solver.analysis import SCHEMA, record_header
from solver.errors import (shown_name, source_name, CommandVariantError, FileError, FileRefusedError,
                           InvalidDealError, JournalWriteError, ParseError, SearchStopped, StichError)
from solver.files import json_text
from solver.formats.tbn import Record, iter_records, no_records_said
from solver.games.outcome import pot_zero_said
from solver.position import Position, position_from_record
from solver.scoring import pot_given
from solver.search.boundary import seconds_text

from .errors import (EXIT_BAD_INPUT, OptionRefused, OutputCut, RecordMessages, input_errors, interrupts_held,
                     message, os_error_said, refused_for_record, say_interrupted)
from .options import PotOption
from .render import (Document, is_pot_zero_note, plural, print_diagram, record_title, stdout_console,
                     stdout_encodes)
from .whatif import ForeignPlayCard, played_names, what_if


def located(error: StichError, position: Position) -> StichError:
    """An error raised while analysing a position, pointed at its record: the ``[Deal]`` tag for a deal that does
    not suit the analysis, else the ``[Contract]`` tag (an objective that does not apply to the contract)."""
    record = position.record
    if isinstance(error, (ParseError, FileError)) or record is None:  # FileError: a checkpoint's, not the record's
        return error
    tag = record.tag("Deal") if isinstance(error, InvalidDealError) else record.tag("Contract")
    line, column = (tag.value_line, tag.value_column) if tag is not None else (record.line, 1)
    return ParseError(str(error), source=record.source, line=line, column=column)


def records_of_a_game(game: str, count: int, first: str) -> str:
    """The records a once-a-game line speaks for: ``N records of GAME from FILE:LINE`` (``first``: the first one's
    place), or ``the GAME record at FILE:LINE``."""
    return f"{count} records of {game} from {first}" if count > 1 else f"the {game} record at {first}"


class GameRefusals:
    """A command option's value that records' games refused, the same for every record of a game: ``--variant``
    flags (CommandVariantError), ``--play`` cards of another game's pack (ForeignPlayCard). Said once a game, after
    the records, as ``--variant: <why> (N records of GAME from FILE:LINE <outcome>)``, not once a record."""

    def __init__(self, option: str = "--variant") -> None:
        self.option = option
        # game -> the first refusal, its record (None where the caller has only the refusal), the count
        self.refused: dict[str, tuple[CommandVariantError | ForeignPlayCard, Record | None, int]] = {}

    def add(self, error: CommandVariantError | ForeignPlayCard, record: Record | None = None) -> None:
        first, first_record, count = self.refused.get(error.game, (error, record, 0))
        self.refused[error.game] = (first, first_record, count + 1)

    def say(self, outcome: str = "not answered") -> None:
        """One line on stderr a game; ``outcome``: what became of its records. A record refused alone is said as its
        ``failed`` JSON line says it (:func:`refused_for_record`: its board too)."""
        for game, (first, record, count) in self.refused.items():
            if count == 1 and record is not None:
                message(f"stich: {refused_for_record(self.option, first.bare, record, outcome=outcome)}")
                continue
            which = records_of_a_game(game, count, f"{shown_name(first.source)}:{first.line}")
            message(f"stich: {self.option}: {first.bare} ({which} {outcome})")


class OptionRefusals:
    """An option's value that records refused in the same words (``--objective`` of another game: every record of
    the game, whatever its contract): said after the records, once for those of a game refusing it alike as
    ``--objective: <why> (N records of GAME from FILE:LINE not answered)``, and one by one where they differ."""

    def __init__(self) -> None:
        # (option, game, words) -> the first refusal as its record says it, its position, the count
        self.refused: dict[tuple[str, str, str], tuple[str, Position, int]] = {}

    def add(self, error: OptionRefused, position: Position) -> None:
        key = (error.option, position.game.name, error.once or error.said(position))
        said, first, count = self.refused.get(key, (error.said(position), position, 0))
        self.refused[key] = (said, first, count + 1)

    def say(self) -> None:
        """One line on stderr a game and refusal: a record refused alone as it is said for itself (its board too)."""
        for (option, game, words), (said, first, count) in self.refused.items():
            record = first.record
            where = f"{shown_name(record.source)}:{record.line}" if record is not None else first.label
            message(f"stich: {said}" if count == 1 else
                    f"stich: {option}: {words} ({records_of_a_game(game, count, where)} not answered)")
        self.refused.clear()


class GameNotes:
    """A note on records that the same rules make the same for every record of a game (``score --dd`` and
    ``table`` under a variant with no double-dummy settlement, ``postmortem`` graded by card points, a pot of 0):
    said once a game and note, after the records as
    :class:`GameRefusals` are, as ``stich: <note> (N records of GAME from FILE:LINE <outcome>)``, not once a record
    (a 1,000-record file said the same line 1,000 times)."""

    def __init__(self, outcome: str = "", *, pot_zero: bool = True) -> None:
        self.outcome = outcome  # "" where the note says it: "graded by card points: ..."
        self.pot_zero = pot_zero  # whether :meth:`add_pot_zero` counts: the text's, not --json's (its notes say it)
        # (game, note) -> first position, count, what became of the records
        self.notes: dict[tuple[str, str], tuple[Position, int, str]] = {}

    def add(self, position: Position, note: str, outcome: str | None = None) -> None:
        """Counts the record under ``note``; ``outcome`` (the instance's by default) says what became of it."""
        key = (position.game.name, note)
        first, count, said = self.notes.get(key, (position, 0, self.outcome if outcome is None else outcome))
        self.notes[key] = (first, count + 1, said)

    def add_pot_zero(self, position: Position, what: str) -> None:
        """Counts a record settled at pot 0 (its document notes it: :func:`has_pot_zero_note`), said once as
        ``pot 0: every WHAT settles at 0 chips`` (:func:`pot_zero_line`): the text under each record leaves it out."""
        if self.pot_zero:
            self.add(position, pot_zero_line(position, what), "")

    def add_if_pot_zero(self, position: Position, notes: Iterable[str], what: str) -> None:
        """Counts the record as :meth:`add_pot_zero` does where its document's ``notes`` hold the pot-0 note."""
        if has_pot_zero_note(notes):
            self.add_pot_zero(position, what)

    def say(self) -> None:
        """One line on stderr a game and note."""
        for (game, note), (first, count, outcome) in self.notes.items():
            record = first.record
            where = f"{shown_name(record.source)}:{record.line}" if record is not None else first.label
            message(f"stich: {note} ({records_of_a_game(game, count, where)}{' ' if outcome else ''}{outcome})")
        self.notes.clear()


def has_pot_zero_note(notes: Iterable[str]) -> bool:
    """Whether a document's ``notes`` hold one on a pot of 0 (:func:`is_pot_zero_note`): the text leaves it out
    under the record, so the command counts the record for its line on stderr (:meth:`GameNotes.add_pot_zero`)."""
    return any(is_pot_zero_note(note) for note in notes)


def pot_zero_line(position: Position, what: str) -> str:
    """What is said of a record of a game paid from a pot that gives none: every ``what`` (a line, a contract, a
    card) settles at 0, which a reader would otherwise take for the result of the search; and how to give a pot,
    where the record has none (a ``[Pot "0"]`` tag or ``--pot 0``, which sets it, gave 0 on purpose)."""
    return pot_zero_said(what, position.game.score_unit, pot_given(position))


def record_place(position: Position) -> str:
    """Where a position's record starts, and its board where it has one: ``deals.tbn:19: board 4``. The text as it
    is: :func:`cli.errors.message` shows its control characters as escapes on stderr, and a JSON document's ``error``
    keeps the board as its ``record`` does."""
    record = position.record
    where = f"{record.source}:{record.line}" if record is not None else position.label
    board = record.get("Board") if record is not None else None
    return f"{where}: board {board}" if board else where


def stopped_record(position: Position, time_limit: float | None, missing: str = "not answered") -> str:
    """What is said of a record whose searches stopped: where it starts (its board too, where it has one), what is
    ``missing``, and why."""
    why = (f"the time limit ({seconds_text(time_limit)}) ran out before the answer (give it more time: --time-limit)"
           if time_limit is not None else "its search was stopped before the answer")
    return f"{record_place(position)}: {missing}: {why}"


def with_what_if(result: Document, position: Position, play: str | None, from_start: bool = False) -> Document:
    """A record's document with ``--from-start`` (``from_start``: true) and ``--play``'s cards (``play``, by their
    names) in its ``record``, where it has one: the document describes the position they reach, not the one its
    record's file and line hold, and a script keyed on the record could not tell them apart."""
    record = result.get("record")
    if from_start and isinstance(record, dict):
        record["from_start"] = True
    if play and isinstance(record, dict):
        record["play"] = played_names(position, play)
    return result


def unanswered_document(position: Position, command: str, said: str) -> Document:
    """The JSON line of a record that ``--time-limit`` stopped before its answer (``unanswered`` in the schema): its
    record and rules, as its answer's would start, ``stopped`` and what stderr says of it. Without it a script
    reading the lines of a file's records could not tell which of them ran out: the text output prints nothing."""
    return {"schema": SCHEMA, "command": command, **record_header(position), "stopped": "time limit", "error": said}


def failed_document(command: str, item: Record | ParseError, said: str) -> Document:
    """The JSON line of a record that could not be answered (``failed`` in the schema): where it starts, as far as
    it could be read, ``stopped`` ``"error"`` (as ``advice`` and ``match`` say a failure) and what stderr says of it.
    Without it a script reading the lines could not tell which record failed: the others' lines come all the same.
    A record too broken to be read (a ParseError) gives the line of its first tag and its board where the reader
    read them before the fault (as batch names it), and no event."""
    if isinstance(item, ParseError):
        record: dict[str, Any] = {"source": item.source, "line": item.record_line, "board": item.record_board,
                                  "event": None}
    else:
        record = {"source": item.source, "line": item.line or None, "board": item.get("Board"),
                  "event": item.get("Event")}
    return {"schema": SCHEMA, "command": command, "record": record, "stopped": "error",
            "error": said}


class InterruptedInPart(KeyboardInterrupt):
    """Ctrl-C or SIGTERM in a record whose answer so far was printed, said as such (``stich analyse FILE``'s
    samples solved so far), where any other record stopped is not answered at all."""


def interrupted_records(answered: int, working: Position | None, in_part: bool, cut: bool = False) -> str:
    """What the record loop says it finished when stopped by the interrupt (:func:`~cli.errors.say_interrupted`):
    the record it was working on, and that the ones printed before it are whole."""
    done = ("the record answered above is complete" if answered == 1 else
            f"the {plural(answered, 'record')} answered above are complete" if answered else
            "no record was answered before it")
    if working is None:
        return f"between two records; {done}" if answered else "before any record was answered"
    state = "its answer so far is printed, said as such" if in_part else "not answered"
    if cut:
        state = "a second interrupt cut its output short"
    return f"in the record at {record_place(working)} ({state}); {done}"


class PartlyAnswered(Exception):
    """A record answered in part (``stich score --dd`` past its time limit gives the score, not the settlement):
    ``document`` is printed, ``missing`` said on stderr as a stopped record is, and the command exits with 1."""

    def __init__(self, document: Document, missing: str) -> None:
        super().__init__(missing)
        self.document = document
        self.missing = missing


def emit_json(document: Document) -> None:
    """One compact JSON document on one line of stdout (JSON Lines)."""
    sys.stdout.write(compact_json(document) + "\n")
    sys.stdout.flush()


def compact_json(document: Any) -> str:
    """``document`` as :func:`emit_json` writes it, for a document written in parts (``stich match --json``)."""
    # where stdout's encoding lacks characters (not UTF-8 or the like), JSON escapes them and so stays exact
    unicode = stdout_encodes("\u2665\xe4\U0001F0A1")
    # and a file name that is not UTF-8 is escaped too (json_text): stdout's surrogateescape would write its raw bytes
    compact = (",", ":")
    return json_text(document, separators=compact) if unicode else json.dumps(document, separators=compact)


def selected(record: Record, board: str | None) -> bool:
    """Whether a record is one ``--board`` asks for (any record without the option)."""
    return board is None or record.board == board


def broken_selected(error: ParseError, board: str | None) -> bool | None:
    """Whether ``--board`` asks for a record too broken to read: by its ``[Board]`` where the reader read it before
    the fault, as it would a whole record's; None where the record broke before its ``[Board]``, which may be the
    one asked for (said, and counted among those that could not be read)."""
    if board is None:
        return True
    if error.record_board is None:
        return None
    return error.record_board.strip() == board


def check_selection(board: str | None, record: int | None) -> None:
    """``--board`` and ``--record`` both choose records: one of them at a time."""
    if board is not None and record is not None:
        raise typer.BadParameter("give --board or --record, not both", param_hint="'--record'")


class BoardsSeen:
    """The ``[Board]`` tags of the records read, for a ``--board`` that names none of them: what it could name
    (the first few, in the file's order), or that the records have none and ``--record N`` is the way to choose."""

    SHOWN = 10

    def __init__(self, whose: str = "its") -> None:
        self.boards: dict[str, None] = {}  # up to one past SHOWN, to know that there are more
        self.tagless = False
        self.whose = whose  # the files' ("their": ``board`` reads several)

    def add(self, record: Record) -> None:
        """One record read."""
        if not record.board:
            self.tagless = True
        elif len(self.boards) <= self.SHOWN:
            self.boards.setdefault(record.board, None)

    def expected(self) -> str:
        """``expected ...`` for the message, or nothing where no record was read."""
        if not self.boards:
            return f"expected a record's [Board] tag: {self.whose} records have none; --record N chooses one" \
                if self.tagless else ""
        boards = list(self.boards)
        more = ", ..." if len(boards) > self.SHOWN else ""
        return f"expected one of {self.whose} boards: {', '.join(boards[:self.SHOWN])}{more}"


def no_such_record(name: object, board: str | None, record: int | None, read: int, unreadable: int = 0,
                   seen: BoardsSeen | None = None) -> str:
    """What a file lacks that ``--board`` or ``--record`` (one of them given) asked for. ``unreadable`` counts the
    records too broken to read (said above): ``--board``'s may be one of them, so it is not said to be missing from
    the file, only from the records read; ``seen``, the boards the records read have, is what ``--board`` expects."""
    if record is not None:
        return f"{name}: no record {record}: it has {read} record{'' if read == 1 else 's'}"
    expected = seen.expected() if seen is not None else ""
    if unreadable:  # one bracket: why it may be there, and what the records read have
        return (f"{name}: no record with [Board \"{board}\"] among those read ({plural(unreadable, 'record')} could "
                f"not be read, said above: it may be one of them{f'; {expected}' if expected else ''})")
    return f"{name}: no record with [Board \"{board}\"]{f' ({expected})' if expected else ''}"


def stdin_bytes(what: str = "the records"):
    """Standard input as bytes, so that it is decoded like a file: strictly, with the place of a bad byte (the text
    stream decodes with the locale's error handler, which under a C locale lets invalid bytes through). Where it is
    a terminal, a line on stderr says that ``what`` is read from it and how to end it: without it the command
    waited for input without a word, which looks like a hang (``stich solve -`` typed to try it)."""
    try:
        typed = sys.stdin.isatty()
    except (OSError, ValueError):  # closed: reading it says so
        typed = False
    if typed:
        end = "Ctrl-Z and Enter" if sys.platform == "win32" else "Ctrl-D on a line of its own"
        print(f"stich: reading {what} from the terminal (standard input): end the input with {end}",
              file=sys.stderr, flush=True)
    return getattr(sys.stdin, "buffer", sys.stdin)


def run_over_records(path: Path, *, variant: dict[str, str], board: str | None, as_json: bool,
                     document: Callable[[Position], Document],
                     render: Callable[[Document, Console], None] | None, play: str | None = None,
                     diagram: str | None = None, time_limit: float | None = None, record: int | None = None,
                     pot: int | None = None, command: str, notes: GameNotes | None = None,
                     all_messages: bool = False, kind: str | None = None,
                     as_read: Callable[[Record], None] | None = None, from_start: bool = False) -> None:
    """Analyse every record of ``path`` (``-``: standard input; or only the records whose ``[Board]`` is ``board``,
    or only its ``record``-th) and print each document.

    A bad record is reported on stderr as ``file:line:col: message`` and skipped; the others are still analysed,
    and the command then exits with code 1. With ``board``, records of other boards are not even read into
    positions, so their errors do not matter; a record too broken to be read at all is still reported, since it
    may be the board asked for. ``play`` is ``--play``'s cards, played on each position first; ``diagram``
    (``"position"``, or ``"dealt"`` for the hands as dealt) puts the hand diagram above each text analysis.
    ``time_limit`` is the command's ``--time-limit``, which ``document`` applies to each record's searches: a record
    whose searches stop at it (SearchStopped) is said on stderr and not answered, as a bad record is (with --json a
    line says so: :func:`unanswered_document`), and the others still are (exit code 1); one answered in part
    (PartlyAnswered) is printed as far as it goes. ``pot`` is ``--pot``: it stands for the ``[Pot]`` tag of each
    record of a game paid from one (said once for the others). ``notes``: what ``document`` noted once a game
    (:class:`GameNotes`), said after the records with the refusals of ``--variant`` and ``--play``.
    ``render`` None writes each document's ``text`` as it is (``show``: a record's own text, tabs and all, which a
    console would change), a blank line between records.

    The messages of the records not answered in full are said for the first 20 (MAX_RECORD_MESSAGES), then only
    counted, but for the first of each new kind of message: one line after them says how many more there were and
    how many records were answered in full (:class:`~cli.errors.RecordMessages`), so that a file with one systematic
    error does not write a line a record; ``--json``'s lines are written for every record still. ``all_messages``
    (``--all-messages``) says every one. With --json a record that could not be read or answered gets a line that
    says so in its place (:func:`failed_document`), so that a script reading the lines can tell which one failed.
    ``kind`` is the ``command`` of those lines where the documents are not named after the command (``analyse
    --cards``: ``card-advice``), so that a script that tells the lines apart by ``command`` reads them with the rest.
    ``as_read`` is called with each record to be answered as read, before ``play``'s cards copy it: comments after
    the file's last record reach that record when the file ends (``show --tbn`` writes them then); with ``record``
    they are read for it where the file is a regular one (``iter_records``' ``first``: a pipe is read no further).
    ``from_start`` (``--from-start``) answers each record from its deal's start (``Position.at_start``), its Play
    section read and checked all the same; ``play``'s cards are then played from there.

    Ctrl-C or SIGTERM stops the loop (exit 130) with one line on stderr that says which record it stopped in and
    that the ones printed above are whole: each record's text is made before any of it is written, so a record is
    printed whole or not at all. ``command`` names the command in that line."""
    check_selection(board, record)
    pot_of = PotOption(pot)
    failed = False
    matched = read = shown = partly_shown = 0  # partly_shown: printed, but said among the records not answered in full
    working: Position | None = None  # the record being answered, for what an interrupt says
    refused, play_refused = GameRefusals("--variant"), GameRefusals("--play")
    option_refused = OptionRefusals()  # --objective: alike for every record of a game it belongs to none of
    file_refused = ""  # a file beside the records (the checkpoint) refused as a whole, the same for every one: why
    unanswered = 0  # the records after it, not tried
    unreadable = 0  # records too broken to read: --board's may be one of them
    seen = BoardsSeen()  # what --board could have named
    said = RecordMessages(source_name(path), every=all_messages)  # the first 20, then a count
    console = None if as_json else stdout_console()
    named = kind or command  # the lines' ``command``

    def fail(item: Record | ParseError, said_text: str) -> None:
        """A record not answered: with --json its line in the record's place (the text output prints nothing)."""
        if console is None:
            with interrupts_held():
                emit_json(failed_document(named, item, said_text))

    def not_answered(item: Record | ParseError, text: str) -> None:
        """A record not answered for ``text``: said on stderr (within the cap), its --json line, the exit code 1."""
        nonlocal failed
        said(f"stich: {text}")
        fail(item, text)
        failed = True

    def say_once_a_game() -> None:  # after the records, or before an interrupt's line
        refused.say()
        play_refused.say()
        option_refused.say()
        if notes is not None:
            notes.say()

    try:
        with input_errors():  # a file that cannot be read at all
            source = stdin_bytes() if str(path) == "-" else path
            items = iter_records(source, name=source_name(path), first=record)
            # iter_records(first=) yields no item past the record asked; asked past it, it reads on over the comments
            # that end a regular file, for that record (docs/format.md), and not at all from a pipe
            for item in items:
                working = None
                read += 1
                if record is not None and read != record:
                    continue  # not even a record too broken to read: it is not the one asked for
                if isinstance(item, ParseError):
                    chosen = broken_selected(item, board)
                    if chosen is False:
                        continue  # another board's, as a whole record of another board is passed over
                    not_answered(item, str(item))
                    if chosen is None:
                        unreadable += 1
                    else:
                        matched += 1
                    continue
                seen.add(item)
                if not selected(item, board):
                    continue
                matched += 1
                if file_refused:
                    unanswered += 1
                    fail(item, file_refused)  # not tried, but a line still: a script sees every record
                    continue
                if as_read is not None:
                    as_read(item)
                try:
                    position = position_from_record(item, variant=variant)
                    if from_start:
                        position = position.at_start()
                    position = what_if(position, play)  # the record's position kept, to say a card it refuses
                    pot_of.apply(position)  # read where the game reads its [Pot]
                except CommandVariantError as error:  # the command's flags, the same for every record of the game
                    refused.add(error, item)
                    fail(item, refused_for_record("--variant", error.bare, item))  # the option's, not the [Game]'s
                    failed = True
                    continue
                except ForeignPlayCard as error:  # --play's card of another game: likewise
                    play_refused.add(error, item)
                    fail(item, refused_for_record("--play", error.bare, item))
                    failed = True
                    continue
                except OptionRefused as error:  # --play's card that this record's position refuses
                    not_answered(item, error.said(position))
                    continue
                except StichError as error:
                    not_answered(item, str(error))
                    continue
                working = position
                partial = False
                try:
                    result = with_what_if(document(position), position, play, from_start)
                except OptionRefused as error:
                    if error.once is None:
                        not_answered(item, error.said(position))
                    else:  # said after the records, once for those refused alike
                        option_refused.add(error, position)
                        fail(item, error.said(position))
                        failed = True
                    continue
                except (FileRefusedError, JournalWriteError) as error:
                    # a checkpoint in use or not one, or its write failing (a full disk, the file size limit): the
                    # same for every record after it, so said once, naming the record it stopped at
                    file_refused = str(error) if isinstance(error, FileRefusedError) else os_error_said(error)
                    answered = shown - partly_shown  # a partly answered one is not among these
                    after = f"; refused at the record at {shown_name(item.source)}:{item.line}, after " \
                        f"{plural(answered, 'record')} answered above" if answered else ""
                    not_answered(item, f"{file_refused}{after}")
                    continue
                except StichError as error:
                    not_answered(item, str(located(error, position)))
                    continue
                except SearchStopped:
                    stopped = stopped_record(position, time_limit)
                    said(f"stich: {stopped}")
                    failed = True
                    if console is None and time_limit is not None:  # a line for it, that a script can tell
                        with interrupts_held():
                            emit_json(with_what_if(unanswered_document(position, named, stopped), position, play,
                                                   from_start))
                    continue
                except PartlyAnswered as partly:
                    said(f"stich: {stopped_record(position, time_limit, partly.missing)}")
                    failed = True
                    result = with_what_if(partly.document, position, play, from_start)
                    partial = True
                text = ""
                if console is not None and render is None:
                    text = ("\n" if shown else "") + result["text"]
                elif console is not None and render is not None:
                    with console.capture() as captured:  # written in one piece: an interrupt cuts no record short
                        if shown:
                            console.print()  # a blank line between records, none before the first shown
                        if diagram:  # the record's title once, above the diagram and the analysis (whose render
                            # has none)
                            console.print(record_title(result))
                            print_diagram(position, console, dealt=diagram == "dealt", heading=False)
                        render(result, console)
                    text = captured.get()
                with interrupts_held():  # printed and counted together, for what an interrupt says
                    if console is None:
                        emit_json(result)
                    else:
                        console.file.write(text)
                        console.file.flush()
                    shown += 1
                    partly_shown += partial
                    working = None
    except KeyboardInterrupt as stop:
        said.close("the records printed above were answered")  # before the interrupt's line, which is the last
        say_once_a_game()
        say_interrupted(command, interrupted_records(shown, working, isinstance(stop, InterruptedInPart),
                                                     isinstance(stop, OutputCut)))
        raise
    answered = shown - partly_shown  # a partly answered record is among those said or counted, not these
    said.close("no other record was answered" if not answered else "the other record was answered" if answered == 1
               else f"the other {answered:,} records were answered")
    say_once_a_game()
    file_shown = shown_name(said.source)
    if unanswered:
        message(f"stich: {file_shown}: {plural(unanswered, 'more record')} not answered: the file refused above "
                "would be refused for each")
    if read == 0:
        message(f"stich: {no_records_said(file_shown, items.comments_alone, items.lines_read)}")
        failed = True
    elif (board is not None and matched == 0) or (record is not None and read < record):
        message(f"stich: {no_such_record(file_shown, board, record, read, unreadable, seen)}")
        failed = True
    if failed:
        raise typer.Exit(EXIT_BAD_INPUT)
