"""The strategy tree: every play sequence of a few cards from a position, with the double-dummy value of each.

:func:`strategy_tree` builds a :class:`networkx.DiGraph` whose nodes are the positions reached after up to
``depth`` cards (one node per play sequence, so the node count per level is the perft count) and whose edges are
the legal cards, each with the value it keeps and ``optimal`` when it keeps the node's value. It is the object to
look at when a post-mortem says a card was a mistake and one wants to see why, or to export to Gephi / yEd
(GraphML, GEXF) or a web page (node-link JSON). Every attribute is a plain str, int, float or bool, which is all
those writers accept.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

import networkx as nx

from .errors import StichError
from .games.base import Objective
from .position import Position, check_position, names_score
from .search.boundary import check_number
from .search.engine import MAX_PERFT_DEPTH, EngineSolver, solver_for
from .state import PlayState

FORMATS = (".graphml", ".gexf", ".json")


def _node_id(path: tuple[str, ...]) -> str:
    """A node is named by the cards leading to it ('root' for the position itself)."""
    return " ".join(path) if path else "root"


def _objective(position: Position, objective: str | None, seat: int | None) -> Objective:
    """The objective asked for; by default the points, or in a game without points the declarer's (or ``seat``'s)
    tricks. An objective named that the contract has not is refused, ``points`` in a game without points too."""
    rules = position.rules
    if objective is None:
        if "points" in rules.objective_names():
            return position.objective("points", seat)
        return position.objective("tricks", rules.declarer + 1 if seat is None else seat)  # checks the seat
    return position.objective(objective, seat)


def _node_attributes(state: PlayState, value: int, depth: int) -> dict[str, object]:
    pack = state.rules.pack
    return {"to_move": 0 if state.is_over else state.to_move + 1,
            "table": " ".join(pack[c].name for c in state.trick), "value": value, "depth": depth,
            "tricks_played": len(state.history), "over": state.is_over}


def strategy_tree(position: Position, depth: int, *, objective: str | None = None, seat: int | None = None,
                  engine: EngineSolver | None = None) -> nx.DiGraph:
    """The tree of every play sequence of ``depth`` cards from the position.

    Node attributes: ``to_move`` (1-based seat, 0 when the deal is over), ``table`` (cards on the table), ``value``
    (the maximising side's total: achieved + double-dummy rest; the declaring side for ``points``; for ``score``
    the declaring side's settlement in game units), ``depth``.
    Edge attributes: ``card``, ``seat`` (who plays it), ``value`` (the total the card keeps) and ``optimal``.
    Graph attributes: ``objective``, ``maximiser``, ``game``, ``contract``, ``depth`` and ``variant`` (the flags
    that differ from the game's defaults, ``name=value, ...``)."""
    check_position(position)
    check_number("the tree depth (cards)", depth, 0, MAX_PERFT_DEPTH)
    engine = solver_for(engine)
    if names_score(objective):
        return _score_tree(position, depth, seat)
    goal = _objective(position, objective, seat)
    rules = position.rules
    graph = nx.DiGraph(objective=goal.name, maximiser="+".join(str(s + 1) for s in sorted(goal.maximiser)),
                       game=position.game.name, contract=str(rules.contract), depth=depth,
                       variant=rules.variant.text())
    state = position.state
    root_value = goal.achieved(rules, state) + engine.value(state, goal)
    graph.add_node(_node_id(()), **_node_attributes(state, root_value, 0))

    def totals(node: PlayState) -> list[tuple[int, int]]:
        achieved = goal.achieved(rules, node)
        return [(cv.card, achieved + cv.value) for cv in engine.card_values(node, goal)]

    _expand(graph, totals, state, (), root_value, depth)
    return graph


def _score_tree(position: Position, depth: int, seat: int | None) -> nx.DiGraph:
    """The tree valued by the score: every node's value is the declaring side's double-dummy settlement."""
    from .score_objective import solve_score  # the settlement search loads on first use

    if seat is not None:
        raise StichError("the score is the declaring side's (or the declarer's alone) and takes no seat")

    def at(node: PlayState) -> Position:
        return Position(position.game, position.rules, node, record=position.record)

    root = solve_score(at(position.state), reference_solver=False)
    rules = position.rules
    graph = nx.DiGraph(objective="score", maximiser="+".join(str(s + 1) for s in sorted(root.objective.maximiser)),
                       game=position.game.name, contract=str(rules.contract), depth=depth,
                       variant=rules.variant.text())
    graph.add_node(_node_id(()), **_node_attributes(position.state, root.total, 0))

    def totals(node: PlayState) -> list[tuple[int, int]]:
        return [(cv.card, cv.value) for cv in solve_score(at(node), cards=True, reference_solver=False).card_values]

    _expand(graph, totals, position.state, (), root.total, depth)
    return graph


def _expand(graph: nx.DiGraph, totals: Callable[[PlayState], list[tuple[int, int]]], state: PlayState,
            path: tuple[str, ...], value: int, depth: int) -> None:
    """Add the children of one node: one edge per legal card, valued by one card-values search of the node
    (``totals``: each legal card and the total it keeps)."""
    if depth == 0 or state.is_over:
        return
    rules = state.rules
    parent = _node_id(path)
    for card, total in totals(state):
        name = rules.pack[card].name
        child_state = state.advance(card)
        child = path + (name,)
        graph.add_node(_node_id(child), **_node_attributes(child_state, total, len(child)))
        graph.add_edge(parent, _node_id(child), card=name, seat=state.to_move + 1, value=total,
                       optimal=total == value)
        _expand(graph, totals, child_state, child, total, depth - 1)


def write_tree(graph: nx.DiGraph, path: str | Path) -> Path:
    """Write the tree with networkx's own writers, chosen by the suffix: GraphML, GEXF, or node-link JSON."""
    if not isinstance(graph, nx.DiGraph):
        raise StichError(f"the tree to write is a networkx DiGraph (from strategy_tree), not {type(graph).__name__}")
    if not isinstance(path, (str, os.PathLike)):
        raise StichError(f"the tree's file is a path, not {type(path).__name__}")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".graphml":
        nx.write_graphml(graph, path)
    elif suffix == ".gexf":
        nx.write_gexf(graph, path)
    elif suffix == ".json":
        path.write_text(json.dumps(nx.node_link_data(graph, edges="links"), ensure_ascii=False) + "\n",
                        encoding="utf-8")
    else:
        raise StichError(f"{path}: the tree is written as {', '.join(FORMATS)}, not {suffix or 'no suffix'}")
    return path


__all__ = ["strategy_tree", "write_tree"]
