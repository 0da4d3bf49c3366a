"""The analyses behind ``stich solve``, ``stich check`` and ``stich table``, as plain library functions.

Each command is a thin wrapper over one function here, so that a Python user gets exactly what the command line
prints:

* :func:`solve_report` -- the value of a position for one or more objectives (what each side already has, the
  double-dummy value of the rest, the final total), optionally every legal card's value and an optimal line, as the
  JSON-ready document that ``stich solve --json`` prints (``docs/json.md``).
* :func:`check_bonuses` -- which yes/no objectives of the contract (the game, its bonuses, per-seat targets) can be
  forced from a position, and by whom.
* :func:`contract_table` -- the double-dummy contract table of a whole deal, like DDS's ``CalcDDtable``: every
  contract that can be bid, with the declaring side's points (or tricks) under perfect play and whether it wins.

:func:`check_report` and :func:`table_report` wrap the last two into documents of the same schema, and
:func:`score_report` and :func:`postmortem_report` do the same for the settlement (solver/scoring.py,
solver/settlement.py) and the post-mortem (solver/postmortem.py): the documents of the record commands are built
here, on one header. Nothing here prints or knows about the terminal; every function names the game through its
:class:`~solver.games.base.Rules` only, so a new game module needs no change here.
"""

from __future__ import annotations

import itertools
import threading
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Self, Sequence

from .api import _solve_checked
from .deal import Deal
from .errors import InvalidContractError, InvalidDealError, SearchStopped, StichError, check_callback, is_token_list
from .games import get_game
from .games.base import Contract, Game, Objective, Rules, own_measure
from .games.outcome import (CHECK_COLUMNS, POT_BY_FLAG, DealtBonus, dealt_bonus_answer, other_side, side_text,
                            side_net, signed, unbroken, without_title)
from .html_tables import html_lines, html_table, html_titled_table
from .position import Position, check_position, every_seat_for_itself, make_position, objectives_named
from .scoring import (check_scoring_inputs, read_pot, score_deal, score_notes, scoring_inputs,
                      uncounted_points_note)
from .search import reference
from .search.cooperative import Cooperative
from .search.boundary import Deadline, check_flag
from .search.engine import EngineSolver, solver_for, uses_reference
from .search.results import SolveResult
from .score_objective import SCORE
from .search.settle import SettlementEngine
from .settlement import dd_settlement, settlement_unsupported, settlement_value
from .state import PlayState

if TYPE_CHECKING:  # postmortem_report only names its type: solve and check need not load the post-mortem
    from .postmortem import PlayAnalysis

#: The version of the JSON documents (``docs/json.md``, ``docs/stich-result.schema.json``).
SCHEMA = "stich-result/1"

#: Called with a short text before each search of a long analysis (a contract table), for progress displays.
Progress = Callable[[str], None]


# --- objectives ---------------------------------------------------------------------------------------------------


def _seat_list(side: Iterable[int]) -> list[int]:
    """0-based seats as the sorted 1-based list every document uses."""
    return sorted(seat + 1 for seat in side)


def measure_of(objective: Objective) -> str:
    """What an objective counts: ``points``, ``tricks``, or ``events`` (a bonus that happens or not)."""
    if objective.points_weight:
        return "points"
    if objective.trick_weight:
        return "tricks"
    return "events"


def default_objectives(rules: Rules) -> list[str]:
    """What ``stich solve`` answers when no objective is asked for: the score (what players play for) beside card
    points where the game counts them, else beside every objective of the game (a per-seat objective for every
    seat)."""
    names = rules.objective_names()
    return [SCORE] + (["points"] if "points" in names else list(names))


def can_force(position: Position, objective: Objective, *, engine: EngineSolver | None = None,
              reference_solver: bool | None = None) -> bool:
    """Whether the objective's maximising side can force its target from the position.

    A yes/no search (the engine's ``reaches``) is much cheaper than the exact value, which a bonus check does not
    need."""
    check_position(position)
    if not isinstance(objective, Objective):
        raise InvalidContractError(f"expected an Objective (from position.objective(name)), not {objective!r}")
    if objective.target is None:
        raise InvalidContractError(f"objective {objective.name!r} has no target: it is not a yes/no question")
    state = position.state
    needed = objective.target - objective.achieved(state.rules, state)
    if needed <= 0:
        return True
    if state.is_over:
        return False
    if uses_reference(reference_solver):
        return bool(reference.solve(state, objective).success)
    return solver_for(engine).reaches(state, objective, needed)


# --- solve ----------------------------------------------------------------------------------------------------------


def record_header(position: Position) -> dict[str, Any]:
    """Where a position comes from and which rules it is played under: the part every document shares."""
    record = position.record
    rules = position.rules
    return {
        "record": {
            "source": None if record is None else record.source,
            "line": None if record is None else record.line,
            "board": None if record is None else record.get("Board"),
            "event": None if record is None else record.get("Event"),
        },
        "game": position.game.name,
        "seats": rules.seats,
        "variant": dict(rules.variant),
    }


def own_targets(seats: Iterable[int | None]) -> bool:
    """Whether the bonuses of a report (each one's seat, None for a side's) are the seats' own targets, as where
    every seat plays for itself (:func:`every_seat_for_itself`; Kratzen, RULES.md 3.3): the report then says
    "target", not "bonus". Nothing to report is not a per-seat report."""
    seats = list(seats)
    return bool(seats) and all(seat is not None for seat in seats)


def contract_header(position: Position) -> dict[str, Any]:
    """The contract, its declarer and the two sides (where every seat plays for itself, the declarer and everybody
    else)."""
    rules = position.rules
    return {
        "contract": str(rules.contract),
        "declarer": rules.declarer + 1,
        "declaring_side": _seat_list(rules.declaring_side),
        "defending_side": _seat_list(rules.defending_side),
        "every_seat_for_itself": every_seat_for_itself(position),
    }


def position_summary(position: Position) -> dict[str, Any]:
    """How far the play has come: tricks played and left, the trick on the table, who is to play, the hands."""
    state = position.state
    pack = position.rules.pack
    return {
        "whole_deal": position.game.is_whole(position.rules.deal),
        "points_in_deal": pack.points(position.rules.deal.cards) if counts_card_points(position) else None,
        "tricks_in_deal": position.rules.tricks_in_deal,
        "tricks_played": len(state.history),
        "tricks_left": state.tricks_left,
        "over": state.is_over,
        "leader": state.leader + 1,
        "to_move": None if state.is_over else state.to_move + 1,
        "trick": [pack[c].name for c in state.trick],
        "hands": [pack.names(hand) for hand in state.hands],
    }


def counts_card_points(position: Position) -> bool:
    """Whether the game counts card points: Kratzen counts tricks only (RULES.md 3.1), so its documents give null,
    not a 0 that reads as a count of points nobody could take."""
    return own_measure(position.game) == "points"


def taken_so_far(position: Position) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Points and tricks each seat, and each side, has already won (completed tricks only); points are null in a
    game without card points (Kratzen)."""
    state = position.state
    rules = position.rules
    counted = counts_card_points(position)
    seats = [{"seat": seat + 1, "points": state.points[seat] if counted else None, "tricks": state.tricks[seat]}
             for seat in range(rules.seats)]
    sides = [{"name": name, "seats": _seat_list(side), "points": state.side_points(side) if counted else None,
              "tricks": state.side_tricks(side)}
             for name, side in (("declarers", rules.declaring_side), ("defenders", rules.defending_side))]
    return seats, sides


def card_groups(state: PlayState, result: SolveResult) -> list[dict[str, Any]]:
    """The legal cards with their values, equivalent cards together.

    Cards form a group when they are of one effective suit, have the same value, and no other card still in play
    lies between them in power: playing one or the other then makes no difference, which is how the engine treats
    them (it searches one card of each group). Groups are listed in the pack's order (as a player sorts a hand),
    each group's cards strongest first."""
    rules = state.rules
    tables = rules.compile_tables()
    values = {cv.card: cv.value for cv in result.card_values}
    live = state.cards_left
    for card in state.trick:
        live |= 1 << card

    def strength(card: int) -> int:
        return tables.power[tables.card_class[card]][card]

    ordered = sorted(values, key=lambda c: (tables.card_class[c], -strength(c), c))
    groups: list[list[int]] = []
    for card in ordered:
        if groups:
            previous = groups[-1][-1]
            same = (tables.card_class[previous] == tables.card_class[card] and values[previous] == values[card])
            if same:
                cls = tables.card_class[card]
                low, high = strength(card), strength(previous)
                between = [c for c in range(tables.n_cards) if live >> c & 1 and tables.card_class[c] == cls
                           and low < strength(c) < high]
                if not between:
                    groups[-1].append(card)
                    continue
        groups.append([card])
    groups.sort(key=lambda group: min(group))
    pack = rules.pack
    return [{
        "cards": [pack[c].name for c in group],
        "future": values[group[0]],
        "total": result.achieved + values[group[0]],
        "success": result.card_success(values[group[0]]),
        "best": values[group[0]] == result.future,
    } for group in groups]


def line_by_trick(state: PlayState, line: Sequence[int]) -> list[dict[str, Any]]:
    """An optimal line cut into tricks: the trick's number in the deal, who led it, the cards in playing order
    (``on_table`` of them were already played in the position), and who won it."""
    pack = state.rules.pack
    tricks = []
    on_table = len(state.trick)
    for card in line:
        before = len(state.history)
        state = state.advance(card)
        if len(state.history) > before:
            trick = state.history[-1]
            tricks.append({"trick": len(state.history), "leader": trick.leader + 1,
                           "cards": [pack[c].name for c in trick.cards], "on_table": on_table,
                           "winner": trick.winner + 1})
            on_table = 0
    return tricks


def rank_score_cards(results: list[dict[str, Any]]) -> None:
    """Best play means the score: the score entry's card groups are ranked best first for the side to move (the
    declaring side's greatest settlement, the defenders' least), and when card points were solved too, each group
    says the points it keeps (the points entry's total after it) and equal scores are ranked by them."""
    score = next((r for r in results if r["objective"] == SCORE and r.get("cards")), None)
    if score is None:
        return
    points = next((r for r in results if r["objective"] == "points" and r.get("cards")), None)
    kept = {name: group["total"] for group in points["cards"] for name in group["cards"]} if points else {}
    sign = 1 if score["to_move"] in score["side"] else -1
    if kept:  # a score group whose cards keep different points is split by them
        groups = []
        for group in score["cards"]:
            for points_kept, names in itertools.groupby(group["cards"], key=kept.__getitem__):
                groups.append({**group, "cards": list(names), "points": points_kept})
        score["cards"] = groups
    score["cards"].sort(key=lambda group: (-sign * group["total"], -sign * group.get("points", 0)))


def _objective_entry(position: Position, seat: int | None, objective: Objective, result: SolveResult, *,
                     cards: bool, line: bool) -> dict[str, Any]:
    rules = position.rules
    measure = position.game.score_unit if objective.name == SCORE else measure_of(objective)
    entry: dict[str, Any] = {
        "objective": objective.name,
        "description": objective.description,
        "seat": seat,
        "side": _seat_list(objective.maximiser),
        "measure": measure,
        "target": objective.target,
        "achieved": result.achieved,
        "future": result.future,
        "total": result.total,
        "success": result.success,
        "other_side": None,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
    }
    if measure in ("points", "tricks"):
        # Zero-sum: whatever the maximising side does not take, the others do.
        everything = rules.pack.points(rules.deal.cards) if measure == "points" else rules.tricks_in_deal
        entry["other_side"] = {"seats": other_side(_seat_list(objective.maximiser), rules.seats),
                               "total": everything - result.total}
    if cards:
        entry["cards"] = [] if position.state.is_over else card_groups(position.state, result)
        entry["to_move"] = None if position.state.is_over else position.state.to_move + 1
    if line:
        entry["line"] = line_by_trick(position.state, result.line)
    return entry


def solve_report(position: Position, objectives: Sequence[str] | None = None, cards: bool = False,
                 line: bool = False, *, engine: EngineSolver | None = None,
                 reference_solver: bool | None = None, time_limit: float | None = None,
                 stop: threading.Event | None = None) -> dict[str, Any]:
    """The answer of ``stich solve`` for one position, as a JSON-ready document (``docs/json.md``).

    ``objectives`` are names from ``position.rules.objective_names()`` (``"all"`` for every one); None answers the
    default (:func:`default_objectives`). A per-seat objective is answered for every seat.
    ``cards`` adds every legal card's value (equivalent cards grouped), ``line`` an optimal line to the end, trick
    by trick. The document says what each seat and side already has, and for each objective the value already
    achieved, the double-dummy value of the rest and the total. Raises InvalidContractError for an objective that
    does not apply. ``time_limit`` (seconds) and ``stop`` bound every search of the report together, as
    :func:`solver.api.solve`'s bound one (SearchStopped)."""
    check_position(position)
    deadline = Deadline(time_limit, stop)
    if isinstance(objectives, str):  # one name, not its letters
        objectives = [objectives]
    if objectives is not None and not is_token_list(objectives):
        raise InvalidContractError(f"objectives are names (strings such as 'points'), not {objectives!r}")
    names = [name.strip().lower() for name in objectives] if objectives else default_objectives(position.rules)
    every = "all" in names
    if every:
        names = [SCORE] + position.rules.objective_names()
    seats, sides = taken_so_far(position)
    results = []
    not_applicable = []
    for name in dict.fromkeys(names):  # each once, in the order asked
        try:
            if name == SCORE:
                result = _solve_checked(position, SCORE, cards=cards, line=line, engine=engine,
                                        reference_solver=reference_solver, time_limit=deadline.left(),
                                        stop=deadline.stop)
                results.append(_objective_entry(position, None, result.objective, result, cards=cards, line=line))
                continue
            named = objectives_named(position, name)
        except InvalidContractError as error:
            if not (every or not objectives):  # asked for by name: the caller must hear why it has no answer
                raise
            # 'all' is every objective the contract has; one the position has already decided (the Pagat in no
            # hand) is said so, not allowed to sink the others
            not_applicable.append({"objective": name, "reason": str(error)})
            continue
        for seat, objective in named:
            result = _solve_checked(position, name, seat=seat, cards=cards, line=line, engine=engine,
                                    reference_solver=reference_solver, time_limit=deadline.left(),
                                    stop=deadline.stop)
            results.append(_objective_entry(position, seat, objective, result, cards=cards, line=line))
    rank_score_cards(results)
    document = {"schema": SCHEMA, "command": "solve", **record_header(position), **contract_header(position),
                "position": position_summary(position), "taken": {"seats": seats, "sides": sides},
                "results": results}
    if not_applicable:
        document["not_applicable"] = not_applicable
    notes = score_notes(position) if any(r["objective"] == SCORE for r in results) else []
    # card points measured (points, game, schneider: the answer's measure) that its score never counts (a Tout)
    uncounted = uncounted_points_note(position.rules)
    if uncounted and any(r["measure"] == "points" for r in results):
        notes.append(uncounted)
    if notes:
        document["notes"] = notes
    return document


# --- show -----------------------------------------------------------------------------------------------------------


def show_report(position: Position) -> dict[str, Any]:
    """``stich show --json``: the position as the diagram shows it, for a program: the record and rules, the
    contract and sides, the hands, the trick and who is to play (``position``), what each seat and side has won
    (``taken``), the hands as dealt (``dealt``: a finished deal's diagram shows them, its ``hands`` being empty), the
    cards played from the deal's start in order (``played``: the record's Play section and any ``--play`` cards),
    and the scoring facts the diagram prints over the table (``announcements``, null where the record has none;
    ``pot``, 0 in Kratzen without a ``[Pot]`` tag, as the game reads it, null in a game without a pot)."""
    seats, sides = taken_so_far(position)
    record, deal = position.record, position.rules.deal
    announced = (record.get("Announcements") or "").strip() if record is not None else ""
    return {"schema": SCHEMA, "command": "show", **record_header(position), **contract_header(position),
            "position": position_summary(position), "taken": {"seats": seats, "sides": sides},
            "dealt": [deal.hand_names(seat) for seat in range(deal.seats)],
            "played": [position.pack[card].name for card in position.played],
            "announcements": announced or None,
            "pot": read_pot(record, None) if position.game.has_pot else None}


# --- check ----------------------------------------------------------------------------------------------------------


def check_answer_parts(can_force: bool | None, *, reason: str, guaranteed: int | None, target: int | None,
                       made: bool, missed: bool, side: Sequence[int], opponents: Sequence[int]) -> tuple[str, str]:
    """A bonus check's answer in words, for :meth:`BonusCheck.answer` and ``stich check``'s table alike, in its two
    parts: ``yes``, ``no`` or ``does not arise``, and the words after it, so that the command colours the first and
    a one-line ``repr`` keeps it alone, neither cutting the text apart."""
    if can_force is None:
        return "does not arise", f": {reason}"
    answer = "yes" if can_force else "no"
    if guaranteed is not None:
        # made: the seat holds its target's tricks; missed: too few tricks left, whoever wins them
        already = "made already: " if made else "missed already: " if missed else ""
        return answer, f" - {already}guarantees {guaranteed:,} trick{'' if guaranteed == 1 else 's'}, needs {target}"
    if made:
        return answer, " - made already"
    if missed:
        return answer, " - missed"
    if can_force:
        return answer, f" - {side_text(side)} can force it"
    return answer, f" - {side_text(opponents)} can stop it"


@dataclass(frozen=True)
class BonusCheck:
    """Whether one side (or one seat) can force a yes/no objective from a position.

    In double dummy every such question is decided: either ``side`` can force the bonus whatever the others do, or
    ``opponents`` can stop it -- ``decided_by`` names which. ``can_force`` is None when the bonus cannot arise at
    all here (``reason`` says why, e.g. the Pagat is in no hand of an ending)."""

    bonus: str
    description: str
    side: tuple[int, ...]
    opponents: tuple[int, ...]
    target: int | None
    achieved: int
    can_force: bool | None
    seat: int | None = None
    guaranteed: int | None = None  # per-seat questions: what the seat can guarantee (a seat's own tricks)
    reason: str = ""
    already_missed: bool = False  # the play has decided it against the side: no rest can bring it (see below)
    #: the flags checked under where they are not the game's defaults (``Variant.note``), set where the check is
    #: made, so that a check shown alone ends its title with them as its list's does
    rules_note: str = field(default="", compare=False, repr=False)
    #: what players call the bonus (``Game.row_title``: ``Valat against`` for ``valat_against``, as its
    #: description says, one name a row), which the text shows; the JSON keeps ``bonus``, the name a program asks for
    title: str = field(default="", compare=False, repr=False)

    @property
    def decided_by(self) -> tuple[int, ...]:
        """The seats that decide the question: the side when it can force the bonus, else its opponents."""
        if self.can_force is None:
            return ()
        return self.side if self.can_force else self.opponents

    @property
    def already_made(self) -> bool:
        """The bonus has happened in the tricks already played, whatever comes."""
        return self.target is not None and self.achieved >= self.target

    def answer(self) -> str:
        """The answer as ``stich check`` words it: ``yes - 1+2 can force it``, ``no - 3+4 can stop it``, ``yes - made
        already``, ``no - missed``, a seat's ``guarantees 2 tricks, needs 1``, or why it does not arise."""
        return "".join(self.answer_parts())

    def answer_parts(self) -> tuple[str, str]:
        """The answer's yes, no or ``does not arise``, and the words after it (:func:`check_answer_parts`)."""
        return check_answer_parts(self.can_force, reason=self.reason, guaranteed=self.guaranteed, target=self.target,
                                  made=self.already_made, missed=self.already_missed, side=self.side,
                                  opponents=self.opponents)

    def __str__(self) -> str:
        """One line for people (``print(check)``), as ``stich check``'s row, the bonus by its :attr:`title` (said
        once, :func:`without_title`): ``Valat for 1+2: the declaring side takes every trick: yes - 1+2 can force
        it``; the dataclass ``repr`` stays for debugging."""
        name, _, description, answer = self.cells()
        who = f"seat {self.seat}" if self.seat is not None else side_text(self.side)
        about = f": {description}" if description else ""
        return f"{name} for {who}{about}: {answer}"

    def _repr_html_(self) -> str:
        """The same row for Jupyter, under ``stich check``'s columns (:class:`BonusChecks` renders them all)."""
        return BonusChecks([self], rules_note=self.rules_note)._repr_html_()

    def cells(self) -> tuple[str, str, str, str]:
        """The row's cells under ``stich check``'s columns: the bonus (by its :attr:`title`), for whom, what it is
        (without the title again, :func:`without_title`), the answer."""
        who = f"seat {self.seat}" if self.seat is not None else side_text(self.side) if self.side else "-"
        return self.title or self.bonus, who, without_title(self.description, self.title), self.answer()

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"bonus": self.bonus, "description": self.description, "seat": self.seat, "side": list(self.side),
                "opponents": list(self.opponents), "target": self.target, "achieved": self.achieved,
                "already_made": self.already_made, "already_missed": self.already_missed, "can_force": self.can_force,
                "decided_by": list(self.decided_by), "guaranteed": self.guaranteed, "reason": self.reason or None}


class _ResultList(list[Any]):
    """A list of results that stays its own kind when sliced, copied or added to (``table[1:]`` still prints as the
    command prints it); a comprehension makes a plain list, as of any list."""

    def __getitem__(self, index: Any) -> Any:
        item = super().__getitem__(index)
        return self._kin(item) if isinstance(index, slice) else item

    def copy(self) -> Self:
        return self._kin(self)

    def __add__(self, other: Iterable[Any]) -> Self:
        return self._kin(list(self) + list(other))

    def _kin(self, items: Iterable[Any]) -> Self:
        """A list of this kind holding ``items`` (a kind with more than its items copies that too)."""
        return type(self)(items)


class BonusChecks(_ResultList, list[BonusCheck]):
    """What :func:`check_bonuses` gives: a list of :class:`BonusCheck` (it is one, and compares equal to one), which
    prints a line a check (``print(check)``'s) and renders in Jupyter as ``stich check``'s table (a seat's own
    targets under ``target``), each followed by the ``notes`` the command prints under its table
    (:func:`solver.score_check.check_notes`: those that need no search; the score and its choices are
    :func:`check_report`'s). ``rules_note`` ends the table's title with the flags played under where they are not
    the game's defaults, as the command's title ends (``Variant.note``). A slice or copy keeps the notes and the
    rules: they are the position's."""

    def __init__(self, checks: Iterable[BonusCheck] = (), notes: Iterable[str] = (), rules_note: str = "") -> None:
        super().__init__(checks)
        self.notes: tuple[str, ...] = tuple(notes)
        self.rules_note = rules_note

    def _kin(self, items: Iterable[Any]) -> Self:
        return type(self)(items, self.notes, self.rules_note)

    def title(self) -> str:
        """``stich check``'s title: ``Bonuses`` (``Targets`` where a seat's own targets are checked), then the rules
        where the flags are not the game's defaults; the heading of the print and of the Jupyter table."""
        return ("Targets" if own_targets(check.seat for check in self) else "Bonuses") + self.rules_note

    def __str__(self) -> str:
        """The title, a line a check (``print(check)``'s), then the notes."""
        return "\n".join([self.title()] + [str(check) for check in self] + [f"note: {note}" for note in self.notes])

    def __repr__(self) -> str:
        """One line, each check's answer by its bonus's :attr:`~BonusCheck.title` (``Valat against no``)."""
        answers = [f"{check.title or check.bonus}{'' if check.seat is None else f' seat {check.seat}'} "
                   f"{check.answer_parts()[0]}" for check in self]
        notes = f"; {len(self.notes)} note{'' if len(self.notes) == 1 else 's'}" if self.notes else ""
        return f"<BonusChecks {', '.join(answers) or 'none'}{notes}>"

    def _repr_html_(self) -> str:
        targets = own_targets(check.seat for check in self)
        columns = ("target", *CHECK_COLUMNS[1:]) if targets else CHECK_COLUMNS
        table = html_titled_table(self.title(), columns, [check.cells() for check in self])
        return f"<div>{table}{html_lines([f'note: {note}' for note in self.notes], small=True)}</div>"


class DealtBonuses(_ResultList, list[DealtBonus]):
    """What :func:`dealt_bonuses` gives: a list of :class:`DealtBonus` (it is one, and compares equal to one), which
    prints a line a bonus and renders in Jupyter as the rows ``stich check`` adds under its table for them, so that
    a notebook and the command show the same words, not the items' dataclass fields; ``rules_note`` ends the title
    as :class:`BonusChecks`' does (a slice or copy keeps it)."""

    def __init__(self, bonuses: Iterable[DealtBonus] = (), rules_note: str = "") -> None:
        super().__init__(bonuses)
        self.rules_note = rules_note

    def _kin(self, items: Iterable[Any]) -> Self:
        return type(self)(items, self.rules_note)

    def title(self) -> str:
        """The heading of the print and of the Jupyter table, as ``stich check`` heads these rows."""
        return f"Bonuses the cards decide (no search){self.rules_note}"

    def __str__(self) -> str:
        """The title and a line a bonus (``print(bonus)``'s), or that no bonus of the contract is decided so."""
        return "\n".join([self.title()] + [str(bonus) for bonus in self]) if self else NO_DEALT_BONUS

    def __repr__(self) -> str:
        """One line, each bonus by its title with its answer (``open`` while the tricks decide it)."""
        answers = [f"{bonus.title or bonus.bonus} {dealt_bonus_answer(bonus.as_dict())[0]}" for bonus in self]
        return f"<DealtBonuses {', '.join(answers) or 'none'}>"

    def _repr_html_(self) -> str:
        if not self:
            return html_lines([NO_DEALT_BONUS])
        rows = [bonus.cells() for bonus in self]
        return f"<div>{html_titled_table(self.title(), CHECK_COLUMNS, rows)}</div>"


#: What an empty :class:`DealtBonuses` says (Kratzen, a Schafkopf contract without Laufende).
NO_DEALT_BONUS = "no bonus of this contract is decided by the cards alone"


def check_bonuses(position: Position, *, engine: EngineSolver | None = None,
                  reference_solver: bool | None = None, time_limit: float | None = None,
                  stop: threading.Event | None = None) -> BonusChecks:
    """Every yes/no objective of the position's rules, and who can force it: a :class:`BonusChecks`, the list of
    the :class:`BonusCheck` s, which prints and renders in Jupyter as ``stich check``'s table.

    Every objective with a target (the game, bonuses both ways, a per-seat target with the tricks the seat can
    guarantee) in the order of ``rules.objective_names()``, so a game's new objective is checked without a change
    here. ``time_limit`` (seconds) and ``stop`` bound every search of the call together, as :func:`check_report`'s
    (SearchStopped); the reference solver refuses them."""
    rules = check_position(position).rules
    title = position.game.row_title
    deadline = Deadline(time_limit, stop, reference_solver=uses_reference(reference_solver))
    if deadline.limited:  # the searches are the points engine's (no objective with a target is the score)
        with solver_for(engine).stopping(deadline.left(), stop):
            return check_bonuses(position, engine=engine, reference_solver=reference_solver)
    everybody = frozenset(range(rules.seats))
    note = rules.variant.note()
    decided = forced_to_the_end(position.state)  # the last trick's cards are forced: its objectives are decided
    checks = BonusChecks()
    for name in rules.objective_names():
        try:
            pairs = objectives_named(position, name)
        except InvalidContractError as error:
            checks.append(BonusCheck(name, "", (), (), None, 0, None, reason=str(error), rules_note=note,
                                     title=title(name)))
            continue
        for seat, objective in pairs:
            if objective.target is None:
                continue  # an exact value (card points), not a bonus
            achieved = objective.achieved(rules, decided)
            guaranteed = None
            if seat is not None:  # per-seat targets are cheap and the number itself is the answer
                result = _solve_checked(position, name, seat=seat, engine=engine, reference_solver=reference_solver)
                guaranteed = result.total
                forced = bool(result.success)
            else:
                forced = can_force(position, objective, engine=engine, reference_solver=reference_solver)
            # a seat's own target too: a Kratzen seat short of it with too few tricks left (the deal over) missed it
            missed = achieved + most_still_possible(rules, decided, objective) < objective.target
            checks.append(BonusCheck(name, objective.description, tuple(_seat_list(objective.maximiser)),
                                     tuple(_seat_list(everybody - objective.maximiser)), objective.target,
                                     achieved, forced, seat=seat, guaranteed=guaranteed, already_missed=missed,
                                     rules_note=note, title=title(name)))
    for name, why in rules.objectives_left_out().items():  # asked of a Suit Solo's Pagat: said, not left blank
        checks.append(BonusCheck(name, "", (), (), None, 0, None, reason=why, rules_note=note, title=title(name)))
    from .score_check import check_notes  # the settlement's modules load on first use, as check_report's

    return BonusChecks(checks, check_notes(position, checks), note)


def dealt_bonuses(position: Position) -> DealtBonuses:
    """The bonuses of the contract that the cards decide without a search (RULES.md 1.6: Zwanzigerrufen's Trull and
    4 Kings, ``Game.dealt_bonuses``), which ``stich check`` lists beside :func:`check_bonuses`' answers: a
    :class:`DealtBonuses`, the list of them, which prints a line a bonus and renders in Jupyter as their table."""
    check_position(position)
    try:
        inputs = scoring_inputs(position)  # which of them were announced
    except StichError:
        inputs = None  # the score says what is wrong with the record's scoring tags
    bonuses = position.game.dealt_bonuses(position.rules, position.state, inputs)
    return DealtBonuses([replace(bonus, title=position.game.sided_objective_title(bonus.bonus)) for bonus in bonuses],
                        position.rules.variant.note())


def forced_to_the_end(state: PlayState) -> PlayState:
    """``state``, or the finished deal when only the last trick is left: each seat yet to play to it holds one card,
    so nobody has a choice, and every objective is made or missed by the trick that card completes (its winner by
    the rules, a Sagotrick only if its cards all fall there). ``stich check`` then says ``made already`` or
    ``missed`` on every row, where a search would only call the forced result forced or stopped."""
    if state.tricks_left != 1:
        return state
    while not state.is_over:
        state = state.advance(state.hands[state.to_move].bit_length() - 1)  # the seat's one card
    return state


def most_still_possible(rules: Rules, state: PlayState, objective: Objective) -> int:
    """The most reward the rest of the play could add to ``objective`` whoever plays what: every trick still to
    come won by its side, and every event whose cards can still fall together (:meth:`TrickEvent.can_still_happen`;
    each card falls once). Below the target the play has already decided the bonus against the side: a Pagat spent
    before the last trick (or on the table in an earlier one), a Mond that fell without the Sküs, a Valat after a
    lost trick. That is not the other side stopping it, so ``stich check`` says ``missed``. An objective with a
    negative weight or reward has no such bound here."""
    if min(objective.points_weight, objective.trick_weight, *(event.reward for event in objective.events)) < 0:
        return objective.maximum
    unplayed = state.cards_left
    for card in state.trick:
        unplayed |= 1 << card
    points = sum(rules.points[card] for card in range(len(rules.pack)) if unplayed >> card & 1)
    most = objective.points_weight * points + objective.trick_weight * (rules.tricks_in_deal - len(state.history))
    return most + sum(event.reward for event in objective.events if event.can_still_happen(state))


def targets_together(position: Position, *, time_limit: float | None = None,
                     stop: threading.Event | None = None) -> bool | None:
    """Whether every seat's target can be met in one play with all seats helping (RULES.md 3.3's optional
    cooperative question), for games where every seat plays for itself; None for games with sides
    (:mod:`solver.search.cooperative`). ``time_limit`` and ``stop`` end it with SearchStopped as for
    :func:`~solver.api.solve` (the search is plain Python, not the engine, and looks at them itself)."""
    check_position(position)
    deadline = Deadline(time_limit, stop)
    if not every_seat_for_itself(position):
        return None
    if deadline.passed():
        raise SearchStopped(f"the cooperative search was stopped before it started: {deadline.reason()}")
    objectives = [objective for name in position.rules.objective_names()
                  for _, objective in objectives_named(position, name) if objective.target is not None]
    return Cooperative(objectives, deadline if deadline.limited else None).met(position.state)


def check_report(position: Position, *, engine: EngineSolver | None = None,
                 reference_solver: bool | None = None, time_limit: float | None = None,
                 stop: threading.Event | None = None) -> dict[str, Any]:
    """:func:`check_bonuses` as the document ``stich check --json`` prints (with ``together``, see
    :func:`targets_together`, and ``score``: the bonuses under the score, :mod:`solver.score_check`).
    ``time_limit`` (seconds) and ``stop`` bound every search of the report together, as :func:`solve_report`'s
    (SearchStopped); the reference solver refuses them."""
    from .score_check import score_check_report  # the settlement search loads on first use
    from .score_objective import settlement_engine_for

    check_position(position)
    reference_solver = uses_reference(reference_solver)
    deadline = Deadline(time_limit, stop, reference_solver=reference_solver)
    with ExitStack() as limits:
        if deadline.limited:  # every search of both engines, the bonuses' and the score's, stops at the deadline
            limits.enter_context(solver_for(engine).stopping(deadline.left(), stop))
            if settlement_unsupported(position) is None:  # else no settlement is searched (nor its table made)
                limits.enter_context(settlement_engine_for(engine).stopping(deadline.left(), stop))
        checks = check_bonuses(position, engine=engine, reference_solver=reference_solver)
        score = score_check_report(position, checks, engine=engine, reference_solver=reference_solver)
        together = targets_together(position, time_limit=deadline.left(), stop=stop)
    seats, sides = taken_so_far(position)
    return {"schema": SCHEMA, "command": "check", **record_header(position), **contract_header(position),
            "position": position_summary(position), "taken": {"seats": seats, "sides": sides},
            "checks": [check.as_dict() for check in checks],
            "dealt_bonuses": [bonus.as_dict() for bonus in dealt_bonuses(position)],
            "together": together,
            "score": score}


# --- table ----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatTarget:
    """One seat's guaranteed tricks under a contract, against its target (a game where every seat plays for
    itself)."""

    seat: int
    tricks: int
    target: int
    made: bool

    def __str__(self) -> str:
        """Its cell of ``stich table`` after its column's name: ``seat 1 2/2 ✓`` (tricks guaranteed / needed)."""
        return f"seat {self.seat} {self.cell()}"

    def cell(self) -> str:
        """``2/2 ✓``: the tricks it can guarantee against everyone, those it needs, and whether that is enough."""
        return f"{self.tricks}/{self.target} " + ("-" if self.made is None else "✓" if self.made else "✗")

    def _repr_html_(self) -> str:
        """The same cell for Jupyter, under its column, with the table's legend."""
        return html_table([f"seat {self.seat}"], [[self.cell()]], right={0}) + html_lines([SEAT_LEGEND], small=True)

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"seat": self.seat, "tricks": self.tricks, "target": self.target, "made": self.made}


@dataclass(frozen=True)
class TableEntry:
    """One row of a contract table: a contract a seat could bid, and what it gives under perfect play.

    ``value`` is the declaring side's double-dummy card points (``measure`` "points"; won when it reaches
    ``target``, the game's 45 or 61), or the declarer's tricks in a Tout (``measure`` "tricks"; won with every
    trick). A game where every seat plays for itself lists every seat's guaranteed tricks in ``seats`` and ``value``
    is the declarer's. ``biddable`` False means the bid checks forbid the contract on this deal; ``reason`` says
    which. ``settlement`` (when asked for) is the declaring side's double-dummy net score without announcements
    (with the record's pot, in a game paid from one), see :func:`solver.settlement.dd_settlement`."""

    contract: str
    declarer: int
    declaring_side: tuple[int, ...] = ()
    biddable: bool = True
    reason: str = ""
    measure: str | None = None
    value: int | None = None
    target: int | None = None
    won: bool | None = None
    seats: tuple[SeatTarget, ...] = field(default=())
    settlement: int | None = None
    game: str = field(default="", compare=False)  # names the declarer as the game does (Kratzen's attacker)
    #: the flags the table is of where they are not the game's defaults (``Variant.note``), and the pot the
    #: settlement was paid from in a game paid from one (None: no settlement, or no pot), set where the row is made,
    #: so that a row shown alone says its title and its settlement's unit as its table does
    rules_note: str = field(default="", compare=False, repr=False)
    pot: int | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        """The row for people (``print(entry)``), as ``stich table`` prints it, each cell after its column's name:
        ``Rufer G  declarer 1  side 1+3  value 120  needs 61  won  settlement +6``; the ``repr`` stays."""
        per_seat, settled = bool(self.seats), self.settlement is not None
        columns = table_columns(self.game, per_seat=per_seat, seats=len(self.seats), settled=settled)
        head = [self.contract_in_words, f"{columns[1]} {self.declarer}"]  # the game's word for the declarer
        if not self.biddable:
            return "  ".join(head + [f"not biddable: {self.reason}"])
        cells = table_cells(self.as_dict(), per_seat=per_seat, seats=len(self.seats), settled=settled)
        return "  ".join(head + [cell if column == "result" else f"{column} {cell}".rstrip()
                                 for column, cell in zip(columns[2:], cells)])

    @property
    def contract_in_words(self) -> str:
        """The contract as the rule book names it (``Solo Tout E``); ``contract`` keeps the token."""
        return get_game(self.game).contract_in_words(self.contract) if self.game else self.contract

    def _repr_html_(self) -> str:
        """The same row for Jupyter, under ``stich table``'s columns (:class:`ContractTable` renders them all)."""
        return ContractTable([self], self.pot, self.rules_note, self.game)._repr_html_()

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"contract": self.contract, "declarer": self.declarer, "declaring_side": list(self.declaring_side),
                "biddable": self.biddable, "reason": self.reason or None, "measure": self.measure,
                "value": self.value, "target": self.target, "won": self.won,
                "seats": [seat.as_dict() for seat in self.seats], "settlement": self.settlement}


class ContractTable(_ResultList, list[TableEntry]):
    """What :func:`contract_table` gives: a list of :class:`TableEntry` (it is one, and compares equal to one), which
    prints a row an entry (``print(entry)``'s) and renders in Jupyter as ``stich table``'s table, under one set of
    columns, with the command's legends below it. ``pot`` is the pot the settlement column was paid from, in a game
    paid from one (None: no settlement column, or a game without a pot); ``rules_note`` ends the title with the
    flags the table is of where they are not the game's defaults, as the command's title ends (``Variant.note``);
    ``game`` the game's name, by default its rows' (a table built by hand); a slice or copy keeps all three, so that
    an empty slice still says its game."""

    def __init__(self, entries: Iterable[TableEntry] = (), pot: int | None = None, rules_note: str = "",
                 game: str = "") -> None:
        super().__init__(entries)
        self.pot = pot
        self.rules_note = rules_note
        self.game = game or next((entry.game for entry in self if entry.game), "")

    def _kin(self, items: Iterable[Any]) -> Self:
        return type(self)(items, self.pot, self.rules_note, self.game)

    def title(self) -> str:
        """``stich table``'s title, then the rules where the flags are not the game's defaults; the heading of the
        print and of the Jupyter table."""
        return CONTRACT_TABLE_TITLE + self.rules_note

    def __str__(self) -> str:
        """The title, then a row an entry (``print(entry)``'s)."""
        return "\n".join([self.title()] + [str(entry) for entry in self])

    def __repr__(self) -> str:
        """One line: the game, its rows and how many are won, lost or not biddable (``str()``
        is the table)."""
        game = f"{self.game}, " if self.game else ""
        counts = {"won": sum(entry.won is True for entry in self), "lost": sum(entry.won is False for entry in self),
                  "not biddable": sum(not entry.biddable for entry in self)}
        said = ", ".join(f"{count} {word}" for word, count in counts.items() if count)
        return f"<ContractTable {game}{len(self)} row{'' if len(self) == 1 else 's'}{': ' + said if said else ''}>"

    def _repr_html_(self) -> str:
        per_seat = any(entry.seats for entry in self)
        settled = any(entry.settlement is not None for entry in self)
        seats = max((len(entry.seats) for entry in self), default=0)
        columns = table_columns(self.game, per_seat=per_seat, seats=seats, settled=settled)
        rows = [[unbroken(entry.contract_in_words), str(entry.declarer),  # a narrow table keeps "Solo Tout E" whole
                 *table_cells(entry.as_dict(), per_seat=per_seat, seats=seats, settled=settled)] for entry in self]
        table = html_titled_table(self.title(), columns, rows, right={
            i for i, name in enumerate(columns) if name not in ("contract", "side", "result")})
        legends = ([SEAT_LEGEND] if per_seat else []) + ([settlement_legend(self.game, self.pot)] if settled else [])
        notes = settlement_notes(self.pot, POT_BY_ARGUMENT) if settled else []
        return f"<div>{table}{html_lines(legends, small=True)}{html_lines(notes)}</div>"


#: The title of a contract table (``stich table``'s), and what a seat's cell says where every seat plays for
#: itself (``2/2 ✓``).
CONTRACT_TABLE_TITLE = "Double-dummy contract table"
SEAT_LEGEND = "each seat: tricks it can guarantee against everyone / tricks it needs"


def settlement_legend(game: str, pot: int | None) -> str:
    """What a contract table's settlement column holds, with its unit, as ``stich table`` and a notebook say it
    under the table: the declaring side's net, or in a game paid from a pot the declarer's payment from ``pot``
    (None: a table entry alone, which does not know it)."""
    rules = get_game(game) if game else None
    unit = Game.score_unit if rules is None else rules.score_unit
    if rules is None or not rules.has_pot:
        return f"settlement: the declaring side's double-dummy net score in {unit}, without announcements"
    amount = f" in {unit}" if pot is None else f", with a pot of {pot:,} {unit}"
    return f"settlement: the {rules.declarer_title}'s double-dummy payment{amount}"


#: How a pot is given, in a note that asks for one: ``stich``'s flag (``games.outcome.POT_BY_FLAG``), and the API's
#: argument (a notebook's words).
POT_BY_ARGUMENT = "the argument pot=CHIPS"


def settlement_notes(pot: int | None, give_pot: str = POT_BY_FLAG) -> list[str]:
    """The notes a notebook's contract table shows under its settlement legend (``stich table`` says its pot 0 once
    on stderr instead: :func:`cli.records.pot_zero_line`): at pot 0 every contract settles at 0, which a reader would
    otherwise take for the result of the search. ``give_pot``: how the reader gives a pot (the API's
    :data:`POT_BY_ARGUMENT`, or ``stich``'s :data:`POT_BY_FLAG`)."""
    if pot != 0:
        return []
    return [f"note: pot 0: every contract settles at 0 (give the record a [Pot] tag, or {give_pot})"]


def table_columns(game: str, *, per_seat: bool, seats: int, settled: bool) -> list[str]:
    """The columns of ``stich table`` (and of a :class:`TableEntry` printed): a column per seat where every seat
    plays for itself, else the side, its value and what it needs; the settlement where it was asked for."""
    title = get_game(game).declarer_title if game else "declarer"
    middle = [f"seat {seat}" for seat in range(1, seats + 1)] if per_seat else ["side", "value", "needs"]
    return ["contract", title, *middle, "result", *(["settlement"] if settled else [])]


def table_cells(entry: Mapping[str, Any], *, per_seat: bool, seats: int, settled: bool) -> list[str]:
    """One entry's cells after the contract and the declarer, as :func:`table_columns` heads them, from its
    document (:meth:`TableEntry.as_dict`): ``2/2 ✓`` per seat (tricks guaranteed / needed), else the side, its
    card points (or tricks), the target; ``won`` or ``lost``; the settlement signed. A contract the bid checks
    forbid has dashes and the reason."""
    won = "-" if entry["won"] is None else ("won" if entry["won"] else "lost")
    if not entry["biddable"]:
        cells = ["-"] * (seats if per_seat else 3) + [f"not biddable: {entry['reason']}"]
    elif per_seat:
        cells = [f"{seat['tricks']}/{seat['target']} "
                 + ("-" if seat["made"] is None else ("✓" if seat["made"] else "✗")) for seat in entry["seats"]]
        cells.append(won)
    else:
        value = entry["value"]
        shown = "-" if value is None else (  # not searched: a row made by hand
            str(value) if entry["measure"] == "points" else f"{value:,} trick{'' if value == 1 else 's'}")
        cells = [side_text(entry["declaring_side"]), shown, "" if entry["target"] is None else str(entry["target"]),
                 won]
    if settled:
        amount = entry.get("settlement")
        cells.append("-" if amount is None else signed(amount))
    return cells


def winning_condition(rules: Rules) -> str:
    """The objective that decides whether a contract is won: Tout where the contract has one, else the game
    (points), else the per-seat targets."""
    names = rules.objective_names()
    for name in ("tout", "game"):
        if name in names:
            return name
    return names[0]


def _table_entry(position: Position, contract: str, declarer: int, engine: EngineSolver | None,
                 reference_solver: bool | None, settlement: bool = False, pot: int | None = None,
                 deadline: Deadline | None = None, settlement_engine: SettlementEngine | None = None) -> TableEntry:
    deadline = deadline or Deadline()
    entry = _points_entry(position, contract, declarer, engine, reference_solver, deadline)
    if not settlement:
        return entry
    use_reference = uses_reference(reference_solver)
    value = settlement_value(position, announcements="" if position.game.has_announcements else None, pot=pot,
                             engine=None if use_reference else settlement_engine, reference_solver=use_reference,
                             time_limit=deadline.left(), stop=deadline.stop)
    return replace(entry, settlement=value)


def _points_entry(position: Position, contract: str, declarer: int, engine: EngineSolver | None,
                  reference_solver: bool | None, deadline: Deadline | None = None) -> TableEntry:
    deadline = deadline or Deadline()
    rules = position.rules
    label = str(rules.contract)
    side = tuple(_seat_list(rules.declaring_side))
    condition = winning_condition(rules)
    pairs = objectives_named(position, condition)
    if pairs[0][0] is not None:  # per-seat targets
        seats = []
        for seat, objective in pairs:
            result = _solve_checked(position, condition, seat=seat, engine=engine, reference_solver=reference_solver,
                                    time_limit=deadline.left(), stop=deadline.stop)
            seats.append(SeatTarget(seat or 0, result.total, objective.target or 0, bool(result.success)))
        mine = seats[declarer - 1]
        return TableEntry(label, declarer, side, measure=measure_of(pairs[0][1]), value=mine.tricks,
                          target=mine.target, won=mine.made, seats=tuple(seats))
    goal = pairs[0][1]
    measure = measure_of(goal)
    # The exact points are what the table shows; the game objective only supplies the target they are held to.
    asked = "points" if measure == "points" else condition
    result = _solve_checked(position, asked, engine=engine, reference_solver=reference_solver,
                            time_limit=deadline.left(), stop=deadline.stop)
    target = goal.target
    won = None if target is None else result.total >= target
    return TableEntry(label, declarer, side, measure=measure, value=result.total, target=target, won=won)


def contract_table(source: Position | Deal, game: str | type[Game] | None = None, *,
                   variant: Mapping[str, object] | str | None = None, engine: EngineSolver | None = None,
                   reference_solver: bool | None = None, progress: Progress | None = None,
                   settlement: bool = False, pot: int | None = None, time_limit: float | None = None,
                   stop: threading.Event | None = None,
                   settlement_engine: SettlementEngine | None = None) -> ContractTable:
    """The double-dummy contract table of a whole deal, like DDS's ``CalcDDtable``: a :class:`ContractTable`, the
    list of its :class:`TableEntry` rows, which prints and renders in Jupyter as ``stich table``'s table.

    ``source`` is a Position (its dealt hands and variant are used; cards already played are ignored, since the
    table is a property of the deal) or a Deal with its ``game``. Every (contract, declarer) of
    ``Game.contracts(deal)`` gets a row (one the bid checks forbid is listed with ``biddable`` False and the reason;
    where every seat plays for itself, with every seat's guaranteed tricks, the declarer the record's, seat 1 for a
    Deal).

    With ``settlement`` every row also gets the declaring side's double-dummy settlement without announcements
    (``pot``, else the record's [Pot] tag, in a game paid from a pot). Raises InvalidDealError for an ending: bids are
    made on whole deals.

    ``time_limit`` (seconds, for the whole table: every row's searches together) and ``stop`` (an Event another
    thread may set) end it early with :class:`~solver.errors.SearchStopped`, as for :func:`~solver.api.solve`.
    ``settlement_engine`` searches the settlements (None: the shared one of this thread), as ``engine`` the points.
    """
    check_flag("settlement", settlement)
    deadline = Deadline(time_limit, stop)
    check_callback(progress, "progress", "one message")
    if isinstance(source, Position):
        check_position(source, "source")
        if game is not None and get_game(game) is not source.game:
            raise InvalidDealError(f"a Position has its own game ({source.game.name}); game is for a Deal")
        chosen_game: type[Game] = source.game
        deal = source.rules.deal
        chosen_variant: Mapping[str, object] | str | None = source.rules.variant if variant is None else variant
    elif isinstance(source, Deal):
        if game is None:
            raise InvalidDealError("a contract table of a Deal needs its game")
        chosen_game, deal, chosen_variant = get_game(game), source, variant
        if deal.pack is not chosen_game.pack:
            raise InvalidDealError(f"the deal is of the {deal.pack.game} pack, not {chosen_game.name}'s")
    else:
        raise InvalidDealError(f"a contract table is of a Position or a Deal, not {type(source).__name__}")
    check_scoring_inputs(chosen_game, pot)
    if not chosen_game.is_whole(deal):
        raise InvalidDealError(
            f"a contract table needs a whole deal ({chosen_game.hand_size} cards a hand); this is an ending of "
            f"{deal.hand_size} cards a hand")
    paid_from = read_pot(source.record if isinstance(source, Position) else None, pot) \
        if settlement and chosen_game.has_pot else None  # as the settlement column is paid (no [Pot]: 0)
    note = chosen_game.variant(chosen_variant).note()
    entries = []
    like = source.rules.contract if isinstance(source, Position) else None
    record_declarer = source.rules.declarer + 1 if isinstance(source, Position) else None
    for contract, declarer in chosen_game.contracts(deal, chosen_variant, like, record_declarer):
        for text, position_or_refusal in _bids(chosen_game, deal, contract, declarer, chosen_variant):
            if isinstance(position_or_refusal, str):
                entries.append(TableEntry(text, declarer, biddable=False, reason=position_or_refusal,
                                          game=chosen_game.name, rules_note=note, pot=paid_from))
                continue
            if progress is not None:
                progress(f"{chosen_game.contract_in_words(text)} by seat {declarer}")  # for people: RULES.md's name
            entry = _table_entry(position_or_refusal, text, declarer, engine, reference_solver, settlement,
                                 paid_from, deadline, settlement_engine)
            entries.append(replace(entry, game=chosen_game.name, rules_note=note, pot=paid_from))
    return ContractTable(entries, paid_from, note, chosen_game.name)


def _bids(game: type[Game], deal: Deal, contract: Contract, declarer: int,
          variant: Mapping[str, object] | str | None) -> list[tuple[str, Position | str]]:
    """The rows of one listed contract: each called card the declarer may name (``Game.contract_choices``: every
    tarock a Zwanzigerrufen forehand may call under ``called_tarock=any``, the one she must call by default) with
    its position, or the contract once with the reason the rules refuse it (she holds T20..T16: she must play
    Solo). Contract advice offers the same choices, so the table and the advice list the same bids."""
    bids: list[tuple[str, Position | str]] = []
    for text in game.contract_choices(contract):
        try:
            bids.append((text, make_position(game, deal, text, declarer=declarer, variant=variant)))
        except InvalidContractError:
            continue
    if bids:
        return bids
    try:
        return [(str(contract), make_position(game, deal, str(contract), declarer=declarer, variant=variant))]
    except InvalidContractError as error:
        return [(str(contract), str(error))]


def table_report(position: Position, *, engine: EngineSolver | None = None, reference_solver: bool | None = None,
                 progress: Progress | None = None, settlement: bool = False, time_limit: float | None = None,
                 stop: threading.Event | None = None, settlement_engine: SettlementEngine | None = None,
                 pot: int | None = None) -> dict[str, Any]:
    """:func:`contract_table` of a position's deal as the document ``stich table --json`` prints; with the settlement
    column, its ``notes`` as ``solve``'s score has them (:func:`~solver.scoring.score_notes`), in the table's words
    (a pot of 0 settles every contract at 0, as ``stich table`` says on stderr), absent when there are none."""
    check_position(position)
    entries = contract_table(position, engine=engine, reference_solver=reference_solver, progress=progress,
                             settlement=settlement, time_limit=time_limit, stop=stop,
                             settlement_engine=settlement_engine, pot=pot)
    deal = position.rules.deal
    # the pot the settlement column is paid from, as score says it (null: no column, or a game without a pot)
    if settlement and position.game.has_pot:
        pot = read_pot(position.record, pot)
    else:
        pot = None
    document = {"schema": SCHEMA, "command": "table", **record_header(position),
                "hands": [deal.hand_names(seat) for seat in range(deal.seats)],
                "play_ignored": bool(position.played), "pot": pot, "entries": [entry.as_dict() for entry in entries]}
    notes = score_notes(position, "contract") if settlement else []
    if notes:
        document["notes"] = notes
    return document


# --- score and post-mortem -------------------------------------------------------------------------------------


def score_report(position: Position, *, pot: int | None = None, dd: bool = False,
                 engine: SettlementEngine | None = None, points_engine: EngineSolver | None = None,
                 time_limit: float | None = None, stop: threading.Event | None = None) -> dict[str, Any]:
    """``stich score``'s document for one position: the record header and the settlement of its finished deal
    (:func:`solver.scoring.score_deal`); with ``dd`` also the double-dummy settlement under ``"dd"``
    (:func:`solver.settlement.dd_settlement`), from the start of a complete deal, so that it compares with the
    actual score, or of one with no card played yet, else from where the play stops (and then without the
    settlement of the play, which is not over); ``engine``, ``points_engine``, ``time_limit`` and ``stop`` are
    :func:`~solver.settlement.dd_settlement`'s (without ``dd`` nothing is searched).
    """
    rules = check_position(position).rules
    Deadline(time_limit, stop)  # checked even where nothing searches, as every function taking them does
    complete = position.game.play_settles(rules, position.state)
    document = {"schema": SCHEMA, "command": "score", **record_header(position), **contract_header(position)}
    if complete or not dd:
        settled = score_deal(position, pot=pot)
        # the declaring side's net, named as check's score and the dd settlement name theirs; whole_deal false
        # for an ending, under whose payments no pot after the deal is said (no next deal starts from it)
        document.update(settled.as_dict(), value=side_net(settled.payments, rules.declaring_side),
                        whole_deal=settled.whole_deal)
    if dd:
        start = Position(position.game, rules, rules.start(), record=position.record) if complete else position
        # a deal with no card played yet (a fresh `stich deal`) is searched from its start too, and says so
        unplayed = not start.state.history and not start.state.trick
        document["dd"] = {"from": "start" if complete or unplayed else "end_of_play",
                          "cards_on_table": len(start.state.trick),
                          **dd_settlement(start, pot=pot, engine=engine, points_engine=points_engine,
                                         time_limit=time_limit, stop=stop).as_dict()}
    return document


def postmortem_report(position: Position, analysis: PlayAnalysis) -> dict[str, Any]:
    """``stich postmortem``'s document: the record header and the post-mortem of its play
    (:func:`solver.postmortem.analyse_play`)."""
    return {"schema": SCHEMA, "command": "postmortem", **record_header(position), **contract_header(position),
            **analysis.as_dict()}


__all__ = ["SCHEMA", "BonusCheck", "SeatTarget", "TableEntry", "can_force", "check_bonuses", "check_report",
           "contract_table", "default_objectives", "measure_of", "objectives_named", "postmortem_report",
           "score_report", "show_report", "solve_report", "table_report"]
