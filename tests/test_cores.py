"""The cores a process may use: its affinity, and no more than its control groups' CPU quota allows (a container
run with ``--cpus 2`` on a larger host), so that neither a question's threads nor a pool's workers oversubscribe
them. The quota files are written under a temporary root, as Linux lays them out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from solver import workers
from solver.search import engine
from solver.search.engine import cgroup_cpu_limit


def _groups(tmp_path: Path, proc: str, files: dict[str, str]) -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (tmp_path / "proc_cgroup").write_text(proc)
    return tmp_path / "proc_cgroup", root


@pytest.mark.parametrize("cpu_max, cores", [("200000 100000\n", 2), ("150000 100000\n", 2), ("50000 100000\n", 1),
                                            ("800000 100000\n", 8), ("max 100000\n", None)])
def test_a_v2_quota_in_the_process_group_bounds_the_cores(tmp_path, cpu_max, cores) -> None:
    proc, root = _groups(tmp_path, "0::/\n", {"cpu.max": cpu_max})
    assert cgroup_cpu_limit(proc, root) == cores


def test_the_least_quota_of_the_group_and_the_groups_above_it_counts(tmp_path) -> None:
    proc, root = _groups(tmp_path, "0::/machine/box/job\n", {
        "machine/cpu.max": "400000 100000", "machine/box/cpu.max": "300000 100000",
        "machine/box/job/cpu.max": "max 100000"})
    assert cgroup_cpu_limit(proc, root) == 3


def test_a_v1_quota_counts_and_minus_one_is_none(tmp_path) -> None:
    proc, root = _groups(tmp_path, "12:memory:/x\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n", {
        "cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "250000\n", "cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
        "cpu,cpuacct/cpu.cfs_quota_us": "-1\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"})
    assert cgroup_cpu_limit(proc, root) == 3
    (root / "cpu,cpuacct/docker/abc/cpu.cfs_quota_us").write_text("-1\n")
    assert cgroup_cpu_limit(proc, root) is None


def test_a_group_outside_the_namespace_is_not_guessed_at(tmp_path) -> None:
    # "/../sibling": the process's group lies outside what this cgroup namespace shows, so no file here is its
    proc, root = _groups(tmp_path, "0::/../sibling\n", {"cpu.max": "100000 100000", "sibling/cpu.max": "100000 100000"})
    assert cgroup_cpu_limit(proc, root) is None


@pytest.mark.parametrize("files", [{}, {"cpu.max": "garbage"}, {"cpu.max": "0 100000"}, {"cpu.max": ""},
                                   {"cpu.max": "100000 0"}])
def test_no_quota_or_an_unreadable_one_says_none(tmp_path, files) -> None:
    proc, root = _groups(tmp_path, "0::/\n", files)
    assert cgroup_cpu_limit(proc, root) is None
    assert cgroup_cpu_limit(tmp_path / "missing", root) is None


def test_the_quota_bounds_the_threads_and_the_workers(monkeypatch) -> None:
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    monkeypatch.setattr(engine, "_cgroup_cpu_limit_once", lambda: 1)
    assert engine.usable_cores() == 1
    assert engine.default_threads() == 1
    assert workers.local_workers(None) == 1
    assert workers.local_workers(3) == 3  # asked for: as many as asked
    monkeypatch.setattr(engine, "_cgroup_cpu_limit_once", lambda: 10_000)
    assert engine.usable_cores() == affinity  # a quota above the affinity changes nothing
    monkeypatch.setattr(engine, "_cgroup_cpu_limit_once", lambda: None)
    assert engine.usable_cores() == affinity
