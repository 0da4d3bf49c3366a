"""A local worker that dies mid-run has its chunk redone: the result set is complete and without duplicates."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

import solver
from solver import batch
from solver import workers as pool
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
    batch._run_pool(batch._chunks(items, 5), batch.Question(), writer, workers, task=dying_solve_chunk)
    assert os.path.exists(FLAG)  # a worker did die
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    ids = [line["id"] for line in lines]
    assert len(ids) == len(set(ids)) == 40 and writer.solved == 40
    serial = io.StringIO()
    pool.run_serial(batch._chunks(items, 5), batch.solve_chunk, (batch.Question(),),
                    batch._Writer(serial, 40, None).write_chunk)
    assert sorted(out.getvalue().splitlines()) == sorted(serial.getvalue().splitlines())


def poisoned_solve_chunk(items, *args):
    """solve_chunk, except that a chunk holding board 13 kills its worker every time (a record no worker survives)."""
    if any(item.record is not None and item.record.get("Board") == "13" for item in items):
        os._exit(9)
    return batch.solve_chunk(items, *args)


def test_a_record_that_kills_every_worker_gets_an_error_line(tmp_path):
    """The chunks in flight at two deaths are cut into records run one at a time, alone: the record that still
    kills its worker gets an error line, every other record is solved, and the run goes on (it does not give up
    after a number of restarts, leaving the rest of the file unsolved)."""
    deals = tmp_path / "deals.tbn"
    deals.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 5, 40, seats=3)))
    items = list(batch.read_items(str(deals)))
    out = io.StringIO()
    writer = batch._Writer(out, len(items), None)
    batch._run_pool(batch._chunks(items, 5), batch.Question(), writer, 2, task=poisoned_solve_chunk)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert sorted(line["id"] for line in lines) == sorted(item.id for item in items)
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
                                      dashboard_address=":0") as cluster:
            with pytest.raises(solver.StichError) as gave_up:
                pool.run_dask(batch._chunks(items, 5), poisoned_solve_chunk, (batch.Question(),), writer.write_chunk,
                              cluster.scheduler_address)
    # the worker holds up to two tasks at its death (Dask's worker-saturation 1.1), both given up: the one that killed
    # it and the next one queued, or the one before it, finished but not yet reported to the scheduler
    assert re.fullmatch(rf"the Dask scheduler at {re.escape(cluster.scheduler_address)} gave up: its workers died "
                        r"once (running 5 records, \S+:\d+#11 to \S+:\d+#15|holding 10 records in 2 tasks "
                        r"\((\S+:\d+#6 to \S+:\d+#10; \S+:\d+#11 to \S+:\d+#15|\S+:\d+#11 to \S+:\d+#15; \S+:\d+#16 to "
                        r"\S+:\d+#20)\)), the last on tcp://127\.0\.0\.1:\d+: "
                        r"see that worker's log for why \(out of memory, killed from outside\), then rerun to resume "
                        r"\(every result handed on so far is kept\)", str(gave_up.value))
    assert "http" not in str(gave_up.value) and "solve_chunk" not in str(gave_up.value)


@pytest.mark.slow  # waits out the connection timeout
def test_a_cluster_whose_workers_all_leave_mid_run_is_said_and_resumed(tmp_path):
    """Every Dask worker killed mid-run (``kill -9`` of ``dask worker`` and its nanny): the run does not wait for ever
    on its unfinished tasks without a word, but says so, waits --worker-wait for a worker, then stops with a message,
    keeping what was written; a rerun writes the rest, each record once. (A run that waits for ever hangs this test.)"""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from solver.batch import solve_batch

    source, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    source.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 5, 30, seats=3)))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        said: list[str] = []

        def progress(written: int, total: int) -> None:
            if written == 1:  # the first line is back: every worker goes, before the next is handed out
                cluster.scale(0)
                with distributed.Client(cluster.scheduler_address) as client:
                    while client.nthreads():  # the scale runs on the cluster's loop: gone once none is left
                        time.sleep(0.05)

        with pytest.raises(solver.StichError) as gone:
            solve_batch(source, out, scheduler=cluster.scheduler_address, worker_wait=0, notify=said.append,
                        progress=progress)
    assert str(gone.value).startswith(f"every Dask worker left the scheduler at {cluster.scheduler_address} and "
                                      "none joined in 0 s, with ")
    assert str(gone.value).endswith(f"unfinished: start workers ('dask worker {cluster.scheduler_address}'), then "
                                    "rerun to resume (every result handed on so far is kept)")
    kept = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert 1 <= len(kept) < 30
    summary = solve_batch(source, out, workers=1)
    assert summary.skipped == len(kept) and summary.solved == 30 - len(kept)
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 30


def test_a_peer_that_never_answers_is_not_waited_for_forever(tmp_path, monkeypatch):
    """Something that accepts the connection and says nothing (Dask's own timeout does not end that wait), or
    answers with bytes that are not Dask's: a message, no hang and no traceback."""
    import socket
    import threading

    monkeypatch.setattr(pool, "DASK_CONNECT_SECONDS", 3)
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


def test_a_web_server_at_the_scheduler_address_is_said_to_be_no_scheduler(tmp_path):
    """An HTTP answer (a web server, a proxy, the dashboard's port) is said to be no scheduler, not as Dask reads its
    bytes as a frame ("MemoryError: Unable to allocate 3.07 EiB for an array ..."), which names nothing of the cause."""
    import socket
    import threading

    pytest.importorskip("dask.distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)

    def serve():
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                connection.recv(1024)
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    source = tmp_path / "deals.tbn"
    source.write_text(format_record(next(solver.random_records("Kratzen", 5, 1, seats=3))))
    address = "tcp://127.0.0.1:%d" % server.getsockname()[1]
    try:
        with pytest.raises(solver.StichError) as refused:
            batch.solve_batch(source, tmp_path / "out.jsonl", scheduler=address)
    finally:
        server.close()
    assert str(refused.value) == (f"cannot use the Dask scheduler {address!r}: what answers at that address does "
                                  "not speak Dask's protocol (a scheduler listens at 8786 unless told); check the "
                                  "address")
    assert not (tmp_path / "out.jsonl").exists()


def test_a_scheduler_address_with_nothing_behind_it_is_said_with_its_cause(tmp_path):
    """A mistyped port or a scheduler not started, and a host name that does not resolve: a refused port is said after
    10 s (a scheduler started just before the run listens within seconds: below), an unknown host at once, each with its
    cause (exit 1, no traceback), not after Dask's 30 s of retries as "OSError: Timed out trying to connect"."""
    import socket

    pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from typer.testing import CliRunner

    from solver.cli.main import app

    source = tmp_path / "deals.tbn"
    source.write_text(format_record(next(solver.random_records("Kratzen", 5, 1, seats=3))))
    out = tmp_path / "out.jsonl"
    # a port held bound but not listening: it refuses every connection, and no other process can take it meanwhile
    with socket.socket() as held, pytest.raises(solver.StichError) as refused:
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        batch.solve_batch(source, out, scheduler=f"tcp://127.0.0.1:{port}")
    assert str(refused.value) == (f"cannot use the Dask scheduler 'tcp://127.0.0.1:{port}': nothing listens at port "
                                  f"{port} of 127.0.0.1 (connection refused): start the scheduler ('dask scheduler "
                                  f"--port {port}'), or check the address")
    result = CliRunner().invoke(app, ["batch", str(source), "--out", str(out), "--scheduler", "nohost.invalid"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("stich: cannot use the Dask scheduler 'nohost.invalid:8786': the host "
                                    "'nohost.invalid' is not known (")
    assert result.stderr.endswith("); check the address\n") and "Traceback" not in result.output
    assert not out.exists()


def test_a_scheduler_that_starts_listening_just_after_the_run_is_waited_for():
    """The probe tries a refused port again for SCHEDULER_START_SECONDS, so that a batch started right after its
    scheduler (a script's, or the slow test of a scheduler killed mid-run on a loaded machine) waits for it rather than
    failing with "nothing listens" while the scheduler is still starting."""
    import socket
    import threading
    import time

    from solver import workers

    listener = socket.socket()  # bound at once, so no other process takes its port; refusing until it listens
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def listen_later() -> None:
        time.sleep(1.5)
        listener.listen()

    late = threading.Thread(target=listen_later)
    started = time.monotonic()
    late.start()
    try:
        workers._probe_scheduler(f"tcp://127.0.0.1:{port}")  # no StichError: the scheduler listens in time
        assert time.monotonic() - started > 1.4  # the refused tries were waited through, not taken for a listener
    finally:
        late.join()
        listener.close()


def test_the_library_completes_a_scheduler_address_without_a_port_as_the_command_does(tmp_path, monkeypatch):
    """``solve_batch(..., scheduler="tcp://10.0.0.5")`` gives the address Dask's default port, as ``--scheduler`` does,
    so that the probe before it (port 8786) and Dask see the same address and Dask does not refuse it ("missing port
    number")."""
    pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from solver import workers

    assert [workers.scheduler_with_port(address) for address in (
        "tcp://127.0.0.1", "127.0.0.1:9", "tcp://[::1]", "ucx://node7", "tls://head:8787", "inproc://x")] == [
        "tcp://127.0.0.1:8786", "127.0.0.1:9", "tcp://[::1]:8786", "ucx://node7:8786", "tls://head:8787", "inproc://x"]
    probed: list[str] = []

    def refuse(scheduler: str) -> None:
        probed.append(scheduler)
        raise solver.StichError(f"nothing at {scheduler}")

    monkeypatch.setattr(workers, "_probe_scheduler", refuse)
    source = tmp_path / "deals.tbn"
    source.write_text(format_record(next(solver.random_records("Kratzen", 5, 1, seats=3))))
    with pytest.raises(solver.StichError, match="nothing at tcp://127.0.0.1:8786"):
        batch.solve_batch(source, tmp_path / "out.jsonl", scheduler="tcp://127.0.0.1")
    assert probed == ["tcp://127.0.0.1:8786"]


def test_a_scheduler_without_workers_is_waited_for_then_given_up(tmp_path):
    """With no worker on the scheduler the run does not wait forever in silence: it says that it waits for workers,
    and gives up after --worker-wait seconds with a message (exit 1, no traceback)."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from typer.testing import CliRunner

    from solver.cli.main import app

    source = tmp_path / "deals.tbn"
    source.write_text(format_record(next(solver.random_records("Kratzen", 5, 1, seats=3))))
    out = tmp_path / "out.jsonl"
    notes: list[str] = []
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        with pytest.raises(solver.StichError, match=rf"no Dask worker joined the scheduler at {address} in 1 s"):
            batch.solve_batch(source, out, scheduler=address, worker_wait=1, notify=notes.append)
        assert len(notes) == 1 and notes[0].startswith(f"waiting for a Dask worker to join the scheduler at {address}")
        result = CliRunner().invoke(app, ["batch", str(source), "--out", str(out), "--scheduler", address,
                                          "--worker-wait", "0.5"])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        f"stich: waiting for a Dask worker to join the scheduler at {address} (giving up after 0.5 s: --worker-wait)",
        f"stich: no Dask worker joined the scheduler at {address} in 0.5 s: start workers ('dask worker "
        f"{address}'), or wait longer with --worker-wait SECONDS"]
    assert not out.exists()
    for wrong in (-1, float("inf"), "60", True):
        with pytest.raises(solver.StichError, match="the wait for Dask workers is 0 to"):
            batch.solve_batch(source, out, scheduler=address, worker_wait=wrong)


def test_a_scheduler_without_workers_at_worker_wait_0_is_given_up_at_once(tmp_path):
    """--worker-wait 0 is "give up at once", at the start (where Dask's wait_for_workers would read 0 as no timeout and
    wait for ever) as mid-run, and says no "waiting" (the wait is one function, _wait_for_workers, at the start and
    mid-run)."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")

    source = tmp_path / "deals.tbn"
    source.write_text(format_record(next(solver.random_records("Kratzen", 5, 1, seats=3))))
    out = tmp_path / "out.jsonl"
    notes: list[str] = []
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        with pytest.raises(solver.StichError) as given_up:
            batch.solve_batch(source, out, scheduler=address, worker_wait=0, notify=notes.append)
    assert str(given_up.value) == (f"no Dask worker joined the scheduler at {address} in 0 s: start workers "
                                   f"('dask worker {address}'), or wait longer with --worker-wait SECONDS")
    assert notes == [] and not out.exists()


@pytest.mark.parametrize("moment", ["counting", "given up", "waiting"])
def test_a_scheduler_that_goes_away_at_the_start_is_said_to_have_gone_not_to_lack_workers(tmp_path, monkeypatch,
                                                                                         moment):
    """A scheduler gone while the run looks for its workers is said to have gone, with Dask's words: before the
    first count of them (--worker-wait 0), counted while Dask's client still tries to reconnect ("counting") or once
    it has given up ("given up"), or during the wait for one (--worker-wait 60, "waiting"). Not as a wait for workers
    given up, nor as an error of the output file (no output is written), since neither is what happened."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from typer.testing import CliRunner

    from solver.cli.main import app

    source = tmp_path / "deals.tbn"
    source.write_text(format_record(next(solver.random_records("Kratzen", 5, 1, seats=3))))
    out = tmp_path / "out.jsonl"
    wait = 60 if moment == "waiting" else 0

    class QuickToGiveUp(distributed.Client):
        """Gives up a call to a scheduler gone after 2 s; reconnects for 2 s once given up on, else for the run's
        30 s, so that a count made as soon as the scheduler is gone is made while the client still reconnects."""
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **({**kwargs, "timeout": "2s"} if moment == "given up" else kwargs))
            self.rpc.timeout = 2

    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        connect = pool._dask_client

        def connected(client_class, scheduler):
            client = connect(QuickToGiveUp, scheduler)
            if moment != "waiting":  # gone once the run is connected, before it counts the workers
                cluster.close()
            if moment == "given up":
                _wait_until(lambda: client.status == "closed", "the client gave up reconnecting")
            return client

        monkeypatch.setattr(pool, "_dask_client", connected)
        if moment == "waiting":  # gone as the run says that it waits
            monkeypatch.setattr(pool, "_wait_for_workers", _closing_on_notice(pool._wait_for_workers, cluster))
        result = CliRunner().invoke(app, ["batch", str(source), "--out", str(out), "--scheduler", address,
                                          "--worker-wait", str(wait)])
    assert result.exit_code == 1, result.output
    *waiting, last = result.stderr.splitlines()
    assert waiting == ([f"stich: waiting for a Dask worker to join the scheduler at {address} (giving up after "
                        f"{wait} s: --worker-wait)"] if wait else [])
    cause = "Dask's client gave up reconnecting to it)" if moment == "given up" else "OSError: "
    assert last.startswith(f"stich: the Dask scheduler at {address} went away before the run sent it a job "
                           f"({cause}")
    port = address.rsplit(":", 1)[1]
    assert last.endswith(f"): start it again ('dask scheduler --port {port}') and its workers ('dask worker "
                         f"{address}'), which stop with it, then rerun")
    assert "no Dask worker joined" not in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def test_a_scheduler_given_up_on_mid_run_is_said_as_a_scheduler_gone(tmp_path, monkeypatch):
    """A scheduler gone mid-run for longer than Dask's connect timeout: the client gives up reconnecting and closes,
    and the run's next count of the workers fails on its closed connections (an AttributeError or RuntimeError, no
    OSError). It is said as a scheduler gone mid-run is, with what to start again, not as a traceback: what was
    written is kept, and a rerun resumes."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")

    source, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    source.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 5, 30, seats=3)))
    # the workers are counted again once the client has given up (its reconnecting takes 2 s), before anything else
    monkeypatch.setattr(pool, "DASK_RECOUNT_SECONDS", 0.5)

    class QuickToGiveUp(distributed.Client):
        """Reconnects to a scheduler gone for 2 s, not the run's 30 s, then closes."""
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**kwargs, "timeout": "2s"})
            self.rpc.timeout = 2

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        connect = pool._dask_client
        clients = []

        def connected(client_class, scheduler):
            clients.append(connect(QuickToGiveUp, scheduler))
            return clients[0]

        def progress(written: int, total: int) -> None:
            if written == 1:  # the first line is back: the scheduler goes, and the client gives up on it
                cluster.close()
                _wait_until(lambda: clients[0].status == "closed", "the client gave up reconnecting")

        monkeypatch.setattr(pool, "_dask_client", connected)
        with pytest.raises(solver.StichError) as gone:
            batch.solve_batch(source, out, scheduler=address, chunk_size=1, progress=progress)
    port = address.rsplit(":", 1)[1]
    assert str(gone.value) == (f"the Dask scheduler at {address} went away mid-run (Dask's client gave up "
                               f"reconnecting to it): start it again ('dask scheduler --port {port}') and its workers "
                               f"('dask worker {address}'), which stop with it, then rerun to resume (every result "
                               "handed on so far is kept)")
    kept = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert 1 <= len(kept) < 30
    summary = batch.solve_batch(source, out, workers=1)
    assert summary.skipped == len(kept) and summary.solved == 30 - len(kept)


def test_a_scheduler_stopped_mid_run_is_said_to_have_gone_with_what_to_start_again(tmp_path, monkeypatch):
    """A scheduler stopped mid-run (its cluster closed: Dask cancels the run's futures for "scheduler-connection-lost")
    is said as one gone, not as "the Dask cluster ... failed" quoting Dask's cancelled futures: it says the scheduler
    went away mid-run, to start it again and its workers (which stop with it), and to rerun, as the message of one gone
    before the run sent it a job does; the rerun resumes, each record once."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")

    source, out = tmp_path / "deals.tbn", tmp_path / "out.jsonl"
    source.write_text("\n".join(format_record(r) for r in solver.random_records("Kratzen", 5, 30, seats=3)))

    class QuickToGiveUp(distributed.Client):
        """Gives up a call to a scheduler gone after 2 s, not the run's 30 s."""
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.rpc.timeout = 2

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        connect = pool._dask_client
        monkeypatch.setattr(pool, "_dask_client", lambda client_class, scheduler: connect(QuickToGiveUp, scheduler))

        def progress(written: int, total: int) -> None:
            if written == 1:  # the first line is back: the scheduler stops
                cluster.close()

        with pytest.raises(solver.StichError) as gone:
            batch.solve_batch(source, out, scheduler=address, chunk_size=1, progress=progress)
    port = address.rsplit(":", 1)[1]
    assert str(gone.value).startswith(f"the Dask scheduler at {address} went away mid-run (")
    assert str(gone.value).endswith(f"): start it again ('dask scheduler --port {port}') and its workers ('dask worker "
                                    f"{address}'), which stop with it, then rerun to resume (every result handed on "
                                    "so far is kept)")
    assert "Futures" not in str(gone.value)
    kept = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert 1 <= len(kept) < 30
    summary = batch.solve_batch(source, out, workers=1)
    assert summary.skipped == len(kept) and summary.solved == 30 - len(kept)
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 30


def test_what_to_start_again_names_the_scheduler_s_protocol_and_port(monkeypatch):
    """A scheduler gone, or not started, is started on its own protocol and port: a tls://, ws:// or ucx:// one with
    ``--protocol``, which a tcp:// one (Dask's default) and an address without a protocol do not need."""
    import socket

    monkeypatch.setattr(pool, "SCHEDULER_START_SECONDS", 0.1)
    with socket.socket() as held, pytest.raises(solver.StichError) as refused:  # bound, not listening: refused
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        pool._probe_scheduler(f"tls://127.0.0.1:{port}")
    assert f"(connection refused): start the scheduler ('dask scheduler --protocol tls --port {port}')" \
        in str(refused.value)
    workers = "and its workers ('dask worker {}'), which stop with it"
    for address, command in [("tcp://10.0.0.5:9000", "dask scheduler --port 9000"),
                             ("10.0.0.5", "dask scheduler --port 8786"),
                             ("tls://10.0.0.5:9000", "dask scheduler --protocol tls --port 9000"),
                             ("ws://[::1]:8788", "dask scheduler --protocol ws --port 8788"),
                             ("ucx://node7", "dask scheduler --protocol ucx --port 8786")]:
        assert pool._start_again(address) == f"start it again ('{command}') " + workers.format(address)


def out_of_file_handles(job):
    """A task whose worker has run out of file handles."""
    raise OSError(24, "Too many open files")


def test_an_os_error_a_task_raises_is_the_cluster_failing_not_the_scheduler_gone():
    """An OSError without a file name that a task raises (its worker out of file handles) is the cluster failing, said
    in Dask's words, not "the scheduler went away" with advice to start it again."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        with pytest.raises(solver.StichError) as failed:
            pool.run_dask(range(1), out_of_file_handles, (), lambda job, result: None, address)
    assert str(failed.value) == (f"the Dask cluster at {address} failed (OSError: [Errno 24] Too many open files): "
                                 "--verbose shows Dask's own log; then rerun to resume (every result handed on so far "
                                 "is kept)")


def test_the_scheduler_is_said_gone_only_by_a_lost_connection():
    """Mid-run, the scheduler is said gone by Dask's client no longer connected, futures cancelled for a lost
    connection (by their reason, not their text), or a closed connection of Dask's; not by any other OSError, nor
    by futures cancelled for another reason that names the lost one in their text."""
    pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    from distributed.client import CancelledFuturesGroup, FutureCancelledError, FuturesCancelledError
    from distributed.comm.core import CommClosedError

    lost = FutureCancelledError("chunk-1", pool.SCHEDULER_LOST)
    other = FutureCancelledError("chunk-1", "cancelled by the user", f"not {pool.SCHEDULER_LOST}")
    all_lost = FuturesCancelledError([CancelledFuturesGroup([lost, lost], pool.SCHEDULER_LOST)])
    assert [pool._scheduler_lost(error, connected=True) for error in
            (lost, all_lost, CommClosedError("closed"), other, OSError(24, "Too many open files"), ValueError("x"))] \
        == [True, True, True, False, False, False]
    assert pool._scheduler_lost(ValueError("x"), connected=False)
    assert not pool._scheduler_lost(KeyboardInterrupt(), connected=False)


def _wait_until(happened, what, seconds=120.0):
    """Return once ``happened()`` is true; fail the test, saying ``what`` did not happen, after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not happened():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        time.sleep(0.05)


def _closing_on_notice(wait_for_workers, cluster):
    """``_wait_for_workers`` whose notice that the run waits closes ``cluster`` first: the scheduler goes in the
    wait."""
    def closing(client, scheduler, seconds, notify, in_flight=None):
        def notice(text):
            cluster.close()
            notify(text)
        return wait_for_workers(client, scheduler, seconds, notice, in_flight)
    return closing


def _dask_logs_error(job, *args):
    return job


def test_dask_log_stays_off_stderr_unless_verbose(tmp_path):
    """When the scheduler dies, Dask's loggers print tracebacks before stich's one-line message: during a run they
    are quiet (every logger of theirs, the children Dask gives levels of their own included), unless verbose."""
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    import logging

    names = ("distributed", "distributed.client", "distributed.batched", "tornado.application", "asyncio")
    before = {name: logging.getLogger(name).level for name in names}
    # over TCP, as a real scheduler is reached: a client made on stich's connecting thread met an AssertionError
    # inside Dask's in-process transport once in four whole-suite runs (4 December 2026)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=":0") as cluster:
        for verbose in (False, True):
            heard: list[bool] = []
            pool.run_dask([1, 2], _dask_logs_error, (), lambda job, result: heard.append(any(
                logging.getLogger(name).isEnabledFor(logging.ERROR) for name in names)), cluster.scheduler_address,
                verbose=verbose)
            assert heard == [verbose, verbose]
    assert {name: logging.getLogger(name).level for name in names} == before


def _scheduler_address(scheduler_file: Path, scheduler: subprocess.Popen) -> str:
    """The address a Dask scheduler started with ``--scheduler-file`` wrote there, once the file is whole (90 s at
    most, and not after the scheduler ended)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and scheduler.poll() is None:
        with contextlib.suppress(OSError, ValueError):
            return json.loads(scheduler_file.read_text())["address"]
        time.sleep(0.05)
    raise AssertionError(f"the scheduler wrote no address to {scheduler_file} (exit {scheduler.poll()})")


@pytest.mark.slow  # a scheduler started, killed and waited for
def test_a_scheduler_killed_mid_run_is_one_message_without_dask_tracebacks(tmp_path):
    """Killing the scheduler under a running batch: stderr holds stich's one line, none of the Traceback blocks of
    Dask's logger (every line written is kept), and a rerun resumes."""
    pytest.importorskip("dask.distributed", reason="Dask is not installed (pip install 'stich[cluster]')")
    import signal
    import subprocess
    import sys
    import time

    source = tmp_path / "deals.tbn"
    source.write_text("\n".join(format_record(r) for r in solver.random_records("Schafkopf", 3, 2000)))
    out = tmp_path / "out.jsonl"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # port 0: the scheduler binds a free port itself and writes its address to the file (no port freed and rebound)
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)], **quiet)
    worker = run = None
    try:
        address = _scheduler_address(scheduler_file, scheduler)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--no-dashboard"], **quiet)
        run = subprocess.Popen([sys.executable, "-c", "from solver.cli.main import main; main()", "batch", str(source),
                                "--out", str(out), "--scheduler", address, "--chunk-size", "5"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and run.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 20:
                break
            time.sleep(0.05)
        assert run.poll() is None, run.communicate()
        scheduler.send_signal(signal.SIGKILL)
        _, stderr = run.communicate(timeout=120)
    finally:
        for process in (scheduler, worker, run):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
    assert run.returncode == 1
    *waiting, last = stderr.splitlines()  # "waiting for a Dask worker" first if the worker was not yet there
    assert "Traceback" not in stderr and all(line.startswith("stich: waiting for a Dask worker") for line in waiting)
    assert last.startswith(f"stich: the Dask scheduler at {address} went away mid-run (") and last.endswith(
        f"): start it again ('dask scheduler --port {address.rsplit(':', 1)[1]}') and its workers ('dask worker "
        f"{address}'), which stop with it, then rerun to resume (every result handed on so far is kept)")
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(written) >= 20 and len({line["key"] for line in written}) == len(written)


def _fails_or_dies(job: int, marker: str) -> int:
    """Job 2 fails at once (a match's bot); job 1's worker dies once, a second later (out of memory, killed)."""
    import time

    if job == 2:
        raise ValueError("job 2 fails")
    if not os.path.exists(marker):
        open(marker, "w").close()
        time.sleep(1.0)
        os._exit(1)
    return job * 10


def test_a_job_in_flight_at_a_break_after_a_failure_runs_again_before_the_failure_is_raised(tmp_path):
    """A task's failure is raised once the jobs in flight beside it are back; when a worker then dies, the jobs in
    flight at that break run again on the new pool (job 1's result is not lost), though nothing new is taken after a
    failure."""
    results: list[tuple[int, int]] = []
    with pytest.raises(ValueError, match="job 2 fails"):
        pool.run_pool([1, 2], _fails_or_dies, (str(tmp_path / "died"),),
                      lambda job, result: results.append((job, result)), 2, in_flight=1)
    assert results == [(1, 10)]


def _fails_in_turn(job: int | str) -> int:
    """Job 1 (or "a") fails after half a second, any other at once: the later job's failure comes back first."""
    import time

    if job in (1, "a"):
        time.sleep(0.5)
    raise ValueError(f"job {job} fails")


def test_of_two_jobs_that_fail_the_earlier_jobs_failure_is_raised(tmp_path):
    """Two boards of a match failing side by side on two workers: the pool raises the failure of the job taken first, as
    one worker reports the first board that fails, not whichever comes back first (an error, and boards kept before it,
    that would depend on timing), and takes no job after a failure (job 3 never runs)."""
    ran: list[int] = []
    with pytest.raises(ValueError, match="^job 1 fails$"):
        pool.run_pool([1, 2, 3], _fails_in_turn, (), lambda job, result: ran.append(job), 2, in_flight=1)
    assert ran == []
    # a job given twice (one object, or equal interned values) keeps its first place, not one keyed by the job's
    # id, which the second 'a' would take over
    with pytest.raises(ValueError, match="^job a fails$"):
        pool.run_pool(["a", "b", "a"], _fails_in_turn, (), lambda job, result: ran.append(job), 2, in_flight=2)


class _BreakingPool:
    """A local pool's stand-in that breaks as a real one does, without timing: submitting a job of ``kills`` fails
    its future with BrokenProcessPool (its worker died) and breaks the pool, after which every submit raises
    BrokenProcessPool, as a real broken pool's does; any other job runs at once, in this process."""

    def __init__(self, kills: set[int], made: list[_BreakingPool]) -> None:
        self.kills, self.broken, self.submitted = kills, False, []
        made.append(self)

    def submit(self, run, sent):
        import pickle
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        task, (job, *args) = pickle.loads(sent)  # what a worker is sent: the task and its arguments, pickled
        if self.broken:
            raise BrokenProcessPool("A child process terminated abruptly, the process pool is not usable anymore")
        self.submitted.append(job)
        future: Future = Future()
        if job in self.kills:
            self.broken = True
            future.set_exception(BrokenProcessPool("A process in the process pool was terminated abruptly"))
        else:
            future.set_result(run(sent))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


def test_a_pool_that_breaks_while_jobs_are_handed_to_it_is_restarted(monkeypatch):
    """A job whose worker dies before the next job is submitted (after a restart, a chunk that kills its worker at once)
    breaks the pool under the submits: that break restarts the pool as any other, the job not yet handed on runs on the
    new pool as it was, and the jobs finished before the break are handed on once; no BrokenProcessPool traceback."""
    made: list[_BreakingPool] = []
    plans = iter([{3}, set()])  # the first pool breaks at job 3, with job 4 still to submit; the second is sound
    monkeypatch.setattr(pool, "process_pool", lambda *args: _BreakingPool(next(plans), made))
    results: list[tuple[int, int]] = []
    pool.run_pool([1, 2, 3, 4, 5, 6], abs, (), lambda job, result: results.append((job, result)), 1, in_flight=4)
    assert sorted(results) == [(job, job) for job in range(1, 7)]
    assert [pool_made.submitted for pool_made in made] == [[1, 2, 3], [3, 4, 5, 6]]


def test_a_job_that_kills_its_worker_at_every_submit_gets_its_failure_or_the_stich_error(monkeypatch):
    """Job 13 kills its worker as soon as it is submitted, so every pool breaks under the next submit: it runs alone
    twice and is then handed to ``failed`` (a batch's error line) while the other job is solved, or without
    ``failed`` ends the run with the documented StichError, every time (not BrokenProcessPool)."""
    made: list[_BreakingPool] = []
    monkeypatch.setattr(pool, "process_pool", lambda *args: _BreakingPool({13}, made))
    results: list[tuple[int, object]] = []
    pool.run_pool([13, 1], abs, (), lambda job, result: results.append((job, result)), 1, in_flight=2,
                  failed=lambda job: "died twice alone")
    assert results == [(13, "died twice alone"), (1, 1)]
    assert [pool_made.submitted for pool_made in made] == [[13], [13], [13], [13], [1]]
    with pytest.raises(solver.StichError, match="a job killed its worker process twice while running alone"):
        pool.run_pool([13, 1], abs, (), lambda job, result: results.append((job, result)), 1, in_flight=2)
    assert results == [(13, "died twice alone"), (1, 1)]


def test_only_bytes_that_are_no_dask_frame_are_said_to_be_another_protocol():
    """A peer's text read as a frame fails as an allocation, a dimension or a decoding error; a TLS address without
    its settings (a TypeError) or an unknown protocol keeps Dask's own words, which name the real cause."""
    from solver.workers import _read_garbage

    assert _read_garbage(MemoryError("Unable to allocate 3.07 EiB for an array"))
    assert _read_garbage(ValueError("Maximum allowed dimension exceeded"))
    assert not _read_garbage(TypeError("TLS expects a `ssl_context` argument of type ssl.SSLContext"))
    assert not _read_garbage(ValueError("unknown address scheme 'foo'"))


def test_a_worker_gone_for_a_moment_mid_run_is_waited_for_not_said_to_have_left():
    """A nanny restarts a killed worker within about a second, while the scheduler counts none: a recount in that gap
    waits for it, not giving up at once under --worker-wait 0 nor saying every worker left under any wait."""
    from solver.workers import WORKER_RESTART_SECONDS, _wait_for_workers

    class Restarting:
        waited: list[float] = []
        counts = [{}, {"tcp://w": 1}]

        def nthreads(self):
            return self.counts.pop(0)

        def wait_for_workers(self, n, timeout):
            self.waited.append(timeout)

    said: list[str] = []
    client = Restarting()
    assert _wait_for_workers(client, "tcp://s:8786", 0, said.append, in_flight=2) == 1
    assert client.waited == [WORKER_RESTART_SECONDS] and said == []
