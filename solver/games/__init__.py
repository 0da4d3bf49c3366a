"""The game registry: every game module, found by name or alias.

Adding a game is one new module here that defines a :class:`~solver.games.base.Game` subclass and appends it to
``GAMES``; nothing else in stich names a game.
"""

from __future__ import annotations

from ..errors import UnknownGameError
from .base import Contract, Game, Objective, Rules, TrickEvent
from .kratzen import Kratzen
from .schafkopf import Schafkopf
from .zwanzigerrufen import Zwanzigerrufen

GAMES: tuple[type[Game], ...] = (Zwanzigerrufen, Schafkopf, Kratzen)


def get_game(name: str | type[Game]) -> type[Game]:
    """The game a name or alias (case-insensitive) stands for; UnknownGameError otherwise."""
    if isinstance(name, type) and issubclass(name, Game):
        return name
    key = str(name).strip().lower()
    for game in GAMES:
        if key == game.name.lower() or key in game.aliases:
            return game
    known = ", ".join(g.name for g in GAMES)
    raise UnknownGameError(f"unknown game {name!r} (known games: {known})")


def games_with(feature: str) -> str:
    """The names of the games whose class flag ``feature`` (``has_pot``, ``has_announcements``) is set, for a message
    that refuses the feature elsewhere: ``Kratzen``."""
    return " and ".join(game.name for game in GAMES if getattr(game, feature))


__all__ = ["GAMES", "Contract", "Game", "Kratzen", "Objective", "Rules", "Schafkopf", "TrickEvent",
           "Zwanzigerrufen", "games_with", "get_game"]
