# Quick bounds on the future value, for cut-offs before any card is tried.
#
# The maximising side can never win more than everything still in play: the points of every card not yet won
# (the trick on the table included) times the points weight, one trick weight per trick still to be completed, and
# the reward of every trick event whose cards are all still in play (each can happen at most once, since a card
# falls only once). The lower bound is 0: no reward is negative.
#
# A last-trick event with a winning card (Pagat Ultimo) cannot happen while some other seat holds nothing but
# cards that beat that card whatever is led: its last card will beat it. Unless a special winner of that card (the
# Sagotrick) can still strike: then the card wins its trick whatever the fourth card is.
#
# Sure tricks tighten both. The dominance chain lists the cards that beat every card below them whatever is led
# (the top trumps). Take the top m live chain cards: seat X holds x of them, the other side y. Each of X's falls in
# a trick of its own, which X's side wins unless a higher chain card of the other side is in it (each of the y can
# be in one trick only) or a special winner strikes in it (once per special: all its cards fall together). So X's
# side is sure of x - y - (specials that could strike) tricks, best over m, and of at least the cheapest that many
# of X's m cards; this holds however and whenever the cards are played, since only the tricks' winners matter. A
# special could strike while all its cards are live in different hands.
#
# The leader, L, also wins with each top card of a class he holds for as many rounds as every other seat that could
# ruff it (or holds a chain card) still follows suit: he keeps the lead while he wins, and a partner's ruff would
# take it. No chain card of the class may be in another hand, no special may strike in those tricks (one of its
# cards is a ruffer's, who follows suit) and, when several classes are cashed, whoever can ruff one can ruff or
# follow every other (checked when the tables are compiled), so no ruffer can throw a class away while another is
# cashed. Those tricks hold no chain card, so L's side adds them to any of its seats' chain tricks.
# Unlike the chain tricks, these hold only while L's side plays for them: they bound the value the leader's side
# can force (all an additive reward needs), not every play (settle.pxd's Step 3 keeps that apart).
#
# When the top r live chain cards are all L's and of one class, the trumps, which must be followed by trumps and
# hold every card that can ruff a cashable class, L can lead them first (no special may strike): each seat with r
# trumps or fewer is then out of them and cannot ruff the classes L cashes afterwards. When no one can ruff a class
# and the others hold no more of it than L's top cards, all of L's cards of the class win.
#
# In each of the s sure tricks every other seat gives up a card, at least its s cheapest (when L leads his top
# trumps first, each other seat's cheapest trumps in as many of them as it can follow). So the side is sure of s
# tricks and of those points; the other side can win at most the rest.
#
# Inside a trick the only bound besides everything in play is the trick itself: when no card the other side may
# still play to it can beat the winning card, nor therefore any card above it a partner may still put on, the
# winner's side is sure of the trick: the cards on the table and the cheapest card each seat still to play may play
# (a special winner that could still complete itself in the trick skips this). A seat may play at most the cards of
# the first follow level its hand meets (all of them where that level lets it play anything when it cannot beat).
# The search does not use this bound (``quick_bounds`` does, for a root inside a trick): taken at every node inside
# a trick it saves fewer nodes than it costs time (bench/README.md).

from libc.stdint cimport uint64_t
from cardset cimport popcount
from types cimport Tables, Objective, State, MAX_SEATS, MAX_CARDS
from cardset cimport lowest, drop_lowest
from movegen cimport beating

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil


cdef inline int tricks_to_play(const Tables* t, const State* s) noexcept nogil:
    """Tricks still to be completed, the one on the table included."""
    cdef int seat = t.wrap_seat[s.leader + s.trick_len]
    cdef int left = popcount(s.hands[seat])
    return left


cdef inline bint special_can_win(const Tables* t, uint64_t in_play, int card) noexcept nogil:
    """Whether a special winner that ``card`` wins by (the Sagotrick's Pagat) can still strike: all its cards are in
    play. Its trick is then ``card``'s whatever else falls in it, so no seat's beaters say it must lose."""
    cdef int k
    for k in range(t.n_specials):
        if t.special_winner[k] == card and in_play & t.special_cards[k] == t.special_cards[k]:
            return True
    return False


cdef inline int future_upper_bound(const Tables* t, const Objective* o, const State* s) noexcept nogil:
    cdef uint64_t in_play = s.live | s.trick_mask
    cdef int bound = o.points_weight * s.points_left + o.trick_weight * tricks_to_play(t, s)
    cdef int i, seat, holder
    for i in range(o.n_events):
        if in_play & o.event_present[i] != o.event_present[i]:
            continue
        if o.event_last[i] and o.event_winner[i] >= 0 and (s.live >> o.event_winner[i]) & 1 \
                and not special_can_win(t, in_play, o.event_winner[i]):
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


cdef inline int cheapest(const Tables* t, uint64_t cards, int count) noexcept nogil:
    """The least points ``count`` of ``cards`` can be worth (all of them when there are fewer)."""
    cdef int j, n, total = 0
    for j in range(t.n_point_levels):
        if count <= 0:
            break
        n = popcount(cards & t.point_level_mask[j])
        if n > count:
            n = count
        total += n * t.point_level_value[j]
        count -= n
    return total


cdef inline int live_specials(const Tables* t, const State* s) noexcept nogil:
    """How many special winners could still strike: all their cards live, no two in one hand."""
    cdef int k, seat, n = 0
    for k in range(t.n_specials):
        if s.live & t.special_cards[k] != t.special_cards[k]:
            continue
        for seat in range(t.n_seats):
            if popcount(s.hands[seat] & t.special_cards[k]) > 1:
                break
        else:
            n += 1
    return n


cdef inline int _special_may_strike(const Tables* t, const State* s, int k, uint64_t ruffers) noexcept nogil:
    """Whether a special winner could strike in a trick led in class ``k`` that every seat holding one of
    ``ruffers`` follows with a card of the class."""
    cdef int j
    for j in range(t.n_specials):
        if (t.special_led[j] >> k) & 1 and s.live & t.special_cards[j] == t.special_cards[j] \
                and not t.special_cards[j] & ruffers & ~t.class_mask[k]:
            return 1
    return 0


cdef inline uint64_t cheapest_cards(const Tables* t, uint64_t cards, int count) noexcept nogil:
    """``count`` of ``cards`` worth :func:`cheapest` together."""
    cdef int j
    cdef uint64_t result = 0, level
    for j in range(t.n_point_levels):
        level = cards & t.point_level_mask[j]
        while level and count > 0:
            result |= (<uint64_t>1) << lowest(level)
            level = drop_lowest(level)
            count -= 1
    return result


cdef inline void _credit(const Objective* o, int seat, int tricks, int points, int* max_sure,
                         int* min_sure) noexcept nogil:
    cdef int reward = o.points_weight * points + o.trick_weight * tricks
    if (o.max_side >> seat) & 1:
        if reward > max_sure[0]:
            max_sure[0] = reward
    elif reward > min_sure[0]:
        min_sure[0] = reward


cdef inline void sure_bounds(const Tables* t, const Objective* o, const State* s, int* max_sure,
                             int* min_sure) noexcept nogil:
    """At a trick boundary: rewards each side is sure of (``max_sure`` for the maximising side, ``min_sure`` for
    the other), from every seat's top trumps and the leader's cashable top cards."""
    cdef int count[MAX_SEATS]
    cdef int wins[MAX_SEATS]
    cdef uint64_t winners[MAX_SEATS]
    cdef int side_count[2]
    cdef int i, k, seat, other, side, card, top, safe, tricks, points, spoil, holds_called, combined
    cdef int leader = s.leader, cash = 0, cash_points = 0, run = 0, trump = 0, drawn, longest, given
    cdef uint64_t cards, prefix = 0, cash_mask = 0, ruffers, bit
    max_sure[0] = 0
    min_sure[0] = 0
    spoil = live_specials(t, s) if t.n_specials else 0
    # Every seat's chain cards: each of the top live chain cards of a seat loses only to a higher one of the other
    # side in the same trick, or to a special winner (once each).
    for seat in range(t.n_seats):
        count[seat] = 0
        wins[seat] = 0
    side_count[0] = 0
    side_count[1] = 0
    for i in range(t.n_chain):
        card = t.chain[i]
        bit = (<uint64_t>1) << card
        if not s.live & bit:
            continue
        seat = t.owner[card]
        side = (o.max_side >> seat) & 1
        if prefix == 0:
            trump = t.card_class[card]
        if run == side_count[0] + side_count[1] and seat == leader and t.card_class[card] == trump:
            run += 1
        prefix |= bit
        count[seat] += 1
        side_count[side] += 1
        if count[seat] - side_count[1 - side] - spoil > wins[seat]:
            wins[seat] = count[seat] - side_count[1 - side] - spoil
            winners[seat] = s.hands[seat] & prefix
    # The leader's top cards of each class that no other seat can ruff before running out of the class.
    holds_called = t.called_card >= 0 and leader == t.called_holder and (s.hands[leader] >> t.called_card) & 1 \
        and not (s.flags & t.called_flag)
    if spoil or not run or not t.cash_ok[trump] or (holds_called and t.called_class == trump):
        run = 0
    for k in range(t.n_classes):
        # every class cashed after the trumps must be ruffed by trumps only: no one may throw it away meanwhile
        if run and k != trump and t.cash_ok[k] and (t.ruff_mask[k] | t.chain_mask) & ~t.class_mask[trump]:
            run = 0
    for k in range(t.n_classes):
        if not t.cash_ok[k] or s.live & t.class_mask[k] & t.chain_mask & ~s.hands[leader]:
            continue
        cards = s.live & t.class_mask[k] & ~t.chain_mask
        if not cards or not (s.hands[leader] >> highest(cards)) & 1:
            continue
        if holds_called and k == t.called_class and highest(cards) != t.called_card:
            continue
        ruffers = t.ruff_mask[k] | t.chain_mask
        if spoil and _special_may_strike(t, s, k, ruffers):
            continue
        top = 0
        while cards and (s.hands[leader] >> highest(cards)) & 1:
            top += 1
            cards &= ~((<uint64_t>1) << highest(cards))
        safe = top
        # leading his top trumps first draws them: whoever holds no more trumps than that cannot ruff after
        drawn = run if k != trump else 0
        longest = 0
        for seat in range(t.n_seats):
            if seat == leader:
                continue
            i = popcount(s.hands[seat] & t.class_mask[k])
            if i > longest:
                longest = i
            # anyone who can ruff once void, a partner too: a partner's forced ruff would take the lead away
            if s.hands[seat] & ruffers and (not drawn or popcount(s.hands[seat] & t.class_mask[trump]) > drawn):
                longest = MAX_CARDS
                if i < safe:
                    safe = i
        cards = s.hands[leader] & t.class_mask[k] & ~t.chain_mask
        if longest <= top:
            # no one can ruff, and the others are out of the class after the top cards: the rest win too
            safe = popcount(cards)
        for i in range(safe):
            cash_points += t.points[highest(cards)]
            cash_mask |= (<uint64_t>1) << highest(cards)
            cards &= ~((<uint64_t>1) << highest(cards))
        cash += safe
    if cash:
        points = cash_points
        for other in range(t.n_seats):
            if other != leader:
                points += cheapest(t, s.hands[other], cash)
        _credit(o, leader, cash, points, max_sure, min_sure)
    for seat in range(t.n_seats):
        if wins[seat] <= 0:
            continue
        tricks = wins[seat]
        points = cheapest(t, winners[seat], tricks)
        combined = cash and ((o.max_side >> seat) & 1) == ((o.max_side >> leader) & 1)
        if combined:
            # the leader cashes first; the chain cards, all a ruffer's, fall in other tricks
            tricks += cash
            points += cash_points
            if seat != leader:
                points += cheapest(t, s.hands[leader] & ~cash_mask, wins[seat])
                points += cheapest(t, s.hands[seat] & ~t.chain_mask, cash)
        for other in range(t.n_seats):
            if other == seat or (combined and other == leader):
                continue
            given = cheapest(t, s.hands[other], tricks)
            if seat == leader and run:
                # the others follow the leader's top trumps with their own while they have them
                i = popcount(s.hands[other] & t.class_mask[trump])
                if i > run:
                    i = run
                cards = cheapest_cards(t, s.hands[other] & t.class_mask[trump], i)
                i = cheapest(t, cards, i) + cheapest(t, s.hands[other] & ~cards, tricks - i)
                if i > given:
                    given = i
            points += given
        _credit(o, seat, tricks, points, max_sure, min_sure)


cdef inline uint64_t may_play(const Tables* t, uint64_t hand, int led) noexcept nogil:
    """The cards a hand may follow with to a trick led in ``led``, or more: the first follow level it meets (the
    whole hand where that level allows any card when it cannot beat)."""
    cdef int i
    for i in range(t.n_follow[led]):
        if hand & t.follow_mask[led][i]:
            return hand if t.follow_beat[led][i] == 2 else hand & t.follow_mask[led][i]
    return hand


cdef inline void trick_bounds(const Tables* t, const Objective* o, const State* s, int* lower,
                              int* upper) noexcept nogil:
    """Inside a trick: when no card of the other side still to come beats the trick's winner, the winner's side is
    sure of the trick (raises ``lower`` or lowers ``upper``)."""
    cdef int led = t.card_class[s.trick[0]]
    cdef int wpos = s.win_pos
    cdef int side = (o.max_side >> t.wrap_seat[s.leader + wpos]) & 1
    cdef uint64_t rest = 0, others = 0
    cdef int i, k, seat, reward, points = s.trick_points
    for i in range(s.trick_len, t.n_seats):
        seat = t.wrap_seat[s.leader + i]
        rest |= s.hands[seat]
        if ((o.max_side >> seat) & 1) != side:
            others |= may_play(t, s.hands[seat], led)
    if beating(t, others, led, t.power[led][s.trick[wpos]]):
        return
    for k in range(t.n_specials):
        if (t.special_led[k] >> led) & 1 and (s.trick_mask | rest) & t.special_cards[k] == t.special_cards[k] \
                and s.trick_mask & t.special_cards[k] != t.special_cards[k]:
            return
    for i in range(s.trick_len, t.n_seats):
        points += cheapest(t, may_play(t, s.hands[t.wrap_seat[s.leader + i]], led), 1)
    reward = o.points_weight * points + o.trick_weight
    if side:
        if reward > lower[0]:
            lower[0] = reward
    else:
        upper[0] -= reward
