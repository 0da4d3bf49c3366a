"""The stich error family.

Every error caused by user input subclasses :class:`StichError`, itself a :class:`ValueError`, and names the input
it rejects. Errors that point into a text file carry its name, line and column (1-based), the offending token and what
was expected, so that the CLI can print ``file:line:col: message`` and nothing else.
"""

from __future__ import annotations

import functools
import operator
import os
import re
import sys
from typing import Any, Iterable, Mapping, Sequence, TypeGuard


#: Longest message and token a ParseError prints: a message quotes the user's text, which may be a 10,000-character
#: tag value, and an error should stay one readable line.
MAX_MESSAGE_LENGTH = 300
MAX_TOKEN_LENGTH = 40
#: Longest user text a message quotes whole (:func:`quoted`).
MAX_QUOTED_LENGTH = 60

#: How many records' messages a file is said with in full, on the command line (cli.errors.RecordMessages) and on the
#: board's page alike: past them a file with one systematic error would say a line a record, 100,000 lines for 100,000
#: records.
MAX_RECORD_MESSAGES = 20
#: How many kinds of message :class:`MessageSieve` tells apart: past the first 20 messages, the first of each new
#: kind is still said, so a different error is not hidden behind a systematic one; bounded, so that messages of
#: unforeseen shapes (a kind each) cannot bring back a line a record.
MAX_MESSAGE_KINDS = 100
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_BOARD = re.compile(r"\bboard [^:,()]+")
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def _cut(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and ``...`` (a text cut to 40 + ``...`` already stays as it is)."""
    return text if len(text) <= limit + 3 else text[:limit] + "..."


def quoted(value: object, limit: int = MAX_QUOTED_LENGTH) -> str:
    """A user's value as a message quotes it: its repr, a longer text cut to its first ``limit`` characters and an
    ellipsis with its length (``'xxxx...' (1,500,000 characters)``), so that a message stays one line whatever was
    sent (a 1.5 MB board id posted to the board came back whole in its error)."""
    if isinstance(value, str):
        if len(value) <= limit + 3:
            return repr(value)
        cut = repr(value[:limit])
        return f"{cut[:-1]}...{cut[-1]} ({len(value):,} characters)"
    return _cut(repr(value), limit)


#: What a record's text may hold that would drive a terminal rather than show on it: the C0 and C1 controls and DEL
#: (ESC starts a sequence that clears the screen or recolours the line, CR and backspace overwrite what came before,
#: BEL rings) and the bidi controls that reorder a line as it is shown (the "Trojan source" trick); and the lone
#: surrogates by which a file name that is not UTF-8 stands for its bytes (``\udc9b`` would reach an 8-bit terminal
#: as the C1 byte 0x9b, CSI; no surrogate can be written as UTF-8 anyway).
HIDDEN_BEYOND_C0 = "\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # DEL, C1, bidi: JSON's share too
HIDDEN = re.compile(f"[\x00-\x1f{HIDDEN_BEYOND_C0}\ud800-\udfff]")


#: The name standard input, the FILE ``-``, goes by in every message, page title and JSON document.
STDIN_NAME = "<stdin>"


def escaped(match: re.Match[str]) -> str:
    """The matched character as its repr writes it (``\\x1b``, ``\\n``, ``\\u202e``), and the surrogate by which
    ``os.fsdecode`` keeps a file name's byte that is not UTF-8 as that byte (``\\xff``, not ``\\udcff``), as
    ``ls``'s bytes would be written: the one escape of text shown to people and of text in XML files."""
    character = match.group()
    if "\udc80" <= character <= "\udcff":
        return f"\\x{ord(character) - 0xDC00:02x}"
    return repr(character)[1:-1]


def visible(text: str) -> str:
    """``text`` as a person may be shown it: each control character of :data:`HIDDEN` written as its escape, as a
    message's :func:`quoted` (its repr) writes it (``\\x1b``, ``\\r``, ``\\u202e``), so that a tag value or a file
    name cannot clear the screen, hide a line or fake a result; every other character (ä, ß, ♠) as it is. For text
    printed for people only: a record written back, or JSON, keeps the text itself."""
    return HIDDEN.sub(escaped, text)


def printable(text: str) -> str:
    """``text`` with each character a repr escapes written as repr writes it (ESC ``\\x1b``, U+202E ``\\u202e``, the
    zero-width space ``\\u200b``), every other character (ä, ß, ♠, a quote) as it is: a message's own rendering of
    text :func:`quoted` does not quote (the JSON a request sent), as safe to show as a repr."""
    return "".join(character if character.isprintable() else repr(character)[1:-1] for character in text)


def visible_lines(text: str) -> str:
    """A message of several lines made :func:`visible` line by line, its own line breaks kept (a name's newline is
    escaped already, by :func:`shown_name`): on stderr and on the board's page alike."""
    return "\n".join(visible(line) for line in text.split("\n"))


def source_name(path: str | os.PathLike) -> str:
    """The name a FILE read is known by: :data:`STDIN_NAME` for ``-``, else the name as given, kept whole and not
    escaped: a record's ``source`` and a JSON document's carry it, so that its JSON text reads back to the name, and
    a library caller finds there the name it passed. A command's names come normalised as a path by its parser
    (``cli.errors.file_name``: ``./deals.tbn`` is ``deals.tbn``)."""
    name = os.fsdecode(path)
    return STDIN_NAME if name == "-" else name


def shown_name(path: str | os.PathLike) -> str:
    """A file's name as every message and title shows it to people (docs/cli.md, "File names"): made
    :func:`visible`, a byte that is not UTF-8 written ``\\xff``, a newline ``\\n``, a tab ``\\t``, ESC ``\\x1b``, so
    that the name stays on its one line and cannot drive the terminal; a backslash as itself, so that a name with one
    reads as typed (a name's ``\\n`` typed and its newline show alike: JSON's ``record.source`` tells them apart). A
    FILE read is named by its :func:`source_name` first (``-`` is standard input there, standard output as an
    output)."""
    return visible(os.fsdecode(path))


def listed(words: Sequence[str], conjunction: str = "and") -> str:
    """``A, B and C`` (``A`` alone, ``A and B``): ``words`` as a phrase in a sentence."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def is_whole_number(value: object) -> TypeGuard[int]:
    """An int that is not a bool: what every seat, count and index the API takes must be (True is an int too)."""
    return isinstance(value, int) and not isinstance(value, bool)


def integral(value: object) -> object:
    """``value`` as a plain int when it is integral (a numpy integer, any type with ``__index__``), else unchanged,
    so that the check that follows names what was given. A bool stays a bool (it is no seat or count), and a plain
    int is returned as it is: an API entry point calls this on every seat, count and index it takes."""
    if isinstance(value, (bool, int)) or not hasattr(type(value), "__index__"):
        return value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return value


def check_callback(callback: object, name: str, called_with: str = "") -> None:
    """A callback argument (``progress``, ``on_deal``, ...): None or a function, checked before any work is done, as
    it is first called after some (where a bad one would end the run and lose that work). ``called_with`` says what
    it is given (``"the result so far"``), for the message."""
    if callback is not None and not callable(callback):
        given = f" of {called_with}" if called_with else ""
        raise StichError(f"{name} must be a function{given} (or None), not {callback!r}")


def is_token_list(value: object) -> bool:
    """Whether ``value`` is a list or tuple of strings, as names are given. Lists and tuples only: a generator would be
    used up by the check."""
    return isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value)


class StichError(ValueError):
    """Base of every error caused by bad input (a deal, a file, a flag, a card)."""


class FileError(StichError):
    """A file a command keeps beside its input (a checkpoint, an output's lock) that cannot be used: its message
    names that file, so a command reading records says it as it is, never pointed at the record's tag."""


class FileRefusedError(FileError):
    """A file refused as a whole (not a checkpoint, another version's, its folder missing, its lock held by another
    run): the same answer for every record that would use it, so a command reading records says it once and stops.
    A plain :class:`FileError` (a checkpoint line of one record's analysis that is not one) concerns that record
    alone, and the others are still answered."""


class JournalWriteError(OSError):
    """A checkpoint that could not be written (a full disk, the file size limit, made read-only), its message naming
    the file and the mend. Not bad input, but like a :class:`FileRefusedError` the same for every record after it:
    a command reading records says it once, naming the record it met, and tries no other."""


class StichWarning(UserWarning):
    """A request the library met other than as asked, and why (``workers=64`` on a 2-core machine runs 2 workers):
    an app may filter it (``warnings.simplefilter("ignore", StichWarning)``) or make it an error."""


class OtherCountResumed(StichWarning):
    """A checkpoint's samples written by a run of another sample count, resumed (sample k is the same whatever the
    count): said once a command, not once for each record of a FILE that resumes such samples."""


class OtherJobsNotResumed(StichWarning):
    """A checkpoint that holds other jobs (analyses of other hands or settings, matches) and not this analysis, which
    starts beside them: said by a command for the first record of a FILE only, since each record after it finds
    those before it in the file."""


class ParseError(StichError):
    """A text record that does not follow the format: where, which token, and what was expected."""

    def __init__(
        self,
        message: str,
        *,
        source: str = "<input>",
        line: int = 0,
        column: int = 0,
        token: str | None = None,
        expected: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.token = token
        self.expected = expected
        #: the line of the record's first tag, when a reader that goes on after errors knows it (a batch's id)
        self.record_line: int | None = None
        #: the value of the record's [Board] tag, when it was read before the fault (a batch's id and error line)
        self.record_board: str | None = None
        super().__init__(self.__str__())

    def __str__(self) -> str:
        text = f"{shown_name(self.source)}:{self.line}:{self.column}: {_cut(self.message, MAX_MESSAGE_LENGTH)}"
        if self.token is not None:
            text += f" (got {_cut(self.token, MAX_TOKEN_LENGTH)!r}"
            text += f", expected {self.expected})" if self.expected else ")"
        elif self.expected:
            text += f" (expected {self.expected})"
        return text


class UnknownGameError(StichError):
    """A game name that no registered game module answers to."""


class UnknownCardError(StichError):
    """A card token that is not in the game's pack."""


class InvalidDealError(StichError):
    """A deal that breaks the pack: duplicated or foreign cards, unequal hands, wrong number of seats."""


class InvalidContractError(StichError):
    """A contract that cannot be played with this deal (bad called card, failed bid check, unknown name).

    ``about`` names the argument of :meth:`Game.rules` at fault when it is not the contract itself (``partner``,
    ``called_suit_led``, ``pagat_announcer``, ``declarer``, ``leader``), so that a file reader can point at its tag.
    """

    def __init__(self, message: str, *, about: str | None = None) -> None:
        super().__init__(message)
        self.about = about


class ContractFormError(InvalidContractError):
    """A contract text of no form the game reads, its message saying the form expected (``unknown Schafkopf
    contract 'Sollo' ... (expected Rufer E|G|S, ...)``): a record's reader points at the tag without adding the
    form a second time, which it adds to every other refusal of the contract."""


class UnknownContractError(ContractFormError):
    """A contract of no name the game knows, kept in its parts (``unknown Schafkopf contract 'Sollo'; did you mean
    'Solo' with a suit? (expected ...)``): a contract guessed from what a player wrote ("Sollo Herz" read as 'Sollo
    H') is refused as the text written, a note on the guess said only where the ``suggestion`` uses it
    (``uses_suit``: 'Solo H', 'Rufer' with another suit; not 'Wenz' for "Farbwenz Herz") or the contract's name is
    one the game reads (``name_known``: "Wenz Herz", the suit being what is wrong), not where the name is another
    game's ("Herz Trump" in Schafkopf)."""

    def __init__(self, game: str, text: str, suggestion: str, expected: str, *, name_known: bool = False,
                 uses_suit: bool = False, note: str = "") -> None:
        super().__init__(f"unknown {game} contract {quoted(text)}{note}{suggestion} (expected {expected})")
        self.game = game
        self.text = text
        self.suggestion = suggestion
        self.expected = expected
        self.name_known = name_known
        self.uses_suit = uses_suit
        self.note = note

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its parts, as a worker process (match pool, batch, Dask) sends it back: the default rebuilds
        an exception from its message alone, which is not these parts."""
        rebuild = functools.partial(type(self), name_known=self.name_known, uses_suit=self.uses_suit,
                                    note=self.note)
        return rebuild, (self.game, self.text, self.suggestion, self.expected), self.__dict__


class ForeignObjective(InvalidContractError):
    """An objective of another game than the position's (``-o schneider`` on a Zwanzigerrufen record): the same for
    every contract of ``game``, so a command reading records says it once a game as ``bare``, which offers the game's
    objectives, where the message offers the contract's."""

    def __init__(self, message: str, *, bare: str, game: str) -> None:
        super().__init__(message)
        self.bare = bare
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt with its keywords, as a worker process sends it back (the default passes the message alone)."""
        return functools.partial(type(self), bare=self.bare, game=self.game), self.args, self.__dict__


class VariantError(StichError):
    """An unknown variant flag, or a value the flag does not take. ``pair``: the index of the pair at fault in a
    ``NAME=VALUE, ...`` text (a flag named twice, a pair not of that form), so a ``[Variant]`` tag's message points
    at that pair rather than at the tag's first."""

    def __init__(self, message: str, pair: int | None = None) -> None:
        super().__init__(message)
        self.pair = pair


class FlagGivenTwiceError(VariantError):
    """One variant flag given twice (two pairs of one text, two keys of a mapping): a mistake of its own, not of a
    pair's form, so a ``[Variant]`` tag's message expects each flag once rather than ``NAME=VALUE`` pairs."""


class CommandVariantError(ParseError):
    """A variant flag given with the command or call (``--variant``, ``variant=``) that a record's game refuses:
    pointed at the record's ``[Game]``, whose flags they are not, and the same for every record of that game, so a
    command says it once (``bare``: the flag's own message, ``game``: the game's name)."""

    def __init__(self, bare: str, game: str, **where: Any) -> None:
        super().__init__(f"the variant given with the command or call: {bare}", **where)
        self.bare = bare
        self.game = game


def did_you_mean(word: object, choices: Iterable[str] | Mapping[str, str], cutoff: float = 0.6) -> str:
    """``"; did you mean 'x'?"`` naming the choices closest to a misspelt ``word`` (case aside; ``difflib``'s
    measure, at least ``cutoff``), or ``""`` when none is close: said right after the unknown name, before any list
    of every choice (a long message is cut at its end). A mapping's keys are matched and its values named (an
    alias suggests its game)."""
    names = close_matches(word, choices, cutoff)
    return "; did you mean " + " or ".join(repr(name) for name in names) + "?" if names else ""


def objective_meant(value: str, known: Iterable[str] | Mapping[str, str]) -> str:
    """``"; did you mean ..."`` for an unknown objective: the names it begins (``pagat``: ``pagat_ultimo``,
    ``pagat_beaten``, the bonus by its short name) before any spelt alike, which alone named ``valat``. A mapping's
    keys are matched and its values named (an objective's row title, its name)."""
    word = value.strip().lower()
    shown = dict(known) if isinstance(known, Mapping) else {name: name for name in known}
    begun = list(dict.fromkeys(name for key, name in shown.items() if len(word) >= 3 and key.startswith(word)))
    if not begun:
        return did_you_mean(value, shown)
    return "; did you mean " + " or ".join(repr(name) for name in begun[:3]) + "?"


def close_matches(word: object, choices: Iterable[str] | Mapping[str, str], cutoff: float = 0.6) -> list[str]:
    """The choices :func:`did_you_mean` names for ``word``, at most three, closest first; none for a word spelt
    right (case aside)."""
    from difflib import get_close_matches

    shown = dict(choices) if isinstance(choices, Mapping) else {choice: choice for choice in choices}
    spelled = {key.lower(): name for key, name in shown.items()}
    if str(word).strip().lower() in spelled:
        return []  # spelt right: what is wrong is elsewhere (a contract's other words)
    close = get_close_matches(str(word).strip().lower(), list(spelled), n=5, cutoff=cutoff)
    return list(dict.fromkeys(spelled[key] for key in close))[:3]


class IllegalPlayError(StichError):
    """A card played that is not in the player's hand or that the rules forbid at that moment."""


class UnknownCardPlayError(IllegalPlayError, UnknownCardError):
    """A card to play that is not in the game's pack (a misspelt token, another game's Card, a pack index out of
    range): an :class:`IllegalPlayError`, as everything ``play`` refuses, so that an app catches one class for "not a
    card you can play here", and an :class:`UnknownCardError`, as every card the pack does not know."""


class InvalidPositionError(StichError):
    """A play state, objective or number passed to a solver that no legal play reaches or the engine cannot take
    (cards in two places, hands that do not fit the trick on the table, a trick that breaks the rules, a flag or
    weight out of range)."""


class UnfinishedPlayError(ParseError, InvalidPositionError):
    """A record read from a file or a string (``parse_positions``) whose play stops before the deal is over, asked
    what needs every card played (its score): pointed at the record's place where the play stops, as a ParseError,
    and the InvalidPositionError an app catches for a deal not finished, as a position made by hand is refused."""


class InvalidSeatError(StichError):
    """A seat that is not a whole number from 1 to the deal's seat count, wherever the API takes one (a hand, an
    objective's seat, a declarer, partner or leader, an analysis's seat, known cards, an announcement), or a seat
    given to a question that takes none (a side's objective, the score): one class an app catches for "no such
    seat". The two below are also the classes such a seat raised before, so that an ``except InvalidContractError``
    or ``except InvalidPositionError`` keeps working."""


class InvalidSeatPositionError(InvalidSeatError, InvalidPositionError):
    """A seat out of range asked of a position (``Position.hand``)."""


class InvalidSeatContractError(InvalidSeatError, InvalidContractError):
    """A seat out of range given with a contract or objective (``declarer``, ``partner``, ``leader``, an
    objective's ``seat``): :attr:`InvalidContractError.about` names the argument."""


class EngineError(RuntimeError):
    """An internal fault of the compiled engine. Never raised for bad user input."""


class SearchStopped(TimeoutError):
    """A search stopped before it finished, at its ``time_limit`` or when its ``stop`` event was set (a bot's move
    deadline, another thread's request). No bad input: the engine is still usable, and nothing the stopped search
    half proved is kept."""


def message_kind(text: str, source: object = None) -> str:
    """The kind of a record's message: its text with its place (``source``, ``:line:col``, ``board N``) and its
    quoted tokens and numbers taken out, so that the same error in two records (``seat 2: not a card ... (got
    'XX', ...)`` at line 3 and ``seat 3: ... 'YY'`` at line 8) is one kind and a different error another."""
    if source is not None and str(source):
        text = text.replace(str(source), "")
    return _DIGITS.sub("#", _BOARD.sub("board #", _QUOTED.sub("'?'", text)))


class MessageSieve:
    """Which of a file's record messages are said, one rule for the command line (cli.errors.RecordMessages) and the
    board's page (a file's bad records): the first ``limit`` as they come; past them the first of each kind
    (:func:`message_kind`, or the caller's ``kind``) not met before, up to ``kinds`` kinds, so a different error
    after a systematic one is still said; the rest counted in ``more``. ``every``: each is said."""

    def __init__(self, source: object, limit: int = MAX_RECORD_MESSAGES, kinds: int = MAX_MESSAGE_KINDS,
                 every: bool = False) -> None:
        self.source = source
        self.limit = sys.maxsize if every else limit
        self.kinds_kept = kinds
        self.kinds: set[str] = set()
        self.said = 0
        self.more = 0

    def keep(self, text: str, kind: str | None = None) -> bool:
        """Whether ``text`` is said (counted in ``said``), else counted in ``more``. ``kind``: what makes two
        messages the same (:func:`message_kind` of it), where the text says more than its kind."""
        kind = message_kind(text if kind is None else kind, self.source)
        new = kind not in self.kinds and len(self.kinds) < self.kinds_kept
        if new:
            self.kinds.add(kind)
        if self.said < self.limit or new:
            self.said += 1
            return True
        self.more += 1
        return False

    def above(self) -> str:
        """Which messages were said, for the closing line's brackets: ``the first 20 are above``, and ``, and M after
        them, each the first of its kind`` where such were said."""
        above = f"the first {self.limit} are above"
        if self.said > self.limit:
            after = self.said - self.limit
            above += f", and {after:,} after them, {'each the' if after > 1 else 'the'} first of its kind"
        return above
