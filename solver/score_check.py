"""Bonuses played for together: whether the score-optimal play forces a bonus, and which of two bonuses that can only
be forced one at a time the score prefers (``stich check``, issue 32).

A bonus that can be forced alone need not be forced by the play that is best for the score: Valat and Pagat Ultimo
may each be forceable, but not both, and the score says which to play for. Both questions are settlement searches
over a *constrained* payoff: the bonus's objective is one more component (threshold: its target), and every outcome
where the bonus's side misses it is made the worst possible for that side (``-PAYOFF_LIMIT`` for the declaring side,
which maximises the settlement, ``+PAYOFF_LIMIT`` for the defenders). The constrained value is then the best
settlement the side can force *while also forcing* the bonus; it equals the plain score exactly when some
score-optimal strategy forces the bonus, and it is out of range when the bonus cannot be forced at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Callable, Sequence

from .games.base import Objective
from .games.outcome import other_side
from .position import Position
from .search.engine import uses_reference
from .search.settle import PAYOFF_LIMIT, PayoffComponent, PayoffSpec, bucket_tuples, reference_settlement
from .settlement import Announcements, final_net, payoff_spec
from .state import PlayState

Requirement = tuple[Objective, int]  # a bonus's objective and its target


def requiring(spec: PayoffSpec, requirements: Sequence[Requirement], maximising: bool) -> PayoffSpec | None:
    """``spec`` with every outcome that misses one of the requirements made the worst for the side (the maximising
    one when ``maximising``). A requirement on a quantity the settlement already counts (the declarers' tricks for
    Valat, their points for Absolut, the Pagat event) is a threshold more on that component, any other one more
    component; None when the engine could not take so many."""
    from .search.settle import MAX_COMPONENTS, MAX_THRESHOLDS

    components = list(spec.components)
    checks = []  # (component index, target)
    for objective, target in requirements:
        if target <= 0:
            continue  # met whatever happens (a target measured on what an ending still holds can be 0)
        core = _core(objective)
        index = next((i for i, c in enumerate(components) if _core(c.objective) == core), None)
        if index is None:
            components.append(PayoffComponent(f"requires {objective.name}", objective, (target,)))
            index = len(components) - 1
        else:
            c = components[index]
            components[index] = PayoffComponent(c.name, c.objective, tuple(sorted(set(c.thresholds) | {target})))
        checks.append((index, target))
    if len(components) > MAX_COMPONENTS or any(len(c.thresholds) > MAX_THRESHOLDS for c in components):
        return None
    worst = -PAYOFF_LIMIT if maximising else PAYOFF_LIMIT
    base = len(spec.components)
    table = []
    for buckets in bucket_tuples(tuple(components)):
        values = tuple(c.representative(b) for c, b in zip(components, buckets))
        missed = any(values[i] < target for i, target in checks)
        table.append(worst if missed else spec.payoff(values[:base]))
    return PayoffSpec(spec.declaring_side, tuple(components), table=tuple(table))


def _core(objective: Objective) -> tuple:
    """What an objective counts, whatever it is called and whatever its target."""
    return (objective.maximiser, objective.points_weight, objective.trick_weight, objective.events)


@dataclass(frozen=True)
class BonusScore:
    """One bonus under the score: ``with_bonus`` is the best settlement its side can force while also forcing it
    (None: it cannot be forced; for the defenders' bonuses the least settlement), and ``score_forces`` whether the
    score-optimal play forces it (``with_bonus`` equals the score). A bonus that scores nothing here (``scores``
    false: a Tout's Schneider, a bonus the other side announced) is not searched: the score is blind to it. Its
    ``scored_as`` names the announced bonus whose row scores its outcome instead (a Pagat beaten after an announced
    Pagat is ``pagat_ultimo`` failed), None when nothing does."""

    bonus: str
    side: tuple[int, ...]
    with_bonus: int | None
    score_forces: bool | None
    scores: bool = True
    scored_as: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"bonus": self.bonus, "side": list(self.side), "with_bonus": self.with_bonus,
                "score_forces": self.score_forces, "scores": self.scores, "scored_as": self.scored_as}


@dataclass(frozen=True, kw_only=True)
class BonusChoice:
    """Two bonuses of one side that can each be forced but not both: the settlement while forcing each, and the one
    the score prefers (the greater settlement for the declaring side, the lesser for the defenders; None when
    equal). Made with its fields named, so that a field added cannot shift the others under a positional call."""

    side: tuple[int, ...]
    #: The seats against ``side`` (1-based), which can always stop one of the two: required, since the line that
    #: names them (stich check) would name no one for a choice made without them.
    other_side: tuple[int, ...]
    bonuses: tuple[str, str]
    settlements: tuple[int, int]
    prefers: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"side": list(self.side), "other_side": list(self.other_side), "bonuses": list(self.bonuses),
                "settlements": list(self.settlements), "prefers": self.prefers}


def score_of_bonuses(position: Position, bonuses: Sequence[tuple[str, Objective, bool]], *,
                     announcements: Announcements = None, pot: int | None = None, engine: Any = None,
                     reference_solver: bool | None = None) -> tuple[int, list[BonusScore], list[BonusChoice]]:
    """The score, each bonus under it, and the choices between bonuses of one side that cannot be forced together.
    ``bonuses`` are (name, objective with a target, forced alone) from the ordinary bonus check; those that score
    nothing under the position's record, or ``announcements`` and ``pot`` when given
    (:func:`~solver.scoring.unscored_bonuses`), are neither searched under the score nor offered as a choice."""
    from .scoring import bonuses_scored_as, unscored_bonuses

    unscored = unscored_bonuses(position, pot=pot, announcements=announcements, tolerate_errors=True)
    scored_as = bonuses_scored_as(position, pot=pot, announcements=announcements, tolerate_errors=True)
    state = position.state
    spec = payoff_spec(position, announcements=announcements, pot=pot)
    declaring = position.rules.declaring_side
    value_of = _searcher(position, state, announcements, pot, engine, reference_solver)
    score = value_of(spec, ())
    results: list[BonusScore] = []
    constrained: dict[str, int] = {}
    by_side: dict[tuple[int, ...], list[str]] = {}
    objectives = {}
    for name, objective, forced in bonuses:
        side = tuple(sorted(s + 1 for s in objective.maximiser))
        maximising = objective.maximiser <= declaring
        assert objective.target is not None
        if name in unscored:
            results.append(BonusScore(name, side, None, None, scores=False, scored_as=scored_as.get(name)))
            continue
        required = requiring(spec, [(objective, objective.target)], maximising)
        if required is None or not forced:
            results.append(BonusScore(name, side, None, None if required is None else False))
            continue
        value = value_of(required, ((objective, objective.target),))
        constrained[name] = value
        objectives[name] = objective
        by_side.setdefault(side, []).append(name)
        results.append(BonusScore(name, side, value, value == score))
    choices = []
    for side, names in by_side.items():
        maximising = objectives[names[0]].maximiser <= declaring
        for first, second in combinations(names, 2):
            pair = [(objectives[n], objectives[n].target) for n in (first, second)]
            both = requiring(spec, pair, maximising)  # type: ignore[arg-type]
            if both is None:
                continue
            together = value_of(both, tuple(pair))  # type: ignore[arg-type]
            if abs(together) < PAYOFF_LIMIT:
                continue  # forced together
            a, b = constrained[first], constrained[second]
            better = (a > b) if maximising else (a < b)
            prefers = None if a == b else (first if better else second)
            choices.append(BonusChoice(side=side, other_side=tuple(other_side(side, position.rules.seats)),
                                       bonuses=(first, second), settlements=(a, b), prefers=prefers))
    return score, results, choices


def score_check_report(position: Position, checks: Sequence[Any], *, engine: Any = None,
                       reference_solver: bool | None = None) -> dict[str, Any] | None:
    """The score part of ``stich check``'s document for the ordinary bonus checks (``BonusCheck`` of
    :func:`solver.analysis.check_bonuses`): the score, per bonus the settlement while forcing it and whether the
    score-optimal play forces it, and the choices; None when the position's rules have no settlement search."""
    from .settlement import settlement_unsupported

    if settlement_unsupported(position) is not None:
        return None
    bonuses = []
    for check in checks:
        if check.can_force is None or check.seat is not None:
            continue  # per-seat targets are no side's bonuses: the score is only the declarer's
        bonuses.append((check.bonus, position.objective(check.bonus), bool(check.can_force)))
    score, results, choices = score_of_bonuses(position, bonuses, engine=engine, reference_solver=reference_solver)
    return {"value": score, "bonuses": [r.as_dict() for r in results], "choices": [c.as_dict() for c in choices],
            "notes": check_notes(position, checks)}


def check_notes(position: Position, checks: Sequence[Any]) -> list[str]:
    """The notes ``stich check`` prints under its table, none of which needs a search: an ending scored as a whole
    deal, a pot of 0, the checked bonuses an announced bonus's row scores instead (a Pagat beaten after an
    announced Pagat), and those that score nothing at all here (a Tout's Schneider); none where the rules have no
    settlement search (the command prints no score then). The bonuses are named as players do, with the side where
    no column says it (``Game.sided_objective_title``: ``Schneider against``)."""
    from .scoring import bonuses_scored_as, score_notes, unscored_bonuses
    from .settlement import settlement_unsupported

    if settlement_unsupported(position) is not None:
        return []
    notes = score_notes(position)
    unscored = unscored_bonuses(position, tolerate_errors=True)
    scored_as = bonuses_scored_as(position, tolerate_errors=True)
    title = position.game.sided_objective_title
    for check in checks:
        if check.bonus in scored_as:
            notes.append(f"{title(check.bonus)} is scored as the announced {title(scored_as[check.bonus])} "
                         "(RULES.md 1.7: an announcement settles its bonus)")
    listed = [title(check.bonus) for check in checks if check.bonus in unscored and check.bonus not in scored_as]
    if listed:
        notes.append("scores nothing here, whatever the play (the contract or the announcements leave it out): "
                     f"{', '.join(listed)}")
    return notes


def _searcher(position: Position, state: PlayState, announcements: Announcements, pot: int | None, engine: Any,
              reference_solver: bool | None) -> Callable[[PayoffSpec, tuple], int]:
    """A function from a payoff (and its requirements) to its settlement, by the engine (``engine``: a points or
    settlement engine whose table size to use, or None) or the reference."""
    if not uses_reference(reference_solver):
        from .score_objective import settlement_engine_for

        searcher = settlement_engine_for(engine)
        return lambda spec, requirements: searcher.value(state, spec)
    rules = position.rules

    def value(spec: PayoffSpec, requirements: tuple) -> int:
        maximising = all(o.maximiser <= rules.declaring_side for o, _ in requirements)

        def score(final: PlayState) -> int:
            if any(o.achieved(rules, final) < target for o, target in requirements):
                return -PAYOFF_LIMIT if maximising else PAYOFF_LIMIT
            return final_net(position, final, announcements=announcements, pot=pot)[0]

        return reference_settlement(state, spec, score)

    return value


__all__ = ["BonusChoice", "BonusScore", "check_notes", "requiring", "score_check_report", "score_of_bonuses"]
