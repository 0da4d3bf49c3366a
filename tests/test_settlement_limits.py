"""Time limits and stop events on the double-dummy settlement: ``dd_settlement``, ``settlement_value`` and the
contract table take ``time_limit`` and ``stop`` as ``solve`` does, one deadline for every search of the call (the
settlement, its line, the points-optimal play, the settlement keeping its points; every row of a table), and raise
SearchStopped; ``stich score --dd`` and ``stich table`` take ``--time-limit``, and a record stopped by it is said on
stderr and not answered while the others still are (exit 1)."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

import solver
import solver.search.engine
from solver.analysis import contract_table, score_report, table_report
from solver.benchmark import SEEDS
from solver.cli.main import app
from solver.formats.tbn import format_record
from solver.search.boundary import seconds_text
from solver.search.engine import open_limits
from solver.search.settle import SettlementEngine
from solver.settlement import dd_settlement, settlement_value
from stopping_helpers import StopAtLook, stopped_from_another_thread
from test_cli import SCHEMA, schema_errors  # the validator of docs/stich-result.schema.json

pytestmark = pytest.mark.skipif(solver.search.engine.implementation() == "python",
                                reason="whole deals: the reference solver would take hours, and has no time limit")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def _record(board: int, contract: str) -> solver.Record:
    return solver.random_record("Zwanzigerrufen", SEEDS["Zwanzigerrufen"], board, contract=contract)


def _position(board: int, contract: str) -> solver.Position:
    return solver.position_from_record(_record(board, contract))


def _heavy() -> solver.Position:
    """A whole Zwanzigerrufen deal whose settlement takes about a second (some 5 million nodes)."""
    return _position(8, "Solo")


def _light() -> solver.Position:
    """A whole Zwanzigerrufen deal whose settlement takes some 30 ms."""
    return _position(8, "Normal")


# --- the library ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("limit, stopped", [
    # a microsecond may not be up before the first search starts; then it stops at the search's first look
    (dict(time_limit=1e-6), r"stopped before it (started: its time limit was up \(time_limit=1e-06 seconds\)|"
                            r"finished \(its time limit or stop event\))$"),
    (dict(time_limit=1e-9), r"stopped before it (started: its time limit was up \(time_limit=1e-09 seconds\)|"
                            r"finished \(its time limit or stop event\))$"),
    (dict(stop="set"), r"stopped before it started: its stop event was set$"),
])
def test_a_tiny_limit_or_a_set_stop_stops_the_settlement_of_a_whole_deal(limit, stopped) -> None:
    """Each call raises SearchStopped, saying why, where the answer takes a second's search."""
    if limit.get("stop") == "set":
        limit["stop"] = threading.Event()
        limit["stop"].set()
    position = _heavy()
    engine, points = SettlementEngine(8), solver.EngineSolver(8)
    with pytest.raises(solver.SearchStopped, match=stopped):
        dd_settlement(position, engine=engine, points_engine=points, **limit)
    with pytest.raises(solver.SearchStopped, match=stopped):
        settlement_value(position, engine=engine, **limit)
    with pytest.raises(solver.SearchStopped, match=stopped):
        score_report(position, dd=True, engine=engine, points_engine=points, **limit)
    with pytest.raises(solver.SearchStopped, match=stopped):
        table_report(position, settlement=True, engine=points, **limit)
    assert open_limits(engine.engine) == 0 and open_limits(points.engine) == 0  # the limit went with the call


def test_a_generous_limit_gives_exactly_the_answer_without_one() -> None:
    position = _light()
    plain = dd_settlement(position)
    engine, points = SettlementEngine(8), solver.EngineSolver(8)
    limited = dd_settlement(position, engine=engine, points_engine=points, time_limit=60, stop=threading.Event())
    assert limited == plain  # every field but the effort: value, line, items, the points comparison
    assert (limited.value, limited.line, limited.points_line) == (plain.value, plain.line, plain.points_line)
    assert settlement_value(position, engine=engine, time_limit=60, stop=threading.Event()) == plain.value
    assert open_limits(engine.engine) == 0 and open_limits(points.engine) == 0


def test_the_deadline_bounds_every_search_of_the_call_together(monkeypatch) -> None:
    """A limit of 60 s that the settlement and its line use up (the call's clock made to pass it once the line is
    found) stops the points search that follows before it starts: the limit is the call's, not each search's. The
    clock is the deadline's own, moved by the test: a real 0.4 s limit and a 0.5 s sleep failed on a loaded machine,
    where this 30 ms settlement took 0.25 s and more, and its own search ran into the limit."""
    import types

    import solver.search.boundary as boundary

    clock = [1000.0]
    monkeypatch.setattr(boundary, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    position = _light()
    engine, points = SettlementEngine(8), solver.EngineSolver(8)
    line = engine.line
    asked: list[str] = []

    def slow_line(*args):
        found = line(*args)
        clock[0] += 61.0  # the call's 60 s are up once the line is found
        return found

    def points_solve(*args, **kwargs):
        asked.append("points")
        return solver.EngineSolver.solve(points, *args, **kwargs)

    engine.line = slow_line  # type: ignore[method-assign]
    points.solve = points_solve  # type: ignore[method-assign]
    # the limit named is the call's 60 s, not the 0.0 s its deadline left the points search
    with pytest.raises(solver.SearchStopped, match=r"before it started: its time limit was up \(time_limit=60 "):
        dd_settlement(position, engine=engine, points_engine=points, time_limit=60)
    assert asked == ["points"]  # the settlement and its line were answered; the points search was the one stopped
    engine.line = line  # type: ignore[method-assign]  # the clock stands still now: the limit is not reached
    assert dd_settlement(position, engine=engine, points_engine=points, time_limit=60).value == \
        dd_settlement(position).value


def test_a_stop_set_after_the_points_search_stops_the_settlement_keeping_its_points() -> None:
    position = _light()
    engine, points = SettlementEngine(8), solver.EngineSolver(8)
    stop = threading.Event()
    value = engine.value
    searches: list[str] = []

    def counted_value(*args):
        searches.append("settlement")
        return value(*args)

    def points_solve(*args, **kwargs):
        result = solver.EngineSolver.solve(points, *args, **kwargs)
        searches.append("points")
        stop.set()  # the next search, the settlement keeping the points optimum, is asked to stop
        return result

    engine.value = counted_value  # type: ignore[method-assign]
    points.solve = points_solve  # type: ignore[method-assign]
    with pytest.raises(solver.SearchStopped, match="before it started"):
        dd_settlement(position, engine=engine, points_engine=points, stop=stop)
    assert searches == ["settlement", "points"]  # the one keeping the points stopped before its search started


def test_a_stop_between_two_rows_stops_the_contract_table() -> None:
    position = _light()
    stop = threading.Event()
    rows: list[str] = []

    def progress(text: str) -> None:
        rows.append(text)
        if len(rows) == 3:
            stop.set()

    with pytest.raises(solver.SearchStopped):
        contract_table(position, settlement=True, stop=stop, progress=progress)
    assert len(rows) == 3  # two rows answered, the third stopped before its first search


def test_a_stop_event_set_by_another_thread_stops_the_settlement() -> None:
    position = _heavy()
    stopped = stopped_from_another_thread(lambda stop: dd_settlement(
        position, engine=SettlementEngine(8), points_engine=solver.EngineSolver(8), stop=stop))
    # in its search, or before it where a loaded machine started it after the stop: by the event
    assert re.search(r"stopped before it (finished \(its time limit or stop event\)|started: its stop event was set)$",
                     str(stopped))


def test_a_stop_is_looked_at_within_the_search_not_only_at_its_end() -> None:
    """The settlement's second of search (some 5 million nodes) looks at its stop every 16,384 nodes: one look
    before it starts, then in the search, which a stop saying yes at the fourth look ends there."""
    stop = StopAtLook(4)
    with pytest.raises(solver.SearchStopped, match=r"stopped before it finished \(its time limit or stop event\)$"):
        dd_settlement(_heavy(), engine=SettlementEngine(8), points_engine=solver.EngineSolver(8), stop=stop)
    assert stop.looks == 4


@pytest.mark.parametrize("arguments, error, message", [
    (dict(time_limit=-1), solver.InvalidPositionError, "time_limit must be a number of seconds above 0"),
    (dict(time_limit=0), solver.InvalidPositionError, "time_limit=0 is refused: for no limit pass None"),
    (dict(time_limit=-0.0), solver.InvalidPositionError, "time_limit=0 is refused: for no limit pass None"),
    (dict(time_limit="1"), solver.InvalidPositionError, "time_limit must be a number of seconds"),
    (dict(time_limit=True), solver.InvalidPositionError, "time_limit must be a number of seconds"),
    (dict(time_limit=float("nan")), solver.InvalidPositionError, "time_limit must be a number of seconds"),
    (dict(time_limit=float("inf")), solver.InvalidPositionError, "time_limit must be a number of seconds"),
    (dict(stop=5), solver.InvalidPositionError, "stop must be a threading.Event"),
    (dict(time_limit=1, reference_solver=True), solver.StichError, "the reference solver runs to the end"),
])
def test_bad_limits_are_refused_as_solve_refuses_them(arguments, error, message) -> None:
    position = next(solver.read_positions(EXAMPLES / "valat.tbn"))  # an ending: the reference answers it too
    with pytest.raises(error, match=message):
        solver.solve(position, "score", **arguments)
    with pytest.raises(error, match=message):
        dd_settlement(position, **arguments)
    with pytest.raises(error, match=message):
        settlement_value(position, **arguments)
    if "reference_solver" not in arguments:  # a contract table is of a whole deal
        with pytest.raises(error, match=message):
            contract_table(_light(), settlement=True, **arguments)


# --- the command line -----------------------------------------------------------------------------------------------


def _file(tmp_path: Path, *positions: tuple[int, str]) -> Path:
    path = tmp_path / "deals.tbn"
    path.write_text("\n".join(format_record(_record(board, contract)) for board, contract in positions))
    return path


def run(*args: object, code: int):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    return result


def _answers(stdout: str) -> list[dict]:
    """The JSON documents without the effort (nodes, seconds), which no two runs share."""
    documents = [json.loads(line) for line in stdout.splitlines()]
    for document in documents:
        for part in (document, document.get("dd") or {}):
            part.pop("nodes", None)
            part.pop("seconds", None)
    return documents


@pytest.mark.parametrize("command", [["score", "--dd"], ["table"], ["solve", "--cards"], ["check"], ["postmortem"]])
def test_a_tiny_time_limit_stops_every_whole_deal_with_a_message_a_json_line_and_exit_1(tmp_path, command) -> None:
    """Each record stopped says so on stderr and, with --json, in a line of its own (``unanswered``), so that a script
    reading the lines can tell which record ran out."""
    path = _file(tmp_path, (8, "Solo"), (26, "Normal"))
    result = run(*command, path, "--time-limit", "0.001", "--json", code=1)
    said = [f"{path}:{line}: board {board}: not answered: the time limit (0.001 s) ran out before the answer "
            "(give it more time: --time-limit)" for line, board in ((1, 8), (8, 26))]
    assert result.stderr.splitlines() == [f"stich: {line}" for line in said]
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [schema_errors(line, SCHEMA) for line in lines] == [[], []]
    assert [(line["command"], line["record"]["line"], line["record"]["board"], line["stopped"], line["error"])
            for line in lines] == [(command[0], 1, "8", "time limit", said[0]), (command[0], 8, "26", "time limit",
                                                                                 said[1])]
    assert run(*command, path, "--time-limit", "0.001", code=1).stdout == ""  # the text prints nothing for them


def test_a_time_limit_is_said_in_seconds_as_a_person_writes_them(tmp_path) -> None:
    """``--time-limit 0.000001`` is said as given, not as ``1e-06 s``; whole and plain seconds as they are, and a
    limit computed (bench divides its ``limit_ms``) without a float residue."""
    assert [seconds_text(value) for value in (2, 2.0, 0.5, 1e-06, 60, 1500.0, 0.1 + 0.2)] == [
        "2 s", "2 s", "0.5 s", "0.000001 s", "60 s", "1500 s", "0.3 s"]
    path = _file(tmp_path, (8, "Solo"))
    assert run("score", path, "--dd", "--time-limit", "0.000001", code=1).stderr == (
        f"stich: {path}:1: board 8: not answered: the time limit (0.000001 s) ran out before the answer (give it "
        "more time: --time-limit)\n")


def test_a_stopped_record_does_not_stop_the_others(tmp_path) -> None:
    """The Solo (about a second, 5 million nodes) runs past 0.4 s; the records after it are answered as without a
    limit: the Normal game on the same rules (some 30 ms and 30,000-140,000 nodes, past the engine's stop check, so a
    stop left set by the Solo would stop it too) and a Kratzen deal (a millisecond). The limit sits between them with
    room both ways: at 0.2 s the Normal game took 0.25 s once on a loaded machine."""
    kratzen = solver.random_record("Kratzen", 1, 1)
    path = tmp_path / "deals.tbn"
    path.write_text("\n".join(format_record(record) for record in (_record(8, "Solo"), _record(8, "Normal"), kratzen)))
    limited = run("score", path, "--dd", "--time-limit", "0.4", "--json", code=1)
    assert limited.stderr.splitlines() == [
        f"stich: {path}:1: board 8: not answered: the time limit (0.4 s) ran out before the answer (give it more "
        "time: --time-limit)"]
    unanswered, *answered = _answers(limited.stdout)
    assert unanswered["record"]["line"] == 1 and unanswered["stopped"] == "time limit" and "dd" not in unanswered
    expected = [dd_settlement(position).as_dict() for position in (_light(), solver.position_from_record(kratzen))]
    for document in expected:
        del document["nodes"], document["seconds"]
    assert [answer["record"]["line"] for answer in answered] == [8, 15]
    assert [answer["dd"] for answer in answered] == [{**document, "from": "start", "cards_on_table": 0}
                                                     for document in expected]


@pytest.mark.parametrize("command, path", [(["score", "--dd"], None), (["table"], EXAMPLES / "schafkopf.tbn"),
                                           (["check"], None)])
def test_a_generous_time_limit_gives_the_same_output_as_none(tmp_path, command, path) -> None:
    path = path or _file(tmp_path, (8, "Normal"), (3, "Normal"))
    plain = run(*command, path, "-b", "1" if command == ["table"] else "8", "--json", code=0)
    limited = run(*command, path, "-b", "1" if command == ["table"] else "8", "--json", "--time-limit", "60", code=0)
    unlimited = run(*command, path, "-b", "1" if command == ["table"] else "8", "--json", "--time-limit", "0", code=0)
    assert limited.stderr == unlimited.stderr == plain.stderr == ""  # 0 is no limit, as in every command
    assert _answers(limited.stdout) == _answers(unlimited.stdout) == _answers(plain.stdout) and _answers(plain.stdout)
    text = run(*command, path, "-b", "1" if command == ["table"] else "8", code=0).stdout
    assert run(*command, path, "-b", "1" if command == ["table"] else "8", "--time-limit", "60", code=0).stdout == text


@pytest.mark.parametrize("args, said", [
    (["score", "--time-limit", "5"], "only the double-dummy settlement (--dd) searches, so only it takes a time limit"),
    (["score", "--table-mb", "8"], "only the double-dummy settlement (--dd) searches, so only it takes a table size"),
    (["score", "--threads", "1"], "only the double-dummy settlement (--dd) searches, so only it takes threads"),
    (["score", "--dd", "--time-limit", "nan"], "nan is not a number of seconds (0 is no limit)"),
    (["table", "--time-limit", "inf"], "inf is not a number of seconds (0 is no limit)"),
    (["table", "--time-limit", "-1"], "-1.0 is not in the range 0 to 1,000,000 seconds (0 is no limit)"),
])
def test_a_meaningless_time_limit_is_a_usage_error(args, said) -> None:
    # (and the other options of a search, where the command does not search)
    result = run(args[0], EXAMPLES / "zwanzigerrufen.tbn", *args[1:], code=2)
    flag = next(arg for arg in args if arg.startswith("--") and arg != "--dd")
    assert f"'{flag}'" in result.stderr and said in result.stderr


def test_a_time_limit_under_the_reference_solver_is_a_usage_error(monkeypatch) -> None:
    monkeypatch.setenv("STICH_IMPLEMENTATION", "python")
    result = run("table", EXAMPLES / "zwanzigerrufen.tbn", "--time-limit", "5", code=2)
    assert "the reference solver (STICH_IMPLEMENTATION=python) runs to the end and takes no time limit" in result.stderr


def test_analyse_and_match_take_a_time_limit_under_the_reference_solver(monkeypatch) -> None:
    """analyse and match look at their --time-limit between samples and boards, which the reference solver allows:
    they stop at it and report what was done, as with the engine."""
    monkeypatch.setenv("STICH_IMPLEMENTATION", "python")
    analysed = run("analyse", EXAMPLES / "kratzen.tbn", "-b", "1", "--seat", "1", "-n", "5000", "-j", "1",
                   "--time-limit", "0.5", code=0)
    assert " of 5,000 samples (seed 1), stopped by the time limit" in analysed.stdout
    played = run("match", "-g", "kratzen", "--bots", "sampling:2,random,random", "-n", "5000", "-j", "1",
                 "--time-limit", "0.5", code=0)
    assert "stopped by the time limit after" in played.stdout and "of 15000 deals" in played.stdout


def _without_effort(document):
    """A document without what no two runs share (nodes, seconds), at any depth."""
    if isinstance(document, dict):
        return {key: _without_effort(value) for key, value in document.items() if key not in ("nodes", "seconds")}
    if isinstance(document, list):
        return [_without_effort(value) for value in document]
    return document


def test_solve_takes_the_same_time_limit(tmp_path) -> None:
    # stich solve --time-limit: every search of a record's report together (its objectives, cards and line)
    path = _file(tmp_path, (8, "Normal"), (3, "Normal"))
    plain = run("solve", path, "--cards", "--line", "-o", "all", "--json", code=0)
    limited = run("solve", path, "--cards", "--line", "-o", "all", "--json", "--time-limit", "60", code=0)
    documents = [_without_effort(json.loads(line)) for line in plain.stdout.splitlines()]
    assert len(documents) == 2 and len(documents[0]["results"]) > 2
    assert [_without_effort(json.loads(line)) for line in limited.stdout.splitlines()] == documents
    position = _position(8, "Normal")
    with pytest.raises(solver.SearchStopped):
        solver.analysis.solve_report(position, ["all"], cards=True, stop=_set_event())
    with pytest.raises(solver.InvalidPositionError, match="time_limit must be a number of seconds"):
        solver.analysis.solve_report(position, time_limit=-1)


def _set_event() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


@pytest.mark.parametrize("command", ["score", "table", "solve"])
def test_the_help_shows_the_time_limit(command) -> None:
    result = run(command, "--help", code=0)
    text = " ".join(result.stdout.split())
    said = ("--time-limit SECONDS Time limit, in seconds, of each record's --dd searches together: past it the "
            "record's settlement is left out" if command == "score" else
            "--time-limit SECONDS Time limit, in seconds, of each record's searches together: past it the record is "
            "said on stderr and not answered")
    assert said in text  # score's own words: a finished deal's score is still given
    assert "Without it, or 0: no limit. From 0 to 1,000,000 seconds." in text


def _played_out(position: solver.Position) -> solver.Position:
    """The deal played to its end, each seat playing its lowest legal card."""
    while not position.state.is_over:
        legal = position.state.legal_cards()
        position = position.play((legal & -legal).bit_length() - 1)
    return position


def test_a_finished_deal_past_the_time_limit_still_gets_its_score(tmp_path) -> None:
    """A finished deal's score needs no search: past --time-limit it is given, the settlement said as missing."""
    path = tmp_path / "played.tbn"
    path.write_text(_played_out(_heavy()).to_tbn())
    plain = run("score", path, "--json", code=0)
    limited = run("score", path, "--dd", "--time-limit", "0.2", "--json", code=1)
    assert limited.stderr.splitlines() == [
        f"stich: {path}:1: board 8: no double-dummy settlement: the time limit (0.2 s) ran out before the answer "
        "(give it more time: --time-limit)"]
    (document,) = _answers(limited.stdout)
    assert document == {**json.loads(plain.stdout), "dd": None}
    assert not schema_errors(json.loads(limited.stdout), SCHEMA)  # docs/stich-result.schema.json allows the null
    assert document["payments"] and sum(document["payments"]) == 0
    text = run("score", path, "--dd", "--time-limit", "0.2", code=1).stdout
    assert "Payments" in text and "Double-dummy settlement: not answered in the time limit" in text
    assert "Payments (double dummy)" not in text


def test_partly_answered_records_are_counted_once_in_the_closing_line(tmp_path) -> None:
    """25 finished deals past --time-limit: each gets its score and is said as not answered in full (the first 20
    one by one, 5 counted), so none is among those answered and the closing line's numbers add up to the 25 read."""
    path = tmp_path / "played.tbn"
    path.write_text("\n".join([_played_out(_heavy()).to_tbn()] * 25))
    result = run("score", path, "--dd", "--time-limit", "0.001", code=1)
    lines = result.stderr.splitlines()
    assert len(lines) == 21 and all("no double-dummy settlement: the time limit" in line for line in lines[:20])
    assert lines[20] == (f"stich: {path}: and 5 more records not answered in full, not said one by one (the first "
                         "20 are above); no other record was answered")
    assert result.stdout.count("Double-dummy settlement: not answered in the time limit") == 25

