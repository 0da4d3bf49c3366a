"""How every command names the file it read (docs/cli.md, "File names"): one rendering, one line a message, the name
itself in JSON."""

from __future__ import annotations

import json
import os
import re

import pytest
from typer.testing import CliRunner

from solver.board.session import record_label
from solver.errors import STDIN_NAME, ParseError, StichError, shown_name, source_name
from solver.formats.tbn import parse_records, read_records
from solver.cli.main import app

runner = CliRunner()

#: A record no game reads: every command that reads records says it at once, naming the file, and solves nothing.
BAD_RECORD = '[Game "x"]\n'
SAID = "1:8: unknown game 'x'"

#: A file name as it is given, and as every message shows it.
NAMES = {
    "not UTF-8": (os.fsdecode(b"deal\xff.tbn"), "deal\\xff.tbn"),
    "newline": ("a\nb.tbn", "a\\nb.tbn"),
    "tab": ("a\tb.tbn", "a\\tb.tbn"),
    "ESC": ("\x1b[31mred.tbn", "\\x1b[31mred.tbn"),
    "spaces": ("my deals.tbn", "my deals.tbn"),
    "leading -": ("-deals.tbn", "-deals.tbn"),
    "backslash": ("a\\nb.tbn", "a\\nb.tbn"),  # a backslash and an n, not a newline: shown as typed
}

#: Every command that reads a FILE's records, its options before the FILE.
READERS = {
    "solve": ["solve"], "check": ["check"], "table": ["table"], "score": ["score"], "postmortem": ["postmortem"],
    "show": ["show"], "tree": ["tree", "-d", "1"], "analyse": ["analyse", "--seat", "1"],
    "board": ["board", "--board", "99"], "batch": ["batch", "--out", "out.jsonl"],
}
JSON_READERS = ["solve", "check", "table", "score", "postmortem"]
#: Commands that read a file of their own beside the records (``NAME``), which does not hold what they write.
KEPT_FILES = {
    "bench --compare": (["bench", "--compare", "NAME"], "{name}:1:2: not a saved stich bench run"),
    "match --checkpoint": (["match", "-g", "kratzen", "-n", "1", "--bots", "random,random,random", "--checkpoint",
                            "NAME"], "{name}: not a stich checkpoint"),
    "analyse --checkpoint": (["analyse", "--record", "1", "--seat", "1", "--checkpoint", "NAME", "KRATZEN"],
                             "{name}: not a stich checkpoint"),
    "batch --out": (["batch", "--out", "NAME", "KRATZEN"], "{name}: not a stich batch output"),
}
#: Commands that write a file (``NAME``), and the file's name, put in a folder that does not exist.
WRITERS = {
    "deal --out": (["deal", "-g", "kratzen", "-n", "1", "--out", "NAME"], "out.tbn"),
    "batch --out": (["batch", "KRATZEN", "--out", "NAME"], "out.jsonl"),
    "tree --out": (["tree", "-d", "1", "--record", "1", "KRATZEN", "--out", "NAME"], "out.json"),
    "postmortem --plot": (["postmortem", "--record", "1", "KRATZEN", "--plot", "NAME"], "out.png"),
}
KRATZEN = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "kratzen.tbn")
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def invoked(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=stdin)
    assert "Traceback" not in result.stderr, result.stderr
    return result.exit_code, result.stdout, result.stderr


def said_lines(stderr: str) -> list[str]:
    """The lines of stderr, checked to be messages of one line each, with no character that drives a terminal."""
    assert RAW_CONTROL.findall(stderr) == [], stderr
    lines = stderr.splitlines()
    assert all(line.startswith("stich: ") for line in lines), stderr
    return lines


def with_file(args: list[str], name: str) -> list[str]:
    return [KRATZEN if arg == "KRATZEN" else arg.replace("NAME", name) for arg in args]


@pytest.mark.parametrize("command", READERS)
@pytest.mark.parametrize("rule", NAMES)
def test_a_reader_names_a_file_as_shown_name_renders_it(tmp_path, monkeypatch, rule, command):
    """Each rule of the rendering, by every command that reads records: the message is one line, the name's
    newline, tab, ESC and non-UTF-8 byte written as escapes, spaces and a leading ``-`` as they are."""
    name, shown = NAMES[rule]
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(BAD_RECORD, encoding="utf-8")
    code, _, stderr = invoked([*READERS[command], "--", name])
    assert code == 1 and f"stich: {shown}:{SAID}" in "\n".join(said_lines(stderr)), stderr
    assert shown_name(name) == shown


@pytest.mark.parametrize("command", KEPT_FILES)
@pytest.mark.parametrize("rule", NAMES)
def test_a_file_kept_beside_the_records_is_named_as_shown_name_renders_it(tmp_path, monkeypatch, rule, command):
    name, shown = NAMES[rule]
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(BAD_RECORD, encoding="utf-8")
    args, said = KEPT_FILES[command]
    code, _, stderr = invoked(with_file(args, name))
    assert code == 1 and f"stich: {said.format(name=shown)}" in "\n".join(said_lines(stderr)), stderr


@pytest.mark.parametrize("command", WRITERS)
@pytest.mark.parametrize("rule", ["not UTF-8", "newline", "ESC"])
def test_an_output_in_a_missing_folder_is_named_as_shown_name_renders_it(tmp_path, monkeypatch, rule, command):
    folder, shown = NAMES[rule]
    monkeypatch.chdir(tmp_path)
    args, file = WRITERS[command]
    code, _, stderr = invoked(with_file(args, f"{folder}/{file}"))
    assert code == 1 and f"stich: {shown}/{file}: cannot be written: the folder {shown} does not exist" in \
        "\n".join(said_lines(stderr)), stderr
    assert not os.path.exists(folder)


@pytest.mark.parametrize("command", JSON_READERS)
@pytest.mark.parametrize("rule", NAMES)
def test_json_carries_the_name_itself_in_record_source_and_its_shown_form_in_the_error(
        tmp_path, monkeypatch, rule, command):
    """A program matches a document to its file by ``record.source``: the name itself, whose JSON escapes read
    back to it (a byte not UTF-8 as os.fsdecode's surrogate, which os.fsencode turns back into the byte)."""
    name, shown = NAMES[rule]
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(BAD_RECORD, encoding="utf-8")
    code, stdout, _ = invoked([command, "--json", "--", name])
    document = json.loads(stdout)
    assert code == 1 and document["record"]["source"] == name
    assert os.path.exists(os.fsencode(document["record"]["source"]))
    assert document["error"].startswith(f"{shown}:{SAID}")


#: Every command that reads standard input as its FILE ``-`` (batch reads its input more than once, and refuses it).
STDIN_READERS = {**{name: args for name, args in READERS.items() if name != "batch"}, "bench": ["bench", "--compare"]}


@pytest.mark.parametrize("command", STDIN_READERS)
def test_standard_input_is_named_stdin_by_every_command(command):
    code, _, stderr = invoked([*STDIN_READERS[command], "-"], stdin=BAD_RECORD)
    said = "1:2: not a saved stich bench run" if command == "bench" else SAID
    assert code == 1 and f"stich: <stdin>:{said}" in "\n".join(said_lines(stderr)), stderr


@pytest.mark.parametrize("command", JSON_READERS)
def test_json_names_standard_input_stdin(command):
    code, stdout, _ = invoked([command, "--json", "-"], stdin=BAD_RECORD)
    assert code == 1 and json.loads(stdout)["record"]["source"] == "<stdin>"


@pytest.mark.parametrize("command", [c for c in READERS if c != "board"])
def test_a_folder_given_for_a_file_is_said_so_by_every_reader(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    os.mkdir("a\nfolder.tbn")
    code, _, stderr = invoked([*READERS[command], "a\nfolder.tbn"])
    assert code == 1 and "stich: a\\nfolder.tbn: it is a folder, where a file was expected" in said_lines(stderr)


def test_the_board_names_a_folder_and_titles_a_record_by_the_same_rendering(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkdir("a\nfolder.tbn")
    code, _, stderr = invoked(["board", "a\nfolder.tbn"])
    assert code == 1 and said_lines(stderr)[0].startswith("stich: a\\nfolder.tbn: a folder, not a regular file")
    with open(KRATZEN, encoding="utf-8") as kratzen:
        record = parse_records(kratzen.read(), name=os.fsdecode(b"k\xff\n.tbn"))[0]
    assert record_label(record, record.source, 1) == "k\\xff\\n.tbn board 1"


@pytest.mark.parametrize("rule", NAMES)
def test_a_library_error_names_its_file_as_shown_name_renders_it(rule):
    name, shown = NAMES[rule]
    with pytest.raises(ParseError) as raised:
        parse_records('[Game "x"\n', name=name)
    assert isinstance(raised.value, StichError) and str(raised.value).startswith(f"{shown}:1:10: missing ']'")
    assert raised.value.source == name  # the error's own field keeps the name itself


@pytest.mark.parametrize("given, normal", [
    ("./a//b.tbn", "a/b.tbn"), ("a/./b.tbn", "a/b.tbn"),
    ("a/../a/b.tbn", "a/../a/b.tbn"),  # a .. is kept: where a is a link, a/.. is not the folder a is in
])
def test_the_command_line_normalises_a_name_as_a_path_and_the_library_keeps_the_name_it_is_given(
        tmp_path, monkeypatch, given, normal):
    """docs/cli.md, "File names": a command's parser makes each name a Path, which drops ``.`` and doubled slashes, in
    its messages and its JSON alike; a library caller finds the string it passed, in the error and in
    ``record.source``, as Python's own errors name a file (a Path it passes is pathlib's normal form already)."""
    from pathlib import Path

    import solver

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.tbn").write_text(BAD_RECORD, encoding="utf-8")
    code, stdout, stderr = invoked(["solve", "--json", given])
    document = json.loads(stdout)
    assert code == 1 and document["record"]["source"] == normal and document["error"].startswith(f"{normal}:{SAID}")
    assert said_lines(stderr)[0].startswith(f"stich: {normal}:{SAID}"), stderr
    for name in (given, Path(given)):
        as_given = os.fspath(name)
        assert source_name(name) == as_given and [record.source for record in read_records(name)] == [as_given]
        [refused] = solver.iter_positions(name)
        assert isinstance(refused, ParseError) and refused.source == as_given
        assert str(refused).startswith(f"{as_given}:{SAID}")
    assert source_name("-") == STDIN_NAME == "<stdin>"


def test_the_board_page_lists_a_file_and_an_upload_by_the_same_rendering(tmp_path):
    """The page's file list, its board titles, and an upload's error: the shown name, which its JSON can carry
    (a byte that is not UTF-8 has no JSON text of its own)."""
    testclient = pytest.importorskip("starlette.testclient")
    from solver.board import create_app

    name, shown = os.fsdecode(b"k\xff\n.tbn"), "k\\xff\\n.tbn"
    with open(KRATZEN, "rb") as kratzen:
        (tmp_path / name).write_bytes(kratzen.read())
    (tmp_path / "bad\t.tbn").write_text(BAD_RECORD, encoding="utf-8")
    page = testclient.TestClient(create_app([tmp_path / name, tmp_path / "bad\t.tbn"]), base_url="http://127.0.0.1")
    listed, bad = page.get("/api/start").json()["files"]
    assert listed["file"] == shown and listed["boards"][0]["label"] == f"{shown} board 1"
    assert bad["file"] == "bad\\t.tbn" and bad["error"] == f"{tmp_path}/bad\\t.tbn:{SAID} (known games: " \
        "Zwanzigerrufen, Schafkopf, Kratzen) (got 'x')"
    upload = page.post("/api/load", files={"file": ("\x1b[31mred.tbn", BAD_RECORD.encode(), "text/plain")})
    assert upload.status_code == 400 and upload.json()["error"].startswith(f"\\x1b[31mred.tbn:{SAID}")


#: Usage errors that name a file, and what each says after the name (``NAME`` the file, made to exist first).
NAMED_USAGE_ERRORS = {
    "postmortem --plot": (["postmortem", "--record", "1", "KRATZEN", "--plot", "NAME.txt"],
                          "Invalid value for '--plot': {name}.txt: the plot is written as .png, .svg or .pdf"),
    "bench --out --compare": (["bench", "--out", "NAME", "--compare", "NAME"],
                              "Invalid value for '--out': --out {name} and --compare {name} name the same file: the "
                              "run would replace the run it is compared with; give --out another file"),
    "FILE ending in /": (["solve", "NAME/"],
                         "Invalid value for 'FILE': {name}/ ends in '/', which names a directory, not a file"),
}


@pytest.mark.parametrize("command", NAMED_USAGE_ERRORS)
@pytest.mark.parametrize("rule", ["not UTF-8", "newline", "tab"])
def test_a_usage_error_names_a_file_as_shown_name_renders_it(tmp_path, monkeypatch, rule, command):
    """Click prints a usage error itself, not through the commands' messages: its name is rendered all the same."""
    name, shown = NAMES[rule]
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("", encoding="utf-8")
    args, said = NAMED_USAGE_ERRORS[command]
    code, _, stderr = invoked(with_file(args, name))
    assert code == 2 and RAW_CONTROL.findall(stderr) == [], stderr
    assert f"Error: {said.format(name=shown)}\n" in stderr, stderr


def test_the_library_names_a_folder_given_for_a_file_one_way(tmp_path):
    """A FileRefusedError and an OSError the library raises for an output name the folder by shown_name throughout,
    the name it suggests inside the folder too."""
    from solver.errors import FileRefusedError
    from solver.files import atomic_file, lock_beside

    folder = tmp_path / "a\nb.tbn"
    folder.mkdir()
    shown = shown_name(folder)
    with pytest.raises(FileRefusedError) as refused:
        lock_beside(folder, "stich batch")
    assert str(refused.value) == f"{shown}: cannot be written: it is a folder, where a file name was expected (to " \
        f"write into the folder, name the file in it: {shown}/NAME.tbn)"
    file = tmp_path / "x\tfile"
    file.write_text("", encoding="utf-8")
    with pytest.raises(NotADirectoryError) as not_folder:
        with atomic_file(file / "out.tbn"):
            pass
    assert not_folder.value.strerror == f"cannot be written: {shown_name(file)} is a file, where a folder was " \
        "expected (choose another path)"


@pytest.mark.parametrize("names, shown", [
    ((os.fsdecode(b"a\x9b.tbn"), "a\u009b.tbn"), "a\\x9b.tbn"),  # a byte 0x9B that is not UTF-8, a real U+009B
    (("a\nb.tbn", "a\\nb.tbn"), "a\\nb.tbn"),  # a newline, a backslash and an n
])
def test_two_names_shown_alike_are_told_apart_by_json(tmp_path, monkeypatch, names, shown):
    """docs/cli.md, "File names": the shown name escapes a control character, not a backslash, so that a name with
    one reads as typed; where two names then show alike, ``record.source`` keeps each as it is."""
    monkeypatch.chdir(tmp_path)
    for name in names:
        (tmp_path / name).write_text(BAD_RECORD, encoding="utf-8")
    documents = []
    for name in names:
        code, stdout, stderr = invoked(["solve", "--json", name])
        assert code == 1 and said_lines(stderr)[0].startswith(f"stich: {shown}:{SAID}"), stderr
        documents.append(json.loads(stdout)["record"]["source"])
    assert documents == list(names) and names[0] != names[1]


def test_batch_s_summary_keeps_the_names_in_json_and_shows_them_in_its_text(tmp_path, monkeypatch):
    """docs/json.md, ``batchSummary``: ``source`` and ``out`` are the names themselves (normalised as a path); the
    summary's last line on stderr shows them as every message does."""
    monkeypatch.chdir(tmp_path)
    source, out = "a\nb.tbn", "o\x1b.jsonl"
    with open(KRATZEN, encoding="utf-8") as kratzen:
        (tmp_path / source).write_text(kratzen.read(), encoding="utf-8")
    code, stdout, _ = invoked(["batch", "-j", "1", "--json", "--out", f"./{out}", f"./{source}"])
    summary = json.loads(stdout)
    assert code == 0 and (summary["source"], summary["out"], summary["solved"]) == (source, out, 5), stdout
    code, _, stderr = invoked(["batch", "-j", "1", "--out", out, source])
    assert code == 0 and said_lines(stderr)[-1].startswith(
        "stich: batch: 0 written to o\\x1b.jsonl (0 solved, 0 errors), 5 already done"), stderr


def test_the_api_reading_a_folder_raises_the_os_error_naming_it_as_for_a_missing_file(tmp_path):
    """``read_positions`` on a folder raises the ``OSError`` that ``open()`` raises, naming the folder, as a missing
    file raises its ``FileNotFoundError`` (api.md, Errors): not bad input, so no ``StichError``."""
    import solver

    for path, raised in ((tmp_path, IsADirectoryError), (tmp_path / "missing.tbn", FileNotFoundError)):
        with pytest.raises(raised) as info:
            list(solver.read_positions(path))
        assert info.value.filename == str(path) and not isinstance(info.value, StichError)
