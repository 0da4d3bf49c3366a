"""Contract advice: which contract should this hand announce? Every contract the seat may announce, on the same
samples, ranked by the settlement it can expect. Card advice (:func:`card_advice`): which card should the seat to
move play, every legal card settled on samples consistent with the play.

The unseen cards are dealt at random (sample ``k`` from a generator seeded ``f"{seed}:{k}"``, as in
:mod:`solver.sampling`, so the answer does not depend on workers or chunks) with nothing but the seat's hand and the
known cards fixed: the deal of a sample does not depend on the contract, so every contract is solved on the same
deals (paired). Each (sample, contract) is settled double dummy (:func:`solver.settlement.settlement_value`, the
net the declaring side can force playing for the score, then its optimal line for the bonuses it makes).

Pairing is what makes a small sample decide: two contracts' means differ by the mean of their per-sample
differences, whose spread is far below either contract's own (a good hand is good for every contract). Workers
return integer sums per chunk: per contract the count, sum, sum of squares, wins and bonuses; per pair of contracts
the count, sum and sum of squares of the differences, so the interval of every difference is exact whatever order
chunks finish in. A contract whose difference to the leader has an interval containing 0 is marked as not told
apart from it; those intervals are read together (which contracts do the samples rule out?), so they are corrected
for their number: all of them hold together with 95% (Bonferroni, :func:`behind_confidence`).

Both run their samples in spans through :func:`run_samples`: the pool, the checkpoint journal
(:mod:`solver.checkpoint`; a resumed run equals an uninterrupted one, since the sums are integers), a time limit
and a stop event, and a progress callback for the live display.
"""

from __future__ import annotations

import json
import math
import os
import random
import threading
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import AbstractSet, Any, Callable, Iterable, Mapping, NamedTuple, Sequence, SupportsIndex, cast

from .cards import CardTokens
from .deal import Deal
from .errors import (FileError, InvalidContractError, InvalidDealError, InvalidPositionError, InvalidSeatError,
                     SearchStopped, StichError, StichWarning, check_callback, integral, is_whole_number)
from .games import get_game
from .games.base import Game, Rules, reads_contract
from .games.outcome import (FIGURE_SPACE, JSON_PLACES, POT_BY_FLAG, decimal_text, mean_in_words, percent_text,
                            role_text, signed_mean, unbroken)
from .generate import DEFAULT_SEED
from .position import Position
from .analysis import SCHEMA
from .announcements import Announcement, parse_announcements
from .checkpoint import REMOVE_THE_LINE, Journal, Span, same_job, samples_held
from .intervals import wilson_interval_95
from .diagram import card_names
from .position import check_position
from .html_tables import html_lines, html_table, html_titled_table
from .sampling import (ALL_ALIKE, FEASIBILITY_TRIES, SHARE_SCALE, Setup, announced_tags, check_bid,
                       check_run, checkpoint_identity, chunk_size, contract_and_declarer, draw_sample, has_share,
                       interval_document, known_cards_of, lacks_announced, mean_interval, older_job_notices,
                       payment_range, position_setup, range_after, record_scoring, rules_line, run_spans,
                       samples_said, samples_text, scaled_share, scored_with, searched_measure_and_win, searched_win,
                       seat_cards, share, shuffled_deal, table_text, unseen_cards)
from .scoring import scoring_inputs
from .search.boundary import Deadline, check_time_limit
from .state import PlayState
from .settlement import (PayoffTable, bonuses_against, bonuses_made, final_net, play_out, payoff_spec,
                         payoff_table)
from .variant import Variant
from .workers import ChunkLimits, Pool, local_workers, worker_engine, worker_settlement_engine


class SeatNotAdvised(StichError):
    """A seat card advice does not rank cards for in this position, though it is a seat of the deal: not the seat to
    move, or a Kratzen seat whose payment is not searched. The seat asked is at fault, not the position (the CLI
    names its --seat)."""


@dataclass(frozen=True)
class AdviceSetup:
    """What every sample shares: the game, the fixed cards by seat (masks), the seat (1-based), the contracts to
    compare, the variant, the announcements and the pot (where the game has them) and the seed. ``announced``
    (with ``each_announcement``) gives each item of ``contracts`` its own announcements (None: none), so that one
    contract is settled with and without each on the same samples; empty: every item takes ``announcements``."""

    game: str
    seats: int
    fixed: tuple[int, ...]
    seat: int
    contracts: tuple[str, ...]
    variant: tuple[tuple[str, object], ...]
    seed: int
    announcements: str | None = None
    pot: int | None = None
    announced: tuple[str | None, ...] = ()


def row_announcements(setup: AdviceSetup, index: int) -> str | None:
    """The announcements item ``index`` of the setup is settled with (alternatives, for a pass row, joined by
    :data:`ALTERNATIVES`)."""
    return setup.announced[index] if setup.announced else setup.announcements


#: Between the alternatives of a pass row's announcements: the first the sample's sides allow is announced (the
#: seat knows its side when it announces: it holds the called tarock or not), as "2: Absolut | 2: Absolut dagegen";
#: an empty one announces nothing ("2: Kontra | ": a partner does not say Kontra).
ALTERNATIVES = " | "


def whole_contract(name: str) -> str:
    """A row's contract (:func:`row_name`) as a notebook's table writes it: the contract's own name kept whole
    (:func:`~solver.games.outcome.unbroken`), as a narrow HTML table would otherwise break ``Solo Tout E`` at its
    spaces (the command line's tables keep names whole themselves); what it announces, after `` + ``, wraps as words
    do."""
    contract, plus, announced = name.partition(" + ")
    return unbroken(contract) + plus + announced


def row_name(contract: str, announced: str | None) -> str:
    """An item's name in the table: the contract, with what ``each_announcement`` announced in it
    (``Solo + Pagat Ultimo``; ``pass + Absolut | Absolut dagegen``)."""
    if announced is None:
        return contract

    def without_seats(text: str) -> str:  # "2: Pagat Ultimo; 2: Valat" -> "Pagat Ultimo, Valat"
        return ", ".join(part.split(":", 1)[-1].strip() for part in text.split(";") if part.strip())

    return f"{contract} + " + ALTERNATIVES.join(without_seats(text) if text.strip() else "nothing"
                                                for text in announced.split(ALTERNATIVES))


def item_text(announcements: str, item: Announcement) -> str:
    """The words of one parsed announcement item as written (``Absolut dagegen``), without its seat."""
    return announcements[item.offset:].split(";")[0].split(",")[0].strip()


def passing_inputs(position: Position, announcements: str | None, pot: int | None) -> Any:
    """The scoring inputs of a pass row's sample with the first of the announcements' alternatives its sides allow
    (the last one's refusal when none does). A single text has its other side's wording as the alternative
    (:func:`other_side_wording`: "2: Absolut" where the seat is forehand's partner, "2: Absolut dagegen" where it
    defends), since the seat announces knowing its side."""
    texts = [text if text.strip() else None for text in announcements.split(ALTERNATIVES)] if announcements \
        else [announcements]
    if len(texts) == 1 and texts[0] is not None:
        texts += [other_side_wording(position.game, texts[0], len(position.rules.deal.hands))]
    for text in texts[:-1]:
        try:
            return scoring_inputs(position, announcements=text, pot=pot)
        except StichError:
            continue
    return scoring_inputs(position, announcements=texts[-1], pot=pot)


def other_side_wording(game: type[Game], announcements: str, seats: int) -> str:
    """``announcements`` as the other side says them: each bonus of :attr:`Game.side_worded_bonuses` bare where it
    was a 'dagegen', and a 'dagegen' where it was bare or 'dazu' (Absolut, Valat); any other bonus bare where it
    was said 'dazu' or 'dagegen' (a bare bonus leaves the side to the deal, a side word only one side may say);
    every other item as it is."""
    words = []
    for item in parse_announcements(announcements, seats):
        text = item_text(announcements, item)
        if item.level == 1:
            bare = text.rsplit(None, 1)[0] if item.against or item.dazu else text
            if item.bonus in game.side_worded_bonuses:
                text = bare if item.against else f"{bare} dagegen"
            else:
                text = bare
        words.append(f"{item.seat}: {text}")
    return "; ".join(words)


def pot_0_wins(game: str, pot: int | None) -> dict[str, str]:
    """What a checkpoint's job adds where the game is paid from a pot of 0 (none given): its wins are the attacker's
    target made (:func:`is_win`), where earlier versions counted none, so that their lines are another job's,
    solved again and said (:func:`older_pot_0_notices`) rather than mixed in. Nothing elsewhere, so that the
    checkpoints of every other game and pot still resume."""
    return {"pot_0_wins": "target"} if get_game(game).has_pot and not pot else {}


def counts_tricks(game: str) -> bool:
    """Whether advice in ``game`` counts each item's tricks, which rank an equal mean payment and win as ``analyse``
    ranks its opening cards: a game paid from a pot (Kratzen), whose payments tie on most cards (every one at a pot
    of 0, a Muss's made targets at any pot) while a trick more is what a real pot pays for. Elsewhere a payment
    tie is rare and the search for it would cost as much as the settlement's."""
    return get_game(game).has_pot


def tie_break_field(game: str) -> dict[str, str]:
    """The ``tie_break`` field a checkpoint's job adds where advice counts tricks (:func:`counts_tricks`), else none:
    lines written before they were counted hold none, so they are another job's, solved again and said
    (:func:`older_tricks_notices`)."""
    return {"tie_break": "tricks"} if counts_tricks(game) else {}


#: The fields later versions added to an advice checkpoint's job, oldest first: a header without one of them, and so
#: without every later one, is an older job's (:func:`older_pot_0_notices`, :func:`older_tricks_notices`).
_LATER_JOB_FIELDS = ("bonuses", "pot_0_wins", "tie_break")


def _older_headers(named: Sequence[Mapping[str, Any]], field: str) -> list[dict[str, Any]]:
    """``named``'s headers as a job older than ``field`` (one of :data:`_LATER_JOB_FIELDS`) named them: without it
    and the fields added after it."""
    later = _LATER_JOB_FIELDS[_LATER_JOB_FIELDS.index(field):]
    return [{name: value for name, value in header.items() if name not in later} for header in named]


def older_tricks_notices(checkpoint: str | os.PathLike, named: Sequence[Mapping[str, Any]], samples: int,
                         what: str, items: str) -> list[tuple[str, type[StichWarning]]]:
    """What to say of the samples a checkpoint holds for this run's job (``named``: its headers, with
    :func:`tie_break_field`'s field) written before the field was (with :func:`pot_0_wins`' field where the job has
    it: older still are :func:`older_pot_0_notices`'): they hold no tricks, so they are solved again."""
    if not any("tie_break" in header for header in named):
        return []
    return older_job_notices(checkpoint, _older_headers(named, "tie_break"), named, samples, what,
                             f"written before it counted the {items}' tricks, which rank an equal win")


def older_pot_0_notices(checkpoint: str | os.PathLike, named: Sequence[Mapping[str, Any]], samples: int,
                        what: str) -> list[tuple[str, type[StichWarning]]]:
    """What to say of the samples a checkpoint holds for this run's job (``named``: its headers, with
    :func:`pot_0_wins`' field) written before the field was: another job's, whose wins at pot 0 may have been
    counted otherwise (as none, in the builds before a win there was the target made; as now, in those between):
    said so, true of both. Nothing where the headers have no such field."""
    if not any("pot_0_wins" in header for header in named):
        return []
    return older_job_notices(checkpoint, _older_headers(named, "pot_0_wins"), named, samples, what,
                             "written before its header named how a win at pot 0 is counted")


def advice_identity(setup: AdviceSetup) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The setup as a checkpoint names its job (its variant as the game reads it, :func:`checkpoint_identity`), and
    the spellings earlier checkpoints name it by: without ``announced`` when it is empty, so that the checkpoints
    written before it existed still resume."""
    document = asdict(setup)
    if not setup.announced:
        del document["announced"]
    return checkpoint_identity(document)


@dataclass
class ContractSums:
    """One contract's integer sums over the samples solved so far."""

    n: int = 0
    total: int = 0
    squares: int = 0
    wins: int = 0
    refused: int = 0
    # bonus item -> samples where the declarers made it (0: the contract's scoring could pay it, and it was never
    # made), and where the other side was paid it
    bonuses: dict[str, int] = field(default_factory=dict)
    against: dict[str, int] = field(default_factory=dict)
    tricks: int = 0  # the seat's tricks over the n samples, where they are counted (:func:`counts_tricks`)
    # the least and greatest payment (sixths) the contract could have paid the seat on any of the n samples
    # (:func:`~solver.sampling.payment_range`, joined over them), to which its interval is cut; None: unknown
    payment_range: tuple[int, int] | None = None


@dataclass
class PairSums:
    """The differences of two contracts' settlements on the samples both were solved on."""

    n: int = 0
    total: int = 0
    squares: int = 0


@dataclass
class AdviceSums:
    """A chunk's (or the whole run's) sums: per contract, and per ordered pair (i < j) of contracts."""

    samples: int = 0
    contracts: dict[int, ContractSums] = field(default_factory=dict)
    pairs: dict[tuple[int, int], PairSums] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The sums as a checkpoint line keeps them."""
        return {"samples": self.samples,
                "contracts": {str(i): [c.n, c.total, c.squares, c.wins, c.refused, c.bonuses, c.against,
                                       *([c.tricks] if c.tricks else [])]  # 7 numbers where none are counted
                              for i, c in self.contracts.items()},
                "pairs": {f"{i},{j}": [p.n, p.total, p.squares] for (i, j), p in self.pairs.items()},
                "payment_ranges": {str(i): list(c.payment_range) for i, c in self.contracts.items()
                                   if c.payment_range is not None}}

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> "AdviceSums":
        """The sums of a checkpoint line (KeyError, TypeError or ValueError when it holds none)."""
        sums = cls(int(document["samples"]))
        for key, (n, total, squares, wins, refused, bonuses, against, *tricks) in document["contracts"].items():
            if len(tricks) > 1:
                raise ValueError("a contract's sums are 7 or 8 numbers")
            sums.contracts[int(key)] = ContractSums(int(n), int(total), int(squares), int(wins), int(refused),
                                                    {str(k): int(v) for k, v in bonuses.items()},
                                                    {str(k): int(v) for k, v in against.items()},
                                                    int(tricks[0]) if tricks else 0)
        for key, (least, most) in document.get("payment_ranges", {}).items():  # none in an older version's line
            sums.contracts[int(key)].payment_range = int(least), int(most)
        for key, (n, total, squares) in document["pairs"].items():
            i, j = (int(x) for x in key.split(","))
            sums.pairs[(i, j)] = PairSums(int(n), int(total), int(squares))
        return sums

    def merge(self, other: "AdviceSums") -> None:
        self.samples += other.samples
        for index, part in other.contracts.items():
            mine = self.contracts.setdefault(index, ContractSums())
            mine.payment_range = range_after(mine.payment_range, mine.n, part.payment_range, part.n)
            mine.n += part.n
            mine.total += part.total
            mine.squares += part.squares
            mine.wins += part.wins
            mine.refused += part.refused
            mine.tricks += part.tricks
            for name, count in part.bonuses.items():
                mine.bonuses[name] = mine.bonuses.get(name, 0) + count
            for name, count in part.against.items():
                mine.against[name] = mine.against.get(name, 0) + count
        for key, pair in other.pairs.items():
            mine_pair = self.pairs.setdefault(key, PairSums())
            mine_pair.n += pair.n
            mine_pair.total += pair.total
            mine_pair.squares += pair.squares


#: The contract advice row of announcing nothing (:meth:`Game.passed_game`: a Zwanzigerrufen seat other than
#: forehand then plays in forehand's Normal game, as her partner or against her, as the cards fall).
PASS = "pass"


def can_pass(game: type[Game], seat: int) -> bool:
    """Whether ``seat`` has a ``pass`` row in ``game``'s contract advice on any deal (asked of one: which seat may
    pass is the game's rule, not the cards')."""
    return bool(game.passed_game_text) and game.passed_game(game.deal_random(random.Random(0)), seat) is not None


def pass_refusal(game: type[Game], seat: int) -> str:
    """Why contract advice has no ``pass`` row for ``seat``: the game's own words (:attr:`Game.passed_game_text`
    names what passing plays where there is such a game)."""
    if game.passed_game_text:
        return f"seat {seat} cannot pass in {game.name}: it announces the game played when nobody else does"
    return f"{game.name}'s contract advice has no 'pass': it compares the contracts the seat may announce"


def contract_rules(game: type[Game], deal: Deal, contract: str, seat: int,
                   variant: Variant | Mapping[str, object] | None) -> Rules:
    """The rules of ``contract`` announced by ``seat`` (1-based) on ``deal``; for :data:`PASS` those of the game
    the seat plays in when it announces nothing."""
    if contract == PASS:
        passed = game.passed_game(deal, seat, variant)
        if passed is None:
            raise InvalidContractError(pass_refusal(game, seat))
        text, declarer = passed
        return game.rules(deal, text, declarer=declarer, variant=variant)
    return game.rules(deal, contract, declarer=seat, variant=variant)


def draw_deal(setup: AdviceSetup, k: int) -> Deal:
    """Sample ``k``: the unseen cards dealt uniformly to fill every hand (no contract constrains it), as the first
    shuffle of :func:`solver.sampling.draw_sample` deals them."""
    game = get_game(setup.game)
    return shuffled_deal(game, setup.fixed, unseen_cards(game, setup.fixed), random.Random(f"{setup.seed}:{k}"))


#: One contract (or card) on one sample: the seat's share of its side's net in sixths of a game unit
#: (:func:`~solver.sampling.scaled_share`), whether it is a win, the bonus items the declarers make and those the
#: other side is paid for along the score-optimal line, every bonus item the contract's scoring could pay each
#: side on this deal (:func:`bonuses_possible`: an item never made is still listed, at 0 of n, which is information),
#: the seat's tricks under double-dummy play where they are counted (:func:`counts_tricks`; else 0), and the least
#: and greatest payment the contract could pay the seat on the deal (:func:`~solver.sampling.payment_range`, sixths).
Settled = tuple[int, bool, tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], int,
                tuple[int, int] | None]


def settle_sample(setup: AdviceSetup, k: int) -> list[Settled | None]:
    """Every contract's settlement on sample ``k`` (:data:`Settled`), or None where the rules refuse the contract
    on this deal. Where the net itself names the bonuses (:func:`bonuses_of_value`) no line is played."""
    game = get_game(setup.game)
    deal = draw_deal(setup, k)
    engine = worker_settlement_engine()
    counted = counts_tricks(setup.game)
    results: list[Settled | None] = []
    for index, contract in enumerate(setup.contracts):
        announcements = row_announcements(setup, index)
        try:
            rules = contract_rules(game, deal, contract, setup.seat, dict(setup.variant) or None)
        except (InvalidContractError, InvalidDealError):
            results.append(None)
            continue
        position = Position(game, rules, rules.start())
        try:
            inputs = passing_inputs(position, announcements, setup.pot)
        except StichError:  # passing, the seat's side is the cards': an announcement may not fit it on this deal
            if contract != PASS:
                raise
            results.append(None)
            continue
        table = payoff_table(position, inputs=inputs)
        spec = table.spec
        value = engine.value(position.state, spec)
        bonuses = bonuses_of_value(table, value, game)
        if bonuses is None:  # outcomes of this net differ in their bonuses: the line says which it makes
            final = play_out(position.state, engine.line(position.state, spec, value))
            items = final_net(position, final, pot=setup.pot, inputs=inputs)[1].items
            bonuses = bonuses_made(rules, items), bonuses_against(rules, items)
        seat = setup.seat - 1
        tricks, searched = searched_tricks_and_win(position, inputs, seat, counted=counted)
        results.append((scaled_share(position, seat, value), is_win(position, inputs, seat, value, searched=searched),
                        *bonuses, *bonuses_possible(table), tricks, payment_range(position, seat, spec.net_range)))
    return results


def searched_tricks_and_win(position: Position, inputs: object, seat: int, state: PlayState | None = None,
                            counted: bool = True) -> tuple[int, bool | None]:
    """The seat's (0-based) tricks from ``state`` (the position's own by default) where ``counted``
    (:func:`counts_tricks`), else 0; and its win where :func:`is_win` would search it, read off the same search
    (:func:`~solver.sampling.searched_measure_and_win`), else None (for :func:`is_win` to tell)."""
    if not counted:
        return 0, None
    searched = position.game.winning_settlement(position.rules, inputs) is None and position.game.has_pot
    return searched_measure_and_win(position.rules, position.state if state is None else state, seat, worker_engine(),
                                    win=searched)


def is_win(position: Position, inputs: object, seat: int, net: int, state: PlayState | None = None,
           searched: bool | None = None) -> bool:
    """Whether ``seat`` (0-based) has won when the declaring side's net is ``net``: where the game's settlement says
    who won (``Game.winning_settlement``) by that line, so that a Kratzen attacker who makes its own trick target
    and is paid nothing (a Muss, a pot under 4 chips) has won, as ``analyse`` of one contract says; else by a
    positive share.
    A game paid from a pot of 0 settles every line at 0, which cannot tell a win from a loss: there the seat's win
    is searched from ``state`` (the position's own by default) as ``analyse`` of one contract counts it
    (:func:`~solver.sampling.searched_win`; ``searched``: that win, searched already), so that the advice and the
    analysis of the same samples agree."""
    if searched is not None:
        return searched
    won_from = position.game.winning_settlement(position.rules, inputs)
    if won_from is None and position.game.has_pot:
        return searched_win(position.rules, position.state if state is None else state, seat, worker_engine())
    if won_from is None:
        return scaled_share(position, seat, net) > 0
    return (net >= won_from) == (seat in position.rules.declaring_side)


def bonuses_possible(table: PayoffTable) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every bonus item some outcome of the payoff table pays the declarers, and every one it pays the other side:
    the contract's own items as its game scores them on this deal (``Game.settlement_items``), none where the game
    does not itemise its buckets (then only the items a line makes are known)."""
    if table.made is None or table.against is None:
        return (), ()
    return (tuple(sorted({name for made in table.made for name in made})),
            tuple(sorted({name for against in table.against for name in against})))


def bonuses_of_value(table: PayoffTable, value: int,
                     game: type[Game] | None = None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The bonuses the declarers make and those the other side is paid for when the settlement is ``value``, read
    off the payoff table: a score-optimal line ends in a bucket worth ``value``, so where every such bucket pays the
    same bonuses (each bucket's items, ``Game.settlement_items``, kept with the table) they are the line's, and the
    line need not be played. None where those buckets differ (a Pagat and an Absolut may pay alike), or the game
    does not itemise its buckets. No bonuses, ``((), ())``, where ``game`` has no bonus items
    (``Game.has_bonus_items``: Kratzen), whose line would only find none."""
    if game is not None and not game.has_bonus_items:
        return (), ()
    if table.made is None or table.against is None:
        return None
    found: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    for payoff, made, against in zip(table.spec.table, table.made, table.against):
        if payoff != value:
            continue
        if found is not None and (made, against) != found:
            return None
        found = (made, against)
    return found


def solve_span(span: tuple[int, int], limits: ChunkLimits,
               solve: Callable[[int], Sequence[Settled | None]]) -> AdviceSums:
    """Samples ``first`` .. ``first + count - 1`` (``solve(k)`` gives sample ``k``'s results) as integer sums, up to
    the first sample ``limits`` stop: the sums then hold fewer samples than the span (:func:`run_samples`)."""
    first, count = span
    sums = AdviceSums()
    for k in range(first, first + count):
        try:
            with limits.stopping(k):
                results = solve(k)
        except SearchStopped:
            break
        add_sample(sums, results)
    return sums


def advice_chunk(span: tuple[int, int], setup: AdviceSetup, limits: ChunkLimits = ChunkLimits()) -> AdviceSums:
    """Samples ``first`` .. ``first + count - 1`` on one worker, as integer sums (a pool job)."""
    return solve_span(span, limits, lambda k: settle_sample(setup, k))


def add_sample(sums: AdviceSums, results: Sequence[Settled | None]) -> None:
    sums.samples += 1
    for index, result in enumerate(results):
        entry = sums.contracts.setdefault(index, ContractSums())
        if result is None:
            entry.refused += 1
            continue
        value, win, made, against, can_make, can_be_paid, tricks, bounds = result
        entry.payment_range = range_after(entry.payment_range, entry.n, bounds)
        entry.n += 1
        entry.tricks += tricks
        entry.total += value
        entry.squares += value * value
        entry.wins += int(win)
        for name in can_make:  # listed at 0 until made: "never made in 30 samples" is a share with an interval
            entry.bonuses.setdefault(name, 0)
        for name in can_be_paid:
            entry.against.setdefault(name, 0)
        for name in made:
            entry.bonuses[name] = entry.bonuses.get(name, 0) + 1
        for name in against:
            entry.against[name] = entry.against.get(name, 0) + 1
    for i, first in enumerate(results):
        for j in range(i + 1, len(results)):
            second = results[j]
            if first is None or second is None:
                continue
            pair = sums.pairs.setdefault((i, j), PairSums())
            gap = first[0] - second[0]
            pair.n += 1
            pair.total += gap
            pair.squares += gap * gap


#: The columns of a :class:`ContractRow` printed or rendered alone (the advice's, without the rank).
ROW_COLUMNS = ("contract", "mean payment", "behind the best", "win", "bonuses made", "against")


@dataclass(frozen=True)
class ContractRow:
    """One contract's line of the advice."""

    contract: str
    samples: int
    refused: int
    mean: float
    low: float
    high: float
    win_probability: float
    bonuses: dict[str, float] = field(hash=False)
    gap: float  # the leader's mean minus this contract's, paired
    gap_low: float
    gap_high: float
    told_apart: bool  # whether the samples tell it from the leader (:func:`told_apart`; the leader itself: False)
    against: dict[str, float] = field(default_factory=dict, hash=False)  # the bonuses the other side is paid, by share
    # the 95% Wilson intervals of the shares: the win chance's ((nan, nan) before any sample) and each bonus's
    win_interval: tuple[float, float] = (math.nan, math.nan)
    bonus_intervals: dict[str, tuple[float, float]] = field(default_factory=dict, hash=False)
    against_intervals: dict[str, tuple[float, float]] = field(default_factory=dict, hash=False)
    gap_samples: int = 0  # the samples both it and the leader were settled on (the gap's; JSON behind_samples)
    best: bool = False  # the leader: its gap is 0 by construction
    refused_reason: str | None = None  # pass: why the announcements did not fit a sample it was refused on
    # each_announcement: what this row announces (None: nothing), and what that adds to the same contract
    # announcing nothing: (mean, low, high) of the paired difference at 95%, over gain_samples samples
    announced: str | None = None
    gain: tuple[float, float, float] | None = None
    gain_samples: int = 0
    # what it prints with, as OpeningCard does: the game writes a card as the diagram does (♠K) and a bonus as
    # players name it (Laufende); ``card`` marks a row of card advice, whose ``contract`` is a card's pack name
    game: str = field(default="", compare=False)
    card: bool = field(default=False, compare=False)
    # its place, shared by the items the ranking cannot order (the same mean, win and tricks: :func:`ranked_rows`);
    # None where no sample settled it: nothing ranks it
    rank: int | None = 1
    tricks: float = math.nan  # the seat's mean tricks, where they are counted (:func:`counts_tricks`)

    def shows_bonuses(self) -> bool:
        """Whether the row has the bonus columns: a contract's where its game has bonus items (not Kratzen's, whose
        table has no such columns), a card's or a game-less row's where it holds any share of one."""
        if self.game and not self.card:
            return get_game(self.game).has_bonus_items
        return bool(self.bonuses or self.against)

    def columns(self) -> tuple[str, ...]:
        """The advice table's columns this row fills: the mean tricks where they are counted (Kratzen's), the
        bonuses only where the row has them (:meth:`shows_bonuses`), as the reports decide for the table."""
        tricks = () if math.isnan(self.tricks) else ("mean tricks",)
        bonuses = ROW_COLUMNS[4:] if self.shows_bonuses() else ()
        return ("card" if self.card else "contract", *ROW_COLUMNS[1:4], *tricks, *bonuses)

    def cells(self, compact: bool = True) -> list[str]:
        """Its row of the advice table for people (:func:`contract_advice_report`'s or :func:`card_advice_report`'s,
        without the rank): the contract with what it announces, or the card as the hand diagram writes it, the mean
        payment, how far behind the best, the win chance; a contract's bonuses as the table names them (their
        objectives' names in a row made without its game). Each interval as a table cell writes it, or not
        ``compact``: as a line does (:func:`mean_with_interval`)."""
        row = self.as_dict()
        contract = get_game(self.game).contract_in_words(self.contract) if self.game and not self.card else \
            self.contract  # as the report's table names it ("Solo Tout E"), not by its token
        name = card_names(self.game, [self.contract]) if self.card and self.game else \
            self.contract if self.card else row_name(contract, self.announced)
        if row["mean"] is None:
            return [name, "refused on every sample", "", ""]
        mean, behind = ranked_texts(self.rank or 0, row, compact)
        cells = [name, mean, behind, share(row["win_probability"], row["win_interval"], compact=compact)]
        if not math.isnan(self.tricks):
            cells.append(tricks_cell(row))
        if not self.shows_bonuses():
            return cells
        title = get_game(self.game).item_title if self.game else str
        for shares, intervals in ((self.bonuses, self.bonus_intervals), (self.against, self.against_intervals)):
            made = [f"{share(p, intervals.get(name), compact=compact)} {title(name)}" for name, p in shares.items()
                    if p]
            cells.append("\n".join(made))
        return cells

    def __str__(self) -> str:
        """One line for people (``print(advice.rows[0])``), each figure after its column's name and each interval
        as a line writes it, since no title says what ± is: ``Rufer G  mean payment: +1.62 (95%: +0.14 to +3.10)
        best  win: 100.0% (95%: 67.6% to 100.0%)  bonuses made: 12.5% (95%: 2.2% to 47.1%) Laufende``; the dataclass
        ``repr`` stays."""
        return "  ".join(cell if column in ("contract", "card") or cell == "best"
                         else f"{column}: {cell}".replace("\n", ", ")
                         for column, cell in zip(self.columns(), self.cells(compact=False)) if cell)

    def _repr_html_(self) -> str:
        """The same row for Jupyter, under the advice table's columns, as the table writes it."""
        figures = {1, 2, 3} | (set() if math.isnan(self.tricks) else {4})  # the mean tricks beside the win
        name, *cells = self.cells()
        return html_table(self.columns(), [[name if self.card else whole_contract(name), *cells]], right=figures)

    def as_dict(self) -> dict[str, Any]:
        """The row of the JSON document: an interval of no width (samples all alike) or none (fewer than two
        samples; the leader's gap, 0 by construction) is written as nulls with a note saying why."""
        def number(x: float) -> float | None:
            return None if math.isnan(x) else round(x, JSON_PLACES)

        def interval(n: int, low: float, high: float) -> tuple[list[float | None], str | None]:
            ends, note = interval_document(n, low, high)
            return [None if x is None else number(x) for x in ends], note

        mean_ends, mean_note = interval(self.samples, self.low, self.high)
        behind_interval, behind_note = ([None, None], BEST) if self.best else \
            interval(self.gap_samples, self.gap_low, self.gap_high)
        if behind_note is None and math.isnan(self.gap_low):  # below the sign test's floor (:func:`ranked_rows`)
            behind_note = TOO_FEW
        return {"contract": self.contract, "samples": self.samples, "refused": self.refused,
                "refused_reason": self.refused_reason,
                "mean": number(self.mean), "interval": mean_ends, "interval_note": mean_note,
                "win_probability": number(self.win_probability),
                "win_interval": [number(x) for x in self.win_interval],
                "bonuses": {name: round(p, JSON_PLACES) for name, p in self.bonuses.items()},
                "bonuses_intervals": {name: [round(x, JSON_PLACES) for x in interval]
                                      for name, interval in self.bonus_intervals.items()},
                "bonuses_against": {name: round(p, JSON_PLACES) for name, p in self.against.items()},
                "bonuses_against_intervals": {name: [round(x, JSON_PLACES) for x in interval]
                                              for name, interval in self.against_intervals.items()},
                "behind_leader": number(self.gap), "behind_interval": behind_interval,
                "behind_interval_note": behind_note, "behind_samples": self.gap_samples,
                "told_apart": self.told_apart, "rank": self.rank,
                "mean_tricks": number(self.tricks),
                "announced": self.announced, "announcement_gain": self.gain_document()}

    def gain_document(self) -> dict[str, Any] | None:
        """What announcing adds to the same contract unannounced, paired on the samples both were settled on."""
        if self.gain is None:
            return None
        mean, low, high = self.gain
        ends, note = interval_document(self.gain_samples, low, high)
        return {"mean": None if math.isnan(mean) else round(mean, JSON_PLACES),
                "interval": [None if x is None or math.isnan(x) else round(x, JSON_PLACES) for x in ends],
                "interval_note": note, "samples": self.gain_samples}


@dataclass(frozen=True)
class ContractAdvice:
    """The contracts ranked by the seat's mean payment (its share of its side's settlement; best first), and how
    the run went: ``samples`` solved of ``requested``; ``stopped`` says why a run ended early ("time limit",
    "interrupt") or is None."""

    game: str
    seat: int
    hand: tuple[str, ...]
    known: dict[int, tuple[str, ...]] = field(hash=False)
    seed: int
    requested: int
    samples: int
    rows: tuple[ContractRow, ...]
    announcements: str | None = None
    stopped: str | None = None
    pot: int | None = None
    left_out: dict[str, str] = field(default_factory=dict, hash=False)  # contract -> why the announcements miss it
    each_announcement: bool = False  # every contract with and without each announcement (rows' ``announced``)
    variant: dict[str, object] = field(default_factory=dict, hash=False)  # every flag of the game, the value used

    def as_dict(self) -> dict[str, Any]:
        variant = dict(get_game(self.game).variant(self.variant or None))  # defaults where built without one
        return {"schema": SCHEMA, "command": "advice", "game": self.game, "variant": variant, "seat": self.seat,
                "hand": list(self.hand),
                "known": {str(seat): list(cards) for seat, cards in self.known.items()}, "seed": self.seed,
                "requested": self.requested, "samples": self.samples, "announcements": self.announcements,
                "each_announcement": self.each_announcement,
                "pot": self.pot, "stopped": self.stopped, "left_out": dict(self.left_out),
                **behind_document(self.rows),
                "contracts": [row.as_dict() for row in self.rows]}

    def __str__(self) -> str:
        """The advice for people (``print(advice)``), as ``stich analyse --contract`` prints it: the hand, the
        contracts ranked as a table and the notes on its figures (:func:`contract_advice_report`)."""
        document = self.as_dict()
        return advice_text([*hand_lines(document), *contract_advice_report(document)])

    def __repr__(self) -> str:
        """One line: whose advice, on how many samples, and the best contract."""
        return (f"<ContractAdvice {self.game}, seat {self.seat}, "
                f"{samples_said(self.samples, self.requested, self.stopped)}{best_said(self.rows, self.samples)}>")

    def _repr_html_(self) -> str:
        """The same for Jupyter, the contracts as a table."""
        document = self.as_dict()
        return advice_html([*hand_lines(document), *contract_advice_report(document)])


def best_said(rows: Sequence[ContractRow], samples: int) -> str:
    """``: best Rufer G +1.62``: the leading row as the table names it, with its mean payment, for a one-line
    ``repr``. Empty where no sample was solved (a stop before the first): the rows are then in the order asked,
    not ranked, and the report says there is nothing to rank."""
    if not rows or not samples:
        return ""
    best = rows[0]
    mean = "refused on every sample" if math.isnan(best.mean) else signed_mean(best.mean)
    return f": best {best.cells()[0]} {mean}{tie_said([row.rank for row in rows])}"


def tie_said(ranks: Sequence[int | None]) -> str:
    """`` (tied with 2 more)`` where other rows share the leader's rank (``ranks``: the leader's first, then the
    others'; None for a row not ranked): naming the leader alone would read as a preference the samples do not
    show. The repr, the status line and the losing note say it after the leader's figure."""
    tied = sum(1 for rank in ranks[1:] if rank is not None and rank == ranks[0]) if ranks else 0
    return f" (tied with {tied} more)" if tied else ""


#: The note of the leader's gap, which is 0 by construction and has no interval.
BEST = "the best itself"

#: The note of a gap over fewer paired samples than :func:`fewest_to_tell`: no interval, as where all are alike.
TOO_FEW = "too few samples"


#: The error rate of the comparisons with the best, all of them together (each: this over their number).
FAMILY_ALPHA = 0.05


def behind_confidence(comparisons: int) -> float:
    """The level of each interval behind the best when ``comparisons`` items are compared with it: Bonferroni's
    1 - 0.05 / m, so that all of them hold together with 95% (9 contracts behind one: each 99.44%). The question the
    table answers is which items the samples rule out as the best, and ten uncorrected 95% intervals would rule out
    some equal item one time in three or so; one comparison is 95% as it was."""
    return 1 - FAMILY_ALPHA / max(1, comparisons)


def fewest_to_tell(confidence: float = 0.95) -> int:
    """The fewest paired samples on which any gap can be told from the leader at ``confidence``: where the gap has
    one sign on every sample, the exact sign test's p is 2 / 2^n, and no test that assumes nothing of the payments'
    spread can do better (at 95%, one comparison: 6 samples; with seven to twelve comparisons: 9)."""
    n = 1
    while 2 * 0.5 ** n >= 1 - confidence:
        n += 1
    return n


def told_apart(n: int, gap: float, low: float, high: float, confidence: float = 0.95) -> bool:
    """Whether the samples tell an item from the leader: the interval of the paired gap (at ``confidence``,
    :func:`behind_confidence`) excludes 0, over at least :func:`fewest_to_tell` samples. Below that, not even a gap of
    one sign on every sample would be told (the exact sign test), and Student's t over 3 discrete payments, which
    are far from normal, would claim a varying gap where the same gap on all of them is not claimed. Where every
    sample gave the same gap the interval has no width, and the sign test decides: a gap not 0 is told apart."""
    if n < fewest_to_tell(confidence) or math.isnan(low):
        return False
    if low == high:
        return gap != 0
    return low > 0


def comparisons_with_the_best(rows: Sequence[ContractRow]) -> int:
    """How many items are compared with the best: those with a paired gap to it over two samples or more."""
    return sum(1 for row in rows if not row.best and row.gap_samples >= 2)


def ranked_rows(names: Sequence[str], sums: AdviceSums, game: str, *, cards: bool = False) -> tuple[ContractRow, ...]:
    """The items (contracts, or ``cards``) ranked by mean, then win share, then the seat's mean tricks where they
    are counted (:func:`counts_tricks`), then in the order given, as ``analyse`` ranks its opening cards: at a pot
    of 0 every mean is 0, and the win and the tricks tell them apart. Best first, each with its paired gap to the
    leader: the gaps' intervals are corrected for their number (:func:`behind_confidence`), the means' are each 95%
    on their own. Items the ranking cannot order (the same mean, win and tricks) share a rank: their order, the
    one given, is no preference. Each row knows ``game``, so that it prints as the advice's table does."""

    def order(index: int) -> tuple[float, float, float, int]:  # the last, the order given, breaks no real tie
        entry = sums.contracts.get(index, ContractSums())
        mean = mean_interval(entry.n, entry.total, entry.squares)[0]
        if not entry.n:
            return math.inf, math.inf, math.inf, index
        return (math.inf if math.isnan(mean) else -mean, -entry.wins / entry.n, -entry.tricks / entry.n, index)

    ranked = sorted(range(len(names)), key=order)
    leader = ranked[0] if ranked else 0

    def pair_with_leader(index: int) -> tuple[PairSums, int]:
        key = (min(index, leader), max(index, leader))
        return sums.pairs.get(key, PairSums()), 1 if key == (leader, index) else -1  # pairs hold first - second

    confidence = behind_confidence(sum(1 for index in ranked
                                       if index != leader and pair_with_leader(index)[0].n >= 2))
    keys = [order(index)[:3] for index in ranked]
    fewest = fewest_to_tell(confidence)
    with_tricks = bool(game) and counts_tricks(game)
    rows = []
    rank = 1
    for place, index in enumerate(ranked, 1):
        if place > 1 and keys[place - 1] != keys[place - 2]:
            rank = place  # a tie shares the first place of its items: 1, 1, 3
        entry = sums.contracts.get(index, ContractSums())
        mean, low, high = (x / SHARE_SCALE for x in mean_interval(entry.n, entry.total, entry.squares,
                                                                  within=entry.payment_range))
        if index == leader:
            gap = gap_low = gap_high = 0.0
            gap_samples, apart = entry.n, False
        else:
            pair, sign = pair_with_leader(index)
            gap, gap_low, gap_high = (x / SHARE_SCALE
                                      for x in mean_interval(pair.n, sign * pair.total, pair.squares, confidence))
            gap_samples, apart = pair.n, told_apart(pair.n, gap, gap_low, gap_high, confidence)
            if pair.n < fewest and gap_low != gap_high:
                # an interval that varied would look like evidence where the same gap on every sample is none
                gap_low = gap_high = math.nan
        n = entry.n
        rows.append(ContractRow(
            names[index], n, entry.refused, mean, low, high, entry.wins / n if n else math.nan,
            {name: count / n for name, count in sorted(entry.bonuses.items())} if n else {},
            gap, gap_low, gap_high, apart,
            {name: count / n for name, count in sorted(entry.against.items())} if n else {},
            wilson_interval_95(entry.wins, n) if n else (math.nan, math.nan),
            {name: wilson_interval_95(count, n) for name, count in sorted(entry.bonuses.items())} if n else {},
            {name: wilson_interval_95(count, n) for name, count in sorted(entry.against.items())} if n else {},
            gap_samples, index == leader, game=game, card=cards, rank=rank if entry.n else None,
            tricks=entry.tricks / n if n and with_tricks else math.nan))
    return tuple(rows)


def behind_document(rows: Sequence[ContractRow]) -> dict[str, Any]:
    """What the documents say of the gaps' intervals: how many comparisons with the best they are corrected for
    and the level of each (Bonferroni)."""
    comparisons = comparisons_with_the_best(rows)
    return {"behind_comparisons": comparisons, "behind_confidence": round(behind_confidence(comparisons), 6)}


def advice_report(setup: AdviceSetup, sums: AdviceSums, requested: int, stopped: str | None = None,
                  left_out: Mapping[str, str] | None = None) -> ContractAdvice:
    """The ranked advice from the sums so far."""
    pack = get_game(setup.game).pack
    known = {seat + 1: tuple(pack.names(mask)) for seat, mask in enumerate(setup.fixed)
             if mask and seat + 1 != setup.seat}
    names = [row_name(contract, row_announcements(setup, index) if setup.announced else None)
             for index, contract in enumerate(setup.contracts)]
    rows = []
    for row in ranked_rows(names, sums, setup.game):
        index = names.index(row.contract)
        contract = setup.contracts[index]
        if contract == PASS and row.refused:
            row = replace(row, refused_reason=pass_misfit(setup, sums.samples, row_announcements(setup, index)))
        if setup.announced:
            row = replace(row, contract=contract, announced=setup.announced[index],
                          **announcement_gain(setup, sums, index))
        rows.append(row)
    return ContractAdvice(setup.game, setup.seat, tuple(pack.names(setup.fixed[setup.seat - 1])), known,
                          setup.seed, requested, sums.samples, tuple(rows), setup.announcements, stopped, setup.pot,
                          dict(left_out or {}), bool(setup.announced),
                          dict(get_game(setup.game).variant(dict(setup.variant) or None)))


def announcement_gain(setup: AdviceSetup, sums: AdviceSums, index: int) -> dict[str, Any]:
    """What item ``index``'s announcements add to its contract announcing nothing: the paired difference of the
    seat's payment over the samples both were settled on, with its 95% interval (each on its own: one question per
    announcement, not a ranking); nothing for the unannounced item itself."""
    if setup.announced[index] is None:
        return {}
    bare = next(i for i, (contract, announced) in enumerate(zip(setup.contracts, setup.announced))
                if contract == setup.contracts[index] and announced is None)
    pair = sums.pairs.get((min(index, bare), max(index, bare)), PairSums())
    sign = 1 if index < bare else -1  # pairs hold first - second
    mean, low, high = (x / SHARE_SCALE for x in mean_interval(pair.n, sign * pair.total, pair.squares))
    return {"gain": (mean, low, high), "gain_samples": pair.n}


def pass_misfit(setup: AdviceSetup, samples: int, announcements: str | None) -> str | None:
    """Why the seat's announcements do not fit the side passing puts it on, in the first of ``samples`` samples
    where they do not (a defender's bare "Absolut"; a partner's "Absolut dagegen"): the refused samples are only
    counted, and a player needs the rule's words to mend the announcement. No search: the deals alone say it."""
    game = get_game(setup.game)
    for k in range(samples):
        try:
            rules = contract_rules(game, draw_deal(setup, k), PASS, setup.seat, dict(setup.variant) or None)
            passing_inputs(Position(game, rules, rules.start()), announcements, setup.pot)
        except StichError as error:
            return str(error)
    return None


def seat_contracts(game: type[Game], deal: Deal, seat: int, variant: Variant) -> list[str]:
    """Every contract ``seat`` may announce with its hand (the game's bid checks on its own cards), each called card
    spelt out (``Game.contract_choices``): a game with a called card once per card the seat may call."""
    texts: list[str] = []
    for contract, declarer in game.contracts(deal, variant, declarer=seat):
        if declarer != seat:
            continue
        for text in game.contract_choices(contract):
            try:
                game.rules(deal, text, declarer=seat, variant=variant)
            except (InvalidContractError, InvalidDealError):
                continue
            if text not in texts:
                texts.append(text)
    if game.passed_game(deal, seat, variant) is not None:
        texts.append(PASS)
    return texts


def all_in_a_list(contracts: str | Sequence[str]) -> str:
    """The refusal of ``all`` in a list: it is a whole list itself, which another cannot hold. ``all`` beside
    nothing but commas (``all,``) is told to drop the comma, not read as a list of contracts."""
    listed = contracts if isinstance(contracts, str) else ", ".join(contracts)
    parts = [part.strip().lower() for part in listed.split(",")]
    if isinstance(contracts, str) and parts.count("all") == 1 and not any(part != "all" and part for part in parts):
        return (f"'all' with a comma but no other contract ({listed!r}): 'all', given alone, is every contract the "
                "seat may announce; drop the comma")
    return (f"'all' in a list ({listed!r}): 'all', given alone, is every contract the seat may announce; a list "
            "names each contract it compares")


def make_setup(game: str | type[Game], hand: CardTokens, seat: SupportsIndex,
               contracts: str | Sequence[str] = "all",
               *, known: Mapping[int, CardTokens] | None = None, seed: int = DEFAULT_SEED,
               variant: Mapping[str, object] | str | None = None, seats: int | None = None,
               announcements: str | None = None, pot: int | None = None,
               each_announcement: bool = False) -> AdviceSetup:
    """Check the question once, with messages a player can act on, and list the contracts to compare."""
    return advice_setup(game, hand, seat, contracts, known=known, seed=seed, variant=variant, seats=seats,
                        announcements=announcements, pot=pot, each_announcement=each_announcement)[0]


def advice_setup(game: str | type[Game], hand: CardTokens, seat: SupportsIndex,
                 contracts: str | Sequence[str] = "all",
                 *, known: Mapping[int, CardTokens] | None = None, seed: int = DEFAULT_SEED,
                 variant: Mapping[str, object] | str | None = None, seats: int | None = None,
                 announcements: str | None = None, pot: int | None = None,
                 each_announcement: bool = False) -> tuple[AdviceSetup, dict[str, str]]:
    """:func:`make_setup`, and the contracts of ``"all"`` left out because the announcements do not fit them (a
    Pagat Ultimo in a Suit Solo, which does not count it), each with the reason: a player asking what to announce
    with his Pagat still wants every other contract ranked. A contract named in a list that they do not fit is an
    error, as it is in a single-contract analysis. ``each_announcement``: every contract once announcing nothing
    and once with each announcement (:func:`announcement_choices`), on the same samples; a pairing the rules refuse
    is left out and named."""
    game = get_game(game)
    seat = cast(int, integral(seat))  # any integral seat (a numpy integer too) as an int; seat_cards checks it
    seats = integral(seats)  # type: ignore[assignment]  # numpy integers are counts too
    seats = seats or game.seat_counts[0]
    fixed = seat_cards(game, seats, seat, hand, known, seed)
    if isinstance(variant, str):
        variant = Variant.parse_pairs(variant, game.flags)
    chosen = game.variant(variant)
    if not isinstance(contracts, str):  # texts in an order (a numpy array too), or an InvalidContractError
        ordered = isinstance(contracts, Iterable) and not isinstance(contracts, (AbstractSet, Mapping))
        listed = list(contracts) if ordered else None
        if listed is None or not all(isinstance(text, str) for text in listed):
            raise InvalidContractError("contracts are 'all', contract texts separated by commas, or a list of "
                                       f"contract texts, not {contracts!r}")
        contracts = listed
    probe = AdviceSetup(game.name, seats, tuple(fixed), seat, (), tuple(sorted((variant or {}).items())), seed)
    deal = draw_deal(probe, 0)
    possible = seat_contracts(game, deal, seat, chosen)
    if isinstance(contracts, str) and contracts.strip().lower() == "all":
        wanted = possible
    else:
        names = [text.strip() for text in (contracts.split(",") if isinstance(contracts, str) else contracts)]
        wanted = []
        for text in names:
            if not text:
                continue
            if text.lower() == "all":
                raise InvalidContractError(all_in_a_list(contracts))
            if text.lower() == PASS:
                contract_rules(game, deal, PASS, seat, chosen)  # a seat that cannot pass fails here
                wanted += [] if PASS in wanted else [PASS]
                continue
            canonical = game.parse_contract(text).text  # a bad contract name fails here
            check_bid(game, deal, seat, canonical, chosen)
            if canonical not in wanted:
                wanted.append(canonical)
        if not wanted:  # the seat's hand is not why: nothing was named
            raise InvalidContractError(f"contracts names no contract ({contracts!r}): name one or more, or 'all'")
    if not wanted:
        raise InvalidContractError(f"seat {seat} may announce no {game.name} contract with this hand")
    if isinstance(announcements, str) and game.has_announcements:
        # the seat's own: another seat's Kontra or 'dagegen' would say who sits where, which the samples do not keep
        items = parse_announcements(announcements, seats)
        others = sorted({item.seat for item in items if item.seat != seat})
        if others:
            raise StichError(f"contract advice settles the announcements seat {seat} adds to every contract, not "
                             f"seat {', '.join(map(str, others))}'s ({announcements!r})")
        for holder, mask in game.cards_announced(announced_tags(game, announcements, seats)).items():
            if not fixed[holder] & mask:  # the announcer is the seat, whose whole hand is given
                raise lacks_announced(game, holder, mask)
    if each_announcement:
        return each_announcement_setup(game, deal, fixed, seat, seats, wanted, chosen, variant, seed,
                                       announcements, pot)
    left_out: dict[str, str] = {}
    if announcements is not None or pot is not None:
        every = isinstance(contracts, str) and contracts.strip().lower() == "all"
        for contract in wanted:  # announcements the rules refuse for a contract fail here, not in a worker
            if contract == PASS:  # whose side the seat is on is the cards', sample by sample: counted as refused
                continue
            try:
                payoff_spec(Position(game, *_start(game, deal, contract, seat, chosen)), announcements=announcements,
                            pot=pot)
            except StichError as error:
                if not every or len(left_out) == len(wanted) - 1:  # a pass may be all a Kontra leaves
                    raise
                left_out[contract] = str(error)
        wanted = [contract for contract in wanted if contract not in left_out]
    return AdviceSetup(game.name, seats, tuple(fixed), seat, tuple(wanted), tuple(sorted((variant or {}).items())),
                       seed, announcements, pot), left_out


def other_contract_lists(setup: AdviceSetup, checkpoint: str | os.PathLike) -> list[tuple[tuple[str, ...], int]]:
    """The advice of the same question over other lists of contracts that the ``checkpoint`` journal holds, each
    with the samples it finished (whatever its sample count: a run of another count would resume them): such as
    seat 2's ``--contract all`` written before ``pass`` was offered. They cannot be resumed, since each pair of
    contracts is summed over the samples both were settled on and a new contract needs every sample again; a rerun
    starts afresh beside them, and the caller says so (naming the list that resumes them). The variant may be spelt
    as the key names it or as an earlier checkpoint gave it. A header is this question's by the journal's own rule
    (:func:`~solver.checkpoint.same_job`), its list of contracts aside."""
    identity, aliases = advice_identity(setup)
    wanted = [json.loads(json.dumps({"advice": {**document, "contracts": None, "announced": None},
                                     "share_scale": SHARE_SCALE}))
              for document in (identity, *aliases)]
    this_list = (setup.contracts, setup.announced)

    def other_list(header: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        advice = header.get("advice")
        if not isinstance(advice, dict) or bool(advice.get("announced")) != bool(setup.announced):
            return None
        try:
            listed = (tuple(advice.get("contracts") or ()), tuple(advice.get("announced") or ()))
            hash(listed)
        except TypeError:
            return None
        question = {**header, "advice": {**advice, "contracts": None, "announced": None}}
        if listed == this_list or not any(same_job(question, document, ("samples",)) for document in wanted):
            return None
        return listed

    try:
        held = samples_held(checkpoint, other_list)
    except OSError:
        return []
    return [(cast(tuple[tuple[str, ...], tuple[str, ...]], listed)[0], done.count()) for listed, done in held.items()]


def announcement_choices(game: type[Game], fixed: Sequence[int], seat: int, announcements: str | None,
                         passing: bool = False) -> list[str]:
    """The announcements ``each_announcement`` compares, as texts (``"1: Pagat Ultimo"``): each item of
    ``announcements`` alone and, where there are several, all of them together; without any, each bonus the seat
    may announce with its hand (:attr:`Game.own_announcements`: a Pagat Ultimo only with the Pagat). ``passing``,
    the seat's side is the cards': each bonus is offered with what a defender says instead (``"2: Absolut | 2:
    Absolut dagegen"``, :data:`ALTERNATIVES`), and what only a defender says is offered too, with nothing as the
    partner's alternative (``"2: Kontra | "``)."""
    if announcements is None:
        held = fixed[seat - 1]
        texts = []
        for name, cards in game.own_announcements:
            if all(held >> game.pack.parse(card).index & 1 for card in cards.split()):
                against = game.defender_forms.get(name) if passing else None
                texts.append(f"{seat}: {name}" + (f"{ALTERNATIVES}{seat}: {against}" if against else ""))
        return texts + ([f"{seat}: {name}{ALTERNATIVES}" for name in game.defender_only] if passing else [])
    items = parse_announcements(announcements, len(fixed))
    texts = [f"{item.seat}: " + item_text(announcements, item) for item in items]
    return texts + ([announcements] if len(texts) > 1 else [])


def each_announcement_setup(game: type[Game], deal: Deal, fixed: Sequence[int], seat: int, seats: int,
                            wanted: Sequence[str], chosen: Variant, variant: Mapping[str, object] | None, seed: int,
                            announcements: str | None, pot: int | None) -> tuple[AdviceSetup, dict[str, str]]:
    """:func:`advice_setup` with ``each_announcement``: every contract announcing nothing, then with each of
    :func:`announcement_choices`; a pairing the rules refuse (a Pagat in a Suit Solo) is left out, with the
    reason, since the comparison still holds for the others."""
    if not game.has_announcements:
        raise StichError(f"{game.name} has no announcements: each_announcement compares what they add")
    choices = announcement_choices(game, fixed, seat, announcements)
    passing = announcement_choices(game, fixed, seat, announcements, passing=True)
    if not choices:
        raise StichError(f"seat {seat} has no announcement to compare")
    contracts: list[str] = []
    announced: list[str | None] = []
    left_out: dict[str, str] = {}
    for contract in wanted:
        for text in (None, *(passing if contract == PASS else choices)):
            if text is not None and contract != PASS:  # the pass row's side is the cards': refused per sample
                try:
                    payoff_spec(Position(game, *_start(game, deal, contract, seat, chosen)), announcements=text,
                                pot=pot)
                except StichError as error:
                    left_out[row_name(contract, text)] = str(error)
                    continue
            contracts.append(contract)
            announced.append(text)
    return AdviceSetup(game.name, seats, tuple(fixed), seat, tuple(contracts), tuple(sorted((variant or {}).items())),
                       seed, announcements, pot, tuple(announced)), left_out


def _start(game: type[Game], deal: Deal, contract: str, seat: int, variant: Variant) -> tuple:
    rules = contract_rules(game, deal, contract, seat, variant)
    return rules, rules.start()


def run_samples(samples: int, workers: int | None, task: Callable[..., AdviceSums], setup: Any,
                identity: Mapping[str, Any], checkpoint: str | os.PathLike | None, time_limit: float | None,
                stop: threading.Event | None, progress: Callable[[AdviceSums], None] | None,
                at_least: int = 0, aliases: Sequence[Mapping[str, Any]] = (),
                notices: Callable[[], Sequence[tuple[str, type[StichWarning]]]] | None = None
                ) -> tuple[AdviceSums, str | None]:
    """Samples 0 .. ``samples - 1`` in chunks (``task(span, setup, limits)`` on the pool,
    :func:`solver.sampling.run_spans`), resumed from and appended to the ``checkpoint`` journal; stopped early by
    ``time_limit`` or ``stop`` (the reason is returned with the sums): no chunk is handed out after it, and the
    settlement running in a chunk stops too (:class:`~solver.workers.ChunkLimits`; in a local pool's workers too),
    except in the first ``at_least`` samples. Sums are integers merged in any order, so the result does not depend
    on ``workers`` or on a resume. ``aliases`` are earlier spellings of ``identity``, whose checkpoints are this run's
    too (:class:`~solver.checkpoint.Journal`). ``notices()`` are worked out and warned once the journal has accepted
    the checkpoint and it has room for the samples left (:func:`~solver.sampling.run_spans`)."""
    check_run(samples, checkpoint)
    check_time_limit(time_limit, StichError)  # past it: the first at_least samples, then stopped
    count = min(local_workers(workers), samples)
    total = AdviceSums()
    pool = Pool(count, stop=stop)  # checked before the checkpoint is opened
    limits = ChunkLimits(time_limit, pool.task_stop, at_least)
    stopped: list[str] = []
    header = {**identity, "samples": samples, "share_scale": SHARE_SCALE}
    # sample k is drawn from the seed and k alone: a run of another -n holds this one's samples, those below -n
    journal = Journal(checkpoint, header, holder="stich analyse",
                      aliases=[{**alias, "samples": samples, "share_scale": SHARE_SCALE} for alias in aliases],
                      varying=("samples",), end=samples) if checkpoint is not None else None

    watch = Deadline(time_limit, stop)  # the same limit, for the run's own look between chunks

    def go_on(span: Span | None = None) -> bool:
        if span is not None and span.first < at_least:
            return True
        reason = watch.stopped_by()
        if reason is not None:
            stopped.append(reason)
        return not stopped

    def read(document: Mapping[str, Any], where: str) -> AdviceSums:
        try:
            return AdviceSums.from_json(document)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise FileError(f"{where}: this checkpoint line holds no sums of advice; {REMOVE_THE_LINE}") from None

    # a sample here is a search per contract (or per card): chunks of one to three samples, about 64 a worker
    run_spans(pool, samples, chunk_size(samples, count, 64, 3), partial(task, limits=limits), setup, journal, read,
              total.merge, None if progress is None else lambda: progress(total), go_on,
              lambda span, sums: Span(span.first, sums.samples), notices)
    if total.samples < samples and not stopped:  # the last chunks were cut short
        go_on()
    return total, stopped[0] if stopped else None


def contract_advice(game: str | type[Game], hand: CardTokens, seat: SupportsIndex,
                    contracts: str | Sequence[str] = "all", *, known: Mapping[int, CardTokens] | None = None,
                    samples: int = 200, seed: int = DEFAULT_SEED, workers: int | None = None,
                    variant: Mapping[str, object] | str | None = None, seats: int | None = None,
                    announcements: str | None = None, pot: int | None = None, time_limit: float | None = None,
                    stop: threading.Event | None = None, checkpoint: str | os.PathLike | None = None,
                    progress: Callable[[ContractAdvice], None] | None = None,
                    each_announcement: bool = False) -> ContractAdvice:
    """Which contract ``seat`` (1-based) should announce with ``hand``: every contract it may announce (``"all"``)
    or those named, each settled double dummy on the same ``samples`` deals of the unseen cards, ranked by mean
    settlement (see the module's docstring). ``time_limit`` (seconds) or ``stop`` end the run early with the
    samples solved so far (``stopped`` says so); ``checkpoint`` (a file) keeps every finished chunk, and a rerun
    with the same question resumes from it; ``progress(advice)`` is called with the advice so far after every
    chunk (a live display). The result is the same for a seed whatever ``workers`` is, and after a resume.
    ``each_announcement``: every contract is settled announcing nothing and with each announcement (those of
    ``announcements`` one by one and together, else each the seat's hand allows), on the same samples, and each
    announced row says what the announcement adds (``announcement_gain``: paired, so its interval is tight)."""
    check_callback(progress, "progress", "the result so far")
    setup, left_out = advice_setup(game, hand, seat, contracts, known=known, seed=seed, variant=variant,
                                   seats=seats, announcements=announcements, pot=pot,
                                   each_announcement=each_announcement)

    def report(sums: AdviceSums, stopped: str | None = None) -> ContractAdvice:
        return advice_report(setup, sums, samples, stopped, left_out)

    identity, aliases = advice_identity(setup)
    job_fields = {**pot_0_wins(setup.game, setup.pot), **tie_break_field(setup.game)}
    named = [{"advice": document, **job_fields} for document in (identity, *aliases)]

    def older_jobs() -> list[tuple[str, type[StichWarning]]]:
        assert checkpoint is not None
        headers = [{**job, "share_scale": SHARE_SCALE} for job in named]
        return (older_pot_0_notices(checkpoint, headers, samples, "contract advice")
                + older_tricks_notices(checkpoint, headers, samples, "contract advice", "contracts"))

    notices = None if checkpoint is None or not job_fields else older_jobs
    total, stopped = run_samples(samples, workers, advice_chunk, setup, named[0], checkpoint,
                                 time_limit, stop, None if progress is None else lambda sums: progress(report(sums)),
                                 aliases=named[1:], notices=notices)
    return report(total, stopped)


# --- card advice mid-play -----------------------------------------------------------------------------------------


def child_values(position: Position, setup: Setup) -> dict[int, int]:
    """Every legal card's settlement at a sampled position: the declaring side's double-dummy net after the card,
    with the setup's announcements and pot. The one place card advice values a card: the settlement engine's
    per-card values (the score objective's; equal to one settlement search per child, which shares less of the
    search)."""
    spec = payoff_spec(position, announcements=setup.announcements, pot=setup.pot)
    return {cv.card: cv.value for cv in worker_settlement_engine().card_values(position.state, spec)}


@dataclass(frozen=True)
class CardSetup:
    """Card advice's sampling (the seat's view, :func:`solver.sampling.position_setup`) and the legal cards."""

    sampling: Setup
    cards: tuple[int, ...]
    bonuses: bool = True  # tally each card's bonuses (a line played where the net does not name them); a bot need not
    tricks: bool = True  # count each card's tricks where they rank an equal win (:func:`counts_tricks`); nor these


def card_chunk(span: tuple[int, int], setup: CardSetup, limits: ChunkLimits = ChunkLimits()) -> AdviceSums:
    """Card advice samples ``first`` .. ``first + count - 1`` on one worker (a pool job): per legal card the seat's
    share of its side's settlement (in sixths of a game unit), whether it wins, and the bonuses each side is paid
    along the settlement-optimal line after the card, as contract advice tallies them for a contract."""
    seat = setup.sampling.seat  # 0-based
    counted = setup.tricks and counts_tricks(setup.sampling.game)

    def solve(k: int) -> list[Settled | None]:
        rules, state = draw_sample(setup.sampling, k)
        position = Position(get_game(setup.sampling.game), rules, state)
        values = child_values(position, setup.sampling)
        inputs = scoring_inputs(position, announcements=setup.sampling.announcements, pot=setup.sampling.pot)
        table = payoff_table(position, inputs=inputs)
        possible = bonuses_possible(table)
        settled: list[Settled | None] = []
        bounds = payment_range(position, seat, table.spec.net_range)
        for card in setup.cards:
            value = values[card]
            after = state.advance(card)
            bonuses = bonuses_of_value(table, value, position.game) if setup.bonuses else ((), ())
            if bonuses is None:  # outcomes of this net differ in their bonuses: the line after the card says which
                final = play_out(after, worker_settlement_engine().line(after, table.spec, value))
                items = final_net(position, final, pot=setup.sampling.pot, inputs=inputs)[1].items
                bonuses = bonuses_made(rules, items), bonuses_against(rules, items)
            tricks, searched = searched_tricks_and_win(position, inputs, seat, after, counted)
            won = is_win(position, inputs, seat, value, after, searched)
            settled.append((scaled_share(position, seat, value), won, *bonuses,
                            *(possible if setup.bonuses else ((), ())), tricks, bounds))
        return settled

    return solve_span(span, limits, solve)


@dataclass(frozen=True)
class CardAdvice:
    """The legal cards of the seat to move ranked by the settlement its side can expect (best first: the
    single-dummy best card), over ``samples`` deals consistent with the play."""

    game: str
    contract: str
    declarer: int  # the declaring seat, which the title names where it is not the seat advised
    seat: int
    played: tuple[str, ...]
    seed: int
    requested: int
    samples: int
    rows: tuple[ContractRow, ...]
    stopped: str | None = None
    announcements: str | None = None  # what every sample was scored with (the record's tags)
    pot: int | None = None
    hand: tuple[str, ...] = ()  # the seat's cards now, which the report's first line shows
    # the cards given as known by seat, which every sample was drawn with and no record says (the lines under the hand)
    known: dict[int, tuple[str, ...]] = field(default_factory=dict, hash=False)

    def as_dict(self) -> dict[str, Any]:
        cards = []
        for row in self.rows:
            entry = row.as_dict()
            entry["card"] = entry.pop("contract")
            entry.pop("refused")
            entry.pop("refused_reason")
            entry.pop("announced")
            entry.pop("announcement_gain")
            cards.append(entry)
        return {"schema": SCHEMA, "command": "card-advice", "game": self.game, "contract": self.contract,
                "declarer": self.declarer, "seat": self.seat, "hand": list(self.hand),
                **({"known": {str(seat): list(cards) for seat, cards in self.known.items()}} if self.known else {}),
                "played": list(self.played), "seed": self.seed, "requested": self.requested, "samples": self.samples,
                "stopped": self.stopped,
                "announcements": self.announcements, "pot": self.pot, **behind_document(self.rows), "cards": cards}

    def __str__(self) -> str:
        """The advice for people (``print(advice)``), as ``stich analyse FILE --cards`` prints it: the cards ranked
        as a table and the notes on its figures (:func:`card_advice_report`)."""
        document = self.as_dict()
        return advice_text(named_cards(document, card_advice_report(document)))

    def __repr__(self) -> str:
        """One line: the contract, the seat to move, the samples and the best card."""
        contract = get_game(self.game).contract_in_words(self.contract)
        return (f"<CardAdvice {self.game} {contract}, seat {self.seat}, "
                f"{samples_said(self.samples, self.requested, self.stopped)}{best_said(self.rows, self.samples)}>")

    def _repr_html_(self) -> str:
        """The same for Jupyter, the cards as a table."""
        document = self.as_dict()
        return advice_html(named_cards(document, card_advice_report(document)))


def card_sums(position: Position, seat: int | None = None, *, known: Mapping[int, CardTokens] | None = None,
              samples: int = 200, seed: int = DEFAULT_SEED, workers: int | None = None, time_limit: float | None = None,
              stop: threading.Event | None = None, checkpoint: str | os.PathLike | None = None,
              progress: Callable[[AdviceSums], None] | None = None,
              at_least: int = 0, pot: int | None = None,
              bonuses: bool = True, tricks: bool = True) -> tuple[tuple[int, ...], AdviceSums, str | None]:
    """The sampling behind :func:`card_advice` (and the sampling bot's card for the score): the legal cards of the
    seat to move in pack order, their integer sums over the samples (item ``i`` of the sums is card ``i``), and why
    the run stopped early (None: it did not). The first ``at_least`` samples are solved whatever ``time_limit`` and
    ``stop`` say. ``bonuses``: tally each card's bonuses too (the advice's table; a bot choosing by the mean does
    without, and the lines they may cost); ``tricks``: count each card's tricks where they rank an equal win
    (:func:`counts_tricks`; the bot does without these searches too)."""
    state = check_position(position).state
    if state.is_over:
        raise InvalidPositionError("the deal is over: no card is left to choose")
    seat = state.to_move + 1 if seat is None else cast(int, integral(seat))
    if not is_whole_number(seat) or not 1 <= seat <= state.seats:  # as every seat argument: no such seat
        raise InvalidSeatError(f"seat {seat!r} is not a seat of this {state.seats}-seat deal")
    if seat != state.to_move + 1:
        raise SeatNotAdvised(f"card advice is for the seat to move, seat {state.to_move + 1}, not seat {seat}")
    if not has_share(position, seat - 1):
        raise SeatNotAdvised("card advice ranks the cards by the seat's share of the score, and in "
                             f"{position.game.name} only the {position.game.declarer_title}'s payment is searched "
                             f"(every seat plays for itself): stich analyse FILE --seat {seat} ranks seat {seat}'s "
                             "cards by its own tricks")
    sampling = position_setup(position, seat, known=known, seed=seed, pot=pot)
    # as analyse_position: known cards the real deal does not have may contradict the play (a card of a suit its
    # seat showed out of), which the search for a first fitting deal says in seconds, not a million shuffles a sample
    if any(fixed & ~dealt for fixed, dealt in zip(sampling.fixed, position.rules.deal.hands)):
        draw_sample(sampling, 0, FEASIBILITY_TRIES)
    legal = state.legal_cards()
    setup = CardSetup(sampling, tuple(card for card in range(len(position.pack)) if legal >> card & 1), bonuses,
                      tricks)
    identity, aliases = checkpoint_identity(asdict(sampling))
    # chunks journalled before the cards' bonuses were tallied hold none: another job, not resumed with these
    job_fields = {**pot_0_wins(sampling.game, sampling.pot), **(tie_break_field(sampling.game) if tricks else {})}
    key = {"cards": identity, "bonuses": True, **job_fields} if bonuses else {"cards": identity, **job_fields}
    notices: Callable[[], list[tuple[str, type[StichWarning]]]] | None = None
    # said once the file is accepted and has room, while to solve
    if (bonuses or job_fields) and checkpoint is not None:
        notices = partial(_older_card_jobs, checkpoint, key, identity, aliases, samples)
    total, stopped = run_samples(samples, workers, card_chunk, setup, key, checkpoint, time_limit, stop, progress,
                                 at_least, aliases=[{**key, "cards": alias} for alias in aliases], notices=notices)
    return setup.cards, total, stopped


def _older_card_jobs(checkpoint: str | os.PathLike, key: Mapping[str, Any], identity: Mapping[str, Any],
                     aliases: Sequence[Mapping[str, Any]], samples: int) -> list[tuple[str, type[StichWarning]]]:
    """What to say of the samples a checkpoint holds for this card advice under an older job of it: without bonus
    odds (chunks journalled before the cards' bonuses were tallied hold none), at a pot of 0 before a win there
    was the target made (:func:`pot_0_wins`), or before the cards' tricks were counted (:func:`tie_break_field`):
    another job's, so that those this job lacks are solved again, which is said. Read only once the journal has
    accepted the file (not a pipe)."""
    named = [{**key, "cards": document, "share_scale": SHARE_SCALE} for document in (identity, *aliases)]
    notices = older_pot_0_notices(checkpoint, named, samples, "card advice")
    notices += older_tricks_notices(checkpoint, named, samples, "card advice", "cards")
    if key.get("bonuses"):
        notices += older_job_notices(checkpoint, _older_headers(named, "bonuses"), named, samples, "card advice",
                                     "written without bonus odds, which hold none")
    return notices


def known_by_seat(position: Position, known: Mapping[int, CardTokens] | None) -> dict[int, tuple[str, ...]]:
    """Known cards (checked, as :func:`solver.sampling.seat_cards` checks them) by seat in seat order, each seat's
    cards named in pack order, as the advice says them."""
    pack = position.game.pack
    return {other: tuple(pack.names(known_cards_of(position.game, cards, other)))
            for other, cards in sorted((known or {}).items())}


def card_advice(position: Position, seat: SupportsIndex | None = None, *, known: Mapping[int, CardTokens] | None = None,
                samples: int = 200, seed: int = DEFAULT_SEED, workers: int | None = None,
                time_limit: float | None = None, stop: threading.Event | None = None,
                checkpoint: str | os.PathLike | None = None,
                progress: Callable[[CardAdvice], None] | None = None, pot: int | None = None) -> CardAdvice:
    """Which card should the seat to move play: every legal card valued by the settlement its side can force
    after it, over ``samples`` deals of the unseen cards consistent with the play so far (the seat's view: its
    hand, the play, the contract and the public announcements), ranked by mean with paired intervals. ``seat``
    (1-based) must be the seat to move (default: it). ``known``: cards known to be in other seats (``{2: "SA"}``),
    kept in every sample and said in the advice. ``pot`` replaces the record's ``[Pot]``. Stopping, checkpoints and
    ``progress`` as in :func:`contract_advice`."""
    check_callback(progress, "progress", "the result so far")
    state = check_position(position).state
    seat = state.to_move + 1 if seat is None else cast(int, integral(seat))
    legal = state.legal_cards()
    names = tuple(position.pack[card].name for card in range(len(position.pack)) if legal >> card & 1)
    played = tuple(position.pack[card].name for card in position.played)
    hand = tuple(card.name for card in position.hand(seat))
    announcements, pot = record_scoring(position, pot)

    def report(sums: AdviceSums, stopped: str | None = None) -> CardAdvice:  # after card_sums checked ``known``
        return CardAdvice(position.game.name, position.rules.contract.text, position.rules.declarer + 1, seat,
                          played, seed, samples,
                          sums.samples, ranked_rows(names, sums, position.game.name, cards=True), stopped,
                          announcements, pot, hand, known_by_seat(position, known))

    _, total, stopped = card_sums(position, seat, known=known, samples=samples, seed=seed, workers=workers,
                                  time_limit=time_limit, stop=stop, checkpoint=checkpoint, pot=pot,
                                  progress=None if progress is None else lambda sums: progress(report(sums)))
    return report(total, stopped)


# --- the reports, for people (print(advice), Jupyter and stich analyse) ---------------------------------------------


class AdviceTable(NamedTuple):
    """A table of an advice report: its title, column names and rows of text, the columns of numbers (aligned
    right) and those whose cells may wrap (a bonus a line); ``name``, what the table ranks without its title's
    brackets, titles a table continuing it (its wrapping columns, where a narrow terminal has no room for them)."""

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    right: frozenset[int]
    wraps: frozenset[int] = frozenset()
    name: str = ""


#: A report: its lines and tables in order (``stich analyse`` prints each; ``str`` and Jupyter lay them out).
AdviceReport = list["str | AdviceTable"]


def units(document: Mapping[str, Any]) -> str:
    """What payments are counted in: chips where the game is paid from a pot (Kratzen), else game units."""
    return get_game(document["game"]).score_unit


def win_meaning(document: Mapping[str, Any], paid: str = "where it is above 0") -> str:
    """Which samples the advice counts as won: in a game paid from a pot the attacker's target made, which a Muss or a
    pot under 4 chips pays with 0 (:func:`is_win`); elsewhere a positive payment."""
    game = get_game(document["game"])
    if not game.has_pot:
        return paid
    return (f"where {role_text(game.declarer_title, [document['seat']])} makes its own trick target"
            f"{' (paid 0 or more)' if document.get('pot') else ''}")


def payment_note(document: Mapping[str, Any], sides: bool = False) -> str:
    """What a payment is: the seat's share of its side's settlement (``sides``: which contracts share it, where the
    table lists one: :func:`lists_shared_contract`), or in a game paid from a pot (where only the attacker's is
    searched) the attacker's own."""
    game = get_game(document["game"])
    if game.has_pot:
        return f"payment: {role_text(game.declarer_title, [document['seat']])}'s own, in chips from and into the pot"
    shared = game.shared_contract_text if sides and lists_shared_contract(game, document["contracts"]) else ""
    return "payment: the seat's share of its side's settlement" + (f" (two seats share {shared})" if shared else "")


def lists_shared_contract(game: type[Game], rows: Iterable[Mapping[str, Any]]) -> bool:
    """Whether contract advice's rows list the contract whose settlement two seats share (``Game.shared_contract_kind``:
    a Rufer, a Normal game), or a pass, which plays the game's passed game (Zwanzigerrufen: forehand's Normal game,
    where she holds no T20..T16): an all-Solo or Wenz table shares nothing. A row's contract may be a token or words,
    with its announcements after " + " (``read_contract`` reads both); one that does not read lists none."""
    if not game.shared_contract_kind:
        return False
    texts = [row["contract"].split(" + ")[0] for row in rows]
    return any(text == PASS or reads_contract(game, text) and game.read_contract(text).kind == game.shared_contract_kind
               for text in texts)


def mean_with_interval(value: float, interval: Sequence[float | None], note: str | None = None, *,
                       compact: bool = False) -> str:
    """``+1.00 (95%: +0.50 to +1.50)`` for a mean and its interval, as every report's line writes one, or
    ``compact`` in a table cell, whose title says what ± is, ``+1.00 ± 0.50`` (:func:`in_table_cell`); ``+1.00 (all
    alike)`` where every sample gave that value (no interval of no width, a certainty the samples do not show), ``+1.00
    (too few samples)`` for a gap to the best below the sign test's floor (:data:`TOO_FEW`); the mean alone where
    there is none."""
    low, high = interval
    alike = "all alike" if note == ALL_ALIKE or (low is not None and low == high) else \
        TOO_FEW if note == TOO_FEW else None
    return mean_in_words(value, low, high, all_alike=alike, compact=compact)


def ranked_texts(rank: int, row: Mapping[str, Any], compact: bool = True) -> tuple[str, str]:
    """A ranked row's mean with its interval, and its gap behind the best (``~``: not told apart from it), each as a
    table cell writes a mean with its interval, ``+1.00 ± 0.50``, so that a table of ten contracts fits a terminal
    (:func:`mean_with_interval`; not ``compact``: as a line does). The ``~`` is part of the gap it marks: a table's
    layout keeps them on one line (:data:`FIGURE_SPACE`)."""
    mean = mean_with_interval(row["mean"], row["interval"], row.get("interval_note"), compact=compact)
    if rank == 1:
        return mean, "best"
    if row["behind_leader"] is None:  # no sample settled both (pass rows whose announcements fit other sides)
        return mean, "no sample in common"
    behind = mean_with_interval(row["behind_leader"], row["behind_interval"], row.get("behind_interval_note"),
                                compact=compact)
    return mean, behind + ("" if row["told_apart"] else (FIGURE_SPACE if compact else " ") + "~")


def behind_note(document: Mapping[str, Any], what: str) -> str | None:
    """What the intervals behind the best are: with several comparisons, 95% for all of them together (each at the
    Bonferroni level the document gives), while each mean's interval is 95% on its own."""
    comparisons = document.get("behind_comparisons", 0)
    if comparisons < 2:
        return None
    each = percent_text(document["behind_confidence"], 2)
    return (f"behind the best: 95% for the {comparisons} {what} compared with it together (Bonferroni: each "
            f"interval {each}%); each mean payment's interval is 95% on its own")


def tilde_note(document: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], best: str) -> str | None:
    """What ``~`` in a table of advice means, where a row behind the best wears it (not under a table without one),
    and why each such row is not told apart: fewer samples than any gap needs (:func:`fewest_to_tell`), the same
    payment as the best on every sample, or an interval behind the best that holds 0."""
    tilded = [row for row in rows[1:] if row.get("mean") is not None and row.get("rank", 2) > 1
              and row.get("behind_leader") is not None and not row.get("told_apart", True)]
    if not tilded:
        return None
    fewest = fewest_to_tell(document.get("behind_confidence", 0.95))
    few = [row for row in tilded if row["behind_samples"] < fewest]
    alike = [row for row in tilded if row not in few and row.get("behind_interval_note") == ALL_ALIKE]
    why = [text for text, said in (
        (f"too few samples: no gap is told apart below {fewest}, the fewest on which the exact sign test "
         "(p = 2 / 2^n) can tell one at the level of each interval behind the best", few),
        ("the same payment as the best on every sample", alike),
        ("its interval behind the best holds 0", len(tilded) > len(few) + len(alike))) if said]
    return f"~ : not told apart from {best} at this sample size ({'; '.join(why)})"


def rank_note(rows: Sequence[Mapping[str, Any]], what: str, order: str) -> str | None:
    """What a rank shared by several rows means, where some share one: a tie, not a preference."""
    ranks = [row["rank"] for row in rows if row.get("mean") is not None and "rank" in row]
    if len(ranks) == len(set(ranks)):
        return None
    return (f"a rank shared: a tie, {what} equal on the exact figures (the table rounds them) the ranking reads (the "
            f"mean payment, the win{', the tricks' if any(row.get('mean_tricks') is not None for row in rows) else ''}"
            f"), listed {order}")


def tricks_note(document: Mapping[str, Any], what: str) -> str:
    """What the tricks column is: the seat's mean tricks under double-dummy play, which rank an equal payment and
    win (:func:`counts_tricks`)."""
    who = role_text(get_game(document["game"]).declarer_title, [document["seat"]])
    after = " after the card" if what == "card" else ""
    return (f"mean tricks: {who}'s{after}, each sample played double dummy (as analyse counts them); they "
            "rank an equal mean payment and win")


def tricks_cell(row: Mapping[str, Any]) -> str:
    """A row's mean tricks (``2.75``), where they are counted: to 2 decimals, since they rank the rows and a tenth
    would write two that differ alike."""
    return "" if row.get("mean_tricks") is None else decimal_text(row["mean_tricks"], 2)


def figure_and_wide_columns(tricks: bool, with_bonuses: bool) -> tuple[frozenset[int], frozenset[int]]:
    """The columns of an advice table (rank, name, mean, gap, win[, mean tricks][, bonuses, against]) that hold
    figures, aligned right, and those of the bonuses, which a narrow terminal moves to a table of their own."""
    figures = frozenset({0, 2, 3, 4, 5} if tricks else {0, 2, 3, 4})
    return figures, frozenset({5 + tricks, 6 + tricks}) if with_bonuses else frozenset()


def tricks_notes(document: Mapping[str, Any], what: str, order: str, pot_hint: str) -> list[str]:
    """The notes under a Kratzen table of ``what`` (contract or card advice): what its tricks column is, and at a
    pot of 0, which settles every item at 0, what ranks them instead, and, where no pot was given, how to give one
    (``pot_hint``)."""
    game = get_game(document["game"])
    notes = [tricks_note(document, what)] if counts_tricks(document["game"]) else []
    if game.has_pot and not document.get("pot"):
        hint = "" if document.get("pot") is not None else f" ({pot_hint})"
        notes.append(f"note: pot 0: every {what} settles at 0 {game.score_unit}, so the payments cannot rank them; win "
                     f"still counts the {game.declarer_title}'s target made, and ranks them: the highest win first, an "
                     f"equal win by the {game.declarer_title}'s mean tricks, then {order}{hint}")
    return notes


def alike_note(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """What ``(all alike)`` in a table of advice means, where a row says it."""
    if any(ALL_ALIKE in (row.get("interval_note"), row.get("behind_interval_note")) for row in rows):
        return ("all alike: every sample gave this value, so there is no interval (no other value was seen "
                "in these samples; that is not a certainty)")
    return None


def never_made_note(rows: Sequence[Mapping[str, Any]], title: Callable[[str], str],
                    every: str = "every contract") -> str | None:
    """The bonuses a contract could make that no sample made, on one line under the table (the JSON lists them at 0 with
    their intervals): 0 of 30 is information, up to 11%, which a bonus left out would not say. Contracts with the same
    such bonuses are named together; where every contract with bonuses has them, none is named."""
    never: dict[str, list[str]] = {}  # contract -> its bonuses never made
    highest, counts = 0.0, set()
    with_bonuses = [row for row in rows if row["mean"] is not None and row["bonuses"]]
    for row in with_bonuses:
        for name, probability in row["bonuses"].items():
            if not probability:
                never.setdefault(row["contract"], []).append(title(name))
                highest = max(highest, row["bonuses_intervals"][name][1])
                counts.add(row["samples"])
    if not never:
        return None
    grouped: dict[tuple[str, ...], list[str]] = {}  # the bonuses -> the contracts that never made them
    for contract, names in never.items():
        grouped.setdefault(tuple(names), []).append(contract)
    if len(grouped) == 1 and len(never) == len(with_bonuses):
        text = ", ".join(next(iter(grouped))) + (f" ({every})" if len(never) > 1 else "")
    else:
        text = "; ".join(f"{', '.join(names)} ({', '.join(contracts)})" for names, contracts in grouped.items())
    count = next(iter(counts))
    samples = (f"{count:,} sample{'' if count == 1 else 's'}" if len(counts) == 1 else "these samples")
    return f"never made in {samples}, so each below {highest:.0%} (the top of its 95% interval): {text}"


def nothing_solved(document: Mapping[str, Any]) -> str | None:
    """What a stopped run that solved no sample says (a time limit shorter than one sample): there is nothing to
    rank, and an empty row would read as a refusal. None where samples were solved."""
    if document["samples"]:
        return None
    return (f"no sample was solved before the {document['stopped'] or 'end'}: nothing to rank "
            "(give it more time: --time-limit)")


def samples_done(document: Mapping[str, Any]) -> str:
    """``30 samples (seed 1)``, and where the run stopped early, that it did and how many were asked: ``20 of 2,000
    samples (seed 1), stopped by the interrupt`` (:func:`~solver.sampling.samples_text`, as an analysis says it)."""
    done = f"{samples_text(document)} (seed {document['seed']})"
    if document["stopped"]:
        done += f", stopped by the {document['stopped']}: the best answer so far"
    return done


def contracts_in_words(document: Mapping[str, Any]) -> dict[str, Any]:
    """Contract advice's document with each contract as the rule book names it ("Suit Solo"), for the report people
    read; the document itself (``--json``) keeps the tokens ("SuitSolo") that ``--contract`` and a record take."""
    words = get_game(document["game"]).contract_in_words
    return {**document, "contracts": [{**row, "contract": words(row["contract"])} for row in document["contracts"]],
            "left_out": {words(contract): reason for contract, reason in document.get("left_out", {}).items()}}


def contract_advice_report(document: Mapping[str, Any]) -> AdviceReport:
    """Contract advice (:meth:`ContractAdvice.as_dict`) for people, below its hand and known cards (the command
    paints them; :func:`hand_lines`): the samples, the contracts ranked by the seat's mean payment, best first, and the
    notes that say what the table's figures are."""
    each = document.get("each_announcement")
    if each:  # a row is a contract with what it announces: 'Solo + Pagat Ultimo'
        document = {**document, "announcements": None,
                    "contracts": [{**row, "contract": row_name(row["contract"], row["announced"])}
                                  for row in document["contracts"]]}
    document = contracts_in_words(document)
    report: list[str | AdviceTable | None] = [samples_done(document) + (scored_with(document) or "")
                            + ("; every contract announcing nothing and with each announcement" if each else "")]
    nothing = nothing_solved(document)
    if nothing is not None:
        return [part for part in report if part is not None] + [nothing]
    game = get_game(document["game"])
    # a game without bonuses (Kratzen: the pot's payouts and penalties are the game) has no bonus columns
    with_bonuses = any(row.get("bonuses") or row.get("bonuses_against") for row in document["contracts"])
    tricks = counts_tricks(document["game"])  # what ranks an equal payment and win (Kratzen), shown as it ranks
    columns = ("", "contract", "mean payment", "behind\nthe best", "win") + (("mean tricks",) if tricks else ()) + (
        ("bonuses made", "against") if with_bonuses else ())
    title = game.item_title  # the bonuses by the names players use
    rows: list[tuple[str, ...]] = []
    for place, row in enumerate(document["contracts"], 1):
        rank = place if row.get("rank") is None else row["rank"]  # a row no sample settled: its place, unshared
        if row["mean"] is None:
            rows.append((str(rank), row["contract"], "refused on every sample", *[""] * (len(columns) - 3)))
            continue
        mean_text, behind = ranked_texts(rank, row)
        bonuses, against = ("\n".join(f"{share(p, row.get(key + '_intervals', {}).get(name), compact=True)} "
                                      f"{title(name)}" for name, p in row[key].items() if p)
                            for key in ("bonuses", "bonuses_against"))
        rows.append((str(rank), row["contract"], mean_text, behind,
                     share(row["win_probability"], row.get("win_interval"), compact=True),
                     *((tricks_cell(row),) if tricks else ()), *((bonuses, against) if with_bonuses else ())))
    # where every seat plays for itself the advised seat is the one that announces: it attacks whatever its seat
    attacks = f" as the {game.declarer_title}" if game.has_pot else ""
    name = f"contracts by seat {document['seat']}'s mean payment{attacks}"
    report.append(AdviceTable(f"{name} ({units(document)}; ± and brackets: 95% intervals; paired samples)", columns,
                              rows, *figure_and_wide_columns(tricks, with_bonuses), name))
    report += [tilde_note(document, document["contracts"], "the best"),
               rank_note(document["contracts"], "contracts",
                         "in the order they were asked for (all: the game's order, as stich table lists them)"),
               behind_note(document, "contracts"), alike_note(document["contracts"]),
               payment_note(document, sides=True)]
    bonus_note = "; bonuses made / against: paid to the declarers / to the others" if with_bonuses else ""
    report.append(f"win: the samples {win_meaning(document)}{bonus_note}; each share with its 95% Wilson interval "
                  "in brackets")
    report.append(never_made_note(document["contracts"], game.item_title))
    if each:
        report += gain_report(document)
    passed = next((row for row in document["contracts"] if row["contract"] == PASS), None)
    if passed is not None:
        said = " announces nothing of a contract," if document.get("announcements") else " announces nothing,"
        settled = "" if not passed["refused"] or not passed["samples"] else (
            f"; settled on {passed['samples']:,} of {passed['samples'] + passed['refused']:,} samples (on the others "
            "the announcements do not fit the side the cards put it on), so its figures are of those")
        report.append(f"pass: seat {document['seat']}{said} nor does anyone else, and plays in "
                      f"{game.passed_game_text}; its bonuses made are that declarer's side's{settled}")
    if any(" | " in row["contract"] for row in document["contracts"]):
        report.append("pass + A | B: the seat announces A where its side allows it, else B (it knows its side when "
                      "it announces: it holds the called tarock or not)")
    for row in document["contracts"]:
        if row["contract"].split(" + ")[0] != PASS or not row["refused_reason"]:
            continue
        if row["samples"] and row["contract"] != PASS:  # the bare pass row's count is said above
            report.append(f"{row['contract']}: settled on {row['samples']:,} of "
                          f"{row['samples'] + row['refused']:,} samples, so its figures are of those; refused on the "
                          f"others, for instance: {row['refused_reason']}")
        elif row["samples"]:  # the bare pass row, its count said above
            report.append(f"{row['contract']}: refused on the others, for instance: {row['refused_reason']}")
        else:
            report.append(f"{row['contract']} refused on every sample, for instance: {row['refused_reason']}")
    for contract, reason in document.get("left_out", {}).items():
        report.append(f"not ranked: {contract}, which the announcements do not fit ({reason})")
    report.append(losing_note(document))
    report += tricks_notes(document, "contract", "in the order the contracts were asked for (all: the game's order, "
                           "as stich table lists them)", f"give the pot with {POT_BY_FLAG}")
    return [part for part in report if part is not None]


def losing_note(document: Mapping[str, Any]) -> str | None:
    """Where every contract ranked loses the seat money on average and passing is no row (a Schafkopf deal passed
    out is thrown in), the note that says so beside what passing pays: a table whose first row reads "best" at a loss
    would advise announcing it, where a player may pass. None where the best pays 0 or more, or the game ranks passing
    itself."""
    text = get_game(document["game"]).passed_out_text
    best = next((row for row in document["contracts"] if row["mean"] is not None), None)
    if not text or best is None or best["mean"] >= 0:
        return None
    figure = mean_with_interval(best["mean"], best["interval"], best.get("interval_note"))
    tie = tie_said([best.get("rank"), *(row.get("rank") for row in document["contracts"] if row is not best)])
    return (f"every contract ranked pays seat {document['seat']} less than 0 on average, the best, {best['contract']}"
            f", {figure}{tie}; passing, not ranked, pays 0 where the others pass too: {text}")


def gain_report(document: Mapping[str, Any]) -> AdviceReport:
    """What each announcement adds to its contract announcing nothing: the paired difference of the seat's
    payment on the same samples, with its 95% interval (one question per row, uncorrected)."""
    rows: list[tuple[str, ...]] = []
    for row in document["contracts"]:
        gain = row.get("announcement_gain")
        if gain is None or gain["mean"] is None:
            continue
        adds = mean_with_interval(gain["mean"], gain["interval"], gain["interval_note"], compact=True)
        rows.append((row["contract"], adds, f"{gain['samples']:,}"))
    name = "what each announcement adds to the same contract announcing nothing"
    return [AdviceTable(f"{name} (paired samples)", ("contract", "adds", "samples"), rows, frozenset({1, 2}),
                        name=name),
            "adds: the mean over the samples both were settled on, ± its 95% interval (each on its own)"]


#: Which samples card advice counts as won, in a game not paid from a pot.
WIN_BY_PAYMENT = "where the seat's payment is above 0"


def card_advice_title(document: Mapping[str, Any]) -> str:
    """Card advice's first line but the hand it is about, which follows it (the command paints its cards):
    ``Schafkopf, Rufer E: seat 1 to move after 0 cards played, holding ``; from a hand, the declaring seat where it is
    not the seat advised (``Schafkopf, Solo E (declarer seat 2): seat 1 ...``), lest it read as the seat's own Solo."""
    played = len(document["played"])
    return (f"{document['game']}, {contract_and_declarer(document)}: seat {document['seat']} to move after {played:,} "
            f"card{'' if played == 1 else 's'} played, holding ")


def card_advice_report(document: Mapping[str, Any]) -> AdviceReport:
    """Card advice (:meth:`CardAdvice.as_dict`) for people: the position, the samples, the legal cards ranked by
    the seat's mean share of its side's settlement (each card by its name in the document: the command paints
    it, :func:`advice_text` writes it as the hand diagram does) and the notes."""
    report: list[str | AdviceTable | None] = [
        card_advice_title(document) + card_names(document["game"], document.get("hand", ())),
        *(f"known in seat {seat}: {card_names(document['game'], cards)}"  # from a hand, as the analysis says them
          for seat, cards in document.get("known", {}).items()),
        samples_done(document) + scored_with(document)]
    nothing = nothing_solved(document)
    if nothing is not None:
        return [part for part in report if part is not None] + [nothing]
    # as contract advice: each bonus's odds along the settlement-optimal line after the card (none in Kratzen)
    with_bonuses = any(row.get("bonuses") or row.get("bonuses_against") for row in document["cards"])
    title = get_game(document["game"]).item_title
    tricks = counts_tricks(document["game"])  # what ranks an equal payment and win (Kratzen), shown as it ranks
    rows: list[tuple[str, ...]] = []
    for place, row in enumerate(document["cards"], 1):
        if row["mean"] is None:
            continue
        rank = row.get("rank", place)
        mean_text, behind = ranked_texts(rank, row)
        bonuses, against = ("\n".join(f"{share(p, row.get(key + '_intervals', {}).get(name), compact=True)} "
                                      f"{title(name)}" for name, p in row.get(key, {}).items() if p)
                            for key in ("bonuses", "bonuses_against"))
        rows.append((str(rank), row["card"], mean_text, behind,
                     share(row["win_probability"], row.get("win_interval"), compact=True),
                     *((tricks_cell(row),) if tricks else ()), *((bonuses, against) if with_bonuses else ())))
    name = f"cards by seat {document['seat']}'s mean payment"
    report.append(AdviceTable(f"{name} ({units(document)}; ± and brackets: 95% intervals; paired)",
                              ("", "card", "mean payment", "behind the best", "win")
                              + (("mean tricks",) if tricks else ())
                              + (("bonuses made", "against") if with_bonuses else ()), rows,
                              *figure_and_wide_columns(tricks, with_bonuses), name))
    bonus_note = ("; bonuses made / against: paid to the declarers / to the others along the best line after the "
                  "card, each share with its 95% Wilson interval" if with_bonuses else "")
    report += [tilde_note(document, document["cards"], "the best card"),
               rank_note(document["cards"], "cards", "in the order the hand above lists them"),
               behind_note(document, "cards"), alike_note(document["cards"]),
               f"win: the samples {win_meaning(document, WIN_BY_PAYMENT)} (its 95% Wilson interval in brackets)"
               + bonus_note,
               payment_note(document),
               never_made_note([{**row, "contract": card_names(document["game"], [row["card"]])}
                                for row in document["cards"]], title, "every card")]
    report += tricks_notes(document, "card", "in the order the hand above lists them",
                           f"give the record a [Pot] tag, or {POT_BY_FLAG}")
    return [part for part in report if part is not None]


def hand_lines(document: Mapping[str, Any]) -> list[str]:
    """Contract advice's first lines: the flags in force where they are not the defaults (``rules: ...``, as the
    advice of one contract starts), the seat's hand and the cards known in other seats, written as the hand diagram
    writes them (``♠K`` in a French pack)."""
    game = document["game"]
    return [*rules_line(document), f"{game}, seat {document['seat']}: {card_names(game, document['hand'])}",
            *(f"known in seat {seat}: {card_names(game, cards)}" for seat, cards in document["known"].items())]


def named_cards(document: Mapping[str, Any], report: AdviceReport) -> AdviceReport:
    """Card advice's report with each card written as the hand diagram writes it (the command paints them)."""
    return [part if isinstance(part, str) else
            part._replace(rows=[(row[0], card_names(document["game"], [row[1]]), *row[2:]) for row in part.rows])
            for part in report]


def advice_text(report: AdviceReport) -> str:
    """A report as plain text: its lines, and each table under its title with its columns aligned."""
    lines: list[str] = []
    for part in report:
        lines += [part] if isinstance(part, str) else table_text((part.title, part.columns, part.rows))
    return "\n".join(lines)


def advice_html(report: AdviceReport) -> str:
    """A report for Jupyter: its first line as the heading, the others as paragraphs, its tables as HTML tables."""
    parts = []
    for index, part in enumerate(report):
        if isinstance(part, str):
            parts.append(html_lines([part], bold=not index))
        else:
            named = [index for index, column in enumerate(part.columns) if column == "contract"]
            rows = [[whole_contract(cell) if index in named else cell for index, cell in enumerate(row)]
                    for row in part.rows]
            parts.append(html_titled_table(part.title, [column.replace("\n", " ") for column in part.columns],
                                           rows, right=part.right))
    return f"<div>{''.join(parts)}</div>"
