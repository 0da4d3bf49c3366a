"""The least and greatest payment a contract can pay a seat: the seat's share (``solver.sampling.payment_range``) of
the least and greatest net of the position's payoff table, which the score's result carries (``SolveResult.net_range``).
No settled deal lies outside it, its ends are reached where the cards allow, and the payment intervals that analyse
and advice report keep within it, as the card points' keep within 0 .. the deal's total."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game_cases import SETTLEMENT_CONFIGS, random_announcements, random_rules, random_state
from solver import read_positions
from solver.errors import StichError
from solver.games import get_game
from solver.position import Position
from solver.sampling import SHARE_SCALE, analyse_position, has_share, payment_range, scaled_share
from solver.score_objective import solve_score
from solver.scoring import scoring_inputs
from solver.search.settle import PayoffSpec
from solver.settlement import default_settlement_engine, final_net, payoff_spec

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def scored_position(config, rng: random.Random, tricks_left: int | None = None):
    """A position of the configuration (its start, or with ``tricks_left`` tricks to play, reached at random) with
    random variant values, announcements and pot, those two, and its scoring inputs (drawn again where the contract
    refuses the announcements)."""
    game, contract, choices, _ = config
    while True:
        variant = {flag: rng.choice(values) for flag, values in choices.items()}
        rules = random_rules((game, contract, variant), rng)
        position = Position(get_game(game), rules, random_state(rules, rng, tricks_left=tricks_left))
        announcements = random_announcements(rules, rng) if position.game.has_announcements else None
        pot = rng.choice([0, 4, 8, 12, 30]) if position.game.has_pot else None
        try:
            inputs = scoring_inputs(position, announcements=announcements, pot=pot)
            payoff_spec(position, inputs=inputs)
        except StichError:
            continue  # announcements the contract does not allow (a Pagat in a Suit Solo): draw again
        return position, announcements, pot, inputs


@SETTINGS
@given(st.integers(0, len(SETTLEMENT_CONFIGS) - 1), st.integers(0, 10**6))
def test_every_settled_deal_pays_each_seat_within_its_range(config_index, seed):
    """Every seat whose payment the settlement answers is paid, on a deal played out at random and settled by the
    scorer, within its share of the least and greatest net of the deal's payoff table from the start; the net is
    one of the table's entries."""
    rng = random.Random(seed)
    start, _, _, inputs = scored_position(SETTLEMENT_CONFIGS[config_index], rng)
    spec = payoff_spec(start, inputs=inputs)
    final = random_state(start.rules, rng, tricks_left=0)
    net, _ = final_net(start, final, inputs=inputs)
    assert net in spec.values and spec.net_range == (min(spec.table), max(spec.table))
    bounded = 0
    for seat in range(start.rules.seats):
        if not has_share(start, seat):
            assert start.game.seat_share(start.rules, seat, net) is None  # a Kratzen seat that does not attack
            continue
        least, most = payment_range(start, seat, spec.net_range)
        assert least <= scaled_share(start, seat, net) <= most
        bounded += 1
    assert bounded >= 1  # the declarer's at least


@settings(SETTINGS, max_examples=40)
@given(st.integers(0, len(SETTLEMENT_CONFIGS) - 1), st.integers(0, 10**6))
def test_the_score_carries_the_least_and_greatest_net_of_its_payoff_table(config_index, seed):
    """The score of an ending carries its own payoff table's least and greatest net, and the value and every card's
    lie within them."""
    position, announcements, pot, inputs = scored_position(SETTLEMENT_CONFIGS[config_index], random.Random(seed),
                                                           tricks_left=3)
    result = solve_score(position, cards=True, announcements=announcements, pot=pot)
    least, most = payoff_spec(position, inputs=inputs).net_range
    assert result.net_range == (least, most)
    assert all(least <= value <= most for value in [result.total, *(cv.value for cv in result.card_values)])


def reachable_extremes(position: Position) -> tuple[int, int]:
    """The least and greatest net the declaring side can settle at on the position's deal, every seat playing for
    it (the settlement search with every seat maximising the payoff, then its negation)."""
    spec = payoff_spec(position)
    every = frozenset(range(position.rules.seats))
    engine = default_settlement_engine()
    most = engine.value(position.state, PayoffSpec(every, spec.components, spec.table))
    least = -engine.value(position.state, PayoffSpec(every, spec.components, tuple(-v for v in spec.table)))
    return least, most


def rufer_deal(seed: int) -> Position:
    game = get_game("schafkopf")
    rng = random.Random(seed)
    while True:
        try:
            rules = game.rules(game.deal_random(rng), "Rufer E", declarer=1)
        except StichError:
            continue
        return Position(game, rules, rules.start())


def test_a_schafkopf_rufers_greatest_win_and_loss_are_reached():
    """On seed 0's deal the Rufer's side holds the three top trumps (3 Laufende): if the defenders help it to every
    trick, it wins the Schwarz, 12 to the side, 6 to the caller, which is the top of the caller's range; on seed 1's
    the side can lose Schwarz, -6, the bottom. On every deal what play can reach lies within the range."""
    tops, bottoms = set(), set()
    for seed in range(6):
        position = rufer_deal(seed)
        least, most = reachable_extremes(position)
        nets = payoff_spec(position).net_range
        assert nets[0] <= least <= most <= nets[1]
        sixths = SHARE_SCALE // 2  # a Rufer's net shared by two
        assert payment_range(position, 0, nets) == (nets[0] * sixths, nets[1] * sixths)
        if most == nets[1]:
            tops.add(seed)
        if least == nets[0]:
            bottoms.add(seed)
    assert 0 in tops and 1 in bottoms
    seed_0 = rufer_deal(0)
    assert payment_range(seed_0, 0, payoff_spec(seed_0).net_range) == (-6 * SHARE_SCALE, 6 * SHARE_SCALE)


def test_a_kratzen_muss_pays_the_attacker_at_most_nothing():
    """A Muss has no trick payouts: the attacker who makes his target is paid 0, one who misses pays 2P. Its range
    is -2P .. 0, and Trump H without the Muss, at a pot of 8, is -16 .. +8 (every trick's P/4 of 2)."""
    kratzen = get_game("kratzen")
    muss = next(p for p in read_positions(str(ROOT / "examples" / "kratzen.tbn"))
                if p.rules.contract.modifier == "muss")
    start = Position(kratzen, muss.rules, muss.rules.start())
    assert payoff_spec(start, pot=8).net_range == (-16, 0)
    assert payment_range(start, muss.rules.declarer, (-16, 0)) == (-16 * SHARE_SCALE, 0)
    plain = kratzen.rules(muss.rules.deal, "Trump H", declarer=muss.rules.declarer + 1)
    plain_start = Position(kratzen, plain, plain.start())
    assert payoff_spec(plain_start, pot=8).net_range == (-16, 8)
    assert not has_share(plain_start, (plain.declarer + 1) % plain.seats)  # plays for itself


def test_the_payment_interval_of_a_kratzen_muss_at_4_samples_ends_at_0_at_most():
    """``stich analyse examples/kratzen.tbn --board 3 --seat 1 -n 4 --pot 8 --seed 2``: the four samples pay -16,
    -16, -16 and 0, and t(3) times their spread reached +0.73, which a Muss never pays the attacker."""
    muss = list(read_positions(str(ROOT / "examples" / "kratzen.tbn")))[2]
    analysis = analyse_position(muss, 1, samples=4, seed=2, pot=8, workers=1)
    assert analysis.score_mean == -12
    low, high = analysis.score_interval
    assert high <= 0 and low == -16
    assert analysis.as_dict()["score_interval"] == [-16, 0]


def test_the_range_is_joined_over_the_samples_and_kept_by_a_checkpoint_line():
    """Samples whose sides differ (an unseen partner) have ranges of their own: the sums keep the range that holds
    all of them, a checkpoint line keeps it, and a line of a version that kept none leaves the interval uncut (its
    samples' payments are bounded by no range known), as a contract's sums in advice do."""
    from solver.advice import AdviceSums, add_sample
    from solver.sampling import Sums

    one, other = Sums(score_n=1, score_range=(-36, 18)), Sums(score_n=2, score_range=(-18, 36))
    joined = Sums()
    joined.add(one)
    joined.add(other)
    assert joined.score_range == (-36, 36)
    assert Sums.from_json(joined.to_json()).score_range == (-36, 36)
    older = joined.to_json()
    del older["score_range"]
    unknown = Sums.from_json(older)
    assert unknown.score_range is None
    unknown.add(one)
    assert unknown.score_range is None
    sums = AdviceSums()
    add_sample(sums, [(12, True, (), (), (), (), 0, (-18, 18))])
    add_sample(sums, [(-6, False, (), (), (), (), 0, (-36, 6))])
    assert sums.contracts[0].payment_range == (-36, 18)
    assert AdviceSums.from_json(sums.to_json()).contracts[0].payment_range == (-36, 18)


def test_card_advice_of_a_kratzen_muss_keeps_its_payments_within_the_range():
    """Card advice on the same samples: EU's payments -16, -16, -16 and 0 give -12, whose interval would reach
    +0.73 uncut; cut, it is -16 .. 0."""
    from solver.advice import card_advice

    muss = list(read_positions(str(ROOT / "examples" / "kratzen.tbn")))[2]
    best = card_advice(muss, samples=4, seed=2, pot=8, workers=1).rows[0]
    assert (best.contract, best.mean, best.low, best.high) == ("EU", -12, -16, 0)
