"""stich: exact double-dummy solver and hand analyser for trick-taking games (``solver.GAMES``).

The public API::

    import solver
    position = solver.parse_positions(open("examples/valat.tbn").read())[0]
    print(position)                            # the hand diagram (Jupyter shows it as HTML)
    result = solver.solve(position, "valat", cards=True)
    result.success, result.card_names()       # True, {'T17': 5, 'T16': 5, 'SK': 5, 'CK': 5, 'HK': 4}
    position.play("HK").to_tbn()               # the record as played, to save
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    """``strategy_tree`` and ``write_tree`` are imported on first use: they bring in networkx."""
    if name in ("strategy_tree", "write_tree"):
        from . import tree

        return getattr(tree, name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


from .analysis import (BonusCheck, SeatTarget, TableEntry, check_bonuses, check_report, contract_table,
                       solve_report, table_report)
from .postmortem import CardAnalysis, PlayAnalysis, PlayerSummary, analyse_play
from .plot import write_plot
from .scoring import ScoreItem, Settlement, score_deal
from .settlement import DDSettlement, dd_settlement
from .batch import BatchSummary, solve_batch
from .sampling import BonusChance, HandAnalysis, OpeningCard, analyse_hand, analyse_position
from .api import iter_positions, parse_positions, perft, read_positions, solve
from .cards import Card, CardSet, Pack
from .deal import Deal
from .errors import (EngineError, IllegalPlayError, InvalidContractError, InvalidDealError, InvalidPositionError,
                     ParseError, SearchStopped, StichError, UnknownCardError, UnknownGameError, VariantError)
from . import games
from .games import *  # noqa: F403  the registry and every shipped game class, by its name (games.__all__)
from .position import Position, make_position, position_from_record
from .search.engine import EngineSolver
from .search.results import CardValue, SolveResult
from .generate import random_position, random_record, random_records
from .state import PlayState, Trick
from .variant import Flag, Variant

__all__ = [
    "BonusCheck", "SeatTarget", "TableEntry", "check_bonuses", "check_report", "contract_table", "solve_report",
    "table_report", "BatchSummary", "solve_batch", "BonusChance", "HandAnalysis", "OpeningCard", "analyse_hand", "analyse_position",
    "CardAnalysis", "PlayAnalysis", "PlayerSummary", "analyse_play", "write_plot", "ScoreItem",
    "Settlement", "score_deal", "DDSettlement", "dd_settlement", "strategy_tree", "write_tree", "EngineSolver",
    "random_position", "random_record", "random_records", "Card", "CardSet", "CardValue", "Deal", "EngineError",
    "Flag", "IllegalPlayError", "InvalidContractError", "InvalidDealError", "InvalidPositionError",
    "Pack", "ParseError", "PlayState", "SearchStopped",
    "Position", "SolveResult", "StichError", "Trick", "UnknownCardError", "UnknownGameError",
    "Variant", "VariantError", "__version__", "iter_positions", "make_position",
    "parse_positions", "perft", "position_from_record", "read_positions", "solve",
]
__all__ += games.__all__
