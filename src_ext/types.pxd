# The engine's plain C data: rule tables, the objective, the play state.
#
# Everything here is filled once per deal (Tables), per question (Objective) or per root position (State) by
# solver/search/engine.py, which validates every number first. Cards are *engine indices*: the wrapper renumbers the
# pack so that each class (effective suit) is one contiguous block of bits, weakest card lowest, which lets the
# equivalence test find "the next stronger live card of the same class" with one mask and one bit scan.

from libc.stdint cimport uint64_t, uint32_t, int32_t

cdef enum:
    MAX_CARDS = 64
    MAX_SEATS = 6
    MAX_CLASSES = 8
    MAX_LEVELS = 4
    MAX_SPECIALS = 4
    MAX_ORDER = 4
    MAX_EVENTS = 8
    MAX_RESERVATIONS = 4
    MAX_POINT_LEVELS = 8
    MAX_POINT_STEPS = 8
    NO_CARD = 255
    INFINITY = 30000                          # beyond every value; fits the table's int16 bounds

ctypedef struct Tables:
    int n_cards
    int n_seats
    int wrap_seat[2 * MAX_SEATS]              # k % n_seats for k < 2 n_seats: seat arithmetic without a division
    int n_classes
    int points[MAX_CARDS]
    int card_class[MAX_CARDS]
    uint64_t class_mask[MAX_CLASSES]
    uint64_t stronger[MAX_CARDS]              # cards of the same class that outrank this one
    int signature[MAX_CARDS]                  # equal signature: same class, points and rule roles
    int n_sig_planes                          # the signatures renumbered within each class (0, 1, ...), as bit
    uint64_t sig_plane[6]                     # planes: sig_plane[j] holds the cards whose number has bit j
    int n_role_planes                         # the same for signatures without points (quasi-symmetry keys)
    uint64_t role_plane[6]
    int rep_by_planes                         # each card's next stronger card of its class is the next one up, so
    int n_rep_planes                          # representatives (movegen.pxd) may read rep_plane[j]: the cards
    uint64_t rep_plane[6]                     # whose (class, signature), numbered over the pack, has bit j
    int power[MAX_CLASSES][MAX_CARDS]         # power[led class][card]; 0 = cannot win
    int n_follow[MAX_CLASSES]
    uint64_t follow_mask[MAX_CLASSES][MAX_LEVELS]
    int follow_beat[MAX_CLASSES][MAX_LEVELS]  # 0 any of level, 1 beat else level, 2 beat else hand
    int n_lead
    uint64_t lead_mask[MAX_LEVELS]
    int n_specials
    uint64_t special_cards[MAX_SPECIALS]
    int special_winner[MAX_SPECIALS]
    int special_order_len[MAX_SPECIALS]
    int special_order[MAX_SPECIALS][MAX_ORDER]
    uint64_t special_order_mask[MAX_SPECIALS]
    uint32_t special_led[MAX_SPECIALS]        # bit per led class where the special applies
    int called_card                           # -1: none
    int called_holder
    int called_class
    int called_runaway_min
    int called_runaway_at_deal                # -1 counted at the lead; 0 / 1 decided at the deal
    uint32_t called_flag
    int n_reservations
    int reservation_card[MAX_RESERVATIONS]
    int reservation_seat[MAX_RESERVATIONS]
    uint32_t led_flags[MAX_CLASSES]
    int owner[MAX_CARDS]                      # the seat dealt each card (fixed for the deal; set with the state)
    int canonical_ok                          # power never interleaves between classes: rank-relative keys allowed
    uint64_t chain_mask
    uint64_t ruff_mask[MAX_CLASSES]           # cards of other classes that win when this class is led
    int cash_ok[MAX_CLASSES]                  # the class can be led freely and must be followed by its own cards
    int n_chain                               # the dominance chain: cards that, from the top down, beat every
    int chain[MAX_CARDS]                      # card below them whatever is led (the top trumps), strongest first
    int n_point_levels                        # the cards by points, cheapest level first: a level's cards are
    uint64_t point_level_mask[MAX_POINT_LEVELS]   # worth at least its value (equal, unless more distinct values
    int point_level_value[MAX_POINT_LEVELS]   # than levels made neighbours share one)
    int n_point_steps                         # the distinct points values as steps: step_plane[j] holds the cards
    uint64_t step_plane[MAX_POINT_STEPS]      # worth the (j+1)-th value or more, step_size[j] what that value adds
    int step_size[MAX_POINT_STEPS]            # to the one below; -1 steps: too many values (a card walk instead)

ctypedef struct Objective:
    uint32_t max_side                         # bit per seat of the maximising side
    int points_weight
    int trick_weight
    int n_events
    uint64_t event_present[MAX_EVENTS]
    uint64_t event_absent[MAX_EVENTS]
    int event_winner[MAX_EVENTS]              # -1: any
    int event_not_winner[MAX_EVENTS]          # -1: none
    int event_last[MAX_EVENTS]
    int event_reward[MAX_EVENTS]
    uint64_t event_beaters[MAX_EVENTS]        # cards that beat the event's card whatever is led (engine.event_card)

ctypedef struct State:
    uint64_t hands[MAX_SEATS]
    uint64_t live                             # union of the hands (the trick on the table not included)
    uint64_t trick_mask
    int trick[MAX_SEATS]
    int trick_len
    int win_pos                               # the place in the trick of the card winning it so far (movegen.pxd)
    int trick_points
    int points_left                           # points of the live cards and the trick on the table
    int leader
    uint32_t flags
