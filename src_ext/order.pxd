# Move ordering: the card the table remembers as best first, then cheap trick-taking heuristics.
#
# Following to a trick: take it cheaply when an opponent is winning (with the most points when last to play, or when
# no later seat of the other side can beat the card any more, unless it is the top card of its class, kept for
# control); when the own side is winning, give it points (schmieren) without overtaking; otherwise throw the cheapest
# card.
# Leading: the strongest live card of a class first (a sure trick), then from the top. Among cards the heuristic
# ranks alike, the one that caused more cut-offs before goes first (the history heuristic). Good order only makes
# cut-offs come sooner; it never changes a value.
#
# The trick lookahead. The rules above judge a card by the trick as it lies; a lead, or an early card to a trick, is
# better judged by how the trick ends. With ``lookahead`` on, where the seat to move is not last to the trick (first,
# second or third) and at least LOOKAHEAD_TRICKS tricks are left (big subtrees, where a good first card saves most),
# each candidate's trick is played out with every later seat's favourite card by the rules above, and what that trick
# pays the mover's side sorts first (the rules and the history break ties). A card that does not take the lead
# leaves the later seats' answers unchanged, so one playout serves all of those. A lead that cut the search off last
# time this seat led with as many cards (the killer, kept per seat and tricks left) starts KILLER_POINTS ahead:
# sibling positions are often won by the same lead (the same top trump, the same ace); in a points question only,
# since a trick pays nothing in the others and the killer would then overrule the lookahead. It cuts about a third of
# the nodes for a few per cent more time per node; ``use_lookahead`` switches it off. A question that only counts
# trick events goes without (``lookahead_pays``): a last-trick event (Pagat Ultimo) leaves no trick to rank by before
# the last, and an event that may strike in any trick (Mondfang) pays in one trick of the deal at most, which the
# followers' favourites seldom play out. The heuristic playout that gives the drivers their first guess looks ahead
# at every card but a trick's last (a better guess), since it costs one line of play, not a tree.
#
# Fewer replies first. Where the lookahead ranks leads, each lead also pays REPLY_POINTS for every legal card it
# leaves the other side's seats in its trick. A lead the mover's side means to cut with must be proved against each
# of those replies, and the subtrees below them are most of the proof; so among leads that the playout ranks about
# alike, the one that leaves the defence fewest choices (a suit they must follow with one or two cards, rather than
# one they are void in and ruff with any of their trumps) gives the smaller proof: Furtak and Buro's
# fastest-cut-first idea for Skat, in its cheapest form. Only the search's ordering pays it: the heuristic playout
# ranks by the trick alone (a better first guess). Following cards are not charged: in Zwanzigerrufen and Schafkopf
# the later seats' legal cards do not depend on which card follows (Kratzen's must-beat rules make them depend, but
# there the lookahead runs in the first trick only).
#
# Keeping the event's card. A question whose only reward is a last-trick event won by a given card (Pagat Ultimo: the
# Pagat wins the last trick) has no trick to rank before the last, so the rules above, made for points, order its
# moves by nothing that matters to it. Its moves are ordered by what decides it instead: the side that wants the
# event keeps that card to the end (played only when nothing else is legal); the other side keeps the cards that beat
# it whatever is led (one of them in the last trick stops the event), playing them last and, when it must play one,
# the strongest first (the weakest beats the event's card as well as any), and plays the event's card at once should
# it hold it. The second-to-last trick's lean search picks its first card the same way (search.pxd). The event's
# other form, the card beaten in the last trick (the Pagat's silent loss), is kept the same way with the roles
# turned: the side that wants it keeps the beaters, the other sheds the card at once, which refutes it in most deals.
#
# What each of these saves, and the variants tried and dropped, is in bench/README.md ("The engine's design choices,
# measured").

from libc.stdint cimport uint64_t
from cardset cimport lowest, drop_lowest, popcount
from types cimport Tables, Objective, State, MAX_CARDS
from movegen cimport legal_cards, note_winner
from bounds cimport may_play, highest

cdef enum:
    LOOKAHEAD_BELOW = 3                       # the lookahead for the first three cards of a trick
    LOOKAHEAD_TRICKS = 4                      # with at least this many tricks left
    KILLER_POINTS = 16                        # the killer lead's head start over the other leads' playouts
    REPLY_POINTS = 4                          # a lead's cost per legal card it leaves the other side's seats
    LOOKAHEAD_ALWAYS = 2                      # order_moves' lookahead argument: for every card but a trick's last
    KEEP_WEIGHT = 1 << 22                     # a kept card's penalty: beyond every score of the rules above
    BEATER_POWER = 1024                       # a beater's bonus per power step: above the follow rules' 256 a step


cdef inline int lookahead_pays(const Objective* o) noexcept nogil:
    """Whether every trick can pay something in this question (else the lookahead has next to nothing to rank)."""
    return o.points_weight or o.trick_weight


cdef inline int kept_event_card(const Objective* o) noexcept nogil:
    """The event's card when the question's only reward is a last-trick event that a given card wins, or in which
    it is beaten (see Keeping the event's card), else -1."""
    if o.points_weight or o.trick_weight or o.n_events != 1 or not o.event_last[0]:
        return -1
    if o.event_winner[0] >= 0:
        return o.event_winner[0]
    if o.event_not_winner[0] >= 0 and (o.event_present[0] >> o.event_not_winner[0]) & 1:
        return o.event_not_winner[0]
    return -1


cdef inline int keeping_score(const Tables* t, const Objective* o, int card, int kept, int maximising) noexcept nogil:
    """What Keeping the event's card adds to ``card``'s score (``kept``: the event's card; ``maximising``: whether
    the seat to move is of the side that wants the event). The side that needs the event's card in the last trick
    to win keeps it, the other side sheds it; the side that needs a beater there keeps its beaters."""
    cdef int beaten = o.event_winner[0] < 0   # the event is the card's being beaten, not its winning
    if card == kept:
        return -KEEP_WEIGHT if maximising and not beaten else KEEP_WEIGHT
    if maximising == beaten and (o.event_beaters[0] >> card) & 1:
        return BEATER_POWER * t.power[t.card_class[card]][card] - KEEP_WEIGHT
    return 0


cdef inline int threat_power(const Tables* t, const Objective* o, const State* s, int led) noexcept nogil:
    """The highest power a later seat of the other side may still put on the trick on the table (0: none), asked
    only where the answer matters: the mover follows, is not last, and the other side is winning."""
    cdef int mover = t.wrap_seat[s.leader + s.trick_len]
    cdef int side = (o.max_side >> mover) & 1
    cdef int i, k, seat, p, top = 0
    cdef uint64_t cards = 0, m
    if s.trick_len == 0 or s.trick_len == t.n_seats - 1 \
            or ((o.max_side >> t.wrap_seat[s.leader + s.win_pos]) & 1) == side:
        return 0                              # only an overtake of the other side's card asks (follow_score)
    for i in range(s.trick_len + 1, t.n_seats):
        seat = t.wrap_seat[s.leader + i]
        if ((o.max_side >> seat) & 1) != side:
            cards |= may_play(t, s.hands[seat], led)
    cards &= t.class_mask[led] | t.ruff_mask[led]    # only these can win a trick led in ``led``
    for k in range(t.n_classes):
        m = cards & t.class_mask[k]
        if m:
            p = t.power[led][highest(m)]
            if p > top:
                top = p
    return top


cdef inline int follow_score(int p, int points, int best_power, int against, int last, int threat,
                             int top) noexcept nogil:
    """The following rules of the prose above for a card of power ``p`` (in the led class) and ``points``, when the
    trick's best power so far is ``best_power``, the other side is winning it (``against``), the card is or is
    not the trick's ``last``, and the other side's later seats could play up to power ``threat``."""
    if against:
        if p > best_power:
            # a take for good (no later seat of the other side can beat it) wants points on it, unless the card is
            # the top of its class (kept for control)
            return 3000 + (16 * points if last or (p > threat and not top) else 0) - p
        return 1000 - 16 * points - p
    if p > best_power:
        return 1500 - p
    return 2000 + 16 * points - p


cdef inline int card_score(const Tables* t, const Objective* o, const State* s, int card, int wpos,
                           int threat) noexcept nogil:
    cdef int seat, led
    if s.trick_len == 0:
        if (s.live & t.stronger[card]) == 0:
            return 4000 + 16 * t.points[card] + t.power[t.card_class[card]][card]
        return t.power[t.card_class[card]][card] - 16 * t.points[card]
    seat = t.wrap_seat[s.leader + s.trick_len]
    led = t.card_class[s.trick[0]]
    return follow_score(t.power[led][card], t.points[card], t.power[led][s.trick[wpos]],
                        ((o.max_side >> t.wrap_seat[s.leader + wpos]) & 1) != ((o.max_side >> seat) & 1),
                        s.trick_len == t.n_seats - 1, threat, (s.live & t.stronger[card]) == 0)


cdef inline int favourite(const Tables* t, const Objective* o, const State* s, uint64_t legal, int wpos) noexcept nogil:
    """The follower's card that :func:`card_score` ranks first (the trick's facts worked out once)."""
    cdef int seat, led, best_power, against, last, threat
    cdef int card, value, top = -1 << 30, pick = lowest(legal)
    if not legal & (legal - 1):
        return pick                           # a forced card: nothing to rank
    seat = t.wrap_seat[s.leader + s.trick_len]
    led = t.card_class[s.trick[0]]
    best_power = t.power[led][s.trick[wpos]]
    against = ((o.max_side >> t.wrap_seat[s.leader + wpos]) & 1) != ((o.max_side >> seat) & 1)
    last = s.trick_len == t.n_seats - 1
    threat = threat_power(t, o, s, led)
    while legal:
        card = lowest(legal)
        legal = drop_lowest(legal)
        value = follow_score(t.power[led][card], t.points[card], best_power, against, last, threat,
                             (s.live & t.stronger[card]) == 0)
        if value > top:
            top = value
            pick = card
    return pick


cdef inline int trick_lookahead(const Tables* t, const Objective* o, const State* s0, State* s,
                                int first, int* replies) noexcept nogil:
    """The trick on the table (``s0``) completed with ``first`` by the seat to move and each later seat's heuristic
    favourite: what it pays that seat's side (the reward, or minus the reward when the other side wins it). ``s`` is
    a copy of ``s0`` made once for all the candidates: only the trick is played on it (each seat plays once to a
    trick, so the hands need not change), and it is reset from ``s0`` here. ``replies``, unless NULL, gets the
    number of legal cards the other side's later seats had (see Fewer replies first)."""
    cdef int mover = t.wrap_seat[s0.leader + s0.trick_len]
    cdef int seat, value, pick = first
    cdef uint64_t legal
    if replies != NULL:
        replies[0] = 0
    s.trick_len = s0.trick_len
    s.trick_mask = s0.trick_mask
    s.trick_points = s0.trick_points
    s.win_pos = s0.win_pos
    while True:
        if pick < 0:
            legal = legal_cards(t, s)
            if replies != NULL and ((o.max_side >> t.wrap_seat[s.leader + s.trick_len]) & 1) \
                    != ((o.max_side >> mover) & 1):
                replies[0] += popcount(legal)
            pick = favourite(t, o, s, legal, s.win_pos)
        s.trick[s.trick_len] = pick
        s.trick_len += 1
        s.trick_mask |= (<uint64_t>1) << pick
        s.trick_points += t.points[pick]
        note_winner(t, s)
        pick = -1
        if s.trick_len == t.n_seats:
            break
    seat = t.wrap_seat[s.leader + s.win_pos]
    value = o.points_weight * s.trick_points + o.trick_weight
    if ((o.max_side >> seat) & 1) == ((o.max_side >> mover) & 1):
        return 1024 + value
    return 1024 - value


cdef inline int order_moves(const Tables* t, const Objective* o, const State* s, uint64_t moves, int first,
                            int* out, const int* history, int lookahead, int killer, int kept) noexcept nogil:
    """Write the moves into ``out`` best first (``first``, when a move, leads; ``lookahead``: 1 judges early cards
    by the trick's playout, LOOKAHEAD_ALWAYS every card but the trick's last; ``kept``: the card of Keeping the
    event's card, from :func:`kept_event_card`, or -1); returns their number."""
    cdef int scores[MAX_CARDS]
    cdef int n = 0, i, j, card, score
    cdef int wpos = s.win_pos
    cdef int look = (lookahead == LOOKAHEAD_ALWAYS and s.trick_len < t.n_seats - 1) or (
        lookahead and s.trick_len < LOOKAHEAD_BELOW
        and popcount(s.hands[t.wrap_seat[s.leader + s.trick_len]]) >= LOOKAHEAD_TRICKS)
    cdef int led = t.card_class[s.trick[0]] if s.trick_len else 0
    cdef int best_power = t.power[led][s.trick[wpos]] if s.trick_len else 0
    cdef int base_card = -1, base = 0, ahead
    cdef int threat = threat_power(t, o, s, led)
    cdef State work                           # the lookahead's copy of the position (trick_lookahead)
    cdef int replies = 0
    cdef int charge = look and s.trick_len == 0 and lookahead != LOOKAHEAD_ALWAYS   # see Fewer replies first
    cdef int keeper = kept >= 0 and (o.max_side >> t.wrap_seat[s.leader + s.trick_len]) & 1
    if look:
        work = s[0]
    while moves:
        card = lowest(moves)
        moves = drop_lowest(moves)
        if card == first:
            score = 1 << 30
        elif look:
            if s.trick_len and t.power[led][card] <= best_power:
                # a card that does not take the lead leaves the later seats' answers as they were: one lookahead
                # serves them all, adjusted for the card's own points
                if base_card < 0:
                    base_card = card
                    base = trick_lookahead(t, o, s, &work, card, NULL)
                ahead = base + (o.points_weight * (t.points[card] - t.points[base_card]) if base >= 1024
                                else o.points_weight * (t.points[base_card] - t.points[card]))
            else:
                ahead = trick_lookahead(t, o, s, &work, card, &replies if charge else NULL)
                if charge:
                    ahead -= REPLY_POINTS * replies
            ahead = 0 if ahead < 0 else 2047 if ahead > 2047 else ahead
            if card == killer and o.points_weight:
                ahead += KILLER_POINTS
            score = ahead * 65536 + card_score(t, o, s, card, wpos, threat) * 8 \
                + (history[card] if history[card] < 7 else 7)
        else:
            score = card_score(t, o, s, card, wpos, threat) * 256 + (history[card] if history[card] < 255 else 255)
            if kept >= 0:                     # (without the lookahead: it has no trick to rank then)
                score += keeping_score(t, o, card, kept, keeper)
        i = n
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            out[i] = out[i - 1]
            i -= 1
        scores[i] = score
        out[i] = card
        n += 1
    return n
