"""stich: exact double-dummy solver and hand analyser for trick-taking games (``solver.GAMES``).

The public API::

    import solver
    position = solver.parse_positions(open("examples/valat.tbn").read())[0]
    print(position)                            # the hand diagram (Jupyter shows it as HTML)
    result = solver.solve(position, "valat", cards=True)
    result.success, result.card_names()       # True, {'T17': 5, 'T16': 5, 'SK': 5, 'CK': 5, 'HK': 4}
    position.play("HK").to_tbn()               # the record as played, to save

``import solver`` loads no submodule: each public name is imported from its module on first use (PEP 562), so a
command or a script pays only for what it uses (``stich --version`` loads none of them).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

__version__ = "0.1.0"

#: Where each public name lives (module relative to this package).
_PUBLIC = {
    "analysis": ("BonusCheck", "DealtBonus", "SeatTarget", "TableEntry", "check_bonuses", "check_report",
                 "contract_table", "dealt_bonuses", "solve_report", "table_report"),
    "postmortem": ("CardAnalysis", "PlayAnalysis", "PlayerSummary", "analyse_play"),
    "plot": ("write_plot",),
    "scoring": ("ScoreItem", "Settlement", "score_deal"),
    "settlement": ("DDSettlement", "dd_settlement"),
    "batch": ("BatchSummary", "solve_batch"),
    "sampling": ("BonusChance", "HandAnalysis", "OpeningCard", "analyse_hand", "analyse_position"),
    "tree": ("strategy_tree", "write_tree"),
    "api": ("iter_positions", "parse_positions", "perft", "read_positions", "solve"),
    "cards": ("Card", "CardSet", "Pack"),
    "deal": ("Deal",),
    "errors": ("EngineError", "IllegalPlayError", "InvalidContractError", "InvalidDealError", "InvalidPositionError",
               "InvalidSeatError", "ParseError", "SearchStopped", "StichError", "StichWarning", "UnknownCardError",
               "UnknownCardPlayError", "UnknownGameError", "VariantError"),
    "games": ("GAMES", "Contract", "Game", "Objective", "Rules", "TrickEvent", "game_list", "games_with", "get_game",
              "register_game"),  # and each game's class, by its name in games.__all__ (see __getattr__)
    "position": ("Position", "make_position", "position_from_record"),
    "search.engine": ("EngineSolver",),
    "search.results": ("CardValue", "SolveResult"),
    "generate": ("random_position", "random_record", "random_records"),
    "state": ("PlayState", "Trick"),
    "variant": ("Flag", "Variant"),
}
_HOME = {name: module for module, names in _PUBLIC.items() for name in names}


def __getattr__(name: str):  # untyped: mypy reads the compiled _engine (it has no stub) through it, as Any
    """A public name, imported from its module on first use and kept; a submodule (``solver.tree``) likewise."""
    if name == "__all__":  # every public name, each game's class among them (the registry knows those)
        names = sorted({*_HOME, *importlib.import_module(".games", __name__).__all__, "__version__"})
        globals()[name] = names
        return names
    module = _HOME.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    elif name in (games := importlib.import_module(".games", __name__)).__all__:
        value = getattr(games, name)  # a game's class, by its name: the registry knows them, not this file
    elif not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__getattr__("__all__")))


if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ imports these on first use
    from .analysis import (BonusCheck, DealtBonus, SeatTarget, TableEntry, check_bonuses, check_report,
                           contract_table, dealt_bonuses, solve_report, table_report)
    from .api import iter_positions, parse_positions, perft, read_positions, solve
    from .batch import BatchSummary, solve_batch
    from .cards import Card, CardSet, Pack
    from .deal import Deal
    from .errors import (EngineError, IllegalPlayError, InvalidContractError, InvalidDealError, InvalidPositionError,
                         InvalidSeatError, ParseError, SearchStopped, StichError, StichWarning, UnknownCardError,
                         UnknownCardPlayError, UnknownGameError, VariantError)
    from .games import (Contract, Game, game_list, GAMES, games_with, get_game, Kratzen, Objective, register_game,
                        Rules, Schafkopf, TrickEvent, Zwanzigerrufen)
    from .generate import random_position, random_record, random_records
    from .plot import write_plot
    from .position import Position, make_position, position_from_record
    from .postmortem import CardAnalysis, PlayAnalysis, PlayerSummary, analyse_play
    from .sampling import BonusChance, HandAnalysis, OpeningCard, analyse_hand, analyse_position
    from .scoring import ScoreItem, Settlement, score_deal
    from .search.engine import EngineSolver
    from .search.results import CardValue, SolveResult
    from .settlement import DDSettlement, dd_settlement
    from .state import PlayState, Trick
    from .tree import strategy_tree, write_tree
    from .variant import Flag, Variant
    # the names a type checker takes as the package's (mypy --strict exports nothing else); the same as
    # __getattr__("__all__") at run time (tests/test_cli.py checks)
    __all__ = ["BatchSummary", "BonusChance", "BonusCheck", "Card", "CardAnalysis", "CardSet", "CardValue", "Contract",
               "DDSettlement", "Deal", "DealtBonus", "EngineError", "EngineSolver", "Flag", "GAMES", "Game",
               "HandAnalysis", "IllegalPlayError", "InvalidContractError", "InvalidDealError", "InvalidPositionError",
               "InvalidSeatError", "Kratzen", "Objective", "OpeningCard", "Pack", "ParseError", "PlayAnalysis",
               "PlayState", "PlayerSummary", "Position", "Rules", "Schafkopf", "ScoreItem", "SearchStopped",
               "SeatTarget", "Settlement", "SolveResult", "StichError", "StichWarning", "TableEntry", "Trick",
               "TrickEvent",
               "UnknownCardError", "UnknownCardPlayError", "UnknownGameError", "Variant", "VariantError",
               "Zwanzigerrufen", "__version__", "analyse_hand", "analyse_play", "analyse_position", "check_bonuses",
               "check_report", "contract_table", "dd_settlement", "dealt_bonuses", "game_list", "games_with",
               "get_game", "iter_positions", "make_position", "parse_positions", "perft", "position_from_record",
               "random_position", "random_record", "random_records", "read_positions", "register_game", "score_deal",
               "solve", "solve_batch", "solve_report", "strategy_tree", "table_report", "write_plot", "write_tree"]
