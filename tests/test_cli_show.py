"""``stich show``, the hand diagram above ``solve``, ``check`` and ``postmortem``, and ``--play``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solver
from cli.main import app
from solver.formats.tbn import format_record, parse_records, read_records

from cli_invoke import run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
VALAT = str(EXAMPLES / "valat.tbn")
runner = CliRunner()


def test_show_prints_the_diagram_of_each_record():
    """Under the title every other command prints over its diagram (``board 1 (FILE:LINE) - ...``; show's own
    heading, ``str(position)``'s ``board 1: ...``, read differently from solve's, check's and postmortem's), the
    diagram ``str(position)`` draws."""
    shown = run("show", VALAT).stdout
    title, diagram = shown.split("\n", 1)
    assert title == f"board 1 ({VALAT}:13) - Zwanzigerrufen Solo, declarer 1"
    assert title == run("solve", VALAT).stdout.splitlines()[0]
    assert diagram == str(next(solver.read_positions(VALAT))).split("\n", 1)[1]
    both = run("show", EXAMPLES / "kratzen.tbn").stdout
    assert both.count("Seat 1 (attacker") == len(list(solver.read_positions(EXAMPLES / "kratzen.tbn")))


def test_solve_check_and_postmortem_print_the_diagram_above_their_tables_but_not_in_json():
    for command in ("solve", "check"):
        text = run(command, VALAT).stdout
        # the record's title once, above the diagram, which has no heading of its own that would say it again
        assert text.startswith("board 1 (") and "Zwanzigerrufen Solo, declarer 1\n\n" in text and "Seat 2" in text
        assert text.count("Zwanzigerrufen Solo, declarer 1") == 1
        assert text.index("Seat 2") < text.index("defenders 2+3+4")
        document = json.loads(run(command, VALAT, "--json").stdout)
        assert document["command"] == command
    postmortem = run("postmortem", VALAT).stdout
    assert "TS 21 20 19 18 17 16" in postmortem.split("Every card")[0].replace("T S", "TS")  # as dealt


def test_play_answers_what_if():
    before = json.loads(run("solve", VALAT, "-o", "valat", "--json").stdout)
    after = json.loads(run("solve", VALAT, "-o", "valat", "--play", "HK", "--json").stdout)
    assert before["results"][0]["success"] is True and after["results"][0]["success"] is False
    assert after["position"]["trick"] == ["HK"] and after["position"]["to_move"] == 2
    text = run("solve", VALAT, "-o", "valat", "--play", "HK").stdout
    assert "| 1: ♥K led" in text and "| seat 2 to play" in text
    check = json.loads(run("check", VALAT, "--play", "HK", "--json").stdout)
    assert check["position"]["trick"] == ["HK"]
    played = json.loads(run("postmortem", VALAT, "--play", "HK T1", "--json").stdout)
    assert [card["card"] for card in played["cards"]][-2:] == ["HK", "T1"]
    assert "valat" in played["cards"][-2]["bonuses_lost"]


def test_an_illegal_play_is_named_with_its_rule_and_the_other_records_still_answer(tmp_path):
    """An illegal ``--play`` card is the command line's error, said at ``--play`` with the record it was refused for
    (not at the record's [Play] tag, ``valat.tbn:19:1``, which is not wrong), and the others answer."""
    result = run("solve", VALAT, "--play", "HK SQ", code=1)
    assert result.stdout == ""
    assert result.stderr == ("stich: --play: card 2: seat 2 may not play SQ here: cannot follow suit to the lead HK "
                             "and must trump: with one of T1 (legal: T1) "
                             f"(the record at {VALAT}:13, board 1, not answered)\n")
    two = tmp_path / "two.tbn"
    two.write_text(Path(VALAT).read_text(encoding="utf-8") + "\n" + Path(VALAT).read_text(encoding="utf-8")
                   .replace('[Board "1"]', '[Board "2"]').replace("T18 T15 HG DJ\n", ""), encoding="utf-8")
    result = run("show", two, "--play", "T18", code=1)  # board 1 is past T18; board 2 plays it
    assert "stich: --play: card 1: seat 1 does not hold T18: played already, by seat 1 (legal: " in result.stderr
    elsewhere = run("show", VALAT, "--play", "T1", code=1)  # where the card is, as the record's Play section says
    assert "stich: --play: card 1: seat 1 does not hold T1: seat 2 holds it (legal: T17 T16 SK CK HK) " in \
        elsewhere.stderr
    assert f"(the record at {two}:13, board 1, not answered)" in result.stderr and "Seat 2 (to play)" in result.stdout


def test_a_trick_number_in_play_is_said_as_one_not_as_a_card():
    """``--play "1. EU"`` holds cards alone, as a Play section's line does: ``1.`` is said as a trick's number, not
    with the closest card (T1)."""
    said = " ".join(run("show", EXAMPLES / "schafkopf.tbn", "-b", "1", "--play", "1. EU", code=2).stderr
                    .replace("│", "").split())
    assert ("card 1 ('1.') is a card of no game; a trick's number? --play takes the cards alone, in playing order "
            "(expected") in said
    assert "did you mean" not in said


def test_cards_run_together_with_commas_are_said_so_not_taken_for_a_misspelt_card():
    """``--play "SG,SJ"`` and ``--hand "EU,E8,..."`` hold cards whose separator alone is wrong: they are said so, not
    answered as one misspelt card ("did you mean 'SJ' or 'SG'?") nor without a hint. The library's own refusal
    (``Position.play``) says so too."""
    def said(*args: object) -> str:
        return " ".join(run(*args, code=2).stderr.replace("│", "").split())

    zwanzigerrufen = EXAMPLES / "zwanzigerrufen.tbn"
    play = said("show", zwanzigerrufen, "-b", "1", "--play", "SG,SJ")
    assert "card 1 ('SG,SJ') is a card of no game; cards are separated by spaces, not ',': SG SJ (expected" in play
    assert "did you mean" not in play
    assert "card 1 ('SG,') is a card of no game; cards are separated by spaces, not ',': SG (expected" in \
        said("show", zwanzigerrufen, "-b", "1", "--play", "SG, SJ")
    assert "did you mean 'SG'?" in said("show", zwanzigerrufen, "-b", "1", "--play", "SG.")  # a misspelt card
    hand = said("analyse", "--game", "schafkopf", "--hand", "EU,E8,E7,GK,GO,HA,H9,SU", "--seat", "1", "--contract",
                "Rufer G")
    assert "cards are separated by spaces, not ',': EU E8 E7 GK GO HA H9 SU" in hand
    position = next(solver.read_positions(zwanzigerrufen))
    with pytest.raises(solver.StichError, match="not a card of the Zwanzigerrufen pack; cards are separated by "
                                                "spaces, not ';': SG SJ"):
        position.play("SG;SJ")


def test_show_tbn_writes_the_record_as_played():
    text = run("show", VALAT, "--play", "HK T1", "--tbn").stdout
    position = solver.parse_positions(text)[0]
    assert position.state == next(solver.read_positions(VALAT)).play("HK").play("T1").state
    assert text.startswith("% A whole Zwanzigerrufen deal") and "T18 T15 HG DJ\nHK T1\n*" in text
    assert text.endswith("HK T1\n*\n\n")  # a blank line ends the record: saved what-ifs can be concatenated
    assert len(solver.parse_positions(text + text)) == 2


def test_kratzen_text_names_the_attacker_and_json_keeps_its_keys():
    """Kratzen has an attacker and trick targets (RULES.md 3), not a declarer and bonuses: show, solve, check and
    table print the game's words, the JSON keeps the keys of the schema (docs/json.md says what they mean for
    Kratzen), and the other games keep theirs."""
    kratzen = EXAMPLES / "kratzen.tbn"
    for command in ("show", "solve", "check"):
        text = run(command, kratzen, "--board", "1").stdout
        assert "Kratzen Trump S, attacker 1" in text and "Seat 1 (attacker, to play)" in text
        assert "declarer" not in text
    check = run("check", kratzen, "--board", "1").stdout
    assert "Targets" in check and "┃ target " in check and "Bonuses" not in check
    table = run("table", kratzen, "--board", "1", "--pot", "4").stdout
    assert "┃ attacker ┃" in table and "the attacker's double-dummy payment" in table and "declarer" not in table
    document = json.loads(run("solve", kratzen, "--board", "1", "--json").stdout)
    assert document["declarer"] == 1 and [side["name"] for side in document["taken"]["sides"]] == ["declarers",
                                                                                                    "defenders"]
    schafkopf = run("check", EXAMPLES / "schafkopf.tbn", "--board", "7").stdout
    assert ", declarer " in schafkopf and "Bonuses" in schafkopf and "attacker" not in schafkopf


def test_the_diagram_says_the_announcements_and_the_pot_the_score_reads(tmp_path):
    """show and solve say a record's announcements and its pot under the title, beside the hands: the score reads
    both, so the diagram shows what it is scored from."""
    settled = run("show", EXAMPLES / "settlement.tbn").stdout.splitlines()
    assert settled[2] == "announced: 1: Pagat; 2: Kontra Pagat"
    kratzen = tmp_path / "pot.tbn"
    kratzen.write_text('[Game "Kratzen"]\n[Seats "3"]\n[Pot "12"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO '
                       'SK"]\n[Contract "Trump S"]\n[Declarer "1"]\n', encoding="utf-8")
    assert run("solve", kratzen).stdout.splitlines()[2:4] == [
        "pot: 12 chips, each trick pays 3", "targets: attacker seat 1 2 tricks, every other seat 1 trick"]
    # a pot of one chip is said in the singular, here and by score (not 'pot: 1 chips')
    assert run("show", kratzen, "--pot", "1").stdout.splitlines()[2].startswith("pot: 1 chip, ")
    assert run("score", EXAMPLES / "kratzen.tbn", "--dd", "-b", "3", "--pot", "1").stdout.splitlines()[1] == \
        "pot: 1 chip, a Muss: tricks pay nothing"
    assert not any(line.startswith(("announced:", "pot:")) for line in run("show", EXAMPLES / "valat.tbn").stdout
                   .splitlines())


def test_the_diagram_says_what_a_trick_pays_and_every_target():
    """show says, beside "pot: 12 chips", what each trick pays and the targets, as the board does (RULES.md 3.3-3.4): a
    Muss pays no trick, a Seven-Muss sets every target to 1, a pot under 4 chips pays no trick."""
    def header(board: str, pot: str) -> list[str]:
        return run("show", EXAMPLES / "kratzen.tbn", "-b", board, "--pot", pot).stdout.splitlines()[2:4]

    assert header("3", "12") == ["pot: 12 chips, a Muss: tricks pay nothing",
                                 "targets: attacker seat 1 2 tricks, every other seat 1 trick"]
    assert header("4", "12") == ["pot: 12 chips, a Muss: tricks pay nothing", "targets: every seat 1 trick"]
    assert header("1", "3")[0] == "pot: 3 chips, a quarter of it is under a chip: tricks pay nothing"


def test_a_muss_pays_no_trick_whatever_the_pot_and_an_empty_pot_is_said_plainly(tmp_path):
    """A Muss or Seven-Muss says it pays no trick whatever the pot (RULES.md 3.4), with a pot of 2 or 0 alike, not "a
    quarter of it is under a chip"; a tag [Pot "01"] is said as 1 chip, not "01 chips"."""
    def header(board: str, pot: str) -> str:
        return run("show", EXAMPLES / "kratzen.tbn", "-b", board, "--pot", pot).stdout.splitlines()[2]

    assert header("3", "2") == "pot: 2 chips, a Muss: tricks pay nothing"  # board 3: a Muss
    assert header("3", "0") == "pot: 0 chips, a Muss: tricks pay nothing"
    assert header("4", "2") == "pot: 2 chips, a Muss: tricks pay nothing"  # board 4: a Seven-Muss
    assert header("4", "0") == "pot: 0 chips, a Muss: tricks pay nothing"
    assert header("1", "0") == "pot: 0 chips, tricks and targets only"
    padded = tmp_path / "padded.tbn"
    padded.write_text('[Game "Kratzen"]\n[Seats "3"]\n[Pot "01"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO '
                      'SK"]\n[Contract "Trump S"]\n[Declarer "1"]\n', encoding="utf-8")
    assert run("show", padded).stdout.splitlines()[2] == \
        "pot: 1 chip, a quarter of it is under a chip: tricks pay nothing"


def test_show_takes_the_pot_as_solve_does(tmp_path):
    """show takes --pot as solve does, so that a Kratzen record's pot can be shown (and written with --tbn) without a
    [Pot] tag."""
    shown = run("show", EXAMPLES / "kratzen.tbn", "-b", "2", "--pot", "40").stdout.splitlines()
    assert shown[2:4] == ["pot: 40 chips, each trick pays 10",
                          "targets: attacker seat 1 2 tricks, every other seat 1 trick"]
    assert '[Pot "40"]' in run("show", EXAMPLES / "kratzen.tbn", "-b", "2", "--pot", "40", "--tbn").stdout
    other = run("show", VALAT, "--pot", "4")
    assert other.stderr == "stich: --pot is for Kratzen records; Zwanzigerrufen has no pot, so it is not used there\n"


def test_a_large_pot_and_what_a_trick_pays_are_said_with_thousands_separators():
    """The pot, what each trick pays and the chips that stay are said alike, "999,999,999" and "249,999,999", by
    show's diagram, by score's pot line and by its note, not "249999999" beside "999,999,999 chips"."""
    shown = run("show", EXAMPLES / "kratzen.tbn", "-b", "1", "--pot", "999999999").stdout.splitlines()
    assert shown[2] == "pot: 999,999,999 chips, each trick pays 249,999,999"
    scored = run("score", EXAMPLES / "kratzen.tbn", "--dd", "-b", "1", "--pot", "999999999").stdout.splitlines()
    assert scored[1] == "pot: 999,999,999 chips, each trick pays 249,999,999"
    assert "note: pot 999,999,999 does not divide by 4: each trick pays 249,999,999, and 3 chips stay in the pot" \
        in scored


def test_a_pagat_ultimo_in_a_suit_solo_is_refused_for_the_contract_by_show_as_by_score(tmp_path):
    """A Suit Solo counts no Pagat (RULES.md 1.7): show refuses a Pagat Ultimo, the holder's own too, as score --dd
    does, and both say why: the contract (not "Pagat Ultimo is announced by the Pagat's holder, seat 3" for seat
    1's)."""
    lines = (EXAMPLES / "zwanzigerrufen.tbn").read_text(encoding="utf-8").splitlines()
    board = "\n".join(lines[lines.index('[Event "Example: Suit Solo of seat 4"]') - 1:][:6])  # T1 is seat 3's
    refusal = "Pagat Ultimo does not count in a Suit Solo (only Valat, Absolut and 4 Kings)"
    for seat in (1, 3):
        path = tmp_path / f"pagat{seat}.tbn"
        path.write_text(f'{board}\n[Announcements "{seat}: Pagat Ultimo"]\n', encoding="utf-8")
        for command in (("show",), ("score", "--dd")):
            result = run(command[0], path, *command[1:], code=1)
            assert result.stderr.startswith(f"stich: {path}:7:20: bad announcement: seat {seat}: {refusal} "), \
                result.stderr


def test_a_bad_pot_is_refused_at_its_tag_by_show_and_by_commands_that_do_not_score(tmp_path):
    """A Kratzen record's [Pot "abc"] is refused at the tag's line and column by every command, show, solve -o tricks
    and tree too, though they do not score (no "pot: abc chips" with exit 0), and --pot, which stands for the tag,
    still overrides it."""
    path = tmp_path / "pot.tbn"
    path.write_text('[Game "Kratzen"]\n[Seats "3"]\n[Pot "abc"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO '
                    'SK"]\n[Contract "Trump S"]\n\n[Game "Kratzen"]\n[Board "2"]\n[Pot "8"]\n[Deal "1: EO E9 SU SZ / '
                    'GA HA HU S7 / EK G8 HO SK"]\n[Contract "Trump S"]\n', encoding="utf-8")
    refusal = (f"stich: {path}:3:7: [Pot] is not a number of chips (got 'abc', expected a whole number from 0 to "
               "999,999,999)\n")
    shown = run("show", path, code=1)
    assert shown.stderr == refusal and "pot: abc" not in shown.stdout
    assert shown.stdout.count("Seat 1 (attacker") == 1 and "pot: 8 chips, each trick pays 2" in shown.stdout
    assert run("solve", path, "-o", "tricks", code=1).stderr == refusal
    assert run("tree", path, "-d", "1", "--out", tmp_path / "tree.json", code=1).stderr == refusal
    assert run("show", path, "--pot", "4").stdout.count("pot: 4 chips, each trick pays 1") == 2


def test_show_tbn_of_several_records_writes_a_blank_line_between_them(tmp_path):
    """A file of several records written by show --tbn reads back as as many records: a blank line separates each
    from the next (written past the console's capture, it would come after the last one, and the second [Game] tag
    would stand in the first record). The diagrams of show are separated the same way."""
    deals = tmp_path / "deals.tbn"
    deals.write_text(run("deal", "-g", "kr", "-n", "3").stdout, encoding="utf-8")
    written = run("show", deals, "--tbn").stdout
    assert written == deals.read_text(encoding="utf-8")
    assert len(solver.parse_positions(written)) == 3
    shown = run("show", deals).stdout
    assert shown.startswith("board 1 (") and "\n\nboard 2 (" in shown and "\n\nboard 3 (" in shown
    assert not shown.endswith("\n\n")


def test_show_tbn_keeps_the_comments_after_the_last_record(tmp_path):
    """Comments after a file's last record (after its blank line) belong to that record (docs/format.md) and reach it
    when the file ends, after show --tbn wrote it: they are written after it, where they stood, so that the text
    reads back as the file does, with --play's cards too (a what-if played on a copy of the record as read)."""
    ending = '[Game "zr"]\n[Deal "1: T1 SK / T20 SQ / T21 HK / T15 DK"]\n[Contract "Normal T20"]\n'
    path = tmp_path / "tail.tbn"
    path.write_text(f"% head\n{ending}\n% between\n\n{ending}[Board \"7\"]\n[Play \"1\"]\nT1\n\n% tail\n{{one more}}\n",
                    encoding="utf-8")
    written = run("show", path, "--tbn").stdout
    assert written.endswith('[Play "1"]\nT1\n\n% tail\n{one more}\n')
    again = [format_record(record) for record in parse_records(written)]
    assert again == [format_record(record) for record in list(read_records(path))]
    assert run("show", path, "--tbn", "-r", "1").stdout.count("%") == 1  # the last record not written: nor its tail
    # -r of the last record: the file is read on past it, over comments and blank lines only, for its tail
    assert run("show", path, "--tbn", "-r", "2").stdout.endswith('[Play "1"]\nT1\n\n% tail\n{one more}\n')
    # a stream with no file number (CliRunner's input) may wait on its writer, so it is read no further than record 2
    piped = runner.invoke(app, ["show", "-", "--tbn", "-r", "2"], input=path.read_text(encoding="utf-8"))
    assert piped.exit_code == 0 and piped.stdout.endswith('[Play "1"]\nT1\n\n')
    assert "tail" not in piped.stdout
    played = run("show", path, "--tbn", "--board", "7", "--play", "T20").stdout
    assert played.endswith('[Board "7"]\n[Play "1"]\nT1 T20\n\n% tail\n{one more}\n')
    assert [comment.text for comment in parse_records(played)[0].comments] == ["% between", "% tail", "{one more}"]


def test_show_of_the_last_record_of_standard_input_redirected_from_a_file_writes_its_tail(tmp_path):
    """``stich show - --tbn -r N < FILE``: standard input redirected from a file is that regular file, which cannot
    keep the command waiting, so it is read on past record N for the comments that end it, as the named file is
    (docs/format.md); a pipe is not (the test below)."""
    ending = '[Game "zr"]\n[Deal "1: T1 SK / T20 SQ / T21 HK / T15 DK"]\n[Contract "Normal T20"]\n'
    path = tmp_path / "tail.tbn"
    path.write_text(f'{ending}\n{ending}[Board "7"]\n\n% tail\n{{one more}}\n', encoding="utf-8")
    for source in ("-", "/dev/stdin"):
        with open(path, "rb") as redirected:
            result = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "show", source,
                                     "--tbn", "-r", "2"], stdin=redirected, capture_output=True, text=True, cwd=ROOT,
                                    timeout=300)
        assert result.returncode == 0, (source, result.stderr)
        assert result.stdout == f'{ending}[Board "7"]\n\n% tail\n{{one more}}\n', source
        assert run("show", path, "--tbn", "-r", "2").stdout == result.stdout
        with open(path, "rb") as redirected:  # record 1 is not the file's last: nor is the tail its own
            first = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "show", source,
                                    "--tbn", "-r", "1"], stdin=redirected, capture_output=True, text=True, cwd=ROOT,
                                   timeout=300)
        assert first.returncode == 0 and first.stdout == f"{ending}\n", (source, first.stderr)


@pytest.mark.parametrize("shown", [("--tbn",), (), ("--json",)])
def test_show_of_one_record_of_a_named_pipe_does_not_wait_for_the_writer(tmp_path, shown):
    """A named pipe may stay open long after record N (a generator writing records as it makes them): reading on for
    the comments that end it would keep ``show -r N`` waiting on its writer, with or without --tbn and --json, so a
    pipe is read no further than record N and the command is done while the writer is still open."""
    ending = '[Game "zr"]\n[Deal "1: T1 SK / T20 SQ / T21 HK / T15 DK"]\n[Contract "Normal T20"]\n'
    fifo = tmp_path / "deals.fifo"
    os.mkfifo(fifo)
    answered, closed = threading.Event(), threading.Event()

    def write() -> None:  # both records and the blank line that ends the second, then open until answered
        with open(fifo, "wb") as stream:
            stream.write(f"{ending}\n{ending}[Board \"7\"]\n\n".encode())
            stream.flush()
            answered.wait(30)  # a bound for the test's failure only: an answer comes at once
        closed.set()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        result = run("show", fifo, "-r", "2", *shown)
        still_open = not closed.is_set()
    finally:
        answered.set()
        writer.join(30)
    assert still_open  # record 2 is answered without reading on to the pipe's end
    expected = {"--tbn": f'{ending}[Board "7"]\n\n', "--json": '"board":"7"'}.get(shown[0] if shown else "")
    assert expected is None or expected in result.stdout
    assert shown or result.stdout.startswith(f"board 7 ({fifo}:5) - Zwanzigerrufen")


EXAMPLES_SAID = "T17 HK in Zwanzigerrufen, E9 SA in Schafkopf, EZ H7 in Kratzen"


def test_a_play_token_that_is_no_card_of_any_game_is_a_usage_error_of_every_command_said_once(tmp_path):
    """``--play ZZ``: no record can play it, whatever its game, so it is the flag's error (exit 2), said once before
    any record is read, naming the flag, the token and what a card looks like, not once a record by each command's
    record loop."""
    many = tmp_path / "many.tbn"
    many.write_text("\n".join(Path(VALAT).read_text(encoding="utf-8").replace('[Board "1"]', f'[Board "{n}"]')
                              for n in range(1, 4)), encoding="utf-8")
    expected = ("Invalid value for '--play': card 2 ('ZZ') is a card of no game; did you mean 'SZ' or 'HZ' or 'GZ'? "
                f"(expected cards of the record's game, such as {EXAMPLES_SAID})")
    for command in (["solve"], ["check"], ["score"], ["postmortem"], ["show"],
                    ["tree", "--depth", "1", "--out", tmp_path / "tree.json"]):
        result = run(command[0], many, *command[1:], "--play", "HK ZZ", code=2)
        assert result.stdout == "" and " ".join(result.stderr.replace("│", "").split()).count(expected) == 1, \
            (command, result.stderr)
        assert "many.tbn" not in result.stderr  # no record was read
    assert not (tmp_path / "tree.json").exists()
    result = run("solve", VALAT, "--play", "T2", code=2)  # the pack's own note on a card it leaves out
    assert "card 1 ('T2') is a card of no game; Zwanzigerrufen: tarocks II and III are left out of this pack" in \
        " ".join(result.stderr.replace("│", "").split())
    result = run("show", VALAT, "--play", "", code=2)  # an unset shell variable: not taken for no cards
    assert "an empty value (an unset shell variable?); give the cards to play, such as T17 HK" in \
        " ".join(result.stderr.replace("│", "").split())


def test_a_card_of_another_game_is_said_once_a_game_and_an_illegal_one_once_a_record(tmp_path):
    """A file may mix games: ``--play EA`` is a Schafkopf card, so the Zwanzigerrufen records refuse it, said once for
    all of them (as a --variant flag of another game is), while each Schafkopf record plays it or says why not."""
    valat = Path(VALAT).read_text(encoding="utf-8")
    mixed = tmp_path / "mixed.tbn"
    mixed.write_text(valat + "\n" + valat.replace('[Board "1"]', '[Board "2"]') + "\n" +
                     (EXAMPLES / "schafkopf.tbn").read_text(encoding="utf-8"), encoding="utf-8")
    result = run("show", mixed, "--play", "EA", code=1)
    lines = result.stderr.splitlines()
    assert lines[-1] == ("stich: --play: card 1: 'EA' is not a card of the Zwanzigerrufen pack (expected a "
                         f"Zwanzigerrufen card, such as T17 HK) (2 records of Zwanzigerrufen from {mixed}:13 not "
                         "answered)")  # the first record's line, not its [Play] tag's (19)
    assert sum("Zwanzigerrufen" in line for line in lines) == 1
    schafkopf = len(solver.parse_positions((EXAMPLES / "schafkopf.tbn").read_text(encoding="utf-8")))
    illegal = [line for line in lines if line.startswith("stich: --play: card 1: ") and f"record at {mixed}:" in line]
    assert len(illegal) + result.stdout.count("Seat 1") == schafkopf  # every Schafkopf record answered or said
    assert any("seat 3 does not hold EA" in line for line in illegal) and result.stdout.count("Seat 1") >= 1


def test_cards_given_unquoted_are_said_with_how_to_quote_them():
    """``--play HK T1`` (unquoted) leaves T1 as an extra argument, or takes it for the FILE (where Typer's own words
    would be ``Got unexpected extra argument(s) (examples/valat.tbn)``, the file itself, unexplained): the usage
    error says how to give the cards, and where a card took the FILE's place, that it did."""
    for args, extra in ((["solve", VALAT, "--play", "HK", "T1"], "T1)"),
                        (["show", "--play", "HK", "T1", VALAT], f"{VALAT}): T1 is a card, read as the FILE"),
                        (["show", "--play=HK", "T1", VALAT], f"{VALAT}): T1 is a card, read as the FILE"),
                        (["tree", VALAT, "-d", "1", "--out", "t.json", "--play", "HK", "T1"], "T1)")):
        said = " ".join(run(*args, code=2).stderr.split())
        assert f"Got unexpected extra argument(s) ({extra}; --play takes its cards as one quoted string: --play " \
               "\"HK T1\"" in said, said
    # the file named as the extra argument said why (T1 took the FILE's place), and every card in the hint
    said = " ".join(run("show", "--play", "HK", "T1", "T2", VALAT, code=2).stderr.split())
    assert (f"Got unexpected extra argument(s) (T2 {VALAT}): T1 is a card, read as the FILE; --play takes its cards "
            "as one quoted string: --play \"HK T1 T2\"") in said, said
    # the FILE read right, an extra word before the cards: no card took its place (the check searched click's text)
    said = " ".join(run("show", VALAT, "extra", "--play", "HK", "T1", "T2", code=2).stderr.split())
    assert ("Got unexpected extra argument(s) (extra T1 T2); --play takes its cards as one quoted string: --play "
            "\"HK T1 T2\"") in said and "read as the FILE" not in said, said
    # a flag and an option's value before the cards: T1 is still the first word click takes for the FILE
    said = " ".join(run("show", "--json", "--pot", "10", "--play", "HK", "T1", VALAT, code=2).stderr.split())
    assert f"({VALAT}): T1 is a card, read as the FILE" in said, said
    hand = " ".join(run("analyse", "--game", "sk", "--hand", "EU", "E8", "E7", "--seat", "1", code=2).stderr.split())
    assert "--hand takes its cards as one quoted string: --hand \"EU E8 E7\"" in hand
    assert "quoted" not in run("solve", VALAT, "extra", code=2).stderr  # an extra argument with no card option


def test_show_says_the_what_if_in_its_heading():
    """``show --play`` draws the position the cards reach, which is not the record's (a trick they complete is gone
    from the page): its heading ends with them, as the other commands' titles do; ``--tbn`` writes them in the Play
    section instead."""
    assert run("show", VALAT, "--play", "hk t1").stdout.splitlines()[0] == \
        f"board 1 ({VALAT}:13) - Zwanzigerrufen Solo, declarer 1, what if: HK T1"
    assert "what if" not in run("show", VALAT).stdout and "what if" not in run("show", VALAT, "--play", "HK",
                                                                               "--tbn").stdout


def test_show_json_gives_each_record_s_position_under_the_schema(tmp_path):
    """``show`` has ``--json``, as every other command that prints data has, so that a bot author need not parse the
    diagram. Each record's line is the position the diagram shows (the solve document's ``position`` and ``taken``), the
    hands as dealt, the cards played (with ``--play``'s, named in ``record.play``), under the schema; a bad record is
    said on stderr as without ``--json``; ``--tbn`` with it is a usage error."""
    from test_cli import SCHEMA, schema_errors

    schafkopf = EXAMPLES / "schafkopf.tbn"
    lines = [json.loads(line) for line in run("show", schafkopf, "--json").stdout.splitlines()]
    solved = [json.loads(line) for line in run("solve", schafkopf, "--json").stdout.splitlines()]
    assert len(lines) == 7 and all(schema_errors(line, SCHEMA) == [] for line in lines)
    for shown, solve in zip(lines, solved):
        assert shown["command"] == "show" and shown["record"] == solve["record"]
        assert (shown["position"], shown["taken"], shown["contract"]) == (
            solve["position"], solve["taken"], solve["contract"])
    finished = lines[6]  # board 7 is played to the end: no hands left, the dealt ones in full
    assert finished["position"]["over"] and finished["position"]["hands"] == [[], [], [], []]
    assert finished["dealt"][0] == ["E9", "GO", "G8", "G7", "HZ", "H7", "SU", "S8"]
    assert len(finished["played"]) == 32 and finished["played"][:4] == ["GO", "EO", "HU", "H8"]
    assert (finished["announcements"], finished["pot"]) == (None, None)
    (what_if,) = [json.loads(run("show", schafkopf, "-b", "6", "--play", "GA", "--json").stdout)]
    assert what_if["record"]["play"] == ["GA"] and what_if["position"]["trick"] == ["EO", "GA"]
    assert what_if["played"] == ["EO", "GA"] and schema_errors(what_if, SCHEMA) == []
    (kratzen,) = [json.loads(run("show", EXAMPLES / "kratzen.tbn", "-r", "1", "--pot", "12", "--json").stdout)]
    assert kratzen["pot"] == 12 and schema_errors(kratzen, SCHEMA) == []
    bad = tmp_path / "bad.tbn"
    bad.write_text(schafkopf.read_text(encoding="utf-8").replace('[Contract "Rufer G"]', '[Contract "Rufer X"]', 1),
                   encoding="utf-8")
    text, as_json = run("show", bad, code=1), run("show", bad, "--json", code=1)
    assert as_json.stderr == text.stderr and "Rufer X" in text.stderr
    shown = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert len(shown) == 7 and [line.get("stopped") for line in shown].count("error") == 1
    assert [f"stich: {line['error']}" for line in shown if "stopped" in line] == as_json.stderr.splitlines()
    refused = run("show", schafkopf, "--json", "--tbn", code=2)
    assert "give one" in refused.stderr and refused.stdout == ""


def test_show_tbn_writes_utf8_whatever_stdout_encodes(tmp_path):
    """A record written by show --tbn is a file to read back, in UTF-8 even at an ASCII stdout
    (PYTHONIOENCODING=ascii): its [Event] 'Wüst – Größe' written 'Wust - Grosse' would read back as another."""
    import os
    import subprocess
    import sys

    deal = run("deal", "-g", "kr", "-n", "1").stdout
    record = tmp_path / "event.tbn"
    record.write_text('[Event "Wüst – Größe"]\n' + deal, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from solver.cli import main; main()", "show", str(record), "--tbn"],
                          capture_output=True, env={**os.environ, "PYTHONIOENCODING": "ascii"}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8") == record.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [("show",), ("solve",), ("check",), ("score",), ("postmortem",),
                                     ("tree", "-d", "1")])
def test_a_play_card_given_on_the_command_line_is_said_at_play_and_one_in_the_file_at_its_place(tmp_path, command):
    """``show FILE -b 6 --play EO`` (seat 2 to play, who holds GA SZ) and ``--play XX`` (a Zwanzigerrufen card) are
    the command line's errors, not the record's [Play] tag's (``schafkopf.tbn:96:1``, as if the file were wrong):
    every command with --play says its card at --play, with what the seat may play (or the game's cards) and the
    record; the same card in the file's own [Play] section is said at its file:line:col."""
    schafkopf = EXAMPLES / "schafkopf.tbn"
    illegal = run(*command[:1], schafkopf, *command[1:], "-b", "6", "--play", "EO", code=1)
    assert illegal.stdout == "" and illegal.stderr == (
        "stich: --play: card 1: seat 2 does not hold EO: on the table, played by seat 1 (legal: GA SZ) "
        f"(the record at {schafkopf}:88, board 6, not answered)\n")
    foreign = run(*command[:1], schafkopf, *command[1:], "-b", "6", "--play", "XX", code=1)
    assert foreign.stderr == (
        "stich: --play: card 1: 'XX' is not a card of the Schafkopf pack (expected a Schafkopf card, such as E9 SA) "
        f"(the record at {schafkopf}:88, board 6, not answered)\n")
    board = schafkopf.read_text(encoding="utf-8").split("[Board \"6\"]")[1].split("*")[0]
    for card, why in (("EO", "seat 2 does not hold this card"), ("XX", "not a card of the Schafkopf pack")):
        own = tmp_path / f"own-{card}.tbn"
        own.write_text(f'[Game "Schafkopf"]\n[Board "6"]{board.replace(chr(10) + "EO", chr(10) + "EO " + card)}*\n',
                       encoding="utf-8")
        assert own.read_text(encoding="utf-8").splitlines()[8] == f"EO {card}"  # line 9, the card at column 4
        said = run(*command[:1], own, *command[1:], code=1).stderr
        assert said.startswith(f"stich: {own}:9:4: {why}"), said


def test_a_kratzen_record_without_a_pot_is_said_to_have_0_chips_as_score_and_the_board_say():
    """A Kratzen record without a [Pot] tag is scored with a pot of 0 (docs/scoring.md): show's diagram says the 0
    chips in the words of a pot of 0 that the board's table and score use too, and the way to give one is said once
    on stderr for all such records, as solve and score say it; a tag or --pot of 0 is said there without asking for
    one (docs/cli.md), as score says it."""
    shown = run("show", EXAMPLES / "kratzen.tbn", "-b", "1")
    assert shown.stdout.splitlines()[2:4] == ["pot: 0 chips, tricks and targets only",
                                              "targets: attacker seat 1 2 tricks, every other seat 1 trick"]
    assert shown.stderr == ("stich: pot 0: every deal settles at 0 chips: give the record a [Pot] tag, or --pot CHIPS "
                            f"(the Kratzen record at {EXAMPLES / 'kratzen.tbn'}:10)\n")
    every = run("show", EXAMPLES / "kratzen.tbn")
    assert every.stdout.count("pot: 0 chips") == 5 and every.stderr.count("pot 0") == 1
    given = run("show", EXAMPLES / "kratzen.tbn", "-b", "1", "--pot", "0")
    assert given.stdout.splitlines()[2] == "pot: 0 chips, tricks and targets only"
    assert given.stderr == ("stich: pot 0: every deal settles at 0 chips "
                            f"(the Kratzen record at {EXAMPLES / 'kratzen.tbn'}:10)\n")
    assert run("show", EXAMPLES / "kratzen.tbn", "-b", "1", "--pot", "3").stderr == ""  # a pot: nothing to say
    assert "pot" not in run("show", EXAMPLES / "schafkopf.tbn", "-b", "1").stdout  # a game without a pot: no line
    played = ["--play", "EO S7 EK GA G8 SU E9 HA SK HO SZ HU"]
    scored = json.loads(run("score", EXAMPLES / "kratzen.tbn", "-b", "1", *played, "--json").stdout)
    solved = json.loads(run("solve", EXAMPLES / "kratzen.tbn", "-b", "1", "--json").stdout)
    assert scored["pot"] == 0
    assert scored["notes"] == ["pot 0: every deal settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"]
    assert solved["notes"] == ["pot 0: every line settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"]


def test_show_says_a_sie_is_over_as_dealt(tmp_path):
    """A Schafkopf Sie wins at once, with no play (RULES.md 2.2): the diagram says the deal is over, in the game's
    words, where it would otherwise name the first trick and its leader."""
    record = tmp_path / "sie.tbn"
    record.write_text('[Game "Schafkopf"]\n[Deal "1: EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / '
                      'GK G9 G8 G7 HA HZ HK H9 / H8 H7 SA SZ SK S9 S8 S7"]\n[Contract "Sie"]\n[Declarer "1"]\n')
    shown = run("show", record).stdout
    assert "| the deal is over    |" in shown and "| a Sie wins as dealt |" in shown
    assert "trick 1 of 8" not in shown and "leads" not in shown and "to play" not in shown
    assert "Seat 1 (declarer)\n" in shown


def test_the_diagram_says_a_tout_is_lost_at_its_first_lost_trick():
    """A Tout ends at the first trick its declarer loses (RULES.md 2.5): the diagram says so, not whose lead the
    second trick is."""
    deal = ("1: EO GO HO SO EU GU HU S7 / EA EZ EK E9 E8 E7 GA GZ / GK G9 G8 G7 HA HZ HK H9 / "
            "H8 H7 SU SZ SK S9 S8 SA")
    lost = str(solver.make_position("Schafkopf", deal, "WenzTout", play="S7 E7 G7 SA"))
    assert "| the deal is over      |" in lost and "| the Tout lost trick 1 |" in lost
    assert "trick 2 of 8" not in lost and "leads" not in lost and "Seat 1 (declarer)\n" in lost
    going_on = str(solver.make_position("Schafkopf", deal, "WenzTout", play="S7 E7 G7"))
    assert "seat 4 to play" in going_on and "the deal is over" not in going_on
