"""Rendering: documents shown to people as rich text and tables, and the consoles they are printed on.

Every analysis command (``solve``, ``check``, ``table``) turns each record of a file into one JSON-ready document
(built by :mod:`solver.analysis`) and then either prints it as one line of JSON or renders it here as rich tables.
Rendering works on the documents only, so what people read and what machines read can never disagree; the loop over
the records is :mod:`cli.records`, the shared options :mod:`cli.options`.

Cards are shown as players write them: a French-suited pack with suit signs (``♠K``, ``♥Q``), a German pack with
its letters (``EO``, ``HA``); hearts (and diamonds) in red. JSON documents carry the plain card tokens, never markup.
The hand diagram (:mod:`solver.diagram`) is printed here too, above each record's analysis.
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Sequence
from weakref import WeakKeyDictionary

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.containers import Lines
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from solver.cards import Pack
from solver.deal import small_number
from solver.errors import shown_name, visible
from solver.diagram import SIGNS, WIDTH as DIAGRAM_WIDTH, SuitStyle, diagram
from solver.analysis import (CONTRACT_TABLE_TITLE, SEAT_LEGEND, check_answer_parts, settlement_legend,
                             table_cells, table_columns)
from solver.games import get_game
from solver.games.base import Game
from solver.games.outcome import (FIGURE_SPACE, POT_ZERO_NOTES, dealt_bonus_answer, dealt_bonus_cells, net_amount,
                                  role_text, side_text, signed, without_title)
from solver.position import Position
from solver.variant import rules_note

from .errors import EXIT_PIPE_CLOSED, ascii_fallback, interrupts_held
from .whatif import what_if_note

Document = dict[str, Any]

#: Width used when the output is not a terminal (a file or a pipe), so tables are not squeezed to 80 columns.
PIPE_WIDTH = 110


# --- consoles ---------------------------------------------------------------------------------------------------


class _DataConsole(Console):
    """Rich's console, but a reader that closes stdout (``stich solve ... | head``) ends the command as SIGPIPE
    would (exit 141, see errors.py) rather than with rich's exit 1, which stich keeps for bad input."""

    #: Whether a table too wide for the console is narrowed to fit it (a terminal's, or a pipe's COLUMNS), rather
    #: than printed at its natural width (a pipe at PIPE_WIDTH: a file keeps its tables' layout).
    narrows = True

    def print(self, *objects: Any, **options: Any) -> None:
        """Tables never lose a value to an ellipsis: their cells wrap, a figure with its interval as one word
        (:meth:`render_str`). A table too wide for the console even so drops its boxes (rich's own lighter
        layout, :func:`_compact`), then folds its longest words (never a header's, nor a figure or a number alone);
        one that would not fit even then (rich would squeeze columns to nothing) is printed at its least width, the
        terminal wrapping its lines, rather than cut. Text piped on is never wrapped: a sentence stays one line."""
        self._print(objects, options, {})

    def print_measured(self, table: Table, whole: Measurement, **options: Any) -> None:
        """:meth:`print` of ``table`` whose measure at an unbounded width the caller took already (``whole``, as
        :func:`print_fitting` takes it to choose the table): measuring is most of a table's cost before rendering."""
        self._print((table,), options, {id(table): whole})

    def _print(self, objects: tuple[Any, ...], options: dict[str, Any], known: dict[int, Measurement]) -> None:
        """:meth:`print`, with the measures at an unbounded width ``known`` already, by the table's id."""
        tables = [item for item in objects if isinstance(item, Table)]
        for table in tables:
            for column in table.columns:
                column.overflow = "fold"
        if tables:
            unbounded = self.options.update_width(1 << 16)
            measured = []  # each table's measure, taken once: measuring is most of a table's cost before rendering
            for table in tables:
                whole = known[id(table)] if id(table) in known else Measurement.get(self, unbounded, table)
                if self.narrows and _least_width(self, unbounded, table, whole) > self.width and not _own_layout(table):
                    _compact(self, unbounded, table, self.width)
                    whole = Measurement.get(self, unbounded, table)  # its boxes dropped
                measured.append(whole)
            least = max(_least_width(self, unbounded, table, whole) for table, whole in zip(tables, measured))
            if least > self.width and not (self.narrows and all(_fit_columns(self, unbounded, table, self.width,
                                                                              fold=True, measured=whole)
                                                                 for table, whole in zip(tables, measured))):
                width = self.width  # print's width= is capped: widen the console
                # a pipe's table stays whole at its natural width; a terminal's is as narrow as it can be
                self.width = least if self.narrows else max(whole.maximum for whole in measured)
                for table, whole in zip(tables, measured):  # rich's own narrowing takes no column's least width
                    _fit_columns(self, unbounded, table, self.width, measured=whole)
                try:
                    super().print(*objects, **options)
                finally:
                    self.width = width
                return
            for table, whole in zip(tables, measured):
                _fit_columns(self, unbounded, table, self.width, measured=whole)
        elif not on_a_terminal(self) and "soft_wrap" not in options:
            options["soft_wrap"] = True  # a line of text piped on stays one line, for grep and for the reader
        super().print(*objects, **options)

    def render_str(self, text: str, **options: Any) -> Text:
        """Rich's text of ``text`` (a table's cell, a line), its figures kept whole (:class:`WholeFigures`): each
        table cell given as a string is read through here."""
        return WholeFigures.of(super().render_str(text, **options))

    def on_broken_pipe(self) -> None:
        try:
            super().on_broken_pipe()  # goes quiet and points stdout at /dev/null, then exits 1
        except SystemExit:
            raise SystemExit(EXIT_PIPE_CLOSED) from None


#: What stands for a figure's no-break space (:data:`solver.games.outcome.FIGURE_SPACE`) while rich wraps a cell: a
#: character of one column that is no space (rich breaks lines at every space, a no-break one too) and that no cell
#: holds (Unicode's private use).
_JOINER = "\ue000"


class WholeFigures(Text):
    """A text whose figures with their intervals (the pieces their writers join with
    :data:`~solver.games.outcome.FIGURE_SPACE`) wrap as one word, printed with plain spaces: a figure split from its
    interval, or a gap from its ``~``, reads as two values. Its least width is its widest figure (or word), so no
    column is narrowed below it."""

    @classmethod
    def of(cls, text: Text) -> Text:
        """``text`` as a :class:`WholeFigures` where it holds a figure, else as it is."""
        if isinstance(text, WholeFigures) or FIGURE_SPACE not in text.plain:
            return text
        whole = cls(text.plain, style=text.style, justify=text.justify, overflow=text.overflow, no_wrap=text.no_wrap,
                    end=text.end, tab_size=text.tab_size)
        whole.spans[:] = text.spans
        return whole

    def _joined(self) -> Text:
        """A plain copy (its wrap is rich's own) with each figure's spaces joined."""
        joined = Text.copy(self)
        joined.plain = self.plain.replace(FIGURE_SPACE, _JOINER)
        return joined

    def wrap(self, console: Console, width: int, **options: Any) -> Lines:
        lines = self._joined().wrap(console, width, **options)
        for line in lines:
            line.plain = line.plain.replace(_JOINER, " ")
        return lines

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return self._joined().__rich_measure__(console, options)


def table_cell(console: Console, text: str) -> Text:
    """``text`` as a table's cell read on ``console`` (as rich reads a cell given as a string), its figures kept
    whole and printed with plain spaces on any console, a notebook's or a test's too (:class:`WholeFigures`)."""
    return WholeFigures.of(console.render_str(text))


#: A number standing alone as a word (``-14``, ``+2``, ``0.5``, ``37%``): folded, ``-1`` over ``4`` would read as two.
_NUMBER = re.compile(r"[+-]?\d[\d,.]*%?")


def widest_figure(console: Console, cell: Any) -> int:
    """The columns the widest figure of a table's ``cell`` takes (0 where it has none): the least its column may be,
    its other words folded. A figure is one with its interval (joined by a no-break space) or a number alone."""
    text = console.render_str(cell) if isinstance(cell, str) else cell
    if not isinstance(text, Text):
        return 0
    words = text.plain.replace(FIGURE_SPACE, _JOINER).split()  # str.split() splits at a no-break space too
    return max((cell_len(word) for word in words if _JOINER in word or _NUMBER.fullmatch(word)), default=0)


def _least_width(console: Console, options: Any, table: Table, measured: Measurement | None = None) -> int:
    """The narrowest width ``table`` fits in whole. Rich's own measure takes each cell's longest word as its least
    width, but a ``no_wrap`` column keeps its cells whole: its widest cell is its least width, or a table too wide
    for its no_wrap columns would leave its other columns narrower than their padding, and empty. ``measured``:
    the table's measure under ``options``, where the caller has it already."""
    least = (Measurement.get(console, options, table) if measured is None else measured).minimum
    for column in table.columns:
        if column.no_wrap:
            cells = [Measurement.get(console, options, cell) for cell in (column.header, *column.cells)]
            least += max(cell.maximum for cell in cells) - max(cell.minimum for cell in cells)
    return least


def least_width(console: Console, table: Table) -> int:
    """The narrowest width ``table`` fits in whole, its cells wrapped (a long word is never folded)."""
    return _least_width(console, console.options.update_width(1 << 16), table)


def fits(console: Console, table: Table) -> bool:
    """Whether ``table`` fits ``console``'s width with its cells wrapped: a command with a narrower layout of its
    own (the post-mortem's, :func:`print_fitting`) takes it where this one would be printed at its natural width."""
    return least_width(console, table) <= console.width


def print_fitting(console: Console, make: Callable[[bool, CellNotes], Table]) -> None:
    """Print ``make``'s table (``make(narrow, notes)``) where it fits ``console``'s width with its cells wrapped
    (:func:`fits`), else its narrow layout (a command's own), its long texts below it as numbered notes where they
    would not stay readable in their cells (:func:`noted_table`): the first table is measured once, for the choice
    and for the print."""
    table = make(False, CellNotes(False))
    unbounded = console.options.update_width(1 << 16)
    whole = Measurement.get(console, unbounded, table)
    if _least_width(console, unbounded, table, whole) > console.width:
        narrow, notes = noted_table(console, lambda notes: make(True, notes), wrapping=True)
        console.print(narrow)
        notes.print(console)
    elif isinstance(console, _DataConsole):
        console.print_measured(table, whole)
    else:
        console.print(table)


def fits_compacted(console: Console, table: Table) -> bool:
    """Whether ``table`` fits ``console``'s width with its cells wrapped once the console has dropped its boxes as
    printing it would (:func:`_compact`, done here to ``table``): where it does not, a command may lay its columns
    out otherwise rather than have them folded or the table printed wider than the terminal."""
    if fits(console, table):
        return True
    unbounded = console.options.update_width(1 << 16)
    if not _own_layout(table):
        _compact(console, unbounded, table, console.width)
    return _least_width(console, unbounded, table) <= console.width


def on_a_terminal(console: Console) -> bool:
    """Whether ``console`` writes to a terminal. Rich takes ``FORCE_COLOR`` for one, but it asks for colour only: a pipe
    or a file stays one, its tables PIPE_WIDTH wide, its text unwrapped and its stderr without a spinner's frames
    (``FORCE_COLOR=1 stich table x.tbn 2>log`` does not write a status line's every frame into the log)."""
    if not console.is_terminal:
        return False
    try:
        return console.file.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _own_layout(table: Table) -> bool:
    """Whether ``table`` sets its columns' widths itself (the benchmark's ``line``): left to rich."""
    return table.expand or any(column.width is not None or column.min_width is not None
                               or column.max_width is not None for column in table.columns)


#: Shorter headers of a table's columns (:func:`short_headers`): the steps to take, each its headers' shorter ones.
_SHORT_HEADERS: WeakKeyDictionary[Table, list[dict[str, str]]] = WeakKeyDictionary()


def short_headers(table: Table, shorter: dict[str | tuple[str, ...], str | tuple[str, ...]]) -> Table:
    """``table`` with shorter headers for some of its columns (``taken`` for ``already``), in the order they are to
    be taken: where the table would not fit a narrow terminal's width with its words whole even without its boxes
    (its one-word headers the widest words of their columns, a 40-column terminal), the data console takes them one
    by one until it fits (:func:`_compact`), rather than fold its cells' words mid-word or print it wider than the
    terminal. Headers that read as a pair are shortened together (``("before", "after"): ("from", "to")``): ``from``
    beside ``after`` would read as another pair. A pipe without ``COLUMNS`` keeps the headers as they are."""
    steps: list[dict[str, str]] = []
    for long, short in shorter.items():
        longs = (long,) if isinstance(long, str) else long
        shorts = (short,) if isinstance(short, str) else short
        if len(longs) != len(shorts):
            raise ValueError(f"short_headers: {long!r} and {short!r} are not as many headers")
        steps.append(dict(zip(longs, shorts)))
    _SHORT_HEADERS[table] = steps
    return table


def _compact(console: Console, options: Any, table: Table, width: int) -> None:
    """Drop a too-wide table's boxes for the header's rule and two spaces between the columns (the post-mortem's
    narrow layout; seven boxed columns take 22 of 80 columns, these 12); one space where only that fits the table
    whole, or where even its least width does not fit with two (the contract table at 60 columns, its reasons
    in notes, fits a row on one line with one space). Boxes cost a table two columns and a rule per column: a
    contract table of many columns would not fit a terminal with them. Where it does not fit with its words whole
    even so, its shorter headers (:func:`short_headers`) are taken, a step at a time, as many as it needs: a step
    that would not narrow it, or would give a column another column's header, is left out."""
    if table.box is not None:
        table.box = box.SIMPLE_HEAD
    table.show_edge = False
    table.pad_edge = False
    table.collapse_padding = True
    padding = table.padding
    _space_columns(console, options, table, width)
    steps = _SHORT_HEADERS.get(table, [])
    least = _least_width(console, options, table) if steps else 0
    if least > width:
        for step in steps:
            changed = [(column, column.header) for column in table.columns
                       if isinstance(column.header, str) and column.header in step]
            others = [column.header for column in table.columns if all(column is not one for one, _ in changed)]
            if not changed or any(step[long] in others for _, long in changed):
                continue  # not in this table, or a header another column has: two columns named alike
            for column, long in changed:
                column.header = step[long]
            narrowed = _least_width(console, options, table)
            if narrowed >= least:
                for column, long in changed:
                    column.header = long  # its cells are as wide: the headers lose words for nothing
                continue
            least = narrowed
            if least <= width:
                break
        table.padding = padding
        _space_columns(console, options, table, width)


def _space_columns(console: Console, options: Any, table: Table, width: int) -> None:
    """Two spaces between a compacted table's columns, or one (:func:`_compact`)."""
    if _least_width(console, options, table) > width:
        table.padding = (0, 0)
    elif Measurement.get(console, options, table).maximum > width:
        padding = table.padding
        table.padding = (0, 0)
        if Measurement.get(console, options, table).maximum > width:
            table.padding = padding  # not whole even with one space: two, the cells wrapped


def _fit_columns(console: Console, options: Any, table: Table, width: int, fold: bool = False,
                 measured: Measurement | None = None) -> bool:
    """Narrow a table too wide for ``width`` as rich does, its widest columns first down to the width of the next,
    but none below its longest word (a no_wrap column below its widest cell): rich's own narrowing takes no
    column's least width, so a word would fold mid-word where the table has room for it whole. ``fold``: for a
    table that does not fit with its words whole, a column may go down to its header's
    longest word, its cells' longer words folding. ``measured``: the table's measure under ``options`` as the caller
    took it (valid until a column is given a width). Whether the table fits ``width`` now."""
    columns = table.columns
    if _own_layout(table):
        return not fold  # a layout of the table's own
    ranges = []
    for column in columns:
        cells = [Measurement.get(console, options, cell) for cell in (column.header, *column.cells)]
        high = max(cell.maximum for cell in cells)
        if column.no_wrap:
            low = high
        elif fold:  # a figure with its interval stays whole (WholeFigures), a word may fold
            low = max(1, Measurement.get(console, options, column.header).minimum,
                      *(widest_figure(console, cell) for cell in column.cells))
        else:
            low = max(cell.minimum for cell in cells)
        ranges.append((low, high))
    wanted = sum(high for _, high in ranges)
    whole = Measurement.get(console, options, table) if measured is None else measured
    room = width - (whole.maximum - wanted)  # less the borders and padding

    def capped(level: int) -> list[int]:
        return [max(low, min(high, level)) for low, high in ranges]

    if wanted <= room:
        return True  # it fits whole
    if sum(capped(0)) > room:
        return False  # not even wrapped (printed at its least width)
    level = max(high for _, high in ranges)
    if not fold:
        wraps = [not column.no_wrap for column in columns]
        while sum(min(high, level) if wrap else high for (_, high), wrap in zip(ranges, wraps)) > room:
            level -= 1  # where rich's own narrowing of the wrapping columns stops
        if all(min(high, level) >= low for (low, high), wrap in zip(ranges, wraps) if wrap):
            return True  # rich narrows no column below its longest word: its layout stands
    while sum(capped(level)) > room:
        level -= 1
    widths = capped(level)
    for index in [index for index, (low, high) in enumerate(ranges) if widths[index] < high][:room - sum(widths)]:
        widths[index] += 1  # the room the last step down left
    for column, content in zip(columns, widths):
        column.width = content
    return True


class CellNotes:
    """Long texts of a table's cells (a contract's ``not biddable`` reason, a score item's ``why``) moved below the
    table as numbered notes where the console is too narrow for them to stay readable in their cells: folded into a
    column a dozen characters wide, a reason would take a cell of many lines and the row with it. ``moved`` False keeps
    every text in its cell (:func:`noted_table` decides); ``keeping`` False leaves only the note's number in it,
    where the words kept would make the table too wide for the console. Cells of the same text share one note."""

    #: The lines a text may wrap to in its cell before it goes below the table.
    TALLEST = 2

    def __init__(self, moved: bool, keeping: bool = True) -> None:
        self.moved = moved
        self.keeping = keeping
        self.notes: list[str] = []
        self.numbers: dict[str, int] = {}  # each note's number: a text met again takes the number it has
        self.texts: list[tuple[int, str]] = []  # each long text with its column, moved or not

    def cell(self, text: str, column: int, keep: str = "") -> str:
        """``text`` for its cell in ``column``; where the texts are moved, ``keep`` (its first words, e.g. ``not
        biddable``: the reader sees why the row has no result) and the number of its note, which holds the rest."""
        self.texts.append((column, text))
        if not self.moved:
            return text
        keep = keep if self.keeping and text.startswith(keep) else ""
        rest = text[len(keep):].lstrip(":; ") if keep else text
        number = self.numbers.get(rest)
        if number is None:
            self.notes.append(rest)
            number = self.numbers[rest] = len(self.notes)
        return f"{keep} [{number}]" if keep else f"[{number}]"

    def print(self, console: Console) -> None:
        """The notes, numbered as their cells say, under the table."""
        for number, note in enumerate(self.notes, 1):
            console.print(Text(f"[{number}] {for_stdout(note)}", style="dim"))


def _rich_column_widths(console: Console, table: Table) -> list[int] | None:
    """The width rich's layout gives each of ``table``'s columns' text at the console's width, by the private steps
    of ``Table.__rich_console__`` (no public call tells it); None where a rich to come lacks them."""
    try:
        width = console.options.max_width if table.width is None else table.width
        widths = table._calculate_column_widths(console, console.options.update_width(width - table._extra_width))
        return [max(1, room - table._get_padding_width(index)) for index, room in enumerate(widths)]
    except (AttributeError, TypeError):
        return None


def _cell_rooms(console: Console, options: Any, table: Table) -> list[int] | None:
    """The width each of ``table``'s columns gives its cells' text as ``console`` will print the table: its columns
    narrowed as :meth:`_DataConsole.print` narrows them, then rich's layout at the console's width. Rich spreads the
    room it lacks over every wrapping column, so the room a column is left is measured, not assumed from the others'
    least widths. ``options``: the console's at an unbounded width. None where rich's layout cannot be read."""
    fixed = [column.width for column in table.columns]
    if isinstance(console, _DataConsole):
        _fit_columns(console, options, table, console.width)
    try:
        return _rich_column_widths(console, table)
    finally:
        for column, made in zip(table.columns, fixed):
            column.width = made  # print narrows the table itself, from its measure as made


def noted_table(console: Console, make: Callable[[CellNotes], Table],
                wrapping: bool = False) -> tuple[Table, CellNotes]:
    """``make``'s table, its long texts in their cells where each fits in :attr:`CellNotes.TALLEST` lines of the
    room the console leaves its column, else moved below it as numbered notes (a narrow terminal, or a pipe's
    ``COLUMNS``); a pipe without ``COLUMNS`` keeps them in, its tables at their natural width. ``wrapping``: the
    table's other cells wrap too (the post-mortem's ``better`` cards, its headers), so the room is the column's
    width in rich's layout of the table as the console will print it (:func:`_cell_rooms`): a ``schneider_against
    (handed over)`` at 80 columns stays in its cell, where a word of it would fold (60) the texts go below."""
    kept = CellNotes(False)
    plain = make(kept)
    if not kept.texts or not getattr(console, "narrows", True):
        return plain, kept
    unbounded = console.options.update_width(1 << 16)
    # the common case, measured once: a table that fits with every text in its cell has each on one line, and the
    # room the steps below would find its column is at least that (the other columns are no wider with texts moved)
    if (Measurement.get(console, unbounded, plain).maximum <= console.width
            and not any("\n" in text for _, text in kept.texts)):
        return plain, kept
    if wrapping:
        if _least_width(console, unbounded, plain) > console.width and not _own_layout(plain):
            _compact(console, unbounded, plain, console.width)  # as the console will print it
        rooms = _cell_rooms(console, unbounded, plain) if _least_width(console, unbounded, plain) <= console.width \
            else None
        if rooms is not None:  # else the texts go below
            if all(len(Text(text).wrap(console, rooms[column])) <= CellNotes.TALLEST
                   and Measurement.get(console, unbounded, Text(text)).minimum <= rooms[column]
                   for column, text in kept.texts):
                return plain, kept  # each text in at most two lines, no word of it folded
        moved = CellNotes(True)
        return make(moved), moved
    trial = CellNotes(True)
    short = make(trial)
    if _least_width(console, unbounded, short) > console.width and not _own_layout(short):
        _compact(console, unbounded, short, console.width)  # as the console will print it
    if Measurement.get(console, unbounded, short).maximum > console.width:
        trial = CellNotes(True, keeping=False)  # the kept words (``not biddable [1]``) would wrap: the number only
        short = make(trial)
    if Measurement.get(console, unbounded, short).maximum > console.width and not _own_layout(short):
        _compact(console, unbounded, short, console.width)  # the boxes dropped, as the console will
    natural = Measurement.get(console, unbounded, short).maximum
    columns = {column for column, _ in trial.texts}
    widths = {column: max(Measurement.get(console, unbounded, cell).maximum
                          for cell in (short.columns[column].header, *short.columns[column].cells))
              for column in columns}
    # counted as rich wraps them: a long unbreakable word (``suit_solo_min_suit_cards``) takes a line of its own
    if all(len(Text(text).wrap(console, max(1, console.width - natural + widths[column]))) <= CellNotes.TALLEST
           for column, text in trial.texts):
        return plain, kept
    moved = CellNotes(True, keeping=trial.keeping)
    return make(moved), moved


def stdout_console() -> Console:
    """The console for data (stdout): no automatic highlighting, a fixed width when piped (PIPE_WIDTH, or the
    COLUMNS variable when it is set, as rich reads it for a terminal)."""
    console = _DataConsole(highlight=False, emoji=False, soft_wrap=False, markup=False)  # a record's [x] as it is
    if not on_a_terminal(console):
        columns = os.environ.get("COLUMNS", "").strip()
        width = small_number(columns)
        console.width = width if width else PIPE_WIDTH
        console.narrows = bool(width)
    return console


def stderr_console() -> Console:
    """The console for messages (stderr). No markup: a board, a path or a tag holding ``[/red]`` is shown as it is,
    never read as rich's markup (a closing tag with no opening one is an error to rich; an opening one recolours)."""
    return Console(stderr=True, highlight=False, emoji=False, markup=False)


def spinner_for(console: Console) -> str:
    """Rich's braille spinner where the console's encoding has it, else its ASCII one: on an ASCII terminal stderr
    escapes what it lacks, and the status line began with ``\\u280b``."""
    try:
        "\u280b\u2819\u2839\u2838\u283c\u2834\u2826\u2827\u2807\u280f".encode(console.encoding)
    except (UnicodeEncodeError, LookupError):
        return "line"
    return "dots"


@contextmanager
def progress_on_stderr(prefix: str) -> Iterator[Callable[[str], None]]:
    """A callback that shows what a long analysis is doing, on stderr and only on a terminal (a transient
    spinner): logs and pipes stay clean."""
    with status_on_stderr(prefix) as update:
        yield lambda text: update(f"{prefix}: {text}")


@contextmanager
def status_on_stderr(first: str, live: bool = True) -> Iterator[Callable[[str], None]]:
    """A transient status line on stderr, starting with ``first``, and the callback that replaces its text; where
    stderr is no terminal (or not ``live``: ``--json``) a callback that does nothing."""
    console = stderr_console()
    if not (live and on_a_terminal(console)):
        yield lambda text: None
        return
    status = console.status(Text(first), spinner=spinner_for(console))  # rich reads a str status as markup
    try:
        with interrupts_held():  # a Ctrl-C inside rich's start left the cursor hidden and the spinner turning
            status.start()
        yield lambda text: status.update(Text(text))
    finally:
        status.stop()


# --- cards ------------------------------------------------------------------------------------------------------


def stdout_encodes(text: str) -> bool:
    """Whether stdout's encoding has every character of ``text`` (ASCII or Latin-1, as ``PYTHONIOENCODING`` or an
    old locale may make it, lack the suit signs and much else)."""
    stream = getattr(sys.stdout, "rich_proxied_file", sys.stdout)  # under a live status line, rich's FileProxy,
    try:  # whose encoding is io.TextIOBase's None: a UTF-8 terminal's status line wrote +/- for ±
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def glyph(sign: str) -> str:
    """``sign`` where stdout's encoding has it, else its ASCII reading (:func:`cli.errors.ascii_fallback`)."""
    return sign if stdout_encodes(sign) else ascii_fallback(sign)


def for_stdout(text: str) -> str:
    """``text`` with each character stdout's encoding lacks written in ASCII (:func:`cli.errors.ascii_fallback`: the
    library's reports write the signs, a notebook shows them), before a table is laid out, so that ``yes`` for a
    ``✓`` keeps its column; whatever is printed without it the streams' error handler writes the same way."""
    if text.isascii() or stdout_encodes(text):
        return text
    return "".join(char if char == FIGURE_SPACE else glyph(char) for char in text)  # a figure's space is printed as " "


def signs_shown() -> bool:
    """Whether stdout can show the suit signs (else cards and the diagram write suit letters)."""
    return stdout_encodes("".join(SIGNS.values()))


def diagram_width(console: Console) -> int:
    """The columns a hand diagram keeps to on ``console``: a terminal's (or a pipe's ``COLUMNS``) where it is
    narrower than the diagram's 80, which it would otherwise break apart; 80 for a pipe without ``COLUMNS``, which
    keeps its layout, as a table does."""
    return min(DIAGRAM_WIDTH, console.width) if getattr(console, "narrows", True) else DIAGRAM_WIDTH


def wrapped_at_words(text: str, console: Console) -> str:
    """``text`` written on as it is (a command's own lines, not a console's), but on a terminal each line wider than
    ``console`` wrapped at its words as rich wraps a line: the terminal would break a word (a record's title, a
    diagram's ``pot: ...``). Piped on, each line stays whole, for grep."""
    if not (on_a_terminal(console) and getattr(console, "narrows", True)):
        return text
    lines = []
    for line in text.split("\n"):
        if cell_len(line) <= console.width:
            lines.append(line)
        else:
            lines.extend(part.plain.rstrip() for part in Text(line).wrap(console, console.width))
    return "\n".join(lines)


def print_diagram(position: Position, console: Console, *, dealt: bool = False, heading: bool = True) -> None:
    """The hand diagram (``dealt``: of the hands as dealt, before the Play section; ``heading=False``: under a
    record title printed already), as wide as the console lets it be."""
    if dealt:
        position = Position(position.game, position.rules, position.rules.start(), record=position.record)
    drawn = diagram(position, signs=signs_shown(), heading=heading, width=diagram_width(console))
    console.print(Text(wrapped_at_words(drawn, console)), soft_wrap=True)  # its table keeps to the width already


class CardPainter:
    """Card tokens of one pack as coloured text.

    A pack whose suit letters are the English initials of the suit signs (S C H D) is French-suited and shown with
    the signs; any other pack (the German packs map the signs onto E G H S) keeps its letters. Either way the red
    suits are red: hearts, and diamonds where a pack has them."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.style = SuitStyle.of(pack, signs=signs_shown())  # as the hand diagram

    @classmethod
    def for_game(cls, game: str) -> "CardPainter":
        return cls(get_game(game).pack)

    def label(self, name: str) -> str:
        index = self.pack.lookup(name)
        return name if index is None else self.style.card(self.pack, index)

    def card(self, name: str, style: str = "") -> Text:
        index = self.pack.lookup(name)
        colour = "red" if index is not None and self.pack[index].suit in self.style.red else ""
        return Text(self.label(name), style=" ".join(s for s in (colour, style) if s))

    def cards(self, names: Sequence[str], separator: str = " ", style: str = "") -> Text:
        return Text(separator).join(self.card(name, style) for name in names)


# --- small words ------------------------------------------------------------------------------------------------


seats_text = side_text  # ``1+3`` for a side, ``seat 2`` for a single seat: the library's words


def yes_no(value: bool | None, yes: str = "yes", no: str = "no") -> Text:
    if value is None:
        return Text("-")
    return Text(yes, style="bold green") if value else Text(no, style="bold red")


def plural(count: int, word: str) -> str:
    """``1 sample``, ``30 samples``, ``50,000 samples``: counts with thousands separators, as progress lines have."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def record_head(record: dict) -> str:
    """Which record a report answers: ``board 7 (examples/deals.tbn:112)``, or its place alone without a board; the
    one place a report's title takes the record's text, made visible (:func:`solver.errors.visible`)."""
    place = f"{shown_name(record['source'])}:{record['line']}" if record.get("source") else "position"
    return f"board {visible(str(record['board']))} ({place})" if record.get("board") else place


def record_title(document: Document) -> Text:
    """``board 7 (examples/deals.tbn:112) - <game> Normal T20, declarer 1``, then ``; rules: NAME=VALUE, ...`` where
    the record is played under flags other than the game's defaults (:func:`solver.variant.rules_note`)."""
    title = Text(record_head(document["record"]), style="bold")
    title.append(f" - {document['game']}")
    if "contract" in document:
        contract = get_game(document["game"]).contract_in_words(document["contract"])  # RULES.md's name
        title.append(f" {contract}, {get_game(document['game']).declarer_title} {document['declarer']}")
    # --from-start and --play's cards: the position is not the record's own
    title.append(what_if_note(document["record"].get("play") or [], bool(document["record"].get("from_start"))))
    title.append(rules_note(get_game(document["game"]).flags, document.get("variant") or {}))
    return title


def _sides_line(document: Document) -> str:
    if document["every_seat_for_itself"]:
        attacker = role_text(get_game(document["game"]).declarer_title, [document["declarer"]])
        return f"{attacker}; every seat plays for itself"
    return f"{side_name(document['declaring_side'])}, defenders {seats_text(document['defending_side'])}"


def side_name(declaring_side: Sequence[int]) -> str:
    """The declaring side for people: ``declarers 1+3``, or ``declarer seat 1`` where one seat declares (a Solo)."""
    return role_text("declarer", declaring_side)


def position_line(document: Document, painter: CardPainter) -> Text:
    """Where the play stands: tricks played, the trick on the table, who is to play."""
    position = document["position"]
    text = Text()
    if position["over"]:
        text.append(f"the deal is over after {plural(position['tricks_played'], 'trick')}")
        return text
    start = "whole deal" if position["whole_deal"] else "ending"
    played = position["tricks_played"]
    text.append(f"{start}, " + (f"after {plural(played, 'trick')}" if played else "from the start"))
    if position["trick"]:
        text.append(f"; trick {played + 1} in progress, seat {position['leader']} led: ")
        text.append_text(painter.cards(position["trick"]))
    text.append(f"; seat {position['to_move']} to play, {plural(position['tricks_left'], 'trick')} left")
    return text


def _taken_table(document: Document) -> Table:
    table = Table(title="Taken so far", title_justify="left", title_style="bold")
    if not document["every_seat_for_itself"]:
        table.add_column("side")
        table.add_column("points", justify="right")
        table.add_column("tricks", justify="right")
        for side in document["taken"]["sides"]:
            name = (side_name(side["seats"]) if side["name"] == "declarers"
                    else f"{side['name']} {seats_text(side['seats'])}")
            table.add_row(name, str(side["points"]), str(side["tricks"]))
    else:
        table.add_column("seat")
        table.add_column("tricks", justify="right")
        for seat in document["taken"]["seats"]:
            table.add_row(str(seat["seat"]), str(seat["tricks"]))
    return table


# --- solve ------------------------------------------------------------------------------------------------------


def is_pot_zero_note(note: str) -> bool:
    """Whether a document's note is one on a pot of 0 (:data:`~solver.games.outcome.POT_ZERO_NOTES`, the values its
    writers use), the same for every record of a game paid from a pot that gives none: a command says it once on
    stderr (:meth:`cli.records.GameNotes.add_pot_zero`), not under each record's text; the JSON keeps it."""
    return note in POT_ZERO_NOTES


def print_notes(notes: Iterable[str], console: Console, style: str = "") -> None:
    """A document's notes, each as ``note: ...``, but the pot-0 note (:func:`is_pot_zero_note`: said once on
    stderr)."""
    for note in notes:
        if not is_pot_zero_note(note):
            console.print(Text(for_stdout(f"note: {note}"), style=style))


def _result_label(result: Document, game: type[Game]) -> str:
    """An objective as players name it (``Game.row_title``: ``Valat against``; the JSON keeps ``valat_against``),
    with its seat where it is one seat's."""
    name = game.row_title(result["objective"])
    return f"{name} (seat {result['seat']})" if result["seat"] is not None else name


def _outcome(result: Document) -> Text:
    if result["success"] is not None:
        return yes_no(result["success"])
    other = result.get("other_side")
    if other:
        return Text(f"{seats_text(other['seats'])}: {other['total']}")
    return Text("")


def render_solve(document: Document, console: Console) -> None:
    """``stich solve``: the position, what is taken, the value of each objective; card values and lines if asked."""
    painter = CardPainter.for_game(document["game"])
    game = get_game(document["game"])
    console.print(Text(_sides_line(document)))
    console.print(position_line(document, painter))
    console.print(_taken_table(document))
    values = short_headers(Table(title="Double-dummy value", title_justify="left", title_style="bold"),
                           {"already": "taken", "target": "needs", "objective": "goal", "total": "sum"})
    for column in ("objective", "for", "target", "already", "rest", "total", "result"):
        values.add_column(column, justify="left" if column in ("objective", "for", "result") else "right")
    for result in document["results"]:
        target = "" if result["target"] is None else str(result["target"])
        # the score settles the whole deal: no "already" and "rest", and it is signed as every settlement is
        whole = result["objective"] == "score"
        values.add_row(_result_label(result, game), seats_text(result["side"]), target,
                       "" if whole else str(result["achieved"]), "" if whole else str(result["future"]),
                       signed(result["total"]) if whole else str(result["total"]), _outcome(result))
    console.print(values)
    for skipped in document.get("not_applicable", ()):
        console.print(Text(f"{game.sided_objective_title(skipped['objective'])}: does not arise "
                           f"({skipped['reason']})"))
    print_notes(document.get("notes", ()), console)
    asked = [key for key in ("cards", "line") if any(key in result for result in document["results"])]
    if asked and document["position"]["tricks_left"] == 0:
        console.print(Text(f"the deal is over: no {' and no '.join(asked)} to show"))
    # the score's card table carries the points each card keeps: the points' own table would repeat it
    merged = any("points" in group for r in document["results"] if r["objective"] == "score" for group in r.get(
        "cards") or ())
    for result in document["results"]:
        if result.get("cards") and not (merged and result["objective"] == "points"):
            console.print(_cards_table(result, painter, game))
        if result.get("line"):
            console.print(_line_table(result, painter, game))


def _cards_table(result: Document, painter: CardPainter, game: type[Game]) -> Table:
    """The legal cards of the player to move with the value each leaves for the objective's side."""
    side = seats_text(result["side"])
    mover = result["to_move"]
    question = game.row_title(result["objective"]) + (
        f" for seat {result['seat']}" if result["seat"] is not None else "")
    table = Table(title=f"Cards of seat {mover}: {question}", title_justify="left", title_style="bold")
    table.add_column("cards")
    whole = result["objective"] == "score"
    keeps_points = any("points" in group for group in result["cards"])
    if not whole:
        table.add_column(f"rest for {side}", justify="right")
    table.add_column("total" if not whole else f"score for {side}", justify="right")
    if keeps_points:
        table.add_column(f"points for {side}", justify="right")
    yes_no_question = result["target"] is not None
    if yes_no_question:
        verb = "makes" if len(result["side"]) == 1 else "make"
        table.add_column(f"{side} {verb} it", justify="left")
    # best first for the player to move, as the score's groups already are (ties keep the pack's order)
    sign = 1 if mover in result["side"] else -1
    # where the mover is not of the objective's side, its best cards are those that hold that side down
    table.add_column("" if sign > 0 else f"best: holds {side} down")
    for group in sorted(result["cards"], key=lambda group: -sign * group["total"]):
        style = "bold" if group["best"] else ""
        row: list[Text | str] = [painter.cards(group["cards"], "/", style)]
        row += [signed(group["total"])] if whole else [str(group["future"]), str(group["total"])]
        if keeps_points:
            row.append(str(group["points"]))
        if yes_no_question:
            row.append(yes_no(group["success"]))
        row.append(Text("best" if sign > 0 else "yes", style="bold") if group["best"] else "")
        table.add_row(*row)
    return table


def _line_table(result: Document, painter: CardPainter, game: type[Game]) -> Table:
    """An optimal line, a row per trick; cards that were already on the table stand in parentheses."""
    table = Table(title=f"Optimal line ({_result_label(result, game)})", title_justify="left", title_style="bold")
    for column in ("trick", "led by", "cards", "won by"):
        table.add_column(column, justify="left" if column == "cards" else "right")
    for trick in result["line"]:
        cards = Text()
        for position, name in enumerate(trick["cards"]):
            if position:
                cards.append(" ")
            if position == 0 and trick["on_table"]:
                cards.append("(")
            cards.append_text(painter.card(name, "dim" if position < trick["on_table"] else ""))
            if position == trick["on_table"] - 1:
                cards.append(")")
        table.add_row(str(trick["trick"]), str(trick["leader"]), cards, str(trick["winner"]))
    return table


# --- check ------------------------------------------------------------------------------------------------------


def _check_answer(check: Document, over: bool) -> Text:
    """The library's words (:func:`solver.analysis.check_answer_parts`) with the yes or no in colour; on a finished deal
    nothing is left to force or stop: the play decided it."""
    word, after = check_answer_parts(check["can_force"], reason=check["reason"], guaranteed=check["guaranteed"],
                                     target=check["target"], made=check["already_made"],
                                     missed=over or check["already_missed"], side=check["side"],
                                     opponents=check["opponents"])
    if check["can_force"] is None:
        return Text(for_stdout(word + after), style="dim")
    answer = yes_no(check["can_force"])
    answer.append(for_stdout(after))
    return answer


def _dealt_answer(bonus: Document) -> Text:
    """A bonus the cards decide (Trull, 4 Kings): the library's words (whether its side has it, and why no search
    was needed, :func:`solver.games.outcome.dealt_bonus_answer`) with the yes or no in colour."""
    word, after = dealt_bonus_answer(bonus)
    answer = Text(word, style="dim") if bonus["made"] is None else yes_no(bonus["made"], word, word)
    answer.append(for_stdout(after))
    if not bonus["counts"]:
        answer.stylize("dim")
    return answer


def _score_answer(bonus: Document | None, game: type[Game]) -> Text:
    """Whether the play that is best for the score also forces the bonus (and what forcing it settles)."""
    if bonus is not None and not bonus["scores"]:  # the note below the table says why
        if bonus["scored_as"] is not None:
            return Text(f"scored as the announced {game.objective_title(bonus['scored_as'])}", style="dim")
        return Text("scores nothing here", style="dim")
    if bonus is None or bonus["score_forces"] is None:
        return Text("")
    if bonus["with_bonus"] is None:
        return Text("-", style="dim")
    if bonus["score_forces"]:  # at the score itself, said below the table
        return Text("forces it")
    # the declaring side's net, as the score line below says it: a defenders' row's number is not their own
    return Text(f"gives it up (score when forced: {signed(bonus['with_bonus'])})")


def render_check(document: Document, console: Console) -> None:
    """``stich check``: every bonus, the side that tries for it, and whether it can be forced."""
    painter = CardPainter.for_game(document["game"])
    game = get_game(document["game"])
    title = game.row_title  # the names players use, one a row; the JSON keeps the identifiers
    console.print(Text(_sides_line(document)))
    console.print(position_line(document, painter))
    targets = document["every_seat_for_itself"]  # Kratzen: each seat's trick target, no bonuses (RULES.md 3.3)
    table = Table(title="Targets" if targets else "Bonuses", title_justify="left", title_style="bold")
    score = document.get("score")
    by_score = bool(score and score["bonuses"])
    for column in ("target" if targets else "bonus", "for", "what", "forced alone?") + (
            ("score-optimal play",) if by_score else ()):
        table.add_column(column)
    over = document["position"]["over"]
    under_score = {b["bonus"]: b for b in score["bonuses"]} if score else {}
    for check in document["checks"]:
        side = seats_text(check["side"]) if check["side"] else "-"
        name = title(check["bonus"])  # said once: not again at the end of its description
        row: list[Text | str] = [name, side, for_stdout(without_title(check["description"] or "", name)),
                                 _check_answer(check, over)]
        if by_score:
            row.append(_score_answer(under_score.get(check["bonus"]), game))
        table.add_row(*row)
    for bonus in document.get("dealt_bonuses", ()):  # RULES.md 1.6: Trull and 4 Kings need no search
        name, side, description, _ = dealt_bonus_cells(bonus, title(bonus["bonus"]))
        row = [name, side, for_stdout(description), _dealt_answer(bonus)]
        table.add_row(*(row + [Text("-", style="dim")] if by_score else row))
    console.print(table)
    if score:
        unit = game.score_unit  # in its unit, as score, tree and postmortem give it
        if targets:  # the score is one seat's own payment: said, as the bare number would not tell
            amount = net_amount(score['value'], unit)
            amount += f", {role_text(game.declarer_title, [document['declarer']])}'s own payment"
        else:  # whose net, in the words of score --dd's settlement line
            amount = f"{side_name(document['declaring_side'])} net {net_amount(score['value'], unit)}"
        console.print(Text(f"score (double dummy): {amount}"))
        print_notes(score.get("notes", ()), console)
        for choice in score["choices"]:
            first, second = (title(bonus) for bonus in choice["bonuses"])
            a, b = choice["settlements"]
            verdict = f"the score prefers {title(choice['prefers'])}" if choice["prefers"] else "the score is the same"
            # each row says "can force it": who stops the pair is said, so the two do not read as had together
            console.print(Text(f"{seats_text(choice['side'])} can force {first} or {second}, not both: "
                               f"{seats_text(choice['other_side'])} can always stop one of them; {verdict} "
                               f"(score with {first} {signed(a)}, with {second} {signed(b)})"))
    if document.get("together") is not None:
        answer = "yes" if document["together"] else "no"
        # four seats or more need more tricks than a Kratzen deal has (2 + 1 + 1 + 1 of 4): say so, not a bare no
        needed = sum(check["target"] for check in document["checks"] if check["seat"] is not None and check["target"])
        tricks = document["position"]["tricks_in_deal"]
        if not document["together"] and needed > tricks:  # an ending's targets are measured on its own tricks
            held = "deal" if document["position"]["whole_deal"] else "ending"
            answer += f" (the targets add up to {needed} tricks, the {held} has {tricks})"
        console.print(Text(f"every target met together, all seats helping: {answer}"))


# --- table ------------------------------------------------------------------------------------------------------


def render_table(document: Document, console: Console) -> None:
    """``stich table``: the contract table; one column per seat where every seat plays for itself."""
    console.print(record_title(document))
    if document["play_ignored"]:
        console.print(Text("the table is of the dealt hands; the Play section is ignored", style="dim"))
    entries = document["entries"]
    per_seat = any(entry["seats"] for entry in entries)
    settled = any(entry.get("settlement") is not None for entry in entries)
    columns = table_columns(document["game"], per_seat=per_seat, seats=document["seats"], settled=settled)

    def make(notes: CellNotes) -> Table:
        seat_columns = tuple(column for column in columns if column.startswith("seat "))
        table = short_headers(Table(title=CONTRACT_TABLE_TITLE, title_justify="left", title_style="bold"),
                              {columns[1]: "by", "settlement": "settle-\nment", "value": "has",
                               "contract": "game",
                               seat_columns: tuple(f"s{column[5:]}" for column in seat_columns)})
        for column in columns:  # the library's columns and cells (print(entry)), styled here
            table.add_column(column, justify="left" if column in ("contract", "side", "result") else "right")
        for entry in entries:
            cells: list[Text | str] = [get_game(document["game"]).contract_in_words(entry["contract"]),
                                       str(entry["declarer"])]
            for index, (column, cell) in enumerate(zip(columns[2:], table_cells(
                    entry, per_seat=per_seat, seats=document["seats"], settled=settled)), 2):
                if not entry["biddable"] and cell.startswith("not biddable"):  # below the table where narrow
                    cells.append(Text(notes.cell(cell, index, keep="not biddable"), style="dim"))
                elif cell in ("won", "lost"):
                    cells.append(yes_no(cell == "won", "won", "lost"))
                elif column.startswith("seat ") and cell[-1] in "✓✗":  # a seat's mark coloured, not its tricks
                    cells.append(Text(cell[:-1]) + yes_no(cell[-1] == "✓", glyph("✓"), glyph("✗")))
                else:
                    cells.append(cell)
            table.add_row(*cells)
        return table

    table, notes = noted_table(console, make)
    console.print(table)
    notes.print(console)
    if per_seat:
        console.print(Text(SEAT_LEGEND, style="dim"))
    if settled:
        pot = document.get("pot")
        console.print(Text(settlement_legend(document["game"], pot), style="dim"))
    print_notes(document.get("notes", ()), console, style="dim")
