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
