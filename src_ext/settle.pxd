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
#    Where neither the box nor the table decides, the sure tricks narrow the box (they cost a walk of the hands).
# 4. The transposition table stores bounds on the *final* payoff, which depends on what was accumulated, so the key
#    of a trick-boundary position is mixed with what of the accumulation still matters: per component its bucket
#    and its distance to each threshold it can still reach.
# 5. Moves: legal cards, one per equivalence group (the wrapper gives every event card a signature of its own, so
#    equivalent cards are equivalent for every component), ordered by the points component's heuristic and the
#    trick lookahead (order.pxd), as the points search orders them.
# 6. The driver bisects over the sorted distinct payoff values (few), one null-window search per probe; known bounds
#    narrow the range and a guess (a sibling card's value) is probed first.

from libc.stdint cimport uint64_t, uint32_t, uint8_t
from cardset cimport lowest, drop_lowest, popcount
from types cimport Tables, Objective, State, MAX_CARDS, MAX_SEATS, NO_CARD, INFINITY
from movegen cimport current_winner, legal_cards, representatives
from bounds cimport future_upper_bound, sure_bounds
from order cimport order_moves
from tt cimport Table, Entry, table_bucket, table_probe, table_store_result, mix
from search cimport SURE_ABOVE, interrupted, trick_reward, keep_better, bounds_decide, add_to_trick, close_trick, position_key, encode_card, \
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

ctypedef struct Settle:
    const Tables* t
    const Payoff* p
    State s
    int acc[MAX_COMPONENTS]
    Table* table
    int use_table
    int use_canonical
    int use_equivalence
    uint64_t nodes
    uint64_t table_hits
    uint64_t iterations
    int history[MAX_SEATS][MAX_CARDS]
    int aborted                               # a signal handler raised: unwind (search.pxd, Interrupts)


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


cdef inline void reach_of(Settle* S, int* reach) noexcept nogil:
    """Each component's static reach: its accumulation plus its future upper bound."""
    cdef int i
    for i in range(S.p.n_components):
        reach[i] = S.acc[i] + future_upper_bound(S.t, &S.p.component[i], &S.s)


cdef inline void payoff_range(Settle* S, int sure, const int* reach, int* low, int* high) noexcept nogil:
    """Step 3: the least and greatest payoff over the box of buckets every component can still reach (``reach``:
    from :func:`reach_of`). With ``sure``, a card-point or trick component gains at least what its side is sure of and at most what the
    other side is not (the sure tricks of search.pxd's Step 3'', with as many tricks left as there)."""
    cdef const Payoff* p = S.p
    cdef int first[MAX_COMPONENTS]
    cdef int last[MAX_COMPONENTS]
    cdef int at[MAX_COMPONENTS]
    cdef int i, index, value, gain, most, max_sure, min_sure
    for i in range(p.n_components):
        gain = 0
        most = reach[i] - S.acc[i]
        if sure and p.component[i].n_events == 0 and (p.component[i].points_weight or p.component[i].trick_weight) \
                and bucket_of(p, i, S.acc[i]) != bucket_of(p, i, reach[i]):  # one bucket: nothing to narrow
            sure_bounds(S.t, &p.component[i], &S.s, &max_sure, &min_sure)
            gain = max_sure
            most -= min_sure
        first[i] = bucket_of(p, i, S.acc[i] + gain)
        last[i] = bucket_of(p, i, S.acc[i] + most)
        at[i] = first[i]
    low[0] = INFINITY
    high[0] = -INFINITY
    index = 0
    for i in range(p.n_components):
        index += at[i] * p.stride[i]
    while True:
        value = p.table[index]
        if value < low[0]:
            low[0] = value
        if value > high[0]:
            high[0] = value
        if low[0] < high[0] and low[0] == p.values[0] and high[0] == p.values[p.n_values - 1]:
            return  # already the widest possible
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


cdef inline int last_trick_payoff(Settle* S) noexcept nogil:
    """Step 2: one card left in every hand: the last trick is played out and the table read, without a node per
    card."""
    cdef State saved = S.s
    cdef int saved_acc[MAX_COMPONENTS]
    cdef int value
    saved_acc = S.acc
    S.nodes += 1
    while S.s.live:
        settle_play(S, lowest(S.s.hands[S.t.wrap_seat[S.s.leader + S.s.trick_len]]))
    value = final_payoff(S.p, S.acc)
    S.s = saved
    S.acc = saved_acc
    return value


cdef inline uint64_t accumulated_key(const Settle* S, const int* reach) noexcept nogil:
    """Step 4: the accumulated values as one 64-bit word to mix into the table key. Only what the rest of the play
    can still change counts: a component's bucket now and the distances to the thresholds it can still cross (those
    within ``reach``, the component's accumulation plus its future upper bound). Accumulations that differ only beyond that reach settle alike, so they share
    entries (late in a deal most do)."""
    cdef const Payoff* p = S.p
    cdef uint64_t h = <uint64_t>0x9e3779b97f4a7c15
    cdef int i, j, b
    for i in range(p.n_components):
        b = bucket_of(p, i, S.acc[i])
        h = mix(h ^ (<uint64_t>(b + 1) * <uint64_t>0x100000001b3 + <uint64_t>i))
        for j in range(b, p.n_thresholds[i]):
            if p.thresholds[i][j] > reach[i]:
                break
            h = mix(h ^ (<uint64_t>(p.thresholds[i][j] - S.acc[i]) * <uint64_t>0x9e3779b1 + <uint64_t>(i * 8 + j)))
    return h


cdef inline int settle_search(Settle* S, int alpha, int beta) noexcept nogil:
    cdef State saved
    cdef int saved_acc[MAX_COMPONENTS]
    cdef int boundary = S.s.trick_len == 0
    cdef int lower = -INFINITY, upper = INFINITY, best, best_card = NO_CARD, tt_card = NO_CARD
    cdef int n, i, card, value, maximising, seat, use_table = 0, sure_low, sure_high
    cdef int reach[MAX_COMPONENTS]
    cdef int moves[MAX_CARDS]
    cdef uint64_t legal, key = 0
    cdef uint8_t leader_flags = 0
    cdef Entry* entry
    if boundary and S.s.live == 0:
        return final_payoff(S.p, S.acc)
    S.nodes += 1
    if interrupted(S.nodes, &S.aborted, NULL):
        return 0
    if boundary and popcount(S.s.hands[S.s.leader]) == 1:
        return last_trick_payoff(S)
    if boundary:
        # the table key first, and its bucket's cache line fetched while the payoff box is walked
        reach_of(S, reach)
        use_table = S.use_table and popcount(S.s.live) > S.t.n_seats
        if use_table:
            leader_flags = <uint8_t>(S.s.leader | (S.s.flags << 3))
            key = position_key(S.t, &S.s, S.use_canonical) ^ accumulated_key(S, reach)
            __builtin_prefetch(table_bucket(S.table, key, leader_flags))
        payoff_range(S, 0, reach, &lower, &upper)
        if lower == upper:
            return lower
        if use_table:
            entry = table_probe(S.table, key, leader_flags)
            if entry != NULL:
                S.table_hits += 1
                if entry.lower > lower:
                    lower = entry.lower
                if entry.upper < upper:
                    upper = entry.upper
                tt_card = decode_card(S.t, &S.s, entry.best, S.use_canonical)
        if bounds_decide(lower, upper, alpha, beta, &value):
            return value
        if popcount(S.s.hands[S.s.leader]) > SURE_ABOVE:
            # the sure tricks only when the table did not settle the position (they cost a walk of the hands)
            payoff_range(S, 1, reach, &sure_low, &sure_high)
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
        n = order_moves(S.t, &S.p.component[0], &S.s, legal, tt_card, moves, S.history[seat], 1, NO_CARD, -1)
    else:  # a forced card: nothing to order, no lookahead to play out
        moves[0] = lowest(legal)
        n = 1
    maximising = (S.p.max_side >> seat) & 1
    best = -INFINITY if maximising else INFINITY
    cdef int a = alpha, b = beta
    for i in range(n):
        card = moves[i]
        saved = S.s
        saved_acc = S.acc
        settle_play(S, card)
        value = settle_search(S, a, b)
        S.s = saved
        S.acc = saved_acc
        if keep_better(maximising, value, card, &best, &best_card, &a, &b):
            S.history[seat][card] += popcount(S.s.live) + 1
            break
    if use_table and not S.aborted:  # an unwinding search proved nothing
        table_store_result(S.table, key, leader_flags, popcount(S.s.live), alpha, beta, lower, upper, best,
                           encode_card(S.t, &S.s, best_card, S.use_canonical))
    return best


cdef inline int settle_value(Settle* S, int lo, int hi, int guess) noexcept nogil:
    """Step 6: the exact payoff by bisection over the distinct payoff values ``values[lo..hi]`` (indices; the caller
    knows the payoff lies there): the answer is the greatest value v with "payoff >= v", and each null-window search
    answers one such question (fail-soft answers skip ahead). ``guess`` (an index in [lo, hi], or -1) is probed
    first and then its neighbour on the side the answer points to: a card's settlement is usually its sibling's,
    and two probes then settle it."""
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
        g = settle_search(S, target - 1, target)
        S.iterations += 1
        if g >= target:
            lo = mid
            while lo < hi and p.values[lo + 1] <= g:
                lo += 1
        else:
            hi = mid - 1
            while hi > lo and p.values[hi] > g:
                hi -= 1
    return p.values[lo]
