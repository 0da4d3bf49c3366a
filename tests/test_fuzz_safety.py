"""Safety: no input is ever evaluated or unpickled, and no output file is left half-written under its own name.

The audit reads the source's syntax trees for the names that turn data into code or objects, through each module's
imports and their aliases. Multiprocessing and Dask pickle our own task objects between our own processes; that is
not input, and none of it is spelled out in ``solver/`` or ``cli/`` as a call on a file or a string read from one
(the audit would show it).
"""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzz_inputs import EXAMPLE_TEXTS
from solver.cli.main import app
from solver.formats.tbn import parse_records, write_records

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("solver", "cli") for p in (ROOT / folder).rglob("*.py")
                 if "solver/cli" not in p.as_posix())
#: What turns text into code or objects, by the dotted name it resolves to through the module's imports (``from
#: importlib import import_module as load`` makes ``load`` importlib.import_module, ``import pickle as p`` makes
#: ``p.loads`` pickle.loads). The builtins are their bare names, also where an import binds the name to something
#: else (``from math import exp as eval`` in one function leaves the builtin in the others).
FORBIDDEN_NAMES = frozenset({
    "eval", "exec", "compile", "__import__", "builtins.eval", "builtins.exec", "builtins.compile",
    "builtins.__import__", "importlib.__import__", "shelve.open",
    # a module named by text, unless the text is relative ('.name'): that reaches only the package's own modules
    # (the commands and the public names, imported on first use)
    "importlib.import_module",
    "runpy.run_path", "runpy.run_module",
})
#: The bare names of :data:`FORBIDDEN_NAMES` that are builtins: an import binding one of them hides nothing.
FORBIDDEN_BUILTINS = frozenset(name for name in FORBIDDEN_NAMES if "." not in name)
#: The last two parts of a dotted name that unpickle or unmarshal, whatever module they are reached through
#: (``distributed.protocol.pickle.loads``, an attribute of an object assigned the module).
FORBIDDEN_ENDINGS = frozenset((module, function) for module in ("pickle", "_pickle", "marshal")
                              for function in ("load", "loads", "Unpickler") if (module, function) != ("marshal",
                                                                                                      "Unpickler"))
#: The last part of a dotted name that builds a module from a file by its path (what an import by name does,
#: without the search), whatever precedes it (``importlib.util``, ``importlib._bootstrap``, a local alias).
FORBIDDEN_LAST_PARTS = frozenset({"spec_from_file_location", "spec_from_loader", "module_from_spec",
                                  "SourceFileLoader", "SourcelessFileLoader"})
#: YAML's loaders that may build any object (``yaml.load``, ``ruamel.yaml.load``, ``yaml.unsafe_load_all``): each
#: function of a ``yaml`` module with "load" in its name except the two that build only plain data.
YAML_SAFE_LOADERS = frozenset({"safe_load", "safe_load_all"})


def _forbidden(dotted: str) -> bool:
    """Whether a dotted name (as resolved through the imports) turns text into code or objects."""
    parts = dotted.split(".")
    return (dotted in FORBIDDEN_NAMES or parts[-1] in FORBIDDEN_LAST_PARTS
            or tuple(parts[-2:]) in FORBIDDEN_ENDINGS
            or (len(parts) > 1 and parts[-2] == "yaml" and "load" in parts[-1]
                and parts[-1] not in YAML_SAFE_LOADERS))


#: Modules whose import alone is the finding (each is unpickling by another name).
FORBIDDEN_MODULES = frozenset({"cPickle", "dill", "jsonpickle"})
#: Methods that are the finding on any object (a module spec's loader running a file).
FORBIDDEN_METHODS = frozenset({"exec_module"})


def _imported_names(tree: ast.AST) -> dict[str, set[str]]:
    """Each name an import binds anywhere in the module, with the dotted names it stands for (several where
    imports in two functions bind it to two things: each is checked). A relative import's names start with a dot:
    the package's own, never forbidden."""
    bound: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.partition(".")[0]
                bound.setdefault(local, set()).add(alias.name if alias.asname else local)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                bound.setdefault(alias.asname or alias.name, set()).add(f"{module}.{alias.name}")
    return bound


def _resolved(node: ast.expr, bound: dict[str, set[str]]) -> set[str]:
    """The dotted names a name or an attribute chain stands for (empty for anything else: a call's result)."""
    if isinstance(node, ast.Name):
        if node.id in FORBIDDEN_BUILTINS:  # an import of that name elsewhere may not reach this use
            return bound.get(node.id, set()) | {node.id}
        return bound.get(node.id, {node.id})
    if isinstance(node, ast.Attribute):
        return {f"{base}.{node.attr}" for base in _resolved(node.value, bound)}
    return set()


def _relative_import(call: ast.Call) -> bool:
    """``import_module(".name", __package__)`` or ``(f".{name}", ...)``: the package's own modules only."""
    first = call.args[0] if call.args else None
    if isinstance(first, ast.JoinedStr) and first.values:
        first = first.values[0]
    return isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith(".")


def forbidden_uses(source: str) -> list[tuple[int, str, str]]:
    """Each use in ``source`` of what turns text into code or objects: (line, the enclosing function's qualified
    name or ``<module>``, the dotted name used), by the module's syntax tree, so that an alias or a ``from``
    import is seen as the name it binds (the line grep this replaced missed ``from importlib import
    import_module``)."""
    tree = ast.parse(source)
    bound = _imported_names(tree)
    # a forbidden name imported but never read by its name is reported at its import (it may be reached otherwise)
    loaded = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    uses: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, scope: str, exempt: set[int]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = node.name if scope == "<module>" else f"{scope}.{node.name}"
        if isinstance(node, ast.Call) and _relative_import(node) \
                and _resolved(node.func, bound) & {"importlib.import_module"}:
            exempt = exempt | {id(node.func)}
        if isinstance(node, ast.Import):
            uses.extend((node.lineno, scope, alias.name) for alias in node.names
                        if alias.name.partition(".")[0] in FORBIDDEN_MODULES)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] in FORBIDDEN_MODULES \
                and not node.level:
            uses.append((node.lineno, scope, node.module or ""))
        elif isinstance(node, ast.ImportFrom) and not node.level:  # imported and not used by its name here
            uses.extend((node.lineno, scope, f"{node.module}.{alias.name}") for alias in node.names
                        if _forbidden(f"{node.module}.{alias.name}") and (alias.asname or alias.name) not in loaded)
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load) \
                and id(node) not in exempt:
            names = sorted(name for name in _resolved(node, bound) if _forbidden(name))
            if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_METHODS:
                names.append(f".{node.attr}")
            uses.extend((node.lineno, scope, name) for name in names)
        for child in ast.iter_child_nodes(node):
            visit(child, scope, exempt)

    visit(tree, "<module>", set())
    return uses


def test_the_audit_sees_the_source():
    """The audit below looks at every module of the package and the CLI (and would catch a call)."""
    names = {p.name for p in SOURCES}
    assert {"tbn.py", "position.py", "main.py", "batch.py", "api.py"} <= names
    assert forbidden_uses("x = pickle.load(stream)") == [(1, "<module>", "pickle.load")]  # unbound: as spelt
    assert forbidden_uses("import pickle\nx = pickle.load(stream)") == [(2, "<module>", "pickle.load")]
    assert forbidden_uses("eval (text)") == [(1, "<module>", "eval")]
    assert forbidden_uses("import re\nre.compile(r'x')\ndef evaluate(self):\n    pass") == []
    assert forbidden_uses("import importlib\nimportlib.import_module(name)\nimportlib.import_module('os')") == [
        (2, "<module>", "importlib.import_module"), (3, "<module>", "importlib.import_module")]
    assert forbidden_uses("import importlib\nimportlib.import_module(f'.{module}', __package__)\n"
                          "importlib.import_module('.games', __name__)") == []
    assert forbidden_uses("import importlib.util\nimportlib.util.spec_from_file_location(name, path)") == [
        (2, "<module>", "importlib.util.spec_from_file_location")]
    assert forbidden_uses("spec.loader.exec_module(module)") == [(1, "<module>", ".exec_module")]


@pytest.mark.parametrize("source, expected", [
    ("from importlib import import_module\ndef load(name):\n    return import_module(name)",
     [(3, "load", "importlib.import_module")]),
    ("import importlib as il\nclass Loader:\n    def load(self, name):\n        return il.import_module(name)",
     [(4, "Loader.load", "importlib.import_module")]),
    ("from importlib import import_module as load\nload(name)", [(2, "<module>", "importlib.import_module")]),
    ("from importlib import import_module\nloaders = [import_module]", [(2, "<module>", "importlib.import_module")]),
    ("import pickle as p\np.loads(data)", [(2, "<module>", "pickle.loads")]),
    ("from pickle import loads as thaw\nthaw(data)", [(2, "<module>", "pickle.loads")]),
    ("import pickle\npickle.dumps(data)", []),
    ("from marshal import loads\nloads(data)", [(2, "<module>", "marshal.loads")]),
    ("import marshal as m\nm.dumps(code)", []),
    ("import runpy\nrunpy.run_path(path)", [(2, "<module>", "runpy.run_path")]),
    ("from runpy import run_module as run\nrun(name)", [(2, "<module>", "runpy.run_module")]),
    ("from importlib.util import module_from_spec as build\nbuild(spec)",
     [(2, "<module>", "importlib.util.module_from_spec")]),
    ("from importlib import util\nutil.spec_from_file_location(name, path)",
     [(2, "<module>", "importlib.util.spec_from_file_location")]),
    ("import builtins\nbuiltins.eval(text)", [(2, "<module>", "builtins.eval")]),
    ("from builtins import exec as run\nrun(text)", [(2, "<module>", "builtins.exec")]),
    ("import dill", [(1, "<module>", "dill")]),
    ("from jsonpickle import decode", [(1, "<module>", "jsonpickle")]),
    ("from .games import import_module\nimport_module(name)", []),  # the package's own function of that name
    ("from distributed.protocol import pickle\npickle.loads(b)",
     [(2, "<module>", "distributed.protocol.pickle.loads")]),
    ("import ruamel.yaml\nruamel.yaml.load(s)", [(2, "<module>", "ruamel.yaml.load")]),
    ("from ruamel import yaml\nyaml.unsafe_load_all(s)", [(2, "<module>", "ruamel.yaml.unsafe_load_all")]),
    ("import yaml\nyaml.safe_load(s)", []),
    ("import importlib.util\nu = importlib.util\nu.spec_from_file_location(n, p)",
     [(3, "<module>", "u.spec_from_file_location")]),
    ("from importlib._bootstrap_external import SourceFileLoader",
     [(1, "<module>", "importlib._bootstrap_external.SourceFileLoader")]),
    ("import importlib._bootstrap\nimportlib._bootstrap.module_from_spec(spec)",
     [(2, "<module>", "importlib._bootstrap.module_from_spec")]),
    ("from importlib.util import spec_from_loader as spec\nspec(n, loader)",
     [(2, "<module>", "importlib.util.spec_from_loader")]),
    ("from marshal import load\nload(f)", [(2, "<module>", "marshal.load")]),
    ("def f():\n    from math import exp as eval\n    return eval(1)\ndef g(t):\n    return eval(t)",
     [(3, "f", "eval"), (5, "g", "eval")]),  # the import does not reach g; in f it is suspect too
    ("from math import exp as exec\nexec(t)", [(2, "<module>", "exec")]),
])
def test_the_audit_resolves_imports_and_aliases(source, expected):
    """Each way of spelling a forbidden name is seen as that name; a harmless name of the same modules is not."""
    assert forbidden_uses(source) == expected


#: The imports of a module named by text that is not the package's own: a bot of one's own, ``stich match --bots
#: MODULE:ATTRIBUTE`` or ``make_bot`` (solver.bots.load_bot), named by the user who runs the match; and a match's
#: pool workers loading the same module from the file load_bot imported it from (solver.workers.load_in_workers,
#: which only load_bot calls), so that they unpickle the bots from the module the parent loaded. No deal file,
#: checkpoint or board request reaches either (test_a_bot_of_one_s_own_is_loaded_only_from_the_command_line).
#: And a one-job-at-a-time worker (solver.workers.serve_solo) importing the ``module:function`` its parent started
#: it with: a name in stich's own code (SoloWorker's target), on the child's command line from the parent.
IMPORTS_OF_ONE_S_OWN_CODE = {
    ("solver/bots.py", "_import_from_here", "importlib.import_module"),
    ("solver/workers.py", "OwnModuleFinder.find_spec", "importlib.util.spec_from_file_location"),
    ("solver/workers.py", "serve_solo", "importlib.import_module"),
}

#: The one unpickling spelled out: a bot's exception inside a match's BotError, pickled on its own by
#: ``BotError.__reduce__`` in the match's own worker process and carried back by the pool's own pickling (so that a
#: class the parent cannot rebuild costs only that exception). No file, checkpoint or request reaches it.
#: And a local pool's job, pickled by the run's own process (solver.workers._submit) and rebuilt in its worker by
#: ``_rebuilt_and_run``, so that a job the worker cannot rebuild (a bot's module failing to import there) is the
#: job's error, not a dead worker: the bytes the pool itself would have unpickled there, from the same process.
UNPICKLING_OF_ONE_S_OWN_WORKERS = {
    ("solver/match.py", "BotError.__setstate__", "pickle.loads"),
    ("solver/workers.py", "_rebuilt_and_run", "pickle.loads"),
}

#: (file, function, name used): allowed by the function it is in, not by its line's text
ALLOWED = IMPORTS_OF_ONE_S_OWN_CODE | UNPICKLING_OF_ONE_S_OWN_WORKERS


def test_no_eval_exec_or_unpickling_in_the_source():
    hits, allowed_seen = [], set()
    for path in SOURCES:
        name = path.relative_to(ROOT).as_posix()
        for line, scope, used in forbidden_uses(path.read_text(encoding="utf-8")):
            if (name, scope, used) in ALLOWED:
                allowed_seen.add((name, scope, used))
            else:
                hits.append(f"{name}:{line}: {scope}: {used}")
    assert hits == []
    assert allowed_seen == ALLOWED  # an allowance whose use is gone is taken out


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
    """``stich postmortem --plot``: the same for the SVG/PNG picture, which the library's ``write_plot`` writes to a
    temporary file of its own: matplotlib failing half way leaves nothing, and the message names the plot."""

    source = tmp_path / "in.tbn"
    source.write_text(EXAMPLE_TEXTS["schafkopf.tbn"], encoding="utf-8")
    plot = tmp_path / "plot.svg"

    def broken_savefig(figure, path, **options):
        Path(path).write_text("<svg", encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("matplotlib.figure.Figure.savefig", broken_savefig)
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
    """``stich deal --out`` killed with kill -9 leaves ``.x.xxxxxxxx.tbn``: the next write of the same file removes a
    temporary of its own name that no writer holds and that is old enough; a live writer's (it holds an flock on it), a
    fresh one (a writer that holds no lock: an older stich) and other files are left alone."""
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
