# The transposition table.
#
# What is stored. The table is probed and written at trick boundaries only. There the rest of the play depends on
# three things: which cards are still in the hands, who leads, and the rule-history flags (e.g. "the called suit has
# been led"). Within one deal every card has a fixed owner, so the set of remaining cards alone says which hand holds
# what: (remaining-card mask, leader, flags) is an *exact* key. An entry holds a lower and an upper bound on the
# *future* value (what the maximising side can still win from here, rewards already earned excluded), and the card
# that was best, tried first next time.
#
# Rank-relative keys. Two positions whose live cards, class by class and from the weakest up, have the same owners
# and the same signatures (points and rule roles) are the same game under a renaming of the cards, so they have the
# same value. With ``use_canonical`` the key is a 64-bit hash of that sequence (with leader and flags), which lets a
# position share its entry with every position that differs only in *which* equivalent cards were played; the best
# card is then stored as (class, place among the live cards of the class). The wrapper enables it only for tables
# where power never interleaves between classes (true of every game here); without it the key is the exact mask.
#
# Layout. Entries are 16 bytes: check word (8), lower (2), upper (2), generation (1), cards left (1),
# leader | flags << 3 (1), best card (1); the check word is the key XOR the other eight bytes (see Threads). Four entries make a 64-byte bucket, one cache line. A key is a sum of 64-bit mixes of words,
# or one mix of the live mask (search.pxd), so its low bits, shifted by leader and flags, pick its bucket as they
# stand.
#
# Generations. Each question (deal + objective) gets a new generation number; entries of another generation count as
# empty, so switching deals or objectives costs nothing. When the 8-bit counter wraps, the part of each table in use
# (see Growth) is cleared.
#
# Replacement. Storing a key already in the bucket merges the bounds. Otherwise the new entry takes an empty or
# stale slot, else the slot whose position had the fewest cards left (the least search saved), the first such.
#
# Growth. A new engine uses the first 256 KB of each table only, so that the table of a small problem (an ending)
# stays in the processor's cache; each time half of the part in use is filled, the part doubles, up to the whole
# table, and the entries whose bucket index gained a bit move to their new bucket (a linear split, paid once per
# entry over all doublings). An entry that finds its new bucket full is dropped: a little search, never a wrong
# answer, since a hit needs the whole key. A new question starts on the part the last one's entries grew it to (at
# least the first 256 KB), not on the largest part ever used: questions on one engine tend to be alike (an
# analysis's samples, a batch's deals), so it seldom splits again, and a small question after a large one keeps its
# entries close together instead of spread over the larger part. The parts ever in use are remembered, for the
# clearing when the generation counter wraps.
#
# Quasi-symmetry (after Kupferschmid and Helmert's Skat solver). Two positions whose live cards have the same owners
# and rule roles class by class, but not the same points (one deal's Ace where another has its Ten), are the same
# game up to the points: pair their cards by place, and every line of play gives the same trick winners in both,
# so the maximising side wins the paired cards in both. Its reward differs by the points it wins of the cards that
# are worth more in one position than in the other, so by at most ``gain`` (the points the current position's cards
# have over the stored one's, summed card by card where they are more) and at least ``-loss``; and so do the
# values. A second table, the *quasi table*, keyed on owners and roles only (no points), keeps for each stored
# position its live cards besides the bounds: a probe that finds a position of the same shape widens its bounds by
# the card-by-card difference (``quasi_tighten`` in search.pxd). Points-first games cut most of their nodes this way
# (the Ace and the Ten, the Ober and the Unter are neighbours in rank with different points). A position stored
# with the same points as the current one (differences 0) gives its bounds unwidened, so the quasi table is also an
# exact table, and where it can be used (rank-relative keys) the exact table is not: a second table would cost a
# second cache miss at every trick boundary for entries the quasi table mostly has (it pays most where an engine
# lives long enough for both tables to outgrow the processor's cache: an analysis's samples). The best card of the position itself, else of the
# newest of its shape, orders the moves. A quasi bucket holds four 32-byte entries (two adjacent cache lines,
# fetched together), the newest first: a store that is not a merge pushes the oldest entry out, so a shape keeps its
# last four positions (four rather than two or eight: bench/README.md). A probe skips the points of an entry whose bounds, as they stand, are no
# tighter than what it has: widening only loosens them. It grows like the exact table, but when a quarter of the
# part in use is filled.
#
# Threads. The threads of one question (parallel.pxd) share both tables without locks. An entry is written as
# whole words, its data and then its check word (key ^ data; for the quasi table key ^ data ^ live cards), and read
# as whole words, decoding the key from them: an entry half written by one thread and half by another decodes to a
# key no probe asks for, so a torn entry is a miss, never a wrong bound (Hyatt's lockless hashing). Every stored
# bound is true whichever thread proved it, since a search that was stopped stores nothing (search.pxd). A
# question on several threads first grows both tables' parts in use to PARALLEL_BYTES (half that with at most
# PARALLEL_HALF_TRICKS tricks left, whose searches fill less; or the whole table where it is smaller; a larger part
# stays as it is), and ``frozen`` keeps them from growing until its threads are joined,
# so that no thread moves entries while the others search (see Growth); the fill counters are then estimates, and
# only report. Not the whole table: its pages are supplied zeroed as they are first touched, and a question's
# entries would spread over all of them (page faults cost a Schafkopf question on two threads a fifth of its time).
#
# Size. The tables' size is fixed when the engine is made (``tt_megabytes``, default 64 MB, at most 4 GB): half of
# it for each table, each rounded down to a power of two of buckets, never growing beyond (a question uses one of
# them; the other keeps its pages untouched). It is reserved when the
# engine is made; the operating system supplies its (zeroed) pages as searches first touch them, except for the
# first part of each table (see Growth), touched when the engine is made: a fresh engine's first question would
# otherwise spend most of its time on page faults when it is small (a short ending).

from libc.stdint cimport uint64_t, uint32_t, int16_t, uint8_t
from libc.string cimport memset, memcpy
from atomic cimport load_word, store_word

cdef enum:
    QUASI_BUCKET = 4
    BUCKET = 4
    FIRST_BYTES = 1 << 18                     # 256 KB a table: an ending's whole table fits in the processor's cache
    PARALLEL_BYTES = 1 << 22                  # 4 MB a table at least for a question on several threads (Threads)
    PARALLEL_HALF_TRICKS = 8                  # tricks left up to which 2 MB do (a Schafkopf deal: each fresh 2 MB
                                              # page costs a two-thread question some 0.1 ms of zeroing)

cdef extern from "<sys/mman.h>" nogil:
    void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset)
    int munmap(void* addr, size_t length)
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE
    int PROT_READ
    int PROT_WRITE
    int MAP_PRIVATE
    int MAP_ANONYMOUS
    void* MAP_FAILED

ctypedef struct Entry:
    uint64_t key
    int16_t lower
    int16_t upper
    uint8_t generation
    uint8_t cards_left
    uint8_t leader_flags
    uint8_t best

ctypedef struct QuasiEntry:
    Entry head                                # as an exact entry: key (of the shape), bounds, generation, leader
    uint64_t live                             # and flags, best card; and the live cards the bounds are for
    uint64_t unused                           # pads the entry to 32 bytes: a bucket is one cache line

ctypedef struct Table:
    Entry* entries
    uint64_t bucket_mask                      # the whole table
    uint64_t active_mask                      # the part in use for the current question (see Growth)
    uint64_t n_buckets
    uint8_t generation
    uint64_t used                 # entries written in the current generation (an estimate of fill)
    QuasiEntry* quasi                         # the quasi table (see Quasi-symmetry), its buckets and use
    uint64_t quasi_buckets
    uint64_t quasi_active
    uint64_t quasi_used
    int frozen                                # the parts in use may not grow (a question on several threads)
    uint64_t touched_mask                     # the largest parts ever in use, which a wrap of the generation
    uint64_t quasi_touched                    # counter clears (a part shrinks for a new question: see Growth)


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    # splitmix64's finaliser: every bit of a word reaches every bit of the key
    x ^= x >> 30
    x *= <uint64_t>0xbf58476d1ce4e5b9
    x ^= x >> 27
    x *= <uint64_t>0x94d049bb133111eb
    x ^= x >> 31
    return x


cdef inline uint64_t buckets_within(uint64_t bytes_, uint64_t bucket_bytes) noexcept nogil:
    """The most buckets, a power of two, that ``bytes_`` holds (at least one)."""
    cdef uint64_t buckets = 1
    while buckets * 2 * bucket_bytes <= bytes_:
        buckets *= 2
    return buckets


cdef inline void* reserve(uint64_t bytes_) noexcept nogil:
    """Anonymous memory: zeroed pages supplied as the search first touches them, so a small problem touches (and
    pays for) only the part it uses; huge pages where the kernel allows them, for fewer TLB misses. NULL when the
    memory could not be had."""
    cdef void* memory = mmap(NULL, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if memory == MAP_FAILED:
        return NULL
    madvise(memory, bytes_, MADV_HUGEPAGE)
    return memory


cdef inline int table_init(Table* table, uint64_t megabytes) noexcept nogil:
    """Allocate both tables, half of ``megabytes`` each; returns 0 when the memory could not be had."""
    cdef uint64_t half = megabytes * 1024 * 1024 // 2
    cdef uint64_t first = FIRST_BYTES if FIRST_BYTES < half else half    # the first part in use (see Growth)
    cdef uint64_t buckets = buckets_within(half, BUCKET * sizeof(Entry))
    cdef uint64_t quasi_buckets = buckets_within(half, QUASI_BUCKET * sizeof(QuasiEntry))
    table.entries = <Entry*>reserve(buckets * BUCKET * sizeof(Entry))
    table.quasi = <QuasiEntry*>reserve(quasi_buckets * QUASI_BUCKET * sizeof(QuasiEntry))
    table.n_buckets = buckets
    table.quasi_buckets = quasi_buckets
    if table.entries == NULL or table.quasi == NULL:
        table_free(table)
        return 0
    table.bucket_mask = buckets - 1
    table.generation = 1
    table.frozen = 0
    table.used = 0                            # both tables on their first part (see Growth)
    table.active_mask = buckets_within(first, BUCKET * sizeof(Entry)) - 1
    table.quasi_used = 0
    table.quasi_active = buckets_within(first, QUASI_BUCKET * sizeof(QuasiEntry)) - 1
    table.touched_mask = table.active_mask
    table.quasi_touched = table.quasi_active
    # the first part of each (all an ending uses) is touched now, so that a question does not pay its page faults
    memset(table.entries, 0, (table.active_mask + 1) * BUCKET * sizeof(Entry))
    memset(table.quasi, 0, (table.quasi_active + 1) * QUASI_BUCKET * sizeof(QuasiEntry))
    return 1


cdef inline void table_free(Table* table) noexcept nogil:
    if table.entries != NULL:
        munmap(table.entries, table.n_buckets * BUCKET * sizeof(Entry))
    if table.quasi != NULL:
        munmap(table.quasi, table.quasi_buckets * QUASI_BUCKET * sizeof(QuasiEntry))
    table.entries = NULL
    table.quasi = NULL


cdef inline uint64_t table_bytes(const Table* table) noexcept nogil:
    """The memory both tables hold."""
    return table.n_buckets * BUCKET * sizeof(Entry) + table.quasi_buckets * QUASI_BUCKET * sizeof(QuasiEntry)


cdef inline uint64_t table_bytes_used(const Table* table) noexcept nogil:
    """The memory the current question's entries fill, both tables."""
    return table.used * sizeof(Entry) + table.quasi_used * sizeof(QuasiEntry)


cdef inline uint64_t buckets_for(uint64_t bytes_, uint64_t bucket_bytes) noexcept nogil:
    """The fewest buckets, a power of two, that hold ``bytes_``."""
    cdef uint64_t buckets = buckets_within(bytes_, bucket_bytes)
    return buckets * 2 if buckets * bucket_bytes < bytes_ else buckets


cdef inline uint64_t fitting_mask(uint64_t used_bytes, uint64_t bucket_bytes, uint64_t mask) noexcept nogil:
    """The part a new question starts on (see Growth): the one ``used_bytes`` of entries fit in, at least the first
    part, at most the part ``mask`` in use now."""
    cdef uint64_t fit = buckets_for(used_bytes, bucket_bytes)
    if fit * bucket_bytes < FIRST_BYTES:
        fit = buckets_within(FIRST_BYTES, bucket_bytes)
    return fit - 1 if fit - 1 < mask else mask


cdef inline void table_new_generation(Table* table) noexcept nogil:
    table.generation += 1
    if table.generation == 0:  # wrapped: old entries could look current
        # only the parts ever in use hold entries: the rest of the pages stay untouched
        memset(table.entries, 0, (table.touched_mask + 1) * BUCKET * sizeof(Entry))
        memset(table.quasi, 0, (table.quasi_touched + 1) * QUASI_BUCKET * sizeof(QuasiEntry))
        table.generation = 1
    # the new question starts on the part the last one's entries would have grown to (see Growth), if smaller
    table.active_mask = fitting_mask(table.used * 2 * sizeof(Entry), BUCKET * sizeof(Entry), table.active_mask)
    table.quasi_active = fitting_mask(table.quasi_used * 4 * sizeof(QuasiEntry), QUASI_BUCKET * sizeof(QuasiEntry),
                                      table.quasi_active)
    table.used = 0
    table.quasi_used = 0


cdef inline uint64_t bucket_index(uint64_t key, uint8_t leader_flags, uint64_t mask) noexcept nogil:
    # the keys are sums of mixed words already: their low bits are as good as any, shifted by leader and flags
    return (key + leader_flags * <uint64_t>0x9e3779b97f4a7c15) & mask


cdef inline uint64_t data_word(const Entry* entry) noexcept nogil:
    """What an entry holds besides its key (bounds, generation, cards left, leader and flags, best card), as one
    word."""
    cdef uint64_t word
    memcpy(&word, &entry.lower, 8)
    return word


cdef inline int entry_current(const Table* table, const Entry* entry, uint64_t key,
                              uint8_t leader_flags) noexcept nogil:
    """Whether a decoded copy of an entry holds this key (leader and flags too) for the current question."""
    return entry.generation == table.generation and entry.key == key and entry.leader_flags == leader_flags


cdef inline int entry_load(const Table* table, const Entry* slot, uint64_t key, uint8_t leader_flags,
                           Entry* copy) noexcept nogil:
    """Copy an exact-table slot into ``copy``, its key decoded from the check word (see Threads), and say whether
    it holds this key for the current question. A slot two writers tore apart decodes to another key: a miss."""
    cdef uint64_t check = load_word(<const uint64_t*>slot)
    cdef uint64_t data = load_word(<const uint64_t*>slot + 1)
    memcpy(&copy.lower, &data, 8)
    copy.key = check ^ data
    return entry_current(table, copy, key, leader_flags)


cdef inline void entry_save(Entry* slot, const Entry* value) noexcept nogil:
    """Write ``value`` (its key plain) into a slot: the data word, then the check word, key ^ data."""
    cdef uint64_t data = data_word(value)
    store_word(<uint64_t*>slot + 1, data)
    store_word(<uint64_t*>slot, value.key ^ data)


cdef inline int quasi_load(const Table* table, const QuasiEntry* slot, uint64_t key, uint8_t leader_flags,
                           QuasiEntry* copy) noexcept nogil:
    """``entry_load`` for the quasi table, whose check word covers the live cards too: key ^ data ^ live."""
    cdef uint64_t check = load_word(<const uint64_t*>slot)
    cdef uint64_t data = load_word(<const uint64_t*>slot + 1)
    cdef uint64_t live = load_word(<const uint64_t*>slot + 2)
    memcpy(&copy.head.lower, &data, 8)
    copy.live = live
    copy.head.key = check ^ data ^ live
    return entry_current(table, &copy.head, key, leader_flags)


cdef inline void quasi_save(QuasiEntry* slot, const QuasiEntry* value) noexcept nogil:
    cdef uint64_t data = data_word(&value.head)
    store_word(<uint64_t*>slot + 1, data)
    store_word(<uint64_t*>slot + 2, value.live)
    store_word(<uint64_t*>slot, value.head.key ^ data ^ value.live)


cdef inline void split_buckets(char* entries, uint64_t entry_bytes, int per_bucket, uint64_t old_size,
                               uint64_t mask, uint8_t generation, int check_words) noexcept nogil:
    """Growth for either table (an entry of each begins with an exact-table Entry): each current entry of the
    first ``old_size`` buckets whose bucket index under ``mask`` gained a bit moves to its new bucket (dropped when
    that is full); what stays is closed up to the front of its bucket, in its order (the quasi table's newest
    first). An entry's key is its first ``check_words`` words XORed (see Threads); entries move whole. Never while
    other threads search: a question on several threads starts on the whole table (see Threads)."""
    cdef uint64_t b, target, key
    cdef char* source
    cdef char* destination
    cdef Entry* entry
    cdef int i, j, kept
    for b in range(old_size):
        source = entries + b * per_bucket * entry_bytes
        kept = 0
        for i in range(per_bucket):
            entry = <Entry*>(source + i * entry_bytes)
            if entry.generation != generation:
                continue
            key = (<uint64_t*>entry)[0] ^ (<uint64_t*>entry)[1]
            if check_words == 3:
                key ^= (<uint64_t*>entry)[2]
            target = bucket_index(key, entry.leader_flags, mask)
            if target != b:
                destination = entries + target * per_bucket * entry_bytes
                for j in range(per_bucket):
                    if (<Entry*>(destination + j * entry_bytes)).generation != generation:
                        memcpy(destination + j * entry_bytes, entry, entry_bytes)
                        break
            elif i != kept:
                memcpy(source + kept * entry_bytes, entry, entry_bytes)
                kept += 1
                continue
            else:
                kept += 1
                continue
            entry.generation = <uint8_t>(generation - 1)  # the slot is free now
        for i in range(kept, per_bucket):
            (<Entry*>(source + i * entry_bytes)).generation = <uint8_t>(generation - 1)


cdef inline void table_grow(Table* table) noexcept nogil:
    """Double the part in use, moving each current entry whose bucket index gained a bit to its new bucket."""
    split_buckets(<char*>table.entries, sizeof(Entry), BUCKET, table.active_mask + 1, table.active_mask * 2 + 1,
                  table.generation, 2)
    table.active_mask = table.active_mask * 2 + 1
    if table.active_mask > table.touched_mask:
        table.touched_mask = table.active_mask


cdef inline Entry* table_bucket(const Table* table, uint64_t key, uint8_t leader_flags) noexcept nogil:
    return table.entries + bucket_index(key, leader_flags, table.active_mask) * BUCKET


cdef inline void quasi_grow(Table* table) noexcept nogil:
    """Double the quasi table's part in use (as table_grow)."""
    split_buckets(<char*>table.quasi, sizeof(QuasiEntry), QUASI_BUCKET, table.quasi_active + 1,
                  table.quasi_active * 2 + 1, table.generation, 3)
    table.quasi_active = table.quasi_active * 2 + 1
    if table.quasi_active > table.quasi_touched:
        table.quasi_touched = table.quasi_active


cdef inline void table_at_least(Table* table, uint64_t bytes_) noexcept nogil:
    """Grow both tables' parts in use to ``bytes_`` each, or to the whole table where it is smaller, now (see
    Threads): a question on several threads never grows them. With no entry of the current question yet there is
    nothing to move: the parts in use just become larger."""
    cdef uint64_t buckets = buckets_within(bytes_, BUCKET * sizeof(Entry))
    cdef uint64_t quasi_buckets = buckets_within(bytes_, QUASI_BUCKET * sizeof(QuasiEntry))
    if buckets > table.n_buckets:
        buckets = table.n_buckets
    if quasi_buckets > table.quasi_buckets:
        quasi_buckets = table.quasi_buckets
    if table.used == 0 and table.quasi_used == 0:
        if table.active_mask < buckets - 1:
            table.active_mask = buckets - 1
        if table.quasi_active < quasi_buckets - 1:
            table.quasi_active = quasi_buckets - 1
        if table.active_mask > table.touched_mask:
            table.touched_mask = table.active_mask
        if table.quasi_active > table.quasi_touched:
            table.quasi_touched = table.quasi_active
    while table.active_mask < buckets - 1:            # growing remembers the parts touched
        table_grow(table)
    while table.quasi_active < quasi_buckets - 1:
        quasi_grow(table)


cdef inline int table_lookup(const Table* table, uint64_t key, uint8_t leader_flags, Entry* copy) noexcept nogil:
    """Whether the table holds this key for the current question; its entry copied into ``copy``."""
    cdef Entry* bucket = table_bucket(table, key, leader_flags)
    cdef int i
    for i in range(BUCKET):
        if entry_load(table, &bucket[i], key, leader_flags, copy):
            return 1
    return 0


cdef inline void merge_bounds(Entry* entry, int lower, int upper, int best) noexcept nogil:
    """Both the stored bounds and the new ones are true: keep the tighter of each (and the newer best card)."""
    if lower > entry.lower:
        entry.lower = lower
    if upper < entry.upper:
        entry.upper = upper
    if best != 255:
        entry.best = best


cdef inline void fill_entry(const Table* table, Entry* entry, uint64_t key, uint8_t leader_flags, int cards_left,
                            int lower, int upper, int best) noexcept nogil:
    """A new entry for the current question, in ``entry`` (a copy: ``entry_save`` writes it)."""
    entry.key = key
    entry.cards_left = cards_left
    entry.lower = lower
    entry.upper = upper
    entry.generation = table.generation
    entry.leader_flags = leader_flags
    entry.best = best


cdef inline void table_store(Table* table, uint64_t key, uint8_t leader_flags, int cards_left, int lower,
                             int upper, int best) noexcept nogil:
    cdef Entry* bucket = table_bucket(table, key, leader_flags)
    cdef Entry* slot = NULL
    cdef Entry copies[BUCKET]
    cdef int i, fewest = 1000
    for i in range(BUCKET):
        if entry_load(table, &bucket[i], key, leader_flags, &copies[i]):
            merge_bounds(&copies[i], lower, upper, best)
            entry_save(&bucket[i], &copies[i])
            return
    for i in range(BUCKET):
        if copies[i].generation != table.generation:
            slot = &bucket[i]
            table.used += 1
            break
        if copies[i].cards_left < fewest:
            fewest = copies[i].cards_left
            slot = &bucket[i]
    fill_entry(table, &copies[0], key, leader_flags, cards_left, lower, upper, best)
    entry_save(slot, &copies[0])
    if table.used * 2 > (table.active_mask + 1) * BUCKET and table.active_mask < table.bucket_mask \
            and not table.frozen:
        table_grow(table)


cdef inline void learned_bounds(int alpha, int beta, int lower, int upper, int best, int* low,
                                int* high) noexcept nogil:
    """What a fail-soft search with window (alpha, beta) learned, ``best``, given the bounds [lower, upper] it
    started from: an upper bound when it failed low, a lower bound when it failed high, else the value."""
    low[0] = lower
    high[0] = upper
    if best <= alpha:
        high[0] = best
    elif best >= beta:
        low[0] = best
    else:
        low[0] = best
        high[0] = best


# --- the quasi table ------------------------------------------------------------------------------------------------


cdef inline QuasiEntry* quasi_bucket(const Table* table, uint64_t key, uint8_t leader_flags) noexcept nogil:
    return table.quasi + bucket_index(key, leader_flags, table.quasi_active) * QUASI_BUCKET


cdef inline void quasi_store(Table* table, uint64_t key, uint8_t leader_flags, uint64_t live, int lower, int upper,
                             int best) noexcept nogil:
    """Store bounds for the position with live cards ``live``: merged into its own entry, else first in the bucket,
    pushing the older of the two out."""
    cdef QuasiEntry* bucket = quasi_bucket(table, key, leader_flags)
    cdef QuasiEntry copies[QUASI_BUCKET]
    cdef QuasiEntry fresh
    cdef int i
    for i in range(QUASI_BUCKET):
        if quasi_load(table, &bucket[i], key, leader_flags, &copies[i]) and copies[i].live == live:
            merge_bounds(&copies[i].head, lower, upper, best)
            quasi_save(&bucket[i], &copies[i])
            return
    if copies[QUASI_BUCKET - 1].head.generation != table.generation:
        table.quasi_used += 1
    for i in range(QUASI_BUCKET - 1, 0, -1):
        quasi_save(&bucket[i], &copies[i - 1])
    fill_entry(table, &fresh.head, key, leader_flags, 0, lower, upper, best)
    fresh.live = live
    quasi_save(&bucket[0], &fresh)
    if table.quasi_used * 4 > (table.quasi_active + 1) * QUASI_BUCKET and table.quasi_active < table.quasi_buckets - 1 \
            and not table.frozen:
        quasi_grow(table)
