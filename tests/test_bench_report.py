"""``bench/report.py``'s Machine section: which package, commit and engine sources a report says it measured.

The report measures the installed package (its docstring), which is another checkout's when the one the script
lives in is not installed (a second clone or a git worktree beside an editable install). It printed this checkout's
commit and compared this checkout's engine sources with the other package's build: figures of one commit labelled
with another.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def report(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # report.py imports its neighbour dds.py as the script does
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "bench" / "report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_report", module)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "engine_build", lambda package=None: "sha256 0123456789ab")  # no pinned copy
    return module


def _git(directory: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True, check=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                               "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}).stdout.strip()


def test_the_machine_names_the_measured_package_and_its_commit_not_this_checkouts(report, monkeypatch, tmp_path):
    other = tmp_path / "other-checkout"
    (other / "solver").mkdir(parents=True)
    (other / "src_ext").mkdir()
    (other / "src_ext" / "search.pxd").write_text("# edited after the build\n")
    (other / "solver" / "_engine.so").write_bytes(b"")
    os.utime(other / "solver" / "_engine.so", (1, 1))  # built long before the source was edited
    _git(other, "init", "-q")
    _git(other, "add", "-A")
    _git(other, "commit", "-q", "-m", "other")
    monkeypatch.setattr(report, "live_package", lambda: other / "solver")
    info = report.machine()
    assert info["commit"] == _git(other, "rev-parse", "--short", "HEAD")
    assert info["package"] == (f"{other / 'solver'} (not this checkout's {ROOT / 'solver'}: the installed package "
                               f"is measured; PYTHONPATH={ROOT} measures this one)")
    assert info["engine sources newer than the build"] == "search.pxd"


def test_the_machine_of_this_checkout_says_its_own_package(report, monkeypatch):
    monkeypatch.setattr(report, "live_package", lambda: ROOT / "solver")
    info = report.machine()
    assert info["package"] == str(ROOT / "solver")
    assert info["commit"].split()[0] == subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                                       capture_output=True, text=True).stdout.strip()


def test_bad_options_are_said_before_the_run_not_as_a_traceback_after_it(report, monkeypatch, tmp_path, capsys):
    """--limit nan ended in a ValueError traceback at the first solve; an --out or --json that cannot be written in
    a FileNotFoundError traceback after the whole run (an hour of it at the default sizes); --dds-only without bridge
    DDS, or with --dds-deals 0, measured nothing and exited 0."""
    ran: list[object] = []
    monkeypatch.setattr(report, "run", lambda *args: ran.append(args))
    missing = tmp_path / "no such directory" / "report.json"
    for args, said in ((["--limit", "nan"], "--limit must be a number of seconds above 0 and at most 1,000,000, "
                                            "not nan"),
                       (["--limit", "inf"], "--limit must be a number of seconds above 0"),
                       (["--json", str(missing)], f"{missing}: No such file or directory"),
                       (["--out", str(missing.with_suffix(".md"))], "No such file or directory"),
                       (["--dds-only", "--dds-deals", "0"], "--dds-only measures only the lines paired with bridge "
                                                            "DDS, and --dds-deals is 0")):
        with pytest.raises(SystemExit) as exit_:
            report.main(args)
        assert exit_.value.code == 2 and said in capsys.readouterr().err
    monkeypatch.setattr(report, "dds_missing", lambda: "not installed (pip install -e '.[bench]')")
    with pytest.raises(SystemExit):
        report.main(["--dds-only", "--dds-deals", "3"])
    assert "and bridge DDS is not installed (pip install -e '.[bench]')" in capsys.readouterr().err
    assert not ran
