# Card sets as 64-bit masks: bit i is card i of the game's pack. The primitives every engine file uses.
#
# Counting, the lowest card and dropping it are one instruction each (popcnt, tzcnt). ``compress`` packs the bits of
# a word that lie under a mask down to the low bits (the table keys are written this way, search.pxd): the pext
# instruction where the processor building the engine runs it fast (setup.py), else Hacker's Delight's branch-free
# compress (7-4, "sheep and goats"): six rounds, round i shifting the bits that must move by an odd multiple of 2**i
# down by 2**i. The six move masks depend on the mask alone, so a mask that packs several words (the live cards of a
# table key) is prepared once (``prepare_compress``) and each word then costs six shift-and-merge steps
# (``compress_prepared``); ``expand`` undoes it (pdep, or the same rounds run backwards).
from libc.stdint cimport uint64_t

cdef inline int popcount(uint64_t mask) noexcept nogil:
    return __builtin_popcountll(mask)

cdef inline int lowest(uint64_t mask) noexcept nogil:
    """Index of the lowest set bit; mask must not be 0."""
    return __builtin_ctzll(mask)

cdef inline uint64_t drop_lowest(uint64_t mask) noexcept nogil:
    return mask & (mask - 1)

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef extern from *:
    """
    #include <stdint.h>
    typedef struct { uint64_t mask; uint64_t move[6]; } stich_compress_mask;
    /* The portable versions, always defined so the tests run them on every build (stich_soft_*). */
    /* move[i]: the bits of the mask that round i shifts down by 2**i (Hacker's Delight 7-4). */
    static inline void stich_soft_compress_prepare(stich_compress_mask* p, uint64_t m) {
        uint64_t mk = ~m << 1, mp, mv;
        int i;
        p->mask = m;
        for (i = 0; i < 6; i++) {
            mp = mk ^ (mk << 1);
            mp ^= mp << 2;
            mp ^= mp << 4;
            mp ^= mp << 8;
            mp ^= mp << 16;
            mp ^= mp << 32;
            mv = mp & m;
            p->move[i] = mv;
            m = (m ^ mv) | (mv >> (1 << i));
            mk &= ~mp;
        }
    }
    static inline uint64_t stich_soft_compress_with(uint64_t x, const stich_compress_mask* p) {
        uint64_t t;
        int i;
        x &= p->mask;
        for (i = 0; i < 6; i++) {
            t = x & p->move[i];
            x = (x ^ t) | (t >> (1 << i));
        }
        return x;
    }
    static inline uint64_t stich_soft_pext(uint64_t x, uint64_t m) {
        stich_compress_mask p;
        stich_soft_compress_prepare(&p, m);
        return stich_soft_compress_with(x, &p);
    }
    static inline uint64_t stich_soft_pdep(uint64_t x, uint64_t m) {
        stich_compress_mask p;
        uint64_t t;
        int i;
        stich_soft_compress_prepare(&p, m);
        for (i = 5; i >= 0; i--) {
            t = x << (1 << i);
            x = (x & ~p.move[i]) | (t & p.move[i]);
        }
        return x & m;
    }
    static inline uint64_t stich_soft_nth(uint64_t m, int n) {
        for (; n > 0 && m; n--)
            m &= m - 1;
        return m & (~m + 1);
    }
    #if defined(__BMI2__)
    #include <immintrin.h>
    #define STICH_FAST_PEXT 1
    static inline uint64_t stich_pext(uint64_t x, uint64_t m) { return _pext_u64(x, m); }
    static inline uint64_t stich_pdep(uint64_t x, uint64_t m) { return _pdep_u64(x, m); }
    static inline void stich_compress_prepare(stich_compress_mask* p, uint64_t m) { p->mask = m; }
    static inline uint64_t stich_compress_with(uint64_t x, const stich_compress_mask* p) {
        return _pext_u64(x, p->mask);
    }
    static inline uint64_t stich_nth(uint64_t m, int n) { return _pdep_u64((uint64_t)1 << n, m); }
    #else
    #define STICH_FAST_PEXT 0
    #define stich_pext stich_soft_pext
    #define stich_pdep stich_soft_pdep
    #define stich_compress_prepare stich_soft_compress_prepare
    #define stich_compress_with stich_soft_compress_with
    #define stich_nth stich_soft_nth
    #endif
    """
    ctypedef struct stich_compress_mask:
        uint64_t mask
    uint64_t stich_pext(uint64_t x, uint64_t m) nogil
    uint64_t stich_pdep(uint64_t x, uint64_t m) nogil
    void stich_compress_prepare(stich_compress_mask* p, uint64_t m) nogil
    uint64_t stich_compress_with(uint64_t x, const stich_compress_mask* p) nogil
    uint64_t stich_nth(uint64_t m, int n) nogil
    uint64_t stich_soft_pdep(uint64_t x, uint64_t m) nogil
    void stich_soft_compress_prepare(stich_compress_mask* p, uint64_t m) nogil
    uint64_t stich_soft_compress_with(uint64_t x, const stich_compress_mask* p) nogil
    uint64_t stich_soft_nth(uint64_t m, int n) nogil
    const int STICH_FAST_PEXT                 # 1: compress and expand are one instruction each

ctypedef stich_compress_mask CompressMask     # a mask made ready to pack several words (``prepare_compress``)


cdef inline uint64_t expand(uint64_t x, uint64_t mask) noexcept nogil:
    """The low bits of ``x`` spread to the places of ``mask``'s set bits (compress undone; BMI2's pdep)."""
    return stich_pdep(x, mask)


cdef inline uint64_t compress(uint64_t x, uint64_t mask) noexcept nogil:
    """The bits of ``x`` at the places of ``mask``'s set bits, packed together from bit 0 up (one instruction where
    the processor has BMI2's pext)."""
    return stich_pext(x, mask)


cdef inline void prepare_compress(CompressMask* prepared, uint64_t mask) noexcept nogil:
    """Make ``mask`` ready for ``compress_prepared``: its move masks computed once for every word it packs."""
    stich_compress_prepare(prepared, mask)


cdef inline uint64_t compress_prepared(uint64_t x, const CompressMask* prepared) noexcept nogil:
    """``compress(x, mask)`` with the mask prepared by ``prepare_compress``."""
    return stich_compress_with(x, prepared)


cdef inline uint64_t nth(uint64_t mask, int n) noexcept nogil:
    """The ``n``-th set bit of ``mask`` (from 0, the lowest) alone, 0 when it has fewer (BMI2's pdep: one
    instruction; else the lowest bit dropped ``n`` times: ``n`` is a place within a class, small)."""
    return stich_nth(mask, n)
