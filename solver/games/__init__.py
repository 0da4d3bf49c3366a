"""The game registry: every game module, found by name or alias.

Adding a game is one new module here that defines a :class:`~solver.games.base.Game` subclass, and one line below
that registers it (:func:`register_game`, which a game defined elsewhere, such as a test's, calls too); nothing
else in stich names a game: scoring, settlement, post-mortem and bench reach it through the class's hooks.
"""

from __future__ import annotations

from typing import Mapping

from ..cards import Pack, register_pack
from ..errors import StichError, UnknownGameError, did_you_mean, listed, quoted
from ..variant import note_once
from .base import Contract, Game, Objective, Rules, TrickEvent
from .kratzen import Kratzen
from .outcome import GAMES
from .schafkopf import Schafkopf
from .zwanzigerrufen import Zwanzigerrufen


def register_game(game: type[Game]) -> type[Game]:
    """Register a game class (usable as a class decorator): :func:`get_game` finds it by name and alias, and its
    pack unpickles as itself. Registering a game again replaces it; a name or alias another game has is refused."""
    if not (isinstance(game, type) and issubclass(game, Game)):
        raise TypeError(f"a game is a Game subclass, not {game!r}")
    keys = {game.name.lower(), *game.aliases}
    for other in GAMES:
        if other.name != game.name and keys & {other.name.lower(), *other.aliases}:
            raise ValueError(f"{game.name}: name or alias {sorted(keys & {other.name.lower(), *other.aliases})} is "
                             f"{other.name}'s")
    GAMES[:] = [other for other in GAMES if other.name != game.name] + [game]
    register_pack(game.pack, game_pack)
    return game


def game_pack(name: str) -> Pack:
    """A registered game's pack by the game's name: what a pickled pack is read back as (``Pack.__reduce__``), from
    this module so that reading it registers the games first, as a fresh process has not."""
    return get_game(name).pack


for _game in (Zwanzigerrufen, Schafkopf, Kratzen):
    register_game(_game)


def get_game(name: str | type[Game]) -> type[Game]:
    """The game a name or alias (case-insensitive) stands for; UnknownGameError otherwise."""
    if isinstance(name, type) and issubclass(name, Game):
        return name
    key = str(name).strip().lower()
    for game in GAMES:
        if key == game.name.lower() or key in game.aliases:
            return game
    known = ", ".join(g.name for g in GAMES)
    names = {spelling: g.name for g in GAMES for spelling in (g.name, *g.aliases)}
    raise UnknownGameError(f"unknown game {quoted(name)}{did_you_mean(key, names)} (known games: {known})")


def games_with(feature: str) -> str:
    """The names of the games whose class flag ``feature`` (``has_pot``, ``has_announcements``) is set, for a message
    that refuses the feature elsewhere."""
    return " and ".join(game.name for game in GAMES if getattr(game, feature))


def game_list(conjunction: str = "or") -> str:
    """The registered games' names as a phrase for help texts: ``A, B or C``."""
    return listed([game.name for game in GAMES], conjunction)


def score_units() -> str:
    """The units the score is in, for a help text that cannot know the game: ``game units, Kratzen's chips``, the
    common unit then every game's own (:attr:`Game.score_unit`)."""
    own = [f"{game.name}'s {game.score_unit}" for game in GAMES if game.score_unit != Game.score_unit]
    return ", ".join([Game.score_unit, *own])


def check_flags_of_some_game(variant: Mapping[str, object]) -> None:
    """StichError for a variant flag that no game has, or whose value no game that has it reads: given for a file
    that may mix games, a flag need only be some game's (each record then checks it against its own), but one that
    is nobody's is wrong whatever the records, as is one flag under two keys of a mapping."""
    spelt: dict[str, str] = {}
    for name, value in variant.items():
        key = str(name).strip().lower()  # read as Variant reads it
        note_once(spelt, key, str(name))
        games = [game for game in GAMES if key in game.flags]
        if not games:
            every = sorted({flag for game in GAMES for flag in game.flags})
            raise StichError(f"unknown variant flag {quoted(name)}{did_you_mean(str(name), every)} (no game has it; "
                             f"every game's flags: {', '.join(every)})")
        errors = []
        for game in games:
            try:
                game.variant({name: value})
            except StichError as error:
                errors.append(f"{game.name}: {error}")
        if len(errors) == len(games):
            raise StichError(f"variant flag {name}={quoted(value)}: " + "; ".join(errors))


__all__ = ["GAMES", "Contract", "Game", "Kratzen", "Objective", "Rules", "Schafkopf", "TrickEvent",
           "Zwanzigerrufen", "game_list", "games_with", "get_game", "register_game"]
