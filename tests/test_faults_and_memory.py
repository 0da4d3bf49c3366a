"""Results survive faults, and memory stays bounded.

* The analyser's checkpoint: kill -9 in the middle, rerun, and the analysis equals an uninterrupted one.
* A Dask worker that dies has its chunk redone (the local pool's case is in test_batch_worker_death.py).
* A worker memory limit caps the worker's address space and sizes its table to fit; a record that still runs out
  of memory is an error line, not a lost run.
* Files are read as streams: reading a large file keeps only one record in memory.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import json
import os
import resource
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

import solver
from solver import batch, sampling
from solver import workers as pool
from solver.errors import OtherCountResumed, OtherJobsNotResumed, StichError, StichWarning
from solver.formats.tbn import format_record, iter_records, write_records

from machine_cores import TWO_CORES

HAND = "EO GO HO EU HA HZ HK H9"  # a Solo hand of Schafkopf seat 1 (hearts trump)
ANALYSIS = dict(game="Schafkopf", hand=HAND, seat=1, contract="Solo H", samples=48, seed=7)


def _report(analysis) -> dict:
    document = analysis.as_dict()
    document.pop("seconds", None)
    return document


@pytest.mark.slow
def test_analyser_killed_with_minus_nine_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    journal = tmp_path / "analysis.ckpt"
    code = (f"{TWO_CORES}from solver.sampling import analyse_hand; "
            f"analyse_hand(**{ANALYSIS!r}, workers=2, checkpoint={str(journal)!r})")
    process = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if journal.exists() and journal.read_bytes().count(b"\n") >= 3:  # the header and two chunks
                break
            time.sleep(0.01)
        assert process.poll() is None, "the analysis ended before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
    lines = journal.read_bytes().splitlines()
    spans = [json.loads(line)["span"] for line in lines[1:] if line.endswith(b"}")]
    done_before = sum(n for _, n in spans)
    assert 0 < done_before < ANALYSIS["samples"]
    with open(journal, "ab") as stream:  # as if killed in the middle of writing a chunk
        stream.write(b'{"span": [100, 10], "sums": {"n": 1')
    resumed = sampling.analyse_hand(**ANALYSIS, workers=1, checkpoint=journal)
    whole = sampling.analyse_hand(**ANALYSIS, workers=1)
    assert _report(resumed) == _report(whole)
    assert resumed.samples == ANALYSIS["samples"]
    covered = []
    for line in journal.read_text().splitlines()[1:]:
        first, n = json.loads(line)["span"]
        covered.extend(range(first, first + n))
    assert sorted(covered) == list(range(ANALYSIS["samples"]))  # every sample once, none twice


def _kill_group_at(args: list, journal: Path, lines: int) -> None:
    """Run ``args`` in a process group of its own and kill the whole group (its pool's workers too: the OOM killer
    or a power cut ends them all) once ``journal`` holds ``lines`` line ends."""
    process = subprocess.Popen(args, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if journal.exists() and journal.read_bytes().count(b"\n") >= lines:
                break
            time.sleep(0.005)
        assert process.poll() is None, f"the run ended before {lines} lines could be written"
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.slow
def test_analyse_of_a_file_killed_three_times_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    """``analyse FILE --checkpoint``: the records' analyses share one journal, their lines interleaved; the whole
    process group killed three times (inside the first record's analysis, then further on), each time resumed,
    gives the uninterrupted run's JSON lines byte for byte, and the journal holds every sample of each record once."""
    source, journal = tmp_path / "deals.tbn", tmp_path / "a.ckpt"
    write_records(list(solver.random_records("Schafkopf", 5, 2)), source)
    command = [sys.executable, "-c", f"{TWO_CORES}from solver.cli.main import main; main()", "analyse", str(source),
               "--seat", "2", "-n", "40", "-j", "2", "--json"]
    for lines in (5, 30, 55):
        _kill_group_at([*command, "--checkpoint", str(journal)], journal, lines)
    resumed = subprocess.run([*command, "--checkpoint", str(journal)], capture_output=True, text=True)
    whole = subprocess.run(command, capture_output=True, text=True)
    assert resumed.returncode == whole.returncode == 0
    assert resumed.stdout == whole.stdout and resumed.stdout.count("\n") == 2
    samples: dict[str, list[int]] = {}
    for line in journal.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if "span" in entry:
            first, count = entry["span"]
            samples.setdefault(entry["key"], []).extend(range(first, first + count))
    assert len(samples) == 2 and all(sorted(numbers) == list(range(40)) for numbers in samples.values())


@pytest.mark.slow
def test_a_finished_checkpoint_is_read_back_without_solving(tmp_path: Path, monkeypatch) -> None:
    journal = tmp_path / "a.ckpt"
    first = sampling.analyse_hand(**{**ANALYSIS, "samples": 20}, workers=1, checkpoint=journal)
    monkeypatch.setattr(sampling, "sample_chunk", lambda *a: pytest.fail("a finished sample was solved again"))
    again = sampling.analyse_hand(**{**ANALYSIS, "samples": 20}, workers=1, checkpoint=journal)
    assert _report(first) == _report(again)


@pytest.mark.slow
def test_one_checkpoint_holds_several_analyses_apart(tmp_path: Path, monkeypatch) -> None:
    # `stich analyse FILE --checkpoint CK` analyses every record into one CK: the second record's analysis is not
    # refused as "another analysis", so a file of several records runs and resumes with a checkpoint; the first run
    # of the second is said to start beside the other (the command says it of a FILE's first record only)
    journal = tmp_path / "a.ckpt"
    first = sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)
    with pytest.warns(OtherJobsNotResumed, match="holds 1 other analysis, not resumed"):
        second = sampling.analyse_hand(**{**ANALYSIS, "samples": 10, "seed": 8}, workers=1, checkpoint=journal)
    assert _report(second) == _report(sampling.analyse_hand(**{**ANALYSIS, "samples": 10, "seed": 8}, workers=1))
    headers = [json.loads(line) for line in journal.read_text().splitlines() if "stich-analysis" in line]
    assert len(headers) == 2 and headers[0]["key"] != headers[1]["key"]
    monkeypatch.setattr(sampling, "sample_chunk", lambda *a: pytest.fail("a finished sample was solved again"))
    assert _report(sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)) \
        == _report(first)
    assert _report(sampling.analyse_hand(**{**ANALYSIS, "samples": 10, "seed": 8}, workers=1, checkpoint=journal)) \
        == _report(second)


@pytest.mark.slow
def test_a_resume_reads_the_checkpoint_as_a_stream(tmp_path: Path, monkeypatch) -> None:
    """A resume holds each line's place and the runs of samples done, not every line's sums and a set of every
    sample number done (1.5 GB for a 3,000,000-sample analysis)."""
    journal = tmp_path / "a.ckpt"
    sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)
    header, line = (json.loads(text) for text in journal.read_text().splitlines()[:2])
    samples, size = 20_000, line["span"][1]
    header["samples"] = samples
    keyed = solver.checkpoint.Journal(tmp_path / "key.ckpt", {name: header[name] for name in header
                                                              if name not in ("stich-analysis", "key")})
    header["key"] = keyed.key
    keyed.close()
    with open(journal, "w", encoding="utf-8") as stream:  # every sample done, each chunk the same sums
        stream.write(json.dumps(header) + "\n")
        for first in range(0, samples, size):
            stream.write(json.dumps({"key": header["key"], "span": [first, size], "sums": line["sums"]}) + "\n")
    monkeypatch.setattr(sampling, "sample_chunk", lambda *a: pytest.fail("a finished sample was solved again"))
    tracemalloc.start()
    try:
        resumed = sampling.analyse_hand(**{**ANALYSIS, "samples": samples}, workers=1, checkpoint=journal)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert resumed.samples == samples and resumed.mean == line["sums"]["sum"] / size
    assert journal.stat().st_size > 10 << 20 and peak < 4 << 20  # a place a line, not the lines
    assert list(sampling.spans(samples + 15, solver.checkpoint.SpanSet(range(samples)), 10)) \
        == [(samples, 10), (samples + 10, 5)]


def test_a_version_2_checkpoint_is_refused_and_left_alone(tmp_path: Path) -> None:
    # version 2 journals (one analysis, chunk lines without a key) are not read
    journal = tmp_path / "a.ckpt"
    sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    lines[0]["stich-analysis"] = 2
    for line in lines:
        line.pop("key")
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    before = journal.read_bytes()
    with pytest.raises(StichError, match=r"another stich version \(2\)"):
        sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)
    assert journal.read_bytes() == before


def test_a_checkpoint_of_another_version_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "a.ckpt"
    journal.write_text('{"stich-analysis": 1}\n')
    with pytest.raises(StichError, match="another stich version"):
        sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)
    assert journal.read_text() == '{"stich-analysis": 1}\n'


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n\xff\xfe binary", b"my notes\nlast line without newline",
                                     b'{"a": 1}\n'])
def test_a_file_that_is_no_checkpoint_is_refused_and_left_alone(tmp_path: Path, content: bytes) -> None:
    other = tmp_path / "notes.txt"
    other.write_bytes(content)
    with pytest.raises(StichError, match="not a stich checkpoint"):
        sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=other)
    assert other.read_bytes() == content  # no half line trimmed from someone else's file


def test_a_huge_first_line_is_no_checkpoint_and_is_not_read_whole(tmp_path: Path) -> None:
    """A --checkpoint naming a file of one 60 MB line is seen to be no checkpoint without the whole line read (145 MB
    resident): the header is looked for in the first MiB."""
    from solver.checkpoint import Journal
    other = tmp_path / "one-line.txt"
    content = b'{"stich-analysis": 1, "key": "' + b"x" * 20_000_000 + b'"}\n'
    other.write_bytes(content)
    tracemalloc.start()
    try:
        with pytest.raises(StichError, match="not a stich checkpoint"):
            Journal(other, {"setup": {}})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10_000_000
    assert other.stat().st_size == len(content)  # left alone


def dying_on_first_call(flag: str, items, *args):
    """solve_chunk, except that the first call (across all workers) kills its own worker process."""
    try:
        descriptor = os.open(flag, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return batch.solve_chunk(items, *args)
    os.close(descriptor)
    os._exit(9)


def test_a_dead_dask_worker_has_its_chunk_redone(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    import cloudpickle
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    flag = tmp_path / "died"
    deals = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 9, 40, seats=3)), deals)
    items = list(batch.read_items(str(deals)))
    out = io.StringIO()
    writer = batch._Writer(out, len(items), None)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        pool.run_dask(batch._chunks(items, 5), functools.partial(dying_on_first_call, str(flag)), (batch.Question(),),
                      writer.write_chunk, cluster.scheduler_address)
    assert flag.exists()  # a worker did die
    ids = [json.loads(line)["id"] for line in out.getvalue().splitlines()]
    assert len(ids) == len(set(ids)) == 40 and writer.solved == 40
    serial = io.StringIO()
    pool.run_serial(batch._chunks(items, 5), batch.solve_chunk, (batch.Question(),),
                    batch._Writer(serial, 40, None).write_chunk)
    assert sorted(out.getvalue().splitlines()) == sorted(serial.getvalue().splitlines())


def probe_worker(job, megabytes: int):
    """What a pool worker sees of its limit: the address-space cap, its table size, and whether allocating
    ``megabytes`` more fails cleanly."""
    from solver.settlement import default_settlement_engine

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    table = pool.worker_engine().table_bytes + default_settlement_engine().table_bytes  # both engines a worker holds
    try:
        block = bytearray(megabytes << 20)
        del block
        refused = False
    except MemoryError:
        refused = True
    return soft, table, refused


def test_a_worker_memory_limit_caps_the_worker_and_sizes_its_table() -> None:
    results = []
    pool.run_pool([1, 2], probe_worker, (400,), lambda job, result: results.append(result), 2, memory_mb=200)
    assert len(results) == 2
    for soft, table, refused in results:
        assert soft == 200 << 20
        assert table <= (200 << 20) // 4  # the points and the settlement engine's tables together
        assert refused  # 400 MB cannot be had under a 200 MB cap: MemoryError, not a dead machine
    for refused_limit in (64, 1 << 43, 2.5e9, True):  # 2**43 MB in bytes overflowed setrlimit's C long in the worker
        with pytest.raises(StichError, match="must be 256 to 1,073,741,824 MB"):
            pool.check_memory_limit(refused_limit)


def worker_tables(job) -> tuple[int, int]:
    from solver.settlement import default_settlement_engine

    return pool.worker_engine().table_bytes, default_settlement_engine().table_bytes


def test_a_run_s_table_size_reaches_both_engines_of_its_workers() -> None:
    # --table-mb of batch and analyse: the points and the settlement engine of every worker alike
    results: list[tuple[int, int]] = []
    pool.run_pool([1, 2], worker_tables, (), lambda job, result: results.append(result), 2, table_mb=8)
    assert results == [(8 << 20, 8 << 20)] * 2
    serial: list[tuple[int, int]] = []
    pool.run_serial([1], worker_tables, (), lambda job, result: serial.append(result), table_mb=4)
    assert serial == [(4 << 20, 4 << 20)]


def test_a_serial_run_s_table_size_is_its_thread_s_alone() -> None:
    # a run in this process (one worker) sizes its own thread's worker engines, not another thread's meanwhile
    import threading

    inside, seen_elsewhere = threading.Event(), threading.Event()
    sizes: list = []

    def job_in_the_run(job):
        inside.set()
        assert seen_elsewhere.wait(30)
        return pool.worker_table_megabytes()

    def another_thread() -> None:
        assert inside.wait(30)
        sizes.append(pool.worker_table_megabytes())
        seen_elsewhere.set()

    other = threading.Thread(target=another_thread)
    other.start()
    pool.run_serial([1], job_in_the_run, (), lambda job, result: sizes.append(result), table_mb=4)
    other.join(timeout=30)
    assert sizes == [None, 4] and pool.worker_table_megabytes() is None


def test_a_record_out_of_memory_is_an_error_line_and_the_others_are_solved(tmp_path: Path, monkeypatch) -> None:
    records = list(solver.random_records("Kratzen", 3, 5, seats=3))
    source = tmp_path / "deals.tbn"
    write_records(records, source)
    real = batch.solve_report
    calls = []

    def hungry(position, *args, **kwargs):
        calls.append(position)
        if len(calls) == 2:
            raise MemoryError
        return real(position, *args, **kwargs)

    monkeypatch.setattr(batch, "solve_report", hungry)
    out = tmp_path / "out.jsonl"
    summary = batch.solve_batch(source, out, objectives=None, workers=1)
    assert (summary.solved, summary.errors) == (4, 1)
    errors = [json.loads(line) for line in out.read_text().splitlines() if '"error"' in line]
    # no --worker-memory: the line said 'within the worker's limit', a limit the user never gave
    assert errors[0]["error"].endswith(": out of memory, with no --worker-memory given: the process's own limit "
                                       "(ulimit -v) or the machine's memory ran out (give --worker-memory MB, which "
                                       "sizes each worker's tables to fit)")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_batch_whose_workers_cannot_allocate_their_table_stops_with_one_line(tmp_path: Path, workers: str) -> None:
    """Under ulimit -v, --table-mb 1024 fits no worker: the run stops at once with one line that says which limit and
    what to give, and writes nothing, not an error line 'out of memory within the worker's limit' for every record of
    the file."""
    out = tmp_path / "out.jsonl"
    process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "batch",
                              str(Path(__file__).resolve().parent.parent / "examples" / "schafkopf.tbn"), "--out",
                              str(out), "--chunk-size", "2", "-j", workers,
                              "--table-mb", "1024"], capture_output=True, text=True, timeout=120,
                             preexec_fn=_capped(1536))
    assert (process.returncode, process.stderr.splitlines()) == (1, [
        "stich: a worker cannot allocate a 1024 MB transposition table with no --worker-memory given, within the "
        "process's own limit (ulimit -v) or the machine's memory: give a smaller --table-mb, or --worker-memory MB "
        "to size the tables to fit"])
    assert not out.exists() or not out.read_text()


def test_a_record_out_of_memory_within_worker_memory_says_that_limit(monkeypatch) -> None:
    from solver import workers

    monkeypatch.setattr(workers, "_worker_memory_mb", 512)
    assert workers.out_of_memory_text() == "out of memory within --worker-memory 512 MB (give a larger one)"
    stop = workers.table_does_not_fit(MemoryError("cannot allocate a 64 MB transposition table"))
    assert str(stop) == ("a worker cannot allocate a 64 MB transposition table within --worker-memory 512 MB: give a "
                         "smaller --table-mb")
    assert workers.table_does_not_fit(MemoryError()) is None  # a search that ran out: that record's error line


def test_a_dask_worker_short_of_memory_stops_only_its_own_records(monkeypatch) -> None:
    """On a cluster only one Dask worker may be short of memory for its table: that does not stop the run
    (``table_does_not_fit`` is None), and its records' lines say so in words for the cluster (a Dask worker,
    STICH_TABLE_MB), not --table-mb or --worker-memory, which --scheduler refuses."""
    from solver import workers

    monkeypatch.setattr(workers, "_dask_worker", lambda: object())
    assert workers.table_does_not_fit(MemoryError("cannot allocate a 4096 MB transposition table")) is None
    assert "Dask worker" in workers.out_of_memory_text() and "STICH_TABLE_MB" in workers.out_of_memory_text()

    def no_table() -> None:
        raise MemoryError("cannot allocate a 4096 MB transposition table")

    monkeypatch.setattr(batch, "worker_engine", no_table)
    record = next(solver.random_records("Schafkopf", 4, 1))
    item = batch.Item("r1", "k1", record, None)
    lines = batch.solve_chunk([item], batch.Question(("points",), False))
    assert [json.loads(line.text)["error"] for line in lines] == [f"r1: {workers.out_of_memory_text()}"]
    assert all(line.is_error for line in lines)


def test_batch_under_a_memory_limit_solves_everything(tmp_path: Path, two_worker_cores) -> None:
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Schafkopf", 4, 8)), source)
    capped, free = tmp_path / "capped.jsonl", tmp_path / "free.jsonl"
    summary = batch.solve_batch(source, capped, workers=2, chunk_size=2, memory_mb=256)
    batch.solve_batch(source, free, workers=1)
    assert summary.solved == 8
    assert sorted(capped.read_text().splitlines()) == sorted(free.read_text().splitlines())


@pytest.mark.slow
def test_a_large_file_is_read_one_record_at_a_time(tmp_path: Path) -> None:
    """5 MB of records read with at most a few hundred kB held at once (tracemalloc counts Python allocations)."""
    records = [format_record(r) for r in solver.random_records("Schafkopf", 2, 50)]
    path = tmp_path / "big.tbn"
    block = "\n".join(records) + "\n"
    with open(path, "w", encoding="utf-8") as stream:
        while stream.tell() < 5 << 20:
            stream.write(block)
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_records(str(path)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count > 20_000
    assert peak < 1 << 20, f"reading held {peak} bytes at once"


@pytest.mark.slow
def test_the_resume_scan_reads_the_output_as_a_stream(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    with open(out, "w", encoding="utf-8") as stream:
        payload = [{"card": "EO", "value": 61}] * 150  # about 4 kB a line, like a result with every card
        for k in range(10_000):
            stream.write(json.dumps({"id": f"f.tbn:{k}", "key": f"{k:024x}", "results": payload}) + "\n")
        stream.write('{"id": "half')
    tracemalloc.start()
    try:
        ids = batch.done_ids(out)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(ids) == 10_000 and out.read_bytes().endswith(b"}\n")
    size = out.stat().st_size
    assert size > 30 << 20 and peak < 4 << 20  # the key set, not the file


def _capped(megabytes: int):
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))


@pytest.mark.parametrize("table_mb", [4096, 1024])  # the search's own table; the settlement's beside it
def test_a_table_larger_than_the_process_may_map_is_one_line_not_a_traceback(table_mb: int) -> None:
    # under a 2 GB address space (ulimit -v, a container), --table-mb 4096 cannot be had at all, and 1024 fits once
    # but not twice (the settlement's tables of the same size): each is one line, not a MemoryError traceback
    valat = Path(__file__).resolve().parent.parent / "examples" / "valat.tbn"
    process = subprocess.run([sys.executable, "-c", "from solver.cli.main import main; main()", "solve", str(valat),
                              "--table-mb", str(table_mb)], capture_output=True, text=True, timeout=120,
                             preexec_fn=_capped(2048))
    assert process.returncode == 1
    assert "Traceback" not in process.stderr
    assert process.stderr.splitlines() == [
        f"stich: cannot allocate a {table_mb} MB transposition table: the process may not use that much memory "
        "(give a smaller --table-mb or STICH_TABLE_MB; each searching command holds two tables of that size: the "
        "search's and the settlement's)"]


@pytest.mark.parametrize("kept", [1, 12, 40, 120])
def test_a_checkpoint_cut_inside_its_header_is_written_afresh(tmp_path: Path, kept: int) -> None:
    """A run killed (or out of disk) while the checkpoint's first line was written leaves only the start of the header,
    which holds no work: the rerun writes it afresh and analyses every sample, rather than refusing it as "not a stich
    checkpoint", to be removed by hand."""
    whole = tmp_path / "whole.ckpt"
    first = sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=whole)
    journal = tmp_path / "cut.ckpt"
    header = whole.read_bytes().split(b"\n")[0]
    journal.write_bytes(header[:kept])
    with pytest.warns(StichWarning, match=r"holds no work, written afresh \(only the start of its first line, "
                                          rf"{kept:,} bytes?: its writer stopped while it wrote it\)$"):
        again = sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)
    assert _report(again) == _report(first)
    assert journal.read_bytes().split(b"\n")[0] == header


def test_a_checkpoint_of_a_lone_brace_is_a_torn_header_and_one_of_a_whole_line_is_refused(tmp_path: Path) -> None:
    """A checkpoint that is only ``{`` is the rule for torn first lines at its shortest (the header's first byte, no
    line end: killed as it was written), so it is written afresh; ``{`` and a line end is a whole first line that is
    no header, so it is refused and left as it was, as any other file that is no checkpoint."""
    torn = tmp_path / "torn.ckpt"
    torn.write_bytes(b"{")
    with pytest.warns(StichWarning, match=r"only the start of its first line, 1 byte: "):
        first = sampling.analyse_hand(**{**ANALYSIS, "samples": 6}, workers=1, checkpoint=torn)
    assert first.samples == 6 and json.loads(torn.read_text().splitlines()[0])["stich-analysis"]
    whole = tmp_path / "whole.ckpt"
    whole.write_bytes(b"{\n")
    with pytest.raises(StichError, match=r"not a stich checkpoint \(its first line is no analysis header\)"):
        sampling.analyse_hand(**{**ANALYSIS, "samples": 6}, workers=1, checkpoint=whole)
    assert whole.read_bytes() == b"{\n"


_FILLED_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
from solver.cli import main
sys.argv[0] = "stich"
main()
"""


def test_a_checkpoint_that_fills_the_disk_is_named_and_resumed(tmp_path: Path) -> None:
    """A checkpoint whose disk fills up after its first lines is named, what it kept is said, and a rerun with room
    resumes to the uninterrupted analysis: the journal's buffer is not written again at its close to fail a second time
    without its file's name (``stich: <stdout>: File too large``)."""
    journal = tmp_path / "analysis.ckpt"
    args = ["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-n", "24",
            "-s", "7", "-j", "1", "--json"]
    limited = subprocess.run([sys.executable, "-c", _FILLED_DISK.format(limit=1500), *args, "--checkpoint",
                              str(journal)], capture_output=True, text=True, cwd=tmp_path)
    assert limited.returncode == 1 and limited.stdout == ""
    assert limited.stderr.startswith(f"stich: {journal}: File too large; what was written before it is kept")
    assert "Traceback" not in limited.stderr
    kept = journal.read_bytes()
    assert 1 < kept.count(b"\n") and len(kept) <= 1500  # the header and some chunks
    resumed = subprocess.run([sys.executable, "-c", _FILLED_DISK.format(limit=10 ** 7), *args, "--checkpoint",
                              str(journal)], capture_output=True, text=True, cwd=tmp_path)
    whole = subprocess.run([sys.executable, "-c", _FILLED_DISK.format(limit=10 ** 7), *args], capture_output=True,
                           text=True, cwd=tmp_path)
    assert resumed.returncode == whole.returncode == 0
    assert _report_text(resumed.stdout) == _report_text(whole.stdout)


def _report_text(stdout: str) -> dict:
    document = json.loads(stdout)
    document.pop("seconds", None)
    return document


@pytest.mark.parametrize("command, name, said", [
    (["analyse", "--record", "1", "--seat", "1", "-n", "2", "-j", "1", "--json", "--checkpoint"], "c.ckpt",
     "0 bytes, and this process may write no file over 0 bytes"),
    (["batch", "-j", "1", "--out"], "o.jsonl", "0 bytes, and this process may write no file over 0 bytes")])
def test_a_disk_full_from_the_start_names_the_file_not_stdout(tmp_path: Path, command: list, name: str,
                                                              said: str) -> None:
    """With no room from the start, the error names the file the run is writing (the checkpoint, or the output), not
    ``stich: <stdout>: File too large``: the lock holder's name is written past any buffer, so that closing the lock
    writes nothing more (each file meets the limit before it solves anything: a checkpoint writes its header with its
    first line). The record refused still gets its line on stdout with ``--json``."""
    source = Path(__file__).resolve().parent.parent / "examples" / "kratzen.tbn"
    args = [command[0], str(source), *command[1:], name]
    limited = subprocess.run([sys.executable, "-c", _FILLED_DISK.format(limit=0), *args], capture_output=True,
                             text=True, cwd=tmp_path)
    assert limited.returncode == 1 and limited.stderr.startswith(f"stich: {name}: {said}")
    assert "<stdout>" not in limited.stderr and "Traceback" not in limited.stderr
    # analyse --json says the record the refusal left unanswered on stdout (a pipe, not a file under the limit)
    lines = [json.loads(line) for line in limited.stdout.splitlines()]
    assert [(line["stopped"], line["error"].startswith(f"{name}: {said}")) for line in lines] == (
        [("error", True)] if command[0] == "analyse" else [])


def _limited(limit: int, args: list, cwd: Path) -> subprocess.CompletedProcess:
    """``stich ARGS`` in a process that may write no file over ``limit`` bytes (``ulimit -f``)."""
    return subprocess.run([sys.executable, "-c", _FILLED_DISK.format(limit=limit), *args], capture_output=True,
                          text=True, cwd=cwd)


def _whole_lines(path: Path) -> bytes:
    """A file's complete lines (what a rerun keeps of it: it trims a half-written last one)."""
    data = path.read_bytes()
    return data[:data.rfind(b"\n") + 1]


def test_a_batch_output_at_the_file_size_limit_says_to_raise_it_and_a_rerun_under_it_solves_nothing(
        tmp_path: Path) -> None:
    """An output that meets the largest file this process may write (``ulimit -f``, EFBIG) is told to raise the limit,
    not "make room", which no room on the disk mends; every rerun under it is refused before any record is solved, with
    the file as it was (the half-written line kept, so that the next rerun measures it too, where a trimmed line would
    leave it just under the limit and a chunk solved for nothing), and one with the limit raised resumes to the
    uninterrupted run's lines."""
    source = tmp_path / "deals.tbn"
    write_records(list(solver.random_records("Kratzen", 3, 12)), source)
    args = ["batch", str(source), "-j", "1", "--out", "out.jsonl"]
    out = tmp_path / "out.jsonl"
    first = _limited(4000, args, tmp_path)
    assert first.returncode == 1 and first.stderr.count("\n") == 1 and "Traceback" not in first.stderr
    assert first.stderr.startswith("stich: out.jsonl: File too large; the lines written so far are kept")
    assert "raise the file size limit (ulimit -f)" in first.stderr and "make room" not in first.stderr
    kept = _whole_lines(out)
    assert 1 <= kept.count(b"\n") < 12
    written = out.read_bytes()
    for _ in range(2):
        again = _limited(4000, args, tmp_path)
        assert again.returncode == 1 and again.stderr == (
            f"stich: out.jsonl: {len(written):,} bytes, and this process may write no file over 4,000 bytes "
            "(ulimit -f): no room for another line (nothing solved); raise the file size limit, or choose another "
            "--out file\n")
        assert out.read_bytes() == written  # nothing trimmed, nothing added
    resumed = _limited(10 ** 7, args, tmp_path)
    whole = tmp_path / "whole.jsonl"
    uninterrupted = _limited(10 ** 7, ["batch", str(source), "-j", "1", "--out", str(whole)], tmp_path)
    assert resumed.returncode == uninterrupted.returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert out.read_bytes().startswith(kept) and len(lines) == len(set(lines)) == 12
    assert sorted(lines) == sorted(whole.read_text(encoding="utf-8").splitlines())


def test_a_checkpoint_at_the_file_size_limit_says_to_raise_it_and_a_rerun_under_it_solves_nothing(
        tmp_path: Path) -> None:
    """As a batch output: an analysis checkpoint that meets ``ulimit -f`` is told to raise the limit, not "make room";
    every resume under it is refused before any sample is solved (the checkpoint as it was), not solving a chunk before
    its first line fails again, and one with the limit raised gives the uninterrupted analysis."""
    journal = tmp_path / "analysis.ckpt"
    args = ["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-n", "24",
            "-s", "7", "-j", "1", "--json"]
    first = _limited(1500, [*args, "--checkpoint", str(journal)], tmp_path)
    assert first.returncode == 1 and first.stdout == "" and first.stderr.count("\n") == 1
    assert first.stderr.startswith(f"stich: {journal}: File too large; what was written before it is kept")
    assert "raise the file size limit (ulimit -f)" in first.stderr and "make room" not in first.stderr
    written = journal.read_bytes()
    for _ in range(2):
        again = _limited(1500, [*args, "--checkpoint", str(journal)], tmp_path)
        assert again.returncode == 1 and again.stdout == "" and again.stderr == (
            f"stich: {journal}: {len(written):,} bytes, and this process may write no file over 1,500 bytes (ulimit "
            "-f): no room for another line (no sample of this analysis solved); raise the file size limit, or choose "
            "another file\n")
        assert journal.read_bytes() == written
    resumed = _limited(10 ** 7, [*args, "--checkpoint", str(journal)], tmp_path)
    whole = _limited(10 ** 7, args, tmp_path)
    assert resumed.returncode == whole.returncode == 0
    assert _report_text(resumed.stdout) == _report_text(whole.stdout)


@pytest.mark.parametrize("command", ["batch", "match"])
def test_a_line_longer_than_the_file_size_limit_leaves_every_rerun_refused(tmp_path: Path, command: str) -> None:
    """Under a limit smaller than a line (``ulimit -f 1``) the half-written line counts when the rerun measures the
    file, and is kept until a run goes on, so every rerun under the limit is refused before any work (trimmed first, no
    complete line would be as long as the line that met the limit, and every rerun would solve a chunk or play a board
    for nothing); one with the limit raised gives the uninterrupted run's result."""
    if command == "batch":
        args = ["batch", str(Path(__file__).resolve().parent.parent / "examples" / "kratzen.tbn"), "-j", "1",
                "--out", "o.jsonl"]
        written = tmp_path / "o.jsonl"
        words = "nothing solved); raise the file size limit, or choose another --out file"
    else:
        args = ["match", "--game", "Kratzen", "--bots", "random,random,random", "-n", "4", "--seed", "3", "--json",
                "--checkpoint", "m.ckpt"]
        written, words = tmp_path / "m.ckpt", "no board played); raise the file size limit, or choose another file"
    first = _limited(1024, args, tmp_path)
    assert first.returncode == 1 and "File too large" in first.stderr and "Traceback" not in first.stderr
    torn = written.read_bytes()
    assert len(torn) == 1024 and not torn.endswith(b"\n")  # the line that met the limit, half-written
    for _ in range(2):
        again = _limited(1024, args, tmp_path)
        assert again.returncode == 1 and again.stdout == "" and again.stderr == (
            f"stich: {written.name}: 1,024 bytes, and this process may write no file over 1,024 bytes (ulimit -f): "
            f"no room for another line ({words}\n")
        assert written.read_bytes() == torn
    resumed = _limited(10 ** 7, args, tmp_path)
    assert resumed.returncode == 0 and written.read_bytes().startswith(_whole_lines_of(torn))
    if command == "batch":
        whole = tmp_path / "whole.jsonl"
        assert _limited(10 ** 7, [*args[:-1], str(whole)], tmp_path).returncode == 0
        assert sorted(written.read_text().splitlines()) == sorted(whole.read_text().splitlines())
    else:
        uninterrupted = _limited(10 ** 7, args[:-2], tmp_path)
        assert uninterrupted.returncode == 0 and resumed.stdout == uninterrupted.stdout


def _whole_lines_of(data: bytes) -> bytes:
    return data[:data.rfind(b"\n") + 1]


def _a_file_whose_second_record_meets_the_limit(tmp_path: Path, count: int) -> tuple:
    """A file of ``count`` Schafkopf records, its records, the arguments of ``analyse FILE --json`` over it, the first
    record's answer alone and a file size limit with room for the first record's checkpoint and the second's header,
    not for the second's first line."""
    source = tmp_path / "records.tbn"
    write_records(list(solver.random_records("Schafkopf", 5, count)), source)
    args = ["analyse", str(source), "--seat", "1", "-n", "12", "-s", "7", "-j", "1", "--json"]
    journal = tmp_path / "first.ckpt"
    alone = _limited(10 ** 7, [*args, "--record", "1", "--checkpoint", str(journal)], tmp_path)
    assert alone.returncode == 0
    return source, list(iter_records(source)), args, alone, journal.stat().st_size + 394


def test_a_checkpoint_filled_by_the_records_before_says_which_record_it_stopped_at(tmp_path: Path) -> None:
    """Analysing a FILE with one checkpoint, the first record's lines leave less room under ``ulimit -f`` than the
    second's first line needs: the second solves and fails to write it (a job's first line is not estimated: its length
    is known once solved). The torn line is kept, not trimmed by the rerun's first record as it is read back (which
    would let the second solve for nothing again): the rerun under the same limit answers the first, refuses the second
    before any sample with the file unchanged, says what it leaves undone and at which record, and exits 1."""
    source, records, args, alone, limit = _a_file_whose_second_record_meets_the_limit(tmp_path, 2)
    second = records[1]
    both = tmp_path / "both.ckpt"
    met = _limited(limit, [*args, "--checkpoint", str(both)], tmp_path)
    assert met.returncode == 1 and "File too large" in met.stderr and "Traceback" not in met.stderr
    written = both.read_bytes()
    assert len(written) == limit and not written.endswith(b"\n")  # the second's first line, half-written
    refused = _limited(limit, [*args, "--checkpoint", str(both)], tmp_path)
    answered, failed = refused.stdout.splitlines(keepends=True)
    assert refused.returncode == 1 and answered == alone.stdout  # the first record's line, whole
    assert refused.stderr == (
        f"stich: {both}: {limit:,} bytes, and this process may write no file over {limit:,} bytes "
        "(ulimit -f): no room for another line (no sample of this analysis solved); raise the file size limit, or "
        f"choose another file; refused at the record at {source}:{second.line}, after 1 record answered above\n")
    assert both.read_bytes() == written
    # the second record's failed line, with what stderr says of it
    assert json.loads(failed) == {"schema": "stich-result/1", "command": "analyse", "record": {
        "source": str(source), "line": second.line, "board": second.get("Board"), "event": second.get("Event")},
        "stopped": "error", "error": refused.stderr.removeprefix("stich: ").rstrip("\n")}


def test_a_checkpoint_write_error_at_a_record_of_a_file_names_it_and_fails_the_records_after(tmp_path: Path) -> None:
    """Analysing a FILE with one checkpoint, the second record's first line meets ``ulimit -f`` (a job's first line is
    not estimated, so a new job under a tight limit meets it once): the OSError is said as a refusal is, not passed by
    the per-record handling with no record named: the record it met and the records answered above, the write error's
    own advice kept, a failed line for it and for the untried third with --json, exit 1 and no traceback."""
    source, records, args, alone, limit = _a_file_whose_second_record_meets_the_limit(tmp_path, 3)
    second, third = records[1:]
    shared = tmp_path / "shared.ckpt"
    met = _limited(limit, [*args, "--checkpoint", str(shared)], tmp_path)
    answered, failed, untried = met.stdout.splitlines(keepends=True)
    assert met.returncode == 1 and answered == alone.stdout and "Traceback" not in met.stderr
    error, more = met.stderr.splitlines()
    assert error.startswith(f"stich: {shared}: File too large; what was written before it is kept")
    assert "raise the file size limit (ulimit -f)" in error
    assert error.endswith(f"; refused at the record at {source}:{second.line}, after 1 record answered above")
    assert more == f"stich: {source}: 1 more record not answered: the file refused above would be refused for each"
    said = error.removeprefix("stich: ")
    lines = [json.loads(failed), json.loads(untried)]
    assert [(line["record"]["line"], line["stopped"]) for line in lines] == [(second.line, "error"),
                                                                             (third.line, "error")]
    assert lines[0]["error"] == said  # the record it met, as stderr says; the untried one, the error alone
    assert lines[1]["error"] == said.removesuffix(
        f"; refused at the record at {source}:{second.line}, after 1 record answered above")


def test_a_batch_output_whose_error_lines_cannot_be_dropped_for_want_of_room_says_so_and_is_kept(
        tmp_path: Path) -> None:
    """A rerun drops the error lines by writing the output anew beside it; with no room for that copy it says more than
    ``stich: out.jsonl: File too large`` (or ``No space left on device``): what was being done, that nothing was solved
    and the file kept, and the mend. It leaves the file as it was, and a rerun with room tries the bad record again."""
    records = list(solver.random_records("Kratzen", 4, 8))
    records[2].set("Contract", "Nonsense")
    source = tmp_path / "deals.tbn"
    write_records(records, source)
    out = tmp_path / "out.jsonl"
    args = ["batch", str(source), "-j", "1", "--out", "out.jsonl"]
    assert _limited(10 ** 7, args, tmp_path).returncode == 1  # the bad record's error line
    written = out.read_bytes()
    assert written.count(b"\n") == 8 and written.count(b'"error"') == 1
    refused = _limited(len(written) // 2, args, tmp_path)
    assert refused.returncode == 1 and refused.stderr == (
        "stich: out.jsonl: File too large while dropping its 1 error line (the file is written anew beside it, "
        "which needs room for a copy): nothing solved, its lines are kept; raise the file size limit (ulimit -f), "
        "or move the file where larger files fit, and rerun to resume\n")
    assert out.read_bytes() == written and sorted(p.name for p in tmp_path.iterdir()) == [
        ".out.jsonl.lock", "deals.tbn", "out.jsonl"]
    rerun = _limited(10 ** 7, args, tmp_path)
    assert rerun.returncode == 1 and "1 written to out.jsonl (0 solved, 1 error), 7 already done" in rerun.stderr
    assert sorted(out.read_bytes().splitlines()) == sorted(written.splitlines())


@pytest.mark.parametrize("number", [errno.EROFS, errno.EACCES])
def test_error_lines_that_cannot_be_dropped_in_a_read_only_folder_say_the_folder_must_be_writable(
        tmp_path: Path, monkeypatch, number: int) -> None:
    """The rewrite that drops the error lines creates its copy in the output's folder: refused there (a read-only file
    system, a folder without write permission), the folder is named as what must be writable, the file kept, not "make
    it writable" and "needs room for a copy", as if the file or the disk were at fault."""
    records = list(solver.random_records("Kratzen", 4, 3))
    records[1].set("Contract", "Nonsense")
    source, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    write_records(records, source)
    batch.solve_batch(source, out, workers=1)
    written = out.read_bytes()
    assert written.count(b"\n") == 3 and written.count(b'"error"') == 1  # the bad record's error line

    @contextlib.contextmanager
    def refused(path, **_):
        raise OSError(number, os.strerror(number), str(path) + ".tmp")
        yield  # a generator, as atomic_file is

    monkeypatch.setattr(batch, "atomic_file", refused)
    with pytest.raises(StichError) as said:
        batch.solve_batch(source, out, workers=1)
    assert str(said.value) == (
        f"{out}: {os.strerror(number)} while dropping its 1 error line (the file is written anew beside it, in its "
        "folder, which must be writable): nothing solved, its lines are kept; make the folder writable and rerun to "
        "resume")
    assert out.read_bytes() == written


@pytest.mark.parametrize("command", ["analyse", "match"])
def test_a_checkpoint_on_a_full_disk_is_refused_before_any_work_is_done(tmp_path: Path, monkeypatch,
                                                                        command: str) -> None:
    """A resume whose disk is still full (no block left: the rerun after ``No space left on device``) is refused before
    any work, in one line, and the checkpoint left as it was, as a batch output is: no chunk of samples, nor a whole
    board of a match, solved before its first line fails again. A finished one, which needs no room, is still read back.
    """
    from typer.testing import CliRunner

    from solver.cli.main import app

    journal = tmp_path / "c.ckpt"
    if command == "analyse":
        args = ["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-n", "12",
                "-s", "7", "-j", "1", "--json", "--checkpoint", str(journal)]
        done = "no sample of this analysis solved"
    else:
        args = ["match", "--game", "Kratzen", "--bots", "random,random,random", "-n", "4", "--seed", "3", "--json",
                "--checkpoint", str(journal)]
        done = "no board played"
    finished = CliRunner().invoke(app, args)
    assert finished.exit_code == 0
    complete = journal.read_bytes()
    lines = complete.splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:2]))  # the header and one finished line: a run stopped early
    before = journal.read_bytes()
    real_statvfs = os.statvfs

    def full(path):
        stats = real_statvfs(path)
        return os.statvfs_result((stats.f_bsize, stats.f_frsize, stats.f_blocks, 0, 0, *tuple(stats)[5:]))

    monkeypatch.setattr(os, "statvfs", full)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr == (f"stich: {journal}: no space left on its device ({done}); make room, or choose "
                             "another file\n")
    assert journal.read_bytes() == before
    journal.write_bytes(complete)
    read_back = CliRunner().invoke(app, args)
    assert read_back.exit_code == 0 and read_back.stdout == finished.stdout and journal.read_bytes() == complete


class _TurnsReadOnly:
    """A file opened before its folder was made read-only: its writes fail from the ``fail_at``-th on with
    PermissionError, as they would on a file system remounted read-only (root ignores a folder's permissions, so
    a real chmod would not show it)."""

    def __init__(self, stream, fail_at: int) -> None:
        self._stream = stream
        self._writes = 0
        self._fail_at = fail_at

    def write(self, data):
        self._writes += 1
        if self._writes >= self._fail_at:
            raise PermissionError(13, "Permission denied")
        return self._stream.write(data)

    def __getattr__(self, name):
        return getattr(self._stream, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._stream.close()


def _read_only_after(monkeypatch, module, suffix: str, fail_at: int) -> None:
    """``module``'s files named ``*suffix`` turn read-only at their ``fail_at``-th write."""
    import builtins

    def opened(path, mode="r", *args, **options):
        stream = builtins.open(path, mode, *args, **options)
        return _TurnsReadOnly(stream, fail_at) if str(path).endswith(suffix) and set(mode) & set("aw") else stream
    monkeypatch.setattr(module, "open", opened, raising=False)


@pytest.mark.parametrize("command", ["batch", "analyse", "postmortem"])
def test_an_output_made_read_only_mid_run_is_said_once_and_what_it_wrote_is_kept(tmp_path: Path, monkeypatch,
                                                                                   command: str) -> None:
    """An output that cannot be written any more part way through a run (its folder made read-only, a read-only
    remount): said once with its path and what is kept, exit 1, no traceback, the lines or files already written left
    whole. batch does not say "make room" (a full disk's advice) for it, and a checkpoint says its lines are kept."""
    from typer.testing import CliRunner

    import solver.checkpoint
    import solver.files
    from solver.cli.main import app

    examples = Path(__file__).resolve().parent.parent / "examples"
    if command == "batch":
        out = tmp_path / "out.jsonl"
        _read_only_after(monkeypatch, batch, ".jsonl", 3)
        args = ["batch", str(examples / "schafkopf.tbn"), "--out", str(out), "-j", "1"]
        said = (f"stich: {out}: Permission denied; the lines written so far are kept (a rerun with room trims a "
                "half-written last one): make it writable and rerun to resume\n")
    elif command == "analyse":
        out = tmp_path / "a.ckpt"
        _read_only_after(monkeypatch, solver.checkpoint, ".ckpt", 3)  # the header goes with the first span
        args = ["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-n", "24",
                "-s", "7", "-j", "1", "--checkpoint", str(out)]
        said = (f"stich: {out}: Permission denied; what was written before it is kept (a rerun with room trims a "
                "half-written last line): make it writable and rerun to resume\n")
    else:
        out = tmp_path / "p-3.svg"
        real_replace = os.replace
        renamed: list[str] = []

        def replace(source, target):
            renamed.append(str(target))
            if len(renamed) >= 3:
                raise PermissionError(13, "Permission denied", str(target))
            return real_replace(source, target)
        monkeypatch.setattr(solver.files.os, "replace", replace)
        args = ["postmortem", str(examples / "schafkopf.tbn"), "--plot", str(tmp_path / "p.svg")]
        said = f"stich: {out}: Permission denied\n"
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, (result.stderr, result.exception)
    assert "Traceback" not in result.stderr
    assert result.stderr.endswith(said), result.stderr
    assert result.stderr.count("Permission denied") == 1
    if command == "batch":
        assert [json.loads(line)["id"].endswith("#1") for line in out.read_text().splitlines()][:1] == [True]
        assert len(out.read_text().splitlines()) == 2
    elif command == "analyse":
        lines = out.read_text().splitlines()
        assert len(lines) == 3 and all(json.loads(line) for line in lines)
    else:
        assert sorted(path.name for path in tmp_path.iterdir()) == ["p-1.svg", "p-2.svg"]


def test_a_checkpoint_resumed_with_another_sample_count_solves_only_the_samples_it_lacks(tmp_path: Path,
                                                                                         monkeypatch) -> None:
    """A rerun with another ``-n`` is not keyed as another analysis, started over silently to solve again the samples
    the checkpoint holds: sample ``k`` is drawn from the seed and ``k`` alone, so the saved samples are this run's
    exactly: more samples resume on top of them, fewer read back those within the count, each run's report the
    uninterrupted one's; and a run that needs nothing new leaves the file as it was (no header for nothing)."""
    journal = tmp_path / "a.ckpt"
    whole = {count: _report(sampling.analyse_hand(**{**ANALYSIS, "samples": count}, workers=1))
             for count in (4, 10)}
    sampling.analyse_hand(**{**ANALYSIS, "samples": 6}, workers=1, checkpoint=journal)
    solved: list[int] = []
    real = sampling.sample_chunk

    def counted(setup, first, size, *rest):
        solved.extend(range(first, first + size))
        return real(setup, first, size, *rest)

    monkeypatch.setattr(sampling, "sample_chunk", counted)
    with pytest.warns(OtherCountResumed):
        assert _report(sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)) == whole[10]
    assert sorted(solved) == [6, 7, 8, 9]
    before, stamp = journal.read_bytes(), journal.stat().st_mtime_ns
    solved.clear()
    with pytest.warns(OtherCountResumed):
        assert _report(sampling.analyse_hand(**{**ANALYSIS, "samples": 4}, workers=1, checkpoint=journal)) == whole[4]
    assert solved == [] and journal.read_bytes() == before and journal.stat().st_mtime_ns == stamp
    with pytest.warns(OtherCountResumed):
        assert _report(sampling.analyse_hand(**{**ANALYSIS, "samples": 10}, workers=1, checkpoint=journal)) == whole[10]
    assert solved == [] and journal.read_bytes() == before


def test_stich_analyse_with_a_larger_n_resumes_the_checkpoint_of_a_smaller_one(tmp_path: Path) -> None:
    """The command line alike: ``-n 8`` on the checkpoint of ``-n 4`` adds one header and the four samples it
    lacks, and prints what ``-n 8`` without a checkpoint prints."""
    journal = tmp_path / "a.ckpt"
    args = ["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-s", "7",
            "-j", "1", "--json"]
    assert _limited(10 ** 7, [*args, "-n", "4", "--checkpoint", str(journal)], tmp_path).returncode == 0
    resumed = _limited(10 ** 7, [*args, "-n", "8", "--checkpoint", str(journal)], tmp_path)
    whole = _limited(10 ** 7, [*args, "-n", "8"], tmp_path)
    assert resumed.returncode == whole.returncode == 0
    assert resumed.stderr == (f"stich: analyse: {journal}: holds 4 samples of a run of 4, resumed (in a run of 8: "
                              "sample k is the same whatever their number); 4 read back, 4 left to solve\n")
    assert _report_text(resumed.stdout) == _report_text(whole.stdout)
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [entry.get("samples") for entry in entries if "stich-analysis" in entry] == [4, 8]
    spans = [tuple(entry["span"]) for entry in entries if "span" in entry]
    assert sorted(number for first, size in spans for number in range(first, first + size)) == list(range(8))


def test_samples_of_another_n_resumed_are_said_once_a_run(tmp_path: Path) -> None:
    """A run resuming the samples of a run of another ``-n`` says so, as other resumes say what they resume: the library
    warns (OtherCountResumed, a StichWarning) with the samples read back and those left; the command says it on stderr
    once, not once for each record of a FILE."""
    from solver.errors import OtherCountResumed

    journal = tmp_path / "a.ckpt"
    sampling.analyse_hand(**{**ANALYSIS, "samples": 3}, workers=1, checkpoint=journal)
    with pytest.warns(OtherCountResumed) as caught:
        sampling.analyse_hand(**{**ANALYSIS, "samples": 5}, workers=1, checkpoint=journal)
    assert [str(warning.message) for warning in caught] == [
        f"{journal}: holds 3 samples of a run of 3, resumed (in a run of 5: sample k is the same whatever their "
        "number); 3 read back, 2 left to solve"]
    source = Path(__file__).resolve().parent.parent / "examples" / "kratzen.tbn"
    shared = tmp_path / "file.ckpt"
    args = ["analyse", str(source), "--seat", "1", "-j", "1", "--json", "--checkpoint", str(shared)]
    assert _limited(10 ** 7, [*args, "-n", "2"], tmp_path).returncode == 0
    resumed = _limited(10 ** 7, [*args, "-n", "3"], tmp_path)
    assert resumed.returncode == 0
    assert [line for line in resumed.stderr.splitlines() if "resumed (in a run" in line] == [
        f"stich: analyse: {shared}: holds 2 samples of a run of 2, resumed (in a run of 3: sample k is the same "
        "whatever their number); 2 read back, 1 left to solve"]
    assert len(resumed.stdout.splitlines()) == len(list(iter_records(str(source)))) > 1


ROOM_HAND = "T19 T14 T1 SK SN HQ HN HJ DJ DG"  # a Zwanzigerrufen hand of seat 1

#: Each kind of job a checkpoint holds, with what a refusal leaves undone: a first line runs from 1.8 to 7.1 times
#: its header by the kind (an estimate of 3 times refused the contract advice under a limit it fits in, and missed
#: the card advice's line that did not fit).
ROOM_JOBS = {
    "analysis": (["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-n", "4",
                  "-s", "7", "-j", "1", "--json"], "no sample of this analysis solved"),
    "contract advice": (["analyse", "--game", "Zwanzigerrufen", "--hand", ROOM_HAND, "--seat", "1", "-c", "all",
                         "-n", "1", "-j", "1", "--json"], "no sample of this analysis solved"),
    "card advice": (["analyse", "--game", "Zwanzigerrufen", "--hand", ROOM_HAND, "--seat", "1", "--contract",
                     "Rufer", "--cards", "-n", "2", "-j", "1", "--json"], "no sample of this analysis solved"),
    "match": (["match", "--game", "Kratzen", "--bots", "random,random,random", "-n", "4", "--seed", "3", "--json"],
              "no board played"),
}


@pytest.mark.parametrize("kind", ROOM_JOBS)
def test_a_new_checkpoint_runs_under_a_limit_it_fits_and_its_rerun_after_meeting_one_is_refused(
        tmp_path: Path, kind: str) -> None:
    """A job with no line in its checkpoint has no estimate of its first line (3 times its header would be wrong both
    ways: contract advice refused under ``ulimit -f 1`` though its whole file is 806 bytes, card advice under ``ulimit
    -f 2`` solving a chunk and failing "File too large"): a new checkpoint runs under a limit of exactly its size, and
    one that meets the limit in its first line keeps that half-written line, so that every rerun under the same limit is
    refused before any work with the file unchanged."""
    args, undone = ROOM_JOBS[kind]
    whole = _limited(10 ** 7, [*args, "--checkpoint", "whole.ckpt"], tmp_path)
    assert whole.returncode == 0
    need = (tmp_path / "whole.ckpt").read_bytes()
    header, first = need.splitlines(keepends=True)[:2]
    fits = _limited(len(need), [*args, "--checkpoint", "fits.ckpt"], tmp_path)
    assert fits.returncode == 0 and fits.stdout == whole.stdout
    assert (tmp_path / "fits.ckpt").stat().st_size == len(need)
    limit = len(header) + len(first) // 2  # the header whole, the first line not
    met = _limited(limit, [*args, "--checkpoint", "met.ckpt"], tmp_path)
    assert met.returncode == 1 and "File too large" in met.stderr and "Traceback" not in met.stderr
    torn = (tmp_path / "met.ckpt").read_bytes()
    assert torn.startswith(header) and len(torn) == limit  # the first line, half-written
    for _ in range(2):
        again = _limited(limit, [*args, "--checkpoint", "met.ckpt"], tmp_path)
        assert again.returncode == 1 and again.stdout == "" and again.stderr == (
            f"stich: met.ckpt: {limit:,} bytes, and this process may write no file over {limit:,} bytes (ulimit -f): "
            f"no room for another line ({undone}); raise the file size limit, or choose another file\n")
        assert (tmp_path / "met.ckpt").read_bytes() == torn


def test_a_new_checkpoint_under_a_limit_below_its_header_is_refused_before_solving(tmp_path: Path) -> None:
    """The header is known before any work: a new checkpoint under a limit it cannot hold is refused before a
    sample is solved, and leaves no file."""
    journal = tmp_path / "d.ckpt"
    args = ["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-n", "4",
            "-j", "1", "--json", "--checkpoint", str(journal)]
    refused = _limited(100, args, tmp_path)
    assert refused.returncode == 1 and "File too large" not in refused.stderr
    assert refused.stderr.startswith(f"stich: {journal}: 0 bytes, and this process may write no file over 100 "
                                     "bytes (ulimit -f): no room for another line (no sample of this analysis "
                                     "solved)")
    assert not journal.exists() and refused.stdout == ""


@pytest.mark.parametrize("command", ["analyse", "match", "batch"])
def test_an_empty_checkpoint_or_output_is_written_afresh_and_said(tmp_path: Path, command: str) -> None:
    """A run killed right after it created its checkpoint (or batch output) leaves an empty file: the rerun wrote it
    afresh without a word. It still does (an empty file holds no work to lose), and says so on stderr, with the
    result of a run without the file."""
    source = Path(__file__).resolve().parent.parent / "examples" / "kratzen.tbn"
    kept = tmp_path / "kept.jsonl"
    if command == "analyse":
        args, option = ["analyse", str(source), "--seat", "1", "-n", "2", "-j", "1", "--json"], "--checkpoint"
    elif command == "match":
        args, option = ["match", "--game", "Kratzen", "--bots", "random,random,random", "-n", "3", "--json"], \
            "--checkpoint"
    else:
        args, option = ["batch", str(source), "-j", "1"], "--out"
    kept.write_bytes(b"")
    rerun = _limited(10 ** 7, [*args, option, str(kept)], tmp_path)
    said = f"{kept}: holds no work, written afresh (empty)"
    assert rerun.returncode == 0
    assert rerun.stderr.splitlines()[0] == f"stich: {command}: {said}"  # one wording, after the command's name
    fresh = tmp_path / "fresh.jsonl"
    alone = _limited(10 ** 7, [*args, option, str(fresh)], tmp_path)
    assert alone.returncode == 0 and said.replace(str(kept), str(fresh)) not in alone.stderr
    assert command == "batch" or rerun.stdout == alone.stdout
    # the lines alike, each once (a match's boards are written in the order they finish)
    assert sorted(kept.read_text().splitlines()) == sorted(fresh.read_text().splitlines())


def test_a_complete_batch_output_at_the_file_size_limit_is_said_complete(tmp_path: Path, monkeypatch) -> None:
    """A rerun of a finished batch has nothing to write, so under ``ulimit -f`` at its size (or on a full disk) it is
    not refused for want of room: it says the output is complete, as any rerun of a finished batch does (exit 0), and
    leaves the file as it was; an output with a record left is still refused before any is solved."""
    source = Path(__file__).resolve().parent.parent / "examples" / "kratzen.tbn"
    out = tmp_path / "out.jsonl"
    args = ["batch", str(source), "-j", "1", "--out", str(out)]
    assert _limited(10 ** 7, args, tmp_path).returncode == 0
    complete, stamp = out.read_bytes(), out.stat().st_mtime_ns
    rerun = _limited(len(complete), args, tmp_path)
    assert rerun.returncode == 0 and rerun.stderr.startswith(
        f"stich: batch: 0 written to {out} (0 solved, 0 errors), 5 already done")
    assert out.read_bytes() == complete and out.stat().st_mtime_ns == stamp
    real_statvfs = os.statvfs

    def full(path):
        stats = real_statvfs(path)
        return os.statvfs_result((stats.f_bsize, stats.f_frsize, stats.f_blocks, 0, 0, *tuple(stats)[5:]))

    monkeypatch.setattr(os, "statvfs", full)
    summary = batch.solve_batch(source, out, workers=1)
    assert (summary.solved, summary.skipped) == (0, 5) and out.read_bytes() == complete
    out.write_bytes(b"".join(complete.splitlines(keepends=True)[:4]))
    with pytest.raises(StichError, match="no space left on its device"):
        batch.solve_batch(source, out, workers=1)


def test_a_shared_checkpoint_refused_for_room_is_left_exactly_as_it_was(tmp_path: Path) -> None:
    """Analysing a FILE on the checkpoint of its first record, nothing is written before the room under ``ulimit -f`` is
    measured (a header goes out with its first span), so a refused run leaves the file as it was: where the run that met
    the limit in the second record's first line left it half-written, the rerun refused under the same limit leaves the
    bytes and the time of the last change the same."""
    source = Path(__file__).resolve().parent.parent / "examples" / "kratzen.tbn"
    journal = tmp_path / "c.ckpt"
    args = ["analyse", str(source), "--seat", "1", "-n", "4", "-j", "1", "--json", "--checkpoint", str(journal)]
    assert _limited(10 ** 7, [*args, "--record", "1"], tmp_path).returncode == 0
    before = journal.read_bytes()
    limit = len(before) + 600  # room for a header, not for a header and a line of samples
    met = _limited(limit, args, tmp_path)
    assert met.returncode == 1 and "File too large" in met.stderr
    torn, stamp = journal.read_bytes(), journal.stat().st_mtime_ns
    assert torn.startswith(before) and len(torn) == limit
    refused = _limited(limit, args, tmp_path)
    assert refused.returncode == 1 and refused.stderr.startswith(
        f"stich: {journal}: {limit:,} bytes, and this process may write no file over {limit:,} bytes (ulimit "
        "-f): no room for another line (no sample of this analysis solved)")
    assert journal.read_bytes() == torn and journal.stat().st_mtime_ns == stamp
    assert _limited(10 ** 7, args, tmp_path).returncode == 0  # with room, every record resumes
    assert journal.read_bytes().startswith(before)


def test_a_resume_is_measured_by_its_own_lines_and_says_it_resumed_only_once_the_room_is_there(
        tmp_path: Path) -> None:
    """The room for a resume's next line is measured by the job's own lines where the file holds them (its longest), not
    by three times its header, which is longer: room for it (and the run's header) just above is not refused and solves
    the last sample; just below, the run is refused before any work, without saying first that it resumed samples it
    then left."""
    journal = tmp_path / "r.ckpt"
    args = ["analyse", "--game", "Schafkopf", "--hand", HAND, "--seat", "1", "--contract", "Solo H", "-s", "7",
            "-j", "1", "--json", "--checkpoint", str(journal)]
    assert _limited(10 ** 7, [*args, "-n", "4"], tmp_path).returncode == 0  # four lines of one sample each
    before = journal.read_bytes()
    header, *spans = before.splitlines(keepends=True)
    need = len(header) + max(len(line) for line in spans)  # the run of 5's header (as long) and a line
    assert 4 * len(header) > need + 16  # the old estimate (a header and 3 for the line) asked for more than that
    refused = _limited(len(before) + need - 1, [*args, "-n", "5"], tmp_path)
    assert refused.returncode == 1 and "no room for another line" in refused.stderr
    assert "resumed" not in refused.stderr and journal.read_bytes() == before
    resumed = _limited(len(before) + need + 16, [*args, "-n", "5"], tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "4 samples of a run of 4, resumed (in a run of 5" in resumed.stderr
    assert json.loads(resumed.stdout)["samples"] == 5 and journal.read_bytes().startswith(before)
