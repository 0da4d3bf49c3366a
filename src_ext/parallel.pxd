# One question on several threads, over one shared transposition table.
#
# Each thread has a search of its own (``Search``: position, move-ordering history, killers, counters) and shares
# the table (tt.pxd, Threads) and one ``Shared`` record. Three kinds of work:
#
# 0. The exact value: the root split. The root's cards wait in ``cards``, the move ordering's best first. Every
#    thread searches the first card exactly (lazy SMP on it, as in 1), and its value is the best so far. Then each
#    thread takes the next card from the queue and asks only whether it beats the best so far: one null-window
#    search at the best, which fails for most cards and, unlike the drivers' probes at several heights, asks every
#    card the same question, so the threads share out the cards with no work twice. A card that beats the best is
#    then searched exactly from its fail-soft bound and becomes the best. A thread that finds the queue empty helps
#    with an unfinished card (the deferring marks split its search between the threads). The value is the best
#    card's, exact; ``best`` holds it with its card (``pack_best``), the card proved to keep it.
# 1. The exact value before the root split, kept for a root with one card to search: lazy SMP. Every thread runs
#    the whole driver (``exact_value_card``) on the root, each from its own first guess: thread 0 from the
#    question's, helper k a few points above or below it, alternately, so that the threads' first probes ask
#    different questions. What one thread proves (a bound, a best card) the others find in the table, so the
#    threads soon diverge less than their guesses; the first thread to finish claims the answer (``claim``), raises
#    the stop flag, and the others unwind. The value is exact whichever thread wins, so it equals the one-thread
#    search; the node counts do not.
# 2. Every card's value: a queue. The cards wait in ``cards``; each thread takes the next one (``fetch_add``) and
#    searches it exactly, starting from the best value of the cards any thread has finished so far (as the
#    one-thread search starts from the best of the cards before it). A thread that finds the queue empty helps with
#    the unfinished card the fewest threads search, from a staggered guess (lazy SMP on one card, with a stop flag
#    per card): the first to finish a card gives its value and the others unwind and look for more. Without it the
#    last cards ran on one core while the others idled.
#    The question ends when every card is done.
# 3. The settlement's exact value (settle.pxd): the root split of 0 on the settlement search. The root's cards wait
#    in ``cards``; every thread settles the first card (each from its own first probe among the payoff values, a
#    neighbour of the question's guess; the deferring marks split the search between them: a mark is the position's
#    cards alone, not what was accumulated nor the question, so coarser, and still a hint), then each takes the
#    next card from the queue and asks only whether it beats the best so far: one null-window question on the
#    payoff value next to it, and the card's exact settlement only if it does. ``lower`` and ``upper`` are the
#    indices of the payoff values the root's lies in (the caller's bounds); a card's settlement is searched within
#    them, which changes no maximum or minimum of the root's cards' settlements that lies there. The best so far (an
#    index of the payoff values) reaching the bound of the side to move answers the question, and the threads stop.
#
# Deferring (ABDADA, after Weill). Lazy SMP alone lets two threads on the same probe search the same subtrees at once,
# each a copy of the other's work until one stores its answer. So the value's threads (and the settlement's) mark the
# positions they are searching in a small shared array (``busy``, one word a slot: a hash of the position, 0 none;
# search.pxd, Step 5'): at a node with DEFER_MIN_CARDS or more cards in the mover's hand, a card other than the first
# whose position another thread has marked waits until the node's other cards are searched, by when the other thread has
# mostly stored its bounds. A mark is a hint, never trusted for a value: a lost or stale one only changes the order of
# the cards, so values stay exact; one thread (``busy`` NULL) searches in order, node for node as before.
#
# Retiring. Another question of the process may need a core a helper holds (solver.search.engine.CoreBudget): it
# lowers ``keep``, and each helper numbered at or above it unwinds at its next look (storing nothing, as any stopped
# search) and ends. Thread 0 never retires, so the question is still answered: the value by thread 0's own driver;
# a card the helper left unfinished (of the queue or the root split) is picked up from the empty queue by
# ``card_to_help``, since no card is done until a thread gives its value or proves it beats nothing.
#
# The thread that called the Engine method is thread 0: only it looks at the interpreter's signals and the stop
# check (search.pxd, Interrupts); when they say stop it raises the stop flag, and every thread unwinds within
# SHARED_POLL_EVERY nodes, storing nothing. The helpers are POSIX threads that never touch Python (atomic.pxd).
# The Engine method grows the table's part in use to a fixed size before it starts them (tt.pxd, Threads) and joins
# them before it returns, so no thread outlives the question.

from types cimport State, MAX_CARDS, NO_CARD, INFINITY
from search cimport Search, exact_value_card, play_card, search, ABORT_DONE
from settle cimport Settle, MAX_COMPONENTS, settle_play, settle_value, payoff_reaches
from libc.stdint cimport uint64_t
from atomic cimport load_flag, store_flag, fetch_add, claim, thread_cpu_ns, Latch, latch_count_down

cdef enum:
    MAX_THREADS = 64
    WORK_VALUE = 0
    WORK_CARDS = 1
    WORK_ROOT = 2
    WORK_SETTLE = 3
    CARD_STOP = 0                             # end_card: the question stops, or this helper retires
    CARD_TAKEN = 1                            # another thread finished the card first
    CARD_SEARCHED = 2                         # this thread's search of the card finished
    NO_BEST = 1 << 30                         # beyond every value (Shared.best)
    STAGGER = 3                               # points between the first guesses of the value's threads
    WAIT_US = 1000                            # the calling thread, done with its share, waits for the helpers this
                                              # long at a time, looking at the signals and the stop check between
    DEFER_MIN_CARDS = 8                       # cards in the mover's hand for a node to defer busy cards (Deferring)
    PARALLEL_MIN_TRICKS = 5                   # fewer tricks left at the root: one thread (starting the others costs
                                              # tens of microseconds and a larger table, which a short ending,
                                              # answered in less, would pay for nothing; Engine.parallel_min_tricks)

ctypedef struct Shared:
    int stop                                  # 0, or the ABORT_ reason every thread unwinds for (atomic)
    int winner                                # the value's thread that finished first, -1 none yet (atomic)
    int result                                # the value, and a root card proved to keep it (``proved``),
    int proved                                # written by the winner
    int guess                                 # the first guess and the first gallop's stride
    int step
    State root
    int next_card                             # the queue: the index of the next card to search (atomic)
    int n_cards
    int cards[MAX_CARDS]
    int values[MAX_CARDS]                     # each card's value, written by the thread that finished it first
    int card_done[MAX_CARDS]                  # 0, or ABORT_DONE once the card's value is known (atomic)
    int card_winner[MAX_CARDS]                # the thread that finished the card first, -1 none yet (atomic)
    int card_workers[MAX_CARDS]               # threads searching the card now (atomic)
    int lower                                 # bounds every card's value lies in
    int upper
    int maximising                            # the side to move at the root maximises
    int best                                  # the best value of the cards finished so far for the side to move,
                                              # NO_BEST until one is (atomic)
    int keep                                  # threads that go on: helpers numbered at or above it retire (atomic)
    int acc[MAX_COMPONENTS]                   # the settlement's components accumulated at the root (WORK_SETTLE)
    Latch running                             # helper threads still working: the calling thread waits on it

ctypedef struct Worker:
    Search S                                  # this thread's points search (WORK_ROOT, WORK_VALUE, WORK_CARDS)
    Settle T                                  # its settlement search (WORK_SETTLE)
    Shared* shared
    int kind
    uint64_t cpu_ns                           # the processor time this thread's work took
    char apart[128]                           # keeps the next thread's Search off this one's cache lines


cdef inline void join_question(Shared* shared, int index, uint64_t* busy, int** shared_stop, int** keep,
                               int* index_field, uint64_t** busy_field, int* defer_min, int* polls_python,
                               void** stop_check) noexcept nogil:
    """Make thread ``index``'s search (the points search's or the settlement's fields, given by address) one of the
    question's: its stop flag, the count of threads kept (a helper's), its number, the busy marks; only thread 0
    looks at Python, with the stop check it was copied with."""
    shared_stop[0] = &shared.stop
    keep[0] = &shared.keep if index else NULL
    index_field[0] = index
    busy_field[0] = busy
    defer_min[0] = DEFER_MIN_CARDS
    polls_python[0] = index == 0
    if index:
        stop_check[0] = NULL


cdef inline int staggered_guess(int guess, int index, int stride) noexcept nogil:
    """Thread ``index``'s first guess: the question's for thread 0, then ``stride`` above, below, twice above... (the
    points search's STAGGER points, the settlement's one payoff value)."""
    if index == 0:
        return guess
    if index & 1:
        return guess + stride * ((index + 1) // 2)
    return guess - stride * (index // 2)


cdef inline void value_work(Worker* w) noexcept nogil:
    """Lazy SMP (see the top of this file): the exact value from this thread's guess; the first to finish answers."""
    cdef Shared* shared = w.shared
    cdef int proved, result
    result = exact_value_card(&w.S, staggered_guess(shared.guess, w.S.index, STAGGER), 0, INFINITY, shared.step,
                              &proved)
    if w.S.aborted:
        return
    if claim(&shared.winner, -1, w.S.index):
        shared.result = result
        shared.proved = proved
        store_flag(&shared.stop, ABORT_DONE)


cdef inline int card_to_help(Shared* shared) noexcept nogil:
    """The queue is empty: the unfinished card the fewest threads search, -1 when every card is done."""
    cdef int i, workers, chosen = -1, fewest = MAX_THREADS + 1
    for i in range(shared.n_cards):
        if load_flag(&shared.card_done[i]):
            continue
        workers = load_flag(&shared.card_workers[i])
        if workers < fewest:
            fewest = workers
            chosen = i
    return chosen


cdef inline int no_best(int maximising) noexcept nogil:
    """``Shared.best`` before any card is finished: worse than every value for the side to move."""
    return -NO_BEST if maximising else NO_BEST


cdef inline void keep_best(Shared* shared, int value) noexcept nogil:
    """``value`` becomes the best so far if it is better for the side to move (a compare-and-swap loop)."""
    cdef int old
    while True:
        old = load_flag(&shared.best)
        if value <= old if shared.maximising else value >= old:
            return
        if claim(&shared.best, old, value):
            return


cdef inline int thread_index(Worker* w) noexcept nogil:
    """This thread's number in its question (0: the calling thread), kept in the search it runs."""
    return w.T.index if w.kind == WORK_SETTLE else w.S.index


cdef inline int goes_on(Worker* w) noexcept nogil:
    """Whether this thread takes more work: the question goes on and, for a helper, it keeps its core (Retiring)."""
    cdef int index = thread_index(w)
    return not load_flag(&w.shared.stop) and (index == 0 or index < load_flag(&w.shared.keep))


cdef inline int begin_card(Worker* w, int i) noexcept nogil:
    """Start on the queue's card ``i``: counted among its searchers, unwinding once another thread finishes it, the
    card played on the root; the reward of a trick it completes."""
    fetch_add(&w.shared.card_workers[i], 1)
    w.S.task_stop = &w.shared.card_done[i]
    w.S.s = w.shared.root
    return play_card(&w.S, w.shared.cards[i])


cdef inline int card_ends(Shared* shared, int i, int** task_stop, int* aborted) noexcept nogil:
    """A thread is done with the queue's card ``i``: CARD_SEARCHED, CARD_TAKEN (its search unwound for another
    thread's answer, and it may take more work) or CARD_STOP. ``task_stop`` and ``aborted`` are its search's."""
    fetch_add(&shared.card_workers[i], -1)
    task_stop[0] = NULL
    if not aborted[0]:
        return CARD_SEARCHED
    if aborted[0] != ABORT_DONE or load_flag(&shared.stop):
        return CARD_STOP
    aborted[0] = 0
    return CARD_TAKEN


cdef inline int end_card(Worker* w, int i) noexcept nogil:
    """Done with card ``i`` (``begin_card``): :func:`card_ends` of the points search."""
    return card_ends(w.shared, i, &w.S.task_stop, &w.S.aborted)


cdef inline void cards_work(Worker* w) noexcept nogil:
    """The queue (see the top of this file): cards taken one at a time; once none is left, the thread helps with an
    unfinished card, from another first guess (lazy SMP on that card: the first to finish gives its value and the
    others unwind), until every card is done."""
    cdef Shared* shared = w.shared
    cdef int g = shared.guess, step = shared.step
    cdef int i, reward, result, proved, guess, outcome
    while goes_on(w):
        i = fetch_add(&shared.next_card, 1)
        if load_flag(&shared.best) != no_best(shared.maximising):
            g = load_flag(&shared.best)       # the best of every thread's cards so far (see the top of search.pxd)
            step = 1
        guess = g
        if i >= shared.n_cards:
            i = card_to_help(shared)
            if i < 0:
                return
            guess = staggered_guess(g, w.S.index + 1, STAGGER)
        reward = begin_card(w, i)
        result = reward + exact_value_card(&w.S, guess - reward, shared.lower - reward, shared.upper - reward, step,
                                           &proved)
        outcome = end_card(w, i)
        if outcome == CARD_STOP:
            return
        if outcome == CARD_TAKEN:
            continue
        if claim(&shared.card_winner[i], -1, w.S.index):
            shared.values[i] = result
            store_flag(&shared.card_done[i], ABORT_DONE)
            keep_best(shared, result)


cdef inline int pack_best(int value, int card) noexcept nogil:
    """A value and its card in one word for ``keep_best`` (the value decides, the card breaks ties)."""
    return value * 256 + card


cdef inline int root_first_card(Worker* w) noexcept nogil:
    """The root split's first phase: the first card's exact value on every thread from staggered guesses (lazy SMP
    on one card); 0 when the question stops."""
    cdef Shared* shared = w.shared
    cdef int reward, result, proved, outcome
    reward = begin_card(w, 0)
    result = reward + exact_value_card(&w.S, staggered_guess(shared.guess, w.S.index, STAGGER) - reward,
                                       shared.lower - reward, shared.upper - reward, shared.step, &proved)
    outcome = end_card(w, 0)
    if outcome == CARD_STOP:
        return 0
    if outcome == CARD_SEARCHED:              # else another thread finished it: its value is the best so far
        keep_best(shared, pack_best(result, shared.cards[0]))   # before the card counts as done (phase 2 reads it)
        if claim(&shared.card_winner[0], -1, w.S.index):
            store_flag(&shared.card_done[0], ABORT_DONE)
    return 1


cdef inline int root_next_card(Worker* w, int i) noexcept nogil:
    """The root split's second phase for card ``i``: one null-window search asks whether it beats the best so far;
    only a card that does is searched exactly, from its fail-soft bound. 0 when the question stops."""
    cdef Shared* shared = w.shared
    cdef int b = load_flag(&shared.best) >> 8
    cdef int reward, r, proved, outcome
    cdef int result = 0                       # set where it is read: a search not aborted that beat b (the compiler
                                              # cannot see that CARD_SEARCHED means not aborted)
    reward = begin_card(w, i)
    if shared.maximising:
        r = reward + search(&w.S, b - reward, b + 1 - reward)
        if not w.S.aborted and r > b:
            result = reward + exact_value_card(&w.S, r - reward, r - reward, shared.upper - reward, 1, &proved)
    else:
        r = reward + search(&w.S, b - 1 - reward, b - reward)
        if not w.S.aborted and r < b:
            result = reward + exact_value_card(&w.S, r - reward, shared.lower - reward, r - reward, 1, &proved)
    outcome = end_card(w, i)
    if outcome == CARD_STOP:
        return 0
    if outcome == CARD_SEARCHED:              # else another thread finished this card first
        if r > b if shared.maximising else r < b:
            keep_best(shared, pack_best(result, shared.cards[i]))
        store_flag(&shared.card_done[i], ABORT_DONE)
    return 1


# --- 3. The settlement ------------------------------------------------------------------------------------------

cdef inline void settle_begin_card(Worker* w, int i) noexcept nogil:
    """Start on the queue's card ``i`` (as ``begin_card``): the settlement search from the root, the card played."""
    fetch_add(&w.shared.card_workers[i], 1)
    w.T.task_stop = &w.shared.card_done[i]
    w.T.s = w.shared.root
    w.T.acc = w.shared.acc
    settle_play(&w.T, w.shared.cards[i])


cdef inline int value_index(Settle* T, int value) noexcept nogil:
    """The index of ``value`` among the payoff values."""
    cdef int j = 0
    while j < T.p.n_values - 1 and T.p.values[j] < value:
        j += 1
    return j


cdef inline void settle_best(Worker* w, int index) noexcept nogil:
    """The card's settlement (an index of the payoff values) becomes the best so far if it is better; once the best
    reaches the side's bound nothing can beat it, and the question is answered."""
    cdef Shared* shared = w.shared
    keep_best(shared, index)
    if load_flag(&shared.best) == (shared.upper if shared.maximising else shared.lower):
        store_flag(&shared.stop, ABORT_DONE)


cdef inline int settle_first_card(Worker* w) noexcept nogil:
    """The first card's settlement on every thread, thread 0 from the question's guess, helper k from the payoff
    value k/2 above or below it (lazy SMP on one card, with the deferring marks); 0 when the question stops."""
    cdef Shared* shared = w.shared
    cdef int k = w.T.index, guess = shared.guess, result, outcome
    if k:
        if guess < 0:
            guess = (shared.lower + shared.upper + 1) // 2
        guess = min(max(staggered_guess(guess, k, 1), shared.lower), shared.upper)
    settle_begin_card(w, 0)
    result = settle_value(&w.T, shared.lower, shared.upper, guess)
    outcome = card_ends(shared, 0, &w.T.task_stop, &w.T.aborted)
    if outcome == CARD_STOP:
        return 0
    if outcome == CARD_SEARCHED:              # else another thread finished it: its value is the best so far
        settle_best(w, value_index(&w.T, result))     # before the card counts as done (the queue reads it)
        if claim(&shared.card_winner[0], -1, w.T.index):
            store_flag(&shared.card_done[0], ABORT_DONE)
    return 1


cdef inline int settle_next_card(Worker* w, int i) noexcept nogil:
    """Card ``i`` of the queue: one null-window question whether it beats the best so far, and only if it does its
    settlement, among the payoff values beyond the best. 0 when the question stops."""
    cdef Shared* shared = w.shared
    cdef int b = load_flag(&shared.best), beats, result = 0, outcome
    settle_begin_card(w, i)
    if shared.maximising:
        beats = b < shared.upper and payoff_reaches(&w.T, w.T.p.values[b + 1])
        if beats and not w.T.aborted:
            result = settle_value(&w.T, b + 1, shared.upper, -1)
    else:
        beats = b > shared.lower and not payoff_reaches(&w.T, w.T.p.values[b])
        if beats and not w.T.aborted:
            result = settle_value(&w.T, shared.lower, b - 1, -1)
    outcome = card_ends(shared, i, &w.T.task_stop, &w.T.aborted)
    if outcome == CARD_STOP:
        return 0
    if outcome == CARD_SEARCHED:              # else another thread finished this card first
        if beats:
            settle_best(w, value_index(&w.T, result))
        store_flag(&shared.card_done[i], ABORT_DONE)
    return 1


# --- The root split's loop (0. and 3.) ---------------------------------------------------------------------------

cdef inline void root_work(Worker* w) noexcept nogil:
    """The exact value (0. at the top of this file) or the settlement (3.) split over the root's cards: the first
    card's on every thread, then a queue of the others, each asked only whether it beats the best so far. Thread 0,
    which never retires, finishes any card a retired helper left."""
    cdef Shared* shared = w.shared
    cdef int settles = w.kind == WORK_SETTLE
    cdef int i
    if not (settle_first_card(w) if settles else root_first_card(w)):
        return
    while goes_on(w):
        i = fetch_add(&shared.next_card, 1)
        if i == 0:
            continue                          # the first card, done above
        if i >= shared.n_cards:
            break
        if not (settle_next_card(w, i) if settles else root_next_card(w, i)):
            return
    # the queue is empty: help with the unfinished card the fewest threads search (the deferring marks split its
    # search between them); thread 0 so also finishes any card a retired helper left
    while goes_on(w):
        i = card_to_help(shared)
        if i < 0:
            return
        if not (settle_next_card(w, i) if settles else root_next_card(w, i)):
            return


cdef inline void* worker_main(void* argument) noexcept nogil:
    """A thread's whole life: its share of the question's work."""
    cdef Worker* w = <Worker*>argument
    cdef uint64_t start = thread_cpu_ns()
    if w.kind == WORK_VALUE:
        value_work(w)
    elif w.kind == WORK_ROOT or w.kind == WORK_SETTLE:
        root_work(w)
    else:
        cards_work(w)
    w.cpu_ns = thread_cpu_ns() - start
    if thread_index(w):
        latch_count_down(&w.shared.running)
    return NULL
