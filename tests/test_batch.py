"""Batch solving: resume after kill -9, bad records, identical results whatever the workers, Dask."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import solver
from solver.analysis import solve_report
from solver import StichError
from solver.errors import StichWarning
from solver.batch import done_ids, solve_batch
from solver.bots import RandomBot
from solver.match import play_match
from solver.files import lock_beside
from solver.formats.tbn import format_record, write_records

from machine_cores import TWO_CORES

ROOT = Path(__file__).resolve().parent.parent


def _mixed_records(count: int) -> list:
    """Mostly Kratzen (a millisecond each) with every fifth record a Schafkopf deal (tens of milliseconds), so that
    a run lasts long enough to be killed in the middle."""
    kratzen = list(solver.random_records("Kratzen", 11, count))
    schafkopf = list(solver.random_records("Schafkopf", 11, count // 5))
    records = []
    for index, record in enumerate(kratzen):
        records.append(schafkopf[index // 5] if index % 5 == 4 else record)
    return records


def _expected(path: Path) -> dict[str, dict]:
    """Every record solved in this process, one at a time: what the batch output must hold."""
    expected = {}
    for position in solver.read_positions(path):
        document = solve_report(position, None)
        for result in document["results"]:
            result.pop("seconds")
            result.pop("nodes")
        record = position.record
        board = record.get("Board")
        expected[f"{record.source}:{record.line}" + (f"#{board}" if board else "")] = document
    return expected


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
def test_kill_minus_nine_then_resume_gives_every_record_once(tmp_path: Path, two_worker_cores) -> None:
    source = tmp_path / "deals.tbn"
    out = tmp_path / "out.jsonl"
    write_records(_mixed_records(200), source)
    code = (f"{TWO_CORES}from solver.batch import solve_batch; solve_batch({str(source)!r}, {str(out)!r}, "
            "objectives=None, workers=2, chunk_size=2)")
    process = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 20:
                break
            time.sleep(0.01)
        assert process.poll() is None, "the run ended before it could be killed"
        children = []
        try:
            import psutil
            children = psutil.Process(process.pid).children()
        except ImportError:
            pass
        process.send_signal(signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
    written = out.read_bytes().count(b"\n")
    assert 20 <= written < 200
    for child in children:  # the orphaned workers notice and exit (a bound for a loaded machine: gone in a second)
        try:
            child.wait(timeout=60)
        except Exception:  # psutil.NoSuchProcess: already gone
            pass
        assert not child.is_running() or child.status() == "zombie"
    with open(out, "ab") as stream:  # as if killed in the middle of a line
        stream.write(b'{"id": "half a li')
    summary = solve_batch(source, out, objectives=None, workers=2, chunk_size=2)
    assert summary.skipped == written and summary.written == 200 - written
    lines = _lines(out)
    ids = [line["id"] for line in lines]
    assert len(ids) == len(set(ids)) == 200
    expected = _expected(source)
    assert set(ids) == set(expected)
    for line in lines:
        identifier = line.pop("id")
        line.pop("key"), line.pop("asked")
        assert line == expected[identifier]


def test_a_bad_record_is_reported_and_the_others_solved(tmp_path: Path) -> None:
    records = list(solver.random_records("Kratzen", 5, 6))
    bad = list(solver.random_records("Kratzen", 6, 1))[0]
    bad.set("Contract", "Nonsense")
    text = "\n".join(format_record(r) for r in records[:3] + [bad] + records[3:])
    source = tmp_path / "bad.tbn"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    summary = solve_batch(source, out, objectives=None, workers=1)
    assert (summary.solved, summary.errors) == (6, 1)
    lines = _lines(out)
    errors = [line for line in lines if "error" in line]
    assert len(errors) == 1
    message = errors[0]["error"]
    location, _, rest = message.partition(": ")
    name, line_number, column = location.rsplit(":", 2)
    assert name == str(source) and line_number.isdigit() and column.isdigit() and rest
    assert all(line["results"] for line in lines if "error" not in line)
    again = solve_batch(source, out, objectives=None, workers=1)  # the error line is tried again, and replaced
    assert (again.written, again.skipped, again.errors) == (1, 6, 1)
    assert len(_lines(out)) == 7 and len([line for line in _lines(out) if "error" in line]) == 1
    text = source.read_text(encoding="utf-8").replace('[Contract "Nonsense"]', '[Contract "Trump E"]')
    source.write_text(text, encoding="utf-8")  # the record mended: the rerun solves it
    mended = solve_batch(source, out, objectives=None, workers=1)
    assert (mended.written, mended.skipped, mended.errors) == (1, 6, 0)
    assert len(_lines(out)) == 7 and all("error" not in line for line in _lines(out))


def test_an_unreadable_record_is_named_by_the_line_it_starts_on(tmp_path: Path) -> None:
    """A record too broken to read is still identified by its first tag's line, as a readable one is, not by the
    line of its error."""
    records = list(solver.random_records("Kratzen", 5, 2))
    text = "\n".join(format_record(r) for r in records)
    broken = text.replace('[Board "1"]', '[Board "1"', 1)  # the first record's second tag loses its ']'
    source = tmp_path / "broken.tbn"
    source.write_text(broken, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert solve_batch(source, out, workers=1).errors == 1
    error = next(line for line in _lines(out) if "error" in line)
    assert error["id"] == f"{source}:1" and error["error"].startswith(f"{source}:2:")


def test_a_record_cut_off_after_its_board_tag_keeps_its_board(tmp_path: Path) -> None:
    """The last record cut off inside its [Deal] tag (no newline at the end) had its [Board] read before the break:
    its error line carries that board and its id the ``#BOARD`` suffix, as a readable record's do; a record broken
    before its [Board] tag has no ``board`` at all (the schema's "could not be read")."""
    good = format_record(list(solver.random_records("Kratzen", 5, 1))[0])
    cut = '[Game "Kratzen"]\n[Board "600"]\n[Seats "3"]\n[Deal "1: EO E9 SU'
    source = tmp_path / "cut.tbn"
    source.write_text(good + "\n" + cut, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert solve_batch(source, out, workers=1).errors == 1
    error = next(line for line in _lines(out) if "error" in line)
    start = good.count("\n") + 2
    assert error["id"] == f"{source}:{start}#600" and error["board"] == "600"
    assert error["error"] == (f"{source}:{start + 3}:7: unterminated tag value (got '\"1: EO E9 SU', "
                              "expected a closing '\"')")
    source.write_text(good + "\n" + '[Game "Kratzen"]\n[Seats "3"\n[Board "600"]\n', encoding="utf-8")
    out.unlink()
    assert solve_batch(source, out, workers=1).errors == 1
    error = next(line for line in _lines(out) if "error" in line)
    assert error["id"] == f"{source}:{start}" and "board" not in error


def test_an_output_file_that_is_no_batch_output_is_refused_and_left_alone(tmp_path: Path) -> None:
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 5, 2)), source)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes\nthe last line, without a newline")
    with pytest.raises(StichError, match="not a stich batch output"):
        solve_batch(source, notes, workers=1)
    assert notes.read_bytes() == b"my notes\nthe last line, without a newline"


def test_an_input_that_can_be_read_only_once_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    """A named pipe as the input: batch reads its input again (to count what is left, on a rerun to resume, when the
    output names another path), which a pipe gives once, so a second opening would hang. It is refused at once, without
    opening it (what the writer wrote is all still in the pipe), and nothing is written."""
    import os
    import threading

    fifo = tmp_path / "deals.tbn"
    os.mkfifo(fifo)
    text = format_record(next(iter(solver.random_records("Kratzen", 1, 3)))).encode()

    def write() -> None:
        with open(fifo, "wb") as stream:  # waits for a reader
            stream.write(text)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    out = tmp_path / "out.jsonl"
    with pytest.raises(StichError) as refused:
        solve_batch(fifo, out, workers=1)
    assert str(refused.value) == (f"{fifo}: a pipe, not a regular file: batch reads its input more than once (to count "
                                  "what is left, and again on a rerun to resume), which a pipe gives only once; save "
                                  "the records to a file and run batch on it")
    with open(fifo, "rb") as stream:
        assert stream.read() == text  # not read by batch
    writer.join(60)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deals.tbn"]  # no output, no lock file


def test_a_socket_as_the_input_or_the_checkpoint_is_refused_as_a_socket(tmp_path: Path) -> None:
    """A Unix socket's path is no file either (solver.files.stream_kind): batch, which reads its input more than
    once, and a checkpoint, read back and appended to, refuse it by its kind before opening it (which fails on a
    socket with a message about the opening, not about why it cannot serve)."""
    import socket

    from solver.checkpoint import Journal
    from solver.errors import FileRefusedError

    path = tmp_path / "deals.tbn"
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listening.bind(str(path))
        out = tmp_path / "out.jsonl"
        with pytest.raises(StichError) as refused:
            solve_batch(path, out, workers=1)
        assert str(refused.value) == (f"{path}: a socket, not a regular file: batch reads its input more than once (to "
                                      "count what is left, and again on a rerun to resume), which a socket gives only "
                                      "once; save the records to a file and run batch on it")
        with pytest.raises(FileRefusedError) as refused_checkpoint:
            Journal(path, {"command": "analyse"})
        assert str(refused_checkpoint.value) == (f"{path}: a socket, not a regular file: a checkpoint is read back to "
                                                 "resume and appended to, which a socket cannot be; give a file's name")
    finally:
        listening.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.tbn"]  # no output, no lock file


def test_a_line_of_garbage_in_the_output_is_refused_with_its_number(tmp_path: Path) -> None:
    """A complete line that is no batch line (typed by hand) is not kept silently, which would leave the output invalid
    JSON Lines on every rerun: it is refused, at its line and the column where it stops reading as one (a line cut short
    ends where it was cut), and the file is left as it was."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 5, 3)), source)
    out = tmp_path / "out.jsonl"
    solve_batch(source, out, workers=1)
    lines = out.read_bytes().splitlines(keepends=True)
    for garbage, column, fault in ((b"garbage\n", 1, "expecting value, found 'garbage'"),
                                   (b'{"id": 3}\n', 1, 'its "id" is a JSON number, not a string'),
                                   (b'{"id": true}\n', 1, 'its "id" is a JSON boolean, not a string'),
                                   (b'{"key": "k"}\n', 1, 'no "id"'),
                                   (b"[1, 2]\n", 1, "a JSON array, not an object"),
                                   (b'{"id": "x\xff"}\n', 10, "invalid UTF-8, byte ff"),
                                   (b"\xff\xfe\n", 1, "invalid UTF-8, byte ff"),
                                   (lines[1][:30] + b"\n", 7, "unterminated string starting at '\"")):
        edited = b"".join([lines[0], garbage, *lines[1:]])
        out.write_bytes(edited)
        with pytest.raises(StichError) as refused:
            solve_batch(source, out, workers=1)
        assert str(refused.value).startswith(f"{out}:2:{column}: not a stich batch line ({fault}")
        assert str(refused.value).endswith("; expected a result or an error line as JSON); remove the line (a rerun "
                                           "solves its record again) or choose another --out file")
        assert out.read_bytes() == edited


def test_one_and_two_workers_write_the_same_lines(tmp_path: Path) -> None:
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Schafkopf", 3, 24)), source)
    outputs = []
    for workers in (1, 2):
        out = tmp_path / f"out{workers}.jsonl"
        solve_batch(source, out, workers=workers, chunk_size=4, cards=True)
        outputs.append(sorted(out.read_text(encoding="utf-8").splitlines()))
    assert outputs[0] == outputs[1] and len(outputs[0]) == 24


def test_a_half_written_last_line_is_trimmed(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"id": "a:1", "key": "k1"}\n{"id": "a:5"')
    assert done_ids(out) == {"k1"}
    assert out.read_bytes() == b'{"id": "a:1", "key": "k1"}\n'


def test_a_dask_cluster_solves_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same lines as one local worker. The chunks are timed as a local pool's (one record each until the first lines
    are back, then about half a second of one thread's work), not always --chunk-size records, with which a cluster
    writes its first line only after whole chunks of slow deals (20 Zwanzigerrufen deals: 11 to 19 s on two workers,
    where a local pool writes one in a second) and a Ctrl-C loses every running chunk's work."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from solver import workers

    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 9, 60)), source)
    serial = tmp_path / "serial.jsonl"
    solve_batch(source, serial, objectives=None, workers=1)
    out = tmp_path / "dask.jsonl"
    sizes: list[int] = []
    threads: list[int] = []
    run = workers.Pool.run

    def recording_run(self, jobs, *args, on_threads=None, **kwargs):  # the chunks as the driver hands them out
        def told(count: int) -> None:
            threads.append(count)
            on_threads(count)
        recorded = (sizes.append(len(chunk)) or chunk for chunk in jobs)
        return run(self, recorded, *args, on_threads=told if on_threads else None, **kwargs)

    monkeypatch.setattr(workers.Pool, "run", recording_run)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        summary = solve_batch(source, out, objectives=None, scheduler=cluster.scheduler_address, chunk_size=5)
    assert summary.solved == 60
    assert sorted(out.read_text().splitlines()) == sorted(serial.read_text().splitlines())
    assert sum(sizes) == 60 and sizes[0] == 1 and max(sizes) <= 5
    assert threads and threads[0] == 2  # the cluster's worker threads, which size the chunks


def _not_on_this_scheduler() -> None:
    """What unpickling a task meets on a scheduler without stich (or with another one, lacking a function)."""
    raise ModuleNotFoundError("No module named 'solver.batch'; 'solver' is not a package")


class _JobTheSchedulerCannotRead:
    """A job whose pickle fails to load, as every stich task's does on a scheduler without stich."""

    def __reduce__(self) -> tuple:
        return _not_on_this_scheduler, ()


def test_a_dask_cluster_of_another_stich_is_said_and_stops_the_run(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A scheduler that cannot read stich's tasks (no stich where it runs, or another one), and a worker with another
    stich installed (which would answer by its own rules and engine, its lines mixed with the others' unseen), are each
    one message naming the cause, not a RuntimeError traceback ("... if the Scheduler and Client have different
    environments"): the run stopped, what was handed on kept."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from solver import workers

    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 9, 6)), source)
    out = tmp_path / "dask.jsonl"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        with pytest.raises(StichError) as unread:
            workers.run_dask([_JobTheSchedulerCannotRead()], len, (), lambda job, result: None, address)
        assert str(unread.value) == (
            f"the Dask scheduler at {address} cannot read stich's tasks (ModuleNotFoundError: No module named "
            "'solver.batch'; 'solver' is not a package): install this run's stich, with its compiled engine, where "
            "the scheduler runs, and restart it, then rerun to resume (every result handed on so far is kept)")
        monkeypatch.setattr(workers, "stich_build", lambda: "000000000000")  # this run's: the workers' differs
        with pytest.raises(StichError) as other:
            solve_batch(source, out, objectives=None, scheduler=address)
        assert re.fullmatch(r"the Dask worker tcp://\S+ runs another stich \(build [0-9a-f]{12}, \S+\) than this "
                            r"run's \(build 000000000000\): its answers would not be this stich's; install this run's "
                            r"stich, the same files, on every worker, then rerun to resume \(every result handed on so "
                            r"far is kept\)", str(other.value))
        assert not out.exists() or out.read_text() == ""
        monkeypatch.undo()
        monkeypatch.setattr(workers, "engine_answers", lambda: "000000000000")  # the workers' engine answers otherwise
        with pytest.raises(StichError) as engine:
            solve_batch(source, out, objectives=None, scheduler=address)
        assert re.fullmatch(r"the Dask worker tcp://\S+ has another compiled engine than this run's: it answers "
                            r"stich's check deals otherwise \(answers [0-9a-f]{12}, this run's 000000000000\), so it "
                            r"was built from other sources; rebuild that worker's engine from this run's sources "
                            r"\(.*\), then rerun to resume \(every result handed on so far is kept\)",
                            str(engine.value))
        assert not out.exists() or out.read_text() == ""
        monkeypatch.undo()
        assert solve_batch(source, out, objectives=None, scheduler=address).solved == 6


def test_a_dask_worker_whose_engine_fails_on_the_check_deals_is_said(monkeypatch) -> None:
    """A worker whose compiled engine raises on the check deals (a build that crashes on them) stops the run with a
    message naming the worker, the error and the rebuild, not a worker's traceback."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from solver import workers

    answers = workers.engine_answers()

    def crashing() -> str:
        if workers._dask_worker() is not None:
            raise TypeError("an argument of another type")
        return answers

    monkeypatch.setattr(workers, "engine_answers", crashing)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with pytest.raises(StichError) as crashed:
            workers.run_dask(range(1), str, (), lambda job, result: None, cluster.scheduler_address)
    assert re.fullmatch(r"the compiled engine of the Dask worker \S+ failed on stich's check deals \(TypeError: an "
                        r"argument of another type\): rebuild that worker's engine from this run's sources \(.*'pip "
                        r"install .*\), then rerun to resume \(every result handed on so far is kept\)",
                        str(crashed.value))


def _dask_task_threads(job: int) -> dict[str, int]:
    """The search threads of a Dask task's points and settlement engines."""
    from solver import workers

    return {"points": workers.worker_engine().threads, "settlement": workers.worker_settlement_engine().threads}


def test_a_dask_worker_of_several_threads_searches_on_one_thread_a_task() -> None:
    """A worker started with ``--nthreads 2`` runs two tasks at once: each task's engines (points and settlement)
    search on one thread, so that the worker's threads are its cores' count and none is oversubscribed."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from solver import workers

    threads: list[dict[str, int]] = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0") as cluster:
        workers.run_dask(range(4), _dask_task_threads, (), lambda job, result: threads.append(result),
                         cluster.scheduler_address)
    assert threads == [{"points": 1, "settlement": 1}] * 4


def test_the_engine_check_answers_alike_in_this_process_whatever_the_implementation(monkeypatch) -> None:
    """The engine's answers a worker is checked by are the compiled engine's even where STICH_IMPLEMENTATION asks
    for the reference solver (which would take minutes on a whole Zwanzigerrufen deal), and stay the same."""
    from solver import workers

    first = workers.engine_answers()
    monkeypatch.setattr(workers, "_answers", None)
    monkeypatch.setenv("STICH_IMPLEMENTATION", "python")
    assert re.fullmatch(r"[0-9a-f]{12}", first) and workers.engine_answers() == first


def test_the_engine_check_is_computed_once_by_threads_asking_at_once(monkeypatch) -> None:
    """A worker of ``--nthreads N`` runs N tasks at once, each asking for the engine's answers: they are computed
    once, and every thread gets the same."""
    import threading

    from solver import workers

    built: list[int] = []

    class CountedEngine(workers.EngineSolver):
        def __init__(self, *args, **options):
            built.append(1)
            super().__init__(*args, **options)

    monkeypatch.setattr(workers, "_answers", None)
    monkeypatch.setattr(workers, "EngineSolver", CountedEngine)
    start = threading.Barrier(4)
    answers: list[str] = []

    def ask() -> None:
        start.wait()
        answers.append(workers.engine_answers())

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built == [1] and len(answers) == 4 and len(set(answers)) == 1


def test_the_engine_check_changes_with_one_card_value_of_one_deal(monkeypatch) -> None:
    """An engine that answers one card of one check deal otherwise (the Kratzen deal's first card one trick more) gives
    other answers, so a worker with it is refused."""
    import dataclasses

    from solver import workers
    from solver.search.results import CardValue

    alike = workers.engine_answers()
    solve, calls = workers.EngineSolver.solve, []

    def one_value_off(engine, *args, **options):
        answer = solve(engine, *args, **options)
        calls.append(answer)
        if len(calls) != 2:
            return answer
        first, *rest = answer.card_values
        return dataclasses.replace(answer, card_values=(CardValue(first.card, first.value + 1), *rest))

    monkeypatch.setattr(workers, "_answers", None)
    monkeypatch.setattr(workers.EngineSolver, "solve", one_value_off)
    other = workers.engine_answers()
    assert len(calls) == 3 and re.fullmatch(r"[0-9a-f]{12}", other) and other != alike
    monkeypatch.setattr(workers, "_answers", None)
    monkeypatch.setattr(workers.EngineSolver, "solve", solve)
    assert workers.engine_answers() == alike


def _build_in(root: Path) -> str:
    """``stich_build()`` of the stich whose ``solver`` package lies in ``root``, read in a fresh interpreter, as a
    Dask worker with that stich installed reads it."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-c", "import solver, solver.workers as workers; "
                             "print(solver.__file__); print(workers.stich_build())"],
                            cwd=root, env=environment, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    where, build = result.stdout.split()
    assert Path(where) == root / "solver" / "__init__.py"  # this copy's, not the installed one
    return build


def test_a_wheel_install_and_the_source_tree_of_one_commit_are_one_build(tmp_path: Path) -> None:
    """The build leaves ``cli/`` out of the digest of every ``*.py`` under the ``solver`` folder, since a wheel puts
    ``solver.cli`` there (``cli/`` in a source tree): a worker on a wheel install of the driver's commit is one build
    with it, not refused as another stich, and a module edited is another."""
    from solver import workers

    ignored = shutil.ignore_patterns("__pycache__")
    source, wheel = tmp_path / "source", tmp_path / "wheel"
    shutil.copytree(ROOT / "solver", source / "solver", ignore=ignored)
    shutil.copytree(ROOT / "solver", wheel / "solver", ignore=ignored)
    shutil.copytree(ROOT / "cli", wheel / "solver" / "cli", ignore=ignored)  # where pip installs solver.cli
    assert _build_in(source) == _build_in(wheel) == workers.stich_build()
    with (wheel / "solver" / "search" / "engine.py").open("a") as engine:
        engine.write("# edited on this worker\n")
    assert _build_in(wheel) != workers.stich_build()


# --- what a rerun recognises, and what it refuses ------------------------------------------------------------------


def test_a_rerun_asking_another_question_is_refused_and_leaves_the_output_alone(tmp_path: Path) -> None:
    """Other objectives, cards, variant flags or another input file on the same output would mix answers to different
    questions in one file: such a rerun is refused and the output left alone, not skipped or appended to silently."""
    source, other = tmp_path / "deals.tbn", tmp_path / "other.tbn"
    write_records(list(solver.random_records("Schafkopf", 4, 6)), source)
    write_records(list(solver.random_records("Schafkopf", 5, 6)), other)
    out = tmp_path / "out.jsonl"
    solve_batch(source, out, workers=1)
    before = out.read_bytes()
    for kwargs in ({"objectives": ["schneider"]}, {"cards": True},
                   {"variant": {"laufende_mode": "only_if_holder_wins"}}):
        with pytest.raises(StichError, match="this output answers .*deals.tbn"):
            solve_batch(source, out, workers=1, **kwargs)
    with pytest.raises(StichError, match="not .*other.tbn"):
        solve_batch(other, out, workers=1)
    assert out.read_bytes() == before
    again = solve_batch(source, out, workers=1)
    assert again.skipped == 6 and again.written == 0


def test_records_are_recognised_by_their_text_not_their_place(tmp_path: Path) -> None:
    """A record moved down (one above it mended with an extra line) or the file named another way is not solved
    again; a record whose text changed is."""
    records = list(solver.random_records("Kratzen", 6, 8))
    source = tmp_path / "deals.tbn"
    broken = records[1].get("Contract")
    records[1].remove("Contract")
    write_records(records, source)
    out = tmp_path / "out.jsonl"
    first = solve_batch(source, out, workers=1)
    assert (first.solved, first.errors) == (7, 1)
    records[1].set("Contract", broken)  # mended: every later record starts a line further down
    write_records(records, source)
    mended = solve_batch(source, out, workers=1)
    assert (mended.skipped, mended.solved, mended.errors) == (7, 1, 0)
    spelled = solve_batch(Path(str(tmp_path / ".." / tmp_path.name / "deals.tbn")), out, workers=1)
    assert (spelled.skipped, spelled.written) == (8, 0)
    lines = _lines(out)
    assert len(lines) == 8 and len({line["key"] for line in lines}) == 8
    assert {line["asked"]["source"] for line in lines} == {str(source.resolve())}


@pytest.mark.parametrize("through_link", [False, True])
def test_a_second_run_on_an_output_in_use_is_refused(tmp_path: Path, through_link: bool) -> None:
    """The lock is a process's own (POSIX record lock): another process holding it, as a run in progress does. It is
    beside the file a symbolic link leads to, so a second run through a link is refused too (else it would write
    every line twice and, with error lines to drop, replace the file under the first run)."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 3)), source)
    out = tmp_path / "out.jsonl"
    alias = tmp_path / "alias.jsonl"
    alias.symlink_to(out.name)
    code = ("import sys, time; from solver.files import locked_while_written; "
            "held = locked_while_written(sys.argv[1], 'stich batch'); held.__enter__(); "
            "print('held', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(StichError, match="another stich batch is writing this file"):
            solve_batch(source, alias if through_link else out, workers=1)
        assert not out.exists()
    finally:
        holder.kill()
        holder.wait()
    assert solve_batch(source, out, workers=1).solved == 3  # released with its process, even by kill -9


def test_a_file_held_by_another_kind_of_run_names_that_run(tmp_path: Path) -> None:
    """A ``stich match`` given the checkpoint a ``stich analyse`` is writing names the holder's kind, not its own
    ("another stich match is writing this file" would be wrong): the holder writes its kind into the lock file, and the
    refusal reads it; a lock file that names none (an older stich's) is said with the refused run's own kind."""
    journal = tmp_path / "analysis.ckpt"
    code = ("import sys, time; from solver.files import lock_beside; handle = lock_beside(sys.argv[1], sys.argv[2]); "
            "print('held', flush=True); time.sleep(60)")
    for kind, said in (("stich analyse", "stich analyse"), ("an earlier stich", "stich match")):
        holder = subprocess.Popen([sys.executable, "-c", code, str(journal), kind], stdout=subprocess.PIPE,
                                  text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            with pytest.raises(StichError, match=f"another {said} is writing this file"):
                play_match("Schafkopf", [RandomBot()] * 4, boards=1, checkpoint=journal)
        finally:
            holder.kill()
            holder.wait()


def test_identical_records_get_one_line_in_one_run(tmp_path: Path) -> None:
    """Two copies of a record are one question (recognised by text): one line, in a first run as on a rerun. The copy is
    counted as a duplicate, not as already done (which would read as solved by another run)."""
    record = next(solver.random_records("Kratzen", 7, 1))
    source = tmp_path / "deals.tbn"
    write_records([record, record], source)
    out = tmp_path / "out.jsonl"
    summary = solve_batch(source, out, workers=1)
    assert (summary.records, summary.solved, summary.skipped, summary.duplicates) == (2, 1, 0, 1)
    assert len(_lines(out)) == 1
    again = solve_batch(source, out, workers=1)
    assert (again.records, again.solved, again.skipped, again.duplicates) == (2, 0, 1, 1)


def test_lines_of_records_no_longer_in_the_input_are_counted_and_kept(tmp_path: Path) -> None:
    """The input regenerated under the same name: its new records are solved and the old lines stay, but the
    summary counts them and names the first ids (they repeat the new records' ids with other deals), which a
    StichWarning says too, as every note on what the output holds."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 4)), source)
    out = tmp_path / "out.jsonl"
    assert solve_batch(source, out, workers=1).stale == 0
    old_ids = tuple(line["id"] for line in _lines(out))
    regenerated = list(solver.random_records("Kratzen", 7, 2)) + list(solver.random_records("Kratzen", 8, 3))
    write_records(regenerated, source)
    with pytest.warns(StichWarning) as told:
        summary = solve_batch(source, out, workers=1)
    assert (summary.skipped, summary.solved, summary.stale) == (2, 3, 2)
    assert summary.stale_ids == old_ids[2:]
    assert [str(warning.message) for warning in told] == [
        f"{out}: holds 2 lines answering records no longer in {source}, kept: {', '.join(old_ids[2:])}; remove them or "
        "write to a new file"]
    assert len(_lines(out)) == 7
    with pytest.warns(StichWarning, match="holds 2 lines answering records no longer in"):
        assert solve_batch(source, out, workers=1).stale == 2


def test_an_output_moved_with_its_input_resumes(tmp_path: Path) -> None:
    """Records are recognised by their text, so a half-finished run copied elsewhere with its input resumes, and
    says so; the copied file renamed too when every line answers one of its records. Another file's output is
    still refused, and so is another question of the moved file."""
    records = list(solver.random_records("Kratzen", 9, 6))
    source = tmp_path / "deals.tbn"
    write_records(records, source)
    out = tmp_path / "out.jsonl"
    solve_batch(source, out, workers=1)
    half = b"".join(out.read_bytes().splitlines(keepends=True)[:3])
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "deals.tbn").write_bytes(source.read_bytes())
    (moved / "out.jsonl").write_bytes(half)
    with pytest.warns(StichWarning) as said:  # as a checkpoint's notes are given
        summary = solve_batch(moved / "deals.tbn", moved / "out.jsonl", workers=1)
    assert (summary.skipped, summary.solved, summary.stale) == (3, 3, 0)
    assert [str(warning.message) for warning in said] == [
        f"{moved / 'out.jsonl'}: holds answers written for {source.resolve()}, resumed "
        f"({(moved / 'deals.tbn').resolve()} holds their records)"]
    (moved / "renamed.tbn").write_bytes(source.read_bytes())
    (moved / "r.jsonl").write_bytes(half)
    with pytest.warns(StichWarning, match="holds answers written for"):
        assert solve_batch(moved / "renamed.tbn", moved / "r.jsonl", workers=1).skipped == 3
    with pytest.raises(StichError, match="this output answers .*without --cards.*, not .*with --cards"):
        solve_batch(moved / "renamed.tbn", moved / "r.jsonl", workers=1, cards=True)
    other = tmp_path / "other"
    other.mkdir()
    write_records(list(solver.random_records("Kratzen", 10, 6)), other / "deals.tbn")
    (other / "out.jsonl").write_bytes(half)
    with pytest.raises(StichError, match="none of its 3 records is in"):
        solve_batch(other / "deals.tbn", other / "out.jsonl", workers=1)
    assert (other / "out.jsonl").read_bytes() == half
    # a file of the same name that shares only some of the records is another file all the same
    write_records(records[:2] + list(solver.random_records("Kratzen", 11, 4)), other / "deals.tbn")
    with pytest.raises(StichError, match="1 of its 3 records is not in"):
        solve_batch(other / "deals.tbn", other / "out.jsonl", workers=1)


def test_one_objective_asked_twice_is_the_same_question(tmp_path: Path) -> None:
    """``-o points -o points`` is ``-o points`` (solve asks each objective once): the rerun resumes."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Schafkopf", 4, 2)), source)
    out = tmp_path / "out.jsonl"
    solve_batch(source, out, workers=1, objectives=["points"])
    again = solve_batch(source, out, workers=1, objectives=["points", "Points"])
    assert (again.skipped, again.written) == (2, 0)
    assert {line["asked"]["objectives"] == ["points"] for line in _lines(out)} == {True}


def test_a_lock_taken_again_by_its_process_is_released_at_the_last_close(tmp_path: Path) -> None:
    """A run holding a checkpoint's lock for all its records, whose journals take it too: a POSIX record lock is the
    process's, so a journal's close would release it under the run. Taken again, it is counted; only the last close
    (each taking's own, once) releases it."""
    target = tmp_path / "out.jsonl"
    probe = ("import sys\nfrom solver.errors import StichError\nfrom solver.files import lock_beside\ntry:\n"
             "    lock_beside(sys.argv[1], 'probe').close()\nexcept StichError:\n    print('held')\nelse:\n"
             "    print('free')\n")

    def seen() -> str:
        return subprocess.run([sys.executable, "-c", probe, str(target)], capture_output=True, text=True,
                              check=True, timeout=120).stdout.strip()

    outer = lock_beside(target, "stich analyse")
    inner = lock_beside(target, "stich analyse")
    inner.close()
    inner.close()  # twice: still one taking's release
    assert seen() == "held"
    outer.close()
    assert seen() == "free"
    again = lock_beside(target, "stich analyse")  # a fresh lock after the last close, not the closed one
    assert seen() == "held"
    again.close()


def test_a_run_that_writes_nothing_leaves_no_lock_file(tmp_path: Path) -> None:
    """An input without records (or unreadable) leaves neither an output nor its lock; a run that wrote keeps
    the lock file (removing it while another process may be opening it is what lock_beside guards against)."""
    empty = tmp_path / "empty.tbn"
    empty.write_text("% nothing\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    nothing = solve_batch(empty, out, workers=1)
    assert nothing.records == 0 and [c.text for c in nothing.comments_alone] == ["% nothing"]  # for its message
    with pytest.raises(OSError):
        solve_batch(tmp_path / "missing.tbn", out, workers=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.tbn"]
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 1)), source)
    solve_batch(source, out, workers=1)
    assert (tmp_path / ".out.jsonl.lock").exists()


def test_a_lock_file_removed_under_a_waiting_locker_is_taken_again(tmp_path: Path, monkeypatch) -> None:
    """A process that opened the lock file just before its holder removed it must not lock the removed file while a
    third process locks its successor: lock_beside checks it locked the file that has the name at that moment."""
    import fcntl

    from solver.files import lock_beside

    out = tmp_path / "out.jsonl"
    lock_path = tmp_path / ".out.jsonl.lock"
    real_lockf = fcntl.lockf
    calls = []

    def lockf(handle, flags):  # the holder removes the file between this process's open and its lock, once
        calls.append(handle.fileno())
        if len(calls) == 1:
            lock_path.unlink()
        return real_lockf(handle, flags)

    monkeypatch.setattr(fcntl, "lockf", lockf)
    held = lock_beside(out, "test")
    monkeypatch.undo()
    assert len(calls) == 2 and held.path == lock_path and lock_path.exists()
    held.close(remove=True)
    assert not lock_path.exists()


def test_a_refused_rerun_leaves_even_a_half_line_alone(tmp_path: Path) -> None:
    """A rerun asking another question is refused before anything changes: the half-written last line too."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 3)), source)
    out = tmp_path / "out.jsonl"
    solve_batch(source, out, workers=1)
    cut = out.read_bytes()[:-30]
    out.write_bytes(cut)
    with pytest.raises(StichError, match="this output answers"):
        solve_batch(source, out, workers=1, cards=True)
    assert out.read_bytes() == cut
    assert solve_batch(source, out, workers=1).solved == 1 and len(_lines(out)) == 3


def test_lines_that_do_not_say_their_question_are_refused(tmp_path: Path) -> None:
    """A line without `asked` (an older output) would match any question by its id alone and silently skip a record:
    such an output is refused for a run."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 2)), source)
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"id": f"{source}:1#1", "results": []}) + "\n", encoding="utf-8")
    with pytest.raises(StichError, match="does not say which question it answers"):
        solve_batch(source, out, workers=1)


def test_a_rewrite_killed_half_way_leaves_no_temporary_file(tmp_path: Path) -> None:
    """kill -9 while the output is rewritten without its error lines leaves a hidden temporary file, which the next run
    (holding the lock, so no writer is at work) removes, so that none stays for good."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 2)), source)
    out = tmp_path / "out.jsonl"
    stale = tmp_path / ".out.k3x_9q2z.jsonl"
    stale.write_text("half a rewrite", encoding="utf-8")
    unrelated = tmp_path / ".out.notours.jsonl"
    unrelated.write_text("kept", encoding="utf-8")
    assert solve_batch(source, out, workers=1).solved == 2
    assert not stale.exists() and unrelated.exists()


def test_an_output_cut_inside_its_first_line_is_resumed(tmp_path: Path) -> None:
    """The first write cut short (a full disk) leaves no complete line: the output is still recognised as ours."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 8, 3)), source)
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"id":"deals.tbn:1#1","key":"0')
    with pytest.warns(StichWarning, match="holds no work, written afresh"):
        assert solve_batch(source, out, workers=1).solved == 3
    assert len(_lines(out)) == 3


def _sigterm_disposition(_: object) -> bool:
    return signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_pool_workers_die_on_sigterm_whatever_handler_the_parent_has() -> None:
    """A forked worker does not keep the command's SIGTERM handler, so terminate() stops one blocked on a full result
    pipe after a sibling died, and the run exits."""
    from solver.workers import run_pool

    results: list[bool] = []
    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        run_pool([1, 2], _sigterm_disposition, (), lambda job, result: results.append(result), workers=2)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert results == [True, True]


def test_stopping_a_pool_ends_its_running_jobs_at_once() -> None:
    """stop_pool takes the pool's processes before shutting it down, which forgets them, and stops each: a Ctrl-C does
    not wait for the running jobs (6.6 s on Zwanzigerrufen records), nor a second Ctrl-C in that wait leave the exit
    waiting for the workers for good."""
    from solver.workers import process_pool, stop_pool

    pool = process_pool(2)
    for _ in range(4):
        pool.submit(time.sleep, 5)
    processes, manager = list(pool._processes.values()), pool._executor_manager_thread
    assert len(processes) == 2 and manager is not None
    stop_pool(pool)
    # joined by the stop itself, its wake-up pipe closed before Python's exit writes to it (bpo-39995): a stop that
    # took the thread after the shutdown, which forgets it too, would never join it, and a double Ctrl-C on a
    # loaded machine would end in an "OSError: Bad file descriptor" traceback now and then
    assert not manager.is_alive()  # it reaps the workers too: their exit codes are all set once it is done
    assert [process.exitcode for process in processes] == [-signal.SIGTERM] * 2  # not 0, after their 5 s


def test_a_worker_starting_up_ignores_ctrl_c(capfd) -> None:
    """Ctrl-C reaches the whole process group: a worker spawned under a memory cap, still importing stich, ignores it,
    and prints no KeyboardInterrupt traceback on the terminal while the run itself stops cleanly."""
    import multiprocessing
    import os
    from solver.workers import run_pool

    started: list = []
    before = {child.pid for child in multiprocessing.active_children()}  # an earlier test's, not to be signalled

    def jobs():
        yield -1
        # the worker the first job started, importing
        started.extend(child for child in multiprocessing.active_children() if child.pid not in before)
        for child in started:
            os.kill(child.pid, signal.SIGINT)
        yield -2

    results: list[int] = []
    run_pool(jobs(), abs, (), lambda job, result: results.append(result), workers=1, memory_mb=1024)
    assert sorted(results) == [1, 2] and started
    assert [child.exitcode for child in started] == [0] * len(started)  # the same worker ran both, and ended well
    assert "KeyboardInterrupt" not in capfd.readouterr().err


def test_without_a_pool_each_line_is_written_when_its_record_is_done(tmp_path, monkeypatch):
    # not a chunk (20 records) at a time: an interrupted run would lose up to 20 solved records
    import solver.batch as batch

    source = tmp_path / "deals.tbn"
    write_records(_mixed_records(30), source)
    out = tmp_path / "out.jsonl"
    seen = []
    solve_chunk = batch.solve_chunk

    def counting(items, *args):
        seen.append((len(items), len(out.read_text().splitlines()) if out.exists() else 0))
        return solve_chunk(items, *args)

    monkeypatch.setattr(batch, "solve_chunk", counting)
    summary = solve_batch(source, out, workers=1)
    assert summary.solved + summary.errors == 30
    assert [size for size, _ in seen] == [1] * 30
    assert [lines for _, lines in seen] == list(range(30))  # each record found the ones before it written


def test_pool_chunks_are_sized_to_about_half_a_second_of_work(monkeypatch):
    import solver.batch as batch

    clock = [100.0]
    monkeypatch.setattr(batch.time, "perf_counter", lambda: clock[0])
    chunks = batch._TimedChunks(iter([("id", "key", None)] * 1000), 20, 2)
    assert chunks.size() == 1  # nothing written yet: one record a chunk until the rate is known
    clock[0] += 10.0
    chunks.wrote(4)  # 2 workers, 4 records in 10 s: 5 s a record
    assert chunks.size() == 1
    chunks.wrote(396)  # 400 records in 10 s: 0.05 s a record, 10 to half a second
    assert chunks.size() == 10
    chunks.wrote(100_000)  # fast records: at most chunk_size
    assert chunks.size() == 20
    assert sum(len(chunk) for chunk in chunks) == 1000


def test_one_question_spelt_two_ways_resumes(tmp_path):
    # the flags are compared canonically: a rerun with =TRUE is the same question
    from solver.batch import canonical_variant

    source = tmp_path / "deals.tbn"
    source.write_text((Path(__file__).parent.parent / "examples" / "valat.tbn").read_text())
    out = tmp_path / "out.jsonl"
    first = solve_batch(source, out, workers=1, variant={"hard_pagat_reservation": "true"})
    assert first.solved >= 1 and first.errors == 0
    lines = out.read_text()
    for spelling in ({"Hard_Pagat_Reservation": "TRUE"}, {"hard_pagat_reservation": "yes"}):
        summary = solve_batch(source, out, workers=1, variant=spelling)
        assert summary.solved == 0 and summary.skipped == first.solved
    assert out.read_text() == lines
    with pytest.raises(StichError, match="this output answers"):
        solve_batch(source, out, workers=1)
    assert canonical_variant({"Tie_44": " Declarers_Lose"}) == {"tie_44": "declarers_lose"}
    assert canonical_variant({"solo_value": "5", "nonsense": "x"}) == {"nonsense": "x", "solo_value": "5"}


def test_a_flag_given_at_its_default_over_a_records_tag_is_another_question(tmp_path):
    """--variant sagotrick=any_order (the default) replaces a record's [Variant "sagotrick=off"], so a rerun asking it
    is another question: not told the record is already done, with the output keeping the answer under sagotrick=off (8
    points, not 0)."""
    source = tmp_path / "ending.tbn"
    source.write_text('[Game "Zwanzigerrufen"]\n[Variant "sagotrick=off"]\n'
                      '[Deal "1: T17 SK / T1 T19 / TS DQ / T21 T11"]\n[Contract "Solo"]\n[Declarer "3"]\n')
    out = tmp_path / "out.jsonl"
    assert solve_batch(source, out, workers=1).solved == 1
    with pytest.raises(StichError, match=r"this output answers .*no variant flags.*sagotrick=any_order"):
        solve_batch(source, out, workers=1, variant={"sagotrick": "any_order"})
    other = tmp_path / "other.jsonl"
    assert solve_batch(source, other, workers=1, variant={"sagotrick": "any_order"}).solved == 1
    points = {json.loads(line)["variant"]["sagotrick"]: next(r["total"] for r in json.loads(line)["results"]
                                                              if r["objective"] == "points")
              for text in (out, other) for line in text.read_text().splitlines()}
    assert points == {"off": 8, "any_order": 0}


def test_a_refusal_of_flags_at_their_default_over_no_flags_says_an_earlier_stich_left_them_out(tmp_path):
    """An output written by a stich that left flags at their default out (--variant sagotrick=any_order wrote "variant":
    null) but holds answers under the flag: the very command that wrote it is refused, and the message says why and how
    to solve them again; flags not at their default, or another question besides, get no hint."""
    source = tmp_path / "ending.tbn"
    source.write_text('[Game "Zwanzigerrufen"]\n[Variant "sagotrick=off"]\n'
                      '[Deal "1: T17 SK / T1 T19 / TS DQ / T21 T11"]\n[Contract "Solo"]\n[Declarer "3"]\n')
    out = tmp_path / "out.jsonl"
    assert solve_batch(source, out, workers=1).solved == 1
    assert json.loads(out.read_text())["asked"]["variant"] is None
    hint = "earlier stich, which left flags at their default out of the question: use a new --out (or delete"
    for flags in ({"sagotrick": "any_order"}, {"Sagotrick": "ANY_ORDER", "tie_44": "declarers_lose"}):
        with pytest.raises(StichError, match=r"no variant flags.*sagotrick=any_order") as refused:
            solve_batch(source, out, workers=1, variant=flags)
        assert hint in str(refused.value)
    for flags, objectives in (({"sagotrick": "off"}, None), ({"sagotrick": "any_order"}, ["tricks"])):
        with pytest.raises(StichError, match="this output answers") as refused:
            solve_batch(source, out, workers=1, variant=flags, objectives=objectives)
        assert "earlier stich" not in str(refused.value)


def test_a_refusal_of_flags_some_at_their_default_says_an_earlier_stich_left_those_out(tmp_path):
    """An output written by a stich that dropped each flag at its default alone (--variant sagotrick=any_order --variant
    tie_44=no_score wrote {"tie_44": "no_score"}): rerunning that command is refused with the hint, other flags are
    refused without it."""
    source = tmp_path / "ending.tbn"
    source.write_text('[Game "Zwanzigerrufen"]\n[Variant "sagotrick=off"]\n'
                      '[Deal "1: T17 SK / T1 T19 / TS DQ / T21 T11"]\n[Contract "Solo"]\n[Declarer "3"]\n')
    out = tmp_path / "out.jsonl"
    assert solve_batch(source, out, workers=1, variant={"tie_44": "no_score"}).solved == 1
    hint = "earlier stich, which left flags at their default out of the question"
    with pytest.raises(StichError, match="this output answers") as refused:
        solve_batch(source, out, workers=1, variant={"sagotrick": "any_order", "TIE_44": "no_score"})
    assert hint in str(refused.value)
    for flags in ({"sagotrick": "off", "tie_44": "no_score"}, {"sagotrick": "any_order"},
                  {"sagotrick": "any_order", "tie_44": "declarers_lose"}):
        with pytest.raises(StichError, match="this output answers") as refused:
            solve_batch(source, out, workers=1, variant=flags)
        assert "earlier stich" not in str(refused.value)


def _engine_threads(_: object) -> object:
    from solver.workers import worker_engine_threads
    return worker_engine_threads()


def test_pool_workers_are_given_one_engine_thread() -> None:
    """The pool already runs a worker a core: each worker's engine is told (through the worker initialiser, the one
    place a worker's settings arrive) to search with one thread; outside a pool the engine keeps its default."""
    from solver.workers import POOL_ENGINE_THREADS, run_pool

    results: list[object] = []
    run_pool([1, 2], _engine_threads, (), lambda job, result: results.append(result), workers=2)
    assert POOL_ENGINE_THREADS == 1 and results == [1, 1]
    assert _engine_threads(None) is None


def _worker_threads(_: object) -> tuple[object, int]:
    from solver.workers import worker_engine, worker_engine_threads
    return worker_engine_threads(), worker_engine().threads


def test_one_worker_asked_for_searches_on_one_thread() -> None:
    """``-j 1`` is one core: the jobs run in this process (no pool), each on one search thread as a pool's worker would;
    jobs run here for another reason (a batch too small for a pool) keep the engine's default, every core."""
    from solver.search.engine import default_threads
    from solver.workers import Pool, run_serial, serial_threads

    seen: list[object] = []
    Pool(1).run([1], _worker_threads, (), lambda _, result: seen.append(result))
    assert seen == [(1, 1)]
    assert _engine_threads(None) is None  # the default again after the run
    run_serial([1], _worker_threads, (), lambda _, result: seen.append(result), threads=serial_threads(None))
    assert seen[1] == (None, default_threads())


def test_progress_says_how_many_are_left_before_the_first_is_solved(tmp_path: Path) -> None:
    """A resume over a large output says how many records are left while it reads the files, not 'solving 0/?': the
    count comes first."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 5, 6)), source)
    out = tmp_path / "out.jsonl"
    solve_batch(source, out, workers=1, objectives=["tricks"])
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")  # two answered, four left
    calls: list[tuple[int, int]] = []
    solve_batch(source, out, workers=1, objectives=["tricks"], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_the_progress_bar_reads_before_it_solves() -> None:
    """The terminal's bar says 'reading' until the records left are counted, then 'solving'."""
    import cli.batch as batch_command

    bar = batch_command._Bar()
    from rich.progress import Progress, TextColumn
    bar.progress = Progress(TextColumn("{task.description}"), auto_refresh=False)  # no terminal here
    with bar as update:
        assert bar.progress.tasks[0].description == "reading"
        update(0, 4)
        assert bar.progress.tasks[0].description == "solving" and bar.progress.tasks[0].total == 4


def test_a_pot_settles_the_kratzen_records_and_is_part_of_the_question(tmp_path: Path) -> None:
    """batch takes --pot, so that a Kratzen file's scores are not paid from a pot of 0 unless each record has a [Pot]
    tag. The pot is the question's (a rerun with another pot is refused), and a run without one asks what a run without
    one always asked."""
    source = tmp_path / "deals.tbn"
    source.write_text((Path(__file__).parent.parent / "examples" / "kratzen.tbn").read_text())
    out = tmp_path / "out.jsonl"
    assert solve_batch(source, out, workers=1, pot=40).solved == 5
    lines = _lines(out)
    assert {line["asked"]["pot"] for line in lines} == {40}
    assert [line["results"][0]["total"] for line in lines] == [20, 30, -80, 0, 40]
    with pytest.raises(StichError, match="pot 40"):
        solve_batch(source, out, workers=1)
    assert solve_batch(source, out, workers=1, pot=40).skipped == 5
    plain = tmp_path / "plain.jsonl"
    solve_batch(source, plain, workers=1)
    assert all("pot" not in line["asked"] for line in _lines(plain))  # the lines of a run without one, unchanged
    assert {line["results"][0]["total"] for line in _lines(plain)} == {0}
    with pytest.raises(StichError, match="the pot is from 0 to"):
        solve_batch(source, tmp_path / "other.jsonl", workers=1, pot=-1)


def test_a_bad_pot_is_the_records_error_whatever_is_asked(tmp_path: Path) -> None:
    """A Kratzen record's [Pot "abc"] is the record's error, at the tag, under the default objectives (the score reads
    it) and under -o tricks alike, and the other records are still solved; --pot stands for the tag and is used
    instead."""
    source = tmp_path / "deals.tbn"
    deal = '[Deal "1: EO E9 SU SZ / GA HA HU S7 / EK G8 HO SK"]\n[Contract "Trump S"]\n'
    source.write_text(f'[Game "Kratzen"]\n[Pot "abc"]\n{deal}\n[Game "Kratzen"]\n[Pot "8"]\n{deal}')
    for objectives, name in ((["tricks"], "tricks.jsonl"), (None, "default.jsonl")):
        summary = solve_batch(source, tmp_path / name, workers=1, objectives=objectives)
        assert (summary.solved, summary.errors) == (1, 1), objectives
        first, second = _lines(tmp_path / name)
        assert first["error"] == (f"{source}:2:7: [Pot] is not a number of chips (got 'abc', expected a whole "
                                  "number from 0 to 999,999,999)") and "results" in second
    assert solve_batch(source, tmp_path / "pot.jsonl", workers=1, objectives=["tricks"], pot=4).solved == 2


def _peak_bytes_of(action) -> int:
    """The peak of Python's allocations (tracemalloc) while ``action`` runs: a measure of memory, not of time."""
    import tracemalloc
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_half_written_last_line_is_trimmed_without_being_read_whole(tmp_path: Path) -> None:
    """A resume does not read the output's lines whole: a last line of 20 MB (a wrong or damaged --out) is trimmed as
    any half-written line, read in pieces, not held entire (a 50 MB one would take the resident set from 31 to 126 MB).
    """
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"id": "a:1", "key": "k1"}\n{"id": "' + b"x" * 20_000_000)
    holder: dict = {}
    peak = _peak_bytes_of(lambda: holder.update(keys=done_ids(out)))
    assert holder["keys"] == {"k1"}
    assert out.read_bytes() == b'{"id": "a:1", "key": "k1"}\n'
    assert peak < 10_000_000


def test_a_huge_complete_line_is_refused_at_its_number_without_being_read_whole(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    body = b'{"id": "a:1", "key": "k1"}\n{"id": "' + b"x" * 20_000_000 + b'"}\n{"id": "a:9", "key": "k9"}\n'
    out.write_bytes(body)
    said: list[str] = []

    def resume() -> None:
        with pytest.raises(StichError) as refused:
            done_ids(out)
        said.append(str(refused.value))

    peak = _peak_bytes_of(resume)
    assert said and f"{out}:2: a line of more than" in said[0]
    assert out.read_bytes() == body  # refused before anything is changed
    assert peak < 10_000_000


@pytest.mark.parametrize("kept", [1, 3, 6, 7, 40])
def test_an_output_cut_inside_its_first_line_is_solved_afresh(tmp_path: Path, kept: int) -> None:
    """A run killed (or out of disk) while its first line was written leaves only the start of that line, however few
    bytes (under 7 it is no less a batch output): the start of a line is trimmed as any half-written line, and every
    record is solved, which is said as a checkpoint's is."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 2)), source)
    whole = tmp_path / "whole.jsonl"
    solve_batch(source, whole, workers=1)
    out = tmp_path / "out.jsonl"
    out.write_bytes(whole.read_bytes()[:kept])
    with pytest.warns(StichWarning) as said:
        summary = solve_batch(source, out, workers=1)
    assert [str(warning.message) for warning in said] == [
        f"{out}: holds no work, written afresh (only the start of its first line, {kept} "
        f"byte{'s' if kept > 1 else ''}: its writer stopped while it wrote it)"]
    assert (summary.solved, summary.skipped) == (2, 0)
    assert [line["key"] for line in _lines(out)] == [line["key"] for line in _lines(whole)]


@pytest.mark.parametrize("content", [b"{}\n", b'{"a', b"notes"])
def test_what_is_no_start_of_a_batch_line_is_still_refused(tmp_path: Path, content: bytes) -> None:
    """Only the start of a batch line is taken for a cut first line: a complete line, or one that starts otherwise,
    is someone else's file, refused and left as it is."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 1)), source)
    out = tmp_path / "out.jsonl"
    out.write_bytes(content)
    with pytest.raises(StichError, match="not a stich batch output"):
        solve_batch(source, out, workers=1)
    assert out.read_bytes() == content


def test_a_batch_note_ending_in_a_bracket_takes_its_count_inside_it():
    """A note that ends in its own bracket (a pointer to the docs) takes the count and place inside that bracket:
    two brackets in a row do not read."""
    from solver.batch import BatchSummary, notes_text

    note = "an ending: cards of the tricks before (docs/scoring.md)"
    summary = BatchSummary(3, 0, 3, 0, 0.1, notes=((note, 3),), note_places=((note, "deals.tbn:7"),))
    assert notes_text(summary) == [
        "note: an ending: cards of the tricks before (docs/scoring.md; 3 records solved now, the first at deals.tbn:7)"]
    unplaced = BatchSummary(3, 0, 3, 0, 0.1, notes=((note, 3),))  # a summary made without places: the count alone
    assert notes_text(unplaced) == [
        "note: an ending: cards of the tricks before (docs/scoring.md; 3 records solved now)"]
    assert unplaced.as_dict()["notes"] == [{"note": note, "records": 3, "first": None}]


def test_a_batch_note_shows_its_file_escaped_and_keeps_it_raw_in_json(tmp_path):
    """A note's place names the file as every message does (a tab or an ESC written out, so that the name cannot drive
    the terminal); the JSON ``first`` keeps the name as given, as ``source`` does."""
    source = tmp_path / "a\tb\033[31mred.tbn"
    write_records(list(solver.random_records("Kratzen", 7, 2)), source)  # no pot: each line carries a note
    summary = solve_batch(source, tmp_path / "out.jsonl", workers=1)
    assert "\033" not in str(summary) and "\t" not in str(summary)
    assert f"records solved now, the first at {tmp_path}/a\\tb\\x1b[31mred.tbn:1)" in str(summary)
    assert [note["first"] for note in summary.as_dict()["notes"]] == [f"{source}:1"]
    assert [place for _, place in summary.note_places] == [f"{source}:1"]
