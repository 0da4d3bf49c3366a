"""The Typer app behind the ``stich`` command: the command registry, the root options, and the process set-up.

Each command lives in its own module, imported only when that command runs (``stich --version`` and ``stich
--help`` import none of them): :data:`COMMANDS` names the module, the function and the one line that ``stich
--help`` shows. A new command is one module with one function and one line here.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import importlib
import io
import os
import re
import sys
import unicodedata
from typing import Any, Optional

import typer
from typer.core import TyperGroup
from typer.main import get_command_from_info
from typer.models import CommandInfo

from solver import __version__
from solver.errors import STDIN_NAME

from .errors import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_PIPE_CLOSED, ascii_fallback, came_while_stopping,
                     os_error_said)
from .startup import (install_interrupt_handlers, mark_work_began, reset_work_began, say_stopped_before_any_work,
                      stopped_during_start_up, work_ended)

#: Every command: its name, ``module:function`` in this package, and its one line for ``stich --help`` (its own
#: ``--help`` shows the function's whole docstring).
COMMANDS = (
    ("deal", "deal:deal", "Write seeded random deals as a .tbn file."),
    ("show", "show:show", "Print each record's deal as a hand diagram (after --play's cards, if given)."),
    ("solve", "solve:solve", "Solve each record: what each side has taken, the value of the rest, the total."),
    ("check", "check:check",
     "Which bonuses (game, Valat, Pagat Ultimo, Schneider, a seat's target...) can be forced, and by whom."),
    ("table", "table:table", "Every contract each seat could bid on the dealt hands, solved double dummy."),
    ("score", "score:score", "Score finished deals; with --dd the double-dummy settlement."),
    ("bench", "bench:bench", "Time the engine on seeded deals: medians, p90, nodes/s; --out and --compare runs."),
    ("postmortem", "postmortem:postmortem", "Grade every card played by what it cost under double-dummy play."),
    ("tree", "tree:tree", "The game tree of --depth cards with double-dummy values: a summary, JSON or a graph file."),
    ("analyse", "analyse:analyse", "Single-dummy odds of one hand, by sampling the unseen cards."),
    ("batch", "batch:batch", "Solve every record of a file on all cores (or a Dask cluster), resumably."),
    ("board", "board:board",
     "A local web board: the hands on a table, every card's value, click to play, the evaluation graph."),
    ("match", "match:match", "Play seeded deals to the end with bots and compare their mean payments."),
)


#: Typer's options of the root command for Tab completion (``add_completion=True``): flags, given alone.
COMPLETION_OPTIONS = ("--install-completion", "--show-completion")


class LazyCommands(TyperGroup):
    """The root group: it knows every command by name and one line, and imports a command's module only to run it
    or to show its own help. Listing the commands (``stich --help``) needs only the names and lines."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self._entries = {name: (target, short_help) for name, target, short_help in COMMANDS}
        self._listing = False
        # the names, for Typer's "did you mean" on an unknown command (it reads them from self.commands)
        self.commands = {name: typer.core.TyperCommand(name, short_help=short_help)
                         for name, (_, short_help) in self._entries.items()}

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self._entries)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Typer's parsing, but ``--install-completion`` and ``--show-completion`` with another word are refused: they
        take no shell name (Typer's options are flags that detect the shell they run in) and run before the word is
        read, so ``--show-completion zsh`` would print bash's script and ``--install-completion nosuch`` install it."""
        command_at = next((index for index, word in enumerate(args) if not word.startswith("-")), len(args))
        for option in COMPLETION_OPTIONS:  # the root's own, before the command's name (after it, the command's)
            others = [word for word in args if word != option]
            if option in args[:command_at] and others:
                does = "sets up" if option == "--install-completion" else "prints the script of"
                raise typer.BadParameter(
                    f"it takes no shell name or other word (got {others[0]!r}): it {does} the shell it runs in, "
                    "so run it alone, from that shell", ctx=ctx, param_hint=f"'{option}'")
        return super().parse_args(ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = self._entries.get(cmd_name)
        if entry is None:
            return None
        if self._listing:
            return self.commands[cmd_name]
        target, short_help = entry
        reset_work_began()  # this command's own code has not run yet (another's may have, in this process)
        module_name, function_name = target.split(":")
        module = importlib.import_module(f".{module_name}", __package__)
        info = CommandInfo(cmd_name, cls=Command, callback=getattr(module, function_name), short_help=short_help)
        return get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=self.rich_markup_mode)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """The commands offered to a Tab at the command's place, from their names and lines as ``stich --help`` lists
        them: without this each one offered would be imported for its line (all 13 for ``stich <Tab>``)."""
        self._listing = True
        try:
            return super().shell_complete(ctx, incomplete)
        finally:
            self._listing = False

    def get_params(self, ctx: Any) -> list[Any]:
        return said_on_stderr(without_type_labels(super().get_params(ctx)))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def without_type_labels(params: list[Any]) -> list[Any]:
    """``params`` made to show no Python type names in help: Typer labels a flag ``<bool>`` and an argument
    ``<Path>``; a flag takes no value, and an argument's name (FILE) already says what it is. An option's label is
    its metavar (``MB``, ``NAME=VALUE``)."""
    for param in params:
        if isinstance(param, typer.core.TyperArgument) or getattr(param, "is_flag", False):
            param.display_type_rich = lambda ctx: None
    return params


def said_on_stderr(params: list[Any]) -> list[Any]:
    """``params`` with ``--install-completion``'s lines (where it installed, when it takes effect) said on stderr: they
    are messages, which Typer prints on stdout (``--show-completion``'s script stays there: it is data)."""
    for param in params:
        if "--install-completion" in getattr(param, "opts", ()) and not getattr(param, "said_on_stderr", False):
            installs = param.callback

            def install_saying_on_stderr(ctx: Any, option: Any, value: Any, installs: Any = installs) -> Any:
                with contextlib.redirect_stdout(sys.stderr):
                    return installs(ctx, option, value)

            param.callback = install_saying_on_stderr
            param.said_on_stderr = True
    return params


SEAT_CARDS = re.compile(r"\d+:(\S+)")  # --known's SEAT:CARDS, its first card after the colon


def unquoted_cards(params: list[Any], args: list[str]) -> tuple[Any, str, list[str]]:
    """The first cards option (``--play``, ``--hand``: metavar CARDS; ``--known``: SEAT:CARDS) that ``args`` gives
    unquoted, as ``(option, its name, its words)``: its value and the words after it up to the next option or file
    (``--play HK T1``, ``--play=HK T1``); ``(None, "", [])`` where none is."""
    options = {name: param for param in params if getattr(param, "metavar", None) in ("CARDS", "SEAT:CARDS")
               for name in param.opts}
    for index, word in enumerate(args[:-1]):
        name, equals, value = word.partition("=")
        if name not in options:
            continue
        start = index + 1 if equals else index + 2
        if not equals:
            value = args[index + 1]
        cards = [value]
        for following in args[start:]:
            if following.startswith("-") or "/" in following or "." in following or os.path.exists(following):
                break
            cards.append(following)
        if len(cards) > 1:
            return options[name], name, cards
    return None, "", []


def first_argument(params: list[Any], args: list[str]) -> str | None:
    """The first word of ``args`` that is neither an option nor an option's value: the one click takes for the
    command's first argument (the FILE), decided from the command line rather than from click's error text."""
    takes = {name: param.nargs for param in params if isinstance(param, typer.core.TyperOption)
             and not param.is_flag and not param.count for name in param.opts}
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            return args[index + 1] if index + 1 < len(args) else None
        if not word.startswith("-") or word == "-":
            return word
        name, equals, _ = word.partition("=")
        index += 1 + (takes.get(name, 0) if not equals else 0)
    return None


def quoting_hint(option: Any, name: str, cards: list[str]) -> str:
    """How to give ``cards`` to ``option`` (called ``name``): one quoted string, or one for each seat where they
    start more than one seat's (``--known 2:SA 3:SK``)."""
    groups: list[list[str]] = []
    for card in cards:
        if not groups or (option.metavar == "SEAT:CARDS" and SEAT_CARDS.match(card)):
            groups.append([])
        groups[-1].append(card)
    written = " ".join(f"{name} \"{' '.join(group)}\"" for group in groups)
    if len(groups) > 1:
        return f"{name} takes one seat's cards as one quoted string, repeated for each seat: {written}"
    return f"{name} takes its cards as one quoted string: {written}"


def reads_as_card(word: str, seat_cards: bool) -> bool:
    """Whether ``word`` is a card of some game's pack (with ``seat_cards``, also ``SEAT:CARD``, as ``--known``
    starts another seat's cards): a word after a cards option's value that reads as one of its cards."""
    from .whatif import card_of_some_game  # only where an unquoted card list is (no command's start-up pays for it)

    found = SEAT_CARDS.fullmatch(word) if seat_cards else None
    return card_of_some_game(found.group(1) if found else word)


class Command(typer.core.TyperCommand):
    """A command whose help shows no type names (:func:`without_type_labels`) and whose usage line names a required
    argument as the help's Arguments section does (FILE)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return without_type_labels(super().get_params(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Typer's parsing, but a card list given unquoted (``--play HK T1``), whose second card is then an extra
        argument or taken for the FILE, is said with how to give it: Typer named only the extra argument, and a card
        taken for the FILE was a missing file (``T1: No such file or directory``) or a FILE given with --game."""
        given = list(args)
        option, name, cards = unquoted_cards(self.params, given)
        hint = quoting_hint(option, name, cards) if option is not None else ""
        # the word a FILE argument takes where none was given before the option
        taken = cards[1] if hint and reads_as_card(cards[1], option.metavar == "SEAT:CARDS") else None
        what = "a seat's cards" if taken is not None and SEAT_CARDS.fullmatch(taken) else "a card"
        why = f"{taken} is {what}, not a file; {hint}"
        try:
            rest = super().parse_args(ctx, args)
        except Exception as error:  # click's UsageError (Typer exports none), re-raised as it is but for the hint
            said = getattr(error, "message", None)
            if isinstance(said, str) and hint and "unexpected extra argument" in said:
                # where a card was taken for the FILE, the extra argument is the file itself: said why
                taken_for_file = taken is not None and first_argument(self.params, given) == taken
                why_extra = f": {taken} is {what}, read as the FILE" if taken_for_file else ""
                error.message = f"{said}{why_extra}; {hint}"  # type: ignore[attr-defined]
            elif taken and isinstance(error, typer.BadParameter) and isinstance(error.param, typer.core.TyperArgument):
                error.message = why  # a check of the FILE (analyse's: "give either FILE or --game"), of a card
            raise
        for param in self.params:  # a card taken for the FILE, which no file is
            value = ctx.params.get(param.name) if isinstance(param, typer.core.TyperArgument) else None
            for one in value if isinstance(value, (list, tuple)) else [value]:
                if taken is not None and one is not None and str(one) == taken and not os.path.exists(one):
                    raise typer.BadParameter(why, ctx=ctx, param=param)
        return rest

    def invoke(self, ctx: Any) -> Any:
        """The command's own code runs: from here its stop is its own to say (:func:`cli.startup.mark_work_began`);
        once it has returned, a late Ctrl-C or SIGTERM is ignored (:func:`cli.startup.work_ended`)."""
        mark_work_began()
        try:
            return super().invoke(ctx)
        finally:
            work_ended()

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """Typer (0.28) writes a required argument ``{FILE}`` in the usage line, which every usage error repeats;
        click's convention, and the docs', is ``FILE`` (an optional one stays ``[FILE]``)."""
        return [piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece
                for piece in super().collect_usage_pieces(ctx)]


app = typer.Typer(
    name="stich",
    cls=LazyCommands,
    help="Exact double-dummy solver and hand analyser for trick-taking games (`stich deal --help` names them).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["--help", "-h"]},  # every command's too: no command takes -h
    add_completion=True,  # --install-completion, --show-completion: Tab completes the commands and their options
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and usage errors: rich's help renderer alone costs 60 ms of start-up
)


def _version(value: bool) -> None:
    if value:
        print(f"stich {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Optional[bool] = typer.Option(None, "--version", callback=_version, is_eager=True,
                                           help="Print the version and exit."),
) -> None:
    """Exact double-dummy solver and hand analyser for trick-taking games."""


def _stdout_file() -> tuple[int, int] | None:
    """What file descriptor 1 is (device and inode), or None if it is closed."""
    try:
        status = os.fstat(1)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _stdout_pointed_at_null(before: tuple[int, int] | None) -> bool:
    """Whether rich, finding stdout's reader gone, pointed descriptor 1 at /dev/null (it does so before exiting 1,
    as when ``stich --help | head -1`` closes the pipe during the help)."""
    now = _stdout_file()
    if now is None or now == before:
        return False
    null = os.stat(os.devnull)
    return now == (null.st_dev, null.st_ino)


class ClosedStreamError(OSError):
    """Reading or writing a standard stream the process was started without."""


class _ClosedStream(io.RawIOBase):
    """A standard stream the process was started without (``stich solve x.tbn >&-``, ``<&-``): Python makes it None, on
    which a command would fail with an AttributeError traceback, or write its data nowhere and exit 0. Using it fails
    instead as a closed descriptor does, with the stream's name, which is bad input (exit 1)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.stream_name = name

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def _closed(self) -> OSError:
        return ClosedStreamError(errno.EBADF, f"{os.strerror(errno.EBADF)} (it was closed when stich started)",
                                 self.stream_name)

    def readinto(self, buffer: Any) -> int:
        raise self._closed()

    def write(self, data: Any) -> int:
        raise self._closed()


class _WholeWrites(io.FileIO):
    """stdout's file (and stderr's under ``python -u`` or PYTHONUNBUFFERED), written each piece whole: a write a signal
    interrupts partway (Ctrl-C while a terminal or a pipe is full) went out only in part under ``python -u``, the
    rest dropped (a record cut mid-row, the stop's line after it on the same line). It knows whether its last byte
    ended a line (:attr:`mid_line`): the line a stop says after output a second interrupt cut short starts a line of
    its own only where the output stopped mid-line (:func:`cli.errors.say_interrupted`)."""

    #: Whether the last byte written was no line break (nothing written yet: at the start of a line).
    mid_line = False
    #: Whether an interrupt or an error (a full disk, ``>/dev/full``) came during a write: from then on nothing is
    #: written, each piece taken as written. A buffer above, which never learns how much of that write went out,
    #: would write it again; and what it still holds is not written at exit, where a reader that does not read would
    #: hold the process for ever and a failing file fail again after its message (exit 120, "Exception ignored").
    #: :func:`cli.errors.say_interrupted` empties the buffer and writes again, for a next command in this process.
    dropping = False
    #: Whether such a write sets :attr:`dropping`: stdout's file does; stderr's (unbuffered: no buffer above it holds
    #: a piece to write twice) writes on, else every later message, the stop's line too, would be lost.
    drops_after_a_failed_write = True

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        try:
            while done < len(view) and not self.dropping:
                written = super().write(view[done:])
                if written is None:  # a non-blocking file that is full: said as a buffered stream says it
                    raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN), done)
                if written:  # an interrupt as the write returns skips this: the stop's line may then misjudge it
                    self.mid_line = view[done + written - 1] != 0x0A
                done += written
        except (KeyboardInterrupt, OSError):  # the stop or the error is said by the command, once
            self.dropping = self.drops_after_a_failed_write
            raise
        return len(view)


def _written_whole(stream: Any, attribute: str) -> Any:
    """``stream`` (``sys.stdout`` or ``sys.stderr``: ``attribute``) as it is, or the same stream over a file that
    writes each piece whole and knows whether its output ends mid-line (:class:`_WholeWrites`), where it is
    unbuffered text over its file, or stdout's buffer over its file."""
    if not isinstance(stream, io.TextIOWrapper):
        return stream
    unbuffered = type(stream.buffer) is io.FileIO
    buffered = type(stream.buffer) is io.BufferedWriter and type(stream.buffer.raw) is io.FileIO
    if not (unbuffered or (buffered and attribute == "stdout")):
        return stream
    stream.flush()
    return whole_writer(stream.fileno(), stream, attribute, unbuffered)


def whole_writer(fd: int, like: Any, attribute: str, unbuffered: bool) -> io.TextIOWrapper:
    """Text to the file descriptor ``fd`` written as the text stream ``like`` writes it (its name, encoding, errors,
    line buffering and buffer size; ``unbuffered``: each write at once, as under ``python -u``), each piece whole
    over :class:`_WholeWrites`; ``attribute`` is the standard stream it stands for (stdout drops what follows a
    failed write)."""
    raw = _WholeWrites(fd, "w", closefd=False)
    raw.name = getattr(like, "name", f"<{attribute}>")  # type: ignore[misc]  # "<stdout>", as Python names its own
    raw.drops_after_a_failed_write = attribute == "stdout"
    size = getattr(getattr(getattr(like, "buffer", None), "raw", None), "_blksize", 0)  # as Python chose it
    binary = raw if unbuffered else io.BufferedWriter(raw, buffer_size=size if size > 1 else io.DEFAULT_BUFFER_SIZE)
    wrapped = io.TextIOWrapper(binary, encoding=getattr(like, "encoding", None) or "utf-8",
                               errors=getattr(like, "errors", None),
                               line_buffering=bool(getattr(like, "line_buffering", False)), write_through=unbuffered)
    wrapped.mode = getattr(like, "mode", "w")  # type: ignore[misc]  # as open() sets it (a TextIOWrapper has none)
    return wrapped


def _safe_streams() -> None:
    """What rich and the streams would fail on before any command runs: a COLUMNS or LINES that is no ASCII number
    (rich reads it with ``int`` after ``str.isdigit``, which takes "²") is dropped, as if unset; and a stdout whose
    encoding lacks a character (ASCII, Latin-1) shows it as "?" instead of failing on a card sign, a file name or a
    tag's text (JSON stays exact: it escapes what the encoding lacks). A standard stream the process was started
    without is one that fails when used (:class:`_ClosedStream`); an unbuffered one (``python -u``) writes each
    piece whole though a signal comes as it waits (:class:`_WholeWrites`)."""
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedStream(STDIN_NAME)), encoding="utf-8")
    for attribute in ("stdout", "stderr"):
        if getattr(sys, attribute) is None:  # unbuffered: the failure comes at the write, not at exit
            closed = _ClosedStream(f"<{attribute}>")
            setattr(sys, attribute, io.TextIOWrapper(closed, encoding="utf-8", write_through=True))
        else:
            setattr(sys, attribute, _written_whole(getattr(sys, attribute), attribute))
    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name)
        if value is not None and not (value.strip().isascii() and value.strip().isdigit() and len(value) < 10):
            del os.environ[name]
    codecs.register_error(_READABLE, _readable)
    codecs.register_error(_ESCAPE_OR_READABLE, _escape_or_readable)
    codecs.register_error(_SIGNS_READABLE, _signs_readable)
    if isinstance(sys.stderr, io.TextIOWrapper) and sys.stderr.errors in ("strict", "backslashreplace"):
        sys.stderr.reconfigure(errors=_SIGNS_READABLE)
    # a character stdout's encoding lacks (ASCII under PYTHONIOENCODING=ascii, the C locale's) is its ASCII reading
    # (ascii_fallback: "a" for "ä", "->" for an arrow, "+/-" for "±")
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors=_READABLE)
    elif isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "surrogateescape":
        # the C locale's stdout (LANG=C with PYTHONUTF8=0): a file name's undecodable bytes go out as they came
        sys.stdout.reconfigure(errors=_ESCAPE_OR_READABLE)


_READABLE, _ESCAPE_OR_READABLE = "stich.readable", "stich.surrogateescape_or_readable"
_SIGNS_READABLE = "stich.signs_readable"


def _readable(error: UnicodeError) -> tuple[str | bytes, int]:
    """An encoding error handler: each character the encoding lacks as its ASCII reading (:func:`ascii_fallback`)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(ascii_fallback(char) for char in error.object[error.start:error.end]), error.end


def _signs_readable(error: UnicodeError) -> tuple[str | bytes, int]:
    """stderr's encoding error handler: its messages quote what was typed or read (a file name, a bad token), which
    must stay exact, so a letter, a digit or an undecodable byte the encoding lacks is escaped as Python's stderr
    does (``\\xe4``: ``ä.tbn`` and ``a.tbn`` stay two names, ``EÄ`` is not read as the card ``EA``); stich's own
    signs (±, arrows, dashes, box drawing) are their ASCII reading (:func:`ascii_fallback`)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    char = error.object[error.start]
    if unicodedata.category(char)[0] in "SPZ" and ascii_fallback(char) != "?":
        return ascii_fallback(char), error.start + 1
    return char.encode("ascii", "backslashreplace").decode("ascii"), error.start + 1


def _escape_or_readable(error: UnicodeError) -> tuple[str | bytes, int]:
    """An encoding error handler: ``surrogateescape`` for the bytes it stands for, :func:`_readable` for the rest."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    char = error.object[error.start]
    if "\udc80" <= char <= "\udcff":
        return bytes([ord(char) - 0xDC00]), error.start + 1
    return ascii_fallback(char), error.start + 1


def out_of_memory(error: MemoryError) -> str:
    """What a command that ran out of memory says: the engine's own words (``cannot allocate a 4096 MB transposition
    table``) and what to do about a table."""
    said = str(error) or "out of memory"
    return (f"{said}: the process may not use that much memory (give a smaller --table-mb or STICH_TABLE_MB; "
            "each searching command holds two tables of that size: the search's and the settlement's)")


def main(handlers_set: bool = False) -> None:
    """The app, run: ``handlers_set`` where the ``stich`` command (:func:`solver.cli.main`) set the interrupt
    handlers before this module loaded; else (``from cli.main import main``) they are set here first."""
    try:
        if not handlers_set:
            install_interrupt_handlers()
        _safe_streams()
        stdout_before = _stdout_file()
    except KeyboardInterrupt:
        stopped_during_start_up()
    try:
        try:
            try:
                app()
            finally:
                work_ended()  # a usage error, --help: all that is left is the exit, which a late signal must not cut
        except SystemExit as done:
            if not done.code:  # --version's line, --help's: a stdout that fails is said here, not as Python exits
                try:
                    sys.stdout.flush()
                except BrokenPipeError:  # the reader has gone: no bad input, as cli.errors.input_errors says it
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                    raise SystemExit(EXIT_PIPE_CLOSED) from None
            raise
    except KeyboardInterrupt:  # one that came as the app returned, before the line above ignored the next ones
        say_stopped_before_any_work()
        raise SystemExit(EXIT_INTERRUPTED) from None
    except ClosedStreamError as error:  # where no command's own handler (cli.errors.input_errors) saw it first
        with contextlib.suppress(OSError):
            print(f"stich: {error.filename}: {error.strerror}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT) from None
    except OSError as error:
        # no command's (each has cli.errors.input_errors): --install-completion's, writing the shell's start-up file
        # in a HOME that cannot be written (a read-only or missing one), once a traceback; or one whose message
        # failed too (stderr gone with a closed terminal)
        if isinstance(error, BrokenPipeError):
            raise
        option = next((f"{name}: " for name in COMPLETION_OPTIONS if name in sys.argv[1:]), "")
        with contextlib.suppress(OSError):
            print(f"stich: {option}{os_error_said(error)}", file=sys.stderr)
        # one a command's stop met saying what it finished (a closed terminal's EIO) leaves the stop's exit code
        raise SystemExit(EXIT_INTERRUPTED if came_while_stopping(error) else EXIT_BAD_INPUT) from None
    except MemoryError as error:
        # a transposition table larger than this process may map (``--table-mb 4096`` under ``ulimit -v``, a
        # container's limit), made before any record or beside the first one (the settlement's tables): one line, as
        # for bad input, never a traceback
        with contextlib.suppress(OSError):
            print(f"stich: {out_of_memory(error)}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT) from None
    except SystemExit as done:
        if done.code == EXIT_INTERRUPTED:  # Typer's exit for a KeyboardInterrupt no command had begun to handle
            say_stopped_before_any_work()
        # Typer and rich exit 1 when stdout's reader closed it (``stich ... | head``), having swapped in
        # flush-pacifying streams or pointed stdout at /dev/null: that is no bad input, so exit as a command killed by
        # SIGPIPE would, and say nothing (the wrapper is known by name: typer may bring its own copy of click's)
        pacified = type(sys.stdout).__name__ == "PacifyFlushWrapper"
        if done.code == EXIT_BAD_INPUT and (pacified or _stdout_pointed_at_null(stdout_before)):
            raise SystemExit(EXIT_PIPE_CLOSED) from None
        raise
