"""The cores a process may use: its affinity, and no more than its control groups' CPU quota allows (a container
run with ``--cpus 2`` on a larger host), so that neither a question's threads nor a pool's workers oversubscribe
them. The quota files are written under a temporary root, as Linux lays them out."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
import threadpoolctl

from solver import workers
from solver.errors import StichError, StichWarning
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
    with pytest.warns(StichWarning, match="workers=3: this process may use 1 core, so 1 worker runs"):
        assert workers.local_workers(3) == 1  # asked for more: cut to the cores, as -j is
    monkeypatch.setattr(engine, "_cgroup_cpu_limit_once", lambda: 10_000)
    assert engine.usable_cores() == affinity  # a quota above the affinity changes nothing
    monkeypatch.setattr(engine, "_cgroup_cpu_limit_once", lambda: None)
    assert engine.usable_cores() == affinity


def test_workers_beyond_the_cores_are_cut_to_them_with_a_warning_across_the_api(monkeypatch, tmp_path) -> None:
    """Every ``workers=`` of the API runs at most the cores, as the commands cut ``-j`` (``analyse_hand(workers=64)`` on
    a 2-core machine would start 64 processes, each with tables of its own, up to 8 GB, to take turns on 2 cores): the
    results do not depend on the count, it is said once with a StichWarning pointed at the app's line, and -1 is every
    core, as joblib's ``n_jobs``."""
    import warnings

    import solver
    from solver import batch, match
    from solver.bots import SamplingBot

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    started: list[int] = []

    def counted(run_pool):
        def run(jobs, task, args, on_result, count, *rest, **options):
            started.append(count)
            return run_pool(jobs, task, args, on_result, count, *rest, **options)
        return run

    monkeypatch.setattr(workers, "run_pool", counted(workers.run_pool))
    monkeypatch.setattr(batch, "run_pool", counted(batch.run_pool))
    hand = dict(game="kratzen", hand="EO E9 SU SZ", seat=1, contract="Trump E", samples=8)
    with pytest.warns(StichWarning, match=r"^workers=64: this process may use 2 cores, so 2 workers run") as caught:
        many = solver.analyse_hand(workers=64, **hand)
    assert len(caught) == 1 and caught[0].filename == __file__  # once, at the app's call
    assert started == [2] and many == solver.analyse_hand(workers=1, **hand)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # -1 and None: every core, nothing to say
        assert solver.analyse_hand(workers=-1, **hand) == many
        assert workers.local_workers(None) == workers.local_workers(-1) == 2
        assert workers.local_workers(2) == 2
    source = Path(__file__).resolve().parents[1] / "examples" / "kratzen.tbn"
    started.clear()
    with pytest.warns(StichWarning, match="workers=9: .* 2 workers run"):
        solver.solve_batch(source, tmp_path / "out.jsonl",
                           objectives=["tricks"], workers=9, chunk_size=1)
    assert started and set(started) == {2}
    with pytest.warns(StichWarning, match="workers=5: .* 2 workers run"):
        assert SamplingBot(workers=5).workers == 2
    with pytest.warns(StichWarning, match="workers=3: .* 2 workers run"):
        assert workers.Pool(3).workers == 2
    assert workers.Pool(3, scheduler="tcp://127.0.0.1:1").workers == 3  # a cluster's workers are its own
    assert match.local_workers is workers.local_workers  # play_match counts its workers the same way
    for bad in (0, -2, 2.5, True):
        with pytest.raises(StichError,
                           match="workers must be a whole number of at least 1, or None or -1 for every core"):
            workers.local_workers(bad)


def test_an_analysis_on_a_cluster_counts_its_workers_as_given_without_a_warning(monkeypatch) -> None:
    """``analyse_hand(workers=64, scheduler=...)`` on a 2-core machine neither warns that 64 workers are cut to 2 nor
    sizes its chunks of samples for 2 workers: a cluster's workers are its own (docs/api.md). The cluster is played by a
    run in this process that keeps the chunks it is handed."""
    import warnings

    import solver

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    chunks: list = []

    def on_this_process(jobs, task, args, on_result, scheduler, **options):
        assert scheduler == "tcp://127.0.0.1:1"
        for job in jobs:
            chunks.append(job)
            on_result(job, task(job, *args))

    monkeypatch.setattr(workers, "run_dask", on_this_process)
    hand = dict(game="kratzen", hand="EO E9 SU SZ", seat=1, contract="Trump E", samples=128)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to say about a cluster's count
        on_cluster = solver.analyse_hand(workers=64, scheduler="tcp://127.0.0.1:1", **hand)
    assert {span.size for span in chunks} == {1}  # 128 samples over 64 workers: one a chunk (over 2: two)
    assert on_cluster.samples == 128 and on_cluster == solver.analyse_hand(workers=1, **hand)
    assert workers.Pool(64, scheduler="tcp://127.0.0.1:1").spread_over == 64
    assert workers.Pool(scheduler="tcp://127.0.0.1:1").spread_over == 2  # unknown until reached: these cores


def test_a_local_pool_s_workers_hold_their_cores_from_this_process_s_questions(monkeypatch) -> None:
    """While a local pool runs, its workers' cores are held in the process's core budget, so that a program solving in
    one thread while another runs ``analyse_hand(workers=2)`` on 2 cores does not search on 4 threads (the pool's 2
    workers, and the question's own thread and its helper): a question asked then searches on its own thread alone (it
    still searches), with the same answer, and a helper already running gives its core back. The question is asked in
    ``on_result``, in this process while the pool's workers are alive."""
    from solver.generate import random_record
    from solver.position import position_from_record

    monkeypatch.setattr(engine, "usable_cores", lambda: 2)  # run_pool takes its workers as given: no cut to patch
    position = position_from_record(random_record("Schafkopf", 91, 1))
    objective = position.objective("points")
    alone = engine.EngineSolver(16, threads=2)
    alone.engine.reset_counters()
    value = alone.value(position.state, objective)
    assert alone.engine.threads == len(alone.engine.thread_seconds) == 2 and engine.CORES.busy == 0  # both cores
    beside: list[tuple[int, int, int]] = []

    def on_result(job: int, result: int) -> None:
        crowded = engine.EngineSolver(16, threads=2)
        crowded.engine.reset_counters()
        asked = crowded.value(position.state, objective)
        assert len(crowded.engine.thread_seconds) <= 1  # no helper ran
        beside.append((asked, crowded.engine.threads, engine.CORES.busy))  # the threads the budget gave it

    workers.run_pool([-1, -2], abs, (), on_result, 2, in_flight=1)
    assert beside == [(value, 1, 2), (value, 1, 2)]  # one thread; held meanwhile: the pool's 2 cores
    retired = engine.CORES.retired
    helped = engine.CORES.take(2, lambda threads: None)  # a question with a helper, running as the pool starts
    try:  # given back even when an assert fails: held, it stayed busy in the budget for every later test
        assert helped.threads == 2
        workers.run_pool([-1, -1], abs, (),
                         lambda job, result: beside.append((result, helped.threads, engine.CORES.busy)), 2)
        assert beside[-1] == (1, 1, 3) and engine.CORES.retired == retired + 1  # its helper gave its core back
    finally:
        engine.CORES.give(helped)
    assert engine.CORES.busy == 0


def test_a_pool_with_fewer_jobs_than_workers_starts_and_reserves_one_worker_a_job(monkeypatch) -> None:
    """A pool with fewer jobs than workers (a match resumed with fewer boards left than workers, a sampling run of
    few chunks) would hold cores no worker uses in this process's budget, and its own questions would get no helpers
    there: a pool starts ``min(workers, jobs)`` workers and reserves their cores only; with no job, none."""
    monkeypatch.setattr(engine, "usable_cores", lambda: 4)
    made: list[int] = []
    make = workers.process_pool
    monkeypatch.setattr(workers, "process_pool", lambda count, *rest: made.append(count) or make(count, *rest))
    held: list[tuple[int, int]] = []

    def on_result(job: int, result: int) -> None:
        held.append((result, engine.CORES.busy))  # the cores reserved while the pool runs

    workers.run_pool([-1, -2], abs, (), on_result, 4)
    assert sorted(held) == [(1, 2), (2, 2)] and made == [2] and engine.CORES.busy == 0
    held.clear()
    workers.run_pool(iter(range(-5, 0)), abs, (), on_result, 3, in_flight=1)  # more jobs than workers: all three
    assert sorted(held) == [(result, 3) for result in range(1, 6)] and made == [2, 3] and engine.CORES.busy == 0
    engine.CORES.reset_peak()
    workers.run_pool(iter(()), abs, (), on_result, 4)  # nothing to run: no pool, nothing reserved
    assert made == [2, 3] and engine.CORES.peak == 0 and len(held) == 5


@pytest.mark.parametrize("count", [-1, 0, 1.5, True, None])
def test_a_pool_of_no_whole_number_of_workers_is_refused_before_its_cores_are_reserved(monkeypatch, count) -> None:
    """``workers`` is checked as ``in_flight`` is, with a StichError, before anything is reserved or any job is taken:
    ``run_pool(workers=-1)`` does not reserve -1 cores (the budget's ``busy`` one below the questions running, giving
    another thread's question an extra helper) until the pool itself raises a ValueError."""
    reserved: list[int] = []
    taken: list[int] = []
    monkeypatch.setattr(engine.CORES, "reserved", lambda cores: reserved.append(cores))

    def jobs():
        taken.append(1)
        yield 1

    with pytest.raises(StichError, match=f"workers is a whole number of worker processes, at least 1, not {count!r}"):
        workers.run_pool(jobs(), abs, (), lambda job, result: None, count)
    assert reserved == [] and taken == [] and engine.CORES.busy == 0


def _worker_tables(job: int) -> tuple[int, int, int, int]:
    """In a pool's worker: its two engines' tables (the points search's, the settlement search's) and their threads."""
    points, settlement = workers.worker_engine(), workers.worker_settlement_engine()
    return points.table_bytes, settlement.table_bytes, points.threads, settlement.threads


def test_a_pool_worker_holds_two_tables_of_the_run_s_size_on_one_thread() -> None:
    """docs/limits.md bounds a local run of ``-j N`` by N x (2 x table + the interpreter): each worker's engines,
    read in the workers themselves, are two tables of ``table_mb`` each, searching on one thread."""
    found: list[tuple[int, int, int, int]] = []
    workers.run_pool([1, 2, 3, 4], _worker_tables, (), lambda job, tables: found.append(tables), 2, table_mb=8)
    assert found == [(8 << 20, 8 << 20, 1, 1)] * 4


def _worker_settlement_alone(job: int) -> tuple[int, int, bool, bool]:
    """In a pool's worker: the settlement engine asked before any points engine (advice searches the score alone):
    its table and threads, whether a points engine was made for it, and whether a points search's settlement engine,
    asked after, is the same one. On a thread of its own, whose engines are its own, whatever this worker ran before."""
    found: list[tuple[int, int, bool, bool]] = []

    def first_engines() -> None:
        settlement = workers.worker_settlement_engine()
        points_made = getattr(workers._local, "engine", None) is not None
        workers.worker_engine()
        found.append((settlement.table_bytes, settlement.threads, points_made,
                      workers.worker_settlement_engine() is settlement))

    thread = threading.Thread(target=first_engines)
    thread.start()
    thread.join()
    return found[0]


def test_a_worker_searching_the_score_alone_makes_no_points_table_to_size_its_settlement_engine() -> None:
    """Contract advice searches only the settlement, so its workers make no points engine, a table of the run's size,
    only to read its size and threads: the settlement engine is made of them, the same one a points search then
    shares."""
    found: list[tuple[int, int, bool, bool]] = []
    workers.run_pool([1, 2], _worker_settlement_alone, (), lambda job, made: found.append(made), 2, table_mb=8)
    assert found == [(8 << 20, 1, False, True)] * 2


def _blas_threads() -> dict[str, int]:
    """Each BLAS library of a kind stich limits loaded in this process (file: its threads), as threadpoolctl reads
    them: OpenBLAS (FlexiBLAS's backend among them), MKL, BLIS."""
    return {library["filepath"]: library["num_threads"] for library in threadpoolctl.threadpool_info()
            if library["user_api"] == "blas" and library["internal_api"] in workers.NUMERIC_LIBRARY_VARIABLES}


def _worker_numeric_threads(job: int) -> tuple[dict[str, str | None], dict[str, int]]:
    """In a pool's worker: the numeric libraries' variables and each loaded BLAS library's threads."""
    return {variable: os.environ.get(variable) for variable in workers.NUMERIC_THREAD_VARIABLES}, _blas_threads()


def _blas_on(threads: int | dict[str, int]) -> dict[str, int]:
    """numpy's BLAS (OpenBLAS, MKL, BLIS: each one loaded) in this process on ``threads`` threads (or each file on
    its own count), as a bot module importing numpy leaves the parent that forks a pool's workers; returns the
    threads each had (to put back). Skipped where numpy loads no BLAS threadpoolctl can set."""
    numpy = pytest.importorskip("numpy")
    assert numpy.ones(2) @ numpy.ones(2) == 2.0
    before = _blas_threads()
    if not before:
        pytest.skip("numpy here loads no BLAS threadpoolctl can set")
    controller = threadpoolctl.ThreadpoolController()
    for filepath in before:
        count = threads if isinstance(threads, int) else threads[filepath]
        controller.select(filepath=filepath).limit(limits=count)
    assert _blas_threads() == {filepath: threads if isinstance(threads, int) else threads[filepath]
                               for filepath in before}
    return before


def _fork_pool(monkeypatch) -> None:
    """Pools start their workers forked, as a parent that loaded numpy would hand them its libraries (Python 3.14's
    default start is forkserver and macOS spawns: those workers inherit nothing loaded)."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: a worker inherits no loaded library")
    monkeypatch.setattr(workers, "pool_context", lambda memory_mb=None: multiprocessing.get_context("fork"))


def _blas_variables() -> list[str]:
    """The variable of each kind of BLAS loaded here."""
    kinds = {library["internal_api"] for library in threadpoolctl.threadpool_info() if library["user_api"] == "blas"}
    return [workers.NUMERIC_LIBRARY_VARIABLES[kind] for kind in kinds if kind in workers.NUMERIC_LIBRARY_VARIABLES]


WorkerSeen = tuple[dict[str, "str | None"], dict[str, int]]


def _forked_workers_seen(monkeypatch, blas_variable: str | None) -> tuple[dict[str, int], list[WorkerSeen]]:
    """The parent's BLAS threads (set to two for the run) and what each of two forked workers sees: its numeric
    variables and its libraries' threads, every variable unset in the parent but the BLAS's own, set to
    ``blas_variable`` (unless None) once the library is loaded."""
    _fork_pool(monkeypatch)
    before = _blas_on(2)
    for variable in workers.NUMERIC_THREAD_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    if blas_variable is not None:
        for variable in _blas_variables():
            monkeypatch.setenv(variable, blas_variable)
    try:
        found: list[WorkerSeen] = []
        workers.run_pool([1, 2], _worker_numeric_threads, (), lambda job, seen: found.append(seen), 2)
    finally:
        _blas_on(before)
    assert len(found) == 2
    return before, found


def test_a_pool_worker_multiplies_matrices_on_one_thread_though_its_parent_loaded_blas_on_more(monkeypatch) -> None:
    """N workers each running a bot that multiplies matrices with numpy would be N x every core of busy threads: a
    worker forked from a parent that loaded its BLAS on two threads runs it on one, and says 1 to what it loads."""
    before, found = _forked_workers_seen(monkeypatch, None)
    for variables, threads in found:
        assert set(variables.values()) == {"1"}
        assert threads == {filepath: 1 for filepath in before}


def test_a_pool_worker_keeps_a_numeric_thread_count_set_by_the_user(monkeypatch) -> None:
    """A BLAS's variable set before the run is the user's choice: the library the forked worker inherits, loaded
    with it, keeps its threads, and the variable is kept in every worker."""
    before, found = _forked_workers_seen(monkeypatch, "2")
    for variables, threads in found:
        assert all(variables[variable] == "2" for variable in _blas_variables())
        assert threads == {filepath: 2 for filepath in before}


def test_a_pool_worker_runs_the_thread_count_set_after_numpy_was_loaded(monkeypatch) -> None:
    """A BLAS's variable set once numpy is loaded (``os.environ`` in a script, a notebook's ``%env``) is read by no
    library: the forked worker's inherited library runs the count it says, not the parent's."""
    before, found = _forked_workers_seen(monkeypatch, "1")
    for variables, threads in found:
        assert set(variables.values()) == {"1"}
        assert threads == {filepath: 1 for filepath in before}


def _worker_numeric_variables(job: int) -> dict[str, str | None]:
    """In a pool's worker: the numeric libraries' thread variables."""
    return {variable: os.environ.get(variable) for variable in workers.NUMERIC_THREAD_VARIABLES}


@pytest.mark.parametrize("start", ["spawn", "forkserver"])
def test_a_started_pool_worker_says_one_thread_to_every_numeric_library_but_keeps_the_user_s(monkeypatch,
                                                                                              start) -> None:
    """A worker started fresh (spawn: macOS, capped runs; forkserver: Python 3.14's default) inherits no library
    loaded: every variable a numeric library reads as it loads is 1 there, and one the user set keeps its value."""
    import multiprocessing

    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} on this platform")
    monkeypatch.setattr(workers, "pool_context", lambda memory_mb=None: multiprocessing.get_context(start))
    for variable in workers.NUMERIC_THREAD_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    found: list[dict[str, str | None]] = []
    workers.run_pool([1, 2], _worker_numeric_variables, (), lambda job, seen: found.append(seen), 2)
    expected = {variable: "1" for variable in workers.NUMERIC_THREAD_VARIABLES} | {"MKL_NUM_THREADS": "3"}
    assert found == [expected, expected]


@pytest.mark.parametrize("cores", [1, 2])
def test_the_board_s_pages_search_on_no_more_threads_than_cores_together(monkeypatch, tmp_path, cores) -> None:
    """``stich board`` with several pages asking at once: card values (every free core) and odds (one core, on the
    analysis thread) of four pages, each page's question in its own request thread, search on at most 2 threads
    together (the process's core budget's peak): the cores on 2, and on 1 the card values' and the analysis's own
    threads, which take turns on it (docs/board.md); every answer comes."""
    import threading
    import warnings

    with warnings.catch_warnings():  # as tests/test_board_api.py imports it
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from solver.board import create_app
    from solver.generate import random_record
    from solver.formats.tbn import format_record

    monkeypatch.setattr(engine, "usable_cores", lambda: cores)
    deals = tmp_path / "deals.tbn"
    deals.write_text("\n".join(format_record(random_record("Schafkopf", 5, board)) for board in (1, 2)),
                     encoding="utf-8")
    answers: list[str] = []
    with TestClient(create_app([deals]), base_url="http://127.0.0.1") as client:
        boards = [board["id"] for board in client.get("/api/start").json()["files"][0]["boards"]]
        engine.CORES.reset_peak()

        def ask(page: int) -> None:
            for board in boards:
                asked = {"board": board, "moves": [], "client": f"page{page}"}
                values = client.post("/api/values", json=dict(asked, objective="points")).text.splitlines()
                odds = client.post("/api/odds", json=dict(asked, samples=4)).text.splitlines()
                answers.extend(json.loads(line)["kind"] for line in (values[-1], odds[-1]))

        pages = [threading.Thread(target=ask, args=(page,)) for page in range(4)]
        for page in pages:
            page.start()
        for page in pages:
            page.join()
    assert sorted(answers) == ["odds"] * 8 + ["values"] * 8
    assert 1 <= engine.CORES.peak <= 2 and engine.CORES.busy == 0
