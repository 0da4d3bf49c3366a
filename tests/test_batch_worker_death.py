"""A local worker that dies mid-run has its chunk redone: the result set is complete and without duplicates."""

from __future__ import annotations

import io
import json
import os

import pytest

import solver
from solver import batch
from solver.formats.tbn import format_record

FLAG = None  # set per test: the file whose absence makes the first worker that sees it die


def dying_solve_chunk(items, *args):
    """solve_chunk, except that the first call (across all workers) kills its own process."""
    try:
        descriptor = os.open(FLAG, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return batch.solve_chunk(items, *args)
    os.close(descriptor)
    os._exit(9)  # die like a killed worker: no exception, no result


@pytest.mark.parametrize("workers", [2])
def test_a_dead_worker_chunk_is_redone(tmp_path, workers):
    global FLAG
    FLAG = str(tmp_path / "died")
    deals = tmp_path / "deals.tbn"
    deals.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 5, 40, seats=3)))
    items = list(batch.read_items(str(deals)))
    out = io.StringIO()
    writer = batch._Writer(out, len(items), None)
    batch._run_pool(batch._chunks(items, 5), (None, False, None), writer, workers, task=dying_solve_chunk)
    assert os.path.exists(FLAG)  # a worker did die
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    ids = [line["id"] for line in lines]
    assert len(ids) == len(set(ids)) == 40 and writer.solved == 40
    serial = io.StringIO()
    batch._run_serial(batch._chunks(items, 5), (None, False, None), batch._Writer(serial, 40, None))
    assert sorted(out.getvalue().splitlines()) == sorted(serial.getvalue().splitlines())


def poisoned_solve_chunk(items, *args):
    """solve_chunk, except that a chunk holding board 13 kills its worker every time (a record no worker survives)."""
    if any(item[2] is not None and item[2].get("Board") == "13" for item in items):
        os._exit(9)
    return batch.solve_chunk(items, *args)


def test_a_record_that_kills_every_worker_gets_an_error_line(tmp_path):
    """The chunks in flight at two deaths are cut into records run one at a time, alone: the record that still
    kills its worker gets an error line, every other record is solved, and the run goes on (it used to give up
    after five restarts, with the rest of the file unsolved)."""
    deals = tmp_path / "deals.tbn"
    deals.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 5, 40, seats=3)))
    items = list(batch.read_items(str(deals)))
    out = io.StringIO()
    writer = batch._Writer(out, len(items), None)
    batch._run_pool(batch._chunks(items, 5), (None, False, None, None), writer, 2, task=poisoned_solve_chunk)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert sorted(line["id"] for line in lines) == sorted(item[0] for item in items)
    errors = [line for line in lines if "error" in line]
    assert [line["id"].endswith("#13") for line in errors] == [True]
    assert "died twice while solving it alone" in errors[0]["error"]
    assert (writer.solved, writer.errors) == (39, 1)


def test_a_chunk_dask_gives_up_on_is_a_message_not_a_traceback(tmp_path):
    """A task whose worker dies more often than the scheduler allows ends in KilledWorker; the run stops with a
    StichError that says to rerun (the lines written stay), not with Dask's traceback."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    import dask

    deals = tmp_path / "deals.tbn"
    deals.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 5, 20, seats=3)))
    items = list(batch.read_items(str(deals)))
    writer = batch._Writer(io.StringIO(), len(items), None)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster:
            with pytest.raises(solver.StichError, match="failed: KilledWorker.*rerun to resume"):
                batch._run_dask(batch._chunks(items, 5), (None, False, None, None), writer,
                                cluster.scheduler_address, task=poisoned_solve_chunk)


def test_a_peer_that_never_answers_is_not_waited_for_forever(tmp_path, monkeypatch):
    """Something that accepts the connection and says nothing (Dask's own timeout does not end that wait), or
    answers with bytes that are not Dask's: a message, no hang and no traceback."""
    import socket
    import threading

    monkeypatch.setattr(batch, "DASK_CONNECT_SECONDS", 3)
    silent, talking = socket.socket(), socket.socket()
    held = []
    for server in (silent, talking):
        server.bind(("127.0.0.1", 0))
        server.listen(4)

    def serve(server, answer):
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            held.append(connection)
            if answer:
                connection.sendall(b"\xff" * 64 + b"HTTP/1.1 400 Bad Request\r\n\r\n" * 8)

    for server, answer in ((silent, b""), (talking, b"x")):
        threading.Thread(target=serve, args=(server, answer), daemon=True).start()
    source = tmp_path / "deals.tbn"
    source.write_text(format_record(next(solver.random_records("Kratzen", 5, 1, seats=3))))
    try:
        for server, words in ((silent, "no answer in 3 s"), (talking, "cannot use the Dask scheduler")):
            pytest.importorskip("dask.distributed")
            address = "tcp://127.0.0.1:%d" % server.getsockname()[1]
            with pytest.raises(solver.StichError, match=words):
                batch.solve_batch(source, tmp_path / "out.jsonl", scheduler=address)
    finally:
        silent.close()
        talking.close()
        for connection in held:
            connection.close()
