"""The ``[Announcements]`` tag: who announced what, and the Kontra levels (a game with ``has_announcements``).

Grammar (case-insensitive; documented in docs/format.md)::

    announcements := entry (";" entry)*
    entry         := seat ":" item ("," item)*
    item          := level [bonus]              a Kontra level on the game, or on an announced bonus
                   | bonus ["dagegen" | "dazu"] a bonus announced (by the defenders with "dagegen"; "dazu", with
                                                the declarers, is their own announcement said explicitly)
    level         := "Kontra" | "Retour" | "Rekontra" | "Supra" | "Resupra"
    bonus         := "Absolut" | "Pagat" ["Ultimo"] | "PagatUltimo" | "Valat" | "Trull" | "Koenige" | "4Kings"
                     | "Mondfang"

Play only needs the Pagat announcer (flag ``hard_pagat_reservation``); scoring reads the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .deal import small_number
from .errors import InvalidSeatError, StichError

LEVELS = {"kontra": 2, "retour": 4, "rekontra": 4, "supra": 8, "resupra": 16}
BONUSES = {
    "absolut": "absolut", "pagat": "pagat_ultimo", "pagatultimo": "pagat_ultimo", "ultimo": "pagat_ultimo",
    "valat": "valat", "trull": "trull", "koenige": "four_kings", "könige": "four_kings", "4kings": "four_kings",
    "kings": "four_kings", "mondfang": "mondfang", "game": "game", "spiel": "game",
}


@dataclass(frozen=True)
class Announcement:
    """One item: ``level`` 1 for an announcement, 2/4/8/16 for a Kontra level on ``bonus`` (``game`` if unnamed)."""

    seat: int  # 1-based
    bonus: str
    against: bool = False
    level: int = 1
    #: said with "dazu" (with the declarers: seeds/000 has every bonus said "dazu" or "dagegen"), which a
    #: defender may not say; a bare bonus leaves the seat's side to the deal
    dazu: bool = False
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
        seat_text, colon, items = entry.partition(":")
        seat = small_number(seat_text)
        if not colon or seat is None:
            raise StichError(f"announcement {entry!r} does not start with a seat and a colon (e.g. '2: Kontra')")
        if not 1 <= seat <= seats:
            raise InvalidSeatError(f"announcement {entry!r}: seat {seat} is not a seat of this {seats}-seat deal")
        item_start = entry_start + raw_entry.index(":") + 1
        for raw_item in items.split(","):
            item = raw_item.strip()
            offset = item_start + (raw_item.index(item) if item else 0)
            item_start += len(raw_item) + 1
            if item:
                result.append(replace(_parse_item(seat, item), offset=offset))
    return result


def _parse_item(seat: int, item: str) -> Announcement:
    words = [w.lower() for w in item.split()]
    if words and words[0] in LEVELS:
        bonus = "game"
        if len(words) == 2 and words[1] in BONUSES:
            bonus = BONUSES[words[1]]
        elif len(words) == 3 and words[1] == "pagat" and words[2] == "ultimo":
            bonus = "pagat_ultimo"
        elif len(words) != 1:
            raise StichError(f"announcement {item!r}: expected a Kontra level, optionally followed by a bonus")
        return Announcement(seat, bonus, level=LEVELS[words[0]])
    side_word = words[-1] if words and words[-1] in ("dagegen", "dazu") else ""
    if side_word:
        words = words[:-1]
    if words[:2] == ["pagat", "ultimo"]:
        words = ["pagatultimo"] + words[2:]
    if len(words) != 1 or words[0] not in BONUSES:
        raise StichError(f"announcement {item!r}: expected a bonus (Absolut, Pagat, Valat, Trull, Koenige, "
                         f"Mondfang) optionally followed by 'dagegen' or 'dazu', or Kontra/Retour/Supra/Resupra")
    return Announcement(seat, BONUSES[words[0]], against=side_word == "dagegen", dazu=side_word == "dazu")


def pagat_announcer(announcements: list[Announcement]) -> int | None:
    """The seat (1-based) that announced Pagat Ultimo, if any."""
    for item in announcements:
        if item.bonus == "pagat_ultimo" and item.level == 1:
            return item.seat
    return None
