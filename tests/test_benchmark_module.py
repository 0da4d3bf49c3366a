"""solver.benchmark on a few deals: the statistics are consistent, the deals fixed by the seed, a solve over the limit
is recorded rather than skipped, and the techniques switched off still give the same answers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import solver

from solver.benchmark import (ABLATIONS, COPY_LOCK, ENDING_TRICKS, BenchLine, BenchStats, DealResult, ablation,
                              ablation_configurations, bench_deals, endings_line, endings_lines, engine_fingerprint,
                              percentile, pinned_package, remove_orphaned_copies, run_endings_ratio, run_line,
                              standard_lines, target_met)
from solver.search.engine import EngineSolver

LINES = {line.name: line for line in standard_lines()}
KRATZEN = LINES["Kratzen 6 seats: every seat's guaranteed tricks"]
VALAT = LINES["Zwanzigerrufen Normal: Valat yes/no"]
EXACT = LINES["Zwanzigerrufen Normal: exact points"]


def _check_consistent(stats: BenchStats, deals: int) -> None:
    assert stats.deals == deals == len(stats.nodes) == len(stats.boards) == len(stats.answers)
    assert min(stats.times_ms) <= stats.median <= stats.p90 <= stats.p99 <= stats.max == max(stats.times_ms)
    assert all(n > 0 for n in stats.nodes)
    assert stats.nodes_per_second > 0
    memory = stats.peak_table_bytes
    assert memory.allocated == 64 * 1024 * 1024
    assert 0 < memory.used <= memory.allocated and memory.used % 16 == 0  # whole entries of 16 and 32 bytes
    assert stats.timeouts == 0 and not stats.is_lower_bound(stats.max)
    record = stats.as_dict()
    assert record["median_ms"] == stats.median and record["p99_ms"] == stats.p99
    assert record["table_allocated_bytes"] == memory.allocated and record["table_used_bytes"] == memory.used


def test_the_standard_lines():
    lines = standard_lines()
    assert len(lines) == 8 and all(line.target for line in lines) and all(line.deals == 100 for line in lines)
    assert [line.game for line in endings_lines()] == ["Zwanzigerrufen", "Schafkopf"]
    assert EXACT.target == "median <= 10 ms, p99 <= 200 ms"


def test_percentiles_are_measured_values():
    values = [5.0, 1.0, 3.0]
    assert percentile(values, 90) == percentile(values, 99) == percentile(values, 100) == 5.0
    assert percentile(range(1, 101), 90) == 90 and percentile(range(1, 101), 99) == 99
    with pytest.raises(ValueError):
        percentile([], 50)


def test_a_line_in_process_and_in_the_worker(tmp_path):
    """The two ways of solving (this process without a limit, the child process with one) time the same deals and
    give the same answers."""
    here = run_line(KRATZEN, deals=3, limit_s=None)
    there = run_line(KRATZEN, deals=3)
    _check_consistent(here, 3)
    _check_consistent(there, 3)
    assert here.boards == there.boards == [1, 2, 3]
    assert here.answers == there.answers
    assert all(len(answer) == 6 for answer in here.answers if answer is not None)


def test_yes_no_line_and_progress():
    seen = []
    stats = run_line(VALAT, deals=2, progress=seen.append, limit_s=None)
    _check_consistent(stats, 2)
    assert all(answer in ((0,), (1,)) for answer in stats.answers)
    assert [(p.done, p.total, p.board) for p in seen] == [(1, 2, 1), (2, 2, 2)]
    assert [p.ms for p in seen] == stats.times_ms


def test_a_line_of_a_billion_deals_deals_each_only_when_it_is_solved(monkeypatch):
    """bench -n 1000000000 deals each deal just before it is solved, not every deal before solving the first (14 MB a
    second and never a figure), so a run stopped after two deals has dealt two."""
    import solver.benchmark as benchmark

    dealt = []
    real = benchmark.prepare_deal
    monkeypatch.setattr(benchmark, "prepare_deal", lambda *args: dealt.append(args[1]) or real(*args))

    class Enough(Exception):
        pass

    def stop_after_two(progress):
        if progress.done == 2:
            assert progress.total == 10 ** 9
            raise Enough

    with pytest.raises(Enough):
        run_line(KRATZEN, deals=10 ** 9, progress=stop_after_two, limit_s=None)
    assert set(dealt) == {1, 2}  # (each dealt again where it is solved)


def test_the_same_seed_gives_the_same_deals():
    def texts(seed=None):
        return [(d.board, d.position.rules.deal.text(), str(d.position.rules.contract))
                for d in bench_deals(EXACT, 3, seed)]

    assert texts() == texts()
    assert texts() != texts(seed=12345)
    # a deal does not depend on how many are asked for
    assert bench_deals(EXACT, 1)[0].position.rules.deal.text() == bench_deals(EXACT, 3)[0].position.rules.deal.text()


def test_a_line_whose_contract_never_exists_is_refused_not_dealt_for_ever():
    line = BenchLine("bad", "Schafkopf", "Rufer", "points")  # no called suit: no board has this contract
    with pytest.raises(solver.InvalidContractError, match=r"bad: 0 of the first 1\d{3} boards.*called ace's suit"):
        bench_deals(line, 5)
    pagat = next(line for line in standard_lines() if "Pagat" in line.name)  # passes over some boards, finds its 100
    assert len(bench_deals(pagat)) == pagat.deals


def test_endings_are_five_tricks_from_the_end_and_the_engine_is_faster():
    line = endings_line("Zwanzigerrufen", "Normal", 2)
    for deal in bench_deals(line):
        state = deal.position.state
        assert not state.trick and all(hand.bit_count() == ENDING_TRICKS for hand in state.hands)
    engine, reference, ratio = run_endings_ratio("Zwanzigerrufen", "Normal", 2)
    assert engine.boards == reference.boards
    assert engine.answers == reference.answers and engine.mismatches == []  # the figures mean nothing else
    assert ratio == reference.median / engine.median
    assert ratio > 1


def test_endings_left_to_a_random_contract_are_named_as_the_report_names_them():
    shown = []
    run_endings_ratio("Schafkopf", None, 1, progress=lambda step: shown.append(step.line))
    named = [line.name for line in endings_lines() if line.game == "Schafkopf"]
    assert named == ["Schafkopf Rufer: 5-trick endings, exact points"]
    assert shown == [named[0], f"{named[0]} (reference)"]  # one deal each: the engine's, then the reference's


def test_a_solve_over_the_limit_is_recorded_not_skipped():
    stats = run_line(EXACT, deals=1, limit_s=0.001)
    assert stats.deals == 1 and stats.timeouts == 1 and stats.times_ms == [1.0]
    assert stats.is_lower_bound(stats.median) and stats.median_nodes is None
    assert stats.answers == [None] and stats.nodes_per_second == 0.0
    assert target_met(EXACT, stats) is False
    assert stats.table_allocated_bytes == 64 << 20  # no deal's engine said it: an engine of the line's options did


def test_median_nodes_counts_stopped_solves_as_the_largest():
    stats = BenchStats("synthetic", limit_ms=100.0)
    for board, (ms, nodes) in enumerate([(1.0, 10), (2.0, 30), (3.0, 20)], 1):
        stats.add(DealResult(board, ms, nodes, 1, (0,)))
    assert stats.median_nodes == 20 and stats.nodes_per_second == pytest.approx(60 / 0.006)
    stats.add(DealResult(4, 100.0, 0, 0, (), timed_out=True))
    assert stats.median_nodes == 25 and stats.timeouts == 1 and stats.is_lower_bound(stats.max)
    assert stats.nodes_per_second == pytest.approx(60 / 0.006)  # the stopped solve's nodes are unknown


def test_a_median_averaging_a_stopped_solve_is_a_lower_bound():
    """With an even number of deals the median is the mean of the middle two; one of them stopped makes the median a
    lower bound below the limit, and `stich bench` claimed the target met on it."""
    stats = BenchStats("synthetic", limit_ms=5.0)
    stats.add(DealResult(1, 1.0, 10, 1, (0,)))
    stats.add(DealResult(2, 5.0, 0, 0, (), timed_out=True))
    assert stats.median == 3.0 and stats.is_lower_bound(stats.median)
    assert not stats.is_lower_bound(1.0)
    stats.add(DealResult(3, 2.0, 10, 1, (0,)))
    stats.add(DealResult(4, 2.5, 10, 1, (0,)))  # middle two are finished (2.0, 2.5): an honest median
    assert stats.median == 2.25 and not stats.is_lower_bound(stats.median)


def test_ablation_switches_techniques_off_without_changing_answers():
    results = ablation(KRATZEN, 2, limit_s=None)
    assert list(results) == list(ablation_configurations()) and set(ABLATIONS) <= set(results)
    answers = {name: stats.answers for name, stats in results.items()}
    assert all(a == answers["all on"] for a in answers.values())
    assert all(stats.mismatches == [] for stats in results.values())
    assert results["table off"].peak_table_bytes.used == 0
    assert all(stats.deals == 2 for stats in results.values())


@pytest.mark.parametrize("limit_s", [None, 60.0], ids=["in this process", "in a worker"])
def test_a_line_s_table_size_is_the_one_its_deals_allocated_with_no_engine_made_to_size_it(limit_s, monkeypatch):
    """A line's table size is the one its deals' engines report (2 MB for --table-mb 3, as the engine sizes it), with no
    engine made with the deals' options only to read it, a table more than the run's deals need."""
    def made_to_size(options):
        raise AssertionError(f"an engine made only to read its table size: {options}")

    monkeypatch.setattr("solver.benchmark._table_bytes", made_to_size)
    stats = run_line(KRATZEN, deals=2, limit_s=limit_s, engine_options={"tt_megabytes": 3})
    assert stats.table_allocated_bytes == 2 << 20 and stats.peak_table_bytes.allocated == 2 << 20


def test_a_stopped_ablation_leaves_the_configurations_it_finished_in_results():
    """bench/report.py keeps a stopped run's finished lines: the ablation's too, each put in ``results`` as it
    finishes, and compared with all on as it is."""
    results: dict[str, BenchStats] = {}
    names = list(ablation_configurations())

    def stop_in_the_third(progress) -> None:
        if progress.done == 1 and len(results) == 2:  # the third configuration's first deal
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ablation(KRATZEN, 2, limit_s=None, progress=stop_in_the_third, results=results)
    assert list(results) == names[:2] and all(stats.deals == 2 for stats in results.values())
    assert results[names[1]].line == f"{KRATZEN.name} [{names[1]}]" and results[names[1]].mismatches == []


def test_workers_run_a_pinned_copy_of_the_package():
    """The engine is rebuilt in place while being tuned: a run's workers import a copy taken at its start."""
    copy = pinned_package()
    assert (copy / "solver" / "benchmark.py").exists() and list((copy / "solver").glob("_engine*.so"))
    assert pinned_package() == copy
    assert len(engine_fingerprint()) == 12
    live = engine_fingerprint(Path(solver.__file__).parent)
    assert len(live) == 12  # equal to the copy's unless the engine was rebuilt since the copy was taken


def test_disagreeing_answers_are_recorded_with_the_figures():
    mine, theirs = BenchStats("engine"), BenchStats("reference")
    for board, (a, b) in enumerate([((10,), (10,)), ((64,), (53,)), ((1,), (1,))], 1):
        mine.add(DealResult(board, 0.1, 5, 1, a))
        theirs.add(DealResult(board, 100.0, 50, 0, b))
    assert mine.compare(theirs) == [2] and mine.as_dict()["mismatches"] == [2]
    assert target_met(KRATZEN, mine) is False  # fast enough, but wrong on board 2
    mine.mismatches = []
    assert target_met(KRATZEN, mine) is True


def test_the_solo_worker_exits_when_its_parent_is_killed():
    """The benchmark's child (the pool module's SoloWorker) is a pool worker in this: a driver killed with -9 cannot
    stop it, so it watches its parent and exits by itself, even in the middle of a search (it would search on)."""
    import signal
    import subprocess
    import sys
    import time

    # a search of minutes (a whole deal, every card, no table, no bounds) is running when the driver is killed
    code = ("import time; from solver.workers import SoloWorker; from solver.benchmark import _Task, standard_lines; "
            "line = standard_lines()[1]; worker = SoloWorker('solver.benchmark:_measure'); "
            "worker._conn.send(_Task(line, 1, 2020, {'use_table': False, 'use_bounds': False})); "
            "assert worker._conn.recv() == 'start'; print(worker._process.pid, flush=True); time.sleep(120)")
    driver = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        child = int(driver.stdout.readline())
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
        deadline = time.monotonic() + 60  # bounds a failure: the worker looks for its parent every half second
        while time.monotonic() < deadline:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            with open(f"/proc/{child}/stat") as stat:  # a zombie waiting for init to reap it is gone too
                if stat.read().split(")")[-1].split()[0] == "Z":
                    break
            time.sleep(0.1)
        else:
            os.kill(child, signal.SIGKILL)
            pytest.fail("the worker outlived its killed parent")
    finally:
        if driver.poll() is None:
            driver.kill()


def test_each_deal_records_the_threads_its_question_searched_on(monkeypatch):
    """Each deal records the threads its question searched on, not the threads asked (2, though Kratzen's 4-trick deals
    search on one), so that no figure is published as measured on threads that sat idle. A finished and a stopped deal
    (whose worker cannot say) both record it."""
    import solver.benchmark as benchmark

    monkeypatch.setattr(benchmark, "usable_cores", lambda: 2)
    kratzen, schafkopf = (next(line for line in standard_lines() if line.game == game)
                          for game in ("Kratzen", "Schafkopf"))
    two = {"threads": 2}
    assert run_line(kratzen, deals=1, engine_options=two, limit_s=None).threads_used == 1
    for line, used in ((kratzen, 1), (schafkopf, 2)):
        task = benchmark._Task(line, 1, benchmark.line_seed(line), two)
        assert benchmark._threads_for(task, EngineSolver(**two, tt_megabytes=1)) == used
        # the reference solver
        assert benchmark._threads_for(benchmark._Task(line, 1, benchmark.line_seed(line), None), None) == 1
    stats = BenchStats("x")
    stats.add(DealResult(1, 1.0, 10, 0, (1,), threads=2))
    stats.add(DealResult(2, 1.0, 10, 0, (1,), timed_out=True, threads=2))
    assert stats.threads_used == 2 and stats.as_dict()["threads_used"] == 2


#: A process that holds an exclusive flock on the file argv[1] names, says so, and keeps it until its stdin closes.
_HOLDER = ("import fcntl, sys\n"
           "handle = open(sys.argv[1])\n"
           "fcntl.flock(handle.fileno(), fcntl.LOCK_EX)\n"
           "print('held', flush=True)\n"
           "sys.stdin.read()\n")


def test_a_copy_is_removed_once_its_lock_is_released_and_no_other(tmp_path):
    """A SIGKILLed bench runs no clean-up: the next one removes its copy of the package once no process holds the
    copy's lock file (a process number would not do: a live bench in another PID namespace lost its copy). A held
    copy, one without a lock file (an older stich's), a link to a copy and anything else stay."""
    pytest.importorskip("fcntl")
    names = ("stich-bench-1-held", "stich-bench-2-old", "other-3-abc")
    for name in names:
        (tmp_path / name / "solver").mkdir(parents=True)
    for name in ("stich-bench-1-held", "other-3-abc"):
        (tmp_path / name / COPY_LOCK).write_text("")
    (tmp_path / "stich-bench-4-link").symlink_to(tmp_path / "stich-bench-1-held")
    (tmp_path / "stich-bench-5-file").write_text("not a folder\n")
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(tmp_path / "stich-bench-1-held" / COPY_LOCK)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        assert remove_orphaned_copies(tmp_path) == []
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert remove_orphaned_copies(tmp_path) == [tmp_path / "stich-bench-1-held"]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "other-3-abc", "stich-bench-2-old", "stich-bench-4-link", "stich-bench-5-file"]


def test_this_process_s_copy_is_held_while_it_lives():
    """The copy :func:`pinned_package` makes carries its lock file, held: another run's sweep leaves it."""
    pytest.importorskip("fcntl")
    copy = pinned_package()
    assert (copy / COPY_LOCK).is_file()
    assert copy not in remove_orphaned_copies(copy.parent) and copy.exists()


class _StoppedWorker:
    """A measuring worker whose every deal runs past the limit (``run`` gives None, as a stopped solve does)."""

    def run(self, task, limit_s):
        return None

    def close(self, stop=False):
        pass


def test_a_line_s_stopped_deals_share_one_small_engine_to_say_their_threads(monkeypatch):
    """The threads a stopped deal's solve searched on are said by one engine with a 1 MB table for the whole line,
    not one per stopped deal, and each stopped deal records the threads it was given."""
    import solver.benchmark as benchmark

    made: list[int | None] = []

    def counted(**options):
        made.append(options.get("tt_megabytes"))
        return EngineSolver(**options)

    monkeypatch.setattr(benchmark, "_worker", _StoppedWorker)
    monkeypatch.setattr(benchmark, "EngineSolver", counted)
    monkeypatch.setattr(benchmark, "usable_cores", lambda: 2)
    schafkopf = next(line for line in standard_lines() if line.game == "Schafkopf")
    stats = run_line(schafkopf, deals=3, engine_options={"threads": 2, "tt_megabytes": 4}, limit_s=0.5)
    assert (stats.deals, stats.timeouts, stats.threads) == (3, 3, [2, 2, 2])
    assert made == [1, 4]  # the sizing engine once, then the line's own size (no deal finished to report it)
    assert stats.table_allocated_bytes == EngineSolver(tt_megabytes=4).table_bytes
