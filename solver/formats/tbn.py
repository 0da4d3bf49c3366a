"""The tbn deal file format: the syntax layer.

This module turns text into records of tags and card tokens, each with its exact place in the file, and turns records
back into text. It knows nothing about games: which tags are required, what a card is and which seat leads are the
game layer's business. Keeping the two apart lets the game layer point every error of its own (a foreign card in
``[Deal "..."]``, an illegal card in the Play section) at the line and column where the user wrote it.

Reading is streaming: files are read line by line and each record is handed out as soon as the blank line after it
(or the end of the input) is read, so a batch of any size needs the memory of one record only. Comments are kept
with the place they stood in, so that ``parse -> format -> parse`` keeps every tag, play token and comment.

The format itself (syntax, limits, error messages) is described in ``docs/format.md``.
"""

from __future__ import annotations

import io
import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Generator, Iterable, Iterator, TextIO

from ..cards import names_a_card
from ..errors import ParseError, StichError, shown_name
from ..files import stream_kind

__all__ = [
    "LINE_END",
    "MAX_BLANK_LINES_AHEAD",
    "MAX_BRACE_COMMENT_LENGTH",
    "MAX_COMMENTS",
    "MAX_COMMENT_CHARS",
    "MAX_LINE_LENGTH",
    "MAX_PLAY_LINES",
    "MAX_RECORD_LENGTH",
    "MAX_TAGS",
    "MAX_TAG_VALUE_LENGTH",
    "Comment",
    "PlaySection",
    "Record",
    "RecordItems",
    "Tag",
    "Token",
    "format_record",
    "iter_records",
    "json_comment_error",
    "no_records_said",
    "parse_records",
    "read_records",
    "write_records",
]

# Limits that keep hostile input from exhausting memory. Each one is named in the error it raises.
MAX_LINE_LENGTH = 100_000  # characters in one line, line break not counted
MAX_TAGS = 1_000  # tags in one record
MAX_PLAY_LINES = 200  # card lines in one Play section
MAX_BRACE_COMMENT_LENGTH = 100_000  # characters of one {...} comment, braces and line breaks included
MAX_COMMENTS = 10_000  # comments in one record
MAX_COMMENT_CHARS = 1_000_000  # characters of all comments of one record together
MAX_TAG_VALUE_LENGTH = 10_000  # characters of one tag value as written (escapes included)
MAX_RECORD_LENGTH = 1_000_000  # characters of one record's lines (line breaks counted), comments before it included
MAX_BLANK_LINES_AHEAD = 1_000  # blank lines iter_records(first=N) reads after its last record (its own end among them)

_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_SPECIAL = '[]{}"%;'  # characters that can never be part of a card token
_LINE_COMMENT_STARTS = "%;"
_RECORD_STARTS = ("[", "%", ";", "{")  # what the first line of a record may begin with
_READ_LIMIT = 4 * MAX_LINE_LENGTH + 2  # a line of MAX_LINE_LENGTH 4-byte characters and a CR LF still fits
#: Past this many characters (bytes) an overlong line is not skipped to its end: the reading of the stream stops, so
#: that an endless one (/dev/zero, a stream with no line break) cannot take unbounded time.
MAX_SKIPPED_LINE_LENGTH = 10 * MAX_RECORD_LENGTH


# ---------------------------------------------------------------------------------------------------------------------
# Data model


@dataclass(frozen=True)
class Token:
    """A word of the input with its place, so that an error about it can point at it."""

    text: str
    line: int  # 1-based
    column: int  # 1-based, counted in characters


@dataclass
class Tag:
    """One ``[Name "value"]`` pair.

    ``line``/``column`` give the place of the ``[``; ``value_line``/``value_column`` the place of the first character
    of the value, so that a word inside the value can be located (see :meth:`words`). Tags made by a program carry 0.
    """

    name: str
    value: str
    line: int = 0
    column: int = 0
    value_line: int = 0
    value_column: int = 0
    raw: str | None = field(default=None, repr=False, compare=False)  # the value as written, escapes included
    _offsets: tuple | None = field(default=None, init=False, repr=False, compare=False)

    def _value_offsets(self) -> list[int]:
        """:func:`_raw_offsets`, computed once per value: the game layer asks for the place of every word of a
        ``[Deal]``, and computing them afresh each time made a long value cost quadratic time."""
        cached = self._offsets
        if cached is None or cached[0] is not self.value or cached[1] is not self.raw:
            cached = self._offsets = (self.value, self.raw, _raw_offsets(self))
        return cached[2]

    def words(self) -> list[Token]:
        """The whitespace-separated words of the value (as ``str.split()`` finds them), each with its file place."""
        offsets = self._value_offsets()
        words = []
        value = self.value
        i = 0
        while i < len(value):
            if value[i].isspace():
                i += 1
                continue
            start = i
            while i < len(value) and not value[i].isspace():
                i += 1
            words.append(Token(value[start:i], self.value_line, self.value_column + offsets[start]))
        return words

    def position(self, offset: int) -> tuple[int, int]:
        """The (line, column) of the value's character number ``offset`` (0-based) in the file.

        Escapes make the written value longer than the value itself, so plain addition would drift after a ``\\"``.
        ``offset == len(value)`` gives the place of the closing quote.
        """
        offsets = self._value_offsets()
        if not 0 <= offset < len(offsets):
            raise IndexError(f"offset {offset} outside the value of tag {self.name}")
        return self.value_line, self.value_column + offsets[offset]


@dataclass
class PlaySection:
    """The cards played, one list per card line, in the order written."""

    leader: Token  # the value of [Play "N"] (the seat as written) with its place
    tricks: list[list[Token]] = field(default_factory=list)  # a partial last line is a trick in progress
    terminated: bool = False  # True when a '*' ended the section


@dataclass
class Comment:
    """A comment, kept with its place in the record so that writing the record puts it back there.

    ``text`` is the comment as written, delimiters included: ``% note``, ``; note`` or ``{note}``.
    ``after_tags`` counts the record's tags written before it. Inside the Play section, ``play_line`` is the card
    line it stands in (or before, when it has a line of its own) and ``play_token`` counts that line's cards before
    it; outside the Play section ``play_line`` is None.
    """

    text: str
    line: int = 0
    column: int = 0
    after_tags: int = 0
    play_line: int | None = None
    play_token: int = 0


@dataclass
class Record:
    """One game record: its tags in file order, its Play section and its comments."""

    tags: list[Tag]
    play: PlaySection | None = None
    source: str = "<string>"
    line: int = 0  # line of the first tag
    comments: list[Comment] = field(default_factory=list)
    #: another record (or a bad one) comes before it in its input: a blank line may have cut it from that one's tags
    follows_record: bool = field(default=False, compare=False)

    def tag(self, name: str) -> Tag | None:
        """The tag called ``name`` (case-insensitive), or None."""
        key = name.lower()
        for tag in self.tags:
            if tag.name.lower() == key:
                return tag
        return None

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of the tag called ``name`` (case-insensitive), or ``default``."""
        tag = self.tag(name)
        return default if tag is None else tag.value

    @property
    def board(self) -> str:
        """The ``[Board]`` tag as ``--board`` picks a record by it: without the spaces around it (``" 7"`` is board
        7), empty where there is none."""
        return (self.get("Board") or "").strip()

    def set(self, name: str, value: str) -> None:
        """Give tag ``name`` the value ``value``: in place (keeping its spelling and position) or appended.

        Setting ``Play`` also sets the leader of the Play section (creating an empty one if there is none), so that
        the tag and the section never disagree.
        """
        _check_tag_name(name)
        _check_tag_value(name, value)
        tag = self.tag(name)
        if tag is None:
            tag = Tag(name, value)
            self.tags.append(tag)
        else:
            tag.value = value
            tag.raw = None
        if name.lower() == "play":
            leader = _leader(tag)
            if self.play is None:
                self.play = PlaySection(leader)
            else:
                self.play.leader = leader

    def remove(self, name: str) -> None:
        """Remove the tag called ``name`` (case-insensitive) if present; removing ``Play`` drops the Play section.

        Comments keep standing where they stood: those after the removed tag move one place up, and comments that
        stood inside a removed Play section become plain comments after the tag before it.
        """
        key = name.lower()
        for index, tag in enumerate(self.tags):
            if tag.name.lower() == key:
                break
        else:
            return
        del self.tags[index]
        for comment in self.comments:
            if comment.after_tags > index:
                comment.after_tags -= 1
                if key == "play" and comment.play_line is not None:
                    comment.play_line = None
                    comment.play_token = 0
        if key == "play":
            self.play = None

    def value_token(self, name: str, index: int) -> Token:
        """The ``index``-th word of tag ``name``'s value with its exact place in the file.

        This is how the game layer points an error at one card inside ``[Deal "..."]``. Raises KeyError when the tag
        is missing and IndexError when the value has fewer words.
        """
        tag = self.tag(name)
        if tag is None:
            raise KeyError(name)
        return tag.words()[index]


def _raw_offsets(tag: Tag) -> list[int]:
    """For each character of the value, its offset in the value as written; one more entry for the closing quote.

    A stale ``raw`` (the value was changed by a program) is ignored, and the escaped form is used instead.
    """
    raw = tag.raw if tag.raw is not None and _unescape(tag.raw) == tag.value else _escape(tag.value)
    offsets = []
    i = 0
    while i < len(raw):
        offsets.append(i)
        i += 2 if raw[i] == "\\" and i + 1 < len(raw) and raw[i + 1] in '"\\' else 1
    offsets.append(len(raw))
    return offsets


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(raw: str) -> str:
    out = []
    i = 0
    while i < len(raw):
        if raw[i] == "\\" and i + 1 < len(raw) and raw[i + 1] in '"\\':
            out.append(raw[i + 1])
            i += 2
        else:
            out.append(raw[i])
            i += 1
    return "".join(out)


def _leader(tag: Tag) -> Token:
    """The Play tag's value as a token: the seat as written, surrounding spaces left out."""
    text = tag.value.strip()
    if not text:
        return Token("", tag.value_line, tag.value_column)
    lead = len(tag.value) - len(tag.value.lstrip())
    return Token(text, *tag.position(lead))


#: One hand of a bridge deal as PBN writes it: four suits split by dots (``AKQ.J98.T7.6543``), or ``-`` (not given).
_BRIDGE_HAND = r"(?:(?:[^\s./]*\.){3}[^\s./]*|-)"
#: A bridge deal as PBN writes it (``N:AKQ.J98.T7.6543 - ...``): a compass seat, then its hands.
_BRIDGE_DEAL = re.compile(rf"\s*[NESW]\s*:\s*{_BRIDGE_HAND}(?:\s+{_BRIDGE_HAND})*\s*", re.IGNORECASE)


def is_bridge_deal(value: str) -> bool:
    """Whether a [Deal] tag's value is a bridge deal (PBN's, a file another program wrote): at least one hand given."""
    return "." in value and _BRIDGE_DEAL.fullmatch(value) is not None


def bridge_deal_said() -> str:
    """What a record with no [Game] tag and a bridge deal is told, wherever its reading stops first (a bridge PBN
    record's [Auction] section here, its missing [Game] tag in :mod:`solver.position`): what the file is, not only
    the tag a record of stich's has. The games are not listed: the reader sits below them (``stich deal --help``
    and ``solver.GAMES`` name them)."""
    return ("the record has no [Game] tag, and its deal is a bridge deal (PBN: hands by suit, separated by dots), "
            "a game stich does not play")


#: What a record with a bridge deal was expected to have (:func:`bridge_deal_said`).
BRIDGE_DEAL_EXPECTED = ("a [Game \"...\"] tag naming one of stich's games (`stich deal --help` names them) and a "
                        "deal of that game's cards")


def _shorten(text: str | None, limit: int = 40) -> str | None:
    """Keep error messages readable when the offending token is a whole long line."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + "..."


# ---------------------------------------------------------------------------------------------------------------------
# Lexer: one physical line into tags, words and comments


#: What every file of JSON given for records is said as, before what JSON it is (:func:`_json_error`).
JSON_NOT_RECORDS = "the file holds JSON, not TBN records"

#: What to give instead of JSON that is not stich's own output (deals a user wrote as JSON).
TBN_EXPECTED = 'TBN records such as [Game "Schafkopf"] [Deal "..."] (docs/format.md; stich deal writes some)'

#: What to give instead of stich's own JSON output given back, and what reads that JSON.
STICH_JSON_EXPECTED = ("the TBN records it was made from (jq reads the JSON; batch reads its own --out on a rerun, "
                       "bench --compare a saved run)")

#: A key line that starts as stich's own JSON does (``"schema": "stich-bench/1",``), for one that does not read as JSON
#: on its own (:func:`_key_line_ours`).
_STICH_SCHEMA = re.compile(r'\s*"schema"\s*:\s*"stich-')

#: How much of a line of JSON an error shows, cut after its last whole ``key: value`` within it (:func:`_json_shown`).
_JSON_SHOWN = 40


def _json_shown(text: str) -> str:
    """The JSON ``text`` as an error shows it: whole where it is short, else cut after the last ',' within the first
    :data:`_JSON_SHOWN` characters (after a whole ``key: value``, so it never ends in a value's opening ``"``, which
    would read as a placeholder), or at that length where no ',' is."""
    text = text.strip()
    if len(text) <= _JSON_SHOWN:
        return text
    cut = text.rfind(",", 0, _JSON_SHOWN)
    if cut <= 0:
        return text[:_JSON_SHOWN] + "..."
    end = cut + 2 if text[cut + 1:cut + 2] == " " else cut + 1
    return text[:end] + "..."


def _json_error(source: str, line: int, column: int, shown: str, *, ours: bool, array: bool = False) -> ParseError:
    """A file of JSON where records are expected, said one way wherever it is found (a line reading fails on, or an
    input of brace comments alone): :data:`JSON_NOT_RECORDS`, then what it is (stich's own output where ``ours``,
    else an array or an object), with the JSON ``shown`` from ``line``:``column`` and what to give instead."""
    what = "stich's own output" if ours else "an array" if array else "an object"
    return ParseError(f"{JSON_NOT_RECORDS}: {what}", source=source, line=line, column=column,
                      token=_json_shown(shown), expected=STICH_JSON_EXPECTED if ours else TBN_EXPECTED)


def _json_object(text: str) -> dict | None:
    """``text`` as a JSON object with at least one key (``{"schema": ...}``, a line of stich's JSON output, a saved
    bench run), else None: asked only where reading already failed, or no record was found, since such text is
    also a legal brace comment (``{}`` never counts: an empty comment)."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) and value else None


def _is_ours(value: dict) -> bool:
    """Whether a JSON object is stich's own output: its ``schema`` is stich's (``"stich-result/1"``, ...)."""
    return str(value.get("schema", "")).startswith("stich-")


def _key_line_ours(text: str) -> bool:
    """Whether the key line after an indented object's '{' says the object is stich's own output (:func:`_is_ours`):
    read as JSON where it is whole keys and values, else by its start (a value that opens an object or array)."""
    value = _json_object("{" + text.strip().rstrip(",") + "}")
    return _is_ours(value) if value is not None else _STICH_SCHEMA.match(text) is not None


#: The opening of a JSON array: of objects or arrays (``[{...}, ...]``, ``[[...], ...]``), or of numbers, strings
#: or literals that go on past the first (``[1,``, ``["EO GO",``): what a user who writes deals as JSON writes
#: first. No tag starts so (``[[Word`` is a doubled bracket before a tag, not an array).
_JSON_ARRAY = re.compile(r'\s*\[\s*(?:\{|\[(?!\s*[A-Za-z_])|(?:-?\d[\d.eE+-]*|"(?:[^"\\]|\\.)*"|true|false|null)\s*,)')

#: A '[' alone on its line: a JSON array's opening where the next line goes on as one (:data:`_JSON_ARRAY_ITEM`).
_BARE_BRACKET = re.compile(r"\s*\[\s*$")

#: The start of a line that goes on as a JSON array after its '[' alone: an object, an array (not ``[Word``, a
#: tag), a string, a number or the array's ']'.
_JSON_ARRAY_ITEM = re.compile(r'\s*(?:[{"\]\d-]|\[(?!\s*[A-Za-z_]))')


def _is_json_array(text: str, ahead: Callable[[int], str | None]) -> bool:
    """Whether the line ``text``, where reading failed before any tag, opens a JSON array: it starts as one
    (:data:`_JSON_ARRAY`), is one whole (``[]``, ``[1, 2, 3]``, ``["EO", "GO"]``), or is a '[' alone and the line
    after it (``ahead(0)``) goes on as one (``ahead`` gives None where that line has not arrived: a terminal where it
    is not typed yet, a pipe whose writer waits for an answer; it is not waited for). A single string (``["x"]``) is
    what a tag without its name looks like, and is said as that tag."""
    if _JSON_ARRAY.match(text):
        return True
    if _BARE_BRACKET.match(text):
        after = ahead(0)
        return after is not None and _JSON_ARRAY_ITEM.match(after) is not None
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, list) and not (len(value) == 1 and isinstance(value[0], str))


def _json_instead(error: ParseError, source: str, number: int, text: str, opening: list[tuple[int, str]],
                  tagged: bool, ahead: Callable[[int], str | None]) -> ParseError:
    """``error``, or the JSON error where reading failed before any tag on JSON: the failing line ``text`` is a JSON
    object (a ``--json`` or ``batch --out`` line, nested, so no brace comment) or opens a JSON array
    (:func:`_is_json_array`, with the line after it where it needs that), or the file's
    ``opening`` lines are a '{' alone and a JSON key (an indented saved bench run, whose first inner '}' ended the
    brace comment) and the failing line goes on as JSON does. A legal brace comment never fails, so it is never told
    JSON; else the CSV error where it is CSV (:func:`_csv_instead`, with the lines ``ahead``)."""
    if tagged:
        return error
    value = _json_object(text)
    if value is not None:
        return _json_error(source, number, text.index("{") + 1, text, ours=_is_ours(value))
    if opening and number != opening[0][0] and _JSON_GOES_ON.match(text):
        line, first = opening[0]
        if first.strip() == "{" and len(opening) == 2 and _JSON_KEY.match(opening[1][1]):
            return _json_error(source, line, first.index("{") + 1, first, ours=_key_line_ours(opening[1][1]))
        if _JSON_OBJECT_START.match(first):  # its first key on the '{' line, a value that opens an array or object
            return _json_error(source, line, first.index("{") + 1, first,
                               ours=_key_line_ours(first[first.index("{") + 1:]))
    if _is_json_array(text, ahead):
        return _json_error(source, number, text.index("[") + 1, text, ours=False, array=True)
    return _csv_instead(error, source, number, text, opening, ahead)


def json_comment_error(source: str, comments: Iterable[Comment]) -> ParseError | None:
    """The JSON error (:func:`_json_error`) of an input that held ``comments`` alone (:class:`RecordItems`'
    ``comments_alone``) where one of them is a JSON object, or None where none is: flat JSON lines, or one flat
    indented object, are legal TBN, each object a brace comment, so they read as no record. Said at the first, shown
    as written where it is one line, else by its first line, as a failed reading shows an indented object."""
    for comment in comments:
        value = _json_object(comment.text) if comment.text[:1] == "{" else None
        if value is not None:
            return _json_error(source, comment.line, comment.column, comment.text.split("\n", 1)[0],
                               ours=_is_ours(value))
    return None


#: What an input that holds no record and no JSON is said as, after its name (:func:`no_records_said`).
NO_RECORDS = 'no records (empty, or only comments; a record starts with tags such as [Game "Schafkopf"] [Deal "..."])'


def no_records_said(source: str, comments: Iterable[Comment] = (), lines_read: int | None = None) -> str:
    """What every command, and the board, says of an input that holds no record: the JSON error where its
    ``comments`` (:class:`RecordItems`' ``comments_alone``) are JSON (:func:`json_comment_error`), else that it is
    empty or only comments, and what a record starts with (said alike of a file, standard input and a board paste).
    A command says it at the last line read (``lines_read``, :class:`RecordItems`'), where reading ended (``1:1`` for
    an empty input); the board, given none, without a place, so that its paste dialog does not put a caret in a box
    with nothing to mend."""
    error = json_comment_error(source, comments)
    if error is not None:
        return str(error)
    shown = shown_name(source)
    return f"{shown}: {NO_RECORDS}" if lines_read is None else f"{shown}:{max(lines_read, 1)}:1: {NO_RECORDS}"


#: A JSON object's key at a line's start (``  "schema": ...``): the line after an indented document's '{'.
_JSON_KEY = re.compile(r'\s*"(?:[^"\\]|\\.)*"\s*:')

#: A JSON object's first line that holds its first key and goes on over the next lines (``{"deals": [``,
#: ``{ "a": {``, ``{ "a":``): a brace comment's start, which the first inner '}' ends.
_JSON_OBJECT_START = re.compile(r'\s*\{\s*"(?:[^"\\]|\\.)*"\s*:(?:.*[\[{,])?\s*$')

#: A line that goes on as JSON inside a document: a key or string, a closing or opening bracket or brace (not
#: ``[Word``, a tag), a ',', a number or a literal.
_JSON_GOES_ON = re.compile(r'\s*(?:["{}\],\d-]|\[(?!\s*[A-Za-z_])|(?:true|false|null)\b)')

#: What every file of CSV given for records is said as, before what separates its values (:func:`_csv_instead`).
CSV_NOT_RECORDS = "the file holds CSV, not TBN records"

#: The separators of values a spreadsheet exports, with how each is said.
_CSV_SEPARATORS = ((",", "values separated by commas"), (";", "values separated by semicolons"),
                   ("\t", "values separated by tabs"))


def _csv_values(text: str, separator: str) -> list[str]:
    """The values of the CSV row ``text`` (quoted values may hold the separator). :mod:`csv` is imported here, for
    a file that is no TBN: reading records needs none of it."""
    import csv

    return next(csv.reader([text], delimiter=separator), [])


#: The fewest values a line of CSV holds, and the lines (where the input has them) that hold as many: two values a
#: line are prose with a comma as often.
_CSV_LEAST_VALUES, _CSV_LINES = 3, 3
#: The blank lines among those that are passed over (a spreadsheet's export may have one after its header).
_CSV_BLANK_LINES = 2


def _csv_instead(error: ParseError, source: str, number: int, text: str, opening: list[tuple[int, str]],
                 ahead: Callable[[int], str | None]) -> ParseError:
    """``error``, or the CSV error where reading failed on an input's first line and it is CSV (a spreadsheet's
    export, ``Board,North,East,...``): that line holds no '[' nor '{', and it and the next lines, up to
    :data:`_CSV_LINES` where the input has them, split into the same count of values, three or more, at commas,
    semicolons or tabs, most of which name no card (hands written with commas, ``EA, EO, E9``, are cards before any
    tag); blank lines among them, :data:`_CSV_BLANK_LINES` at most, are passed over. A single line is not told, nor
    one whose next lines have not arrived (``ahead`` gives None for them: a terminal, a pipe kept open), which reading
    answers as it arrives."""
    if not opening or number != opening[0][0] or "[" in text or "{" in text:
        return error
    rows, blanks, index = [text], 0, 0
    while len(rows) < _CSV_LINES:
        after = ahead(index)
        index += 1
        if after is None or not after.strip() and blanks == _CSV_BLANK_LINES:
            break
        if after.strip():
            rows.append(after)
        else:
            blanks += 1  # a blank line among them is no line of values
    if len(rows) < 2:
        return error
    for separator, what in _CSV_SEPARATORS:
        values = [_csv_values(row, separator) for row in rows]
        counts = {len(row) for row in values}
        if len(counts) == 1 and counts.pop() >= _CSV_LEAST_VALUES and not any(
                2 * sum(names_a_card(value) for value in row) > len(row) for row in values):
            return ParseError(f"{CSV_NOT_RECORDS}: {what}", source=source, line=number,
                              column=len(text) - len(text.lstrip()) + 1, token=_json_shown(text),
                              expected=TBN_EXPECTED)
    return error


@dataclass
class _OpenBrace:
    """A {...} comment that has not been closed on the line it started on."""

    line: int
    column: int
    parts: list[str]
    length: int


class _Lexer:
    """Splits lines into events: :class:`Tag`, :class:`Token` (a word) and :class:`Comment`.

    The only state carried from line to line is an open brace comment.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.brace: _OpenBrace | None = None

    def error(self, message: str, line: int, index: int, token: str | None, expected: str | None) -> ParseError:
        """A ParseError at 0-based ``index`` of ``line``."""
        return ParseError(
            message, source=self.source, line=line, column=index + 1, token=_shorten(token), expected=expected
        )

    def unclosed_brace(self) -> ParseError:
        brace = self.brace
        assert brace is not None
        return ParseError(
            "unclosed brace comment",
            source=self.source,
            line=brace.line,
            column=brace.column,
            token=_shorten(brace.parts[0], 20),
            expected="a closing '}' before the next blank line",
        )

    def blank_line(self) -> None:
        """A blank line always ends a record, so it may not stand inside a brace comment."""
        if self.brace is not None:
            raise self.unclosed_brace()

    def end(self) -> None:
        if self.brace is not None:
            raise self.unclosed_brace()

    def line(self, number: int, text: str) -> list[Tag | Token | Comment]:
        events: list[Tag | Token | Comment] = []
        i = self._continue_brace(number, text, 0, events) if self.brace is not None else 0
        while i < len(text):
            char = text[i]
            if char.isspace():
                i += 1
            elif char == "{":
                self.brace = _OpenBrace(number, i + 1, [], 0)
                i = self._continue_brace(number, text, i, events)
            elif char in _LINE_COMMENT_STARTS:
                events.append(Comment(text[i:], number, i + 1))
                break
            elif char == "[":
                tag, i = self._tag(number, text, i)
                events.append(tag)
            elif char == "}":
                raise self.error("'}' without a '{'", number, i, char, "a tag, a card or a comment")
            elif char in ']"':
                first = events[0] if len(events) == 1 else None
                if char == '"' and isinstance(first, Token) and _TAG_NAME.fullmatch(first.text) \
                        and text.rstrip().endswith("]"):  # 'Game "x"]'
                    raise self.error("a tag without its '['", number, first.column - 1, first.text,
                                     "'[' before the tag name")
                raise self.error(f"unexpected {char!r} outside a tag", number, i, char, "a tag, a card or a comment")
            else:
                end = _word_end(text, i)
                events.append(Token(text[i:end], number, i + 1))
                i = end
        return events

    def _continue_brace(self, number: int, text: str, start: int, events: list) -> int:
        """Add this line's part of the open brace comment; emit the comment when its '}' is on this line."""
        brace = self.brace
        assert brace is not None
        close = text.find("}", start)
        piece = text[start:] if close < 0 else text[start : close + 1]
        brace.length += len(piece) + (1 if brace.parts else 0)
        if brace.length > MAX_BRACE_COMMENT_LENGTH:
            raise ParseError(
                f"brace comment longer than {MAX_BRACE_COMMENT_LENGTH} characters",
                source=self.source,
                line=brace.line,
                column=brace.column,
                token=_shorten(brace.parts[0] if brace.parts else piece, 20),
                expected=f"a closing '}}' within {MAX_BRACE_COMMENT_LENGTH} characters",
            )
        brace.parts.append(piece)
        if close < 0:
            return len(text)
        events.append(Comment("\n".join(brace.parts), brace.line, brace.column))
        self.brace = None
        return close + 1

    def _tag(self, number: int, text: str, start: int) -> tuple[Tag, int]:
        """Read ``[Name "value"]`` from ``start`` (the '['); return the tag and the index after its ']'."""
        i = _skip_space(text, start + 1)
        name_start = i
        while i < len(text) and not text[i].isspace() and text[i] not in '"]':
            i += 1
        name = text[name_start:i]
        if not name:
            got = text[name_start] if name_start < len(text) else None
            raise self.error("empty tag name", number, name_start, got, "a tag name (letters, digits, '_')")
        if not _TAG_NAME.fullmatch(name):
            raise self.error("tag name is not a word", number, name_start, name, "letters, digits or '_'")
        i = _skip_space(text, i)
        if i >= len(text) or text[i] != '"':
            got = text[i:_word_end(text, i + 1)] if i < len(text) else None
            raise self.error(f"missing '\"' before the value of tag {name}", number, i, got, "'\"'")
        quote = i
        close = _closing_quote(text, quote + 1)
        if close < 0:
            raise self.error("unterminated tag value", number, quote, text[quote:], "a closing '\"'")
        raw = text[quote + 1 : close]
        if len(raw) > MAX_TAG_VALUE_LENGTH:
            raise self.error(
                f"value of tag {name} longer than {MAX_TAG_VALUE_LENGTH} characters", number,
                quote + 1 + MAX_TAG_VALUE_LENGTH, None, f"at most {MAX_TAG_VALUE_LENGTH} characters",
            )
        i = _skip_space(text, close + 1)
        if i >= len(text) or text[i] != "]":
            got = text[i:_word_end(text, i + 1)] if i < len(text) else None
            raise self.error(f"missing ']' after the value of tag {name}", number, i, got, "']'")
        tag = Tag(name, _unescape(raw), number, start + 1, number, quote + 2, raw=raw)
        return tag, i + 1


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _word_end(text: str, i: int) -> int:
    """Index after the card token starting at ``i``: it runs to whitespace or a character of the syntax."""
    while i < len(text) and not text[i].isspace() and text[i] not in _SPECIAL:
        i += 1
    return i


def _closing_quote(text: str, i: int) -> int:
    """Index of the quote that ends a tag value starting at ``i``, skipping ``\\"`` and ``\\\\``; -1 if none."""
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '"\\':
            i += 2
        elif text[i] == '"':
            return i
        else:
            i += 1
    return -1


# ---------------------------------------------------------------------------------------------------------------------
# Builder: events into one record

_TAGS, _PLAY, _AFTER_PLAY = "tags", "play", "after play"


class _Builder:
    """Collects the events of one record and checks the record-level rules (order, duplicates, limits)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.tags: list[Tag] = []
        self.first: dict[str, Tag] = {}
        self.comments: list[Comment] = []
        self.comment_chars = 0
        self.play: PlaySection | None = None
        self.state = _TAGS
        self.line_open = False  # a card line is in progress (its physical line, or a brace comment on it, goes on)
        self.star_line = 0  # physical line of the '*' that ended the Play section
        self.after_open_play = False  # the record before ended, at a blank line, in a Play section without '*'
        self.follows_record = False  # a record (or a bad one) came before this one

    def error(self, message: str, line: int, column: int, token: str | None, expected: str | None) -> ParseError:
        return ParseError(
            message, source=self.source, line=line, column=column, token=_shorten(token), expected=expected
        )

    def feed(self, events: list[Tag | Token | Comment], continues: bool) -> None:
        """Take the events of one physical line. Tags and cards may not share a line.

        ``continues`` is true when the line ends inside a brace comment: a card line then goes on after the comment,
        so that a long remark does not split a trick in two.
        """
        kind = None
        for event in events:
            if isinstance(event, Tag):
                if kind == "cards":
                    raise self.error(
                        "a tag after cards on the same line", event.line, event.column, "[" + event.name,
                        "a card, '*' or a new line",
                    )
                kind = "tag"
                self.add_tag(event)
            elif isinstance(event, Token):
                if kind == "tag":
                    raise self.error(
                        "unexpected text after a tag", event.line, event.column, event.text,
                        "another tag, a comment or a new line",
                    )
                kind = "cards"
                self.add_card(event)
            else:
                self.add_comment(event)
        if not continues:
            self.line_open = False

    def add_tag(self, tag: Tag) -> None:
        key = tag.name.lower()
        first = self.first.get(key)
        if first is not None:
            hint = " (a blank line between two records missing?)" if key == "game" else ""
            raise self.error(
                f"duplicate tag {tag.name}, first at line {first.line}{hint}", tag.line, tag.column, tag.name,
                "each tag once per record",
            )
        if len(self.tags) >= MAX_TAGS:
            raise self.error(
                f"more than {MAX_TAGS} tags in one record", tag.line, tag.column, tag.name,
                f"at most {MAX_TAGS} tags",
            )
        if self.state == _PLAY:
            self.state = _AFTER_PLAY  # a tag ends the Play section, which stays unterminated
        self.tags.append(tag)
        self.first[key] = tag
        if key == "play":
            self.play = PlaySection(_leader(tag))
            self.state = _PLAY

    def add_card(self, token: Token) -> None:
        if not self.tags:
            why = " (a blank line ends a record: one inside the Play section above?)" if self.after_open_play else ""
            raise self.error(f"cards before any tag{why}", token.line, token.column, token.text,
                             "a tag such as [Game \"...\"]")
        if self.state == _TAGS:
            deal = self.first.get("deal")
            if deal is not None and "game" not in self.first and is_bridge_deal(deal.value):
                # a bridge PBN record's [Auction] section (``1S Pass 2H``): the record is said as the bridge deal
                # it is, not as a Play section short of its tag
                raise self.error(bridge_deal_said(), deal.value_line, deal.value_column, deal.value,
                                 BRIDGE_DEAL_EXPECTED)
            raise self.error(
                "Play section without a [Play] tag", token.line, token.column, token.text,
                "a [Play \"seat\"] tag before the card lines",
            )
        if self.state == _AFTER_PLAY:
            if token.line == self.star_line:
                raise self.error("unexpected text after '*'", token.line, token.column, token.text, "a new line")
            raise self.error(
                "cards after the end of the Play section", token.line, token.column, token.text,
                "a tag, a comment or a blank line",
            )
        assert self.play is not None
        if token.text == "*":
            self.play.terminated = True
            self.state = _AFTER_PLAY
            self.star_line = token.line
            self.line_open = False
            return
        if not self.line_open:
            if len(self.play.tricks) >= MAX_PLAY_LINES:
                raise self.error(
                    f"more than {MAX_PLAY_LINES} lines in the Play section", token.line, token.column, token.text,
                    f"at most {MAX_PLAY_LINES} card lines",
                )
            self.play.tricks.append([])
            self.line_open = True
        self.play.tricks[-1].append(token)

    def add_comment(self, comment: Comment) -> None:
        """Keep the comment with its place: after how many tags, and where in the Play section."""
        self.comment_chars += len(comment.text)
        if len(self.comments) >= MAX_COMMENTS or self.comment_chars > MAX_COMMENT_CHARS:
            raise self.error(
                f"more than {MAX_COMMENTS} comments or {MAX_COMMENT_CHARS} characters of comments in one record",
                comment.line, comment.column, _shorten(comment.text, 20), "fewer comments",
            )
        comment.after_tags = len(self.tags)
        if self.state == _PLAY:
            assert self.play is not None
            tricks = self.play.tricks
            if self.line_open:
                comment.play_line, comment.play_token = len(tricks) - 1, len(tricks[-1])
            else:
                comment.play_line, comment.play_token = len(tricks), 0
        self.comments.append(comment)

    def finish(self) -> Record:
        return Record(self.tags, self.play, self.source, self.tags[0].line, self.comments, self.follows_record)


def _attach_trailing(record: Record, comments: list[Comment]) -> None:
    """Comments after the last record belong to it: they go to its end, where writing it puts them back."""
    play = record.play
    open_play = (
        play is not None and not play.terminated and bool(record.tags) and record.tags[-1].name.lower() == "play"
    )
    for comment in comments:
        comment.after_tags = len(record.tags)
        comment.play_line = len(play.tricks) if open_play and play is not None else None
        comment.play_token = 0
        record.comments.append(comment)


# ---------------------------------------------------------------------------------------------------------------------
# Reading


def read_records(source: str | os.PathLike | IO, *, name: str | None = None) -> Iterator[Record]:
    """Yield the records of a file, a path or an open stream, each as soon as it is complete.

    A path (``str`` or ``os.PathLike``) is opened as UTF-8 bytes; a stream may give text or bytes (bytes give exact
    places for encoding errors). The first syntax error raises :class:`ParseError` and ends the reading.
    """
    with _opened(source, name) as (stream, label):
        yield from _read(stream, label, recover=False)  # type: ignore[misc]


class RecordItems(Iterator["Record | ParseError"]):
    """What :func:`iter_records` returns: its items, one by one, and once they have run out, ``comments_alone``: the
    comments of an input that held nothing else (no record, no error; empty otherwise), and ``lines_read``: the
    lines of such an input (0 otherwise), where its "no records" is said (:func:`no_records_said`). A file of JSON
    lines is such an input, each line a legal brace comment: a command's "no records" says so."""

    def __init__(self, source: str | os.PathLike | IO, name: str | None = None, first: int | None = None) -> None:
        if first is not None and (not isinstance(first, int) or isinstance(first, bool) or first < 0):
            raise StichError(f"first is a count of records, 0 or more, not {first!r}")
        self.comments_alone: list[Comment] = []
        self.lines_read = 0
        self._items = self._read(source, name, first)

    def _read(self, source: str | os.PathLike | IO, name: str | None,
              first: int | None) -> Generator[Record | ParseError, None, None]:
        """The items, from ``source`` opened at the first one asked (a path is closed when they end)."""
        with _opened(source, name) as (stream, label):
            yield from _read(stream, label, recover=True, first=first, alone=self)

    def __next__(self) -> Record | ParseError:
        return next(self._items)

    def close(self) -> None:
        """Stop reading: a path the reader opened is closed (as a generator's ``close`` does)."""
        self._items.close()


def iter_records(source: str | os.PathLike | IO, *, name: str | None = None,
                 first: int | None = None) -> RecordItems:
    """Like :func:`read_records`, but a bad record is yielded as its ParseError and reading goes on.

    After an error the reader skips the rest of the bad record, to the next blank line, and reads on from there as
    anywhere between records: one bad record costs only itself in a batch, and stray text after it (a line that
    starts no record) is reported at its line and column as it is after a good record, not skipped unsaid.

    ``first``: only the first that many items are yielded. The input is then read on, once the last is asked past,
    only to give that record the comments that end the input, if they do (where a whole reading puts them): from a
    regular file alone (a pipe, a terminal or a socket would keep it waiting on its writer), over comments and at
    most :data:`MAX_BLANK_LINES_AHEAD` blank lines (the one that ends that record among them), up to the first line
    of anything else. Standard input redirected from a file is that regular file, and is read on too.
    """
    return RecordItems(source, name, first)


def parse_records(text: str, *, name: str = "<string>") -> list[Record]:
    """All records of ``text``; raises ParseError at the first syntax error."""
    if not isinstance(text, str):
        raise StichError(f"records are parsed from a string, not {type(text).__name__}")
    _check_name(name)
    return list(_read(io.StringIO(text, newline="\n"), name, recover=False))  # type: ignore[arg-type]


@contextmanager
def _opened(source: str | os.PathLike | IO, name: str | None) -> Iterator[tuple[IO, str]]:
    """Open a path (and close it afterwards); a stream given by the caller is used and left open. A read that fails
    (an I/O error, a file such as /proc/self/mem) names the file, as a failed open does."""
    _check_name(name)
    if isinstance(source, (str, os.PathLike)):
        label = name or str(os.fspath(source))
    elif callable(getattr(source, "readline", None)):
        label = name or _stream_name(source)
    else:
        raise StichError(f"a deal file is read from a path or an open stream, not {type(source).__name__} "
                         "(parse_positions reads a string of records)")
    try:
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as stream:
                yield stream, label
        else:
            yield source, label  # type: ignore[misc]
    except OSError as error:
        if error.filename is None and error.errno is not None:
            raise type(error)(error.errno, error.strerror, label) from None
        raise


def _check_name(name: object) -> None:
    """The ``name`` a source is shown by in messages: text, or None for the path's or stream's own."""
    if name is not None and not isinstance(name, str):
        raise StichError(f"a source's name is text (shown in messages), not {name!r}")


def _stream_name(stream: IO) -> str:
    stream_name = getattr(stream, "name", None)
    return stream_name if isinstance(stream_name, str) else "<stream>"


def _read(stream: IO, source: str, *, recover: bool, first: int | None = None,
          alone: RecordItems | None = None) -> Iterator[Record | ParseError]:
    """The reading loop: physical lines -> lexer -> builder -> records, with resynchronisation after errors; after
    ``first`` items, :func:`_read_tail` alone (see :func:`iter_records`). ``alone`` gets the comments and the count
    of lines of an input that held nothing else (:class:`RecordItems`)."""
    if first == 0:
        return
    given = 0  # items yielded
    reader = _LineReader(stream)
    waits = not isinstance(stream, (io.StringIO, io.BytesIO)) and _may_wait(stream)
    lines = _Lookahead(_physical_lines(reader, source), reader.lines_held if waits else None)
    # the lines after a failed first line, which may tell it JSON or CSV: on an input that can wait (a pipe, a
    # terminal) only those that have arrived, so that a writer that keeps it open hears of that line before it sends
    # more
    ahead = lines.text_held
    lexer = _Lexer(source)
    builder = _Builder(source)
    opening: list[tuple[int, str]] = []  # the file's first two lines with text: told JSON or not
    size = 0  # characters of the record being built
    last: Record | None = None
    # after an error, what is skipped unsaid: a bad record's rest, to its blank line ("record"); after stray text
    # between records (said once), its block and every block after it up to one that can start a record ("stray",
    # and "stray-blank" once a blank line ended a block)
    skipping: str | None = None
    number = 0
    for number, text in lines:
        if isinstance(text, str) and _CTRL_Z in text:
            text = _without_ending_ctrl_z(text, lines)
        if skipping is not None:
            skipping = _skipped(skipping, text)
            if skipping is not None:
                continue
        bom_alone = isinstance(text, str) and _bom_alone(text)
        blank = isinstance(text, str) and _blank(text, between_records=not builder.tags)
        done: Record | None = None
        if len(opening) < 2 and isinstance(text, str) and not blank:
            opening.append((number, text))
        try:
            if isinstance(text, ParseError):
                raise text
            if bom_alone and not blank:
                raise ParseError("a byte order mark alone on a line inside a record", source=source, line=number,
                                 column=text.index("\ufeff") + 1, token="\ufeff",
                                 expected="a blank line before a file appended to this one")
            if blank:
                lexer.blank_line()
                if builder.tags:
                    done = builder.finish()
                    builder, size = _Builder(source), 0
                    builder.after_open_play = done.play is not None and not done.play.terminated
                    builder.follows_record = True
            else:
                size += len(text) + 1
                if size > MAX_RECORD_LENGTH:
                    raise _too_big(source, number, MAX_RECORD_LENGTH - (size - len(text) - 1) + 1)
                events = lexer.line(number, text)
                builder.feed(events, continues=lexer.brace is not None)
        except ParseError as failed:
            if isinstance(text, str) and _CTRL_Z in text and _at_ctrl_z(failed, number, text):
                failed = _ctrl_z_named(failed)  # one that ends the input was taken off its line
            error = _json_instead(failed, source, number, text, opening, bool(builder.tags), ahead) \
                if not given and isinstance(text, str) and not blank else failed
            if not recover:
                raise error from None
            _mark_record(error, builder)
            # a bad record ends at its blank line, and what follows is read as any text between records is: stray
            # text there is said once (cards after a blank line inside a Play section with the hint), and its
            # further blocks (the rest of a Play section spaced out by blank lines) are not said again
            open_play = builder.play is not None and not builder.play.terminated
            stray = not builder.tags and isinstance(text, str) and not text.strip().startswith(_RECORD_STARTS)
            lexer, builder, size = _Lexer(source), _Builder(source), 0
            builder.after_open_play = open_play
            builder.follows_record = True
            # a BOM alone ends the bad record as a blank line does (a file appended to it starts there): what follows
            # is read as between records, its records read or reported, none skipped unsaid
            skipping = "stray" if stray else None if blank or bom_alone else "record"
            yield error
            given += 1
            if given == first:
                return
            continue
        if done is not None:
            last = done
            yield done
            given += 1
            if given == first:
                if not _may_wait(stream):
                    _read_tail(lines, done, source, builder)
                return
    if skipping:
        return
    try:
        lexer.end()
    except ParseError as error:
        if not recover:
            raise
        _mark_record(error, builder)
        yield error
        return
    if builder.tags:
        yield builder.finish()
    elif builder.comments and last is not None:
        _attach_trailing(last, builder.comments)
    elif not given and alone is not None:
        alone.comments_alone.extend(builder.comments)
        alone.lines_read = number


def _mark_record(error: ParseError, builder: _Builder) -> None:
    """Give the error of a bad record what was read of it before the fault: the line of its first tag and its
    [Board] tag, so that a reader that goes on after errors names the record as its good neighbours are named."""
    error.record_line = builder.tags[0].line if builder.tags else error.line
    board = builder.first.get("board")
    error.record_board = board.value if board is not None else None


class _Lookahead(Iterator[tuple[int, "str | ParseError"]]):
    """:func:`_physical_lines` with the next lines' text to be seen before they are read (:meth:`text_ahead`)."""

    def __init__(self, lines: Iterator[tuple[int, str | ParseError]], held: Callable[[], int] | None) -> None:
        self._lines = lines
        self._ahead: list[tuple[int, str | ParseError]] = []  # read already, given again in order
        self._held = held  # how many whole lines have arrived and are not read yet; None: reading never waits

    def __next__(self) -> tuple[int, str | ParseError]:
        return self._ahead.pop(0) if self._ahead else next(self._lines)

    def text_ahead(self, index: int) -> str | None:
        """The text of the line ``index`` lines after the next (0: the next), read now and given again by the
        ``next()`` that comes to it; None past the end or where a line up to it cannot be read."""
        while len(self._ahead) <= index:
            following = next(self._lines, None)
            if following is None:
                return None
            self._ahead.append(following)
        if any(isinstance(text, ParseError) for _, text in self._ahead[:index + 1]):
            return None
        text = self._ahead[index][1]
        return text if isinstance(text, str) else None

    def at_end(self) -> bool:
        """Whether nothing but blank lines and lines of Ctrl-Zs (DOS's end of file, spaces aside) follows the line read
        last to the input's end. Those lines are read now and given again, at most :data:`MAX_BLANK_LINES_AHEAD` (more
        are not the end); an input that can wait (a pipe kept open) is waited on for the next line with text, or
        its end."""
        for index in range(MAX_BLANK_LINES_AHEAD + 1):
            if index == len(self._ahead):
                following = next(self._lines, None)
                if following is None:
                    return True
                self._ahead.append(following)
            text = self._ahead[index][1]
            if not isinstance(text, str) or text.replace(_CTRL_Z, "").strip():
                return False
        return False

    def text_held(self, index: int) -> str | None:
        """:meth:`text_ahead`, or None where that line has not arrived whole yet: reading it would wait."""
        if self._held is not None and index >= len(self._ahead) and self._held() <= index - len(self._ahead):
            return None
        return self.text_ahead(index)


def _read_tail(lines: Iterator[tuple[int, str | ParseError]], last: Record, source: str, builder: _Builder) -> None:
    """Give ``last`` the comments after it if nothing but them and blank lines follows it to the input's end (what
    :func:`_read` does at the end): read no further than the first line of anything else, or the
    :data:`MAX_BLANK_LINES_AHEAD` + 1st blank line after it (the one that ended it counted), so that what follows a
    record asked for costs a few lines."""
    lexer = _Lexer(source)
    blanks = 1  # the blank line that ended ``last``
    try:
        for number, text in lines:
            if isinstance(text, ParseError):
                return
            if _blank(text, between_records=True):
                lexer.blank_line()
                blanks += 1
                if blanks > MAX_BLANK_LINES_AHEAD:
                    return
                continue
            events = lexer.line(number, text)
            if not all(isinstance(event, Comment) for event in events):
                return  # another record, or stray text: ``last`` is not the input's last
            builder.feed(events, continues=lexer.brace is not None)
        lexer.end()
    except ParseError:
        return  # what follows the records asked for is not answered, so not said either
    _attach_trailing(last, builder.comments)


#: DOS's end-of-file character (Ctrl-Z), which DOS editors write at the end of a text file.
_CTRL_Z = "\x1a"
_CTRL_Z_AND_SPACES = " \t" + _CTRL_Z


def _at_ctrl_z(error: ParseError, number: int, text: str) -> bool:
    """Whether reading the line ``number`` (``text``) failed at a Ctrl-Z that only Ctrl-Zs and spaces follow: one
    that does not end the input (:func:`_without_ending_ctrl_z` took that off its line), said by name."""
    start = error.column - 1
    return error.line == number and text[start:start + 1] == _CTRL_Z and not text[start:].strip(_CTRL_Z_AND_SPACES)


def _without_ending_ctrl_z(text: str, lines: _Lookahead) -> str:
    """``text`` without the Ctrl-Zs (and spaces) it ends with where its line is the input's last: DOS's end of
    file, which its editors write after the last line or on it (``*`` then Ctrl-Z, no line break), read as if it
    were not there (a line left empty is blank). Elsewhere ``text`` as it is, the Ctrl-Z read as any text is."""
    kept = text.rstrip(_CTRL_Z_AND_SPACES)
    if _CTRL_Z in text[len(kept):] and lines.at_end():
        return kept
    return text


def _ctrl_z_named(error: ParseError) -> ParseError:
    """``error``, failed at a Ctrl-Z that does not end the input, saying what that character is."""
    return ParseError(f"{error.message}: a Ctrl-Z (DOS end of file) in the middle of the file", source=error.source,
                      line=error.line, column=error.column, token=error.token, expected=error.expected)


def _bom_alone(text: str) -> bool:
    """A line of a byte order mark alone (spaces aside): the first line of a file a Windows editor saved with an
    empty first line, where that file is appended to another (cat a b)."""
    return text.strip() == "\ufeff"


def _blank(text: str, *, between_records: bool) -> bool:
    """A line that ends a record or stands between records. A BOM alone is blank between records, where it starts a
    file appended; inside a record it is not (it would end the record unseen), and the reader refuses it there."""
    return not text.strip() or between_records and _bom_alone(text)


def _skipped(skipping: str, text: str | ParseError) -> str | None:
    """What is still skipped after an error (see ``_read``) once ``text`` is read; None: read ``text``."""
    if isinstance(text, ParseError):
        return skipping
    if _blank(text, between_records=True):  # a BOM alone ends a bad record's rest too: a file appended starts there
        return None if skipping == "record" else "stray-blank"
    if skipping == "stray-blank" and text.strip().startswith(_RECORD_STARTS):
        return None
    return "record" if skipping == "record" else "stray"


_BREAK, _BREAK_BYTES = re.compile("[\r\n]"), re.compile(b"[\r\n]")
#: A line end as :class:`_LineReader` counts them: CR LF, a CR alone or an LF (for counting lines of text in hand).
LINE_END = re.compile("\r\n|\r|\n")
_LINE_END_BYTES = re.compile(b"\r\n|\r|\n")
#: How many bytes that have arrived are looked at for whole lines (:meth:`_LineReader.lines_held`).
_HELD_WINDOW = 65536


class _LineReader:
    """``readline(limit)`` over a stream whose lines end with LF, CR LF or a CR alone (old Mac files), each line
    given with its line break, as a stream's own ``readline`` gives LF-ended lines: a binary stream and one opened
    with ``newline="\\n"`` split at LF only, and a CR-only file read as one line.

    A line is given as soon as its line break is read: on standard input (a pipe) a record is answered when its
    blank line arrives, whatever its line ends. The stream's own ``readline`` would wait for an LF, which a CR-only
    file has none of, so a buffered binary stream (a file, standard input) is first peeked at: where its first line
    ends in LF or CR LF it is read with ``readline``, and a line read whole, ending in LF with no CR in it, is given
    as the stream gave it (cutting every line here would be a tenth of the parse); where it ends in a CR alone, what
    has arrived is read (``read1``) and cut into lines here. A stream that can wait (a pipe, a terminal, a socket:
    anything but a regular file) is read with ``readline`` only when an LF has arrived: until one has, what has
    arrived is taken, so that a CR-only record sent after LF ones on a pipe kept open (a bot) is answered at its
    blank line, not at the next LF. A CR at the end of what was read ends its line at once; an LF that then comes
    first is that CR LF's, and skipped. A stream that cannot be peeked at (in memory, never waiting) is read with
    ``readline``."""

    def __init__(self, stream: IO) -> None:
        self.stream = stream
        self.buffer: Any = ""  # what was read (str or bytes, as the stream gives) ...
        self.start = 0  # ... and where in it the next line starts: lines are cut from it, it is not copied a line
        self.end: Any = None  # the stream's empty read, once met: not read again
        self.peek: Any = getattr(stream, "peek", None)  # a buffered binary stream's (a file, standard input)
        self.read1: Any = getattr(stream, "read1", None)
        # how the stream is read: "lf" (readline) or "cr" (read1, what has arrived); None until peeked at. A CR alone
        # inside a line turns it to "cr"; a piece then read that ends in LF with no CR turns it back to "lf"
        self.peekable = self.peek is not None and self.read1 is not None  # a file or a pipe, not a stream in memory
        self.read_mode: str | None = None if self.peekable else "lf"
        self.after_cr = False  # the last line ended with a CR at the end of what was read: an LF may follow it
        self.waits = self.peekable and _may_wait(stream)  # its readline may wait on a writer for an LF
        self.buffered = False  # the stream's buffer holds bytes past the line read last: peeked at, it does not wait

    def held_ahead(self, most: int) -> bytes:
        """Up to ``most`` bytes after the line given last, read already or buffered: a regular file's peeked at, an
        input's that can wait only what has arrived (its writer may not have written more)."""
        held = self.buffer[self.start:self.start + most] if isinstance(self.buffer, bytes) else b""
        if self.peekable and len(held) < most:
            if not self.waits:
                held += self.peek(most)[:most - len(held)]
            elif self.buffered:  # its buffer, not empty, given whole by a peek of 1 (_pyio's reads up to a larger one)
                held += self.peek(1)[:most - len(held)]
        return held

    def lines_held(self) -> int:
        """How many whole lines have arrived after the line given last: those read without waiting on a writer."""
        return len(_LINE_END_BYTES.findall(self.held_ahead(_HELD_WINDOW)))

    def _read(self, limit: int) -> Any:
        """The stream's next piece, at most ``limit`` characters: a line (``readline``) or what has arrived."""
        if self.end is not None:
            return self.end
        self.buffered = False
        if self.read_mode is None:
            ahead = self.peek(1)[:limit]  # what has arrived, not taken from the stream (empty: its end)
            cr, lf = ahead.find(b"\r"), ahead.find(b"\n")
            if 0 <= lf and (cr < 0 or lf <= cr + 1):
                self.read_mode = "lf"  # its first line ends in LF or CR LF
            elif 0 <= cr < len(ahead) - 1:
                self.read_mode = "cr"
            else:  # no line break yet, or a CR last: what has arrived is taken, and the next piece peeked at
                return self.read1(len(ahead))
        if self.read_mode == "lf":
            if self.waits:
                ahead = self.peek(1)  # what has arrived (waits for some, or the end: empty)
                lf = ahead.find(b"\n", 0, limit)
                if lf < 0:
                    return self.read1(min(len(ahead), limit)) if ahead else ahead  # no LF yet: it, not a wait
                self.buffered = lf + 1 < len(ahead)
            return self.stream.readline(limit)
        piece = self.read1(limit)
        if piece[-1:] == b"\n" and b"\r" not in piece:
            self.read_mode = "lf"  # the CR alone was a stray one in an LF file: its lines are read to an LF again
        return piece

    def readline(self, limit: int) -> Any:
        """The next line with its line break, at most ``limit`` characters (one more for a CR LF the limit cuts);
        empty at the end of the stream."""
        buffer, start = self.buffer, self.start
        if start >= len(buffer):
            if self.read_mode == "lf" and self.end is None and not self.after_cr:
                # the common line, LF-ended without a CR, is the stream's own: read directly, split no further
                line = self.stream.readline(limit) if not self.waits else self._read(limit)
                if isinstance(line, str):
                    if line[-1:] == "\n" and "\r" not in line:
                        return line
                elif line[-1:] == b"\n" and b"\r" not in line:
                    return line
            else:
                # the end of the stream is read once: a terminal's standard input would wait for another Ctrl-D
                line = self._read(limit)
                if self.after_cr:
                    self.after_cr = False
                    if line[:1] == ("\n" if isinstance(line, str) else b"\n"):  # the LF of the CR LF cut before it
                        line = line[1:] or self._read(limit)
            if not line:
                self.end = line
                return line
            buffer, start = line, 0
        cr, lf, breaks = ("\r", "\n", _BREAK) if isinstance(buffer, str) else (b"\r", b"\n", _BREAK_BYTES)
        # a line that has no line break in what was read is built of the pieces read for it (a pipe gives a few KB at
        # a time), each searched once: joined and searched from its start at each piece, a long line costs its square
        head: list[Any] = []
        held = 0  # characters in head
        while True:
            stop = start + limit - held
            found = breaks.search(buffer, start, stop)  # the first CR or LF: str.find of each scanned to the limit
            if found:
                end = found.end()
                if buffer[end - 1:end] == cr:
                    if buffer[end:end + 1] == lf:
                        end += 1
                    elif end < len(buffer) and self.peekable:
                        self.read_mode = "cr"  # a CR alone: from now on what arrives is read, not a line to an LF
                    elif end == len(buffer):
                        self.after_cr = self.end is None  # said now: the LF of a CR LF, if it comes, is skipped
                break
            if held + len(buffer) - start >= limit:
                end = stop
                break
            more = self._read(limit - held - (len(buffer) - start))
            if not more:
                self.end = more
                end = len(buffer)
                break
            head.append(buffer[start:])
            held += len(buffer) - start
            buffer, start = more, 0
        self.buffer, self.start = buffer, end
        if head:
            head.append(buffer[start:end])
            return buffer[:0].join(head)
        return buffer[start:end]


def _may_wait(stream: IO) -> bool:
    """Whether reading ``stream`` may wait on a writer: what :func:`stream_kind` calls a pipe, a socket or a device."""
    try:
        return stream_kind(os.fstat(stream.fileno()).st_mode) is not None
    except (OSError, ValueError, AttributeError):  # no file descriptor (io.UnsupportedOperation is both), or closed
        return True


def _physical_lines(stream: _LineReader, source: str) -> Iterator[tuple[int, str | ParseError]]:
    """Yield (line number, text without its line break) or (line number, ParseError) for a line that cannot be read.

    Reads one line at a time with a size limit, so neither a huge file nor a huge line is ever held in memory. A line
    ends with LF, CR LF or CR (:class:`_LineReader`).
    """
    number = 0
    head: bytes | None = b""  # the input's first bytes, up to _BINARY_WINDOW, to tell it binary at its first
    # unreadable line (None once one was read: an input not binary there is text, said record by record)
    while True:
        try:
            chunk = stream.readline(_READ_LIMIT)
        except UnicodeDecodeError as exc:  # a text stream's own decoder; it cannot tell the column
            yield number + 1, ParseError(
                f"invalid UTF-8 ({exc.reason})", source=source, line=number + 1, column=1, expected="UTF-8 text"
            )
            return
        if not chunk:
            return
        number += 1
        if len(chunk) == _READ_LIMIT and not _ends_line(chunk):
            if not _drain_line(stream, MAX_SKIPPED_LINE_LENGTH - len(chunk)):
                yield number, _too_long(source, number, endless=True)
                return
            yield number, _too_long(source, number)
            continue
        line = _decode_line(chunk, number, source)
        if head is not None and isinstance(chunk, bytes) and len(head) < _BINARY_WINDOW:
            if isinstance(line, ParseError):
                gzip = chunk.removeprefix(_UTF8_BOM).startswith(_GZIP_MAGIC)  # said so already
                kind = "" if gzip else None if "UTF-16" in line.message else _binary_kind(
                    head + chunk + stream.held_ahead(_BINARY_WINDOW), chunk,
                    nul=line.message.startswith("NUL"))
                if kind is not None:  # one message for the input, not one for each stretch between blank lines
                    yield number, _binary_error(line, kind)
                    return
            # a regular file's verdict saw the window's bytes ahead of the line; an input that can wait showed only
            # what had arrived, so its later unreadable lines are judged too while the window is not used up
            head = head + chunk if isinstance(line, str) or stream.waits else None
        yield number, line


def _binary_kind(start: bytes, line: bytes, *, nul: bool) -> str | None:
    """What an input is said as where its unreadable ``line`` is among ``start`` (its first bytes, that line and
    what follows it, read or buffered already) and they say it is binary: a known kind by its first bytes, else "a
    binary file" where a control byte no text holds is among them (other than a NUL, where a NUL made the line
    unreadable: a stray one is said as itself); None for text: a Latin-1 file's accented letters, and a line of
    UTF-16 (a file's first or one appended), whose records after it are read."""
    if line[:2] in _UTF16_BOMS or _UTF16_NULS.match(line):
        return None
    start = start[:_BINARY_WINDOW]
    for magic, kind in _BINARY_MAGIC:
        if start.startswith(magic):
            return kind
    return "a binary file" if _BINARY_CONTROL.search(start.replace(b"\x00", b"") if nul else start) else None


def _binary_error(error: ParseError, kind: str) -> ParseError:
    """``error``, the first unreadable line of a binary input, saying the input is ``kind`` (``""``: its message
    says what it is already) and not text: reading stops at it."""
    if not kind:
        return error
    message = error.message[:-1] + f", {kind}, not text)" if error.message.endswith(")") \
        else f"{error.message} ({kind}, not text)"
    return ParseError(message, source=error.source, line=error.line, column=error.column, token=error.token,
                      expected=error.expected)


def _ends_line(chunk: str | bytes) -> bool:
    return chunk.endswith((b"\n", b"\r")) if isinstance(chunk, bytes) else chunk.endswith(("\n", "\r"))


def _drain_line(stream: _LineReader, most: int) -> bool:
    """Skip the rest of an overlong line piece by piece; False if more than ``most`` characters are left of it."""
    while most >= 0:
        piece = stream.readline(65536)
        if not piece or _ends_line(piece):
            return True
        most -= len(piece)
    return False


def _too_long(source: str, number: int, *, endless: bool = False) -> ParseError:
    rest = f" (and over {MAX_SKIPPED_LINE_LENGTH:,}: not a text file? The rest of it is not read)" if endless else ""
    return ParseError(
        f"line longer than {MAX_LINE_LENGTH} characters{rest}",
        source=source,
        line=number,
        column=MAX_LINE_LENGTH + 1,
        expected=f"at most {MAX_LINE_LENGTH} characters per line",
    )


def _too_big(source: str, number: int, column: int) -> ParseError:
    """The record has grown past MAX_RECORD_LENGTH at ``column`` of line ``number``."""
    return ParseError(
        f"record longer than {MAX_RECORD_LENGTH} characters",
        source=source,
        line=number,
        column=max(column, 1),
        expected=f"a blank line between records, each of at most {MAX_RECORD_LENGTH} characters",
    )


#: The byte order marks a UTF-16 file starts with (little- and big-endian).
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
#: The UTF-8 byte order mark, which a line may start with (a file's first, or one appended to another).
_UTF8_BOM = "\ufeff".encode("utf-8")
#: The first bytes of a gzip file (a .tbn.gz given as it is, first or appended to another file).
_GZIP_MAGIC = b"\x1f\x8b"
#: The NULs, every other character from a line's start, that say a line is likely UTF-16 without a byte order mark.
_UTF16_LEAST_NULS = 3
#: How much of an input's start is looked at to tell it binary (:func:`_binary_kind`): what ``file`` and git look at.
_BINARY_WINDOW = 1024
#: The first bytes of the binary files given for records most often, with what each is said as.
_BINARY_MAGIC = ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
                 (b"PK\x03\x04", "a zip file such as an .xlsx or .ods spreadsheet"))
#: The control bytes no text file holds (a tab, the line breaks, a form feed, DOS's end-of-file Ctrl-Z and an
#: escape, as in coloured output, are text): one among an input's first bytes, where a line of them is not UTF-8,
#: says the input is binary.
_BINARY_CONTROL = re.compile(b"[\x00-\x08\x0e-\x19\x1c-\x1f]")
#: The start of ASCII text saved as UTF-16 without a byte order mark: a NUL every other byte.
_UTF16_NULS = re.compile(b"(?:[\x01-\x7f]\x00){3}|(?:\x00[\x01-\x7f]){3}")


def _decode_line(chunk: str | bytes, number: int, source: str) -> str | ParseError:
    """Strip the line break (LF, CR LF or CR) and a BOM at the line's start, decode bytes strictly, reject NUL and
    overlong lines."""
    if isinstance(chunk, bytes):
        body = chunk[:-1] if chunk.endswith(b"\n") else chunk
        body = body[:-1] if body.endswith(b"\r") else body
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            column = len(body[: exc.start].decode("utf-8").removeprefix("\ufeff")) + 1  # a BOM is no column
            if column > MAX_LINE_LENGTH:  # the line was over the limit before the bad byte: that error comes first
                return _too_long(source, number)
            bad = body[exc.start : exc.end].hex(" ")
            # Windows "Unicode" or a gzip file: say what it is, first in the file or at a line's start after it (a file
            # appended)
            if exc.start == 0 and body[:2] in _UTF16_BOMS:
                bad = f"{body[:2].hex(' ')}, a UTF-16 byte order mark: save the file as UTF-8"
            elif body.removeprefix(_UTF8_BOM).startswith(_GZIP_MAGIC):  # said at its first byte, not at 0x8b after it
                column, bad = 1, f"{_GZIP_MAGIC.hex(' ')}, a gzip file: unpack it first (gunzip)"
            return ParseError(
                f"invalid UTF-8 (byte {bad})", source=source, line=number, column=column, expected="UTF-8 text"
            )
    else:
        text = chunk[:-1] if chunk.endswith("\n") else chunk
        text = text[:-1] if text.endswith("\r") else text
    # a file's BOM; after line 1, that of a file appended to another (cat a b), which has text after it. A line of a
    # BOM alone is kept for the reader to judge (see _blank)
    if text.startswith("\ufeff") and (number == 1 or not _bom_alone(text)):
        text = text[1:]
    if len(text) > MAX_LINE_LENGTH:
        return _too_long(source, number)
    nul = text.find("\x00")
    if nul >= 0:
        # every other character a NUL from the line's start (its first or second), several of them: ASCII text saved
        # as UTF-16 without a byte order mark (a NUL at a line's end alone is not one)
        every_other = text[nul::2]
        utf16 = (nul <= 1 and len(every_other) >= _UTF16_LEAST_NULS and not every_other.strip("\x00")
                 and "\x00" not in text[1 - nul::2])
        why = " (every other character: a UTF-16 file? Save it as UTF-8)" if utf16 else ""
        return ParseError(f"NUL character in the input{why}", source=source, line=number, column=nul + 1,
                          token="\x00", expected="text")
    return text


# ---------------------------------------------------------------------------------------------------------------------
# Writing


def format_record(record: Record) -> str:
    """The text of one record, ending with a line break: one tag per line, the Play section after its tag.

    Every comment is written back at its place (see :class:`Comment`); reading the text again gives the same tags,
    play tokens and comments. Raises ValueError for what cannot be written so that it reads back the same (a tag
    name that is not a word, a line break in a value, a card token with spaces or syntax characters).
    """
    tags = list(record.tags)
    play = record.play
    play_index = next((i for i, tag in enumerate(tags) if tag.name.lower() == "play"), None)
    if play is not None and play_index is None:
        tags.append(Tag("Play", play.leader.text))
        play_index = len(tags) - 1
    tag_slots, play_slots = _comment_slots(record, tags, play_index)
    out: list[str] = []
    for index, tag in enumerate(tags):
        out.extend(_checked_comment(c) for c in tag_slots.get(index, []))
        out.append(_format_tag(tag))
        if index == play_index and play is not None:
            _format_play(play, play_slots, out)
    out.extend(_checked_comment(c) for c in tag_slots.get(len(tags), []))
    return "\n".join(out) + "\n"


def write_records(records: Iterable[Record], dest: str | os.PathLike | TextIO) -> None:
    """Write records, each followed by one blank line (so that files written can be concatenated), to a path
    (UTF-8, LF line breaks; atomically: the file appears only when complete) or a text stream. Positions may stand
    for records: each is written as its ``to_record()`` (the record as played)."""
    if isinstance(dest, (str, os.PathLike)):
        _write_atomically(records, os.fspath(dest))
    else:
        _write(records, dest)


def _write_atomically(records: Iterable[Record], path: str) -> None:
    """Write to a temporary file next to ``path`` and rename it into place when every record is written, so that a
    record that cannot be written (or a crash) never leaves a half-written file that reads as a shorter whole one."""
    from ..files import atomic_file

    with atomic_file(path) as stream:
        _write(records, stream)  # type: ignore[arg-type]


def _write(records: Iterable[Record], stream: TextIO) -> None:
    """Each record (a position: its ``to_record()``) and its blank line, then the last one's late comments."""
    last: Record | None = None
    written = 0
    for item in records:
        record = item.to_record() if hasattr(item, "to_record") else item
        stream.write(format_record(record) + "\n")
        last = item.record if hasattr(item, "to_record") else item  # type: ignore[attr-defined]
        written = len(last.comments) if last is not None else 0
    if last is not None:
        write_late_comments(last, written, stream)


def write_late_comments(record: Record, written: int, stream: TextIO) -> None:
    """Write the comments ``record`` (as read) was given after its first ``written`` ones, each on a line of its own.

    Comments after a file's last record belong to it, but reading streams, so they reach it when the input ends,
    after a writer that writes each record as it comes (``write_records`` of ``read_records``, ``stich show --tbn``)
    has written it: written after its blank line, where they stood, they read back as the file's.
    """
    for comment in record.comments[written:]:
        stream.write(_checked_comment(comment) + "\n")


def _comment_slots(
    record: Record, tags: list[Tag], play_index: int | None
) -> tuple[dict[int, list[Comment]], dict[tuple[int, int], list[Comment]]]:
    """Sort comments into places: before tag k (k = len(tags): at the end) or at (card line, card) in the play."""
    tag_slots: dict[int, list[Comment]] = {}
    play_slots: dict[tuple[int, int], list[Comment]] = {}
    play = record.play
    for comment in record.comments:
        after = min(max(comment.after_tags, 0), len(tags))
        in_play = (
            comment.play_line is not None and play is not None and play_index is not None and after == play_index + 1
        )
        if in_play:
            assert play is not None and comment.play_line is not None
            line = min(max(comment.play_line, 0), len(play.tricks))
            cards = len(play.tricks[line]) if line < len(play.tricks) else 0
            play_slots.setdefault((line, min(max(comment.play_token, 0), cards)), []).append(comment)
        else:
            tag_slots.setdefault(after, []).append(comment)
    return tag_slots, play_slots


def _format_play(play: PlaySection, slots: dict[tuple[int, int], list[Comment]], out: list[str]) -> None:
    """Card lines with their comments; comments before a line get lines of their own."""
    for line, cards in enumerate(play.tricks):
        out.extend(_checked_comment(c) for c in slots.get((line, 0), []))
        if not cards:
            continue  # an empty card line cannot be written (it would end the record)
        parts: list[str] = []
        for position, card in enumerate(cards):
            if position:
                for comment in slots.get((line, position), []):
                    if comment.text[:1] in _LINE_COMMENT_STARTS:  # it runs to the line's end: the trick would split
                        raise ValueError(f"{_shorten(comment.text)!r} runs to the end of its line and cannot stand "
                                         "between two cards of a trick; a {brace} comment can")
                    parts.append(_checked_comment(comment))
            parts.append(_checked_card(card.text))
        parts.extend(_checked_comment(c) for c in slots.get((line, len(cards)), []))
        out.extend(_join_parts(parts))
    out.extend(_checked_comment(c) for c in slots.get((len(play.tricks), 0), []))
    if play.terminated:
        out.append("*")


def _join_parts(parts: list[str]) -> list[str]:
    """Join the parts of a card line with spaces; a '%' or ';' comment runs to the end of a line, so break after it."""
    lines: list[str] = []
    current: list[str] = []
    for part in parts:
        current.append(part)
        if part[0] in _LINE_COMMENT_STARTS:
            lines.append(" ".join(current))
            current = []
    if current:
        lines.append(" ".join(current))
    return lines


def _format_tag(tag: Tag) -> str:
    _check_tag_name(tag.name)
    _check_tag_value(tag.name, tag.value)
    return f'[{tag.name} "{_escape(tag.value)}"]'


def _check_tag_name(name: str) -> None:
    if not _TAG_NAME.fullmatch(name):
        raise ValueError(f"tag name {name!r} is not a word (letters, digits, '_')")


def _check_tag_value(name: str, value: str) -> None:
    if any(char in value for char in "\n\r\x00"):
        raise ValueError(f"the value of tag {name} contains a line break or NUL")


def _checked_card(text: str) -> str:
    if not text or text == "*" or _word_end(text, 0) != len(text):
        raise ValueError(f"{text!r} cannot be written as a card token")
    return text


def _checked_comment(comment: Comment) -> str:
    """The comment's text, if it reads back as exactly this one comment."""
    text = comment.text
    if text[:1] in _LINE_COMMENT_STARTS and "\n" not in text and "\r" not in text and "\x00" not in text:
        return text
    if text[:1] == "{" and text.endswith("}") and "}" not in text[:-1] and "\x00" not in text:
        if all(line.strip() for line in text.split("\n")[1:-1]) and len(text) <= MAX_BRACE_COMMENT_LENGTH:
            return text
    raise ValueError(f"{_shorten(text)!r} is not a comment that can be written")
