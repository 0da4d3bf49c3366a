"""The one worker pool: jobs run on local processes (the default) or on a Dask cluster, for batch, analyse and bench.

A workload hands :meth:`Pool.run` an iterable of picklable jobs, a module-level ``task(job, *args)`` and an
``on_result(job, result)`` callback; the pool runs each job once and hands back each whole result as soon as it is
back, in the order jobs finish. What every runner keeps (docs/batch.md):

* **Exactly once.** A result is handed on only when its job is whole, and a job lost with its worker is run again,
  so the results are complete and without duplicates: a workload that appends each one to a file and skips the done
  ones on a rerun resumes after ``kill -9`` losing only what was in flight.
* **Local processes** (:func:`run_pool`) use :class:`concurrent.futures.ProcessPoolExecutor` (no dependency), about
  4 jobs a worker in flight. A worker that dies breaks the pool, which is replaced and the jobs in flight are
  submitted again; a job in flight at two breaks runs alone, and one that dies alone twice is the workload's to
  report (``failed``). Workers ignore SIGINT (stopping is the parent's business), take the default SIGTERM, exit
  when their parent dies (a driver killed with -9 cannot shut its pool down) and, under ``memory_mb``, are started
  fresh with their address space capped and their table sized to fit. A bot's module (:func:`load_in_workers`) is
  imported in them from the file the parent imported it from, their ``sys.path`` left alone.
* **Dask** (:func:`run_dask`, ``scheduler="tcp://host:port"``) runs the same jobs on a cluster: about 4 a worker
  thread in flight, finished futures gathered in batches and released once handed on; a worker that dies is
  restarted by its nanny and its jobs run again elsewhere. A run with no worker on the scheduler says that it waits
  and gives up after ``worker_wait`` seconds; Dask's own log (tracebacks of a scheduler gone) stays off stderr
  unless ``verbose``. Each task checks that its worker runs this stich and a compiled engine that answers as this
  one (:func:`_on_this_build`): a worker of another stops the run with a message naming it.
* **One engine a worker**, kept between jobs (:func:`worker_engine`: its table is allocated once), running one
  search thread (:data:`POOL_ENGINE_THREADS`, given to every worker through :func:`init_worker`): the pool's
  workers already use every core.
* **One job at a time in a child that can be stopped** (:class:`SoloWorker`): the benchmark's solves with a time
  limit, since a compiled search cannot be interrupted from Python.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import itertools
import logging
import multiprocessing
import os
import pickle
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections import deque
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from importlib import import_module
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, cast

from .errors import StichError, StichWarning, check_callback, is_whole_number
from .interrupts import STOP_SIGNALS, restore_signals
from .limits import (DEFAULT_WORKER_WAIT_SECONDS, MAX_WORKER_MEMORY_MB, MAX_WORKER_WAIT_SECONDS,
                     MIN_WORKER_MEMORY_MB)
from .search.boundary import TimeLeft, check_stop
from .search.engine import CORES, EngineSolver, default_threads, set_default_threads, table_megabytes, usable_cores

if TYPE_CHECKING:
    from .search.settle import SettlementEngine

#: The search threads of each pool worker's engine: the pool already runs one worker a core.
POOL_ENGINE_THREADS = 1
#: How many times in a row a local run replaces a broken pool (a worker that died) with no job finished in between
#: before it gives up: then the workers cannot run at all.
MAX_POOL_RESTARTS = 5
#: How long the connection to a Dask scheduler may take, all in all (Dask's own timeout does not cover a peer that
#: accepts the connection and never answers).
DASK_CONNECT_SECONDS = 40
#: How often the number of jobs kept in flight on a Dask cluster is fitted to its worker threads.
DASK_RECOUNT_SECONDS = 2.0
#: The loggers whose messages (Dask's tracebacks when its scheduler goes) stay off stderr unless ``verbose``.
DASK_LOGGERS = ("distributed", "tornado", "asyncio")

_PARENT_POLL_SECONDS = 0.5
_local = threading.local()
#: This process's worker settings, set by :func:`init_worker` (None: not a pool worker, the engine's defaults).
_worker_tt_megabytes: int | None = None
_worker_engine_threads: int | None = None
_worker_memory_mb: int | None = None  # this pool worker's address-space cap (--worker-memory), None without one
_NO_RUN = object()  # no serial run in this thread (run_serial)
_worker_stop: Any | None = None  # the pool's stop flag (a multiprocessing Event the parent sets)
#: How often the parent looks at a run's stop Event to pass it on to the pool's workers.
_STOP_RELAY_SECONDS = 0.02

OnResult = Callable[[Any, Any], None]
Notify = Callable[[str], None]

#: The signals a terminal sends the whole process group (Ctrl-C, a closed terminal's SIGHUP), which a worker leaves
#: to its parent: ignored while it starts and in it (SIGTERM is the pool's own to stop it with).
HELD_WHILE_STARTING = tuple(signum for signum in STOP_SIGNALS if signum != signal.SIGTERM)


# --- settings ----------------------------------------------------------------------------------------------------


#: ``workers=`` for every core this process may use, as None is (joblib's and scikit-learn's ``n_jobs=-1``).
EVERY_CORE = -1


def local_workers(workers: int | None) -> int:
    """The number of worker processes: every core this process may use (:func:`usable_cores`) for None or
    :data:`EVERY_CORE`, else ``workers`` up to those cores. Each local worker searches on one core with tables of its
    own, and the results do not depend on their number, so more would only take turns on the cores, each holding its
    tables (``workers=64`` on 2 cores started 64 processes, with up to 8 GB of tables): they are cut to the cores,
    with a :class:`~solver.errors.StichWarning` that says so, as the commands cut ``-j``."""
    asked = check_workers(workers)
    cores = usable_cores()
    if asked is None:
        return cores
    if asked > cores:
        warn_caller(workers_cut_text(f"workers={asked}", cores))
        return cores
    return asked


def workers_cut_text(asked: str, cores: int) -> str:
    """Why ``asked`` (``workers=64``, ``-j 64``) runs as ``cores`` workers: the words of the library's warning and
    of the commands' line alike."""
    return (f"{asked}: this process may use {cores} core{'s' if cores > 1 else ''}, so {cores} "
            f"worker{'s run' if cores > 1 else ' runs'} (each searches on one core; more would only take turns on "
            "them, each with tables of its own)")


def check_workers(workers: object) -> int | None:
    """``workers`` if it is a usable count (None for every core: None or :data:`EVERY_CORE`), else StichError."""
    if workers is None or (is_whole_number(workers) and workers == EVERY_CORE):
        return None
    if not is_whole_number(workers) or workers < 1:
        raise StichError(f"workers must be a whole number of at least 1, or None or -1 for every core, not {workers!r}")
    return workers


def warn_caller(text: str, category: type[StichWarning] = StichWarning) -> None:
    """A :class:`~solver.errors.StichWarning` (or ``category`` of it) pointed at the first caller outside this
    package (the app's line)."""
    package = __name__.partition(".")[0]
    frame, level = sys._getframe(1), 2
    # by module, not file: a dataclass's generated __init__ (Pool's) has no file of its own
    while frame.f_back is not None and frame.f_globals.get("__name__", "").partition(".")[0] == package:
        frame, level = frame.f_back, level + 1
    warnings.warn(text, category, stacklevel=level)


def check_memory_limit(memory_mb: int | None) -> int | None:
    """``memory_mb`` if it is a usable worker limit (None: no limit)."""
    if memory_mb is not None and (not is_whole_number(memory_mb)
                                  or not MIN_WORKER_MEMORY_MB <= memory_mb <= MAX_WORKER_MEMORY_MB):
        raise StichError(f"the worker memory limit must be {MIN_WORKER_MEMORY_MB} to {MAX_WORKER_MEMORY_MB:,} MB, "
                         f"not {memory_mb}")
    return memory_mb


def check_worker_wait(seconds: float) -> float:
    """``seconds`` if it is a usable wait for Dask workers (0: give up at once when there is none)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not 0 <= seconds <= MAX_WORKER_WAIT_SECONDS:
        raise StichError(f"the wait for Dask workers is 0 to {MAX_WORKER_WAIT_SECONDS:,.0f} seconds, not {seconds!r}")
    return float(seconds)


#: The engines a worker thread may hold at once, each with its own table: the points search's and the settlement
#: search's (the score, contract and card advice).
ENGINES_PER_WORKER = 2


def table_megabytes_for(memory_mb: int, engines: int = 1, table_mb: int | None = None) -> int:
    """The table size that keeps ``engines`` engines within a ``memory_mb`` limit: a quarter of the limit shared
    between them (the rest is for the interpreter, the records and the search), at most ``table_mb`` (None: the
    default size)."""
    return max(1, min(table_megabytes(table_mb), memory_mb // (4 * max(1, engines))))


def worker_table_megabytes() -> int | None:
    """The table size of this worker's engines (points and settlement alike): what its run asked (``--table-mb``),
    cut to fit its memory limit; in a run's jobs solved in this process (:func:`run_serial`), that run's; None
    elsewhere (the default size)."""
    serial = getattr(_local, "serial_tt_megabytes", _NO_RUN)
    size = _worker_tt_megabytes if serial is _NO_RUN else cast("int | None", serial)
    return size or _dask_tt_megabytes()


# --- a worker ------------------------------------------------------------------------------------------------------


def worker_engine() -> EngineSolver:
    """The engine of this worker (thread), created on first use and kept between jobs: allocating the table once
    per worker instead of once per job. Thread-local because a Dask worker may run several tasks at once."""
    size = worker_table_megabytes()
    engine = getattr(_local, "engine", None)
    threads = worker_engine_threads()
    if engine is None or getattr(_local, "size", None) != size:  # another run of this process asked another size
        _local.engine = None  # the old table is freed before the new one is made
        engine = _local.engine = EngineSolver(size or None, threads=threads)
        _local.size = size
    else:  # the same engine (and whatever stops it: the board's odds) on the threads this run asks
        engine.threads = _worker_threads()
    return engine


def worker_settlement_engine() -> SettlementEngine:
    """The settlement engine of this worker (thread): the table size and threads of :func:`worker_engine`'s, so that
    a sample's score searches on the threads its run asks (``-j 1``: one) and is stopped where its points are. Where
    no points engine of that size is made yet (advice searches the score alone) it is not made for its size: the
    settlement engine is made of the size and threads it would have."""
    from .score_objective import settlement_engine_for, settlement_engine_sized  # loads on first use

    size = worker_table_megabytes()
    if getattr(_local, "engine", None) is not None and getattr(_local, "size", None) == size:
        return settlement_engine_for(worker_engine())
    return settlement_engine_sized(table_megabytes(size), _worker_threads())


def _worker_threads() -> int:
    """:func:`worker_engine_threads`, or where nothing set them the engine's own default."""
    threads = worker_engine_threads()
    return default_threads() if threads is None else threads


def worker_engine_threads() -> int | None:
    """The search threads this process's engines should use: what a local pool worker's initialiser was given
    (:data:`POOL_ENGINE_THREADS`), the same in a Dask worker (whose threads already fill its cores), a serial run's
    (:func:`run_serial`), None elsewhere (the engine's own default)."""
    if _worker_engine_threads is not None:
        return _worker_engine_threads
    serial = getattr(_local, "serial_threads", None)
    if serial is not None:
        return cast(int, serial)
    return POOL_ENGINE_THREADS if _dask_worker() is not None else None


def out_of_memory_text() -> str:
    """What a job that ran out of memory in this process says: within which limit, and what to give instead."""
    if _dask_worker() is not None:  # the cluster's workers are sized by whoever starts them, not by the run's options
        return ("out of memory on a Dask worker (start the cluster's workers with more memory, a --memory-limit that "
                "sizes their tables, or a smaller STICH_TABLE_MB)")
    if _worker_memory_mb is not None:
        return f"out of memory within --worker-memory {_worker_memory_mb:,} MB (give a larger one)"
    return ("out of memory, with no --worker-memory given: the process's own limit (ulimit -v) or the machine's memory "
            "ran out (give --worker-memory MB, which sizes each worker's tables to fit)")


def table_does_not_fit(error: MemoryError) -> StichError | None:
    """The run's error for a transposition table a worker cannot allocate (the engine says ``cannot allocate a N MB
    transposition table``): every job of the run would fail alike, so the run stops with one message instead of an
    error a job. None for any other MemoryError (a search that ran out: that job's own), and on a Dask worker, where
    only that worker may be short of memory (the others of a mixed cluster go on; its jobs say why in their lines)."""
    said = str(error)
    if not said.startswith("cannot allocate") or _dask_worker() is not None:
        return None
    within = (f"within --worker-memory {_worker_memory_mb:,} MB" if _worker_memory_mb is not None
              else "with no --worker-memory given, within the process's own limit (ulimit -v) or the machine's memory")
    return StichError(f"a worker {said} {within}: give a smaller --table-mb"
                      + ("" if _worker_memory_mb is not None else ", or --worker-memory MB to size the tables to fit"))


def worker_stop() -> Any | None:
    """In a local pool's worker, the run's stop flag (a :class:`StopFlag`, set by the parent once the run's own
    ``stop`` is: a ``threading.Event`` does not cross processes); None elsewhere. A worker's searches that ask it
    stop at once instead of finishing their job."""
    return _worker_stop


def _dask_worker() -> Any | None:
    """The Dask worker this task runs in, or None."""
    if "distributed" not in sys.modules:  # not in a Dask worker (which has it imported): spare the 0.4 s import
        return None
    try:
        from distributed import get_worker
        return get_worker()
    except (ImportError, ValueError):
        return None


def _dask_tt_megabytes() -> int | None:
    """Inside a Dask worker with a memory limit: the table size that fits it (ENGINES_PER_WORKER engines per
    worker thread)."""
    worker = _dask_worker()
    if worker is None:
        return None
    limit = worker.memory_manager.memory_limit
    if not limit:
        return None
    return table_megabytes_for(int(limit) // (1 << 20), worker.state.nthreads * ENGINES_PER_WORKER)


def _watch_parent(parent: int) -> None:
    """Exit when the parent process is gone (it was killed with -9 and cannot shut the pool down)."""
    while True:
        time.sleep(_PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


#: Where a module of one's own was loaded from: its file (None for a namespace package) and, for a package, its folders.
ModuleOrigin = tuple[str | None, list[str] | None]
#: The modules of one's own code (a bot's, :func:`solver.bots.load_bot`) that this process's pool workers import from
#: the very files this process did, by name: see :func:`load_in_workers`.
_own_modules: dict[str, ModuleOrigin] = {}


def load_in_workers(module_name: str) -> None:
    """Have the local pool workers started from now on import the module ``module_name`` (and the packages it is in)
    from the files this process imported them from. A bot is pickled by its module's name, and a worker started
    fresh (``spawn``, ``forkserver``) imports that name on its own: its ``sys.path`` is not the one the module was
    found on (the current directory, first only for that import), so an installed module of the same name would be
    imported instead, and putting the directory on the workers' path would let a ``solver.py`` there replace stich
    itself. A module with no file of its own (built in, or in a zip archive) is left to the workers' own import."""
    parts = module_name.split(".")
    for depth in range(1, len(parts) + 1):
        name = ".".join(parts[:depth])
        loaded = sys.modules.get(name)
        spec = getattr(loaded, "__spec__", None)
        if spec is None:
            continue
        folders = list(spec.submodule_search_locations) if spec.submodule_search_locations is not None else None
        if spec.has_location and spec.origin and os.path.isfile(spec.origin):  # not a file in a zip: found by path
            _own_modules[name] = (spec.origin, folders)
        elif folders:  # a namespace package: its folders, as this process found them
            _own_modules[name] = (None, folders)


class OwnModuleFinder(importlib.abc.MetaPathFinder):
    """The first finder of a pool worker's imports: the modules of one's own code (:func:`load_in_workers`) from the
    files the parent loaded them from, whatever the worker's ``sys.path`` would find under their names; any other
    name is left to the usual finders."""

    def __init__(self, modules: dict[str, ModuleOrigin]) -> None:
        self.modules = modules

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        origin, folders = self.modules.get(name, (None, None))
        if origin is None and not folders:
            return None
        if origin is None:
            spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
            spec.submodule_search_locations = list(folders or ())
            return spec
        return importlib.util.spec_from_file_location(name, origin, submodule_search_locations=folders)


#: The folders a bot's module was found in (the current directory, on ``sys.path`` only for that import): searched,
#: last of all, for a module the bot's code imports later (in ``choose``), here and in the pool workers.
_own_folders: list[str] = []


def search_last(folder: str) -> None:
    """Have ``folder`` searched, in this process and in the local pool workers started from now on, for a top-level
    module no other finder finds: as under ``python -m``, a bot that imports a module beside it only as it plays
    (``def choose(...): import botcards``) finds it; searched after everything else (:class:`OwnFolderFinder`), the
    folder's ``solver.py`` or ``json.py`` never replaces stich or the standard library."""
    if folder not in _own_folders:
        _own_folders.append(folder)
    _search_own_folders_last()


def _search_own_folders_last() -> None:
    """:class:`OwnFolderFinder` on :data:`_own_folders`, at the end of ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, OwnFolderFinder) for finder in sys.meta_path):
        sys.meta_path.append(OwnFolderFinder())


class OwnFolderFinder(importlib.abc.MetaPathFinder):
    """The last finder: a module in the folders of one's own code (:func:`search_last`), searched as a ``sys.path``
    entry is: a top-level module, or a namespace package's module (whose part in such a folder is on the package's
    path only while the folder is on ``sys.path``); a regular package's modules are on its own path alone."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if not _own_folders:
            return None
        *package, _ = name.split(".")
        if package:
            spec = getattr(sys.modules.get(".".join(package)), "__spec__", None)
            if spec is None or spec.has_location or spec.submodule_search_locations is None:  # not a namespace
                return None
        return importlib.machinery.PathFinder.find_spec(name, [os.path.join(folder, *package)
                                                               for folder in _own_folders], target)


#: The thread settings of the numeric libraries a bot of one's own may load (OpenBLAS, MKL, OpenMP, BLIS, Apple's
#: Accelerate, numexpr), read as each starts: a pool's worker sets each to 1 unless it is set already, so that N
#: workers multiplying matrices run N threads on N cores, not N times every core (one thread per worker, as its engine).
NUMERIC_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                            "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
#: The variable each kind of library threadpoolctl finds loaded (its ``internal_api``) reads as it starts (FlexiBLAS's
#: backend, OpenBLAS or BLIS, shows as an entry of its own kind).
NUMERIC_LIBRARY_VARIABLES = {"openmp": "OMP_NUM_THREADS", "openblas": "OPENBLAS_NUM_THREADS",
                             "mkl": "MKL_NUM_THREADS", "blis": "BLIS_NUM_THREADS"}


def one_numeric_thread() -> None:
    """A pool worker's numeric libraries on one thread each (:data:`NUMERIC_THREAD_VARIABLES`; a variable already
    set, by the user or the cluster, is kept): those it loads later read the variables; those it inherited loaded (a
    worker forked from a parent that imported a bot module importing numpy) read theirs as the parent loaded them,
    so they are limited through threadpoolctl, which finds each build on each platform (numpy's own wheel's
    OpenBLAS is ``libscipy_openblas64_``): to the count their variable says where it is a positive whole number (set
    after numpy was loaded, by ``os.environ`` or a notebook's ``%env``, it would be ignored otherwise), to 1 where it
    was unset; another value is left to the library. Importing threadpoolctl and listing the libraries takes some
    6 ms in a forked worker (about 10 ms with numpy loaded), once as the worker starts, so every worker does it."""
    for variable in NUMERIC_THREAD_VARIABLES:
        os.environ.setdefault(variable, "1")
    limits = {kind: int(text) for kind, variable in NUMERIC_LIBRARY_VARIABLES.items()
              if (text := os.environ[variable].strip()).isascii() and text.isdigit() and int(text) > 0}
    if limits:
        from threadpoolctl import ThreadpoolController

        controller = ThreadpoolController()
        for kind, count in limits.items():
            controller.select(internal_api=kind).limit(limits=count)


def init_worker(parent: int, memory_mb: int | None = None, engine_threads: int | None = POOL_ENGINE_THREADS,
                table_mb: int | None = None, stop_flag: Any | None = None,
                own_modules: dict[str, ModuleOrigin] | None = None, own_folders: list[str] | None = None) -> None:
    """Worker setup, the one place a worker's settings arrive: Ctrl-C is the parent's business (it stops the pool),
    the worker must not outlive a parent killed without a chance to stop it, its table is ``table_mb`` (None: the
    default), under a memory limit its address space is capped and its table sized to fit, its engines search
    with ``engine_threads`` threads, ``stop_flag`` is the run's stop (:func:`worker_stop`), ``own_modules``
    (:func:`load_in_workers`), imported as the jobs (the bots in them) are unpickled, come from the parent's files,
    and ``own_folders`` (:func:`search_last`) are searched last for the modules a bot imports as it plays."""
    global _worker_tt_megabytes, _worker_engine_threads, _worker_stop, _worker_memory_mb
    if own_modules:
        _own_modules.update(own_modules)
        if not any(isinstance(finder, OwnModuleFinder) for finder in sys.meta_path):
            sys.meta_path.insert(0, OwnModuleFinder(_own_modules))
    if own_folders:
        _own_folders.extend(folder for folder in own_folders if folder not in _own_folders)
        _search_own_folders_last()
    for signum in HELD_WHILE_STARTING:  # a Ctrl-C, or a closed terminal's hangup, is the parent's to act on
        signal.signal(signum, signal.SIG_IGN)
    # A forked worker inherits the command's SIGTERM handler, which would let it outlive the pool's terminate()
    # while it is blocked writing a large result into a full pipe (the run then never exits).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="stich-parent-watch").start()
    _worker_engine_threads = engine_threads
    _worker_tt_megabytes = table_mb
    _worker_stop = stop_flag
    _worker_memory_mb = memory_mb
    set_default_threads(engine_threads)  # the shared engines of functions called without one, too
    one_numeric_thread()
    if memory_mb is not None:
        import resource
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        _worker_tt_megabytes = table_megabytes_for(memory_mb, ENGINES_PER_WORKER, table_mb=table_mb)


# --- local processes ---------------------------------------------------------------------------------------------


def pool_context(memory_mb: int | None = None) -> Any:
    """How a pool's workers start. Capped workers are started fresh (``spawn``) rather than forked: a forked worker
    would begin with all of its parent's address space (and its engine), counted against the cap before it solves
    anything."""
    return multiprocessing.get_context("spawn" if memory_mb is not None else None)


def process_pool(workers: int, memory_mb: int | None = None, table_mb: int | None = None,
                 stop_flag: Any | None = None) -> ProcessPoolExecutor:
    """A process pool whose workers ignore SIGINT, exit with their parent, keep within ``memory_mb``, make tables of
    ``table_mb`` and see ``stop_flag`` (a :class:`StopFlag` of :func:`pool_context`'s) as :func:`worker_stop`."""
    return ProcessPoolExecutor(max_workers=workers, initializer=init_worker,
                               initargs=(os.getpid(), memory_mb, POOL_ENGINE_THREADS, table_mb, stop_flag,
                                         dict(_own_modules), list(_own_folders)),
                               mp_context=pool_context(memory_mb))


class StopFlag:
    """A flag the parent sets and pool workers read, in shared memory without a lock: a worker killed while it reads
    (a pool restart terminates its workers mid-search) can leave nothing held, as a multiprocessing Event's lock
    would be, and the restarted pool's workers share the same flag."""

    def __init__(self, context: Any) -> None:
        self._value = context.RawValue(ctypes.c_bool, False)

    def set(self) -> None:
        self._value.value = True

    def is_set(self) -> bool:
        return bool(self._value.value)


@contextmanager
def relayed_stop(stop: Any | None, memory_mb: int | None = None) -> Iterator[StopFlag | None]:
    """The pool's stop flag for a run's ``stop`` (None for None; anything with ``is_set()``, which a thread asks
    every 20 ms while the block runs): set within some 20 ms of ``stop``, or at once if asking it raises."""
    if stop is None:
        yield None
        return
    flag = StopFlag(pool_context(memory_mb))
    finished = threading.Event()

    def relay() -> None:
        try:
            while not stop.is_set():
                if finished.wait(_STOP_RELAY_SECONDS):
                    return
        except Exception:  # a stop that cannot say is taken as set: the workers must not run on unstoppable
            pass
        flag.set()

    relayer = threading.Thread(target=relay, daemon=True, name="stich-stop-relay")
    relayer.start()
    try:
        yield flag
    finally:
        finished.set()
        relayer.join(timeout=5)


#: How long a stop waits for a pool's manager thread once its workers are gone (it then ends in milliseconds; the
#: bound is for a machine so loaded that the thread gets no time).
MANAGER_JOIN_SECONDS = 10.0


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: queued jobs are cancelled and running ones abandoned (their results would be recomputed by a
    rerun, since nothing of them was handed on). The processes are taken before the shutdown, which forgets them: taken
    after it, none would be stopped, and a Ctrl-C would wait for the running jobs to finish (a second one in that wait
    leaving the exit waiting for the workers for good)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # the shutdown forgets it too
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(1.0)
        if process.is_alive():  # still alive a second after SIGTERM: not going to stop by itself
            process.kill()
            process.join(1.0)
    # The pool's manager thread closes its wake-up pipe once it sees the workers gone; left running, it would race
    # Python's exit, which writes to that pipe unlocked (a CPython race, bpo-39995): a Ctrl-C would then end in an
    # "OSError: [Errno 9] Bad file descriptor" traceback. Joined here, the pipe is closed before the exit looks
    # (taken after the shutdown, it would be None: no join, and a loaded machine would lose the race more often).
    if manager is not None and manager is not threading.current_thread():
        manager.join(MANAGER_JOIN_SECONDS)


def _submit(pool: ProcessPoolExecutor, workers: int, task: Callable[..., Any], *args: Any) -> Future:
    """``pool.submit``, with SIGINT and SIGHUP ignored in this process while the call may start a worker process: a
    worker must ignore Ctrl-C (and a closed terminal's hangup) from its first instruction, since the terminal sends
    them to the whole process group, and a worker still importing stich (half a second when spawned under a memory
    cap) died of it with a KeyboardInterrupt traceback on the terminal. An ignored signal stays ignored across fork
    and exec, and Python leaves it so; a Ctrl-C in the millisecond of the start is lost (pressed again, it stops the
    run), a traceback is not shown."""
    starting = len(getattr(pool, "_processes", None) or ()) < workers
    job = bytes(ForkingPickler.dumps((task, args)))  # rebuilt by the worker's own code: _rebuilt_and_run
    ignored = HELD_WHILE_STARTING
    if (not starting or threading.current_thread() is not threading.main_thread()
            or None in map(signal.getsignal, ignored)):  # a handler from outside Python could not be put back
        return pool.submit(_rebuilt_and_run, job)
    terminate = signal.getsignal(signal.SIGTERM)
    previous: dict[signal.Signals, Any] = {signum: signal.signal(signum, signal.SIG_IGN) for signum in ignored}
    try:
        return pool.submit(_rebuilt_and_run, job)
    finally:
        # a stop that began meanwhile (a SIGTERM's handler) ignores the signals until the exit: not undone here
        if signal.getsignal(signal.SIGTERM) is terminate:
            restore_signals(previous)


def _rebuilt_and_run(job: bytes) -> Any:
    """A pool worker's job, sent pickled by :func:`_submit`: the task run on its arguments once they are rebuilt
    here. Rebuilding imports the modules of the objects in it (a bot of one's own's, :func:`load_in_workers`);
    where that fails, unpickled by the pool itself, the worker died and the run could only say that a job killed its
    worker (as if out of memory). Here it is the job's error, with the exception that stopped it."""
    try:
        task, args = pickle.loads(job)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - a bot module's own import code failed (or exited)
        raise StichError("a worker process could not rebuild its job (a bot of your own in it is imported there "
                         f"from its module's file): {type(error).__name__}: {error}") from None
    return task(*args)


def run_pool(jobs: Iterable[Any], task: Callable[..., Any], args: tuple, on_result: OnResult, workers: int,
             memory_mb: int | None = None, split: Callable[[Any], list[Any]] | None = None,
             failed: Callable[[Any], Any] | None = None, table_mb: int | None = None,
             stop: Any | None = None, in_flight: int = 4) -> None:
    """``task(job, *args)`` for every job on local worker processes, ``in_flight`` per worker in flight (the next
    job is taken from ``jobs`` only when one is back: 1 for long jobs that ``jobs`` stops at a deadline), each result
    handed to ``on_result(job, result)`` as soon as it is back.

    A worker that dies (killed, out of memory) breaks the whole pool: the jobs that were in flight are then
    submitted again to a new pool, so the results stay complete and, since a job's result is only handed on when it
    is whole, without duplicates. A job that was in flight at two breaks is a suspect: it is cut into parts
    (``split``, else kept whole) that then run one at a time with nothing beside them, so that a job that kills
    its worker is told from its neighbours; one that dies twice alone is handed to ``failed`` for its result (a
    batch's error lines), or without ``failed`` ends the run with a StichError. The pool is given up after
    MAX_POOL_RESTARTS breaks in a row with no job finished between them.

    ``stop`` (an Event) is passed on to the workers, where a task may ask :func:`worker_stop` and end its job early.

    A task that raises (a match's bot that fails) ends the run with its error, but only once the jobs in flight
    beside it are back and handed on: a match's boards before the failing one may still be in play on other workers.

    No more workers start than there are jobs (``min(workers, jobs)``, read off the first ``workers`` jobs), and only
    their cores are reserved in this process's budget (:data:`CORES`); no job, no pool.
    """
    if not is_whole_number(workers) or workers < 1:  # before its cores are reserved (a negative count frees some)
        raise StichError(f"workers is a whole number of worker processes, at least 1, not {workers!r}")
    if not is_whole_number(in_flight) or in_flight < 1:
        raise StichError(f"in_flight is a whole number of jobs a worker, at least 1, not {in_flight!r}")
    # no more workers than jobs: the first ``workers`` jobs are taken now (the pool would hand them out at once), so
    # that 1 board on -j 2 starts one process and holds one core, not two
    iterator = iter(jobs)
    first = list(itertools.islice(iterator, workers))
    if not first:
        return
    workers = len(first)
    # the workers' cores are this process's budget's too: its own questions meanwhile get no helpers on them
    with relayed_stop(stop, memory_mb) as stop_flag, CORES.reserved(workers):
        _run_pool(itertools.chain(first, iterator), task, args, on_result, workers, memory_mb, split, failed, table_mb,
                  stop_flag, in_flight)


def _run_pool(jobs: Iterable[Any], task: Callable[..., Any], args: tuple, on_result: OnResult, workers: int,
              memory_mb: int | None, split: Callable[[Any], list[Any]] | None, failed: Callable[[Any], Any] | None,
              table_mb: int | None, stop_flag: Any | None, in_flight: int) -> None:
    iterator = iter(jobs)
    # each job goes with its place in ``jobs`` (a part of a split job with its job's): of two failures side by side
    # the earlier job's is raised, the first board that fails, as one worker reports it
    retry: list[tuple[Any, int, int]] = []  # jobs to submit again, the breaks they were in flight at, their places
    suspects: deque[tuple[Any, int, int]] = deque()  # parts to run alone, the times they died alone, their places
    barren = 0  # breaks since a job last finished
    failure: tuple[int, Exception] | None = None  # a task's own error, by its place: raised once the jobs beside
    # it are back
    taken = 0
    pool = process_pool(workers, memory_mb, table_mb, stop_flag)
    try:
        pending: dict[Future, tuple[Any, int, bool, int]] = {}  # job, its count, whether it runs alone, its place
        while True:
            # A pool can break while jobs are handed to it (after a restart, a job that kills its worker at once,
            # before the next one is submitted): submit then raises BrokenProcessPool. The job not handed on goes
            # back where it came from, as it was, and the break is dealt with as one a future reports.
            broken = False
            if suspects:
                if not pending:
                    job, deaths, place = suspects.popleft()
                    try:
                        pending[_submit(pool, workers, task, job, *args)] = (job, deaths, True, place)
                    except BrokenProcessPool:
                        suspects.appendleft((job, deaths, place))
                        broken = True
            else:  # after a task's failure no new job is taken, but the jobs in flight at a break run again
                while len(pending) < in_flight * workers:
                    if retry:
                        job, count, place = retry.pop()
                    else:
                        job, count, place = next(iterator, None) if failure is None else None, 0, taken
                        taken += job is not None
                    if job is None:
                        break
                    try:
                        pending[_submit(pool, workers, task, job, *args)] = (job, count, False, place)
                    except BrokenProcessPool:
                        retry.append((job, count, place))
                        broken = True
                        break
            if not pending and not broken:
                break
            # a broken pool fails every job it holds at once: all are waited for, the finished ones handed on
            done, _ = wait(pending, return_when=ALL_COMPLETED if broken else FIRST_COMPLETED)
            victims = []
            for future in done:
                entry = pending.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    victims.append(entry)
                    continue
                except Exception as error:  # the job's own failure (a match's BotError): not the jobs beside it
                    if failure is None or entry[3] < failure[0]:
                        failure = (entry[3], error)
                    continue
                barren = 0
                on_result(entry[0], result)
            if not victims and not broken:
                continue
            barren += 1
            if barren > MAX_POOL_RESTARTS:
                raise StichError(f"worker processes died {barren} times in a row without finishing anything; "
                                 "giving up (rerun to resume)")
            victims.extend(pending.values())
            pending.clear()
            stop_pool(pool)
            pool = process_pool(workers, memory_mb, table_mb, stop_flag)
            for job, count, alone, place in victims:
                if alone:
                    if count + 1 < 2:
                        suspects.appendleft((job, count + 1, place))
                    elif failed is not None:
                        barren = 0
                        on_result(job, failed(job))
                    else:
                        raise StichError("a job killed its worker process twice while running alone (out of memory, "
                                         "or killed from outside); giving up (rerun to resume)")
                elif count + 1 < 2:
                    retry.append((job, count + 1, place))
                else:
                    suspects.extend((part, 0, place) for part in (split(job) if split is not None else [job]))
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)
    if failure is not None:
        raise failure[1]


def run_serial(jobs: Iterable[Any], task: Callable[..., Any], args: tuple, on_result: OnResult,
               table_mb: int | None = None, threads: int | None = None) -> None:
    """The jobs in this process, one after the other (no task overhead: each result is handed on when it is done),
    with tables of ``table_mb`` (None: the default) and ``threads`` search threads (None: the engine's default,
    every core) for this thread's worker engines only, so that other threads' calls in the meantime keep theirs."""
    previous = getattr(_local, "serial_tt_megabytes", _NO_RUN), getattr(_local, "serial_threads", None)
    _local.serial_tt_megabytes, _local.serial_threads = table_mb, threads
    try:
        for job in jobs:
            on_result(job, task(job, *args))
    finally:
        _local.serial_tt_megabytes, _local.serial_threads = previous


def serial_threads(workers: int | None) -> int | None:
    """The search threads of a run's jobs solved in this process (:func:`run_serial`): one where the caller asked for
    one worker (``-j 1``: one core, as each worker of a pool searches on one), else the engine's default (a run too
    small for a pool, or a one-core machine)."""
    return POOL_ENGINE_THREADS if workers == 1 else None


@dataclass(frozen=True)
class ChunkLimits:
    """When a chunk of a run's samples stops: ``time_limit`` seconds after ``started`` (``time.monotonic()``, one
    clock for every process of this machine; by default when the limits are made), its :attr:`deadline`, or once
    ``stop`` is set (an Event, where the chunk runs in the process that made it, :attr:`Pool.task_stop`; in a local
    pool's worker the run's stop comes as :func:`worker_stop`), except in the samples numbered below ``at_least``,
    which always finish (a report, or a bot's choice, needs one). An analysis asks :meth:`passed` before each sample
    (a sample begun is finished: a Zwanzigerrufen sample may take a second, a chunk ten of them); advice solves each
    sample under :meth:`stopping` (its settlement search stops inside it, and the sample is dropped whole, so that
    every contract or card keeps the same samples), and a search stopped at the deadline names ``time_limit``."""

    time_limit: float | None = None
    stop: Any | None = None  # a threading.Event (anything with is_set())
    at_least: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def deadline(self) -> float | None:
        """The ``time.monotonic()`` time at which no further sample is begun; None without a time limit."""
        return None if self.time_limit is None else self.started + self.time_limit

    def _stop(self) -> Any | None:
        return self.stop if self.stop is not None else worker_stop()

    def passed(self, k: int) -> bool:
        """Whether sample ``k`` is not to be begun."""
        if k < self.at_least:
            return False
        stop, deadline = self._stop(), self.deadline
        return (deadline is not None and time.monotonic() >= deadline) or (stop is not None and stop.is_set())

    def stopping(self, k: int) -> AbstractContextManager[None]:
        """The block in which sample ``k`` is solved by the settlement search."""
        stop, deadline = self._stop(), self.deadline
        if k < self.at_least or (deadline is None and stop is None):
            return nullcontext()
        left = None if deadline is None else TimeLeft.until(deadline, self.time_limit)
        return worker_settlement_engine().stopping(left, stop)


@dataclass(frozen=True)
class Pool:
    """Where a workload's jobs run: on the Dask cluster at ``scheduler`` (waiting at most ``worker_wait`` seconds
    for a first worker, telling ``notify`` so; Dask's log on stderr only when ``verbose``); else on ``workers`` local
    processes (default: every core), each within ``memory_mb`` and with tables of ``table_mb`` (None: the default),
    or in this process when that is one and no cap asks for a worker of its own. A cluster's workers size their own
    tables. ``stop`` (an Event) reaches local worker processes as :func:`worker_stop`; a task run in this process
    (one worker) or on a cluster does not see it there, and a caller passes it to such a task itself."""

    workers: int | None = None
    scheduler: str | None = None
    memory_mb: int | None = None
    worker_wait: float = DEFAULT_WORKER_WAIT_SECONDS
    notify: Notify | None = None
    verbose: bool = False
    table_mb: int | None = None
    stop: Any | None = None  # a threading.Event (anything with is_set()), passed on to local workers (worker_stop)

    def __post_init__(self) -> None:
        if self.scheduler:  # a cluster's workers are its own: the count is checked, never cut
            check_workers(self.workers)
        elif self.workers is not None:  # cut to the cores once, said once
            object.__setattr__(self, "workers", local_workers(self.workers))
        table_megabytes(self.table_mb)
        check_memory_limit(self.memory_mb)
        check_worker_wait(self.worker_wait)
        check_callback(self.notify, "notify")
        check_stop(self.stop, StichError)

    @property
    def runs_here(self) -> bool:
        """Whether its jobs run in this process (one local worker and no memory cap: :func:`run_serial`)."""
        return not self.scheduler and local_workers(self.workers) == 1 and self.memory_mb is None

    @property
    def task_stop(self) -> Any | None:
        """The ``stop`` a task reads itself (:class:`ChunkLimits`): the Event where the jobs run in this process; else
        None, since a local pool's worker reads it as :func:`worker_stop` and a cluster's task cannot read it."""
        return self.stop if self.runs_here else None

    @property
    def spread_over(self) -> int:
        """The workers its jobs are spread over, for sizing them: a cluster's count as given, never cut to this
        machine's cores nor warned about (None: those cores, the cluster's size being unknown until it is reached);
        else the local workers."""
        if self.scheduler:
            return check_workers(self.workers) or usable_cores()
        return local_workers(self.workers)

    def run(self, jobs: Iterable[Any], task: Callable[..., Any], args: tuple, on_result: OnResult, *,
            split: Callable[[Any], list[Any]] | None = None, failed: Callable[[Any], Any] | None = None,
            on_threads: Callable[[int], None] | None = None) -> None:
        """Every job run once and handed to ``on_result`` (see :func:`run_pool` and :func:`run_dask`, which tells
        ``on_threads`` the cluster's worker threads)."""
        if self.scheduler:
            run_dask(jobs, task, args, on_result, self.scheduler, worker_wait=self.worker_wait, notify=self.notify,
                     verbose=self.verbose, on_threads=on_threads)
            return
        count = local_workers(self.workers)
        if self.runs_here:
            run_serial(jobs, task, args, on_result, self.table_mb, serial_threads(self.workers))
        else:
            run_pool(jobs, task, args, on_result, count, self.memory_mb, split=split, failed=failed,
                     table_mb=self.table_mb, stop=self.stop)


# --- Dask ----------------------------------------------------------------------------------------------------------


@contextmanager
def dask_log(verbose: bool) -> Iterator[None]:
    """Dask's loggers kept quiet for the block unless ``verbose``: when its scheduler goes, Dask logs tracebacks on
    stderr before stich can say what happened in one line."""
    if verbose:
        yield
        return
    # every one of their loggers, since Dask gives some children levels of their own (distributed.client: warning)
    loggers = [logging.getLogger(name) for name in DASK_LOGGERS]
    loggers += [logger for name, logger in list(logging.root.manager.loggerDict.items())
                if isinstance(logger, logging.Logger) and name.startswith(tuple(f"{n}." for n in DASK_LOGGERS))]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


_build: str | None = None


def stich_build() -> str:
    """12 hex digits of the sha256 of this process's stich, each of its Python modules (the rules, the scoring, the
    drivers) by its path and bytes, read once: what a Dask worker's code is checked against, since ``stich 0.1.0`` is
    the same version on every commit. ``cli/`` is left out (``solver.cli``, the command line, which no worker runs,
    and which a wheel puts inside ``solver/`` where a source tree has it in ``cli/``), so that a wheel and a source
    tree of one commit are one build. The compiled engine's bytes are not compared (each machine builds its own, and
    two builds of the same sources differ): its answers are (:func:`engine_answers`)."""
    global _build
    if _build is None:
        package = Path(__file__).resolve().parent
        digest = hashlib.sha256()
        for path in sorted(package.rglob("*.py")):
            name = path.relative_to(package)
            if name.parts[0] != "cli":
                digest.update(name.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        _build = digest.hexdigest()[:12]
    return _build


#: The positions a compiled engine is checked on (:func:`engine_answers`): (game, seed, seats, objective, seat) of a
#: seeded whole deal (:func:`solver.generate.random_position`, board 1), solved with every card's value. The Kratzen
#: deal is one of six seats, whose search visits thousands of nodes (a three-seat deal's visits a few dozen).
ENGINE_CHECK_DEALS = (("Schafkopf", 7, None, "points", None), ("Kratzen", 66, 6, "tricks", 1),
                      ("Zwanzigerrufen", 7, None, "points", None))
_answers: str | None = None
_answers_lock = threading.Lock()


def engine_answers() -> str:
    """12 hex digits of the sha256 of this process's compiled engine's answers to :data:`ENGINE_CHECK_DEALS` (the
    value and every card's value of each, whatever STICH_IMPLEMENTATION says) and of the first one's settlement:
    what a Dask worker's engine is checked against beside its Python modules (:func:`stich_build`). Computed once a
    process (about 0.1 s), under a lock, since a worker started with ``--nthreads N`` runs N tasks at once. Only
    exact values count, not a line, which may differ between two builds of the same sources (the table's keys with or
    without bmi2). An engine built from other ``src_ext/`` sources that answers these otherwise is refused; one that
    answers them alike and differs elsewhere is not seen."""
    global _answers
    with _answers_lock:
        if _answers is None:
            from .generate import random_position
            from .search.settle import SettlementEngine
            from .settlement import settlement_value

            engine = EngineSolver(1, threads=1)
            digest = hashlib.sha256()
            for game, seed, seats, objective, seat in ENGINE_CHECK_DEALS:
                position = random_position(game, seed, 1, seats=seats)
                answer = engine.solve(position.state, position.objective(objective, seat), cards=True)
                digest.update(str(answer).encode())
            game, seed, seats = ENGINE_CHECK_DEALS[0][:3]
            settlement = settlement_value(random_position(game, seed, 1, seats=seats),
                                          engine=SettlementEngine(1, threads=1), reference_solver=False)
            digest.update(str(settlement).encode())
            _answers = digest.hexdigest()[:12]
        return _answers


def _on_this_build(build: str, answers: str, task: Callable[..., Any], job: Any, *args: Any) -> Any:
    """``task(job, *args)`` on a Dask worker whose stich is ``build`` and whose engine gives ``answers``, the
    driver's: a worker with another stich installed (an older copy on one node), or an engine built from other
    sources, would answer by its own rules, scoring or search, and its lines would mix with the others' unseen.
    Either is a StichError, raised in the driver, which stops the run."""
    here = stich_build()
    worker = getattr(_dask_worker(), "address", "")
    if here != build:
        raise StichError(f"the Dask worker {worker} runs another stich (build {here}, "
                         f"{Path(__file__).resolve().parent.parent}) than this run's (build {build}): its answers "
                         "would not be this stich's; install this run's stich, the same files, on every worker, "
                         f"{RESUME}")
    try:
        engine = engine_answers()
    except Exception as error:  # an engine that cannot solve the check deals: said, not a worker's traceback
        raise StichError(f"the compiled engine of the Dask worker {worker} failed on stich's check deals "
                         f"({type(error).__name__}: {error}): rebuild that worker's engine from this run's sources "
                         f"({REBUILD}), {RESUME}") from None
    if engine != answers:
        raise StichError(f"the Dask worker {worker} has another compiled engine than this run's: it answers stich's "
                         f"check deals otherwise (answers {engine}, this run's {answers}), so it was built from other "
                         f"sources; rebuild that worker's engine from this run's sources ({REBUILD}), {RESUME}")
    return task(job, *args)


def run_dask(jobs: Iterable[Any], task: Callable[..., Any], args: tuple, on_result: OnResult, scheduler: str, *,
             worker_wait: float = DEFAULT_WORKER_WAIT_SECONDS, notify: Notify | None = None,
             verbose: bool = False, on_threads: Callable[[int], None] | None = None) -> None:
    """``task(job, *args)`` for every job on the Dask cluster at ``scheduler``: about 4 jobs per worker thread in
    flight (counted again every DASK_RECOUNT_SECONDS, so that workers that join later get work, and told to
    ``on_threads``, which sizes the jobs still to come by them), finished futures
    gathered in batches (cheaper than one ``result()`` each) and released once handed on. A worker that dies is
    restarted by its nanny and the scheduler runs its jobs again elsewhere; a result is handed on only when it is
    whole. A scheduler without workers is waited for ``worker_wait`` seconds, ``notify`` told so; then StichError."""
    worker_wait = check_worker_wait(worker_wait)
    try:
        from dask.distributed import Client, wait as dask_wait
    except ImportError:
        raise StichError("--scheduler needs Dask: pip install 'stich[cluster]' (or \"dask[distributed]\")") from None
    build, answers = stich_build(), engine_answers()
    with dask_log(verbose):
        client = _dask_client(Client, scheduler)
        with client:
            threads = max(1, _wait_for_workers(client, scheduler, worker_wait, notify))
            slots, counted = 4 * threads, time.monotonic()
            if on_threads is not None:
                on_threads(threads)
            pending: dict[Any, Any] = {}  # future: its job
            iterator = iter(jobs)
            exhausted = False
            try:
                while True:
                    if time.monotonic() - counted >= DASK_RECOUNT_SECONDS:
                        threads = _wait_for_workers(client, scheduler, worker_wait, notify, len(pending))
                        slots, counted = 4 * max(1, threads), time.monotonic()
                        if on_threads is not None:
                            on_threads(max(1, threads))
                    while not exhausted and len(pending) < slots:
                        job = next(iterator, None)
                        if job is None:
                            exhausted = True
                            break
                        pending[client.submit(_on_this_build, build, answers, task, job, *args, pure=False)] = job
                    if not pending:
                        break
                    try:  # not for ever: a cluster whose workers all left finishes nothing (_wait_for_workers)
                        finished = list(dask_wait(list(pending), timeout=DASK_RECOUNT_SECONDS,
                                                  return_when="FIRST_COMPLETED").done)
                    except TimeoutError:
                        continue
                    for future, result in zip(finished, client.gather(finished)):
                        on_result(pending.pop(future), result)
                        future.release()
            except BaseException as error:
                killed = _killed_jobs(pending, error)  # before the cancels below, which hide which tasks erred
                given_up = _gave_up(client)  # its cancel raises
                connected = client.status == "running"  # "connecting" while Dask's client tries to reconnect
                if not given_up:
                    for future in pending:
                        future.cancel()
                if isinstance(error, StichError):  # the run's own (a worker of another build, none left)
                    raise
                if given_up and isinstance(error, (RuntimeError, AttributeError)):
                    raise _scheduler_went_away(scheduler, "Dask's client gave up reconnecting to it",
                                               mid_run=True) from None
                if isinstance(error, ImportError):  # the scheduler or a worker without stich
                    raise StichError(f"the Dask cluster at {scheduler} cannot run stich's tasks ({error}): install "
                                     "this run's stich, with its compiled engine, where the scheduler and the workers "
                                     f"run, {RESUME}") from None
                if isinstance(error, RuntimeError) and "deserialization of the task graph" in str(error):
                    # the scheduler unpickles the tasks: without stich, or with another one, it cannot (Dask's words
                    # after a traceback were "... if the Scheduler and Client have different environments")
                    cause = error.__cause__ or error
                    raise StichError(f"the Dask scheduler at {scheduler} cannot read stich's tasks "
                                     f"({_dask_said(cause)}): install this run's stich, with its compiled engine, "
                                     f"where the scheduler runs, and restart it, {RESUME}") from None
                if killed:  # the scheduler's allowed-failures used up
                    raise _killed_worker(scheduler, error, killed) from None
                if _scheduler_lost(error, connected):
                    lost = SCHEDULER_LOST in _cancel_reasons(error)  # Dask's words name every future
                    raise _scheduler_went_away(scheduler, "Dask's client lost the connection to it" if lost
                                               else _dask_said(error), mid_run=True) from None
                if isinstance(error, OSError) or isinstance(error, Exception) and type(error).__module__.split(".")[0] \
                        in ("distributed", "tornado", "asyncio", "concurrent"):
                    raise StichError(f"the Dask cluster at {scheduler} failed ({_dask_said(error)}): --verbose shows "
                                     f"Dask's own log; {RESUME}") from None
                raise


def _killed_jobs(pending: dict[Any, Any], error: BaseException) -> list[Any]:
    """The jobs of ``pending`` (future: job, in the order sent) the scheduler gave up on when ``error`` is Dask's
    KilledWorker: every task on the worker when it died is given up at once, the queued, and one finished whose news
    had not reached the scheduler, beside the running, so the one ``error`` names need not be the one that killed it."""
    if type(error).__name__ != "KilledWorker":
        return []
    key = getattr(error, "task", None)
    return [job for future, job in pending.items() if future.key == key or future.status == "error"
            and type(future.exception()).__name__ == "KilledWorker"]


def _killed_worker(scheduler: str, error: Any, jobs: list[Any]) -> StichError:
    """What a run says of the tasks the scheduler gave up on (Dask's KilledWorker: its workers died more often than
    ``distributed.scheduler.allowed-failures``): how often, the last worker's address and the records of ``jobs``
    (chunks of :class:`solver.batch.Item`), from the error's fields rather than Dask's paragraph, which names the
    task by its key and links Dask's documentation."""
    deaths = getattr(error, "allowed_failures", 0) + 1
    last = getattr(getattr(error, "last_worker", None), "address", "an unknown worker")
    chunks = [[item.id for item in job if isinstance(getattr(item, "id", None), str)] if isinstance(job, list)
              else [] for job in jobs]
    spans = [f"{ids[0]} to {ids[-1]}" if len(ids) > 1 else ids[0] for ids in chunks if ids]
    count = sum(map(len, chunks))
    held = "running a task" if not spans else f"running record {spans[0]}" if count == 1 else \
        f"running {count:,} records, {spans[0]}" if len(spans) == 1 else \
        f"holding {count:,} records in {len(spans)} tasks ({'; '.join(spans)})"
    return StichError(f"the Dask scheduler at {scheduler} gave up: its workers died {_times(deaths)} {held}, the "
                      f"last on {last}: see that worker's log for why (out of memory, killed from "
                      f"outside), {RESUME}")


def _times(count: int) -> str:
    """``count`` as how often: once, twice, 3 times."""
    return {1: "once", 2: "twice"}.get(count, f"{count:,} times")


#: The reason Dask gives for the futures it cancels when its client loses the connection to the scheduler.
SCHEDULER_LOST = "scheduler-connection-lost"


def _scheduler_lost(error: BaseException, connected: bool) -> bool:
    """Whether ``error``, which stopped a run mid-way, means that the connection to the scheduler closed: Dask's
    client no longer connected (it tries to reconnect), the futures cancelled for :data:`SCHEDULER_LOST` (a
    scheduler stopped), or an OSError of Dask's or tornado's own (CommClosedError, StreamClosedError: one killed).
    Any other OSError, such as one a task raised on a worker out of file handles, is the cluster failing, not the
    scheduler gone."""
    if not isinstance(error, Exception):
        return False
    if not connected or SCHEDULER_LOST in _cancel_reasons(error):
        return True
    return isinstance(error, OSError) and type(error).__module__.split(".")[0] in ("distributed", "tornado")


def _cancel_reasons(error: BaseException) -> set[str]:
    """The reasons Dask gives for the futures ``error`` says were cancelled: its ``reason`` (a FutureCancelledError)
    or each of its groups' (a FuturesCancelledError, one group a reason); none for any other error."""
    reason = getattr(error, "reason", None)
    groups = getattr(error, "error_groups", ())
    return ({reason} if isinstance(reason, str) else set()) | {getattr(group, "reason", "") for group in groups}


def _one_line(error: BaseException) -> str:
    """Dask's message on one line, without its list of futures (a cancelled run names every one)."""
    return " ".join(line.strip() for line in str(error).splitlines() if line.strip()
                    and not line.startswith("Futures:"))


def _dask_said(error: BaseException) -> str:
    """Dask's error as a message quotes it: its type and :func:`_one_line`."""
    return f"{type(error).__name__}: {_one_line(error)}"


def _gave_up(client: Any) -> bool:
    """Whether Dask's client has given up reconnecting to a scheduler that went away: it is closed then, cancels
    nothing more (its cancel raises), and its count of the workers fails on its closed connections."""
    return client.status in ("closing", "closed")


def _wait_for_workers(client: Any, scheduler: str, seconds: float, notify: Notify | None,
                      in_flight: int | None = None) -> int:
    """The scheduler's worker threads, once it has a worker: Dask waits for ever for one (at the start, and mid-run
    on the unfinished tasks when every worker left), so the run says that it waits, waits ``seconds``
    (``--worker-wait``; 0 gives up at once, which Dask's own wait reads as no timeout), then gives up with a
    StichError. ``in_flight``: mid-run, the tasks unfinished (their results handed on so far are kept). At the
    start, a scheduler that goes away is said as such, not as a wait for workers given up, whether Dask's client still
    tries to reconnect (for its connect timeout, 30 s by default) or has given up; mid-run its error is the run's own
    (:func:`run_dask`)."""
    try:
        threads = sum(client.nthreads().values())
    except OSError as error:
        if in_flight is not None:
            raise
        raise _scheduler_went_away(scheduler, _dask_said(error)) from None
    except (RuntimeError, AttributeError):
        # a client that has given up reconnecting is closed: its count fails on its closed connections
        if in_flight is not None or not _gave_up(client):
            raise
        raise _scheduler_went_away(scheduler, "Dask's client gave up reconnecting to it") from None
    if threads:
        return threads
    if in_flight is not None:  # a worker restarted by its nanny is gone from the scheduler for a moment: not left
        try:
            client.wait_for_workers(1, timeout=WORKER_RESTART_SECONDS)
            return sum(client.nthreads().values())
        except TimeoutError:
            pass
    if seconds > 0:
        if notify is not None:
            notify(f"waiting for a Dask worker to join the scheduler at {scheduler} (giving up after {seconds:g} s: "
                   "--worker-wait)" if in_flight is None else "every Dask worker left the scheduler at "
                   f"{scheduler}: waiting for one to join (giving up after {seconds:g} s: --worker-wait)")
        try:
            client.wait_for_workers(1, timeout=seconds)
            return sum(client.nthreads().values())
        except TimeoutError:  # Dask's WorkerStartTimeoutError: the wait given up
            pass
        except OSError as error:  # the scheduler gone (a TimeoutError is an OSError too: caught above)
            if in_flight is not None:
                raise
            raise _scheduler_went_away(scheduler, _dask_said(error)) from None
    if in_flight is None:
        raise StichError(f"no Dask worker joined the scheduler at {scheduler} in {seconds:g} s: start workers "
                         f"('dask worker {scheduler}'), or wait longer with --worker-wait SECONDS") from None
    raise StichError(f"every Dask worker left the scheduler at {scheduler} and none joined in {seconds:g} s, "
                     f"with {in_flight:,} task{'' if in_flight == 1 else 's'} unfinished: start workers "
                     f"('dask worker {scheduler}'), {RESUME}") from None


#: How a worker's engine is rebuilt from this run's sources, in a checkout of them.
REBUILD = ("'pip install -e .' in a checkout of them for an editable install, else 'pip install --force-reinstall "
           "--no-deps .'")
#: How every message of a run stopped on a cluster ends, once results may have been handed on.
RESUME = "then rerun to resume (every result handed on so far is kept)"


def _start_again(scheduler: str) -> str:
    """What to start again after the scheduler at ``scheduler`` went away: it, on its protocol and port, and its
    workers, which Dask stops with it (a ``dask worker`` whose scheduler is gone closes)."""
    return (f"start it again ('{_scheduler_command(scheduler)}') and its workers ('dask worker {scheduler}'), which "
            "stop with it")


def _scheduler_command(scheduler: str) -> str:
    """The command that starts a scheduler at ``scheduler``: on its port, and on its protocol where that is not
    Dask's default, tcp."""
    match = _NETWORK_ADDRESS.fullmatch(scheduler)
    port = match["port"] if match is not None and match["port"] else str(DASK_SCHEDULER_PORT)
    protocol = match["protocol"] if match is not None and match["protocol"] else "tcp"
    return f"dask scheduler --port {port}" if protocol == "tcp" else \
        f"dask scheduler --protocol {protocol} --port {port}"


def _scheduler_went_away(scheduler: str, cause: str, mid_run: bool = False) -> StichError:
    """What a run says of a scheduler that went away, before its jobs were sent or ``mid_run``: that, with Dask's
    words for it, and what to start again."""
    if not mid_run:
        return StichError(f"the Dask scheduler at {scheduler} went away before the run sent it a job ({cause}): "
                          f"{_start_again(scheduler)}, then rerun")
    return StichError(f"the Dask scheduler at {scheduler} went away mid-run ({cause}): {_start_again(scheduler)}, "
                      f"{RESUME}")


#: How long a running cluster may show no worker before the run says every worker left: a nanny restarts a killed
#: worker within about a second, in which the scheduler counts none.
WORKER_RESTART_SECONDS = 5.0
#: How long the probe of a scheduler's address waits for the connection to be accepted (Dask's own wait is longer).
SCHEDULER_PROBE_SECONDS = 5
#: How long a refused connection is tried again: a scheduler started just before the run (a script's) takes some
#: seconds to listen, which Dask's own retries had waited for.
SCHEDULER_START_SECONDS = 10
#: A network address: HOST, HOST:PORT, [IPV6]:PORT, after an optional protocol (all but ucx:// run over TCP).
_NETWORK_ADDRESS = re.compile(r"(?:(?P<protocol>tcp|tls|ucx|ws|wss)://)?"
                              r"(?P<host>[^\[\]:/]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]+))?")


#: The port a Dask scheduler listens on unless told otherwise (``dask scheduler --port``).
DASK_SCHEDULER_PORT = 8786


def scheduler_with_port(scheduler: str) -> str:
    """A TCP scheduler address with Dask's default port where it names none (``tcp://10.0.0.5``): Dask itself
    refuses one without ("missing port number"), so the library completes it as ``--scheduler`` always has."""
    scheduler = scheduler.strip()
    match = _NETWORK_ADDRESS.fullmatch(scheduler)
    return scheduler if match is None or match["port"] else f"{scheduler}:{DASK_SCHEDULER_PORT}"


def _probe_scheduler(scheduler: str) -> None:
    """A StichError where nothing can listen at a TCP ``scheduler`` address: at once for a host name that does not
    resolve, within :data:`SCHEDULER_START_SECONDS` for a port that refuses the connection (a scheduler not started,
    or still starting, a mistyped port). Dask retries those for its whole 30 s timeout and then says "Timed out",
    which hides the cause. Anything else (an accepted connection, a slow network) is left to Dask's own
    connection."""
    match = _NETWORK_ADDRESS.fullmatch(scheduler)
    if match is None or match["protocol"] == "ucx":  # not a TCP socket to probe
        return
    host, port = match["host"].strip("[]"), int(match["port"] or DASK_SCHEDULER_PORT)
    if not 0 < port < 65536:  # not a port: Dask's own parser says so
        return
    deadline = time.monotonic() + SCHEDULER_START_SECONDS
    while True:
        try:
            socket.create_connection((host, port), timeout=SCHEDULER_PROBE_SECONDS).close()
        except socket.gaierror as error:
            raise StichError(f"cannot use the Dask scheduler {scheduler!r}: the host {host!r} is not known "
                             f"({error.strerror}); check the address") from None
        except ConnectionRefusedError:
            if time.monotonic() < deadline:  # a scheduler still starting listens within seconds
                time.sleep(0.25)
                continue
            raise StichError(f"cannot use the Dask scheduler {scheduler!r}: nothing listens at port {port} of {host} "
                             f"(connection refused): start the scheduler ('{_scheduler_command(scheduler)}'), or check "
                             "the address") from None
        except OSError:  # a timeout, an unreachable network: Dask's own connection tries and says
            pass
        return


def _dask_client(client_class: Any, scheduler: str) -> Any:
    """A Dask client connected to ``scheduler``, or a StichError within DASK_CONNECT_SECONDS: whatever the peer at
    that address does (nothing, or bytes that are not Dask's), the message says so and no traceback follows."""
    scheduler = scheduler_with_port(scheduler)
    _probe_scheduler(scheduler)
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = client_class(scheduler, timeout="30s")
        except BaseException as error:  # noqa: BLE001 - handed to the caller as a message
            box["error"] = error

    thread = threading.Thread(target=connect, name="stich-dask-connect", daemon=True)
    thread.start()
    thread.join(DASK_CONNECT_SECONDS)
    if thread.is_alive():
        raise StichError(f"cannot use the Dask scheduler {scheduler!r}: no answer in {DASK_CONNECT_SECONDS} s (a "
                         "web server, such as the dashboard, waits for a request Dask never sends): check that a Dask "
                         "scheduler listens at that address")
    if "error" in box:
        error = box["error"]
        if _read_garbage(error):
            # Dask read a peer's bytes as a message frame: an HTTP answer gave "MemoryError: Unable to allocate
            # 3.07 EiB" or "ValueError: Maximum allowed dimension exceeded", which named nothing of the cause
            cause = ("what answers at that address does not speak Dask's protocol (a scheduler listens at "
                     f"{DASK_SCHEDULER_PORT} unless told)")
            raise StichError(f"cannot use the Dask scheduler {scheduler!r}: {cause}; check the address") from None
        raise StichError(f"cannot use the Dask scheduler {scheduler!r}: {type(error).__name__}: {error}") from None
    return box["client"]


def _read_garbage(error: BaseException) -> bool:
    """Whether Dask's connection failed by reading bytes that are no Dask frame (a web server's answer): a frame
    length read from text asks for exabytes, or an array beyond numpy's dimensions, or the frame does not decode.
    Other errors (a TLS address without its settings, an unknown protocol) keep Dask's own words."""
    return (isinstance(error, (MemoryError, AssertionError))
            or (isinstance(error, ValueError) and "dimension" in str(error))
            or type(error).__module__.startswith("msgpack"))


# --- one job at a time, stoppable -----------------------------------------------------------------------------------


_SOLO_CODE = "import sys; from solver.workers import serve_solo; serve_solo(int(sys.argv[1]), sys.argv[2])"


def serve_solo(fd: int, target: str) -> None:
    """A :class:`SoloWorker` child's loop on the connection ``fd``: for each job, ``target(job, started)`` (a
    ``module:function`` name) whose ``started()`` says when the part under the time limit begins, then its result
    (or its error) sent back."""
    init_worker(os.getppid(), engine_threads=None)  # the job's own engine options say its threads
    module, _, name = target.partition(":")
    function = getattr(import_module(module), name)
    conn = Connection(fd)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        try:
            conn.send(function(job, lambda: conn.send("start")))
        except Exception as error:  # noqa: BLE001 -- handed to the parent, which raises it
            conn.send(error)


class SoloWorker:
    """A child process that runs one job at a time, so that a job running over its time limit can be stopped (a
    compiled search holds no Python checkpoints to interrupt): the benchmark's worker.

    A plain interpreter started with ``-c`` rather than a multiprocessing child: it neither re-imports the caller's
    main module (which a spawned child would, and a script without a main guard would then run twice) nor inherits
    a forked copy of the caller's threads. With ``package_root`` it imports the solver package found there (the
    benchmark's pinned copy) instead of the caller's. Like a pool worker it ignores SIGINT and exits with its
    parent."""

    def __init__(self, target: str, package_root: Path | None = None) -> None:
        self._conn, child = multiprocessing.Pipe()
        env = dict(os.environ)
        cwd = None
        if package_root is not None:  # first on the path (and the working directory, which ``-c`` puts first)
            cwd = str(package_root)
            env["PYTHONPATH"] = os.pathsep.join(p for p in (cwd, env.get("PYTHONPATH", "")) if p)
        self._process = subprocess.Popen([sys.executable, "-c", _SOLO_CODE, str(child.fileno()), target],
                                         pass_fds=(child.fileno(),), env=env, cwd=cwd)
        child.close()

    def run(self, job: Any, limit_s: float) -> Any | None:
        """The job's result, or None when it ran past ``limit_s`` after it said it started (the worker is then
        unusable: :meth:`close` it with ``stop``)."""
        self._conn.send(job)
        self._receive()  # "start" (an error while preparing the job is raised here)
        if not self._conn.poll(limit_s):
            return None
        return self._receive()

    def _receive(self) -> Any:
        try:
            message = self._conn.recv()
        except EOFError:
            raise RuntimeError(f"the worker process died (exit code {self._process.poll()})") from None
        if isinstance(message, BaseException):
            raise message
        return message

    def close(self, stop: bool = False) -> None:
        """Let an idle worker exit; ``stop`` kills one that is still at work."""
        if not stop and self._process.poll() is None:
            try:
                self._conn.send(None)
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._conn.close()


__all__ = ["Pool", "SoloWorker", "check_memory_limit", "local_workers", "run_dask", "run_pool", "worker_engine"]
