"""The bots and the match: legal cards only, seeded reproducibility, the time budget, and that the sampling bot
beats the random one by a real margin."""

from __future__ import annotations

import json
import math
import statistics
import time
import warnings

import pytest

from solver.bots import CheaterBot, RandomBot, SamplingBot, make_bot
from solver.errors import StichError, StichWarning
from solver.generate import random_record
from solver.intervals import t_quantile_95
from solver.match import Mean, PlayedDeal, engine_build, play_match, summarise
from solver.position import position_from_record

from machine_cores import TWO_CORES, needs_two_cores


def _start(game="schafkopf", contract="Solo E", board=1):
    return position_from_record(random_record(game, 7, board, contract=contract, declarer=1))


def test_every_bot_plays_legal_cards_to_the_end():
    position = _start()
    bots = [SamplingBot(samples=3, seed=1), RandomBot(seed=1), CheaterBot(), RandomBot(seed=2)]
    while not position.state.is_over:
        card = bots[position.state.to_move].choose(position)
        assert position.state.legal_cards() >> card & 1
        position = position.play(card)
    assert len(position.played) == 32


def test_the_sampling_bot_is_reproducible_and_ranks_every_legal_card():
    position = _start(board=2)
    first = SamplingBot(samples=6, seed=3)
    card = first.choose(position)
    assert SamplingBot(samples=6, seed=3).choose(position) == card
    legal = position.state.legal_cards()
    assert {e.card for e in first.last_estimates} == {c for c in range(32) if legal >> c & 1}
    assert first.last_estimates[0].card == card and all(e.samples == 6 for e in first.last_estimates)
    assert RandomBot(seed=4).choose(position) == RandomBot(seed=4).choose(position)


def test_the_sampling_bot_for_the_score_sums_the_cards_settlements_on_its_samples_with_any_workers(two_worker_cores):
    from solver.bots import card_values
    from solver.games import get_game
    from solver.position import Position
    from solver.sampling import draw_sample
    from solver.search.engine import EngineSolver

    position = _start(board=4)
    one, two = SamplingBot(samples=8, seed=5), SamplingBot(samples=8, seed=5, workers=2)
    assert two.workers == 2
    assert one.choose(position) == two.choose(position) and one.last_estimates == two.last_estimates
    setup, seat, totals = one.setup(position), position.state.to_move, {}
    for k in range(8):  # what the bot's own loop summed: every legal card's settlement on each sample
        rules, state = draw_sample(setup, k)
        objective, values = card_values(Position(get_game("schafkopf"), rules, state), "score", EngineSolver())
        for card, value in values:  # the seat's share of its side's settlement
            totals[card] = totals.get(card, 0) + rules.game.seat_share(rules, seat, value)
    assert {e.card: (e.samples, e.total) for e in one.last_estimates} == {c: (8, t) for c, t in totals.items()}
    with pytest.raises(StichError):
        SamplingBot(workers=0)


def test_bots_playing_for_the_score_make_no_points_engine(monkeypatch):
    """A points engine holds a 64 MB table: the bots make theirs on first use, and playing for the score (card
    advice's sampling, the settlement search) never uses one; playing for the points does."""
    from solver.search.engine import EngineSolver

    made = []
    setup = EngineSolver.__init__

    def counted(self, *args, **kwargs):
        made.append(self)
        setup(self, *args, **kwargs)

    monkeypatch.setattr(EngineSolver, "__init__", counted)
    position = _start(board=5)
    for bot in (SamplingBot(samples=3, seed=1), CheaterBot()):
        assert position.state.legal_cards() >> bot.choose(position) & 1
    assert made == []
    points = SamplingBot(samples=2, seed=1, plays_for="points")
    assert made == []
    points.choose(position)
    assert made == [points.engine]


@pytest.mark.parametrize("plays_for", ["points", "score"])
def test_a_tiny_budget_a_card_decides_on_fewer_samples_than_asked(plays_for):
    """A bot's budget a card (``time_limit``) stops the sampling once spent, after at least one sample, and the card
    is chosen on the samples done: a legal card, and ``last_samples`` (each card's estimate too) says how many, fewer
    than the 10,000 asked (counted, not timed: the machine is shared)."""
    position = _start("zwanzigerrufen", "Normal", board=3)
    bot = SamplingBot(samples=10_000, seed=1, time_limit=0.01, plays_for=plays_for)
    assert bot.last_samples == 0  # no choice yet
    card = bot.choose(position)
    assert position.legal_cards().mask >> card & 1 and card == bot.last_estimates[0].card
    assert 1 <= bot.last_samples < 10_000
    assert {estimate.samples for estimate in bot.last_estimates} == {bot.last_samples}
    untimed = SamplingBot(samples=3, seed=1, plays_for=plays_for)
    untimed.choose(position)
    assert untimed.last_samples == 3  # without a budget, every sample asked


def test_a_time_limit_of_0_leaves_the_bot_one_sample():
    """0 is a deadline already past, as for solve, dd_settlement and play_match; the first sample is always solved, so
    the bot still chooses, not refused."""
    position = _start("zwanzigerrufen", "Normal", board=3)
    for plays_for in ("points", "score"):
        bot = SamplingBot(samples=50, seed=1, time_limit=1e-9, plays_for=plays_for)
        assert position.legal_cards().mask >> bot.choose(position) & 1
        assert {estimate.samples for estimate in bot.last_estimates} == {1} and bot.last_samples == 1


def test_a_match_with_a_card_deadline_records_each_card_s_samples(tmp_path):
    """A sampling bot's deadline a card makes its samples depend on the machine's speed, so the played deal says how
    many each card was decided on: with a deadline each deal's ``samples`` gives, card by card, the samples its bot used
    (fewer than asked under a tiny budget, 0 for a seat's last card, which is forced; null for a bot that does not
    sample); a checkpoint keeps them; a match without a deadline writes no ``samples``."""
    from test_cli import SCHEMA as RESULT_SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

    def bots(time_limit):
        return [SamplingBot(samples=1_000, seed=2, time_limit=time_limit, plays_for="points"), RandomBot(seed=2),
                RandomBot(seed=3)]

    journal = tmp_path / "m.ckpt"
    result = play_match("kratzen", bots(0.001), boards=2, seed=4, pot=6, checkpoint=journal)
    assert len(result.deals) == 6
    for deal in result.deals:
        assert deal.samples is not None and len(deal.samples) == len(deal.play) == 12
        seat = deal.bots.index("sampling:1000")  # the seat the sampling bot held, 0-based
        own = [count for count, seated in zip(deal.samples, _seats_to_play(deal)) if seated == seat]
        others = [count for count, seated in zip(deal.samples, _seats_to_play(deal)) if seated != seat]
        assert len(own) == 4 and others == [None] * 8
        assert own[-1] == 0 and all(count is not None and 0 <= count < 1_000 for count in own)
        assert any(count for count in own)  # a card with a choice was decided on at least one sample
        assert deal.as_dict()["samples"] == list(deal.samples) and PlayedDeal.from_dict(deal.as_dict()) == deal
    assert schema_errors(result.as_dict(), RESULT_SCHEMA) == []
    resumed = play_match("kratzen", bots(0.001), boards=2, seed=4, pot=6, checkpoint=journal)
    assert resumed.deals == result.deals  # read back from the checkpoint, samples and all
    untimed = play_match("kratzen", [make_bot("sampling:2", plays_for="points"), RandomBot(), RandomBot()],
                         boards=1, seed=4, pot=6, rotate=False)
    assert untimed.deals[0].samples is None and "samples" not in untimed.deals[0].as_dict()
    bad = {**result.deals[0].as_dict(), "samples": [1, 2]}
    with pytest.raises(StichError, match="a played deal's 'samples' is a list of whole numbers from 0 or nulls, one "
                                         "a card played, not"):
        PlayedDeal.from_dict(bad)


def _seats_to_play(deal: PlayedDeal) -> list[int]:
    """The seat (0-based) that played each card of ``deal``, replayed from its record."""
    from solver.games import get_game

    record = random_record(get_game("kratzen"), 4, deal.board, declarer=1, seats=3)  # as the match deals it
    record.set("Pot", "6")
    position = position_from_record(record)
    seats = []
    for name in deal.play:
        seats.append(position.state.to_move)
        position = position.play(name)
    return seats


def test_a_seeded_match_is_reproducible():
    bots = [make_bot("sampling:3", seed=1), make_bot("random", seed=1), make_bot("random", seed=1)]
    first = play_match("kratzen", bots, boards=3, seed=5)
    again = play_match("kratzen", bots, boards=3, seed=5)
    assert first == again and len(first.deals) == 9  # each board once per rotation
    assert {deal.bots for deal in first.deals if deal.board == 1} == {
        ("sampling:3", "random", "random"), ("random", "sampling:3", "random"), ("random", "random", "sampling:3")}


def test_a_bot_of_ones_own_may_answer_with_a_card_or_a_token_and_an_illegal_one_is_named():
    """``legal_cards()`` yields Cards, so a bot author's bot returns one, and the match takes it as it takes a pack
    index or a token, not failing with a TypeError; a card that is not legal is a StichError naming the bot, the seat
    and the card."""

    class FirstCard:
        name = "first"

        def choose(self, position):
            return next(iter(position.legal_cards()))

    class FirstToken(FirstCard):
        name = "first-token"  # another class, so another name: a match counts one kind of bot a name

        def choose(self, position):
            return next(iter(position.legal_cards())).name

    class Illegal(FirstCard):
        name = "illegal"

        def choose(self, position):  # a card another seat holds
            legal = position.state.legal_cards()
            return next(card for card in position.pack if not legal >> card.index & 1)

    match = play_match("schafkopf", [FirstCard(), FirstToken(), FirstCard(), FirstToken()], boards=2, seed=3,
                       rotate=False)
    assert len(match.deals) == 2 and all(len(deal.play) == 32 for deal in match.deals)
    with pytest.raises(StichError, match=r"^board 1, rotation 0, card 1 \(trick 1\): bot illegal at seat 1 chose "
                                         r"\w+, which is not a legal card here "
                                         r"\(seat 1 does not hold \w+: seat [234] holds it \(legal: [\w ]+\)\)$"):
        play_match("schafkopf", [Illegal(), FirstCard(), FirstCard(), FirstCard()], boards=1, seed=3,
                   contract="Solo E")


def test_the_built_in_bots_choices_and_estimates_print_as_cards():
    """At a prompt a bot's choice and the estimates behind it read as cards (``T19``), not as pack indices to look up,
    and stay the ints a caller indexes the pack with and plays."""
    position = position_from_record(random_record("zwanzigerrufen", 1, 1))
    sampling = make_bot("sampling:2")
    chosen = sampling.choose(position)
    assert repr(chosen) == position.pack[chosen].name and position.play(chosen).played == (int(chosen),)
    assert all(repr(estimate).startswith(f"CardEstimate(card={position.pack[estimate.card].name}, ")
               for estimate in sampling.last_estimates)
    for bot in (make_bot("random"), make_bot("cheater", plays_for="points")):
        chosen = bot.choose(position)
        assert isinstance(chosen, int) and repr(chosen) == position.pack[chosen].name


@pytest.mark.parametrize("game, contract", [("zwanzigerrufen", "Solo"), ("schafkopf", "Solo E"),
                                            ("kratzen", "Trump E")])
def test_a_finished_deal_asked_for_a_card_is_an_invalid_position_saying_the_deal_is_over(game, contract):
    """A deal played to its end has no seat to move: a bot's ``choose`` and card advice refuse it as the position it
    is (``InvalidPositionError``, a ``StichError``), and ``Position.play`` refuses the card (``IllegalPlayError``),
    each saying why, in every game, not an IndexError from an empty hand."""
    from solver.advice import card_advice
    from solver.errors import IllegalPlayError, InvalidPositionError

    position = position_from_record(random_record(game, 7, 1, contract=contract, declarer=1))
    while position.to_move is not None:
        position = position.play(min(position.legal_cards()))
    assert position.state.is_over and position.legal_cards() == position.pack.card_set([])
    for bot in (RandomBot(seed=1), CheaterBot(), SamplingBot(samples=2, seed=1)):
        with pytest.raises(InvalidPositionError, match=r"^the deal is over: no card is left to choose$"):
            bot.choose(position)
    with pytest.raises(InvalidPositionError, match=r"^the deal is over: no card is left to choose$"):
        card_advice(position, samples=2, workers=1)
    with pytest.raises(IllegalPlayError, match=r"^the deal is over: no card can be played$"):
        position.play(0)


def test_a_bot_that_returns_no_card_is_told_what_choose_returns():
    """A bot that returns its legal cards whole, None or a number that is no index is told that it returned no card
    and what ``choose`` returns, naming the value once (a long one by its type alone), not as a card that "is not
    a legal card here"."""

    class Answers:
        def __init__(self, answer):
            self.name, self.answer = "answers", answer

        def choose(self, position):
            return self.answer(position)

    def refusal(answer):
        with pytest.raises(StichError) as refused:
            play_match("schafkopf", [Answers(answer), RandomBot(), RandomBot(), RandomBot()], boards=1, seed=1)
        return str(refused.value)

    where, what = "board 1, rotation 0, card 1 (trick 1): bot answers at seat 1 returned ", (
        ", which is no card (choose returns one card: a pack index, a Card or a card token)")
    assert refusal(lambda position: position.legal_cards()) == (
        where + "CardSet.of('Schafkopf', 'EZ EK EU GZ GK HA H8 H7') (a CardSet)" + what)
    assert refusal(lambda position: list(position.legal_cards())) == where + "a list of 8 items" + what
    assert refusal(lambda position: None) == where + "None" + what
    assert refusal(lambda position: 3.5) == where + "3.5 (a float)" + what
    assert refusal(lambda position: True) == where + "True (a bool)" + what


def test_a_mean_of_two_boards_is_rounded_as_its_boards_add_up():
    """Boards of 0 and +1.25 for the cheater make a mean of exactly 0.625, which the report writes +0.63, as a reader
    adding the boards up rounds it, not +0.62 (the float's half-to-even rounding, which would write 0.375 as +0.38)."""
    from solver.games.outcome import in_table_cell, signed_mean

    result = play_match("schafkopf", [make_bot(spec, seed=2) for spec in ("cheater", "random", "random", "random")],
                        boards=2, seed=2)  # stich match -g schafkopf --bots cheater,random,random,random -n 2 -s 2
    boards = [statistics.fmean(payment for deal in result.deals if deal.board == board
                               for bot, payment in zip(deal.bots, deal.payments) if bot == "cheater")
              for board in (1, 2)]
    assert boards == [0.0, 1.25] and result.bots["cheater"].mean == 0.625
    assert "cheater  8             +0.63 ± 7.94" in str(result).splitlines()
    assert [signed_mean(value) for value in (0.625, -0.625, 0.375, 0.125, 0.615, -0.004)] == [
        "+0.63", "-0.63", "+0.38", "+0.13", "+0.62", "0.00"]
    assert in_table_cell(0.625, 0.3125, 0.875, percent=True) == "63%\u00a0(31-88%)"


def test_a_mean_s_text_rounds_the_exact_figure_not_the_json_s():
    """A mean of 0.62496 is 0.625 in the JSON (four places) and +0.62 in the text, which rounds the exact figure
    once: rounding the JSON's rounded figure again would say +0.63, one off in the last place. A huge figure is
    written whole, not a decimal module error."""
    from solver.games.outcome import decimal_text, percent_text, signed_mean
    from solver.match import Mean

    mean = Mean(0.62496, 0.37496, 0.87504, 10)
    assert mean.as_dict()["mean"] == 0.625 and mean.as_dict()["interval"] == [0.375, 0.875]
    assert str(mean) == "+0.62 (95%: +0.37 to +0.88)"
    assert (signed_mean(-0.62496), decimal_text(70.24996, 1), percent_text(0.62496)) == ("-0.62", "70.2", "62")
    assert signed_mean(1e300) == "+1" + "0" * 300 + ".00" and percent_text(-1e300) == "-1" + "0" * 302


def test_a_bot_that_plays_a_card_on_the_table_is_told_it_is_on_the_table():
    """A bot that hands back a card of ``position.trick`` (a trick read for its hand) is told the card is on the table,
    not that its seat "does not hold" it, which sends its author looking in the hand."""

    class TableCard:
        name = "table"

        def choose(self, position):
            return position.trick[0] if position.trick else min(position.legal_cards(), key=lambda card: card.index)

    with pytest.raises(StichError) as failed:
        play_match("schafkopf", [TableCard(), RandomBot(), RandomBot(), RandomBot()], boards=1, seed=1)
    assert str(failed.value) == ("board 1, rotation 0, card 8 (trick 2): bot table at seat 1 chose G7, which is not a "
                                 "legal card here (seat 1 does not hold G7: on the table, played by seat 2 (legal: GZ "
                                 "GK))")
    start = position_from_record(random_record("schafkopf", 1, 1))
    led = start.play("EZ")
    with pytest.raises(StichError, match=r"^seat 2 does not hold EZ: on the table, played by seat 1 \(legal: EA\)$"):
        led.play("EZ")
    with pytest.raises(StichError, match=r"^seat 2 does not hold EZ: played already, by seat 1 \(legal: "):
        led.play_cards("EA E9 E7").play("EZ")


def test_a_card_played_before_an_ending_s_start_is_said_so_by_the_api_and_play():
    """A card in no hand and no trick of an ending is said to have been played before the ending's start, by the API and
    ``--play`` alike, in the one wording of a Play section's (not only as not held, nor with nothing after it)."""
    from typer.testing import CliRunner

    from solver import parse_positions
    from solver.cli.main import app

    text = ('[Game "Schafkopf"] [Deal "1: EO GO / SU EZ / GZ GK / H8 H7"] [Contract "Rufer E"] [Declarer "1"] '
            '[Partner "2"] [CalledSuitLed "yes"]')
    ending = parse_positions(text)[0]
    with pytest.raises(StichError, match=r"^seat 1 does not hold EA: played before this ending's start \(legal: EO "
                                         r"GO\)$"):
        ending.play("EA")
    shown = CliRunner().invoke(app, ["show", "-", "--play", "EA"], input=text)
    assert shown.exit_code == 1
    assert "stich: --play: card 1: seat 1 does not hold EA: played before this ending's start (legal: EO GO)" in \
        shown.stderr


class _FailsOnCall:
    """A bot of one's own that raises on its ``fail_on``-th choice (a bug of its author's), else plays the first
    legal card."""

    name = "buggy"

    def __init__(self, fail_on: int) -> None:
        self.calls = 0
        self.fail_on = fail_on

    def choose(self, position):
        self.calls += 1
        if self.calls == self.fail_on:
            raise KeyError("no such suit")
        return next(iter(position.legal_cards()))


class _FailsOnAHand:
    """A bot of one's own that raises at a deal's first card when the leader's pack indices sum to a multiple of 5
    (board 5 first, with the seed below), else plays the first legal card after 20 ms: so on two workers a board
    is still in play beside the one that fails."""

    name = "picky"

    def choose(self, position):
        if not position.history and not position.trick and \
                sum(card.index for card in position.hand(position.to_move)) % 5 == 0:
            raise KeyError("this hand")
        time.sleep(0.02)
        return next(iter(position.legal_cards()))


def test_a_bot_that_fails_on_two_workers_keeps_the_boards_in_play_beside_it(two_worker_cores):
    """On two workers the pool lets the boards in flight finish and hands them on before it raises a failing bot's
    BotError, so ``result`` holds every board before the failing one (board 4, in play on the other worker before the
    failing 5), as on one worker."""
    from solver.match import BotError

    def failing(workers: int) -> BotError:
        bots = [_FailsOnAHand(), RandomBot(seed=2), RandomBot(seed=3)]
        with pytest.raises(BotError) as failed:
            play_match("kratzen", bots, boards=12, seed=5, pot=6, workers=workers)
        return failed.value

    one, two = failing(1), failing(2)
    assert str(one) == str(two) == ("board 5, rotation 0, card 1 (trick 1): bot picky at seat 1 failed: "
                                    "KeyError: 'this hand'")
    before = [(board, rotation) for board in range(1, 5) for rotation in range(3)]
    assert [(deal.board, deal.rotation) for deal in one.result.deals] == before
    assert [(deal.board, deal.rotation) for deal in two.result.deals if deal.board < 5] == before


class _TwoPartError(Exception):
    """A bot author's exception whose class takes other arguments than it keeps: it pickles, and fails to unpickle."""

    def __init__(self, suit: str, rank: str) -> None:
        super().__init__(f"{suit}{rank} is missing")


class _FailsWithItsOwnError:
    """A bot of one's own that raises its own exception at its first card."""

    name = "odd"

    def choose(self, position):
        raise _TwoPartError("S", "A")


@pytest.fixture
def exception_pickling():
    """Exceptions pickled as the standard library does, whatever another test left: an in-process Dask cluster installs
    tblib's support, which pickles every exception with its traceback, cause and context (and rebuilds a class whose
    arguments its ``__reduce__`` does not keep) for the rest of the process. The test may install it again
    (``exception_pickling("tblib")``); the table is put back as it was after the test."""
    import copyreg

    saved = dict(copyreg.dispatch_table)
    for kind in [kind for kind in copyreg.dispatch_table if isinstance(kind, type) and issubclass(kind, BaseException)]:
        del copyreg.dispatch_table[kind]

    def choose(how: str) -> None:
        if how == "tblib":
            pytest.importorskip("tblib.pickling_support").install()

    yield choose
    copyreg.dispatch_table.clear()
    copyreg.dispatch_table.update(saved)


def test_a_bot_that_fails_in_a_worker_is_said_without_the_worker_s_traceback(two_worker_cores, exception_pickling):
    """On two workers a failing bot's BotError has as its cause the bot's own exception, without a traceback, as it came
    back from the worker, not the pool's ``_RemoteTraceback`` (the worker's whole traceback as text, printed under the
    error by any traceback of it); an exception that cannot come back (its class does not unpickle) leaves no cause and
    still says its type and message, and the worker is not taken for dead (the match ends with the BotError, not a
    pool's failure)."""
    import traceback

    from solver.match import BotError

    def failing(bot, workers: int) -> BotError:
        with pytest.raises(BotError) as failed:
            play_match("kratzen", [bot, RandomBot(seed=2), RandomBot(seed=3)], boards=12, seed=5, pot=6,
                       workers=workers)
        return failed.value

    one, two = failing(_FailsOnAHand(), 1), failing(_FailsOnAHand(), 2)
    assert str(two) == str(one) == ("board 5, rotation 0, card 1 (trick 1): bot picky at seat 1 failed: "
                                    "KeyError: 'this hand'")
    assert type(two.__cause__) is KeyError and two.__cause__.args == ("this hand",)
    assert two.__cause__.__traceback__ is None and two.bot_exception is two.__cause__
    assert one.__cause__ is one.bot_exception and one.__cause__.__traceback__ is not None  # here: the real one
    shown = "".join(traceback.format_exception(two))
    assert shown.count("Traceback (most recent call last)") == 1  # the BotError's own, in this process
    assert "RemoteTraceback" not in shown and 'raise KeyError("this hand")' not in shown
    assert shown.startswith("KeyError: 'this hand'\n\nThe above exception was the direct cause")
    assert one.worker_traceback is None and 'raise KeyError("this hand")' in two.worker_traceback
    # the bot's own frames, alike from this process and from a worker: its choose down, none of the match's
    assert two.bot_traceback() == one.bot_traceback() == two.worker_traceback
    assert one.bot_traceback().splitlines()[1].endswith("in choose") and "solver" not in one.bot_traceback()
    odd = failing(_FailsWithItsOwnError(), 2)
    assert str(odd) == "board 1, rotation 0, card 1 (trick 1): bot odd at seat 1 failed: _TwoPartError: SA is missing"
    assert odd.__cause__ is None and odd.bot_exception is None and odd.result.deals_played == 0
    assert "Traceback" not in "".join(traceback.format_exception_only(odd))


class _FailsWithAWorkersOwnClass:
    """Raises an exception whose class lives in a module only the worker imports (a plugin of the bot's)."""

    name = "late"

    def __init__(self, folder: str, module: str) -> None:
        self.folder, self.module = folder, module

    def choose(self, position):
        import importlib
        import sys
        sys.path.insert(0, self.folder)
        raise importlib.import_module(self.module).PluginError("from a plugin")


@pytest.mark.parametrize("pickling", ["standard", "tblib"])
def test_a_bot_exception_the_parent_cannot_rebuild_still_ends_the_match_with_the_bot_error(tmp_path,
                                                                                          two_worker_cores,
                                                                                          exception_pickling,
                                                                                          pickling):
    """The bot's exception is pickled on its own inside the BotError, which goes back without cause or context:
    where the parent cannot import its class, the match still ends with the BotError saying it (bot_exception None),
    not with the pool taking the worker for dead ("a job killed its worker process twice"), also where tblib's
    pickling (installed by Dask) would send the cause along."""
    import sys

    from solver.match import BotError

    exception_pickling(pickling)

    module = f"stich_plugin_{tmp_path.name}".replace("-", "_")
    (tmp_path / f"{module}.py").write_text("class PluginError(Exception):\n    pass\n")
    with pytest.raises(BotError) as failed:
        play_match("kratzen", [_FailsWithAWorkersOwnClass(str(tmp_path), module), RandomBot(seed=2),
                               RandomBot(seed=3)], boards=3, seed=5, pot=6, workers=2)
    assert module not in sys.modules
    assert str(failed.value).endswith("bot late at seat 1 failed: PluginError: from a plugin")
    assert failed.value.bot_exception is None and failed.value.__cause__ is None
    assert "PluginError" in failed.value.worker_traceback


def test_a_bot_that_fails_is_named_with_its_board_and_card_and_the_boards_before_are_kept(tmp_path):
    """A bot of one's own that raises does not come out of the match as its bare exception (``KeyError: 'no such
    suit'``), with no bot, board or card said and every board played before it lost unless a progress function is given:
    it is a BotError (a StichError) naming the bot, its seat, the board, the rotation and the card, the bot's exception
    its cause, and ``result`` the match so far; a checkpoint keeps those boards, so a rerun resumes after them."""
    from solver.match import BotError

    # Kratzen, 3 seats, 4 cards a seat: the bot plays 4 cards a deal and 12 a board (3 rotations); its 19th choice
    # is its 3rd card (trick 3) of board 2's second deal (rotation 1), where it sits at seat 2
    bots = [_FailsOnCall(19), RandomBot(seed=2), RandomBot(seed=3)]
    journal = tmp_path / "m.ckpt"
    with pytest.raises(BotError) as failed:
        play_match("kratzen", bots, boards=3, seed=5, pot=6, checkpoint=journal)
    error = failed.value
    assert isinstance(error, StichError) and isinstance(error.__cause__, KeyError)
    assert str(error) == ("board 2, rotation 1, card 7 (trick 3): bot buggy at seat 2 failed: "
                          "KeyError: 'no such suit'")
    so_far = error.result
    assert so_far is not None and so_far.stopped == "error" and so_far.deals_counted == 3
    # board 1 counted; board 2's first deal played, listed, not counted (its bots did not hold every hand)
    assert [(deal.board, deal.rotation) for deal in so_far.deals] == [(1, 0), (1, 1), (1, 2), (2, 0)]
    assert so_far.bots["buggy"].count == 1
    fixed = [_FailsOnCall(0), RandomBot(seed=2), RandomBot(seed=3)]
    again = play_match("kratzen", fixed, boards=3, seed=5, pot=6, checkpoint=journal)
    assert again.deals[:4] == so_far.deals and fixed[0].calls == 24  # boards 2 and 3 only: board 1 resumed


def test_bots_print_as_what_they_are_and_check_their_seed():
    # the sampling and cheater bots print as what they are, not <solver.bots.SamplingBot object at 0x...>, and
    # RandomBot refuses a seed it cannot use
    assert repr(make_bot("sampling:5", seed=2)) == ("SamplingBot(name='sampling:5', samples=5, seed=2, "
                                                    "plays_for='score', workers=1)")
    assert repr(SamplingBot(samples=3, time_limit=0.5, plays_for="points")) == (  # seed=1: DEFAULT_SEED
        "SamplingBot(name='sampling:3', samples=3, seed=1, plays_for='points', time_limit=0.5, workers=1)")
    assert repr(make_bot("cheater")) == "CheaterBot(name='cheater', plays_for='score')"
    assert repr(make_bot("random", seed=4)) == "RandomBot(seed=4, name='random')"
    for seed in ("a", 1.5, None):
        for make in (RandomBot, SamplingBot):
            with pytest.raises(StichError, match="the seed is a whole number"):
                make(seed=seed)
    for limit in (True, -1, float("nan"), float("inf"), "1"):  # True is no second; inf is refused here, not at choose
        with pytest.raises(StichError, match=f"number of seconds above 0 or None, not {limit!r}"):
            SamplingBot(time_limit=limit)


def test_bad_bot_names_are_refused():
    with pytest.raises(StichError, match="unknown bot"):
        make_bot("clever")
    with pytest.raises(StichError, match="whole number"):
        make_bot("sampling:x")


def test_a_match_refuses_what_is_not_a_bot_or_a_setting_before_it_plays():
    """Each of these is refused before the first board, not a raw AttributeError or TypeError from inside it (a progress
    callback only after a deal is played), nor, for a negative time limit, taken."""
    class NoChoose:
        name = "no choose"

    bots = [make_bot("random")] * 4
    for wrong, message in (([*bots[:3], "random"], "the bot at seat 4 .* is no bot"),
                           ([NoChoose(), *bots[1:]], "the bot at seat 1 .* is no bot"),
                           ((bot for bot in bots), "bots must be a list of bots, one per seat, not generator")):
        with pytest.raises(StichError, match=message):
            play_match("schafkopf", wrong, boards=1)
    for limit in (-1, "1", math.inf, True):
        with pytest.raises(StichError, match="time_limit must be a number of seconds above 0"):
            play_match("schafkopf", bots, boards=1, time_limit=limit)
    with pytest.raises(StichError, match="progress must be a function"):
        play_match("schafkopf", bots, boards=1, progress=5)
    assert len(play_match("schafkopf", tuple(bots), boards=1, rotate=False, time_limit=1e-9).deals) == 1


@pytest.mark.slow
def test_the_sampling_bot_beats_the_random_bot():
    # The same 30 Wenz boards declared by the sampling bot and by a random player against random defenders: the
    # declarer's payment, paired board by board, is higher by a margin whose 95% interval lies above zero.
    boards, seed = 30, 11
    # (the bots draw with seed 0, not the library's default of 1: the margins below are measured so)
    sampling = play_match("schafkopf", [make_bot("sampling:6", seed=0), *[make_bot("random", seed=0)] * 3],
                          boards=boards, seed=seed, contract="Wenz", rotate=False)
    random_ = play_match("schafkopf", [make_bot("random", seed=0)] * 4, boards=boards, seed=seed, contract="Wenz",
                         rotate=False)
    gain = Mean.of([a.payments[0] - b.payments[0] for a, b in zip(sampling.deals, random_.deals)])
    assert gain.count == boards
    assert gain.low > 0, gain
    assert gain.mean > 5, gain


def test_a_match_stops_at_its_time_limit_with_whole_boards():
    bots = [make_bot("sampling:2"), make_bot("random"), make_bot("random")]
    result = play_match("kratzen", bots, boards=100_000, seed=1, time_limit=0.5)
    assert result.stopped == "time limit" and result.as_dict()["stopped"] == "time limit"
    assert len(result.deals) % 3 == 0 and 3 <= len(result.deals) < 300_000  # every board in all three rotations


@pytest.mark.slow
def test_stich_match_sigterm_prints_the_match_so_far_and_exits_130(tmp_path):
    import json
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    journal = tmp_path / "match.ckpt"
    process = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()", "match", "--game", "kratzen",
                                "--bots", "sampling:2,random,random", "-n", "100000", "--json",
                                "--checkpoint", str(journal)],
                               cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    # SIGTERM once a board is played (its line in the checkpoint, after the header), not after a fixed 4 s: on a
    # loaded machine the start alone can take that long, and a match stopped before any deal has none to print
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline and not (
            journal.exists() and journal.read_text(encoding="utf-8").count("\n") >= 2):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    document = json.loads(out)
    assert document["stopped"] == "interrupt" and document["deals"]


@pytest.mark.slow
def test_stich_match_killed_with_minus_nine_resumes_to_the_uninterrupted_match(tmp_path):
    """kill -9 of the whole process group (its pool's workers too) once two boards are in the checkpoint, a
    half-written line after them (as a kill in the middle of a write leaves), and a rerun: the match equals an
    uninterrupted one, every board once."""
    import json
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    args = [sys.executable, "-c", f"{TWO_CORES}from cli.main import main; main()", "match", "--game", "kratzen",
            "--bots", "sampling:2,random,random", "-n", "8", "--seed", "4", "-j", "2", "--json"]
    root = Path(__file__).resolve().parent.parent
    journal = tmp_path / "match.ckpt"
    process = subprocess.Popen([*args, "--checkpoint", str(journal)], cwd=root, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline and not (
            journal.exists() and journal.read_bytes().count(b"\n") >= 3):
        time.sleep(0.01)
    assert process.poll() is None, "the match ended before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    with open(journal, "ab") as stream:
        stream.write(b'{"key": "0123", "span": [7, 1], "sums": {"deals": [{"board"')

    def played(*extra: str) -> dict:
        done = subprocess.run([*args, *extra], cwd=root, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        document = json.loads(done.stdout)
        document.pop("seconds", None)
        return document

    assert played("--checkpoint", str(journal)) == played()
    boards = [json.loads(line)["span"][0] for line in journal.read_text().splitlines()[1:]]
    assert sorted(boards) == list(range(1, 9))  # every board once


def test_a_match_resumed_from_its_checkpoint_equals_an_uninterrupted_one(tmp_path):
    bots = [make_bot("sampling:2"), make_bot("random"), make_bot("random")]
    whole = play_match("kratzen", bots, boards=6, seed=3)
    journal = tmp_path / "match.ckpt"
    part = play_match("kratzen", bots, boards=6, seed=3, checkpoint=journal, time_limit=1e-9)
    assert part.stopped == "time limit" and len(part.deals) == 3  # one board, in its three rotations
    assert play_match("kratzen", bots, boards=6, seed=3, checkpoint=journal) == whole
    assert play_match("kratzen", bots, boards=6, seed=3, checkpoint=journal) == whole  # read back whole


def test_the_cli_match_resumes_from_its_checkpoint(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    def run(*extra: str) -> dict:
        done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "match", "--game", "kratzen",
                               "--bots", "sampling:2,random,random", "-n", "4", "--seed", "2", "--json", "-j", "1",
                               *extra],
                              cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    journal = str(tmp_path / "m.ckpt")
    partial = run("--checkpoint", journal, "--time-limit", "0.001")
    assert partial["stopped"] == "time limit" and len(partial["deals"]) == 3
    assert run("--checkpoint", journal) == run()


def test_the_match_json_names_its_schema_and_command_as_the_other_commands_do():
    from solver.analysis import SCHEMA
    from test_cli import SCHEMA as RESULT_SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

    bots = [make_bot("sampling:2"), make_bot("random"), make_bot("random")]
    document = play_match("kratzen", bots, boards=2, seed=1).as_dict()
    assert document["schema"] == SCHEMA and document["command"] == "match"
    assert "difference" in document and schema_errors(document, RESULT_SCHEMA) == []
    stopped = play_match("kratzen", bots, boards=2, seed=1, time_limit=1e-9).as_dict()
    assert stopped["stopped"] == "time limit" and schema_errors(stopped, RESULT_SCHEMA) == []


def test_the_match_text_after_a_time_limit_says_how_often_each_deal_was_to_be_played():
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "match", "--game", "kratzen",
                           "--bots", "random,random,random", "-n", "5", "--seed", "2", "--time-limit", "0.001",
                           "-j", "1"],
                          cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "5 boards (seed 2), each to be played 3 times with the bots rotated" in done.stdout
    assert "after 3 of 15 deals" in done.stdout
    # the limit is passed by the board in play, played to the end: stderr says by how much, not only 'stops after
    # the board in play', which with sampling bots can be minutes
    said = [line for line in done.stderr.splitlines() if "past the time limit" in line]
    assert len(said) == 1 and said[0].startswith("stich: match: ") and said[0].endswith(
        "s past the time limit of 0.001 s: the boards in play at the limit were played to the end (whole boards, one "
        "a worker); 4 boards not started (--checkpoint FILE keeps the boards played, for a rerun to play the rest)"), \
        done.stderr


def test_a_match_the_time_limit_stopped_says_the_boards_not_started_are_left_for_a_rerun(tmp_path):
    """A match the time limit stopped says on stderr the boards it left unplayed and the checkpoint that keeps the ones
    played: a rerun of the same command plays the rest, to the match an unstopped run plays."""
    import subprocess
    import sys
    from pathlib import Path

    def match(*options):
        return subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "match", "--game", "kratzen",
                               "--bots", "random,random,cheater", "-n", "3", "--seed", "2", "--pot", "4", "-j", "1",
                               "--json", *options],
                              cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120)

    journal = tmp_path / "match.ckpt"
    cut = match("--time-limit", "0.001", "--checkpoint", str(journal))
    assert cut.returncode == 0 and json.loads(cut.stdout)["stopped"] == "time limit", cut.stderr
    assert cut.stderr.rstrip().endswith(f"; 2 boards not started: the boards played are kept in {journal}: rerun the "
                                        "command to play the rest"), cut.stderr
    resumed, whole = match("--checkpoint", str(journal)), match()
    assert resumed.returncode == whole.returncode == 0
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)


def test_the_overrun_text_says_the_time_in_all_and_past_the_limit():
    from cli.match import overrun_text

    assert overrun_text(60, 75.25) == ("stich: match: 75.2 s in all, 15.2 s past the time limit of 60 s: the boards "
                                       "in play at the limit were played to the end (whole boards, one a worker)")
    assert overrun_text(60, 75.25, 1).endswith("(whole boards, one a worker); 1 board not started (--checkpoint FILE "
                                               "keeps the boards played, for a rerun to play the rest)")
    assert "0.0 s past" in overrun_text(60, 59.0)


def _board_values(deals, value):
    """Per board, the mean of ``value(deal)`` over its deals (``None`` values skipped): the match's unit."""
    boards: dict[int, list[float]] = {}
    for deal in deals:
        if value(deal) is not None:
            boards.setdefault(deal.board, []).append(value(deal))
    return [sum(values) / len(values) for values in boards.values()]


def _seat_mean(deal, name):
    held = [payment for bot, payment in zip(deal.bots, deal.payments) if bot == name]
    return sum(held) / len(held) if held else None


def _interval(values, t):
    mean = statistics.fmean(values)
    half = t * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def test_the_t_quantile_is_students_for_few_boards_and_the_normals_for_many():
    # two-sided 95% quantiles from published tables (t(2) = 4.303: three boards)
    table = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 10: 2.2281, 29: 2.0452, 30: 2.0423, 100: 1.9840,
             120: 1.9799, 1000: 1.9623}
    for degrees, expected in table.items():
        assert t_quantile_95(degrees) == pytest.approx(expected, abs=5e-5), degrees
    assert t_quantile_95(100) > t_quantile_95(101) > t_quantile_95(102)  # exact below, the expansion above
    assert t_quantile_95(10 ** 7) == pytest.approx(1.959964, abs=1e-6)
    # a mean of three values: 2 +- t(2) * 1 / sqrt(3), not 1.96 * ...
    three = Mean.of([1, 2, 3])
    assert three.count == 3 and (three.mean, three.low, three.high) == pytest.approx(
        (2.0, 2 - 4.302653 / math.sqrt(3), 2 + 4.302653 / math.sqrt(3)), abs=1e-6)
    assert math.isnan(Mean.of([5]).low) and Mean.of([5]).mean == 5
    # the notes of analyse and advice, a board being the match's sample; values all alike exactly, whatever the
    # rounding of their mean (a third, three times)
    assert [Mean.of(values).as_dict()["interval_note"] for values in ([], [5], [1 / 3] * 3, [1, 2, 3])] == [
        "no sample", "one sample", "all samples alike", None]
    assert Mean.of([1 / 3] * 3).as_dict()["interval"] == [None, None]
    assert Mean.of([0, 0], interval=False).as_dict()["interval_note"] == "0 by construction"


def test_the_match_means_are_over_boards_recomputed_from_the_played_deals():
    boards = 3
    result = play_match("schafkopf", [make_bot("sampling:2", seed=3), *[make_bot("random", seed=3)] * 3],
                        boards=boards, seed=3)
    assert len(result.deals) == 12 and result.deals_counted == 12
    t = t_quantile_95(boards - 1)
    for name in ("sampling:2", "random"):
        values = _board_values(result.deals, lambda deal: _seat_mean(deal, name))
        mean = result.bots[name]
        assert mean.count == boards and mean.mean == pytest.approx(statistics.fmean(values))
        assert (mean.low, mean.high) == pytest.approx(_interval(values, t))
    assert result.seats == {"sampling:2": 12, "random": 36}
    declaring = _board_values(result.deals, lambda deal: sum(deal.payments[s - 1] for s in deal.declaring_side))
    assert result.declaring_side.count == boards
    assert (result.declaring_side.low, result.declaring_side.high) == pytest.approx(_interval(declaring, t))
    gaps = _board_values(result.deals, lambda deal: _seat_mean(deal, "sampling:2") - _seat_mean(deal, "random"))
    first, second, gap = result.difference
    assert (first, second, gap.count) == ("sampling:2", "random", boards)
    assert (gap.mean, gap.low, gap.high) == pytest.approx((statistics.fmean(gaps), *_interval(gaps, t)))
    # zero-sum deals: one bot against three, the difference is 4/3 of its mean, board by board
    assert gap.mean == pytest.approx(4 / 3 * result.bots["sampling:2"].mean)
    document = result.as_dict()
    assert document["difference"]["paired"] is True and document["difference"]["count"] == boards
    assert document["bots"]["random"]["seats"] == 36 and document["declaring_side"]["deals"] == 12


def test_four_identical_bots_play_the_rotations_alike_and_their_row_has_no_interval():
    result = play_match("schafkopf", [make_bot("random", seed=5)] * 4, boards=6, seed=5)
    for board in range(1, 7):  # the rotations of a board are one observation, not four
        assert len({deal.play for deal in result.deals if deal.board == board}) == 1
    row = result.bots["random"]
    assert row.mean == 0 and math.isnan(row.low) and math.isnan(row.high) and row.count == 6
    assert result.as_dict()["bots"]["random"] == {"mean": 0.0, "interval": [None, None],
                                                  "interval_note": "0 by construction", "count": 6, "seats": 96,
                                                  "plays_for": None, "samples": None, "card_time": None}
    declaring = _board_values(result.deals, lambda deal: sum(deal.payments[s - 1] for s in deal.declaring_side))
    assert (result.declaring_side.low, result.declaring_side.high) == pytest.approx(
        _interval(declaring, t_quantile_95(5)))
    assert result.difference is None


def test_a_board_cut_short_in_its_rotations_is_listed_but_not_counted():
    result = play_match("schafkopf", [make_bot("random", seed=1), make_bot("sampling:1", seed=1),
                                      make_bot("random", seed=1), make_bot("random", seed=1)], boards=2, seed=1)
    cut = summarise(result.game, result.seed, 3, True, result.deals[:6], "interrupt")
    assert len(cut.deals) == 6 and cut.deals_counted == 4 and cut.declaring_side.count == 1
    whole_first = summarise(result.game, result.seed, 3, True, result.deals[:4], "interrupt")
    assert cut.bots == whole_first.bots and cut.seats == {"random": 12, "sampling:1": 4}
    assert summarise(result.game, result.seed, 3, True, result.deals[:2], "interrupt").bots == {}


def test_a_match_without_rotation_says_its_difference_is_not_paired():
    bots = [make_bot("sampling:1", seed=2), *[make_bot("random", seed=2)] * 3]
    result = play_match("schafkopf", bots, boards=3, seed=2, rotate=False)
    assert len(result.deals) == 3 and result.bots["sampling:1"].count == 3 and result.seats["sampling:1"] == 3
    gaps = [_seat_mean(deal, "sampling:1") - _seat_mean(deal, "random") for deal in result.deals]
    _, _, gap = result.difference
    assert (gap.low, gap.high) == pytest.approx(_interval(gaps, t_quantile_95(2)))
    assert result.as_dict()["difference"]["paired"] is False


def test_a_kratzen_match_has_a_pot_and_each_seat_plays_for_its_own():
    """A Kratzen deal without a pot settles at 0, so a match takes a ``pot`` for every deal (refused for Schafkopf) and
    says it. The settlement is the attacker's payment alone: another seat playing for it would only play against the
    attacker, so it plays for its own tricks."""
    from solver.bots import card_values
    from solver.search.engine import EngineSolver

    bots = [CheaterBot(), RandomBot(seed=1), RandomBot(seed=2)]
    without = play_match("kratzen", bots, boards=3, seed=2)
    with_pot = play_match("kratzen", bots, boards=3, seed=2, pot=12)
    assert all(deal.payments == (0, 0, 0) for deal in without.deals) and without.pot is None
    assert with_pot.pot == 12 and with_pot.as_dict()["pot"] == 12
    assert any(any(deal.payments) for deal in with_pot.deals)
    with pytest.raises(StichError, match="pot"):
        play_match("schafkopf", [RandomBot()] * 4, boards=1, pot=3)
    # the pot takes and pays, so one bot in every seat has a mean with an interval, not 0 by construction
    alone = play_match("kratzen", [RandomBot(seed=3)] * 3, boards=4, seed=2, pot=12).bots["random"]
    assert alone.mean != 0 and alone.low < alone.mean < alone.high
    position = position_from_record(random_record("kratzen", 2, 1, seats=3))
    position.record.set("Pot", "12")
    attacker, _ = card_values(position, "score", EngineSolver())
    assert attacker.name == "score"
    defender, _ = card_values(position.play(next(iter(position.legal_cards()))), "score", EngineSolver())
    assert defender.name == "tricks" and defender.maximiser == frozenset({1})


def test_a_kratzen_match_text_counts_chips_and_the_attackers_own_payment():
    """Kratzen pays in chips from and into the pot, and every seat plays for itself: the match said "declaring
    side" and gave no unit (the other games' payments are game units, said as such)."""
    from typer.testing import CliRunner

    from cli.main import app

    runner = CliRunner()
    kratzen = runner.invoke(app, ["match", "-g", "kratzen", "--bots", "cheater,random,random", "-n", "2",
                                  "--pot", "12"])
    assert kratzen.exit_code == 0, kratzen.output
    assert "mean payment (chips)" in kratzen.stdout
    assert "attacker seat 1: " in kratzen.stdout and "chips per deal, his own payment" in kratzen.stdout
    assert "cheater - random: " in kratzen.stdout and "game units" not in kratzen.stdout
    assert "declaring side" not in kratzen.stdout
    schafkopf = runner.invoke(app, ["match", "-g", "schafkopf", "--bots", "cheater,random,random,random", "-n", "1",
                                    "--plays-for", "points"])
    assert schafkopf.exit_code == 0, schafkopf.output
    assert "mean payment (game units)" in schafkopf.stdout and "game units per deal" in schafkopf.stdout
    assert "declaring side: " in schafkopf.stdout and "chips" not in schafkopf.stdout


@needs_two_cores
def test_the_match_command_s_text_and_json_agree_with_their_deals_recomputed_and_seat_every_bot_everywhere():
    """What a researcher checks of ``stich match``: from the --json deals alone, each board's value (a bot's mean
    payment per seat it held, over the rotations), the means, Student's t intervals, the paired difference and the
    attacker's mean are recomputed and equal the JSON's summary and the text's numbers; every bot held every seat of
    every board as often (one cheater in 3 seats: once a seat), on one board's one contract and attacker; two workers
    play the same match."""
    from test_cli import run

    args = ("match", "-g", "kratzen", "--bots", "cheater,random,random", "-n", "6", "--seed", "5", "--pot", "6")
    document = json.loads(run(*args, "-j", "1", "--json").stdout)
    assert json.loads(run(*args, "-j", "2", "--json").stdout) == document
    text = run(*args, "-j", "1").stdout
    deals = [PlayedDeal.from_dict(deal) for deal in document["deals"]]
    assert [(deal.board, deal.rotation) for deal in deals] == [(b, r) for b in range(1, 7) for r in range(3)]
    for board in range(1, 7):
        rotations = [deal for deal in deals if deal.board == board]
        assert len({(deal.contract, deal.declarer, deal.declaring_side) for deal in rotations}) == 1
        seats = sorted((deal.bots.index("cheater"), deal.bots.count("random")) for deal in rotations)
        assert seats == [(0, 2), (1, 2), (2, 2)]
    t = t_quantile_95(5)
    for name, seats in (("cheater", 18), ("random", 36)):
        values = _board_values(deals, lambda deal: _seat_mean(deal, name))
        said = document["bots"][name]
        assert (said["count"], said["seats"]) == (6, seats)
        assert [said["mean"], *said["interval"]] == pytest.approx([statistics.fmean(values), *_interval(values, t)],
                                                                  abs=1e-4)
        half = (said["interval"][1] - said["interval"][0]) / 2
        assert f"│ {name} " in text and f"{said['mean']:+.2f} ± {half:.2f} │" in text
    gaps = _board_values(deals, lambda deal: _seat_mean(deal, "cheater") - _seat_mean(deal, "random"))
    difference = document["difference"]
    assert (difference["first"], difference["second"], difference["paired"]) == ("cheater", "random", True)
    assert [difference["mean"], *difference["interval"]] == pytest.approx(
        [statistics.fmean(gaps), *_interval(gaps, t)], abs=1e-4)
    low, high = difference["interval"]
    assert (f"cheater - random: {difference['mean']:+.2f} (95%: {low:+.2f} to {high:+.2f}) chips per deal, paired"
            in text)
    attacker = _board_values(deals, lambda deal: deal.payments[0])  # the attacker is seat 1, his own payment
    side = document["declaring_side"]
    assert [side["mean"], *side["interval"]] == pytest.approx([statistics.fmean(attacker), *_interval(attacker, t)],
                                                              abs=1e-4)
    assert f"attacker seat 1: {side['mean']:+.2f} (95%: {side['interval'][0]:+.2f} to" in text


def test_a_pot_match_is_no_zero_sum_match_when_a_deal_pays_0_by_chance():
    """One random bot in every seat of a Kratzen deal with a pot of 4 whose payments sum to 0 by chance: the match does
    not say "0 by construction (pot 0: every payment is 0), no interval", since the pot is 4. Zero-sum is the rules' (no
    pot, or an empty one), not the payments'."""
    from typer.testing import CliRunner

    from cli.main import app

    result = CliRunner().invoke(app, ["match", "-g", "kratzen", "--bots", "random,random,random,random", "-n", "1",
                                      "-s", "26", "--pot", "4", "--no-rotate", "-j", "1", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert sum(document["deals"][0]["payments"]) == 0  # payments summing to 0 by chance
    assert document["bots"]["random"]["interval_note"] != "0 by construction"
    text = CliRunner().invoke(app, ["match", "-g", "kratzen", "--bots", "random,random,random,random", "-n", "1",
                                    "-s", "26", "--pot", "4", "--no-rotate", "-j", "1"]).stdout
    assert "by construction" not in text and "pot 0" not in text
    assert "one board played: no interval" in text
    empty = play_match("kratzen", [RandomBot(seed=3)] * 3, boards=2, seed=2, pot=0).bots["random"]
    assert empty.fixed and empty.mean == 0


def test_a_match_on_two_processes_is_the_match_on_one(tmp_path, two_worker_cores):
    """-j sends whole boards to the workers, each searching on one thread (not a pool started for every card of a
    sampling bot, 3.5x slower than one process): the same deals in the same order, the same means; a time limit stops
    after the boards in play (one a worker), and a checkpoint resumes to the whole match."""
    bots = [make_bot("sampling:2", seed=3), make_bot("random", seed=3), make_bot("cheater")]
    serial = play_match("kratzen", bots, boards=5, seed=4, pot=12).as_dict()
    pooled = play_match("kratzen", bots, boards=5, seed=4, pot=12, workers=2).as_dict()
    assert pooled == serial and [d["board"] for d in pooled["deals"]] == [b for b in range(1, 6) for _ in range(3)]
    journal = tmp_path / "m.ckpt"
    partial = play_match("kratzen", bots, boards=5, seed=4, pot=12, workers=2, time_limit=1e-9, checkpoint=journal)
    assert partial.stopped == "time limit" and len({deal.board for deal in partial.deals}) <= 2
    assert play_match("kratzen", bots, boards=5, seed=4, pot=12, workers=2, checkpoint=journal).as_dict() == serial
    with pytest.raises(StichError, match="give its bots workers=1"):
        play_match("kratzen", [make_bot("sampling", workers=2), *bots[1:]], boards=2, workers=2)
    # a shorter match on that checkpoint takes only its own boards, not all six
    shorter = play_match("kratzen", bots, boards=3, seed=4, pot=12, workers=2, checkpoint=journal).as_dict()
    assert shorter == play_match("kratzen", bots, boards=3, seed=4, pot=12).as_dict()
    # progress sees the deals in board order, though the pool's boards come back as they finish
    seen: list[list[int]] = []
    play_match("kratzen", bots, boards=4, seed=5, pot=12, workers=2,
               progress=lambda so_far, total: seen.append([deal.board for deal in so_far.deals]))
    assert seen and all(boards_seen == sorted(boards_seen) for boards_seen in seen)

    class Unpicklable(type(bots[1])):  # type: ignore[misc]
        def __reduce__(self):
            raise TypeError("not this one")
    with pytest.raises(StichError, match="do not pickle.*give workers=1"):
        play_match("kratzen", [bots[0], Unpicklable(seed=3), bots[2]], boards=2, workers=2)


def test_a_resume_with_a_gap_keeps_the_deals_in_board_order(tmp_path):
    """A checkpoint holding board 2 alone: the resumed match plays boards 1 and 3 around it, in board order."""
    bots = [make_bot("random", seed=1) for _ in range(3)]
    journal = tmp_path / "m.ckpt"
    full = play_match("kratzen", bots, boards=3, seed=2, pot=12, checkpoint=journal).as_dict()
    header, first, second, third = journal.read_text().splitlines()
    journal.write_text(f"{header}\n{second}\n")
    resumed = play_match("kratzen", bots, boards=3, seed=2, pot=12, checkpoint=journal).as_dict()
    assert resumed == full and [deal["board"] for deal in resumed["deals"]] == [1, 1, 1, 2, 2, 2, 3, 3, 3]


def test_a_match_report_says_what_the_bots_played_with_and_under_which_rules():
    """A match's table and JSON say more of the bots than their spec alone (`sampling` with --samples 9 would read as
    the default's 50): what the bots played for (--plays-for), their --card-time, the --contract and the --variant, so
    that a published result says what made it."""
    from typer.testing import CliRunner

    from solver.cli.main import app
    from test_cli import SCHEMA as RESULT_SCHEMA, schema_errors

    args = ["match", "-g", "schafkopf", "--bots", "sampling,random,random,cheater", "--samples", "2", "-n", "1",
            "-s", "3", "-j", "1", "--plays-for", "points", "-c", "Solo H", "--declarer", "2",
            "--variant", "laufende_mode=only_if_holder_wins"]
    runner = CliRunner()
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert ("seats 1-4: sampling (2 samples a card, plays for the points), random, random, cheater (plays for the "
            "points), each rotation one seat on; contract Solo H, declarer 2; "
            "variant: laufende_mode=only_if_holder_wins\n") in text.stdout
    shown = runner.invoke(app, [*args, "--json"])
    document = json.loads(shown.stdout)
    assert schema_errors(document, RESULT_SCHEMA) == []
    assert (document["contract"], document["declarer"]) == ("Solo H", 2)
    assert document["variant"] == {"laufende_mode": "only_if_holder_wins"}
    settings = {name: (bot["plays_for"], bot["samples"], bot["card_time"]) for name, bot in document["bots"].items()}
    assert settings == {"sampling": ("points", 2, None), "random": (None, None, None),
                        "cheater": ("points", None, None)}
    # the rotations as the setup line and the JSON's seating say them: the first as seated, each one seat on
    assert document["seating"] == ["sampling", "random", "random", "cheater"]
    assert [deal["bots"] for deal in document["deals"]] == [["sampling", "random", "random", "cheater"],
                                                            ["cheater", "sampling", "random", "random"],
                                                            ["random", "cheater", "sampling", "random"],
                                                            ["random", "random", "cheater", "sampling"]]
    bots = [make_bot("sampling:1", seed=2, time_limit=0.5), *[make_bot("random", seed=2)] * 2]
    library = play_match("kratzen", bots, boards=1, seed=2, variant="must_undertrump=false").as_dict()
    assert library["contract"] is None and library["declarer"] == 1
    assert library["variant"] == {"must_undertrump": "false"} and library["bots"]["sampling:1"]["card_time"] == 0.5


def test_a_match_setup_spells_the_contract_and_flags_one_way_however_they_were_typed():
    """The setup line and the JSON heading said ``-c "solo  h"`` and ``--variant LAUFENDE_MODE=Only_If_Holder_Wins``
    as typed: one match, two spellings. They say the contract and each flag as the game reads them."""
    from typer.testing import CliRunner

    from solver.cli.main import app

    runner = CliRunner()
    for contract, flag, default in (("Solo H", "laufende_mode=only_if_holder_wins", "runaway_count_at=lead"),
                                    ("solo  h", "LAUFENDE_MODE = Only_If_Holder_Wins", "Runaway_Count_At=LEAD")):
        args = ["match", "-g", "sk", "--bots", "random,random,random,random", "-n", "1", "-c", contract,
                "--variant", flag, "--variant", default]  # a flag given at its default is said too
        text = runner.invoke(app, args)
        assert text.exit_code == 0, text.output
        assert ("seats 1-4: random, random, random, random, each rotation one seat on; contract Solo H, "
                "declarer 1; variant: laufende_mode=only_if_holder_wins, runaway_count_at=lead\n") in text.stdout
        document = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
        assert document["contract"] == "Solo H"
        assert document["variant"] == {"laufende_mode": "only_if_holder_wins", "runaway_count_at": "lead"}


def test_the_card_time_is_said_as_a_deadline_after_the_first_sample():
    """The first sample always finishes (a Zwanzigerrufen opening lead can take 0.7 s under a deadline of 0.001 s), so
    the setup line and ``--help`` say what the deadline is, not ``at most 0.05 s a card``."""
    from typer.testing import CliRunner

    from solver.cli.main import app

    bots = [make_bot("sampling:1", seed=2, time_limit=0.001), *[make_bot("random", seed=2)] * 2]
    result = play_match("kratzen", bots, boards=1, seed=2)
    assert ("sampling:1 (1 sample a card, plays for the score as attacker, else its own tricks, deadline 0.001 s a "
            "card (its first sample always finishes))") in str(result)
    assert "at most" not in str(result)
    shown = CliRunner().invoke(app, ["match", "--help"], env={"COLUMNS": "200"})
    assert ("Time limit, in seconds, of each sampling bot's choice of a card: past it (its deadline) the bot stops "
            "sampling, but its first sample always finishes, so a card takes at least one sample's search (may be "
            "longer)") \
        in " ".join(shown.stdout.split())


def test_a_checkpoint_is_not_resumed_by_a_match_with_another_card_time(tmp_path):
    """The checkpoint's identity left out the sampling bot's deadline a card, which changes its play: a rerun with
    another --card-time took the boards played under the first as its own."""
    journal = tmp_path / "match.ckpt"
    untimed = [make_bot("sampling:2"), make_bot("random"), make_bot("random")]
    timed = [make_bot("sampling:2", time_limit=30.0), make_bot("random"), make_bot("random")]
    play_match("kratzen", untimed, boards=1, seed=3, checkpoint=journal)
    with pytest.warns(StichWarning, match="holds 1 other match"):
        play_match("kratzen", timed, boards=1, seed=3, checkpoint=journal)
    play_match("kratzen", untimed, boards=1, seed=3, checkpoint=journal)  # its own boards, read back
    headers = [json.loads(line) for line in journal.read_text().splitlines() if "stich-analysis" in line]
    assert [header["match"]["bots"][0] for header in headers] == [["sampling:2", 2, 1, "score"],
                                                                  ["sampling:2", 2, 1, "score", 30.0]]
    assert len(journal.read_text().splitlines()) == 4  # two headers, one board each


def test_a_checkpoint_of_other_matches_only_says_so_as_the_match_starts_beside_them(tmp_path):
    """A checkpoint that holds other matches and not this one is appended to afresh: a StichWarning says how many it
    holds and that they are not resumed (a rerun with one setting changed would otherwise start over unsaid); one
    that holds this match says nothing, whatever else it holds."""
    journal = tmp_path / "match.ckpt"
    bots = [make_bot("random"), make_bot("random"), make_bot("random")]
    play_match("kratzen", bots, boards=1, seed=3, checkpoint=journal)
    with pytest.warns(StichWarning, match="holds 1 other match"):
        play_match("kratzen", bots, boards=1, seed=4, checkpoint=journal)
    with pytest.warns(StichWarning) as told:
        play_match("kratzen", bots, boards=1, seed=5, checkpoint=journal)
    assert [str(warning.message) for warning in told] == [
        f"{journal}: holds 2 other matches, not resumed (their bots or settings differ); this run starts afresh beside "
        "them, which stay in the file"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", StichWarning)
        play_match("kratzen", bots, boards=2, seed=3, checkpoint=journal)  # this match, resumed and played on


def test_an_old_card_time_0_checkpoint_is_resumed_by_sampling_1(tmp_path):
    """``--card-time 0`` once meant a deadline already past: each card on its first sample, which always finishes
    (a deadline of a nanosecond plays so now). Its checkpoint, whose header keeps the deadline 0.0, is resumed by the
    match of ``sampling:1`` without one, which plays every card the same: nothing is played or written again."""
    journal = tmp_path / "old.ckpt"
    past = [SamplingBot(samples=2, time_limit=1e-9), make_bot("random"), make_bot("random")]
    play_match("kratzen", past, boards=2, seed=3, checkpoint=journal)
    rows = [json.loads(row) for row in journal.read_text().splitlines()]
    assert rows[0]["match"]["bots"][0] == ["sampling:2", 2, 1, "score", 1e-9]
    rows[0]["match"]["bots"][0][4] = 0.0  # as --card-time 0 wrote it
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    written = journal.read_text()
    now = [make_bot("sampling:1"), make_bot("random"), make_bot("random")]
    fresh = play_match("kratzen", now, boards=2, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", StichWarning)  # its own match: no note of another
        resumed = play_match("kratzen", now, boards=2, seed=3, checkpoint=journal)
    assert journal.read_text() == written
    assert resumed.deals == fresh.deals and len(resumed.deals) == 6


def _old_card_time_0(journal, bots, first=None):
    """A match checkpoint of ``bots`` (seed 3, two boards) whose first bot's header says a deadline of 0.0, as
    ``--card-time 0`` wrote it, its name ``first`` where given; the file's text."""
    play_match("kratzen", bots, boards=2, seed=3, checkpoint=journal)
    rows = [json.loads(row) for row in journal.read_text().splitlines()]
    rows[0]["match"]["bots"][0][4] = 0.0
    if first is not None:
        rows[0]["match"]["bots"][0][0] = first
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return journal.read_text()


@pytest.mark.parametrize("first", ["sampling_mine", "sampling:3"])
def test_an_old_card_time_0_checkpoint_of_a_bot_not_the_built_in_sampling_bot_is_not_resumed(tmp_path, first):
    """Only the built-in sampling bot's deadline of 0 was the old one sample a card: a bot of another name (a plugin's
    ``sampling_mine``, or ``sampling:3`` of a bot of 2 samples) is another match, played afresh beside it."""
    journal = tmp_path / "old.ckpt"
    written = _old_card_time_0(journal, [SamplingBot(samples=2, time_limit=1e-9), make_bot("random"),
                                         make_bot("random")], first)
    now = [make_bot("sampling:1"), make_bot("random"), make_bot("random")]
    with pytest.warns(StichWarning) as told:
        play_match("kratzen", now, boards=2, seed=3, checkpoint=journal)
    assert [str(warning.message) for warning in told] == [
        f"{journal}: holds 1 other match, not resumed (its bots or settings differ); this run starts afresh beside it, "
        "which stays in the file"]
    assert journal.read_text().startswith(written) and len(journal.read_text().splitlines()) == 6


def test_an_old_card_time_0_checkpoint_of_a_bot_with_a_source_is_not_resumed(tmp_path):
    """A header whose sampling bot names its source (a bot of one's own, named as the built-in one) is another match:
    its deadline of 0 means what that bot makes of it."""
    journal = tmp_path / "old.ckpt"
    _old_card_time_0(journal, [SamplingBot(samples=2, time_limit=1e-9), make_bot("random"), make_bot("random")])
    rows = [json.loads(row) for row in journal.read_text().splitlines()]
    rows[0]["match"]["bots"][0].append({"bot": "my_bots:Sampling"})
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.warns(StichWarning, match="holds 1 other match, not resumed"):
        play_match("kratzen", [make_bot("sampling:1"), make_bot("random"), make_bot("random")], boards=2, seed=3,
                   checkpoint=journal)
    assert len(journal.read_text().splitlines()) == 6


def test_an_old_card_time_0_line_that_decided_a_card_on_two_samples_is_refused(tmp_path):
    """A line under a header of deadline 0 whose cards took more than one sample was not played one sample a card:
    the match of sampling:1 refuses it, naming the line, rather than take its boards as its own."""
    journal = tmp_path / "old.ckpt"
    written = _old_card_time_0(journal, [SamplingBot(samples=2, time_limit=30.0), make_bot("random"),
                                         make_bot("random")])
    with pytest.raises(StichError) as refused:
        play_match("kratzen", [make_bot("sampling:1"), make_bot("random"), make_bot("random")], boards=2, seed=3,
                   checkpoint=journal)
    assert str(refused.value) == (
        f"{journal}:2:1: this checkpoint line of board 1 decided a card on more than one sample, so its header's "
        "deadline of 0 was no old --card-time 0 and the line is not this match's; remove the line (a rerun plays its "
        "board again) or choose another file")
    assert journal.read_text() == written


def test_an_old_card_time_0_match_resumed_is_one_other_match_to_another(tmp_path):
    """Resumed by sampling:1, an old --card-time 0 match has two headers in the file, its old one and its own now:
    one match, counted once by a match that is neither."""
    journal = tmp_path / "old.ckpt"
    _old_card_time_0(journal, [SamplingBot(samples=2, time_limit=1e-9), make_bot("random"), make_bot("random")])
    now = [make_bot("sampling:1"), make_bot("random"), make_bot("random")]
    play_match("kratzen", now, boards=3, seed=3, checkpoint=journal)  # one board more: under its own header
    assert sum('"stich-analysis"' in line for line in journal.read_text().splitlines()) == 2
    with pytest.warns(StichWarning) as told:
        play_match("kratzen", now, boards=1, seed=4, checkpoint=journal)
    assert [str(warning.message) for warning in told] == [
        f"{journal}: holds 1 other match, not resumed (its bots or settings differ); this run starts afresh beside it, "
        "which stays in the file; a sampling bot's card_time 0.0 there is an old --card-time 0, one sample a card "
        "(--card-time 0 is no deadline now): with the bot sampling:1 in its place a match of the same settings "
        "resumes it"]


def test_a_match_names_the_analyses_a_checkpoint_holds_as_analyses(tmp_path):
    """A match on a checkpoint of analyses says what they are, not "other matches", and starts beside them."""
    from solver.sampling import analyse_hand

    journal = tmp_path / "a.ckpt"
    analyse_hand("kratzen", "EA G7 HA HK", 1, "Trump H", seats=4, samples=2, seed=1, workers=1, checkpoint=journal)
    with pytest.warns(StichWarning, match="holds 1 other analysis, not resumed"):
        analyse_hand("kratzen", "EA G7 HA HK", 1, "Trump H", seats=4, samples=2, seed=2, workers=1,
                     checkpoint=journal)
    with pytest.warns(StichWarning) as told:
        play_match("kratzen", [make_bot("random")] * 3, boards=1, seed=3, checkpoint=journal)
    assert [str(warning.message) for warning in told] == [
        f"{journal}: holds 2 analyses, not resumed (a match resumes only its own boards); this run starts afresh "
        "beside them, which stay in the file"]
    with pytest.warns(StichWarning) as told:
        play_match("kratzen", [make_bot("random")] * 3, boards=1, seed=4, checkpoint=journal)
    assert [str(warning.message) for warning in told] == [
        f"{journal}: holds 1 other match and 2 analyses, not resumed (a match resumes only its own boards); this run "
        "starts afresh beside them, which stay in the file"]


def test_the_cli_match_names_an_old_card_time_0_in_a_checkpoint_it_does_not_resume(tmp_path):
    """A checkpoint keyed with ``--card-time 0`` as 0.0 holds the old meaning of 0, one sample a card (a deadline
    already past), where 0 means no deadline: it is not the match of ``sampling:2 --card-time 0``, and stderr says so
    in one line, naming that old meaning and ``sampling:1``, which plays and resumes it."""
    from test_cli import run

    journal = tmp_path / "m.ckpt"
    args = ("match", "--game", "kratzen", "--bots", "sampling:2,random,random", "-n", "1", "-j", "1",
            "--checkpoint", journal)
    run(*args, "--card-time", "1e-9")  # one sample a card, as --card-time 0 played
    rows = [json.loads(row) for row in journal.read_text().splitlines()]
    assert rows[0]["match"]["bots"][0] == ["sampling:2", 2, 1, "score", 1e-9]
    rows[0]["match"]["bots"][0][4] = 0.0  # as --card-time 0 wrote it
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    rerun = run(*args, "--card-time", "0")
    said = [line for line in rerun.stderr.splitlines() if "other match" in line]
    assert said == [f"stich: match: {journal}: holds 1 other match, not resumed (its bots or settings differ); this "
                    "run starts afresh beside it, which stays in the file; a sampling bot's card_time 0.0 there is an "
                    "old --card-time 0, one sample a card (--card-time 0 is no deadline now): with the bot sampling:1 "
                    "in its place a match of the same settings resumes it"]
    assert "other match" not in run(*args, "--card-time", "0").stderr  # its own match now: resumed, unsaid
    # as the note says: sampling:1 resumes the old match's board, played again by nothing
    lines = journal.read_text().count("\n")
    resumed = run(*[("sampling:1,random,random" if arg == "sampling:2,random,random" else arg) for arg in args])
    assert "other match" not in resumed.stderr and journal.read_text().count("\n") == lines


def test_a_checkpoint_of_sampling_n_before_the_rename_is_still_resumed(tmp_path):
    """``sampling:N`` at the match's sample count is named ``sampling``; a checkpoint written under the old name is
    still this match's, so a rerun resumes its spans instead of playing every board again."""
    journal = tmp_path / "match.ckpt"
    old = [SamplingBot(samples=2, name="sampling:2"), make_bot("random"), make_bot("random")]
    first = play_match("kratzen", old, boards=2, seed=3, checkpoint=journal)
    lines = len(journal.read_text().splitlines())
    new = [make_bot("sampling:2", samples=2), make_bot("random"), make_bot("random")]
    assert new[0].name == "sampling"
    again = play_match("kratzen", new, boards=2, seed=3, checkpoint=journal)
    assert [deal.payments for deal in again.deals] == [deal.payments for deal in first.deals]
    # no board played again, so nothing written: a header goes out only with a board
    assert len(journal.read_text().splitlines()) == lines


def test_a_checkpoint_of_sampling_n_resumed_in_part_counts_one_bot_as_one_kind(tmp_path):
    """Resumed in part, the boards of such a checkpoint take the bots' names in their deals, as the new boards have
    them: one bot is one kind (not ``sampling:2`` and ``sampling`` with 3 seats each), and the match has its difference
    line."""
    journal = tmp_path / "match.ckpt"
    old = [SamplingBot(samples=2, name="sampling:2"), make_bot("random"), make_bot("random")]
    play_match("kratzen", old, boards=1, seed=3, pot=3, checkpoint=journal)
    new = [make_bot("sampling:2", samples=2), make_bot("random"), make_bot("random")]
    again = play_match("kratzen", new, boards=2, seed=3, pot=3, checkpoint=journal)
    assert list(again.bots) == ["sampling", "random"] and again.seats == {"sampling": 6, "random": 12}
    assert again.deals[0].bots == ("sampling", "random", "random") and again.deals[1].bots[1] == "sampling"
    assert again.difference is not None and again.difference[:2] == ("sampling", "random")


def test_a_match_resumed_under_another_engine_build_says_it_mixes_builds(tmp_path, monkeypatch):
    """Every board a checkpoint keeps names its engine build, so that a match resumed after an upgrade, mixing the
    boards of two builds, says so instead of reporting them as one result."""
    import json

    import solver.match as match_module

    bots = [make_bot("random"), make_bot("random"), make_bot("random")]
    journal = tmp_path / "match.ckpt"
    monkeypatch.setattr(match_module, "engine_build", lambda: "0123456789ab")
    part = play_match("kratzen", bots, boards=3, seed=3, pot=12, checkpoint=journal, time_limit=1e-9)
    assert part.engine_builds == {"0123456789ab": 1}
    assert json.loads(journal.read_text().splitlines()[1])["sums"]["engine"] == "0123456789ab"
    assert play_match("kratzen", bots, boards=1, seed=3, pot=12, checkpoint=journal).engine_builds \
        == {"0123456789ab": 1}  # the same build: nothing mixed
    monkeypatch.setattr(match_module, "engine_build", lambda: "fedcba987654")
    told: list[str] = []
    resumed = play_match("kratzen", bots, boards=3, seed=3, pot=12, checkpoint=journal, notice=told.append)
    assert resumed.engine_builds == {"fedcba987654": 2, "0123456789ab": 1}
    # said when the resume starts, not only in the report (a user could stop it and start a new checkpoint)
    assert told == [f"{journal}: holds boards played by another engine build, resumed (1 by 0123456789ab; this one "
                    "is fedcba987654); the match will mix builds"]
    told.clear()  # nothing left to play: the report says what was mixed, the resume has nothing to add
    assert play_match("kratzen", bots, boards=3, seed=3, pot=12, checkpoint=journal, notice=told.append).engine_builds \
        == {"fedcba987654": 2, "0123456789ab": 1} and told == []
    assert resumed.as_dict()["engine_builds"] == {"fedcba987654": 2, "0123456789ab": 1}
    assert match_module.mixed_builds_text(resumed.engine_builds) == ("boards by 2 engine builds: 2 by fedcba987654 "
                                                                      "(this one), 1 by 0123456789ab")
    # a checkpoint written before builds were recorded: its boards are of an unknown build
    rows = [json.loads(row) for row in journal.read_text().splitlines()]
    for row in rows:
        row.get("sums", {}).pop("engine", None)
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    told.clear()
    unrecorded = play_match("kratzen", bots, boards=4, seed=3, pot=12, checkpoint=journal,
                            notice=told.append).engine_builds
    assert unrecorded == {"fedcba987654": 1, "unknown": 3}
    # those boards may be this build's: the resume and the report say so, not that another build played them
    assert told == [f"{journal}: holds boards played by a build the checkpoint did not record (perhaps another), "
                    "resumed (3 boards; this one is fedcba987654); the match may mix builds"]
    assert match_module.mixed_builds_text(unrecorded) == ("boards by 1 or 2 engine builds: 1 by fedcba987654 (this "
                                                          "one), 3 by a build the checkpoint did not record (perhaps "
                                                          "another)")
    # one wording in both, said once
    assert told[0].count(match_module.UNRECORDED_BUILD) == 1
    assert match_module.mixed_builds_text(unrecorded).endswith(f"3 by {match_module.UNRECORDED_BUILD}")


def test_the_cli_match_says_on_stderr_and_in_its_report_that_a_resume_mixed_builds(tmp_path):
    import json

    from test_cli import run

    journal = tmp_path / "m.ckpt"
    args = ("match", "--game", "kratzen", "--bots", "random,random,random", "-n", "2", "--pot", "6", "-j", "1",
            "--checkpoint", journal)
    first = run(*args, "--json")
    assert "engine builds" not in first.stderr and len(json.loads(first.stdout)["engine_builds"]) == 1
    rows = [json.loads(row) for row in journal.read_text().splitlines()]
    rows[1]["sums"]["engine"] = "0123456789ab"  # board 1 played by another build
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    longer = run(*[("3" if arg == "2" else arg) for arg in args])  # a board left to play, by this build
    assert longer.stderr.startswith(f"stich: match: {journal}: holds boards played by another engine build, resumed "
                                    "(1 by 0123456789ab; this one is ")  # when it starts: the report's words last
    assert "; the match will mix builds; a new --checkpoint FILE plays the match on one build\n" in longer.stderr
    assert "boards by 2 engine builds: 2 by " in longer.stderr.splitlines()[-1]
    text = run(*args)  # nothing left to play: the report alone says it
    said = "boards by 2 engine builds: 1 by "
    assert "holds boards played" not in text.stderr
    # the report says the fact; what to do about it is a message, on stderr alone
    assert "note: " + said in text.stdout and "(this one), 1 by 0123456789ab (a checkpoint resumed after an " \
        "upgrade)\n" in text.stdout and "--checkpoint" not in text.stdout
    assert "stich: match: " + said in text.stderr and text.stderr.endswith(
        "(a checkpoint resumed after an upgrade); a new --checkpoint FILE plays the match on one build\n")
    assert "stich: match: " + said in run(*args, "--json").stderr


def test_a_kratzen_match_without_a_pot_says_its_payments_say_nothing_in_text_and_json():
    """A pot of 0 is said on stderr, the messages' stream, in text and ``--json`` alike (the document has no notes):
    stdout is the report alone. A pot is asked for only where none was given: ``--pot 0`` is noted alone."""
    import json

    from test_cli import run

    args = ("match", "--game", "kratzen", "--bots", "random,random,random", "-n", "2", "-j", "1")
    note = "pot 0: every deal settles at 0 chips, so the bots' payments say nothing (--pot CHIPS)"
    text = run(*args)
    assert note not in text.stdout and text.stderr == f"stich: match: {note}\n"
    document = run(*args, "--json")
    assert document.stderr == f"stich: match: {note}\n"
    assert json.loads(document.stdout)["pot"] is None
    assert run(*args, "--json", "--pot", "6").stderr == ""
    assert run(*args, "--pot", "0").stderr == (  # given on purpose: not asked for
        "stich: match: pot 0: every deal settles at 0 chips, so the bots' payments say nothing\n")


def test_one_sampling_bot_has_one_name_however_its_count_is_spelled():
    """``sampling`` and ``sampling:50`` (the default count) are the same bot, so a match between them reports one kind,
    not two with a difference of exactly 0 as if two bots had been compared."""
    assert make_bot("sampling").name == make_bot("sampling:50").name == make_bot("Sampling:050").name == "sampling"
    assert make_bot("sampling:20", samples=20).name == "sampling"  # --samples 20 makes sampling the 20-sample bot
    assert [make_bot(spec).name for spec in ("sampling:20", "sampling:020", "sampling:100")] \
        == ["sampling:20", "sampling:20", "sampling:100"]
    assert make_bot("sampling:20").samples == 20 and make_bot("sampling", samples=7).samples == 7


def test_a_match_between_two_spellings_of_one_bot_counts_one_kind_and_says_so():
    from test_cli import run

    result = run("match", "--game", "kratzen", "--bots", "sampling,sampling:2,random", "--samples", "2", "-n", "1",
                 "--pot", "6", "-j", "1", "--plays-for", "tricks", "--json")
    assert "stich: match: sampling and sampling:2 are one bot, sampling (2 samples a card): counted as one kind of " \
        "bot" in result.stderr
    document = json.loads(result.stdout)
    assert list(document["bots"]) == ["sampling", "random"] and document["bots"]["sampling"]["seats"] == 6
    assert document["difference"]["first"] == "sampling" and document["difference"]["second"] == "random"


def test_a_long_match_summarises_for_its_progress_at_most_every_progress_seconds(monkeypatch):
    """progress is called at most every PROGRESS_SECONDS, not with a summary of every deal so far after each deal
    (quadratic in the boards: 2,000 boards of random bots would take 146 s, 500 take 7.9), and once more with every deal
    played when an interrupt ends the match (the CLI's Ctrl-C report is that last summary)."""
    import solver.match as match

    bots = [RandomBot(seed=1)] * 3
    calls: list[int] = []
    monkeypatch.setattr(match, "PROGRESS_SECONDS", 3600.0)
    result = play_match("kratzen", bots, boards=20, seed=1, pot=12,
                        progress=lambda so_far, total: calls.append(len(so_far.deals)))
    assert calls == [1] and len(result.deals) == 60  # the first deal's, then none within the hour

    class Interrupting(RandomBot):
        def choose(self, position):
            if position.record.get("Board") == "4":
                raise KeyboardInterrupt
            return super().choose(position)

    calls.clear()
    with pytest.raises(KeyboardInterrupt):
        play_match("kratzen", [Interrupting(seed=1)] * 3, boards=20, seed=1, pot=12,  # one kind of bot, one class
                   progress=lambda so_far, total: calls.append(len(so_far.deals)))
    assert calls == [1, 9]  # the last call has every deal of the three boards played


def test_an_interrupt_while_the_checkpoint_is_checked_ends_the_match_before_anything_is_said(tmp_path, monkeypatch):
    """The checkpoint's lines are checked outside the part of the match that reports the match so far at an interrupt:
    as the docstring says, an interrupt there ends the match before any deal is handed on or written, with no call of
    ``progress`` (``match --json`` writes nothing, the checkpoint is as it was)."""
    from test_cli import run

    from solver.checkpoint import Journal

    journal, _ = _kratzen_checkpoint(tmp_path, 2)
    kept = journal.read_text()

    def interrupted(self):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(Journal, "done_lines", interrupted)
    stopped = run(*RANDOM_KRATZEN, "-n", "3", "--checkpoint", journal, code=130)
    assert stopped.stdout == "" and journal.read_text() == kept  # no deal streamed, no board written
    assert "interrupt during that check ends the" in " ".join(play_match.__doc__.split())


@pytest.mark.parametrize("as_json", [True, False])
def test_match_interrupted_while_the_checkpoint_is_checked_says_so_on_stderr(tmp_path, monkeypatch, as_json):
    """``stich match`` stopped by Ctrl-C before any board (its checkpoint's lines being checked) says in one line on
    stderr that it stopped before any board was played, with or without ``--json``, and exits 130."""
    from test_cli import run

    from cli.match import STOPPED_BEFORE_PLAY
    from solver.checkpoint import Journal

    journal, _ = _kratzen_checkpoint(tmp_path, 2)

    def interrupted(self):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(Journal, "done_lines", interrupted)
    arguments = RANDOM_KRATZEN if as_json else RANDOM_KRATZEN[:-1]
    stopped = run(*arguments, "-n", "3", "--checkpoint", journal, code=130)
    assert stopped.stdout == ""
    assert stopped.stderr.splitlines() == [STOPPED_BEFORE_PLAY]
    assert STOPPED_BEFORE_PLAY == ("stich: match: stopped by the interrupt before any board was played "
                                   "(nothing written)")


def test_a_match_checkpoint_resumes_whatever_way_the_variant_is_spelt(tmp_path):
    """The match's checkpoint is keyed by the variant as the game reads it, so ``{"weli_also_bells": True}`` (the API)
    and ``weli_also_bells=true`` (``--variant``) resume each other; one keyed by the variant as given is resumed too."""
    import json

    from solver.checkpoint import HEADER, _key_of

    bots = [make_bot("random"), make_bot("random"), make_bot("random")]
    ask = dict(boards=4, seed=3, rotate=False)
    whole = play_match("kratzen", bots, variant={"weli_also_bells": True}, **ask)
    journal = tmp_path / "match.ckpt"
    part = play_match("kratzen", bots, variant={"weli_also_bells": True}, checkpoint=journal, time_limit=1e-9, **ask)
    assert part.stopped == "time limit" and len(part.deals) == 1
    resumed = play_match("kratzen", bots, variant="Weli_Also_Bells=TRUE", checkpoint=journal, **ask)
    assert (resumed.deals, resumed.bots) == (whole.deals, whole.bots)
    assert len([line for line in journal.read_text().splitlines() if HEADER in json.loads(line)]) == 1

    # a checkpoint written under the old key, the variant as the CLI gave it
    old = tmp_path / "old.ckpt"
    play_match("kratzen", bots, variant={"weli_also_bells": True}, checkpoint=old, time_limit=1e-9, **ask)
    lines = [json.loads(line) for line in old.read_text().splitlines()]
    identity = {name: value for name, value in lines[0].items() if name not in (HEADER, "key")}
    identity["match"]["variant"] = {"weli_also_bells": "true"}
    key = _key_of(identity)
    old.write_text("".join(json.dumps({**line, "key": key} | ({"match": identity["match"]} if HEADER in line else {}))
                           + "\n" for line in lines))
    resumed = play_match("kratzen", bots, variant={"weli_also_bells": "true"}, checkpoint=old, **ask)
    assert (resumed.deals, resumed.bots) == (whole.deals, whole.bots)
    spans = [json.loads(line) for line in old.read_text().splitlines() if HEADER not in json.loads(line)]
    assert len(spans) == 4 and spans[0]["key"] == key  # the old board read back, not played again


def test_a_match_setup_from_the_api_spells_the_contract_and_flags_as_the_game_reads_them():
    """``play_match`` itself spells the setup (not only ``stich match``): an API user's result and report say
    ``Solo H`` and ``true`` for ``"solo  h"`` and ``YES``, a flag at its default kept."""
    from solver.match import match_report

    bots = [make_bot("random") for _ in range(4)]
    result = play_match("schafkopf", bots, boards=1, contract="solo  h",
                        variant={"Laufende_Mode": "ONLY_IF_HOLDER_WINS", "runaway_count_at": "LEAD"})
    assert result.setup is not None
    assert (result.setup.contract, result.setup.variant) == (
        "Solo H", (("laufende_mode", "only_if_holder_wins"), ("runaway_count_at", "lead")))
    said = ("seats 1-4: random, random, random, random, each rotation one seat on; contract Solo H, "
            "declarer 1; variant: laufende_mode=only_if_holder_wins, runaway_count_at=lead")
    assert match_report(result).setup == said
    assert said in str(result)
    kratzen = play_match("kratzen", bots[:3], boards=1, variant="weli_also_bells=YES")
    assert kratzen.setup is not None and kratzen.setup.variant == (("weli_also_bells", "true"),)


def test_a_match_checkpoint_resumes_whatever_way_the_contract_is_spelt(tmp_path):
    """A checkpoint is keyed by the contract as the game reads it: ``-c "solo  h"`` then ``-c "Solo H"`` resume one
    match; one keyed by the contract as typed (written before) is still resumed."""
    import json

    from solver.checkpoint import HEADER, _key_of

    bots = [make_bot("random") for _ in range(4)]
    ask = dict(boards=3, seed=5, rotate=False)
    whole = play_match("schafkopf", bots, contract="Solo H", **ask)
    journal = tmp_path / "match.ckpt"
    part = play_match("schafkopf", bots, contract="solo  h", checkpoint=journal, time_limit=1e-9, **ask)
    assert part.stopped == "time limit" and len(part.deals) == 1
    resumed = play_match("schafkopf", bots, contract="Solo H", checkpoint=journal, **ask)
    assert (resumed.deals, resumed.bots) == (whole.deals, whole.bots)
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert len([line for line in lines if HEADER in line]) == 1 and len(lines) == 1 + 3

    # a checkpoint written under the old key, the contract as typed
    old = tmp_path / "old.ckpt"
    play_match("schafkopf", bots, contract="Solo H", checkpoint=old, time_limit=1e-9, **ask)
    lines = [json.loads(line) for line in old.read_text().splitlines()]
    identity = {name: value for name, value in lines[0].items() if name not in (HEADER, "key")}
    identity["match"]["contract"] = "solo  h"
    key = _key_of(identity)
    old.write_text("".join(json.dumps({**line, "key": key} | ({"match": identity["match"]} if HEADER in line else {}))
                           + "\n" for line in lines))
    resumed = play_match("schafkopf", bots, contract="solo  h", checkpoint=old, **ask)
    assert (resumed.deals, resumed.bots) == (whole.deals, whole.bots)
    spans = [json.loads(line) for line in old.read_text().splitlines() if HEADER not in json.loads(line)]
    assert len(spans) == 3 and spans[0]["key"] == key  # the old board read back, not played again


def test_a_numpy_declarer_makes_a_match_whose_report_is_json():
    """play_match reads a numpy declarer as the int it stands for, as every seat is, so the report's as_dict() goes
    through json.dumps."""
    import numpy as np

    bots = [RandomBot(seed=seat) for seat in range(4)]
    result = play_match("schafkopf", bots, boards=1, declarer=np.int64(2), rotate=False, contract="Rufer E")
    document = json.loads(json.dumps(result.as_dict()))
    assert document["declarer"] == 2 and type(result.setup.declarer) is int


def test_a_match_takes_the_objective_by_the_name_every_command_gives_it():
    """``-o/--objective`` names what a search plays for in every other command; match called it --plays-for only:
    ``-o tricks`` is the same match as ``--plays-for tricks``."""
    from test_cli import run

    common = ["match", "--game", "kratzen", "--bots", "cheater,random,random", "-n", "1", "--pot", "6", "-j", "1",
              "--json"]
    named = json.loads(run(*common, "--plays-for", "tricks").stdout)
    short = json.loads(run(*common, "-o", "tricks").stdout)
    assert short == named and short["bots"]["cheater"]


def test_a_kratzen_match_names_its_measure_tricks_as_solve_does(tmp_path):
    """One meaning per flag: as solve, tree and postmortem do, match takes -o tricks for Kratzen (the bots' "points", so
    a checkpoint written with -o points resumes under -o tricks) and refuses -o points for Kratzen, and tricks for a
    game with card points, in solve's words."""
    from test_cli import run

    common = ["match", "--game", "kratzen", "--bots", "cheater,random,random", "-n", "1", "--pot", "6", "-j", "1"]
    played = run(*common, "-o", "tricks")
    assert "seats 1-3: cheater (plays for its own tricks), random, random, " in played.stdout
    # the JSON says the name the command takes (not "points", which -o refuses for Kratzen); the checkpoint's
    # identity keeps the bots' word, "points", so that older checkpoints still resume
    assert json.loads(run(*common, "-o", "tricks", "--json").stdout)["bots"]["cheater"]["plays_for"] == "tricks"
    journal = tmp_path / "k.ckpt"
    run(*common, "-o", "tricks", "--checkpoint", journal)
    assert json.loads(journal.read_text().splitlines()[0])["match"]["bots"][0] == ["cheater", None, None, "points"]
    refused = run(*common, "-o", "points", code=2)
    assert refused.stdout == "" and "objective 'points' belongs to Schafkopf and Zwanzigerrufen, not to Kratzen " \
        "(for Kratzen choose from: score, tricks)" in " ".join(refused.stderr.replace("│", "").split())
    other = run("match", "--game", "schafkopf", "--bots", "random,random,random,random", "-n", "1", "-o", "tricks",
                code=2)
    assert "objective 'tricks' belongs to Kratzen, not to Schafkopf (for Schafkopf choose from: score, points)" \
        in " ".join(other.stderr.replace("│", "").split())
    # the bots' plays_for, not the flag's name, is the checkpoint's identity: a checkpoint of -o points resumes
    checkpoint = tmp_path / "k.jsonl"
    bots = [make_bot("cheater", seed=1, plays_for="points"), make_bot("random"), make_bot("random")]
    play_match("kratzen", bots, boards=1, seed=1, pot=6, checkpoint=checkpoint)
    resumed = run(*common, "-n", "2", "-o", "tricks", "--checkpoint", checkpoint, "--json")
    assert json.loads(resumed.stdout)["bots"]["cheater"]["count"] == 2
    assert len(checkpoint.read_text().splitlines()) == 3  # the header and one line a board: board 1 was not replayed


#: ``stich match``'s output of this match as a run that keeps every deal prints it: the report, and a
#: digest of its JSON document without ``engine_builds`` (``json.dumps(document, sort_keys=True)``: the keys' order in
#: the line is free; the engine's build differs from one compiled copy to another)
FROZEN_MATCH = ("match", "--game", "kratzen", "--bots", "random,cheater,random", "-n", "5", "--pot", "3", "--seed",
                "11", "-o", "tricks")
FROZEN_REPORT = """\
Kratzen: 5 boards (seed 11), each played 3 times with the bots rotated; pot 3
seats 1-3: random, cheater (plays for its own tricks), random, each rotation one seat on; \
each board's own contract, attacker 1; variant: the game's defaults
mean payment per seat and deal (± 95% intervals) 
┏━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━┓
┃ bot     ┃ seats played ┃ mean payment (chips) ┃
┡━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━┩
│ random  │           30 │         -2.40 ± 1.11 │
│ cheater │           15 │         -1.40 ± 0.68 │
└─────────┴──────────────┴──────────────────────┘
attacker seat 1: -4.00 (95%: -7.04 to -0.96) chips per deal, his own payment
random - cheater: -1.00 (95%: -2.24 to +0.24) chips per deal, paired (the same cards)
95% intervals over 5 boards, one value a board (its mean over the rotations)
"""
# the random bots' means moved once: a card the cheater played stayed in position.played as a result's CardIndex,
# whose repr (its name) entered the random bots' seed (test_a_bot_s_choice_is_a_function_of_the_position_...)
FROZEN_DOCUMENT_SHA256 = "df11683d4f3b8a1e2ca86a097f9ede0d72feeda0bc9f2bdd01de749c3e3e48dc"


def _stich(*args: str) -> str:
    import os
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", *args],
                          cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, COLUMNS="80"))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_match_that_keeps_no_deal_reports_and_writes_what_it_did_when_it_kept_them_all():
    """The CLI keeps no deal (the report needs one value a board and mean, --json writes each deal as it comes):
    its report and document are the ones it printed when it held every deal, on one process and on a pool (whose
    boards come in any order), and the document is the API's ``as_dict`` line for line."""
    import hashlib

    from cli.records import compact_json

    assert _stich(*FROZEN_MATCH, "-j", "1") == FROZEN_REPORT
    for workers in ("1", "2"):
        line = _stich(*FROZEN_MATCH, "-j", workers, "--json")
        document = json.loads(line)
        assert document.pop("engine_builds") == {engine_build(): 5}  # this copy's build played every board
        # the one value said otherwise since: Kratzen's measure by the name -o takes (the frozen line said "points")
        assert document["bots"]["cheater"]["plays_for"] == "tricks"
        document["bots"]["cheater"]["plays_for"] = "points"
        # and a key added since: the seats, as the setup line says them
        assert document.pop("seating") == ["random", "cheater", "random"]
        assert document.pop("split_boards") == 0  # every Kratzen seat plays for itself: no board is split
        assert hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest() == FROZEN_DOCUMENT_SHA256
    bots = [make_bot("random", seed=11), make_bot("cheater", seed=11, plays_for="points"),
            make_bot("random", seed=11)]
    kept = play_match("kratzen", bots, boards=5, seed=11, pot=3)
    assert line == compact_json(kept.as_dict()) + "\n"


def test_a_match_without_its_deals_has_the_same_means_and_hands_each_deal_on_in_board_order():
    bots = [make_bot("sampling:2"), make_bot("random"), make_bot("random")]
    kept = play_match("kratzen", bots, boards=6, seed=3, pot=2)
    told = []
    lean = play_match("kratzen", bots, boards=6, seed=3, pot=2, keep_deals=False, on_deal=told.append)
    assert lean.deals == () and lean.deals_played == 18 and lean.first_deal == kept.deals[0]
    assert tuple(told) == kept.deals
    assert (lean.bots, lean.declaring_side, lean.difference, lean.seats, lean.deals_counted) == (
        kept.bots, kept.declaring_side, kept.difference, kept.seats, kept.deals_counted)
    assert str(lean) == str(kept) and lean.summary_dict() == kept.summary_dict()
    with pytest.raises(StichError, match="keep_deals must be True or False, not 'no'"):
        play_match("kratzen", bots, keep_deals="no")  # type: ignore[arg-type]
    with pytest.raises(StichError, match="on_deal must be a function of a played deal"):
        play_match("kratzen", bots, on_deal=[])  # type: ignore[arg-type]


def test_a_resumed_match_hands_its_deals_on_in_board_order_across_the_checkpoints_gaps(tmp_path):
    """A pool's checkpoint can lack a board ahead of boards it has (the board in play at an interrupt): its deals
    are played on the resume, and the deals after it wait for them."""
    bots = [make_bot("sampling:2"), make_bot("random"), make_bot("random")]
    whole = play_match("kratzen", bots, boards=4, seed=3)
    journal = tmp_path / "match.ckpt"
    play_match("kratzen", bots, boards=4, seed=3, checkpoint=journal)
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if '"span": [2, 1]' not in line]
    assert len(kept) == len(lines) - 1
    journal.write_text("".join(kept), encoding="utf-8")
    told = []
    resumed = play_match("kratzen", bots, boards=4, seed=3, checkpoint=journal, keep_deals=False,
                         on_deal=told.append)
    assert tuple(told) == whole.deals and resumed.deals_played == 12
    assert resumed.summary_dict() == whole.summary_dict()


def test_board_order_holds_a_board_only_while_one_before_it_is_in_play():
    from solver.match import BoardOrder, PlayedDeal

    def deal(board: int, rotation: int) -> PlayedDeal:
        return PlayedDeal(board, rotation, ("a", "b"), "Sauspiel", 1, (1,), (), (0, 0))

    told: list[tuple[int, int]] = []
    order = BoardOrder(lambda d: told.append((d.board, d.rotation)), rotations=2)
    for board, rotation in [(1, 0), (3, 0), (3, 1), (1, 1), (2, 0), (4, 0)]:
        order.add(deal(board, rotation))
    assert told == [(1, 0), (1, 1), (2, 0)] and set(order.held) == {3, 4}
    order.add(deal(2, 1))
    assert told[3:] == [(2, 1), (3, 0), (3, 1), (4, 0)] and not order.held
    order.add(deal(6, 0))  # board 5 never played (an interrupt): flushed after it
    order.flush()
    assert told[-1] == (6, 0) and not order.held


#: A random bots' Kratzen match (its -n and --checkpoint left to add).
RANDOM_KRATZEN = ("match", "-g", "kratzen", "--bots", "random,random,random,random", "--seed", "3", "-j", "1",
                  "--pot", "10", "--json")


def _kratzen_checkpoint(tmp_path, boards: int):
    """The checkpoint of :data:`RANDOM_KRATZEN` played to ``boards`` boards, its lines parsed."""
    from test_cli import run

    journal = tmp_path / "m.ckpt"
    run(*RANDOM_KRATZEN, "-n", boards, "--checkpoint", journal)
    return journal, [json.loads(row) for row in journal.read_text().splitlines()]


@pytest.mark.parametrize("broken", [{}, {"deals": []}, {"deals": [{"board": 3}]}])
def test_a_bad_checkpoint_line_is_named_before_any_deal_is_written(tmp_path, broken):
    """Every checkpoint line is checked first, by its number, before any deal is written: a line whose deals do not
    read, found while the resumed deals stream, would leave --json's heading and two boards unterminated, with a message
    naming the file alone."""
    from test_cli import run

    journal, rows = _kratzen_checkpoint(tmp_path, 4)
    rows[3]["sums"] = broken  # board 3, line 4 (line 1 is the header)
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    failed = run(*RANDOM_KRATZEN, "-n", "6", "--checkpoint", journal, code=1)
    assert failed.stdout == ""
    assert failed.stderr == (f"stich: {journal}:4:1: this checkpoint line does not hold the played deals of board 3 "
                             "(4 a board)\n")


@pytest.mark.parametrize("field, value", [("bots", "rrrr"), ("board", 3.7), ("payments", ["1", 2, 3, 4]),
                                          ("play", "EA"), ("contract", 5), ("rotation", True)])
def test_a_played_deal_of_the_wrong_type_is_a_bad_checkpoint_line(tmp_path, field, value):
    """PlayedDeal.from_dict checks each field, so that a string for ``bots`` is not read as its characters nor a 3.7
    board cut to 3, resuming deals nobody played: the line is refused as any bad line is."""
    from test_cli import run

    journal, rows = _kratzen_checkpoint(tmp_path, 4)
    rows[3]["sums"]["deals"][0][field] = value
    with pytest.raises(StichError, match=repr(field)):
        PlayedDeal.from_dict(rows[3]["sums"]["deals"][0])
    journal.write_text("".join(json.dumps(row) + "\n" for row in rows))
    failed = run(*RANDOM_KRATZEN, "-n", "6", "--checkpoint", journal, code=1)
    assert failed.stdout == ""
    assert failed.stderr == (f"stich: {journal}:4:1: this checkpoint line does not hold the played deals of board 3 "
                             "(4 a board)\n")


def test_a_match_failing_midway_closes_its_json_document(tmp_path, monkeypatch):
    """A failure after deals are written (a bot's illegal card) closes the JSON document with the match so far,
    ``stopped`` "error", not leaving the line unterminated; the exit code is still 1."""
    from test_cli import SCHEMA, run, schema_errors

    import solver.match as match_module

    played = match_module.play_board

    def failing(board, **settings):
        if board == 3:
            raise StichError("board 3: an illegal card")
        return played(board, **settings)

    monkeypatch.setattr(match_module, "play_board", failing)
    journal = tmp_path / "m.ckpt"
    failed = run("match", "-g", "kratzen", "--bots", "random,random,random", "-n", "4", "-j", "1", "--pot", "6",
                 "--checkpoint", journal, "--json", code=1)
    document = json.loads(failed.stdout)
    assert schema_errors(document, SCHEMA) == []
    assert document["stopped"] == "error" and [deal["board"] for deal in document["deals"]] == [1, 1, 1, 2, 2, 2]
    assert document["declaring_side"]["deals"] == 6 and failed.stderr == "stich: board 3: an illegal card\n"


def test_an_interrupt_while_a_checkpoint_is_read_closes_the_json_document(tmp_path, monkeypatch):
    """Ctrl-C while the resumed deals stream closes --json: their load is inside the part of the match that reports the
    match so far at an interrupt."""
    from test_cli import run

    from solver.cli import match as match_cli  # the module test_cli.run runs

    journal, _ = _kratzen_checkpoint(tmp_path, 3)
    written = match_cli.JsonStream.deal

    def interrupted(stream, deal):
        written(stream, deal)
        if deal.board == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(match_cli.JsonStream, "deal", interrupted)
    stopped = run(*RANDOM_KRATZEN, "-n", "3", "--checkpoint", journal, code=130)
    document = json.loads(stopped.stdout)  # board 1 and the deal of board 2 written when Ctrl-C came
    assert document["stopped"] == "interrupt" and len(document["deals"]) == 5


def test_hand_built_sampling_bots_are_named_by_their_samples_and_one_name_is_one_kind_of_bot(tmp_path):
    """A SamplingBot is named as make_bot names it, by its samples, so that ``SamplingBot(samples=1)`` and
    ``SamplingBot(samples=8)`` are not counted as one kind of bot (12 seats of "sampling", no difference) nor the setup
    line say "1 samples a card" for both; two bots of one name that differ are refused, naming both."""
    assert [SamplingBot().name, SamplingBot(samples=8).name, SamplingBot(samples=8, name="deep").name] == [
        "sampling", "sampling:8", "deep"]
    result = play_match("kratzen", [SamplingBot(samples=1), SamplingBot(samples=8), RandomBot()], boards=2, seed=3,
                        pot=3)
    assert result.seats == {"sampling:1": 6, "sampling:8": 6, "random": 6}
    # in Kratzen only the attacker plays for the score (his payment), every other seat for its own tricks
    assert ("seats 1-3: sampling:1 (1 sample a card, plays for the score as attacker, else its own tricks), sampling:8 "
            "(8 samples a card, ") in str(result)
    same_name = [SamplingBot(samples=1, name="mine"), SamplingBot(samples=8, name="mine"), RandomBot()]
    with pytest.raises(StichError, match=r"^the bots at seats 1 and 2 are both named 'mine' but differ \(samples 1 "
                                         r"and 8\): a match counts its bots by name"):
        play_match("kratzen", same_name, boards=1, seed=3)
    with pytest.raises(StichError, match=r"named 'cheater' but differ \(plays_for score and points\)"):
        play_match("kratzen", [CheaterBot(), CheaterBot(plays_for="points"), RandomBot()], boards=1, seed=3)
    # one kind of bot in two seeds is one kind
    assert play_match("kratzen", [RandomBot(seed=1), RandomBot(seed=2), RandomBot(seed=3)], boards=1, seed=3).seats \
        == {"random": 9}  # 3 seats, 3 rotations
    # a checkpoint of such a bot written under its old name 'sampling' is this match's
    journal = tmp_path / "match.ckpt"
    play_match("kratzen", [SamplingBot(samples=2, name="sampling"), RandomBot(), RandomBot()], boards=1, seed=3,
               pot=3, checkpoint=journal)
    lines = len(journal.read_text().splitlines())
    again = play_match("kratzen", [SamplingBot(samples=2), RandomBot(), RandomBot()], boards=1, seed=3, pot=3,
                       checkpoint=journal)
    # its board read back, nothing written (a header goes out only with a board played)
    assert len(journal.read_text().splitlines()) == lines and again.seats == {"sampling:2": 3, "random": 6}


def test_a_kratzen_bot_asked_to_play_for_tricks_is_told_that_points_is_its_own_measure():
    """``solve`` names Kratzen's measure ``tricks``, so ``SamplingBot(plays_for="tricks")`` is refused with a message
    telling the bot's author that ``points`` is that measure there, not only "a bot plays for score or points". The bot
    playing for ``points`` in Kratzen does maximise the seat's own tricks (the checkpoint and the JSON keep the bots'
    word, ``points``)."""
    from solver.bots import objective_for

    with pytest.raises(StichError, match=r"^a bot plays for score or points \(the game's own measure: the card "
                                         r"points, or in Kratzen the seat's own tricks\), not 'tricks'$"):
        SamplingBot(plays_for="tricks")
    kratzen = position_from_record(random_record("kratzen", 7, 1))
    assert (objective_for(kratzen.rules, 1).name, objective_for(kratzen.rules, 1).maximiser) == ("tricks", {1})


def test_ctrl_c_at_a_slow_bot_says_which_bot_board_and_card_it_stopped():
    """A bot of one's own too slow to wait for is stopped with Ctrl-C: the interrupt's note says where the match was,
    naming the board, rotation, card, bot and seat, and ``progress`` still gets the match so far."""

    class Slow(_FailsOnCall):
        name = "slow"

        def choose(self, position):
            self.calls += 1
            if self.calls == self.fail_on:
                raise KeyboardInterrupt  # as Ctrl-C arrives in a long choose
            return next(iter(position.legal_cards()))

    so_far = []
    with pytest.raises(KeyboardInterrupt) as stopped:
        play_match("kratzen", [RandomBot(), Slow(19), RandomBot(seed=2)], boards=3, seed=5, pot=6,
                   progress=lambda result, total: so_far.append(result))
    assert stopped.value.__notes__ == ["board 2, rotation 1, card 9 (trick 3): bot slow at seat 3 was choosing"]
    assert so_far[-1].stopped == "interrupt" and so_far[-1].deals_counted == 3


def test_a_match_stopped_before_its_first_deal_says_how_many_deals_it_was_to_play():
    """Ctrl-C in the first deal (on several workers, before a board came back) leaves the report no deal to read the
    seats from, yet a rotated match of 40 boards at 4 seats says the 160 deals, 4 times each, it was to play, not "40
    boards (seed 1)" and "after 0 of 40 deals"."""
    from solver.match import match_report

    class Stops(_FailsOnCall):
        name = "stops"

        def choose(self, position):
            raise KeyboardInterrupt  # as Ctrl-C arrives while the first card is chosen

    so_far = []
    with pytest.raises(KeyboardInterrupt):
        play_match("schafkopf", [Stops(1), RandomBot(), RandomBot(), RandomBot()], boards=40, seed=1,
                   progress=lambda result, total: so_far.append((result, total)))
    result, total = so_far[-1]
    assert result.deals_played == 0 and result.first_deal is None and total == 160
    report = match_report(result, 40)
    assert report.heading == "Schafkopf: 40 boards (seed 1), each to be played 4 times with the bots rotated"
    assert report.stopped == "stopped by the interrupt after 0 of 160 deals: the result so far"
    assert str(result).splitlines()[0] == report.heading


def test_the_bot_of_ones_own_in_api_md_plays_a_match():
    """Writing one's own bot is documented in api.md, not only in solver/bots.py: api.md's example is run as written,
    and the functions it names for a seat's view exist (no ``seat_view`` that does not)."""
    import contextlib
    import io
    import re
    from pathlib import Path

    from solver.sampling import draw_sample, position_setup

    api = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    section = api.split("## A bot of your own\n", 1)[1]
    known_side, example = re.findall(r"^```python\n(.*?)^```", section, flags=re.S | re.M)[:2]
    namespace: dict = {"__name__": "api_md"}
    exec(compile(known_side, "api.md", "exec"), namespace)  # its asserts: a defender knows only itself at first
    rufer = position_from_record(random_record("schafkopf", 1, 1))  # Rufer E: seat 2 holds EA
    called_played = rufer.play_cards("EK EA")  # seat 1 leads the called suit; seat 2 must play the ace
    assert namespace["known_side"](called_played, 3) == {3, 4} and namespace["known_side"](rufer, 1) == {1}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, "api.md", "exec"), {"__name__": "api_md"})
    assert printed.getvalue().startswith("{'last': 12, 'random': 36} ")
    position = position_from_record(random_record("schafkopf", 1, 1))
    rules, state = draw_sample(position_setup(position, 1, seed=2), 0)
    assert state.hands[0] == position.state.hands[0]  # the seat's own hand kept, the others redealt


def test_a_bot_may_answer_with_a_numpy_integer():
    """A bot that picks its card with numpy (``np.argmax`` over its values) returns an ``np.int64``: the match
    refused it ("not a legal card here (a card to play is a pack index, ... not np.int64(29))"), though every seat
    the API takes may be a numpy integer. It is a pack index like any other; a bool is still none."""
    np = pytest.importorskip("numpy")

    class Last:
        name = "last"

        def choose(self, position):
            return np.int64(max(card.index for card in position.legal_cards()))

    class LastInt(Last):
        def choose(self, position):
            return int(super().choose(position))

    numpy_match = play_match("kratzen", [Last(), RandomBot(), RandomBot()], boards=2, seed=2, pot=4)
    int_match = play_match("kratzen", [LastInt(), RandomBot(), RandomBot()], boards=2, seed=2, pot=4)
    assert numpy_match.deals == int_match.deals and len(numpy_match.deals) == 6
    start = _start()
    first = next(iter(start.legal_cards())).index
    assert start.play(np.int16(first)).played == (first,)
    with pytest.raises(StichError, match="a card to play is a pack index, a Card or a card token, not True"):
        start.play(True)

    class Held(Last):  # a numpy index of a card the seat does not hold: named as its card, as an int index is
        def choose(self, position):
            return np.int64(min(card.index for card in position.hand(position.to_move % 3 + 1)))

    with pytest.raises(StichError, match=r"bot last at seat 1 chose \w+, which is not a legal card") as refused:
        play_match("kratzen", [Held(), RandomBot(), RandomBot()], boards=1, seed=2, pot=4)
    assert " chose 0," not in str(refused.value) and "np.int64" not in str(refused.value)


def test_bots_of_one_name_with_numpy_settings_are_compared_without_an_error():
    """Two bots of one's own of one name, each holding ``samples`` as a numpy array: the check that two bots of one name
    are one kind does not fail on comparing them with ``!=`` with a bare ValueError ("The truth value of an array ... is
    ambiguous"), which no caller catching StichError expects. Settings that cannot say whether they differ are taken as
    alike."""
    np = pytest.importorskip("numpy")

    class Weighted:
        name = "weighted"

        def __init__(self) -> None:
            self.samples = np.zeros(3)

        def choose(self, position):
            return next(iter(position.legal_cards()))

    result = play_match("kratzen", [Weighted(), Weighted(), RandomBot()], boards=1, seed=3, pot=3)
    assert result.seats == {"weighted": 6, "random": 3}
    other = Weighted()
    other.samples = np.ones(3)  # arrays that differ are compared whole: two kinds of bot under one name
    with pytest.raises(StichError, match=r"^the bots at seats 1 and 2 are both named 'weighted' but differ"):
        play_match("kratzen", [Weighted(), other, RandomBot()], boards=1, seed=3, pot=3)


def test_a_bot_spec_is_read_once_and_says_which_match_options_reach_its_bot():
    """``stich match`` reads each bot spec once, with :func:`solver.bots.read_bot_spec`, which also says which bots take
    ``--samples`` and ``--card-time``, and the bot is made from what it read."""
    import re

    from solver.bots import BotSpec, make_bot, read_bot_spec

    read = {text: read_bot_spec(text) for text in ("sampling", "Sampling:", "sampling:20", "random", "cheater",
                                                   "mybots:LastCard")}
    assert read == {"sampling": BotSpec("sampling", "sampling"), "Sampling:": BotSpec("Sampling:", "sampling"),
                    "sampling:20": BotSpec("sampling:20", "sampling", 20), "random": BotSpec("random", "random"),
                    "cheater": BotSpec("cheater", "cheater"), "mybots:LastCard": BotSpec("mybots:LastCard", "own")}
    assert [text for text, spec in read.items() if spec.takes_samples] == ["sampling", "Sampling:"]
    assert [text for text, spec in read.items() if spec.takes_card_time] == ["sampling", "Sampling:", "sampling:20"]
    for text in ("sampling", "sampling:20", "random", "cheater"):
        assert make_bot(read[text], samples=7).name == make_bot(text, samples=7).name
    assert make_bot(read["sampling:20"], samples=7).samples == 20 and make_bot(read["sampling"], samples=7).samples == 7
    for bad, said in (("sampling:x", "the sample count after ':' is a whole number"),
                      ("random:3", "only the sampling bot takes a sample count"), ("randm", "unknown bot 'randm'")):
        with pytest.raises(StichError, match=re.escape(said)):
            read_bot_spec(bad)


def test_card_time_and_samples_without_a_sampling_bot_are_refused():
    """``stich match --bots cheater,random,... --card-time 0.1 --samples 7`` is a usage error, as every other option
    that means nothing without another is (``analyse --verbose`` without ``--scheduler``), only where given: no bot of
    one's own takes them (it is made with the seed alone)."""
    from test_cli import run

    def refused(*extra: str) -> str:
        done = run(*extra, code=2)
        return [line for line in done.stderr.splitlines() if "Invalid value" in line][0]

    args = ("match", "-g", "kratzen", "--bots", "cheater,random,random", "-n", "1", "-j", "1", "--pot", "3")
    assert refused(*args, "--card-time", "0.1", "--samples", "7").endswith(
        "Invalid value for '--samples' / '--card-time': only for the built-in sampling bot: no bot here is a sampling "
        "bot")
    assert refused(*args, "--card-time", "0.1").endswith(
        "Invalid value for '--card-time': only for the built-in sampling bot: no bot here is a sampling bot")
    assert run(*args).stderr == ""
    # --samples given is refused even at its default's value; beside sampling bots that each name their samples too
    assert "Invalid value for '--samples'" in refused(*args, "--samples", "50")
    own = ("match", "-g", "kratzen", "--bots", "sampling:2,random,random", "-n", "1", "-j", "1", "--pot", "3")
    assert run(*own, "--card-time", "0.1").stderr == ""
    assert refused(*own, "--samples", "20").endswith(
        "Invalid value for '--samples': only for the built-in sampling bot: no bot here is a bare 'sampling' bot "
        "(sampling:N names its own samples)")
    # 'sampling:' with no count is a bare sampling bot, which takes --samples
    bare = run("match", "-g", "kratzen", "--bots", "sampling:,random,random", "-n", "1", "-j", "1", "--samples", "2",
               "--pot", "3")
    assert bare.stderr == "" and "sampling (2 samples a card" in bare.stdout


def test_a_match_its_time_limit_stopped_says_how_long_it_took_in_its_json_too():
    """How far a match ran past its --time-limit is said in the JSON as on stderr, so that its reader sees the boards in
    play took it well past, not just "time limit": ``time_limit`` holds the limit and the seconds in all, only where the
    limit stopped the match."""
    import subprocess
    import sys
    from pathlib import Path

    from test_cli import SCHEMA as RESULT_SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

    def run(*extra: str) -> tuple[dict, str]:
        done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "match", "--game", "kratzen",
                               "--bots", "random,random,random", "-n", "5", "--seed", "2", "--json", "-j", "1", *extra],
                              cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout), done.stderr

    stopped, said = run("--time-limit", "0.001")
    assert stopped["stopped"] == "time limit" and schema_errors(stopped, RESULT_SCHEMA) == []
    assert stopped["time_limit"]["limit"] == 0.001 and stopped["time_limit"]["elapsed"] >= 0
    assert f"{stopped['time_limit']['elapsed']:.1f} s in all" in said  # stderr's figure, the same
    assert list(stopped)[-1] == "time_limit"  # after the summary json.md lists it behind
    whole, _ = run("--time-limit", "3600")
    assert whole["stopped"] is None and "time_limit" not in whole


def test_card_time_0_is_no_deadline_as_every_commands_0_is_no_limit():
    """``--card-time 0`` (and ``-0``) is no deadline, as giving none and as every ``--time-limit 0`` is no limit, not
    the library's ``time_limit=0`` (a deadline already past, one sample a card), which the library refuses: every sample
    solved, no card time in the setup or the JSON. It is still refused beside bots that do not sample."""
    from test_cli import run

    args = ("match", "-g", "kratzen", "--bots", "sampling:3,random,random", "-n", "1", "-j", "1", "--pot", "3")
    for zero in ("0", "-0"):
        document = json.loads(run(*args, "--card-time", zero, "--json").stdout)
        assert document["bots"]["sampling:3"]["card_time"] is None
        assert all(deal.get("samples") is None for deal in document["deals"])  # each card's samples: none cut
        assert run(*args, "--card-time", zero).stdout == run(*args).stdout
    unused = run("match", "-g", "kratzen", "--bots", "cheater,random,random", "-n", "1", "-j", "1", "--pot", "3",
                 "--card-time", "0", code=2)
    assert "Invalid value for '--card-time': only for the built-in sampling bot" in unused.stderr
    run("match", "-g", "kratzen", "--bots", "cheater,random,random", "--card-time", "-1", code=2)


def test_a_bot_of_ones_own_with_a_deadline_of_minus_zero_is_said_as_zero():
    """A bot of one's own whose ``time_limit`` is -0.0 is read as a SamplingBot's is (:func:`solver.match.card_time`):
    its deadline is said ``0 s`` and kept as 0.0, not ``-0``."""
    from solver.match import card_time

    class FirstCard:
        name, time_limit = "first", -0.0

        def choose(self, position):
            return next(iter(position.legal_cards()))

    assert math.copysign(1, card_time(FirstCard())) == 1 and card_time(FirstCard()) == 0.0
    assert card_time(RandomBot()) is None
    result = play_match("kratzen", [FirstCard(), RandomBot(seed=2), RandomBot(seed=3)], boards=1, seed=5, pot=3,
                        rotate=False)
    assert math.copysign(1, result.setup.player("first")["card_time"]) == 1
    assert "first (deadline 0 s a card (its first sample always finishes))" in str(result)


def test_the_match_text_report_says_the_samples_a_card_the_json_gives_card_by_card():
    """A sampling bot with a deadline a card (--card-time) decides each card on as many samples as it managed: the JSON
    gives them card by card, and the text report says their median and range, counted over every deal played (the CLI
    keeps no deal), the only legal cards (0) and other bots' (None) left out."""
    from solver.match import card_samples_text
    assert card_samples_text({}) is None
    assert card_samples_text({40: 1, 120: 3, 400: 1}) == \
        "samples a card: median 120, 40 to 400 (5 cards the bots sampled)"
    assert card_samples_text({10: 2, 20: 2}) == "samples a card: median 10, 10 to 20 (4 cards the bots sampled)"
    deal = PlayedDeal(1, 0, ("sampling:5", "random", "random", "random"), "Rufer G", 1, (1, 3), (), (1, -1, 1, -1),
                      samples=(5, None, None, None, 0, None, None, None, 3))
    result = summarise("schafkopf", 1, 1, False, [deal])
    assert result.card_samples == {3: 1, 5: 1}
    assert "samples a card: median 3, 3 to 5 (2 cards the bots sampled)" in str(result).splitlines()
    text = _stich("match", "--game", "kratzen", "--bots", "sampling:3,random,random", "-n", "1", "--card-time", "5",
                  "-j", "1")
    assert "\nsamples a card: median 3, 3 to 3 (" in text  # a deadline that cuts no card short
    plain = _stich("match", "--game", "kratzen", "--bots", "sampling:3,random,random", "-n", "1", "-j", "1")
    assert "\nsamples a card: " not in plain  # without a deadline every card takes the bot's samples: said above


def test_a_bot_s_choice_is_a_function_of_the_position_however_its_cards_were_handed_over():
    """``play`` keeps a card as its pack index, an int, however it is handed over (a result's card, ``card_values``'
    pack index that prints by name, which the cheater bot returns), so the played cards' repr says ``(4,)``, not
    ``(EU,)``: the random and sampling bots, and docs/api.md's own ``random.Random(f"{seed} {position.played}")``,
    seeded by that text choose alike at two equal positions, and a match with a cheater draws the cards of the same
    match replayed from its record."""
    start = position_from_record(random_record("schafkopf", 5, 1, contract="Solo E"))
    by_result = CheaterBot(plays_for="points").choose(start)
    assert type(by_result) is not int and int(by_result) in start.legal_cards()
    handed, typed = start.play(by_result), start.play(int(by_result))
    assert handed == typed and repr(handed.played) == repr(typed.played) == f"({int(by_result)},)"
    assert type(handed.played[0]) is int and type(handed.state.history_cards()[0]) is int
    assert [RandomBot(seed=seed).choose(handed) for seed in range(20)] == [
        RandomBot(seed=seed).choose(typed) for seed in range(20)]


def test_with_a_pot_the_bots_difference_is_not_the_first_bots_mean_scaled():
    """Kratzen's pot takes a share of every deal, so its seats' payments do not sum to zero and one bot's mean does not
    give the other's: the difference is the two means' own, not the first's mean times seats / the second's seats as
    in zero-sum deals (the example of docs/cli.md's match section)."""
    result = play_match("kratzen", [CheaterBot(), RandomBot(seed=2), RandomBot(seed=3), RandomBot(seed=4)],
                        boards=4, seed=1, pot=8)
    cheater, random_bot = result.bots["cheater"].mean, result.bots["random"].mean
    first, second, gap = result.difference
    assert (first, second) == ("cheater", "random") and math.isclose(gap.mean, cheater - random_bot)
    assert not math.isclose(gap.mean, cheater * 4 / 3)  # -1.75 and -2.75 chips: +1.00 apart, not -2.33
    assert cheater * 1 + random_bot * 3 < 0  # the seats together paid the pot


def test_a_match_stopped_on_several_workers_names_the_boards_it_played_past_the_failed_one():
    """On several workers the boards in flight are played to the end after a bot fails on one: stopped on board 3
    with board 4 played, the report said "after 3 of 12 deals" beside the error's "board 3", which read as boards 1
    to 3. It names the boards where they are not the first N, and a declaring side's mean says it is its seats'
    payments together (the bots' means above it are per seat)."""
    from solver.match import BoardOrder, MatchTally, match_report

    def deal(board: int) -> PlayedDeal:
        return PlayedDeal(board, 0, ("a", "b", "b", "b"), "Rufer G", 1, (1, 3), (), (1, -1, 1, -1))

    def report(boards: list[int]) -> str | None:
        tally = MatchTally(rotate=False, keep_deals=False, table_seats=4)
        for board in boards:
            tally.add(deal(board))
        return match_report(tally.result("Schafkopf", 1, 12, "error"), 12).stopped

    assert report([1, 2]) == "stopped by the error after 2 of 12 deals: the result so far"
    assert report([2, 4, 1]) == ("stopped by the error after 3 of 12 deals (boards 1-2 and 4; the others not "
                                 "played): the result so far")
    assert report([7, 3, 5, 1, 2, 6]) == ("stopped by the error after 6 of 12 deals (boards 1-3 and 5-7; the others "
                                          "not played): the result so far")
    assert report([2]) == "stopped by the error after 1 of 12 deals (board 2; the others not played): the result so far"
    # the JSON has no board_runs: it writes every deal the tally holds (BoardOrder flushes those past a gap), whose
    # boards are the runs
    tally, written = MatchTally(rotate=False, keep_deals=False, table_seats=4), []
    order = BoardOrder(lambda played: written.append(played.board), rotations=1)
    for board in [2, 4, 1]:
        tally.add(deal(board))
        order.add(deal(board))
    order.flush()
    assert tally.result("Schafkopf", 1, 12, "error").board_runs == ((1, 2), (4, 4)) and written == [1, 2, 4]
    side = match_report(summarise("Schafkopf", 1, 12, False, [deal(1), deal(2)]), 12).side
    assert side == "declaring side: +2.00 (all 2 boards alike: no interval) game units per deal, its seats' payments " \
                   "together"


def test_a_match_says_when_the_seating_alone_made_every_bot_s_board_0():
    """``cheater,random,cheater,random`` in Zwanzigerrufen gave 0.00 to both bots on every board: where the
    declarer's partner sits beside him, seats across the table are on opposite sides, paid alike and opposite, in
    every rotation. Such boards are counted and said, with the seating that compares the bots on every board; a
    board whose partner sits across is not among them, nor one where a bot's seats are of one side, though paid 0."""
    from solver.match import match_report

    def board(number: int, side: tuple[int, int], payments: tuple[int, ...]) -> list[PlayedDeal]:
        bots = [("a", "b", "a", "b"), ("b", "a", "b", "a")] * 2
        return [PlayedDeal(number, rotation, names, "Normal", 1, side, (), payments)
                for rotation, names in enumerate(bots)]

    beside = board(1, (1, 2), (2, 2, -2, -2))
    across = board(2, (1, 3), (2, -2, 2, -2))
    split = match_report(summarise("Zwanzigerrufen", 1, 1, True, beside), 1).split
    assert split == ("note: on the one board every bot held seats of both sides in each deal, whose payments cancel: "
                     "it counts 0 for every bot, whatever it played; seated one against the rest (a,b,b,b), the bots "
                     "are compared on every board")
    both = match_report(summarise("Zwanzigerrufen", 1, 2, True, beside + across), 2)
    assert both.split is not None and both.split.startswith("note: on 1 of the 2 boards every bot held")
    assert match_report(summarise("Zwanzigerrufen", 1, 1, True, across), 1).split is None
    one_seat = [PlayedDeal(3, rotation, names, "Normal", 1, (1, 2), (), (0, 0, 0, 0))
                for rotation, names in enumerate([("a", "b", "b", "b"), ("b", "a", "b", "b"), ("b", "b", "a", "b"),
                                                  ("b", "b", "b", "a")])]
    assert match_report(summarise("Zwanzigerrufen", 1, 1, True, one_seat), 1).split is None  # a's seat is one side's


def test_the_match_json_counts_the_boards_the_seating_split():
    """``stich match --json`` carries ``split_boards``, the boards the text report's note says count 0 for every
    bot, so that a script reading the means knows them too; the document keeps to the schema."""
    from test_cli import SCHEMA as RESULT_SCHEMA, run, schema_errors

    played = run("match", "-g", "zwanzigerrufen", "--bots", "cheater,random,cheater,random", "-n", "4", "-j", "1",
                 "--json")
    document = json.loads(played.stdout)
    assert document["split_boards"] == 3 and document["declaring_side"]["count"] == 4
    assert schema_errors(document, RESULT_SCHEMA) == []


def test_a_bot_reads_the_trumps_the_trick_s_winner_and_the_sides_from_the_position():
    """A bot of one's own reads from the position whether a card is a trump and who wins the trick, each seat's true
    side, 1-based, and the called card that tells the table the sides, without the games' rule objects (a trump table
    Zwanzigerrufen's rules have not, and 0-based seats)."""
    from solver.errors import InvalidSeatError
    from solver.generate import random_position

    rufer = random_position("schafkopf", 1, 1)  # Rufer E, declarer 1; seat 2 holds the called EA
    assert str(rufer.rules.contract) == "Rufer E" and "EA" in rufer.hand(2)
    assert sorted(card.name for card in rufer.trumps) == sorted(
        "EO GO HO SO EU GU HU SU HA HZ HK H9 H8 H7".split())  # the Ober, the Unter and the hearts
    assert rufer.winning_seat is None
    on_table = rufer.play_cards("H8 SO GO")  # seats 1, 2, 3: the Gras-Ober beats the Schellen-Ober
    taken = on_table.play("HO")  # the trick complete: its winner leads, and no card is on the table
    assert on_table.winning_seat == 3 == taken.history[-1].winner and taken.winning_seat is None
    assert taken.trumps == rufer.trumps  # the whole set, the trick's four trumps played included
    assert taken.play("EO").winning_seat == 3  # seat 3 leads: its card alone on the table wins so far
    assert rufer.called_card is not None and rufer.called_card.name == "EA"
    assert rufer.true_side(1) == rufer.true_side(2) == frozenset({1, 2}) and rufer.true_side(4) == frozenset({3, 4})
    with pytest.raises(InvalidSeatError, match="seat 5 is not a seat of this 4-seat deal"):
        rufer.true_side(5)
    wenz = random_position("schafkopf", 1, 1, contract="Wenz")
    assert sorted(card.name for card in wenz.trumps) == ["EU", "GU", "HU", "SU"] and wenz.called_card is None

    normal = random_position("zwanzigerrufen", 1, 1, contract="Normal T20")  # seat 2 holds T20; seat 2 no hearts
    assert len(normal.trumps) == 20 and normal.called_card is not None and normal.called_card.name == "T20"
    assert normal.true_side(3) == frozenset({3, 4})
    assert normal.play("HQ").winning_seat == 1 and normal.play_cards("HQ T5").winning_seat == 2  # the tarock wins
    assert normal.play_cards("HQ T5 HK").winning_seat == 2  # a heart played after it does not
    assert not random_position("zwanzigerrufen", 1, 1, contract="Suit Solo").trumps  # a tarock never wins a suit

    kratzen = random_position("kratzen", 1, 2)  # 3 seats, trump E
    assert kratzen.true_side(1) == frozenset({1}) and kratzen.true_side(3) == frozenset({3})  # each for himself
    assert sorted(card.name for card in kratzen.trumps) == ["E7", "E8", "E9", "EA", "EK", "EO", "EU", "EZ", "S6"]
    assert kratzen.called_card is None
    assert kratzen.play("G9").winning_seat == 1 and kratzen.play_cards("G9 GZ").winning_seat == 2
    assert kratzen.play_cards("G9 GZ E8").history[-1].winner == 3  # seat 3 has no G: it trumps, the trick's last


def test_a_bot_reads_the_declarer_1_based_and_the_trumps_in_their_ranking():
    """A bot reads the declarer 1-based, as the position's other seats (not ``position.rules.declarer + 1``, the
    engine's 0-based seat), and the trumps in their ranking, from the position."""
    from solver.generate import random_position

    rufer = random_position("schafkopf", 1, 1)
    assert rufer.declarer == 1 == rufer.rules.declarer + 1
    assert random_position("schafkopf", 1, 1, declarer=3).declarer == 3
    assert " ".join(card.name for card in rufer.trump_order) == "EO GO HO SO EU GU HU SU HA HZ HK H9 H8 H7"
    wenz = random_position("schafkopf", 1, 1, contract="Wenz")
    assert " ".join(card.name for card in wenz.trump_order) == "EU GU HU SU"
    normal = random_position("zwanzigerrufen", 1, 1, contract="Normal T20")
    ranked = [card.name for card in normal.trump_order]
    assert ranked[:3] == ["TS", "T21", "T20"] and ranked[-1] == "T1" and len(ranked) == 20
    kratzen = random_position("kratzen", 1, 2)  # trump E: its ace, then the Weli
    assert " ".join(card.name for card in kratzen.trump_order) == "EA S6 EK EO EU EZ E9 E8 E7"
    assert set(rufer.trump_order) == set(rufer.trumps) and not random_position(
        "zwanzigerrufen", 1, 1, contract="Suit Solo").trump_order
    # ranked once per rules object, which every position of the deal shares: a bot asks at every card
    later = rufer.play(next(iter(rufer.legal_cards())))
    assert later.rules is rufer.rules and later.rules.trump_order() is rufer.rules.trump_order()
    assert later.trump_order == rufer.trump_order


def test_play_out_on_two_threads_leaves_sys_stdout_as_it_was():
    """A library caller's stdout is its own: play_out leaves sys.stdout alone, and what the bots print goes there, so
    two threads playing at once cannot leave it stderr for good, as swapping it for stderr around every card would."""
    import io
    import sys
    import threading
    from contextlib import redirect_stdout

    from solver.generate import random_position
    from solver.match import play_out

    class Chatty(RandomBot):
        def choose(self, position):
            print("thinking")
            return super().choose(position)

    before = sys.stdout
    ends: list[int] = []
    printed = io.StringIO()

    def play(seed: int) -> None:
        position = random_position("schafkopf", seed, 1)
        ends.append(len(play_out(position, [Chatty(seed=seed)] + [RandomBot(seed=seed)] * 3).played))

    with redirect_stdout(printed):
        threads = [threading.Thread(target=play, args=(seed,)) for seed in (1, 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sys.stdout is printed
    assert sys.stdout is before and ends == [32, 32]
    assert printed.getvalue().count("thinking") == 2 * 8  # seat 1's eight cards in each deal


def test_an_interrupt_before_a_resumed_match_on_two_workers_hands_out_a_board_is_its_usual_stop(tmp_path, monkeypatch,
                                                                                                  two_worker_cores):
    """An interrupt after the checkpoint's check and before any board goes to a worker (its deals resumed, its builds'
    notice said) is the match's usual stop on ``-j 2``: the resumed deals reported, exit 130 with the stop's line, not
    an UnboundLocalError from the interrupt's own handler (a traceback and exit 1)."""
    from test_cli import run

    import solver.match as match

    journal, _ = _kratzen_checkpoint(tmp_path, 2)
    resumed = 2 * 4  # its two boards, each in four rotations

    def interrupted(built, path):
        raise KeyboardInterrupt

    monkeypatch.setattr(match, "resumed_builds_text", interrupted)
    seen = []
    with pytest.raises(KeyboardInterrupt):
        play_match("kratzen", [RandomBot(seed=3)] * 4, boards=3, seed=3, pot=10, workers=2, checkpoint=journal,
                   progress=lambda so_far, total: seen.append(so_far))
    assert [(result.stopped, result.deals_played) for result in seen] == [("interrupt", resumed)]
    stopped = run(*RANDOM_KRATZEN[:-4], "2", *RANDOM_KRATZEN[-3:], "-n", "3", "--checkpoint", journal, code=130)
    assert stopped.stderr.splitlines() == [
        f"stich: match: stopped by the interrupt after {resumed} deals: the match so far is printed, said as such; "
        f"the boards played whole are kept in {journal}: rerun the command to resume"]
