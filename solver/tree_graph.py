"""The graph :func:`solver.tree.strategy_tree` gives: a networkx ``DiGraph`` that prints and renders in Jupyter for
people. A module of its own so that networkx is imported only where a tree is made (``solver.tree`` is imported at
every command's start, and networkx takes a third of it)."""

from __future__ import annotations

import networkx as nx

from .errors import UnknownGameError
from .games import Game, get_game
from .games.outcome import net_amount, side_text
from .variant import rules_words
from .html_tables import html_lines, html_table
from .position import SCORE


class StrategyTree(nx.DiGraph):
    """A strategy tree: a networkx ``DiGraph`` (every networkx function, :func:`~solver.tree.write_tree` and the file
    formats take it as any), which prints what it is of and the root's cards with their values (``print(tree)``, where
    networkx says only ``DiGraph with 9 nodes and 8 edges``) and renders them in Jupyter as a table. Its nodes, edges
    and graph attributes are :func:`~solver.tree.strategy_tree`'s; its ``repr`` is the first of those lines (networkx
    gives a graph none but ``object``'s, ``<... object at 0x7f...>``)."""

    def summary(self) -> list[str]:
        """What the tree is of (the game, the contract, its depth, from where, its size) and the root's value."""
        graph = self.graph
        played = graph.get("played", "")
        cards = len(played.split())
        where = f"after {cards:,} card{'' if cards == 1 else 's'} played" if played else "from the deal's start"
        depth, nodes = graph.get("depth", 0), self.number_of_nodes()
        made = f"{graph.get('game', '')} {graph.get('contract', '')}".strip()  # none in a graph made by hand
        cards_deep = f"{depth} card{'' if depth == 1 else 's'}"
        # every play sequence ends the deal after the same number of cards: a leaf over is a tree to the deal's end,
        # which a --depth past it makes no deeper, so the title counts the cards left rather than the depth asked
        if any(over for _, over in self.nodes(data="over", default=False)):
            cards_deep = f"the {cards_deep} left"
        rules = rules_words(str(graph.get("variant") or ""))  # the flags in force, as every title ends
        title = (f"{made + ': ' if made else ''}strategy tree of {cards_deep} {where}, "
                 f"{nodes:,} node{'' if nodes == 1 else 's'}{rules}")
        finished = "root" in self and bool(self.nodes["root"].get("over"))
        if finished:  # one node: "a tree of 2 cards" would promise cards there are not
            title = (f"{made + ': ' if made else ''}the deal is finished: no cards left to play (its tree is one "
                     f"node){rules}")
        if "root" not in self:
            return [title]
        maximiser = str(graph.get("maximiser", ""))
        seats = maximiser.split("+")  # as the trees write it; a graph made by hand may say anything
        whose = (f" of {side_text([int(seat) for seat in seats])}" if all(seat.isdigit() for seat in seats)
                 else f" of {maximiser}" if maximiser else "")
        target = f" (needs {graph['target']})" if "target" in graph else ""
        value = self.nodes["root"].get("value", "-")
        try:
            game: type[Game] | None = get_game(str(graph.get("game", "")))
        except UnknownGameError:  # a graph made by hand, without a game's name
            game = None
        objective = str(graph.get("objective", "value"))
        if game is not None and objective in (*game.objectives, SCORE):  # named as solve and check name it
            if objective == SCORE and isinstance(value, int):
                value = net_amount(value, game.score_unit)  # as check and score say it
            objective = game.sided_objective_title(objective)
        return [title, f"{objective}{whose}: {value}{target}"
                       f"{', the result' if finished else ' at the root'}"]

    def first_cards(self) -> list[tuple[str, str, str, str]]:
        """The root's cards: each with its seat, the total it keeps and ``best`` where it keeps the root's value."""
        if "root" not in self:
            return []
        return [(str(edge["card"]), str(edge["seat"]), str(edge["value"]), "best" if edge["optimal"] else "")
                for _, _, edge in self.out_edges("root", data=True)]

    def __str__(self) -> str:
        rows = self.first_cards()
        cards = ["cards at the root (card, seat, total kept):"] + [
            f"  {card:<4}  seat {seat}  {value}{'  ' + best if best else ''}" for card, seat, value, best in rows]
        return "\n".join(self.summary() + (cards if rows else []))

    def __repr__(self) -> str:
        return f"<StrategyTree {self.summary()[0]}>"

    def _repr_html_(self) -> str:
        """The same for Jupyter: the lines, then the root's cards as a table."""
        lines = self.summary()
        table = html_table(("card", "seat", "total kept", ""), self.first_cards(), right={1, 2})
        return f"<div>{html_lines(lines[:1], bold=True)}{html_lines(lines[1:])}{table}</div>"


__all__ = ["StrategyTree"]
