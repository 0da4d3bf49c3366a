"""What is checked before a position or a question reaches the compiled engine.

The engine trusts its input: it indexes arrays with card numbers and seats and never re-checks that a position could
arise in play. So every state, objective and number the public API passes on is checked here first, and anything
that no legal play reaches is refused with an :class:`~solver.errors.InvalidPositionError` naming what is wrong.
The engine's own loaders range-check again (defence in depth), but nothing malformed should ever get that far.

A state is accepted when it is exactly what legal play from the rules' deal leads to, as far as the state shows it:

* the hands are the rules' seats, each a subset of what that seat was dealt, no card in two places;
* the cards on the table were played by the right seats, in turn, and each was legal when it was played
  (checked by replaying the trick from the hands as they were before it);
* the hand sizes fit the trick: the seats that already played to it hold one card fewer;
* the rule-history flags are in range, the won points and tricks are one non-negative count per seat, and the
  history is completed tricks of in-range seats and cards;
* the history is the play so far: replayed from the deal's start, every card legal and every winner right, it
  leaves the hands and the trick on the table as the state has them, the same leader, rule-history flags, points
  and tricks (a position is the deal's start and the cards played since; what an ending had already won before it
  is the position's business, not the state's).
"""

from __future__ import annotations

import math
import threading
import time
from decimal import Decimal

from ..errors import IllegalPlayError, InvalidPositionError, SearchStopped, StichError, is_whole_number
from ..games.base import Objective, Rules
from ..state import PlayState, Trick

#: What the engine's reward arithmetic allows (see ``_engine.pyx``): weights, event rewards, and flags.
MAX_WEIGHT = 100
MAX_EVENT_REWARD = 1000
MAX_EVENTS = 8
MAX_FLAGS = 31
#: Guesses and targets are kept well inside the engine's value range (its INFINITY is 30000).
MAX_VALUE = 25_000


def check_number(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``, or InvalidPositionError saying which number is wrong."""
    if not is_whole_number(value):
        raise InvalidPositionError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:  # type: ignore[operator]
        raise InvalidPositionError(f"{name} must be from {low} to {high}, not {value}")
    return value  # type: ignore[return-value]


def check_flag(name: str, value: object, allow_none: bool = False) -> bool:
    """``value`` as True or False (or None where ``allow_none``), else InvalidPositionError: "yes" or 2 would pass
    as true and say nothing of what the caller meant."""
    if not (isinstance(value, bool) or (allow_none and value is None)):
        choices = "True, False or None" if allow_none else "True or False"
        raise InvalidPositionError(f"{name} must be {choices}, not {value!r}")
    return value  # type: ignore[return-value]


def check_state(state: object) -> PlayState:
    """``state`` if legal play can reach it, else InvalidPositionError (see the module docstring)."""
    if not isinstance(state, PlayState):
        hint = " (a Position's is position.state)" if type(state).__name__ == "Position" else ""
        raise InvalidPositionError(f"expected a PlayState{hint}, not {type(state).__name__}")
    rules = state.rules
    if not isinstance(rules, Rules):
        raise InvalidPositionError(f"the state's rules must be a Rules object, not {type(rules).__name__}")
    seats = rules.seats
    pack_size = len(rules.pack)
    dealt = rules.deal.hands
    for name in ("hands", "trick", "points", "tricks", "history"):
        if not isinstance(getattr(state, name), tuple):
            raise InvalidPositionError(f"the state's {name} must be a tuple, not {type(getattr(state, name)).__name__}")
    if len(state.hands) != seats:
        raise InvalidPositionError(f"the state has {len(state.hands)} hands, the deal has {seats} seats")
    check_number("the leader", state.leader, 0, seats - 1)
    check_number("the rule-history flags", state.flags, 0, MAX_FLAGS)
    for trick in state.history:
        if not isinstance(trick, Trick) or not isinstance(trick.cards, tuple) or len(trick.cards) != seats:
            raise InvalidPositionError(f"the state's history must hold completed tricks of {seats} cards, "
                                       f"not {trick!r}")
        check_number("a completed trick's leader", trick.leader, 0, seats - 1)
        check_number("a completed trick's winner", trick.winner, 0, seats - 1)
        for card in trick.cards:
            check_number("a card of a completed trick", card, 0, pack_size - 1)
    for name in ("points", "tricks"):
        counts = getattr(state, name)
        if len(counts) != seats or not all(is_whole_number(c) and c >= 0 for c in counts):
            raise InvalidPositionError(f"the state's {name} must be {seats} non-negative whole numbers, "
                                       f"not {counts!r}")
    seen = 0
    for seat, hand in enumerate(state.hands):
        check_number(f"hand {seat + 1}", hand, 0, (1 << pack_size) - 1)
        if hand & ~dealt[seat]:
            extra = " ".join(rules.pack.names(hand & ~dealt[seat]))
            raise InvalidPositionError(f"seat {seat + 1} holds {extra}, which it was not dealt")
        if hand & seen:
            raise InvalidPositionError(f"{' '.join(rules.pack.names(hand & seen))} is in two hands")
        seen |= hand
    if len(state.trick) >= seats:
        raise InvalidPositionError(f"{len(state.trick)} cards on the table: a trick has {seats}")
    before = list(state.hands)
    for position, card in enumerate(state.trick):
        check_number("a card on the table", card, 0, pack_size - 1)
        seat = (state.leader + position) % seats
        if seen >> card & 1:
            raise InvalidPositionError(f"{rules.pack[card].name} is on the table and in a hand")
        if not dealt[seat] >> card & 1:
            raise InvalidPositionError(f"seat {seat + 1} plays {rules.pack[card].name}, which it was not dealt")
        seen |= 1 << card
        before[seat] |= 1 << card
    size = before[state.leader].bit_count()
    if any(hand.bit_count() != size for hand in before):
        sizes = ", ".join(str(h.bit_count()) for h in state.hands)
        raise InvalidPositionError(f"the hand sizes ({sizes}) do not fit {len(state.trick)} card(s) on the table")
    replay = _replayed_history(state, tuple(before))
    for card in state.trick:
        try:
            replay = replay.play(card)
        except IllegalPlayError as error:
            raise InvalidPositionError(f"the trick on the table breaks the rules: {error}") from None
    return state


def _replayed_history(state: PlayState, before_trick: tuple[int, ...]) -> PlayState:
    """``state`` as it was before its trick on the table (``before_trick``: the hands with those cards back), made by
    replaying the history from the deal's start, which must reach it: the engine values a state by its hands, leader
    and flags, and the reward already earned by its history, so a history that does not lead there gives a wrong
    answer."""
    rules = state.rules
    replay = rules.start()
    for number, trick in enumerate(state.history, 1):
        if trick.leader != replay.leader:
            raise InvalidPositionError(f"trick {number} of the history is led by seat {trick.leader + 1}, but seat "
                                       f"{replay.leader + 1} has the lead")
        for card in trick.cards:
            try:
                replay = replay.play(card)
            except IllegalPlayError as error:
                raise InvalidPositionError(f"trick {number} of the history breaks the rules: {error}") from None
        if replay.history[-1].winner != trick.winner:
            raise InvalidPositionError(f"trick {number} of the history is won by seat {replay.history[-1].winner + 1}"
                                       f", not seat {trick.winner + 1}")
    for name, got, expected in (("hands", before_trick, replay.hands), ("leader", state.leader, replay.leader),
                                ("rule-history flags", state.flags, replay.flags),
                                ("points", state.points, replay.points), ("tricks", state.tricks, replay.tricks)):
        if got != expected:
            raise InvalidPositionError(f"the state's {name} {'is' if name == 'leader' else 'are'} not what its "
                                       "history leads to "
                                       f"({_shown(rules, name, got)}; the play so far gives "
                                       f"{_shown(rules, name, expected)})")
    return replay


def _shown(rules: Rules, name: str, value: object) -> str:
    if name == "hands":
        return " / ".join(" ".join(rules.pack.names(hand)) or "-" for hand in value)  # type: ignore[attr-defined]
    if name == "leader":
        return f"seat {value + 1}"  # type: ignore[operator]
    return str(value)


def check_objective(objective: object, rules: Rules) -> Objective:
    """``objective`` if the engine can answer it for ``rules``' deal, else InvalidPositionError."""
    if not isinstance(objective, Objective):
        hint = f" (by name: position.objective({objective!r}))" if isinstance(objective, str) else ""
        raise InvalidPositionError(f"expected an Objective{hint}, not {type(objective).__name__}")
    if not isinstance(objective.maximiser, frozenset) or not all(
            is_whole_number(s) and 0 <= s < rules.seats for s in objective.maximiser):
        raise InvalidPositionError(f"the maximising seats {objective.maximiser!r} are not seats 0..{rules.seats - 1}")
    check_number("the points weight", objective.points_weight, 0, MAX_WEIGHT)
    check_number("the trick weight", objective.trick_weight, 0, MAX_WEIGHT)
    if not isinstance(objective.events, tuple) or len(objective.events) > MAX_EVENTS:
        raise InvalidPositionError(f"an objective has at most {MAX_EVENTS} trick events (a tuple)")
    if not isinstance(objective.game, str):
        raise InvalidPositionError(f"an objective's game is a game's name, not {objective.game!r} "
                                   f"({type(objective.game).__name__})")  # a game class prints as its name
    if objective.game and objective.game != rules.game.name:
        raise InvalidPositionError(f"the objective {objective.name!r} is {objective.game}'s; this deal is "
                                   f"{rules.game.name} (ask the position's own: position.objective(name))")
    every = (1 << len(rules.pack)) - 1
    for event in objective.events:
        check_number("an event's cards", event.present, 0, every)
        check_number("an event's absent cards", event.absent, 0, every)
        check_number("an event's winning card", event.winner_card, -1, len(rules.pack) - 1)
        check_number("an event's excluded winner", event.not_winner_card, -1, len(rules.pack) - 1)
        check_number("an event's reward", event.reward, 0, MAX_EVENT_REWARD)
    if objective.target is not None:
        check_number("the target", objective.target, -MAX_VALUE, MAX_VALUE)
    return objective


def check_question(state: object, objective: object) -> tuple[PlayState, Objective]:
    """Both checks, state first (the objective is checked against the state's rules)."""
    checked = check_state(state)
    return checked, check_objective(objective, checked.rules)


#: Why the reference solver refuses a time limit or a stop event: it has no stop check.
REFERENCE_RUNS_TO_THE_END = "time_limit and stop are the engine's; the reference solver runs to the end"


def check_stop(stop: object, error: type[StichError] = InvalidPositionError) -> None:
    """A stop event: None, or a threading.Event (anything with ``is_set()``)."""
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise error(f"stop must be a threading.Event (or anything with is_set()), not {stop!r}")


#: Why ``time_limit=0`` is refused: the command line's ``--time-limit 0`` is no limit, so a 0 here would be read
#: one way by a caller who knows the CLI and the other by one who does not; None is no limit, as in Python's own APIs.
ZERO_TIME_LIMIT = ("time_limit=0 is refused: for no limit pass None (what the command line's --time-limit 0 means); "
                   "for a deadline, a number of seconds above 0")


def seconds_text(seconds: float) -> str:
    """A time limit as a person reads it, wherever one is said: ``2 s``, ``0.5 s``, ``0.000001 s`` (``:g`` would
    write ``1e-06 s``); nine significant digits, so a limit computed from milliseconds keeps no float residue."""
    return f"{Decimal(f'{seconds:.9g}').normalize():f} s"


def check_time_limit(time_limit: object, error: type[StichError] = InvalidPositionError) -> None:
    """A time limit, one meaning wherever the API takes one (``solve``, ``dd_settlement``, the advice, the sampling
    bot, a match): None is no limit and a finite number of seconds above 0 a deadline (what a caller must have done
    before it stops is still done: a bot's first sample, a match's board in play). 0 is refused
    (:data:`ZERO_TIME_LIMIT`), but for what a call's :class:`Deadline` leaves its next search (:class:`TimeLeft`),
    0 once the call's own limit has passed."""
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 <= time_limit < math.inf):
        raise error(f"time_limit must be a number of seconds above 0 or None, not {time_limit!r}")
    if time_limit == 0 and not isinstance(time_limit, TimeLeft):
        raise error(ZERO_TIME_LIMIT)


class TimeLeft(float):
    """The seconds a call's :class:`Deadline` leaves its next search (:meth:`Deadline.left`), which remembers the
    call's own limit: a search stopped under it names that limit, not the 0.0 seconds it was given."""

    limit: float | None

    def __new__(cls, seconds: float, limit: float | None = None) -> "TimeLeft":
        left = super().__new__(cls, seconds)
        left.limit = limit
        return left

    def __reduce__(self) -> tuple[type, tuple[float, float | None]]:
        return TimeLeft, (float(self), self.limit)

    @classmethod
    def until(cls, end: float, limit: float | None) -> "TimeLeft":
        """The seconds from now to ``end`` (a ``time.monotonic()`` time), 0 once past it, under ``limit``."""
        return cls(max(0.0, end - time.monotonic()), limit)


class Deadline:
    """One ``time_limit`` (seconds from now) and ``stop`` event, for one search (the engine's stop check,
    :func:`~solver.search.engine.stop_checked`) or shared by the several searches of one question (a settlement,
    its line and the points comparison; the rows of a contract table): each search is given :meth:`left`, so the
    limit bounds them together. A number of seconds above 0 (what it leaves may be 0: that search stops before it
    starts), and an Event or anything with ``is_set()``; with ``reference_solver`` neither, since the reference solver
    has no stop check and would run past them."""

    def __init__(self, time_limit: float | None = None, stop: threading.Event | None = None, *,
                 reference_solver: bool = False) -> None:
        if reference_solver and (time_limit is not None or stop is not None):
            raise StichError(REFERENCE_RUNS_TO_THE_END)
        check_time_limit(time_limit)
        check_stop(stop)
        self.time_limit = time_limit
        self.stop = stop
        self._end = None if time_limit is None else time.monotonic() + time_limit
        # the limit messages name: the call's, where this search was given what the call's deadline left it
        self._named = time_limit.limit if isinstance(time_limit, TimeLeft) else time_limit

    @property
    def limited(self) -> bool:
        """Whether there is a limit or a stop event at all."""
        return self.time_limit is not None or self.stop is not None

    def left(self) -> float | None:
        """The seconds left for the next search (0 once past: that search stops before it starts), None without a
        limit."""
        return None if self._end is None else TimeLeft.until(self._end, self._named)

    def reason(self) -> str:
        """Why :meth:`passed` says stop, naming the limit (a bot author who passed 0 seconds, or a left-over 0 of a
        call's one deadline, reads it)."""
        if self.stop is not None and self.stop.is_set():
            return "its stop event was set"
        if self._named is None:  # a TimeLeft that did not say the call's limit: no number to name
            return "its time limit was up"
        return f"its time limit was up (time_limit={self._named!r} seconds)"

    def passed(self) -> bool:
        """Whether a search must stop now: the time is up or the event is set (asked by the search without raising:
        a clock and an Event only)."""
        return (self._end is not None and time.monotonic() >= self._end) or \
            (self.stop is not None and self.stop.is_set())

    def stopped_by(self) -> str | None:
        """What ends a run of many searches now: ``"interrupt"`` (the stop event), ``"time limit"``, or None (the
        words the reports' ``stopped`` say)."""
        if self.stop is not None and self.stop.is_set():
            return "interrupt"
        return "time limit" if self._end is not None and time.monotonic() >= self._end else None

    def check(self, stopped: str) -> None:
        """Raise :class:`~solver.errors.SearchStopped` (``stopped``, then why) once :meth:`passed`: what a Python loop
        of many short searches asks between them, since a search shorter than the engine's stop check never asks it."""
        if self.passed():
            raise SearchStopped(f"{stopped}: {self.reason()}")
