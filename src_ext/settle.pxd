# The settlement search: fail-soft alpha-beta on the final payoff of a deal, not on an additive sum.
#
# A settlement is not a sum of trick rewards: the game is a threshold on points, a Valat is all-or-nothing over the
# tricks, a Pagat or Mondfang is one event, and Kontra multiplies. But each of those facts is an additive quantity
# that the engine already knows how to count: a *component* is an ordinary Objective (card points of a side, its
# tricks, a trick event), and the settlement is a function of the final component values alone. That function is
# given as data (``Payoff``): per component a few sorted thresholds that cut its values into buckets, and a table
# indexed by the bucket tuple that holds the declaring side's net payment. Nothing here knows which game is played.
#
# 1. The state carries the accumulated value of every component (``acc``). Playing a card is ``play_card``'s update;
#    a completed trick adds ``trick_reward`` of every component.
# 2. At the deal's end the value is the table's entry for the buckets of ``acc``; the last trick is played out
#    directly.
# 3. Bounds: each component can still gain between 0 and its ``future_upper_bound``, so its final bucket lies in a
#    range; the payoff lies between the least and the greatest entry of that box of buckets. When they meet, the
#    rest of the play cannot change the settlement and the search stops (the common case once the game is decided).
#    Where neither the box nor the table decides, the sure tricks narrow the box (they cost a walk of the hands):
#    a side's own sure tricks hold while it plays for them, the other side's only where they hold whatever is
#    played, so the lower bound and the upper bound each get a box of their own (``settle_boxes``).
# 4. The transposition table stores bounds on the *final* payoff, which depends on what was accumulated, so the key
#    of a trick-boundary position is mixed with what of the accumulation still matters: per component its bucket
#    and its distance to each threshold it can still reach.
# 5. Moves: legal cards, one per equivalence group (the wrapper gives every event card a signature of its own, so
#    equivalent cards are equivalent for every component), ordered by the deciding (else the first) component's
#    heuristic and the trick lookahead (order.pxd), as the points search orders them. On several threads a card
#    whose position another thread is searching waits (parallel.pxd, Deferring and "3. The settlement").
# 6. The driver bisects over the sorted distinct payoff values (few), one null-window question "payoff >= v" per
#    probe; known bounds narrow the range and a guess (a sibling card's value) is probed first.
# 7. The threshold search. Where the payoff never falls as one component (the *deciding* one: the card points, in
#    Kratzen the tricks) rises, whatever the others' buckets, the question "payoff >= v" is "the deciding component
#    ends at least at the *need* of the others' final buckets" (the least value with which the payoff reaches v).
#    So each question searches G = the deciding component's final value minus that need, and asks G >= 0. G is the
#    deciding component's accumulation plus a future that does not depend on it: the table stores bounds on that
#    future, keyed on the position, what of the *other* components' accumulation still matters and the question,
#    so positions whose card points were split differently share entries, and, where no other component counts
#    card points, it is the quasi table of the points search (tt.pxd): positions of one shape with other points
#    share bounds widened by the points their cards differ by. The bounds of Step 3 become bounds on G: the
#    deciding component's range (its sure tricks included) less the need's greatest and least over the others'
#    boxes. A payoff without a deciding component is searched on the payoff itself (Steps 1-6).

from libc.stdint cimport uint64_t, uint32_t, uint8_t
from cardset cimport lowest, drop_lowest, popcount
from types cimport Tables, Objective, State, MAX_CARDS, MAX_SEATS, NO_CARD, INFINITY
from movegen cimport current_winner, legal_cards, representatives
from bounds cimport future_upper_bound, sure_bounds
from order cimport order_moves
from tt cimport Table, Entry, QuasiEntry, table_bucket, table_lookup, table_store, mix, quasi_bucket, \
    quasi_store, learned_bounds
from search cimport SURE_ABOVE, SHARED_POLL_EVERY, interrupted, poll_flags, next_move, unmark_move, trick_reward, \
    keep_better, bounds_decide, add_to_trick, close_trick, position_key, quasi_key, quasi_tighten, encode_card, \
    decode_card

cdef extern from *:
    void __builtin_prefetch(const void*) nogil

cdef enum:
    MAX_COMPONENTS = 6
    MAX_THRESHOLDS = 7
    MAX_PAYOFFS = 4096
    PAYOFF_LIMIT = 20000                      # |payoff| bound: fits the table's int16 bounds, below INFINITY

ctypedef struct Payoff:
    uint32_t max_side                         # the declaring side: the seats that maximise the payoff
    int n_components
    Objective component[MAX_COMPONENTS]
    int n_thresholds[MAX_COMPONENTS]
    int thresholds[MAX_COMPONENTS][MAX_THRESHOLDS]   # bucket = number of thresholds <= the component's value
    int stride[MAX_COMPONENTS]                # index of a bucket tuple = sum of bucket x stride
    int n_entries
    int table[MAX_PAYOFFS]
    int n_values
    int values[MAX_PAYOFFS]                   # the distinct entries, ascending
    int deciding                              # a component the payoff never falls in (Step 7), -1 none

ctypedef struct Settle:
    const Tables* t
    const Payoff* p
    State s
    int acc[MAX_COMPONENTS]
    Table* table
    int use_table
    int use_canonical
    int use_equivalence
    int use_lookahead                         # the ordering's trick lookahead (search.pxd's Options)
    uint64_t nodes
    uint64_t table_hits
    uint64_t iterations
    int history[MAX_SEATS][MAX_CARDS]
    int aborted                               # an ABORT_ reason (search.pxd): unwind, storing nothing; 0 searching
    void* stop_check                          # NULL, or the Engine's stop check: () -> bool (search.pxd, Interrupts)
    int polls_python                          # as the points search's (search.pxd's Search): this thread looks at
    int* shared_stop                          # signals and the stop check; the question's stop flag on several
    int* task_stop                            # threads, the flag of the root card it searches, a helper's count of
    int* keep                                 # the threads kept (parallel.pxd, "The settlement"); NULL: one thread
    int index
    uint64_t* busy                            # the threads' busy marks (parallel.pxd, Deferring), NULL: one thread
    int defer_min                             # cards in the mover's hand for a node to defer
    # the threshold search (Step 7): its question's need per bucket tuple of the other components (indexed as the
    # payoff table, the deciding component's bucket 0), what no final value of the deciding component reaches, the
    # question's share of the table key, and whether its table is the quasi table
    int deciding                              # the payoff's deciding component, or -1: search on the payoff
    int need[MAX_PAYOFFS]
    int never
    uint64_t question_key
    int use_quasi


cdef inline int bucket_of(const Payoff* p, int i, int value) noexcept nogil:
    cdef int b = 0
    while b < p.n_thresholds[i] and p.thresholds[i][b] <= value:
        b += 1
    return b


cdef inline int final_payoff(const Payoff* p, const int* acc) noexcept nogil:
    """Step 2: the table entry of the accumulated values."""
    cdef int i, index = 0
    for i in range(p.n_components):
        index += bucket_of(p, i, acc[i]) * p.stride[i]
    return p.table[index]


cdef inline int final_need(const Settle* S) noexcept nogil:
    """Step 7: the threshold search's value at the deal's end: the deciding component's value minus the need of the
    other components' buckets."""
    cdef const Payoff* p = S.p
    cdef int i, index = 0
    for i in range(p.n_components):
        if i != S.deciding:
            index += bucket_of(p, i, S.acc[i]) * p.stride[i]
    return S.acc[S.deciding] - S.need[index]


cdef inline void reach_of(Settle* S, int* reach) noexcept nogil:
    """Each component's static reach: its accumulation plus its future upper bound."""
    cdef int i
    for i in range(S.p.n_components):
        reach[i] = S.acc[i] + future_upper_bound(S.t, &S.p.component[i], &S.s)


cdef inline int settle_boxes(Settle* S, int sure, const int* reach, int* first_low, int* last_low, int* first_high,
                             int* last_high) noexcept nogil:
    """Step 3: the boxes of buckets the components' final values lie in: ``[first_low, last_low]`` while the
    declaring side plays for the most, ``[first_high, last_high]`` while the other side plays for the least. Each
    component can still gain between 0 and its future upper bound (``reach``: from :func:`reach_of`). With ``sure``,
    a card-point or trick component of the declaring side gains at least what that side is sure of and at most what
    the other side is not (the sure tricks of search.pxd's Step 3''). A side's sure tricks are its chain tricks,
    which hold whatever is played, and for the leader's side the top cards it cashes, which hold only while it
    cashes them: so each box takes the other side's sure tricks only when that side does not lead. Returns whether
    the boxes differ. The deciding component of the threshold search (Step 7) keeps bucket 0 in both."""
    cdef const Payoff* p = S.p
    cdef int i, lo, hi, max_sure, min_sure, differ = 0
    cdef int leader_declares = (p.max_side >> S.s.leader) & 1
    for i in range(p.n_components):
        if i == S.deciding:
            first_low[i] = last_low[i] = first_high[i] = last_high[i] = 0
            continue
        lo = S.acc[i]
        hi = reach[i]
        if sure and p.component[i].n_events == 0 and (p.component[i].points_weight or p.component[i].trick_weight) \
                and p.component[i].max_side == p.max_side and bucket_of(p, i, lo) != bucket_of(p, i, hi):
            sure_bounds(S.t, &p.component[i], &S.s, &max_sure, &min_sure)
            lo += max_sure
            hi -= min_sure
        first_low[i] = bucket_of(p, i, lo)
        last_low[i] = bucket_of(p, i, hi if leader_declares else reach[i])
        first_high[i] = bucket_of(p, i, S.acc[i] if leader_declares else lo)
        last_high[i] = bucket_of(p, i, hi)
        differ |= first_low[i] != first_high[i] or last_low[i] != last_high[i]
    return differ


cdef inline void box_extremes(const Payoff* p, const int* values, const int* first, const int* last, int floor,
                              int ceiling, int* least, int* greatest) noexcept nogil:
    """The least and the greatest of ``values`` (indexed as the payoff table) over the box of buckets [first, last];
    the walk stops once they reach ``floor`` and ``ceiling``, the widest they can be (a caller that needs one of
    them passes -INFINITY or INFINITY for the other's)."""
    cdef int at[MAX_COMPONENTS]
    cdef int i, index = 0, value
    least[0] = INFINITY
    greatest[0] = -INFINITY
    for i in range(p.n_components):
        at[i] = first[i]
        index += first[i] * p.stride[i]
    while True:
        value = values[index]
        if value < least[0]:
            least[0] = value
        if value > greatest[0]:
            greatest[0] = value
        if least[0] <= floor and greatest[0] >= ceiling:
            return
        i = 0
        while i < p.n_components:  # odometer step over the box, the index kept along
            if at[i] < last[i]:
                at[i] += 1
                index += p.stride[i]
                break
            index -= (at[i] - first[i]) * p.stride[i]
            at[i] = first[i]
            i += 1
        if i == p.n_components:
            return


cdef inline void payoff_range(Settle* S, int sure, const int* reach, int* low, int* high) noexcept nogil:
    """Step 3: the least payoff over the declaring side's box and the greatest over the other side's
    (:func:`settle_boxes`)."""
    cdef const Payoff* p = S.p
    cdef int first_low[MAX_COMPONENTS]
    cdef int last_low[MAX_COMPONENTS]
    cdef int first_high[MAX_COMPONENTS]
    cdef int last_high[MAX_COMPONENTS]
    cdef int floor = p.values[0], ceiling = p.values[p.n_values - 1], unused
    if settle_boxes(S, sure, reach, first_low, last_low, first_high, last_high):
        box_extremes(p, p.table, first_low, last_low, floor, -INFINITY, low, &unused)
        box_extremes(p, p.table, first_high, last_high, INFINITY, ceiling, &unused, high)
    else:
        box_extremes(p, p.table, first_low, last_low, floor, ceiling, low, high)


cdef inline void settle_play(Settle* S, int card) noexcept nogil:
    """Step 1: play ``card`` for the seat to move (``play_card``'s update); a completed trick adds every
    component's reward."""
    cdef State* s = &S.s
    cdef int winner = add_to_trick(S.t, s, card)
    cdef int wpos, i
    if winner < 0:
        return
    wpos = S.t.wrap_seat[winner - s.leader + S.t.n_seats]
    for i in range(S.p.n_components):
        S.acc[i] += trick_reward(S.t, &S.p.component[i], s.trick, wpos, winner, s.trick_mask, s.trick_points,
                                 s.live)
    close_trick(S.t, s, winner)


cdef inline int settled(const Settle* S) noexcept nogil:
    """Step 2: the value of a finished deal: the payoff, or the threshold search's value (Step 7)."""
    return final_need(S) if S.deciding >= 0 else final_payoff(S.p, S.acc)


cdef inline int last_trick_payoff(Settle* S) noexcept nogil:
    """Step 2: one card left in every hand: the last trick is played out and the deal settled, without a node per
    card."""
    cdef State saved = S.s
    cdef int saved_acc[MAX_COMPONENTS]
    cdef int value
    saved_acc = S.acc
    S.nodes += 1
    while S.s.live:
        settle_play(S, lowest(S.s.hands[S.t.wrap_seat[S.s.leader + S.s.trick_len]]))
    value = settled(S)
    S.s = saved
    S.acc = saved_acc
    return value


cdef inline uint64_t accumulated_key(const Settle* S, const int* reach, int skip) noexcept nogil:
    """Step 4: the accumulated values as one 64-bit word to mix into the table key. Only what the rest of the play
    can still change counts: a component's bucket now and the distances to the thresholds it can still cross (those
    within ``reach``, the component's accumulation plus its future upper bound). Accumulations that differ only
    beyond that reach settle alike, so they share entries (late in a deal most do). Component ``skip`` (or -1) is
    left out: the threshold search's bounds are on its future (Step 7)."""
    cdef const Payoff* p = S.p
    cdef uint64_t h = <uint64_t>0x9e3779b97f4a7c15
    cdef int i, j, b
    for i in range(p.n_components):
        if i == skip:
            continue
        b = bucket_of(p, i, S.acc[i])
        h = mix(h ^ (<uint64_t>(b + 1) * <uint64_t>0x100000001b3 + <uint64_t>i))
        for j in range(b, p.n_thresholds[i]):
            if p.thresholds[i][j] > reach[i]:
                break
            h = mix(h ^ (<uint64_t>(p.thresholds[i][j] - S.acc[i]) * <uint64_t>0x9e3779b1 + <uint64_t>(i * 8 + j)))
    return h


cdef inline int need_of(const Settle* S, int index, int target) noexcept nogil:
    """Step 7: the least final value of the deciding component with which the payoff reaches ``target``, the other
    components' buckets those of ``index`` (a table index, the deciding component's bucket 0); ``never`` if none."""
    cdef const Payoff* p = S.p
    cdef int m = S.deciding
    cdef int b
    for b in range(p.n_thresholds[m] + 1):
        if p.table[index + b * p.stride[m]] >= target:
            return p.thresholds[m][b - 1] if b else 0
    return S.never


cdef inline void need_question(Settle* S, int target) noexcept nogil:
    """Step 7: the question "payoff >= ``target``" as a need per bucket tuple of the other components."""
    cdef const Payoff* p = S.p
    cdef int index
    for index in range(p.n_entries):
        if (index // p.stride[S.deciding]) % (p.n_thresholds[S.deciding] + 1) == 0:
            S.need[index] = need_of(S, index, target)
    S.question_key = mix(<uint64_t>(target + PAYOFF_LIMIT + 1) * <uint64_t>0xd6e8feb86659fd93)


cdef inline int need_settles(const Settle* S, int g, int other) noexcept nogil:
    """Step 7: whether the threshold search's fail-soft answer ``g`` to the current question answers the question
    for the payoff value ``other`` too. Passed (g >= 0): the declaring side can force the deciding component to
    end at least g above the current need of whatever buckets the others end in, so it reaches ``other`` too
    where that need never falls short of ``other``'s. Failed: the other side can hold it to g (< 0) above, so the
    payoff stays below ``other`` where ``other``'s need is more than that everywhere."""
    cdef const Payoff* p = S.p
    cdef int index, need
    for index in range(p.n_entries):
        if (index // p.stride[S.deciding]) % (p.n_thresholds[S.deciding] + 1):
            continue
        need = need_of(S, index, other)
        if (g >= 0 and need > S.need[index] + g) or (g < 0 and need <= S.need[index] + g):
            return 0
    return 1


cdef inline void need_range(Settle* S, int sure, const int* reach, int* low, int* high) noexcept nogil:
    """Step 7: bounds on the threshold search's value. The deciding component gains between 0 and its future upper
    bound (with ``sure``, between what the declaring side is sure of and what the other side is not, as in
    :func:`settle_boxes`); the need is at most its greatest entry over the declaring side's box of the other
    components' buckets and at least its least over the other side's box."""
    cdef const Payoff* p = S.p
    cdef int m = S.deciding
    cdef int first_low[MAX_COMPONENTS]
    cdef int last_low[MAX_COMPONENTS]
    cdef int first_high[MAX_COMPONENTS]
    cdef int last_high[MAX_COMPONENTS]
    cdef int least, greatest, unused, gain = 0, most = reach[m] - S.acc[m], max_sure, min_sure
    if sure and p.component[m].n_events == 0 and (p.component[m].points_weight or p.component[m].trick_weight) \
            and p.component[m].max_side == p.max_side:
        sure_bounds(S.t, &p.component[m], &S.s, &max_sure, &min_sure)
        gain = max_sure
        most -= min_sure
    if settle_boxes(S, sure, reach, first_low, last_low, first_high, last_high):
        box_extremes(p, S.need, first_low, last_low, INFINITY, S.never, &unused, &greatest)
        box_extremes(p, S.need, first_high, last_high, 0, -INFINITY, &least, &unused)
    else:
        box_extremes(p, S.need, first_low, last_low, 0, S.never, &least, &greatest)
    low[0] = S.acc[m] + gain - greatest
    high[0] = S.acc[m] + most - least


cdef inline void value_range(Settle* S, int sure, const int* reach, int* low, int* high) noexcept nogil:
    """Step 3: bounds on the searched value: the payoff's (:func:`payoff_range`) or the threshold search's
    (:func:`need_range`)."""
    if S.deciding >= 0:
        need_range(S, sure, reach, low, high)
    else:
        payoff_range(S, sure, reach, low, high)


cdef inline void quasi_range(Settle* S, uint64_t key, uint8_t leader_flags, int* lower, int* upper,
                             int* best) noexcept nogil:
    """Step 7: tighten [lower, upper] with the quasi table's bounds on the future of the positions of this shape
    (same question, same accumulations of the other components), shifted by the deciding component's accumulation
    and widened by the points their cards differ by (search.pxd's ``quasi_tighten``, every entry of the bucket read:
    the threshold search's fail-soft answers settle neighbouring questions); ``best`` gets the best card of the
    position itself when it is there, else of the newest."""
    cdef int m = S.deciding
    S.table_hits += quasi_tighten(S.table, S.t, &S.s, key, leader_flags, S.acc[m], S.p.component[m].points_weight,
                                  lower, upper, best, -INFINITY, INFINITY)


cdef inline int settle_interrupted(Settle* S) noexcept nogil:
    """Whether the search must unwind (search.pxd, Interrupts): on one thread the signals and the stop check every
    POLL_EVERY nodes, as always; on several, also the flags of parallel.pxd every SHARED_POLL_EVERY nodes."""
    if S.shared_stop == NULL:
        return interrupted(S.nodes, &S.aborted, S.stop_check)
    if S.aborted or (S.nodes & (SHARED_POLL_EVERY - 1)) != 0:
        return S.aborted
    return poll_flags(&S.aborted, S.nodes, S.task_stop, S.shared_stop, S.keep, S.index, S.polls_python,
                      S.stop_check)


cdef inline int settle_search(Settle* S, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the payoff (Steps 1-5), or on the threshold search's value where the payoff has a
    deciding component (Step 7)."""
    cdef State saved
    cdef int saved_acc[MAX_COMPONENTS]
    cdef int boundary = S.s.trick_len == 0
    cdef int m = S.deciding, shift = S.acc[S.deciding] if S.deciding >= 0 else 0
    cdef int lower = -INFINITY, upper = INFINITY, best, best_card = NO_CARD, tt_card = NO_CARD
    cdef int n, i, card, value, maximising, seat, use_table = 0, sure_low, sure_high
    cdef int reach[MAX_COMPONENTS]
    cdef int moves[MAX_CARDS]
    cdef uint64_t legal, key = 0
    cdef uint8_t leader_flags = 0
    cdef Entry entry
    cdef QuasiEntry* qbucket
    if boundary and S.s.live == 0:
        return settled(S)
    S.nodes += 1
    if settle_interrupted(S):
        return 0
    if boundary and popcount(S.s.hands[S.s.leader]) == 1:
        return last_trick_payoff(S)
    if boundary:
        # the table key first, and its bucket's cache lines fetched while the bounds are computed
        reach_of(S, reach)
        use_table = S.use_table and popcount(S.s.live) > S.t.n_seats
        if use_table:
            leader_flags = <uint8_t>(S.s.leader | (S.s.flags << 3))
            key = accumulated_key(S, reach, m) ^ S.question_key
            if S.use_quasi:
                key ^= quasi_key(S.t, &S.s)
                qbucket = quasi_bucket(S.table, key, leader_flags)
                __builtin_prefetch(qbucket)
                __builtin_prefetch(<char*>qbucket + 64)
            else:
                key ^= position_key(S.t, &S.s, S.use_canonical)
                __builtin_prefetch(table_bucket(S.table, key, leader_flags))
        value_range(S, 0, reach, &lower, &upper)
        if use_table and S.use_quasi:
            quasi_range(S, key, leader_flags, &lower, &upper, &tt_card)
        elif use_table and table_lookup(S.table, key, leader_flags, &entry):
            S.table_hits += 1
            if entry.lower + shift > lower:
                lower = entry.lower + shift
            if entry.upper + shift < upper:
                upper = entry.upper + shift
            tt_card = decode_card(S.t, &S.s, entry.best, S.use_canonical)
        if bounds_decide(lower, upper, alpha, beta, &value):
            return value
        if popcount(S.s.hands[S.s.leader]) > SURE_ABOVE:
            # the sure tricks only when the table did not settle the position (they cost a walk of the hands)
            value_range(S, 1, reach, &sure_low, &sure_high)
            if sure_low > lower:
                lower = sure_low
            if sure_high < upper:
                upper = sure_high
            if bounds_decide(lower, upper, alpha, beta, &value):
                return value
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
    # Step 5. The moves.
    seat = S.t.wrap_seat[S.s.leader + S.s.trick_len]
    legal = legal_cards(S.t, &S.s)
    if S.use_equivalence:
        legal = representatives(S.t, &S.s, legal)
    if legal & (legal - 1):
        n = order_moves(S.t, &S.p.component[m if m >= 0 else 0], &S.s, legal, tt_card, moves, S.history[seat],
                        S.use_lookahead, NO_CARD, -1)
    else:  # a forced card: nothing to order, no lookahead to play out
        moves[0] = lowest(legal)
        n = 1
    maximising = (S.p.max_side >> seat) & 1
    best = -INFINITY if maximising else INFINITY
    cdef int a = alpha, b = beta, k = 0
    cdef uint64_t deferred = 0, mark = 0
    cdef uint64_t* busy = S.busy if S.busy != NULL and popcount(S.s.hands[seat]) >= S.defer_min else NULL
    cdef uint64_t* slot = NULL
    i = 0
    while True:
        card = next_move(&S.s, moves, n, &i, &k, &deferred, busy, &slot, &mark)
        if card == NO_CARD:
            break
        saved = S.s
        saved_acc = S.acc
        settle_play(S, card)
        value = settle_search(S, a, b)
        S.s = saved
        S.acc = saved_acc
        unmark_move(busy, slot, mark)
        if keep_better(maximising, value, card, &best, &best_card, &a, &b):
            S.history[seat][card] += popcount(S.s.live) + 1
            break
    if use_table and not S.aborted:  # an unwinding search proved nothing
        learned_bounds(alpha, beta, lower, upper, best, &lower, &upper)
        if S.use_quasi:
            quasi_store(S.table, key, leader_flags, S.s.live, lower - shift, upper - shift,
                        encode_card(S.t, &S.s, best_card, 1))
        else:
            table_store(S.table, key, leader_flags, popcount(S.s.live), lower - shift, upper - shift,
                        encode_card(S.t, &S.s, best_card, S.use_canonical))
    return best


cdef inline int payoff_reaches(Settle* S, int target) noexcept nogil:
    """Whether the payoff the declaring side can force reaches ``target``: one null-window question (Step 6), by
    the threshold search where the payoff has a deciding component (Step 7)."""
    S.iterations += 1
    if S.deciding >= 0:
        need_question(S, target)
        return settle_search(S, -1, 0) >= 0
    return settle_search(S, target - 1, target) >= target


cdef inline int settle_value(Settle* S, int lo, int hi, int guess) noexcept nogil:
    """Step 6: the exact payoff by bisection over the distinct payoff values ``values[lo..hi]`` (indices; the caller
    knows the payoff lies there): the answer is the greatest value v with "payoff >= v", and each null-window search
    answers one such question (fail-soft answers skip ahead: on the payoff, or by :func:`need_settles`). ``guess``
    (an index in [lo, hi], or -1) is probed first and then its neighbour on the side the answer points to: a card's
    settlement is usually its sibling's, and two probes then settle it."""
    cdef const Payoff* p = S.p
    cdef int mid, g, target, probes = 0
    while lo < hi:
        if probes == 0 and lo < guess <= hi:
            mid = guess
        elif probes == 0 and guess == lo:
            mid = lo + 1
        elif probes == 1 and guess >= 0:
            mid = lo + 1 if guess <= lo else hi  # the neighbour of the first answer's side
        else:
            mid = (lo + hi + 1) // 2
        probes += 1
        target = p.values[mid]
        S.iterations += 1
        if S.deciding >= 0:
            need_question(S, target)
            g = settle_search(S, -1, 0)
            if g >= 0:
                lo = mid
                while lo < hi and need_settles(S, g, p.values[lo + 1]):
                    lo += 1
            else:
                hi = mid - 1
                while hi > lo and need_settles(S, g, p.values[hi]):
                    hi -= 1
            continue
        g = settle_search(S, target - 1, target)
        if g >= target:
            lo = mid
            while lo < hi and p.values[lo + 1] <= g:
                lo += 1
        else:
            hi = mid - 1
            while hi > lo and p.values[hi] > g:
                hi -= 1
    return p.values[lo]


cdef inline int settle_line(Settle* S, int value, const int* order, int n_order, int* line) noexcept nogil:
    """A principal variation of the payoff ``value`` (the root's): at each turn the first card of ``order`` that
    keeps it, played on (``S`` ends at the deal's end). A card keeps the value when its child reaches it (no card
    of the declaring side is worth more than the position) or, for the other side's card, does not reach the next
    payoff value above (none is worth less): one null-window question per card tried; a forced card none. Returns
    the line's length, or -1 when no card keeps the value or the deal settles otherwise (``value`` was not the
    root's)."""
    cdef const Payoff* p = S.p
    cdef State saved
    cdef int saved_acc[MAX_COMPONENTS]
    cdef int n = 0, j, card, chosen, keeps, above = INFINITY, seat
    cdef uint64_t legal
    for j in range(p.n_values):
        if p.values[j] > value:
            above = p.values[j]
            break
    while S.s.live or S.s.trick_len:
        seat = S.t.wrap_seat[S.s.leader + S.s.trick_len]
        legal = legal_cards(S.t, &S.s)
        chosen = NO_CARD
        if not legal & (legal - 1):
            chosen = lowest(legal)
        for j in range(n_order):
            if chosen != NO_CARD or S.aborted:
                break
            card = order[j]
            if not (legal >> card) & 1:
                continue
            saved = S.s
            saved_acc = S.acc
            settle_play(S, card)
            if (p.max_side >> seat) & 1:
                keeps = payoff_reaches(S, value)
            else:
                keeps = above == INFINITY or not payoff_reaches(S, above)
            S.s = saved
            S.acc = saved_acc
            if keeps:
                chosen = card
        if chosen == NO_CARD:
            return -1
        settle_play(S, chosen)
        line[n] = chosen
        n += 1
    if final_payoff(p, S.acc) != value:
        return -1
    return n
