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
    "postmortem": (["postmortem", "{input}"], "--plot", []),
}
#: The suffix each command's output takes (the tree's and the plot's format follows it).
SUFFIX = {"deal": ".tbn", "tree": ".json", "batch": ".jsonl", "bench": ".json", "postmortem": ".svg"}
READS_INPUT = ("tree", "batch", "postmortem")


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
    folder = tmp_path / "runs"
    folder.mkdir()
    assert refused(command, folder, source) == (
        f"stich: {folder}: cannot be written: it is a folder, where a file name was expected (to write into the "
        f"folder, name the file in it: {folder / 'NAME'})\n")
    missing = tmp_path / "missing" / f"out{SUFFIX[command]}"
    assert refused(command, missing, source) == (f"stich: {missing}: cannot be written: the folder {missing.parent} "
                                                 f"does not exist (make it, or choose another file)\n")
    locked = tmp_path / f"kept{SUFFIX[command]}"
    locked.write_text("kept\n")
    locked.chmod(0o444)  # refused by its permissions even where the user is root, whom they do not stop
    assert refused(command, locked, source) == (f"stich: {locked}: cannot be written: it is read-only (give it "
                                                f"write permission, or choose another file)\n")
    assert locked.read_text() == "kept\n" and sorted(path.name for path in tmp_path.iterdir()) == [
        "deals.tbn", locked.name, "runs"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_device_other_than_dev_null_is_refused(command, source) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    assert refused(command, "/dev/full", source) == (
        "stich: /dev/full: cannot be written: it is a device, not a file (standard output, /dev/null and a named "
        "pipe are written as the output comes; any other name a file)\n")


@pytest.mark.parametrize("command", READS_INPUT)
def test_the_input_file_is_refused_as_the_output_and_left_as_it_was(command, source) -> None:
    before = source.read_bytes()
    assert refused(command, source, source) == (f"stich: {source}: cannot be written: it is the input being read, "
                                                f"which the output would replace; choose another file\n")
    link = source.with_name("link.tbn")
    link.symlink_to(source.name)
    assert refused(command, link, source) == (f"stich: {link}: cannot be written: it is the input being read "
                                              f"({source}), which the output would replace; choose another file\n")
    assert source.read_bytes() == before


def stich(*arguments: str) -> subprocess.CompletedProcess:
    """The command in a process of its own, stdout a pipe (a name of stdout then names a pipe, as in a shell)."""
    return subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", *arguments],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("name", ["-", "/dev/stdout"])
def test_stdout_s_names_write_to_stdout_in_every_command_that_writes_data_there(name, tmp_path, source) -> None:
    """tree refused them (no format suffix) and batch refused ``-`` while it took /dev/stdout: each writes its output
    to stdout now, the tree as --json prints it, batch's lines as they come."""
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
