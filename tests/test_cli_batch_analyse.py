"""``stich batch`` and ``stich analyse`` through the command line (CliRunner), on deals that solve in milliseconds."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solver
from solver.checkpoint import room_refusal
from solver.cli.main import app
from solver.formats.tbn import format_record

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def write_deals(path, count=12):
    records = solver.random_records("Kratzen", 3, count, seats=4)
    path.write_text("\n".join(format_record(r) for r in records))


def test_batch_writes_one_line_per_record_and_resumes(tmp_path):
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals)
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 12 and len({line["id"] for line in lines}) == 12
    # every value equals a direct solve of the same record
    for line, position in zip(lines, solver.read_positions(deals)):
        expected = solver.solve(position, "tricks", seat=1).total
        assert json.dumps(expected) in json.dumps(line)
    again = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert again.exit_code == 0
    assert out.read_text().count("\n") == 12  # nothing solved twice


def test_batch_reports_a_bad_record_and_goes_on(tmp_path):
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 3)
    text = deals.read_text().replace('[Contract "Trump', '[Contract "Trumpet', 1)
    deals.write_text(text)
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 1
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sum("error" in line for line in lines) == 1 and len(lines) == 3
    assert "Traceback" not in result.stderr


def test_batch_json_prints_the_runs_summary_as_one_document(tmp_path):
    """``--json`` is every reporting command's machine output, batch's too (``BatchSummary.as_dict`` is what ``stich
    batch --json`` prints), so that a script need not read the counts from stderr: it prints the summary, the same on a
    rerun that resumes, in the schema of json.md."""
    from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 4)
    deals.write_text(deals.read_text().replace('[Contract "Trump', '[Contract "Trumpet', 1))
    first = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1", "--json"])
    again = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1", "--json"])
    documents = []
    for result in (first, again):
        assert result.exit_code == 1, result.stderr  # the bad record's error line
        assert result.stdout.count("\n") == 1 and "Traceback" not in result.stderr
        documents.append(json.loads(result.stdout))
        assert not schema_errors(documents[-1], SCHEMA)
        assert documents[-1].pop("seconds") >= 0
    common = {"schema": "stich-result/1", "command": "batch", "source": str(deals), "out": str(out), "records": 4,
              "errors": 1, "duplicates": 0, "repeated": 0, "stale": 0, "stale_ids": []}
    pot_note = "pot 0: every line settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"
    second = [number for number, line in enumerate(deals.read_text().splitlines(), 1) if line.startswith("[Game")][1]
    assert documents == [{**common, "skipped": 0, "solved": 3,
                          "notes": [{"note": pot_note, "records": 3, "first": f"{deals}:{second}"}]},
                         {**common, "skipped": 3, "solved": 0, "notes": []}]
    assert len(out.read_text().splitlines()) == 4


def test_batch_folds_the_count_into_a_note_that_ends_in_a_bracket(tmp_path):
    """The ending's note ends "(docs/scoring.md)": its count goes inside that bracket, not in a second one after it;
    a note without a closing bracket keeps the count in brackets of its own."""
    result = runner.invoke(app, ["batch", str(EXAMPLES / "schafkopf.tbn"), "--out", str(tmp_path / "out.jsonl"),
                                 "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    notes, source = result.stderr.splitlines()[:-1], EXAMPLES / "schafkopf.tbn"
    assert "stich: batch: an ending: scored on the cards it holds, as a whole deal would be (docs/scoring.md; 1 " \
           f"record solved now, at {source}:88)" in notes
    assert "stich: batch: card points: a Wenz Tout's score does not count them (won by every trick); objective " \
           f"'score' measures it (1 record solved now, at {source}:56)" in notes


def test_batch_says_the_notes_of_its_lines_once_each(tmp_path):
    """Kratzen deals written by ``stich deal`` without ``--pot`` have no pot, so every score settles at 0: ``solve``
    says so under each answer, and batch says each note once on stderr with its count (the lines keep theirs), not only
    in the lines' ``notes``, where a researcher would read 120 zeros as results, in the words ``solve`` says it once
    on stderr; ``--pot 0`` is said without asking for a pot, and with a pot there is none."""
    deals = tmp_path / "deals.tbn"
    write_deals(deals, 5)
    note = "pot 0: every line settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"
    result = runner.invoke(app, ["batch", str(deals), "--out", str(tmp_path / "out.jsonl"), "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    first = f"{deals}:1"  # the first record whose line carries the note, where to look
    assert result.stderr.splitlines()[:-1] == [
        "stich: batch: pot 0: every line settles at 0 chips: give the record a [Pot] tag, or --pot CHIPS (5 records "
        f"solved now, the first at {first})"]
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert all(line["notes"] == [note] and line["results"][0]["total"] == 0 for line in lines)
    given = runner.invoke(app, ["batch", str(deals), "--out", str(tmp_path / "given.jsonl"), "--workers", "1",
                                "--pot", "0"])
    assert given.exit_code == 0, given.stderr
    assert given.stderr.splitlines()[:-1] == [
        f"stich: batch: pot 0: every line settles at 0 chips (5 records solved now, the first at {first})"]
    summary = solver.solve_batch(deals, tmp_path / "potted.jsonl", workers=1, pot=3)
    assert summary.notes == () and "note:" not in str(summary)
    lines = [json.loads(line) for line in (tmp_path / "potted.jsonl").read_text().splitlines()]
    assert all("notes" not in line for line in lines) and any(line["results"][0]["total"] != 0 for line in lines)
    again = solver.solve_batch(deals, tmp_path / "out.jsonl", workers=1)  # a rerun writes nothing: no note
    assert again.notes == () and again.skipped == 5


def test_batch_says_where_the_one_record_without_a_pot_is(tmp_path):
    """Of records paid from a pot, the one without a [Pot] tag is named by its place, as every other command names
    it, on a pool too, whose chunks come back in any order."""
    records = [format_record(record) for record in solver.random_records("Kratzen", 5, 4, seats=3)]
    parts = [record if number == 2 else record + '[Pot "12"]\n' for number, record in enumerate(records)]
    deals = tmp_path / "deals.tbn"
    deals.write_text("\n".join(parts))
    line = "\n".join(parts[:2]).count("\n") + 2  # the third record's first line, after the blank line between
    result = runner.invoke(app, ["batch", str(deals), "--out", str(tmp_path / "out.jsonl"), "--workers", "2",
                                 "--chunk-size", "1"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[:-1] == [
        "stich: batch: pot 0: every line settles at 0 chips: give the record a [Pot] tag, or --pot CHIPS (1 record "
        f"solved now, at {deals}:{line})"]


def test_batch_lines_asked_with_a_pot_are_in_the_schema(tmp_path):
    """``--pot`` puts ``pot`` into every line's ``asked``, which the schema's closed ``batchAsked`` lists, so that every
    line of such a run validates against docs/stich-result.schema.json."""
    from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 3)
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1", "--pot", "3"])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 3 and all(line["asked"]["pot"] == 3 for line in lines)
    assert [schema_errors(line, SCHEMA) for line in lines] == [[], [], []]


def test_an_output_in_a_missing_folder_is_said_as_such(tmp_path):
    """``--out results/out.jsonl`` before ``mkdir results`` names the missing folder (batch's --out and analyse's
    --checkpoint alike), exit 1, nothing made, not the hidden lock file the user never named
    (``.../results/.out.jsonl.lock: cannot create the lock file of results/out.jsonl (No such file or directory)``)."""
    deals = tmp_path / "deals.tbn"
    write_deals(deals, 2)
    missing = tmp_path / "results"
    expected = (f"stich: {missing / 'out.jsonl'}: cannot be written: the folder {missing} does not exist (make it, "
                "or choose another file)\n")
    result = runner.invoke(app, ["batch", str(deals), "--out", str(missing / "out.jsonl"), "--workers", "1"])
    assert (result.exit_code, result.stderr) == (1, expected)
    checkpoint = runner.invoke(app, ["analyse", "--game", "kratzen", "--hand", "HA S6 HK HO", "--seat", "1",
                                     "--contract", "Trump H", "-n", "3", "-j", "1", "--checkpoint",
                                     str(missing / "out.jsonl")])
    assert (checkpoint.exit_code, checkpoint.stderr) == (1, expected)
    assert not missing.exists()


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="needs Linux's /proc")
def test_an_output_in_a_folder_no_file_can_be_made_in_does_not_say_the_folder_is_missing(tmp_path):
    """/proc exists, but no file can be made in it (ENOENT, as for a missing folder): the system's reason is said, not
    'the folder /proc does not exist', which is wrong."""
    deals = tmp_path / "deals.tbn"
    write_deals(deals, 1)
    result = runner.invoke(app, ["batch", str(deals), "--out", "/proc/out.jsonl", "--workers", "1"])
    assert (result.exit_code, result.stderr) == (1, "stich: /proc/out.jsonl: cannot be written: the folder /proc "
                                                    "takes no new file (No such file or directory)\n")
    # an output written through a temporary beside it (deal --out) says the same
    dealt = runner.invoke(app, ["deal", "-g", "kratzen", "-n", "1", "--out", "/proc/deals.tbn"])
    assert dealt.exit_code == 1
    assert dealt.stderr == "stich: /proc/deals.tbn: cannot be written: the folder /proc takes no new file (No such " \
                           "file or directory)\n"


def test_analyse_is_reproducible_and_reports_probabilities():
    args = ["analyse", "--game", "kratzen", "--hand", "HA S6 HK HO", "--seat", "1", "--contract", "Trump H",
            "--samples", "20", "--seed", "4", "--workers", "1", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.stderr
    second = runner.invoke(app, args)
    assert first.stdout == second.stdout
    report = json.loads(first.stdout)
    # the four top trumps (HA, the Weli, HK, HO) take every trick whatever the others hold
    assert report["samples"] == 20 and report["win_probability"] == 1.0 and report["mean"] == 4.0
    assert all(opening["win_probability"] == 1.0 for opening in report["openings"])


def test_a_single_contract_analysis_takes_a_time_limit_as_the_advice_does():
    """--time-limit is taken by a single contract's analysis as by contract and card advice, since a player asking for
    one contract's odds wants an answer in time too: it stops with the samples solved so far, said as such, exit 0."""
    hand = ["--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract", "Rufer E"]
    for args in (hand, [str(EXAMPLES / "schafkopf.tbn"), "--board", "1", "--seat", "3"]):
        result = runner.invoke(app, ["analyse", *args, "-n", "100000", "--workers", "1", "--time-limit", "0.5"])
        assert result.exit_code == 0, result.stderr
        assert "of 100,000 samples (seed 1), stopped by the time limit: the figures of these" in result.stdout
        report = json.loads(runner.invoke(app, ["analyse", *args, "-n", "100000", "--workers", "1", "--time-limit",
                                                "0.5", "--json"]).stdout.splitlines()[0])
        assert report["stopped"] == "time limit" and 1 <= report["samples"] < 100000 and report["requested"] == 100000


def test_card_advice_for_the_opening_lead_of_a_hand_without_a_record():
    """--cards from a hand, without a FILE, is card advice on the same samples as the single analysis (the means agree
    card for card), with paired intervals and each bonus's odds, which the opening-card table's means lack."""
    hand = ["--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract", "Rufer E",
            "-n", "20", "--seed", "1", "--workers", "1", "--json"]
    advice = runner.invoke(app, ["analyse", *hand, "--cards"])
    assert advice.exit_code == 0, advice.stderr
    document = json.loads(advice.stdout)
    assert document["command"] == "card-advice" and document["played"] == [] and document["samples"] == 20
    assert document["hand"] == ["EU", "E8", "E7", "GK", "GO", "HA", "H9", "SU"]  # the seat's cards, as given
    analysis = json.loads(runner.invoke(app, ["analyse", *hand]).stdout)
    openings = {opening["card"]: opening["mean_score"] for opening in analysis["openings"]}
    assert {card["card"]: card["mean"] for card in document["cards"]} == pytest.approx(openings)
    assert all(card["interval"][0] is not None and "schneider" in card["bonuses"] for card in document["cards"])
    text = runner.invoke(app, ["analyse", *hand[:-1], "--cards"]).stdout
    # the header names the hand it advises, not only the seat and the cards played
    assert "Schafkopf, Rufer E: seat 1 to move after 0 cards played, holding EU E8 E7 GK GO HA H9 SU" in text
    assert "behind the best" in text
    refused = runner.invoke(app, ["analyse", *hand[:-1], "--cards", "--seat", "2"])
    assert refused.exit_code == 1
    assert refused.stderr == "stich: card advice is for the seat to move, seat 1, not seat 2\n"


def test_card_advice_from_a_hand_says_what_its_deal_was_asked_with():
    """Card advice from a hand says its declarer, known cards and variant (no record says them there), as the
    single-contract analysis of the same question does: both documents give them alike."""
    from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

    hand = ["--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract", "Rufer G",
            "--declarer", "3", "--known", "2:SA", "--known", "4:EA EZ", "--variant",
            "laufende_mode=only_if_holder_wins", "-n", "4", "--seed", "1", "--workers", "1", "--json"]
    advice = runner.invoke(app, ["analyse", *hand, "--cards"])
    assert advice.exit_code == 0, advice.stderr
    document = json.loads(advice.stdout)
    assert schema_errors(document, SCHEMA) == []
    analysis = json.loads(runner.invoke(app, ["analyse", *hand]).stdout)
    for key in ("seats", "variant", "contract", "declarer", "seat", "hand", "known"):
        assert document[key] == analysis[key], key
    assert document["declarer"] == 3 and document["known"] == {"2": ["SA"], "4": ["EA", "EZ"]}
    assert document["variant"]["laufende_mode"] == "only_if_holder_wins"
    assert "record" not in document
    # and the text says the known cards under the hand, as the analysis does, and above it the --variant flags
    # other than the game's defaults, as a record's title ends with them
    text = runner.invoke(app, ["analyse", *hand[:-1], "--cards"]).stdout.splitlines()
    assert text[:4] == ["rules: laufende_mode=only_if_holder_wins",
                        "Schafkopf, Rufer G (declarer seat 3): seat 1 to move after 0 cards played, holding EU E8 "
                        "E7 GK GO HA H9 SU",
                        "known in seat 2: SA", "known in seat 4: EA EZ"]
    # from a FILE the --known cards used are said: the document and the text say them
    on_file = ["analyse", "examples/schafkopf.tbn", "--board", "1", "--seat", "3", "--cards", "-n", "2", "-j", "1",
               "--known", "4:SK"]
    document = json.loads(runner.invoke(app, [*on_file, "--json"]).stdout)
    assert document["known"] == {"4": ["SK"]} and schema_errors(document, SCHEMA) == []
    assert runner.invoke(app, on_file).stdout.splitlines()[1:3] == [
        "Schafkopf, Rufer G (declarer seat 1): seat 3 to move after 16 cards played, holding GA GO SA SO",
        "known in seat 4: SK"]
    assert "known" not in json.loads(runner.invoke(app, [*on_file[:-2], "--json"]).stdout)  # none given: the record's


def test_analyse_a_kratzen_hand_at_a_larger_table():
    """--seats: a five-seat Kratzen hand, its four other seats' targets each reported, as analyse_hand gives it."""
    args = ["analyse", "--game", "kratzen", "--seats", "5", "--hand", "EA EO HA S7", "--seat", "5", "--contract",
            "Trump H", "--samples", "8", "--seed", "1", "--workers", "1", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["seats"] == 5 and report["seat"] == 5
    assert sorted(b["seat"] for b in report["bonuses"]) == [1, 2, 3, 4, 5]
    expected = solver.analyse_hand("Kratzen", "EA EO HA S7", 5, "Trump H", seats=5, samples=8, seed=1, workers=1)
    assert report == json.loads(json.dumps(expected.as_dict()))
    wrong = runner.invoke(app, ["analyse", "--game", "schafkopf", "--seats", "5", "--hand", "EO GO HO EU GU HA HZ HK",
                                "--seat", "1", "--contract", "Solo H", "--samples", "2"])
    assert wrong.exit_code == 2 and "played by 4 seats, not 5" in wrong.output  # as deal says it: a usage error


def test_analyse_without_seed_uses_seed_1_as_deal_and_match_do():
    """One default seed for every command that draws (docs/cli.md, --seed): analyse's is 1, as deal's and match's are.
    """
    args = ["analyse", "--game", "kratzen", "--hand", "EA EO HA S7", "--seat", "1", "--contract", "Trump H",
            "--samples", "4", "--workers", "1", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["seed"] == 1
    expected = solver.analyse_hand("Kratzen", "EA EO HA S7", 1, "Trump H", samples=4, seed=1, workers=1)
    assert report == json.loads(json.dumps(expected.as_dict()))
    for command in ("deal", "analyse", "match"):
        page = " ".join(runner.invoke(app, [command, "--help"]).stdout.split())
        assert "[default: 1]" in page.split("--seed SEED", 1)[1][:160], command


def test_a_single_contract_is_named_by_its_name_not_as_typed():
    """``-c "rufer e"`` headed the report ``Schafkopf rufer e`` (and JSON ``"contract": "rufer e"``), where every
    other report, and contract advice, names it ``Rufer E``."""
    args = ["analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract",
            " rufer e ", "-n", "2", "-j", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Schafkopf Rufer E, seat 1: ")
    assert json.loads(runner.invoke(app, [*args, "--json"]).stdout)["contract"] == "Rufer E"


def test_analyse_rejects_a_card_twice():
    result = runner.invoke(app, ["analyse", "--game", "kratzen", "--hand", "HA HA S6 HK", "--seat", "1",
                                 "--contract", "Trump H", "--samples", "5"])
    assert result.exit_code == 2 and "Invalid value for '--hand': HA appears twice" in result.stderr


def test_a_card_twice_by_another_of_its_names_says_how_it_was_written():
    """HC is the heart Cavalier HN, XX the tarock T20: a hand holding HC and HN names the card HN once, as the
    library does (``seat 1: HN appears twice (written 'HC')``), so that the player sees which token was the second."""
    hand = ["analyse", "--game", "zwanzigerrufen", "--seat", "1", "--contract", "all", "-n", "1", "-j", "1"]
    twice = runner.invoke(app, [*hand, "--hand", "T1 T21 T20 T19 T18 HK HQ HC HJ HN"])
    assert twice.exit_code == 2
    assert "Invalid value for '--hand': HN appears twice (written 'HC')" in twice.stderr
    known = runner.invoke(app, [*hand, "--hand", "T1 T21 T20 T19 T18 HK HQ HN HJ HA", "--known", "2:XX"])
    assert known.exit_code == 2
    assert "Invalid value for '--known': T20 appears twice (written 'XX') (and in --hand)" in known.stderr


def test_analyse_from_a_record_mid_play(tmp_path):
    """``stich analyse FILE --seat N``: the seat's hand as dealt and the play so far, the other hands redealt."""
    record = tmp_path / "played.tbn"
    text = format_record(list(solver.random_records("Kratzen", 3, 2, seats=4))[1])
    position = solver.parse_positions(text)[0]
    first = solver.solve(position, "tricks", seat=1, line=True).line[0]
    record.write_text(text.rstrip() + f'\n[Play "{position.state.leader + 1}"]\n{position.rules.pack[first].name}\n*\n')
    args = ["analyse", str(record), "--seat", "3", "--samples", "10", "--seed", "1", "--workers", "1", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["played"] == [position.rules.pack[first].name] and report["samples"] == 10
    assert 0 <= report["win_probability"] <= 1
    both = runner.invoke(app, args + ["--game", "Kratzen"])
    assert both.exit_code == 2 and "either FILE or" in both.stderr
    neither = runner.invoke(app, ["analyse", "--seat", "1"])
    assert neither.exit_code == 2 and "missing --game" in neither.stderr


def test_batch_progress_outside_a_terminal_is_a_line_now_and_then(monkeypatch, capsys) -> None:
    """A cluster job's log gets one plain line per interval instead of nothing until the end."""
    import cli.batch as batch_command

    monkeypatch.setattr(batch_command._Bar, "LOG_SECONDS", 0.0)
    with batch_command._Bar() as update:
        update(5, 10)
    assert "stich: 5 of 10 written (" in capsys.readouterr().err


def test_the_bonuses_table_says_whose_objective_it_is():
    """A declaring hand's 'game' can never be forced against it, so one column is 0.0% by construction: the table says
    whose objective it is, and splits the two only where the sides change from sample to sample (a Pagat whose holder
    the deal decides)."""
    from solver.sampling import forced_by_whom as _forced_by_whom

    def bonus(ours, theirs, for_side):
        return {"probability_for": ours, "probability_against": theirs, "samples_for_side": for_side}

    assert _forced_by_whom(bonus(0.765, 0.0, 200), 200) == ("the hand's side", "76.5%")
    assert _forced_by_whom(bonus(0.0, 0.035, 0), 200) == ("the other side", "3.5%")
    assert _forced_by_whom(bonus(0.1, 0.05, 120), 200) == ("either, by the deal",
                                                            "10.0% by the hand's side, 5.0% by the other")


def test_a_kratzen_seats_target_is_that_seats_not_a_sides():
    """Every Kratzen seat plays for itself (RULES.md 3): each target is the hand's own or the named seat's, not "the
    hand's side" or "the other side"."""
    result = runner.invoke(app, ["analyse", "--game", "kratzen", "--hand", "EA G7 HA HK", "--seat", "2", "--seats",
                                 "4", "--contract", "Trump H", "-n", "40", "--pot", "12", "-j", "1",
                                 "--seed", "0"])
    assert result.exit_code == 0, result.output
    rows = [" ".join(line.split()) for line in result.stdout.splitlines() if line.startswith("│ Tricks")]
    assert rows == ["│ Tricks (seat 1) │ seat 1 │ 5% (1-17%) │",  # a row label capitalised as solve's and check's
                    "│ Tricks (seat 2) │ the hand │ 100% (91-100%) │",
                    "│ Tricks (seat 3) │ seat 3 │ 15% (7-29%) │",
                    "│ Tricks (seat 4) │ seat 4 │ 23% (12-38%) │"]
    assert "targets forced (brackets: 95% intervals)" in result.stdout
    assert "targets forced" in result.stdout and "bonus" not in result.stdout  # Kratzen has no bonuses
    result = CliRunner().invoke(app, ["analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat",
                                      "1", "--contract", "Rufer E", "-n", "8", "--seed", "1", "-j", "1"])
    assert result.exit_code == 0 and "whose" in result.stdout and "against it" not in result.stdout
    assert "│ Schneider against │ the other side" in " ".join(result.stdout.split())
    assert "bonuses forced" in result.stdout
    result = CliRunner().invoke(app, ["analyse", "--game", "schafkopf", "--hand", "EO GO HO SO EU GU HU SU", "--seat",
                                      "1", "--contract", "Sie", "-n", "4", "-j", "1"])  # a Sie pays only itself
    assert result.exit_code == 0 and "bonuses forced" not in result.stdout and "opening cards" in result.stdout


def test_a_kratzen_analysis_says_what_win_is_and_who_attacks():
    """A Kratzen analysis for a seat that is not the attacker explains ``win:`` (the seat making its own trick target,
    RULES.md 3.3), and contract advice for --seat 2, which makes seat 2 the attacker, says so in its header, not only
    "seat 2's mean payment"."""
    hand = ["analyse", "--game", "kratzen", "--hand", "SA S6 HK E7", "--seats", "4", "-n", "8", "--seed", "1",
            "-j", "1"]
    single = runner.invoke(app, [*hand, "--seat", "2", "--contract", "Trump S"])
    assert single.exit_code == 0, single.output
    assert single.stdout.splitlines()[3].startswith("win (seat 2 makes its own trick target): 100.0% (95%: 67.6% to ")
    attacker = runner.invoke(app, [*hand, "--seat", "1", "--contract", "Trump S", "--pot", "12"])
    assert "\nwin (attacker seat 1 makes its own trick target): " in attacker.stdout
    advice = runner.invoke(app, [*hand, "--seat", "2", "--contract", "all", "--pot", "12"])
    assert advice.exit_code == 0, advice.output
    text = " ".join(advice.stdout.split())
    assert ("contracts by seat 2's mean payment as the attacker (chips; ± and brackets: 95% intervals; paired "
            "samples)") in text
    assert "payment: attacker seat 2's own, in chips from and into the pot" in text
    assert "win: the samples where attacker seat 2 makes its own trick target (paid 0 or more)" in text


def test_a_single_contracts_bonuses_are_named_as_players_name_them():
    """The bonuses forced are named as the score and contract advice name them, ``Schneider`` and ``Pagat Ultimo``
    (Game.item_title), not by objective identifiers (``schneider_against``, ``pagat_beaten``); the defenders' Valat is
    ``Valat against`` as in ``stich check`` (Game.sided_objective_title): one name a row, beside the column that says
    whose it is."""
    result = runner.invoke(app, ["analyse", "--game", "zwanzigerrufen",
                                 "--hand", "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", "--seat", "1",
                                 "--contract", "Normal", "-n", "2", "-j", "1"])
    assert result.exit_code == 0, result.output
    table = result.stdout.split("bonuses forced", 1)[1].split("opening cards", 1)[0]
    rows = {tuple(cell.strip() for cell in line.split("│")[1:3]) for line in table.splitlines()
            if line.startswith("│") and "%" in line}
    assert {("Absolut", "the hand's side"), ("Absolut against", "the other side"), ("Valat", "the hand's side"),
            ("Valat against", "the other side"), ("Game", "the hand's side"), ("Mondfang", "the other side")} <= rows
    assert sorted(name for name, _ in rows) == ["Absolut", "Absolut against", "Game", "Mondfang", "Pagat Ultimo",
                                                "Pagat Ultimo beaten", "Valat", "Valat against"]
    assert "┃ item " in result.stdout and "_against" not in result.stdout and "objective" not in result.stdout
    document = json.loads(runner.invoke(app, ["analyse", "--game", "zwanzigerrufen", "--hand",
                                              "T21 T20 T19 T18 T15 T14 T13 T12 HK SK", "--seat", "1", "--contract",
                                              "Normal", "-n", "2", "-j", "1", "--json"]).stdout)
    assert "valat_against" in {bonus["objective"] for bonus in document["bonuses"]}  # the JSON keeps the names
    # a Schafkopf Tout's own objective by its name too (not 'tout')
    from solver.games import get_game

    assert get_game("schafkopf").objective_title("tout") == "Tout"


def test_batch_says_once_which_lines_answer_records_no_longer_in_the_input(tmp_path):
    """A regenerated input under the same name: the old lines stay (ids repeated with other deals), said on stderr
    once with their count and first ids."""
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 4)
    first = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert first.exit_code == 0 and "no longer" not in first.stderr
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    deals.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 4, 4, seats=4)))
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("no longer in") == 1
    assert (f"stich: batch: {out}: holds 4 lines answering records no longer in {deals}, kept: "
            f"{', '.join(ids[:3])}, ...; remove them or write to a new file") in result.stderr


def test_batch_says_which_lines_of_its_output_repeat_a_record_answered_above(tmp_path):
    """Two outputs concatenated by hand answer some records twice: the run counts each once, and says that the file
    holds the repeats (a reader of it would count them twice); it keeps them, as it keeps stale lines."""
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 4)
    first = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert first.exit_code == 0 and "the same key" not in first.stderr
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines + lines[:2]))
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    assert (f"stich: batch: {out}: holds 2 lines repeating the key of a line above, kept (a reader of the file "
            "counts those records twice); keep the first line of each key, or write to a new file") in result.stderr
    assert "0 written to" in result.stderr and "4 already done" in result.stderr
    assert out.read_text() == "".join(lines + lines[:2])
    # the JSON summary counts them too: each record once as already done, the 2 repeats apart
    from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json
    summary = json.loads(runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1",
                                             "--json"]).stdout)
    assert (summary["skipped"], summary["solved"], summary["repeated"], summary["duplicates"]) == (4, 0, 2, 0)
    assert schema_errors(summary, SCHEMA) == []


def test_batch_counts_a_duplicate_record_as_such_not_as_done_before(tmp_path):
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    record = format_record(next(solver.random_records("Kratzen", 3, 1, seats=4)))
    deals.write_text(f"{record}\n{record}")
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    assert ("1 written to" in result.stderr and "0 already done, 1 duplicate of a record above (the same text): "
            "answered once" in result.stderr)


def test_batch_resumes_an_output_moved_with_its_input_and_says_so(tmp_path, monkeypatch):
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 4)
    assert runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"]).exit_code == 0
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "deals.tbn").write_bytes(deals.read_bytes())
    (moved / "out.jsonl").write_text("".join(out.read_text().splitlines(keepends=True)[:2]))
    monkeypatch.chdir(moved)
    result = runner.invoke(app, ["batch", "deals.tbn", "--out", "out.jsonl", "--workers", "1"])
    assert result.exit_code == 0, result.stderr
    assert (f"stich: batch: out.jsonl: holds answers written for {deals.resolve()}, resumed "
            f"({(moved / 'deals.tbn').resolve()} holds their records)") in result.stderr
    assert "2 written to out.jsonl (2 solved, 0 errors), 2 already done" in result.stderr


def test_batch_with_a_variant_flag_no_game_has_is_a_usage_error(tmp_path):
    """As in deal and bench (exit 2, nothing written); a flag of another game than a record's stays that record's
    error (exit 1)."""
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 1)
    for flag in ("foo=1", "solo_value=x"):
        result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--variant", flag])
        assert result.exit_code == 2 and "--variant" in result.stderr and not out.exists()
    result = runner.invoke(app, ["solve", str(deals), "--variant", "foo=1"])
    assert result.exit_code == 2 and "unknown variant flag 'foo' (no game has it" in result.stderr
    result = runner.invoke(app, ["solve", str(deals), "--variant", "solo_value=5"])
    assert result.exit_code == 1 and "variant flag solo_value is Zwanzigerrufen's, not Kratzen's" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.tbn"]  # no lock file left either


def test_analyse_says_a_seat_pot_or_announcement_the_named_game_lacks_as_a_usage_error_of_its_option():
    """Without a FILE every input is an option, checked against --game as --declarer is (exit 2, the option named):
    contract advice does not blame --declarer for a bad --seat, nor a plain analysis say --seat, --known, --pot and
    --announce as bad data (exit 1) without naming the option."""
    hand = ["analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--samples", "2", "--workers", "1"]
    cases = [
        (["--seat", "9", "--contract", "all"], "'--seat': Schafkopf with 4 seats has no seat 9"),
        (["--seat", "9", "--contract", "Rufer E"], "'--seat': Schafkopf with 4 seats has no seat 9"),
        (["--seat", "1", "--contract", "Rufer E", "--declarer", "5"],
         "'--declarer': Schafkopf with 4 seats has no seat 5"),
        (["--seat", "1", "--contract", "Rufer E", "--declarer", "0"],
         "'--declarer': Schafkopf with 4 seats has no seat 0"),
        (["--seat", "1", "--contract", "Rufer E", "--declarer", "-3"],
         "'--declarer': Schafkopf with 4 seats has no seat -3"),
        (["--seat", "1", "--contract", "Rufer E", "--known", "0:EO"],
         "'--known': Schafkopf with 4 seats has no seat 0"),
        (["--seat", "1", "--contract", "all", "--known", "7:EO"], "'--known': Schafkopf with 4 seats has no seat 7"),
        (["--seat", "1", "--contract", "Rufer E", "--pot", "5"], "'--pot': Schafkopf has no pot (it is for Kratzen)"),
        (["--seat", "1", "--contract", "all", "--announce", "1: Pagat Ultimo"],
         "'--announce': Schafkopf has no announcements (they are for Zwanzigerrufen)"),
        (["--seat", "1", "--contract", "all", "--hand", "EU E8 E7 GK GO HA H9 XX"], "'--hand': 'XX' is not a card"),
        # a hand short of a card is a usage error naming --hand
        *((["--seat", "1", "--contract", contract, *cards, "--hand", "EU E8 E7 GK GO HA H9"],
           "'--hand': a Schafkopf hand holds 8 cards, this one 7")
          for contract, cards in (("all", ()), ("Rufer E", ()), ("Rufer E", ("--cards",)))),
        # a card twice in --hand is a usage error, as a wrong count is
        *((["--seat", "1", "--contract", contract, *cards, "--hand", "EU E8 E7 GK GO HA H9 EU"],
           "'--hand': EU appears twice")
          for contract, cards in (("all", ()), ("Rufer E", ()), ("Rufer E", ("--cards",)))),
        (["--seat", "1", "--contract", "Rufer E", "--known", "2:SA SA"], "'--known': SA appears twice"),
    ]
    for extra, said in cases:
        result = runner.invoke(app, hand + extra)
        assert result.exit_code == 2 and said in result.stderr, (extra, result.exit_code, result.stderr)
    too_big = runner.invoke(app, ["analyse", "--game", "kratzen", "--hand", "HA S6 HK HO", "--seat", "1", "--contract",
                                  "Trump H", "--pot", "1000000000", "--samples", "2"])
    assert too_big.exit_code == 2 and "'--pot'" in too_big.stderr and "0<=x<=999999999" in too_big.stderr


def test_an_empty_hand_or_contract_is_said_as_what_it_lacks_not_as_missing():
    """``--hand ""`` and ``--contract ""`` are given, so they are checked as any other value is (as ``--hand " "`` and
    ``stich deal --contract ""`` are), not said as 'missing --hand (or give a FILE to analyse from)' (contract advice:
    'needs --game and --hand') or 'missing --contract'."""
    kratzen = ["analyse", "--game", "kratzen", "--seat", "1", "--samples", "2", "--workers", "1"]
    cases = [(["--hand", "", "--contract", "Trump S"], "'--hand': a Kratzen hand holds 4 cards, this one 0"),
             (["--hand", "", "--contract", "all"], "'--hand': a Kratzen hand holds 4 cards, this one 0"),
             (["--hand", "", "--contract", "Trump S", "--cards"], "'--hand': a Kratzen hand holds 4 cards, this one 0"),
             (["--hand", "EO E9 SU SZ", "--contract", ""], "'--contract': empty contract (expected Trump")]
    for extra, said in cases:
        result = runner.invoke(app, kratzen + extra)
        assert result.exit_code == 2 and said in result.stderr and "missing" not in result.stderr, \
            (extra, result.stderr)
    assert "missing --hand" in runner.invoke(app, kratzen + ["--contract", "Trump S"]).stderr  # not given at all


def test_an_announcement_that_does_not_parse_is_a_usage_error_of_announce():
    """--announce's form is checked as --hand's cards are: --announce 'Pagat' (no seat) is --announce's usage error
    (exit 2), as a card --hand does not know is --hand's, not 'stich: announcement ...' with exit 1, naming no option.
    """
    hand = ["analyse", "--game", "zwanzigerrufen", "--hand", "T1 T4 T5 T6 T7 SK SQ SN SJ SG", "--seat", "1",
            "--contract", "SuitSolo", "-n", "2", "-j", "1"]
    for announce, said in (("Pagat", "announcement 'Pagat' does not start with a seat and a colon (e.g. '2: Kontra')"),
                           ("5: Valat", "announcement '5: Valat': seat 5 is not a seat of this 4-seat deal"),
                           ("1: Foo", "announcement 'Foo': expected a bonus (Absolut, Pagat, Valat, Trull, 4 Kings, "
                                      "Mondfang) optionally followed by 'dagegen' or 'dazu', or "
                                      "Kontra/Retour/Rekontra/Supra/Resupra")):
        result = runner.invoke(app, [*hand, "--announce", announce])
        assert result.exit_code == 2, (announce, result.exit_code, result.stderr)
        assert f"Invalid value for '--announce': {said}" in " ".join(result.stderr.split())


def test_threads_on_a_pool_command_says_to_give_workers(tmp_path):
    """analyse and batch search each sample or record on one thread a worker: --threads there is refused, saying what to
    give instead (not Typer's 'No such option' with look-alikes), and not listed."""
    for args in (["analyse", "--game", "sk", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract",
                  "Rufer E", "--threads", "2"],
                 ["batch", str(EXAMPLES / "schafkopf.tbn"), "--out", str(tmp_path / "out.jsonl"), "--threads", "2"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "give the number of workers with -j/--workers" in result.stderr
        assert "--threads" not in runner.invoke(app, [args[0], "--help"]).stdout
    assert not (tmp_path / "out.jsonl").exists()


def test_analyse_and_batch_check_their_pool_options_in_one_order(tmp_path):
    """The same bad pair of pool options gives the same first error in batch and analyse: both check them in one order
    (--threads, then --scheduler's company)."""
    pool = ["--threads", "2", "--scheduler", "tcp://127.0.0.1:1", "-j", "2"]
    analyse = runner.invoke(app, ["analyse", "--game", "sk", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1",
                                  "--contract", "Rufer E", *pool])
    batch = runner.invoke(app, ["batch", str(EXAMPLES / "schafkopf.tbn"), "--out", str(tmp_path / "out.jsonl"), *pool])
    for result in (analyse, batch):
        assert result.exit_code == 2, result.stderr
        assert "'--threads'" in result.stderr and "give the number of workers with -j/--workers" in result.stderr
    for args in (["analyse", "--game", "sk", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract",
                  "Rufer E"], ["batch", str(EXAMPLES / "schafkopf.tbn"), "--out", str(tmp_path / "out.jsonl")]):
        result = runner.invoke(app, [*args, "--scheduler", "tcp://127.0.0.1:1", "--worker-memory", "512"])
        assert result.exit_code == 2 and "the cluster's workers are its own" in result.stderr, result.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_more_workers_than_cores_are_cut_to_the_cores_with_one_line(tmp_path, monkeypatch):
    """-j 8 where this process may use 1 core (batch, analyse, match) says once on stderr that 1 worker runs, and each
    command answers (batch's lines without an error); where it may use 8, -j 8 says nothing and warns nothing."""
    import solver.cli.options as options

    monkeypatch.setattr(options, "usable_cores", lambda: 1)
    note = "stich: -j 8: this process may use 1 core, so 1 worker runs (each searches on one core"
    out = tmp_path / "out.jsonl"
    runs = {"batch": ["batch", str(EXAMPLES / "schafkopf.tbn"), "--out", str(out), "-j", "8"],
            "analyse": ["analyse", "--game", "sk", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract",
                        "Rufer E", "--samples", "4", "--json", "-j", "8"],
            "match": ["match", "--game", "sk", "--bots", "random,random,random,random", "-n", "2", "--json",
                      "--workers", "8"]}
    for name, args in runs.items():
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (name, result.stderr)
        assert result.stderr.count(note) == 1, (name, result.stderr)
        if name != "batch":
            assert json.loads(result.stdout)
    assert all("error" not in json.loads(line) for line in out.open()) and out.stat().st_size
    import solver.workers as workers

    monkeypatch.setattr(options, "usable_cores", lambda: 8)  # as many as the cores: not a word
    monkeypatch.setattr(workers, "usable_cores", lambda: 8)  # the library's cut (a StichWarning) sees them too
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = runner.invoke(app, runs["match"])
    assert quiet.exit_code == 0 and "stich: -j" not in quiet.stderr, (quiet.exception, quiet.stderr)


def test_batch_on_a_full_disk_says_so_before_solving_anything(tmp_path, monkeypatch):
    # a full disk is found before the pool's first records are solved, not only at the first line
    import os
    import solver.batch as batch

    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 3)
    assert runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"]).exit_code == 0
    before = out.read_bytes()
    real_statvfs = os.statvfs

    def full(path):
        stats = real_statvfs(path)
        return os.statvfs_result((stats.f_bsize, stats.f_frsize, stats.f_blocks, 0, 0, *tuple(stats)[5:]))

    def solve_nothing(items, question):
        raise AssertionError("a record was solved on a full disk")

    monkeypatch.setattr(os, "statvfs", full)
    monkeypatch.setattr(batch, "solve_chunk", solve_nothing)
    deals.write_text(deals.read_text() + "\n\n" + format_record(next(solver.random_records("Kratzen", 4, 1))))
    for target in (out, tmp_path / "new.jsonl"):  # an output to resume, and a new one
        result = runner.invoke(app, ["batch", str(deals), "--out", str(target), "--workers", "1"])
        assert result.exit_code == 1 and "Traceback" not in result.stderr
        assert result.stderr == (f"stich: {target}: no space left on its device (nothing solved); make room, or "
                                 "choose another --out file\n")
    assert out.read_bytes() == before and not (tmp_path / "new.jsonl").exists()
    # a device (a pipe, /dev/stdout) has no room to measure: not refused
    assert room_refusal("/dev/null", 0, 0, "nothing solved", "another --out file") is None


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("as_a_file", [True, False])
def test_batch_whose_output_fills_says_what_a_rerun_does(tmp_path, monkeypatch, as_a_file):
    """A full disk (/dev/full taken for a file) keeps the lines written, and a rerun resumes; /dev/full as it is, a
    device, is a stream, which a rerun never resumes: said so, named as given, not "rerun to resume"."""
    import solver.cli.batch

    deals = tmp_path / "deals.tbn"
    write_deals(deals, 2)
    # the command refuses /dev/full as --out at the start: here it stands for an output that fills during the run
    monkeypatch.setattr(solver.cli.batch, "checked_output", lambda *args, **kwargs: False)
    if as_a_file:
        monkeypatch.setattr("solver.batch.is_stream_output", lambda path: False)
    result = runner.invoke(app, ["batch", str(deals), "--out", "/dev/full", "--workers", "1"])
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr == ("stich: /dev/full: No space left on device; " + (
        "the lines written so far are kept (a rerun with room trims a half-written last one): make room and rerun to "
        "resume\n" if as_a_file else "the lines before it were written to /dev/full, a stream, which a rerun does "
        "not resume: it solves every record again (an --out file is resumed)\n"))


@pytest.mark.parametrize("kind", ["a device", "a pipe"])
def test_batch_to_a_stream_stopped_says_it_holds_nothing_to_resume_from(tmp_path, monkeypatch, kind):
    """A stop of ``--out /dev/null`` or a named pipe says what was written there and that it holds nothing to resume
    from, as stdout's stop does, not "kept in X: rerun the command to resume", which a stream never is."""
    deals = tmp_path / "deals.tbn"
    write_deals(deals, 2)
    out = Path("/dev/null")
    if kind == "a pipe":
        out = tmp_path / "out.fifo"
        os.mkfifo(out)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("solver.batch.solve_batch", stopped)
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 130, result.stderr
    assert result.stderr.endswith("stich: batch: stopped by the interrupt (SIGINT); the results so far were written "
                                  f"to {out}, which holds nothing to resume from\n"), result.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("out", ["-", "/dev/fd/1"])
def test_batch_whose_stdout_fills_says_a_rerun_solves_every_record_again(tmp_path, out):
    """``--out -`` is a stream, never resumed: its write error says so, not "rerun to resume"."""
    import subprocess
    import sys

    deals = tmp_path / "deals.tbn"
    write_deals(deals, 2)
    with open("/dev/full", "w") as full:
        process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "batch",
                                  str(deals), "--out", out, "--workers", "1"],
                                 stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert (process.returncode, process.stderr) == (
        1, f"stich: {out}: No space left on device; the lines before it were written to stdout, a stream, which a "
        "rerun does not resume: it solves every record again (an --out file is resumed)\n")


def test_an_os_error_of_the_run_that_is_no_output_write_is_not_said_as_the_output_file_s(tmp_path, monkeypatch):
    """Only a write to the output is the output file's error (with "make room"): an OSError naming no file met
    elsewhere in the run (a refused connection) is said with its own words, and the output is not named."""
    import errno

    from solver import batch

    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_deals(deals, 2)

    def refused(*args, **kwargs):
        raise ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")

    monkeypatch.setattr(batch, "run_serial", refused)
    result = runner.invoke(app, ["batch", str(deals), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr == "stich: Connection refused\n"


def test_batch_summary_counts_have_thousands_separators_as_its_progress_lines_do():
    # a 50,000-record run logged "6,582 of 50,000 written" and ended with "50000 written ... (50000 solved"
    from solver.batch import BatchSummary, summary_text

    summary = BatchSummary(records=52_000, skipped=1_000, solved=49_000, errors=1_000, seconds=3.25, duplicates=1_000,
                           out="out.jsonl")
    assert summary_text(summary) == (
        "50,000 written to out.jsonl (49,000 solved, 1,000 errors), 1,000 already done, 1,000 duplicates of "
        "records above (the same text): answered once, 3.2 s")
    one = BatchSummary(records=2, skipped=0, solved=1, errors=1, seconds=0.0, duplicates=1, out="o")
    assert summary_text(one) == ("2 written to o (1 solved, 1 error), 0 already done, 1 duplicate "
                                 "of a record above (the same text): answered once, 0.0 s")


def test_a_contract_list_is_checked_as_a_single_contract_is():
    """Each listed contract is checked as one given alone, before any sample: `--contract "Solo, Bettel"` and a seat 2
    asking about `Normal T19` are a usage error (exit 2, as docs/cli.md's exit codes say), as the same contract alone
    is, not bad input (exit 1)."""
    hand = ["analyse", "--game", "zwanzigerrufen", "--hand", "T20 T5 T6 SJ CG CJ HG HJ DG DJ", "--samples", "2",
            "--workers", "1"]
    unknown = runner.invoke(app, [*hand, "--seat", "1", "--contract", "Solo, Bettel"])
    assert unknown.exit_code == 2 and "Traceback" not in unknown.output
    assert "unknown Zwanzigerrufen contract 'Bettel' (expected Normal [T20..T16] | Solo | SuitSolo)" in unknown.output
    forehands = runner.invoke(app, [*hand, "--seat", "2", "--contract", "Solo, Normal T19"])
    assert forehands.exit_code == 2
    assert ("seat 2 cannot bid Normal T19 in Zwanzigerrufen: in a Normal game forehand (seat 1) is the declarer"
            in forehands.output)
    assert runner.invoke(app, [*hand, "--seat", "1", "--contract", "Solo, Normal T19", "--json"]).exit_code == 0
    every = runner.invoke(app, [*hand, "--seat", "1", "--contract", "Solo, all"])  # 'all' is a whole list itself
    assert every.exit_code == 2 and "Traceback" not in every.output
    assert ("'all' in a list ('Solo, all'): 'all', given alone, is every contract the seat may announce"
            in every.output)
    stray = runner.invoke(app, [*hand, "--seat", "1", "--contract", "all,"])
    assert stray.exit_code == 2 and "'all' with a comma but no other contract ('all,')" in stray.stderr


def test_card_advice_of_a_hand_refuses_a_contract_list_as_no_contract_played():
    """``--cards`` ranks the cards of the contract played: ``--contract all`` (or a list, or pass) is contract advice,
    said so as a usage error, not "unknown Schafkopf contract 'all'"."""
    hand = ["analyse", "--game", "schafkopf", "--hand", "HO SU H9 EA E8 GK G7 S9", "--seat", "1", "--cards", "-n",
            "1", "-j", "1"]
    for contract in ("all", "Rufer S, Wenz"):
        refused = runner.invoke(app, [*hand, "--contract", contract])
        assert refused.exit_code == 2 and "Traceback" not in refused.output
        assert ("Invalid value for '--contract': card advice ranks the cards of the one contract played, not "
                f"'{contract}' (contract advice, without --cards)") in refused.stderr
    assert runner.invoke(app, [*hand, "--contract", "Rufer S", "--json"]).exit_code == 0


def test_analyse_says_hard_pagat_reservation_is_idle_only_when_nobody_announced_the_pagat():
    """A hand analysis says 'hard_pagat_reservation changes nothing here: a hand analysis announces no Pagat' only
    without --announce '1: Pagat', whose announcer the samples do bind: the game says which of its flags the missing
    rule state leaves idle."""
    hand = ["analyse", "--game", "zr", "--hand", "T1 T21 TS T20 T19 T18 T17 T16 T15 SK", "--seat", "1",
            "--contract", "Solo", "--variant", "hard_pagat_reservation=true", "-n", "2"]
    silent = runner.invoke(app, hand)
    assert silent.exit_code == 0, silent.output
    assert ("stich: hard_pagat_reservation changes nothing here: nobody announced the Pagat (announce it with "
            "--announce 'N: Pagat', or analyse from a record with [Announcements])") in silent.stderr
    announced = runner.invoke(app, [*hand, "--announce", "1: Pagat"])
    assert announced.exit_code == 0, announced.output
    assert "changes nothing" not in announced.stderr
    assert "Traceback" not in silent.output + announced.output


def test_analyse_says_hard_pagat_reservation_is_idle_in_a_suit_solo_without_asking_for_a_pagat():
    """In a Suit Solo the note asked for --announce '1: Pagat', which is refused there (RULES.md 1.6-1.7: no Pagat
    Ultimo in a Suit Solo): it says the contract has none to announce."""
    hand = ["analyse", "--game", "zr", "--hand", "HK HQ HN HJ HG SK SQ T1 T4 T5", "--seat", "1",
            "--contract", "Suit Solo", "--variant", "hard_pagat_reservation=true", "-n", "2"]
    result = runner.invoke(app, hand)
    assert result.exit_code == 0, result.output
    assert ("stich: hard_pagat_reservation changes nothing here: a Suit Solo has no Pagat Ultimo to announce\n"
            in result.stderr)
    assert "--announce" not in result.stderr
    refused = runner.invoke(app, [*hand, "--announce", "1: Pagat"])  # what the note would have sent the user to
    assert refused.exit_code != 0 and "Pagat Ultimo does not count in a Suit Solo" in refused.stderr


def test_the_cluster_options_without_a_scheduler_are_refused_naming_both_flags(tmp_path):
    """--worker-wait and --verbose mean something only beside --scheduler: without it each is a usage error (exit 2)
    naming both flags, before any work, in analyse and batch alike, as -b without a FILE or --scheduler beside -j is;
    its default value is never refused."""
    out = tmp_path / "out.jsonl"
    commands = (["analyse", str(EXAMPLES / "kratzen.tbn"), "-b", "1", "--seat", "1", "-n", "2"],
                ["batch", str(EXAMPLES / "kratzen.tbn"), "--out", str(out), "-j", "1"])
    for command in commands:
        for flag, extra, lacks in (("--verbose", [], "there is no Dask log"),
                                   ("--worker-wait", ["5"], "there are no workers to wait for"),
                                   ("--worker-wait", ["120"], "there are no workers to wait for")):  # its default
            result = runner.invoke(app, [*command, flag, *extra])
            assert result.exit_code == 2, result.stderr
            assert result.stdout == ""
            assert (f"Invalid value for '{flag}': only with --scheduler: without it the run is local, and {lacks}"
                    in " ".join(result.stderr.split()))
        assert not out.exists()
        plain = runner.invoke(app, command)  # the default --worker-wait, not given, is no error
        assert plain.exit_code == 0, plain.stderr
    assert len(out.read_text().splitlines()) == 5  # batch solved every record of the file once refusals were past


def test_advice_refuses_the_options_only_the_analysis_of_one_contract_uses(tmp_path):
    """Card and contract advice run on this machine's workers at their default size, so --scheduler (even one that is
    not there), --worker-memory and --table-mb are not silently ignored there: each is a usage error naming the advice's
    flag; the analysis of one contract still takes them."""
    hand = ["analyse", "--game", "kratzen", "--hand", "EO E9 SU SZ", "--seat", "1", "-n", "2"]
    cards = ["analyse", str(EXAMPLES / "kratzen.tbn"), "-b", "1", "--seat", "1", "-n", "2", "--cards"]
    for command, advice in (([*hand, "--contract", "all"], "contract advice (--contract all)"),
                            (cards, "card advice (--cards)")):
        for option in (["--scheduler", "tcp://127.0.0.1:9"], ["--worker-memory", "512"], ["--table-mb", "8"]):
            result = runner.invoke(app, [*command, *option])
            assert result.exit_code == 2, result.stderr
            assert (f"Invalid value for '{option[0]}': only for the analysis of one contract: {advice} runs on this "
                    "machine's workers (-j) at their default size") in " ".join(result.stderr.split())
    one = runner.invoke(app, [*hand, "--contract", "Trump S", "--table-mb", "8", "--json"])
    assert one.exit_code == 0, one.stderr
    assert json.loads(one.stdout)["samples"] == 2


def test_analyse_of_a_deal_played_to_the_end_says_its_samples_are_the_deal():
    """Board 7 of the Schafkopf examples is played to the end: no card is unseen, so every sample is the deal as
    played and the figures are its result (16 points, the Rufer lost Schneider, -2 a declarer), which the report
    says, each figure alone: an interval would read as odds; the JSON keeps them. A deal still in play gets no such
    note, and its intervals."""
    over = runner.invoke(app, ["analyse", str(EXAMPLES / "schafkopf.tbn"), "-b", "7", "--seat", "1", "-n", "3",
                               "-j", "1"])
    assert over.exit_code == 0, over.stderr
    lines = over.stdout.splitlines()
    note = lines.index("note: the play is over: every sample is the deal as played, so the figures are its result")
    assert lines[note - 1] == "3 samples (seed 1)"
    assert lines[note + 1] == "mean payment -2.00 game units, seat 1's share of its side's settlement"
    assert lines[note + 2] == "win: 0.0%, mean card points 16.0, each sample played double dummy"
    assert lines[note + 3].strip() == "bonuses forced"
    forced = {cells[0]: cells[2] for line in lines[note + 4:] if len(cells := [c.strip() for c in line.split("│")
                                                                                 if c.strip()]) == 3}
    assert forced == {"Game": "0%", "Schneider": "0%", "Schneider against": "100%", "Schwarz": "0%",
                      "Schwarz against": "0%"}
    document = json.loads(runner.invoke(app, ["analyse", str(EXAMPLES / "schafkopf.tbn"), "-b", "7", "--seat", "1",
                                              "-n", "3", "-j", "1", "--json"]).stdout)
    assert document["win_interval"][1] > 0  # the JSON keeps the Wilson interval of 0 wins in 3
    playing = runner.invoke(app, ["analyse", str(EXAMPLES / "schafkopf.tbn"), "-b", "1", "--seat", "1", "-n", "3",
                                  "-j", "1"])
    assert playing.exit_code == 0 and "the play is over" not in playing.stdout
    assert "win: 0.0% (95%: 0.0% to 56.1%)" in playing.stdout and "bonuses forced (brackets: 95% intervals)" in (
        playing.stdout)
