"""The ``[Announcements]`` tag: who announced what, and the Kontra levels (a game with ``has_announcements``).

Grammar (case-insensitive; documented in docs/scoring.md)::

    announcements := entry (";" entry)*
    entry         := seat ":" item ("," item)*
    item          := level [bonus | "Game" | "Spiel"]
                                                a Kontra level on the game (named or not), or on an announced bonus
                   | bonus ["dagegen" | "dazu"] a bonus announced (by the defenders with "dagegen"; "dazu", with
                                                the declarers, is their own announcement said explicitly)
    level         := "Kontra" | "Retour" | "Rekontra" | "Supra" | "Resupra"
    bonus         := "Absolut" | "Pagat" ["Ultimo"] | "PagatUltimo" | "Ultimo" | "Valat" | "Trull" | kings
                     | "Mondfang"
    kings         := ["4" | "Four" | "Vier"] ("Kings" | "Koenige" | "Könige") | "4Kings"

Play only needs the Pagat announcer (flag ``hard_pagat_reservation``); scoring reads the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .deal import small_number
from .errors import InvalidSeatError, ParseError, StichError, did_you_mean

if TYPE_CHECKING:
    from .formats.tbn import Record

LEVELS = {"kontra": 2, "retour": 4, "rekontra": 4, "supra": 8, "resupra": 16}
#: The Kontra levels as an error message lists them, read from LEVELS so that none is left out.
LEVEL_NAMES = "/".join(level.capitalize() for level in LEVELS)
#: The bonuses as an error message lists them.
BONUS_NAMES = "Absolut, Pagat, Valat, Trull, 4 Kings, Mondfang"
BONUSES = {
    "absolut": "absolut", "pagat": "pagat_ultimo", "pagatultimo": "pagat_ultimo", "ultimo": "pagat_ultimo",
    "valat": "valat", "trull": "trull", "koenige": "four_kings", "könige": "four_kings", "4kings": "four_kings",
    "kings": "four_kings", "mondfang": "mondfang", "game": "game", "spiel": "game",
}
#: The words a count says the four Kings with, as RULES.md and the score's item title write them ("4 Kings", "Vier
#: Könige"): "4 Kings" is one bonus, said in two words.
KING_COUNTS = ("4", "four", "vier")
KING_WORDS = ("kings", "koenige", "könige")
#: The words after a bonus that say whose it is: the defenders' ("dagegen") or the declarers' ("dazu").
SIDE_WORDS = ("dagegen", "dazu")


#: The one-word forms :func:`_joined_bonus` makes of a two-word bonus name: read, but not offered for a misspelling
#: ('Pagat' is, not 'Pagatultimo').
JOINED_BONUS_WORDS = ("pagatultimo", "4kings")

#: The words an item is made of, as a "did you mean" names them ("Contra": 'Kontra'), read from the words the items
#: are parsed with so that none is left out.
ITEM_WORDS = {**{word: word.capitalize() for word in (*LEVELS, *BONUSES, *KING_WORDS)
                 if word not in JOINED_BONUS_WORDS},
              **{word: word for word in SIDE_WORDS}}


def _meant(words: list[str]) -> str:
    """``"; did you mean 'Kontra'?"`` for the first word of an item that is none of its words (:data:`ITEM_WORDS`),
    or ``""``: said after the reason, as a contract's hint is."""
    known = {*ITEM_WORDS, *BONUSES, *KING_COUNTS}
    unknown = next((word for word in words if word not in known), None)
    return "" if unknown is None else did_you_mean(unknown, ITEM_WORDS)


def _joined_bonus(words: list[str]) -> list[str]:
    """``words`` with a two-word bonus name ("Pagat Ultimo", "4 Kings", "Vier Könige") said as one word."""
    pagat_ultimo, four_kings = JOINED_BONUS_WORDS
    if words[:2] == ["pagat", "ultimo"]:
        return [pagat_ultimo] + words[2:]
    if len(words) >= 2 and words[0] in KING_COUNTS and words[1] in KING_WORDS:
        return [four_kings] + words[2:]
    return words


class AnnouncementSyntaxError(StichError):
    """An entry or item of the tag that does not parse, with its offset in the tag value and its text, so that a
    record's reader points at the very item (``file:line:column``), not at the start of the tag."""

    def __init__(self, message: str, offset: int, text: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.text = text


class AnnouncementSeatError(AnnouncementSyntaxError, InvalidSeatError):
    """An entry whose seat is not one of the deal's: pointed at the entry, and still "no such seat"."""


@dataclass(frozen=True)
class Announcement:
    """One item: ``level`` 1 for an announcement, 2/4/8/16 for a Kontra level on ``bonus`` (``game`` if unnamed)."""

    seat: int  # 1-based
    bonus: str
    against: bool = False
    level: int = 1
    #: said with "dazu" (with the declarers: seeds/000 has every bonus said "dazu" or "dagegen"), which a
    #: defender may not say; a bare bonus leaves the seat's side to the deal. Not compared: it scores as the bare
    #: bonus, so the claims (a settlement table's key) are the same either way
    dazu: bool = field(default=False, compare=False)
    #: where the item starts in the tag value (0-based; -1 when unknown), so that scoring can point at it
    offset: int = field(default=-1, compare=False)


def parse_announcements(text: str, seats: int = 4) -> list[Announcement]:
    """Parse the tag value; StichError naming the entry that does not parse. Each item keeps its offset in
    ``text`` so that a later check (scoring) can point at the very item it rejects."""
    result: list[Announcement] = []
    start = 0
    for raw_entry in text.split(";"):
        entry = raw_entry.strip()
        entry_start = start
        start += len(raw_entry) + 1
        if not entry:
            continue
        entry_offset = entry_start + raw_entry.index(entry)
        seat_text, colon, items = entry.partition(":")
        seat = small_number(seat_text)
        if not colon or seat is None:
            raise AnnouncementSyntaxError(f"announcement {entry!r} does not start with a seat and a colon (e.g. "
                                          "'2: Kontra')", entry_offset, entry)
        if not 1 <= seat <= seats:
            raise AnnouncementSeatError(f"announcement {entry!r}: seat {seat} is not a seat of this {seats}-seat deal",
                                        entry_offset, entry)
        item_start = entry_start + raw_entry.index(":") + 1
        for raw_item in items.split(","):
            item = raw_item.strip()
            offset = item_start + (raw_item.index(item) if item else 0)
            item_start += len(raw_item) + 1
            if item:
                try:
                    parsed = _parse_item(seat, item)
                except AnnouncementSyntaxError as error:
                    raise AnnouncementSyntaxError(str(error), offset, item) from None
                result.append(replace(parsed, offset=offset))
    return result


def _parse_item(seat: int, item: str) -> Announcement:
    words = [w.lower() for w in item.split()]
    if words and words[0] in LEVELS:
        bonus = "game"
        named = _joined_bonus(words[1:])
        if len(named) == 1 and named[0] in BONUSES:
            bonus = BONUSES[named[0]]
        elif len(words) != 1:
            raise AnnouncementSyntaxError(f"announcement {item!r}: expected one bonus after {item.split()[0]!r} "
                                          f"({BONUS_NAMES}, or none for the game){_meant(words[1:])}", 0, item)
        return Announcement(seat, bonus, level=LEVELS[words[0]])
    side_word = words[-1] if words and words[-1] in SIDE_WORDS else ""
    if side_word:
        words = words[:-1]
    words = _joined_bonus(words)
    if len(words) != 1 or words[0] not in BONUSES:
        raise AnnouncementSyntaxError(f"announcement {item!r}: expected a bonus ({BONUS_NAMES}) optionally followed by "
                                      f"'dagegen' or 'dazu', or {LEVEL_NAMES}{_meant(words)}", 0, item)
    return Announcement(seat, BONUSES[words[0]], against=side_word == "dagegen", dazu=side_word == "dazu")


def pagat_announcement(announcements: list[Announcement]) -> Announcement | None:
    """The item announcing Pagat Ultimo, if any."""
    for item in announcements:
        if item.bonus == "pagat_ultimo" and item.level == 1:
            return item
    return None


def pagat_announcer(announcements: list[Announcement]) -> int | None:
    """The seat (1-based) that announced Pagat Ultimo, if any."""
    item = pagat_announcement(announcements)
    return None if item is None else item.seat


def bad_announcement(item: Announcement, message: str) -> str:
    """The one wording of a refused announcement, wherever it is refused (scoring, the rules of play)."""
    return f"bad announcement: seat {item.seat}: {message}"


def announcement_error(text: str, item: Announcement, record: Record | None) -> StichError:
    """``text`` pointed at the item's place in the record's ``[Announcements]`` tag (a ParseError), or a plain
    StichError when the announcements are not the record's (``record`` None)."""
    tag = record.tag("Announcements") if record is not None else None
    if tag is None or record is None:
        return StichError(text)
    line, column = tag.value_line, tag.value_column
    token = tag.value
    if 0 <= item.offset < len(tag.value):
        line, column = tag.position(item.offset)
        token = tag.value[item.offset:].split(",")[0].split(";")[0].strip()
    return ParseError(text, source=record.source, line=line, column=column, token=token,
                      expected="announcements that RULES.md 1.7 allows")
