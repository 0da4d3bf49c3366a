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
# it and with each following live chain card it also holds, each a trick of its own. The leader, L, also wins with
# each top card of a class he holds for as many rounds as every other seat that could ruff it still follows suit (he
# keeps the lead while he wins; a partner's ruff would take it). In each of those s tricks every other seat gives up a card, at least its s
# cheapest. So the side is sure of s tricks and of those points; the other side can win at most the rest. When A and
# L are partners only the better of the two counts (A may have to ruff L's winner); when A is L both add up. No sure
# tricks are counted while a special winner could still strike (all of its cards live): a Sagotrick beats the Skus.

from libc.stdint cimport uint64_t
from cardset cimport popcount
from types cimport Tables, Objective, State, MAX_SEATS
from cardset cimport lowest, drop_lowest

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil


cdef inline int tricks_to_play(const Tables* t, const State* s) noexcept nogil:
    """Tricks still to be completed, the one on the table included."""
    cdef int seat = t.wrap_seat[s.leader + s.trick_len]
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


cdef inline int highest(uint64_t mask) noexcept nogil:
    return 63 - __builtin_clzll(mask)


cdef inline int cheapest_points(const Tables* t, const State* s, int skip_seat, int count) noexcept nogil:
    """The points of the ``count`` cheapest cards of every seat but ``skip_seat``: what they must give up at least
    in ``count`` tricks."""
    cdef int seat, taken, card, cheapest, total = 0
    cdef uint64_t rest, used
    for seat in range(t.n_seats):
        if seat == skip_seat:
            continue
        used = 0
        for taken in range(count):
            cheapest = -1
            rest = s.hands[seat] & ~used
            while rest:
                card = lowest(rest)
                rest = drop_lowest(rest)
                if cheapest < 0 or t.points[card] < t.points[cheapest]:
                    cheapest = card
            if cheapest < 0:
                break
            used |= (<uint64_t>1) << cheapest
            total += t.points[cheapest]
    return total


cdef inline void sure_bounds(const Tables* t, const Objective* o, const State* s, int* max_sure,
                             int* min_sure) noexcept nogil:
    """At a trick boundary: rewards each side is sure of (``max_sure`` for the maximising side, ``min_sure`` for
    the other), from the top-trump run and from the leader's cashable top cards."""
    cdef int i, k, seat, card, holder = -1, run = 0, run_points = 0, cash = 0, cash_points = 0, top, safe, count
    cdef int leader = s.leader, side
    cdef uint64_t cards
    max_sure[0] = 0
    min_sure[0] = 0
    for k in range(t.n_specials):
        if s.live & t.special_cards[k] == t.special_cards[k]:
            return
    # The top-trump run of the seat holding the strongest live chain card.
    for i in range(t.n_chain):
        card = t.chain[i]
        if not (s.live >> card) & 1:
            continue
        if holder < 0:
            holder = t.owner[card]
        if not (s.hands[holder] >> card) & 1:
            break
        run += 1
        run_points += t.points[card]
    # The leader's top cards of each class that no opponent can ruff before running out of the class.
    for k in range(t.n_classes):
        if not t.cash_ok[k]:
            continue
        cards = s.live & t.class_mask[k] & ~t.chain_mask
        top = 0
        while cards and (s.hands[leader] >> highest(cards)) & 1:
            top += 1
            cards &= ~((<uint64_t>1) << highest(cards))
        if top == 0:
            continue
        safe = top
        for seat in range(t.n_seats):
            # anyone who can ruff once void, a partner too: a partner's forced ruff would take the lead away
            if seat != leader and s.hands[seat] & t.ruff_mask[k]:
                count = popcount(s.hands[seat] & t.class_mask[k])
                if count < safe:
                    safe = count
        cards = s.live & t.class_mask[k] & ~t.chain_mask
        for i in range(safe):
            cash_points += t.points[highest(cards)]
            cards &= ~((<uint64_t>1) << highest(cards))
        cash += safe
    if holder == leader:
        _credit(t, o, s, leader, run + cash, run_points + cash_points, max_sure, min_sure)
        return
    if run and cash and ((o.max_side >> holder) & 1) == ((o.max_side >> leader) & 1):
        # partners: the top-trump holder might have to ruff the leader's winner, so count the better one only
        if o.points_weight * (run_points + cheapest_points(t, s, holder, run)) + o.trick_weight * run >= \
                o.points_weight * (cash_points + cheapest_points(t, s, leader, cash)) + o.trick_weight * cash:
            cash = 0
        else:
            run = 0
    if run:
        _credit(t, o, s, holder, run, run_points, max_sure, min_sure)
    if cash:
        _credit(t, o, s, leader, cash, cash_points, max_sure, min_sure)


cdef inline void _credit(const Tables* t, const Objective* o, const State* s, int seat, int tricks, int points,
                         int* max_sure, int* min_sure) noexcept nogil:
    cdef int reward = o.points_weight * (points + cheapest_points(t, s, seat, tricks)) + o.trick_weight * tricks
    if (o.max_side >> seat) & 1:
        if reward > max_sure[0]:
            max_sure[0] = reward
    elif reward > min_sure[0]:
        min_sure[0] = reward
