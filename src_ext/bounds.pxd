# Quick bounds on the future value, for cut-offs before any card is tried.
#
# The maximising side can never win more than everything still in play: the points of every card not yet won
# (the trick on the table included) times the points weight, one trick weight per trick still to be completed, and
# the reward of every trick event whose cards are all still in play (each can happen at most once, since a card
# falls only once). The lower bound is 0: no reward is negative.

from libc.stdint cimport uint64_t
from cardset cimport popcount
from types cimport Tables, Objective, State


cdef inline int tricks_to_play(const Tables* t, const State* s) noexcept nogil:
    """Tricks still to be completed, the one on the table included."""
    cdef int seat = (s.leader + s.trick_len) % t.n_seats
    cdef int left = popcount(s.hands[seat])
    return left


cdef inline int future_upper_bound(const Tables* t, const Objective* o, const State* s) noexcept nogil:
    cdef uint64_t in_play = s.live | s.trick_mask
    cdef int bound = o.points_weight * s.points_left + o.trick_weight * tricks_to_play(t, s)
    cdef int i
    for i in range(o.n_events):
        if in_play & o.event_present[i] == o.event_present[i]:
            bound += o.event_reward[i]
    return bound
