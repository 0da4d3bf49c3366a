"""What the board shows, computed from the public API: no HTTP here, so every view is testable as plain data.

A board is a record opened on the page (from a file named on the command line, an upload, pasted text or a new
deal). The server keeps each board's starting position (the deal before any card, or an ending) and the record's
own play; the page keeps the moves the user has made and sends them back with every question. A position is
therefore always ``start.play(move) ...``: replayed and checked by the rules each time, so no request can reach a
state the rules do not allow.
"""

from __future__ import annotations

import copy
import hashlib
import io
import itertools
import json
import os
import re
import shlex
import stat
import threading
import urllib.parse
from collections import Counter, OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Mapping, Sequence

from ..analysis import every_seat_for_itself
from ..cards import Card, Pack
from ..deal import small_number
from ..diagram import SIGNS, SuitStyle, display_order
from ..errors import (MAX_QUOTED_LENGTH, CommandVariantError, InvalidPositionError, MessageSieve, StichError, _cut,
                      is_whole_number, printable, quoted, shown_name, visible)
from ..files import not_file_kind
from ..formats.tbn import LINE_END, Record, iter_records, no_records_said
from ..games import get_game
from ..games.base import Game, Objective
from ..games.outcome import declarers_word
from ..generate import MAX_SEED, SEED_RANGE, random_record
from ..position import Position, position_from_record
from ..score_objective import SCORE, objective_named
from ..scoring import MAX_POT, pot_given, score_deal, scoring_inputs
from ..settlement import settlement_unsupported
from ..variant import value_text

#: The most records one file, upload or paste may hold.
MAX_RECORDS = 1000
#: A seed as the deal form sends it: an optional minus sign and ASCII digits, as many as MAX_SEED has.
SEED_TEXT = re.compile(r"-?[0-9]{1,20}")
#: The largest file named on the command line the board reads, in bytes: 32 KB a record of the most records, and a
#: file replaced while served by one far larger (a log, a disk image) is refused rather than read into memory.
MAX_FILE_BYTES = 32_000_000
#: How many boards one server keeps (the one used longest ago is forgotten first; the page reopens a forgotten one):
#: twice a file of the most records, so that an upload's own boards all stay, and so do the boards a page used before
#: it (some 40 MB resident a thousand boards).
MAX_BOARDS = 2 * MAX_RECORDS
#: How the line that counts a file's bad records left unsaid ends (:class:`~solver.errors.MessageSieve`): the
#: records that are good are open all the same.
OTHERS_OPENED = "the board opens the other records"
#: The longest move list a request may send (no game has more cards than this).
MAX_MOVES = 64

_ROMAN = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def sent(value: object) -> str:
    """A value of a request's JSON as a message quotes it: a text as :func:`~solver.errors.quoted` does, anything
    else as the JSON sent (``true``, ``{"a": 1}``: the page's words, not Python's ``True``, ``{'a': 1}``), cut as long
    as a text is quoted and its invisible characters escaped as a quoted text's are (``"\\u202e"``: a bidi control
    left raw would reorder the message shown)."""
    if isinstance(value, str):
        return quoted(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError):  # nested about as deep as the body's JSON is read
        return "a value nested too deeply to quote"
    return printable(_cut(text, MAX_QUOTED_LENGTH))


class BoardError(StichError):
    """A request the board cannot answer: an unknown board, a bad move list, a bad objective (HTTP 4xx)."""

    def __init__(self, message: str, status: int = 400, field: str | None = None, stopping: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.field = field  # the Deal form's field at fault (game, contract, seed, seats, declarer, pot), if one is
        self.stopping = stopping  # refused because the server is stopping: the page asks no question again


def roman(number: int) -> str:
    text = ""
    for value, letters in _ROMAN:
        while number >= value:
            text += letters
            number -= value
    return text


#: The colour of each suit sign: French packs in black and red; the German packs' Eichel, Gras, Herz and Schellen
#: (read as clubs, spades, hearts and diamonds) in brown, green, red and gold, as their cards print them.
_FRENCH_COLOURS = {"spades": "black", "clubs": "black", "hearts": "red", "diamonds": "red"}
_GERMAN_COLOURS = {"clubs": "brown", "spades": "green", "hearts": "red", "diamonds": "gold"}


def card_face(pack: Pack, card: Card, named: Mapping[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """How a card is drawn: its token (what the page sends back), a short face, its sign and colour; a card the
    game calls by a name of its own (``Game.named_cards``: the Weli) also its ``label`` and what it is (``about``).

    Suit cards show the sign the pack reads as their suit (a French pack's suits as themselves; a German
    pack's Eichel, Gras, Herz and Schellen as the signs ``Pack.sign_letters`` maps to them, each in its own colour);
    cards outside the suits (trumps numbered 1 to 21, and the one ranked S) show a Roman numeral, or "Sk"."""
    suits = {letter: suit for suit, letter in pack.sign_letters.items()}
    if card.suit not in suits:
        face = "Sk" if card.rank == "S" else roman(int(card.rank)) if card.rank.isdigit() else card.rank
        return {"name": card.name, "face": face, "sign": "", "colour": "trump"}
    french = bool(SuitStyle.of(pack).labels)  # the diagram's reading: a pack whose letters are the signs' initials
    suit = suits[card.suit]
    colour = (_FRENCH_COLOURS if french else _GERMAN_COLOURS)[suit]
    drawn = {"name": card.name, "face": card.rank, "sign": SIGNS[suit], "colour": colour}
    if named and card.name in named:
        drawn["label"], drawn["about"] = named[card.name]
    return drawn


def suit_sign(pack: Pack, suit: str | None) -> dict[str, str] | None:
    """The sign and colour a suit letter's cards show (:func:`card_face`), for a contract that names a suit (Kratzen's
    "Trump G", whose cards show ♠): None for no suit, or one outside the pack's signs."""
    suits = {letter: name for name, letter in pack.sign_letters.items()}
    if suit not in suits:
        return None
    french = bool(SuitStyle.of(pack).labels)
    return {"sign": SIGNS[suits[suit]], "colour": (_FRENCH_COLOURS if french else _GERMAN_COLOURS)[suits[suit]]}


@dataclass
class Board:
    """One opened record: its starting position, its own play (the moves the page starts with) and its record."""

    id: str
    label: str
    start: Position
    record_play: tuple[int, ...]
    record: Record
    #: Where the board's variant flags came from, where the board's ``--variant`` touched them: ``sagotrick=no
    #: (--variant)``, or which of it and the record's own ``[Variant]`` won a flag they disagree on; else "".
    variant_note: str = ""
    #: The record's own ``[Variant]`` tag as its file gives it, before the board's ``--variant``: what
    #: :attr:`record_fingerprint` holds of the flags.
    own_variant: str = ""
    #: The seat that leads to trick 1 under the record's own flags, before the board's ``--variant`` (Kratzen's
    #: ``first_leader`` moves it): what :attr:`record_fingerprint` holds of the first leader; None for the board's.
    own_first_leader: int | None = None
    #: The record's place in its text (``stich solve --record``'s count), and where that text is a file named on
    #: the command line, the file's absolute name, which the board's :func:`command_line` names (a shell in any
    #: directory finds it); "" for any other text.
    number: int = 1
    named: str = ""
    #: Whether ``stich solve --board`` picks the record alone and says nothing else: no other record of its text has
    #: its ``[Board]`` tag, and none is too broken to read (the command says each such record, as it may be the
    #: board asked for).
    board_tag_picks_alone: bool = True
    #: The board's ``--variant`` flags the record is played under (those of its game), which its command passes on.
    variant_flags: dict[str, object] = field(default_factory=dict)

    def position(self, moves: Sequence[object]) -> Position:
        """The position after ``moves`` (card tokens) from the start; a move the rules refuse is a BoardError
        naming it."""
        if not isinstance(moves, (list, tuple)) or len(moves) > MAX_MOVES:
            raise BoardError(f"the moves are a list of at most {MAX_MOVES} card tokens")
        position = self.start
        pack = position.pack
        for number, token in enumerate(moves, 1):
            if not isinstance(token, str):
                raise BoardError(f"move {number} is not a card token: {sent(token)}")
            index = pack.lookup(token)
            if index is None:
                raise BoardError(f"move {number}: {quoted(token)} is not a card of the {position.game.name} pack"
                                 f"{pack.unknown_note(token)}")
            try:
                position = position.play(index)
            except StichError as error:
                raise BoardError(f"move {number} ({token}): {error}") from None
        return position

    @property
    def fingerprint(self) -> str:
        """What the record is, as a page keeps it over a reload: a digest of what its play and its score are made of
        (game, seats, hands, contract, declarer, first leader, variant flags, state tags, pot and announcements),
        not of its place in its file or its label, which an edit gives another record. Its event, comments and own
        play are left out: an edit to them leaves the moves a page made on the deal what they were."""
        rules = self.start.rules
        return self._digest(rules.first_leader, [str(rules.initial_flags), rules.variant.text()])

    @property
    def record_fingerprint(self) -> str:
        """The :attr:`fingerprint` of the record as its file has it: its own ``[Variant]`` tag in place of the flags
        the board's ``--variant`` set, so that a page whose kept record is gone can tell an edited file from a
        board restarted with another ``--variant`` (or both: each is said). Its first leader too is the record's own,
        which a flag can move."""
        leader = self.start.rules.first_leader if self.own_first_leader is None else self.own_first_leader
        return self._digest(leader, [self.own_variant])

    def _digest(self, first_leader: int, flags: list[str]) -> str:
        """A digest of the record's deal, contract, seats and scoring tags with ``first_leader`` and ``flags``, where
        the fingerprints differ."""
        rules, record = self.start.rules, self.record
        pack = self.start.pack
        hands = " / ".join(" ".join(pack[card].name for card in range(len(pack)) if hand >> card & 1)
                           for hand in rules.deal.hands)
        parts = [rules.game.name, str(rules.seats), hands, str(rules.contract), str(rules.declarer),
                 str(first_leader), *flags, repr(sorted(rules.state_tags.items())), record.get("Pot") or "",
                 record.get("Announcements") or ""]
        return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:24]

    def summary(self) -> dict[str, Any]:
        rules = self.start.rules
        game = self.start.game
        return {"id": self.id, "label": self.label, "game": game.name, "contract": str(rules.contract),
                "contract_words": game.contract_in_words(rules.contract), "declarer": rules.declarer + 1,
                "seats": rules.seats, "fingerprint": self.fingerprint,
                "record_fingerprint": self.record_fingerprint,
                "moves": [self.start.pack[card].name for card in self.record_play]}


@dataclass
class Boards:
    """The boards this server has opened, at most :data:`MAX_BOARDS`, by id (thread-safe). A board forgotten here is
    forgotten everywhere: nothing else holds it, so the server's memory is that of its last boards, however many
    records are uploaded."""

    boards: "OrderedDict[str, Board]" = field(default_factory=OrderedDict)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    #: The boards of each text opened (its source and digest): the same upload, paste or deal again is the same
    #: boards, so a page's list does not fill with copies. Only texts whose boards are all open are kept.
    _texts: "OrderedDict[tuple[str, bytes, str], list[Board]]" = field(default_factory=OrderedDict)
    #: The text each board of ``_texts`` was read from: forgetting the board forgets the text's entry.
    _text_of: dict[str, tuple[str, bytes, str]] = field(default_factory=dict)
    #: What is wrong with each text's records that are not boards, said again when the text is opened again.
    _refused: dict[tuple[str, bytes, str], list[str]] = field(default_factory=dict)

    def add(self, record: Record, label: str, variant: Mapping[str, object] | None = None,
            variant_left_out: Callable[[CommandVariantError], object] | None = None, number: int = 1,
            named: str = "", board_tag_picks_alone: bool = True) -> Board:
        """``record`` as a board; ``variant`` (``stich board --variant``, for the files named with it, uploads,
        pastes and deals alike) over its ``[Variant]`` tag flag by flag. The flags are kept in the board's record,
        so that a saved record says the flags it was played under. A flag of another game than the record's is left
        out, so that a named file opens any record an upload of it opens, under its own game's rules: the board's
        note says so, and ``variant_left_out`` is given why (``stich board`` says it once a game)."""
        flags = dict(variant or {})
        note = ""
        left_out: CommandVariantError | None = None
        if flags:
            flags, left_out, left_out_note = flags_of_record_game(record, flags)
            note = "; ".join(filter(None, [flags_note(record, flags), left_out_note]))
        try:
            position = position_from_record(record, variant=flags or None)
        except StichError as error:
            raise BoardError(str(error)) from error  # its cause: a refused --variant is said once a game at start
        if left_out is not None and variant_left_out is not None:
            variant_left_out(left_out)
        own_variant = record.get("Variant") or ""  # before the copy below carries the board's flags
        own_first_leader = None
        if flags:  # the first leader the record's own flags give: a --variant flag may move it
            try:
                own_first_leader = position_from_record(record).rules.first_leader
            except StichError:
                own_first_leader = -1  # the record reads only under the board's flags: no board without them
        record = position.record or record  # a copy carrying the flags, when ``variant`` changed them
        rules = position.rules
        unplayed = copy.deepcopy(record)  # Position.play writes each move into the record's Play section
        unplayed.remove("Play")
        unplayed.remove("Result")
        start = Position(position.game, rules, rules.start(), (), unplayed)
        with self._lock:
            board = Board(f"b{next(self._ids)}", label, start, position.played, record, note, own_variant,
                          own_first_leader, number, named, board_tag_picks_alone, flags)
            self.boards[board.id] = board
            while len(self.boards) > MAX_BOARDS:
                self._forget(self.boards.popitem(last=False)[0])
        return board

    def _forget(self, board_id: str) -> None:
        """Drop the text entry holding a forgotten board (it can no longer be reused whole), under the lock."""
        key = self._text_of.pop(board_id, None)
        for board in self._texts.pop(key, []) if key is not None else []:
            self._text_of.pop(board.id, None)
        if key is not None:
            self._refused.pop(key, None)

    def get(self, board_id: object) -> Board:
        """The board ``board_id``, now the last to be forgotten: the boards in use stay, the idle ones go first. A
        request that names no board, or names it by something other than an id, is told so (400), not that a board
        ``None`` is not open."""
        if board_id is None:
            raise BoardError("the request names no board: its \"board\" is the id of an open board, such as 'b1' "
                             "(/api/start lists them)")
        if not isinstance(board_id, str):
            raise BoardError(f"\"board\" is an open board's id, a string such as 'b1', not {sent(board_id)}")
        with self._lock:
            board = self.boards.get(board_id)
            if board is not None:
                self.boards.move_to_end(board.id)
        if board is None:
            raise BoardError(f"no board {quoted(board_id)} is open on this server (it may have been forgotten: "
                             "open it again)", status=404)
        return board

    def holds(self, found: Sequence[Board]) -> bool:
        """Whether every one of ``found`` is still open (none forgotten)."""
        with self._lock:
            return all(board.id in self.boards for board in found)

    def add_text(self, text: str, source: str) -> list[Board]:
        """Every good record of a .tbn text as a board (:meth:`add_text_said`, its refusals left out)."""
        return self.add_text_said(text, source)[0]

    def add_text_said(self, text: str | bytes, source: str, variant: Mapping[str, object] | None = None,
                      variant_refused: Callable[[CommandVariantError], object] | None = None,
                      variant_left_out: Callable[[CommandVariantError], object] | None = None,
                      named: str = "") -> tuple[list[Board], list[str]]:
        """Every record of a .tbn text as a board, and what is wrong with each record that is not one (file, line,
        column: one bad record does not keep the others off the table, as on the command line). A text without a
        good record is a BoardError with the first of them. The same text from the same source again gives the
        same boards while they are all open. ``variant``: flags over every record's, as :meth:`add` takes them;
        ``variant_refused``, given, takes each record's refusal of them instead of the list (the same for every
        record of a game, which ``stich board`` says once a game); ``variant_left_out``: why a record opened without
        the flags of another game (:meth:`add`). ``text`` as bytes (a file not all UTF-8, :func:`file_text`) is read
        as the command line reads a file, each record decoded on its own. ``named``: the absolute name of the file
        named on the command line the text is (:attr:`Board.named`), "" for another text."""
        # whether flags are given is part of the key: the same text read under the board's flags has its own boards
        # a lone surrogate (pasted text a browser sent) is hashed as it is, and said by the reader as bad text
        raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
        key = (source, hashlib.sha256(raw).digest(), "over" if variant else "")
        with self._lock:
            known = self._texts.get(key)
            if known is not None and all(board.id in self.boards for board in known):
                for board in known:
                    self.boards.move_to_end(board.id)
                    board.named = board.named or named  # an upload's text, now the named file's
                return list(known), list(self._refused.get(key, []))
        # one past the most the board opens: a flood of records (or of errors) is refused without reading it all
        stream = io.BytesIO(text) if isinstance(text, bytes) else io.StringIO(text)
        reading = iter_records(stream, name=source)
        items = list(itertools.islice(reading, MAX_RECORDS + 1))
        if not items:
            # as the commands say it, but without a place: the paste dialog would put a caret at it
            raise BoardError(no_records_said(source, reading.comments_alone))
        if len(items) > MAX_RECORDS:
            raise BoardError(f"{shown_name(source)} holds more than {MAX_RECORDS:,} records; the board opens at most "
                             f"{MAX_RECORDS:,}")
        found: list[Board] = []
        refused: list[str] = []
        tags = Counter(item.board for item in items if not isinstance(item, StichError))
        # a record too broken to read may carry any tag, and stich solve --board says it whatever its tag: --record
        # picks a record of such a text alone
        unreadable = any(isinstance(item, StichError) for item in items)
        for number, item in enumerate(items, 1):
            if isinstance(item, StichError):
                refused.append(str(item))
                continue
            try:
                found.append(self.add(item, record_label(item, source, number), variant, variant_left_out,
                                      number=number, named=named,
                                      board_tag_picks_alone=tags[item.board] == 1 and not unreadable))
            except BoardError as error:
                if variant_refused is not None and isinstance(error.__cause__, CommandVariantError):
                    variant_refused(error.__cause__)
                else:
                    refused.append(str(error))

        def more_bad(count: int) -> str:
            return f"{count:,} more bad record{'s' if count > 1 else ''}"

        if not found and not refused:  # each record's refusal of the variant went to variant_refused
            raise BoardError(f"{source}: no record of it opens with the --variant flags")
        if not found:
            raise BoardError(refused[0] + (f" (and {more_bad(len(refused) - 1)})" if len(refused) > 1 else ""))
        # what a page shows and the server keeps, by the command line's rule: the first 20, then the first of each
        # kind of error (a different one is not hidden behind a systematic one), the rest counted in one line
        sieve = MessageSieve(source)
        refused = [text for text in refused if sieve.keep(text)]
        if sieve.more:
            refused.append(f"{shown_name(source)}: and {more_bad(sieve.more)}, not said one by one ({sieve.above()}); "
                           f"{OTHERS_OPENED}")
        with self._lock:
            if all(board.id in self.boards for board in found):  # else its first records are already forgotten
                for board in self._texts.get(key, []):  # the same text opened twice at once: the newer boards serve
                    self._text_of.pop(board.id, None)
                self._texts[key] = found
                self._refused[key] = refused
                self._text_of.update((board.id, key) for board in found)
        return found, refused


def too_large_text(path: Path | str, size: int | None = None) -> str:
    """What the board says of a file larger than it reads (``size`` in bytes where known): at start, at each page
    load, and for a file that grew while it was read."""
    said = f"{size:,} bytes, more" if size is not None else "more"
    return (f"{shown_name(path)}: {said} than the board reads ({MAX_FILE_BYTES:,} bytes; it opens at most "
            f"{MAX_RECORDS:,} records)")


@contextmanager
def named_file(path: Path) -> Iterator[tuple[os.stat_result, BinaryIO]]:
    """A file named on the command line, open for reading, and what it is now (it may have changed since the board
    started). Opened without waiting, so that a named pipe put at its name is refused rather than waited on for a
    writer (which held a worker thread forever, one more at each page load); a BoardError for anything but a regular
    file of at most :data:`MAX_FILE_BYTES`, OSError where it cannot be opened."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        status = os.fstat(handle)
    except OSError:
        os.close(handle)
        raise
    if not stat.S_ISREG(status.st_mode):  # looked at before a file object is made: fdopen refuses a directory
        os.close(handle)
        kind = not_file_kind(status.st_mode)
        raise BoardError(f"{shown_name(path)}: not a regular file now ({kind} is at its name); the board reads only "
                         "regular files")
    if status.st_size > MAX_FILE_BYTES:
        os.close(handle)
        raise BoardError(too_large_text(path, status.st_size))
    with os.fdopen(handle, "rb") as file:
        yield status, file


def file_text(raw: bytes) -> str | bytes:
    """The text of an uploaded or named .tbn file (a BOM dropped), or its bytes where they are not all UTF-8 (a
    Latin-1 'ü'): :meth:`Boards.add_text_said` reads those record by record as ``stich check`` does, each record
    with a bad byte said at its line, column and byte and the others opened (the first bad byte refused the file)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw


def pasted_bytes(text: str, source: str) -> bytes:
    """Pasted text as UTF-8; a lone surrogate (a JSON escape such as \\udcfc, which no UTF-8 text holds) is refused
    at its line and column rather than failing the request, both counted as the file reader counts them (a pasted
    old Mac file's lines end in a CR alone)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        ends = [end.end() for end in LINE_END.finditer(text, 0, error.start)]
        line = len(ends) + 1
        column = error.start - (ends[-1] if ends else 0) + 1
        raise BoardError(f"{shown_name(source)}:{line}:{column}: a lone surrogate (U+{ord(text[error.start]):04X}), "
                         "not a character (expected UTF-8 text)") from None


def record_label(record: Record, source: str, number: int) -> str:
    """The board's title on the page: its file's name and board, their control and bidi characters made visible
    (:func:`solver.errors.visible`), as every title for people shows them."""
    board = record.get("Board")
    name = shown_name(Path(source).name)
    return f"{name} board {visible(board)}" if board else f"{name} record {number}"


def new_deal(game: object, contract: object, seed: object, seats: object = None, declarer: object = 1,
             pot: object = None, variant: Mapping[str, object] | None = None) -> Record:
    """A seeded random whole deal as a record (``stich deal``'s), each argument checked with a clear message; in a
    game paid from a pot (Kratzen) ``pot`` is its ``[Pot]`` tag, so that the table shows and scores it. ``variant``:
    the board's ``--variant`` flags, those of the game bid under and written as its ``[Variant]``, as ``stich deal
    --variant`` does."""
    if not isinstance(game, str) or not game.strip():
        raise BoardError("choose a game", field="game")
    try:
        game_class = get_game(game)
    except StichError as error:
        raise BoardError(str(error), field="game") from None
    text: str | None = None  # the contract asked for (None: any everyday one)
    try:
        written = str(seed).strip() if is_whole_number(seed) or isinstance(seed, str) else ""
        seed_number = int(written) if SEED_TEXT.fullmatch(written) else None  # ASCII digits, not "1_0" or "١"
        if seed_number is None or not -MAX_SEED <= seed_number <= MAX_SEED:
            raise BoardError(f"the seed is {SEED_RANGE}, not {sent(seed)}", field="seed")
        seat_count = None if seats in (None, "") else _whole(seats)
        if seats not in (None, "") and seat_count not in game_class.seat_counts:
            raise BoardError(f"{game_class.name} is played by {game_class.seat_counts_text()} seats, "
                             f"not {sent(seats)}", field="seats")
        declarer_seat, dealt = _whole(declarer), seat_count or game_class.seat_counts[0]
        if declarer_seat is None or not 1 <= declarer_seat <= dealt:
            raise BoardError(f"the {game_class.declarer_title} is a seat from 1 to {dealt}, not {sent(declarer)}",
                             field="declarer")
        if contract is not None and not isinstance(contract, str):
            raise BoardError(f"a contract is text such as {game_class.contract_help} (empty: any everyday one), "
                             f"not {sent(contract)}", field="contract")
        text = contract.strip() if contract and contract.strip() else None
        chips = None if pot in (None, "") else _whole(pot)
        if pot not in (None, "") and not game_class.has_pot:
            raise BoardError(f"{game_class.name} is not paid from a pot: leave the pot empty", field="pot")
        if pot not in (None, "") and (chips is None or not 0 <= chips <= MAX_POT):
            raise BoardError(f"the pot is a whole number of chips from 0 to {MAX_POT:,}, not {sent(pot)}",
                             field="pot")
        record = random_record(game_class, seed_number, 1, contract=text, declarer=declarer_seat, seats=seat_count,
                               variant=game_flags(game_class, variant or {}))
        if chips is not None:
            record.set("Pot", str(chips))
        return record
    except BoardError:
        raise
    except StichError as error:  # the contract refused (or, without one, the declarer's everyday contracts)
        raise BoardError(str(error), field="contract" if text else "declarer") from None


def game_flags(game: type[Game], variant: Mapping[str, object]) -> dict[str, object]:
    """The flags of ``variant`` that ``game`` has (a board's ``--variant`` may name several games' flags)."""
    return {name: value for name, value in variant.items() if str(name).strip().lower() in game.flags}


def variant_by_game(variant: Mapping[str, object]) -> dict[str, str]:
    """Each game's share of a board's ``--variant`` flags as ``[Variant]`` text, for the games it has flags of."""
    from ..games import GAMES

    shares = {game.name: game_flags(game, variant) for game in GAMES}
    return {name: ", ".join(f"{flag}={value}" for flag, value in flags.items()) for name, flags in shares.items()
            if flags}


def _record_flags(record: Record) -> tuple[type[Game], dict[str, str]] | None:
    """The record's game and the flags its ``[Variant]`` tag sets; None where either does not read (the record's
    position then says what is wrong, pointed at the tag)."""
    from ..variant import Variant

    try:
        game = get_game(record.get("Game") or "")
        tag = record.tag("Variant")
        return game, Variant.parse_pairs(tag.value, game.flags) if tag is not None else {}
    except StichError:
        return None


def _same_value(game: type[Game], name: str, one: object, other: object) -> bool:
    """Whether two values of a flag mean the same (``no`` and ``false``), as the game reads them."""
    try:
        return bool(game.variant({name: one})[name] == game.variant({name: other})[name])
    except StichError:
        return False


def flags_note(record: Record, flags: Mapping[str, object]) -> str:
    """What the page says of a board's variant flags the board's ``--variant`` touched: those in force by it, and a
    flag on which it and the record's own tag disagree, the board's having won."""
    read = _record_flags(record)
    if read is None:
        return ""
    game, own = read
    said = []
    for name, value in flags.items():
        key = str(name).strip().lower()
        if key in own and not _same_value(game, key, own[key], value):
            said.append(f"--variant {key}={value} over the record's {key}={own[key]}")
        else:
            said.append(f"{key}={value} (--variant)")
    return "; ".join(said)


def flags_of_record_game(record: Record, flags: Mapping[str, object]
                         ) -> tuple[dict[str, object], CommandVariantError | None, str]:
    """The board's ``--variant`` flags that the record's game has, and where some are another game's, why they are
    not this one's (what a command that refuses them would say, pointed at the record's ``[Game]``) and the page's
    note of them: the record opens under its own game's rules, as an upload's does. A record whose game or tag does
    not read keeps every flag (its position then says what is wrong)."""
    read = _record_flags(record)
    if read is None:
        return dict(flags), None, ""
    game = read[0]
    mine = game_flags(game, flags)
    foreign = {name: value for name, value in flags.items() if name not in mine}
    if not foreign:
        return mine, None, ""
    try:
        game.variant(foreign)
    except StichError as error:
        tag = record.tag("Game")
        left_out = CommandVariantError(str(error), game.name, source=record.source,
                                       line=tag.value_line if tag is not None else record.line,
                                       column=tag.value_column if tag is not None else 1)
        named = ", ".join(f"{str(name).strip().lower()}={value}" for name, value in foreign.items())
        return mine, left_out, f"--variant {named} left out: not {game.name}'s (its own rules)"
    return dict(flags), None, ""  # a value another game's flag of the same name reads: the game's own check says


def _whole(value: object) -> int | None:
    """A form field's whole number, as written (digits only, no leading zero: "04" is not 4), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = value.strip() if isinstance(value, str) else ""
    return small_number(text) if text == "0" or not text.startswith("0") else None


# --- what the page shows -------------------------------------------------------------------------------------------


def objective_names(position: Position) -> list[str]:
    """The objectives the board offers for this position: the score first where the settlement can score it (every
    deal and ending but a variant it does not know), then the rules' own objectives in their order."""
    names = list(position.rules.objective_names())
    return names if settlement_unsupported(position) is not None else [SCORE] + names


def default_objective(position: Position) -> str:
    """The score where the board offers it and it is every seat's, else the card points, else the seat's tricks. In
    a game where every seat plays for itself (Kratzen) the score is the attacker's payment alone, and with no pot it
    settles every line at 0: each seat's own tricks come first there, as ``stich postmortem`` grades them."""
    names = objective_names(position)
    if SCORE in names and every_seat_for_itself(position):
        names.remove(SCORE)
    for name in (SCORE, "points"):
        if name in names:
            return name
    return names[0]


def chosen_objective(position: Position, name: object) -> str:
    names = objective_names(position)
    if name in (None, ""):
        return default_objective(position)
    if not isinstance(name, str) or name not in names:
        raise BoardError(f"objective {sent(name)} is not one of this contract's: {', '.join(names)}")
    return name


def objective_seat(position: Position, name: str) -> int | None:
    """The 1-based seat of a per-seat objective (a seat's tricks: the seat to move, whose cards are valued), or
    None for a side's objective (the score is the declaring side's)."""
    if name == SCORE:
        return None
    try:
        position.objective(name)
    except StichError:
        state = position.state
        return (state.to_move if not state.is_over else position.rules.declarer) + 1
    return None


def describe_objectives(position: Position) -> list[dict[str, Any]]:
    """The objectives the page offers: each one's ``name`` (the identifier a request sends), ``title`` (the name
    players use, which the list shows: ``Game.row_title``, ``Score`` and ``Schneider against`` as ``stich solve``
    prints them), ``description`` and ``yes_no``."""
    described = []
    for name in objective_names(position):
        seat = objective_seat(position, name)
        try:
            objective = objective_named(position, name, seat)
        except StichError:
            continue
        described.append({"name": name, "title": position.game.row_title(name),
                          "description": objective.description, "yes_no": objective.target is not None})
    return described


def _side_text(seats: Sequence[int] | frozenset[int]) -> str:
    return "+".join(str(seat + 1) for seat in sorted(seats))


def partner_public(position: Position) -> bool:
    """Whether every seat at the table knows who the declarer's partner is: there is no partner to keep secret, or
    the card that makes one (Zwanzigerrufen's called tarock, Schafkopf's called ace) has been played, or the
    called ace's holder ran away (seeds/001: he is revealed "by playing the ace or running away"; a trick led in the
    called suit that the ace did not fall to was led by him). Until then the single-dummy view shows the sides to
    the partner alone."""
    rules = position.rules
    ace = rules.tables().called
    if rules.contract.card is None and ace is not None and position.state.flags & ace.flag:
        return True  # the called suit has been led: the ace fell to it, or its holder ran away with it
    called = rules.called_card
    return called is None or not any(hand >> called & 1 for hand in position.state.hands)


def called_card(position: Position) -> dict[str, str] | None:
    """The card the declarer called her partner by, which the bid says aloud: Zwanzigerrufen's called tarock (the
    Zwanzger, T20, or the next she lacks), a Schafkopf Rufer's called ace (RULES.md 1.2 and 2.2); its name and its
    name in words. None where nobody is called (a Solo, a Wenz, Kratzen)."""
    called = position.rules.called_card
    if called is None:
        return None
    card = position.pack[called]
    return {"name": card.name, "spoken": position.game.card_in_words(card)}


def view(board: Board, moves: Sequence[object]) -> dict[str, Any]:
    """Everything the table shows after ``moves``: hands, the trick on the table, what each side has taken, the
    contract and its people, the legal cards. No search: this answers at once."""
    position = board.position(moves)
    rules, state, pack = position.rules, position.state, position.pack
    game = position.game
    # each card with its name in words for a screen reader (the game's, so the page keeps no table of names)
    faces = {card.index: card_face(pack, card, game.named_cards) | {"spoken": game.card_in_words(card)}
             for card in pack}
    record = board.record
    declaring = rules.declaring_side
    partner = sorted(declaring - {rules.declarer})
    per_seat = every_seat_for_itself(rules)
    sides: list[dict[str, Any]]
    if per_seat:
        sides = [{"name": f"seat {seat + 1}", "seats": [seat + 1], "tricks": state.tricks[seat],
                  "points": None} for seat in range(rules.seats)]
    else:
        sides = [{"name": name, "seats": [s + 1 for s in sorted(side)], "tricks": state.side_tricks(side),
                  "points": state.side_points(side)}
                 for name, side in ((declarers_word(declaring), declaring),
                                    ("defenders", rules.defending_side)) if side]
    history = [{"leader": trick.leader + 1, "winner": trick.winner + 1,
                "cards": [faces[card] | {"seat": trick.seat_of(i, rules.seats) + 1} for i, card in
                          enumerate(trick.cards)]} for trick in state.history]
    trick = [faces[card] | {"seat": (state.leader + i) % rules.seats + 1} for i, card in enumerate(state.trick)]
    legal = state.legal_cards()
    order = display_order(position)  # trumps first where they are not a suit of the pack, as players sort
    hands = []
    for seat in range(rules.seats):
        cards = [faces[index] | {"legal": bool(legal >> index & 1) and seat == state.to_move}
                 for index in order if state.hands[seat] >> index & 1]
        # where every seat plays for itself there are no defenders and no card points: the attacker, else no side
        hands.append({"seat": seat + 1, "cards": cards, "declarer": seat == rules.declarer,
                      "side": ("attacker" if seat == rules.declarer else None) if per_seat else
                      "declarers" if seat in declaring else "defenders",
                      "tricks": state.tricks[seat], "points": None if per_seat else state.points[seat]})
    played_moves = [pack[card].name for card in position.played]
    pot, pot_error = pot_and_fault(position)
    return {
        "board": board.id, "label": board.label, "game": game.name, "seats": rules.seats,
        "contract": str(rules.contract), "contract_words": game.contract_in_words(rules.contract),
        "contract_suit": suit_sign(pack, rules.contract.suit),
        "declarer": rules.declarer + 1, "declarer_title": game.declarer_title, "partner": [s + 1 for s in partner],
        "partner_public": partner_public(position), "called": called_card(position),
        "declaring_side": _side_text(declaring), "per_seat": per_seat,
        "announcements": record.get("Announcements") or "", "variant": rules.variant.text(),
        "variant_note": board.variant_note,
        "event": visible(record.get("Event") or ""),  # shown on the page as its title is: controls as escapes
        "hands": hands, "trick": trick, "history": history, "sides": sides,
        "to_move": None if state.is_over else state.to_move + 1, "is_over": state.is_over,
        "leader": state.leader + 1, "moves": played_moves, "whole": game.is_whole(rules.deal),
        "objectives": describe_objectives(position), "default_objective": default_objective(position),
        "record_moves": [pack[card].name for card in board.record_play],
        "points_in_deal": rules.points_in_deal, "tricks_in_deal": rules.tricks_in_deal,
        "whole_deal": game.is_whole(rules.deal),
        "score_unit": game.score_unit,
        "settlement": final_settlement(position),
        "pot": pot, "pot_error": pot_error,
        "command": command_line(board, played_moves),
        "needs_save": not names_its_file(board),
    }


def names_its_file(board: Board) -> bool:
    """Whether the board's command names its own file: a file named on the command line, by a name a shell can be
    given as text (one not UTF-8 cannot); any other record must be saved first (Save .tbn)."""
    if not board.named:
        return False
    try:
        board.named.encode("utf-8")  # a byte that is not UTF-8 is a lone surrogate
    except UnicodeEncodeError:
        return False
    return True


def command_line(board: Board, moves: Sequence[str]) -> str:
    """The ``stich solve`` command giving the card values of the position ``moves`` reach, quoted for a shell, so
    that a player can take the position shown to the command line: a file named on the command line by its
    absolute name (a shell in any directory finds it), its ``--board`` (``--record N`` where ``--board`` would say
    other records too: :attr:`Board.board_tag_picks_alone`) and the board's ``--variant`` flags of its game; any
    other record by the name Save .tbn downloads it under (the saved record carries those flags). ``--from-start``
    plays the moves from the deal's start, whatever the record's own Play section holds. A file name starting with
    ``-`` gets ``./``, not to be read as an option."""
    record = board.record
    if names_its_file(board):
        tag = record.board
        by_tag = tag and board.board_tag_picks_alone
        words = [board.named, *(["--board", tag] if by_tag else ["--record", str(board.number)])]
        for name, value in board.variant_flags.items():
            words += ["--variant", f"{str(name).strip().lower()}={value_text(value)}"]
    else:
        words = [file_name_for(board)]
    if words[0].startswith("-"):
        words[0] = "./" + words[0]
    words.append("--from-start")
    if moves:
        words += ["--play", " ".join(moves)]
    return shlex.join(["stich", "solve", *words, "--cards"])


def pot_and_fault(position: Position) -> tuple[dict[str, Any] | None, str | None]:
    """The pot as a club table has it in the middle, for a game paid from one (Kratzen, RULES.md 3.4), and what is
    wrong with the record's ``[Pot]`` tag where it does not read, from one reading of it. The pot: the chips at the
    start, what each trick pays its winner (``per_trick``, and in words ``pays``: ``Game.pot_words``, as ``stich
    show`` and ``score`` say it), what the tricks taken have paid each seat and what is left (a missed target pays
    into it only at the end: the settlement), and whether a ``[Pot]`` tag gave it (``given``: a pot of 0 given on
    purpose asks for no pot, as ``stich score``'s note does not); None for the other games, or a [Pot] tag that does
    not read. The fault, in ``stich check``'s words, so that the board opens the record on its tricks and the
    contract panel says why it has no pot, not only the Score objective's refusal; None where the pot reads, or the
    game has none."""
    game = position.game
    if not game.has_pot:
        return None, None
    try:
        inputs = scoring_inputs(position)
    except StichError as error:
        return None, str(error)
    share = game.pot_share(position.rules, inputs)
    state = position.state
    won = [share * tricks for tricks in state.tricks]
    start = int(inputs)  # type: ignore[call-overload]  # a game with a pot: scoring_inputs is the pot
    return {"start": start, "per_trick": share, "pays": game.pot_words(position.rules.contract, start), "won": won,
            "left": start - sum(won), "given": pot_given(position)}, None


def final_settlement(position: Position) -> dict[str, Any] | None:
    """What a settled deal pays (the record's announcements and pot, as ``stich score`` scores it): each seat's
    payment, the pot's change and the score's notes, for the table to say once the play settles it (at the end, or
    where the game ends a deal sooner: a lost Tout, ``Game.play_settles``); None before, or where the deal cannot be
    scored (what is wrong is the score command's to say)."""
    if not position.game.play_settles(position.rules, position.state):
        return None
    try:
        settled = score_deal(position)
    except StichError:
        return None
    return {"payments": list(settled.payments), "pot": settled.pot, "pot_change": settled.pot_change,
            "notes": list(settled.notes)}


def values_document(position: Position, objective: str, result: Any) -> dict[str, Any]:
    """A SolveResult with card values as the page reads it (:func:`card_values_document`): its ``seconds`` is the
    search's time, null where there was no search (a finished deal, a last card that is the only one): the page
    shows a time only where one was spent, not ``0 ms``."""
    pack = position.pack
    return card_values_document(position, objective, result.objective, total=result.total, achieved=result.achieved,
                                cards={pack[cv.card].name: result.achieved + cv.value for cv in result.card_values},
                                best=[card.name for card in result.best_cards()],
                                seconds=round(result.seconds, 4) if result.nodes else None, nodes=result.nodes)


def card_values_document(position: Position, name: str, objective: Objective, *, total: int, achieved: int,
                         cards: dict[str, int], best: list[str], seconds: float | None,
                         nodes: int | None) -> dict[str, Any]:
    """The page's card values for the objective ``name`` (``objective``): each legal card's total for the
    objective's side (``cards``), the best cards (the mover's choice: the largest if the mover's side maximises,
    else the smallest) and the objective's ``title`` as players name it (``Game.row_title``, as the objective list
    has it) beside its identifier. One builder for a search of every card at once (:func:`values_document`) and the
    board's card by card search of a slow position, so that the page reads the same fields from both."""
    target = objective.target
    return {"kind": "values", "objective": name, "title": position.game.row_title(name),
            "total": total, "achieved": achieved, "cards": cards, "best": best, "target": target,
            "yes_no": target is not None, "maximiser": _side_text(objective.maximiser),
            "mover_maximises": position.state.to_move in objective.maximiser,
            "description": objective.description, "seconds": seconds, "nodes": nodes}


def graph_measure(position: Position, objective: object) -> str:
    """What the evaluation graph follows for the page's objective: the score where the page values cards by it,
    else card points (tricks in a game without them; :func:`~solver.postmortem.analyse_play` picks)."""
    if objective is not None and not isinstance(objective, str):
        raise BoardError(f"the objective is a name, not {sent(objective)}")
    names = objective_names(position)
    # "points" is card points, or tricks where a game has none; the score falls back to them where it is not offered
    if objective not in (None, "", "points", SCORE, *names):
        raise BoardError(f"objective {sent(objective)} is not one of this contract's: {', '.join(names)}")
    return SCORE if objective == SCORE and SCORE in names else "points"


def curve_document(analysis: Any) -> dict[str, Any]:
    """The post-mortem as the page's graph: the declaring side's total before the play and after each card, every
    card's grade, cost and best alternatives, and the cards after which the game (Kratzen: the attacker's target)
    changed hands, as ``stich postmortem`` names them (``game``: what changed hands, null where nothing can), and
    ``winning``, the line on the curve's own scale at or above which it is won (``PlayAnalysis.winning``: 61 or 45
    card points, the attacker's 2 tricks, the score's 0 where its sign decides the game; null where the curve has
    none), which the graph draws dashed: a curve on it wins, one a point under it loses (RULES.md 1.1, 2.4);
    ``whole_deal`` false in an ending, whose line is the whole deal's on the ending's own cards, as the CLI says;
    ``points_winning`` by the score where the game changes hands on the card points' line instead (Zwanzigerrufen's
    45: ``PlayAnalysis.points_winning``), which the note names for the rings; ``settled_after``, ``{card, trick}``
    where the rules end the deal while the moves go on (a lost Tout: ``PlayAnalysis.settled_after``), else null,
    which the graph says, since the cards after it are graded as if the deal went on; ``lost_line``, how many cards
    lost value in the curve's measure (:func:`~solver.postmortem.lost_value_line`: a bonus thrown away at no cost
    counted apart), the note's words for the coloured dots; ``points_note``, graded by card points that the
    contract's score does not count (a Tout, a Sie: :attr:`~solver.postmortem.PlayAnalysis.points_note`), the
    line the note ends with, else null. Each card's ``bonus_titles`` names its ``bonuses_lost`` as players do
    (``Game.lost_bonus_title``: ``Schneider against`` for ``schneider_against``), as ``stich postmortem`` prints
    them; the names themselves stay the identifiers."""
    from ..postmortem import lost_value_line, settled_after_document  # loaded with its analysis

    line = analysis.game_line
    winning, points_winning = analysis.winning, analysis.points_winning
    title = get_game(analysis.game).lost_bonus_title
    cards = [{**card.as_dict(), "bonus_titles": {name: title(name) for name in card.bonuses_lost}}
             for card in analysis.cards]
    return {"kind": "curve", "measure": analysis.measure, "curve": list(analysis.curve),
            "declaring_side": list(analysis.declaring_side), "trick_ends": list(analysis.trick_ends),
            "cards": cards, "game": None if line is None else line[0],
            "game_changes": [{"number": number, "won": won} for number, won in analysis.game_changes],
            "winning": None if winning is None else {"name": winning[0], "value": winning[1]},
            "whole_deal": analysis.whole_deal, "settled_after": settled_after_document(analysis.settled_after),
            "lost_line": lost_value_line({"cards": cards, "measure": analysis.measure}),
            "points_note": analysis.points_note,
            "points_winning": None if points_winning is None else {"name": points_winning[0],
                                                                   "value": points_winning[1]}}


def odds_document(analysis: Any) -> dict[str, Any]:
    """The page's odds: the analysis's figures with its intervals' ends as computed (the page says itself where one
    has no width, where the JSON document writes nulls), and each bonus's ``title``, the name players use
    (``Game.row_title``: ``Schneider against``, not ``schneider_against``), as ``stich analyse`` prints it."""
    document = analysis.as_dict()
    title = get_game(analysis.game).row_title
    score_interval = None if analysis.score_interval is None else list(analysis.score_interval)
    return {"kind": "odds", "seat": analysis.seat, "samples": analysis.samples, "measure": analysis.measure,
            "win_probability": analysis.win_probability, "win_interval": document.get("win_interval"),
            "mean": analysis.mean, "interval": list(analysis.interval),
            "score_mean": document.get("score_mean"), "score_interval": score_interval,
            "openings": document["openings"],
            "bonuses": [{**bonus, "title": title(bonus["objective"])} for bonus in document.get("bonuses", [])]}


def saved_record(board: Board, moves: Sequence[object]) -> str:
    """The board's record with the Play section of ``moves`` (``Position.to_tbn``: one line a trick), its other tags
    and comments kept: what every other command reads. A blank line ends it, as every .tbn file stich writes, so
    that saved files can be concatenated.

    While ``moves`` begin with the record's own play, the record's Play section is played on, so that it keeps its
    place among the tags and the comments between its cards (saved at its own last card, the record comes back as
    it was read); its ``[Result]`` goes once other cards are played, as it is the result of another game. Moves that
    leave the record's play start from its deal, and its Play section's comments stand before the new one."""
    try:
        position = board.position(moves)
        own = board.record_play
        if position.played[:len(own)] == own:
            record = board.record
            if position.played != own:
                record = copy.deepcopy(record)
                record.remove("Result")
            position = position_from_record(record).play_cards(list(position.played[len(own):]))
        return position.to_tbn() + "\n"
    except ValueError as error:  # a tag or comment read from the file that cannot be written back as it was
        if isinstance(error, StichError):
            raise
        raise InvalidPositionError(f"the record cannot be written: {error}") from None


def attachment_header(name: str) -> str:
    """The Content-Disposition of a download named ``name``. A header is Latin-1, so a name in other letters (a file
    uploaded as ``şah.tbn``) failed the save with a UnicodeEncodeError: such a name goes as RFC 6266's ``filename*``
    in UTF-8, beside an ASCII ``filename`` for a client without it."""
    plain = "".join(char if char.isascii() else "_" for char in name)
    if plain == name:
        return f'attachment; filename="{name}"'
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{urllib.parse.quote(name)}"


def file_name_for(board: Board) -> str:
    """A download name: the record's source name with its board number, safe for a Content-Disposition header."""
    stem = Path(board.record.source).stem if board.record.source and not board.record.source.startswith("<") \
        else board.start.game.name.lower()
    number = board.record.get("Board") or ""
    name = f"{stem}-{number}" if number else stem
    name = "".join(char if char.isalnum() or char in "-_" else "_" for char in name)[:80] or "board"
    return name + ".tbn"
