"""Single-dummy statistics against exact answers: cases small enough that every deal of the unseen cards consistent
with what the seat knows can be listed, so that the sampler's draws can be tested for uniformity and the analysis's
mean against the exact expectation."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from fractions import Fraction

import pytest

import solver
from solver.advice import card_advice
from solver.deal import Deal
from solver.errors import IllegalPlayError, InvalidContractError, InvalidDealError
from solver.games import get_game
from solver.intervals import t_quantile_95
from solver.position import Position
from solver.sampling import (Setup, _setup, analyse_hand, analyse_position, draw_sample, mean_interval,
                             position_setup, unseen_cards)
from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

# Kratzen, two tricks played: seat 1 showed out of leaves (it trumped GU with HA), seat 3 beat the spade lead
KRATZEN_ENDING = """[Game "Kratzen"]
[Board "1"]
[Seats "3"]
[Deal "1: HA HO H8 S8 / EA GO HK S7 / E8 GK GU SO"]
[Contract "Trump H"]
[Declarer "1"]
[Play "1"]
S8 S7 SO
GU HA GO
*
"""


def layouts(setup: Setup) -> list[tuple[int, ...]]:
    """Every way to fill the hands' free places with the unseen cards (the rest stays undealt)."""
    game = get_game(setup.game)
    missing = [game.hand_size - mask.bit_count() for mask in setup.fixed]

    def fill(seat: int, pool: list[int], hands: tuple[int, ...]) -> list[tuple[int, ...]]:
        if seat == len(missing):
            return [hands]
        found = []
        for cards in itertools.combinations(pool, missing[seat]):
            rest = [card for card in pool if card not in cards]
            found += fill(seat + 1, rest, hands + (setup.fixed[seat] | sum(1 << card for card in cards),))
        return found

    return fill(0, unseen_cards(game, setup.fixed), ())


def fits(setup: Setup, hands: tuple[int, ...]) -> Position | None:
    """The position after the play on this deal, or None where the contract or the play rules it out."""
    game = get_game(setup.game)
    try:
        rules = game.rules(Deal(game.pack, hands), setup.contract, declarer=setup.declarer,
                           variant=dict(setup.variant) or None, **dict(setup.tags))
        state = rules.start()
        for card in setup.played:
            state = state.play(card)
    except (InvalidContractError, InvalidDealError, IllegalPlayError):
        return None
    return Position(game, rules, state)


def consistent(setup: Setup) -> dict[tuple[int, ...], Position]:
    every = {hands: fits(setup, hands) for hands in layouts(setup)}
    return {hands: position for hands, position in every.items() if position is not None}


def chi_square_p(statistic: float, degrees: int) -> float:
    """The upper tail of chi-square (Wilson-Hilferty: within a few per cent of it at hundreds of degrees)."""
    z = ((statistic / degrees) ** (1 / 3) - (1 - 2 / (9 * degrees))) / math.sqrt(2 / (9 * degrees))
    return 0.5 * math.erfc(z / math.sqrt(2))


def uniformity(setup: Setup, draws: int) -> tuple[int, float]:
    """(draws outside the consistent deals, the chi-square test's p-value against every consistent deal alike)."""
    allowed = consistent(setup)
    counts = Counter(draw_sample(setup, k)[0].deal.hands for k in range(draws))
    outside = sum(count for hands, count in counts.items() if hands not in allowed)
    expected = draws / len(allowed)
    statistic = sum((counts.get(hands, 0) - expected) ** 2 / expected for hands in allowed)
    return outside, chi_square_p(statistic, len(allowed) - 1)


def test_a_hand_with_known_cards_is_dealt_uniformly() -> None:
    """Seats 2 and 3 each miss one card of 23: all 506 deals alike (6,000 draws)."""
    setup = _setup(get_game("Kratzen"), "GA GK G9 HZ", 1, "Trump S", {2: "S6 EK H7", 3: "H8 SA SZ"}, 1, None, 3, 9)
    assert len(consistent(setup)) == 23 * 22
    outside, p = uniformity(setup, 6000)
    assert outside == 0 and p > 0.001


def test_a_position_is_dealt_uniformly_among_the_deals_the_play_allows() -> None:
    """Seat 2's view two tricks from the end, one more card of seats 1 and 3 known: the play rules out 132 of the
    506 ways to deal the rest (seat 1 showed out of leaves), and the other 374 are drawn alike (8,000 draws)."""
    position = solver.parse_positions(KRATZEN_ENDING)[0]
    setup = position_setup(position, 2, known={1: "HO", 3: "E8"}, seed=7)
    assert len(layouts(setup)) == 506 and len(consistent(setup)) == 374
    outside, p = uniformity(setup, 8000)
    assert outside == 0 and p > 0.001


def test_the_interval_is_students_t_from_the_integer_sums() -> None:
    values = [0, 0, 0, 0, 6]  # mean 1.2, sample variance 7.2: half-width t(4) * 1.2
    mean, low, high = mean_interval(len(values), sum(values), sum(v * v for v in values))
    assert mean == pytest.approx(1.2)
    assert (high - low) / 2 == pytest.approx(2.776445 * 1.2, rel=1e-6)
    mean, low, high = mean_interval(2, 0 + 2, 0 + 4)  # 1 degree of freedom: 12.706 * sqrt(2 / 2)
    assert (high - low) / 2 == pytest.approx(12.7062047, rel=1e-6)
    assert mean_interval(3, 21, 147) == (7.0, 7.0, 7.0)  # samples all alike: no width, exactly
    assert all(math.isnan(x) for x in mean_interval(1, 5, 25)[1:])


def test_the_reported_interval_of_few_samples_is_students_t() -> None:
    """Each sample's tricks solved on its own: the report's interval is their mean with t(n - 1), not z, within the
    tricks a seat can take."""
    analysis = analyse_hand("Kratzen", "GA GK G9 HZ", 1, "Trump S", known={2: "S6 EK H7", 3: "H8 SA SZ"},
                            samples=6, seed=3, workers=1)
    setup = _setup(get_game("Kratzen"), "GA GK G9 HZ", 1, "Trump S", {2: "S6 EK H7", 3: "H8 SA SZ"}, 1, None, 3, 3)
    values = []
    for k in range(6):
        rules, state = draw_sample(setup, k)
        values.append(solver.solve(Position(rules.game, rules, state), "tricks", seat=1).total)
    mean = sum(values) / 6
    deviation = math.sqrt(sum((v - mean) ** 2 for v in values) / 5)
    assert deviation > 0
    assert analysis.mean == pytest.approx(mean)
    half = t_quantile_95(5) * deviation / math.sqrt(6)
    assert mean - half < 0  # t alone reaches below no tricks at all: the report cuts it to the possible 0 .. 4
    assert analysis.interval == pytest.approx((max(0.0, mean - half), min(4.0, mean + half)))


def test_the_mean_and_the_win_chance_converge_to_the_exact_expectation() -> None:
    """Seat 1's tricks over all 396 deals its view allows, against 300 samples: within the 95% interval (and the
    win chance, here certain, is 1)."""
    position = solver.parse_positions(KRATZEN_ENDING)[0]
    setup = position_setup(position, 1, known={2: "EA", 3: "E8"}, seed=0)
    allowed = consistent(setup)
    assert len(allowed) == 396
    tricks = [solver.solve(p, "tricks", seat=1) for p in allowed.values()]
    exact_mean = Fraction(sum(result.total for result in tricks), len(tricks))
    assert float(exact_mean) == pytest.approx(2.80808, abs=1e-5)
    analysis = analyse_position(position, 1, known={2: "EA", 3: "E8"}, samples=300, seed=4, workers=1)
    assert analysis.interval[0] <= exact_mean <= analysis.interval[1]
    assert analysis.win_probability == 1.0 == sum(bool(r.success) for r in tricks) / len(tricks)


RUFER_ENDING = """[Game "Schafkopf"]
[Board "1"]
[Deal "1: EU E8 E7 GK GO HA H9 SU / E9 G7 HK H8 H7 SK S8 S7 / EA EZ EK EO G9 G8 SA S9 / GA GZ GU HZ HO HU SZ SO"]
[Contract "Rufer E"]
[Declarer "1"]
[Play "1"]
H9 HK EO SO
EA GA E8 E9
SA SZ HA S7
GO H7 EK HU
GK G7 G8 GZ
*
"""


def test_samples_all_alike_are_said_to_give_no_interval() -> None:
    """Seat 1's payment is +1 on 154 of the 160 deals its view allows and +2 on 6 (exact mean +1.0375): ten samples that
    all pay +1 are said to give no interval, not "95% interval +1.00 .. +1.00", a certainty the samples do not show."""
    from rich.console import Console

    from cli.analyse import render_analysis
    position = solver.parse_positions(RUFER_ENDING)[0]
    analysis = analyse_position(position, 1, samples=10, seed=2, workers=1)
    assert analysis.score_mean == 1.0 and analysis.score_interval == (1.0, 1.0)
    assert analysis.interval[0] < analysis.interval[1]
    document = analysis.as_dict()
    # the JSON says it too (not [1.0, 1.0]): no interval, and why, as advice and a match write none
    assert document["score_interval"] == [None, None] and document["score_interval_note"] == "all samples alike"
    assert document["interval"] == list(analysis.interval) and document["interval_note"] is None
    assert schema_errors(document, SCHEMA) == []
    console = Console(record=True, width=160)
    render_analysis(document, console)
    text = console.export_text()
    assert "mean payment +1.00 game units (all 10 samples alike: no interval)" in text
    assert ", mean card points 85.2 (95%: 82.6 to 87.8)" in text
    one = analyse_position(position, 1, samples=1, seed=2, workers=1).as_dict()  # not [m, m] for one sample
    assert one["interval"] == one["score_interval"] == [None, None]
    assert one["interval_note"] == one["score_interval_note"] == "one sample"


def test_the_live_status_line_says_what_the_report_says_of_the_intervals() -> None:
    """The status line on stderr while analyse samples says the mean's interval and the win chance's Wilson interval
    with the report's helpers: "all 3 samples alike: no interval" where every sample so far gave 120 points (not '(120.0
    .. 120.0)'), "one sample: no interval" after one."""
    from cli.analyse import analysis_status
    hand = "EO GO HO SO EU GU HU HA"  # a Solo H won schwarz on every deal: 120 points each time
    alike = analyse_hand("schafkopf", hand, 1, "Solo H", samples=3, seed=1, workers=1)
    assert analysis_status(alike, 10) == ("analyse: 3 of 10 samples; win 100.0% (95%: 43.9% to 100.0%), mean "
                                          "card points 120.0 (all 3 samples alike: no interval)")
    one = analyse_hand("schafkopf", hand, 1, "Solo H", samples=1, seed=1, workers=1)
    assert analysis_status(one, 10) == ("analyse: 1 of 10 samples; win 100.0% (95%: 20.7% to 100.0%), mean "
                                        "card points 120.0 (one sample: no interval)")
    spread = analyse_position(solver.parse_positions(RUFER_ENDING)[0], 1, samples=10, seed=2, workers=1)
    assert analysis_status(spread, 10).endswith("mean card points 85.2 (95%: 82.6 to 87.8)")


def test_the_win_chance_has_a_wilson_interval():
    """The win chance has a 95% Wilson interval, not a bare share, which stays within 0..1 and has width where every
    sample or none was won."""
    from solver.intervals import wilson_interval_95

    assert wilson_interval_95(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval_95(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval_95(20, 30) == pytest.approx((0.4878, 0.8077), abs=1e-4)
    analysis = analyse_hand("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E", samples=30, seed=0, workers=1)
    low, high = analysis.win_interval
    assert (low, high) == pytest.approx(wilson_interval_95(round(analysis.win_probability * 30), 30))
    assert low < analysis.win_probability < high and analysis.as_dict()["win_interval"] == [low, high]
    with pytest.raises(ValueError):
        wilson_interval_95(3, 2)
    # 0 of n starts at 0 and n of n ends at 1 exactly: the JSON said 2.7755575615628914e-17 for 0 of 6 (a bonus
    # never forced, on the board too) and 0.9999999999999999 for 10 of 10
    for n in range(1, 2001):
        assert wilson_interval_95(0, n)[0] == 0.0 and wilson_interval_95(n, n)[1] == 1.0
    assert wilson_interval_95(0, 6) == (0.0, pytest.approx(0.3903, abs=1e-4))


def test_every_share_of_the_analysis_has_a_wilson_interval():
    """The bonus odds and each opening card's win chance each have their own Wilson interval, as the win chance has, not
    a bare share: here checked against the hand calculation (4 of 12: (p + z²/2n) / (1 + z²/n) -/+ z sqrt(p(1 - p)/n +
    z²/4n²) / (1 + z²/n) = 0.1381 .. 0.6094)."""
    from rich.console import Console

    from cli.analyse import render_analysis

    analysis = analyse_hand("schafkopf", "EU E8 E7 GK GO HA H9 SU", 1, "Rufer E", samples=12, seed=0, workers=1)
    bonuses = {bonus.name: bonus for bonus in analysis.bonuses}
    schneider, schwarz = bonuses["schneider"], bonuses["schwarz"]
    assert schneider.forced_for == 4 and schneider.interval_for == pytest.approx((0.1381, 0.6094), abs=1e-4)
    assert schwarz.forced_for == 0 and schwarz.interval_for == pytest.approx((0.0, 0.2425), abs=1e-4)  # 0 of 12
    assert schwarz.interval_against == pytest.approx((0.0, 0.2425), abs=1e-4)
    best = analysis.openings[0]
    assert best.card == "H9" and best.win_probability == 7 / 12
    assert best.win_interval == pytest.approx((0.3195, 0.8067), abs=1e-4)
    document = analysis.as_dict()
    assert schema_errors(document, SCHEMA) == []
    row = next(b for b in document["bonuses"] if b["objective"] == "schneider")
    assert row["interval_for"] == list(schneider.interval_for)
    assert row["interval_against"] == pytest.approx([0.0, 0.2425], abs=1e-4)  # never forced against: 0 of 12
    assert document["openings"][0]["win_interval"] == list(best.win_interval)
    console = Console(record=True, width=160)
    render_analysis(document, console)
    text = console.export_text()
    # by the names players use, a table cell's form: the other side's Schneider is "Schneider against"
    assert re.search(r"│ Schneider +│ the hand's side │ 33% \(14-61%\)", text)
    assert re.search(r"│ Schneider against │ the other side +│ +0% \(0-24%\)", text)
    assert "win 58.3% (95%: 32.0% to 80.7%)" in text  # the best single card, as the headline's win chance
    assert "│ H9   │        +0.50 │ 58% (32-81%) │" in text


# --- card values against a brute force of the endings -------------------------------------------------------------
# Independent of the sampler and the settlement engine: every layout of the unseen cards is listed here, kept where the
# rules accept the deal and every card played (the called card's holder is the partner: forehand never holds a
# Zwanzigerrufen called tarock, a Rufer caller never the ace), and every line of the rest is played out and settled
# by the ordinary scorer, the declaring side maximising its net and the others minimising it.

RUFER_CALLED_ACE_UNSEEN = """[Game "Schafkopf"]
[Board "1"]
[Deal "1: EU E8 E7 GK GO HA H9 SU / E9 G7 HK H8 H7 SK S8 S7 / EA EZ EK EO G9 G8 SA S9 / GA GZ GU HZ HO HU SZ SO"]
[Contract "Rufer E"]
[Declarer "1"]
[Play "1"]
SU H7 EO SO
S9 SZ H9 S7
HA H8 SA HU
HO GO HK G8
GK G7 G9 GZ
HZ EU S8
*
"""

# forehand called T20 (she lacks it); seat 2 holds it and has not shown it: seats 3 and 4 do not know their partner
NORMAL_CALLED_TAROCK_UNSEEN = """[Game "Zwanzigerrufen"]
[Board "1"]
[Deal "1: T19 T14 T1 SK SN HQ HN HJ DJ DG / TS T20 T18 T16 T13 T12 T11 T5 SQ DN / """ \
    """T21 T17 T9 T8 T4 SG CQ CN HK DQ / T15 T10 T7 T6 SJ CK CJ CG HG DK"]
[Contract "Normal"]
[Declarer "1"]
[Play "1"]
DG DN DQ DK
HG HJ T5 HK
SQ SG SJ SN
T11 T4 T6 T1
T12 T8 T7 T14
DJ T13 T9 T10
T16 T17 T15 T19
HN T18{}
*
"""


def brute_force_net(position: Position, state) -> int:
    """The declaring side's double-dummy net from ``state``, every line played out and settled by the scorer."""
    from solver.settlement import final_net

    if state.is_over:
        return final_net(position, state)[0]
    legal = state.legal_cards()
    nets = [brute_force_net(position, state.advance(card)) for card in range(len(position.pack)) if legal >> card & 1]
    return max(nets) if state.to_move in position.rules.declaring_side else min(nets)


def exact_card_values(position: Position, seat: int) -> dict[tuple[int, ...], dict[str, Fraction]]:
    """For every layout the seat's view allows (1-based ``seat`` to move): each legal card's payment to the seat."""
    rules = position.rules
    setup = position_setup(position, seat)
    values = {}
    for hands, sample in consistent(setup).items():
        shares = {}
        for card in range(len(sample.pack)):
            if sample.state.legal_cards() >> card & 1:
                net = brute_force_net(sample, sample.state.advance(card))
                shares[sample.pack[card].name] = Fraction(sample.game.seat_share(sample.rules, seat - 1, net))
        values[hands] = shares
    assert rules.deal.hands in values  # the real deal is among them
    return values


def payment_interval(payments: list[Fraction]) -> tuple[float, float, float]:
    """Mean and 95% interval of payments as advice and the analysis make them: Student's t from the integer sums in
    sixths of a game unit (:data:`solver.sampling.SHARE_SCALE`)."""
    from solver.sampling import SHARE_SCALE

    scaled = [payment * SHARE_SCALE for payment in payments]
    assert all(value.denominator == 1 for value in scaled)
    sixths = [int(value) for value in scaled]
    return tuple(bound / SHARE_SCALE  # type: ignore[return-value]
                 for bound in mean_interval(len(sixths), sum(sixths), sum(value * value for value in sixths)))


#: Seeds over which the intervals' coverage is counted, and the most of them whose interval may miss the exact mean.
COVERAGE_SEEDS, MOST_MISSES = 40, 10


@pytest.mark.parametrize("record, seat, layouts", [
    (RUFER_CALLED_ACE_UNSEEN, 3, 36),  # the ace's holder to move: the partner knows it, the others do not
    (NORMAL_CALLED_TAROCK_UNSEEN.format(""), 3, 110),  # T20 in seat 2 or 4, never forehand's
    (NORMAL_CALLED_TAROCK_UNSEEN.format(" T21"), 4, 24),
])
def test_card_advice_and_the_analysis_value_each_card_as_the_brute_force_does(record, seat, layouts):
    """Each card's mean payment in card advice, and each opening card's and the headline's in the analysis, equal
    the brute force's values averaged over the layouts the samples drew, and their 95% intervals are the Student's t
    intervals of those values (both exactly, at one seed). Whether such an interval holds the brute force's mean
    over every layout the seat's view allows, all alike (docs/batch.md), is chance: asserted at one seed, a change
    in how the sampler draws could fail it for no real fault. So it is counted over 40 seeds' draws of 200 samples
    each, for every card and the headline's best: at most 10 of the 40 intervals may miss, where about 2 are
    expected; at a true miss rate of 5% that many misses come once in some 300,000 checks (7% in some 15,000), while
    a sampler that drew some layouts too often or never, or intervals too narrow, misses far more."""
    position = solver.parse_positions(record)[0]
    values = exact_card_values(position, seat)
    assert len(values) == layouts
    if position.game.name == "Zwanzigerrufen":  # the called tarock's rule: forehand never holds it
        t20 = position.pack.parse("T20").index
        assert not any(hands[0] >> t20 & 1 for hands in values)

    def draws(seed: int) -> list[dict[str, Fraction]]:
        setup = position_setup(position, seat, seed=seed)
        return [values[draw_sample(setup, k)[0].deal.hands] for k in range(samples)]  # KeyError: a layout not allowed

    samples, seed = 200, 3
    drawn = draws(seed)
    advice = card_advice(position, seat, samples=samples, seed=seed, workers=1)
    analysis = analyse_position(position, seat, samples=samples, seed=seed, workers=1)
    assert {row.contract for row in advice.rows} == set(drawn[0])
    openings = {opening.card: opening for opening in analysis.openings}
    for row in advice.rows:
        on_the_samples = sum(shares[row.contract] for shares in drawn) / samples
        assert row.mean == pytest.approx(float(on_the_samples), abs=1e-12)
        assert openings[row.contract].mean_score == pytest.approx(float(on_the_samples), abs=1e-12)
        assert (row.mean, row.low, row.high) == pytest.approx(
            payment_interval([shares[row.contract] for shares in drawn]), abs=1e-12)
    best = [max(shares.values()) for shares in drawn]  # each sample's own best card
    assert analysis.score_mean == pytest.approx(float(sum(best) / samples), abs=1e-12)
    assert analysis.score_interval == pytest.approx(payment_interval(best)[1:], abs=1e-12)
    cards = sorted(drawn[0])
    exact = {card: sum(shares[card] for shares in values.values()) / len(values) for card in cards}
    exact["best"] = sum(max(shares.values()) for shares in values.values()) / len(values)
    misses = dict.fromkeys(exact, 0)
    for other in range(COVERAGE_SEEDS):
        drawn = draws(other)
        for card in exact:
            _, low, high = payment_interval([max(shares.values()) if card == "best" else shares[card]
                                             for shares in drawn])
            misses[card] += not (low <= exact[card] <= high or low == high == exact[card])
    assert max(misses.values()) <= MOST_MISSES, misses


# The Rufer of the Schafkopf example played to the end, cut after five tricks and a lead: seat 2 sees neither the
# called GA nor the caller's leaves, which the bid says are there
RUFER_MIDPLAY = """[Game "Schafkopf"]
[Deal "1: E9 GO G8 G7 HZ H7 SU S8 / EK EO E7 HA HK HO SZ S9 / EZ EU E8 GA G9 HU SK SO / EA GZ GK GU H9 H8 SA S7"]
[Contract "Rufer G"]
[Declarer "1"]
[Play "1"]
GO EO HU H8
SZ SK S7 S8
EK EZ EA E9
SA H7 S9 E8
SU HO EU H9
E7
*
"""


def test_a_rufer_is_dealt_uniformly_with_the_partner_unseen() -> None:
    """Seat 2, a defender who does not know it, five tricks and a lead in: of the 1,680 ways to deal the 9 unseen
    cards, those where the caller holds a plain leaf and not the called ace (RULES.md 2.2) are drawn alike (5,000
    draws), the ace in seat 3's or seat 4's hand."""
    position = solver.parse_positions(RUFER_MIDPLAY)[0]
    setup = position_setup(position, 2, seed=5)
    allowed = consistent(setup)
    ace = position.pack.parse("GA").index
    leaves = sum(1 << position.pack.parse(card).index for card in ("GZ", "GK", "G9", "G8", "G7"))
    assert len(layouts(setup)) == 1680
    assert set(allowed) == {hands for hands in layouts(setup) if hands[0] & leaves and not hands[0] >> ace & 1}
    assert {next(seat for seat in range(4) if hands[seat] >> ace & 1) for hands in allowed} == {2, 3}
    outside, p = uniformity(setup, 5000)
    assert outside == 0 and p > 0.001
