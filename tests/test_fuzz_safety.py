"""Safety: no input is ever evaluated or unpickled, and no output file is left half-written under its own name.

The audit greps the source for the calls that turn data into code or objects. Multiprocessing and Dask pickle our
own task objects between our own processes; that is not input, and none of it is spelled out in ``solver/`` or
``cli/`` as a call on a file or a string read from one (the grep would show it).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzz_inputs import EXAMPLE_TEXTS
from solver.cli.main import app
from solver.formats.tbn import parse_records, write_records

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("solver", "cli") for p in (ROOT / folder).rglob("*.py")
                 if "solver/cli" not in p.as_posix())
FORBIDDEN = re.compile(
    r"(?<![.\w])(eval|exec|compile)\s*\(|\bpickle\.loads?\b|\bcPickle\b|\bmarshal\.loads?\b|\bshelve\.open\b"
    r"|\byaml\.(unsafe_)?load\b|\bjsonpickle\b|\bdill\b|\b__import__\s*\("
    # a module named by text, unless the text is relative ('.name'): that reaches only the package's own modules
    # (the commands and the public names, imported on first use)
    r"|\bimportlib\.import_module\s*\((?!f?[\"']\.)"
    # a module loaded from a file by its path (what an import by name does, without the search)
    r"|\b(spec_from_file_location|spec_from_loader|module_from_spec)\s*\(|\.exec_module\s*\(|\bSourceFileLoader\b"
)


def test_the_audit_sees_the_source():
    """The grep below looks at every module of the package and the CLI (and would catch a call)."""
    names = {p.name for p in SOURCES}
    assert {"tbn.py", "position.py", "main.py", "batch.py", "api.py"} <= names
    assert FORBIDDEN.search("x = pickle.load(stream)") and FORBIDDEN.search("eval (text)")
    assert not FORBIDDEN.search("re.compile(r'x')") and not FORBIDDEN.search("def evaluate(self):")
    assert FORBIDDEN.search("importlib.import_module(name)") and FORBIDDEN.search('importlib.import_module("os")')
    assert not FORBIDDEN.search('importlib.import_module(f".{module}", __package__)')
    assert FORBIDDEN.search("importlib.util.spec_from_file_location(name, path)")
    assert FORBIDDEN.search("spec.loader.exec_module(module)")


#: The imports of a module named by text that is not the package's own: a bot of one's own, ``stich match --bots
#: MODULE:ATTRIBUTE`` or ``make_bot`` (solver.bots.load_bot), named by the user who runs the match; and a match's
#: pool workers loading the same module from the file load_bot imported it from (solver.workers.load_in_workers,
#: which only load_bot calls), so that they unpickle the bots from the module the parent loaded. No deal file,
#: checkpoint or board request reaches either (test_a_bot_of_one_s_own_is_loaded_only_from_the_command_line).
IMPORTS_OF_ONE_S_OWN_CODE = {
    "solver/bots.py": "module = importlib.import_module(module_name)",
    "solver/workers.py": ("return importlib.util.spec_from_file_location(name, origin, "
                          "submodule_search_locations=folders)"),
}

#: The one unpickling spelled out: a bot's exception inside a match's BotError, pickled on its own by
#: ``BotError.__reduce__`` in the match's own worker process and carried back by the pool's own pickling (so that a
#: class the parent cannot rebuild costs only that exception). No file, checkpoint or request reaches it.
#: And a local pool's job, pickled by the run's own process (solver.workers._submit) and rebuilt in its worker by
#: ``_rebuilt_and_run``, so that a job the worker cannot rebuild (a bot's module failing to import there) is the
#: job's error, not a dead worker: the bytes the pool itself would have unpickled there, from the same process.
UNPICKLING_OF_ONE_S_OWN_WORKERS = {
    "solver/match.py": "self.bot_exception = pickle.loads(pickled) if pickled is not None else None",
    "solver/workers.py": "task, args = pickle.loads(job)"}

ALLOWED: dict[str, set[str]] = {}
for table in (IMPORTS_OF_ONE_S_OWN_CODE, UNPICKLING_OF_ONE_S_OWN_WORKERS):
    for path, line in table.items():
        ALLOWED.setdefault(path, set()).add(line)


def test_no_eval_exec_or_unpickling_in_the_source():
    hits = []
    for path in SOURCES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if FORBIDDEN.search(code) and code.strip() not in ALLOWED.get(path.relative_to(ROOT).as_posix(), ()):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert hits == []


def test_a_bot_of_one_s_own_is_loaded_only_from_the_command_line():
    """``load_bot`` imports the user's module: only ``make_bot`` calls it, and only ``stich match`` (its --bots)
    calls ``make_bot``; the board, the readers and the checkpoints never do."""
    callers = sorted(f"{path.relative_to(ROOT).as_posix()}: {name}" for path in SOURCES
                     for name in ("load_bot(", "make_bot(") if name in path.read_text(encoding="utf-8")
                     and not path.read_text(encoding="utf-8").count(f"def {name}"))
    assert callers == ["cli/match.py: make_bot("]
    text = (ROOT / "solver" / "bots.py").read_text(encoding="utf-8")
    assert text.count("load_bot(") == 2  # its definition and make_bot's call
    # the modules pool workers load from files are those load_bot imported: its _import_from_here says which
    # and the folders searched last for a module a bot imports as it plays are those of load_bot's modules
    for name in ("load_in_workers(", "search_last("):
        loaders = sorted(path.relative_to(ROOT).as_posix() for path in SOURCES
                         if name in path.read_text(encoding="utf-8").replace(f"def {name}", ""))
        assert loaders == ["solver/bots.py"], name


# --- atomic output ----------------------------------------------------------------------------------------------------

def _record_text() -> str:
    return EXAMPLE_TEXTS["valat.tbn"]


def test_write_records_to_a_path_is_atomic(tmp_path):
    """A record that cannot be written half way through leaves the old file as it was, and no temporary file."""
    target = tmp_path / "out.tbn"
    target.write_text("old\n", encoding="utf-8")
    good = parse_records(_record_text())[0]
    bad = parse_records(_record_text())[0]
    bad.tags[0].name = "not a word"
    with pytest.raises(ValueError):
        write_records([good, bad], target)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.tbn"]
    write_records([good], target)
    assert parse_records(target.read_text(encoding="utf-8"))[0].get("Deal") == good.get("Deal")
    assert target.stat().st_mode & 0o044  # an ordinary file, readable like one written by open()


def test_tree_output_is_atomic(tmp_path, monkeypatch):
    """``stich tree --out``: a writer that fails half way leaves the old file and no temporary file behind."""
    import solver.tree as tree_module  # the command imports it on use

    source = tmp_path / "in.tbn"
    source.write_text(EXAMPLE_TEXTS["schafkopf.tbn"], encoding="utf-8")
    out = tmp_path / "tree.json"
    out.write_text("old\n", encoding="utf-8")

    def broken_writer(graph, path):
        Path(path).write_text('{"half', encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tree_module, "write_tree", broken_writer)
    result = CliRunner().invoke(app, ["tree", str(source), "--board", "6", "--depth", "1", "--out", str(out)])
    assert result.exit_code == 1 and result.stderr.strip() == f"stich: {out}: No space left on device"
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tbn", "tree.json"]
    monkeypatch.undo()
    result = CliRunner().invoke(app, ["tree", str(source), "--board", "6", "--depth", "1", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert out.read_text(encoding="utf-8").startswith("{")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tbn", "tree.json"]


def test_postmortem_plot_is_atomic(tmp_path, monkeypatch):
    """``stich postmortem --plot``: the same for the SVG/PNG picture."""
    import solver.cli.postmortem as postmortem_command

    source = tmp_path / "in.tbn"
    source.write_text(EXAMPLE_TEXTS["schafkopf.tbn"], encoding="utf-8")
    plot = tmp_path / "plot.svg"

    def broken_plot(analysis, path):
        Path(path).write_text("<svg", encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(postmortem_command, "write_plot", broken_plot)
    result = CliRunner().invoke(app, ["postmortem", str(source), "--board", "6", "--plot", str(plot)])
    assert result.exit_code == 1 and result.stderr.strip() == f"stich: {plot}: No space left on device", \
        result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tbn"]


def test_stdout_writer_does_not_touch_files(tmp_path, monkeypatch):
    """``atomic_writer(None)`` is stdout: the commands' default output creates no file."""
    from solver.cli.output import atomic_writer

    monkeypatch.chdir(tmp_path)
    buffer = io.StringIO()
    monkeypatch.setattr("sys.stdout", buffer)
    with atomic_writer(None) as stream:
        stream.write("x")
    assert buffer.getvalue() == "x" and list(tmp_path.iterdir()) == []


def test_an_atomic_write_follows_links_and_keeps_permissions(tmp_path):
    """A link is not replaced by a file (its target is written), a file keeps its permissions, and a path that is
    no regular file (a named pipe, a device such as /dev/null) is not replaced by a file."""
    import os
    import stat
    import threading

    from solver.files import atomic_file

    target = tmp_path / "target.tbn"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.tbn"
    link.symlink_to("target.tbn")
    with atomic_file(link) as stream:
        stream.write("new\n")
    assert link.is_symlink() and target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fifo = tmp_path / "pipe.tbn"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    with atomic_file(fifo) as stream:
        stream.write("through the pipe\n")
    reader.join(10)
    assert received == ["through the pipe\n"] and stat.S_ISFIFO(fifo.stat().st_mode)
    with atomic_file("/dev/null") as stream:
        stream.write("gone\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left behind


def test_a_temporary_file_left_by_a_killed_writer_is_removed_by_the_next_write(tmp_path):
    """``stich deal --out`` killed with kill -9 left ``.x.xxxxxxxx.tbn`` for good. The next write of the same file
    removes a temporary of its own name that no writer holds and that is old enough; a live writer's (it holds an
    flock on it), a fresh one (a writer that holds no lock: an earlier stich) and other files are left alone."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from solver.files import STALE_TEMPORARY_SECONDS, atomic_file

    out = tmp_path / "x.tbn"
    code = ("import sys, time; from solver.files import atomic_file\n"
            "with atomic_file(sys.argv[1]) as stream:\n"
            "    stream.write('half'); stream.flush(); print('writing', flush=True); time.sleep(60)\n")
    killed = subprocess.Popen([sys.executable, "-c", code, str(out)], stdout=subprocess.PIPE, text=True)
    assert killed.stdout is not None and killed.stdout.readline().strip() == "writing"
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    (stale,) = [p for p in tmp_path.iterdir() if p.name.startswith(".x.")]
    live = subprocess.Popen([sys.executable, "-c", code, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert live.stdout is not None and live.stdout.readline().strip() == "writing"
        (writing,) = [p for p in tmp_path.iterdir() if p.name.startswith(".x.") and p != stale]
        fresh = tmp_path / ".x.k3x_9q2z.tbn"
        fresh.write_text("an unlocked writer's, just now")
        others = [tmp_path / name for name in (".x.notours.tbn", ".y.k3x_9q2z.tbn", ".x.k3x_9q2z.json")]
        long_ago = time.time() - STALE_TEMPORARY_SECONDS - 60
        for path in [*others, writing, stale]:
            path.touch()
            os.utime(path, (long_ago, long_ago))
        with atomic_file(out) as stream:
            stream.write("whole\n")
        assert not stale.exists() and writing.exists() and fresh.exists() and all(p.exists() for p in others)
        assert out.read_text() == "whole\n"
    finally:
        live.kill()
        live.wait()
    with atomic_file(out) as stream:  # the lock went with its writer: its old file is stale now
        stream.write("again\n")
    assert not writing.exists() and fresh.exists()
