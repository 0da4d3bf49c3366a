# Quick bounds on the future value, for cut-offs before any card is tried.
#
# The maximising side can never win more than everything still in play: the points of every card not yet won
# (the trick on the table included) times the points weight, one trick weight per trick still to be completed, and
# the reward of every trick event whose cards are all still in play (each can happen at most once, since a card
# falls only once). The lower bound is 0: no reward is negative.
#
# A last-trick event with a winning card (Pagat Ultimo) cannot happen while some other seat holds nothing but
# cards that beat that card whatever is led: its last card will beat it.
#
# Sure tricks tighten both. Walk the dominance chain (the cards that beat everything below them whatever is led: the
# top trumps) from the top, skipping cards already played: the seat holding the first live one, A, wins a trick with
# it and with each following live chain card it also holds, each a trick of its own. In each of those s tricks every
# other seat gives up a card, at least its s cheapest. So A's side is sure of s tricks and of those points; the
# other side can win at most the rest. No sure tricks are counted while a special winner could still strike (all
# of its cards live): a Sagotrick beats the Skus.

from libc.stdint cimport uint64_t
from cardset cimport popcount
from types cimport Tables, Objective, State, MAX_SEATS
from cardset cimport lowest, drop_lowest


cdef inline int tricks_to_play(const Tables* t, const State* s) noexcept nogil:
    """Tricks still to be completed, the one on the table included."""
    cdef int seat = (s.leader + s.trick_len) % t.n_seats
    cdef int left = popcount(s.hands[seat])
    return left


cdef inline int future_upper_bound(const Tables* t, const Objective* o, const State* s) noexcept nogil:
    cdef uint64_t in_play = s.live | s.trick_mask
    cdef int bound = o.points_weight * s.points_left + o.trick_weight * tricks_to_play(t, s)
    cdef int i, seat, holder
    for i in range(o.n_events):
        if in_play & o.event_present[i] != o.event_present[i]:
            continue
        if o.event_last[i] and o.event_winner[i] >= 0 and (s.live >> o.event_winner[i]) & 1:
            holder = t.owner[o.event_winner[i]]
            for seat in range(t.n_seats):
                if seat != holder and s.hands[seat] and (s.hands[seat] & ~o.event_beaters[i]) == 0:
                    break
            else:
                bound += o.event_reward[i]
            continue
        bound += o.event_reward[i]
    return bound


cdef inline int sure_tricks(const Tables* t, const State* s, int* holder, int* points) noexcept nogil:
    """At a trick boundary: the seat sure of the next tricks (``holder``), how many, and the points they bring."""
    cdef int i, k, seat, card, count = 0, total = 0, taken, cheapest
    cdef uint64_t rest, hand
    cdef uint64_t used
    holder[0] = -1
    points[0] = 0
    for k in range(t.n_specials):
        if s.live & t.special_cards[k] == t.special_cards[k]:
            return 0
    for i in range(t.n_chain):
        card = t.chain[i]
        if not (s.live >> card) & 1:
            continue
        if holder[0] < 0:
            for seat in range(t.n_seats):
                if (s.hands[seat] >> card) & 1:
                    holder[0] = seat
        if not (s.hands[holder[0]] >> card) & 1:
            break
        count += 1
        total += t.points[card]
    if count == 0:
        return 0
    for seat in range(t.n_seats):
        if seat == holder[0]:
            continue
        hand = s.hands[seat]
        used = 0
        for taken in range(count):  # the count cheapest cards of this seat
            cheapest = -1
            rest = hand & ~used
            while rest:
                card = lowest(rest)
                rest = drop_lowest(rest)
                if cheapest < 0 or t.points[card] < t.points[cheapest]:
                    cheapest = card
            if cheapest < 0:
                break
            used |= (<uint64_t>1) << cheapest
            total += t.points[cheapest]
    points[0] = total
    return count
