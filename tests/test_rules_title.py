"""A text answer says the rules it was answered under: the title of every command names the variant flags in force
that differ from the game's defaults (a [Variant] tag, ``--variant``), as ``--variant`` takes them; a default record's
title is unchanged. And a JSON file given where records are expected is said as JSON."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from typer.testing import CliRunner

import solver
from cli.bench import save_run, saved_run
from cli.main import app
from solver.analysis import SCHEMA
from solver.benchmark import machine
from solver.diagram import diagram

ROOT = Path(__file__).resolve().parent.parent
SCHAFKOPF = str(ROOT / "examples" / "schafkopf.tbn")  # board 1: [Variant "runaway_count_at=deal"]
VALAT = str(ROOT / "examples" / "valat.tbn")
TITLE = f"board 1 ({SCHAFKOPF}:10) - Schafkopf Rufer G, declarer 1"
runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    return result.stdout if code == 0 else result.stderr


def test_every_title_names_the_record_variant_tag():
    """The record's own [Variant] tag, in solve's, check's, postmortem's, show's and score's titles alike."""
    expected = f"{TITLE}; rules: runaway_count_at=deal"
    for command in (["solve", "-o", "score"], ["check"], ["postmortem"], ["show"], ["score", "--dd"]):
        assert run(command[0], SCHAFKOPF, "-b", 1, *command[1:]).splitlines()[0] == expected, command
    assert run("table", SCHAFKOPF, "-b", 1).splitlines()[0] == \
        f"board 1 ({SCHAFKOPF}:10) - Schafkopf; rules: runaway_count_at=deal"


def test_variant_flags_join_the_tag_and_a_default_given_drops_out():
    """``--variant`` over the tag: both named, in the game's order; a flag set back to its default is not named."""
    both = run("solve", SCHAFKOPF, "-b", 1, "-o", "score", "--variant", "laufende_mode=only_if_holder_wins")
    assert both.splitlines()[0] == f"{TITLE}; rules: runaway_count_at=deal, laufende_mode=only_if_holder_wins"
    back = run("solve", SCHAFKOPF, "-b", 1, "-o", "score", "--variant", "runaway_count_at=lead")
    assert back.splitlines()[0] == TITLE


def test_a_default_record_title_is_unchanged():
    assert run("solve", VALAT).splitlines()[0] == f"board 1 ({VALAT}:13) - Zwanzigerrufen Solo, declarer 1"
    assert "rules:" not in run("show", SCHAFKOPF, "-b", 2).splitlines()[0]


def test_tree_and_analyse_say_the_rules_too():
    tree = run("tree", SCHAFKOPF, "-b", 1, "-d", 1).splitlines()[0]
    assert tree.startswith("Schafkopf Rufer G: strategy tree of 1 card") and tree.endswith(
        "; rules: runaway_count_at=deal")
    analysed = run("analyse", SCHAFKOPF, "-b", 1, "--seat", 1, "--samples", 3).splitlines()[0]
    assert analysed == f"board 1 ({SCHAFKOPF}:10); rules: runaway_count_at=deal"


def test_the_diagram_heading_and_the_notebook_say_the_rules():
    flagged, plain = list(solver.read_positions(SCHAFKOPF))[:2]
    heading = "board 1: Schafkopf Rufer G, declarer 1 (declarers 1+3); rules: runaway_count_at=deal"
    assert diagram(flagged).splitlines()[0] == heading
    assert f">{heading}</p>" in flagged._repr_html_()
    assert "rules:" not in diagram(plain).splitlines()[0]


def test_the_notebook_s_score_headings_say_the_rules():
    """A settlement's heading (print and Jupyter) ends with the rules as ``stich score``'s title does, the double-dummy
    settlement's first line too, and a default record's says none."""
    flagged, plain = list(solver.read_positions(SCHAFKOPF))[:2]
    settled = solver.dd_settlement(flagged)
    heading = "Schafkopf Rufer G; rules: runaway_count_at=deal"
    net = "Schafkopf Rufer G, double dummy: declarers 1+3 net +4 game units; rules: runaway_count_at=deal"
    assert str(settled).splitlines()[0] == net
    shown = settled._repr_html_()
    assert re.findall(r'font-weight:bold">([^<]*)</p>', shown) == [net]  # one heading, print()'s first line
    assert re.findall(r">([^<]+)<", shown) == [
        net, "item", "to", "from", "base", "x", "value", "why",
        "Game", "1+3", "2+4", "1", "1", "1", "the declarers took 105 points (61 needed)",
        "Schneider", "1+3", "2+4", "1", "1", "1", "the declarers took 105 points (91 or more)",
        "payments", "seat 1", "seat 2", "seat 3", "seat 4", "+2", "-2", "+2", "-2",
        "line: GA GK GZ G9 GO HA H9 EZ SA SK E9 SZ SO S8 G8 S9",
        "the line takes 105 points; the most the declarers can force is 105",
        "both sides playing for points (one such line), the deal settles +4",
        "the best settlement while the declarers force their 105 points: +4"]
    score = solver.score_deal(flagged.play_cards(settled.line_names))
    assert str(score).splitlines()[0] == heading and f'font-weight:bold">{heading}</p>' in score._repr_html_()
    assert "rules:" not in str(solver.dd_settlement(plain)) + solver.dd_settlement(plain)._repr_html_()


def test_the_notebook_s_table_titles_say_the_rules_as_the_commands_do():
    """The titles of a post-mortem, a contract table, the bonus checks and the dealt bonuses in a notebook end with the
    rules as the commands' titles do (a slice keeps them), a default record's not."""
    def titles(html: str) -> list[str]:
        return re.findall(r'<p style="font-weight:bold">([^<]*)</p>', html)

    flagged, plain = list(solver.read_positions(SCHAFKOPF))[:2]
    rules = "; rules: runaway_count_at=deal"
    played = solver.analyse_play(flagged)
    assert str(played).splitlines()[0] == f"Schafkopf Rufer G, declarer 1: points of 1+3{rules}"
    assert titles(played._repr_html_())[0] == str(played).splitlines()[0]
    assert solver.analyse_play(flagged, objective="score").rules_note == rules
    table = solver.contract_table(flagged)
    assert titles(table._repr_html_()) == titles(table[:1]._repr_html_()) == [f"Double-dummy contract table{rules}"]
    assert titles(solver.contract_table(flagged.rules.deal, "Schafkopf", variant="runaway_count_at=deal")
                  ._repr_html_()) == [f"Double-dummy contract table{rules}"]
    assert titles(solver.contract_table(flagged, variant={})._repr_html_()) == ["Double-dummy contract table"]
    checks = solver.check_bonuses(flagged)
    assert titles(checks._repr_html_()) == titles(checks[1:]._repr_html_()) == [f"Bonuses{rules}"]
    assert titles(solver.dealt_bonuses(flagged)._repr_html_()) == [f"Bonuses the cards decide (no search){rules}"]
    assert "rules:" not in solver.check_bonuses(plain)._repr_html_() + str(solver.analyse_play(plain))


def test_a_check_or_a_table_row_shown_alone_says_the_rules_as_its_list_does():
    """A single BonusCheck or TableEntry in a notebook renders its list's table of one row titled with the rules its
    list's title ends with: each row is made with the rules it was worked out under (not compared, not in its repr),
    which a list joined from others keeps. A Kratzen table's row alone says its table's pot too."""
    flagged, plain = list(solver.read_positions(SCHAFKOPF))[:2]
    checks, table = solver.check_bonuses(flagged), solver.contract_table(flagged)
    rules = "; rules: runaway_count_at=deal"
    assert re.findall(r'font-weight:bold">([^<]*)</p>', checks[0]._repr_html_()) == [f"Bonuses{rules}"]
    assert re.findall(r'font-weight:bold">([^<]*)</p>', table[0]._repr_html_()) == [
        f"Double-dummy contract table{rules}"]
    assert dataclasses.replace(checks[0], rules_note="") == checks[0]  # compared without the rules
    assert "rules_note" not in repr(checks[0]) + repr(table[0])
    assert "rules:" not in solver.check_bonuses(plain)[0]._repr_html_() + solver.contract_table(plain)[0]._repr_html_()
    joined = checks + solver.check_bonuses(plain)
    assert [check.rules_note for check in joined] == [rules] * len(checks) + [""] * (len(joined) - len(checks))
    kratzen = solver.contract_table(next(solver.read_positions(ROOT / "examples" / "kratzen.tbn")), settlement=True,
                                    pot=4)
    legend = "settlement: the attacker&#x27;s double-dummy payment, with a pot of 4 chips"
    assert re.findall(r"<small>([^<]*)</small>", kratzen[0]._repr_html_())[-1] == legend
    assert re.findall(r"<small>([^<]*)</small>", kratzen._repr_html_())[-1] == legend


def test_a_match_s_heading_and_a_solve_result_s_title_say_the_rules():
    """A match's heading (print, Jupyter, ``stich match``) ends with the rules as every title does, not only its setup
    line naming the flags as given. A solve result's notebook view is titled with its position's diagram heading, rules
    and all, the answer under it."""
    from solver.bots import RandomBot
    from solver.match import play_match

    result = play_match("kratzen", [RandomBot()] * 3, boards=1, pot=4, variant="must_undertrump=no")
    heading = ("Kratzen: 1 board (seed 1), each played 3 times with the bots rotated; pot 4; "
               "rules: must_undertrump=false")
    assert str(result).splitlines()[0] == heading
    assert re.findall(r'font-weight:bold">([^<]*)</p>', result._repr_html_())[0] == heading
    assert run("match", "--game", "kratzen", "--bots", "random,random,random", "-n", 1, "-j", 1, "--pot", 4,
               "--variant", "must_undertrump=no").splitlines()[0] == heading
    assert str(play_match("kratzen", [RandomBot()] * 3, boards=1, pot=4)).splitlines()[0] == heading.split("; r")[0]
    flagged = next(solver.read_positions(SCHAFKOPF))
    answer = solver.solve(flagged)
    shown = answer._repr_html_()
    assert shown == ('<div><p style="font-weight:bold">board 1: Schafkopf Rufer G, declarer 1 (declarers 1+3); '
                     'rules: runaway_count_at=deal</p><p>Points for 1+3: 105 (28 won already + 77 from the rest)</p>'
                     '<p>card points the declaring side can force</p></div>')
    assert answer.heading == diagram(flagged).splitlines()[0] and "heading" not in repr(answer)
    # the library's own searches leave it empty, and the answer compares equal without it
    assert solver.api._solve_checked(flagged) == answer and solver.api._solve_checked(flagged).heading == ""


def test_a_hand_analysis_says_its_rules_in_print_and_in_the_notebook():
    """``print(analysis)`` and Jupyter start with the rules, as ``stich analyse`` (and the advice's report) does, bold
    in the notebook with the hand under them."""
    flagged, plain = list(solver.read_positions(SCHAFKOPF))[:2]
    analysis = solver.analyse_position(flagged, 1, samples=2, workers=1)
    text = str(analysis).splitlines()
    assert text[:2] == ["rules: runaway_count_at=deal", "Schafkopf Rufer G, seat 1: EA EO E9 GZ G8 HZ HK H9"]
    bold = re.findall(r'<p style="font-weight:bold">([^<]*)</p>', analysis._repr_html_())
    assert bold[:2] == text[:2] and bold[2].startswith("bonuses forced")
    shown = run("analyse", SCHAFKOPF, "-b", 1, "--seat", 1, "--samples", 2, "-j", 1).splitlines()
    assert shown[1] == text[1]
    assert "rules:" not in str(solver.analyse_position(plain, 1, samples=2, workers=1))


def test_json_given_for_records_is_said_as_json(tmp_path):
    """``stich score results.jsonl`` is said as JSON, stich's own output, at line 1 column 1, with the line's start
    up to a whole key and value, and what reads it (not as the stray quote the reader fails at)."""
    output = tmp_path / "results.jsonl"
    output.write_text(run("solve", VALAT, "--json"))
    assert json.loads(output.read_text().splitlines()[0])["command"] == "solve"
    said = run("score", output, code=1)
    assert said == (f"stich: {output}:1:1: the file holds JSON, not TBN records: stich's own output (got "
                    "'{\"schema\":\"stich-result/1\",...', "
                    "expected the TBN records it was made from (jq reads the JSON; batch reads its own --out on a "
                    "rerun, bench --compare a saved run))\n")


def test_a_batch_out_file_and_a_saved_bench_run_given_for_records_are_said_as_json(tmp_path, monkeypatch):
    """stich's other JSON files are said as its own output too, though a brace comment which is JSON is read as one:
    a ``batch --out`` file (nested lines, shown up to a whole key and value) and a bench run as ``bench --out``
    writes it (indented, nested: shown by its first line)."""
    monkeypatch.chdir(tmp_path)  # the records named k.tbn, as the batch lines' ids name them
    (tmp_path / "k.tbn").write_text((ROOT / "examples" / "kratzen.tbn").read_text(encoding="utf-8"), encoding="utf-8")
    batch_out = tmp_path / "out.jsonl"
    run("batch", "k.tbn", "--out", batch_out, "-j", "1")
    assert json.loads(batch_out.read_text().splitlines()[0])["schema"]
    bench_out = tmp_path / "run.json"
    line = {"schema": SCHEMA, "command": "bench", "line": "kr", "boards": [1, 2], "machine": machine()}
    save_run(bench_out, saved_run([line], machine()))
    for output, shown in ((batch_out, '{"id":"k.tbn:10#1",...'), (bench_out, "{")):
        said = run("score", output, code=1)
        assert said == (f"stich: {output}:1:1: the file holds JSON, not TBN records: stich's own output (got "
                        f"{shown!r}, expected the TBN records it was made from (jq reads the JSON; batch reads its "
                        "own --out on a rerun, bench --compare a saved run))\n"), said


def test_contract_advice_says_its_rules_as_the_advice_of_one_contract_does():
    """``analyse --contract all --variant ...`` prints a ``rules:`` line and its --json has a ``variant``, as one
    contract's advice and card advice have, the document under the schema."""
    asked = ["analyse", "--game", "Kratzen", "--hand", "EO E9 SU SZ", "--seats", 3, "--seat", 1, "--pot", 8,
             "--variant", "must_undertrump=no", "-n", 4, "-j", 1]
    for contract in ("all", "Trump S"):
        assert run(*asked, "--contract", contract).splitlines()[0] == "rules: must_undertrump=false", contract
    document = json.loads(run(*asked, "--contract", "all", "--json"))
    assert document["command"] == "advice" and document["variant"] == {
        "weli_also_bells": False, "first_leader": "attacker", "must_undertrump": False}
    from test_cli import SCHEMA as RESULT_SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json
    assert schema_errors(document, RESULT_SCHEMA) == []
    plain = run("analyse", "--game", "Kratzen", "--hand", "EO E9 SU SZ", "--seats", 3, "--seat", 1, "--pot", 8,
                "--contract", "all", "-n", 4, "-j", 1)
    assert plain.startswith("Kratzen, seat 1: EO E9 SU SZ\n")
