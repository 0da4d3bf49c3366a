"""Result types shared by the reference solver and the compiled engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import NamedTuple

from ..cards import Card, CardDict, CardIndex, Pack
from ..errors import StichError, UnknownGameError
from ..games import get_game
from ..games.base import Objective
from ..games.outcome import seats_of, side_text, without_title
from ..html_tables import html_table
from ..state import PlayState


class CardValue(NamedTuple):
    """The value of the rest of the deal (for the maximising side) if this card is played now: a pair, so that
    ``dict(result.card_values)`` maps pack indices to values and the values sort (``SolveResult.values_by_card``
    keys them by Cards). In a :class:`SolveResult` ``card`` is a :class:`CardIndex`: the pack index, printed by
    the card's name in a ``repr``. Typed ``int``, so that ``dict(result.card_values)[index]`` type-checks: a typed
    script reads the Card as ``position.pack[value.card]`` or from ``values_by_card()``."""

    card: int
    value: int


def seat_to_move(state: PlayState) -> int | None:
    """A result's ``to_move``: the 1-based seat to play, None when the deal is over, as :attr:`Position.to_move`
    and the JSON's ``to_move`` say it (a script compares the two)."""
    return None if state.is_over else state.to_move + 1


@dataclass(frozen=True)
class SolveResult:
    """The answer to one objective from one position.

    ``achieved`` is the reward already earned by completed tricks, ``future`` the double-dummy value of the rest,
    ``total`` their sum. For a yes/no objective ``success`` says whether the maximising side can force the target.
    ``to_move`` is the seat to play (1-based, as every seat of the API; None for a finished deal or a result made
    without one, as :attr:`Position.to_move`: :func:`seat_to_move`; it was 0 there, and both are falsy).
    """

    objective: Objective
    achieved: int
    future: int
    card_values: tuple[CardValue, ...] = ()
    line: tuple[int, ...] = ()
    nodes: int = field(default=0, compare=False)  # the effort, not the answer: equal answers compare equal
    seconds: float = field(default=0.0, compare=False)
    to_move: int | None = None
    pack: Pack | None = field(default=None, repr=False, compare=False)
    #: what was solved, as the position's diagram heads it (``board 1: Schafkopf Rufer G, declarer 1 (declarers
    #: 1+3); rules: ...``), which :func:`solver.solve` sets: the notebook view's title (empty: untitled)
    heading: str = field(default="", repr=False, compare=False)
    #: the score's only: the least and greatest net the position can settle at, its payoff table's
    #: (:attr:`~solver.search.settle.PayoffSpec.net_range`), within which the value and every card's lie; what a
    #: sampled payment's interval is cut to (:func:`solver.sampling.payment_range`). None for other objectives
    net_range: tuple[int, int] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        """The card values' indices as :class:`CardIndex` es, which print by name (the compiled engine's come named;
        the reference solver's and a result made by hand give plain ints)."""
        if self.pack is not None and any(not isinstance(cv.card, CardIndex) for cv in self.card_values):
            pack = self.pack
            named = tuple(cv if isinstance(cv.card, CardIndex) else
                          CardValue(CardIndex(cv.card, pack[cv.card]), cv.value) for cv in self.card_values)
            object.__setattr__(self, "card_values", named)

    @property
    def total(self) -> int:
        """The objective's value over the whole deal: what is won already plus the rest's double-dummy value."""
        return self.achieved + self.future

    @property
    def success(self) -> bool | None:
        """For a yes/no objective, whether the maximising side can force its target; None for one without a target."""
        target = self.objective.target
        return None if target is None else self.total >= target

    def card_success(self, value: int) -> bool | None:
        """Whether a card whose value (of the rest) is ``value`` keeps the target; None for an objective without one."""
        target = self.objective.target
        return None if target is None else self.achieved + value >= target

    def best_cards(self) -> list[Card]:
        """The cards that keep the value, as Cards (they print as and equal their names; ``.index`` is the pack
        index); none when the card values were not asked for (``cards=True``)."""
        pack = self._pack()
        return [pack[cv.card] for cv in self.card_values if cv.value == self.future]

    def card_names(self) -> dict[str, int]:
        """Each card value by the card's name."""
        pack = self._pack()
        return {pack[cv.card].name: cv.value for cv in self.card_values}

    def values_by_card(self) -> CardDict[int]:
        """Each card value by the card as a :class:`Card`, in the order of ``card_values``: for an app, whose cards
        print as their names, where ``card_values`` holds the engine's pack indices (``dict(result.card_values)``
        stays keyed by them). A Card equals and hashes as its name, so ``values_by_card()["T17"]`` finds it too."""
        pack = self._pack()
        return CardDict((pack[cv.card], cv.value) for cv in self.card_values)

    def line_names(self) -> list[str]:
        """The principal variation by the cards' names."""
        pack = self._pack()
        return [pack[c].name for c in self.line]

    def line_cards(self) -> list[Card]:
        """The principal variation as :class:`Card` s (``line`` holds their pack indices)."""
        pack = self._pack()
        return [pack[c] for c in self.line]

    def __repr__(self) -> str:
        """The answer by the cards' names (the fields hold pack indices)."""
        if self.pack is None:
            cards, line = [f"{cv.card}: {cv.value}" for cv in self.card_values], [str(card) for card in self.line]
        else:
            cards = [f"{name}: {value}" for name, value in self.card_names().items()]
            line = self.line_names()
        parts = [f"{self.objective.name}", f"total {self.total} (achieved {self.achieved} + future {self.future})"]
        if self.objective.target is not None:
            parts.append(f"target {self.objective.target}: {'yes' if self.success else 'no'}")
        if cards:
            parts.append("cards {" + ", ".join(cards) + "}")
        if line:
            parts.append("line " + " ".join(line))
        return f"<SolveResult {'; '.join(parts)}>"

    def objective_title(self) -> str:
        """The objective as players name it (``Game.row_title``: ``Valat against`` for
        ``valat_against``), as ``stich solve`` prints it; its name where it is no registered game's (made by hand, or
        by a game :func:`~solver.games.register_game` was not given), so that printing a result never fails."""
        name = self.objective.name
        try:
            return get_game(self.objective.game).row_title(name) if self.objective.game else name
        except UnknownGameError:
            return name

    def description(self) -> str:
        """The objective's description under its title, without the title again (``the defenders take every
        trick`` under ``Valat against``: :func:`without_title`)."""
        return without_title(self.objective.description, self.objective_title())

    def _lines(self) -> list[str]:
        """The answer for people, a line each: the value (and the target's yes/no), the cards, the line."""
        side = side_text(seats_of(self.objective.maximiser))
        head = f"{self.objective_title()} for {side}: {self.total}"
        if self.achieved:
            head += f" ({self.achieved} won already + {self.future} from the rest)"
        if self.objective.target is not None:
            head += f"; needs {self.objective.target}: {'yes' if self.success else 'no'}"
        lines = [head]
        if self.objective.description:
            lines.append(self.description())
        named = self.pack is not None
        if self.card_values:
            cards = self.card_names().items() if named else [(str(cv.card), cv.value) for cv in self.card_values]
            to_move = f"seat {self.to_move}'s " if self.to_move else ""
            lines.append(f"{to_move}cards (value of the rest): "
                         + ", ".join(f"{name} {value}" for name, value in cards))
        if self.line:
            lines.append("line: " + " ".join(self.line_names() if named else map(str, self.line)))
        return lines

    def __str__(self) -> str:
        """The answer for people (``print(result)``): under the heading of what was solved (the deal, contract and
        rules, as the Jupyter view heads it; none where the result has none), the value, whether the target is
        reached, each card's value and the principal line by the cards' names; ``repr`` stays one line."""
        return "\n".join(([self.heading] if self.heading else []) + self._lines())

    def _repr_html_(self) -> str:
        """The same for Jupyter, with the cards' values as a table (in the engine's order of the cards)."""
        heading, answer = self.heading, escape(self._lines()[0])
        parts = [f'<p style="font-weight:bold">{escape(heading)}</p><p>{answer}</p>' if heading else
                 f'<p style="font-weight:bold">{answer}</p>']
        if self.objective.description:
            parts.append(f"<p>{escape(self.description())}</p>")
        if self.card_values:
            named = self.card_names().items() if self.pack is not None else \
                [(str(cv.card), cv.value) for cv in self.card_values]
            parts.append(html_table(("card", "value of the rest"), named, right={1}))
        if self.line:
            parts.append(f"<p>{escape(self._lines()[-1])}</p>")
        return f"<div>{''.join(parts)}</div>"

    def _pack(self) -> Pack:
        if self.pack is None:
            raise StichError("this result has no pack to name its cards by (the solvers' results carry one)")
        return self.pack
