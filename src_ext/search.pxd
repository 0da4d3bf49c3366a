# The search: fail-soft alpha-beta on the future value, with the drivers that narrow it to the exact value.
#
# The value of a position is the most reward the maximising side can force from the cards still to be played.
# ``search(alpha, beta)`` returns v with the fail-soft guarantees: v <= alpha means the value is at most v, v >= beta
# means it is at least v, anything between is exact. The drivers call it with null windows (beta = alpha + 1): a
# yes/no question ("can the side still take >= beta?") is one call; the exact value is found by MTD(f) (step from a
# guess, each answer moving one bound) or by bisection. Techniques can be switched off one by one (``Options``) to
# measure what each is worth; none of them changes a value.
#
# The first guess. A driver given no guess starts from ``heuristic_playout``: one line of play in which every seat
# plays the card the move ordering ranks first (about 50 plays; typically 10-15 points off the value, which beats
# starting from 0). Every card's value (``Engine.values_after``) is one exact search per card, each starting from
# the best value of the cards before it (the mover's side's best so far: a card worse than that is then approached
# from above, which costs fewer nodes than starting from the previous card's value); ``card_values`` given the root's
# exact value starts from it and bounds every card by it (no card beats the root).
#
# The proved card. ``exact_value_card`` also reports the root's best card in the probe that proved the value from
# the mover's side (the final lower bound where the maximising side moves, the final upper bound where the other
# side does): its value is the root's, so the wrapper's ``card_values`` skips its search (``Engine.proved_best``).
#
# Galloping. MTD(f) moves one bound per probe, by as much as the fail-soft answer says, which is mostly a single
# point. So after the first answer each probe steps past the bound it moved, by a stride that doubles while the
# answers keep moving the same bound (never beyond the middle of the interval left): a distant value is reached in
# a logarithmic number of probes while a close one still costs few. The first stride suits the guess: 2 for a
# playout's, 1 for a neighbouring card's value (a close guess then still costs two or three probes). Once answers
# have moved both bounds the value is bracketed, and the probes bisect what is left rather than gallop again from
# the bound that moved last. A probe costs most near the value (within a few points it costs as much as the probes
# that prove the value); far from it, a few per cent of that.
#
# Leaning. A probe that the maximising side passes must refute every card of the other side; one it fails, every
# card of its own. Where the maximising side has fewer seats (a Solo or Wenz player against three, a Kratzen seat
# against five) the first proof is the dear one: a passed probe costs several times a failed one. So there the
# bracketed probes go to the top of the interval left, where they mostly fail, and the value is proved by a single
# passed probe at the end; where the maximising side has more seats they go to the bottom; with equal sides they
# bisect (there the cheaper probe depends on the question, not the sides: see docs/architecture.md).
# ``question_options`` sets the lean from the sides.
#
# Two tricks left. Most nodes are in the last two tricks. At a trick boundary with two tricks left, after the
# bounds and the table, the trick is searched by ``penultimate``: plain alpha-beta with the table's card (else the
# ordering heuristic's favourite) first and the last trick computed directly, skipping the sorting of moves and the
# per-node bookkeeping (the position itself is still stored in the table). ``use_fast_end`` switches it off.
#
# Interrupts. The search runs without the GIL, so a signal (Ctrl-C, an alarm a bot set as a time limit) would wait
# for the whole question. Every POLL_EVERY nodes the search takes the GIL and lets the interpreter run its signal
# handlers; one that raises (KeyboardInterrupt) marks the search aborted, every node then returns at once, and the
# Engine method raises the handler's exception. A search that unwinds stores nothing in the table (its values were
# not searched, and other threads of the question share the table), so the table keeps what was proved. 16,384
# nodes are a millisecond or two: the look costs nothing measurable. The same look
# asks the question's stop check, if it has one (``Search.stop_check``: a time limit or another thread's request,
# which a signal cannot be, since signals reach only the main thread); when it says stop, the search unwinds the
# same way and the Engine method raises SearchStopped. A question on several threads (parallel.pxd): only the thread
# that called the Engine method looks; when it stops, it raises the question's stop flag, at which every thread
# looks every SHARED_POLL_EVERY nodes.
#
# Memory latency. A table probe is mostly a cache miss (the table is tens of MB); the key is computed first and
# the bucket prefetched, so the static bound is computed while the line is on its way. The sure-trick bounds, the
# dearer part, are computed only when the table's bounds did not already settle the position.

from libc.stdint cimport uint64_t, uint32_t, uint8_t
from cardset cimport lowest, drop_lowest, popcount, nth, CompressMask, prepare_compress, compress_prepared
from types cimport Tables, Objective, State, MAX_CARDS, MAX_SEATS, NO_CARD, INFINITY
from movegen cimport current_winner, legal_cards, representatives, note_winner
from bounds cimport future_upper_bound, sure_bounds
from order cimport order_moves, card_score, threat_power, lookahead_pays, kept_event_card, keeping_score, \
    LOOKAHEAD_ALWAYS
from tt cimport Table, Entry, QuasiEntry, table_bucket, table_lookup, table_store, mix, quasi_bucket, quasi_store, \
    quasi_load, learned_bounds, QUASI_BUCKET
from atomic cimport load_flag, store_flag, load_word, store_word

cdef extern from *:
    void __builtin_prefetch(const void*) nogil

cdef extern from "Python.h":
    ctypedef struct PyObject
    int PyErr_CheckSignals()                  # these need the GIL: called in a ``with gil`` block only
    PyObject* PyObject_CallNoArgs(PyObject* callable)
    int PyObject_IsTrue(PyObject* o)
    void Py_DECREF(PyObject* o)

cdef enum:
    POLL_EVERY = 1 << 14                      # nodes between two looks at the interpreter's signals (see Interrupts)
    SHARED_POLL_EVERY = 1 << 8                # nodes between two looks at the other threads' stop flag

cdef enum:
    ABORT_SIGNAL = 1                          # why a search unwinds (Search.aborted): a signal handler or the
                                              # stop check raised,
    ABORT_STOP = 2                            # the stop check said stop,
    ABORT_DONE = 3                            # another thread of the question answered it first (parallel.pxd),
    ABORT_RETIRED = 4                         # this helper's core went to another question (parallel.pxd, Retiring)

cdef enum:
    BUSY_MASK = (1 << 14) - 1                 # the busy marks' slots, less one (parallel.pxd, Deferring)

cdef enum:
    SURE_ABOVE = 2                            # sure tricks only with more tricks left than this (see Step 3'')

cdef enum:
    LEAN_LOW = 0                              # bracketed probes just above the lower bound (see Leaning)
    LEAN_MIDDLE = 8                           # bisection
    LEAN_HIGH = 16                            # at the upper bound

cdef enum:
    DRIVER_MTDF = 0
    DRIVER_BISECT = 1
    DRIVER_WINDOW = 2

ctypedef struct Options:
    int use_table
    int use_canonical
    int use_equivalence
    int use_bounds
    int use_ordering
    int use_fast_end                          # the second-to-last trick by a lean search (penultimate)
    int use_lookahead                         # move ordering judges early cards by the trick's playout (order.pxd)
    int use_quasi                             # bounds from positions of the same shape with other points (tt.pxd)
    int driver
    # decided per question from the switches above (question_options), so that no node asks again:
    int use_sure_bounds                       # the sure-trick bounds (not where only events count)
    int lean                                  # where the driver's bracketed probes go, in sixteenths of the interval
    int kept_card                             # the card of Keeping the event's card (order.pxd), -1 none

ctypedef struct Search:
    const Tables* t
    const Objective* o
    State s
    Table* table
    Options opt
    uint64_t nodes
    int ply                                   # cards played since the search's root
    int root_card                             # the root's best card in the last search that reached Step 5 there
    uint64_t table_hits
    uint64_t cutoffs
    uint64_t iterations                       # null-window searches made by the drivers
    uint64_t quasi_hits                       # positions of the same shape found in the quasi table
    uint64_t boundary_nodes[16]               # nodes at trick boundaries by tricks left (for profiling)
    int killer[MAX_SEATS][MAX_CARDS + 1]      # per seat and cards in hand: the lead that last cut off, -1 none
    int history[MAX_SEATS][MAX_CARDS]         # cut-offs each card caused, weighted by the tricks still to play
    int aborted                               # an ABORT_ reason: unwind, storing nothing; 0 searching
    void* stop_check                          # a Python callable () -> bool, borrowed from the Engine, which
                                              # holds it until its next search (Engine._searched_check); NULL none
    int polls_python                          # this thread looks at signals and the stop check (one per question)
    int* shared_stop                          # the question's stop flag when it runs on several threads, else NULL
    int* task_stop                            # the flag of the card this thread searches in a queue, else NULL
    int* keep                                 # a helper's: the threads the question keeps (it retires at or above)
    int index                                 # this thread's number in its question (0: the calling thread)
    uint64_t* busy                            # the positions the question's threads are searching (parallel.pxd,
                                              # Deferring), else NULL: one thread never defers
    int defer_min                             # cards in the mover's hand for a node to defer (Step 5')


cdef inline int stop_asked(PyObject* stop_check) noexcept:
    """Ask the stop check (with the GIL): ABORT_STOP when it says stop, 0 when not, and ABORT_SIGNAL when it raised
    or its answer has no truth value, its exception left set for the Engine method to raise (a callable of the
    user's: ignoring its exception would search on, unstoppable, and print the error as unraisable)."""
    cdef PyObject* answer = PyObject_CallNoArgs(stop_check)
    cdef int says_stop
    if answer == NULL:
        return ABORT_SIGNAL
    says_stop = PyObject_IsTrue(answer)
    Py_DECREF(answer)
    if says_stop < 0:
        return ABORT_SIGNAL
    return ABORT_STOP if says_stop else 0


cdef inline int interrupted(uint64_t nodes, int* aborted, void* stop_check) noexcept nogil:
    """Whether the search must unwind: a signal handler raised or the stop check said stop, now or at an earlier
    look (see Interrupts). A stop check that raises unwinds the search as a signal handler's exception does."""
    if (nodes & (POLL_EVERY - 1)) == 0 and not aborted[0]:
        with gil:
            if PyErr_CheckSignals() != 0:
                aborted[0] = ABORT_SIGNAL     # the handler's exception stays set for the Engine method to raise
            elif stop_check != NULL:
                aborted[0] = stop_asked(<PyObject*>stop_check)
    return aborted[0]


cdef inline int poll_flags(int* aborted, uint64_t nodes, int* task_stop, int* shared_stop, int* keep, int index,
                           int polls_python, void* stop_check) noexcept nogil:
    """The rare part of :func:`search_interrupted`, every SHARED_POLL_EVERY nodes: the question's stop flag, the
    flag of the card this thread searches and a helper's retirement (parallel.pxd), and on the thread that polls
    Python, every POLL_EVERY nodes, the signals and the stop check; a thread that stops for its own reason sets the
    question's flag. The points search (``poll_stop``) and the settlement search (settle.pxd) look alike."""
    if task_stop != NULL and load_flag(task_stop):
        aborted[0] = ABORT_DONE
    elif shared_stop != NULL and load_flag(shared_stop):
        aborted[0] = ABORT_DONE
    elif keep != NULL and index >= load_flag(keep):
        aborted[0] = ABORT_RETIRED
    elif polls_python and interrupted(nodes, aborted, stop_check) and shared_stop != NULL:
        store_flag(shared_stop, aborted[0])
    return aborted[0]


cdef inline int poll_stop(Search* S) noexcept nogil:
    """:func:`poll_flags` of a points search."""
    return poll_flags(&S.aborted, S.nodes, S.task_stop, S.shared_stop, S.keep, S.index, S.polls_python,
                      S.stop_check)


cdef inline int search_interrupted(Search* S) noexcept nogil:
    """Whether the search must unwind (see Interrupts): a signal handler raised, the stop check said stop, or
    another thread of the question answered it (or the card this thread searches) first. Two branches a node; the
    looks themselves every SHARED_POLL_EVERY nodes (``poll_stop``)."""
    if S.aborted:
        return S.aborted
    if (S.nodes & (SHARED_POLL_EVERY - 1)) != 0:
        return 0
    return poll_stop(S)


cdef inline int trick_reward(const Tables* t, const Objective* o, const int* trick, int wpos, int winner,
                             uint64_t trick_mask, int trick_points, uint64_t live_after) noexcept nogil:
    """What a completed trick pays the maximising side: points and trick weight if it wins, plus trick events."""
    cdef int reward = 0, i
    cdef int wcard = trick[wpos]
    if (o.max_side >> winner) & 1:
        reward = o.points_weight * trick_points + o.trick_weight
    for i in range(o.n_events):
        if trick_mask & o.event_present[i] != o.event_present[i] or trick_mask & o.event_absent[i]:
            continue
        if o.event_winner[i] >= 0 and wcard != o.event_winner[i]:
            continue
        if o.event_not_winner[i] >= 0 and wcard == o.event_not_winner[i]:
            continue
        if o.event_last[i] and live_after:
            continue
        reward += o.event_reward[i]
    return reward


cdef inline int last_trick_value(const Tables* t, const Objective* o, const State* s) noexcept nogil:
    """The value of a position where every hand holds one card: the trick plays itself."""
    cdef int trick[MAX_SEATS]
    cdef int i, seat, card, wpos, points = 0
    cdef uint64_t mask = 0
    for i in range(t.n_seats):
        seat = t.wrap_seat[s.leader + i]
        card = lowest(s.hands[seat])
        trick[i] = card
        mask |= (<uint64_t>1) << card
        points += t.points[card]
    wpos = current_winner(t, trick, t.n_seats)
    return trick_reward(t, o, trick, wpos, t.wrap_seat[s.leader + wpos], mask, points, 0)


cdef inline int mover_maximises(const Tables* t, const Objective* o, const State* s) noexcept nogil:
    """Whether the seat to move is of the maximising side."""
    return (o.max_side >> t.wrap_seat[s.leader + s.trick_len]) & 1


cdef inline int keep_better(int maximising, int value, int card, int* best, int* best_card, int* alpha,
                            int* beta) noexcept nogil:
    """Step 5's bookkeeping after one card: keep the best value and card so far (the maximising side's greatest,
    the other side's least), narrow the window with it, and say whether the window closed (a cut-off)."""
    if maximising:
        if value > best[0]:
            best[0] = value
            best_card[0] = card
            if value > alpha[0]:
                alpha[0] = value
    elif value < best[0]:
        best[0] = value
        best_card[0] = card
        if value < beta[0]:
            beta[0] = value
    return alpha[0] >= beta[0]


cdef inline int bounds_decide(int lower, int upper, int alpha, int beta, int* value) noexcept nogil:
    """Whether bounds [lower, upper] on a position's value already answer a search with window (alpha, beta): the
    value is known, or it fails high or low (fail-soft: the bound itself is the answer, set in ``value``)."""
    if lower >= beta or lower == upper:
        value[0] = lower
        return 1
    if upper <= alpha:
        value[0] = upper
        return 1
    return 0


cdef inline int add_to_trick(const Tables* t, State* s, int card) noexcept nogil:
    """Put ``card`` of the seat to move on the table; returns the winning seat when it completes the trick, else -1
    (the trick is then still on the table, for the caller to reward before :func:`close_trick`)."""
    cdef uint64_t bit = (<uint64_t>1) << card
    cdef int seat = t.wrap_seat[s.leader + s.trick_len]
    s.hands[seat] &= ~bit
    s.live &= ~bit
    s.trick[s.trick_len] = card
    s.trick_len += 1
    s.trick_mask |= bit
    s.trick_points += t.points[card]
    note_winner(t, s)
    if s.trick_len < t.n_seats:
        return -1
    return t.wrap_seat[s.leader + s.win_pos]


cdef inline void close_trick(const Tables* t, State* s, int winner) noexcept nogil:
    """Clear a completed trick: the rule history it sets, the points it takes out of play, the next leader."""
    s.flags |= t.led_flags[t.card_class[s.trick[0]]]
    s.points_left -= s.trick_points
    s.leader = winner
    s.trick_len = 0
    s.win_pos = 0
    s.trick_mask = 0
    s.trick_points = 0


cdef inline int play_card(Search* S, int card) noexcept nogil:
    """Play ``card`` for the seat to move; when it completes the trick, settle it and return its reward."""
    cdef State* s = &S.s
    cdef int winner = add_to_trick(S.t, s, card)
    cdef int reward
    if winner < 0:
        return 0
    reward = trick_reward(S.t, S.o, s.trick, S.t.wrap_seat[winner - s.leader + S.t.n_seats], winner, s.trick_mask,
                          s.trick_points, s.live)
    close_trick(S.t, s, winner)
    return reward


cdef inline Options question_options(Options opt, const Tables* t, const Objective* o) noexcept nogil:
    """The switches as one question uses them. The quasi table needs the table and rank-relative keys; where it is
    used the exact table is not: a position of the quasi table with the same points as the current one gives exact
    bounds, so the exact table would only add a second cache miss at every trick boundary (see tt.pxd); sure tricks
    are worth nothing where only events count; the trick lookahead has nothing to rank where no trick before the
    last can pay (order.pxd); and the drivers lean towards the cheaper probes (see the top of this file)."""
    cdef int maximisers = popcount(o.max_side & ((1u << t.n_seats) - 1))
    opt.use_quasi = opt.use_quasi and opt.use_table and opt.use_canonical
    opt.use_sure_bounds = opt.use_bounds and (o.points_weight or o.trick_weight)
    opt.use_lookahead = opt.use_lookahead and lookahead_pays(o)
    opt.kept_card = kept_event_card(o) if opt.use_ordering else -1
    opt.lean = LEAN_MIDDLE
    if 2 * maximisers < t.n_seats:
        opt.lean = LEAN_HIGH
    elif 2 * maximisers > t.n_seats:
        opt.lean = LEAN_LOW
    return opt


cdef inline uint64_t shape_key(const Tables* t, const State* s, const CompressMask* live) noexcept nogil:
    """The part of the rank-relative keys both tables share: how many live cards each class has, and who holds
    them, in rank order. The owners are written as bit-planes (plane j holds the cards of the seats whose number has
    bit j), each packed down to the live cards (``live``: ``s.live`` prepared for compress): two words for four
    seats, three for up to eight."""
    cdef uint64_t key, plane, counts = 0
    cdef int k, j
    for k in range(t.n_classes):
        counts |= (<uint64_t>popcount(s.live & t.class_mask[k])) << (7 * k)
    key = mix(counts)
    j = 0
    while (1 << j) < t.n_seats:
        plane = 0
        for k in range(1, t.n_seats):
            if (k >> j) & 1:
                plane |= s.hands[k]
        key += mix(compress_prepared(plane, live) + (<uint64_t>(j + 1) << 58))
        j += 1
    return key


cdef inline uint64_t planes_key(const CompressMask* live, const uint64_t* planes, int n_planes) noexcept nogil:
    """The signatures of the live cards, in rank order, as a key: each bit-plane packed down to the live cards
    (``live`` prepared for compress)."""
    cdef uint64_t key = 0
    cdef int j
    for j in range(n_planes):
        key += mix(compress_prepared(planes[j], live) + (<uint64_t>(j + 8) << 58))
    return key


cdef inline uint64_t position_key(const Tables* t, const State* s, int canonical) noexcept nogil:
    """The table key of a trick-boundary position: the live-card mask (mixed: a bijection, so still exact, and
    every key's low bits pick its bucket, tt.pxd), or its rank-relative hash (see tt.pxd).

    Rank-relative: the live cards, class by class from the weakest up, are a sequence of (owner, signature). Packing
    each hand's bits and each signature plane's bits down to the live cards (``compress``) writes that sequence
    as a few words, the classes told apart by their counts; the key hashes those words."""
    cdef CompressMask live
    if not canonical:
        return mix(s.live)
    prepare_compress(&live, s.live)
    return shape_key(t, s, &live) + planes_key(&live, t.sig_plane, t.n_sig_planes)


cdef inline uint64_t quasi_key(const Tables* t, const State* s) noexcept nogil:
    """The quasi table's key (see tt.pxd): the shape and the rule roles of the live cards, not their points."""
    cdef CompressMask live
    prepare_compress(&live, s.live)
    return shape_key(t, s, &live) + planes_key(&live, t.role_plane, t.n_role_planes)


cdef inline void points_apart(const Tables* t, uint64_t stored, uint64_t live, int* gain, int* loss) noexcept nogil:
    """Two positions of one shape, their live cards paired by place within each class: the points by which the
    cards of ``live`` are worth more than their partners in ``stored`` (``gain``) and less (``loss``).

    By steps of the points scale: packed down to each position's live cards, the cards worth a step or more line up
    place by place, and a card worth more than its partner passes every step its partner passes and more, so each
    step it passes alone adds that step to the gain (a card walk when the scale has too many steps)."""
    cdef int k, d, j
    cdef uint64_t a, b
    cdef CompressMask stored_mask, live_mask
    gain[0] = 0
    loss[0] = 0
    if t.n_point_steps >= 0:
        prepare_compress(&stored_mask, stored)
        prepare_compress(&live_mask, live)
        for j in range(t.n_point_steps):
            a = compress_prepared(t.step_plane[j], &stored_mask)
            b = compress_prepared(t.step_plane[j], &live_mask)
            gain[0] += t.step_size[j] * popcount(b & ~a)
            loss[0] += t.step_size[j] * popcount(a & ~b)
        return
    for k in range(t.n_classes):
        a = stored & t.class_mask[k]
        b = live & t.class_mask[k]
        while a and b:
            d = t.points[lowest(b)] - t.points[lowest(a)]
            if d > 0:
                gain[0] += d
            else:
                loss[0] -= d
            a = drop_lowest(a)
            b = drop_lowest(b)


cdef inline int encode_card(const Tables* t, const State* s, int card, int canonical) noexcept nogil:
    """A card as the table stores it: itself, or (class, place among the live cards of its class)."""
    cdef int k
    if card == NO_CARD or not canonical:
        return card
    k = t.card_class[card]
    return (k << 5) | popcount(s.live & t.class_mask[k] & (((<uint64_t>1) << card) - 1))


cdef inline int decode_card(const Tables* t, const State* s, int stored, int canonical) noexcept nogil:
    cdef uint64_t card
    if stored == NO_CARD or not canonical:
        return stored
    card = nth(s.live & t.class_mask[stored >> 5], stored & 31)
    return lowest(card) if card else NO_CARD


cdef inline int quasi_tighten(Table* table, const Tables* t, const State* s, uint64_t qkey, uint8_t leader_flags,
                              int shift, int weight, int* lower, int* upper, int* best, int alpha,
                              int beta) noexcept nogil:
    """Tighten [lower, upper] with the bounds of the positions of this shape in the quasi table, each shifted by
    ``shift`` and widened by ``weight`` times the points its cards differ by (see tt.pxd; an entry whose bounds are
    no tighter as they stand is skipped, since widening only loosens them); ``best`` gets the best card of the
    position itself when it is there, else of the newest. Once the bounds decide the window (alpha, beta) the rest
    of the bucket is not read: the node returns, and a tighter fail-soft answer from the other entries is worth less
    than their widening costs. Returns the entries read (the table hits); the points search and the settlement's
    threshold search (settle.pxd) share it."""
    cdef QuasiEntry* bucket = quasi_bucket(table, qkey, leader_flags)
    cdef QuasiEntry copy
    cdef Entry* head = &copy.head
    cdef int i, gain, loss, newest = 1, hits = 0
    for i in range(QUASI_BUCKET):
        if not quasi_load(table, &bucket[i], qkey, leader_flags, &copy):
            continue
        hits += 1
        if newest or copy.live == s.live:
            newest = 0
            best[0] = decode_card(t, s, head.best, 1)
        if head.lower + shift <= lower[0] and head.upper + shift >= upper[0]:
            continue
        gain = 0
        loss = 0
        if copy.live != s.live and weight:
            points_apart(t, copy.live, s.live, &gain, &loss)
        if head.lower + shift - weight * loss > lower[0]:
            lower[0] = head.lower + shift - weight * loss
        if head.upper < INFINITY and head.upper + shift + weight * gain < upper[0]:
            upper[0] = head.upper + shift + weight * gain
        if lower[0] >= beta or upper[0] <= alpha:
            break
    return hits


cdef inline int penultimate(Search* S, int alpha, int beta, int first, int* best_card) noexcept nogil:
    """Alpha-beta inside the second-to-last trick, without the table, bounds or full ordering (the card ``first``,
    else the one the ordering's heuristic scores highest, event keeping included (order.pxd), is tried first, then
    the others lowest first); the last trick is computed directly. Counts its nodes as search() would."""
    cdef State saved
    cdef uint64_t legal
    cdef int card, reward, value, best, maximising, seat, dummy, wpos, top, threat, kept
    cdef uint64_t rest
    seat = S.t.wrap_seat[S.s.leader + S.s.trick_len]
    legal = legal_cards(S.t, &S.s)
    if S.opt.use_equivalence:
        legal = representatives(S.t, &S.s, legal)
    maximising = (S.o.max_side >> seat) & 1
    best = -INFINITY if maximising else INFINITY
    if first != NO_CARD and not (legal >> first) & 1:
        first = NO_CARD
    if first == NO_CARD and S.opt.use_ordering and legal & (legal - 1):
        # the ordering's favourite first (its heuristic score only)
        wpos = S.s.win_pos
        threat = threat_power(S.t, S.o, &S.s, S.t.card_class[S.s.trick[0]])
        kept = S.opt.kept_card
        rest = legal
        top = -(1 << 30)
        while rest:
            card = lowest(rest)
            rest = drop_lowest(rest)
            value = card_score(S.t, S.o, &S.s, card, wpos, threat)
            if kept >= 0:
                value = value * 256 + keeping_score(S.t, S.o, card, kept, maximising)
            if value > top:
                top = value
                first = card
    while legal:
        if first != NO_CARD:
            card = first
            first = NO_CARD
        else:
            card = lowest(legal)
        legal &= ~((<uint64_t>1) << card)
        saved = S.s
        reward = play_card(S, card)
        S.nodes += 1
        if S.s.trick_len == 0:
            value = reward + last_trick_value(S.t, S.o, &S.s)
        else:
            value = reward + penultimate(S, alpha - reward, beta - reward, NO_CARD, &dummy)
        S.s = saved
        if keep_better(maximising, value, card, &best, best_card, &alpha, &beta):
            break
    return best


cdef inline uint64_t child_id(const State* s, int card) noexcept nogil:
    """A hash of the position ``card`` leads to (within a deal the live cards, the trick's cards, the leader and
    the flags say which it is), for the threads' busy marks (parallel.pxd, Deferring)."""
    cdef uint64_t bit = (<uint64_t>1) << card
    return mix((s.live & ~bit) ^ mix((s.trick_mask | bit) + (<uint64_t>(s.leader | (s.flags << 3)) << 56))) | 1


cdef inline int next_move(const State* s, const int* moves, int n, int* i, int* k, uint64_t* deferred,
                          uint64_t* busy, uint64_t** slot, uint64_t* mark) noexcept nogil:
    """Step 5': the next card of ``moves`` to try (NO_CARD: none is left). With the threads' busy marks
    (``busy``; NULL: in order), a card other than the first whose position another thread marked waits, in
    ``deferred``, until the others are tried; the card returned is marked (``slot``, ``mark``) until
    :func:`unmark_move`. ``i`` and ``k`` walk ``moves`` and the deferred cards, from 0. The settlement search's
    loop (settle.pxd); :func:`search` keeps the same loop inline, which one thread ran 3% faster."""
    cdef int card
    while i[0] < n:
        card = moves[i[0]]
        i[0] += 1
        if busy != NULL:
            mark[0] = child_id(s, card)
            slot[0] = &busy[mark[0] & BUSY_MASK]
            if i[0] > 1 and load_word(slot[0]) == mark[0]:
                deferred[0] |= (<uint64_t>1) << card
                continue
            store_word(slot[0], mark[0])
        return card
    if not deferred[0]:
        return NO_CARD
    while not (deferred[0] >> moves[k[0]]) & 1:
        k[0] += 1
    card = moves[k[0]]
    deferred[0] &= ~((<uint64_t>1) << card)
    mark[0] = child_id(s, card)
    slot[0] = &busy[mark[0] & BUSY_MASK]
    store_word(slot[0], mark[0])
    return card


cdef inline void unmark_move(uint64_t* busy, uint64_t* slot, uint64_t mark) noexcept nogil:
    """The card's search is over: its busy mark goes, unless another thread's replaced it."""
    if busy != NULL and load_word(slot) == mark:
        store_word(slot, 0)


cdef inline int search(Search* S, int alpha, int beta) noexcept nogil:
    cdef State saved
    cdef int boundary = S.s.trick_len == 0
    cdef int use_table
    cdef int lower = 0, upper = INFINITY, best, best_card = NO_CARD, tt_card = NO_CARD
    cdef int n, i, card, reward, value, maximising, seat, max_sure, min_sure, static_upper = INFINITY
    cdef int moves[MAX_CARDS]
    cdef uint64_t legal
    cdef uint8_t leader_flags = 0
    cdef uint64_t key = 0
    cdef Entry entry
    cdef QuasiEntry* qbucket
    cdef int a, b, k, defers
    cdef uint64_t deferred, mark
    cdef uint64_t* slot
    # Step 1. The deal is over: nothing more to win.
    if boundary and S.s.live == 0:
        return 0
    S.nodes += 1
    if search_interrupted(S):
        return 0
    if boundary and popcount(S.s.hands[S.s.leader]) == 1:
        return last_trick_value(S.t, S.o, &S.s)
    # the last trick is computed directly, never looked up
    use_table = boundary and S.opt.use_table and popcount(S.s.hands[S.s.leader]) > 1
    if boundary:
        S.boundary_nodes[popcount(S.s.hands[S.s.leader]) & 15] += 1
        # Step 2. The table key first, and its bucket's cache line fetched while the static bound is computed. The
        # quasi table where it can be used (it is then exact for positions with the same points), else the exact
        # table (see question_options).
        if use_table:
            leader_flags = <uint8_t>(S.s.leader | (S.s.flags << 3))
            if S.opt.use_quasi:
                key = quasi_key(S.t, &S.s)
                qbucket = quasi_bucket(S.table, key, leader_flags)
                __builtin_prefetch(qbucket)
                __builtin_prefetch(<char*>qbucket + 64)
            else:
                key = position_key(S.t, &S.s, S.opt.use_canonical)
                __builtin_prefetch(table_bucket(S.table, key, leader_flags))
        # Step 3. The static bound (the future is worth between 0 and everything still in play), then the table:
        # bounds from earlier visits (in the quasi table, of positions of the same shape widened by the points they
        # differ by), and the card that was best.
        if S.opt.use_bounds:
            upper = future_upper_bound(S.t, S.o, &S.s)
            static_upper = upper
        if use_table and S.opt.use_quasi:
            S.quasi_hits += quasi_tighten(S.table, S.t, &S.s, key, leader_flags, 0, S.o.points_weight, &lower,
                                          &upper, &tt_card, alpha, beta)
        elif use_table:
            if table_lookup(S.table, key, leader_flags, &entry):
                S.table_hits += 1
                if entry.lower > lower:
                    lower = entry.lower
                if entry.upper < upper:
                    upper = entry.upper
                tt_card = decode_card(S.t, &S.s, entry.best, S.opt.use_canonical)
        if bounds_decide(lower, upper, alpha, beta, &value):
            return value
        # Step 3''. Sure tricks, only when the table did not settle the position (they cost a walk of the hands),
        # and not with two tricks left, where the lean search of Step 4' costs less than the bound.
        if S.opt.use_sure_bounds and popcount(S.s.hands[S.s.leader]) > SURE_ABOVE:
            sure_bounds(S.t, S.o, &S.s, &max_sure, &min_sure)
            if max_sure > lower:
                lower = max_sure
            if static_upper - min_sure < upper:
                upper = static_upper - min_sure
            if bounds_decide(lower, upper, alpha, beta, &value):
                return value
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
    if boundary and S.opt.use_fast_end and popcount(S.s.hands[S.s.leader]) == 2:
        # Step 4'. Two tricks left: a lean alpha-beta of its own (see penultimate).
        best = penultimate(S, alpha, beta, tt_card, &best_card)
    else:
        # Step 4. The moves: the legal cards, one of each group of equivalent cards, the most promising first (a forced
        # card is not ranked: the trick lookahead would play its trick out for nothing).
        seat = S.t.wrap_seat[S.s.leader + S.s.trick_len]
        legal = legal_cards(S.t, &S.s)
        if S.opt.use_equivalence:
            legal = representatives(S.t, &S.s, legal)
        if S.opt.use_ordering and legal & (legal - 1):
            n = order_moves(S.t, S.o, &S.s, legal, tt_card, moves, S.history[seat], S.opt.use_lookahead,
                            S.killer[seat][popcount(S.s.hands[seat])] if boundary else NO_CARD, S.opt.kept_card)
        else:
            n = 0
            while legal:
                moves[n] = lowest(legal)
                legal = drop_lowest(legal)
                n += 1
        # Step 5. Try them: the maximising side raises alpha, the other side lowers beta, until they meet.
        maximising = (S.o.max_side >> seat) & 1
        best = -INFINITY if maximising else INFINITY
        a = alpha
        b = beta
        # Step 5'. On several threads, a card whose position another thread is searching now waits until the rest
        # are searched (parallel.pxd, Deferring); one thread searches the cards in order.
        defers = S.busy != NULL and popcount(S.s.hands[seat]) >= S.defer_min
        deferred = 0
        slot = NULL
        i = 0
        k = 0
        while True:
            if i < n:
                card = moves[i]
                i += 1
                if defers:
                    mark = child_id(&S.s, card)
                    slot = &S.busy[mark & BUSY_MASK]
                    if i > 1 and load_word(slot) == mark:
                        deferred |= (<uint64_t>1) << card
                        continue
                    store_word(slot, mark)
            elif deferred:
                while not (deferred >> moves[k]) & 1:
                    k += 1
                card = moves[k]
                deferred &= ~((<uint64_t>1) << card)
                mark = child_id(&S.s, card)
                slot = &S.busy[mark & BUSY_MASK]
                store_word(slot, mark)
            else:
                break
            saved = S.s
            reward = play_card(S, card)
            S.ply += 1
            value = reward + search(S, a - reward, b - reward)
            S.ply -= 1
            S.s = saved
            if defers and load_word(slot) == mark:
                store_word(slot, 0)
            if keep_better(maximising, value, card, &best, &best_card, &a, &b):
                S.cutoffs += 1
                S.history[seat][card] += popcount(S.s.live) + 1
                if boundary:
                    S.killer[seat][popcount(S.s.hands[seat])] = card
                break
    if S.ply == 0:
        S.root_card = best_card
    # Step 6. Remember what was learned: an upper bound (failed low), a lower bound (failed high) or the value;
    # nothing when the search is unwinding, since its values were not searched.
    if use_table and not S.aborted:
        learned_bounds(alpha, beta, lower, upper, best, &lower, &upper)
        if S.opt.use_quasi:
            quasi_store(S.table, key, leader_flags, S.s.live, lower, upper, encode_card(S.t, &S.s, best_card, 1))
        else:
            table_store(S.table, key, leader_flags, popcount(S.s.live), lower, upper,
                        encode_card(S.t, &S.s, best_card, S.opt.use_canonical))
    return best


cdef inline int exact_value_card(Search* S, int guess, int lower, int upper, int step, int* proved) noexcept nogil:
    """The exact future value by the chosen driver, starting from ``guess``, given that it lies in [lower, upper]
    (pass 0 and INFINITY when nothing better is known); ``step`` is the first gallop's stride (see the top of this
    file: 2 for a playout's guess, 1 for a neighbouring card's value). ``proved`` gets a root card whose value is
    the root's, or NO_CARD when none is known: where the maximising side moves, the best card of the probe that set
    the final lower bound (it reached the value, and no card beats the root); where the other side moves, of the
    probe that set the final upper bound (it held the value down to it). The other probe's best card is only the
    one with the least fail-soft bound, which may be worth more than the value.

    MTD(f) steps from the guess to each fail-soft answer. When answers keep moving the same bound the value is far
    from the guess: the next probe gallops ``step``, 2 ``step``, 4 ``step``, ... past that bound (points values
    span 0..120, and plain MTD(f) can creep towards a distant value one point a search). Once answers have moved
    both bounds, the value is bracketed and the probes bisect what is left.
    """
    cdef int g, beta, rising = 0, falling = 0, bracketed = 0, mid
    cdef int most = future_upper_bound(S.t, S.o, &S.s)
    cdef int maximising = mover_maximises(S.t, S.o, &S.s)
    proved[0] = NO_CARD
    if lower < 0:
        lower = 0
    if upper > most:
        upper = most
    if S.opt.driver == DRIVER_WINDOW:
        S.root_card = NO_CARD
        g = search(S, lower - 1, upper + 1)
        proved[0] = S.root_card
        return g
    if guess < lower:
        guess = lower
    if guess > upper:
        guess = upper
    g = guess
    while lower < upper:
        # the lean's share of the interval, rounded up (LEAN_MIDDLE: (lower + upper + 1) // 2), above lower
        mid = lower + ((upper - lower) * S.opt.lean + LEAN_HIGH - 1) // LEAN_HIGH
        if mid <= lower:
            mid = lower + 1
        if S.opt.driver == DRIVER_BISECT or bracketed:
            beta = mid
        elif rising:
            # gallop up: step, 2 step, 4 step, ... above the last lower bound, never past the middle of what is left
            beta = lower + (step << (rising - 1))
            if beta > mid:
                beta = mid
        elif falling:
            beta = upper + 1 - (step << (falling - 1))
            if beta < mid:
                beta = mid
        else:
            beta = g + 1 if g == lower else g
        S.root_card = NO_CARD
        g = search(S, beta - 1, beta)
        S.iterations += 1
        if g < beta:
            upper = g
            if not maximising:
                proved[0] = S.root_card
            bracketed |= rising
            falling += 1
            rising = 0
        else:
            lower = g
            if maximising:
                proved[0] = S.root_card
            bracketed |= falling
            rising += 1
            falling = 0
    return lower


cdef inline int exact_value(Search* S, int guess) noexcept nogil:
    """The exact future value by the chosen driver, starting from ``guess``."""
    cdef int proved
    return exact_value_card(S, guess, 0, INFINITY, 1, &proved)


cdef inline int heuristic_playout(Search* S) noexcept nogil:
    """The reward of one line of play in which every seat plays the card the move ordering ranks first: a cheap
    estimate of the value, the drivers' first guess when they are given none."""
    cdef State saved = S.s
    cdef int moves[MAX_CARDS]
    cdef int total = 0, seat
    cdef uint64_t legal
    while S.s.live or S.s.trick_len:
        seat = S.t.wrap_seat[S.s.leader + S.s.trick_len]
        legal = legal_cards(S.t, &S.s)
        order_moves(S.t, S.o, &S.s, legal, NO_CARD, moves, S.history[seat],
                    LOOKAHEAD_ALWAYS if S.opt.use_lookahead else 0, NO_CARD, S.opt.kept_card)
        total += play_card(S, moves[0])
    S.s = saved
    return total


cdef inline int reaches(Search* S, int target) noexcept nogil:
    """Can the maximising side still win at least ``target``? One null-window search."""
    if target <= 0:
        return 1
    return search(S, target - 1, target) >= target


cdef inline uint64_t perft(Search* S, int depth) noexcept nogil:
    """The number of legal play sequences of ``depth`` cards (fewer where the deal ends first)."""
    cdef State saved
    cdef uint64_t legal, total = 0
    cdef int card
    if depth == 0 or (S.s.trick_len == 0 and S.s.live == 0):
        return 1
    S.nodes += 1
    if interrupted(S.nodes, &S.aborted, S.stop_check):
        return 0
    legal = legal_cards(S.t, &S.s)
    while legal:
        card = lowest(legal)
        legal = drop_lowest(legal)
        saved = S.s
        play_card(S, card)
        total += perft(S, depth - 1)
        S.s = saved
    return total
