"""``--play``: what if these cards were played next? The option and its reading, shared by the commands that read
positions (the hand diagram they print is drawn in :mod:`cli.render`)."""

from __future__ import annotations

import unicodedata
from typing import Any, Callable, Optional

import typer

from solver.cards import run_together_note, trick_number_note
from solver.errors import ParseError, StichError, UnknownCardError, did_you_mean
from solver.games import GAMES
from solver.position import Position
from solver.state import card_whereabouts

from .errors import OptionRefused


def game_examples(example: Callable[[Any], str]) -> str:
    """An option's example in every game's own words, ``T17 HK in Zwanzigerrufen, E9 SA in Schafkopf, ...``: a card
    or a flag that game has, where one game's example for all would be refused by the others (``--play``'s, analyse's
    ``--known`` and batch's ``--variant``)."""
    return ", ".join(f"{example(game)} in {game.name}" for game in GAMES)


def play_examples() -> str:
    """Two cards of every game's pack, as ``--play`` writes them: ``T17 HK in Zwanzigerrufen, ...``."""
    return game_examples(lambda game: game.pack.example())


def card_of_some_game(token: str) -> bool:
    """Whether ``token`` names a card of any game's pack: what ``--play`` takes before a record's game is known."""
    return any(game.pack.lookup(token) is not None for game in GAMES)


def no_game_card(token: str, number: int) -> str:
    """Why ``--play``'s ``number``-th token is refused before any record is read: it names a card of no game's pack,
    which is wrong whatever game a record is of; the packs' own notes (a card a pack leaves out) or the closest
    cards of any game, then what was expected."""
    key = unicodedata.normalize("NFC", token).upper()  # as a pack looks a token up
    notes = "".join(f"; {game.name}: {game.pack.absent[key]}" for game in GAMES if key in game.pack.absent)
    names = sorted({card.name for game in GAMES for card in game.pack.cards})
    near = notes or run_together_note(token, card_of_some_game) or \
        trick_number_note(token, "--play takes the cards alone")
    return (f"card {number} ({token!r}) is a card of no game{near or did_you_mean(token, names, cutoff=0.5)} "
            f"(expected cards of the record's game, such as {play_examples()})")


def checked_play(value: Optional[str]) -> Optional[str]:
    """``--play``'s callback: each token a card of some game, else a usage error (exit 2) said once, before any
    record is read, since it is wrong whatever the records; an empty value is one too: it is an unset shell variable
    or a slip, and read as no cards it would answer every record as though no what-if were asked. Whether a card is
    the record's game's, and legal where it is played, is each record's own question (:func:`what_if`)."""
    if value is None:
        return None
    if not value.strip():
        raise typer.BadParameter("an empty value (an unset shell variable?); give the cards to play, such as "
                                 f"{play_examples()}")
    for number, token in enumerate(value.split(), 1):
        if not card_of_some_game(token):
            raise typer.BadParameter(no_game_card(token, number))
    return value


PLAY = typer.Option(None, "--play", metavar="CARDS", callback=checked_play,
                    help="What if: play these cards (one quoted string, e.g. \"T17 T1\") after the record's Play "
                         "section; the command then works on the position they reach.")

FROM_START = typer.Option(False, "--from-start",
                          help="Answer from the deal's start (an ending's start), not after the record's Play "
                               "section, which is still read and checked: what the deal as dealt allows, not what "
                               "is left after the play. --play's cards are then played from there.")


def played_names(position: Position, play: Optional[str]) -> list[str]:
    """The names of ``--play``'s cards as ``position`` (the position they reach) played them, the last of its played
    cards: what a what-if's title and its JSON ``record.play`` say; none without ``--play``."""
    if not play:
        return []
    count = len(play.split())
    return [position.pack[card].name for card in position.played[len(position.played) - count:]]


def what_if_note(names: list[str], from_start: bool = False) -> str:
    """``, from the deal's start, what if: HK T1``: how a title line ends whose position ``--from-start`` and
    ``--play``'s cards (``names``) reached, so that it is never taken for the record's own position; empty without
    them."""
    return (", from the deal's start" if from_start else "") + (f", what if: {' '.join(names)}" if names else "")


class ForeignPlayCard(ParseError):
    """A ``--play`` card of another game's pack than a record's (the file may mix games): the same for every record
    of that game, so the record loop says it once a game (``bare``: what is wrong, ``game``: the record's game; its
    line the record's first), as it says a refused ``--variant``."""

    def __init__(self, bare: str, game: str, **where: Any) -> None:
        super().__init__(f"--play: {bare}", **where)
        self.bare = bare
        self.game = game


def _not_held(position: Position, token: str) -> str | None:
    """PlayState.play's refusal of a card the mover does not hold, with where the card is (``seat 4 does not hold
    EO: seat 1 holds it (legal: ...)``), as a record's Play section says it; None for any other refusal."""
    state = position.state
    card = position.pack.lookup(token)
    if card is None or state.is_over or state.hands[state.to_move] >> card & 1:
        return None
    legal = " ".join(position.pack.names(state.legal_cards()))
    return (f"seat {state.to_move + 1} does not hold {position.pack[card].name}{card_whereabouts(state, card)} "
            f"(legal: {legal})")


def what_if(position: Position, play: Optional[str]) -> Position:
    """``position`` with the ``--play`` cards played. A card is the command line's error, not the record's: one of
    another game's pack is ForeignPlayCard (the same for every record of that game: said once a game), one the
    position refuses (not the mover's, against the rules, past the deal's end) is OptionRefused; each is said at
    ``--play``, naming the card's number and what was expected, with the record it was refused for: the record
    itself is not wrong, so no file:line:col points into it."""
    if not play:
        return position
    record = position.record
    reached = position
    for number, token in enumerate(play.split(), 1):
        try:
            reached = reached.play(token)
        except UnknownCardError as error:
            game = position.game.name
            bare = f"card {number}: {error} (expected a {game} card, such as {position.pack.example()})"
            if record is None:
                raise StichError(f"--play: {bare}") from None
            raise ForeignPlayCard(bare, game, source=record.source, line=record.line, column=1) from None
        except StichError as error:  # the rule it breaks, with the cards the mover may play (PlayState.play's)
            raise OptionRefused("--play", f"card {number}: {_not_held(reached, token) or error}") from None
    return reached
