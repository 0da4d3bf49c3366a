# Move ordering: the card the table remembers as best first, then cheap trick-taking heuristics.
#
# Following to a trick: take it cheaply when an opponent is winning (with the most points when last to play); when
# the own side is winning, give it points (schmieren) without overtaking; otherwise throw the cheapest card.
# Leading: the strongest live card of a class first (a sure trick), then from the top. Among cards the heuristic
# ranks alike, the one that caused more cut-offs before goes first (the history heuristic). Good order only makes
# cut-offs come sooner; it never changes a value.

from libc.stdint cimport uint64_t
from cardset cimport lowest, drop_lowest
from types cimport Tables, Objective, State, MAX_CARDS
from movegen cimport current_winner


cdef inline int card_score(const Tables* t, const Objective* o, const State* s, int card, int wpos) noexcept nogil:
    cdef int seat, my_side, wseat, led, p, best_power, last
    if s.trick_len == 0:
        if (s.live & t.stronger[card]) == 0:
            return 4000 + 16 * t.points[card] + t.power[t.card_class[card]][card]
        return t.power[t.card_class[card]][card] - 16 * t.points[card]
    seat = (s.leader + s.trick_len) % t.n_seats
    my_side = (o.max_side >> seat) & 1
    led = t.card_class[s.trick[0]]
    wseat = (s.leader + wpos) % t.n_seats
    best_power = t.power[led][s.trick[wpos]]
    p = t.power[led][card]
    last = s.trick_len == t.n_seats - 1
    if ((o.max_side >> wseat) & 1) != my_side:
        if p > best_power:
            return 3000 + (16 * t.points[card] if last else 0) - p
        return 1000 - 16 * t.points[card] - p
    if p > best_power:
        return 1500 - p
    return 2000 + 16 * t.points[card] - p


cdef inline int order_moves(const Tables* t, const Objective* o, const State* s, uint64_t moves, int first,
                            int* out, const int* history) noexcept nogil:
    """Write the moves into ``out`` best first (``first``, when a move, leads); returns their number."""
    cdef int scores[MAX_CARDS]
    cdef int n = 0, i, j, card, score
    cdef int wpos = current_winner(t, s.trick, s.trick_len) if s.trick_len else 0
    while moves:
        card = lowest(moves)
        moves = drop_lowest(moves)
        score = 1 << 30 if card == first else card_score(t, o, s, card, wpos) * 256 + (history[card] if history[card] < 255 else 255)
        i = n
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            out[i] = out[i - 1]
            i -= 1
        scores[i] = score
        out[i] = card
        n += 1
    return n
