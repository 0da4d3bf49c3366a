"""The ``stich`` commands ``solve``, ``check``, ``table`` and ``bench`` through Typer's CliRunner, and the JSON
contract of every command: the documents of ``score``, ``postmortem`` and ``analyse`` and the lines ``batch`` writes
are validated here too (their values are tested in their own test files).

Expected values come from the reference solver (``reference_solver=True``) on the example files' Play sections and
endings and on the Kratzen deals, or from the values the examples' comments promise. Every ``--json`` document is
validated against ``docs/stich-result.schema.json`` by the small validator below (``jsonschema`` is not a
dependency): it implements exactly the keywords the schema uses, and a test fails if the schema starts using another.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import pickle
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
import typer
from typer.testing import CliRunner

import solver
import solver.search.engine
from example_records import board, reference
from stopping_helpers import ctrl_c_on_a_terminal, read_pty, signals_as_a_shell_gives_them
from solver.cli.main import COMMANDS, app
from solver.games.outcome import POT_ZERO_LINES_GIVEN_NOTE, POT_ZERO_LINES_NOTE, POT_ZERO_SCORE_NOTE
from solver.scoring import ENDING_NOTE

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SCHEMA = json.loads((ROOT / "docs" / "stich-result.schema.json").read_text(encoding="utf-8"))

runner = CliRunner()


# --- a validator for the subset of JSON Schema the schema uses ------------------------------------------------------

SUPPORTED = {"$schema", "$defs", "$ref", "title", "description", "type", "properties", "required",
             "additionalProperties", "items", "oneOf", "const", "enum", "minimum", "maximum", "minLength",
             "minItems", "maxItems"}

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def schema_errors(value: Any, schema: dict, path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty when it is valid)."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return schema_errors(value, SCHEMA["$defs"][name], path)
    errors: list[str] = []
    if "oneOf" in schema:
        matching = sum(not schema_errors(value, option, path) for option in schema["oneOf"])
        if matching != 1:
            errors.append(f"{path}: matches {matching} of the oneOf schemas, not exactly one")
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            return errors + [f"{path}: {value!r} is not of type {types}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} > {schema['maximum']}")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        errors.append(f"{path}: {value!r} is too short")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: missing {name!r}")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                errors += schema_errors(item, properties[name], f"{path}.{name}")
            elif extra is False:
                errors.append(f"{path}: unexpected property {name!r}")
            elif isinstance(extra, dict):
                errors += schema_errors(item, extra, f"{path}.{name}")
    if isinstance(value, list) and not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
        errors.append(f"{path}: {len(value)} items, not {schema.get('minItems', 0)}..{schema.get('maxItems')}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            errors += schema_errors(item, schema["items"], f"{path}[{index}]")
    return errors


def schema_objects(schema: Any) -> Iterator[dict[str, Any]]:
    """Every object of a schema, itself included, at any depth: the one walk over it that the checks of its keywords
    and of its fields share (the keys of ``properties`` and ``$defs`` are names, so only their values are walked)."""
    if isinstance(schema, dict):
        yield schema
        for key, item in schema.items():
            for sub in (item.values() if key in ("properties", "$defs") else [item]):
                yield from schema_objects(sub)
    elif isinstance(schema, list):
        for item in schema:
            yield from schema_objects(item)


def keywords(schema: Any) -> set[str]:
    """Every keyword used anywhere in a schema (property names excluded)."""
    return {key for found in schema_objects(schema) for key in found}


def schema_fields(schema: Any) -> set[str]:
    """Every property name a document under the schema can hold, at any depth."""
    return {name for found in schema_objects(schema) for name in found.get("properties", {})}


def test_the_validator_knows_every_keyword_of_the_schema():
    assert keywords(SCHEMA) <= SUPPORTED
    references = [s for s in json.dumps(SCHEMA).split('"$ref": "')[1:]]
    for target in references:
        assert target.split('"')[0].removeprefix("#/$defs/") in SCHEMA["$defs"]


def test_the_validator_rejects_what_it_should():
    good = {"seat": 1, "tricks": 2, "target": 2, "made": True}
    assert schema_errors(good, SCHEMA["$defs"]["seatTarget"]) == []
    assert schema_errors({**good, "seat": 0}, SCHEMA["$defs"]["seatTarget"])
    assert schema_errors({**good, "made": 1}, SCHEMA["$defs"]["seatTarget"])
    assert schema_errors({**good, "extra": 1}, SCHEMA["$defs"]["seatTarget"])
    assert schema_errors({"seat": 1}, SCHEMA["$defs"]["seatTarget"])
    assert schema_errors({"command": "solve"}, SCHEMA)


# --- helpers --------------------------------------------------------------------------------------------------------


def run(*args: str, code: int = 0):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    return result


def documents(*args: str, code: int = 0) -> list[dict]:
    """The JSON Lines of a command: every line of stdout is one document, valid under the schema."""
    result = run(*args, "--json", code=code)
    lines = result.stdout.splitlines()
    parsed = [json.loads(line) for line in lines]
    for document in parsed:
        assert schema_errors(document, SCHEMA) == []
    return parsed


# --- solve ----------------------------------------------------------------------------------------------------------


def test_help_lists_the_commands():
    result = run("--help")
    for command in ("deal", "solve", "check", "table", "bench"):
        assert command in result.stdout


def test_solve_json_of_the_valat_example():
    (document,) = documents("solve", EXAMPLES / "valat.tbn", "-o", "points", "-o", "valat", "--cards", "--line")
    assert document["command"] == "solve" and document["record"]["board"] == "1"
    points, valat = document["results"]
    assert (points["achieved"], points["future"], points["total"]) == (27, 61, 88)
    assert (valat["achieved"], valat["future"], valat["total"], valat["success"]) == (5, 5, 10, True)
    expected = reference(board("valat.tbn", 1), "valat", cards=True).card_names()
    assert {card: g["future"] for g in valat["cards"] for card in g["cards"]} == expected
    assert ["T17", "T16"] in [g["cards"] for g in valat["cards"]]
    assert len(valat["line"]) == 5 and all(t["winner"] == 1 for t in valat["line"])


def test_solve_every_record_of_a_file_agrees_with_the_reference():
    found = documents("solve", EXAMPLES / "zwanzigerrufen.tbn")
    assert [d["record"]["board"] for d in found] == [str(n) for n in range(1, 8)]
    for document in found:
        position = board("zwanzigerrufen.tbn", int(document["record"]["board"]))
        expected = reference(position, "points")
        score, result = document["results"]  # without -o: the score beside the card points
        assert (score["objective"], score["measure"]) == ("score", "game units")
        assert score["total"] == reference(position, "score").total
        assert (result["achieved"], result["future"], result["total"]) == (expected.achieved, expected.future,
                                                                         expected.total)
        sides = {side["name"]: side for side in document["taken"]["sides"]}
        assert sides["declarers"]["points"] == expected.achieved


def test_the_score_of_an_ending_or_of_no_pot_comes_with_a_note():
    """The score of an ending is that of a whole deal on its cards, and Kratzen without a pot settles every line at 0:
    solve and check say so beside the score, in text and in JSON. Both take --pot over the record's tag, and say a
    Schafkopf record has no pot."""
    (ending,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "6")
    assert ending["notes"] == [ENDING_NOTE]
    (whole,) = documents("solve", EXAMPLES / "valat.tbn")
    assert "notes" not in whole
    (points_only,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "6", "-o", "points")
    assert "notes" not in points_only  # no score, nothing to say about it
    (kratzen,) = documents("check", EXAMPLES / "kratzen.tbn", "--board", "1")
    assert kratzen["score"]["value"] == 0 and kratzen["score"]["notes"] == [
        "pot 0: every line settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"]  # every command that says it
    # takes --pot: solve and check too, over the record's tag; a Schafkopf record is left alone
    assert "│ Score     │ seat 1 │        │         │      │    +4 │" in run(
        "solve", EXAMPLES / "kratzen.tbn", "--board", "1", "-o", "score", "--pot", "10").stdout  # 2 tricks x 10 // 4
    (potted,) = documents("check", EXAMPLES / "kratzen.tbn", "--board", "1", "--pot", "10")
    assert potted["score"]["value"] == 4 and potted["score"]["notes"] == []
    other = run("solve", EXAMPLES / "schafkopf.tbn", "--board", "1", "-o", "points", "--pot", "10")
    assert "--pot is for Kratzen records; Schafkopf has no pot, so it is not used there" in other.stderr
    assert f"note: {ENDING_NOTE}" in run("solve", EXAMPLES / "schafkopf.tbn", "--board", "6").stdout


POT_ZERO_SAID = "pot 0: every {what} settles at 0 chips: give the record a [Pot] tag, or --pot CHIPS"


@pytest.mark.parametrize("command, what", [(("solve", "-o", "score"), "line"), (("check",), "line"),
                                           (("table",), "contract"), (("score", "--dd"), "deal")])
def test_the_pot_0_note_is_said_once_on_stderr_and_kept_in_the_json(command, what):
    """A message about the run, not a result: at pot 0 every Kratzen record settles at 0, said once on stderr for
    all of them (not on stdout under every record), as match and postmortem say theirs; the JSON documents keep it
    in their notes (the table's ``pot`` is 0) and say nothing of it on stderr, and a pot given says nothing."""
    result = run(*command, EXAMPLES / "kratzen.tbn")
    assert result.exit_code == 0, result.stderr
    assert "pot 0:" not in result.stdout
    said = POT_ZERO_SAID.format(what=what)
    assert [line for line in result.stderr.splitlines() if "pot 0" in line] == [
        f"stich: {said} (5 records of Kratzen from {EXAMPLES / 'kratzen.tbn'}:10)"]
    assert "pot 0" not in run(*command, EXAMPLES / "kratzen.tbn", "--json").stderr
    documents_ = documents(*command, EXAMPLES / "kratzen.tbn")
    notes = [[note for note in (document.get("notes") or (document.get("score") or {}).get("notes")
                                or (document.get("dd") or {}).get("notes") or ()) if note.startswith("pot 0:")]
             for document in documents_]
    if command[0] == "table":
        assert [document["pot"] for document in documents_] == [0] * 5
    else:
        assert all(len(found) == 1 for found in notes) and len(notes) == 5, notes
    paid = run(*command, EXAMPLES / "kratzen.tbn", "--pot", "8")
    assert "pot 0" not in paid.stdout + paid.stderr


def test_the_pot_0_note_is_known_by_its_value_not_its_words():
    """The text leaves the pot-0 note out under each record and says it once on stderr. It knows the note by the values
    its writers use, not by its words' start (``pot 0:``), which two writers write each in their own and which other
    notes share (match's, advice's): other notes on a pot of 0 are kept."""
    from cli.render import is_pot_zero_note

    (solved,) = documents("solve", "-o", "score", EXAMPLES / "kratzen.tbn", "--board", "3")
    (played,) = documents("score", "--dd", EXAMPLES / "kratzen.tbn", "--board", "3",
                          "--play", "EU EK EO E7 G7 GK GZ G8 S6 HU E8 SO SZ G9 SU S7")
    assert solved["notes"] == [POT_ZERO_LINES_NOTE]
    assert played["notes"] == played["dd"]["notes"] == ["a Muss: tricks pay nothing", POT_ZERO_SCORE_NOTE]
    assert [is_pot_zero_note(note) for note in played["notes"]] == [False, True]
    assert is_pot_zero_note(POT_ZERO_LINES_NOTE)
    assert not is_pot_zero_note("pot 0: every deal settles at 0 chips, so the bots' payments say nothing "
                                "(--pot CHIPS)")


#: examples/kratzen.tbn's board 3, a Muss deal, played to its end (its double-dummy line); ``{pot}`` takes a tag
KRATZEN_MUSS_PLAYED = """[Game "Kratzen"]
[Seats "4"]
[Deal "1: EU E8 G8 SU / EK G7 SO S7 / S6 EO GK SZ / E7 GZ G9 HU"]
[Contract "Trump H Muss"]
[Declarer "1"]
{pot}[Play "1"]
EU EK EO E7
G7 GK GZ G8
S6 HU E8 SO
SZ G9 SU S7
*
"""


@pytest.mark.parametrize("command, what", [(("solve", "-o", "score"), "line"), (("check",), "line"),
                                           (("table",), "contract"), (("score", "--dd"), "deal"),
                                           (("postmortem", "-o", "score"), "card")])
def test_a_pot_of_0_given_is_said_without_asking_for_a_pot(tmp_path, command, what):
    """A pot of 0 given on purpose (``--pot 0``, or a record's ``[Pot "0"]``) still settles every line at 0, which
    stderr says once, without telling the reader to give the pot already given ("give the record a [Pot] tag, or --pot
    CHIPS"): that is said only where no pot was given."""
    tagged = tmp_path / "tagged.tbn"
    tagged.write_text(KRATZEN_MUSS_PLAYED.format(pot='[Pot "0"]\n'))
    bare = tmp_path / "bare.tbn"
    bare.write_text(KRATZEN_MUSS_PLAYED.format(pot=""))
    for path, given in ((tagged, ()), (bare, ("--pot", "0"))):
        said = run(*command, path, *given).stderr
        assert [line for line in said.splitlines() if "pot 0" in line] == [
            f"stich: pot 0: every {what} settles at 0 chips (the Kratzen record at {path}:1)"]
    assert f"stich: {POT_ZERO_SAID.format(what=what)} (the Kratzen record at {bare}:1)" in (
        run(*command, bare).stderr.splitlines())


def test_the_json_pot_0_note_asks_for_a_pot_only_where_none_was_given(tmp_path):
    """``--json``'s pot-0 notes say what stderr says: with ``--pot 0`` or ``[Pot "0"]`` they do not ask for the pot
    already given; without one they ask for it (``solve``'s lines, ``score``'s deal and its ``dd``)."""
    from solver.games.outcome import POT_ZERO_SCORE_GIVEN_NOTE

    tagged = tmp_path / "tagged.tbn"
    tagged.write_text(KRATZEN_MUSS_PLAYED.format(pot='[Pot "0"]\n'))
    bare = tmp_path / "bare.tbn"
    bare.write_text(KRATZEN_MUSS_PLAYED.format(pot=""))
    asked = (POT_ZERO_LINES_NOTE, POT_ZERO_SCORE_NOTE)
    given = ("pot 0: every line settles at 0", "pot 0: every deal settles at 0")
    assert (POT_ZERO_LINES_GIVEN_NOTE, POT_ZERO_SCORE_GIVEN_NOTE) == given
    for path, pot, (lines, deal) in ((bare, (), asked), (bare, ("--pot", "0"), given), (tagged, (), given)):
        (solved,) = documents("solve", "-o", "score", path, *pot, "--from-start")
        (scored,) = documents("score", "--dd", path, *pot)
        assert solved["notes"] == [lines], (path, pot)
        assert scored["notes"] == scored["dd"]["notes"] == ["a Muss: tricks pay nothing", deal], (path, pot)


def test_score_dd_of_a_kratzen_deal_without_a_pot_notes_it():
    """The double-dummy settlement's deal is scored as any other, notes and all: the JSON's ``dd`` keeps its notes (a
    pot of 0, a Muss deal), and ``score --dd`` on an unfinished Kratzen deal says the pot of 0 once on stderr."""
    (muss,) = documents("score", "--dd", EXAMPLES / "kratzen.tbn", "--board", "3")
    assert muss["dd"]["notes"] == ["a Muss: tricks pay nothing",
                                   "pot 0: every deal settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"]
    (paid,) = documents("score", "--dd", EXAMPLES / "kratzen.tbn", "--board", "3", "--pot", "8")
    assert paid["dd"]["notes"] == ["a Muss: tricks pay nothing"]
    text = run("score", "--dd", EXAMPLES / "kratzen.tbn", "--board", "3")
    # the pot line says the Muss; the settlement's note in the same words is not said again
    assert [line for line in text.stdout.splitlines() if "Muss:" in line] == [
        "pot: 0 chips, a Muss: tricks pay nothing"] and "pot 0:" not in text.stdout
    assert f"stich: {POT_ZERO_SAID.format(what='deal')} (the Kratzen record at {EXAMPLES / 'kratzen.tbn'}:30)" in (
        text.stderr.splitlines())


def test_score_dd_of_a_finished_muss_deal_says_its_note_once(tmp_path):
    """A finished Muss deal's score and its double-dummy settlement both note the Muss, and the pot line over them
    says it too: the text said it there (``a Muss: tricks pay nothing``), under the payments (``note: a Muss deal:
    no trick payouts``) and under the settlement. It is said once, on the pot line, whose words the note shares;
    the JSON, which has no pot line, keeps the notes of the deal and of its ``dd``."""
    record = tmp_path / "muss.tbn"
    record.write_text(KRATZEN_MUSS_PLAYED.format(pot='[Pot "8"]\n'))
    text = run("score", "--dd", record).stdout
    assert [line for line in text.splitlines() if "Muss" in line] == [
        f"{record}:1 - Kratzen Trump H Muss, attacker 1", "pot: 8 chips, a Muss: tricks pay nothing"]
    (document,) = documents("score", "--dd", record)
    assert document["notes"] == document["dd"]["notes"] == ["a Muss: tricks pay nothing"]


def test_solve_writes_every_objective_s_title_in_capitals():
    """``solve -o all`` writes every title as the bonuses' are (``Score``, ``Points`` and ``Tricks (seat 1)`` beside
    ``Game`` and ``Valat against``, not ``score``), in the value table and the card and line tables' titles; the JSON
    keeps the identifiers."""
    text = run("solve", "-o", "all", "--cards", "--line", EXAMPLES / "settlement.tbn").stdout
    rows = [line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│ ")]
    assert {"Score", "Points", "Game"} <= set(rows) and not {"score", "points"} & set(rows)
    assert "Cards of seat 4: Score" in text and "Optimal line (Points)" in text
    kratzen = run("solve", "-o", "all", EXAMPLES / "kratzen.tbn", "--board", "1").stdout
    assert "│ Tricks (seat 1) │ seat 1 │      2 │       0 │    2 │     2 │ yes    │" in kratzen
    (document,) = documents("solve", "-o", "all", EXAMPLES / "kratzen.tbn", "--board", "1")
    assert [result["objective"] for result in document["results"]] == ["score", "tricks", "tricks", "tricks"]


def test_the_card_points_of_a_tout_come_with_a_note_that_its_score_does_not_count_them():
    """A Tout is won by every trick (RULES.md 2.5): the 120 card points ``solve -o points`` answers measure nothing
    its score counts, and nothing said so. A note says it wherever ``points`` is answered, in the post-mortem's
    words (one helper, ``uncounted_points_note``); a contract won by card points has none."""
    words = "card points: a Wenz Tout's score does not count them (won by every trick); objective 'score' measures it"
    (points,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "4", "-o", "points")
    assert points["notes"] == [words] and points["results"][0]["total"] == 120
    text = runner.invoke(app, ["solve", str(EXAMPLES / "schafkopf.tbn"), "--board", "4", "-o", "points"],
                         env={"COLUMNS": "200"})
    assert text.exit_code == 0 and f"note: {words}" in text.stdout.splitlines()
    (default,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "4")  # score and points: said too
    assert [r["objective"] for r in default["results"]] == ["score", "points"] and default["notes"] == [words]
    (tout_only,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "4", "-o", "tout")
    assert "notes" not in tout_only  # no card points answered, nothing to say of them
    (rufer,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "1", "-o", "points")
    assert "notes" not in rufer
    # the game and schneider lines are card-point targets too (measure "points"): the note is keyed on the measure
    (targets,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "4", "-o", "game", "-o", "schneider")
    assert [r["measure"] for r in targets["results"]] == ["points", "points"] and targets["notes"] == [words]


def test_a_finished_deal_says_why_it_has_no_cards_or_line():
    out = run("solve", EXAMPLES / "schafkopf.tbn", "--board", "7", "--cards", "--line").stdout
    assert "the deal is over: no cards and no line to show" in out
    assert "the deal is over: no" not in run("solve", EXAMPLES / "schafkopf.tbn", "--board", "7").stdout
    assert "the deal is over: no" not in run("solve", EXAMPLES / "valat.tbn", "--cards").stdout


def test_every_card_table_is_ranked_best_first_for_the_player_to_move():
    """A card table is ranked best first for the player to move, whatever the objective (points, valat): seat 2 defends,
    so the card that leaves the declarers the fewest points or tricks comes first; JSON keeps the pack's order."""
    out = run("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "7", "-o", "points", "-o", "valat", "--cards").stdout
    rows = [line.split("│")[1].strip() for line in out.splitlines() if line.startswith("│ ♥K/♥Q") or
            line.startswith("│ ♣K") or line.startswith("│ ♦K")]
    assert rows == ["♥K/♥Q", "♣K", "♦K"] * 2
    (document,) = documents("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "7", "-o", "points", "--cards")
    assert [group["cards"] for group in document["results"][0]["cards"]] == [["CK"], ["HK", "HQ"], ["DK"]]


def test_solve_prints_rich_tables_with_suit_signs():
    result = run("solve", EXAMPLES / "valat.tbn", "--cards", "--line")
    out = result.stdout
    assert "board 1" in out and "Zwanzigerrufen Solo, declarer 1" in out
    assert "Taken so far" in out and "Double-dummy value" in out and "Optimal line" in out
    assert "T17/T16" in out and "♠K" in out and "♥K" in out and "SK" not in out
    assert "88" in out and "2+3+4: 0" in out
    assert result.stderr == ""


def test_solve_german_packs_keep_their_letters():
    out = run("solve", EXAMPLES / "schafkopf.tbn", "--board", "6", "--cards").stdout
    assert "GA" in out and "SZ" in out and "♠" not in out and "♥" not in out
    (document,) = documents("solve", EXAMPLES / "schafkopf.tbn", "--board", "6", "--cards")
    assert {c: g["future"] for g in document["results"][1]["cards"] for c in g["cards"]} == {"GA": 33, "SZ": 18}


def test_solve_kratzen_every_seat():
    (document,) = documents("solve", EXAMPLES / "kratzen.tbn", "-b", "3")
    position = board("kratzen.tbn", 3)
    score, *seats = document["results"]
    assert score["objective"] == "score" and score["total"] == reference(position, "score").total
    assert score["description"].startswith("the attacker's payment in chips, with the pot")  # not game units
    assert score["measure"] == "chips" and score["achieved"] == 0  # the whole deal's settlement, as game units are
    assert [r["total"] for r in seats] == [reference(position, "tricks", seat=s).total for s in range(1, 5)]
    out = run("solve", EXAMPLES / "kratzen.tbn", "-b", "3").stdout
    assert "every seat plays for itself" in out and "Tricks (seat 3)" in out


def test_kratzen_documents_give_no_card_points_but_count_the_tricks():
    """Kratzen counts tricks, not card points: solve, check and show give null where a card-point game gives its
    points (they read 0, as if nobody had taken any), and the tricks taken as the play has them."""
    kratzen = board("kratzen.tbn", 5)
    taken = [kratzen.state.tricks[seat] for seat in range(6)]
    assert sum(taken) == 1
    for command in ("solve", "check", "show"):
        (document,) = documents(command, EXAMPLES / "kratzen.tbn", "-b", "5")
        assert document["position"]["points_in_deal"] is None
        assert [(s["points"], s["tricks"]) for s in document["taken"]["seats"]] == [(None, t) for t in taken]
        assert [(s["points"], s["tricks"]) for s in document["taken"]["sides"]] == [(None, taken[0]),
                                                                                   (None, sum(taken[1:]))]
        (schafkopf,) = documents(command, EXAMPLES / "schafkopf.tbn", "-b", "1")
        assert schafkopf["position"]["points_in_deal"] == 120
        assert all(isinstance(s["points"], int) for s in schafkopf["taken"]["seats"] + schafkopf["taken"]["sides"])


def test_solve_a_trick_in_progress_line_in_json():
    (document,) = documents("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "7", "--line")
    line = document["results"][0]["line"]
    assert line[0]["cards"][:2] == ["T15", "SN"] and line[0]["on_table"] == 2
    assert [t["trick"] for t in line] == [7, 8, 9, 10]


def test_solve_all_objectives():
    (document,) = documents("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "5", "-o", "all")
    position = board("zwanzigerrufen.tbn", 5)
    assert {r["objective"]: r["total"] for r in document["results"]} == {
        name: reference(position, name).total for name in ["score", *position.rules.objective_names()]}


# --- check ----------------------------------------------------------------------------------------------------------


def test_check_the_pagat_example():
    (document,) = documents("check", EXAMPLES / "pagat_ultimo.tbn")
    checks = {c["bonus"]: c for c in document["checks"]}
    position = board("pagat_ultimo.tbn", 1)
    for name, check in checks.items():
        assert check["can_force"] == reference(position, name).success, name
    assert checks["pagat_ultimo"]["can_force"] and checks["pagat_ultimo"]["decided_by"] == [1, 2]
    assert checks["valat"]["can_force"] and checks["pagat_beaten"]["decided_by"] == [1, 2]
    out = run("check", EXAMPLES / "pagat_ultimo.tbn").stdout
    assert "Pagat Ultimo" in out and "1+2 can force it" in out and "Mondfang" in out


def test_check_says_a_bonus_given_up_in_the_score_the_table_prints(monkeypatch):
    """On the defenders' Mondfang row of board 6, where their forcing it leaves the declarers at -6, the defenders +6,
    the number is the declaring side's net, as the score line under the table, and the row says so ("score when
    forced"), as the choice line does ("score with ..."), not `gives it up (forcing it: -6)`."""
    monkeypatch.setenv("COLUMNS", "220")
    (document,) = documents("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "6")
    under_score = {b["bonus"]: b for b in document["score"]["bonuses"]}
    assert document["score"]["value"] == -18 and under_score["mondfang"]["side"] == [3, 4]
    assert under_score["mondfang"]["with_bonus"] == -6 and not under_score["mondfang"]["score_forces"]
    out = run("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "6").stdout
    assert "gives it up (score when forced: -6)" in out
    assert "score (double dummy): declarers 1+2 net -18 game units" in out
    choice = run("check", EXAMPLES / "settlement.tbn").stdout
    assert "the score prefers Pagat Ultimo (score with Valat +8, with Pagat Ultimo +12)" in " ".join(choice.split())


def test_an_objective_the_deal_decides_says_where_its_answer_is():
    """RULES.md 1.6: Trull and 4 Kings come from the dealt hands and need no search. ``solve -o trull`` says that the
    cards decide it and that check lists it (Schafkopf's Laufende alike), not "'trull' is no game's objective" as of a
    misspelling, to a player asking whether the Trull can be had, quoting the name as given. Still a usage error; a
    misspelt one (Laufend, 4 King) is offered as the meant bonus, in the form written (a title, a name)."""
    for name, game in (("trull", "Zwanzigerrufen"), ("four_kings", "Zwanzigerrufen"), ("4 Kings", "Zwanzigerrufen"),
                       ("Laufende", "Schafkopf")):
        said = " ".join(run("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "4", "-o", name, code=2).stderr.split())
        assert f"'{name}' is decided by the cards ({game}: who holds them), not by a search" in said, said
        assert "stich check lists it" in said and "no game's objective" not in said
    for name, meant in (("Laufend", "Laufende"), ("4 King", "4 Kings"), ("trul", "trull")):
        said = " ".join(run("solve", EXAMPLES / "schafkopf.tbn", "-o", name, code=2).stderr.split())
        assert f"'{name}' is no game's objective; did you mean '{meant}'? (the objectives:" in said, said
    checked = {d["bonus"]: d for d in documents("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "4")[0][
        "dealt_bonuses"]}
    assert checked["four_kings"]["made"] and checked["four_kings"]["side"] == [4]  # where check answers it


def test_check_of_a_solo_speaks_of_one_declarer():
    """A Solo's check speaks of the one soloist as "the declarer", as the score does, not "the defenders hold the
    declarers to 32"; each bonus's description also gives the rule book's name (Absolut against, Pagat Ultimo)."""
    (document,) = documents("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "3")
    described = {c["bonus"]: c["description"] for c in document["checks"]}
    assert described["absolut_against"] == "the defenders hold the declarer to 32 or less (Absolut against)"
    assert described["pagat_ultimo"].endswith("(Pagat Ultimo)")
    (normal,) = documents("check", EXAMPLES / "pagat_ultimo.tbn")
    assert {c["bonus"]: c["description"] for c in normal["checks"]}["absolut_against"] == \
        "the defenders hold the declarers to 32 or less (Absolut against)"
    assert "declarers" not in run("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "3").stdout


def test_check_of_a_schafkopf_solo_speaks_of_one_declarer_and_names_the_bonuses_against():
    """Schafkopf's schneider_against speaks of a Solo's one declarer, not of "the declarers are held to 30 or less", and
    it and schwarz_against give their names, as Zwanzigerrufen's say "(Absolut against)", "(Valat against)"."""
    (solo,) = documents("check", EXAMPLES / "schafkopf.tbn", "-b", "3")
    described = {c["bonus"]: c["description"] for c in solo["checks"]}
    assert described["schneider_against"] == "the defenders hold the declarer to 30 or less (Schneider against)"
    assert described["schwarz_against"] == "the defenders take every trick (Schwarz against)"
    (rufer,) = documents("check", EXAMPLES / "schafkopf.tbn", "-b", "1")
    assert {c["bonus"]: c["description"] for c in rufer["checks"]}["schneider_against"] == \
        "the defenders hold the declarers to 30 or less (Schneider against)"


def test_check_s_rows_name_each_bonus_once(monkeypatch):
    """Each row names its bonus once, in its first column: the "what" column does not repeat it in brackets ("the
    defenders take every trick", not "... (Valat against)" beside ``Valat against``); another bracket stays ("(silent
    loss)"), and the JSON's description keeps the whole text."""
    monkeypatch.setenv("COLUMNS", "220")  # a row a line
    rows = {cells[0]: cells[2] for line in run("check", EXAMPLES / "valat.tbn").stdout.splitlines()
            if line.startswith("│") for cells in [[cell.strip() for cell in line.split("│")[1:]]]}
    assert rows["Valat against"] == "the defenders take every trick"
    assert rows["Absolut"] == "the declarer reaches 56"  # a Solo's lone declarer, as "Absolut against" says
    assert rows["Pagat Ultimo beaten"] == "the Pagat is played to the last trick and beaten (silent loss)"
    assert rows["Trull"] == "one player was dealt TS T21 T1"
    assert rows["4 Kings"] == "one player was dealt the four Kings"
    (document,) = documents("check", EXAMPLES / "valat.tbn")
    assert {c["bonus"]: c["description"] for c in document["checks"]}["valat_against"] == \
        "the defenders take every trick (Valat against)"


def test_solve_names_each_objective_as_players_do(monkeypatch):
    """``stich solve`` names the objectives as players and ``check`` do (``Schneider against``, not the identifier
    ``schneider_against``) in its value table and its card and line tables' titles; the JSON keeps the identifier."""
    monkeypatch.setenv("COLUMNS", "220")
    out = run("solve", EXAMPLES / "schafkopf.tbn", "-b", "1", "-o", "schneider_against", "-o", "schwarz",
              "-o", "points", "--cards", "--line").stdout
    rows = [line.split("│")[1].strip() for line in out.split("Double-dummy value", 1)[1].splitlines()
            if line.startswith("│")][:3]
    assert rows == ["Schneider against", "Schwarz", "Points"]
    titles = {line.strip() for line in out.splitlines()}
    assert {"Cards of seat 3: Schneider against", "Optimal line (Schneider against)"} <= titles
    assert "_against" not in out
    (document,) = documents("solve", EXAMPLES / "schafkopf.tbn", "-b", "1", "-o", "schneider_against")
    assert [result["objective"] for result in document["results"]] == ["schneider_against"]


def test_check_lists_the_trull_and_the_four_kings_the_deal_decides():
    """RULES.md 1.6: Trull and 4 Kings need no search, and check lists them in its table all the same. Board 4 is a Suit
    Solo whose declarer, seat 4, was dealt the four Kings (they count there) and nobody all of TS T21 T1 (the Trull does
    not count in a Suit Solo, RULES.md 1.7)."""
    (document,) = documents("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "4")
    assert schema_errors(document, SCHEMA) == []
    assert [c["bonus"] for c in document["checks"] if c["can_force"] is not None] == [
        "game", "absolut", "absolut_against", "valat", "valat_against"]  # the searched ones, as before
    # RULES.md 1.6: no Pagat or Mondfang in a Suit Solo; their rows say why they do not arise (a reader asking
    # for the Pagat finds its row), and the score does not search them
    left_out = [c for c in document["checks"] if c["can_force"] is None]
    assert [(c["bonus"], c["reason"], c["side"]) for c in left_out] == [
        (name, "not in a Suit Solo (RULES.md 1.6)", []) for name in ("pagat_ultimo", "pagat_beaten", "mondfang")]
    assert "pagat_ultimo" not in [b["bonus"] for b in document["score"]["bonuses"]]
    rows = [line for line in run("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "4").stdout.splitlines()
            if line.startswith(("│ Pagat", "│ Mondfang"))]
    assert [[cell.strip() for cell in row.split("│")[1:4]] for row in rows] == [
        [name, "-", ""] for name in ("Pagat Ultimo", "Pagat Ultimo beaten", "Mondfang")]
    assert all("does not arise: not in a" in row for row in rows), rows
    refused = run("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "4", "-o", "pagat_ultimo", code=1)
    assert "objective 'pagat_ultimo' of Zwanzigerrufen does not arise: not in a Suit Solo (RULES.md 1.6) (choose " \
        in refused.stderr and refused.stderr.count("Suit Solo") == 1 and not refused.stdout
    dealt = {b["bonus"]: b for b in document["dealt_bonuses"]}
    assert dealt["four_kings"] == {
        "bonus": "four_kings", "description": "one player was dealt the four Kings (4 Kings)", "side": [4], "seat": 4,
        "made": True, "counts": True, "decided_by": "deal",
        "reason": "seat 4 was dealt them; decided by the deal, no search"}
    assert (dealt["trull"]["made"], dealt["trull"]["counts"], dealt["trull"]["side"]) == (False, False, [])
    text = " ".join(run("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "4").stdout.split())
    assert "4 Kings │ seat 4 │ one player was dealt the" in text  # the players' name; the JSON's is four_kings
    assert "│ yes - seat 4 was dealt │" in text and "│ no - nobody was dealt all │" in text
    # a Trull dealt to the partner is the declaring side's; under card_bonus_basis=captured the tricks decide it
    deal = "1: SK HK SQ / TS T21 T1 / HQ SN SJ / CK DK CQ"
    trull, kings = solver.dealt_bonuses(solver.make_position("zwanzigerrufen", deal, "Normal T20", partner=2))
    assert (trull.bonus, trull.side, trull.seat, trull.made) == ("trull", (1, 2), 2, True)
    assert (kings.bonus, kings.side, kings.made) == ("four_kings", (), False)
    captured = solver.make_position("zwanzigerrufen", deal, "Normal T20", partner=2,
                                    variant="card_bonus_basis=captured")
    assert [(b.made, b.decided_by) for b in solver.dealt_bonuses(captured)] == [(None, "tricks")] * 2
    after = solver.dealt_bonuses(captured.play_cards("SK TS SN CK"))  # seat 2 takes SK and CK with the Skus
    assert (after[0].made, after[1].made) == (None, None)
    assert after[1].reason == "the tricks still to come decide it (not searched)"
    taken = solver.dealt_bonuses(captured.play_cards("SK TS SN CK T21 HQ DK HK"))  # and DK, HK with the Mond
    assert (taken[1].made, taken[1].side, taken[1].reason) == (True, (1, 2), "1+2 took all four in the tricks")
    other = solver.make_position("zwanzigerrufen", "1: SK HK SQ / TS T21 T1 / T4 SN SJ / CK DK CQ", "Normal T20",
                                 partner=2, variant="card_bonus_basis=captured", play="SQ TS SN CK T1 T4 DK HK")
    split = (False, "the sides split them in the tricks")
    assert [(b.made, b.reason) for b in solver.dealt_bonuses(other)] == [split, split]
    assert [b.bonus for b in solver.dealt_bonuses(board("schafkopf.tbn", 1))] == ["laufende"]  # Schafkopf's own


def test_an_announced_trull_that_nobody_holds_is_said_to_fail():
    """An announced Trull nobody was dealt is said to fail, so the other side scores it (RULES.md 1.7: a failed
    announcement), as the score has it, not only 'no - nobody was dealt all three'."""
    text = (EXAMPLES / "zwanzigerrufen.tbn").read_text(encoding="utf-8").split("\n\n% 2.")[0]
    text = text.replace('[Contract "Normal"]', '[Contract "Normal"]\n[Announcements "1: Trull"]')
    position = solver.parse_positions(text, name="ann.tbn")[0]
    trull, kings = solver.dealt_bonuses(position)
    assert trull.reason == ("nobody was dealt all three; decided by the deal, no search; announced by 1+2: fails, "
                            "so the other side scores it")
    assert "announced" not in kings.reason
    assert [(item.name, item.winners) for item in solver.dd_settlement(position).items
            if item.name == "trull"] == [("trull", (3, 4))]  # as the score has it


def test_check_lists_schafkopfs_laufende_the_deal_decides():
    """RULES.md 2.5: the Laufende are the deal's, no search; check lists them beside the searched bonuses."""
    deal = "EO GO HO SO EU GU HU SU / EA EZ EK E9 E8 E7 GA GZ / GK G9 G8 G7 HA HZ HK H9 / H8 H7 SA SZ SK S9 S8 S7"
    (laufende,) = solver.dealt_bonuses(solver.make_position("schafkopf", deal, "WenzTout"))
    assert (laufende.bonus, laufende.side, laufende.made, laufende.counts) == ("laufende", (1,), True, True)
    assert laufende.reason == ("seat 1 was dealt 4 from the top; they raise the value (2 each in a Tout); decided "
                               "by the deal, no search")
    other = deal.replace("EO GO", "EA GO").replace("EA EZ EK", "EO EZ EK")  # the top Ober a defender's
    (none,) = solver.dealt_bonuses(solver.make_position("schafkopf", other, "Solo G",
                                                        variant="solo_requires_plain_trump_card=false"))
    assert (none.made, none.side, none.reason) == (False, (), "no side was dealt 3 from the top; decided by the "
                                                                "deal, no search")


def test_check_lists_the_laufende_an_endings_score_counts():
    """An ending is scored on the cards it holds (docs/scoring.md), its Laufende too: a Solo E ending whose declarer
    holds EO GO HO settles 3 Laufende, and check lists them for the ending, so its rows and the score printed under them
    agree. The row is the one the score counts."""
    ending = solver.make_position("schafkopf", "1: EO GO HO EA / EZ GA GZ HA / EK GK HK H9 / E9 G9 SA SZ", "Solo E")
    (laufende,) = solver.dealt_bonuses(ending)
    assert (laufende.bonus, laufende.side, laufende.made) == ("laufende", (1,), True)
    assert laufende.reason.startswith("seat 1 was dealt 3 from the top")
    assert ("laufende", 3) in [(item.name, item.value) for item in solver.dd_settlement(ending).items]


def test_check_schafkopf_and_kratzen():
    (tout,) = documents("check", EXAMPLES / "schafkopf.tbn", "-b", "4")
    checks = {c["bonus"]: c["can_force"] for c in tout["checks"]}
    assert set(checks) == {"game", "schneider", "schneider_against", "schwarz", "schwarz_against", "tout"}
    assert checks["tout"] and checks["schwarz"] and not checks["schneider_against"]
    (kratzen,) = documents("check", EXAMPLES / "kratzen.tbn", "-b", "1")
    assert [(c["seat"], c["guaranteed"], c["target"], c["can_force"]) for c in kratzen["checks"]] == [
        (1, 2, 2, True), (2, 0, 1, False), (3, 1, 1, True)]
    out = run("check", EXAMPLES / "kratzen.tbn", "-b", "1").stdout
    assert "guarantees 2 tricks, needs 2" in out
    # the score under the targets is the attacker's own payment in chips (not a bare "+6": whose?)
    assert "score (double dummy): +6 chips, attacker seat 1's own payment" in \
        run("check", EXAMPLES / "kratzen.tbn", "-b", "1", "--pot", "12").stdout
    # a side's net says whose, in the words of score --dd's settlement line
    assert "score (double dummy): declarer seat 1 net +90 game units\n" in run("check", EXAMPLES / "valat.tbn").stdout
    assert "(from where the play stops): declarer seat 1 net +90 game units\n" in \
        run("score", "--dd", EXAMPLES / "valat.tbn").stdout
    # 0 unsigned, as the payments and the contract table write it (not "+0 chips")
    assert "score (double dummy): 0 chips, attacker seat 1's own payment\n" in \
        run("check", EXAMPLES / "kratzen.tbn", "-b", "1").stdout


# --- variants and boards --------------------------------------------------------------------------------------------


def test_variant_option_changes_the_answer():
    # ending 6: the Pagat wins the last trick only as a Sagotrick
    (default,) = documents("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "6")
    (plain,) = documents("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "6", "--variant", "sagotrick=off")
    assert {c["bonus"]: c["can_force"] for c in default["checks"]}["pagat_ultimo"] is True
    assert {c["bonus"]: c["can_force"] for c in plain["checks"]}["pagat_ultimo"] is False
    assert plain["variant"]["sagotrick"] == "off"


def test_variant_option_overrides_the_file_flag_by_flag():
    (document,) = documents("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "2", "--variant", "solo_value=4",
                            "--variant", "tie_44=no_score")
    # the file says solo_value=5, sagotrick=mond_skus_pagat: only the flags given are replaced
    assert document["variant"]["solo_value"] == 4 and document["variant"]["tie_44"] == "no_score"
    assert document["variant"]["sagotrick"] == "mond_skus_pagat"


def test_a_bad_value_of_the_files_variant_tag_is_located_though_the_option_replaces_the_flag(tmp_path):
    """A bad value of the file's [Variant] tag that --variant replaces is said with its file:line:col, as the same file
    without the option says it: the tag's flags are read where it is located, not again with nothing saying where they
    came from."""
    path = tmp_path / "maybe.tbn"
    path.write_text('[Game "Kratzen"]\n[Deal "1: E9 EK / HA G7 / H7 G8"]\n[Contract "Trump H"]\n'
                    '[Variant "must_undertrump=maybe"]\n', encoding="utf-8")
    said = f"stich: {path}:4:11: variant flag must_undertrump takes true or false, not 'maybe' (got " \
           "'must_undertrump=maybe', expected flags of docs/rules.md)"
    assert run("solve", path, code=1).stderr.splitlines() == [said]
    assert run("solve", path, "--variant", "must_undertrump=false", code=1).stderr.splitlines() == [said]


def test_a_malformed_variant_is_a_usage_error():
    result = run("solve", EXAMPLES / "valat.tbn", "--variant", "solo_value", code=2)
    said = " ".join(result.stderr.replace("│", "").split())
    assert ("Invalid value for '--variant': variant 'solo_value' is not of the form NAME=VALUE (a flag's name, '=' "
            "and its value, such as solo_value=5)") in said
    # an empty one (an unset shell variable) in the same words, as the library's own message for a malformed text
    said = " ".join(run("solve", EXAMPLES / "valat.tbn", "--variant", " ", code=2).stderr.replace("│", "").split())
    assert ("Invalid value for '--variant': an empty value (an unset shell variable?), not of the form NAME=VALUE (a "
            "flag's name, '=' and its value, such as solo_value=5)") in said
    # where the game is known, the example is a flag of its own (Zwanzigerrufen's solo_value, which the others refuse)
    with pytest.raises(solver.StichError) as caught:
        solver.get_game("kratzen").variant("must_undertrump")
    assert str(caught.value) == ("variant 'must_undertrump' is not of the form NAME=VALUE (a flag's name, '=' and its "
                                 "value, such as weli_also_bells=true)")
    tagged = ('[Game "Schafkopf"]\n[Variant "laufende_mode"]\n[Deal "1: EZ EK EU GZ GK HA H8 H7 / EA G8 G7 H9 SZ SO '
              'SU S7 / EO E9 GA GO GU G9 HK SK / E8 E7 HZ HO HU SA S9 S8"]\n[Contract "Rufer E"]\n')
    with pytest.raises(solver.ParseError) as caught:
        solver.parse_positions(tagged)
    assert ("variant 'laufende_mode' is not of the form NAME=VALUE (a flag's name, '=' and its value, such as "
            "solo_requires_plain_trump_card=false)") in str(caught.value)


@pytest.mark.parametrize("command", ["solve", "check", "show", "batch"])
def test_a_variant_tags_list_given_to_one_variant_option_says_to_repeat_the_option(command, tmp_path):
    """A club copying its [Variant] tag's value into --variant is told to repeat the option, not only that the value is
    not NAME=VALUE."""
    extra = ["--out", str(tmp_path / "out.jsonl")] if command == "batch" else []
    result = run(command, EXAMPLES / "valat.tbn", "--variant", "sagotrick=off, solo_value=5", *extra, code=2)
    said = " ".join(result.stderr.replace("│", "").split())
    assert ("Invalid value for '--variant': one flag per --variant, not a list of them: give "
            "--variant sagotrick=off --variant solo_value=5") in said


@pytest.mark.parametrize("listed, said", [
    # spaces around '=' would make each suggested option three shell words
    ("sagotrick=off , solo_value = 5", "give --variant sagotrick=off --variant solo_value=5"),
    # one flag twice is no list to split: which value is meant is unsaid
    ("sagotrick=off, Sagotrick = any_order",
     "variant flag sagotrick is given twice ('sagotrick=off' and 'Sagotrick = any_order')"),
    # a malformed pair between hid the repeat
    ("sagotrick=off, a=b=c, Sagotrick = any_order",
     "variant flag sagotrick is given twice ('sagotrick=off' and 'Sagotrick = any_order')"),
])
def test_a_variant_tags_list_given_to_one_option_is_said_as_options_to_give_each_flag_once(listed, said):
    result = run("check", EXAMPLES / "valat.tbn", "--variant", listed, code=2)
    assert said in " ".join(result.stderr.replace("│", "").split())
    assert "give --variant sagotrick=off --variant Sagotrick" not in result.stderr


def test_a_variant_flag_no_game_has_is_a_usage_error():
    """A variant flag no game has is wrong whatever the records: exit 2, as is a flag's value out of its range; the
    API's error is located at the record. A flag of another game than a record's stays that record's error (below)."""
    result = run("solve", EXAMPLES / "valat.tbn", "--variant", "no_such_flag=1", code=2)
    assert "Invalid value for '--variant': unknown variant flag 'no_such_flag'" in result.stderr
    assert "(no game has it; every game's flags: " in result.stderr and result.stdout == ""
    wrong = run("check", EXAMPLES / "zwanzigerrufen.tbn", "--variant", "solo_value=9", code=2)
    assert "solo_value takes a number from 4 to 5, not 9" in wrong.stderr
    with pytest.raises(solver.StichError, match="valat.tbn:13:8: the variant given with the command or call"):
        list(solver.read_positions(EXAMPLES / "valat.tbn", variant={"no_such_flag": "1"}))  # the API's is located


def test_a_variant_flag_the_command_got_wrong_is_said_once_for_all_records(tmp_path):
    """One --variant mistake refuses every record of its game alike and is said once, not once for each record. Records
    of other games are still answered; the whole, uncut list of flags is shown."""
    result = run("check", EXAMPLES / "kratzen.tbn", "--variant", "solo_value=4", code=1)
    assert result.stderr.splitlines() == ["stich: --variant: variant flag solo_value is Zwanzigerrufen's, not "
                                          "Kratzen's (Kratzen's flags: first_leader, must_undertrump, "
                                          "weli_also_bells) (5 records of Kratzen "
                                          f"from {EXAMPLES / 'kratzen.tbn'}:10 not answered)"]
    too_long = run("check", EXAMPLES / "zwanzigerrufen.tbn", "--variant", "solo_value=" + "9" * 20, code=2)
    assert "takes a number from 4 to 5, not 99999999999999999999" in too_long.stderr
    unknown = run("solve", EXAMPLES / "zwanzigerrufen.tbn", "-b", "2", "--variant", "solo_valu=4", code=2)
    assert "did you mean 'solo_value'?" in unknown.stderr and "valat_mode, weli_also_bells)" in unknown.stderr
    mixed = tmp_path / "mixed.tbn"
    mixed.write_text((EXAMPLES / "valat.tbn").read_text() + "\n" + (EXAMPLES / "kratzen.tbn").read_text())
    result = run("solve", mixed, "--variant", "laufende_mode=standard", "--json", code=1)
    assert len(result.stderr.splitlines()) == 2  # Zwanzigerrufen's once, Kratzen's once
    # the one Zwanzigerrufen record said as its failed line says it, its board too
    assert f"(the record at {mixed}:13, board 1, not answered)" in result.stderr
    assert "(5 records of Kratzen from " in result.stderr


def test_board_selects_records():
    found = documents("solve", EXAMPLES / "kratzen.tbn", "--board", "2")
    assert [d["record"]["board"] for d in found] == ["2"]
    result = run("solve", EXAMPLES / "kratzen.tbn", "--board", "99", code=1)
    assert 'no record with [Board "99"] (expected one of its boards: 1, 2, 3, 4, 5)' in result.stderr


def test_a_missing_board_names_what_the_file_has(tmp_path):
    """The boards the file has, the first ten (then "..."), or that its records have no tag: --record chooses."""
    deal = '[Game "Kratzen"]\n[Deal "1: HA S6 HK HO / E7 E8 E9 EZ / G7 G8 G9 GZ / S7 S8 S9 SZ"]\n[Contract "Trump H"]\n'
    many = tmp_path / "many.tbn"
    many.write_text("\n".join(f'[Board "b{number}"]\n{deal}' for number in range(12)), encoding="utf-8")
    for command in (("score",), ("solve",), ("tree", "-d", "1")):
        assert run(*command, many, "-b", "3", code=1).stderr.splitlines() == [
            f'stich: {many}: no record with [Board "3"] (expected one of its boards: b0, b1, b2, b3, b4, b5, b6, b7, '
            "b8, b9, ...)"]
    tagless = tmp_path / "tagless.tbn"
    tagless.write_text(deal, encoding="utf-8")
    assert run("score", tagless, "-b", "1", code=1).stderr.splitlines() == [
        f'stich: {tagless}: no record with [Board "1"] (expected a record\'s [Board] tag: its records have none; '
        "--record N chooses one)"]


def test_record_selects_a_record_by_its_place_in_the_file(tmp_path):
    """Records need no [Board] tag (FORMAT.md), so --board could not pick one of them: --record N picks the Nth,
    counting every record, and a broken record elsewhere in the file does not matter."""
    untagged = tmp_path / "untagged.tbn"
    records = (EXAMPLES / "kratzen.tbn").read_text().replace('[Board "', '[Round "')
    broken = '[Game "Kratzen"]\n[Deal "1: XX"]\n[Contract "Trump S"]\n*\n'
    untagged.write_text(broken + "\n" + records)
    shift = len(broken.splitlines()) + 1  # the broken record and a blank line before the others
    whole = documents("solve", EXAMPLES / "kratzen.tbn")
    for command in ("solve", "check", "table", "score", "postmortem", "analyse"):
        extra = {"analyse": ("--seat", "1", "-n", "2", "-j", "1"), "score": ("--dd",)}.get(command, ())
        found = documents(command, untagged, "--record", "3", *extra)  # the file's broken record is not read
        assert [d["record"]["line"] for d in found] == [whole[1]["record"]["line"] + shift]
        assert found[0]["record"]["board"] is None
    second = documents("solve", untagged, "-r", "2")[0]
    assert [r["total"] for r in second["results"]] == [r["total"] for r in whole[0]["results"]]
    trailing = tmp_path / "trailing.tbn"  # nothing past the record asked for is read, not even to be counted
    trailing.write_text(records + '\n[Game "Kratzen"\n')
    assert len(documents("solve", trailing, "-r", "2")) == 1
    missing = run("solve", untagged, "--record", "9", code=1)
    assert missing.stderr.strip() == f"stich: {untagged}: no record 9: it has {len(whole) + 1} records"
    assert f"{untagged}:4:1: " in run("solve", untagged, "--record", "1", code=1).stderr  # the broken one, asked for
    both = run("solve", untagged, "--record", "1", "--board", "1", code=2)
    assert "give --board or --record, not both" in both.stderr
    for advice in ((), ("--contract", "all")):  # contract advice too
        assert "picks a record of a FILE" in run("analyse", "--game", "kratzen", "--hand", "HA EA EK GA", "--seat",
                                                 "1", *advice, "-r", "2", code=2).stderr
    out = tmp_path / "tree.json"
    run("tree", untagged, "-r", "2", "-d", "1", "--out", out)
    assert json.loads(out.read_text())["graph"]["source"] == f"{untagged}:{whole[0]['record']['line'] + shift}"
    assert "no record 9: it has 6 records" in run("tree", untagged, "-r", "9", "-d", "1", "--out", out, code=1).stderr


# --- bad input ------------------------------------------------------------------------------------------------------

BAD_FILE = """\
[Game "Kratzen"]
[Board "1"]
[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]
[Contract "Trump S"]

[Game "Kratzen"]
[Board "2"]
[Deal "1: EO E9 SU SZ / GA HA HU XX / EK G8 HO SK"]
[Contract "Trump S"]

[Game "Kratzen"]
[Board "3" junk
[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]

[Game "Kratzen"]
[Board "4"]
[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]
[Contract "Trump H"]
"""


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.tbn"
    path.write_text(BAD_FILE, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["solve", "check", "table"])
def test_bad_records_are_reported_and_the_others_processed(bad_file, command):
    result = run(command, bad_file, "--json", code=1)
    found = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["record"]["board"] for d in found if "stopped" not in d] == ["1", "4"]
    assert all(schema_errors(d, SCHEMA) == [] for d in found)
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    # each bad record's failed line is in its place, saying what stderr says
    assert [f"stich: {d['error']}" for d in found if d.get("stopped") == "error"] == lines
    assert lines[0].startswith(f"stich: {bad_file}:8:34: ") and "'XX'" in lines[0]
    assert lines[1].startswith(f"stich: {bad_file}:12:") and "]" in lines[1]


def test_bad_records_in_human_output(bad_file):
    result = run("solve", bad_file, code=1)
    assert "board 1" in result.stdout and "board 4" in result.stdout
    assert f"{bad_file}:8:34" in result.stderr and f"{bad_file}:8:34" not in result.stdout


@pytest.mark.parametrize("command", [["show"], ["solve", "-o", "points"], ["score", "--dd"]])
def test_a_pagat_announced_by_a_seat_without_it_is_refused_by_every_command(tmp_path, command):
    """A Pagat announced by a seat that does not hold it is refused by every command, show and solve as scoring, with
    the same refusal at the item."""
    path = tmp_path / "pagat.tbn"
    path.write_text('[Game "Zwanzigerrufen"]\n[Deal "1: SQ HQ TS / SN HN T21 / SK HK T5 / SJ HJ T1"]\n'
                    '[Contract "Normal T19"]\n[Partner "3"]\n[Announcements "3: Pagat"]\n', encoding="utf-8")
    result = run(command[0], path, *command[1:], code=1)
    assert result.stdout == ""
    assert result.stderr == (f"stich: {path}:5:20: bad announcement: seat 3: Pagat Ultimo is announced by the "
                             "Pagat's holder, seat 4 (who announces it plays T1 to the last trick) (got 'Pagat', "
                             "expected announcements that RULES.md 1.7 allows)\n")


def test_an_objective_that_does_not_apply(tmp_path):
    """An objective the record's contract or game has not is ``--objective``'s error for that record, not the record's
    ``[Contract]`` tag's (``schafkopf.tbn:15:12:``), which is not wrong."""
    result = run("solve", EXAMPLES / "schafkopf.tbn", "-b", "1", "-o", "tout", code=1)
    assert result.stderr.startswith("stich: --objective: objective 'tout' does not apply to Schafkopf Rufer G")
    assert result.stderr.endswith(f"(the record at {EXAMPLES / 'schafkopf.tbn'}:10, board 1, not answered)\n")
    result = run("solve", EXAMPLES / "kratzen.tbn", "-b", "1", "-o", "valat", code=1)  # not a Kratzen objective
    assert result.stderr.startswith("stich: --objective: ") and "kratzen.tbn:15:" not in result.stderr
    assert "objective 'valat' belongs to Zwanzigerrufen, not to Kratzen (for Kratzen Trump" in result.stderr
    # the names it lists are all those solve takes: the score too (Kratzen's list read as a lone 'tricks')
    assert "(for Kratzen Trump S choose from: tricks; solve and tree also take 'score')" in result.stderr
    result = run("solve", EXAMPLES / "kratzen.tbn", "-b", "1", "-o", "points", code=1)
    assert "objective 'points' belongs to Schafkopf and Zwanzigerrufen, not to Kratzen (for Kratzen Trump S choose " \
        "from: tricks; solve and tree also take 'score')" in result.stderr


@pytest.mark.parametrize("command", [("solve",), ("postmortem",), ("tree", "--depth", "1")])
def test_an_objective_the_record_has_not_is_the_flags_error_in_every_command_that_takes_one(command):
    """``solve``, ``postmortem`` and ``tree`` say an ``--objective`` the record's game has not alike: the flag's error
    for that record, on stderr and as its failed JSON line, not pointed at the record's ``[Contract]`` tag."""
    path = EXAMPLES / "schafkopf.tbn"
    result = run(*command, path, "-b", "7", "-o", "tricks", "--json", code=1)
    (failed,) = (json.loads(line) for line in result.stdout.splitlines())
    assert failed["stopped"] == "error" and result.stderr == f"stich: {failed['error']}\n"
    assert failed["error"].startswith("--objective: objective 'tricks' belongs to Kratzen, not to Schafkopf (for "
                                      "Schafkopf Rufer G choose from: ")
    assert failed["error"].endswith(f"(the record at {path}:103, board 7, not answered)")


@pytest.mark.parametrize("command", ["solve", "postmortem"])
def test_an_objective_of_another_game_is_said_once_for_the_records_of_a_game(command):
    """``-o schneider`` on the 7 Zwanzigerrufen examples is said once, with the game's choices, as a refused
    ``--variant`` is, not in 7 near-identical lines, one a record naming its contract's choices; each record still gets
    its --json line with its own contract's words (postmortem: ``-o tricks``, Kratzen's measure)."""
    path = EXAMPLES / "zwanzigerrufen.tbn"
    objective, owner = ("schneider", "Schafkopf") if command == "solve" else ("tricks", "Kratzen")
    result = run(command, path, "-o", objective, code=1)
    choices = ("points, game, absolut, absolut_against, valat, valat_against, pagat_ultimo, pagat_beaten, mondfang, "
               "each where the contract has it; solve and tree also take 'score'" if command == "solve"
               else "score, points")
    assert result.stdout == "" and result.stderr == (
        f"stich: --objective: objective '{objective}' belongs to {owner}, not to Zwanzigerrufen (for Zwanzigerrufen "
        f"choose from: {choices}) (7 records of Zwanzigerrufen from {path}:11 not answered)\n")
    lines = [json.loads(line) for line in run(command, path, "-o", objective, "--json", code=1).stdout.splitlines()]
    assert len(lines) == 7 and all(line["stopped"] == "error" for line in lines)
    assert lines[3]["error"].startswith(f"--objective: objective '{objective}' belongs to {owner}, not to "
                                        "Zwanzigerrufen (for Zwanzigerrufen Suit Solo choose from: ")
    assert lines[3]["error"].endswith(f"(the record at {path}:67, board 4, not answered)")


def test_an_objective_records_refuse_in_different_words_is_said_for_each_group():
    """Records whose contracts refuse ``-o tout`` in the same words are said together, the others one by one with
    their board, as a record alone always was."""
    path = EXAMPLES / "schafkopf.tbn"
    lines = run("solve", path, "-o", "tout", code=1).stderr.splitlines()
    assert lines[0].startswith("stich: --objective: objective 'tout' does not apply to Schafkopf Rufer G (choose ")
    assert lines[0].endswith(f"(3 records of Schafkopf from {path}:10 not answered)")
    assert lines[1].startswith("stich: --objective: objective 'tout' does not apply to Schafkopf Wenz (choose ")
    assert lines[1].endswith(f"(the record at {path}:26, board 2, not answered)")


def test_objective_refused_is_the_flags_error_only_where_the_flag_was_given():
    """Without ``--objective`` the defaults fit every record: an InvalidContractError is then the record's own and
    passes through unchanged, to be pointed at the record; a seat's error is a seat's whatever the flags."""
    from cli.errors import OptionRefused, objective_refused
    from solver.errors import InvalidContractError, InvalidSeatContractError

    refused = InvalidContractError("objective 'tout' does not apply to Schafkopf Rufer G")
    with pytest.raises(OptionRefused) as given:
        with objective_refused(True):
            raise refused
    assert given.value.option == "--objective" and str(given.value) == str(refused)
    with pytest.raises(InvalidContractError) as not_given:
        with objective_refused(False):
            raise refused
    assert not_given.value is refused
    seat = InvalidSeatContractError("objective 'valat' is a side's and takes no seat")
    with pytest.raises(InvalidSeatContractError):  # tree --seat's error, not --objective's
        with objective_refused(True):
            raise seat


def test_a_binary_file_is_said_once_in_every_command(tmp_path):
    """A binary file given for records is one cause: said once, at its first unreadable byte, with what it is, and
    read no further, not once for each stretch of it between blank lines, in every command alike."""
    noise = random.Random(5).randbytes(2000)
    kinds = {
        "noise.tbn": (noise + b"\n\n" + noise + b"\n\n" + noise,
                      "1:4: invalid UTF-8 (byte 9f, a binary file, not text)"),
        "scan.pdf": (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n\n\x01\x02\xff\n\n\x80\n",
                     "2:2: invalid UTF-8 (byte e2, a binary file, not text)"),
        "board.png": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\n\n\xff\xfe\x00\n\n\x80\n",
                      "1:1: invalid UTF-8 (byte 89, a PNG image, not text)"),
        "deals.tbn.gz": (gzip.compress((EXAMPLES / "kratzen.tbn").read_bytes() * 4, mtime=0),
                         "1:1: invalid UTF-8 (byte 1f 8b, a gzip file: unpack it first (gunzip))"),
    }
    for name, (data, said) in kinds.items():
        path = tmp_path / name
        path.write_bytes(data)
        for command in ("solve", "check", "postmortem", "score"):
            assert run(command, path, code=1).stderr == f"stich: {path}:{said} (expected UTF-8 text)\n", command
        out = tmp_path / f"{name}.jsonl"
        assert run("batch", path, "--out", out, code=1).stderr.splitlines() == [
            f"stich: {path}:{said} (expected UTF-8 text)",
            f"stich: batch: 1 written to {out} (0 solved, 1 error), 0 already done, 0.0 s"]


def test_a_csv_file_is_said_as_csv_once_in_every_command(tmp_path):
    path = tmp_path / "deals.csv"
    path.write_text("Board,North,East,South,West\n1,EO GO,GA GK,SA SK,HA HK\n2,EO GO,GA GK,SA SK,HA HK\n")
    said = (f"stich: {path}:1:1: the file holds CSV, not TBN records: values separated by commas (got 'Board,North,"
            "East,South,West', expected TBN records such as [Game \"Schafkopf\"] [Deal \"...\"] (docs/format.md; "
            "stich deal writes some))\n")
    for command in ("solve", "check", "postmortem", "score"):
        assert run(command, path, code=1).stderr == said, command


def test_a_dos_file_ending_in_ctrl_z_is_read_by_the_commands_as_without_it(tmp_path):
    """A file a DOS editor saved (CR LF lines, a Ctrl-Z after the last) reads as the same file without its Ctrl-Z;
    a Ctrl-Z between its records is said, named, and the records around it are answered; one in a Play section
    before its end is read as a card, and said as no card of the pack."""
    records = (EXAMPLES / "kratzen.tbn").read_text().replace("\n", "\r\n")
    plain, dos, middle = tmp_path / "plain.tbn", tmp_path / "dosed.tbn", tmp_path / "middle.tbn"
    plain.write_text(records, newline="")
    dos.write_text(records + "\x1a", newline="")
    for command in ("solve", "check", "postmortem"):
        assert run(command, dos).stdout.replace("dosed", "plain") == run(command, plain).stdout, command
    played = (EXAMPLES / "schafkopf.tbn").read_text().rstrip("\n").replace("\n", "\r\n")
    assert played.endswith("\r\n*")  # its last line the Play section's '*', the Ctrl-Z straight after it
    plain.write_text(played, newline="")
    dos.write_text(played + "\x1a", newline="")
    assert run("check", dos).stdout.replace("dosed", "plain") == run("check", plain).stdout
    first, rest = records.split("\r\n\r\n", 1)
    middle.write_text(first + "\r\n\r\n\x1a\r\n\r\n" + rest, newline="")
    line = first.count("\r\n") + 3
    assert run("check", middle, code=1).stderr == (
        f"stich: {middle}:{line}:1: cards before any tag: a Ctrl-Z (DOS end of file) in the middle of the file (got "
        "'\\x1a', expected a tag such as [Game \"...\"])\n"
        "stich: pot 0: every line settles at 0 chips: give the record a [Pot] tag, or --pot CHIPS (5 records of "
        f"Kratzen from {middle}:{line + 4})\n")  # the records after it answered, none with a pot
    before, after = played.split("\r\n*\r\n", 1)  # the first Play section's '*' replaced by a Ctrl-Z
    middle.write_text(before + "\r\n\x1a\r\n" + after, newline="")
    line = before.count("\r\n") + 2
    assert run("check", middle, code=1).stderr.startswith(
        f"stich: {middle}:{line}:1: not a card of the Schafkopf pack (got '\\x1a', expected a Schafkopf card)\n")


@pytest.mark.parametrize("text, where", [("", "1:1"), ("; only a comment\n", "1:1"), ("\n\n", "2:1"),
                                         ("% one\n\n% two\n", "3:1")])
def test_a_file_without_records_is_an_error(tmp_path, text, where):
    """Said where reading ended, the last line read (``1:1`` for an empty file), in every command alike."""
    path = tmp_path / "empty.tbn"
    path.write_text(text, encoding="utf-8")
    said = ('no records (empty, or only comments; a record starts with tags such as [Game "Schafkopf"] '
            '[Deal "..."])\n')
    for command in ("solve", "check", "score", "postmortem"):
        result = run(command, path, code=1)
        assert result.stderr == f"stich: {path}:{where}: {said}" and result.stdout == ""
    result = runner.invoke(app, ["check", "-"], input=text)
    assert result.exit_code == 1 and result.stderr == f"stich: <stdin>:{where}: {said}"
    result = run("batch", path, "--out", tmp_path / "out.jsonl", code=1)
    assert f"stich: {path}:{where}: {said}" in result.stderr
    assert not (tmp_path / "out.jsonl").exists()  # no empty output left behind
    result = run("tree", path, "-d", "1", "--out", tmp_path / "tree.json", code=1)  # not "no record"
    assert result.stderr == f"stich: {path}:{where}: {said}"


@pytest.mark.parametrize("text, shown", [
    ('{"game": "Schafkopf", "deal": "EO GO"}\n{"game": "Kratzen"}\n', '{"game": "Schafkopf", "deal": "EO GO"}'),
    ('{\n  "game": "Schafkopf",\n  "deal": "EO GO"\n}\n', "{"),  # by its first line, as a failed reading shows it
])
def test_a_file_of_json_without_records_says_it_holds_json(tmp_path, text, shown):
    """Flat JSON lines, or one flat indented object, are legal TBN (each a brace comment) and hold no record: every
    command's "no records" says it saw JSON, where, and what to write instead, not only "no records"."""
    path = tmp_path / "deals.json"
    path.write_text(text, encoding="utf-8")
    said = (f"1:1: the file holds JSON, not TBN records: an object (got {shown!r}, expected TBN records such as "
            '[Game "Schafkopf"] [Deal "..."] (docs/format.md; stich deal writes some))\n')
    for args in (["solve", path], ["show", path, "-b", "3"], ["tree", path, "-d", "1"],
                 ["batch", path, "--out", tmp_path / "out.jsonl"]):
        assert run(*args, code=1).stderr == f"stich: {path}:{said}"
    result = runner.invoke(app, ["check", "-"], input=text)
    assert result.exit_code == 1 and result.stderr == f"stich: <stdin>:{said}"


def test_a_json_array_is_said_as_one_with_what_to_write(tmp_path):
    """Deals written as a JSON array are said as one, with what to write, not as a tag error (``empty tag name`` at
    1:2)."""
    path = tmp_path / "deals.json"
    path.write_text('[\n  {"game": "Schafkopf", "deal": "EO GO"}\n]\n', encoding="utf-8")
    result = run("solve", path, code=1)
    assert result.stderr == (f"stich: {path}:1:1: the file holds JSON, not TBN records: an array (got '[', expected "
                             'TBN records such as [Game "Schafkopf"] [Deal "..."] (docs/format.md; stich deal writes '
                             "some))\n")


def test_unknown_game_options_are_usage_errors():
    for args in (["deal", "--game", "poker"], ["analyse", "--game", "poker", "--hand", "EO", "--seat", "1", "-c", "x"]):
        result = run(*args, code=2)
        assert "unknown game 'poker'" in result.stderr


def test_batch_does_not_read_standard_input(tmp_path):
    result = run("batch", "-", "--out", tmp_path / "out.jsonl", code=2)
    assert "not standard input" in result.stderr and not (tmp_path / "out.jsonl").exists()


def test_a_seat_for_an_objective_of_a_side_is_refused(tmp_path):
    """Said as the option's error, as a seat the deal has not is (cli.md: another option one record cannot take names
    the option and the record), not at the record's [Contract] tag, which is not wrong."""
    for objective in ((), ("-o", "valat"), ("-o", "score")):
        result = run("tree", EXAMPLES / "valat.tbn", "--depth", "1", "--seat", "3", "--out", tmp_path / "t.json",
                     *objective, code=1)
        said = " ".join(result.stderr.split())
        assert said.startswith("stich: --seat: ") and "takes no seat" in said, objective
        assert said.endswith(f"(the record at {EXAMPLES / 'valat.tbn'}:13, board 1, not answered)"), said
        assert not (tmp_path / "t.json").exists()
    # a contract's objective the record has not is --objective's error for the record, not pointed at its tag
    result = run("tree", EXAMPLES / "valat.tbn", "--depth", "1", "--seat", "3", "--out", tmp_path / "t.json",
                 "-o", "schneider", code=1)
    assert result.stderr.startswith("stich: --objective: objective 'schneider' belongs to Schafkopf")


def test_a_tree_seat_the_deal_has_not_is_said_as_the_options_error(tmp_path):
    # the option's error, not the record's [Contract] tag's ('examples/kratzen.tbn:15:12: seat 7 is not a seat of
    # this 3-seat deal'), which is not wrong; analyse --seat says it as the option's, naming the record refused
    for seat in ("7", "0"):
        result = run("tree", EXAMPLES / "kratzen.tbn", "-b", "1", "-d", "1", "--seat", seat, "--out",
                     tmp_path / "t.json", code=1)
        assert result.stderr == (f"stich: --seat: seat {seat} is not a seat of this 3-seat deal (the record at "
                                 f"{EXAMPLES / 'kratzen.tbn'}:10, board 1, not answered)\n")
        assert not (tmp_path / "t.json").exists()


def test_a_tree_objective_refused_lists_the_score_the_tree_takes(tmp_path):
    """A tree takes -o score (its node values are then settlements), so the refusal of an objective the contract has not
    lists it among what the tree takes, not as what 'solve also takes', which reads as if the tree did not."""
    out = tmp_path / "t.json"
    result = run("tree", EXAMPLES / "kratzen.tbn", "-b", "1", "-d", "1", "-o", "points", "--out", out, code=1)
    assert "(for Kratzen Trump S choose from: tricks; solve and tree also take 'score')" in result.stderr
    assert not out.exists()
    run("tree", EXAMPLES / "kratzen.tbn", "-b", "1", "-d", "1", "-o", "score", "--out", out)
    assert json.loads(out.read_text())["graph"]["objective"] == "score"


def test_a_kratzen_tree_of_tricks_without_a_seat_is_the_attackers_as_by_default(tmp_path):
    """-o tricks named (the objective a Kratzen tree has by default) without --seat is the attacker's tricks, as by
    default, not refused ('--seat: the Kratzen objective 'tricks' needs a seat from 1 to 3'); --seat picks another seat.
    """
    run("tree", EXAMPLES / "kratzen.tbn", "-b", "2", "-d", "2", "--out", tmp_path / "default.json")
    run("tree", EXAMPLES / "kratzen.tbn", "-b", "2", "-d", "2", "-o", "tricks", "--out", tmp_path / "named.json")
    default = json.loads((tmp_path / "default.json").read_text())
    named = json.loads((tmp_path / "named.json").read_text())
    assert named == default and named["graph"]["maximiser"] == "1" and named["graph"]["target"] == 2
    seat_2 = tmp_path / "seat2.json"
    run("tree", EXAMPLES / "kratzen.tbn", "-b", "2", "-d", "2", "-o", "tricks", "--seat", "2", "--out", seat_2)
    assert json.loads(seat_2.read_text())["graph"]["maximiser"] == "2"


def test_tree_and_batch_take_the_pot_as_solve_does(tmp_path):
    """tree and batch take --pot as solve does, so that a Kratzen ``tree -o score`` or batch is not settled from a pot
    of 0 unless the record has a [Pot] tag."""
    def root(*pot: str) -> int:
        run("tree", EXAMPLES / "kratzen.tbn", "-b", "2", "-d", "1", "-o", "score", *pot, "--out", tmp_path / "t.json")
        graph = json.loads((tmp_path / "t.json").read_text())
        return next(node["value"] for node in graph["nodes"] if node["id"] == "root")

    assert root() == 0 and root("--pot", "40") == 30  # as table --pot 40 settles Trump H
    run("batch", EXAMPLES / "kratzen.tbn", "--out", tmp_path / "out.jsonl", "--pot", "40", "-j", "1")
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [line["results"][0]["total"] for line in lines] == [20, 30, -80, 0, 40]
    assert "--pot" in run("batch", EXAMPLES / "kratzen.tbn", "--out", tmp_path / "o.jsonl", "--pot", "-1",
                          code=2).stderr


def test_tree_board_is_found_past_a_record_too_broken_to_read(tmp_path):
    """``tree --board N`` goes past an unreadable record before board N; as in every command that reads records, that
    record is said (it might have been board N), board N's tree is written, and the exit code is 1. Without --board the
    first record is the one asked for, so its error is the answer."""
    text = (EXAMPLES / "kratzen.tbn").read_text()
    broken = tmp_path / "broken.tbn"
    broken.write_text('[Game "Kratzen"]\n[Board "0"\n\n' + text)
    out = tmp_path / "t.json"
    result = run("tree", broken, "--board", "1", "--depth", "1", "--out", out, code=1)
    assert result.stderr.startswith(f"stich: {broken}:2:11: missing ']' after the value of tag Board")
    assert f"wrote {out}" in result.stderr and not result.stdout
    graph = json.loads(out.read_text())
    assert graph["graph"]["board"] == "1"
    out.unlink()
    first = run("tree", broken, "--depth", "1", "--out", out, code=1)
    assert "missing ']'" in first.stderr and "wrote" not in first.stderr and not out.exists()


def test_output_errors_name_the_file_asked_for(tmp_path):
    result = run("tree", EXAMPLES / "valat.tbn", "--depth", "1", "--out", tmp_path / "no" / "t.json", code=1)
    # the folder that is missing named, as batch and --checkpoint name it (not 'No such file or directory')
    assert result.stderr == (f"stich: {tmp_path / 'no' / 't.json'}: cannot be written: the folder {tmp_path / 'no'} "
                             "does not exist (make it, or choose another file)\n")
    result = run("deal", "-g", "sk", "--out", tmp_path, code=1)
    assert result.stderr == (f"stich: {tmp_path}: cannot be written: it is a folder, where a file name was expected "
                             f"(to write into the folder, name the file in it: {tmp_path / 'NAME'})\n")


def test_a_socket_named_as_a_file_is_said_to_be_a_socket(tmp_path):
    """Opening a Unix socket as a file fails with ENXIO, "No such device or address" of the path: it is said to be a
    socket, as output (`deal --out`, `batch --out`: refused before opening, as every output path that is no file) and as
    input."""
    import socket

    path = tmp_path / "s"
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listening.bind(str(path))
        written = (f"stich: {path}: cannot be written: it is a socket, not a file (standard output, /dev/null, a "
                   "terminal and a named pipe are written as the output comes; any other name a file)\n")
        assert run("deal", "-g", "sk", "-n", "1", "--out", path, code=1).stderr == written
        assert run("batch", EXAMPLES / "valat.tbn", "--out", path, "-j", "1", code=1).stderr == written
        said = f"stich: {path}: a socket, not a file: stich reads and writes files, pipes and devices\n"
        assert run("solve", path, code=1).stderr == said
    finally:
        listening.close()


def test_an_output_path_that_is_a_folder_says_so_and_what_was_expected(tmp_path):
    """``--plot d.png`` where d.png is a folder: every output option says what the path is, that a file name was
    expected and how to write into the folder (exit 1, as a missing folder), not only "Is a directory", and nothing is
    searched or written first where the command checks its output before its work."""
    def said(path: Path) -> str:
        return (f"stich: {path}: cannot be written: it is a folder, where a file name was expected (to write into the "
                f"folder, name the file in it: {path / ('NAME' + path.suffix)})\n")

    for name, command in [("d.png", ["postmortem", EXAMPLES / "valat.tbn", "--plot"]),
                          ("t.json", ["tree", EXAMPLES / "valat.tbn", "-d", "1", "--out"]),
                          ("o.tbn", ["deal", "-g", "kratzen", "--out"]),
                          ("b.jsonl", ["batch", EXAMPLES / "kratzen.tbn", "-j", "1", "--out"]),
                          ("c.jsonl", ["analyse", EXAMPLES / "kratzen.tbn", "-b", "2", "--seat", "1", "-n", "2", "-j",
                                       "1", "--checkpoint"]),
                          ("m.jsonl", ["match", "-g", "kratzen", "-n", "1", "-j", "1", "--bots", "random,random,random",
                                       "--checkpoint"])]:
        folder = tmp_path / name
        folder.mkdir()
        result = run(*command, folder, code=1)
        assert result.stderr == said(folder) and list(folder.iterdir()) == [], (command, result.stderr)
    # a folder given to read is said in the same terms, not as "Is a directory" either
    assert run("solve", tmp_path / "d.png", code=1).stderr == (f"stich: {tmp_path / 'd.png'}: it is a folder, where a "
                                                               "file was expected\n")


@pytest.mark.parametrize("args", [
    ("solve", ""), ("check", " "), ("batch", "", "--out", "o.jsonl"), ("batch", "f.tbn", "--out", ""),
    ("tree", "", "-d", "1", "--out", "t.json"), ("deal", "-g", "sk", "--out", ""), ("analyse", "", "--seat", "1"),
    ("postmortem", "f.tbn", "--plot", ""),
])
def test_an_empty_file_name_is_a_usage_error_not_the_current_directory(args):
    # Path("") is ".", so an empty name is refused as one, not read as the current directory ("Is a directory")
    result = run(*args, code=2)
    assert "an empty file name" in result.output and "directory" not in result.output


def test_score_of_an_unfinished_play_points_at_where_it_stops():
    result = run("score", EXAMPLES / "schafkopf.tbn", "--board", "1", code=1)
    assert "schafkopf.tbn:21:10: scoring needs a complete Play section, every card of the deal played (4 of 8 tricks " \
        "played); the double-dummy settlement plays the rest: stich score --dd, dd_settlement\n" in result.stderr


def test_deal_says_why_no_deal_lets_the_seat_bid(monkeypatch):
    # a rule of seats is said at once, as a usage error; a hand no deal allows after the search of deals (cut to two
    # deals, which board 1 of seed 1 misses for a Rufer S: every contract is dealt in 10,000)
    result = run("deal", "-g", "zr", "--declarer", "2", code=2)
    assert "seat 2 cannot bid Normal in Zwanzigerrufen" in result.stderr and "forehand (seat 1)" in result.stderr
    monkeypatch.setattr(solver.generate, "MAX_REDEALS", 2)
    result = run("deal", "-g", "sk", "-c", "Rufer S", code=1)
    assert result.stderr == ("stich: no deal in 2 tries lets seat 1 bid Rufer S in Schafkopf: the caller (seat 1) "
                             "holds the called ace SA\n")


def test_standard_input():
    text = (EXAMPLES / "kratzen.tbn").read_text(encoding="utf-8")
    result = runner.invoke(app, ["solve", "-", "--board", "1", "--json"], input=text)
    assert result.exit_code == 0, result.stderr
    (document,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert document["record"]["source"] == "<stdin>" and [r["total"] for r in document["results"]][1:] == [2, 0, 1]


def test_a_missing_file():
    result = run("solve", EXAMPLES / "no_such_file.tbn", code=1)
    assert "no_such_file.tbn" in result.stderr and "No such file" in result.stderr


def test_usage_errors_exit_with_2():
    run("solve", code=2)
    run("solve", EXAMPLES / "valat.tbn", "--no-such-option", code=2)


# --- table ----------------------------------------------------------------------------------------------------------


def test_table_of_kratzen_deals_agrees_with_the_reference():
    found = documents("table", EXAMPLES / "kratzen.tbn", "-b", "1")
    (document,) = found
    position = board("kratzen.tbn", 1)
    assert document["play_ignored"] is False and document["hands"][0] == ["EO", "E9", "SU", "SZ"]
    for entry in document["entries"]:
        trump = solver.make_position("Kratzen", position.rules.deal, entry["contract"])
        assert [s["tricks"] for s in entry["seats"]] == [reference(trump, "tricks", seat=s).total
                                                         for s in range(1, 4)]
    out = run("table", EXAMPLES / "kratzen.tbn", "-b", "1").stdout
    assert "Trump S" in out and "2/2 ✓" in out and "0/1 ✗" in out


def test_table_takes_the_pot_of_a_game_paid_from_one():
    """``--pot`` as in ``score``: Kratzen's settlement column is paid from it (0 without one); another game's records
    do not use it, which is said once."""
    plain = {e["contract"]: e["settlement"]
             for e in documents("table", EXAMPLES / "kratzen.tbn", "-b", "2")[0]["entries"]}
    paid = {e["contract"]: e["settlement"] for e in
            documents("table", EXAMPLES / "kratzen.tbn", "-b", "2", "--pot", "40")[0]["entries"]}
    assert set(plain.values()) == {0} and paid == {"Trump E": 30, "Trump G": -80, "Trump H": 30, "Trump S": -70}
    result = run("table", EXAMPLES / "schafkopf.tbn", "-b", "7", "--pot", "4")
    assert result.stderr == "stich: --pot is for Kratzen records; Schafkopf has no pot, so it is not used there\n"


def test_table_refuses_a_pot_beside_no_settlement():
    """The pot is paid in the settlement column alone, so ``--pot`` beside ``--no-settlement`` would change nothing: it
    is a usage error naming both flags, as every flag that means nothing without another is, not silently ignored."""
    result = run("table", EXAMPLES / "kratzen.tbn", "-b", "2", "--pot", "40", "--no-settlement", code=2)
    assert result.stdout == ""
    assert ("Invalid value for '--pot': the pot only changes the settlement column, and --no-settlement leaves it "
            "out") in " ".join(result.stderr.split())


def test_table_names_the_pot_its_settlement_column_is_paid_from():
    """The table's settlement column depends on the pot, so its JSON says which (as score's and analyse's do), and a pot
    of 0 that settles every contract at 0 gets the note solve and score give, in the table's words (every contract,
    as the text says once on stderr, not every line): in the JSON's notes (the JSON had none, and --json leaves the
    line on stderr out)."""
    (paid,) = documents("table", EXAMPLES / "kratzen.tbn", "-b", "2", "--pot", "40")
    (plain,) = documents("table", EXAMPLES / "kratzen.tbn", "-b", "2")
    (unsettled,) = documents("table", EXAMPLES / "kratzen.tbn", "-b", "2", "--no-settlement")
    (schafkopf,) = documents("table", EXAMPLES / "schafkopf.tbn", "-b", "7")
    (given,) = documents("table", EXAMPLES / "kratzen.tbn", "-b", "2", "--pot", "0")
    assert (paid["pot"], plain["pot"], unsettled["pot"], schafkopf["pot"]) == (40, 0, None, None)
    assert plain["notes"] == ["pot 0: every contract settles at 0 (give the record a [Pot] tag, or --pot CHIPS)"]
    assert given["notes"] == ["pot 0: every contract settles at 0"]  # a pot of 0 given: no pot asked for
    assert not {"notes"} & (paid.keys() | unsettled.keys() | schafkopf.keys())  # absent when nothing, as solve's
    (solved,) = documents("solve", EXAMPLES / "kratzen.tbn", "-b", "2")
    assert solved["notes"] == [POT_ZERO_LINES_NOTE]  # solve's score: every line
    text = " ".join(run("table", EXAMPLES / "kratzen.tbn", "-b", "2", "--pot", "40").stdout.split())
    assert "settlement: the attacker's double-dummy payment, with a pot of 40 chips" in text
    assert "note: pot 0" not in text
    plain_run = run("table", EXAMPLES / "kratzen.tbn", "-b", "2")
    assert "pot 0" not in plain_run.stdout  # said on stderr
    assert (f"stich: {POT_ZERO_SAID.format(what='contract')} (the Kratzen record at {EXAMPLES / 'kratzen.tbn'}:20)"
            in plain_run.stderr.splitlines())


def test_table_rejects_an_ending(tmp_path):
    path = tmp_path / "mixed.tbn"
    path.write_text('[Game "Kratzen"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n[Contract "Trump S"]\n\n'
                    '[Game "Zwanzigerrufen"]\n[Board "5"]\n'
                    '[Deal "1: TS T21 SK CK / T19 SQ CQ DN / T1 HK HQ HN / T4 DK DQ SN"]\n'
                    '[Contract "Normal T19"]\n', encoding="utf-8")
    result = run("table", path, "--json", code=1)
    answered, refused = (json.loads(line) for line in result.stdout.splitlines())
    assert "stopped" not in answered and refused["record"]["board"] == "5" and refused["stopped"] == "error"
    assert result.stderr.startswith(f"stich: {path}:7:8: a contract table needs a whole deal")
    assert result.stderr == f"stich: {refused['error']}\n"


def test_table_refuses_a_record_that_does_not_read_with_its_place(tmp_path):
    """A table lists every contract of the deal, but the record is read whole as every command reads it: an unknown
    ``[Contract]``, a ``[Declarer]`` that is no seat and a card of no pack in the play are each said at their place,
    and the record between them is still tabled."""
    source = (EXAMPLES / "schafkopf.tbn").read_text(encoding="utf-8")
    record = '[Game "Schafkopf"]\n' + source[source.index('[Board "1"]'):source.index("% 2.")]
    path = tmp_path / "wrong.tbn"
    path.write_text("\n".join([record.replace('[Contract "Rufer G"]', '[Contract "Bogus"]'), record,
                               record.replace('[Declarer "1"]', '[Declarer "x"]'),
                               record.replace("EO H7 HU H8", "ZZ H7 HU H8")]), encoding="utf-8")
    result = run("table", path, "--no-settlement", "--json", code=1)
    bogus, tabled, declarer, card = (json.loads(line) for line in result.stdout.splitlines())
    assert bogus["stopped"] == declarer["stopped"] == card["stopped"] == "error" and "stopped" not in tabled
    assert tabled["play_ignored"] is True and tabled["entries"]
    assert bogus["error"] == (f"{path}:5:12: unknown Schafkopf contract 'Bogus' (expected Rufer E|G|S, Wenz, "
                              "Solo E|G|H|S, WenzTout, SoloTout E|G|H|S, Sie)")  # the contract once
    assert declarer["error"].startswith(f"{path}:34:12: [Declarer] is not a seat (got 'x'")
    assert card["error"].startswith(f"{path}:50:1: not a card of the Schafkopf pack")
    assert result.stderr == "".join(f"stich: {document['error']}\n" for document in (bogus, declarer, card))


@pytest.mark.skipif(solver.search.engine.implementation() == "python", reason="whole deals need the engine")
def test_table_of_a_schafkopf_deal_with_play():
    (document,) = documents("table", EXAMPLES / "schafkopf.tbn", "-b", "5")
    assert document["play_ignored"] is True
    entries = {(e["contract"], e["declarer"]): e for e in document["entries"]}
    tout = entries[("SoloTout G", 1)]
    assert (tout["measure"], tout["value"], tout["won"]) == ("tricks", 8, True)
    assert all(e["biddable"] for e in document["entries"])
    out = run("table", EXAMPLES / "schafkopf.tbn", "-b", "5").stdout
    assert "the Play section is ignored" in out and "8 tricks" in out


# --- bench ----------------------------------------------------------------------------------------------------------


def test_bench_takes_time_limit_as_every_command_does_and_limit_still():
    """One meaning, one name: bench's per-solve limit is --time-limit, as every other command says; --limit stays,
    hidden, so scripts do not break."""
    (document,) = documents("bench", "-g", "kr", "-n", "1", "--time-limit", "5")
    assert document["limit_ms"] == 5000
    (old,) = documents("bench", "-g", "kr", "-n", "1", "--limit", "4")
    assert old["limit_ms"] == 4000
    (unlimited,) = documents("bench", "-g", "kr", "-n", "1", "--time-limit", "0")
    assert unlimited["limit_ms"] is None
    page = run("bench", "--help").stdout
    assert "--time-limit SECONDS" in page and "--limit" not in page
    both = run("bench", "-g", "kr", "-n", "1", "--time-limit", "5", "--limit", "4", code=2)
    assert "give --time-limit alone (--limit is its old name)" in both.stderr
    assert "nan is not a number of seconds (0 is no limit)" in run("bench", "-g", "kr", "--limit", "nan", code=2).stderr


def test_the_score_objective_is_said_in_every_game_s_unit_by_the_help():
    """--objective score is the settlement in the game's own unit (Game.score_unit): game units, but Kratzen's chips,
    so solve's and tree's help do not say "game units" alone."""
    from solver.games import score_units

    assert score_units() == "game units, Kratzen's chips"
    solve = " ".join(run("solve", "--help").stdout.split())
    assert "score (the net settlement, in the game's unit: game units, Kratzen's chips), points, game" in solve
    tree = " ".join(run("tree", "--help").stdout.split())
    assert "score (game units, Kratzen's chips), points, ..." in tree


def test_bench_names_its_count_and_its_file_as_the_other_commands_do(tmp_path):
    """One meaning per flag: bench's -n is --count, as deal and match say, and the file it writes --out, as deal, tree
    and batch say. The names --deals and --save stay, hidden, so scripts do not break."""
    saved = tmp_path / "run.json"
    run("bench", "-g", "kr", "--count", "1", "--time-limit", "0", "--threads", "1", "--out", saved)
    assert [line["deals"] for line in json.loads(saved.read_text())["lines"]] == [1]
    old = tmp_path / "old.json"
    run("bench", "-g", "kr", "--deals", "2", "--time-limit", "0", "--threads", "1", "--save", old)
    assert [line["deals"] for line in json.loads(old.read_text())["lines"]] == [2]
    page = run("bench", "--help").stdout
    assert "-n, --count N" in page and "--out FILE" in page and "--deals" not in page and "--save" not in page
    both = run("bench", "-g", "kr", "-n", "1", "--deals", "2", code=2)
    assert "Invalid value for '--deals': give --count alone (--deals is its old name)" in both.stderr
    both = run("bench", "-g", "kr", "--out", tmp_path / "a.json", "--save", tmp_path / "b.json", code=2)
    assert "Invalid value for '--save': give --out alone (--save is its old name)" in both.stderr
    assert not (tmp_path / "a.json").exists() and not (tmp_path / "b.json").exists()


def test_bench_s_old_option_names_say_the_new_ones_on_stderr(tmp_path):
    """``--deals``, ``--limit`` and ``--save`` still work (cli.md documents them), and say on stderr what to give
    instead, as a deprecated spelling should; the new names say nothing."""
    old = run("bench", "-g", "kr", "--deals", "1", "--limit", "0", "--threads", "1", "--save", tmp_path / "old.json")
    for said in ("--deals is the old name of --count", "--limit is the old name of --time-limit",
                 "--save is the old name of --out"):
        assert f"stich: bench: {said}, as every command names it" in old.stderr
    assert [line["deals"] for line in json.loads((tmp_path / "old.json").read_text())["lines"]] == [1]
    new = run("bench", "-g", "kr", "-n", "1", "--time-limit", "0", "--threads", "1", "--out", tmp_path / "new.json")
    assert "old name" not in new.stderr


def test_bench_json_and_table():
    (document,) = documents("bench", "--game", "kratzen", "-n", "2", "--time-limit", "0")
    assert document["command"] == "bench" and document["game"] == "Kratzen" and document["deals"] == 2
    assert document["boards"] == [1, 2] and document["seed"] == 1766
    assert document["median_ms"] <= document["p90_ms"] <= document["p99_ms"] <= document["max_ms"]
    assert document["nodes_per_second"] > 0 and document["table_allocated_bytes"] > 0
    assert document["machine"]["cores"] >= 1 and document["machine"]["stich"] == solver.__version__
    assert "target" not in document and "compared" not in document  # the project's targets stay in bench/
    result = run("bench", "-g", "kr", "-n", "1", "--time-limit", "0", "--seed", "5")
    assert "Kratzen 6 seats" in result.stdout and "median" in result.stdout and "nodes/s" in result.stdout
    assert "machine: " in result.stdout and "target" not in result.stdout and "missed" not in result.stdout


def test_bench_saves_a_run_and_compares_with_it(tmp_path):
    saved = tmp_path / "before.json"
    run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--out", saved)
    before = json.loads(saved.read_text())
    assert before["command"] == "bench" and before["machine"]["cores"] >= 1 and before["saved"]
    # it says "schema": "stich-result/1" and is a kind of the schema of its own
    assert_rejected(of_kind(before, "benchRun"), "benchRun")
    assert schema_errors({**before, "partial": {"lines": 3, "interrupted_during": "Kratzen: exact tricks"}},
                         SCHEMA) == []
    (line,) = before["lines"]
    assert line["deals"] == 2 and line["boards"] == [1, 2]
    (document,) = documents("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--compare", saved)
    ratios = document["compared"]
    assert ratios["median_ms"] == pytest.approx(document["median_ms"] / line["median_ms"])
    assert ratios["nodes_per_second"] == pytest.approx(document["nodes_per_second"] / line["nodes_per_second"])
    shown = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--compare", saved).stdout
    assert f"compared with {saved}" in shown and "xmedian" in shown and "xnodes/s" in shown
    # other deals (another deal count) are not compared: their times would not mean the same
    (other,) = documents("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", saved)
    assert other["compared"] is None
    # the JSON Lines of --json compare as well as a saved run
    lines = tmp_path / "before.jsonl"
    lines.write_text(run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--json").stdout)
    (again,) = documents("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--compare", lines)
    assert again["compared"]["p90_ms"] > 0


def test_bench_compare_with_a_file_that_is_not_utf8_is_bad_input_at_its_place(tmp_path):
    """--compare a binary or Latin-1 file ended in a UnicodeDecodeError traceback; it is located bad input (exit 1),
    as a file that is not JSON is."""
    saved = tmp_path / "before.json"
    for content, place in ((b"\xff\xfe{", "1:1: not a saved stich bench run (invalid UTF-8, byte ff)"),
                           (b'{"lines":\n ["caf\xe9"]}', "2:7: not a saved stich bench run (invalid UTF-8, byte e9)")):
        saved.write_bytes(content)
        result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", saved, code=1)
        assert result.stderr == f"stich: {saved}:{place}; write one with stich bench --out FILE\n"
        assert not result.stdout


def test_a_file_that_cannot_be_written_is_said_before_the_work(tmp_path, monkeypatch):
    """A benchmark or a tree computed for minutes and then not written would lose everything: where the file cannot be
    written, the command says so before it runs anything."""
    ran: list[object] = []
    monkeypatch.setattr("solver.benchmark.run_line", lambda *a, **k: ran.append(a))
    monkeypatch.setattr("solver.tree.strategy_tree", lambda *a, **k: ran.append(a))
    missing = tmp_path / "no such directory" / "run.json"
    refused = run("bench", "-g", "kratzen", "-n", "2", "--out", missing, code=1)
    said = f"{missing}: cannot be written: the folder {missing.parent} does not exist (make it, or choose another file)"
    assert said in refused.stderr and not refused.stdout
    tree = run("tree", "examples/schafkopf.tbn", "--depth", "2", "--out", missing.with_suffix(".graphml"), code=1)
    assert f"the folder {missing.parent} does not exist" in tree.stderr and not ran and not missing.parent.exists()


def test_bench_threads_reach_the_engine_and_the_documents(tmp_path, monkeypatch, two_cores_at_least):
    from solver.benchmark import run_line, standard_lines

    # what the run records: at most the usable cores (the module the app runs: solver.cli, see test_cli's app)
    monkeypatch.setattr("solver.cli.bench.usable_cores", lambda: 2)

    saved = tmp_path / "one.json"
    run("bench", "-g", "sk", "-n", "1", "--time-limit", "0", "--threads", "1", "--out", saved)
    one = json.loads(saved.read_text())["lines"]
    assert [line["threads"] for line in one] == [1, 1, 1]
    # one thread searches node for node as the library's one-thread engine does
    (rufer,) = [line for line in standard_lines() if line.name == "Schafkopf Rufer: points + every opening card"]
    assert one[0]["nodes"] == list(run_line(rufer, deals=1, engine_options={"threads": 1}, limit_s=None).nodes)
    two = documents("bench", "-g", "sk", "-n", "1", "--time-limit", "0", "--threads", "2", "--compare", saved)
    assert [(document["threads"], document["threads_used"]) for document in two] == [(2, 2)] * 3
    kratzen = run("bench", "-g", "kr", "-n", "1", "--time-limit", "0", "--threads", "2", "--json").stdout
    # Kratzen's 4-trick deals search on one thread whatever is asked: the document says both
    assert [(line["threads"], line["threads_used"]) for line in map(json.loads, kratzen.splitlines())] == [(2, 1)]
    shown = run("bench", "-g", "kr", "-n", "1", "--time-limit", "0", "--threads", "2").stdout
    assert "(ms per deal, 1 thread a question; 2 asked, but under 5 tricks left one searches)" in shown
    shown = run("bench", "-g", "sk", "-n", "1", "--time-limit", "0", "--threads", "2", "--compare", saved).stdout
    assert "(ms per deal, 2 threads a question)" in shown and "1 thread a question" in shown
    assert "--threads" in run("bench", "-g", "sk", "--threads", "0", code=2).stderr


def test_bench_compare_with_a_file_that_is_no_run(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}\ngarbage\n")
    result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", bad, code=1)
    assert f"stich: {bad}:2:1: " in result.stderr and "not a saved stich bench run" in result.stderr
    result = run("bench", "-g", "kratzen", "-n", "1", "--compare", tmp_path / "missing.json", code=1)
    assert "missing.json: No such file or directory" in result.stderr


def test_bench_names_its_engine_build_and_says_what_differs_from_the_saved_run(tmp_path, monkeypatch):
    """A run names its engine build, not only "stich 0.1.0", the same on every commit, so that a run compared with one
    saved on another build (or on one thread against two) does not look like a like-for-like comparison; and a line
    timed on other deals says which deals, not only "-"."""
    from solver.benchmark import engine_fingerprint

    # the threads recorded are at most the usable cores, the table the environment's: pinned, as on a 2-core machine
    monkeypatch.setattr("solver.cli.bench.usable_cores", lambda: 2)
    monkeypatch.delenv("STICH_TABLE_MB", raising=False)

    saved = tmp_path / "before.json"
    run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--out", saved)
    before = json.loads(saved.read_text())
    build = engine_fingerprint(Path(solver.__file__).resolve().parent)
    assert before["machine"]["engine"] == build and before["lines"][0]["machine"]["engine"] == build
    same = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--compare", saved).stdout
    assert f"engine {build}" in same and "not the same in the two runs" not in same and "\n- " not in same
    before["machine"]["engine"] = before["lines"][0]["machine"]["engine"] = "0123456789ab"
    saved.write_text(json.dumps(before))
    other = run("bench", "-g", "kratzen", "-n", "3", "--time-limit", "0", "--threads", "1", "--compare", saved).stdout
    assert (f"not the same in the two runs: the engine build (0123456789ab then, {build} now); the ratios measure "
            "that too") in other
    assert ("- Kratzen 6 seats: every seat's guaranteed tricks: the saved run timed 2 deals, boards 1-2 of seed "
            "1766, this run 3 deals, boards 1-3 of seed 1766") in other
    del before["machine"]["engine"]
    saved.write_text(json.dumps(before))
    old = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "2", "--compare", saved).stdout
    assert ("not the same in the two runs: the engine build (the saved run does not name its build); the "
            "ratios") in old  # Kratzen searched on one thread in both runs, whatever was asked
    del before["lines"][0]["threads_used"]  # a run saved before it: the threads asked are what it says
    saved.write_text(json.dumps(before))
    old = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "2", "--compare", saved).stdout
    assert ("not the same in the two runs: the engine build (the saved run does not name its build), the threads a "
            "question (1 then, 2 now); the ratios") in old
    smaller = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--table-mb", "8",
                  "--compare", saved).stdout
    assert "the threads a question" not in smaller
    assert "(the saved run does not name its build), the table size (64 MB then, 8 MB now); the ratios" in smaller


def _stopped_stats(line, **options):
    """Three deals of ``line``, two of them stopped at a 5 ms limit (the statistics' own rules, no timing)."""
    from solver.benchmark import BenchStats, DealResult

    stats = BenchStats(line.name, table_allocated_bytes=1 << 20, limit_ms=5.0)
    for board, (ms, out) in enumerate(((1.25, False), (5.0, True), (5.0, True)), 1):
        stats.add(DealResult(board, ms, 0 if out else 1000, 64, () if out else (1,), timed_out=out))
    return stats


def test_bench_marks_the_figures_that_are_lower_bounds(monkeypatch):
    """A solve stopped at --limit counts at the limit, so figures that reach it are only lower bounds: bench marks them
    ">=", as bench/report.py does, not plain times under one note for every line."""
    monkeypatch.setattr("solver.benchmark.run_line", _stopped_stats)
    shown = run("bench", "-g", "kratzen", "-n", "3", "--time-limit", "0.005").stdout
    (row,) = [row for row in shown.splitlines() if row.startswith("│ Kratzen")]
    assert [cell.strip() for cell in row.split("│")[2:7]] == ["3", ">= 5.000", ">= 5.000", ">= 5.000", ">= 5.000"]
    assert ("Kratzen 6 seats: every seat's guaranteed tricks: 2 of 3 deals stopped at the limit (0.005 s) and counted "
            "at it: the figures marked >= are lower bounds, and nodes/s counts only the finished deals") in shown


def _all_stopped_stats(line, **options):
    """Two deals of ``line``, both stopped at a 5 ms limit: no nodes per second is known."""
    from solver.benchmark import BenchStats, DealResult

    stats = BenchStats(line.name, table_allocated_bytes=1 << 20, limit_ms=5.0)
    for board in (1, 2):
        stats.add(DealResult(board, 5.0, 0, 0, (), timed_out=True))
    return stats


def _all_finished_stats(line, **options):
    """The same two deals of ``line``, both finished (1,000 nodes in 1.25 ms each)."""
    from solver.benchmark import BenchStats, DealResult

    stats = BenchStats(line.name, table_allocated_bytes=1 << 20, limit_ms=5.0)
    for board in (1, 2):
        stats.add(DealResult(board, 1.25, 1000, 64, (1,)))
    return stats


def test_bench_shows_a_nodes_per_second_no_deal_finished_as_unknown_and_compares_it_with_nothing(monkeypatch,
                                                                                                tmp_path):
    """A line none of whose deals finished has no nodes per second: it is - in the table and in both ratios (null in the
    JSON), not 0 with a ratio of 0.00 against a saved run that finished them (but - the other way round), and the notes
    say what - means there."""
    stopped, finished = tmp_path / "stopped.json", tmp_path / "finished.json"
    limit = ("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0.005")
    monkeypatch.setattr("solver.benchmark.run_line", _all_stopped_stats)
    shown = run(*limit, "--out", stopped).stdout
    (row,) = [row for row in shown.splitlines() if row.startswith("│ Kratzen")]
    assert row.split("│")[7].strip() == "-"
    assert "and nodes/s counts only the finished deals; none finished, so nodes/s is -" in " ".join(shown.split())
    monkeypatch.setattr("solver.benchmark.run_line", _all_finished_stats)
    run(*limit, "--out", finished)
    shown = run(*limit, "--compare", stopped).stdout
    (row,) = [row for row in shown.splitlines() if row.startswith("│ Kratzen")]
    assert row.split("│")[7].strip() == "800,000" and row.split("│")[-2].strip() == "-"
    assert ("- where the saved run has no such line or timed other deals, and for nodes/s where either run finished "
            "none of the line's deals)") in " ".join(shown.split())
    assert "none finished" not in shown
    monkeypatch.setattr("solver.benchmark.run_line", _all_stopped_stats)
    (document,) = documents(*limit, "--compare", finished)
    assert document["nodes_per_second"] == 0 and document["compared"]["nodes_per_second"] is None
    assert schema_errors(document, SCHEMA) == []
    assert document["compared"]["median_ms"] == pytest.approx(4.0)
    shown = run(*limit, "--compare", finished).stdout
    (row,) = [row for row in shown.splitlines() if row.startswith("│ Kratzen")]
    assert row.split("│")[7].strip() == "-" and row.split("│")[-2].strip() == "-"


def test_bench_interrupted_shows_the_finished_lines_and_says_so(monkeypatch, tmp_path):
    """Ctrl-C ends bench with exit 130 and a word: the lines already measured are shown, and it says that the run was
    cut short and that --save wrote nothing."""
    from solver.benchmark import run_line

    calls: list[str] = []

    def second_line_interrupted(line, **options):
        calls.append(line.name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return run_line(line, **{**options, "limit_s": None})

    monkeypatch.setattr("solver.benchmark.run_line", second_line_interrupted)
    saved = tmp_path / "run.json"
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "1", "--threads", "1", "--out", str(saved)])
    assert result.exit_code == 130 and "Traceback" not in result.stderr
    assert "│ Schafkopf Rufer" in result.stdout and "Solo" not in result.stdout and "Wenz" not in result.stdout
    assert ("stich: bench: stopped by the interrupt in the line 'Schafkopf Solo H: points + every opening card': 1 of "
            f"3 lines finished (above); the finished lines saved to {saved}, marked partial") in result.stderr
    # the finished line is kept (an hour's run is not lost to a Ctrl-C in its last line), marked as partial
    kept = json.loads(saved.read_text())
    assert [line["line"] for line in kept["lines"]] == ["Schafkopf Rufer: points + every opening card"]
    assert kept["partial"] == {"lines": 3, "interrupted_during": "Schafkopf Solo H: points + every opening card"}
    compared = run("bench", "-g", "sk", "-n", "1", "--time-limit", "0", "--threads", "1", "--compare", saved).stdout
    assert ("1 thread a question; partial: 1 of 3 lines (stopped by the interrupt during 'Schafkopf Solo H: points "
            "+ every opening card')") in compared
    assert "- Schafkopf Solo H: points + every opening card: the saved run has no such line" in compared
    said = run("bench", "-g", "sk", "-n", "1", "--time-limit", "0", "--threads", "1", "--compare", saved,
               "--json").stderr
    assert f"stich: bench: {saved} holds a run stopped early, partial: 1 of 3 lines" in said
    # interrupted before any line finished: nothing to keep, and the file is left alone
    calls.clear()
    calls.append("the first line is the second call")
    saved.write_text("an earlier file\n")
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "1", "--threads", "1", "--out", str(saved)])
    assert result.exit_code == 130 and f"0 of 3 lines finished; nothing saved to {saved}" in result.stderr
    assert saved.read_text() == "an earlier file\n"
    # a whole run saved before (a baseline) is not replaced by part of one: the part goes beside it
    baseline = tmp_path / "base.json"
    whole = runner.invoke(app, ["bench", "-g", "sk", "-n", "1", "--time-limit", "0", "--threads", "1", "--out",
                                str(baseline)])
    assert whole.exit_code == 0 and "partial" not in json.loads(baseline.read_text())
    before = baseline.read_text()
    calls.clear()
    result = runner.invoke(app, ["bench", "-g", "sk", "-n", "1", "--threads", "1", "--out", str(baseline)])
    beside = tmp_path / "base.partial.json"
    assert result.exit_code == 130 and (f"the finished lines saved to {beside}, marked partial ({baseline} holds a "
                                        "whole run: kept)") in result.stderr
    assert baseline.read_text() == before and json.loads(beside.read_text())["partial"]["lines"] == 3


@pytest.fixture
def second_line_interrupted(monkeypatch):
    """``bench`` whose lines run without a time limit, and stop in their second line while ``[True]`` is set."""
    from solver.benchmark import run_line

    calls: list[str] = []
    interrupted = [False]

    def line_run(line, **options):
        calls.append(line.name)
        if interrupted[0] and len(calls) == 2:
            raise KeyboardInterrupt
        return run_line(line, **{**options, "limit_s": None})

    monkeypatch.setattr("solver.benchmark.run_line", line_run)

    def set_interrupted(on: bool) -> None:
        calls.clear()
        interrupted[0] = on
    return set_interrupted


def _on_stdin(path: Path):
    """A context in which file descriptor 0 reads ``path`` (``< path``), as the CliRunner's input does not."""
    from contextlib import contextmanager

    @contextmanager
    def redirected():
        kept = os.dup(0)
        with open(path, "rb") as stream:
            os.dup2(stream.fileno(), 0)
        try:
            yield
        finally:
            os.dup2(kept, 0)
            os.close(kept)
    return redirected()


def test_bench_completed_removes_the_partial_run_an_interrupt_left_beside_its_out(second_line_interrupted, tmp_path):
    """``run.partial.json``, an interrupted run's lines beside a whole run, is out of date once a run to run.json
    completes that measured each of its lines again (nothing reads it back: a rerun starts over): removed, and said.
    Kept while it is the run compared with, by name or on standard input, and after a run of other lines."""
    baseline, beside = tmp_path / "run.json", tmp_path / "run.partial.json"
    command = ["bench", "-g", "sk", "-n", "1", "--threads", "1", "--out", str(baseline)]
    assert runner.invoke(app, command).exit_code == 0  # a whole run, the baseline
    second_line_interrupted(True)
    result = runner.invoke(app, command)
    assert result.exit_code == 130 and json.loads(beside.read_text())["partial"]["lines"] == 3, result.stderr
    second_line_interrupted(False)
    kept = beside.read_text()
    assert runner.invoke(app, [*command, "--compare", str(beside)]).exit_code == 0
    with _on_stdin(beside):
        result = runner.invoke(app, [*command, "--compare", "-"], input=kept)
    assert result.exit_code == 0 and "removed" not in result.stderr, result.stderr
    other = ["bench", "-g", "kratzen", "-n", "1", "--threads", "1", "--out", str(baseline)]
    assert runner.invoke(app, other).exit_code == 0  # other lines: the partial's are not measured again
    assert beside.read_text() == kept
    result = runner.invoke(app, command)
    assert result.exit_code == 0 and not beside.exists() and "partial" not in json.loads(baseline.read_text())
    assert (f"stich: bench: {beside}: removed, it held the lines a run stopped by the interrupt finished (each "
            "measured again by this run)") in " ".join(result.stderr.split())


def test_bench_says_to_remove_by_hand_the_partial_run_it_cannot_remove(tmp_path, monkeypatch, capsys):
    """A stopped run's lines beside --out that a completed run measured again but cannot remove (a read-only folder)
    are said out of date, with the error and the next step."""
    from solver.cli.bench import remove_partial_beside

    baseline, beside = tmp_path / "run.json", tmp_path / "run.partial.json"
    beside.write_text(json.dumps({"partial": {"lines": 1}, "lines": [{"line": "A"}]}))

    def refused(self, missing_ok=False):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "unlink", refused)
    remove_partial_beside(baseline, None, {"A"})
    assert capsys.readouterr().err == (
        f"stich: bench: {beside}: holds the lines a run stopped by the interrupt finished, out of date now, not "
        "removed (Permission denied); remove it by hand\n")


def test_bench_completed_leaves_a_run_partial_json_that_is_no_partial_run_alone(second_line_interrupted, tmp_path):
    """A file of the user's own named run.partial.json (not JSON, or a whole run) or a folder by that name: no
    interrupted run's lines, so a completed run leaves it, and says nothing of it."""
    baseline, beside = tmp_path / "run.json", tmp_path / "run.partial.json"
    command = ["bench", "-g", "kratzen", "-n", "1", "--threads", "1", "--out", str(baseline)]
    for own in ("my notes\n", '{"lines": [], "machine": {}}\n', None):
        if own is None:
            beside.unlink()
            beside.mkdir()
        else:
            beside.write_text(own)
        result = runner.invoke(app, command)
        assert result.exit_code == 0 and str(beside) not in " ".join(result.stderr.split()), result.stderr
        assert beside.is_dir() if own is None else beside.read_text() == own


def test_bench_reads_a_partial_run_beside_its_out_up_to_the_size_compare_reads(tmp_path, monkeypatch):
    """A partial run beside --out is read up to the 256 MB --compare reads, not 16 MB (some 400,000 deals, ten minutes
    of Kratzen)."""
    baseline, beside = tmp_path / "run.json", tmp_path / "run.partial.json"
    command = ["bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--threads", "1", "--out", str(baseline)]
    assert runner.invoke(app, command).exit_code == 0
    partial = json.loads(baseline.read_text()) | {"partial": {"lines": 1, "interrupted_during": "the next line"}}
    beside.write_text(json.dumps(partial) + " " * (17 << 20))
    result = runner.invoke(app, command)
    assert result.exit_code == 0 and not beside.exists()
    assert ("run.partial.json: removed, it held the lines a run stopped by the interrupt finished (each measured"
            in " ".join(result.stderr.split()))
    beside.write_text(json.dumps(partial))
    monkeypatch.setattr("solver.cli.bench.MAX_SAVED_RUN_BYTES", beside.stat().st_size - 1)
    result = runner.invoke(app, command)
    assert result.exit_code == 0 and beside.exists() and str(beside) not in " ".join(result.stderr.split())


def test_bench_refuses_to_write_its_run_over_the_run_it_compares_with(tmp_path, monkeypatch):
    """``--compare F --out F`` would replace the baseline with the run compared with it: refused before any line runs,
    both flags named as typed (``--save`` too), by the file's own name, a relative and an absolute one, or through a
    symbolic link."""
    monkeypatch.chdir(tmp_path)
    baseline = tmp_path / "base.json"
    baseline.write_text("a baseline\n")
    link = tmp_path / "link.json"
    link.symlink_to(baseline.name)
    for flag, out, compare in (("--out", baseline, baseline), ("--out", link, baseline), ("--save", baseline, baseline),
                               ("--out", baseline, Path("base.json")), ("--out", Path("base.json"), baseline)):
        result = runner.invoke(app, ["bench", "-g", "kratzen", "-n", "1", "--compare", str(compare), flag, str(out)])
        assert result.exit_code == 2 and not result.stdout
        assert (f"{flag} {out} and --compare {compare} name the same file: the run would replace the run it is "
                f"compared with; give {flag} another file") in " ".join(result.stderr.replace("│", " ").split())
    assert baseline.read_text() == "a baseline\n"


def test_bench_refuses_out_as_the_file_compare_reads_on_standard_input(tmp_path):
    """``--compare - --out base.json < base.json`` would read the baseline and then replace it: refused, saying so."""
    baseline = tmp_path / "base.json"
    baseline.write_text("a baseline\n")
    with open(baseline, "rb") as stdin:
        process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "bench", "-g",
                                  "kratzen", "-n", "1", "--compare", "-", "--out", str(baseline)],
                                 stdin=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert process.returncode == 2 and not process.stdout
    assert (f"--out {baseline} is the file --compare - reads from standard input: the run would replace the run it "
            "is compared with; give --out another file") in " ".join(process.stderr.replace("│", " ").split())
    assert baseline.read_text() == "a baseline\n"


def test_bench_compare_and_out_that_are_no_one_file_are_no_clash(tmp_path, monkeypatch):
    """Only a file that exists can be replaced: the same missing name twice, or a path through a missing folder
    that reads as the baseline's, is no clash (the run's own messages say the rest); nor is a hard link of the
    baseline, whose other name keeps it when --out's name is replaced."""
    from solver.cli.bench import replaces_compared

    monkeypatch.chdir(tmp_path)
    baseline = tmp_path / "base.json"
    baseline.write_text("a baseline\n")
    os.link(baseline, tmp_path / "hard.json")
    assert replaces_compared(Path("missing.json"), Path("missing.json")) is None
    assert replaces_compared(Path("nodir/../base.json"), baseline) is None
    assert replaces_compared(Path("hard.json"), baseline) is None
    assert replaces_compared(Path("-"), baseline) is None
    assert replaces_compared(Path("base.json"), baseline) == f"base.json and --compare {baseline} name the same file"


def test_bench_compare_with_a_run_whose_machine_or_boards_are_of_another_kind(tmp_path):
    """A saved run whose "machine" is a string (machine_text reads an object) is bad input naming what is wrong, as a
    file that is not JSON is, not an AttributeError traceback."""
    bad = tmp_path / "bad.json"
    line = {"command": "bench", "line": "Kratzen 6 seats: every seat's guaranteed tricks"}
    for run_document, said in (
            ({"machine": "x", "lines": []}, "not a saved stich bench run: its 'machine' is a string, not an object"),
            ({"lines": [{**line, "machine": []}]}, "line document 1: its 'machine' is an array, not an object"),
            ({"lines": [{**line, "boards": "1-5"}]}, "line document 1: its 'boards' is a string, not an array")):
        bad.write_text(json.dumps(run_document))
        result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", bad, code=1)
        assert result.stderr.startswith(f"stich: {bad}: {said}; write ") and not result.stdout


def test_bench_compare_reads_every_figure_it_compares_as_saved_or_refuses_the_file(tmp_path):
    """The comparison reads a saved line's figures as the run saves them, or refuses the file in the one line of a file
    that is no run: a 'variant' list or a 'table_allocated_bytes' string (else a traceback: AttributeError, TypeError),
    a 'median_ms' string (else '-', as if not measured), and a line saved twice (two --json runs in one file; else
    compared with the last one silently). A run as saved compares."""
    saved = tmp_path / "before.json"
    run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--out", saved)
    good = json.loads(saved.read_text())
    (line,) = good["lines"]
    bad = tmp_path / "bad.json"
    for changed, said in (
            ({"variant": [1]}, "line document 1: its 'variant' is an array, not an object"),
            ({"table_allocated_bytes": "64 MB"}, "line document 1: its 'table_allocated_bytes' is a string, not a "
                                                 "number"),
            ({"median_ms": "fast"}, "line document 1: its 'median_ms' is a string, not a number"),
            ({"seed": True}, "line document 1: its 'seed' is a boolean, not a number"),
            ({"boards": ["a"]}, "line document 1: its 'boards' are not all board numbers")):
        bad.write_text(json.dumps(good | {"lines": [line | changed]}))
        result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", bad, code=1)
        assert result.stderr == f"stich: {bad}: {said}; write a run with stich bench --out FILE\n"
        assert not result.stdout
    bad.write_text(json.dumps(good | {"lines": [line, line]}))
    result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", bad, code=1)
    assert result.stderr == (f"stich: {bad}: line document 2 times the line {line['line']!r} again; compare with one "
                             "run, written with stich bench --out FILE\n")
    (document,) = documents("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", saved)
    assert document["compared"]["median_ms"] == pytest.approx(document["median_ms"] / line["median_ms"])


def test_bench_compare_refuses_an_empty_file_a_cut_run_and_figures_no_run_measures(tmp_path):
    """An empty --compare file (or one of no lines) is refused, not taken as a run with no lines (every ratio '-', exit
    0); a saved run cut short is located where it is cut, not at its line 1, column 2 (as JSON Lines); a NaN, Infinity
    or negative median (JSON has no NaN: a file edited or written by another tool) is refused, not shown as '-' or 0.00
    as if measured."""
    saved = tmp_path / "before.json"
    run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--out", saved)
    good = saved.read_text()
    bad = tmp_path / "bad.json"
    for text, said in (("", "empty: not a saved stich bench run"), ("  \n\n", "empty: not a saved stich bench run"),
                       ('{"lines": []}', "not a saved stich bench run: it holds no line document")):
        bad.write_text(text)
        result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", bad, code=1)
        assert result.stderr == f"stich: {bad}: {said}; write one with stich bench --out FILE\n"
        assert not result.stdout
    cut = good[:good.index('"median_ms"') + 5]  # a copy stopped in the middle of the first line's figures
    bad.write_text(cut)
    result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", bad, code=1)
    line, column = cut.count("\n") + 1, len(cut) - cut.rindex("\n")
    assert result.stderr.startswith(f"stich: {bad}:{line}:{column - 5}: not a saved stich bench run (Unterminated")
    document = json.loads(good)
    for figure, written in ((float("nan"), "NaN"), (float("inf"), "Infinity"), (-1.5, "-1.5")):
        document["lines"][0]["median_ms"] = figure
        bad.write_text(json.dumps(document))
        result = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", bad, code=1)
        assert result.stderr == (f"stich: {bad}: line document 1: its 'median_ms' is {written}, not a figure a run "
                                 "measures; write a run with stich bench --out FILE\n")


def test_bench_compare_says_another_version_or_time_limit_and_a_saved_line_at_its_limit(tmp_path):
    """A run saved by another stich version, or under another --time-limit, is compared with a word, as the machine,
    build, threads and table are, and a saved line whose deals stopped at its limit is said to give ratios to its lower
    bounds, not as if they were times; with --json the same is said of what the table says."""
    saved = tmp_path / "before.json"
    run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--out", saved)
    same = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--compare", saved).stdout
    assert "not the same in the two runs" not in same and "at its limit" not in same
    limited = run("bench", "-g", "kratzen", "-n", "2", "--threads", "1", "--compare", saved).stdout
    assert "not the same in the two runs: the time limit (none then, 60 s now); the ratios measure" in limited
    document = json.loads(saved.read_text())
    document["machine"]["stich"] = "0.0.1"
    document["lines"][0] |= {"timeouts": 1, "limit_ms": 5.0}
    saved.write_text(json.dumps(document))
    other = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--compare", saved).stdout
    assert (f"not the same in the two runs: the version of stich (0.0.1 then, {solver.__version__} now), the time "
            "limit (0.005 s then, none now); the ratios measure that too") in other
    assert ("Kratzen 6 seats: every seat's guaranteed tricks: the saved run stopped 1 of 2 deals at its limit "
            "(0.005 s) and counted them at it: its times are lower bounds, and the ratios to them upper bounds"
            ) in " ".join(other.split())
    # --json's documents' ratios would look like-for-like: stderr says what the table's lines do
    as_json = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--compare", saved,
                  "--json")
    assert as_json.stderr.splitlines() == [
        f"stich: bench: not the same in the two runs: the version of stich (0.0.1 then, {solver.__version__} now), "
        "the time limit (0.005 s then, none now); the ratios measure that too",
        "stich: bench: Kratzen 6 seats: every seat's guaranteed tricks: the saved run stopped 1 of 2 deals at its "
        "limit (0.005 s) and counted them at it: its times are lower bounds, and the ratios to them upper bounds"]
    assert json.loads(as_json.stdout)["compared"]["median_ms"] > 0
    # --out - (the run's document on stdout, no table) said it nowhere: stderr says it as with --json
    to_stdout = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--threads", "1", "--compare", saved,
                    "--out", "-")
    assert to_stdout.stderr.splitlines() == as_json.stderr.splitlines()
    assert json.loads(to_stdout.stdout)["lines"][0]["compared"]["median_ms"] > 0
    other_deals = run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--threads", "1", "--compare", saved,
                      "--json")
    assert other_deals.stderr.splitlines()[-1] == (
        "stich: bench: Kratzen 6 seats: every seat's guaranteed tricks: the saved run timed 2 deals, boards 1-2 of "
        "seed 1766, this run 1 deal, board 1 of seed 1766")
    assert json.loads(other_deals.stdout)["compared"] is None


def test_bench_compare_reads_standard_input_and_refuses_a_file_larger_than_any_run(tmp_path, monkeypatch):
    """--compare - reads standard input, as every command reads -, not a file named "-"; and --compare /dev/zero is
    refused as larger than any run, not read for ever until the process runs out of memory (said as a --table-mb
    problem)."""
    saved = tmp_path / "before.json"
    run("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--out", saved)
    result = runner.invoke(app, ["bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--compare", "-",
                                 "--json"], input=saved.read_text())
    assert result.exit_code == 0, result.stderr
    line = json.loads(saved.read_text())["lines"][0]
    document = json.loads(result.stdout)
    assert document["compared"]["median_ms"] == pytest.approx(document["median_ms"] / line["median_ms"])
    result = runner.invoke(app, ["bench", "-g", "kratzen", "-n", "1", "--compare", "-"], input="{}\n")
    assert result.exit_code == 1 and result.stderr.startswith("stich: <stdin>: line document 1 is not a stich bench")
    monkeypatch.setattr("solver.cli.bench.MAX_SAVED_RUN_BYTES", 1 << 20)
    result = run("bench", "-g", "kratzen", "-n", "1", "--compare", "/dev/zero", code=1)
    assert result.stderr == ("stich: /dev/zero: over 1 MB, more than any saved run: not a saved stich bench run; "
                             "write one with stich bench --out FILE\n") and not result.stdout


def test_bench_table_says_which_deals_it_timed():
    """The table for people says which deals and rules a run timed, as --json does, so that a table of --seed 5
    --variant ... can be told from the standard one."""
    fixed = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0").stdout
    assert "deals: Kratzen 2 deals, boards 1-2 of seed 1766\n" in fixed
    other = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "-s", "5", "--variant",
                "must_undertrump=false").stdout
    assert "deals: Kratzen 2 deals, boards 1-2 of seed 5, variant must_undertrump=false\n" in other


def test_bench_json_spells_each_variant_value_as_the_game_does():
    """bench --json writes a --variant value as the game spells it (``false``, not ``NO`` as typed), as match and a
    batch line do: one flag, one spelling across the commands' documents."""
    args = ("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--variant", "Must_Undertrump=NO")
    [line] = documents(*args, "--json")
    assert line["variant"] == {"must_undertrump": "false"}
    assert "variant must_undertrump=false\n" in run(*args).stdout


def test_bench_compare_reads_a_saved_variant_as_the_game_spells_it_or_says_which_it_cannot(tmp_path):
    """A run saved by a bench that wrote a --variant value as typed (``YES``) and a run that writes ``true`` time the
    same deals, so their lines are compared with ratios: both are read as the game spells them; a flag or value the game
    does not take is refused, naming the line and the flag."""
    args = ("bench", "-g", "kratzen", "-n", "1", "--time-limit", "0", "--variant", "weli_also_bells=true")
    saved = tmp_path / "old.json"
    assert runner.invoke(app, [*args, "--out", str(saved)]).exit_code == 0
    run_saved = json.loads(saved.read_text())
    run_saved["lines"][0]["variant"] = {"Weli_Also_Bells": "YES"}
    saved.write_text(json.dumps(run_saved))
    [line] = documents(*args, "--json", "--compare", saved)
    assert line["variant"] == {"weli_also_bells": "true"} and line["compared"]["median_ms"] > 0
    cannot = "cannot be read (write a run with stich bench --out FILE): "
    for flags, shown, why in (
            ({"weli_also_bells": "maybe"}, "weli_also_bells=maybe",
             cannot + "variant flag weli_also_bells takes true or false, not 'maybe'"),
            ({"no_such_flag": "YES"}, "no_such_flag=YES", cannot + "unknown variant flag 'no_such_flag'"),
            ({"weli_also_bells": None}, "weli_also_bells=null",
             "cannot be read: the value of weli_also_bells is null, not a string; write a run with stich bench "
             "--out FILE")):
        run_saved["lines"][0]["variant"] = flags
        saved.write_text(json.dumps(run_saved))
        result = runner.invoke(app, [*args, "--compare", str(saved)])
        said = " ".join(result.stderr.split())
        assert result.exit_code == 1 and result.stdout == "" and "Traceback" not in result.stderr
        assert (f"stich: {saved}: line document 1 (\"Kratzen 6 seats: every seat's guaranteed tricks\"): its variant "
                f"{shown} {why}") in said, result.stderr
        assert "None" not in said and "did you mean" not in said and "?;" not in said


def test_bench_save_to_stdout_writes_the_run_alone():
    """--save - writes the saved run alone, not after the table (or after the --json lines), so that stdout is a run
    --compare can read."""
    result = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--out", "-")
    saved = json.loads(result.stdout)
    assert saved["command"] == "bench" and [line["deals"] for line in saved["lines"]] == [2]
    refused = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--out", "-", "--json", code=2)
    assert "--out - writes to stdout, where --json writes its lines" in refused.stderr
    assert not refused.stdout
    # its old name is named as typed, not as --out, which the user did not type
    old = run("bench", "-g", "kratzen", "-n", "2", "--time-limit", "0", "--save", "-", "--json", code=2)
    said = " ".join(old.stderr.split())
    assert "Invalid value for '--save': --save - writes to stdout, where --json writes its lines: give " \
           "--save a file" in said and not old.stdout


def test_bench_unknown_game_is_a_usage_error():
    result = run("bench", "--game", "chess", code=2)
    assert "unknown game" in result.stderr


# --- the documents of score, postmortem, analyse and batch ----------------------------------------------------------

whole_deals = pytest.mark.skipif(solver.search.engine.implementation() == "python",
                                 reason="whole deals need the engine")


def of_kind(document: dict, kind: str) -> dict:
    """The document, after checking that it is valid as the ``$defs`` entry ``kind`` (not only as some kind)."""
    assert schema_errors(document, SCHEMA["$defs"][kind]) == [], kind
    return document


def assert_rejected(document: dict, kind: str) -> None:
    """A document of ``kind`` that misses any one required field, or has one field too many, is invalid."""
    definition = SCHEMA["$defs"][kind]
    for name in definition["required"]:
        broken = {key: value for key, value in document.items() if key != name}
        assert schema_errors(broken, SCHEMA), f"{kind} without {name!r} passed"
    assert schema_errors({**document, "extra": 1}, SCHEMA)


def test_score_json_of_a_finished_deal():
    (document,) = documents("score", EXAMPLES / "schafkopf.tbn", "-b", "7")
    of_kind(document, "score")
    assert document["command"] == "score" and document["schema"] == "stich-result/1" and "dd" not in document
    assert document["payments"] == [-2, 2, -2, 2] and [i["name"] for i in document["items"]] == ["game", "schneider"]
    assert_rejected(document, "score")
    wrong = {**document, "items": [{**document["items"][0], "multiplier": 0}]}
    assert schema_errors(wrong, SCHEMA)
    assert schema_errors({**document, "pot": -1}, SCHEMA)


def test_score_says_once_that_a_pot_is_not_used_outside_kratzen():
    """--pot is for a file's Kratzen records; on others it changes nothing, and the user is told so on stderr."""
    plain = run("score", EXAMPLES / "schafkopf.tbn", "-b", "7", "--json")
    potted = run("score", EXAMPLES / "schafkopf.tbn", "--pot", "5", "--json", code=1)  # unfinished deals: exit 1
    assert "--pot is for Kratzen records; Schafkopf has no pot" in potted.stderr
    assert potted.stderr.count("--pot") == 1 and "--pot" not in plain.stderr
    board_7 = [line for line in potted.stdout.splitlines() if '"board":"7"' in line]
    assert board_7 == plain.stdout.splitlines()


@whole_deals
def test_score_dd_json_of_a_finished_deal():
    (document,) = documents("score", EXAMPLES / "schafkopf.tbn", "-b", "7", "--dd")
    dd = of_kind(document, "score")["dd"]
    assert dd["from"] == "start" and dd["cards_on_table"] == 0 and len(dd["line"]) == 32
    assert schema_errors({**document, "dd": {**dd, "from": "middle"}}, SCHEMA)
    for name in SCHEMA["$defs"]["ddSettlement"]["required"]:
        broken = {key: value for key, value in dd.items() if key != name}
        assert schema_errors({**document, "dd": broken}, SCHEMA), name


def test_score_dd_json_of_an_unfinished_play():
    (document,) = documents("score", EXAMPLES / "settlement.tbn", "--dd")
    of_kind(document, "scoreUnfinished")
    assert "items" not in document and document["dd"]["from"] == "end_of_play" and document["dd"]["value"] == 12
    assert_rejected(document, "scoreUnfinished")
    # no actual score without the whole of it
    assert schema_errors({**document, "payments": [0, 0, 0, 0]}, SCHEMA)
    found = documents("score", EXAMPLES / "kratzen.tbn", "--dd")
    assert len(found) == 5 and all(of_kind(d, "scoreUnfinished")["dd"]["points_objective"] == "tricks"
                                   for d in found)


def test_score_names_the_defenders_absolut_as_check_does(tmp_path):
    """Board 2's seat 4 says "Absolut dagegen" and the defenders make it: ``score`` calls it ``Absolut against`` as
    ``check`` does, and the JSON says whose it is beside the name it keeps. The declarers' own Absolut announced and
    failed is paid to the same defenders but stays ``Absolut``: its winners do not tell whose bonus an item is."""
    scored = run("score", "--dd", EXAMPLES / "zwanzigerrufen.tbn", "-b", "2").stdout
    assert re.search(r"│ Absolut against \(announced\) │ 2\+4 │ 1\+3 ", scored)
    assert re.search(r"│ Pagat Ultimo \(announced\) +│ 2\+4 │ 1\+3 ", scored)  # the declarers' Pagat, failed
    assert "Absolut against" in run("check", EXAMPLES / "zwanzigerrufen.tbn", "-b", "2").stdout
    (document,) = documents("score", "--dd", EXAMPLES / "zwanzigerrufen.tbn", "-b", "2")
    whose = {item["name"]: (item["winners"], item["against"]) for item in document["dd"]["items"]}
    assert whose["absolut"] == ([2, 4], True) and whose["pagat_ultimo"] == ([2, 4], False)
    assert whose["game"] == ([2, 4], False)
    record = (EXAMPLES / "zwanzigerrufen.tbn").read_text(encoding="utf-8").replace(
        '[Announcements "1: Pagat; 2: Kontra; 4: Absolut dagegen"]', '[Announcements "1: Absolut"]')
    (tmp_path / "declarers.tbn").write_text(record, encoding="utf-8")
    scored = run("score", "--dd", tmp_path / "declarers.tbn", "-b", "2").stdout
    assert re.search(r"│ Absolut \(announced\) +│ 2\+4 │ 1\+3 ", scored) and "Absolut against" not in scored
    (document,) = documents("score", "--dd", tmp_path / "declarers.tbn", "-b", "2")
    (absolut,) = (item for item in document["dd"]["items"] if item["name"] == "absolut")
    assert (absolut["winners"], absolut["reason"], absolut["against"]) == (
        [2, 4], "Absolut announced by the declarers 1+3: failed", False)


def test_score_json_of_kratzen_with_a_pot(tmp_path):
    # the four top trumps take every trick: payouts from the pot (no losers), penalties into it (no winners)
    path = tmp_path / "kratzen.tbn"
    path.write_text('[Game "Kratzen"]\n[Board "1"]\n'
                    '[Deal "1: HA S6 HK HO / E7 E8 E9 EZ / G7 G8 G9 GZ / S7 S8 S9 SZ"]\n[Contract "Trump H"]\n'
                    '[Pot "12"]\n[Play "1"]\nHA E7 G7 S7\nS6 E8 G8 S8\nHK E9 G9 S9\nHO EZ GZ SZ\n*\n',
                    encoding="utf-8")
    (document,) = documents("score", path, "--dd")
    of_kind(document, "score")
    assert document["pot"] == 12 and document["dd"]["pot"] == 12
    assert any(not i["losers"] for i in document["items"]) and any(not i["winners"] for i in document["items"])
    assert sum(document["dd"]["payments"]) + document["dd"]["pot_change"] == 0
    assert document["dd"]["pot_change"] == document["pot_change"]  # the four top trumps: the same play either way
    # the text output shows the double-dummy payments with the pot's column
    text = run("score", path, "--dd").stdout
    assert "Payments (double dummy)" in text and text.count("pot") >= 3
    assert text.splitlines()[1] == "pot: 12 chips, each trick pays 3"  # as show and solve say it
    # a finished Muss says so, as an unfinished one does: the contract's title names the Muss, this what it means
    muss = path.read_text(encoding="utf-8").replace('"Trump H"', '"Trump H Muss"')
    path.write_text(muss, encoding="utf-8")
    assert run("score", path).stdout.splitlines()[:2] == [
        f"board 1 ({path}:1) - Kratzen Trump H Muss, attacker 1", "pot: 12 chips, a Muss: tricks pay nothing"]


def test_score_dd_text_of_unfinished_kratzen_deals():
    text = run("score", EXAMPLES / "kratzen.tbn", "--dd").stdout
    assert text.count("Payments (double dummy)") == 5
    # every seat plays for itself (RULES.md 3): no "both sides", and the attacker is "he" as in match and analyse
    board3 = " ".join(run("score", EXAMPLES / "kratzen.tbn", "--dd", "-b", "3", "--pot", "12").stdout.split())
    # the pot the settlement is paid from, and what it pays: nothing in a Muss (board 3), whatever the pot
    assert "attacker 1 pot: 12 chips, a Muss: tricks pay nothing the play is not complete" in board3
    # without a pot every payment is 0: said where the unfinished deal has no score (and no score notes) to say it,
    # after the Muss's own reason (the header said "tricks and targets only" while show's diagram said the Muss)
    untagged = run("score", EXAMPLES / "kratzen.tbn", "--dd", "-b", "3").stdout.splitlines()
    assert untagged[1] == "pot: 0 chips, a Muss: tricks pay nothing"  # the way to give one is said once on stderr
    # a normal deal's (board 1): its trick share, and at pot 0 the targets only; each in show's words
    for pot, normal in (("0", "pot: 0 chips, tricks and targets only"), ("12", "pot: 12 chips, each trick pays 3")):
        headers = {board: run("score", EXAMPLES / "kratzen.tbn", "--dd", "-b", board,
                              "--pot", pot).stdout.splitlines()[1] for board in ("1", "3")}
        assert headers == {"1": normal, "3": f"pot: {pot} chips, a Muss: tricks pay nothing"}
        assert all(header == run("show", EXAMPLES / "kratzen.tbn", "-b", board, "--pot", pot).stdout.splitlines()[2]
                   for board, header in headers.items())
    assert "pot:" not in run("score", EXAMPLES / "settlement.tbn", "--dd").stdout  # a game with no pot
    assert ("the line takes 1 trick; the most the attacker can force is 0 (the others, playing for the score, need "
            "not hold the attacker down where it does not change it) every seat playing for tricks (one such line), "
            "the deal settles -24 the best settlement while the attacker forces his 0 tricks: -24") in board3


def test_score_dd_counts_one_trick_in_the_singular(tmp_path):
    """`score --dd` counts one trick in the singular, not "the attacker forces his 1 tricks": seed 1's three-seat deal
    lets the attacker force one."""
    path = tmp_path / "one.tbn"
    path.write_text(run("deal", "-g", "kratzen", "--pot", "12").stdout, encoding="utf-8")
    text = " ".join(run("score", path, "--dd").stdout.split())
    assert "the best settlement while the attacker forces his 1 trick: " in text and "1 tricks" not in text


KRATZEN_DEFENDER_THROWS_THE_WELI = """[Game "Kratzen"]
[Seats "3"]
[Deal "1: HA EA EK GA / S6 HU E7 E8 / HK HO EZ E9"]
[Contract "Trump H"]
[Declarer "1"]
[Pot "12"]
[Play "1"]
HA S6 HO
EA E7 E9
EK E8 EZ
GA HU HK
*
"""


def test_a_kratzen_postmortem_grades_each_mover_by_its_own_tricks(tmp_path):
    """Every Kratzen seat plays for itself, and the score is the attacker's payment alone: graded by it, seat 2 throwing
    the Weli under the trump ace (the one trick it could make, so it pays the pot) would be "ok". By default each
    mover's own tricks grade it; -o score still grades by the attacker's payment."""
    record = tmp_path / "weli.tbn"
    record.write_text(KRATZEN_DEFENDER_THROWS_THE_WELI)
    (document,) = documents("postmortem", record)
    weli = document["cards"][1]
    assert (weli["card"], weli["seat"], weli["grade"], weli["cost"]) == ("S6", 2, "blunder", 1)
    assert [player["grades"]["blunder"] for player in document["players"]] == [0, 1, 0]
    assert document["measure"] == "tricks"
    (by_score,) = documents("postmortem", record, "-o", "score")
    assert by_score["cards"][1]["grade"] == "ok" and by_score["measure"] == "chips"  # the attacker's own payment


def test_a_postmortem_past_the_deals_end_says_where_it_ended_under_the_schema(tmp_path):
    """``settled_after`` (a Tout lost in trick 1, played on) is an object under the schema, null where the play ends
    with the deal; the JSON says it, not only stderr."""
    record = tmp_path / "tout.tbn"
    tout = ('[Game "Schafkopf"]\n[Board "9"]\n[Deal "1: EO GO HO SO EU GU HU EA / SU EZ EK GA GZ GK G9 G8 / '
            'E9 E8 HA HZ HK H9 H8 H7 / E7 G7 SA SZ SK S9 S8 S7"]\n[Contract "SoloTout E"]\n[Declarer "1"]\n'
            '[Play "1"]\nEA SU E9 E7\n')
    record.write_text(tout + "GA HA G7 EO\n*\n")
    (document,) = documents("postmortem", record)
    assert document["settled_after"] == {"card": 4, "trick": 1} and len(document["cards"]) == 8
    record.write_text(tout + "*\n")
    assert documents("postmortem", record)[0]["settled_after"] is None
    assert schema_errors({**document, "settled_after": {"card": 4}}, SCHEMA) != []


def test_a_postmortem_record_that_failed_has_a_json_line_saying_so(tmp_path):
    """A bad record of ``postmortem --json`` (a Play illegal at a card, a contract the game does not know, a record too
    broken to read) has a ``failed`` line in its place, with what stderr says, so that a script reading the lines can
    tell which record failed; exit code 1."""
    hands = ('[Deal "1: EA EZ EK EU E9 GU HU SU / EO E7 G7 HK HO H7 SZ S7 / GA GZ G9 HZ H8 SA S9 S8 / '
             'E8 GK GO G8 HA H9 SK SO"]\n')
    record = tmp_path / "mixed.tbn"
    record.write_text('[Game "Schafkopf"]\n[Board "1"]\n' + hands + '[Contract "WenzTout"]\n[Declarer "1"]\n'
                      '[Play "1"]\nEU E7 H8 E8\nGU G7 S8 SA\n*\n\n'
                      '[Game "Schafkopf"]\n[Board "2"]\n' + hands + '[Contract "Bogus"]\n[Declarer "1"]\n\n'
                      '[Game "Schafkopf"\n[Board "3"]\n\n'
                      '[Game "Schafkopf"]\n[Board "4"]\n' + hands + '[Contract "WenzTout"]\n[Declarer "1"]\n'
                      '[Play "1"]\nEU E7 H8 E8\n*\n')
    found = documents("postmortem", record, code=1)
    assert [d.get("stopped") for d in found] == ["error", "error", "error", None]
    assert [d["record"]["board"] for d in found] == ["1", "2", None, "4"]
    assert [d["record"]["line"] for d in found] == [1, 11, 17, 20]
    illegal, contract, broken, answered = found
    assert illegal["error"].startswith(f"{record}:8:10: seat 4 does not hold this card")
    assert "Bogus" in contract["error"] and broken["error"].startswith(f"{record}:17:18: missing ']'")
    assert answered["command"] == "postmortem" and len(answered["cards"]) == 4
    stderr = run("postmortem", record, "--json", code=1).stderr
    for line in found[:3]:
        assert f"stich: {line['error']}" in stderr
    defs = SCHEMA["$defs"]
    assert schema_errors(illegal, defs["failed"]) == [] and schema_errors(illegal, defs["unanswered"])
    assert schema_errors({**illegal, "stopped": "time limit"}, SCHEMA)
    assert not any("stopped" in line for line in documents("postmortem", record, "--board", "4", code=1)[1:])


def test_postmortem_names_the_measure_as_solve_does(tmp_path):
    """One meaning per flag: as solve and tree call Kratzen's measure tricks and refuse points, postmortem's -o tricks
    grades a Kratzen record as the default does, and -o points on it (or -o tricks on a game with card points) is
    refused in solve's words, pointed at the record."""
    record = tmp_path / "weli.tbn"
    record.write_text(KRATZEN_DEFENDER_THROWS_THE_WELI)
    assert documents("postmortem", record, "-o", "tricks") == documents("postmortem", record)
    refused = run("postmortem", record, "-o", "points", code=1)
    solved = run("solve", record, "-o", "points", code=1)
    # in solve's words, but with the choices postmortem takes: the score among them (solve's name it apart, as the
    # rules themselves refuse it)
    assert refused.stdout == "" and refused.stderr == solved.stderr.replace(
        "choose from: tricks; solve and tree also take 'score')", "choose from: score, tricks)")
    assert "objective 'points' belongs to Schafkopf and Zwanzigerrufen, not to Kratzen (for Kratzen Trump " \
        "H choose from: score, tricks)" in refused.stderr
    other = run("postmortem", EXAMPLES / "schafkopf.tbn", "-b", "7", "-o", "tricks", code=1)
    assert other.stderr == ("stich: --objective: objective 'tricks' belongs to Kratzen, not to Schafkopf (for "
                            "Schafkopf Rufer G choose from: score, points) (the record at examples/schafkopf.tbn:103, "
                            "board 7, not answered)\n"
                            ).replace("examples/schafkopf.tbn", str(EXAMPLES / "schafkopf.tbn"))
    # the contract as the rule book names it, as the reports do (not 'for Schafkopf WenzTout', 'Kratzen Trump S
    # SevenMuss'), in postmortem's words and solve's alike
    tout = run("postmortem", EXAMPLES / "schafkopf.tbn", "-b", "4", "-o", "tricks", code=1)
    assert "(for Schafkopf Wenz Tout choose from: score, points)" in tout.stderr
    seven = run("solve", EXAMPLES / "kratzen.tbn", "-b", "4", "-o", "schwarz", code=1)
    assert "(for Kratzen Trump S Seven-Muss choose from: tricks; solve and tree also take 'score')" in seven.stderr


def test_a_kratzen_postmortems_note_names_an_objective_the_command_takes(tmp_path):
    """Graded by the score, a Kratzen post-mortem's note under the card table points at --objective tricks for each
    seat's own tricks, not at --objective points, which the command refuses for Kratzen."""
    record = tmp_path / "weli.tbn"
    record.write_text(KRATZEN_DEFENDER_THROWS_THE_WELI)
    out = " ".join(run("postmortem", record, "-o", "score").stdout.replace("│", "").split())
    named = re.search(r"--objective (\w+) grades each seat by its own tricks", out)
    assert named is not None and named.group(1) == "tricks", out
    assert documents("postmortem", record, "--objective", named.group(1)) == documents("postmortem", record)


def test_a_kratzen_postmortem_takes_the_pot_as_score_and_table_do(tmp_path):
    """Graded by the score, a Kratzen post-mortem is in chips, and --pot gives it a pot, as in score, table and analyse,
    not only a [Pot] tag (a record without one would grade every card at 0, unsaid); a pot of 0 is said on stderr."""
    record = tmp_path / "weli.tbn"
    record.write_text(KRATZEN_DEFENDER_THROWS_THE_WELI.replace('[Pot "12"]\n', ""))
    (tagged,) = documents("postmortem", record, "-o", "score", "--pot", "12")
    (bare,) = documents("postmortem", record, "-o", "score")
    # the attacker takes 3 tricks at 3 chips, seat 3 one; seat 2 none: the attacker is paid 9 all along
    assert [card["before"] for card in tagged["cards"]] == [9] * 12
    assert [card["before"] for card in bare["cards"]] == [0] * 12
    result = run("postmortem", record, "-o", "score")
    assert result.stderr == ("stich: pot 0: every card settles at 0 chips: give the record a [Pot] tag, or "
                             f"--pot CHIPS (the Kratzen record at {record}:1)\n")
    assert "pot 0" not in run("postmortem", record, "-o", "score", "--pot", "12").stderr
    # a file of many records says it once, with their count, not once a record; --json keeps its documents whole
    three = tmp_path / "three.tbn"
    three.write_text("\n".join([record.read_text()] * 3))
    said = run("postmortem", three, "-o", "score")
    assert said.stderr.count("pot 0") == 1
    assert said.stderr.endswith(f"(3 records of Kratzen from {three}:1)\n")
    assert [each["cards"] for each in documents("postmortem", three, "-o", "score")] == [bare["cards"]] * 3


@whole_deals
def test_postmortem_json():
    found = (documents("postmortem", EXAMPLES / "kratzen.tbn") + documents("postmortem", EXAMPLES / "valat.tbn")
             + documents("postmortem", EXAMPLES / "schafkopf.tbn", "-b", "7"))
    for document in found:
        of_kind(document, "postmortem")
    assert [d["command"] for d in found] == ["postmortem"] * 7
    assert found[0]["cards"] == [] and len(found[-1]["cards"]) == 32  # Kratzen board 1 has no Play section
    document = found[-1]
    assert_rejected(document, "postmortem")
    card = document["cards"][0]
    assert schema_errors({**document, "cards": [{**card, "grade": "brilliant"}]}, SCHEMA)
    assert schema_errors({**document, "cards": [{**card, "cost": -1}]}, SCHEMA)
    player = document["players"][0]
    assert schema_errors({**document, "players": [{**player, "grades": {"ok": 1}}]}, SCHEMA)


def test_analyse_json_from_a_record_and_from_a_hand():
    (mid_play,) = documents("analyse", EXAMPLES / "valat.tbn", "--seat", "1", "--samples", "4", "-j", "1")
    (hand,) = documents("analyse", "--game", "Kratzen", "--hand", "EO E9 SU SZ", "--contract", "Trump S", "--seat", "1",
                        "--known", "2:GA HA", "--samples", "4", "-j", "1")
    for document in (mid_play, hand):
        of_kind(document, "analyse")
        assert document["schema"] == "stich-result/1" and document["command"] == "analyse"
    assert len(mid_play["played"]) == 20 and hand["known"] == {"2": ["GA", "HA"]} and hand["openings"]
    # a record's analysis says which record it is; a hand given on the command line has none
    assert mid_play["record"]["board"] == "1" and mid_play["record"]["source"].endswith("valat.tbn")
    assert "record" not in hand
    assert schema_errors({**mid_play, "record": {"board": "1"}}, SCHEMA)
    assert_rejected(hand, "analyse")
    assert schema_errors({**hand, "win_probability": 1.5}, SCHEMA)
    assert schema_errors({**hand, "interval": [1.0]}, SCHEMA)
    assert schema_errors({**hand, "known": {"2": "GA HA"}}, SCHEMA)


def test_batch_lines(tmp_path, bad_file):
    out, bad_out = tmp_path / "out.jsonl", tmp_path / "bad.jsonl"
    run("batch", EXAMPLES / "kratzen.tbn", "--out", out, "-j", "1", "--cards")
    run("batch", bad_file, "--out", bad_out, "-j", "1", "--cards", code=1)
    lines = [json.loads(line) for path in (out, bad_out) for line in path.read_text(encoding="utf-8").splitlines()]
    assert schema_errors(lines, {"type": "array", "items": SCHEMA}) == []
    results = [of_kind(line, "batchResult") for line in lines if "error" not in line]
    errors = [of_kind(line, "batchError") for line in lines if "error" in line]
    assert len(results) == 7 and len(errors) == 2 and [e.get("board") for e in errors] == ["2", None]
    assert all("cards" in r and "nodes" not in r for result in results for r in result["results"])
    assert_rejected(results[0], "batchResult")
    assert_rejected(errors[0], "batchError")
    # a solve document is no batch line (no id), nor a batch line with timings
    assert schema_errors({key: value for key, value in results[0].items() if key != "id"}, SCHEMA)
    timed = {**results[0], "results": [{**r, "nodes": 1, "seconds": 0.0} for r in results[0]["results"]]}
    assert schema_errors(timed, SCHEMA)


def test_the_batch_line_schema_is_the_solve_schema_without_timings():
    """The batch definitions are copies (the validator has no ``allOf``/``unevaluatedProperties``): kept in step."""
    defs = SCHEMA["$defs"]
    line, solve = defs["batchResult"], defs["solve"]
    assert line["required"] == ["id", "key", "asked"] + solve["required"]
    assert {**line["properties"], "results": solve["properties"]["results"]} == {
        "id": line["properties"]["id"], "key": line["properties"]["key"], "asked": line["properties"]["asked"],
        **solve["properties"]}
    assert line["properties"]["results"]["items"] == {"$ref": "#/$defs/batchSolveResult"}
    timed, untimed = defs["result"], defs["batchSolveResult"]
    assert untimed["required"] == [name for name in timed["required"] if name not in ("nodes", "seconds")]
    assert untimed["properties"] == {k: v for k, v in timed["properties"].items() if k not in ("nodes", "seconds")}


def test_every_kind_of_document_is_in_the_top_level_one_of():
    kinds = {option["$ref"].removeprefix("#/$defs/") for option in SCHEMA["oneOf"]}
    assert kinds == {"solve", "checkDocument", "table", "bench", "benchRun", "score", "scoreUnfinished", "postmortem",
                     "unanswered", "failed", "analyse", "batchResult", "batchError", "batchSummary", "advice",
                     "cardAdvice", "match", "show", "tree"}


def test_an_unanswered_line_shares_its_answer_s_head_and_is_told_apart_from_every_answer():
    """A record stopped by --time-limit (``unanswered``) starts as its answer would, so a script reads its record
    and rules as it reads any line's; a document missing its answer's fields matches it and nothing else."""
    defs = SCHEMA["$defs"]
    shared = ("schema", "record", "game", "seats", "variant")
    assert {name: defs["unanswered"]["properties"][name] for name in shared} == {
        name: defs["solve"]["properties"][name] for name in shared}
    line = {"schema": "stich-result/1", "command": "solve", "record": {"source": "a.tbn", "line": 1, "board": "8",
            "event": None}, "game": "Kratzen", "seats": 3, "variant": {}, "stopped": "time limit",
            "error": "a.tbn:1: board 8: not answered: the time limit (0.001 s) ran out before the answer"}
    assert schema_errors(line, SCHEMA) == [] and schema_errors(line, defs["unanswered"]) == []
    assert schema_errors({**line, "stopped": "interrupt"}, SCHEMA) and schema_errors({**line, "results": []}, SCHEMA)


def test_json_md_names_every_field_of_the_schema():
    """A field added to the schema without a word in docs/json.md is a field nobody can read about."""
    import re

    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    missing = [f"{kind}.{name}" for kind, definition in SCHEMA["$defs"].items()
               for name in definition.get("properties", {})
               if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]
    assert missing == []


def test_every_field_json_md_names_is_a_field_of_the_schema() -> None:
    """The other way round from ``test_json_md_names_every_field_of_the_schema``: a field that json.md gives a row
    (``| `pot_change` | ...``) or lists in braces (``{seat, points, tricks}``) is one a document can hold, so that a
    script written from the page reads no field that is never there (a renamed field would leave its old name here)."""
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    named = {name for row in re.findall(r"^\| (`[^|]*`) \|", text, re.MULTILINE)
             for name in re.findall(r"`([a-z_]+)`", row)}
    named |= {name.strip() for listed in re.findall(r"\{([a-z_]+(?:, [a-z_]+)+(?:, \.\.\.)?)\}", text)
              for name in listed.split(",") if name.strip() != "..."}
    assert len(named) > 100
    assert sorted(named - schema_fields(SCHEMA)) == []


def test_the_docs_example_documents_are_valid_json_under_the_schema():
    """A document shown in the docs is one a program may copy: it parses, and the schema takes it, so an edit cannot
    leave it invalid unseen."""
    shown = [line for page in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
             for line in page.read_text(encoding="utf-8").splitlines() if line.startswith('{"schema":"stich-result/')]
    assert shown
    for line in shown:
        assert schema_errors(json.loads(line), SCHEMA) == []


@pytest.mark.parametrize("args", [
    ["deal", "--game", "Schafkopf", "-n", "300", "--seed", "1"],
    ["solve", str(EXAMPLES / "schafkopf.tbn"), "--cards"],
    ["solve", str(EXAMPLES / "schafkopf.tbn"), "--json"],
    ["--help"], ["solve", "--help"],  # rich points stdout at /dev/null and exits 1 when the help meets a closed pipe
])
def test_a_reader_closing_stdout_ends_the_command_quietly_with_the_sigpipe_code(args) -> None:
    """``stich ... | head``: no 'Broken pipe' message and not the bad-input exit code 1, but 141, what a command
    killed by SIGPIPE gives. The reader is gone before the command writes, so every write fails."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", *args],
                                 stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    finally:
        os.close(write_end)
    assert process.returncode == 141
    assert process.stderr == b""


@pytest.mark.parametrize("closed, args", [
    (1, ["solve", str(EXAMPLES / "kratzen.tbn"), "--json"]),  # an AttributeError traceback on None
    (1, ["table", str(EXAMPLES / "kratzen.tbn"), "--board", "1"]),  # wrote its table nowhere and exited 0
    (1, ["deal", "--game", "sk"]),
    (1, ["deal", "--game", "sk", "--out", "/dev/stdout"]),  # said as stdout too, not as a file it cannot write
    (1, ["--version"]),
    (1, ["match", "--game", "sk", "--bots", "random,random,random,random", "-n", "2", "-j", "1"]),
    (1, ["match", "--game", "sk", "--bots", "random,random,random,random", "-n", "2", "-j", "1", "--json"]),
    (0, ["solve", "-"]),  # "a deal file is read from a path or an open stream, not NoneType"
])
def test_a_standard_stream_closed_at_the_start_is_said_by_name(closed, args) -> None:
    """``stich ... >&-`` or ``<&-``: Python makes the stream None; using it is bad input, said with the stream's
    name (exit 1), not a traceback, a library's message about NoneType, or data written nowhere with exit 0. A
    command that does not use the stream is unaffected."""
    import os

    process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", *args],
                             stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120,
                             stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(closed))
    name = ("<stdin>", "<stdout>")[closed]
    assert process.returncode == 1
    assert process.stderr == f"stich: {name}: Bad file descriptor (it was closed when stich started)\n"


def test_a_standard_stream_closed_but_unused_is_no_matter() -> None:
    import os

    unused = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "solve",
                             str(EXAMPLES / "kratzen.tbn"), "--board", "1", "--pot", "4"], capture_output=True,
                            text=True, cwd=ROOT, timeout=120, preexec_fn=lambda: os.close(0))
    assert unused.returncode == 0 and "Kratzen" in unused.stdout and not unused.stderr


def test_check_of_a_finished_deal_says_missed_not_who_can_stop_it() -> None:
    """Nothing is left to force or stop once every card is played: a bonus that did not happen was missed."""
    result = runner.invoke(app, ["check", str(EXAMPLES / "schafkopf.tbn"), "--board", "7"])
    assert result.exit_code == 0, result.stderr
    assert "the deal is over" in result.stdout
    assert "missed" in result.stdout and "can stop it" not in result.stdout and "can force it" not in result.stdout


# --- the table's size -----------------------------------------------------------------------------------------------


def test_table_mb_sizes_the_tables_of_every_searching_command(monkeypatch, tmp_path):
    monkeypatch.setenv("STICH_TABLE_MB", "64")
    (document,) = documents("bench", "--game", "kratzen", "-n", "1", "--time-limit", "0", "--table-mb", "2")
    assert document["table_allocated_bytes"] == 2 << 20
    # passed as an argument: the environment and the library's shared engine are left as they were
    assert os.environ["STICH_TABLE_MB"] == "64" and solver.search.engine.default_solver().table_bytes == 64 << 20
    made = []
    real = solver.search.engine.EngineSolver.__init__

    def recording(self, tt_megabytes=None, **switches):
        made.append(tt_megabytes)
        real(self, tt_megabytes, **switches)

    monkeypatch.setattr(solver.search.engine.EngineSolver, "__init__", recording)
    for command in ("solve", "check", "postmortem"):
        made.clear()
        run(command, EXAMPLES / "valat.tbn", "--table-mb", "2")
        assert made == [2], command  # one engine of that size, made by the command and handed down
    # the settlements of table and score --dd are searched by an engine of that size too
    settled = []
    real_settlement = solver.search.settle.SettlementEngine.__init__

    def recording_settlement(self, tt_megabytes=None, **threads):
        settled.append((tt_megabytes, self))
        real_settlement(self, tt_megabytes, **threads)

    monkeypatch.setattr(solver.search.settle.SettlementEngine, "__init__", recording_settlement)
    for command in (["table"], ["score", "--dd"]):
        made.clear()
        settled.clear()
        run(*command, EXAMPLES / "schafkopf.tbn", "-b", "1", "--table-mb", "2")
        assert made == [2] and [size for size, _ in settled] == [2], command
        assert settled[0][1].nodes > 0, command  # and it is the one that searched them
        run(*command, EXAMPLES / "schafkopf.tbn", "-b", "1", "--threads", "1")  # and searched on --threads's
        assert settled[-1][1].threads == 1, command
    # batch and analyse hand the size to their workers as an argument (here the one worker is this process)
    made.clear()
    run("batch", EXAMPLES / "valat.tbn", "--out", tmp_path / "b.jsonl", "-j", "1", "--table-mb", "2")
    run("analyse", EXAMPLES / "valat.tbn", "--seat", "1", "-n", "2", "-j", "1", "--table-mb", "2")
    assert made and set(made) == {2}
    assert os.environ["STICH_TABLE_MB"] == "64"
    for command in ("solve", "check", "table", "score", "postmortem", "tree", "analyse", "batch"):
        assert "--table-mb" in run(command, "--help").stdout, command


def test_threads_choose_the_cores_of_every_question_and_change_no_answer(tmp_path):
    answers = {}
    for threads in ("1", "2"):
        answers[threads] = documents("solve", EXAMPLES / "zwanzigerrufen.tbn", "--cards", "--threads", threads)
        for document in answers[threads]:
            for result in document["results"]:
                result.pop("seconds")
    assert answers["1"] == answers["2"]
    trees = {}
    for threads in ("1", "2"):
        out = tmp_path / f"tree-{threads}.json"
        run("tree", EXAMPLES / "schafkopf.tbn", "--depth", "2", "--out", out, "--threads", threads)
        trees[threads] = json.loads(out.read_text())
    assert trees["1"] == trees["2"]  # the tree's values on any number of threads
    for command in ("solve", "check", "table", "score", "postmortem", "tree", "bench"):
        assert "--threads" in run(command, "--help").stdout, command
    assert "--threads" in run("solve", EXAMPLES / "schafkopf.tbn", "--threads", "0", code=2).stderr


def test_threads_above_the_cores_are_said_once_on_stderr(monkeypatch):
    """--threads 8 on a 2-core machine searches on 2 threads (the engine's budget of cores caps it) and says that the
    flag is cut, as -j does; the answer is the same."""
    import solver.cli.options as options

    monkeypatch.setattr(options, "usable_cores", lambda: 1)
    note = ("stich: --threads 2: this process may use 1 core, so a question searches on at most 1 thread (more would "
            "only take turns on them)\n")
    for command in ("solve", "check"):
        capped = runner.invoke(app, [command, str(EXAMPLES / "valat.tbn"), "--threads", "2", "--json"])
        alone = runner.invoke(app, [command, str(EXAMPLES / "valat.tbn"), "--threads", "1", "--json"])
        assert (capped.exit_code, capped.stderr, alone.stderr) == (0, note, ""), command
        strip = re.compile(r'"(seconds|nodes)":\s*[0-9.e-]+')  # what the threads change; the rest is the answer
        assert strip.sub("", capped.stdout) == strip.sub("", alone.stdout), command


def test_table_size_from_the_environment(monkeypatch):
    monkeypatch.setenv("STICH_TABLE_MB", "4")  # (sizes are powers of two)
    assert solver.EngineSolver().table_bytes == 4 << 20 and solver.EngineSolver(8).table_bytes == 8 << 20
    assert solver.search.engine.default_solver().table_bytes == 4 << 20
    monkeypatch.setenv("STICH_TABLE_MB", "16")
    assert solver.search.engine.default_solver().table_bytes == 16 << 20  # made again at the new size


@pytest.mark.parametrize("name, value, expected", [
    ("STICH_TABLE_MB", "0", "STICH_TABLE_MB='0': expected a table size in MB from 1 to 4096"),
    ("STICH_TABLE_MB", "lots", "STICH_TABLE_MB='lots': expected a table size"),
    ("STICH_TABLE_MB", "\u00b2", "STICH_TABLE_MB='\u00b2': expected a table size"),  # a digit to isdigit, not to int
    ("STICH_IMPLEMENTATION", "fast", "STICH_IMPLEMENTATION='fast': expected engine (the default) or python"),
])
def test_a_bad_environment_is_said_once_before_any_record(monkeypatch, name, value, expected):
    monkeypatch.setenv(name, value)
    result = run("solve", EXAMPLES / "schafkopf.tbn", code=1)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"stich: {expected}")
    assert result.stdout == ""


def test_table_mb_bounds_and_the_cluster(tmp_path):
    assert "--table-mb" in run("solve", EXAMPLES / "schafkopf.tbn", "--table-mb", "0", code=2).stderr
    assert "--table-mb" in run("solve", EXAMPLES / "schafkopf.tbn", "--table-mb", "5000", code=2).stderr
    result = run("batch", EXAMPLES / "schafkopf.tbn", "--out", tmp_path / "out.jsonl", "--table-mb", "8",
                 "--scheduler", "tcp://127.0.0.1:8786", code=2)
    assert "--table-mb" in result.stderr and not (tmp_path / "out.jsonl").exists()


def test_objective_all_answers_what_arises_and_lists_the_rest(tmp_path):
    ending = tmp_path / "ending.tbn"
    ending.write_text('[Game "Zwanzigerrufen"]\n[Deal "1: TS T20 / T19 T18 / SK SQ / HK HQ"]\n'
                      '[Contract "Normal T19"]\n')
    (document,) = documents("solve", ending, "-o", "all")
    answered = [result["objective"] for result in document["results"]]
    assert answered == ["score", "points", "game", "absolut", "absolut_against", "valat", "valat_against"]
    assert [entry["objective"] for entry in document["not_applicable"]] == ["pagat_ultimo", "pagat_beaten",
                                                                            "mondfang"]
    assert "the Pagat is in no hand" in document["not_applicable"][0]["reason"]
    assert "Mondfang: does not arise" in run("solve", ending, "-o", "all").stdout
    assert "Pagat Ultimo is decided" in run("solve", ending, "-o", "pagat_ultimo", code=1).stderr  # by name: error
    (full,) = documents("solve", EXAMPLES / "valat.tbn", "-o", "all")
    assert "not_applicable" not in full


#: What the entry point must not import before a command needs it (start-up time, bench/README.md).
HEAVY = ("numpy", "networkx", "dask", "distributed", "pydantic", "rich.table", "rich.console", "solver.analysis",
         "solver.batch", "solver.sampling", "solver.benchmark", "solver.search.engine", "solver._engine",
         "solver.cli.solve", "solver.cli.render")


def _modules_after(*argv: str) -> set[str]:
    """The modules loaded by ``stich ARGV`` run through the installed entry point's function, in a fresh process."""
    code = ("import sys\nfrom solver.cli import main\nsys.argv = ['stich', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\nprint(' '.join(sorted(sys.modules)), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True,
                            cwd=ROOT)
    return set(result.stderr.split()[-1000:] and result.stderr.splitlines()[-1].split())


@pytest.mark.parametrize("argv", [("--version",), ("--help",), ()])
def test_the_entry_point_imports_no_command(argv):
    loaded = _modules_after(*argv)
    assert "solver.cli.main" in loaded
    assert [name for name in HEAVY if name in loaded] == []


def test_a_command_imports_only_what_it_uses():
    loaded = _modules_after("solve", str(EXAMPLES / "valat.tbn"))
    assert "solver.cli.solve" in loaded and "solver._engine" in loaded
    unused = ("numpy", "networkx", "dask", "pydantic", "solver.batch", "solver.sampling", "solver.benchmark",
              "solver.postmortem", "solver.plot", "solver.tree", "solver.cli.batch", "solver.cli.tree")
    assert [name for name in unused if name in loaded] == []
    assert "networkx" not in _modules_after("solve", "--help")


#: A first user's commands (README.md's first sections, and the other examples as a user tries them) and the command
#: module each runs: none loads what only other commands, a file of CSV given for records or the board's listener use
#: (bench/README.md, "The first minute").
FIRST_MINUTE = ((("show", "schafkopf.tbn"), "solver.cli.show"), (("solve", "valat.tbn"), "solver.cli.solve"),
                (("solve", "schafkopf.tbn", "--board", "1"), "solver.cli.solve"),
                (("check", "valat.tbn"), "solver.cli.check"), (("score", "kratzen.tbn"), "solver.cli.score"),
                (("score", "schafkopf.tbn"), "solver.cli.score"),
                (("score", "schafkopf.tbn", "--board", "7", "--dd"), "solver.cli.score"),
                (("check", "zwanzigerrufen.tbn", "--board", "1"), "solver.cli.check"))


@pytest.mark.parametrize("argv, command_module", FIRST_MINUTE, ids=[" ".join(argv) for argv, _ in FIRST_MINUTE])
def test_a_first_users_commands_load_nothing_they_do_not_use(argv, command_module):
    """Each command loads its own module and the .tbn reader, and none of what it does not use: reading records
    needs no :mod:`csv` (only a file of CSV given for records does, for its message), nor the board's socket."""
    name, example, *options = argv
    loaded = _modules_after(name, str(EXAMPLES / example), *options)
    assert command_module in loaded and "solver.formats.tbn" in loaded
    unused = ("csv", "socket", "numpy", "networkx", "matplotlib", "starlette", "uvicorn", "dask", "pydantic",
              "hypothesis", "multiprocessing", "solver.batch", "solver.sampling", "solver.benchmark",
              "solver.workers")
    assert [module for module in unused if module in loaded] == []


def test_reading_records_through_the_api_loads_no_difflib():
    """An app that reads a record loads only what reading needs: :mod:`difflib` is for the suggestions of a
    misspelt word, imported when a message makes one, not with a game's module."""
    code = ("import sys, solver\nboards = list(solver.read_positions('examples/kratzen.tbn'))\n"
            "print(len(boards), 'difflib' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    count, loaded = result.stdout.split()
    assert int(count) > 0 and loaded == "False"


#: What a command's work runs and its help does not: the worker pool (multiprocessing), the sampler and the bots, the
#: match, the benchmark, the batch and its checkpoints, the post-mortem's grading and plot, the game tree, rich's
#: progress bar, the browser's launcher, the board's listener (socket), the reading of a file of CSV given for records
#: (csv). A command imports them when it runs (bench/README.md, "--help start-up").
HELP_UNUSED = ("multiprocessing", "concurrent.futures.process", "rich.progress", "webbrowser", "solver.workers",
               "solver.checkpoint", "solver.batch", "solver.benchmark", "solver.sampling", "solver.advice",
               "solver.bots", "solver.match", "solver.postmortem", "solver.plot", "solver.intervals",
               "solver.tree", "socket", "csv")


@pytest.mark.parametrize("command", [name for name, _, _ in COMMANDS])
def test_every_commands_help_loads_none_of_its_work(command):
    """``stich analyse --help`` (and batch's, bench's, match's) loaded the worker pool's multiprocessing, the sampler
    and the bots only to print the help: each command's help, in a fresh process, loads its own module and none of
    what its work runs, nor another command's module (the third-party stacks: the next test)."""
    loaded = _modules_after(command, "--help")
    assert f"solver.cli.{command}" in loaded
    others = tuple(f"solver.cli.{name}" for name, _, _ in COMMANDS if name != command)
    assert [name for name in HELP_UNUSED + others if name in loaded] == []


@pytest.mark.parametrize("command", [name for name, _, _ in COMMANDS])
def test_completing_a_commands_options_loads_none_of_its_work(command):
    """Completing ``stich match --<Tab>`` runs the options' callbacks on their defaults: ``--plays-for``'s choices
    came from the bots, and so every Tab loaded the sampler and the worker pool. Completing any command's options
    loads none of what its work runs."""
    code = ("import sys\nfrom solver.cli import main\nsys.argv = ['stich']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    environment = {**os.environ, "_STICH_COMPLETE": "complete_bash", "COMP_WORDS": f"stich {command} --",
                   "COMP_CWORD": "2"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                            env=environment)
    assert "--help" in result.stdout.split()
    loaded = set(result.stderr.splitlines()[-1].split())
    assert [name for name in HELP_UNUSED if name in loaded] == []


#: Third-party stacks of a few commands alone (the graph, the plot, the board's web server, the cluster, a pool
#: worker's thread limits, typer >= 0.29's option conversion): no other command, nor any command's help, loads them.
STACKS = ("numpy", "matplotlib", "networkx", "starlette", "uvicorn", "dask", "distributed", "threadpoolctl",
          "pydantic")


def test_no_help_and_no_light_command_loads_a_stack_it_does_not_use():
    """Every command's ``--help`` and a first user's commands (show, solve, check, score, table, deal) run one after
    the other in one process, with the stacks each loaded said after it: none is, so none of them pays for one."""
    from solver.cli.main import COMMANDS

    runs = [[name, "--help"] for name, _, _ in COMMANDS] + [
        [name, str(EXAMPLES / "valat.tbn")] for name in ("show", "solve", "check", "table")] + [
        ["score", str(EXAMPLES / "settlement.tbn")], ["deal", "-g", "zr", "-n", "1"]]
    code = ("import contextlib, io, json, sys\nfrom solver.cli import main\nloaded = {}\n"
            f"for argv in {runs!r}:\n"
            "    sys.argv = ['stich', *argv]\n"
            "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "        main()\n"
            f"    loaded[' '.join(argv[:2])] = [name for name in {STACKS!r} if name in sys.modules]\n"
            "print(json.dumps(loaded), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded = json.loads(result.stderr.splitlines()[-1])
    assert len(loaded) == len(runs) and all(stacks == [] for stacks in loaded.values()), loaded


def test_import_solver_is_cheap_and_the_public_names_still_import():
    code = "import sys, solver; print(sorted(m for m in sys.modules if m.startswith('solver')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "['solver']"
    from solver import EngineSolver, Position, solve, strategy_tree  # noqa: F401 (PEP 562 names import as before)
    assert set(solver.__all__) <= set(dir(solver)) and solver.tree.__name__ == "solver.tree"
    assert set(solver.games.__all__) <= set(solver.__all__)  # the registry's names, as `from .games import *` gave
    for name in solver.__all__:
        assert getattr(solver, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        solver.no_such_name


def _solve_stdin_from_a_terminal(text: bytes) -> tuple[int, str, str]:
    """``stich solve -`` with a pty as its standard input, ``text`` typed into it and then Ctrl-D, as a person
    would (no echo: only the command's own output is read); stdout and stderr are pipes."""
    import pty
    import termios

    main_end, terminal = pty.openpty()
    attributes = termios.tcgetattr(terminal)
    attributes[3] &= ~termios.ECHO
    termios.tcsetattr(terminal, termios.TCSANOW, attributes)
    process = subprocess.Popen([sys.executable, "-c", "from solver.cli import main; main()", "solve", "-"],
                               cwd=ROOT, stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(terminal)
    os.write(main_end, text + b"\n\x04")
    try:
        out, err = process.communicate(timeout=120)
    finally:
        os.close(main_end)
    return process.returncode, out.decode(), err.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="a pty is POSIX")
def test_standard_input_from_a_terminal_is_said_and_from_a_pipe_is_not():
    """``stich solve -`` at a terminal says on stderr that it reads the terminal and how to end it (a wait without a
    word looks like a hang to a first user), and still reads what is typed. From a pipe nothing is said."""
    ending = b'[Game "Zwanzigerrufen"]\n[Deal "1: TS T20 / T19 T18 / SK SQ / HK HQ"]\n[Contract "Normal T19"]\n'
    code, out, err = _solve_stdin_from_a_terminal(ending)
    assert code == 0, err
    assert err == ("stich: reading the records from the terminal (standard input): end the input with Ctrl-D on a "
                   "line of its own\n")
    assert "Double-dummy value" in out and "<stdin>" in out
    piped = subprocess.run([sys.executable, "-c", "from solver.cli import main; main()", "solve", "-"], cwd=ROOT,
                           input=ending, capture_output=True)
    assert piped.returncode == 0 and b"Double-dummy value" in piped.stdout and b"terminal" not in piped.stderr


def _completed(words: str) -> tuple[list[str], set[str]]:
    """What bash's completion of ``words`` (the last one being completed) offers, as the script of ``stich
    --show-completion`` asks it of the command, and the command modules that loaded for it."""
    code = ("import sys\nfrom solver.cli import main\nsys.argv = ['stich']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('solver.cli.'))), file=sys.stderr)")
    environment = {**os.environ, "_STICH_COMPLETE": "complete_bash", "COMP_WORDS": words,
                   "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                            env=environment)
    return result.stdout.split(), set(result.stderr.splitlines()[-1].split())


def test_shell_completion_offers_the_commands_and_a_commands_options():
    """Tab completion is on (``--show-completion``), so that a first user need not type every command and option out:
    Bash's script is shown, and the commands and a command's options complete; completing the command's name loads no
    command's module (13 of them for ``stich <Tab>``), only the one being completed loads for its options."""
    from typer._completion_shared import _get_shell_name

    from solver.cli.main import COMMANDS

    shell = _get_shell_name()  # the shell this test runs under, as the command detects it (it runs in this process)
    if shell in ("bash", "zsh", "fish"):
        assert f"_STICH_COMPLETE=complete_{shell}" in run("--show-completion").stdout
    assert "--install-completion" in run("--help").stdout
    offered, loaded = _completed("stich ")
    assert offered == [name for name, _, _ in COMMANDS]
    assert not {f"solver.cli.{name}" for name, _, _ in COMMANDS} & loaded, loaded
    assert _completed("stich so")[0] == ["solve"]
    offered, loaded = _completed("stich solve --js")
    assert offered == ["--json"] and "solver.cli.solve" in loaded and "solver.cli.analyse" not in loaded


def test_shell_completion_offers_the_games_and_the_objectives():
    """``--game <Tab>`` and ``-o <Tab>`` offered nothing (a file name, by the script's default): the games' names
    and the objectives' complete, in every command that takes them."""
    for command in ("deal", "bench", "analyse", "match"):
        assert _completed(f"stich {command} --game ")[0] == ["Zwanzigerrufen", "Schafkopf", "Kratzen"]
    assert _completed("stich deal -g S")[0] == ["Schafkopf"]
    assert _completed("stich deal -g s")[0] == ["schafkopf"]  # a game's name is read in any case
    assert _completed("stich solve x.tbn -o val")[0] == ["valat", "valat_against"]
    assert _completed("stich batch x.tbn --objective val")[0] == ["valat", "valat_against"]
    assert _completed("stich tree x.tbn -o val")[0] == ["valat", "valat_against"]


def test_objective_completion_reads_what_is_typed_in_any_case_as_the_games_does():
    """``-o SCO<Tab>`` offers the objectives that start with the letters typed, in any case, as games complete: Typer
    offers only what starts with the letters typed, so the names are not matched against the letters lower-cased."""
    assert _completed("stich solve x.tbn -o SCO")[0] == ["SCOre"]
    assert _completed("stich batch x.tbn -o Val")[0] == ["Valat", "Valat_against"]
    assert _completed("stich deal -g SCH")[0] == ["SCHafkopf"]


def test_tree_objective_completion_offers_no_all():
    """``tree -o <Tab>`` offered ``all``, which tree refuses (a tree has one value on each node); solve offers it."""
    offered = _completed("stich tree x.tbn -o ")[0]
    assert "all" not in offered and "score" in offered and "points" in offered
    assert "all" in _completed("stich solve x.tbn -o ")[0]
    assert _completed("stich tree x.tbn -o al")[0] == []


def test_postmortem_and_match_complete_their_own_objectives():
    """``postmortem -o <Tab>`` and ``match -o <Tab>`` offered file names: they take score, points or (Kratzen)
    tricks, and offer those, in any case as typed."""
    for command in ("postmortem x.tbn -o", "match -g sk --bots random,random,random,random --plays-for"):
        assert _completed(f"stich {command} ")[0] == ["score", "points", "tricks"]
        assert _completed(f"stich {command} P")[0] == ["Points"]


def test_install_completion_in_a_home_it_cannot_write_says_so_in_one_line(tmp_path: Path):
    """``--install-completion`` writes the shell's start-up files under HOME; a HOME that cannot be made (here
    under a file, as ``HOME=/proc/nonexistent``) failed with an OSError traceback. It is one line naming the option
    and the folder, exit 1, and nothing is written. Run under bash (its parent), the shell the option detects."""
    blocking = tmp_path / "a-file"
    blocking.write_text("")
    environment = {**os.environ, "HOME": str(blocking / "home")}
    command = f"{sys.executable} -c 'from solver.cli.main import main; main()' --install-completion; exit $?"
    process = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, env=environment)
    assert process.returncode == 1, process.stderr
    assert process.stderr == f"stich: --install-completion: {blocking}/home: Not a directory\n"
    assert process.stdout == "" and blocking.read_text() == ""


def test_install_completion_says_where_it_installed_on_stderr(tmp_path: Path):
    """``--install-completion``'s lines (where the script went, when it takes effect) are messages, on stderr, not on
    stdout (where Typer itself prints them), which carries data alone; and the script is installed. Run under bash."""
    environment = {**os.environ, "HOME": str(tmp_path)}
    code = "import sys; sys.argv[0] = 'stich'; from solver.cli.main import main; main()"  # the script's name
    command = f"{sys.executable} -c \"{code}\" --install-completion; exit $?"
    process = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, env=environment)
    assert process.returncode == 0, process.stderr
    script = tmp_path / ".bash_completions" / "stich.sh"
    assert process.stdout == "" and f"bash completion installed in {script}\n" in process.stderr
    assert "_STICH_COMPLETE=complete_bash" in script.read_text()


@pytest.mark.parametrize("option", ["--install-completion", "--show-completion"])
def test_a_completion_option_refuses_a_shell_name(option: str, tmp_path: Path):
    """Typer's completion options are flags, so a word after them would be ignored (``--show-completion zsh`` printing
    bash's script, ``--install-completion nosuch`` installing bash's): such a word is a usage error (exit 2) that names
    it, and nothing is installed."""
    environment = {**os.environ, "HOME": str(tmp_path)}
    process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", option, "zsh"],
                             capture_output=True, text=True, cwd=ROOT, env=environment)
    assert process.returncode == 2 and process.stdout == ""
    assert f"Invalid value for '{option}': it takes no shell name or other word (got 'zsh')" in process.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--install-completion", "--show-completion"])
def test_a_completion_option_after_a_command_is_the_command_s_unknown_option(option: str, tmp_path: Path):
    """A completion option is the root's only before the command's name: ``stich solve --show-completion`` is solve's
    unknown option, said so, not the root's option given a word ("got 'solve'")."""
    environment = {**os.environ, "HOME": str(tmp_path)}
    process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "solve", option],
                             capture_output=True, text=True, cwd=ROOT, env=environment)
    assert process.returncode == 2 and process.stdout == ""
    assert f"No such option: {option}" in process.stderr and "got 'solve'" not in process.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("unbuffered", [True, False])
def test_the_version_to_a_full_device_is_said_in_one_line(unbuffered: bool):
    """``stich --version >/dev/full``: the line is flushed where main() says a failing output (one line, exit 1), not
    written as Python exits from a buffered stdout ("Exception ignored", exit 120)."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    if unbuffered:
        environment["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "--version"],
                                 stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=environment)
    assert (process.returncode, process.stderr) == (1, "stich: <stdout>: No space left on device\n")


@pytest.mark.parametrize("unbuffered", [True, False])
def test_the_version_to_a_closed_pipe_exits_as_a_closed_pipe_quietly(unbuffered: bool):
    """``stich --version`` into a pipe whose reader has gone: with a buffered stdout main()'s flush of the line
    raised BrokenPipeError outside Click, re-raised as a traceback with exit 1; it ends as every other command does
    on a closed pipe (--help, show, solve): exit 141 and nothing said."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    if unbuffered:
        environment["PYTHONUNBUFFERED"] = "1"
    read, write = os.pipe()
    os.close(read)  # the reader is gone before stich starts
    try:
        process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "--version"],
                                 stdout=write, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=environment)
    finally:
        os.close(write)
    assert (process.returncode, process.stderr) == (141, "")


def test_dash_h_is_help_as_dash_dash_help_is_for_the_root_and_every_command():
    """``-h`` is what a first try at help types: it prints the page ``--help`` prints, not ``No such option: -h`` (exit
    2). No command gives ``-h`` another meaning, so it is the same page everywhere."""
    from solver.cli.main import COMMANDS

    assert run("-h").stdout == run("--help").stdout
    assert "-h, --help" in run("--help").stdout
    for name, _, _ in COMMANDS:
        page = run(name, "-h").stdout
        assert page == run(name, "--help").stdout and page.startswith(f"Usage: stich {name} "), name
        assert "-h, --help" in page, name


def test_help_lists_every_command_with_its_line_and_no_type_names():
    from solver.cli.main import COMMANDS

    text = run("--help").stdout
    for name, _, line in COMMANDS:
        assert f"  {name} " in text and " ".join(line.split()[:4]) in " ".join(text.split()), name
    for name, _, _ in COMMANDS:
        page = run(name, "--help").stdout
        assert not re.search(r"<[A-Za-z]", page), name  # no <bool>, <Path>, <int>: a flag takes no value
    assert "Usage: stich board [OPTIONS] [FILE]..." in run("board", "--help").stdout  # any number of files


def test_no_option_shows_a_type_name_for_its_value():
    # --announce names what it takes, as every other option does (CARDS, SEAT, MB, NAME=VALUE), not TEXT, a type
    from solver.cli.main import COMMANDS

    for name, _, _ in COMMANDS:
        page = run(name, "--help").stdout
        assert not re.search(r"\b(TEXT|INTEGER|FLOAT|PATH|BOOLEAN)\b", page), name
    assert "--announce ANNOUNCEMENTS" in run("analyse", "--help").stdout


def test_a_word_in_capitals_in_a_command_s_help_is_one_of_its_metavars():
    """A help text's FILE, SECONDS or K is what the user types there, so it must be the metavar of one of the
    command's options or arguments: ``stich tree``'s help and its line in ``stich --help`` said "DEPTH cards", a
    name that appears nowhere else (its option is ``--depth K``). Names that are no metavar are listed here."""
    from solver.cli.main import COMMANDS

    from test_docs import command_of

    not_metavars = {"JSON", "GEXF", "DNS", "STICH_TABLE_MB", "PYTHONPATH", "SIGTERM"}
    wrong = []
    for name, _, line in COMMANDS:
        command = command_of(name)
        metavars = {word for param in command.params
                    for word in re.findall(r"[A-Z][A-Z_]+", param.metavar or param.name.upper())}
        texts = [line, command.help or "", *(getattr(param, "help", None) or "" for param in command.params)]
        wrong += [f"{name}: {word}" for text in texts for word in re.findall(r"\b[A-Z][A-Z_]{2,}\b", text)
                  if word not in metavars | not_metavars]
    assert wrong == []
    assert "game tree of --depth cards" in " ".join(run("--help").stdout.split())


def test_workers_says_the_same_in_every_command_that_takes_it():
    """``-j/--workers`` has one help text in every command (``analyse``, ``batch``, ``match``), which says the default
    (all cores), what ``-j 1`` does and that each worker searches on one thread. ``match -j 1`` plays in this process
    with the bots' own engines, which search on every core."""
    from test_docs import command_of

    shared = "each searching on one thread (default: every core this process may use; 1: in this process"
    for name, one in (("analyse", ")"), ("batch", ")"), ("match", ", each bot's searches on every core)")):
        option = next(param for param in command_of(name).params if "--workers" in param.opts)
        assert set(option.opts) == {"--workers", "-j"}, name
        assert shared + one in option.help, name
    from solver.bots import make_bot
    from solver.search.engine import usable_cores
    assert make_bot("sampling").engine.threads == usable_cores()
    assert "docs/json.md" in next(param.help for param in command_of("match").params if "--json" in param.opts)


def test_an_objective_o_refuses_is_a_usage_error_with_the_closest_names_in_every_command(tmp_path):
    """``-o`` is ``--objective`` in solve, batch, tree, postmortem and match, and a name it cannot take is a usage
    error naming the closest (cli.md's "Did you mean"): postmortem and match listed their choices without it, and
    tree took ``all``, which passed solve's check, only to refuse it on every record as an unknown objective
    (exit 1, the record blamed)."""
    out = tmp_path / "tree.json"
    for arguments in (("solve", EXAMPLES / "valat.tbn"), ("batch", EXAMPLES / "valat.tbn", "--out", out),
                      ("tree", EXAMPLES / "valat.tbn", "-d", "1", "--out", out),
                      ("postmortem", EXAMPLES / "valat.tbn"),
                      ("match", "-g", "sk", "--bots", "random,random,random,random", "-n", "1")):
        result = run(*arguments, "-o", "pionts", code=2)
        assert "did you mean 'points'?" in result.stderr, arguments[0]
        assert "'-o'" in result.stderr, arguments[0]
    assert "did you mean 'score'?" in run("match", "-g", "sk", "--bots", "random,random,random,random", "-o", "scroe",
                                          code=2).stderr
    refused = run("tree", EXAMPLES / "valat.tbn", "-d", "1", "--out", out, "-o", "all", code=2)
    assert "give one objective, not 'all'" in refused.stderr and not out.exists()
    misspelt = run("tree", EXAMPLES / "valat.tbn", "-d", "1", "--out", out, "-o", "alll", code=2).stderr
    misspelt = " ".join(misspelt.split())
    assert "'all'" not in misspelt and "is no game's objective" in misspelt  # never the name tree then refuses
    run("tree", EXAMPLES / "valat.tbn", "-d", "1", "--out", out, "-o", "valat")
    assert json.loads(out.read_text())["graph"]["objective"] == "valat"


def test_tree_time_limit_help_says_what_tree_does_past_it():
    """``tree`` writes one record's tree, and past ``--time-limit`` nothing (its docstring says so); its option's help
    says so, not the record commands' text, "the other records still are", which a tree has none of."""
    from test_docs import command_of

    limit = next(param for param in command_of("tree").params if "--time-limit" in param.opts)
    assert "no tree is written, said on stderr (exit 1; with --json, a line that says so)" in limit.help
    assert "other records" not in limit.help
    solve_limit = next(param for param in command_of("solve").params if "--time-limit" in param.opts)
    assert "the other records still are" in solve_limit.help


def test_a_misspelt_game_or_bot_is_answered_with_the_closest_name_in_every_command():
    """cli.md's "Did you mean": ``bench -g`` named its option '--game' alone where every other command says
    '--game' / '-g' (it checked the name after parsing, not as the option's callback), and ``match --bots`` listed the
    bots without the closest one."""
    for arguments in (("deal",), ("bench", "-n", "1"), ("match", "--bots", "random,random,random,random"),
                      ("analyse", "--hand", "EO", "--seat", "1", "--contract", "Wenz")):
        result = run(*arguments, "-g", "schafkopff", code=2)
        assert "Invalid value for '--game' / '-g': unknown game 'schafkopff'; did you mean 'Schafkopf'?" in \
            " ".join(result.stderr.split()), arguments[0]
    result = run("match", "-g", "sk", "--bots", "randm,random,random,random", code=2)
    assert ("unknown bot 'randm'; did you mean 'random'? (expected sampling, sampling:N, random, cheater or "
            "MODULE:ATTRIBUTE (a bot of your own))") in " ".join(result.stderr.split())
    result = run("match", "-g", "sk", "--bots", "samplng:6,random,random,random", code=2)  # the name before the count
    assert "unknown bot 'samplng:6'; did you mean 'sampling'?" in " ".join(result.stderr.split())


def test_analyse_and_batch_say_their_pool_options_alike():
    """Both run on the same pool, and their pool options mean the same, so their help says the same: analyse's
    --scheduler what to install, its --table-mb that its workers each have one table (not the one-process text), its
    --worker-memory that the table is sized to fit."""
    from test_docs import command_of

    def helps(name: str) -> dict[str, str]:
        return {param.opts[0]: param.help for param in command_of(name).params
                if param.opts[0] in ("--scheduler", "--worker-wait", "--verbose", "--table-mb", "--worker-memory")}

    analyse, batch = helps("analyse"), helps("batch")
    assert len(analyse) == 5 and set(analyse) == set(batch)
    for option in ("--scheduler", "--worker-wait", "--verbose", "--table-mb"):
        assert analyse[option] == batch[option], option
    assert "pip install 'stich[cluster]'" in analyse["--scheduler"] and "local worker" in analyse["--table-mb"]
    sized = "Cap each local worker process at MB megabytes (its table sized to fit"
    assert analyse["--worker-memory"].startswith(sized) and batch["--worker-memory"].startswith(sized)


def test_usage_names_a_required_file_as_file_not_in_braces():
    # Typer 0.28 writes a required argument {FILE} in the usage line of the help and of every usage error
    for name in ("solve", "check", "table", "score", "show", "postmortem", "tree", "batch"):
        assert f"Usage: stich {name} [OPTIONS] FILE\n" in run(name, "--help").stdout, name
    missing = run("solve", code=2)
    assert "Usage: stich solve [OPTIONS] FILE\n" in missing.stderr and "{" not in missing.stderr
    assert "Missing argument 'FILE'" in missing.stderr
    assert "Usage: stich analyse [OPTIONS] [FILE]\n" in run("analyse", "--help").stdout


def test_analyse_json_help_says_what_a_file_gives():
    """``analyse FILE --json`` prints a document per record (JSON Lines), which its help once denied ("one JSON
    document")."""
    page = " ".join(run("analyse", "--help").stdout.split())
    assert "one per record: JSON Lines, docs/json.md" in page
    lines = run("analyse", EXAMPLES / "kratzen.tbn", "--seat", "1", "-n", "2", "-j", "1", "--json").stdout.splitlines()
    assert len(lines) == len(list(solver.read_positions(EXAMPLES / "kratzen.tbn"))) > 1


def test_did_you_mean(tmp_path):
    assert "Did you mean 'solve'" in run("slove", code=2).stderr
    assert "did you mean 'points'?" in run("solve", EXAMPLES / "valat.tbn", "-o", "pionts", code=2).stderr
    result = run("solve", EXAMPLES / "valat.tbn", "--variant", "sagotrik=off", code=2)
    assert "unknown variant flag 'sagotrik'; did you mean 'sagotrick'?" in result.stderr
    record = (EXAMPLES / "valat.tbn").read_text().replace('[Deal "1: TS T21', '[Deal "1: TS T2l')
    (tmp_path / "typo.tbn").write_text(record)
    result = run("solve", tmp_path / "typo.tbn", code=1)
    assert "seat 1: not a card of the Zwanzigerrufen pack; did you mean 'T21'" in result.stderr
    result = run("analyse", "--game", "sk", "--hand", "EO GO HX", "--seat", "1", "--contract", "Wenz", code=2)
    assert "'HX' is not a card of the Schafkopf pack; did you mean 'HZ'" in result.stderr
    assert "did you mean 'Schafkopf'?" in run("deal", "-g", "schafkopff", code=2).stderr


def test_a_tarock_player_is_told_which_cards_the_pack_leaves_out(tmp_path):
    """RULES.md 1.1: no II and III, and the Glatze is the 10 in spades and clubs but the ace in hearts and
    diamonds; a player who writes T3, SA or H10 is told so, at the token, rather than offered look-alikes."""
    valat = (EXAMPLES / "valat.tbn").read_text()
    (tmp_path / "three.tbn").write_text(valat.replace('[Deal "1: TS T21', '[Deal "1: TS III'))
    result = run("show", tmp_path / "three.tbn", code=1)
    assert ("three.tbn:16:14: seat 1: not a card of the Zwanzigerrufen pack; tarocks II and III are left out of "
            "this pack (it has TS, T21 .. T4 and T1) (got 'III'") in result.stderr
    assert "Traceback" not in result.stderr
    deal = "1: TS SK / T20 SQ / T1 SG / T4 SJ"
    for wrong, note in [("sa", "the spade Glatze is S10 (or SG); the ace is the Glatze only in hearts and diamonds"),
                        ("D10", "the diamond Glatze is DA (or DG); the 10 is the Glatze only in spades and clubs")]:
        (tmp_path / "glatze.tbn").write_text(f'[Game "Zwanzigerrufen"]\n[Deal "{deal.replace("SG", wrong)}"]\n'
                                             '[Contract "Normal T19"]\n[Partner "2"]\n')
        assert f"not a card of the Zwanzigerrufen pack; {note} (got '{wrong}'" in run("show", tmp_path / "glatze.tbn",
                                                                                     code=1).stderr
    result = run("solve", EXAMPLES / "valat.tbn", "--play", "T2", code=2)  # a card of no game: the flag's error
    assert "Zwanzigerrufen: tarocks II and III are left out" in " ".join(result.stderr.replace("│", "").split())
    pack = solver.get_game("zwanzigerrufen").pack
    assert pack.parse("S10") == pack.parse("SG") == "SG" and pack.parse("HA") == "HG"  # the real Glatzen still read
    assert pickle.loads(pickle.dumps(pack)) is pack


def _options_of_every_command() -> dict[str, dict[str, Any]]:
    """Every visible option of every command, by its long name and then the command's name."""
    import click

    root = typer.main.get_command(app)
    context = click.Context(root)
    options: dict[str, dict[str, Any]] = {}
    for name, _, _ in COMMANDS:
        for param in root.get_command(context, name).params:
            if isinstance(param, typer.core.TyperOption) and not param.hidden:
                options.setdefault(max(param.opts, key=len), {})[name] = param
    return options


def test_a_flag_shared_by_commands_has_one_short_form_and_reads_the_same():
    """A flag that several commands take means one thing in all of them (cli/options.py): the same short form, one
    long option per short form, and the same help where the meaning is the same. The differences are the meaning's
    own: -n counts what the command makes many of (deal, bench and match: deals; analyse: sample deals), so match's
    --samples (a sampling bot's, a card) has none; match's -o/--objective is its --plays-for (what the bots
    maximise); analyse picks a FILE's records only where it is given one; a
    worker pool's table is each worker's."""
    options = _options_of_every_command()
    shorts: dict[str, set[str]] = {}
    several_forms = []
    for long_name, commands in options.items():
        forms = {tuple(sorted(o for o in param.opts if not o.startswith("--"))) for param in commands.values()}
        several_forms += [long_name] if len(forms) > 1 else []
        for short in set().union(*forms):
            shorts.setdefault(short, set()).add(long_name)
    assert several_forms == ["--samples"]  # match's -n is its --count
    assert {short: names for short, names in shorts.items() if len(names) > 1} == {
        "-n": {"--count", "--samples"}, "-o": {"--objective", "--plays-for"}}
    assert "--objective" in options["--plays-for"]["match"].opts
    assert options["--workers"].keys() == {"analyse", "batch", "match"}
    assert all(options["--workers"][name].opts == ["--workers", "-j"] for name in ("analyse", "batch", "match"))

    def texts(long_name: str, *leaving_out: str) -> set[str]:
        return {param.help for name, param in options[long_name].items() if name not in leaving_out}

    for long_name in ("--all-messages", "--play", "--scheduler", "--seats", "--verbose", "--worker-wait",
                      "--threads", "--record"):
        assert len(texts(long_name, "analyse")) == 1, long_name
    for long_name in ("--board", "--record"):  # analyse's, with FILE, as every command that reads records has it
        (shared,) = texts(long_name, "analyse", "board")
        assert options[long_name]["analyse"].help == f"With FILE: {shared[0].lower()}{shared[1:]}"
    assert texts("--table-mb", "analyse", "batch") == {options["--table-mb"]["solve"].help}
    assert options["--table-mb"]["analyse"].help == options["--table-mb"]["batch"].help  # each worker's tables
    (records_pot,) = texts("--pot", "deal", "analyse", "match")
    assert records_pot.startswith("The pot at the start of the deal, for a game paid from one")
    assert all(options["--pot"][name].help.startswith("The pot at the start of ") for name in ("deal", "analyse",
                                                                                             "match"))
    for name, param in options["--seed"].items():
        assert param.help.startswith("Seed of the ") and ": the same seed gives the same " in param.help, name
    for name, param in options["--workers"].items():
        assert param.help.startswith("Worker processes") and "each searching on one thread" in param.help, name


def test_one_meaning_per_flag_and_usage_errors_exit_2(tmp_path):
    # -o is --objective in every command that has it; the files written are --out (tree, deal, batch)
    for command in ("solve", "tree", "batch"):
        assert "-o, --objective" in run(command, "--help").stdout, command
    for command in ("deal", "tree", "batch"):
        page = run(command, "--help").stdout
        assert "--out" in page and "-o, --out" not in page, command
    graph = tmp_path / "t.json"
    run("tree", EXAMPLES / "valat.tbn", "-d", "1", "--out", graph, "-o", "valat")
    assert json.loads(graph.read_text())  # the valat tree, -o as --objective
    # wrong option values are usage errors (2), as docs/cli.md says, not bad input (1)
    assert "Invalid value for '--out'" in run("tree", EXAMPLES / "valat.tbn", "-d", "1", "--out", "t.txt",
                                              code=2).stderr
    assert "Invalid value for '--plot'" in run("postmortem", EXAMPLES / "valat.tbn", "--plot", "p.gif",
                                               code=2).stderr
    assert "no game's objective" in run("batch", EXAMPLES / "valat.tbn", "--out", tmp_path / "o.jsonl", "-o",
                                        "nonsense", code=2).stderr
    assert not (tmp_path / "o.jsonl").exists()
    # an objective some game has but this record's contract has not stays that record's bad input (1)
    assert "objective 'valat' belongs to Zwanzigerrufen, not to Kratzen" in run(
        "solve", EXAMPLES / "kratzen.tbn", "-b", "1", "-o", "valat", code=1).stderr


def _stich(*args: str, **environment: str) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, **environment})


def test_output_for_an_encoding_without_suit_signs_shows_letters():
    # PYTHONIOENCODING=ascii (or latin-1) stdout: the suit signs are written without a UnicodeEncodeError traceback
    for encoding in ("ascii", "latin-1"):
        process = _stich("solve", str(EXAMPLES / "valat.tbn"), "--cards", "--line", PYTHONIOENCODING=encoding)
        assert process.returncode == 0 and "Traceback" not in process.stderr, process.stderr
        assert "SK" in process.stdout or "HK" in process.stdout or "CK" in process.stdout or "DK" in process.stdout
    assert "\u2660" in _stich("solve", str(EXAMPLES / "valat.tbn"), "--line", PYTHONIOENCODING="utf-8").stdout or \
        "\u2665" in _stich("solve", str(EXAMPLES / "valat.tbn"), "--line", PYTHONIOENCODING="utf-8").stdout


def test_check_at_an_ascii_stdout_writes_the_skus_not_sk_question_mark():
    # the Mondfang's "the Sküs wins a trick" is not "Sk?s" at PYTHONIOENCODING=ascii: descriptions
    # and reasons go through the same ASCII fallbacks as the report's signs
    process = _stich("check", str(EXAMPLES / "valat.tbn"), PYTHONIOENCODING="ascii")
    assert process.returncode == 0 and "Traceback" not in process.stderr, process.stderr
    assert "the Skus wins a trick" in process.stdout and "Sk?s" not in process.stdout
    assert "the Sküs wins a trick" in _stich("check", str(EXAMPLES / "valat.tbn"), PYTHONIOENCODING="utf-8").stdout


def test_check_mondfang_row_for_the_side_that_holds_no_skus():
    # board 6: seat 1 holds the Sküs and his partner seat 2 the Mond; seat 3 plays the Pagat now and leads T6 to the
    # last trick, where TS wins over T21: a Mondfang 3+4 force, though neither of them holds the Sküs
    done = _stich("check", str(EXAMPLES / "zwanzigerrufen.tbn"), "--board", "6", "--json")
    assert done.returncode == 0, done.stderr
    (mondfang,) = [row for row in json.loads(done.stdout)["checks"] if row["bonus"] == "mondfang"]
    assert mondfang["side"] == [3, 4] and mondfang["can_force"] is True
    assert mondfang["description"] == "the Sküs wins a trick with the Mond in it, charged to the Mond's side (Mondfang)"


def test_output_in_the_c_locale_without_utf8_mode_does_not_fail():
    # LANG=C with PYTHONUTF8=0: stdout is ASCII with surrogateescape, not strict, and must still take Kratzen's table
    # (its seats' marks) and the advice (its ±) without a UnicodeEncodeError traceback
    c_locale = {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    hand = ("--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract", "all")
    for args in (("table", str(EXAMPLES / "kratzen.tbn"), "--board", "1"), ("analyse", *hand, "-n", "2", "-j", "1")):
        done = _stich(*args, **c_locale)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert done.stdout.isascii() and ("Trump E" in done.stdout or "Rufer G" in done.stdout)


def test_marks_and_plus_minus_fall_back_to_ascii_words_where_the_encoding_lacks_them():
    # ASCII, Latin-1 and cp1252 lack ✓ and ✗: Kratzen's table must not write both as "?", which loses whether a seat
    # met its target; ASCII lacks ± too, which the advice's cells must not write as "-0.25 ? 2.39"
    for encoding in ("ascii", "latin-1", "cp1252"):
        table = _stich("table", str(EXAMPLES / "kratzen.tbn"), "--board", "1", PYTHONIOENCODING=encoding)
        assert table.returncode == 0, table.stderr
        assert "2/2 yes" in table.stdout and "0/1 no" in table.stdout and " ?" not in table.stdout
    hand = ("--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract", "all")
    advice = _stich("analyse", *hand, "-n", "4", "--seed", "1", "-j", "1", PYTHONIOENCODING="ascii").stdout
    assert "-0.25 +/- 2.39" in advice and "units; +/- and brackets: 95% intervals" in advice and "?" not in advice
    latin = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "analyse", *hand, "-n",
                            "4", "--seed", "1", "-j", "1"], capture_output=True, cwd=ROOT, timeout=300,
                           env={**os.environ, "PYTHONIOENCODING": "latin-1"})
    assert "-0.25 \u00b1 2.39" in latin.stdout.decode("latin-1")  # Latin-1 has the ±


def test_force_color_in_a_pipe_colours_only():
    # rich takes FORCE_COLOR for a terminal: piped, the tables stay 110 wide (not 80), the notes unwrapped, and no
    # spinner's frames (cursor codes and all) go into a stderr redirected to a log
    plain = _stich("table", str(EXAMPLES / "schafkopf.tbn"), "--board", "2")
    forced = _stich("table", str(EXAMPLES / "schafkopf.tbn"), "--board", "2", FORCE_COLOR="1")
    assert forced.returncode == plain.returncode == 0, forced.stderr
    assert "\x1b[" in forced.stdout and forced.stderr == plain.stderr == ""
    assert re.sub(r"\x1b\[[0-9;]*m", "", forced.stdout) == plain.stdout


def test_a_cr_only_record_on_a_pipe_is_answered_when_its_blank_line_arrives():
    """A CR-only record written to standard input, the pipe kept open: solve answers it as soon as its blank line is
    there (the stream's readline would wait for an LF, which a CR-only file has none of, or for 400 KB or the end), and
    the CR LF record after it, whose CR and LF come in two writes, is read as one line end."""
    import select

    record = '[Game "Kratzen"]\r[Board "{n}"]\r[Deal "EA EK EO / GA GK GO / HA HK HO"]\r[Contract "Trump E"]\r\r'
    process = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()", "solve", "--pot", "4", "-"],
                               cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(record.format(n=7).encode())
    process.stdin.flush()
    said = b""
    while b"board 7 (<stdin>:1)" not in said:  # the pipe stays open: read what has come, waiting at most 60 s
        assert select.select([process.stdout], [], [], 60)[0], said
        piece = os.read(process.stdout.fileno(), 65536)
        assert piece, said
        said += piece
    crlf = record.format(n=8).replace("\r", "\r\n")
    process.stdin.write(crlf[:-1].encode())
    process.stdin.flush()
    process.stdin.write(b"\n")
    process.stdin.close()
    rest = process.stdout.read()
    assert process.wait(60) == 0, process.stderr.read()
    assert b"board 8 (<stdin>:6)" in rest and process.stderr.read() == b""


def _solved_piece_by_piece(pieces: list[tuple[str, bytes]]) -> tuple[bytes, int]:
    """``stich solve --json -`` on a pipe kept open, written piece by piece: each piece only once what it is waited
    for (``wanted``) has been printed, so that no answer waits for the input after it. What it printed, and its exit
    code once the pipe is closed."""
    import select

    process = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()", "solve", "--json", "-"],
                               cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    said = b""
    for written, wanted in pieces:
        process.stdin.write(written.encode())
        process.stdin.flush()
        while wanted not in said:  # the pipe stays open: read what has come, waiting at most 60 s
            assert select.select([process.stdout], [], [], 60)[0], said
            piece = os.read(process.stdout.fileno(), 65536)
            assert piece, said
            said += piece
    process.stdin.close()
    rest = process.stdout.read()
    return said + rest, process.wait(60)


def test_a_cr_only_record_after_lf_ones_on_a_pipe_kept_open_is_answered_at_its_blank_line():
    """A bot writes LF records and then a CR-only one to solve's standard input and keeps the pipe open: the CR-only
    record is answered as soon as its blank line is there (the reader, reading to LFs since the first line, waited for
    an LF or the pipe's end)."""
    record = '[Game "Kratzen"]{e}[Board "{n}"]{e}[Deal "EA EK EO / GA GK GO / HA HK HO"]{e}[Contract "Trump E"]{e}{e}'
    printed, code = _solved_piece_by_piece([(record.format(e="\n", n=1), b'"line":1,'),
                                            (record.format(e="\r", n=2), b'"line":6,')])
    assert code == 0
    answers = [json.loads(line) for line in printed.splitlines()]
    assert [(answer["record"]["line"], answer["record"]["board"]) for answer in answers] == [(1, "1"), (6, "2")]


def test_records_written_one_by_one_to_solve_are_each_answered_before_the_next_is_written():
    """A bot writes a '[' alone and two records to solve's standard input, each only once the one before is
    answered: the '[' is said as the tag it starts without waiting for the line after it (which could tell a JSON
    array), and each record is answered at its blank line."""
    record = '[Game "Kratzen"]\n[Board "{n}"]\n[Deal "EA EK EO / GA GK GO / HA HK HO"]\n[Contract "Trump E"]\n\n'
    printed, code = _solved_piece_by_piece([("[\n", b'"line":1,'), ("\n" + record.format(n=1), b'"line":3,'),
                                            (record.format(n=2), b'"line":8,')])
    assert code == 1
    answers = [json.loads(line) for line in printed.splitlines()]
    assert [(answer["record"]["line"], answer.get("error")) for answer in answers] == [
        (1, "<stdin>:1:2: empty tag name (expected a tag name (letters, digits, '_'))"), (3, None), (8, None)]


def _bad_inputs_between_two_good_records(tmp_path: Path) -> tuple[Path, list[str]]:
    """A file of the bad records users make, between two good ones (Schafkopf's board 7, played to the end, as
    boards 7 and 8): a tag repeated, Windows-1252 bytes in a comment, a block of binary bytes, a line of 300,000
    characters, a UTF-16 record. Returned with the messages each command must say of them, in order."""
    good = next(block for block in EXAMPLES.joinpath("schafkopf.tbn").read_text().split("\n\n")
                if '[Board "7"]' in block).strip() + "\n"
    repeated = good.replace('[Board "7"]', '[Board "2"]\n[board "3"]')
    cp1252 = good.replace('[Board "7"]', '[Board "4"]').encode().replace(b"winning trick", b"na\xefve trick")
    binary = bytes(range(128, 256)) * 8 + b"\n"
    huge = "% " + "x" * 300_000 + "\n" + good.replace('[Board "7"]', '[Board "5"]')
    utf16 = "\ufeff".encode("utf-16-le") + good.replace('[Board "7"]', '[Board "6"]').encode("utf-16-le")
    last = good.replace('[Board "7"]', '[Board "8"]')
    path = tmp_path / "bad.tbn"
    path.write_bytes(b"\n".join([good.encode(), repeated.encode(), cp1252, binary, huge.encode(), utf16 + b"\n",
                                 last.encode()]))
    lines = path.read_bytes().split(b"\n")
    first_line = [number for number, line in enumerate(lines, 1) if line.startswith(b"% 7.")]
    huge_line = next(number for number, line in enumerate(lines, 1) if len(line) > 100_000)
    said = [f"{path}:{first_line[1] + 6}:1: duplicate tag board, first at line {first_line[1] + 5} (got 'board', "
            "expected each tag once per record)",
            f"{path}:{first_line[2] + 2}:8: invalid UTF-8 (byte ef) (expected UTF-8 text)",
            f"{path}:{huge_line - 2}:1: invalid UTF-8 (byte 80) (expected UTF-8 text)",
            f"{path}:{huge_line}:100001: line longer than 100000 characters (expected at most 100000 characters per "
            "line)",
            f"{path}:{huge_line + 22}:1: invalid UTF-8 (byte ff fe, a UTF-16 byte order mark: save the file as UTF-8)"
            " (expected UTF-8 text)"]
    return path, said


@pytest.mark.parametrize("command", ["solve", "check", "table", "postmortem", "score", "show"])
def test_the_bad_records_users_make_are_said_at_their_place_and_the_others_answered(tmp_path, command):
    """A repeated tag, a Windows-1252 byte in a comment, binary bytes, a huge line and a UTF-16 record among good
    records: every reading command says each at its line and column, once, without a traceback, answers the good records
    before and after them, and exits with 1; with --json each has a ``failed`` line in its place in every command, so
    that a script can tell which record failed."""
    path, said = _bad_inputs_between_two_good_records(tmp_path)
    result = run(command, path, "--json", code=1)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("stopped") for line in lines] == [None] + ["error"] * len(said) + [None]
    assert [line["error"] for line in lines[1:-1]] == said
    assert {line["command"] for line in lines} == {command}
    assert [schema_errors(line, SCHEMA) for line in lines] == [[]] * len(lines)
    answered = [line["record"] for line in lines if "stopped" not in line]
    assert [(record["board"], record["line"]) for record in answered] == [("7", 4), ("8", answered[1]["line"])]
    assert path.read_bytes().split(b"\n")[answered[1]["line"] - 1] == b'[Game "Schafkopf"]'
    assert result.stderr.splitlines() == [f"stich: {line}" for line in said]


@pytest.mark.parametrize(("command", "options", "kind"), [
    ("analyse", ("--seat", "1", "-n", "2", "-j", "1"), "analyse"),
    ("analyse", ("--seat", "1", "-n", "2", "-j", "1", "--cards"), "card-advice"),
    ("solve", (), "solve"), ("check", (), "check"), ("table", (), "table"), ("score", ("--dd",), "score"),
    ("show", (), "show"), ("postmortem", (), "postmortem")])
def test_a_record_that_failed_has_its_json_line_between_the_others_in_every_reading_command(tmp_path, command,
                                                                                           options, kind):
    """A contract the game does not know and a record too broken to read, between two good Kratzen records: every
    reading command's --json gives each its ``failed`` line in its place (four lines for four records, so that a script
    can tell which failed), named as its documents are (``analyse --cards`` writes ``card-advice``), saying what stderr
    says; exit code 1."""
    blocks = [block for block in (EXAMPLES / "kratzen.tbn").read_text().split("\n\n") if "[Board " in block]
    first, second = (block[block.index("[Game"):].strip() + "\n" for block in blocks[:2])
    bogus = first.replace('[Contract "Trump S"]', '[Contract "Bogus"]').replace('[Board "1"]', '[Board "7"]')
    path = tmp_path / "mixed.tbn"
    path.write_text("\n".join([first, bogus, '[Game "Kratzen"\n[Board "8"]\n', second]))
    result = run(command, path, *options, "--json", code=1)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [schema_errors(line, SCHEMA) for line in lines] == [[]] * 4
    assert [line["command"] for line in lines] == [kind] * 4
    assert [line.get("stopped") for line in lines] == [None, "error", "error", None]
    assert [line["record"]["board"] for line in lines] == ["1", "7", None, "2"]
    assert [line["record"]["line"] for line in lines] == [1, 9, 17, 20]
    assert "Bogus" in lines[1]["error"] and lines[2]["error"].startswith(f"{path}:17:")
    assert [f"stich: {line['error']}" for line in lines[1:3]] == result.stderr.splitlines()
    # --board 2: the record too broken to read keeps its line (it may be board 2), the bad board 7 has none
    chosen = [json.loads(line) for line in run(command, path, *options, "--json", "--board", "2", code=1)
              .stdout.splitlines()]
    assert [(line["record"]["board"], line.get("stopped")) for line in chosen] == [(None, "error"), ("2", None)]
    assert chosen[0] == lines[2]


def test_a_record_refused_for_another_games_variant_flag_or_play_card_has_the_options_refusal_as_its_error(
        tmp_path):
    """A ``--variant`` flag or ``--play`` card of another game, said once a game on stderr as the option's refusal,
    gives each record's ``failed`` line the option's refusal in stderr's words, for its record: ``--variant: <why> (the
    record at FILE:LINE, board N, not answered)``, as a ``--play`` card the position refuses is said; not the record's
    own error pointed at its ``[Game]`` tag, as if the file were wrong."""
    path = tmp_path / "mixed.tbn"
    path.write_text((EXAMPLES / "kratzen.tbn").read_text() + "\n" + (EXAMPLES / "schafkopf.tbn").read_text())
    result = run("solve", path, "--json", "--variant", "weli_also_bells=true", code=1)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    failed = [line for line in lines if "stopped" in line]
    assert [line["game"] for line in lines if "stopped" not in line] == ["Kratzen"] * 5 and len(failed) == 7
    (said,) = result.stderr.splitlines()
    bare = ("variant flag weli_also_bells is Kratzen's, not Schafkopf's (Schafkopf's flags: laufende_mode, "
            "runaway_count_at, solo_requires_plain_trump_card)")
    assert said == f"stich: --variant: {bare} (7 records of Schafkopf from {path}:{failed[0]['record']['line']} not " \
        "answered)"
    assert [line["error"] for line in failed] == [
        f"--variant: {bare} (the record at {path}:{line['record']['line']}, board {line['record']['board']}, not "
        "answered)" for line in failed]
    assert [schema_errors(line, SCHEMA) for line in lines] == [[]] * 12
    result = run("solve", path, "--json", "--play", "T1", code=1)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["stopped"] for line in lines] == ["error"] * 12
    kratzen, schafkopf = result.stderr.splitlines()
    for said, games in ((kratzen, lines[:5]), (schafkopf, lines[5:])):
        bare = said.removeprefix("stich: --play: ")[:said.rindex(" (") - len("stich: --play: ")]
        assert bare.startswith("card 1: 'T1' is not a card of the ") and "(expected a " in bare
        assert [line["error"] for line in games] == [
            f"--play: {bare} (the record at {path}:{line['record']['line']}, board {line['record']['board']}, not "
            "answered)" for line in games]


def test_batch_writes_the_bad_records_users_make_as_error_lines_at_their_place(tmp_path):
    path, said = _bad_inputs_between_two_good_records(tmp_path)
    out = tmp_path / "out.jsonl"
    run("batch", path, "--out", out, "-j", "1", code=1)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(line["error"] for line in lines if "error" in line) == sorted(said)
    assert sorted(line["id"].split("#")[1] for line in lines if "error" not in line) == ["7", "8"]


def test_a_board_asked_for_among_unreadable_records_is_not_said_to_be_missing_from_the_file(tmp_path):
    """``solve FILE -b 2`` of a file whose board 2 repeats a tag after its [Board]: that record is board 2, its error
    said as board 2's (its JSON line's board "2"), and no 'no record with [Board "2"]'; the records that broke before
    their [Board] are said too (they may be board 2). ``-b 9``: none of the records read is board 9, and the four
    that broke before their [Board] may be."""
    path, said = _bad_inputs_between_two_good_records(tmp_path)
    for command in (("solve",), ("show",)):
        result = run(*command, path, "-b", "2", code=1)
        assert result.stderr.splitlines() == [f"stich: {line}" for line in said]
    result = run("tree", "-d", "1", path, "-b", "2", code=1)
    assert result.stderr.splitlines() == [f"stich: {said[0]}"]
    lines = [json.loads(line) for line in run("solve", path, "-b", "2", "--json", code=1).stdout.splitlines()]
    assert [line["record"]["board"] for line in lines] == ["2", None, None, None, None]
    result = run("solve", path, "-b", "9", code=1)
    assert result.stderr.splitlines() == [f"stich: {line}" for line in said[1:]] + [
        f'stich: {path}: no record with [Board "9"] among those read (4 records could not be read, said above: it '
        "may be one of them; expected one of its boards: 7, 8)"]


def test_the_spinner_of_an_ascii_terminal_is_ascii():
    # rich's braille spinner on a terminal whose encoding is ASCII: stderr escapes what it lacks, and every frame of
    # the status line began with a literal \u280b
    import pty

    main_end, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", "from cli.main import main; main()", "table",
                                str(EXAMPLES / "schafkopf.tbn"), "--board", "2"], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=terminal, env={**os.environ, "PYTHONIOENCODING": "ascii", "TERM": "xterm"})
    os.close(terminal)
    shown = read_pty(main_end, 60)  # to the end: the pty closes when the command exits
    os.close(main_end)
    assert process.wait(60) == 0
    assert b"table of board 2" in shown  # the status line was shown
    assert b"\\u28" not in shown and shown.isascii(), shown[:300]


def test_glyphs_under_a_live_status_line_follow_the_terminals_encoding(monkeypatch):
    # a live status line puts rich's FileProxy in sys.stdout, whose encoding is None: the contract advice's status
    # line on a UTF-8 terminal wrote "+/-" for "±" (and a card's suit letter for its sign)
    import io

    from rich.console import Console
    from rich.file_proxy import FileProxy

    from solver.cli.render import glyph, signs_shown

    terminal = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", FileProxy(Console(file=io.StringIO()), terminal))
    assert glyph("\u00b1") == "\u00b1" and signs_shown()
    monkeypatch.setattr(sys, "stdout", FileProxy(Console(file=io.StringIO()), io.TextIOWrapper(io.BytesIO(),
                                                                                                encoding="ascii")))
    assert glyph("\u00b1") == "+/-" and not signs_shown()


def test_a_table_too_wide_for_the_terminal_loses_no_value():
    # rich cut cells with an ellipsis ('absolu...' for absolut and absolut_against alike) or squeezed a column away
    import io

    from rich.table import Table

    from solver.cli.render import stdout_console

    console = stdout_console()
    console.file = io.StringIO()
    for width in (30, 60, 200):
        console.width = width
        table = Table("objective", "for", "result", title="Double-dummy value")
        table.add_row("absolut_against", "3+4", "no")
        table.add_row("a_very_long_line_name_that_does_not_fit_anywhere " * 3, "1+2", "yes")
        console.print(table)
        assert console.width == width  # widened for the table only
    text = console.file.getvalue()
    assert "\u2026" not in text and "..." not in text
    assert text.count("absolut_against") == 3


def test_a_table_with_unwrapped_columns_keeps_its_wrapping_columns_at_80():
    # the contract advice's figures do not wrap where the table fits with them whole (130 columns), nor are its
    # "bonuses made" and "against" columns squeezed to a border's width and printed empty; at 80, where it cannot fit,
    # the other columns wrap, a figure with its interval stays whole, and still no column is squeezed to nothing
    hand = ("--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract", "all")
    for columns in ("130", "80"):
        done = _stich("analyse", *hand, "-n", "4", "--seed", "1", "-j", "1", COLUMNS=columns)
        assert done.returncode == 0, done.stderr
        assert "bonuses made" in done.stdout and "Laufende" in done.stdout and "Schneider" in done.stdout
        assert "\u2503 \u2503" not in done.stdout and "\u2502 \u2502" not in done.stdout  # no column of no width
        # whole at 80 too, not ``-0.25 \u00b1`` over ``2.39``; an interval cut at the most a Rufer pays is written
        # as its ends, whole as well
        assert "-0.25 \u00b1 2.39" in done.stdout and "+2.25 (-1.73 to +6.00)" in done.stdout


def test_a_table_with_room_for_its_longest_words_folds_none():
    # a too-wide table's room is not taken from its widest columns alike, below their longest word (rich's way):
    # piped at 110 the post-mortem of board 7 has room for each word of its column "Schneider against (handed over)"
    # whole, and folds none
    done = _stich("postmortem", str(EXAMPLES / "schafkopf.tbn"), "--board", "7")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\u2502 Schneider ") >= 4
    assert all(f" {word[:-1]} \u2502" not in done.stdout for word in ("Schneider", "(handed", "over)"))
    tables = [line for line in done.stdout.splitlines() if line.startswith(("\u2502", "\u250f", "\u2514"))]
    assert tables and max(len(line) for line in tables) <= 110


def test_environment_variables_are_read_only_by_commands_that_search():
    # a bad STICH_TABLE_MB fails no command that does not search (--help, deal), and --table-mb overrides it
    assert _stich("solve", "--help", STICH_TABLE_MB="abc").returncode == 0
    assert _stich("deal", "-g", "sk", STICH_TABLE_MB="abc").returncode == 0
    assert _stich("solve", str(EXAMPLES / "valat.tbn"), "--table-mb", "8", STICH_TABLE_MB="abc").returncode == 0
    bad = _stich("solve", str(EXAMPLES / "valat.tbn"), STICH_TABLE_MB="abc")
    assert bad.returncode == 1 and "STICH_TABLE_MB='abc'" in bad.stderr and bad.stdout == ""


def test_small_messages_and_dash_for_stdout(tmp_path):
    text = (EXAMPLES / "valat.tbn").read_text()
    result = runner.invoke(app, ["solve", "-", "--board", "9"], input=text)
    assert result.exit_code == 1 and 'stich: <stdin>: no record with [Board "9"]' in result.stderr
    assert run("deal", "-g", "sk", "--out", "-").stdout.startswith('[Game "Schafkopf"]')
    assert not Path("-").exists()
    bad = tmp_path / "k.tbn"
    bad.write_text('[Game "Kratzen"]\n[Deal "1: SA / SK"]\n[Contract "Trump S"]\n')
    assert "Kratzen deals have 3 to 6 hands" in run("solve", bad, code=1).stderr
    bad.write_text('[Game "Tarot"]\n[Deal "1: SA / SK"]\n[Contract "Trump S"]\n')
    assert run("solve", bad, code=1).stderr.count("Schafkopf") == 1  # the known games said once
    usage = run("analyse", "--game", "sk", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1", "--contract", "Rufer E",
                "--board", "3", code=2)
    assert "--board picks a record of a FILE" in usage.output
    empty = tmp_path / "empty.tbn"
    empty.write_text("")
    assert "written" not in run("batch", empty, "--out", tmp_path / "e.jsonl", code=1).stderr


def test_a_variant_without_a_settlement_keeps_the_rest_of_table_and_score(tmp_path):
    # card_bonus_basis=captured has no double-dummy settlement: `table` (its settlement column on by default) still
    # answers, and `score --dd` keeps the ordinary score
    flag = ("--variant", "card_bonus_basis=captured")
    table = run("table", EXAMPLES / "zwanzigerrufen.tbn", "--board", "1", *flag)
    assert "no settlement column" in table.stderr and "Normal" in table.stdout
    # the same for every record of the game: said once, with the count of records, not once a record
    twice = tmp_path / "twice.tbn"
    twice.write_text(2 * (EXAMPLES / "zwanzigerrufen.tbn").read_text())
    both = run("table", twice, "--board", "1", *flag)
    assert both.stderr.count("no settlement column") == 1 and both.stdout.count("Normal") == 2 * table.stdout.count(
        "Normal")
    assert both.stderr.endswith(f"(2 records of Zwanzigerrufen from {twice}:11 tabled without it)\n")
    score = run("score", ROOT / "tests" / "data" / "tie44_whole.tbn", "--dd", *flag)
    assert "no double-dummy settlement" in score.stderr and "Payments" in score.stdout


def test_messages_are_one_line_whatever_the_path(tmp_path):
    # a console that wraps at 80 columns when stderr is not a terminal would break a message with a long file path
    # over lines, where a grep of a log misses it
    deep = tmp_path / ("a-rather-long-directory-name-" * 3) / "tie44_whole.tbn"
    deep.parent.mkdir()
    deep.write_text((ROOT / "tests" / "data" / "tie44_whole.tbn").read_text())
    score = run("score", deep, "--dd", "--variant", "card_bonus_basis=captured")
    assert score.stderr.count("\n") == 1 and score.stderr.startswith("stich: no double-dummy settlement")
    assert score.stderr.endswith(f"(the Zwanzigerrufen record at {deep}:2 scored without it)\n")
    kratzen_pot = run("score", deep, "--pot", "3")
    assert kratzen_pot.stderr.count("\n") == 1 and "has no pot, so it is not used there" in kratzen_pot.stderr


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGHUP"])
def test_sigterm_stops_a_command_as_ctrl_c_does(tmp_path, signum):
    # SIGTERM (or SIGHUP: its terminal closed) must not kill analyse outright (exit -15, -1): it stops as Ctrl-C
    # does, with 130 and its pools stopped
    import os
    import signal
    import time

    process = subprocess.Popen([sys.executable, "-c", "from solver.cli.main import main; main()", "analyse", "--game",
                                "zr", "--hand", "T1 T10 T9 T8 T7 T6 SK SQ CK HK", "--seat", "1", "--contract",
                                "Normal", "-n", "2000", "-j", "1", "--checkpoint", str(tmp_path / "c.jsonl")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               env={k: v for k, v in os.environ.items() if k != "COLUMNS"},
                               preexec_fn=signals_as_a_shell_gives_them)
    # once its first line is written: the file is made a moment before, by the same first write's open
    journal, deadline = tmp_path / "c.jsonl", time.monotonic() + 120
    while not (journal.exists() and journal.read_bytes().count(b"\n")) and time.monotonic() < deadline:
        time.sleep(0.1)
    process.send_signal(getattr(signal, signum))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and "Traceback" not in err
    assert (tmp_path / "c.jsonl").read_text().count("\n") >= 1  # what was done is kept


def test_a_double_ctrl_c_stops_analyse_with_a_message_and_130_never_by_sigint_or_a_traceback():
    """Two Ctrl-C 20 ms apart on a terminal: the second does not cut the first's stop short, so the command does not die
    of SIGINT (-2) with no report and no word, nor print an "OSError: [Errno 9] Bad file descriptor" traceback (the
    pool's manager thread racing Python's exit). A single-contract analysis prints the report of the samples solved so
    far, said as such, not only how far it got."""
    code, text = ctrl_c_on_a_terminal(["analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU",
                                       "--seat", "1", "--contract", "Rufer E", "-n", "3000", "--seed", "1", "-j", "2"],
                                      lambda output: b" of 3,000 samples" in output, presses=2)  # solving
    assert code == 130, text[-1000:]
    assert "Traceback" not in text and "Bad file descriptor" not in text, text[-2000:]
    assert re.search(r"[\d,]+ of 3,000 samples \(seed 1\), stopped by the interrupt: the figures of these", text), \
        text[-1000:]
    assert "\nmean payment " in text and "best single opening card over all samples" in text, text[-1000:]


def test_a_double_ctrl_c_stops_batch_with_its_message_and_130(tmp_path):
    """The second Ctrl-C, in the middle of the first's stop, does not make batch's own handler raise its stop again: no
    KeyboardInterrupt traceback, nor death by SIGINT (-2), but batch's message and 130."""
    deals, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    deals.write_text(run("deal", "--game", "zwanzigerrufen", "--seed", "3", "-n", "200").stdout)
    code, text = ctrl_c_on_a_terminal(["batch", str(deals), "--out", str(out), "-j", "2"],
                                      lambda output: out.exists() and out.stat().st_size > 0, presses=2)
    assert code == 130, text[-1000:]
    assert "Traceback" not in text, text[-2000:]
    kept = out.read_text().count("\n")  # the whole lines in the file, which the stop counts
    assert (f"stich: batch: stopped by the interrupt (SIGINT); the {kept:,} line{'s' if kept > 1 else ''} written "
            f"so far {'are' if kept > 1 else 'is'} kept in {out}: rerun the command to resume") in text, text[-1000:]


def test_a_stopped_batch_counts_the_lines_its_output_keeps(tmp_path):
    """The stop says how many whole lines the output holds (a line the stop cut is none: a rerun trims it), one as
    one line, and nothing written where the file is empty or was never made."""
    from cli.batch import _kept_text

    out = tmp_path / "out.jsonl"
    assert _kept_text(out) == f"nothing was written to {out} yet: rerun the command to resume"
    out.write_text("")
    assert _kept_text(out) == f"nothing was written to {out} yet: rerun the command to resume"
    out.write_text('{"id":"a"}\n{"id":"b"')
    assert _kept_text(out) == f"the 1 line written so far is kept in {out}: rerun the command to resume"
    out.write_text('{"id":"a"}\n' * 1112)
    assert _kept_text(out) == f"the 1,112 lines written so far are kept in {out}: rerun the command to resume"


def test_a_double_ctrl_c_stops_the_board_without_a_traceback():
    """A second Ctrl-C, which uvicorn takes as a forced exit that would cancel the board's shutdown half-way with a
    CancelledError traceback, is ignored while the board stops. The Ctrl-Cs come once uvicorn answers a request (its own
    handlers in place), not at a fixed time after the startup message, when on a loaded machine uvicorn may still be
    starting."""
    import re
    import urllib.request

    def serving(output: bytes) -> bool:
        found = re.search(rb"(http://\S+/)", output)
        if not found or b"Ctrl-C stops it" not in output:
            return False
        try:
            with urllib.request.urlopen(found.group(1).decode() + "api/start", timeout=5) as answer:
                return answer.status == 200
        except OSError:
            return False

    code, text = ctrl_c_on_a_terminal(["board", str(EXAMPLES / "schafkopf.tbn"), "--no-open", "--port", "0"], serving,
                                      presses=2)
    assert code in (0, 130) and "Traceback" not in text and "CancelledError" not in text, text[-2000:]


def test_the_command_needs_no_click_package_of_its_own():
    # typer may vendor click: a fresh install may have typer without the click package, so stich imports no click
    code = ("import sys; sys.modules['click'] = None\n"
            "from solver.cli.main import main; sys.argv = ['stich', 'solve', sys.argv[1]]; main()")
    process = subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "valat.tbn")], capture_output=True,
                             text=True, cwd=ROOT, timeout=120)
    assert process.returncode == 0 and "Traceback" not in process.stderr, process.stderr


def test_analyse_of_several_records_checkpoints_each_and_resumes(tmp_path):
    # one --checkpoint holds every record's analysis: the second is no "another analysis" to be refused
    deals, checkpoint = tmp_path / "deals.tbn", tmp_path / "c.jsonl"
    run("deal", "--game", "schafkopf", "--contract", "Solo H", "--seed", "7", "-n", "3", "--out", deals)
    args = ("analyse", deals, "--seat", "2", "--samples", "4", "-j", "1", "--checkpoint", checkpoint)
    first = documents(*args)
    assert len(first) == 3 and all(document["samples"] == 4 for document in first)
    assert sum("stich-analysis" in line for line in checkpoint.read_text().splitlines()) == 3
    before = checkpoint.read_text()
    assert documents(*args) == first and checkpoint.read_text() == before  # all read back, nothing solved again


def test_a_checkpoint_that_cannot_be_used_is_said_once_for_a_file_of_records(tmp_path):
    """A checkpoint in use by another run, or no checkpoint, is refused for every record alike: analysing a FILE says
    the refusal once, not once a record (twenty lines, then a count); one line counts the records not tried, and a
    record answered before it stays answered."""
    not_a_checkpoint = tmp_path / "notes.txt"
    not_a_checkpoint.write_text("hello\n")
    records = sum(line.startswith("[Board ") for line in (EXAMPLES / "kratzen.tbn").read_text().splitlines())
    for cards in ((), ("--cards",)):
        refused = run("analyse", EXAMPLES / "kratzen.tbn", "--seat", "1", "-n", "2", "-j", "1", *cards,
                      "--checkpoint", not_a_checkpoint, code=1)
        assert refused.stdout == ""
        assert refused.stderr == (f"stich: {not_a_checkpoint}: not a stich checkpoint (its first line is no analysis "
                                  f"header); remove it or choose another file\nstich: {EXAMPLES / 'kratzen.tbn'}: "
                                  f"{records - 1} more records not answered: the file refused above would be refused "
                                  "for each\n")


def test_every_record_after_a_refused_checkpoint_has_a_failed_json_line(tmp_path):
    """After a refused ``--checkpoint`` the refused record and those after it, not tried, each have a ``failed`` line in
    its place, the refusal as its error, so that a script sees every record; the record too broken to read keeps its
    own."""
    not_a_checkpoint = tmp_path / "notes.txt"
    not_a_checkpoint.write_text("hello\n")
    path = tmp_path / "broken-first.tbn"
    path.write_text('[Game "Kratzen"\n\n' + (EXAMPLES / "kratzen.tbn").read_text())
    for cards, kind in (((), "analyse"), (("--cards",), "card-advice")):
        result = run("analyse", path, "--seat", "1", "-n", "2", "-j", "1", *cards, "--checkpoint", not_a_checkpoint,
                     "--json", code=1)
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        broken, refusal, untried = result.stderr.splitlines()
        assert broken.startswith(f"stich: {path}:1:16: missing ']'") and "4 more records not answered" in untried
        assert [line["record"]["board"] for line in lines] == [None, "1", "2", "3", "4", "5"]
        assert [line["error"] for line in lines] == [broken.removeprefix("stich: ")] + [
            refusal.removeprefix("stich: ")] * 5
        assert {line["command"] for line in lines} == {kind} and {line["stopped"] for line in lines} == {"error"}
        assert [schema_errors(line, SCHEMA["$defs"]["failed"]) for line in lines] == [[]] * 6


def test_a_checkpoint_line_of_one_record_that_is_broken_stops_only_that_record(tmp_path):
    """A checkpoint line whose sums are broken belongs to one record's analysis: only record 2 is refused, and records
    1, 3, 4 and 5 are answered as in the run that wrote the checkpoint, not stopped at it as by a refusal said once for
    the file (a checkpoint in use or not one), answering record 1 and saying "4 more records not answered"."""
    def answered(lines: list[dict]) -> list[dict]:
        return [{name: value for name, value in line.items() if name != "seconds"} for line in lines]

    for cards in ((), ("--cards",)):
        checkpoint = tmp_path / f"kratzen{len(cards)}.ckpt"
        args = ("analyse", EXAMPLES / "kratzen.tbn", "--seat", "1", "-n", "2", "-j", "1", *cards, "--checkpoint",
                checkpoint)
        first = documents(*args)
        lines = checkpoint.read_text().splitlines()
        keys = list(dict.fromkeys(json.loads(line)["key"] for line in lines))
        assert len(first) == len(keys) == 5
        broken = next(number for number, line in enumerate(lines) if json.loads(line)["key"] == keys[1]
                      and "sums" in json.loads(line))  # record 2's first line of sums
        entry = json.loads(lines[broken])
        entry["sums"] = {"n": "broken"}
        lines[broken] = json.dumps(entry)
        checkpoint.write_text("\n".join(lines) + "\n")
        again = run(*args, "--json", code=1)
        lines_again = [json.loads(line) for line in again.stdout.splitlines()]
        assert answered(lines_again[:1] + lines_again[2:]) == answered(first[:1] + first[2:])
        assert lines_again[1]["stopped"] == "error" and lines_again[1]["record"] == first[1]["record"]
        # the line named, as the file's other refusals are
        assert again.stderr.startswith(f"stich: {checkpoint}:{broken + 1}:1: this checkpoint line holds no sums of ")
        assert again.stderr == f"stich: {lines_again[1]['error']}\n"
        assert again.stderr.count("\n") == 1 and "not answered" not in again.stderr


_SECOND_LOCKER = ("import sys\nfrom solver.errors import StichError\nfrom solver.files import lock_beside\n"
                  "try:\n    lock_beside(sys.argv[1], 'stich probe').close()\nexcept StichError as error:\n"
                  "    print(error)\nelse:\n    print('free')\n")


@pytest.mark.parametrize("cards", [(), ("--cards",)])
def test_analyse_of_a_file_says_the_other_jobs_its_checkpoint_holds_once_at_its_first_record(tmp_path, cards):
    """Each record after the first finds those before it in the checkpoint: only the first says what else the file
    holds, so a run of a FILE says nothing of its own records, and a rerun with another seed says once that none is
    resumed."""
    checkpoint = tmp_path / "kratzen.ckpt"
    args = ["analyse", str(EXAMPLES / "kratzen.tbn"), "--seat", "1", "-n", "1", "-j", "1", *cards, "--checkpoint",
            str(checkpoint), "--json"]
    assert "not resumed" not in run(*args).stderr
    said = [line for line in run(*args, "-s", "2").stderr.splitlines() if "not resumed" in line]
    assert said == [f"stich: analyse: {checkpoint}: holds 5 other analyses, not resumed (their hand, contract, seed or "
                    "settings differ); this run starts afresh beside them, which stay in the file"]


@pytest.mark.parametrize("cards", [(), ("--cards",)])
def test_analyse_of_a_file_holds_its_checkpoint_for_the_whole_run(tmp_path, monkeypatch, cards):
    """The run holds the checkpoint's lock from its start to its end, as batch holds its output, not each record's
    journal taking and letting it go, which would let a second run take it between two records and both append to one
    file: another process finds it held at every record, a second ``stich analyse`` at the same time is refused with the
    holder's name, and the lock is free again once the run is over."""
    import solver.cli.analyse as command
    import solver.sampling

    checkpoint = tmp_path / "kratzen.ckpt"
    seen: list[str] = []
    second: list[subprocess.CompletedProcess] = []
    args = ["analyse", str(EXAMPLES / "kratzen.tbn"), "--seat", "1", "-n", "2", "-j", "1", *cards, "--checkpoint",
            str(checkpoint)]

    def probed(analyse):
        def each_record(*given, **options):
            seen.append(subprocess.run([sys.executable, "-c", _SECOND_LOCKER, str(checkpoint)], capture_output=True,
                                       text=True, timeout=120, check=True).stdout.strip())
            if len(seen) == 2:
                second.append(subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()",
                                              *args], capture_output=True, text=True, timeout=300))
            return analyse(*given, **options)
        return each_record

    # the command imports the sampler's analyse_position as it runs: patched where it lives
    owner, name = (command, "advise_cards") if cards else (solver.sampling, "analyse_position")
    monkeypatch.setattr(owner, name, probed(getattr(owner, name)))
    run(*args, "--json")
    held = (f"{checkpoint}: another stich analyse is writing this file (its lock {tmp_path}/.kratzen.ckpt.lock is "
            "held); wait for it to finish, or choose another file")
    assert seen == [held] * 5
    assert second[0].returncode == 1 and second[0].stdout == ""
    assert second[0].stderr == f"stich: {held}\n"
    assert subprocess.run([sys.executable, "-c", _SECOND_LOCKER, str(checkpoint)], capture_output=True, text=True,
                          timeout=120).stdout.strip() == "free"


@pytest.mark.parametrize("damage, column, fault", [
    (lambda line: b"garbage", 1, "expecting value, found 'garbage'"),
    (lambda line: line[:line.index(b'"sums"') + 6], None, "expecting ':' delimiter: the line ends"),
    (lambda line: line[:9] + b"\xe9" + line[9:], 10, "invalid UTF-8, byte e9"),
    (lambda line: b"[1, 2]", 1, "a JSON array, not an object"),
    (lambda line: b'{"span": [0, 1]}', 1, 'no "key"'),
    (lambda line: b'{"key": ["a"], "span": [0, 1]}', 1, 'its "key" is a JSON array, not a string'),
    (lambda line: b'{"key": 3.5, "span": [0, 1]}', 1, 'its "key" is a JSON number, not a string'),
    (lambda line: b"null", 1, "a JSON null, not an object"),
    (lambda line: b'"key"', 1, "a JSON string, not an object"),
])
def test_a_checkpoint_line_of_no_job_at_all_refuses_the_file_once(tmp_path, damage, column, fault):
    """A complete line that is no checkpoint line (not JSON, or no job's key: typed by hand, or a line cut short with
    lines after it) is read by every record's analysis alike: the file is refused once, at the line and column where
    it stops reading as one, with what was expected and the mend, and the rest counted, not said again record by
    record. The mend loses nothing but that line: with it removed, a rerun answers every record as the first run."""
    def answered(lines: list[dict]) -> list[dict]:
        return [{name: value for name, value in line.items() if name != "seconds"} for line in lines]

    checkpoint = tmp_path / "kratzen.ckpt"
    args = ("analyse", EXAMPLES / "kratzen.tbn", "--seat", "1", "-n", "2", "-j", "1", "--checkpoint", checkpoint)
    first = documents(*args)
    lines = checkpoint.read_bytes().splitlines()
    damaged = damage(lines[4])
    checkpoint.write_bytes(b"\n".join([*lines[:4], damaged, *lines[5:]]) + b"\n")
    again = run(*args, "--json", code=1)
    said = again.stderr.splitlines()
    # a failed line for every record, the refusal its error: a script sees each record it asked for
    assert [json.loads(line)["error"] for line in again.stdout.splitlines()] == [said[0].removeprefix("stich: ")] * 5
    column = column or len(damaged) + 1
    assert said[0] == (f"stich: {checkpoint}:5:{column}: not a line of a stich checkpoint ({fault}; "
                       'expected a JSON object naming its analysis by its "key", one a line as stich writes them); '
                       "remove the line (a rerun solves its samples again) or choose another file")
    assert len(said) == 2 and "4 more records not answered" in said[1]
    checkpoint.write_bytes(b"\n".join([*lines[:4], *lines[5:]]) + b"\n")
    assert answered(documents(*args)) == answered(first)


def test_a_torn_last_checkpoint_line_is_trimmed_and_its_samples_solved_again(tmp_path):
    """A kill while a line is written leaves its start as the file's last line, with no line break, or the zeros a
    lost write leaves: the rerun trims it without a word and answers every record as an uninterrupted run does."""
    def answered(lines: list[dict]) -> list[dict]:
        return [{name: value for name, value in line.items() if name != "seconds"} for line in lines]

    checkpoint = tmp_path / "kratzen.ckpt"
    args = ("analyse", EXAMPLES / "kratzen.tbn", "--seat", "1", "-n", "2", "-j", "1", "--checkpoint", checkpoint)
    first = documents(*args)
    whole = checkpoint.read_bytes()
    for torn in (whole[:-40], whole + b"\x00" * 300, whole[:-1]):
        checkpoint.write_bytes(torn)
        again = run(*args, "--json")
        assert answered([json.loads(line) for line in again.stdout.splitlines()]) == answered(first)
        assert again.stderr == "" and checkpoint.read_bytes().endswith(b"\n")


def test_a_checkpoint_that_cannot_be_used_is_named_not_the_records_contract(tmp_path):
    # analysing a FILE, a bad --checkpoint is said bare, as the hand form says it, not at the record's [Contract] tag
    # ('examples/kratzen.tbn:25:12: /tmp/x: not a stich checkpoint ...'), which is not what is wrong
    not_a_checkpoint, missing = tmp_path / "notes.txt", tmp_path / "no such folder" / "c.jsonl"
    not_a_checkpoint.write_text("hello\n")
    for cards in ((), ("--cards",)):
        refused = run("analyse", EXAMPLES / "kratzen.tbn", "-b", "2", "--seat", "1", "-n", "2", "-j", "1", *cards,
                      "--checkpoint", not_a_checkpoint, code=1)
        assert refused.stderr == (f"stich: {not_a_checkpoint}: not a stich checkpoint (its first line is no analysis "
                                  "header); remove it or choose another file\n")
        refused = run("analyse", EXAMPLES / "kratzen.tbn", "-b", "2", "--seat", "1", "-n", "2", "-j", "1", *cards,
                      "--checkpoint", missing, code=1)
        assert refused.stderr == (f"stich: {missing}: cannot be written: the folder {missing.parent} does not exist "
                                  "(make it, or choose another file)\n")


def test_analyse_options_that_do_not_fit_the_record_name_the_option(tmp_path):
    # --seat 5 on a 4-seat record is the option's error, said with the record it is refused for (not at the [Deal]
    # tag, which is not wrong); --known "²:T1" is a message, not a ValueError (str.isdigit is true for superscripts)
    for option in (("--seat", "5"), ("--seat", "1", "--known", "5:T1")):
        result = run("analyse", EXAMPLES / "valat.tbn", *option, "--samples", "2", "-j", "1", code=1)
        assert result.stderr == (f"stich: {option[-2]}: seat 5 is not a seat of this 4-seat deal (the record at "
                                 f"{EXAMPLES / 'valat.tbn'}:13, board 1, not answered)\n")
    # card advice for a seat it does not advise pointed at the record's [Contract]: it is --seat's error too
    kratzen = tmp_path / "k.tbn"
    kratzen.write_text('[Game "Kratzen"]\n[Seats "3"]\n[Board "4"]\n[Pot "12"]\n[Deal "1: EO E9 SU SZ / GA HA HU S7 / '
                       'EK G8 HO SK"]\n[Contract "Trump S"]\n[Declarer "1"]\n[Play "1"]\nE9\n*\n')
    for seat, reason in (("3", "card advice is for the seat to move, seat 2, not seat 3"),
                         ("4", "seat 4 is not a seat of this 3-seat deal"),
                         ("2", "card advice ranks the cards by the seat's share of the score, and in Kratzen only the "
                               "attacker's payment is searched (every seat plays for itself): stich analyse FILE "
                               "--seat 2 ranks seat 2's cards by its own tricks")):
        refused = run("analyse", kratzen, "--cards", "--seat", seat, "-n", "2", "-j", "1", code=1)
        assert refused.stderr == f"stich: --seat: {reason} (the record at {kratzen}:1, board 4, not answered)\n"
    bad = run("analyse", EXAMPLES / "valat.tbn", "--seat", "1", "--known", "²:T1", code=2)
    assert "is not SEAT:CARDS" in bad.stderr
    empty = run("analyse", EXAMPLES / "valat.tbn", "--seat", "1", "--known", "2: ", code=2)  # it did nothing
    assert "'2: ' names no cards of seat 2" in " ".join(empty.stderr.split())


def test_card_advice_names_the_known_option_for_the_known_cards():
    """A seat or card refused in --known is --known's error, not --seat's ("--seat: known cards for seat 5" for --known
    5:EO) nor the record's [Deal] tag's (a known card the pack lacks), for card advice and the analysis alike, with the
    record they were refused for; a card the pack lacks in the library's words ("known cards for seat 2")."""
    schafkopf = EXAMPLES / "schafkopf.tbn"
    for cards in ((), ("--cards",)):
        for known, reason in (("5:EO", "seat 5 is not a seat of this 4-seat deal"),
                              ("2:S6", "known cards for seat 2: 'S6' is not a card of the Schafkopf pack; did you "
                                       "mean 'SZ' or 'SU' or 'SO'?")):
            refused = run("analyse", schafkopf, "--board", "1", *cards, "--seat", "3", "--known", known, "-n", "2",
                          "-j", "1", code=1)
            assert refused.stdout == "" and refused.stderr == (
                f"stich: --known: {reason} (the record at {schafkopf}:10, board 1, not answered)\n")


def test_a_card_twice_in_the_options_is_a_usage_error_with_or_without_a_file():
    """The same card twice across --hand and every --known, for one seat or two, is a mistake in the options alone:
    exit 2 and the option named, whether the game is --game's or a FILE's record's."""
    schafkopf = EXAMPLES / "schafkopf.tbn"
    alone = ["analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1",
             "--contract", "Rufer G"]
    from_file = ["analyse", schafkopf, "--board", "1", "--seat", "2", "-n", "2", "-j", "1"]
    for command, known, said in (
            (alone, ["2:SA SA"], "SA appears twice"),
            (alone, ["2:SA", "3:SA"], "SA appears twice (for seats 2 and 3)"),
            (alone, ["2:EU"], "EU appears twice (and in --hand)"),
            (from_file, ["4:SK SK"], "SK appears twice"),
            (from_file, ["2:SA", "3:SA"], "SA appears twice (for seats 2 and 3)"),
            (from_file, ["2:SA", "2:SA"], "SA appears twice")):
        refused = run(*command, *(arg for cards in known for arg in ("--known", cards)), code=2)
        assert refused.stdout == "" and "Invalid value for '--known'" in refused.stderr, (known, refused.stderr)
        assert said in " ".join(refused.stderr.split()), (known, refused.stderr)


def test_known_cards_the_record_rules_out_are_the_known_options_error():
    """A known card in another hand, or of a suit its seat showed out of, is --known's error, said whole and in seconds
    (not a million shuffles, minutes, of card advice), not pointed at the record's [Deal] or [Contract] tag, which are
    not wrong."""
    schafkopf = EXAMPLES / "schafkopf.tbn"
    where = f" (the record at {schafkopf}:10, board 1, not answered)\n"
    for cards in ((), ("--cards",)):
        for known, reason in (("2:SA", "known cards for seat 2: SA is already in seat 3 (the analysed hand)"),
                              ("2:H8", "seat 2: H8 was played by seat 4")):
            refused = run("analyse", schafkopf, "--board", "1", *cards, "--seat", "3", "--known", known, "-n", "2",
                          "-j", "1", code=1)
            assert refused.stdout == "" and refused.stderr == f"stich: --known: {reason}{where}"
        # seat 2 played G7 and S7 to trumps led: it holds no trump, so not HA
        refused = run("analyse", schafkopf, "--board", "1", *cards, "--seat", "3", "--known", "2:HA", "-n", "2",
                      "-j", "1", code=1)
        assert refused.stdout == "" and refused.stderr.startswith(
            "stich: --known: no deal of the unseen cards found in 10,000 shuffles that suits Schafkopf Rufer G")
        assert "seat 2 may not play" in refused.stderr
        assert refused.stderr.endswith(f"such a deal may not exist, or be too rare to sample{where}")
    # cards the deal allows are still analysed
    assert run("analyse", schafkopf, "--board", "1", "--cards", "--seat", "3", "--known", "4:HA", "-n", "2", "-j",
               "1").stdout


def test_hostile_option_values_and_environments_give_messages_not_tracebacks(tmp_path):
    # found by fuzzing every option: each of these ended in a traceback (or wrote somewhere unexpected)
    kratzen = str(EXAMPLES / "kratzen.tbn")
    for args in (("bench", "-g", "kratzen", "-n", "1", "--limit", "inf"),
                 ("bench", "-g", "kratzen", "-n", "1", "--limit", "1e400"),
                 ("analyse", str(EXAMPLES / "valat.tbn"), "-n", "2", "-j", "1", "--seat", "1",
                  "--worker-memory", "8796093022208"),
                 ("batch", kratzen, "-j", "1", "--out", str(tmp_path / "b.jsonl"), "--chunk-size", "1" + "0" * 30),
                 ("batch", kratzen, "-j", "1", "--out", str(tmp_path / "b.jsonl"), "--worker-memory", "8796093022208"),
                 ("solve", kratzen, "--variant", ""),
                 ("analyse", str(EXAMPLES / "valat.tbn"), "--hand", "", "--seat", "1", "-n", "2"),
                 ("deal", "-g", "sk", "-c", "Solo H", "-n", "1", "--out", str(tmp_path / "out.tbn") + "/")):
        result = run(*args, code=2)
        assert "Invalid value" in result.stderr or "Usage" in result.stderr, args
    assert not (tmp_path / "out.tbn").exists()
    if os.path.exists("/dev/full"):  # a checkpoint that cannot be written is named (not "<stdout>")
        full = run("analyse", EXAMPLES / "valat.tbn", "--seat", "1", "-n", "2", "-j", "1", "--checkpoint", "/dev/full",
                   code=1)
        assert full.stderr.startswith("stich: /dev/full: No space left on device")
    # an environment rich would read with int() after str.isdigit(), and a stdout that lacks a file name's letters
    # (written as their ASCII reading, 'a' for 'ä')
    assert _stich("solve", kratzen, "--board", "1", COLUMNS="²", LINES="²").returncode == 0
    odd = tmp_path / "ä.tbn"
    odd.write_text((EXAMPLES / "kratzen.tbn").read_text())
    table = _stich("solve", str(odd), "--board", "1", PYTHONIOENCODING="ascii")
    assert table.returncode == 0 and "/a.tbn" in table.stdout and "Traceback" not in table.stderr
    document = json.loads(_stich("solve", str(odd), "--board", "1", "--json", PYTHONIOENCODING="ascii").stdout)
    assert document["record"]["source"].endswith("ä.tbn")  # JSON stays exact: \u00e4 escaped, not replaced


def test_a_named_pipe_is_read_once_by_the_commands_and_refused_by_batch_and_as_a_checkpoint(tmp_path):
    """A named pipe as FILE: each reading command answers its records (read once, as standard input is), while batch,
    which reads its input again to count and to resume (a second opening of the pipe would hang, and ``stich batch
    /dev/stdin`` on a pipe would find no records the count had read), refuses it at once, as is a checkpoint that is a
    pipe (read back and appended to: its opening would wait for a reader)."""
    import threading

    fifo = tmp_path / "deals.fifo"
    os.mkfifo(fifo)
    text = (EXAMPLES / "kratzen.tbn").read_bytes()

    def write() -> None:
        with open(fifo, "wb") as stream:
            stream.write(text)

    for command in (("solve",), ("show",), ("check",)):
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        process = _stich(*command, str(fifo), "--json")
        writer.join(60)
        assert process.returncode == 0, process.stderr
        assert [json.loads(line)["record"]["board"] for line in process.stdout.splitlines()] == list("12345")
    said = ("a pipe, not a regular file: batch reads its input more than once (to count what is left, and again on a "
            "rerun to resume), which a pipe gives only once; save the records to a file and run batch on it")
    out = tmp_path / "out.jsonl"
    piped = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "batch", "/dev/stdin",
                            "--out", str(out), "-j", "1"], input=text, capture_output=True, cwd=ROOT, timeout=300)
    assert (piped.returncode, piped.stderr.decode()) == (1, f"stich: /dev/stdin: {said}\n")
    refused = _stich("batch", str(fifo), "--out", str(out), "-j", "1")  # no writer: it must not open the pipe
    assert (refused.returncode, refused.stdout, refused.stderr) == (1, "", f"stich: {fifo}: {said}\n")
    assert not out.exists()
    checkpoint = _stich("analyse", str(EXAMPLES / "kratzen.tbn"), "--seat", "1", "-n", "2", "-j", "1",
                        "--checkpoint", str(fifo))
    assert (checkpoint.returncode, checkpoint.stdout) == (1, "")
    assert checkpoint.stderr.splitlines() == [
        f"stich: {fifo}: a pipe, not a regular file: a checkpoint is read back to resume and appended to, which a "
        "pipe cannot be; give a file's name",
        f"stich: {EXAMPLES / 'kratzen.tbn'}: 4 more records not answered: the file refused above would be refused for "
        "each"]


def test_batch_writes_to_a_pipe_through_dev_stdout():
    # docs/batch.md recommends --out /dev/stdout; into a pipe its real path is "pipe:[...]", whose lock file could
    # not be made
    process = _stich("batch", str(EXAMPLES / "kratzen.tbn"), "-j", "1", "--out", "/dev/stdout")
    assert process.returncode == 0, process.stderr
    assert len(process.stdout.splitlines()) == 5 and "5 written to stdout (5 solved, 0 errors), " in process.stderr


def test_batch_to_a_device_ends_without_an_already_done():
    # --out /dev/tty ended "0 already done": a device is a stream, which holds nothing done before the run
    process = _stich("batch", str(EXAMPLES / "kratzen.tbn"), "-j", "1", "--out", "/dev/null")
    assert process.returncode == 0, process.stderr
    last = process.stderr.splitlines()[-1]
    assert last.startswith("stich: batch: 5 written to /dev/null (5 solved, 0 errors), ") and "already done" not in last


def test_batch_to_a_named_pipe_writes_its_lines_there_and_ends_without_an_already_done(tmp_path):
    # a named pipe as --out is a stream, as stdout is: its lines written through, no lock, nothing done before
    import threading

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    read: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as stream:
            read.append(stream.read())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    process = _stich("batch", str(EXAMPLES / "kratzen.tbn"), "-j", "1", "--out", str(fifo))
    thread.join(60)
    assert process.returncode == 0, process.stderr
    assert [json.loads(line)["record"]["board"] for line in read[0].splitlines()] == list("12345")
    assert process.stderr.splitlines()[-1].startswith(f"stich: batch: 5 written to {fifo} (5 solved, 0 errors), ")
    assert "already done" not in process.stderr and sorted(path.name for path in tmp_path.iterdir()) == ["out.fifo"]


def _stich_match(*args: str) -> subprocess.CompletedProcess:
    """``stich match`` from this checkout's ``cli`` package (``solver.cli`` may be another checkout's when the
    package is installed in editable mode elsewhere), at the pipe width: os.environ, not the process's C environment,
    where readline may have put a COLUMNS back."""
    done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "match", "--game", "schafkopf",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    return done


def test_a_match_of_one_board_says_on_stdout_that_it_has_no_interval():
    # why the report's means have no interval is said on stdout, in the report, so a report kept in a file
    # (> result.txt) keeps it
    done = _stich_match("--bots", "random,random,random,random", "-n", "1", "--seed", "5", "-j", "1")
    assert "one board played: no interval" in done.stdout and done.stderr == ""


def test_match_intervals_are_over_boards_and_say_what_they_cannot_tell():
    """Four identical bots: the rotations are the same cards played alike, so the report's unit is the board; the
    bot's own row is 0 by construction and gets no interval. Without rotation the difference is not paired."""
    same = _stich_match("--bots", "random,random,random,random", "-n", "40", "--seed", "5")
    assert "random holds every seat: 0 by construction (zero-sum deals), no interval" in same.stdout
    # Kratzen's deals are not zero-sum between the seats (the pot takes and pays): only a pot of 0 fixes the mean
    kratzen = _stich_match("-g", "kratzen", "--bots", "random,random,random,random,random", "-n", "2", "-j", "1")
    assert "random holds every seat: 0 by construction (pot 0: every payment is 0), no interval" in kratzen.stdout
    assert "zero-sum" not in kratzen.stdout
    # one value a board: pooled over the 160 deals as if independent, the interval would leave out 0
    assert "declaring side: +0.75 (95%: -0.97 to +2.47) game units per deal" in same.stdout
    assert "95% intervals over 40 boards, one value a board (its mean over the rotations)" in same.stdout
    document = json.loads(_stich_match("--bots", "random,random,random,random", "-n", "40", "--seed", "5",
                                       "--json").stdout)
    assert document["bots"] == {"random": {"mean": 0.0, "interval": [None, None],
                                           "interval_note": "0 by construction", "count": 40, "seats": 640,
                                           "plays_for": None, "samples": None, "card_time": None}}
    assert document["declaring_side"] == {"mean": 0.75, "interval": [-0.9681, 2.4681], "interval_note": None,
                                          "count": 40, "deals": 160}
    assert schema_errors(document, SCHEMA) == []
    unpaired = _stich_match("--bots", "sampling:2,random,random,random", "-n", "3", "--seed", "3", "--no-rotate")
    assert re.search(r"^sampling:2 - random: .* per deal, not paired \(--no-rotate: each bot keeps its seat\)$",
                     unpaired.stdout, re.M), unpaired.stdout
    document = json.loads(_stich_match("--bots", "sampling:2,random,random,random", "-n", "3", "--seed", "3",
                                       "--no-rotate", "--json").stdout)
    assert document["difference"]["paired"] is False and document["difference"]["count"] == 3
    assert document["bots"]["sampling:2"]["seats"] == 3 and schema_errors(document, SCHEMA) == []


def test_a_match_whose_boards_are_all_alike_writes_no_interval_of_no_width_as_analyse_does():
    """Kratzen without a pot settles every deal at 0: the attacker's mean over 3 boards is written as analyse and advice
    write it, nulls and "all samples alike", not [0.0, 0.0] (a certainty the boards do not show); one board gets the
    note too."""
    def kratzen(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "match", "--game",
                               "kratzen", "--bots", "random,random,random", "--seed", "1", "-j", "1", *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=120, env=dict(os.environ))
        assert done.returncode == 0, done.stderr
        return done

    document = json.loads(kratzen("-n", "3", "--json").stdout)
    assert document["declaring_side"] == {"mean": 0.0, "interval": [None, None],
                                          "interval_note": "all samples alike", "count": 3, "deals": 9}
    assert document["bots"]["random"]["interval_note"] == "0 by construction"
    assert schema_errors(document, SCHEMA) == []
    assert "attacker seat 1: 0.00 (all 3 boards alike: no interval) chips per deal" in kratzen("-n", "3").stdout
    one = json.loads(kratzen("-n", "1", "--json").stdout)
    assert one["declaring_side"]["interval"] == [None, None]
    assert one["declaring_side"]["interval_note"] == "one sample" and schema_errors(one, SCHEMA) == []


def test_text_piped_on_is_never_wrapped() -> None:
    """A sentence of a report piped to a file or grep stays one line: the analyse headline broke mid-phrase at the
    pipe width ('... played double' / 'dummy')."""
    result = runner.invoke(app, ["analyse", "--game", "schafkopf", "--hand", "EU E8 E7 GK GO HA H9 SU", "--seat", "1",
                                 "--contract", "Rufer E", "-n", "4", "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.startswith("win: ") and line.endswith("each sample played double dummy") for line in lines)
    assert any(line.startswith("best single opening card") and ", mean card points " in line for line in lines)


def test_help_pages_name_kratzen_words_for_kratzen():
    """The help pages say Kratzen's words for Kratzen, which has an attacker and no sides: table's lists every trump
    suit for the record's attacker, tree's default objective is the attacker's tricks (or --seat's), and solve's summary
    says what each seat has taken."""
    def page(name: str) -> str:
        return " ".join(run(name, "--help").stdout.split())

    assert "every trump suit for the record's attacker" in page("table")
    assert "in Kratzen, which has none, the attacker's tricks, or --seat's" in page("tree")
    assert "what each side (Kratzen: each seat) has taken" in page("solve")


def test_check_says_why_kratzen_targets_cannot_all_be_met_with_four_seats_or_more():
    """With four seats or more the Kratzen targets need more tricks than the deal's four (2 + 1 + 1 + 1): "every target
    met together: no" says the sum, not a bare, foregone no; a three-seat deal, whose targets fit, keeps its searched
    answer."""
    last = {board: run("check", EXAMPLES / "kratzen.tbn", "--board", board).stdout.splitlines()[-1]
            for board in ("1", "2", "4", "5")}
    assert last["1"] == "every target met together, all seats helping: yes"
    assert last["2"] == ("every target met together, all seats helping: no (the targets add up to 5 tricks, the deal "
                         "has 4)")
    assert last["4"].endswith("no (the targets add up to 5 tricks, the deal has 4)")  # a Seven-Muss: 1 each
    assert last["5"].endswith("no (the targets add up to 7 tricks, the deal has 4)")  # six seats


@pytest.mark.parametrize("command", [["show"], ["solve"], ["check"], ["score"], ["table"], ["postmortem"],
                                     ["tree", "-d", "1"], ["analyse", "--seat", "2"]])
def test_a_record_number_past_what_a_file_can_hold_is_a_usage_error(command: list[str]) -> None:
    """``--record 99999999999999999999`` is a usage error, not a traceback (itertools.islice takes at most sys.maxsize).
    The bound is said when passed, not in the help, where it would read [1<=x<=9223372036854775807]."""
    result = run(*command, "--record", "99999999999999999999", EXAMPLES / "kratzen.tbn", code=2)
    assert ("99999999999999999999 is more records than a file can hold (at most 9,223,372,036,854,775,807)"
            in " ".join(result.stderr.split()))
    help_text = " ".join(run(command[0], "--help").stdout.split())
    assert "[x>=1]" in help_text and "9223372036854775807" not in help_text


def _records_with_one_systematic_error(path: Path, count: int, good_every: int) -> None:
    """``count`` Kratzen endings, all but every ``good_every``-th with a card its pack has not (XX, on line 3 of
    its record, column 25)."""
    record = '[Game "Kratzen"]\n[Board "{n}"]\n[Deal "EA EK EO / GA GK {card} / HA HK HO"]\n[Contract "Trump E"]\n\n'
    path.write_text("".join(record.format(n=n, card="GO" if n % good_every == 0 else "XX")
                            for n in range(1, count + 1)), encoding="utf-8")


def test_bad_record_messages_are_capped_with_one_closing_line_and_json_keeps_every_answer(tmp_path):
    """A 1,000-record file with one systematic error: the first 20 messages are said in full, then one line says
    how many more there were and how many records were answered, so stderr holds 21 lines, not a line a bad record;
    --json still writes every answer."""
    many = tmp_path / "many.tbn"
    _records_with_one_systematic_error(many, 1000, 10)
    for command in ("show", "solve", "check"):
        result = run(command, many, code=1)
        lines = result.stderr.splitlines()
        if command != "show":  # the answered records have no pot: said once after the rest
            assert lines.pop() == ("stich: pot 0: every line settles at 0 chips: give the record a [Pot] tag, or "
                                   f"--pot CHIPS (100 records of Kratzen from {many}:46)")
        assert len(lines) == 21, (command, lines[-3:])
        assert lines[0] == (f"stich: {many}:3:25: seat 2: not a card of the Kratzen pack (got 'XX', expected a Kratzen "
                            "card)")
        assert lines[19].startswith(f"stich: {many}:{5 * 21 + 3}:25: ")  # the 20th bad record (the 10th is good)
        assert lines[20] == (f"stich: {many}: and 880 more records not answered in full, not said one by one (the "
                             "first 20 are above); the other 100 records were answered")
    answers = documents("solve", many, code=1)  # every bad record's failed line too, past the 20 said
    assert [document["record"]["board"] for document in answers if "stopped" not in document] == [
        str(n) for n in range(10, 1001, 10)]
    assert len(answers) == 1000 and sum(document.get("stopped") == "error" for document in answers) == 900
    few = tmp_path / "few.tbn"  # 20 bad records: every one said, no closing line
    _records_with_one_systematic_error(few, 22, 11)
    lines = run("show", few, code=1).stderr.splitlines()
    assert len(lines) == 20 and all(line.endswith("(got 'XX', expected a Kratzen card)") for line in lines)
    none = tmp_path / "none.tbn"  # no record answered: said so
    _records_with_one_systematic_error(none, 25, 100)
    assert run("show", none, code=1).stderr.splitlines()[-1].endswith(
        "and 5 more records not answered in full, not said one by one (the first 20 are above); no other record was "
        "answered")


def test_all_messages_says_every_record_message_in_every_command_that_reads_records(tmp_path):
    """--all-messages lifts the cap of 20 with one meaning in every command that reads a file's records: each of
    the 30 bad records is said, in the file's order, and no closing line counts any; batch too, whose --out still
    keeps every error line."""
    bad = tmp_path / "bad.tbn"
    _records_with_one_systematic_error(bad, 30, 100)  # no good record: nothing is searched
    expected = [f"stich: {bad}:{5 * n + 3}:25: seat 2: not a card of the Kratzen pack (got 'XX', expected a Kratzen "
                "card)" for n in range(30)]
    for command in (["show"], ["solve"], ["check"], ["table"], ["postmortem"], ["score"], ["analyse", "--seat", "1"]):
        result = run(*command, bad, "--all-messages", code=1)
        assert result.stderr.splitlines() == expected, (command, result.stderr.splitlines()[-2:])
    assert len(run("solve", bad, code=1).stderr.splitlines()) == 21  # without it: 20 and the closing line
    out = tmp_path / "out.jsonl"
    result = run("batch", bad, "--out", out, "-j", "1", "--all-messages", code=1)
    said = [line for line in result.stderr.splitlines() if ": seat 2: not a card of the Kratzen pack" in line]
    assert said == expected and "not said one by one" not in result.stderr
    assert sum("error" in json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()) == 30
    hand = run("analyse", "--game", "Kratzen", "--hand", "EA EK", "--seat", "1", "--all-messages", code=2)
    assert "'--all-messages': lifts the cap on a FILE's record messages; without a FILE there is none" in hand.stderr


def test_the_first_message_of_a_new_kind_is_said_past_the_cap(tmp_path):
    """25 records with a bad contract, then one with XX in its [Deal], then good ones: the XX is said though it
    comes past the first 20, as the first message of its kind (its place, quoted tokens and numbers aside), so a
    different error is not hidden behind a systematic one; more of a kind already said are counted, and the closing
    line says how many were said past the first 20."""
    record = '[Game "Kratzen"]\n[Board "{n}"]\n[Deal "EA EK EO / GA GK {card} / HA HK HO"]\n[Contract "{c}"]\n\n'
    path = tmp_path / "kinds.tbn"
    path.write_text("".join(record.format(n=n, card="GO", c=f"Trump {'QR'[n % 2]}") for n in range(1, 26))
                    + record.format(n=26, card="XX", c="Trump E") + record.format(n=27, card="GO", c="Trump Q")
                    + record.format(n=28, card="YY", c="Trump E")
                    + "".join(record.format(n=n, card="GO", c="Trump E") for n in range(29, 32)), encoding="utf-8")
    lines = run("show", path, code=1).stderr.splitlines()
    assert len(lines) == 22 and all(": contract 'Trump " in line for line in lines[:20])
    assert lines[20] == (f"stich: {path}:128:25: seat 2: not a card of the Kratzen pack (got 'XX', expected a Kratzen "
                         "card)")
    assert lines[21] == (f"stich: {path}: and 7 more records not answered in full, not said one by one (the first 20 "
                         "are above, and 1 after them, the first of its kind); the other 3 records were answered")


def test_record_messages_keep_a_bounded_set_of_kinds(capsys):
    """Past the cap, a new kind is said until the kinds kept are full; then every message is only counted (messages
    of unforeseen shapes must not bring back a line a record). A kind given by the caller stands for the text's."""
    from cli.errors import RecordMessages
    from solver.errors import message_kind

    assert message_kind("stich: a.tbn:3:25: seat 2: got 'XX'", "a.tbn") == message_kind(
        "stich: a.tbn:80:2: seat 3: got \"Y'Y\"", "a.tbn")
    assert message_kind("stich: a.tbn:9: board 7b: stopped", "a.tbn") == message_kind(
        "stich: a.tbn:90: board 12: stopped", "a.tbn")
    said = RecordMessages("a.tbn", limit=1, kinds=3)
    for text in ["one 1", "one 2", "two", "three", "four", "two 5"]:
        said(text)
    said("five", kind="one 7")  # the caller's kind: one already said
    said.close()
    assert capsys.readouterr().err.splitlines() == [
        "one 1", "two", "three",
        "stich: a.tbn: and 4 more records not answered in full, not said one by one (the first 1 are above, and 2 "
        "after them, each the first of its kind); the other records were answered"]


def test_a_settlement_the_variant_cannot_have_is_said_once_a_game(tmp_path):
    """score --dd under card_bonus_basis=captured: "no double-dummy settlement" is the same for every record of
    the game, so it is said once a game and reason, after the records, as a refused --variant is."""
    whole = (ROOT / "tests" / "data" / "tie44_whole.tbn").read_text(encoding="utf-8")
    path = tmp_path / "many.tbn"
    path.write_text(whole + "".join("\n" + whole.split("\n", 1)[1] for _ in range(24)), encoding="utf-8")
    result = run("score", path, "--dd", "--variant", "card_bonus_basis=captured")
    assert result.stderr.splitlines() == [
        "stich: no double-dummy settlement: the double-dummy settlement does not support card_bonus_basis=captured "
        f"(Trull and 4 Kings would depend on every captured card) (25 records of Zwanzigerrufen from {path}:2 "
        "scored without it)"]
    assert result.stdout.count("Payments") == 25


def test_batch_caps_its_error_messages_and_keeps_every_error_line_in_its_output(tmp_path):
    """batch says its errors as the other commands do, 20 and a closing line, which says where every one is: an
    error line of --out, which a rerun tries again."""
    many, out = tmp_path / "many.tbn", tmp_path / "out.jsonl"
    _records_with_one_systematic_error(many, 200, 10)
    result = run("batch", many, "--out", out, "-j", "1", code=1)
    errors = [line for line in result.stderr.splitlines() if ": seat 2: not a card of the Kratzen pack" in line]
    assert len(errors) == 20
    assert (f"stich: {many}: and 160 more records not answered in full, not said one by one (the first 20 are "
            f"above); every one is an error line in {out}, which a rerun tries again") in result.stderr.splitlines()
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(written) == 200 and sum("error" in line for line in written) == 180


def test_play_given_unquoted_with_equals_says_how_to_quote_it():
    """``--play=HK T1`` leaves T1 an extra argument: it is said with the hint to quote the cards, not bare (a hint that
    matched ``--play HK`` alone)."""
    said = " ".join(run("solve", EXAMPLES / "valat.tbn", "--play=HK", "T1", code=2).stderr.split())
    assert "Got unexpected extra argument(s) (T1); --play takes its cards as one quoted string: --play \"HK T1\"" \
        in said, said


@pytest.mark.parametrize("args, said", [
    (["solve", "--play", "HK", "T1"],
     "T1 is a card, not a file; --play takes its cards as one quoted string: --play \"HK T1\""),
    (["solve", "--play=HK", "T1"],
     "T1 is a card, not a file; --play takes its cards as one quoted string: --play \"HK T1\""),
    (["analyse", "--game", "sk", "--hand", "EU", "E8", "--seat", "1", "-c", "Rufer G"],
     "E8 is a card, not a file; --hand takes its cards as one quoted string: --hand \"EU E8\""),
    (["analyse", "--game", "sk", "--hand", "EU E8", "--known", "2:SA", "SK", "--seat", "1"],
     "SK is a card, not a file; --known takes its cards as one quoted string: "
     "--known \"2:SA SK\""),
    (["analyse", "--game", "sk", "--hand", "EU E8", "--known", "2:SA", "3:SK", "--seat", "1"],
     "3:SK is a seat's cards, not a file; --known takes one seat's cards as one quoted "
     "string, repeated for each seat: --known \"2:SA\" --known \"3:SK\""),
])
def test_a_card_taken_for_the_file_says_how_to_quote_the_cards(args, said):
    """With no FILE, an unquoted list's second card is taken for it: a usage error says how to quote the cards, not
    ``stich: T1: No such file or directory`` (exit 1) or analyse's "give either FILE or --game" for a FILE nobody
    gave."""
    result = run(*args, code=2)
    assert f"Invalid value for 'FILE': {said}" in " ".join(result.stderr.split()), result.stderr
    assert result.stdout == ""


def test_a_missing_file_that_is_no_card_is_still_said_missing(tmp_path, monkeypatch):
    """Only a card in the FILE's place is taken for an unquoted list: a missing file of another name is said missing,
    and a file that exists under a card's name is read as the file it is."""
    assert "nofile: No such file or directory" in run("solve", "--play", "HK", "nofile", code=1).stderr
    named = tmp_path / "T1"
    named.write_text((EXAMPLES / "valat.tbn").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert "what if: HK" in run("solve", "--play", "HK", "T1").stdout


def test_known_and_batch_variant_helps_give_each_game_a_real_example():
    """analyse's --known help and batch's --variant help each name an example of every game's own card or flag that a
    player can copy, as --play's messages do, and each example is taken by its game."""
    from solver.games import GAMES
    known = " ".join(runner.invoke(app, ["analyse", "--help"], env={"COLUMNS": "200"}).stdout.split())
    variant = " ".join(runner.invoke(app, ["batch", "--help"], env={"COLUMNS": "200"}).stdout.split())
    for game in GAMES:
        cards = game.pack.example()
        assert f"'2:{cards}' in {game.name}" in known
        assert all(game.pack.lookup(card) is not None for card in cards.split())
        pair = re.search(rf"(\S+=\S+) in {game.name}\b", variant)
        assert pair is not None, variant
        name, value = pair.group(1).split("=")
        assert str(game.variant({name: value})) != str(game.variant())  # a real flag, set off its default


def test_every_non_ascii_character_has_a_readable_ascii_fallback():
    """Every character stdout's encoding lacks has a readable ASCII fallback, not only the Sküs ('Skus'), ±, ✓ and ✗
    ('?' otherwise: a file name's 'Spielä' as 'Spiel?'): one mechanism, ascii_fallback, for_stdout before a table is
    laid out and the streams' error handler for the rest, at PYTHONIOENCODING=ascii and in the C locale."""
    from solver.cli.errors import ascii_fallback
    assert [ascii_fallback(char) for char in "äöüÄÖÜßé"] == ["a", "o", "u", "A", "O", "U", "ss", "e"]
    assert [ascii_fallback(char) for char in "±✓✗→×…—"] == ["+/-", "yes", "no", "->", "x", "...", "--"]
    assert [ascii_fallback(char) for char in "─│┌┼━┃╇═║"] == ["-", "|", "+", "+", "-", "|", "+", "-", "|"]
    assert [ascii_fallback(char) for char in "╴╶╼╵╷╽╱╲╳"] == ["-", "-", "-", "|", "|", "|", "/", "\\", "X"]
    assert ascii_fallback("\u4e2d") == "?"  # no reading at all
    c_locale = {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "Spielä Größe.tbn"
        path.write_text((EXAMPLES / "valat.tbn").read_text(encoding="utf-8"), encoding="utf-8")
        done = _stich("solve", str(path), "--board", "1", PYTHONIOENCODING="ascii")
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert done.stdout.isascii() and "?" not in done.stdout and "Spiela Grosse.tbn" in done.stdout
        # the C locale reads the name's bytes as undecodable and writes them back as they came: the rest is ASCII
        done = _stich("check", str(EXAMPLES / "valat.tbn"), **c_locale)
        assert done.returncode == 0 and done.stdout.isascii() and "the Skus wins a trick" in done.stdout
        # stderr quotes what was typed: a letter escaped, as Python does (ä.tbn and a.tbn stay apart), a sign read
        said = _stich("solve", str(Path(folder) / "fehlt-ä.tbn"), PYTHONIOENCODING="ascii")
        assert said.returncode == 1 and "fehlt-\\xe4.tbn" in said.stderr and "?" not in said.stderr
        bad = Path(folder) / "bad.tbn"
        bad.write_text('[Game "Kratzen"]\n[Deal "EÄ EK EO / GA GK GO / HA HK HO"]\n', encoding="utf-8")
        said = _stich("solve", str(bad), PYTHONIOENCODING="ascii")
        assert said.returncode == 1 and "got 'E\\xc4'" in said.stderr and "'EA'" not in said.stderr, said.stderr


def test_from_start_answers_a_played_record_from_its_deals_start(tmp_path):
    """``--from-start`` answers a played record from its deal's start (could Valat have been forced?), the Play
    section still read and checked, and says so in the record object and the title; ``--play`` then plays from
    there."""
    played = EXAMPLES / "zwanzigerrufen.tbn"
    text = played.read_text(encoding="utf-8").split("% 7.")[1]
    record = "% 7." + text
    unplayed = tmp_path / "unplayed.tbn"
    unplayed.write_text(record.split("[Play")[0], encoding="utf-8")
    with_play = tmp_path / "played.tbn"
    with_play.write_text(record, encoding="utf-8")
    [start] = documents("check", with_play, "--from-start")
    [plain] = documents("check", unplayed)
    assert start["position"]["tricks_played"] == 0 and start["position"]["whole_deal"] is True
    assert start["record"]["from_start"] is True
    assert start["checks"] == plain["checks"] and start["score"] == plain["score"]
    assert {check["achieved"] for check in start["checks"] if check["bonus"] == "game"} == {0}
    [after] = documents("check", with_play)
    assert after["position"]["tricks_played"] == 6 and after["checks"] != start["checks"]
    assert "from_start" not in after["record"]
    assert ", from the deal's start" in run("check", with_play, "--from-start").stdout.splitlines()[0]
    [first_card] = documents("solve", with_play, "--from-start", "--play", "TS")
    assert first_card["position"]["trick"] == ["TS"] and first_card["record"]["play"] == ["TS"]
    assert ", from the deal's start, what if: TS" in run("solve", with_play, "--from-start", "--play", "TS").stdout
    broken = tmp_path / "broken.tbn"
    broken.write_text(record.replace("T15 SN", "T15 SQ"), encoding="utf-8")
    assert "seat 1 does not hold this card" in run("check", broken, "--from-start", code=1).stderr
