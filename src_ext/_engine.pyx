# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""solver._engine: the compiled double-dummy engine, and its only Python boundary.

Everything is loaded as plain Python ints and lists by solver/search/engine.py, which validates the input first;
the loaders here check every index and count again before it touches a C array, so no input can crash the
interpreter. The searches themselves run without the GIL over plain C data (see search.pxd); with ``threads`` above
1, a question's value or every card's value runs on that many threads sharing the table (parallel.pxd), started and
joined inside the method call.
"""

from libc.stdint cimport uint64_t, uint32_t, uint8_t
from libc.string cimport memset, memcmp
from libc.stdlib cimport malloc, calloc, free
from cardset cimport popcount, lowest, drop_lowest, expand, nth, CompressMask, prepare_compress, compress_prepared, \
    STICH_FAST_PEXT, stich_soft_compress_prepare, stich_soft_compress_with, stich_soft_pdep, stich_soft_nth
from types cimport (Tables, Objective, State, MAX_CARDS, MAX_SEATS, MAX_CLASSES, MAX_LEVELS, MAX_SPECIALS,
                    MAX_POINT_STEPS, MAX_ORDER, MAX_EVENTS, MAX_RESERVATIONS, MAX_POINT_LEVELS, NO_CARD, INFINITY)
from movegen cimport legal_cards, representatives, current_winner
from bounds cimport future_upper_bound, sure_bounds, trick_bounds
from order cimport order_moves
from tt cimport Table, table_init, table_free, table_new_generation, table_bytes, table_bytes_used, table_at_least, \
    PARALLEL_BYTES, PARALLEL_HALF_TRICKS
from search cimport Search, Options, question_options, heuristic_playout, exact_value_card, search, exact_value, \
    reaches, play_card, perft, mover_maximises, interrupted, DRIVER_MTDF, DRIVER_BISECT, DRIVER_WINDOW, ABORT_DONE, \
    ABORT_STOP, BUSY_MASK
from parallel cimport Shared, Worker, worker_main, join_question, no_best, DEFER_MIN_CARDS, MAX_THREADS, \
    WORK_VALUE, WORK_CARDS, WORK_ROOT, WORK_SETTLE, PARALLEL_MIN_TRICKS, WAIT_US
from atomic cimport pthread_t, thread_start, pthread_join, load_flag, store_flag, latch_init, \
    latch_count_down, latch_wait, latch_destroy, latch_count

from settle cimport Payoff, Settle, settle_value, settle_line, final_payoff, MAX_COMPONENTS, MAX_THRESHOLDS, \
    MAX_PAYOFFS, PAYOFF_LIMIT

from solver.errors import EngineError, SearchStopped

DRIVERS = {"mtdf": DRIVER_MTDF, "bisect": DRIVER_BISECT, "window": DRIVER_WINDOW}
LIMITS = {"cards": MAX_CARDS, "seats": MAX_SEATS, "classes": MAX_CLASSES, "levels": MAX_LEVELS,
          "specials": MAX_SPECIALS, "order": MAX_ORDER, "events": MAX_EVENTS, "reservations": MAX_RESERVATIONS,
          "threads": MAX_THREADS}


def card_count(uint64_t mask):
    """Number of cards in a mask."""
    return popcount(mask)


def card_indices(uint64_t mask):
    """The card indices of a mask, lowest first."""
    result = []
    while mask:
        result.append(lowest(mask))
        mask = drop_lowest(mask)
    return result


def compress_bits(uint64_t word, uint64_t mask, bint portable=False):
    """The bits of ``word`` under ``mask`` packed down to the low bits, as the table keys pack them (for the tests
    that check the engine's compress against a plain reference); ``portable``: by the portable C rounds, which a
    BMI2 build never runs otherwise."""
    cdef CompressMask prepared
    if portable:
        stich_soft_compress_prepare(&prepared, mask)
        return stich_soft_compress_with(word, &prepared)
    prepare_compress(&prepared, mask)
    return compress_prepared(word, &prepared)


def compress_words(words, uint64_t mask, bint portable=False):
    """Each of ``words`` packed under one ``mask`` prepared once, as search.pxd packs a table key's words."""
    cdef CompressMask prepared
    if portable:
        stich_soft_compress_prepare(&prepared, mask)
        return [stich_soft_compress_with(<uint64_t>word, &prepared) for word in words]
    prepare_compress(&prepared, mask)
    return [compress_prepared(<uint64_t>word, &prepared) for word in words]


def expand_bits(uint64_t word, uint64_t mask, bint portable=False):
    """The low bits of ``word`` spread to the places of ``mask``'s set bits (compress undone)."""
    return stich_soft_pdep(word, mask) if portable else expand(word, mask)


def nth_bit(uint64_t mask, int n, bint portable=False):
    """The ``n``-th set bit of ``mask`` alone (0 <= n < 64), 0 when it has fewer."""
    if not 0 <= n < 64:
        raise ValueError(f"bit place out of range: n = {n!r} (allowed 0..63)")
    return stich_soft_nth(mask, n) if portable else nth(mask, n)


FAST_PEXT = bool(STICH_FAST_PEXT)      # True: the engine compresses with BMI2's pext and pdep (setup.py)


cdef int _check(object value, int low, int high, str what) except -1:
    if not (low <= value <= high):
        raise ValueError(f"engine input out of range: {what} = {value!r} (allowed {low}..{high})")
    return 0


cdef uint64_t _mask(object value, int n_cards, str what) except? 0:
    if value < 0 or value >> n_cards:
        raise ValueError(f"engine input out of range: {what} holds a card beyond {n_cards}")
    return <uint64_t>value


cdef int _fill_objective(Objective* o, object max_side, object points_weight, object trick_weight, list events,
                         str what) except -1:
    """Range-check one additive objective (a question, or a settlement component) and write it into ``o``."""
    cdef int i
    memset(o, 0, sizeof(Objective))
    _check(max_side, 0, (1 << MAX_SEATS) - 1, f"{what} max_side")
    _check(points_weight, 0, 100, f"{what} points_weight")
    _check(trick_weight, 0, 100, f"{what} trick_weight")
    _check(len(events), 0, MAX_EVENTS, f"{what} events")
    o.max_side = max_side
    o.points_weight = points_weight
    o.trick_weight = trick_weight
    o.n_events = len(events)
    for i, (present, absent, winner, not_winner, last, reward, beaters) in enumerate(events):
        o.event_beaters[i] = _mask(beaters, MAX_CARDS, "event beaters")
        o.event_present[i] = _mask(present, MAX_CARDS, "event cards")
        o.event_absent[i] = _mask(absent, MAX_CARDS, "event absent cards")
        _check(winner, -1, MAX_CARDS - 1, "event winner")
        _check(not_winner, -1, MAX_CARDS - 1, "event not-winner")
        _check(reward, 0, 1000, "event reward")
        o.event_winner[i] = winner
        o.event_not_winner[i] = not_winner
        o.event_last[i] = 1 if last else 0
        o.event_reward[i] = reward
    return 0


cdef int _signature_planes(const Tables* t, list signatures, uint64_t* planes, str what) except -1:
    """Number the signatures of each class 0, 1, ... in card order and write each card's number as bits of the
    planes (``planes[j]`` holds the cards whose number has bit j): packed down to the live cards, the planes spell
    the live cards' signatures in rank order (the table keys, search.pxd). Returns the planes in use."""
    cdef int c, j, number, used = 0
    _check(len(signatures), t.n_cards, t.n_cards, what + "s")
    numbers = {}
    per_class = {}
    for c in range(t.n_cards):
        _check(signatures[c], 0, 1 << 20, what)
        key = (t.card_class[c], signatures[c])
        if key not in numbers:
            numbers[key] = per_class.get(t.card_class[c], 0)
            per_class[t.card_class[c]] = numbers[key] + 1
        number = numbers[key]
        _check(number, 0, 63, what + "s in a class")
        _set_planes(planes, c, number)
        used = max(used, (<object>number).bit_length())
    return used


cdef void _set_planes(uint64_t* planes, int card, int number):
    """Bit planes of a number per card: ``planes[j]`` holds ``card`` where ``number`` has bit j (0 <= number < 64)."""
    cdef int j
    for j in range(6):
        if (number >> j) & 1:
            planes[j] |= (<uint64_t>1) << card


cdef int _contiguous(uint64_t mask):
    """Whether the set bits of ``mask`` are one run (no other bit between them)."""
    if mask == 0:
        return 1
    mask >>= lowest(mask)
    return (mask & (mask + 1)) == 0


cdef void _representative_planes(Tables* t):
    """The planes of :func:`representatives`' bit-parallel form: (class, signature) numbered over the pack, and
    whether the form's premise holds: each class's cards are one run of card numbers (no card of another class
    between two of them), and each card's stronger cards are exactly the higher ones of its class."""
    cdef int c, k
    numbers = {}
    for c in range(t.n_cards):
        number = numbers.setdefault((t.card_class[c], t.signature[c]), len(numbers))
        if number < 64:
            _set_planes(t.rep_plane, c, number)
    t.n_rep_planes = (<object>(len(numbers) - 1)).bit_length()
    t.rep_by_planes = 1 if len(numbers) <= 64 and all(
        _contiguous(t.class_mask[k]) for k in range(t.n_classes)) and all(
        t.stronger[c] == t.class_mask[t.card_class[c]] & ~((2 << c) - 1) & 0xFFFFFFFFFFFFFFFF
        for c in range(t.n_cards)) else 0


cdef class Engine:
    """One engine: rule tables, an objective, a root position and a transposition table of fixed size."""

    cdef Tables tables
    cdef Objective objective
    cdef State root
    cdef Table table
    cdef Options options
    cdef int loaded
    cdef int wants_canonical
    cdef readonly uint64_t nodes
    cdef readonly uint64_t table_hits
    cdef readonly uint64_t cutoffs
    cdef readonly uint64_t iterations
    cdef readonly uint64_t quasi_hits
    cdef readonly uint64_t table_bytes
    cdef uint64_t profile[16]
    cdef State proved_root                    # the root of the last value(), and a card proved to keep its value
    cdef int proved_card
    cdef int proved_value
    cdef public object stop_check             # None, or () -> bool asked every POLL_EVERY nodes (search.pxd)
    cdef object _searched_check               # the stop check the last search began with, which its threads borrow:
                                              # held here, so stop_check can be changed while a search runs
    cdef int _threads
    cdef Shared* _running                     # the question's shared record while its threads search, else NULL
    cdef readonly list thread_nodes           # each thread's nodes in parallel questions since the counters were reset
    cdef readonly list thread_seconds         # each thread's processor time in parallel questions since the
                                              # counters were reset (the busiest: the wall time on an idle machine)
    cdef public bint root_split               # the exact value on several threads by the root split, not lazy SMP
                                              # (parallel.pxd; switched off for measuring)
    cdef public bint defer_busy               # the value's threads defer the cards another is searching (parallel.pxd)
    cdef public int parallel_min_tricks       # fewer tricks left at the root: one thread (parallel.pxd; tests lower it)

    def __cinit__(self, int tt_megabytes=64, bint use_table=True, bint use_equivalence=True,
                  bint use_bounds=True, bint use_ordering=True, str driver="mtdf", bint use_canonical=True,
                  bint use_fast_end=True, bint use_lookahead=True, bint use_quasi=True, int threads=1):
        _check(tt_megabytes, 1, 4096, "tt_megabytes")
        _check(threads, 1, MAX_THREADS, "threads")
        self._threads = threads
        self.thread_seconds = []
        self.thread_nodes = []
        self.parallel_min_tricks = PARALLEL_MIN_TRICKS
        self.defer_busy = True
        self.root_split = True
        if driver not in DRIVERS:
            raise ValueError(f"driver must be one of {', '.join(DRIVERS)}, not {driver!r}")
        if not table_init(&self.table, tt_megabytes):
            raise MemoryError(f"cannot allocate a {tt_megabytes} MB transposition table")
        self.table_bytes = table_bytes(&self.table)
        self.options.use_table = use_table
        self.options.use_canonical = use_canonical
        self.wants_canonical = use_canonical
        self.options.use_equivalence = use_equivalence
        self.options.use_bounds = use_bounds
        self.options.use_ordering = use_ordering
        self.options.use_fast_end = use_fast_end
        self.options.use_lookahead = use_lookahead
        self.options.driver = DRIVERS[driver]
        self.options.use_quasi = use_quasi
        self.loaded = 0
        self.proved_card = NO_CARD

    def __dealloc__(self):
        table_free(&self.table)

    @property
    def threads(self):
        """The threads a question may search on (parallel.pxd); 1 searches exactly as the engine always did."""
        return self._threads

    @threads.setter
    def threads(self, int threads):
        _check(threads, 1, MAX_THREADS, "threads")
        self._threads = threads

    def cap_threads(self, int threads):
        """At most ``threads`` threads for the rest of the current question and its later searches: the helpers
        numbered at or above it stop within SHARED_POLL_EVERY nodes (parallel.pxd, Retiring). Called from another
        thread, whose question needs their cores (solver.search.engine.CoreBudget); thread 0 always goes on, so the
        answer is the same. It runs under the GIL, as the question sets and clears ``_running`` (its Shared record
        lives on the question's stack): that is what makes the record safe to reach from here."""
        threads = max(1, threads)
        if threads < self._threads:
            self._threads = threads
        if self._running != NULL and threads < load_flag(&self._running.keep):
            store_flag(&self._running.keep, threads)

    @property
    def helpers_searching(self):
        """The current question's helper threads still searching (0 between questions): for tests of Retiring."""
        return 0 if self._running == NULL else latch_count(&self._running.running)

    @property
    def table_bytes_used(self):
        """Bytes of entries written in the current generation, both tables (their fill for the last question)."""
        return table_bytes_used(&self.table)

    def load_tables(self, dict d):
        """Load a deal's rule tables (engine card indices). Starts a new table generation."""
        cdef Tables* t = &self.tables
        cdef int n, c, k, i, j
        memset(t, 0, sizeof(Tables))
        n = d["n_cards"]
        _check(n, 1, MAX_CARDS, "n_cards")
        _check(d["n_seats"], 3, MAX_SEATS, "n_seats")
        _check(d["n_classes"], 1, MAX_CLASSES, "n_classes")
        t.n_cards = n
        t.n_seats = d["n_seats"]
        for i in range(2 * MAX_SEATS):
            t.wrap_seat[i] = i % t.n_seats
        t.n_classes = d["n_classes"]
        for c in range(n):
            _check(d["points"][c], 0, 1000, "points")
            _check(d["card_class"][c], 0, t.n_classes - 1, "card_class")
            _check(d["signature"][c], 0, 1 << 20, "signature")
            t.points[c] = d["points"][c]
            t.card_class[c] = d["card_class"][c]
            t.signature[c] = d["signature"][c]
            t.stronger[c] = _mask(d["stronger"][c], n, "stronger")
        for k in range(t.n_classes):
            t.class_mask[k] = _mask(d["class_mask"][k], n, "class_mask")
            t.led_flags[k] = d["led_flags"][k]
            _check(t.led_flags[k], 0, 31, "led_flags")
            for c in range(n):
                _check(d["power"][k][c], 0, 1 << 16, "power")
                t.power[k][c] = d["power"][k][c]
            levels = d["follow"][k]
            _check(len(levels), 0, MAX_LEVELS, "follow levels")
            t.n_follow[k] = len(levels)
            for i, (mask, beat) in enumerate(levels):
                _check(beat, 0, 2, "beat")
                t.follow_mask[k][i] = _mask(mask, n, "follow mask")
                t.follow_beat[k][i] = beat
        _check(len(d["lead"]), 0, MAX_LEVELS, "lead levels")
        t.n_lead = len(d["lead"])
        for i, mask in enumerate(d["lead"]):
            t.lead_mask[i] = _mask(mask, n, "lead mask")
        _check(len(d["specials"]), 0, MAX_SPECIALS, "specials")
        t.n_specials = len(d["specials"])
        for i, (cards, winner, order, led) in enumerate(d["specials"]):
            t.special_cards[i] = _mask(cards, n, "special cards")
            _check(winner, 0, n - 1, "special winner")
            t.special_winner[i] = winner
            _check(len(order), 0, MAX_ORDER, "special order")
            t.special_order_len[i] = len(order)
            for j, c in enumerate(order):
                _check(c, 0, n - 1, "special order card")
                t.special_order[i][j] = c
                t.special_order_mask[i] |= (<uint64_t>1) << c
            t.special_led[i] = <uint32_t>(led & 0xffffffff)
        called = d["called"]
        t.called_card = -1
        if called is not None:
            card, holder, cls, runaway_min, at_deal, flag = called
            _check(card, 0, n - 1, "called card")
            _check(holder, 0, t.n_seats - 1, "called holder")
            _check(cls, 0, t.n_classes - 1, "called class")
            _check(runaway_min, 0, MAX_CARDS, "runaway minimum")
            _check(at_deal, -1, 1, "runaway at deal")
            _check(flag, 1, 31, "called flag")
            t.called_card, t.called_holder, t.called_class = card, holder, cls
            t.called_runaway_min, t.called_runaway_at_deal, t.called_flag = runaway_min, at_deal, flag
        t.n_sig_planes = _signature_planes(t, d["signature"], t.sig_plane, "signature")
        t.n_role_planes = _signature_planes(t, d["role_signature"], t.role_plane, "role signature")
        _representative_planes(t)
        t.canonical_ok = 1 if d["canonical_ok"] else 0
        self.options.use_canonical = self.wants_canonical and t.canonical_ok
        _check(len(d["chain"]), 0, n, "dominance chain")
        t.n_chain = len(d["chain"])
        for i, c in enumerate(d["chain"]):
            _check(c, 0, n - 1, "chain card")
            t.chain[i] = c
            t.chain_mask |= (<uint64_t>1) << c
        # cheapest level first; more distinct values than levels share levels, each worth its least
        values = sorted(set([d["points"][c] for c in range(n)]))
        size = (len(values) + MAX_POINT_LEVELS - 1) // MAX_POINT_LEVELS
        t.n_point_levels = 0
        for i in range(0, len(values), size):
            low = values[i]
            high = values[min(i + size, len(values)) - 1]
            t.point_level_value[t.n_point_levels] = low
            for c in range(n):
                if low <= t.points[c] <= high:
                    t.point_level_mask[t.n_point_levels] |= (<uint64_t>1) << c
            t.n_point_levels += 1
        t.n_point_steps = len(values) - 1 if len(values) - 1 <= MAX_POINT_STEPS else -1
        for i in range(1, t.n_point_steps + 1):
            t.step_size[i - 1] = values[i] - values[i - 1]
            for c in range(n):
                if t.points[c] >= values[i]:
                    t.step_plane[i - 1] |= (<uint64_t>1) << c
        for k in range(t.n_classes):
            t.ruff_mask[k] = _mask(d["ruff_mask"][k], n, "ruff mask")
            t.cash_ok[k] = 1 if d["cash_ok"][k] else 0
        _check(len(d["reservations"]), 0, MAX_RESERVATIONS, "reservations")
        t.n_reservations = len(d["reservations"])
        for i, (card, seat) in enumerate(d["reservations"]):
            _check(card, 0, n - 1, "reserved card")
            _check(seat, 0, t.n_seats - 1, "reserved seat")
            t.reservation_card[i] = card
            t.reservation_seat[i] = seat
        self.loaded = 1
        self.proved_card = NO_CARD
        table_new_generation(&self.table)

    def new_generation(self):
        """Forget the table's entries (cheaply): needed whenever the deal changes, since table keys assume every
        card keeps its owner."""
        self.proved_card = NO_CARD
        table_new_generation(&self.table)

    def load_objective(self, uint32_t max_side, int points_weight, int trick_weight, list events):
        """Load the question: the maximising seats (bit mask), reward weights, trick events. New table generation."""
        _fill_objective(&self.objective, max_side, points_weight, trick_weight, events, "objective")
        self.proved_card = NO_CARD
        table_new_generation(&self.table)

    def load_state(self, list hands, int leader, list trick, uint32_t flags):
        """Load the root position: hands (engine masks, seat order), leader, cards on the table, history flags."""
        cdef State* s = &self.root
        cdef Tables* t = &self.tables
        cdef int i, seat, size
        cdef uint64_t seen = 0, mask
        if not self.loaded:
            raise ValueError("load_tables first")
        memset(s, 0, sizeof(State))
        _check(len(hands), t.n_seats, t.n_seats, "number of hands")
        _check(leader, 0, t.n_seats - 1, "leader")
        _check(len(trick), 0, t.n_seats - 1, "cards on the table")
        _check(flags, 0, 31, "flags")
        for i in range(t.n_seats):
            mask = _mask(hands[i], t.n_cards, "hand")
            if mask & seen:
                raise ValueError("engine input: a card is in two hands")
            seen |= mask
            s.hands[i] = mask
        for i, card in enumerate(trick):
            _check(card, 0, t.n_cards - 1, "card on the table")
            if seen >> card & 1:
                raise ValueError("engine input: a card is both on the table and in a hand")
            seen |= (<uint64_t>1) << card
            s.trick[i] = card
            s.trick_mask |= (<uint64_t>1) << card
            s.trick_points += t.points[card]
        # the seats that played to the trick on the table hold one card fewer than those still to play
        size = popcount(s.hands[(leader + len(trick)) % t.n_seats])
        if len(trick) and size == 0:
            raise ValueError("engine input: the hands do not fit the trick on the table")
        for i in range(t.n_seats):
            seat = (leader + i) % t.n_seats
            if popcount(s.hands[seat]) != size - (1 if i < len(trick) else 0):
                raise ValueError("engine input: the hands do not fit the trick on the table")
        s.trick_len = len(trick)
        s.win_pos = current_winner(t, s.trick, s.trick_len) if s.trick_len else 0
        s.leader = leader
        s.flags = flags
        for i in range(t.n_seats):
            s.live |= s.hands[i]
            mask = s.hands[i]
            while mask:
                t.owner[lowest(mask)] = i
                mask = drop_lowest(mask)
        mask = s.live | s.trick_mask
        while mask:
            s.points_left += t.points[lowest(mask)]
            mask = drop_lowest(mask)

    cdef void _begin(self, Search* S) noexcept:
        S.t = &self.tables
        S.o = &self.objective
        S.s = self.root
        S.table = &self.table
        S.opt = question_options(self.options, &self.tables, &self.objective)
        S.nodes = 0
        S.ply = 0
        S.root_card = NO_CARD
        S.table_hits = 0
        S.cutoffs = 0
        S.iterations = 0
        S.quasi_hits = 0
        S.aborted = 0
        self._searched_check = self.stop_check
        S.stop_check = <void*>self._searched_check if self._searched_check is not None else NULL
        S.polls_python = 1
        S.shared_stop = NULL
        S.task_stop = NULL
        S.keep = NULL
        S.index = 0
        S.busy = NULL
        S.defer_min = 0
        memset(S.history, 0, sizeof(S.history))
        memset(S.killer, 255, sizeof(S.killer))  # every int -1: no killer yet
        memset(S.boundary_nodes, 0, sizeof(S.boundary_nodes))

    cdef int _interrupted(self, int aborted) except -1:
        """After a search: raise the exception a signal handler raised during it, or SearchStopped when the stop
        check said stop (search.pxd, Interrupts). The table keeps its entries: a search that unwinds stores
        nothing, so every entry is a proved bound, and the question asked again (with a longer limit) finds them."""
        if not aborted or aborted == ABORT_DONE:
            return 0
        self.proved_card = NO_CARD
        if aborted == ABORT_STOP:
            raise SearchStopped("the search was stopped before it finished (its time limit or stop event)")
        return -1                             # the handler's exception is set: Cython raises it

    cdef void _end(self, Search* S) noexcept:
        cdef int i
        for i in range(16):
            self.profile[i] += S.boundary_nodes[i]
        self.nodes += S.nodes
        self.table_hits += S.table_hits
        self.cutoffs += S.cutoffs
        self.iterations += S.iterations
        self.quasi_hits += S.quasi_hits

    cdef int _parallel(self, Search* first, Shared* shared, int kind, Settle* settling=NULL) except -1:
        """Run a question's work (parallel.pxd) on this thread and ``threads - 1`` helpers, each starting from a
        copy of ``first`` (of ``settling``, the settlement search, for WORK_SETTLE), and wait for them all; while it
        waits, this thread keeps looking at the signals and the stop check. The counters of every thread are added
        to the engine's; ``first`` (``settling``) gets this thread's abort."""
        cdef int n = self._threads, i
        cdef pthread_t ids[MAX_THREADS]
        cdef int started[MAX_THREADS]
        cdef Worker* workers = <Worker*>malloc(n * sizeof(Worker))
        cdef int defers = kind != WORK_CARDS and self.defer_busy
        cdef uint64_t* busy = <uint64_t*>calloc(BUSY_MASK + 1, sizeof(uint64_t)) if defers else NULL
        cdef int* aborted
        cdef void* stop_check
        if workers == NULL or (defers and busy == NULL):
            free(workers)
            free(busy)
            raise MemoryError("cannot allocate the search threads")
        table_at_least(&self.table, PARALLEL_BYTES if self._root_cards() > PARALLEL_HALF_TRICKS
                       else PARALLEL_BYTES >> 1)
        self.table.frozen = 1                 # no thread moves entries while the others search (tt.pxd, Threads)
        shared.stop = 0
        shared.winner = -1
        shared.next_card = 0
        shared.keep = n
        latch_init(&shared.running, n - 1)
        for i in range(MAX_CARDS):
            shared.card_done[i] = 0
            shared.card_winner[i] = -1
            shared.card_workers[i] = 0
        for i in range(n):
            if kind == WORK_SETTLE:
                workers[i].T = settling[0]
                join_question(shared, i, busy, &workers[i].T.shared_stop, &workers[i].T.keep, &workers[i].T.index,
                              &workers[i].T.busy, &workers[i].T.defer_min, &workers[i].T.polls_python,
                              &workers[i].T.stop_check)
            else:
                workers[i].S = first[0]
                join_question(shared, i, busy, &workers[i].S.shared_stop, &workers[i].S.keep, &workers[i].S.index,
                              &workers[i].S.busy, &workers[i].S.defer_min, &workers[i].S.polls_python,
                              &workers[i].S.stop_check)
            workers[i].shared = shared
            workers[i].kind = kind
        aborted = &workers[0].T.aborted if kind == WORK_SETTLE else &workers[0].S.aborted
        stop_check = workers[0].T.stop_check if kind == WORK_SETTLE else workers[0].S.stop_check
        self._running = shared
        with nogil:
            for i in range(1, n):
                started[i] = thread_start(&ids[i], worker_main, &workers[i]) == 0
                if not started[i]:
                    latch_count_down(&shared.running)     # its share goes to the others
            worker_main(&workers[0])
            # woken by the last helper's count-down (a sleep of a fixed step overshot by 50-100 us a question)
            while not latch_wait(&shared.running, WAIT_US):
                if aborted[0] == 0 and interrupted(0, aborted, stop_check):
                    store_flag(&shared.stop, aborted[0])
            for i in range(1, n):
                if started[i]:
                    pthread_join(ids[i], NULL)
        self._running = NULL
        latch_destroy(&shared.running)
        self.table.frozen = 0
        if kind == WORK_SETTLE:
            settling.aborted = aborted[0]
        else:
            first.aborted = aborted[0]
        while len(self.thread_seconds) < n:
            self.thread_seconds.append(0.0)
            self.thread_nodes.append(0)
        for i in range(n):
            if i == 0 or started[i]:
                self.thread_seconds[i] += workers[i].cpu_ns / 1e9
                self.thread_nodes[i] += workers[i].T.nodes if kind == WORK_SETTLE else workers[i].S.nodes
        for i in range(n):
            if kind == WORK_SETTLE:
                self._settle_counters(&workers[i].T)
            else:
                self._end(&workers[i].S)
        free(workers)
        free(busy)
        return 0

    def boundary_profile(self):
        """Trick-boundary nodes searched, by tricks left (index 0..15), since the counters were reset."""
        return [self.profile[i] for i in range(16)]

    def reset_counters(self):
        memset(self.profile, 0, sizeof(self.profile))
        self.thread_seconds = []
        self.thread_nodes = []
        self.nodes = 0
        self.iterations = 0
        self.table_hits = 0
        self.cutoffs = 0
        self.quasi_hits = 0

    def upper_bound(self):
        """Everything still in play for the maximising side (the quick bound)."""
        return future_upper_bound(&self.tables, &self.objective, &self.root)

    def quick_bounds(self):
        """(lower, upper) on the root's future value from the quick bounds."""
        cdef int max_sure, min_sure, lower = 0, upper
        upper = future_upper_bound(&self.tables, &self.objective, &self.root)
        if self.root.trick_len:
            trick_bounds(&self.tables, &self.objective, &self.root, &lower, &upper)
            return lower, upper
        sure_bounds(&self.tables, &self.objective, &self.root, &max_sure, &min_sure)
        return max_sure, upper - min_sure

    def legal(self):
        """Legal cards at the root (engine mask)."""
        return legal_cards(&self.tables, &self.root)

    def groups(self):
        """The legal cards at the root and the representatives of their equivalence groups (both engine masks); a
        card shares the value of the next stronger live card of its class and signature, up to a representative."""
        cdef uint64_t legal = legal_cards(&self.tables, &self.root)
        cdef uint64_t reps = representatives(&self.tables, &self.root, legal) if self.options.use_equivalence \
            else legal
        return legal, reps

    def value(self, guess=None):
        """The exact future value of the root; the driver starts from ``guess`` (None: the heuristic playout's)."""
        cdef Search S
        cdef Shared shared
        cdef int result, g, proved, step
        self._check_root()
        self._begin(&S)
        step = 2 if guess is None else 1
        g = heuristic_playout(&S) if guess is None else guess
        if self._in_parallel():
            shared.guess = g
            shared.step = step
            if self.root_split and self._split_cards(&S, &shared) > 1:
                self._parallel(&S, &shared, WORK_ROOT)
                self._interrupted(S.aborted)
                result = shared.best >> 8
                proved = shared.best & 255
            else:
                self._parallel(&S, &shared, WORK_VALUE)
                self._interrupted(S.aborted)
                result = shared.result
                proved = shared.proved
        else:
            with nogil:
                result = exact_value_card(&S, g, 0, INFINITY, step, &proved)
            self._interrupted(S.aborted)
            self._end(&S)
        self.proved_root = self.root
        self.proved_card = proved
        self.proved_value = result
        return result

    cdef int _split_cards(self, Search* S, Shared* shared) noexcept:
        """The root's cards for the root split, the move ordering's best first, one of each group; their number."""
        cdef uint64_t legal = legal_cards(&self.tables, &self.root)
        cdef int seat = self.tables.wrap_seat[self.root.leader + self.root.trick_len]
        cdef int n, first
        if self.options.use_equivalence:
            legal = representatives(&self.tables, &self.root, legal)
        # the card an earlier value() of this root proved first (a hint only: any card, if not one of these, is none)
        first = self.proved_card if memcmp(&self.proved_root, &self.root, sizeof(State)) == 0 else NO_CARD
        n = order_moves(&self.tables, &self.objective, &self.root, legal, first, shared.cards, S.history[seat],
                        S.opt.use_lookahead, NO_CARD, S.opt.kept_card)
        shared.root = self.root
        shared.n_cards = n
        shared.lower = 0
        shared.upper = INFINITY
        shared.maximising = self._root_maximising()
        shared.best = no_best(shared.maximising)
        return n

    cdef int _root_cards(self) noexcept:
        """The cards in the hand of the seat to move at the root: the tricks left, the one on the table included."""
        return popcount(self.root.hands[self.tables.wrap_seat[self.root.leader + self.root.trick_len]])

    cdef int _in_parallel(self) noexcept:
        """Whether the question at the root goes on several threads (parallel.pxd)."""
        return self._threads > 1 and self._root_cards() >= self.parallel_min_tricks

    def reaches(self, int target):
        """Can the maximising side still win at least ``target`` from the root?"""
        cdef Search S
        cdef int result
        self._check_root()
        self._begin(&S)
        with nogil:
            result = reaches(&S, target)
        self._interrupted(S.aborted)
        self._end(&S)
        return bool(result)

    def proved_best(self, int value):
        """A root card proved to keep ``value`` by the last value() on this very root (same tables, objective and
        position), else None: its value needs no search of its own."""
        if self.proved_card == NO_CARD or self.proved_value != value or \
                memcmp(&self.proved_root, &self.root, sizeof(State)) != 0:
            return None
        return self.proved_card

    def after(self, int card, guess=None):
        """(reward of the trick the card completes, exact future value after it) for a legal root card; ``guess``
        is of the value counting the card's reward (None: the heuristic playout's)."""
        cdef Search S
        cdef int reward, result, g
        self._check_legal(card)
        self._begin(&S)
        reward = play_card(&S, card)
        g = heuristic_playout(&S) if guess is None else guess - reward
        with nogil:
            result = exact_value(&S, g)
        self._interrupted(S.aborted)
        self._end(&S)
        return reward, result

    def keeps(self, int card, int value):
        """(reward of the trick it completes, whether it keeps ``value``) for a legal root card, given that
        ``value`` is the root's exact value: one null-window search instead of the card's exact value, since no card
        beats the root (the maximising side's card keeps the value when it reaches it, the other side's when it
        does not reach one more)."""
        cdef Search S
        cdef int reward, target, result, maximising
        self._check_legal(card)
        _check(value, -INFINITY + 2, INFINITY - 2, "value")
        self._begin(&S)
        maximising = self._root_maximising()
        reward = play_card(&S, card)
        target = value - reward + (0 if maximising else 1)
        with nogil:
            result = reaches(&S, target)
        self._interrupted(S.aborted)
        S.iterations += 1
        self._end(&S)
        return reward, bool(result) == bool(maximising)

    def values_after(self, list cards, guess=None, int lower=0, int upper=INFINITY):
        """The exact value (reward of the trick it completes plus the future after it) of each of ``cards``, legal
        root cards, in the order given, all known to lie in [lower, upper]. Each search starts from the best value
        of the cards before it for the side to move (the first from ``guess``, None: the heuristic playout's), and
        one search serves them all, so the move ordering's history carries over from card to card as it does from
        probe to probe."""
        cdef Search S
        cdef int reward, result, g, proved, card, i, n = len(cards), step = 1
        cdef int maximising
        cdef int order[MAX_CARDS]
        cdef int values[MAX_CARDS]
        cdef Shared shared
        self._check_root()
        maximising = self._root_maximising()
        _check(n, 0, MAX_CARDS, "number of cards")
        _check(lower, 0, INFINITY, "lower bound")
        _check(upper, lower, INFINITY, "upper bound")
        for i in range(n):
            _check(cards[i], 0, MAX_CARDS - 1, "card")
            self._check_legal(cards[i])
            order[i] = cards[i]
        if guess is not None:
            _check(guess, -INFINITY, INFINITY, "guess")
        self._begin(&S)
        if n and guess is None:
            reward = play_card(&S, order[0])
            guess = reward + heuristic_playout(&S)
            step = 2
        g = guess if n else 0
        if self._in_parallel() and n > 1:
            shared.root = self.root
            shared.n_cards = n
            for i in range(n):
                shared.cards[i] = order[i]
            shared.guess = g
            shared.step = step
            shared.lower = lower
            shared.upper = upper
            shared.maximising = maximising
            shared.best = no_best(maximising)
            self._parallel(&S, &shared, WORK_CARDS)
            self._interrupted(S.aborted)
            return [shared.values[i] for i in range(n)]
        with nogil:
            for i in range(n):
                S.s = self.root
                card = order[i]
                reward = play_card(&S, card)
                result = reward + exact_value_card(&S, g - reward, lower - reward, upper - reward, step, &proved)
                values[i] = result
                if i == 0 or (result > g if maximising else result < g):
                    g = result              # the best so far (see the top of search.pxd)
                step = 1
        self._interrupted(S.aborted)
        self._end(&S)
        return [values[i] for i in range(n)]

    def playout(self):
        """The reward of the heuristic line of play from the root (the drivers' default first guess)."""
        cdef Search S
        self._check_root()
        self._begin(&S)
        return heuristic_playout(&S)

    def perft(self, int depth):
        """Legal play sequences of ``depth`` cards from the root (the engine's move generator)."""
        cdef Search S
        cdef uint64_t result
        self._check_root()
        _check(depth, 0, MAX_CARDS, "depth")
        self._begin(&S)
        with nogil:
            result = perft(&S, depth)
        self._interrupted(S.aborted)
        return result

    def play(self, int card):
        """Make a legal card the new root (for walking a line); returns the reward of a completed trick."""
        cdef Search S
        cdef int reward
        self._check_legal(card)
        self._begin(&S)
        reward = play_card(&S, card)
        self.root = S.s
        return reward

    def to_move(self):
        return self.tables.wrap_seat[self.root.leader + self.root.trick_len]

    cdef int _root_maximising(self) noexcept:
        """Whether the seat to move at the root is of the maximising side."""
        return mover_maximises(&self.tables, &self.objective, &self.root)

    def is_over(self):
        return self.root.live == 0 and self.root.trick_len == 0

    cdef int _check_root(self) except -1:
        if not self.loaded:
            raise ValueError("load_tables and load_state first")
        return 0

    cdef int _check_legal(self, int card) except -1:
        """A loaded root, and ``card`` one of its legal cards (engine index)."""
        self._check_root()
        if not 0 <= card < MAX_CARDS or not (legal_cards(&self.tables, &self.root) >> card) & 1:
            raise ValueError("engine input: not a legal card at the root")
        return 0

    # --- the settlement search (settle.pxd) ------------------------------------------------------------------------

    cdef Payoff payoff
    cdef int payoff_loaded

    def load_payoff(self, uint32_t max_side, list components, list thresholds, list table):
        """Load a settlement payoff: the maximising seats, the components (each ``(max_side, points_weight,
        trick_weight, events)`` like ``load_objective``), each component's sorted thresholds, and the payoff table
        indexed by bucket tuples (component 0 varies slowest). New table generation."""
        cdef Payoff* p = &self.payoff
        cdef int i, j, size = 1
        if not self.loaded:
            raise ValueError("load_tables first")
        memset(p, 0, sizeof(Payoff))
        self.payoff_loaded = 0
        _check(max_side, 1, (1 << MAX_SEATS) - 1, "payoff max_side")
        _check(len(components), 0, MAX_COMPONENTS, "payoff components")
        if len(thresholds) != len(components):
            raise ValueError("engine input: one threshold list per payoff component")
        p.max_side = max_side
        p.n_components = len(components)
        for i in range(p.n_components):
            side, points_weight, trick_weight, events = components[i]
            _fill_objective(&p.component[i], side, points_weight, trick_weight, events, "component")
            _check(len(thresholds[i]), 0, MAX_THRESHOLDS, "component thresholds")
            p.n_thresholds[i] = len(thresholds[i])
            for j in range(p.n_thresholds[i]):
                _check(thresholds[i][j], 1, 100000, "threshold")
                if j and thresholds[i][j] <= thresholds[i][j - 1]:
                    raise ValueError("engine input: thresholds must ascend")
                p.thresholds[i][j] = thresholds[i][j]
        for i in range(p.n_components - 1, -1, -1):
            p.stride[i] = size
            size *= p.n_thresholds[i] + 1
        if len(table) != size or size > MAX_PAYOFFS:
            raise ValueError(f"engine input: the payoff table needs {size} entries (at most {MAX_PAYOFFS}), "
                             f"not {len(table)}")
        p.n_entries = size
        values = sorted(set(table))
        for i in range(size):
            _check(table[i], -PAYOFF_LIMIT, PAYOFF_LIMIT, "payoff")
            p.table[i] = table[i]
        p.n_values = len(values)
        for i, value in enumerate(values):
            p.values[i] = value
        # the deciding component: the first one the payoff never falls in, whatever the others' buckets (settle.pxd,
        # Step 7); none: the settlement search
        p.deciding = -1
        for i in range(p.n_components):
            for j in range(size):
                if (j // p.stride[i]) % (p.n_thresholds[i] + 1) < p.n_thresholds[i] \
                        and p.table[j] > p.table[j + p.stride[i]]:
                    break
            else:
                p.deciding = i
                break
        self.payoff_loaded = 1
        table_new_generation(&self.table)

    cdef int _settle_start(self, Settle* S, list accumulated) except -1:
        """Set up a settlement search from the root, given each component's value accumulated so far."""
        cdef int i, c, m = self.payoff.deciding
        cdef const Objective* o
        self._check_root()
        if not self.payoff_loaded:
            raise ValueError("load_payoff first")
        _check(len(accumulated), self.payoff.n_components, self.payoff.n_components, "accumulated components")
        memset(S, 0, sizeof(Settle))
        for i in range(self.payoff.n_components):
            _check(accumulated[i], 0, 100000, "accumulated component")
            S.acc[i] = accumulated[i]
        S.t = &self.tables
        S.p = &self.payoff
        S.s = self.root
        S.table = &self.table
        S.use_table = self.options.use_table
        S.use_canonical = self.options.use_canonical
        S.use_equivalence = self.options.use_equivalence
        S.use_lookahead = self.options.use_lookahead
        self._searched_check = self.stop_check
        S.stop_check = <void*>self._searched_check if self._searched_check is not None else NULL
        S.deciding = -1
        if m >= 0:
            # above every final value of the deciding component (the same for every question on this deal); the
            # threshold search's values and the table's bounds on their future stay within PAYOFF_LIMIT, else (no
            # game comes near) the search is on the payoff
            o = &self.payoff.component[m]
            S.never = o.trick_weight * self.tables.n_cards + 1
            for c in range(self.tables.n_cards):
                S.never += o.points_weight * self.tables.points[c]
            for i in range(o.n_events):
                S.never += o.event_reward[i]
            if S.never > PAYOFF_LIMIT or S.acc[m] >= S.never:
                return 0
            S.deciding = m
            # the quasi table: rank-relative keys, and no other component counting card points (tt.pxd)
            S.use_quasi = self.options.use_quasi and S.use_table and S.use_canonical
            for i in range(self.payoff.n_components):
                if i != m and self.payoff.component[i].points_weight:
                    S.use_quasi = 0
        return 0

    def settle(self, list accumulated, lower=None, upper=None, guess=None):
        """The exact final payoff from the root, given each component's value accumulated so far. ``lower`` and
        ``upper`` are bounds the caller knows (the payoff lies in [lower, upper]); ``guess`` is probed first."""
        cdef Settle S
        cdef Shared shared
        cdef int result, lo = 0, hi, first = -1
        self._settle_start(&S, accumulated)
        hi = self.payoff.n_values - 1
        while lower is not None and lo < hi and self.payoff.values[lo] < lower:
            lo += 1
        while upper is not None and hi > lo and self.payoff.values[hi] > upper:
            hi -= 1
        if guess is not None:
            first = lo
            while first < hi and self.payoff.values[first] < guess:
                first += 1
        if S.s.live == 0 and S.s.trick_len == 0:
            result = final_payoff(S.p, S.acc)
        elif self._in_parallel() and lo < hi and self._settle_split_cards(&S, &shared, lo, hi, first) > 1:
            self._parallel(NULL, &shared, WORK_SETTLE, &S)
            self._interrupted(S.aborted)
            if not 0 <= shared.best < self.payoff.n_values:
                raise EngineError("the settlement's threads ended without a value: the engine is inconsistent")
            return self.payoff.values[shared.best]
        else:
            with nogil:
                result = settle_value(&S, lo, hi, first)
        self._settle_end(&S)
        return result

    cdef int _settle_split_cards(self, Settle* S, Shared* shared, int lo, int hi, int guess) noexcept:
        """The root's cards for the settlement's root split (parallel.pxd, 3.), ordered as the settlement search
        orders a node's, one of each group; their number. The root's settlement lies among the payoff values
        ``lo..hi``, and ``guess`` (an index, or -1) is probed first."""
        cdef uint64_t legal = legal_cards(&self.tables, &self.root)
        cdef int seat = self.tables.wrap_seat[self.root.leader + self.root.trick_len], m = self.payoff.deciding
        cdef int n
        if S.use_equivalence:
            legal = representatives(&self.tables, &self.root, legal)
        n = order_moves(&self.tables, &self.payoff.component[m if m >= 0 else 0], &self.root, legal, NO_CARD,
                        shared.cards, S.history[seat], S.use_lookahead, NO_CARD, -1)
        shared.root = self.root
        shared.acc = S.acc
        shared.n_cards = n
        shared.lower = lo
        shared.upper = hi
        shared.guess = guess
        shared.maximising = (self.payoff.max_side >> seat) & 1
        shared.best = no_best(shared.maximising)
        return n

    def settle_line(self, list accumulated, int value, list order):
        """A principal variation of the final payoff ``value`` from the root (settle.pxd's ``settle_line``): at each
        turn the first card of ``order`` (engine card indices, the caller's preference) that keeps it. None when no
        card keeps it (``value`` is not the root's payoff)."""
        cdef Settle S
        cdef int cards[MAX_CARDS]
        cdef int line[MAX_CARDS]
        cdef int i, n, n_order = len(order)
        self._settle_start(&S, accumulated)
        _check(n_order, 0, MAX_CARDS, "line order")
        for i in range(n_order):
            _check(order[i], 0, self.tables.n_cards - 1, "line order card")
            cards[i] = order[i]
        with nogil:
            n = settle_line(&S, value, cards, n_order, line)
        self._settle_end(&S)
        return None if n < 0 else [line[i] for i in range(n)]

    cdef int _settle_end(self, Settle* S) except -1:
        self._interrupted(S.aborted)
        self._settle_counters(S)
        return 0

    cdef void _settle_counters(self, Settle* S) noexcept:
        self.nodes += S.nodes
        self.table_hits += S.table_hits
        self.iterations += S.iterations
