"""A record's text never drives the terminal: its control characters (ESC, C1, BEL, backspace, CR) and bidi controls
are printed as escapes in every report for people, rich markup in it is printed as written, and JSON and a record
written back keep the text itself."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from solver.board.session import Board, record_label, view
from solver.errors import visible
from solver.files import json_text
from solver.formats.tbn import parse_records
from solver.position import position_from_record
from solver.tree import strategy_tree, write_tree
from solver.cli import render
from solver.cli.main import app

runner = CliRunner()

BOARD = "\x1b[2J1\x9b\x07\x08\u202e[red]x[/red] ä♠"
EVENT = "Ev\x1b[31mRED\x07\u2067[bold]b[/bold] äß♠"
COMMENT = "{ note \x1b[2J \x9b C1 \x07 bel \x08 bs \r cr \u202e bidi [red]markup[/red] ä ß ♠ }"
RECORD = (f"{COMMENT}\n[Game \"Kratzen\"]\n[Event \"{EVENT}\"]\n[Board \"{BOARD}\"]\n[Seats \"3\"]\n"
          "[Deal \"1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK\"]\n[Contract \"Trump S\"]\n[Declarer \"1\"]\n")
#: The board as a title shows it: each control as its escape, the markup as written.
SHOWN = "board \\x1b[2J1\\x9b\\x07\\x08\\u202e[red]x[/red] ä♠"
#: What must never reach a terminal raw: C0 controls but the line's end, DEL, C1 and the bidi controls.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    path = tmp_path / "evil.tbn"
    path.write_bytes(RECORD.encode("utf-8"))
    return path


def printed(*args: object, code: int = 0) -> str:
    """A command's stdout, checked to hold no raw control character (nor a traceback)."""
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr
    for stream in (result.stdout, result.stderr):
        assert RAW_CONTROL.findall(stream) == []
    return result.stdout


def test_visible_escapes_controls_and_keeps_letters_and_backslashes():
    assert visible("a\x1b[2J\x9b\x07\x08\r\t\u202e\u2066 äß♠ \\x") == \
        "a\\x1b[2J\\x9b\\x07\\x08\\r\\t\\u202e\\u2066 äß♠ \\x"
    assert visible("Board 7: Müller ♠") == "Board 7: Müller ♠"


@pytest.mark.parametrize("command", [["solve"], ["check"], ["table"], ["show"], ["postmortem"], ["score", "--dd"],
                                     ["analyse", "--seat", "1", "--samples", "4"]])
def test_a_title_shows_the_board_with_its_controls_escaped_and_its_markup_as_written(evil, command):
    out = printed(*command, evil)
    assert out.splitlines()[0].startswith(SHOWN + f" ({evil}:")  # the letters and signs as they are


def test_a_tree_summary_holds_no_raw_control(evil):
    out = printed("tree", evil, "--depth", "1")
    assert "strategy tree of 1 card" in out


def test_a_message_naming_the_board_escapes_it(evil):
    result = runner.invoke(app, ["analyse", str(evil), "--seat", "5", "--samples", "4"])
    assert result.exit_code == 1
    assert RAW_CONTROL.findall(result.stderr) == [] and RAW_CONTROL.findall(result.stdout) == []
    assert f"board {SHOWN[len('board '):]}, not answered" in result.stderr


def test_the_library_diagram_escapes_the_board():
    position = position_from_record(parse_records(RECORD, name="evil.tbn")[0])
    assert position.label == SHOWN
    text = str(position)
    assert RAW_CONTROL.findall(text) == [] and SHOWN in text


def test_json_keeps_the_text_and_escapes_every_control(evil):
    out = printed("solve", evil, "--json")
    document = json.loads(out)
    assert document["record"]["board"] == BOARD and document["record"]["event"] == EVENT
    assert "äß♠" in out  # letters as they are, not \u escapes
    assert json.loads(json_text({"x": BOARD + EVENT})) == {"x": BOARD + EVENT}


def test_batch_keeps_the_text_in_its_lines_and_prints_no_raw_control(evil, tmp_path):
    out = tmp_path / "out.jsonl"
    printed("batch", evil, "--out", out, "--workers", "1")
    text = out.read_text(encoding="utf-8")
    assert RAW_CONTROL.findall(text) == []
    line = json.loads(text.splitlines()[0])
    assert line["record"]["board"] == BOARD and line["record"]["event"] == EVENT


def test_a_record_written_back_keeps_its_tags_and_comments(evil):
    result = runner.invoke(app, ["show", str(evil), "--tbn"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    again, original = parse_records(out)[0], parse_records(RECORD)[0]
    assert again.get("Board") == BOARD and again.get("Event") == EVENT
    # a lone CR ends a line (as in the file read), so the comment is compared without line ends
    assert [re.sub(r"[\r\n]+", " ", c.text) for c in again.comments] == \
        [re.sub(r"[\r\n]+", " ", c.text) for c in original.comments]
    assert "\x1b[2J1\x9b" in out and "\u202e" in out  # byte for byte: a record is data


def test_a_message_naming_a_file_escapes_its_controls(tmp_path):
    result = runner.invoke(app, ["solve", str(tmp_path / "x\x1b[2Jy\u202e.tbn")])
    assert result.exit_code == 1
    assert RAW_CONTROL.findall(result.stderr) == []
    assert "x\\x1b[2Jy\\u202e.tbn: " in result.stderr


def test_a_board_page_title_shows_the_board_with_its_controls_escaped():
    assert record_label(parse_records(RECORD)[0], "dir/evil.tbn", 1) == "evil.tbn " + SHOWN


class _TerminalScreen(io.StringIO):
    """What a terminal on stderr would be shown: a buffer that says it is a tty, so that the status line runs."""

    def isatty(self) -> bool:
        return True


PLAIN_RECORD = RECORD.replace(COMMENT, "").replace(f"[Event \"{EVENT}\"]\n", "")


@pytest.mark.parametrize("command", ["table", "postmortem"])
@pytest.mark.parametrize("board, name", [("7[/red]", "f.tbn"), (None, "d[/i].tbn")])
def test_rich_markup_in_a_board_or_a_path_is_shown_as_written_in_the_status_line(monkeypatch, tmp_path, command,
                                                                                 board, name):
    """On a terminal, the status line names the board (or the file): rich read it as markup, and ``[/red]`` failed
    the command with a traceback (CliRunner's stderr is no terminal, so the stderr console is made one here)."""
    record = PLAIN_RECORD.replace(f"[Board \"{BOARD}\"]\n", f"[Board \"{board}\"]\n" if board else "")
    path = tmp_path / name  # d[/i].tbn: a folder d[ and its file i].tbn
    path.parent.mkdir(exist_ok=True)
    path.write_text(record, encoding="utf-8")
    screen, statuses = _TerminalScreen(), []
    made = render.stderr_console

    def terminal_console():
        console = made()
        console.file, console._force_terminal = screen, True
        opened = console.status

        def status(*args, **options):
            statuses.append(opened(*args, **options))
            return statuses[-1]
        console.status = status
        return console
    monkeypatch.setattr(render, "stderr_console", terminal_console)
    result = runner.invoke(app, [command, str(path)])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr + screen.getvalue()
    shown = statuses[0].renderable.text.plain  # the spinner's line, as it was drawn
    assert shown.startswith("table of " if command == "table" else "post-mortem of ")
    assert ("board 7[/red]" if board else "d[/i].tbn") in shown, shown
    assert not statuses[0].renderable.text.spans  # no markup made a colour


#: A file name that is not UTF-8, as os.fsdecode gives it: 0x9b is CSI on an 8-bit terminal.
NOT_UTF8_NAME = os.fsdecode(b"ok\x9b31m\xe9.tbn")


@pytest.mark.parametrize("suffix", ["graphml", "gexf"])
def test_a_tree_of_such_a_record_from_a_file_named_not_in_utf8_reads_back_from_xml(tmp_path, suffix):
    """The Board's ESC and the name's surrogates (``&#56475;``) made the GraphML no XML: networkx could not read
    it. They are written as their escapes; the rest of the text as it is."""
    position = position_from_record(parse_records(RECORD, name=NOT_UTF8_NAME)[0])
    tree = strategy_tree(position, 1)
    tree.nodes["root"]["note"] = "a\x01b"  # a node's text too: GEXF keeps no graph attributes, but its nodes'
    path = write_tree(tree, tmp_path / f"tree.{suffix}")
    back = (nx.read_graphml if suffix == "graphml" else nx.read_gexf)(path)
    assert sorted(back.nodes) == sorted(tree.nodes) and len(back.edges) == len(tree.edges)
    assert back.nodes["root"]["note"] == "a\\x01b"
    if suffix == "graphml":  # GEXF keeps no graph attributes
        assert back.graph["board"] == "\\x1b[2J1\x9b\\x07\\x08\u202e[red]x[/red] ä♠"
        assert back.graph["source"] == "ok\\x9b31m\\xe9.tbn:3"
    assert tree.graph["board"] == BOARD  # the tree itself keeps the text


def test_json_text_escapes_del_even_in_ascii_and_stays_json_with_an_indent():
    """``\\n`` and ``\\t`` are not substituted as controls, inside the indent or anywhere; DEL is escaped in an
    ASCII text too."""
    for value in ({"a": "ä"}, {"a": "x\x7fy", "b": [1, "\t"]}, {"a": "\x9b\u202e ä\n"}):
        for options in ({}, {"indent": 1}, {"indent": "\t"}):
            text = json_text(value, **options)
            assert json.loads(text) == value, (value, options, text)
            assert RAW_CONTROL.findall(text.replace("\t", "").replace("\n", "")) == []
    assert json_text({"a": "x\x7fy"}) == '{"a": "x\\u007fy"}'


def test_visible_writes_a_file_name_byte_that_is_not_utf8_as_that_byte():
    """The surrogate os.fsdecode keeps a byte by is written as the byte (``\\x9b``), as the board wrote it; a
    surrogate that stands for no byte keeps its own escape."""
    assert visible(NOT_UTF8_NAME) == "ok\\x9b31m\\xe9.tbn"
    assert visible("\ud800x\udfff") == "\\ud800x\\udfff"


def test_a_solve_title_of_a_file_named_not_in_utf8_holds_no_raw_c1_byte(tmp_path):
    path = tmp_path / NOT_UTF8_NAME
    path.write_bytes(RECORD.encode("utf-8"))
    out = printed("solve", path)
    assert "ok\\x9b31m\\xe9.tbn:" in out.splitlines()[0]
    assert "\udc9b" not in out


def test_the_board_page_shows_the_event_with_its_controls_escaped():
    record = parse_records(RECORD)[0]
    position = position_from_record(record)
    shown = view(Board("b1", "evil", position, (), record), [])
    assert shown["event"] == "Ev\\x1b[31mRED\\x07\\u2067[bold]b[/bold] äß♠"


def test_a_json_error_keeps_the_board_as_its_record_does_while_stderr_escapes_it(tmp_path):
    """The ``error`` of an unanswered record's JSON line wrote the board escaped (``1\\x1b[31m`` as a backslash and
    letters) beside ``record.board`` as the text itself: JSON keeps the text; stderr shows it escaped."""
    deal = runner.invoke(app, ["deal", "-g", "zwanzigerrufen", "-n", "1", "-s", "5"]).stdout  # a whole deal: not
    path = tmp_path / "timed.tbn"                                                               # solved in 1 ms
    path.write_text(deal.replace('[Board "1"]', '[Board "1\x1b[31m"]'), encoding="utf-8")
    result = runner.invoke(app, ["solve", str(path), "--json", "--cards", "--time-limit", "0.001"])
    document = json.loads(result.stdout.splitlines()[0])
    assert document["record"]["board"] == "1\x1b[31m"
    assert document["error"].startswith(f"{path}:1: board 1\x1b[31m: not answered: the time limit")
    assert "board 1\\x1b[31m: not answered" in result.stderr and RAW_CONTROL.findall(result.stderr) == []
