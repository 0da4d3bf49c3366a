"""The double-dummy settlement: the engine's settlement search against the reference minimax, the payoff table
against the scorer, the API and the example where the settlement-optimal play differs from the points-optimal one.

The differential run checks 330 seeded endings (3-4 tricks left, a third with a trick in progress) with random
announcements and scoring variants: Zwanzigerrufen Normal and Solo with Pagat, Valat, Absolut, Mondfang and Kontra
levels, Schafkopf Rufer, Solo, Wenz and Tout (Schneider and Schwarz thresholds), Kratzen with a pot (the attacker's
payment). The reference scores every finished deal with the ordinary scorer, not the payoff table. The engine is
checked on one thread and on two sharing its table (src_ext/parallel.pxd, "The settlement"). Zero disagreements are
allowed. That run is marked slow; the fast tier checks a small sample of its own, 12 endings of
3 tricks a configuration.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game_cases import (SCALE, SETTLEMENT_CONFIGS, TRICKS_CYCLE, random_announcements, random_ending, random_rules,
                        random_state, settlement_config_id)
from solver import StichError, dd_settlement, make_position, read_positions
from solver.cards import bits
from solver.games.outcome import MAX_POT
from solver.generate import random_record
from solver.games import get_game
from solver.position import Position, position_from_record
from solver.scoring import score_deal
from solver.search.settle import PayoffComponent, PayoffSpec, SettlementEngine, bucket_tuples, reference_settlement
from solver.settlement import final_net, payoff_spec, play_out

#: two threads really run two, even on a one-core machine (conftest.py)
pytestmark = pytest.mark.usefixtures("two_cores_at_least")

ENGINE = SettlementEngine(8, threads=1)
#: Two threads sharing the table, on every ending (they are shorter than the default's 5 tricks): the differential
#: tests check both engines
TWO_THREADS = SettlementEngine(8, threads=2)
TWO_THREADS.engine.parallel_min_tricks = 2
#: The small sample's endings: a 4-trick one costs the reference some twenty times a 3-trick one.
SAMPLE_POSITIONS, SAMPLE_TRICKS_CYCLE = 12, (3,)


def _settlements_agree(config, seed: str, positions: int, cycle: tuple[int, ...]) -> None:
    rng = random.Random(seed + settlement_config_id(config))
    values = set()
    for number in range(positions):
        position, announcements, pot, spec = random_ending(config, rng, number, cycle)

        def score(final):
            return final_net(position, final, announcements=announcements, pot=pot)[0]

        expected = reference_settlement(position.state, spec, score)
        for engine in (ENGINE, TWO_THREADS):
            got = engine.value(position.state, spec)
            assert got == expected, f"{settlement_config_id(config)} #{number} {announcements!r} pot {pot}, " \
                                    f"{engine.threads} threads"
        values.add(got)
    assert len(values) > 1  # the configuration produced positions that settle differently


@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS, ids=[settlement_config_id(c) for c in SETTLEMENT_CONFIGS])
def test_engine_settlement_agrees_with_reference_on_a_small_sample(config):
    _settlements_agree(config, "settlement sample:", SAMPLE_POSITIONS, SAMPLE_TRICKS_CYCLE)


@pytest.mark.slow
@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS, ids=[settlement_config_id(c) for c in SETTLEMENT_CONFIGS])
def test_engine_settlement_agrees_with_reference(config):
    _settlements_agree(config, "settlement:", config[3] * SCALE, TRICKS_CYCLE)


def deciding_components(spec: PayoffSpec) -> list[str]:
    """The components the payoff never falls in, whatever the others' buckets (src_ext/settle.pxd, Step 7)."""
    tuples = bucket_tuples(spec.components)
    table = dict(zip(tuples, spec.table))
    return [c.name for i, c in enumerate(spec.components)
            if all(table[b] <= table[b[:i] + (b[i] + 1,) + b[i + 1:]] for b in tuples if b[i] < len(c.thresholds))]


@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS[::2], ids=[settlement_config_id(c)
                                                                 for c in SETTLEMENT_CONFIGS[::2]])
def test_a_payoff_no_component_decides_agrees_with_reference(config):
    """The engine answers a payoff threshold question by a search on one component where the payoff never falls in
    it (every game's tables have one); a table without one, here a checkerboard of the buckets, is searched on the
    payoff itself, and agrees with the reference as well."""
    rng = random.Random("checkerboard:" + settlement_config_id(config))
    values = set()
    for number in range(8):
        position, _, _, spec = random_ending(config, rng, number)
        assert deciding_components(spec)
        board = PayoffSpec(spec.declaring_side, spec.components,
                           tuple(10 if sum(b) % 2 else -10 - b[0] for b in bucket_tuples(spec.components)))
        assert not deciding_components(board)

        def score(final, board=board):
            return board.payoff(board.accumulated(final))

        expected = reference_settlement(position.state, board, score)
        assert ENGINE.value(position.state, board) == expected, f"#{number}"
        assert TWO_THREADS.value(position.state, board) == expected, f"#{number}, two threads"
        if not position.state.is_over:
            line = ENGINE.line(position.state, board, expected)
            assert score(play_out(position.state, line)) == expected, f"#{number}"
        values.add(expected)
    assert values == {10, -10} or len(values) > 1


@pytest.mark.parametrize("game,contract", [("schafkopf", "Wenz"), ("schafkopf", "Rufer G"),
                                           ("zwanzigerrufen", "Solo")])
def test_the_line_of_a_whole_deal_keeps_the_value_with_the_lowest_card(game, contract):
    """Whole deals: at every turn of the engine's line, its card is the lowest-indexed legal card whose child settles
    at the value (each child searched on its own), and the finished deal scores it."""
    for board in range(1, 4):
        position = position_from_record(random_record(game, 11, board, contract=contract, declarer=1))
        spec = payoff_spec(position)
        value = ENGINE.value(position.state, spec)
        state = position.state
        for card in ENGINE.line(state, spec, value):
            keeping = next(c for c in bits(state.legal_cards()) if ENGINE.value(state.advance(c), spec) == value)
            assert card == keeping, f"board {board}, after {len(state.history_cards())} cards"
            state = state.advance(card)
        assert final_net(position, state)[0] == value, f"board {board}"


def test_the_default_run_checks_at_least_300_positions():
    assert sum(c[3] for c in SETTLEMENT_CONFIGS) * SCALE >= 330


@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS[::2], ids=[settlement_config_id(c)
                                                                 for c in SETTLEMENT_CONFIGS[::2]])
def test_payoff_table_scores_finished_deals_like_the_scorer(config):
    """Random whole playouts: the table entry of the final component values is the scorer's net."""
    rng = random.Random("table:" + settlement_config_id(config))
    for number in range(25):
        position, announcements, pot, _ = random_ending(config, rng, number)
        start = Position(position.game, position.rules, position.rules.start())
        spec = payoff_spec(start, announcements=announcements, pot=pot)
        final = start.state
        while not final.is_over:
            final = final.advance(rng.choice(final.legal_list()))
        net, settled = final_net(start, final, announcements=announcements, pot=pot)
        assert spec.payoff(spec.accumulated(final)) == net
        assert net == sum(settled.payments[s] for s in position.rules.declaring_side)


# --- the API ------------------------------------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE = str(EXAMPLES / "settlement.tbn")


def example_position() -> Position:
    return next(read_positions(EXAMPLE))


def whole_example() -> Position:
    position = example_position()
    return Position(position.game, position.rules, position.rules.start(), record=position.record)


@pytest.mark.parametrize("where", ["record", "whole deal"])
def test_the_example_settles_better_than_the_points_optimal_play(where):
    position = example_position() if where == "record" else whole_example()
    result = dd_settlement(position)
    assert (result.value, result.points_optimum) == (12, 88)
    # the points-optimal line settles worse than the settlement-optimal play ...
    assert result.points_line_value == 8 < result.value
    # ... and so does every strategy that forces the most points: the best play must give points away
    assert result.value_keeping_points == 8 < result.value
    assert result.differs
    assert result.line_points == 75 < result.points_optimum
    # the line ends in a whole deal whose ordinary score is the settlement: the Pagat, no Valat
    final = position
    for card in result.line_names:
        final = Position(final.game, final.rules, final.state.play(final.pack.parse(card).index),
                         record=final.record)
    settled = score_deal(final)
    assert settled.payments == result.payments
    assert sum(settled.payments[s - 1] for s in result.declaring_side) == result.value
    names = {item.name for item in settled.items if item.winners == (1, 4)}
    assert names == {"game", "absolut", "pagat_ultimo"}


def test_the_example_ending_agrees_with_the_reference():
    """The example three tricks from the end of its settlement line (small for the reference), every field."""
    position = example_position()
    state = position.state
    for card in dd_settlement(position).line[:8]:
        state = state.advance(card)
    ending = Position(position.game, position.rules, state, record=position.record)
    engine, reference = dd_settlement(ending), dd_settlement(ending, reference_solver=True)
    assert (engine.value, engine.value_keeping_points, engine.points_optimum, engine.line, engine.points_line) == \
        (reference.value, reference.value_keeping_points, reference.points_optimum, reference.line,
         reference.points_line)


def test_a_finished_deal_settles_as_scored():
    position = next(read_positions(EXAMPLES / "pagat_ultimo.tbn"))
    state = position.state
    while not state.is_over:
        state = state.advance(state.legal_list()[0])
    finished = Position(position.game, position.rules, state, record=position.record)
    result = dd_settlement(finished)
    assert result.line == ()
    assert result.payments == score_deal(finished).payments


def test_a_finished_deal_with_the_pagat_in_the_last_trick_settles_as_scored():
    """The Pagat example played out along its DD line: the Pagat wins the last trick, and the payoff table of the
    finished deal must still see it."""
    position = next(read_positions(EXAMPLES / "pagat_ultimo.tbn"))
    state = position.state
    for card in dd_settlement(position).line:
        state = state.advance(card)
    finished = Position(position.game, position.rules, state, record=position.record)
    result = dd_settlement(finished)
    assert "pagat_ultimo" in {item.name for item in result.items}
    assert result.value == sum(score_deal(finished).payments[s] for s in (0, 1)) > 0


def test_the_pagat_example_is_worth_pagat_and_valat():
    """examples/pagat_ultimo.tbn: the declarers force Valat with the Pagat in the last trick."""
    result = dd_settlement(next(read_positions(EXAMPLES / "pagat_ultimo.tbn")))
    names = {item.name for item in result.items if item.winners == (1, 2)}
    assert {"game", "pagat_ultimo", "valat"} <= names
    assert result.line_names[-4] == "T1"
    assert result.value == sum(result.payments[s - 1] for s in (1, 2)) > 0


def test_schafkopf_sie_needs_no_search():
    deal = "1: EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / GK G9 G8 G7 HA HZ HK H9 / H8 H7 SA SZ SK S9 S8 S7"
    result = dd_settlement(make_position("Schafkopf", deal, "Sie"))
    assert result.value == 156
    assert result.payments == (156, -52, -52, -52)


@pytest.mark.parametrize("deal, declarer, value, payments, items", [
    # the four Unters and the four best acorns: every trick, v = 10 + 2 x 4 = 18
    ("1: EU GU HU SU EA EZ EK EO / E9 E8 E7 GA GZ GK GO G9 / G8 G7 HA HZ HK HO H9 H8 / H7 SA SZ SK SO S9 S8 S7",
     1, 54, (54, -18, -18, -18), [("game", 10), ("laufende", 8)]),
    # seat 1's EA takes trick 1 from seat 4's Wenz Tout (EO is an acorn in a Wenz): v = 10 + 2 x 2 = 14
    ("1: EA EZ EK E9 GA GZ GK G9 / E8 E7 G8 G7 SA SZ SK S9 / HU SU S8 S7 H7 HK H9 H8 / EO GO HO SO EU GU HA HZ",
     4, -42, (14, 14, 14, -42), [("game", 10), ("laufende", 4)]),
])
def test_a_wenz_tout_settles_at_10_plus_2l_won_or_lost(deal, declarer, value, payments, items):
    """RULES.md 2.5 (line 145): "Tout v = 10 + 2L (no S)", the declarer +-3v; the Laufende count from 2 in a Wenz
    Tout (line 143) and no Schwarz is paid for the eight tricks."""
    result = dd_settlement(make_position("Schafkopf", deal, "WenzTout", declarer=declarer))
    assert (result.value, result.payments) == (value, payments)
    assert [(item.name, item.value) for item in result.items] == items


def test_bad_announcements_are_a_stich_error():
    position = example_position()
    with pytest.raises(StichError, match="dagegen"):
        dd_settlement(position, announcements="1: Valat dagegen")


def test_captured_card_bonuses_are_refused():
    position = next(read_positions(EXAMPLES / "pagat_ultimo.tbn", variant={"card_bonus_basis": "captured"}))
    with pytest.raises(StichError, match="captured"):
        dd_settlement(position)


def test_a_payoff_spec_checks_its_table():
    component = PayoffComponent("points", position_objective(), (3, 2))
    with pytest.raises(StichError, match="ascending"):
        PayoffSpec(frozenset({0}), (component,), (0, 0, 0))
    component = PayoffComponent("points", position_objective(), (2, 3))
    with pytest.raises(StichError, match="needs 3 entries"):
        PayoffSpec(frozenset({0}), (component,), (0, 0))
    with pytest.raises(StichError, match="beyond"):
        PayoffSpec(frozenset({0}), (component,), (0, 0, 10 ** 16))


#: Settlements far beyond the engine's int16 values: a Kratzen pot of nine digits, and a Zwanzigerrufen Solo worth 5
#: with a Valat multiplying the total and Resupra on the game and on the Valat.
HUGE_PAYOFFS = [(("Kratzen", "Trump H", {}), None, MAX_POT),
                (("Zwanzigerrufen", "Solo", {"solo_value": "5", "valat_mode": "multiplies_total"}),
                 "D: Valat; F: Kontra; D: Retour; F: Supra; D: Resupra; F: Kontra Valat; D: Retour Valat; "
                 "F: Supra Valat; D: Resupra Valat", None)]


@pytest.mark.parametrize("config, template, pot", HUGE_PAYOFFS, ids=["Kratzen-pot", "ZR-Resupra"])
def test_payoffs_of_any_size_are_searched_by_their_ranks(config, template, pot):
    """The engine searches each payoff's rank among the table's entries (``PayoffSpec.ranks``), so a settlement of
    any size agrees with the reference's, which scores every finished deal with the real scorer."""
    rng = random.Random("huge payoffs:" + config[0])
    values = set()
    for number in range(8):
        rules = random_rules(config, rng)
        state = random_state(rules, rng, tricks_left=min(3, rules.tricks_in_deal), mid_trick=number % 2 == 1)
        position = Position(get_game(config[0]), rules, state)
        announcements = None
        if template:
            defender = min(rules.defending_side) + 1
            announcements = template.replace("D:", f"{min(rules.declaring_side) + 1}:").replace("F:", f"{defender}:")
        spec = payoff_spec(position, announcements=announcements, pot=pot)
        assert max(abs(v) for v in spec.table) > 40_000

        def score(final):
            return final_net(position, final, announcements=announcements, pot=pot)[0]

        expected = reference_settlement(position.state, spec, score)
        for engine in (ENGINE, TWO_THREADS):
            assert engine.value(position.state, spec) == expected
        line = ENGINE.line(position.state, spec, expected)
        assert score(play_out(position.state, line)) == expected
        values.add(expected)
    assert len(values) > 1


def test_a_whole_deal_of_the_most_stacked_solo_settles():
    """The most stacked Solo's whole deal pays 47,232, beyond the +-20,000 that payoffs searched as they are would
    fit in: it settles all the same."""
    position = list(read_positions(EXAMPLES / "zwanzigerrufen.tbn",
                                   variant={"solo_value": "5", "valat_mode": "multiplies_total"}))[2]
    result = dd_settlement(position, announcements=HUGE_PAYOFFS[1][1].replace("D:", "3:").replace("F:", "1:"))
    assert (result.value, result.value_keeping_points) == (47_232, 47_232)


def test_the_engine_loader_range_checks():
    from solver import _engine

    engine = _engine.Engine(1)
    with pytest.raises(ValueError, match="load_tables first"):
        engine.load_payoff(1, [], [], [0])
    with pytest.raises(ValueError, match="load_payoff first|load_tables"):
        engine.settle([])
    position = example_position()
    spec = payoff_spec(position)
    loaded = SettlementEngine(1)
    loaded.value(position.state, spec)  # loads tables, payoff and state
    raw = loaded.engine
    with pytest.raises(ValueError, match="accumulated components"):
        raw.settle([0])
    with pytest.raises(ValueError, match="thresholds must ascend"):
        raw.load_payoff(1, [(1, 1, 0, [])], [[5, 5]], [0, 0, 0])
    with pytest.raises(ValueError, match="payoff table needs"):
        raw.load_payoff(1, [(1, 1, 0, [])], [[5]], [0])
    with pytest.raises(ValueError, match="payoff ="):
        raw.load_payoff(1, [(1, 1, 0, [])], [[5]], [0, 10 ** 6])


def position_objective():
    return example_position().rules.objective("points")


# --- the CLI ------------------------------------------------------------------------------------------------------


def cli(*args: str, code: int = 0):
    from typer.testing import CliRunner

    from solver.cli.main import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_score_dd_shows_the_settlement_and_the_points_play():
    import json

    (document,) = [json.loads(line) for line in cli("score", EXAMPLE, "--dd", "--json").stdout.splitlines()]
    dd = document["dd"]
    assert "items" not in document  # the record's play stops after five tricks: no actual score
    assert (dd["from"], dd["value"], dd["points_line_value"], dd["value_keeping_points"], dd["differs"]) == \
        ("end_of_play", 12, 8, 8, True)
    assert dd["line"][-4:] == ["T1", "HG", "DG", "SG"] and dd["payments"] == [6, -6, -6, 6]
    text = cli("score", EXAMPLE, "--dd").stdout
    # a play that stops short is settled from where it stops: it has no end yet
    assert "Double-dummy settlement (from where the play stops): declarers 1+4 net +12 game units" in text
    assert "gives up points to score more" in text and "T1 \u2665G \u2666G \u2660G" in text  # painted


def test_score_dd_of_a_deal_not_yet_played_is_from_its_start(tmp_path):
    """A fresh deal (no Play section, as `stich deal` writes it) is settled from its start, and says so, not "from
    the end of the play" of a play that never began."""
    import json

    path = tmp_path / "deal.tbn"
    path.write_text('[Game "Kratzen"]\n[Seats "4"]\n[Deal "1: GA GK G9 HZ / EU G7 H9 SU / S6 EK H8 S8 / E8 SA S9 S7"]\n'
                    '[Contract "Trump S"]\n[Pot "12"]\n')
    (document,) = [json.loads(line) for line in cli("score", path, "--dd", "--json").stdout.splitlines()]
    assert (document["dd"]["from"], document["dd"]["value"], document["dd"]["cards_on_table"]) == ("start", -24, 0)
    text = cli("score", path, "--dd").stdout
    assert "Double-dummy settlement (from the start): attacker seat 1 net -24 chips" in text
    assert "where the play stops" not in text


def test_score_dd_says_why_its_line_can_take_more_than_the_most_forced():
    """Schafkopf board 7: the settlement's line takes 26 points, more than the 22 the declarers can force, since the
    defenders play for the score: the text says so, lest the two figures read as a contradiction."""
    text = " ".join(cli("score", EXAMPLES / "schafkopf.tbn", "--board", "7", "--dd").stdout.split())
    assert "the line takes 26 points; the most the declarers can force is 22 (the other side, playing for the " \
        "score, need not hold the declarers down where it does not change it)" in text


def test_score_dd_says_why_its_line_can_take_fewer_than_the_most_forced(tmp_path: Path):
    """A Rufer whose declarers can force 101 points but are paid no more above the Schneider's 91: the settlement's
    line takes 93, and the text says why, as it does for a line that takes more than the most forced."""
    path = tmp_path / "rufer.tbn"
    path.write_text('[Game "Schafkopf"]\n[Deal "1: EK GU G7 HK HO HU S9 S7 / EO EU E7 GA GZ GK H9 S8 / '
                    'EZ E9 G9 G8 HA H8 H7 SK / EA E8 GO HZ SA SZ SO SU"]\n[Contract "Rufer E"]\n')
    settled = dd_settlement(next(read_positions(path))).as_dict()
    assert (settled["line_points"], settled["points_optimum"], settled["differs"]) == (93, 101, False)
    text = " ".join(cli("score", path, "--dd").stdout.split())
    assert "the line takes 93 points; the most the declarers can force is 101 (the declarers, playing for the " \
        "score, need not take more where it does not change it)" in text
    assert "the best settlement while the declarers force their 101 points: +4" in text


def test_score_dd_of_a_solo_speaks_of_one_declarer():
    """A Zwanzigerrufen Solo has one declarer: the lines under the settlement speak of seat 3 as one, not "the
    declarers", and the items table names the items by the rule book (Game, Absolut, Valat; docs/scoring.md), not by
    their JSON names."""
    text = " ".join(cli("score", EXAMPLES / "zwanzigerrufen.tbn", "--board", "3", "--dd").stdout.split())
    assert "the most the declarer can force is 88" in text
    assert "the best settlement while the declarer forces his 88 points: +90" in text
    assert "declarers" not in text
    assert "Valat │ seat 3 │ 1+2+4 │ 24" in text and "valat │" not in text


def test_score_dd_of_a_complete_deal_starts_from_the_deal(tmp_path):
    import json

    position = whole_example()
    line = dd_settlement(position).line_names
    record = example_text().split("[Play")[0] + '[Play "1"]\n' + "\n".join(
        " ".join(line[i:i + 4]) for i in range(0, 40, 4)) + "\n*\n"
    path = tmp_path / "played.tbn"
    path.write_text(record, encoding="utf-8")
    (document,) = [json.loads(line) for line in cli("score", path, "--dd", "--json").stdout.splitlines()]
    assert document["dd"]["from"] == "start" and document["dd"]["value"] == 12
    assert document["payments"] == [6, -6, -6, 6]  # the actual score of the played (optimal) line
    assert "Payments (double dummy)" in cli("score", path, "--dd").stdout


def test_score_dd_reports_bad_input_without_a_traceback(tmp_path):
    path = tmp_path / "bad.tbn"
    path.write_text(example_text().replace("2: Kontra Pagat", "1: Valat dagegen"), encoding="utf-8")
    result = cli("score", path, "--dd", code=1)
    assert "dagegen" in result.stderr


def test_table_has_a_settlement_column():
    import json

    (document,) = [json.loads(line) for line in cli("table", EXAMPLES / "schafkopf.tbn", "-b", "5", "--json")
                   .stdout.splitlines()]
    entries = [e for e in document["entries"] if e["biddable"]]
    assert entries and all(isinstance(e["settlement"], int) for e in entries)
    tout = next(e for e in entries if e["contract"] == "SoloTout G" and e["declarer"] == 1)
    assert tout["settlement"] > 0 and tout["won"]
    assert "settlement" in cli("table", EXAMPLES / "schafkopf.tbn", "-b", "5").stdout
    (plain,) = [json.loads(line) for line in cli("table", EXAMPLES / "schafkopf.tbn", "-b", "5", "--json",
                                                 "--no-settlement").stdout.splitlines()]
    assert all(e["settlement"] is None for e in plain["entries"])


def example_text() -> str:
    return Path(EXAMPLE).read_text(encoding="utf-8")


def test_a_payoff_table_is_scored_once_per_deal_and_what_it_depends_on() -> None:
    """The scorer runs up to 120 times for a Zwanzigerrufen table: it is kept, keyed by what it depends on
    (``Game.settlement_key``), so that a hint on every card of a deal pays for it once, and other announcements get
    a table of their own."""
    position = next(iter(read_positions(Path(__file__).parent.parent / "examples" / "valat.tbn")))
    first = payoff_spec(position)
    assert payoff_spec(position) is first
    later = position.state.play(position.state.legal_list()[0])
    assert payoff_spec(position, later) is first  # the Pagat and the Mond are where they were
    other = payoff_spec(position, announcements="1: Valat")
    assert other is not first and other.table != first.table
    assert payoff_spec(position, announcements="1: Valat") is other


def with_cards_together(deal, rng: random.Random, groups):
    """``deal`` with one group of ``groups`` (or none) moved into one random hand, swapped for cards of that hand:
    the Trull, the four Kings or the top trumps dealt together far more often than at random."""
    group = rng.choice(groups + [()])
    if not group:
        return deal
    hands = list(deal.hands)
    seat = rng.randrange(deal.seats)
    for card in group:
        holder = deal.holder(card)
        if holder == seat:
            continue
        give = rng.choice([c for c in bits(hands[seat]) if c not in group])
        hands[seat] ^= (1 << give) | (1 << card)
        hands[holder] ^= (1 << give) | (1 << card)
    return type(deal)(deal.pack, tuple(hands))


#: Cards a payoff reads where they were dealt: the Trull and the four Kings, the top trumps (Laufende).
DEALT_GROUPS = {"Zwanzigerrufen": [("TS", "T21", "T1"), ("SK", "CK", "HK", "DK")],
                "Schafkopf": [("EO", "GO", "HO"), ("EO", "GO", "HO", "SO", "EU"), ("EU", "GU", "HU")]}


@pytest.mark.parametrize("config", SETTLEMENT_CONFIGS[:7], ids=[settlement_config_id(c)
                                                                for c in SETTLEMENT_CONFIGS[:7]])
def test_a_payoff_table_shared_across_deals_is_each_deals_own(config):
    """Deals with one ``Game.settlement_key`` and the same components share a payoff table: every table handed out
    (kept from another deal or not) equals the deal's own, scored by ``settlement_model`` and item by item, on whole
    deals and endings with the variant flags, announcements and cards dealt together that the payoff reads."""
    from solver.search import settle
    from solver.scoring import scoring_inputs
    from solver.settlement import _tables, bonuses_made, payoff_table

    game_name, contract, choices, _ = config
    game = get_game(game_name)
    groups = [tuple(game.pack.parse(n).index for n in group) for group in DEALT_GROUPS[game.name]]
    rng = random.Random("shared tables:" + settlement_config_id(config))
    _tables.clear()
    shared = 0
    variants = [{}, {flag: rng.choice(values) for flag, values in choices.items()}]
    for number in range(80):
        variant = variants[number % 2]
        while True:
            rules = random_rules((game_name, contract, variant), rng)
            try:
                rules = game.rules(with_cards_together(rules.deal, rng, groups), contract,
                                   declarer=rules.declarer + 1, variant=variant)
            except StichError:
                continue
            state = random_state(rules, rng, tricks_left=rng.choice([None, None, 6, 3]))
            position = Position(game, rules, state)
            announcements = random_announcements(rules, rng) if number % 4 == 0 and game.has_announcements else None
            try:
                inputs = scoring_inputs(position, announcements=announcements)
                components, net = game.settlement_model(rules, state, inputs)
                break
            except StichError:
                continue
        values = [tuple(c.representative(b) for c, b in zip(components, buckets))
                  for buckets in settle.bucket_tuples(tuple(components))]
        kept = len(_tables)
        table = payoff_table(position, inputs=inputs)
        shared += len(_tables) == kept
        assert table.spec.components == tuple(components) and table.spec.declaring_side == rules.declaring_side
        assert table.spec.table == tuple(net(v) for v in values), f"#{number} {announcements!r} {variant}"
        items = game.settlement_items(rules, state, inputs)[1]
        assert table.made == tuple(bonuses_made(rules, items(v)) for v in values), f"#{number}"
    assert shared >= 10  # tables were handed to other deals


def test_print_names_the_declaring_seat_as_score_dd_s_headline_does():
    """``stich score --dd``'s headline and ``print(dd_settlement(...))`` name the declaring seat in one form
    (role_text: ``declarer seat 1 net +21 game units``), for a Wenz's declarer, a Rufer's side and Kratzen's
    attacker."""
    from typer.testing import CliRunner

    from cli.main import app
    for name, board, expected in (("schafkopf.tbn", "2", "declarer seat 1 net +21 game units"),
                                  ("kratzen.tbn", "1", "attacker seat 1 net 0 chips")):
        position = [p for p in read_positions(EXAMPLES / name) if p.label == f"board {board}"][0]
        printed = str(dd_settlement(position)).splitlines()[0]
        assert printed.endswith(f", double dummy: {expected}")
        shown = CliRunner().invoke(app, ["score", str(EXAMPLES / name), "--board", board, "--dd"])
        assert shown.exit_code == 0, shown.output
        assert f"): {expected}\n" in shown.stdout


def test_final_net_notes_a_pot_of_0_asking_for_a_pot_only_where_none_was_given():
    """A finished Kratzen deal scored with no pot asks for one; ``pot=0`` given on purpose is noted alone.
    ``settle``'s pot is keyword-only, so that it is not taken for its inputs."""
    import inspect

    from solver.games.outcome import POT_ZERO_SCORE_GIVEN_NOTE, POT_ZERO_SCORE_NOTE
    from solver.scoring import settle

    position = next(p for p in read_positions(str(EXAMPLES / "kratzen.tbn")) if p.record.get("Pot") is None)
    final = position.state
    while not final.is_over:
        final = final.advance(final.legal_list()[0])
    assert POT_ZERO_SCORE_NOTE in final_net(position, final)[1].notes
    given = final_net(position, final, pot=0)[1].notes
    assert POT_ZERO_SCORE_GIVEN_NOTE in given and POT_ZERO_SCORE_NOTE not in given
    assert inspect.signature(settle).parameters["pot"].kind is inspect.Parameter.KEYWORD_ONLY
