"""The strategy tree: every play sequence of a few cards from a position, with the double-dummy value of each.

:func:`strategy_tree` builds a :class:`networkx.DiGraph` whose nodes are the positions reached after up to
``depth`` cards (one node per play sequence, so the node count per level is the perft count) and whose edges are
the legal cards, each with the value it keeps and ``optimal`` when it keeps the node's value. It is the object to
look at when a post-mortem says a card was a mistake and one wants to see why, or to export to Gephi / yEd
(GraphML, GEXF) or a web page (node-link JSON). Every attribute is a plain str, int, float or bool, which is all
those writers accept.

A tree grows by the branching factor per card (a Zwanzigerrufen deal has 172,326 nodes to depth 8, and a node
costs about 10 KB until the tree is written as GraphML or GEXF, 4 KB as JSON: :data:`NODE_BYTES`), so
``max_nodes`` bounds it (by default, to what the memory available holds): the nodes are counted first with the
engine's move generator (the tree has one node per play sequence, the perft counts of every depth summed), which
takes milliseconds, and a tree over the bound is refused before any node is made.
"""

from __future__ import annotations

import os
import re
import threading
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Callable, SupportsIndex

from .errors import StichError, check_callback, escaped, shown_name
from .limits import DEFAULT_MAX_NODES, MAX_TREE_NODES
from .files import atomic_path, json_text
from .games.base import Objective
from .position import Position, check_position, names_score
from .search.boundary import Deadline, check_number
from .search.engine import MAX_PERFT_DEPTH, EngineSolver, solver_for
from .search.results import seat_to_move
from .state import PlayState

if TYPE_CHECKING:
    import networkx as nx  # imported where a tree is made or written: a third of every command's start otherwise

    from .tree_graph import StrategyTree

FORMATS = (".graphml", ".gexf", ".json")
_FORMAT_NAMES = {".graphml": "GraphML", ".gexf": "GEXF", ".json": "JSON"}  # as a message names them


#: What a node costs at the peak, the tree held and being written, by the format it is written in: the growth of the
#: resident memory a node, measured on trees of 8,702 nodes (Schafkopf, depth 7) and 19,822 nodes (Zwanzigerrufen,
#: depth 6) from a whole deal, rounded up (GraphML 9.4 KB, GEXF 9.1 KB, JSON 2.9 and 3.6 KB; the tree alone about
#: 1 KB, networkx's XML writers build the whole document, JSON one text): docs/limits.md, ``bench/tree_memory.py``.
NODE_BYTES = {".graphml": 10 << 10, ".gexf": 10 << 10, ".json": 4 << 10}

#: Called every PROGRESS_NODES nodes with (nodes made, nodes in the whole tree).
TreeProgress = Callable[[int, int], None]
PROGRESS_NODES = 1_000


class TreeTooLarge(StichError):
    """A tree with more nodes than were allowed: ``nodes`` of them, or at least that many when not ``exact`` (the
    count stops at the first depth over the bound). ``max_nodes`` is the bound: the caller's, or when ``by_memory``
    the nodes the memory available held (a call without ``max_nodes``). ``depth`` is the cards the tree would go,
    ``to_end`` when those are every card left (a depth asked past the deal's end goes no further)."""

    def __init__(self, nodes: int, exact: bool, max_nodes: int, depth: int, by_memory: bool = False,
                 to_end: bool = False) -> None:
        self.nodes, self.exact, self.max_nodes, self.depth = nodes, exact, max_nodes, depth
        self.by_memory, self.to_end = by_memory, to_end
        if by_memory:
            super().__init__(f"{self.memory_text()}: ask for fewer cards, or give max_nodes to build it anyway")
        else:
            super().__init__(f"{self.tree_text()} has {self.size_text()}, more than the {max_nodes:,} allowed "
                             f"(max_nodes; {node_memory_text()})")

    def tree_text(self) -> str:
        """``the tree to depth 3``, or ``the tree of the 40 cards left`` where it goes to the deal's end, as the
        summary of a tree says what it is of: not the depth asked, which may be past the end."""
        if self.to_end:
            return f"the tree of the {self.depth} card{'' if self.depth == 1 else 's'} left"
        return f"the tree to depth {self.depth}"

    def size_text(self) -> str:
        return f"{'' if self.exact else 'more than '}{self.nodes:,} nodes"

    def memory_text(self, suffix: str = ".graphml", *, to_print: bool = False) -> str:
        """The tree against the memory's bound (``max_nodes`` the nodes it held, written in the format of
        ``suffix``, or held as that format to be printed when ``to_print``), in the words of the API's refusal and
        of ``stich tree``'s, which add what to do."""
        return (f"{self.tree_text()} has {self.size_text()}, more than the memory available now holds "
                f"({self.max_nodes:,} nodes: {self.max_nodes * node_bytes(suffix) / (1 << 30):.1f} GB at "
                f"{node_memory_text(suffix, to_print=to_print)})")


def tree_size(position: Position, depth: int, *, stop_above: int | None = None,
              engine: EngineSolver | None = None) -> int:
    """How many nodes :func:`strategy_tree` makes to ``depth`` cards: one per play sequence of at most ``depth``
    cards (the perft counts of every depth up to the end of the deal, summed). With ``stop_above`` the count stops at
    the first depth where the sum exceeds it, so that a tree far too large is not counted through."""
    check_position(position)
    check_number("the tree depth (cards)", depth, 0, MAX_PERFT_DEPTH)
    return _count_nodes(position, depth, stop_above, solver_for(engine))[0]


def available_memory() -> int:
    """The bytes this process could still get now: the system's available memory (``MemAvailable``, else the free
    pages), within what is left of an address-space limit (``ulimit -v``)."""
    available: int | None = None
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    if available is None:
        try:
            available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, OSError, ValueError):
            available = 1 << 62  # nothing to go by: no bound of its own
    try:
        import resource
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit != resource.RLIM_INFINITY:
            with open("/proc/self/statm", encoding="ascii") as statm:
                mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            available = min(available, max(0, limit - mapped))
    except (ImportError, OSError, ValueError, IndexError):
        pass
    return available


def node_bytes(suffix: str) -> int:
    """What a node costs until the tree is written in the format of ``suffix`` (:data:`NODE_BYTES`); the most of
    them for a suffix that is none of :data:`FORMATS`."""
    return NODE_BYTES.get(suffix.lower(), max(NODE_BYTES.values()))


def node_memory_text(suffix: str | None = None, *, to_print: bool = False) -> str:
    """``about 4 KB of memory a node written as JSON``, or ``... a node held to be printed`` when ``to_print`` (a
    tree printed, not written to a file, is held as the format of ``suffix``); without a suffix, every format's
    figure."""
    if suffix is not None:
        ending = "held to be printed" if to_print else f"written as {_FORMAT_NAMES.get(suffix.lower(), suffix)}"
        return f"about {node_bytes(suffix) >> 10} KB of memory a node {ending}"
    by_size: dict[int, list[str]] = {}
    for known, size in NODE_BYTES.items():
        by_size.setdefault(size >> 10, []).append(_FORMAT_NAMES[known])
    parts = [f"{kb} KB" + ("" if index else " of memory a node") + f" written as {' or '.join(names)}"
             for index, (kb, names) in enumerate(by_size.items())]
    return "about " + ", ".join(parts)


def nodes_memory_holds(suffix: str = ".graphml") -> int:
    """The most nodes the memory available now holds (:func:`available_memory`, :func:`node_bytes` a node of a tree
    written as ``suffix``), at least 1 and at most :data:`MAX_TREE_NODES`: the bound of a tree asked for with no limit
    of its own (``max_nodes`` None, ``--max-nodes 0``), which would otherwise be counted through (hours, at 20 cards)
    and then built until the memory ran out."""
    return max(1, min(MAX_TREE_NODES, available_memory() // node_bytes(suffix)))


def _cards_left(state: PlayState) -> int:
    """The cards still to be played from ``state``: every play sequence ends the deal after as many."""
    return sum(hand.bit_count() for hand in state.hands)


def _count_nodes(position: Position, depth: int, stop_above: int | None, engine: EngineSolver) -> tuple[int, bool]:
    """:func:`tree_size`'s count, and whether it is the whole tree's (False when it stopped above the bound)."""
    state = position.state
    last = min(depth, _cards_left(state))
    total = 0
    for level in range(last + 1):
        total += engine.perft(state, level)
        if stop_above is not None and total > stop_above:
            return total, level == last
    return total, True


def _node_id(path: tuple[str, ...]) -> str:
    """A node is named by the cards leading to it ('root' for the position itself)."""
    return " ".join(path) if path else "root"


def _objective(position: Position, objective: str | None, seat: SupportsIndex | None) -> Objective:
    """The objective asked for; by default the points, or in a game without points the declarer's (or ``seat``'s)
    tricks, and those tricks named without a seat are the declarer's too (the default named is the default). An
    objective named that the contract has not is refused, ``points`` in a game without points too."""
    rules = position.rules
    if objective is None:
        objective = "points" if "points" in rules.objective_names() else "tricks"
    if objective == "tricks" and seat is None and "tricks" in rules.objective_names():
        seat = rules.declarer + 1
    return position.objective(objective, seat)  # checks the seat


def _node_attributes(state: PlayState, value: int, depth: int) -> dict[str, object]:
    pack = state.rules.pack
    return {"to_move": seat_to_move(state) or 0,  # GraphML and GEXF attributes have no null: 0 once over
            "table": " ".join(pack[c].name for c in state.trick), "value": value, "depth": depth,
            "tricks_played": len(state.history), "over": state.is_over}


def _origin(position: Position) -> dict[str, str]:
    """Graph attributes that say where the tree came from, so that a tree file can be traced back to its deal:
    the record (``source``: its file and line; ``board``), the ``deal`` (the hands as the record deals them) and the
    cards ``played`` before the root, in order. Empty for a position not read from a record; ``source`` too for a
    record made, not read (a seeded random deal's: line 0, no place in any file). The record's ``announcements``
    and ``pot`` (its tags as given, a ``--pot`` too) where it has them: a score tree's values depend on them, and
    neither the deal nor the file's record says a pot given with the command."""
    record = position.record
    pack = position.pack
    read = record is not None and record.source and record.line > 0
    scored = {name: (record.get(tag) or "").strip() for name, tag in (("announcements", "Announcements"),
                                                                       ("pot", "Pot"))} if record is not None else {}
    return {"source": f"{record.source}:{record.line}" if record is not None and read else "",
            "board": (record.get("Board") or "") if record is not None else "",
            "deal": position.rules.deal.text(), "played": " ".join(pack[card].name for card in position.played),
            **{name: value for name, value in scored.items() if value}}


def _target(goal: Objective) -> dict[str, int]:
    """The ``target`` graph attribute: the total the maximiser needs (2 tricks for a Kratzen attacker, 10 for a
    Valat), so that a node's value says whether it makes it; absent where the objective has none (points, score),
    since GraphML and GEXF have no null."""
    return {} if goal.target is None else {"target": goal.target}


def strategy_tree(position: Position, depth: int, *, objective: str | None = None,
                  seat: SupportsIndex | None = None,
                  engine: EngineSolver | None = None, max_nodes: int | None = None,
                  progress: TreeProgress | None = None, time_limit: float | None = None,
                  stop: threading.Event | None = None) -> StrategyTree:
    """The tree of every play sequence of ``depth`` cards from the position.

    Node attributes: ``to_move`` (1-based seat, 0 when the deal is over), ``table`` (cards on the table), ``value``
    (the maximising side's total: achieved + double-dummy rest; the declaring side for ``points``; for ``score``
    the declaring side's settlement in game units), ``depth``.
    Edge attributes: ``card``, ``seat`` (who plays it), ``value`` (the total the card keeps) and ``optimal``.
    Graph attributes: ``objective``, ``maximiser``, ``game``, ``contract``, ``depth`` (the cards the tree goes: fewer
    than ``depth`` where the deal ends sooner, 0 for a finished deal), ``variant`` (the flags
    that differ from the game's defaults, ``NAME=VALUE, ...``), ``target`` (the total the maximiser needs, where the
    objective has one), and where the tree came from: ``source`` (the
    record's ``file:line``), ``board``, ``deal`` and ``played`` (the cards before the root), and where the record
    has them, the ``announcements`` and ``pot`` its score reads.

    A tree of more nodes than ``max_nodes`` is refused with :class:`TreeTooLarge` before any node is made
    (:func:`tree_size`). None (the default) is as many as the memory available now holds (:func:`nodes_memory_holds`,
    as ``stich tree --max-nodes 0``): the tree is held whole, so a larger one would be counted for hours and then
    built until the memory ran out; a number is taken as given (``MAX_TREE_NODES``: no bound of the memory's);
    ``progress(nodes made, nodes in all)`` is called every ``PROGRESS_NODES`` nodes.
    ``time_limit`` (seconds) and ``stop`` bound every search of the call together (the count, every node's), as
    :func:`~solver.analysis.check_bonuses`' do: past them it raises :class:`~solver.errors.SearchStopped`."""
    from .score_objective import settlement_engine_for  # the settlement search loads on first use

    check_position(position)
    check_number("the tree depth (cards)", depth, 0, MAX_PERFT_DEPTH)
    # a tree ends with the deal: its depth (the graph's attribute, the summary's words) is the cards it goes, not more
    cards_left = _cards_left(position.state)
    depth = min(depth, cards_left)
    engine = solver_for(engine)
    by_memory = max_nodes is None
    max_nodes = nodes_memory_holds() if max_nodes is None else check_number("max_nodes", max_nodes, 1, MAX_TREE_NODES)
    check_callback(progress, "progress")
    deadline = Deadline(time_limit, stop)
    with ExitStack() as limits:
        if deadline.limited:  # the points engine counts and values; the settlement engine values a score tree
            limits.enter_context(engine.stopping(deadline.left(), stop))
            if names_score(objective):
                limits.enter_context(settlement_engine_for(engine).stopping(deadline.left(), stop))
        total, exact = _count_nodes(position, depth, max_nodes, engine)
        if total > max_nodes:
            raise TreeTooLarge(total, exact, max_nodes, depth, by_memory, to_end=depth == cards_left)
        counter = _Counter(total, progress, deadline)
        if names_score(objective):
            return _score_tree(position, depth, seat, counter, engine)
        return _points_tree(position, depth, objective, seat, counter, engine)


def _points_tree(position: Position, depth: int, objective: str | None, seat: SupportsIndex | None,
                 counter: _Counter,
                 engine: EngineSolver) -> StrategyTree:
    """The tree valued by an objective of the points engine (the points, a bonus, a seat's tricks)."""
    from .tree_graph import StrategyTree  # networkx loads on first use

    goal = _objective(position, objective, seat)
    rules = position.rules
    graph = StrategyTree(objective=goal.name, maximiser="+".join(str(s + 1) for s in sorted(goal.maximiser)),
                         game=position.game.name, contract=str(rules.contract), depth=depth,
                         variant=rules.variant.text(), **_target(goal), **_origin(position))
    state = position.state
    root_value = goal.achieved(rules, state) + engine.value(state, goal)
    graph.add_node(_node_id(()), **_node_attributes(state, root_value, 0))

    def totals(node: PlayState) -> list[tuple[int, int]]:
        achieved = goal.achieved(rules, node)
        return [(cv.card, achieved + cv.value) for cv in engine.card_values(node, goal)]

    _expand(graph, totals, state, (), root_value, depth, counter)
    return graph


class _Counter:
    """Counts the nodes made and reports them to ``progress`` every PROGRESS_NODES; :meth:`look` stops the tree at
    its deadline between nodes, since a node's search is mostly too small to reach the engine's own stop check."""

    def __init__(self, total: int, progress: TreeProgress | None, deadline: Deadline) -> None:
        self.total = total
        self.progress = progress
        self.deadline = deadline
        self.made = 1  # the root

    def look(self) -> None:
        self.deadline.check(f"the tree was stopped after {self.made:,} of {self.total:,} nodes")

    def made_one(self) -> None:
        self.made += 1
        if self.progress is not None and self.made % PROGRESS_NODES == 0:
            self.progress(self.made, self.total)


def _score_tree(position: Position, depth: int, seat: SupportsIndex | None, counter: _Counter,
                engine: EngineSolver) -> StrategyTree:
    """The tree valued by the score: every node's value is the declaring side's double-dummy settlement, searched
    by the settlement engine that goes with ``engine`` (its table size and threads)."""
    from .score_objective import score_takes_no_seat, settlement_engine_for, solve_score  # loaded on first use
    from .tree_graph import StrategyTree  # networkx loads on first use

    if seat is not None:
        raise score_takes_no_seat(position)

    def at(node: PlayState) -> Position:
        return Position(position.game, position.rules, node, record=position.record)

    searcher = settlement_engine_for(engine)
    root = solve_score(at(position.state), engine=searcher, reference_solver=False)
    rules = position.rules
    maximiser = "+".join(str(s + 1) for s in sorted(root.objective.maximiser))
    graph = StrategyTree(objective="score", maximiser=maximiser, game=position.game.name,
                         contract=str(rules.contract), depth=depth, variant=rules.variant.text(), **_origin(position))
    graph.add_node(_node_id(()), **_node_attributes(position.state, root.total, 0))

    def totals(node: PlayState) -> list[tuple[int, int]]:
        return [(cv.card, cv.value) for cv in solve_score(at(node), cards=True, engine=searcher,
                                                                reference_solver=False).card_values]

    _expand(graph, totals, position.state, (), root.total, depth, counter)
    return graph


def _expand(graph: nx.DiGraph, totals: Callable[[PlayState], list[tuple[int, int]]], state: PlayState,
            path: tuple[str, ...], value: int, depth: int, counter: _Counter) -> None:
    """Add the children of one node: one edge per legal card, valued by one card-values search of the node
    (``totals``: each legal card and the total it keeps)."""
    if depth == 0 or state.is_over:
        return
    rules = state.rules
    parent = _node_id(path)
    counter.look()
    for card, total in totals(state):
        name = rules.pack[card].name
        child_state = state.advance(card)
        child = path + (name,)
        graph.add_node(_node_id(child), **_node_attributes(child_state, total, len(child)))
        counter.made_one()
        graph.add_edge(parent, _node_id(child), card=name, seat=state.to_move + 1, value=total,
                       optimal=total == value)
        _expand(graph, totals, child_state, child, total, depth - 1, counter)


def tree_document(graph: nx.DiGraph) -> dict[str, object]:
    """The tree as one JSON document (``stich tree --json``, and a ``.json`` file): networkx's node-link data, each
    node by its ``id`` (the cards from the root, ``root`` for the root) and each edge a ``links`` entry from
    ``source`` to ``target`` (``nx.node_link_graph(document, edges="links")`` reads it back), under the ``schema`` and
    ``command`` every stich document starts with, so that a script reading stich's JSON tells it apart."""
    import networkx as nx

    from .analysis import SCHEMA  # the analysis module loads its engines: only where a tree is written

    return {"schema": SCHEMA, "command": "tree", **nx.node_link_data(graph, edges="links")}


#: What XML 1.0 has no character for (the C0 controls but tab and newline, the lone surrogates of a file name that
#: is not UTF-8, U+FFFE and U+FFFF), and CR, which an XML reader reads as a newline: written to GraphML and GEXF as
#: its escape (``\x1b``, ``\udc9b``, ``\r``), so that every file written reads back (networkx writes them as they
#: are, or as ``&#56475;``, which no XML reader takes).
NOT_IN_XML = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(graph: nx.DiGraph) -> nx.DiGraph:
    """A copy of ``graph`` whose text attributes (the graph's, its nodes' and its edges') have every character of
    :data:`NOT_IN_XML` as its escape; ``graph`` itself where none has one (a tree is large: no copy needless)."""
    def attributes(of: nx.DiGraph) -> list[dict]:
        return [of.graph, *(data for _, data in of.nodes(data=True)), *(data for _, _, data in of.edges(data=True))]

    if not any(isinstance(value, str) and NOT_IN_XML.search(value)
               for data in attributes(graph) for value in data.values()):
        return graph
    copy = graph.copy()
    for data in attributes(copy):
        data.update({key: NOT_IN_XML.sub(escaped, value) for key, value in data.items() if isinstance(value, str)})
    return copy


def format_refused(path: Path) -> str:
    """Why a tree is not written to ``path``, whose suffix names none of :data:`FORMATS`: a name that is a suffix
    alone (``.json``, a hidden file's name, which has none) is said so, with a name that has it."""
    said = f"{shown_name(path)}: the tree is written as {', '.join(FORMATS)}"
    if path.suffix:
        return f"{said}, not {path.suffix}"
    if path.name.lower() in FORMATS:
        return (f"{said}, by the name's suffix: {path.name} is a hidden file's whole name, with none (name the tree, "
                f"such as tree{path.name})")
    return f"{said}, by the name's suffix, which {path.name} has not"


def write_tree(graph: nx.DiGraph, path: str | Path) -> Path:
    """Write the tree with networkx's own writers, chosen by the suffix: GraphML, GEXF (their text XML-safe:
    :func:`xml_safe`), or node-link JSON (:func:`tree_document`)."""
    import networkx as nx

    if not isinstance(graph, nx.DiGraph):
        raise StichError(f"the tree to write is a networkx DiGraph (from strategy_tree), not {type(graph).__name__}")
    if not isinstance(path, (str, os.PathLike)):
        raise StichError(f"the tree's file is a path, not {type(path).__name__}")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise StichError(format_refused(path))
    with atomic_path(path) as temporary:  # a missing folder said as every output's, and no half-written tree
        if suffix == ".graphml":
            nx.write_graphml(xml_safe(graph), temporary)
        elif suffix == ".gexf":
            nx.write_gexf(xml_safe(graph), temporary)
        else:
            temporary.write_text(json_text(tree_document(graph)) + "\n", encoding="utf-8")
    return path


__all__ = ["DEFAULT_MAX_NODES", "TreeTooLarge", "strategy_tree", "tree_document", "tree_size",
           "write_tree"]
