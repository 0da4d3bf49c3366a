"""The hand diagram: a position drawn as players see a deal, the hands around a table.

One drawing serves every reader: ``str(position)``, ``stich show`` and the top of ``solve``, ``check`` and
``postmortem`` print :func:`diagram`, and Jupyter shows :func:`diagram_html` (``Position._repr_html_``), as
python-chess boards do. Seat 1 sits at the bottom and the seats follow round the table (left, top, right), 3 to 6 of
them in a 3 x 3 grid of places whose centre holds the trick on the table.

Each hand lists its cards a suit to a line, strongest first, in the pack's order; where the contract's trumps are
not a suit of the pack (Schafkopf's Obers, Unters and trump suit, Kratzen's trump suit and Weli), they come first on
a line of their own, ``T``, strongest first and by name, as players sort a hand. A French-suited pack (suits
S C H D) shows the suit signs; the German packs keep their letters (E G H S), as players write
them. Markers say who declares, who led the trick in progress and who is to play, and what each seat has won. A finished
deal shows the hands as dealt, with what each seat won; a deal the rules end sooner (a Schafkopf Sie, a lost Tout)
says so, in the game's words, in place of whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Sequence

from .cards import Pack, bits
from .errors import StichError, visible
from .games import get_game
from .games.outcome import role_text

if TYPE_CHECKING:
    from .position import Position

SIGNS = {"spades": "♠", "clubs": "♣", "hearts": "♥", "diamonds": "♦"}

#: The grid places (row, column) of seats 1, 2, ... for each seat count: seat 1 at the bottom, then clockwise.
PLACES = {
    3: ((2, 1), (1, 0), (1, 2)),
    4: ((2, 1), (1, 0), (0, 1), (1, 2)),
    5: ((2, 1), (1, 0), (0, 0), (0, 2), (1, 2)),
    6: ((2, 1), (2, 0), (0, 0), (0, 1), (0, 2), (2, 2)),
}
_GAP = 3  # spaces between the grid's columns
#: The width a diagram keeps to by default (a terminal's 80 columns), wrapping its longest card lines where it would
#: not (a narrower ``width`` stacks the hands where even that does not fit).
WIDTH = 80
#: A card line wrapped to fit WIDTH is at most this wide: three columns of it, the gaps and the widest title fit.
WRAPPED_CARD_LINE = 24


@dataclass(frozen=True)
class SuitStyle:
    """How one pack's suits are labelled: the sign (French packs, when the output can show it) or the letter, and
    which suits print red."""

    labels: dict[str, str]
    red: frozenset[str]

    @classmethod
    def of(cls, pack: Pack, signs: bool = True) -> "SuitStyle":
        letters = pack.sign_letters
        french = bool(letters) and all(letters.get(suit) == suit[0].upper() for suit in SIGNS)
        labels = {letters[suit]: sign for suit, sign in SIGNS.items()} if french and signs else {}
        red = ("hearts", "diamonds") if french else ("hearts",)
        return cls(labels, frozenset(letters[suit] for suit in red if suit in letters))

    def suit(self, letter: str) -> str:
        return self.labels.get(letter, letter)

    def card(self, pack: Pack, index: int) -> str:
        """A card as the diagram writes it: ``♠K`` in a French pack, its name otherwise."""
        card = pack[index]
        if card.suit in self.labels and card.name == card.suit + card.rank:
            return self.labels[card.suit] + card.rank
        return card.name


def card_names(game: str, cards: Sequence[str], between: str = " ") -> str:
    """Cards by name as the hand diagram writes them (``♠K ♥K`` in a French pack; their names without a game): the
    one spelling of a report's cards (an analysis, a post-mortem, advice)."""
    if not game:
        return between.join(cards)
    pack = get_game(game).pack
    style = SuitStyle.of(pack)
    return between.join(style.card(pack, pack.parse(card).index) for card in cards)


#: The label of the trumps' line where they are not one of the pack's suits (the tarocks' own letter).
TRUMPS = "T"


def _suits(pack: Pack) -> list[str]:
    """The pack's suit letters in pack order (strongest first)."""
    suits: list[str] = []
    for card in pack:
        if card.suit not in suits:
            suits.append(card.suit)
    return suits


@dataclass(frozen=True)
class _Seat:
    """What the diagram says of one seat: its title line, its suit lines (label, ranks), what it has won."""

    title: str
    suits: tuple[tuple[str, str, tuple[str, ...]], ...]  # (suit letter, label, ranks)
    won: str


def _roles(position: "Position", seat: int) -> list[str]:
    rules, state = position.rules, position.state
    roles = []
    if seat == rules.declarer:
        roles.append(position.game.declarer_title)
    elif seat in rules.declaring_side and len(rules.declaring_side) < rules.seats:
        roles.append("partner")
    if not state.is_over and not _settled_words(position):
        if state.trick and seat == state.leader:
            roles.append("led")
        if seat == state.to_move:
            roles.append("to play")
    return roles


def _trump_order(position: "Position") -> list[int]:
    """The contract's trumps, strongest first, where they are not a suit of the pack (Schafkopf's Obers, Unters and
    trump suit, Kratzen's trump suit and Weli): players sort a hand so. Empty where the pack's own suit is the trumps
    (Zwanzigerrufen's tarocks) or the rules have none."""
    ranks = getattr(position.rules, "trump_rank", None)
    if not ranks or TRUMPS in _suits(position.pack):
        return []
    return sorted(ranks, key=lambda card: -ranks[card])


def display_order(position: "Position") -> list[int]:
    """Every card of the pack in the order a hand is shown: the contract's trumps first where they are not a suit of
    the pack (:func:`_trump_order`), then the pack's order. The board lays its hands out so too."""
    trumps = _trump_order(position)
    return trumps + [card.index for card in position.pack.cards if card.index not in trumps]


def _seat(position: "Position", seat: int, style: SuitStyle, with_points: bool) -> _Seat:
    pack, state = position.pack, position.state
    roles = _roles(position, seat)
    title = f"Seat {seat + 1}" + (f" ({', '.join(roles)})" if roles else "")
    hand = position.rules.deal.hands[seat] if state.is_over else state.hands[seat]  # a finished deal: as dealt
    suits = []
    trumps = _trump_order(position)
    if trumps:  # the contract's trumps on a line of their own, strongest first, by name (EO GO ... HA HZ)
        suits.append((TRUMPS, TRUMPS, tuple(style.card(pack, i) for i in trumps if hand >> i & 1)))
    for letter in _suits(pack):
        if trumps and all(card.index in trumps for card in pack.cards if card.suit == letter):
            continue  # the trump suit itself: every card of it is on the trumps' line
        ranks = tuple(pack[i].rank for i in bits(hand) if pack[i].suit == letter and i not in trumps)
        suits.append((letter, style.suit(letter), ranks))
    tricks = state.tricks[seat] if state.tricks else 0
    won = f"won {tricks} trick{'' if tricks == 1 else 's'}"
    if with_points and state.points:
        points = state.points[seat]
        won += f", {points} point{'' if points == 1 else 's'}"
    return _Seat(title, tuple(suits), won)


def position_heading(position: "Position") -> str:
    """The diagram's first line: ``board 1: Schafkopf Rufer G, declarer 1 (declarers 1+3); rules: ...`` (the board
    where the position has a record), which a solve result's notebook view takes as its title too."""
    rules = position.rules
    game = position.game
    head = f"{game.name} {game.contract_in_words(rules.contract)}, {game.declarer_title} {rules.declarer + 1}"
    if len(rules.declaring_side) < rules.seats and len(rules.declaring_side) > 1:
        head += f" (declarers {rules.describe_side(rules.declaring_side)})"
    head += rules.variant.note()  # the flags it is played under, as the commands' titles say them
    return head if position.record is None else f"{position.label}: {head}"


def _settled_words(position: "Position") -> str | None:
    """Why the rules end the deal before its last trick (a Schafkopf Sie as dealt), in the game's words."""
    return position.game.settled_words(position.rules, position.state)


def _table_lines(position: "Position", style: SuitStyle) -> list[str]:
    """The centre of the table: the trick number, the cards on the table in playing order, who is to play."""
    state, pack = position.state, position.pack
    total = len(state.history) + state.tricks_left
    if state.is_over:
        return ["the deal is over", f"after {total} trick{'' if total == 1 else 's'};", "the hands as dealt"]
    settled = _settled_words(position)
    if settled:
        return ["the deal is over", settled]
    lines = [f"trick {len(state.history) + 1} of {total}"]
    for offset, card in enumerate(state.trick):
        seat = (state.leader + offset) % state.seats
        lines.append(f"{seat + 1}: {style.card(pack, card)}" + (" led" if offset == 0 else ""))
    if not state.trick:
        lines.append(f"seat {state.to_move + 1} leads")
    else:
        lines.append(f"seat {state.to_move + 1} to play")
    return lines


def _seats(position: "Position", style: SuitStyle) -> list[_Seat]:
    with_points = any(card.points for card in position.pack)
    return [_seat(position, seat, style, with_points) for seat in range(position.state.seats)]


def _grid(position: "Position", blocks: list[list[str]], centre: list[str]) -> list[list[list[str]]]:
    grid: list[list[list[str]]] = [[[] for _ in range(3)] for _ in range(3)]
    for seat, (row, column) in enumerate(PLACES[len(blocks)]):
        grid[row][column] = blocks[seat]
    grid[1][1] = centre
    return grid


def diagram(position: "Position", *, signs: bool = True, heading: bool = True, width: int = WIDTH) -> str:
    """The position as text: a heading, the hands around the table, the trick in the centre. ``signs=False``
    writes suit letters where the output cannot show the suit signs; ``heading=False`` leaves the heading to the
    caller (a command's record title above it). The table keeps to ``width`` columns (a narrow terminal's): where
    it would not fit even with its longest card lines wrapped, the trick and the hands are stacked, one under the
    other, rather than left for the terminal to break the table apart (the heading and the lines of what the score
    reads are text, which a terminal wraps as any)."""
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise StichError(f"the diagram's width is a number of columns (1 or more), not {width!r}")
    style = SuitStyle.of(position.pack, signs)
    seats = _seats(position, style)
    centre = _table_lines(position, style)
    body = _table(position, seats, centre, None)
    if max(len(line) for line in body) > min(width, WIDTH):
        body = _table(position, seats, centre, WRAPPED_CARD_LINE)
    if max(len(line) for line in body) > width:
        body = _stacked(seats, centre, width)
    out = [position_heading(position), ""] if heading else [""]  # a blank line under the caller's title
    return "\n".join(out + _scoring_facts(position) + body).rstrip() + "\n"


def _stacked(seats: list[_Seat], centre: list[str], width: int) -> list[str]:
    """The diagram's lines under its heading for a width the table does not fit: the trick in its box, then each
    seat's hand in seat order, its card lines wrapped to ``width``."""
    out = [*_boxed(centre), ""]
    for seat in seats:
        out += [*_block(seat, width), ""]
    return out


def _boxed(centre: list[str]) -> list[str]:
    """The centre of the table (:func:`_table_lines`) in its box, as the table and the stacked diagram draw it."""
    inner = max(len(line) for line in centre)
    rule = "+" + "-" * (inner + 2) + "+"
    return [rule, *(f"| {line:<{inner}} |" for line in centre), rule]


def _block(seat: _Seat, wrap: int | None) -> list[str]:
    """One seat's hand as the table and the stacked diagram draw it: its title, a line a suit (wrapped to ``wrap``
    columns where set) with the suit labels in one column, and what it has won."""
    label_width = max((len(label) for _, label, _ in seat.suits), default=1)
    lines = [seat.title]
    for _, label, ranks in seat.suits:
        lines += _card_lines(label, label_width, ranks, wrap)
    lines.append(seat.won)
    return lines


def _scoring_facts(position: "Position") -> list[str]:
    """What the record says besides the cards that the score reads: its announcements and its pot, as given (the
    hands alone do not show them, and a player reading the diagram weighs the play by them)."""
    record = position.record
    if record is None:
        return []
    announced, pot = (visible((record.get(tag) or "").strip()) for tag in ("Announcements", "Pot"))
    # a game paid from a pot scores a record without a tag at 0 (docs/scoring.md): said so, as the board says it
    # (the way to give a pot is said once on stderr by the command, not in each record's diagram)
    pots = _pot_facts(position, pot or "0") if pot or position.game.has_pot else []
    facts = ([f"announced: {announced}"] if announced else []) + pots
    return facts + [""] if facts else []


def _pot_facts(position: "Position", pot: str) -> list[str]:
    """The pot, what each trick pays from it and every seat's trick target (RULES.md 3.3-3.4): the board says them
    beside the table, and the penalty for a missed target is paid from the same pot."""
    if not pot.isdigit() or not position.game.has_pot:
        return [f"pot: {pot} chip{'' if pot == '1' else 's'}"]  # the tag as given (parsed before)
    count = int(pot)  # a tag "01" is 1 chip
    chips = f"pot: {count:,} chip{'' if count == 1 else 's'}"
    rules = position.rules
    lines = [f"{chips}, {position.game.pot_words(rules.contract, count)}"]
    target = getattr(rules, "target", None)
    if target is not None:
        lines.append(f"targets: {_targets_text(position, [target(seat) for seat in range(rules.seats)])}")
    return lines


def _targets_text(position: "Position", targets: list[int]) -> str:
    """Every seat's trick target in few words: the attacker's, then the one all the others share."""
    def tricks(count: int) -> str:
        return f"{count} trick{'' if count == 1 else 's'}"

    attacker = position.rules.declarer
    others = {count for seat, count in enumerate(targets) if seat != attacker}
    if others == {targets[attacker]}:
        return f"every seat {tricks(targets[attacker])}"
    if len(others) == 1:
        role = role_text(position.game.declarer_title, [attacker + 1])
        return (f"{role} {tricks(targets[attacker])}, every other seat "
                f"{tricks(others.pop())}")
    return ", ".join(f"seat {seat + 1} {tricks(count)}" for seat, count in enumerate(targets))


def _card_lines(label: str, width: int, ranks: tuple[str, ...], wrap: int | None) -> list[str]:
    """One suit of a hand: its label and ranks, on more lines (indented under the first rank) when ``wrap`` is set
    and one line would be wider."""
    lines = [f"{label:<{width}}"]
    for rank in ranks or ("-",):
        if wrap is not None and len(lines[-1]) + 1 + len(rank) > wrap and lines[-1].strip():
            lines.append(" " * width)
        lines[-1] += " " + rank
    return lines


def _table(position: "Position", seats: list[_Seat], centre: list[str], wrap: int | None) -> list[str]:
    """The diagram's lines under its heading, each card line at most ``wrap`` wide (None: one line a suit)."""
    grid = _grid(position, [_block(seat, wrap) for seat in seats], _boxed(centre))
    widths = [max((len(line) for row in grid for line in row[column]), default=0) for column in range(3)]
    out = []
    for row in grid:
        height = max(len(cell) for cell in row)
        if not height:
            continue
        for i in range(height):
            parts = [(cell[i] if i < len(cell) else "").ljust(widths[column]) for column, cell in enumerate(row)]
            out.append((" " * _GAP).join(part for part in parts).rstrip())
        out.append("")
    return out


def diagram_html(position: "Position") -> str:
    """The position as an HTML table (Jupyter's ``_repr_html_``): the same places and markers as :func:`diagram`,
    red suits in red."""
    style = SuitStyle.of(position.pack)
    cells = []
    for seat in _seats(position, style):
        lines = [f"<b>{escape(seat.title)}</b>"]
        for letter, label, ranks in seat.suits:
            colour = ' style="color:#c00"' if letter in style.red else ""
            lines.append(f"<span{colour}>{escape(label)}</span> {escape(' '.join(ranks) or '-')}")
        lines.append(f"<small>{escape(seat.won)}</small>")
        cells.append(["<br>".join(lines)])
    centre = ["<br>".join(escape(line) for line in _table_lines(position, style))]
    grid = _grid(position, cells, centre)
    rows = []
    for row in grid:
        tds = []
        for column, cell in enumerate(row):
            look = "border:1px solid #888;background:#eef5ee;" if cell is centre else ""
            tds.append(f'<td style="{look}vertical-align:top;text-align:left;padding:4px 10px;'
                       f'font-family:monospace">{cell[0] if cell else ""}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    return (f'<div><p style="font-weight:bold">{escape(position_heading(position))}</p>'
            f'<table style="border-collapse:collapse">{"".join(rows)}</table></div>')


__all__ = ["PLACES", "SIGNS", "WIDTH", "SuitStyle", "diagram", "diagram_html"]
