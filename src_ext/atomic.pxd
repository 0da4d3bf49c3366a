# Shared memory between the search threads: atomic words and flags, and the threads themselves.
#
# The threads of one question share the transposition table and one ``Shared`` record (parallel.pxd) and nothing
# else. Every word two threads may touch at once is read and written here, as one whole 64-bit (or 32-bit) access:
# relaxed for the table's words (a torn *entry*, two words from two writers, is caught by the entry's check word,
# tt.pxd), acquire/release for the flags that say when to stop and which thread won. These are the GCC/Clang
# builtins (C11 atomics without the C11 types), which compile to plain loads and stores on x86-64 and ARM64: the
# single-thread search pays nothing for them.
#
# The threads are POSIX threads started from C, without the GIL: a helper thread never touches Python (it has no
# interpreter state); only the thread that called the Engine method looks at the interpreter's signals and the stop
# check (search.pxd, Interrupts). POSIX threads rather than OpenMP: no compiler or linker flags, and the engine
# already needs POSIX for its memory (tt.pxd).

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #include <stdint.h>
    static inline uint64_t stich_load_word(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void stich_store_word(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline int stich_load_flag(const int* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void stich_store_flag(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int stich_fetch_add(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL); }
    static inline int stich_claim(int* p, int expected, int desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    """
    uint64_t load_word "stich_load_word" (const uint64_t* p) noexcept nogil
    void store_word "stich_store_word" (uint64_t* p, uint64_t v) noexcept nogil
    int load_flag "stich_load_flag" (const int* p) noexcept nogil
    void store_flag "stich_store_flag" (int* p, int v) noexcept nogil
    int fetch_add "stich_fetch_add" (int* p, int v) noexcept nogil
    int claim "stich_claim" (int* p, int expected, int desired) noexcept nogil   # compare-and-swap: 1 if it swapped

cdef extern from "<time.h>" nogil:
    cdef struct timespec:
        long tv_sec
        long tv_nsec
    int clock_gettime(int clock, timespec* now)
    int CLOCK_THREAD_CPUTIME_ID


cdef inline uint64_t thread_cpu_ns() noexcept nogil:
    """The processor time the calling thread has used, in nanoseconds (what a thread would take on an idle
    machine, whatever else runs: the bench reports it beside the wall-clock time)."""
    cdef timespec now
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return <uint64_t>now.tv_sec * 1000000000 + <uint64_t>now.tv_nsec


cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, const void* attributes, void* (*start)(void*) noexcept nogil,
                       void* argument)
    int pthread_join(pthread_t thread, void** result)
