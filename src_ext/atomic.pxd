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
# already needs POSIX for its memory (tt.pxd). The calling thread waits for its helpers on a latch (a mutex, a
# condition variable and a count), woken the moment the last one finishes, not after a sleep of a fixed step.

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


cdef extern from *:
    """
    #include <pthread.h>
    #include <time.h>
    typedef struct { pthread_mutex_t lock; pthread_cond_t zero; int count; } stich_latch;
    /* the wait's deadline on the monotonic clock where the condition variable can use it (a wall clock set back
       would stretch one wait, and with it the calling thread's look at signals and the stop check) */
    #if defined(__linux__)
    #define STICH_LATCH_CLOCK CLOCK_MONOTONIC
    #else
    #define STICH_LATCH_CLOCK CLOCK_REALTIME
    #endif
    static inline void stich_latch_init(stich_latch* l, int count) {
        pthread_condattr_t attributes;
        pthread_mutex_init(&l->lock, NULL);
        pthread_condattr_init(&attributes);
    #if defined(__linux__)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    #endif
        pthread_cond_init(&l->zero, &attributes);
        pthread_condattr_destroy(&attributes);
        l->count = count;
    }
    static inline void stich_latch_count_down(stich_latch* l) {
        pthread_mutex_lock(&l->lock);
        if (--l->count <= 0) pthread_cond_broadcast(&l->zero);
        pthread_mutex_unlock(&l->lock);
    }
    static inline int stich_latch_wait(stich_latch* l, long us) {
        struct timespec until;
        int zero;
        clock_gettime(STICH_LATCH_CLOCK, &until);
        until.tv_nsec += (us % 1000000) * 1000;
        until.tv_sec += us / 1000000 + until.tv_nsec / 1000000000;
        until.tv_nsec %= 1000000000;
        pthread_mutex_lock(&l->lock);
        while (l->count > 0 && pthread_cond_timedwait(&l->zero, &l->lock, &until) == 0) {}
        zero = l->count <= 0;
        pthread_mutex_unlock(&l->lock);
        return zero;
    }
    static inline int stich_latch_count(stich_latch* l) {
        int count;
        pthread_mutex_lock(&l->lock);
        count = l->count;
        pthread_mutex_unlock(&l->lock);
        return count;
    }
    static inline void stich_latch_destroy(stich_latch* l) {
        pthread_cond_destroy(&l->zero);
        pthread_mutex_destroy(&l->lock);
    }
    """
    ctypedef struct Latch "stich_latch":
        pass
    void latch_init "stich_latch_init" (Latch* latch, int count) noexcept nogil
    void latch_count_down "stich_latch_count_down" (Latch* latch) noexcept nogil
    int latch_wait "stich_latch_wait" (Latch* latch, long microseconds) noexcept nogil
    int latch_count "stich_latch_count" (Latch* latch) noexcept nogil
    void latch_destroy "stich_latch_destroy" (Latch* latch) noexcept nogil


cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_join(pthread_t thread, void** result)


# Starting a helper on another core. Linux puts a new thread on its creator's core and moves it to an idle one only
# at the next load balancing: after the machine has idled a few milliseconds, the helper of a short question often
# started only when thread 0's search was over (docs/architecture.md, "One question on every core"). So the helper
# is created allowed only on the cores other than its creator's, which wakes one of them at once, and its first act
# is to allow itself every core its creator may use again, so the scheduler stays free to move it.
cdef extern from *:
    """
    #include <pthread.h>
    #include <stdlib.h>
    #if defined(__linux__) && defined(__GLIBC__)   /* glibc's affinity calls: not in musl or bionic */
    #include <sched.h>
    typedef struct { void* (*start)(void*); void* argument; cpu_set_t allowed; } stich_elsewhere;
    static void* stich_start_elsewhere(void* p) {
        stich_elsewhere* e = (stich_elsewhere*)p;
        void* (*start)(void*) = e->start;
        void* argument = e->argument;
        pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &e->allowed);
        free(e);
        return start(argument);
    }
    #endif
    static inline int stich_thread_start(pthread_t* id, void* (*start)(void*), void* argument) {
    #if defined(__linux__) && defined(__GLIBC__)
        int here = sched_getcpu(), started;
        stich_elsewhere* e = (stich_elsewhere*)malloc(sizeof(stich_elsewhere));
        pthread_attr_t attributes;
        cpu_set_t others;
        if (e != NULL && here >= 0 && pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), &e->allowed) == 0) {
            others = e->allowed;
            CPU_CLR(here, &others);
            if (CPU_COUNT(&others) > 0 && pthread_attr_init(&attributes) == 0) {
                e->start = start;
                e->argument = argument;
                started = pthread_attr_setaffinity_np(&attributes, sizeof(cpu_set_t), &others) == 0
                    && pthread_create(id, &attributes, stich_start_elsewhere, e) == 0;
                pthread_attr_destroy(&attributes);
                if (started) return 0;
            }
        }
        free(e);
    #endif
        return pthread_create(id, NULL, start, argument);
    }
    """
    int thread_start "stich_thread_start" (pthread_t* thread, void* (*start)(void*) noexcept nogil,
                                           void* argument) noexcept nogil   # 0 once started, as pthread_create
