"""``stich --version``, ``--help`` and ``stich deal``."""

from __future__ import annotations

from typer.testing import CliRunner

import solver
from solver.cli.main import app

runner = CliRunner()


def test_version_and_help():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"stich {solver.__version__}"
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "deal" in result.stdout


def test_deal_writes_seeded_records_that_read_back():
    result = runner.invoke(app, ["deal", "--game", "schafkopf", "--contract", "Wenz", "--seed", "7", "-n", "3"])
    assert result.exit_code == 0
    positions = solver.parse_positions(result.stdout)
    assert [p.rules.contract.text for p in positions] == ["Wenz"] * 3
    assert all(p.game.is_whole(p.rules.deal) for p in positions)
    again = runner.invoke(app, ["deal", "-g", "sk", "-c", "Wenz", "-s", "7", "-n", "3"])
    assert again.stdout == result.stdout  # the same seed gives the same deals
    other = runner.invoke(app, ["deal", "-g", "sk", "-c", "Wenz", "-s", "8", "-n", "3"])
    assert other.stdout != result.stdout


def test_board_k_does_not_depend_on_how_many_are_asked_for():
    one = runner.invoke(app, ["deal", "-g", "zr", "-s", "5", "-n", "1", "--first-board", "4"]).stdout
    four = runner.invoke(app, ["deal", "-g", "zr", "-s", "5", "-n", "4"]).stdout
    assert one.strip() == four.strip().split("\n\n")[-1]


def test_kratzen_seats_and_contract_bid_checks():
    result = runner.invoke(app, ["deal", "-g", "kratzen", "--seats", "6", "-n", "2"])
    positions = solver.parse_positions(result.stdout)
    assert [p.rules.seats for p in positions] == [6, 6]
    result = runner.invoke(app, ["deal", "-g", "zr", "-c", "SuitSolo", "--declarer", "3", "-n", "2"])
    for position in solver.parse_positions(result.stdout):  # the Suit Solo declarer holds 5 suit cards
        hand = position.rules.deal.hands[2]
        assert sum(1 for c in position.pack if c.suit != "T" and hand >> c.index & 1) >= 5


def test_deal_to_a_file(tmp_path):
    out = tmp_path / "deals.tbn"
    result = runner.invoke(app, ["deal", "-g", "kr", "-n", "2", "--out", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert len(list(solver.read_positions(out))) == 2


def test_bad_input_exits_1_without_traceback():
    result = runner.invoke(app, ["deal", "-g", "bridge"])  # a usage error, as in every command's --game
    assert result.exit_code == 2 and "unknown game 'bridge'" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    result = runner.invoke(app, ["deal", "-g", "sk", "-c", "Rufer H"])
    assert result.exit_code == 1 and "hearts cannot be called" in result.stderr


def test_usage_errors_exit_2():
    assert runner.invoke(app, ["deal"]).exit_code == 2
    assert runner.invoke(app, ["deal", "-g", "sk", "-n", "0"]).exit_code == 2


def test_deal_variant_changes_bid_checks_and_is_written():
    # with 3 suit cards enough, seat 1 may be dealt a Suit Solo that the default (5) would redeal
    loose = runner.invoke(app, ["deal", "-g", "zr", "-c", "SuitSolo", "-n", "5", "--variant",
                                "suit_solo_min_suit_cards=3"]).stdout
    strict = runner.invoke(app, ["deal", "-g", "zr", "-c", "SuitSolo", "-n", "5"]).stdout
    assert loose != strict
    positions = solver.parse_positions(loose)
    assert all(p.rules.variant["suit_solo_min_suit_cards"] == 3 for p in positions)
    result = runner.invoke(app, ["deal", "-g", "zr", "--variant", "no_such=1"])
    assert result.exit_code == 1 and "unknown variant flag" in result.stderr


def test_bench_variant_needs_a_game():
    assert runner.invoke(app, ["bench", "--variant", "must_undertrump=false"]).exit_code == 2
