# Move generation and trick winners from the rule tables (the semantics of solver/games/tables.py, in C).
#
# A game reaches the engine only as masks and numbers (types.pxd, Tables): what may be led, what must follow a led
# class level by level (any card of the level, a card that beats the trick, else the level), each card's power when a
# class is led, and special winners (cards that win together, whatever is led). So a legal card is a few mask
# operations on the hand, and a trick's winner the greatest power or a completed special. The trick's winner is kept
# as cards are added (``note_winner``), not found again at each card. Equivalent cards (same signature, no live card
# of their class between them) are searched once (``representatives``): their values are equal. Checked against the
# reference solver's move generator by perft counts (tests/test_perft.py).

from libc.stdint cimport uint64_t, uint32_t
from cardset cimport lowest, drop_lowest, popcount, compress, expand, STICH_FAST_PEXT
from types cimport Tables, State, MAX_LEVELS


cdef inline int current_winner(const Tables* t, const int* trick, int n) noexcept nogil:
    """Position of the card winning the (possibly incomplete) trick: a special winner, else the greatest power."""
    cdef int led = t.card_class[trick[0]]
    cdef uint64_t mask = 0
    cdef int i, k, seen, best, best_power
    for i in range(n):
        mask |= (<uint64_t>1) << trick[i]
    for k in range(t.n_specials):
        if not (t.special_led[k] >> led) & 1:
            continue
        if mask & t.special_cards[k] != t.special_cards[k]:
            continue
        if t.special_order_len[k]:
            seen = 0
            for i in range(n):
                if (t.special_order_mask[k] >> trick[i]) & 1:
                    if trick[i] != t.special_order[k][seen]:
                        seen = -1  # the cards fell out of the order
                        break
                    seen += 1
            if seen != t.special_order_len[k]:
                continue
        for i in range(n):
            if trick[i] == t.special_winner[k]:
                return i
    best = 0
    best_power = t.power[led][trick[0]]
    for i in range(1, n):
        if t.power[led][trick[i]] > best_power:
            best_power = t.power[led][trick[i]]
            best = i
    return best


cdef inline void note_winner(const Tables* t, State* s) noexcept nogil:
    """Keep ``s.win_pos`` current after a card was added to the trick (trick, trick_len and trick_mask already
    updated): one comparison with the winner so far, or the whole trick again when a special winner's cards are
    all on the table."""
    cdef int n = s.trick_len, k, led
    if n == 1:
        s.win_pos = 0
        return
    for k in range(t.n_specials):
        if s.trick_mask & t.special_cards[k] == t.special_cards[k]:
            s.win_pos = current_winner(t, s.trick, n)
            return
    led = t.card_class[s.trick[0]]
    if t.power[led][s.trick[n - 1]] > t.power[led][s.trick[s.win_pos]]:
        s.win_pos = n - 1


cdef inline uint64_t beating(const Tables* t, uint64_t cards, int led, int best_power) noexcept nogil:
    cdef uint64_t result = 0
    cdef int c
    while cards:
        c = lowest(cards)
        if t.power[led][c] > best_power:
            result |= (<uint64_t>1) << c
        cards = drop_lowest(cards)
    return result


cdef inline uint64_t legal_cards(const Tables* t, const State* s) noexcept nogil:
    """The cards the seat to move may play."""
    cdef int seat = t.wrap_seat[s.leader + s.trick_len]
    cdef uint64_t hand = s.hands[seat]
    cdef uint64_t legal = hand, cards, beat, class_cards
    cdef int i, led, best_power, holds_called = 0, may_run
    if t.called_card >= 0 and seat == t.called_holder and (hand >> t.called_card) & 1 \
            and not (s.flags & t.called_flag):
        holds_called = 1
    if s.trick_len == 0:
        for i in range(t.n_lead):
            cards = hand & t.lead_mask[i]
            if cards:
                legal = cards
                break
        if holds_called:
            class_cards = hand & t.class_mask[t.called_class]
            may_run = t.called_runaway_at_deal == 1 or (
                t.called_runaway_at_deal == -1 and popcount(class_cards) >= t.called_runaway_min)
            if not may_run:
                legal &= ~(t.class_mask[t.called_class] & ~((<uint64_t>1) << t.called_card))
    else:
        led = t.card_class[s.trick[0]]
        best_power = t.power[led][s.trick[s.win_pos]]
        for i in range(t.n_follow[led]):
            cards = hand & t.follow_mask[led][i]
            if not cards:
                continue
            if t.follow_beat[led][i]:
                beat = beating(t, cards, led, best_power)
                if beat:
                    legal = beat
                elif t.follow_beat[led][i] == 1:
                    legal = cards
                else:
                    legal = hand
            else:
                legal = cards
            break
        if holds_called:
            if led == t.called_class:
                return (<uint64_t>1) << t.called_card
            if popcount(hand) > 1:
                legal &= ~((<uint64_t>1) << t.called_card)
    for i in range(t.n_reservations):
        if seat == t.reservation_seat[i] and (legal >> t.reservation_card[i]) & 1 and popcount(hand) > 1 \
                and legal != ((<uint64_t>1) << t.reservation_card[i]):
            legal &= ~((<uint64_t>1) << t.reservation_card[i])
    return legal


cdef inline uint64_t representatives(const Tables* t, const State* s, uint64_t legal) noexcept nogil:
    """One card of each group of equivalent legal cards (the strongest): cards of one hand with the same signature
    and no live card of their class between them, counting the cards on the table as live. Where compress is one
    instruction, without a branch a card (the card loop's branches mispredict)."""
    cdef uint64_t live = s.live | s.trick_mask
    cdef uint64_t result = 0, rest = legal, above, packed, plane, differ = 0
    cdef int c, h, j
    if STICH_FAST_PEXT and t.rep_by_planes:
        # bit-parallel: packed down to the live cards, a card's next stronger live card of its class is the next bit
        # up, whenever it is of the same class (the planes tell, with the signature); drop each legal card whose
        # next bit up is legal and alike
        packed = compress(legal, live)
        for j in range(t.n_rep_planes):
            plane = compress(t.rep_plane[j], live)
            differ |= plane ^ (plane >> 1)
        return legal & ~expand(packed & (packed >> 1) & ~differ, live)
    while rest:
        c = lowest(rest)
        rest = drop_lowest(rest)
        above = live & t.stronger[c]
        if above:
            h = lowest(above)
            if (legal >> h) & 1 and t.signature[h] == t.signature[c]:
                continue
        result |= (<uint64_t>1) << c
    return result
