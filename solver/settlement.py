"""The double-dummy settlement: the net score the declaring side can force under perfect play of the settlement.

Maximising card points is not the same as maximising the score: a Pagat Ultimo, a Valat, a Mondfang or a Kontra can
make a line with fewer points pay more. :func:`dd_settlement` answers the score question exactly. The settlement of
a finished deal depends on a few additive quantities only (the *components*: the declarers' card points and tricks,
trick events such as a bonus won in the last trick), and changes only at a few thresholds of each. Each game names
its components and scores every bucket of them (``Game.settlement_model``), with the same code that scores a played
deal; this module fills the payoff table and the engine searches it (src_ext/settle.pxd, solver/search/settle.py).
docs/scoring.md explains the design and its cost.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .announcements import Announcement
from .cards import CardIndex, bits
from .errors import InvalidPositionError, StichError
from .games import get_game
from .games.base import Objective, PayoffComponent, Rules, items_net
from .games.outcome import ScoreItem, declarers_word, net_amount, role_text, seats_of, side_net, signed
from .position import Position, check_position, every_seat_for_itself
from .scoring import Settlement, check_scoring_inputs, scoring_inputs, settle
from .search.boundary import Deadline, check_state
from .search.engine import EngineSolver, per_thread, solver_for, uses_reference
from .search.reference import solve as reference_solve
from .search.settle import PAYOFF_LIMIT, PayoffSpec, SettlementEngine, bucket_tuples, reference_settlement
from .state import PlayState

Announcements = str | Sequence[Announcement] | None


@dataclass(frozen=True)
class DDSettlement:
    """The double-dummy settlement of a position, and the points-optimal play for comparison.

    ``value`` is the declaring side's net (the sum of its seats' payments) under play that is perfect for the
    settlement; ``payments`` and ``items`` are those of the deal played out along ``line`` (a principal variation of
    that play), whose declarers take ``line_points``. ``points_optimum`` is what the points objective
    (``Game.points_objective``: card points, or what the game counts instead) can force, and ``points_line_value`` the
    declaring side's net when the deal is played out along the points-optimal principal variation ``points_line``.
    ``value_keeping_points`` is the best net the declarers can force while also forcing ``points_optimum``: when it is
    below ``value``, every points-optimal strategy settles worse, so the settlement-optimal play must give up
    points."""

    game: str
    contract: str
    declaring_side: tuple[int, ...]
    value: int
    payments: tuple[int, ...]
    items: tuple[ScoreItem, ...]
    line: tuple[int, ...]
    line_points: int
    points_objective: str
    points_optimum: int
    points_line: tuple[int, ...]
    points_line_value: int
    value_keeping_points: int
    pot: int | None
    nodes: int = field(compare=False)  # the effort, not the answer: equal answers compare equal
    seconds: float = field(compare=False)
    line_names: tuple[str, ...] = ()
    points_line_names: tuple[str, ...] = ()
    pot_change: int = 0  # what the pot gains along ``line`` (a game paid from a pot); payments plus it sum to 0
    #: every seat plays for itself (``solver.position.every_seat_for_itself``): the words name the declarer alone
    every_seat_for_itself: bool = False
    #: the flags the deal is played under where they are not the game's defaults, as a title ends with them
    #: (``Variant.note``; empty under the defaults), which the first line and the items' heading say
    rules_note: str = field(default="", compare=False)
    #: the remarks on the scoring of the deal played out along ``line`` (:attr:`Settlement.notes`: a pot of 0, a
    #: Muss deal, an ending scored as a whole deal)
    notes: tuple[str, ...] = ()

    @property
    def differs(self) -> bool:
        """Whether forcing the most points costs the declarers money (see ``value_keeping_points``)."""
        return self.value_keeping_points < self.value

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready document of this result (what the command's ``--json`` prints of it)."""
        return {"game": self.game, "contract": self.contract, "declaring_side": list(self.declaring_side),
                "value": self.value, "payments": list(self.payments), "items": [i.as_dict() for i in self.items],
                "line": list(self.line_names), "line_points": self.line_points,
                "points_objective": self.points_objective, "points_optimum": self.points_optimum,
                "points_line": list(self.points_line_names), "points_line_value": self.points_line_value,
                "value_keeping_points": self.value_keeping_points, "differs": self.differs, "pot": self.pot,
                "pot_change": self.pot_change, "notes": list(self.notes), "nodes": self.nodes,
                "seconds": round(self.seconds, 4)}

    def _settlement(self) -> Settlement:
        """The deal played out along ``line``, as a :class:`Settlement` (which prints and renders its items)."""
        return Settlement(self.game, self.contract, self.items, self.payments, self.pot, self.pot_change,
                          rules_note=self.rules_note)

    def _summary(self) -> list[str]:
        """What ``stich score --dd`` says under its tables: the net, the line, and what playing for points settles."""
        title = get_game(self.game).declarer_title if self.every_seat_for_itself else "declarer"
        net = net_amount(self.value, get_game(self.game).score_unit)
        # the declaring side as stich score --dd's headline names it: "declarer seat 1", "declarers 1+3"
        lines = [f"double dummy: {role_text(title, self.declaring_side)} net {net}"]
        if self.line_names:
            lines.append("line: " + " ".join(self.line_names))
        return lines + [text if value is None else f"{text}{signed(value)}"
                        for text, value in points_comparison(self.as_dict(), self.every_seat_for_itself)]

    def __str__(self) -> str:
        """The settlement for people (``print(result)``): the net, the items and payments of its line (as
        ``print(settlement)``), the line and the points-optimal comparison."""
        settlement = self._settlement()
        _, *items = settlement._text(pot_after=False).splitlines()
        summary = self._summary()
        return "\n".join([settlement._heading(summary[0]), *items, *summary[1:], *self._note_lines()])

    def __repr__(self) -> str:
        """One line that says what the result is, as every result's ``repr``: the first line of ``print()`` with the
        payments (``<DDSettlement Schafkopf Rufer G, double dummy: declarers 1+3 net +4 game units; payments: seat 1
        +2, ...>``), not the dataclass's every field, the search's effort and the line twice among them."""
        settlement = self._settlement()
        return f"<DDSettlement {settlement._heading(f'{self._summary()[0]}; {settlement._payments_said()}')}>"

    def _repr_html_(self) -> str:
        """The same for Jupyter: the first line of ``print()`` (the game, the contract, the net, the rules) as its
        heading, then the items and payments as tables (:meth:`Settlement._repr_html_`) and the lines under them."""
        summary = self._summary()
        return self._settlement()._html(heading=summary[0], lines=summary[1:] + self._note_lines(), pot_after=False)

    def _note_lines(self) -> list[str]:
        """The notes as the lines under the summary say them."""
        return [f"note: {note}" for note in self.notes]


# --- the payoff table ---------------------------------------------------------------------------------------------


def settlement_unsupported(position: Position) -> str | None:
    """Why the double-dummy settlement cannot be had for this position's rules, or None when it can."""
    return position.game.settlement_unsupported(position.rules)


@dataclass(frozen=True)
class PayoffTable:
    """A payoff spec and, where the game itemises its buckets (``Game.settlement_items``), the bonus items
    (:func:`bonuses_made`) the declaring side is paid for in each bucket, in table order: which bonuses a
    settlement value stands for, read without scoring again."""

    spec: PayoffSpec
    made: tuple[tuple[str, ...], ...] | None
    against: tuple[tuple[str, ...], ...] | None = None  # the bonus items the other side is paid for, likewise


#: The payoff tables kept for deals that share them (``Game.settlement_key``), oldest dropped first: a sampling
#: run meets a few dozen keys a contract (where the partner, the Pagat and the Mond sit), each table a few KB.
TABLES_KEPT = 512
_tables: dict[tuple, PayoffTable] = {}
_tables_lock = threading.Lock()


def payoff_table(position: Position, state: PlayState | None = None, *, announcements: Announcements = None,
                 pot: int | None = None, inputs: object = None) -> PayoffTable:
    """The payoff table of a position: every bucket tuple scored by the game's own scoring from a representative
    outcome, so the search and the scorer share one implementation of the rules. The items of a bucket
    (``Game.settlement_items``) give its net (``items_net``, which is ``Game.settlement_model``'s payoff by
    default) and its bonuses; a game that does not itemise is scored by ``Game.settlement_model``.

    The scorer runs up to 120 times for a table, so tables are kept: across deals by the game's key of everything
    the payoff reads (``Game.settlement_key``) with the components, else on the rules (one deal) by the scoring
    inputs and the components (where the cards they name still are). ``inputs`` (from
    :func:`solver.scoring.scoring_inputs`) saves reading the announcements and the pot again."""
    rules = position.rules
    game = position.game
    state = position.state if state is None else state
    if inputs is None:
        inputs = scoring_inputs(position, pot=pot, announcements=announcements)
    try:
        components, items = game.settlement_items(rules, state, inputs)
    except StichError:
        components, net = game.settlement_model(rules, state, inputs)  # raises where the rules have no settlement
        items = None
    game_key = game.settlement_key(rules, state, inputs)
    known: dict[tuple, PayoffTable] = _tables
    key: tuple = (game.name, game_key, tuple(components))
    if game_key is None:
        known, key = rules.__dict__.setdefault("_payoff_tables", {}), (inputs, tuple(components))
    found = known.get(key)  # one look: another thread may drop the key between two
    if found is not None:
        return found
    buckets = [tuple(c.representative(b) for c, b in zip(components, bucket))
               for bucket in bucket_tuples(tuple(components))]
    if items is None:
        table, made, against = tuple(net(values) for values in buckets), None, None
    else:
        settled = [items(values) for values in buckets]
        table = tuple(items_net(rules, bucket_items) for bucket_items in settled)
        made = tuple(bonuses_made(rules, bucket_items) for bucket_items in settled)
        against = tuple(bonuses_against(rules, bucket_items) for bucket_items in settled)
    result = PayoffTable(PayoffSpec(rules.declaring_side, tuple(components), table), made, against)
    with _tables_lock:
        if len(known) >= TABLES_KEPT:
            del known[next(iter(known))]
        known[key] = result
    return result


def payoff_spec(position: Position, state: PlayState | None = None, *, announcements: Announcements = None,
                pot: int | None = None, inputs: object = None) -> PayoffSpec:
    """The payoff spec the settlement search reads (:func:`payoff_table`'s)."""
    return payoff_table(position, state, announcements=announcements, pot=pot, inputs=inputs).spec


def bonuses_made(rules: Rules, items: Sequence[ScoreItem]) -> tuple[str, ...]:
    """The bonus items (``Game.is_bonus_item``: every item but the game; none in Kratzen) the declaring side is paid
    for."""
    return _bonuses_paid(rules, items, to_declarers=True)


def bonuses_against(rules: Rules, items: Sequence[ScoreItem]) -> tuple[str, ...]:
    """The bonus items (``Game.is_bonus_item``) the other side is paid for: Laufende it is paid for, a
    Schneider against it, a bonus the defenders made or the declarers announced and failed."""
    return _bonuses_paid(rules, items, to_declarers=False)


def _bonuses_paid(rules: Rules, items: Sequence[ScoreItem], to_declarers: bool) -> tuple[str, ...]:
    declarers = {s + 1 for s in rules.declaring_side}
    paid = (item for item in items if item.value and item.winners and rules.game.is_bonus_item(item.name))
    names = {item.name for item in paid if bool(set(item.winners) & declarers) == to_declarers}
    return tuple(sorted(names | {implied for name in names for implied in rules.game.implied_items(name)}))


def points_comparison(dd: Mapping[str, Any], every_seat_for_itself: bool) -> list[tuple[str, int | None]]:
    """What playing for the points would do, in the words of ``stich score --dd`` and ``print(dd_settlement(...))``
    alike, from a double-dummy settlement's document: each line's text and the settlement it ends with (signed by
    the caller), or None. Where every seat plays for itself it is the attacker's own; a Solo has one declarer."""
    measure = "tricks" if dd["points_objective"] == "tricks" else "points"
    who = f"the {get_game(dd['game']).declarer_title}" if every_seat_for_itself else \
        f"the {declarers_word(dd['declaring_side'])}"

    def counted(count: int) -> str:
        return f"{count:,} {measure[:-1] if count == 1 else measure}"

    line = f"the line takes {counted(dd['line_points'])}; the most {who} can force is {dd['points_optimum']}"
    others, both = ("the others", "every seat") if every_seat_for_itself else ("the other side", "both sides")
    if dd["line_points"] > dd["points_optimum"]:  # the other side, playing for the settlement, gave them away
        line += f" ({others}, playing for the score, need not hold {who} down where it does not change it)"
    elif dd["line_points"] < dd["points_optimum"] and not dd["differs"]:  # gave up points the score does not count
        line += f" ({who}, playing for the score, need not take more where it does not change it)"
    forces = "forces his" if every_seat_for_itself or len(dd["declaring_side"]) == 1 else "force their"
    lines: list[tuple[str, int | None]] = [
        (line, None), (f"{both} playing for {measure} (one such line), the deal settles ", dd["points_line_value"]),
        (f"the best settlement while {who} {forces} {counted(dd['points_optimum'])}: ", dd["value_keeping_points"])]
    if dd["differs"]:
        lines.append((f"the settlement-optimal play gives up {measure} to score more", None))
    return lines


def keeping_points(spec: PayoffSpec, component: str, minimum: int) -> PayoffSpec:
    """``spec`` with every outcome where ``component`` ends below ``minimum`` made the worst possible: its value is
    the best settlement the declarers can force *while also forcing* ``minimum`` on that component."""
    components = []
    for c in spec.components:
        if c.name == component and minimum > 0:
            c = PayoffComponent(c.name, c.objective, tuple(sorted(set(c.thresholds) | {minimum})))
        components.append(c)
    table = []
    for buckets in bucket_tuples(tuple(components)):
        values = tuple(c.representative(b) for c, b in zip(components, buckets))
        below = any(c.name == component and v < minimum for c, v in zip(components, values))
        table.append(-PAYOFF_LIMIT if below else spec.payoff(values))
    return PayoffSpec(spec.declaring_side, tuple(components), tuple(table))


def final_net(position: Position, final: PlayState, *, announcements: Announcements = None,
              pot: int | None = None, inputs: object = None) -> tuple[int, Settlement]:
    """The declaring side's net and the settlement of a finished deal, by the ordinary scorer. In a game paid from a
    pot, a pot of 0 is noted asking for a pot unless ``pot`` is given (or the record's ``[Pot]`` tag): ``inputs``
    read with a pot carry no word of it, so its caller passes ``pot`` beside them."""
    if inputs is None:
        inputs = scoring_inputs(position, pot=pot, announcements=announcements)
    settled = settle(Position(position.game, position.rules, final, record=position.record), inputs, pot=pot)
    return side_net(settled.payments, position.rules.declaring_side), settled


def points_objective_of(position: Position) -> Objective:
    """What "points-optimal" means: the declaring side's card points, or what the game counts instead
    (``Game.points_objective``)."""
    return position.game.points_objective(position.rules)


def play_out(state: PlayState, line: Sequence[int]) -> PlayState:
    for card in line:
        state = state.advance(card)
    return state


def dd_settlement(position: Position, *, announcements: Announcements = None, pot: int | None = None,
                  engine: SettlementEngine | None = None, points_engine: EngineSolver | None = None,
                  reference_solver: bool | None = None, time_limit: float | None = None,
                  stop: threading.Event | None = None) -> DDSettlement:
    """The double-dummy settlement of ``position`` (from its current state: the cards already played count).

    ``announcements`` and ``pot`` override the record's tags as in
    :func:`~solver.scoring.score_deal`. ``reference_solver`` uses the Python oracle (small endings only; None:
    ``STICH_IMPLEMENTATION``'s choice, as everywhere). ``time_limit`` (seconds, for every search of the call
    together: the settlement, its line, the points-optimal play and the settlement keeping its points) and ``stop``
    (an Event another thread may set) end it early with :class:`~solver.errors.SearchStopped`, as for
    :func:`~solver.api.solve`; the reference solver runs to the end and refuses them. Raises a
    StichError for input the scorer rejects."""
    start = time.perf_counter()
    rules = check_position(position).rules
    state = check_state(position.state)
    reference_solver = uses_reference(reference_solver)
    check_scoring_inputs(position.game, pot, announcements)
    deadline = Deadline(time_limit, stop, reference_solver=reference_solver)
    if engine is not None and not isinstance(engine, SettlementEngine):
        raise InvalidPositionError(f"engine must be a SettlementEngine, not {type(engine).__name__}")
    solver = solver_for(points_engine)
    inputs = scoring_inputs(position, pot=pot, announcements=announcements)
    spec = payoff_spec(position, inputs=inputs)
    nodes = 0
    if reference_solver:
        def score(final: PlayState) -> int:
            return final_net(position, final, pot=pot, inputs=inputs)[0]

        value = reference_settlement(state, spec, score)
        line = _reference_line(state, spec, score, value)
    else:
        engine = engine if engine is not None else default_settlement_engine()
        with engine.stopping(deadline.left(), stop):
            before = engine.nodes
            value = engine.value(state, spec)
            line = engine.line(state, spec, value)
            nodes = engine.nodes - before
    final = play_out(state, line)
    net, settled = final_net(position, final, pot=pot, inputs=inputs)
    if net != value:
        raise AssertionError(f"the settlement line scores {net}, the search said {value}")
    objective = points_objective_of(position)
    if reference_solver:
        result = reference_solve(state, objective, line=True)
    else:
        result = solver.solve(state, objective, line=True, time_limit=deadline.left(), stop=stop)
    points_final = play_out(state, result.line)
    points_net = final_net(position, points_final, pot=pot, inputs=inputs)[0]
    kept = keeping_points(spec, objective.name, result.total) if spec.components else spec
    if reference_solver:
        def score_kept(final: PlayState) -> int:
            return score(final) if objective.achieved(rules, final) >= result.total else -PAYOFF_LIMIT

        value_kept = reference_settlement(state, kept, score_kept)
    else:
        with engine.stopping(deadline.left(), stop):  # type: ignore[union-attr]
            value_kept = engine.value(state, kept)  # type: ignore[union-attr]
    names = rules.pack
    return DDSettlement(
        game=position.game.name, contract=str(rules.contract), declaring_side=seats_of(rules.declaring_side),
        value=value, payments=settled.payments, items=settled.items,
        line=tuple(CardIndex(c, names[c]) for c in line),
        line_points=objective.achieved(rules, final), points_objective=objective.name,
        points_optimum=result.total, points_line=tuple(CardIndex(c, names[c]) for c in result.line),
        points_line_value=points_net,
        value_keeping_points=value_kept, pot=settled.pot, pot_change=settled.pot_change,
        every_seat_for_itself=every_seat_for_itself(position), rules_note=rules.variant.note(), notes=settled.notes,
        nodes=nodes + result.nodes, seconds=time.perf_counter() - start,
        line_names=tuple(names[c].name for c in line), points_line_names=tuple(names[c].name for c in result.line))


def settlement_value(position: Position, *, announcements: Announcements = None, pot: int | None = None,
                     engine: SettlementEngine | None = None, reference_solver: bool = False,
                     time_limit: float | None = None, stop: threading.Event | None = None) -> int:
    """Only the declaring side's double-dummy net (no line, no points comparison): what ``stich table`` shows.
    ``time_limit`` (seconds) and ``stop`` end the search early with :class:`~solver.errors.SearchStopped`, as for
    :func:`dd_settlement`."""
    deadline = Deadline(time_limit, stop, reference_solver=reference_solver)
    inputs = scoring_inputs(position, pot=pot, announcements=announcements)
    spec = payoff_spec(position, inputs=inputs)
    if reference_solver:
        return reference_settlement(position.state, spec,
                                    lambda final: final_net(position, final, pot=pot, inputs=inputs)[0])
    searcher = engine if engine is not None else default_settlement_engine()
    with searcher.stopping(deadline.left(), stop):
        return searcher.value(position.state, spec)


def _reference_line(state: PlayState, spec: PayoffSpec, score: Callable[[PlayState], int], value: int) -> list[int]:
    """The reference's principal variation: at each turn the lowest-indexed card that keeps the settlement."""
    line = []
    memo: dict[tuple, int] = {}
    while not state.is_over:
        for card in bits(state.legal_cards()):
            child = state.advance(card)
            if reference_settlement(child, spec, score, memo) == value:
                line.append(card)
                state = child
                break
    return line


def _worker_table_megabytes() -> int | None:
    """The table size of this process's worker engines (:func:`solver.workers.worker_table_megabytes`), None outside
    a worker; a worker process has that module loaded, and a command need not load it for this."""
    workers = sys.modules.get(f"{__package__}.workers")
    return workers.worker_table_megabytes() if workers is not None else None


@functools.partial(per_thread, size=_worker_table_megabytes)
def default_settlement_engine(megabytes: int) -> SettlementEngine:
    """This thread's shared settlement engine (created on first use): in a worker of ``batch``, ``analyse`` or
    advice, of the worker's table size (its run's ``--table-mb``, cut to its memory limit), as its points engine."""
    return SettlementEngine(megabytes)


__all__ = ["DDSettlement", "PayoffTable", "dd_settlement", "payoff_spec", "payoff_table", "settlement_value"]
