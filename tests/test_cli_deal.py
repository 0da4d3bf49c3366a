"""``stich --version``, ``--help`` and ``stich deal``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
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


def test_the_output_of_two_runs_appended_to_one_file_reads_as_both(tmp_path):
    """`stich deal ... > f; stich deal ... >> f`: each record ends with a blank line, the last one too."""
    first = runner.invoke(app, ["deal", "-g", "zr", "-s", "1", "-n", "2"])
    second = runner.invoke(app, ["deal", "-g", "sk", "-s", "2", "-n", "1", "--first-board", "3"])
    assert first.stdout.endswith('"]\n\n') and second.stdout.endswith('"]\n\n')
    path = tmp_path / "both.tbn"
    path.write_text(first.stdout + second.stdout, encoding="utf-8")
    positions = list(solver.read_positions(path))
    assert [(p.game.name, p.record.get("Board")) for p in positions] == [
        ("Zwanzigerrufen", "1"), ("Zwanzigerrufen", "2"), ("Schafkopf", "3")]


def test_out_naming_stdout_writes_to_stdout_as_the_deals_come(tmp_path):
    """``--out /dev/stdout`` (or ``/dev/fd/1``) is stdout, written as ``-`` is: it went through a temporary file
    copied at the end, so a reader waited for the last deal, and the copy reopened the file and truncated one that
    stdout appends to (``>> deals.tbn`` lost the records already in it)."""
    import os
    import subprocess
    import sys

    if not os.path.exists("/dev/stdout"):
        pytest.skip("no /dev/stdout")
    path = tmp_path / "deals.tbn"
    path.write_text(runner.invoke(app, ["deal", "-g", "sk", "-n", "2"]).stdout, encoding="utf-8")
    for name, first in (("/dev/stdout", 3), ("/dev/fd/1", 5)):
        with open(path, "a", encoding="utf-8") as appended:
            done = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "deal", "-g",
                                   "sk", "-n", "2", "--first-board", str(first), "--out", name], stdout=appended,
                                  stderr=subprocess.PIPE, text=True)
        assert (done.returncode, done.stderr) == (0, "")
    assert [p.record.get("Board") for p in solver.read_positions(path)] == ["1", "2", "3", "4", "5", "6"]


def test_out_is_stdout_by_its_names_or_as_the_file_stdout_is_redirected_to(tmp_path, monkeypatch):
    """``--out`` is stdout by its names, stdout open or not, and where stdout is redirected to that regular file;
    ``/dev/null`` never by what it is, so that ``--out /dev/null > /dev/null`` is not taken for stdout (``bench --json``
    refusing it, exit 2), and ``--out run.json --json > run.json`` is not told to give a file."""
    import os
    import sys

    from solver.cli.output import is_stdout

    for name in ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
        assert is_stdout(Path(name))
    monkeypatch.setattr(sys, "stdout", None)  # closed, as ``>&-`` leaves it
    assert is_stdout(Path("/dev/stdout")) and not is_stdout(Path("/dev/null")) and not is_stdout(None)
    redirected = tmp_path / "run.json"
    with open(redirected, "w", encoding="utf-8") as stdout, open(os.devnull, "w", encoding="utf-8") as null:
        monkeypatch.setattr(sys, "stdout", stdout)
        assert is_stdout(redirected) and not is_stdout(tmp_path / "other.json")
        monkeypatch.setattr(sys, "stdout", null)
        assert not is_stdout(Path(os.devnull))


def test_bench_json_out_is_refused_only_where_it_is_stdout(tmp_path):
    """``bench --json`` writes its lines to stdout, so an ``--out`` that is stdout too is refused, said as a name of
    stdout or as the file stdout is redirected to; ``/dev/null`` both times is no clash (it exited 2)."""
    import os
    import subprocess
    import sys

    if not os.path.exists(os.devnull):
        pytest.skip("no /dev/null")

    def bench(out: str, stdout: str) -> subprocess.CompletedProcess:
        with open(stdout, "w", encoding="utf-8") as redirected:
            return subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "bench", "-g",
                                   "kratzen", "-n", "1", "--threads", "1", "--time-limit", "0", "--json", "--out",
                                   out], stdout=redirected, stderr=subprocess.PIPE, text=True, timeout=300)

    assert bench(os.devnull, os.devnull).returncode == 0
    run_file = str(tmp_path / "run.json")
    refused = bench(run_file, run_file)
    assert refused.returncode == 2 and (f"--out {run_file} is where stdout is redirected, where --json writes its "
                                        "lines: give --out another file") in " ".join(refused.stderr.split())
    refused = bench("/dev/stdout", str(tmp_path / "lines.jsonl"))
    assert refused.returncode == 2 and ("--out /dev/stdout writes to stdout, where --json writes its "
                                        "lines: give --out a file") in " ".join(refused.stderr.split())


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


def test_kratzen_deal_takes_a_pot_as_the_board_does():
    """`stich deal` takes --pot as the board's Deal form writes a Kratzen pot: --pot N writes each record's [Pot] tag
    (RULES.md 3.4), the same record as the board deals for that seed; a game paid from no pot refuses it."""
    from solver.board.session import new_deal
    from solver.formats.tbn import format_record
    from solver.scoring import scoring_inputs

    result = runner.invoke(app, ["deal", "-g", "kratzen", "--seats", "4", "-s", "7", "-n", "2", "--pot", "12"])
    assert result.exit_code == 0, result.output
    records = result.stdout.strip().split("\n\n")
    assert all(record.endswith('[Pot "12"]') for record in records)
    assert [scoring_inputs(p) for p in solver.parse_positions(result.stdout)] == [12, 12]
    plain = runner.invoke(app, ["deal", "-g", "kratzen", "--seats", "4", "-s", "7", "-n", "2"]).stdout
    assert result.stdout.replace('[Pot "12"]\n', "") == plain  # the deals themselves do not change
    assert records[0] == format_record(new_deal("Kratzen", None, 7, 4, 1, 12)).strip()
    refused = runner.invoke(app, ["deal", "-g", "sk", "--pot", "12"])
    assert refused.exit_code == 2 and "Schafkopf has no pot (it is for Kratzen)" in refused.stderr
    assert refused.stdout == "" and "Traceback" not in refused.output
    assert runner.invoke(app, ["deal", "-g", "kr", "--pot", "-1"]).exit_code == 2


def test_deal_to_a_file(tmp_path):
    out = tmp_path / "deals.tbn"
    result = runner.invoke(app, ["deal", "-g", "kr", "-n", "2", "--out", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert len(list(solver.read_positions(out))) == 2


def test_bad_input_exits_1_without_traceback():
    result = runner.invoke(app, ["deal", "-g", "bridge"])  # a usage error, as in every command's --game
    assert result.exit_code == 2 and "unknown game 'bridge'" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_usage_errors_exit_2():
    assert runner.invoke(app, ["deal"]).exit_code == 2
    assert runner.invoke(app, ["deal", "-g", "sk", "-n", "0"]).exit_code == 2
    # a contract the game named with --game does not have is a wrong option, as a flag or seat count it has not is
    result = runner.invoke(app, ["deal", "-g", "sk", "-c", "Rufer H"])
    assert result.exit_code == 2 and "hearts cannot be called" in result.stderr and "--contract" in result.stderr
    # -o is --objective everywhere: deal writes with --out only
    result = runner.invoke(app, ["deal", "-g", "sk", "-o", "x.tbn"])
    assert result.exit_code == 2 and "No such option: -o" in result.stderr


def test_deal_variant_changes_bid_checks_and_is_written():
    # with 3 suit cards enough, seat 1 may be dealt a Suit Solo that the default (5) would redeal
    loose = runner.invoke(app, ["deal", "-g", "zr", "-c", "SuitSolo", "-n", "5", "--variant",
                                "suit_solo_min_suit_cards=3"]).stdout
    strict = runner.invoke(app, ["deal", "-g", "zr", "-c", "SuitSolo", "-n", "5"]).stdout
    assert loose != strict
    positions = solver.parse_positions(loose)
    assert all(p.rules.variant["suit_solo_min_suit_cards"] == 3 for p in positions)
    result = runner.invoke(app, ["deal", "-g", "zr", "--variant", "no_such=1"])
    assert result.exit_code == 2 and "unknown variant flag" in result.output  # an option's value: a usage error
    result = runner.invoke(app, ["deal", "-g", "zr", "--variant", "solo_value=6"])
    assert result.exit_code == 2 and "solo_value takes a number" in result.output


def test_bench_variant_needs_a_game():
    assert runner.invoke(app, ["bench", "--variant", "must_undertrump=false"]).exit_code == 2


# --- option values, scheduler addresses and messages of the commands ------------------------------------------------


def _run(*args: object, code: int):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    return result


def _said(result) -> str:
    """stderr with Typer's usage box taken apart: its message as one line of words."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stderr).split())


def test_option_values_out_of_their_range_are_usage_errors(tmp_path):
    assert "Schafkopf is played by 4 seats, not 5" in _said(_run("deal", "-g", "sk", "--seats", "5", code=2))
    assert "has no seat 5" in _said(_run("deal", "-g", "sk", "--declarer", "5", code=2))
    # one message for every seat the game lacks, the game's, whether Typer's range (1<=x<=6) holds it or not
    for command in (["deal", "-g", "sk"], ["match", "-g", "sk", "--bots", "random,random,random,random", "-n", "1"]):
        for seat in ("0", "5", "7", "-1"):
            said = _said(_run(*command, "--declarer", seat, code=2))
            assert f"Invalid value for '--declarer': Schafkopf with 4 seats has no seat {seat}" in said, said
    assert _run("deal", "-g", "kratzen", "--seats", "5", "--declarer", "5", code=0).stdout.count("[Deal ") == 1
    tree = _run("tree", "examples/kratzen.tbn", "--depth", "999", "--out", tmp_path / "t.json", code=2)
    assert "--depth" in tree.stderr
    for bad in ("=", "a=b=c", "sagotrick=", "=off"):
        assert "is not of the form NAME=VALUE" in _said(_run("solve", "examples/kratzen.tbn", "--variant", bad,
                                                                code=2))
    assert "--pot" in _run("score", "examples/kratzen.tbn", "--pot", "10000000000", code=2).stderr


def test_a_flag_twice_in_one_variant_tag_or_an_announcement_twice_is_an_error(tmp_path):
    twice = tmp_path / "twice.tbn"
    twice.write_text('[Game "Kratzen"]\n[Deal "1: EA G7 HA HK / E7 HU HZ S9 / E9 SO SZ S7"]\n[Contract "Trump H"]\n'
                     '[Variant "must_undertrump=yes, must_undertrump=no"]\n')
    assert "variant flag must_undertrump is given twice" in _run("solve", twice, code=1).stderr
    assert solver.Variant.parse_pairs(["sagotrick=off", "sagotrick=any_order"]) == {"sagotrick": "any_order"}


def test_scheduler_addresses():
    from solver.cli.options import scheduler_address
    assert scheduler_address("host") == "host:8786" and scheduler_address("tcp://10.0.0.1") == "tcp://10.0.0.1:8786"
    assert scheduler_address("tcp://[::1]:9000") == "tcp://[::1]:9000"
    for bad in ("tcp://host:notaport", "tcp://host:70000", "http://host:1", "tcp://", "tcp://h:٣", "inproc://x"):
        result = _run("batch", "examples/kratzen.tbn", "--out", "/nonexistent/x.jsonl", "--scheduler", bad, code=2)
        assert "is not a Dask scheduler address" in _said(result)


def test_errors_name_the_stream_or_file_that_failed():
    import os
    if os.path.exists("/dev/full"):
        import subprocess
        import sys

        # stdout buffered or not (PYTHONUNBUFFERED): said once, exit 1 (buffered, the buffer's rest failed again at
        # exit: "Exception ignored", exit 120)
        for unbuffered in (True, False):
            environment = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
            environment.update({"PYTHONUNBUFFERED": "1"} if unbuffered else {})
            with open("/dev/full", "w") as full:
                done = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "deal",
                                       "-g", "sk"], stdout=full, stderr=subprocess.PIPE, text=True, env=environment)
            assert done.returncode == 1 and done.stderr == "stich: <stdout>: No space left on device\n", unbuffered
        # a device named by --out is refused by name before any deal is made, not written through
        assert _run("deal", "-g", "sk", "--out", "/dev/full", code=1).stderr.strip() == \
            ("stich: /dev/full: cannot be written: it is a device, not a file (standard output, /dev/null, a "
             "terminal and a named pipe are written as the output comes; any other name a file)")
    if os.path.exists("/proc/self/mem"):
        result = _run("solve", "/proc/self/mem", code=1)
        assert result.stderr.strip() == "stich: /proc/self/mem: Input/output error"


def test_the_first_record_shown_has_no_blank_line_before_it(tmp_path):
    bad_then_good = tmp_path / "mixed.tbn"
    bad_then_good.write_text('[Game "Kratzen"]\n[Deal "1: XX"]\n[Contract "Trump H"]\n\n'
                             + Path("examples/kratzen.tbn").read_text())
    result = _run("solve", bad_then_good, code=1)
    assert result.stdout.startswith("board 1") and "XX" in result.stderr


def test_contract_advice_asked_of_a_record_says_it_is_of_a_hand():
    """Which contract a record's hand should have been: ``analyse FILE --contract all`` (or a list) is refused as
    contract advice, which is of a hand, not as the record's own contract given twice ("a record says them
    itself"); one contract beside FILE is refused so."""
    for contracts in ("all", "Solo, Normal"):
        said = " ".join(_run("analyse", "examples/valat.tbn", "--seat", "1", "--contract", contracts,
                             code=2).stderr.split())
        assert (f"contract advice (--contract {contracts}) is of a hand, not of a record: give --game and --hand "
                "with --seat instead of FILE (the record's [Deal] tag lists its hands)") in said, said
    assert "give either FILE or --game" in _run("analyse", "examples/valat.tbn", "--seat", "1", "--contract", "Solo",
                                                code=2).stderr


def test_analyse_from_a_file_takes_no_declarer_and_names_its_record():
    result = _run("analyse", "examples/schafkopf.tbn", "--seat", "2", "--declarer", "2", code=2)
    assert "give either FILE or --game" in result.stderr
    report = _run("analyse", "examples/schafkopf.tbn", "--seat", "2", "-b", "1", "-n", "2", "-j", "1", code=0)
    assert report.stdout.startswith("board 1 (examples/schafkopf.tbn:")


def test_a_contract_the_declarer_can_never_bid_is_a_usage_error_at_once():
    """Only forehand declares a Zwanzigerrufen Normal game (RULES.md 1.2): a rule of seats, not of the cards, so it
    is said at once instead of after 10,000 deals tried."""
    result = runner.invoke(app, ["deal", "-g", "zr", "--contract", "Normal", "--declarer", "2"])
    assert result.exit_code == 2
    assert "seat 2 cannot bid Normal in Zwanzigerrufen: in a Normal game forehand (seat 1) is the declarer" in \
        result.stderr
    assert runner.invoke(app, ["deal", "-g", "zr", "--contract", "Solo", "--declarer", "2"]).exit_code == 0
    with pytest.raises(solver.StichError, match="seat 3 cannot bid Normal T19"):
        solver.random_record("zr", 1, 1, contract="Normal T19", declarer=3)
    # without a contract, the everyday one (Zwanzigerrufen's Normal game) is the one refused, at once too
    result = runner.invoke(app, ["deal", "-g", "zr", "--declarer", "2"])
    assert result.exit_code == 2 and "seat 2 cannot bid Normal in Zwanzigerrufen" in result.stderr
    assert "give --contract" in result.stderr
    with pytest.raises(solver.StichError, match="seat 2 cannot bid Normal in Zwanzigerrufen"):
        solver.random_record("zr", 1, 1, declarer=2)
    assert runner.invoke(app, ["deal", "-g", "sk", "--declarer", "2"]).exit_code == 0
    # contract advice of seat 2 asks for the contracts it may bid, not the everyday Normal game (which it may not)
    advice = runner.invoke(app, ["analyse", "--game", "zr", "--hand", "T21 T20 T18 T15 T9 T1 HK HQ SK CG",
                                 "--seat", "2", "--contract", "all", "-n", "2", "-j", "1"])
    assert advice.exit_code == 0 and "Solo" in advice.stdout, advice.stderr


def test_an_unknown_contract_for_match_is_a_usage_error_as_for_deal():
    for command in (["deal", "-g", "sk"], ["match", "-g", "sk", "--bots", "random,random,random,random", "-n", "1"]):
        result = runner.invoke(app, [*command, "-c", "Solo X"])
        assert result.exit_code == 2 and "'X' is not a suit" in result.stderr, command


def _help(*command: str) -> str:
    """A command's --help page with its box drawing and line breaks taken out, to search for a phrase."""
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stdout).split())


def test_help_says_what_show_and_score_time_limit_do():
    """show's FILE help says every record is shown, not "analysed" (show analyses nothing), and score's --time-limit
    says a record out of time has its settlement left out, not that it is "not answered" (with --dd a finished deal's
    score is still given)."""
    show = _help("show")
    assert "every record is shown" in show and "analysed" not in show
    score = _help("score")
    assert ("past it the record's settlement is left out (said on stderr, exit 1), a finished deal's score still "
            "given") in score
    assert "not answered (exit 1); the other" not in score
    assert "past it the record is said on stderr and not answered (exit 1)" in _help("solve")


def test_a_sie_refusal_says_all_eight_obers_and_unters(tmp_path):
    """"needs all four Obers and Unters" read as four of each rank: Sie needs the four Obers and the four Unters."""
    record = tmp_path / "sie.tbn"
    record.write_text('[Game "Schafkopf"]\n[Deal "1: EO EU GO GU HO HU SO EA / SU E9 E8 E7 GK G9 G8 G7 / HA HZ HK GZ '
                      'H9 H8 H7 EZ / SA SZ SK S9 S8 S7 GA EK"]\n[Contract "Sie"]\n[Declarer "1"]\n')
    result = runner.invoke(app, ["solve", str(record)])
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "Sie needs all eight Obers and Unters (the four Obers and the four Unters); seat 1 lacks some" in \
        result.stderr


def test_a_sie_is_dealt_with_its_obers_and_unters_and_the_rest_at_random():
    """A Sie is dealt, not searched for among random deals (one in ten million holds the eight, so `deal -c Sie` and the
    board's Deal dialog would say "no deal in 10000 tries"): the declarer is dealt the eight (Game.cards_to_bid) and the
    rest at random, each other card in each other hand about as often (a uniform deal of what is left); the same seed
    gives the same deals."""
    from collections import Counter

    from solver.generate import random_records

    result = runner.invoke(app, ["deal", "-g", "schafkopf", "-c", "Sie", "--declarer", "3", "-n", "2", "-s", "5"])
    assert result.exit_code == 0, result.stderr
    positions = solver.parse_positions(result.stdout)
    assert [(p.rules.contract.text, p.rules.declarer) for p in positions] == [("Sie", 2)] * 2
    assert all(p.game.is_whole(p.rules.deal) for p in positions)
    assert runner.invoke(app, ["deal", "-g", "sk", "-c", "Sie", "--declarer", "3", "-n", "2", "-s", "5"]).stdout \
        == result.stdout
    places: Counter = Counter()
    for record in random_records("schafkopf", 1, 300, contract="Sie"):
        deal = solver.position_from_record(record).rules.deal
        places.update((card, deal.holder(card)) for card in range(32) if deal.holder(card) != 0)
    assert {seat for _, seat in places} == {1, 2, 3} and len(places) == 24 * 3
    assert 60 <= min(places.values()) and max(places.values()) <= 140, places.most_common(3)  # 100 expected


def test_holding_puts_the_needed_cards_in_the_hand_and_leaves_a_uniform_deal_of_the_rest():
    """The Sie test cannot see which of the declarer's own cards stay (a Sie hand is the eight), so holding() is
    checked on a Kratzen deal of 3 seats (4 cards each, 21 undealt) needing 2 cards: each is always in the seat,
    the hand sizes and the undealt pile are unchanged, and every other card is in each place as often as in a
    uniform deal where the seat holds the 2 (the seat's 2 other cards: 2 in 31). A bias such as keeping the hand's
    lowest cards puts EK (the lowest card not needed) in seat 1 some 12 standard deviations too often; the bound
    is 5 (this seed's largest deviation is 3.3)."""
    import math
    import random
    from collections import Counter

    from solver.games import get_game
    from solver.generate import holding

    game, draws = get_game("kratzen"), 4000
    pack = game.pack
    needed = {pack.parse("EA").index, pack.parse("S6").index}
    mask = sum(1 << card for card in needed)
    rng, places = random.Random("holding"), Counter()
    for _ in range(draws):
        deal = game.deal_random(rng, 3)
        held = holding(deal, 0, mask, rng)
        assert held.hands[0] & mask == mask
        assert [hand.bit_count() for hand in held.hands] == [hand.bit_count() for hand in deal.hands] == [4, 4, 4]
        places.update((card, held.holder(card)) for card in range(len(pack)) if card not in needed)
    share = {0: 2 / 31, 1: 4 / 31, 2: 4 / 31, None: 21 / 31}  # None: undealt
    assert sum(places[card, None] for card in range(len(pack))) == 21 * draws
    for card in set(range(len(pack))) - needed:
        for place, p in share.items():
            expected = draws * p
            assert abs(places[card, place] - expected) <= 5 * math.sqrt(expected * (1 - p)), (
                pack[card].name, place, places[card, place], round(expected))


def test_a_seed_is_any_64_bit_seed_as_on_the_board():
    """``stich deal`` takes every 64-bit seed, signed or unsigned, another tool may hand on (one range, as the board's);
    a seed beyond it is refused with that range by deal, match, bench and analyse, and by the library."""
    from solver.generate import random_record

    top = runner.invoke(app, ["deal", "-g", "kratzen", "-s", str(2**64 - 1)])
    assert top.exit_code == 0 and f'[Seed "{2**64 - 1}"]' in top.stdout
    for command in (["deal", "-g", "kratzen"], ["match", "-g", "kratzen", "-n", "1"], ["bench", "-g", "kratzen"],
                    ["analyse", "--game", "kratzen", "--hand", "EO E9 SU SZ", "--seat", "1", "-c", "Trump S"]):
        result = runner.invoke(app, [*command, "-s", str(2**64)])
        assert result.exit_code == 2 and "18446744073709551616 is not a whole number from " \
            "-18,446,744,073,709,551,615 to 18,446,744,073,709,551,615" in " ".join(result.stderr.split()), \
            (command, result.stderr)
    with pytest.raises(solver.StichError, match="seed must be a whole number from -18,446,744,073,709,551,615 to"):
        random_record("Kratzen", -(2**64), 1)


def test_the_help_says_what_the_commands_do():
    """Help read at 80 columns against the commands: ``stich --help`` says tree prints a summary without --out (with
    --json the tree), not that it writes a graph file; deal's says a Kratzen deal gets a pot only with --pot;
    postmortem's --plot names OUT itself for a file of one record too, not only with --board or --record; tree's --depth
    says a tree ends with the deal; and the FILE of solve, check, table, score and postmortem names more than --board.
    """
    def helped(*args: str) -> str:
        result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        return " ".join(result.stdout.split())

    assert "tree The game tree of --depth cards with double-dummy values: a summary, JSON or a graph file." in \
        helped()
    assert ("With --pot, a game paid from a pot (Kratzen) gets it as each record's [Pot] tag (without it, none)"
            in helped("deal"))
    assert "[Pot" not in runner.invoke(app, ["deal", "-g", "kr", "-n", "2"]).stdout
    assert "OUT itself with --board or --record, or for a file of one record" in helped("postmortem")
    assert "a tree ends with the deal, so at most the cards left" in helped("tree")
    for command in ("solve", "check", "table", "score", "postmortem"):
        assert "every record is analysed (see --board, --record)" in helped(command), command
