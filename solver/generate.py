"""Seeded random deals, written as records.

Board ``k`` of seed ``s`` is drawn from its own generator, seeded with the text ``"stich:s:k"``, so a board can be
regenerated alone and does not change when more boards are asked for. A deal on which the requested contract cannot
be bid (RULES.md bid checks) is redrawn from the same generator.
"""

from __future__ import annotations

import random
from typing import Iterator, Mapping, Sequence, SupportsIndex

from .errors import (InvalidContractError, InvalidDealError, InvalidSeatContractError, StichError, integral,
                     is_whole_number, quoted)
from .formats.tbn import Record, Tag
from .games import get_game
from .deal import Deal
from .games.base import Game
from .position import Position, position_from_record

MAX_REDEALS = 10_000
#: The largest seed, and with a minus sign the smallest: every command and the board take the same range (a seed
#: only names a generator, but one the board refused and ``stich deal`` took named no deal the two could share), and
#: it holds every 64-bit seed, signed or unsigned, that another tool may hand on.
MAX_SEED = 2 ** 64 - 1
#: The range in words, as messages say it.
SEED_RANGE = f"a whole number from -{MAX_SEED:,} to {MAX_SEED:,}"


def _whole(name: str, value: object, least: int) -> None:
    if not is_whole_number(value) or value < least:
        raise StichError(f"{name} must be a whole number, at least {least}, not {value!r}")


#: The seed of every function that draws at random unless told (the analyses, the advice, the bots, a match, and
#: every command's ``--seed``): one seed, so that the same question asked of the library or of ``stich`` without a
#: seed gets the same answer.
DEFAULT_SEED = 1


def random_record(game: str | type[Game], seed: int, board: int, *, contract: str | None = None,
                  declarer: SupportsIndex = 1, seats: int | None = None,
                  variant: Mapping[str, object] | str | None = None,
                  calls: Sequence[str] | None = None) -> Record:
    """Board ``board`` of seed ``seed``: a whole deal on which ``contract`` can be bid by ``declarer`` (bid checks
    under ``variant``, which is also written as the record's ``[Variant]`` tag). Without a contract, the deal's is
    the first of ``calls`` the rules allow, by default one of the game's everyday contracts at random
    (``Game.default_contracts``)."""
    game = get_game(game)
    seed, board, declarer = integral(seed), integral(board), integral(declarer)  # type: ignore[assignment]
    seats = integral(seats)  # type: ignore[assignment]  # numpy integers are whole numbers too
    chosen = game.variant(variant or {})
    if not is_whole_number(seed) or not -MAX_SEED <= seed <= MAX_SEED:
        raise StichError(f"seed must be {SEED_RANGE}, not {quoted(seed)}")
    _whole("board", board, 1)
    if seats is not None and (not isinstance(seats, int) or seats not in game.seat_counts):
        raise InvalidDealError(f"{game.name} is played by {game.seat_counts_text()} seats, not {seats!r}")
    most = seats or game.seat_counts[0]
    if not is_whole_number(declarer) or not 1 <= declarer <= most:
        raise InvalidSeatContractError(f"declarer must be a seat from 1 to {most}, not {declarer!r}", about="declarer")
    rng = random.Random(f"stich:{seed}:{board}")
    if calls is not None and (isinstance(calls, str) or not all(isinstance(text, str) for text in calls)):
        raise InvalidContractError(f"calls are contract texts tried in order, not {calls!r}")
    if contract is not None:
        if not isinstance(contract, str):
            raise InvalidContractError(f"a contract is text such as {game.contract_help}, not {contract!r}")
        refusal = contract_refusal(game, contract, declarer)  # a bad name fails at once too
        if refusal is not None:  # a rule of seats: no deal would do, so none is searched for
            raise InvalidContractError(refusal)
    else:
        refusal = everyday_refusal(game, declarer, calls)
        if refusal is not None:
            raise InvalidContractError(refusal)
    reason = ""
    needed = game.cards_to_bid(game.parse_contract(contract)) if contract else 0
    for _ in range(MAX_REDEALS):
        deal = game.deal_random(rng, seats)
        if needed:
            deal = holding(deal, declarer - 1, needed, rng)
        for text in [contract] if contract else list(calls) if calls else game.default_contracts(rng):
            try:
                rules = game.rules(deal, text, declarer=declarer, variant=chosen)
            except InvalidContractError as error:
                reason = str(error)
                continue
            tags = [Tag("Game", game.name), Tag("Board", str(board)), Tag("Seed", str(seed))]
            if len(game.seat_counts) > 1:
                tags.append(Tag("Seats", str(deal.seats)))
            tags += [Tag("Deal", deal.text()), Tag("Contract", str(rules.contract)), Tag("Declarer", str(declarer))]
            if chosen.text():
                tags.append(Tag("Variant", chosen.text()))
            return Record(tags)
    asked = contract or f"any of its everyday contracts ({', '.join(game.default_contracts(random.Random(0)))})"
    raise StichError(f"no deal in {MAX_REDEALS} tries lets seat {declarer} bid {asked} in {game.name}: {reason}")


def holding(deal: Deal, seat: int, cards: int, rng: random.Random) -> Deal:
    """``deal`` with ``cards`` in the hand of ``seat`` (0-based): each one held elsewhere (or not dealt) changes
    places with a card of that hand not among them, drawn at random. From a uniformly random deal this gives a
    uniformly random one of those where the seat holds ``cards``: the cards the hand keeps, and the places the
    others go to, are a random draw of the same kind as the deal's own. A hand too small for them is left as
    it is (the contract's own check refuses it)."""
    hands = list(deal.hands)
    if cards.bit_count() > hands[seat].bit_count():
        return deal
    for card in range(len(deal.pack)):
        if not cards >> card & 1 or hands[seat] >> card & 1:
            continue
        spare = [other for other in range(len(deal.pack)) if hands[seat] >> other & 1 and not cards >> other & 1]
        swap = (1 << card) | (1 << rng.choice(spare))
        holder = deal.holder(card)
        hands[seat] ^= swap
        if holder is not None:
            hands[holder] ^= swap
    return Deal(deal.pack, tuple(hands))


def contract_refusal(game: type[Game], contract: str, declarer: int) -> str | None:
    """Why seat ``declarer`` (1-based) never bids ``contract``, whatever the cards (``Game.declarer_refusal``), or
    None; a contract that is no contract of the game raises."""
    refusal = game.declarer_refusal(game.parse_contract(contract), declarer)
    return None if refusal is None else f"seat {declarer} cannot bid {contract} in {game.name}: {refusal}"


def everyday_refusal(game: type[Game], declarer: int, calls: Sequence[str] | None = None) -> str | None:
    """Why seat ``declarer`` (1-based) bids none of the contracts a deal without one is dealt for (``calls``, else
    the game's everyday ones) whatever the cards, or None: said at once, not after a search of deals."""
    texts = list(calls) if calls else game.default_contracts(random.Random(0))
    refusals = [game.declarer_refusal(game.parse_contract(text), declarer) for text in texts]
    if not texts or any(refusal is None for refusal in refusals):
        return None
    return f"seat {declarer} cannot bid {' or '.join(texts)} in {game.name}: {refusals[0]}"


def random_records(game: str | type[Game], seed: int, count: int, *, contract: str | None = None,
                   declarer: SupportsIndex = 1, seats: int | None = None, first_board: int = 1,
                   variant: Mapping[str, object] | str | None = None) -> Iterator[Record]:
    """``count`` boards of seed ``seed``, numbered from ``first_board``."""
    _whole("count", count, 0)
    _whole("first_board", first_board, 1)
    for board in range(first_board, first_board + count):
        yield random_record(game, seed, board, contract=contract, declarer=declarer, seats=seats, variant=variant)


def random_position(game: str | type[Game], seed: int, board: int, *, contract: str | None = None,
                    declarer: SupportsIndex = 1, seats: int | None = None,
                    variant: Mapping[str, object] | str | None = None) -> Position:
    """Board ``board`` of seed ``seed`` as a Position to solve: :func:`random_record`'s record, read (the position
    keeps it: ``to_tbn()`` writes it, and it follows ``play``)."""
    return position_from_record(random_record(game, seed, board, contract=contract, declarer=declarer, seats=seats,
                                              variant=variant))
