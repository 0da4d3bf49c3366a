"""Every command's output path (``--out``, ``postmortem --plot``) is taken and refused by one rule
(:func:`cli.output.checked_output`): the same path gets the same answer, in the same words, from every command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "kratzen.tbn"
runner = CliRunner()

#: Each command with an output path, as a small run: (its arguments before the path, its option, after it).
COMMANDS = {
    "deal": (["deal", "-g", "kratzen", "-n", "1"], "--out", []),
    "tree": (["tree", "{input}", "--depth", "1"], "--out", []),
    "batch": (["batch", "{input}", "-j", "1"], "--out", []),
    "bench": (["bench", "-g", "kratzen", "-n", "1", "--time-limit", "5"], "--out", []),
    "postmortem": (["postmortem", "{input}", "--board", "5"], "--plot", []),  # one record: its plot is the path
}
#: The suffix each command's output takes (the tree's and the plot's format follows it).
SUFFIX = {"deal": ".tbn", "tree": ".json", "batch": ".jsonl", "bench": ".json", "postmortem": ".svg"}
READS_INPUT = ("tree", "batch", "postmortem")
BY_SUFFIX = ("tree", "postmortem")  # the format chosen by the output's suffix, checked before the path


def command_line(command: str, path: object, source: Path) -> list[str]:
    before, option, after = COMMANDS[command]
    return [part.replace("{input}", str(source)) for part in before] + [option, str(path), *after]


@pytest.fixture
def source(tmp_path) -> Path:
    copy = tmp_path / "deals.tbn"
    shutil.copyfile(EXAMPLE, copy)
    return copy


def refused(command: str, path: object, source: Path) -> str:
    result = runner.invoke(app, command_line(command, path, source))
    assert result.exit_code == 1 and not result.stdout, (result.exit_code, result.stdout, result.stderr)
    return result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_a_missing_folder_and_a_read_only_file_are_refused_alike(command, tmp_path, source) -> None:
    # a tree's --out or a plot without a format's suffix is a usage error first
    suffix = SUFFIX[command] if command in BY_SUFFIX else ""
    folder = tmp_path / f"runs{suffix}"
    folder.mkdir()
    assert refused(command, folder, source) == (
        f"stich: {folder}: cannot be written: it is a folder, where a file name was expected (to write into the "
        f"folder, name the file in it: {folder / f'NAME{suffix}'})\n")
    missing = tmp_path / "missing" / f"out{SUFFIX[command]}"
    assert refused(command, missing, source) == (f"stich: {missing}: cannot be written: the folder {missing.parent} "
                                                 "does not exist (make it, or choose another file)\n")
    locked = tmp_path / f"kept{SUFFIX[command]}"
    locked.write_text("kept\n")
    locked.chmod(0o444)  # refused by its permissions even where the user is root, whom they do not stop
    assert refused(command, locked, source) == (f"stich: {locked}: cannot be written: it is read-only (give it "
                                                "write permission, or choose another file)\n")
    assert locked.read_text() == "kept\n" and sorted(path.name for path in tmp_path.iterdir()) == [
        "deals.tbn", locked.name, folder.name]


@pytest.mark.parametrize("command", [command for command in COMMANDS if command not in BY_SUFFIX])  # suffix first
def test_a_device_other_than_dev_null_is_refused(command, source) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    assert refused(command, "/dev/full", source) == (
        "stich: /dev/full: cannot be written: it is a device, not a file (standard output, /dev/null, a terminal and "
        "a named pipe are written as the output comes; any other name a file)\n")


@pytest.mark.parametrize("command", READS_INPUT)
def test_the_input_file_is_refused_as_the_output_and_left_as_it_was(command, source) -> None:
    if command in BY_SUFFIX:  # an output named as a format's, which is checked first
        source = source.rename(source.with_suffix(SUFFIX[command]))
    before = source.read_bytes()
    fate = "to which the output would be appended" if command == "batch" else "which the output would replace"
    assert refused(command, source, source) == (f"stich: {source}: cannot be written: it is the input being read, "
                                                f"{fate}; choose another file\n")
    link = source.with_name(f"link{source.suffix}")
    link.symlink_to(source.name)
    assert refused(command, link, source) == (f"stich: {link}: cannot be written: it is the input being read "
                                              f"({source}), {fate}; choose another file\n")
    assert source.read_bytes() == before


@pytest.mark.parametrize("command", BY_SUFFIX)
def test_an_out_without_a_format_s_suffix_is_a_usage_error_before_what_the_path_is(command, tmp_path, source) -> None:
    """``tree --out deals.tbn`` (its own input), a folder or a device, and ``postmortem --plot`` alike: the missing
    format is said first (exit 2), since no such path would be written whatever it is."""
    (tmp_path / "runs").mkdir()
    said = {"tree": "the tree is written as .graphml, .gexf, .json", "postmortem": "the plot is written as .png"}
    for path in (source, tmp_path / "runs", "/dev/full"):
        result = runner.invoke(app, command_line(command, path, source))
        assert result.exit_code == 2 and not result.stdout, result.stderr
        assert f"{path}: {said[command]}" in " ".join(result.stderr.replace("│", " ").split())


@pytest.mark.parametrize("records", ["one", "several"])
def test_a_plot_suffix_not_written_is_said_before_a_missing_folder(tmp_path, source, records) -> None:
    """``--plot /missing/dir/x.txt`` says the suffix before the missing folder, since the suffix must change wherever
    the plot goes (else a rerun with the folder made meets the suffix next), with one record (a file checked) or several
    (a folder checked) alike."""
    chosen = ["--board", "5"] if records == "one" else []
    result = runner.invoke(app, ["postmortem", str(source), *chosen, "--plot", str(tmp_path / "missing" / "x.txt")])
    assert result.exit_code == 2 and "the plot is written as .png, .svg or .pdf" in result.stderr, result.stderr
    assert "does not exist" not in result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_where_a_folder_of_the_path_should_be_is_named(command, source) -> None:
    inside = source / f"out{SUFFIX[command]}"
    assert refused(command, inside, source) == (f"stich: {inside}: cannot be written: {source} is a file, where a "
                                                "folder was expected (choose another path)\n")


def test_a_relative_path_s_folder_is_named_as_given(tmp_path, source, monkeypatch) -> None:
    """The folder a message names is the path's as the user gave it, not the real path the checks use."""
    monkeypatch.chdir(tmp_path)
    assert refused("deal", "nodir/x.tbn", source) == (
        "stich: nodir/x.tbn: cannot be written: the folder nodir does not exist (make it, or choose another file)\n")
    assert refused("batch", "deals.tbn/x.jsonl", source) == (
        "stich: deals.tbn/x.jsonl: cannot be written: deals.tbn is a file, where a folder was expected (choose "
        "another path)\n")


def test_several_records_plots_are_checked_by_their_folder_not_by_the_path_given(tmp_path, source) -> None:
    """With several records each plot is X-<board>: X itself is never written, so that it is read-only or the input
    refuses nothing; a missing folder still does."""
    given = tmp_path / "X.svg"
    given.write_text("kept\n")
    given.chmod(0o444)
    result = runner.invoke(app, ["postmortem", str(source), "--plot", str(given)])
    assert result.exit_code == 0, result.stderr
    assert given.read_text() == "kept\n" and (tmp_path / "X-5.svg").exists()
    result = runner.invoke(app, ["postmortem", str(source), "--plot", str(tmp_path / "deals.tbn")])
    assert result.exit_code == 2 and "the plot is written as .png, .svg or .pdf" in result.stderr  # not "the input"
    missing = tmp_path / "missing" / "X.svg"
    assert runner.invoke(app, ["postmortem", str(source), "--plot", str(missing)]).stderr == (
        f"stich: {missing}: cannot be written: the folder {missing.parent} does not exist (make it, or choose "
        "another file)\n")


def test_postmortem_hands_the_plot_its_own_path(tmp_path, monkeypatch) -> None:
    """write_plot writes through a temporary file itself: the command hands it the plot's path, not a temporary one
    of its own (a second temporary and rename round the first)."""
    import solver.plot

    written: list[Path] = []
    real = solver.plot.write_plot
    monkeypatch.setattr(solver.plot, "write_plot", lambda analysis, path: written.append(Path(path)) or real(analysis,
                                                                                                             path))
    plot = tmp_path / "play.svg"
    result = runner.invoke(app, ["postmortem", str(EXAMPLE), "--board", "5", "--plot", str(plot)])
    assert result.exit_code == 0, result.stderr
    assert written == [plot] and plot.read_text().startswith("<?xml")
    assert sorted(tmp_path.iterdir()) == [plot]


def stich(*arguments: str) -> subprocess.CompletedProcess:
    """The command in a process of its own, stdout a pipe (a name of stdout then names a pipe, as in a shell)."""
    return subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", *arguments],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_stdout_s_names_write_to_stdout_in_every_command_that_writes_data_there(name, tmp_path, source) -> None:
    """Stdout's names (``-``, /dev/stdout) write each command's output to stdout: tree's as --json prints it (it has no
    format suffix), batch's lines as they come, ``-`` as /dev/stdout. Post-mortem's ``--plot`` to stdout, where the
    post-mortem is printed, is refused (exit 2), and nothing is written beside the source."""
    outputs = {command: stich(*command_line(command, name, source)) for command in ("deal", "tree", "batch", "bench")}
    assert all(done.returncode == 0 for done in outputs.values()), {c: d.stderr for c, d in outputs.items()}
    assert outputs["deal"].stdout.startswith('[Game "Kratzen"]')
    assert outputs["tree"].stdout == stich("tree", str(source), "--depth", "1", "--json").stdout
    assert [json.loads(line)["id"].rpartition("#")[2] for line in outputs["batch"].stdout.splitlines()] == [
        "1", "2", "3", "4", "5"]  # every record of the file, once
    assert json.loads(outputs["bench"].stdout)["command"] == "bench"
    plot = stich(*command_line("postmortem", name, source))
    assert plot.returncode == 2 and (f"--plot {name} writes to stdout, where the post-mortem is printed: give --plot "
                                     "a file") in " ".join(plot.stderr.replace("│", " ").split())
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deals.tbn"]  # nothing written beside


def into_a_socket(*arguments: str) -> tuple[int, str, str]:
    """The command in a process of its own, stdout one end of a socket pair (as under a service manager or over
    ssh): its exit code, what the other end read, its stderr."""
    import socket

    ours, theirs = socket.socketpair()
    with ours:
        with subprocess.Popen([sys.executable, "-c", "from solver.cli.main import main; main()", *arguments],
                              stdout=theirs, stderr=subprocess.PIPE, text=True, cwd=ROOT) as process:
            theirs.close()
            read = b""
            while chunk := ours.recv(65536):
                read += chunk
            stderr = process.communicate(timeout=120)[1]
    return process.returncode, read.decode(), stderr


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_stdout_s_names_write_into_a_socket_stdout_in_every_command(name, source) -> None:
    """A socket cannot be opened by its /dev/stdout name: batch appends to the descriptor already open, as deal and
    tree write theirs, and names the path as given."""
    for command in ("deal", "tree", "batch"):
        returncode, read, stderr = into_a_socket(*command_line(command, name, source))
        assert returncode == 0, (command, stderr)
        if command == "batch":
            assert [json.loads(line)["id"].rpartition("#")[2] for line in read.splitlines()] == [
                "1", "2", "3", "4", "5"]
            assert "5 written to stdout (5 solved, 0 errors), " in stderr and "already done" not in stderr
        else:
            assert read.startswith('[Game "Kratzen"]' if command == "deal" else "{")


def test_a_terminal_is_written_as_the_output_comes_as_dev_null_is(source) -> None:
    """A terminal named by ``--out`` (here a pty's slave, as /dev/tty or /dev/stderr on one would be) shows the
    output as it comes; any other device is still refused (test_a_device_other_than_dev_null_is_refused)."""
    import threading
    import tty

    for command in ("deal", "batch"):
        master, slave = os.openpty()
        tty.setraw(slave)  # the bytes as written, without the terminal's \r before each \n
        shown: list[bytes] = []

        def read_all(master: int = master, shown: list[bytes] = shown) -> None:
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every end of the slave closed, all read
                    return
                if not chunk:
                    return
                shown.append(chunk)

        reader = threading.Thread(target=read_all)
        reader.start()
        try:
            done = stich(*command_line(command, os.ttyname(slave), source))
        finally:
            os.close(slave)
            reader.join(timeout=60)
            os.close(master)
        assert done.returncode == 0, done.stderr
        text = b"".join(shown).decode()
        if command == "deal":
            assert text.startswith('[Game "Kratzen"]') and not done.stdout
        else:
            assert [json.loads(line)["id"].rpartition("#")[2] for line in text.splitlines()] == [
                "1", "2", "3", "4", "5"]


def test_a_tree_file_stdout_is_redirected_to_gets_the_tree_in_its_name_s_format(tmp_path, source) -> None:
    """As ``deal --out d.tbn > d.tbn`` writes its records there: only stdout's names mean the JSON tree on stdout."""
    graph = tmp_path / "t.graphml"
    with open(graph, "w") as stdout:
        done = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "tree", str(source),
                               "--depth", "1", "--out", str(graph)], stdout=stdout, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert graph.read_text().startswith("<?xml") and "<graphml" in graph.read_text()


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_tree_s_out_to_stdout_with_json_prints_the_json_tree(name, source) -> None:
    done = stich("tree", str(source), "--depth", "1", "--out", name, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stdout == stich("tree", str(source), "--depth", "1", "--json").stdout


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_batch_s_lines_and_json_summary_share_stdout_the_summary_last(name, source) -> None:
    done = stich("batch", str(source), "-j", "1", "--out", name, "--json")
    assert done.returncode == 0, done.stderr
    *lines, summary = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["id"].rpartition("#")[2] for line in lines] == ["1", "2", "3", "4", "5"]
    assert summary["command"] == "batch" and summary["out"] == name and summary["solved"] == 5


def test_batch_to_stdout_appended_to_a_file_neither_resumes_from_it_nor_rewrites_it(tmp_path, source) -> None:
    """``>> results.jsonl`` with ``--out -``: stdout is a stream, so the file it appends to is neither read to resume
    (every record is solved again, after the lines kept) nor tidied by a copy renamed over it."""
    results = tmp_path / "results.jsonl"
    for _ in range(2):
        with open(results, "a") as stdout:
            done = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "batch",
                                   str(source), "-j", "1", "--out", "-"], stdout=stdout, stderr=subprocess.PIPE,
                                  text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0 and "written to stdout (5 solved, 0 errors), " in done.stderr, \
            done.stderr
        assert "holds no work" not in done.stderr
    ids = [json.loads(line)["id"].rpartition("#")[2] for line in results.read_text().splitlines()]
    assert ids == ["1", "2", "3", "4", "5"] * 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deals.tbn", "results.jsonl"]  # no lock, no copy
