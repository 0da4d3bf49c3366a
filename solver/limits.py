"""The defaults, bounds and choices of the pool, the sampling, the bots, the benchmark, the batch and the tree that the
commands' options show in their help or check. They live here, in a module that imports nothing, so that ``stich X
--help`` and shell completion load none of the machinery they belong to (the worker pool's multiprocessing, the
sampler, the bots); each of those modules imports its own from here, so they are its names too
(``solver.workers.MAX_WORKER_MEMORY_MB``)."""

from __future__ import annotations

#: The smallest worker memory limit accepted: a spawned worker maps some 115 MB of address space (the interpreter,
#: numpy, the compiled package) before its table, which must fit in what is left (153 MB was the least that ran).
MIN_WORKER_MEMORY_MB = 256
MAX_WORKER_MEMORY_MB = 1 << 30  # 1 PiB: in bytes it still fits setrlimit's C long
#: How long a run waits for a first worker to join a Dask scheduler that has none, unless told (``--worker-wait``).
DEFAULT_WORKER_WAIT_SECONDS = 120.0
MAX_WORKER_WAIT_SECONDS = 1_000_000.0  # about 11.6 days

#: The most samples one analysis takes (some 30 hours of one core at a few milliseconds a sample).
MAX_SAMPLES = 10_000_000
#: The most deals one ``stich bench`` line times: a run saved with ``--out`` keeps each deal's time and nodes (some
#: 400 bytes a deal a line), and a run of all its lines at this count stays well inside what ``--compare`` reads
#: back (``cli.bench.MAX_SAVED_RUN_BYTES``).
MAX_BENCH_DEALS = 10_000
#: A sampling bot's samples a card unless told.
DEFAULT_SAMPLES = 50
#: What a bot may play for: the settlement (``score``: game units; chips in a game paid from a pot, where only the
#: declarer plays for it) or the card points (else the seat's tricks).
PLAYS_FOR = ("score", "points")

#: A benchmark's solve is stopped after this many seconds and recorded at the limit.
DEFAULT_LIMIT_S = 60.0
MAX_LIMIT_S = 1_000_000.0  # about 11.6 days: a longer wait overflows the poll's clock

#: The board's time limit of one question (card values, the post-mortem, the odds) unless told, in seconds.
DEFAULT_BOARD_TIME_LIMIT_S = 120.0

#: The most records a batch chunk (``--chunk-size``) holds.
MAX_CHUNK_SIZE = 1_000_000

#: How many nodes ``stich tree`` builds at most unless told (``--max-nodes``): about 1 GB of memory as GraphML.
DEFAULT_MAX_NODES = 100_000
#: The largest ``max_nodes`` taken (a tree that size would need terabytes).
MAX_TREE_NODES = 1_000_000_000
