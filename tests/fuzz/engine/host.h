/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FUZZ_ENGINE_HOST_H
#define _FUZZ_ENGINE_HOST_H

/*
 * What the host side of the engine's fuzzer (host.c, built against libc)
 * gives the kernel side (kernel.c, fuzz.c and the engine's own files, built
 * against the kernel's headers). Plain C types only: the two sides share
 * no header but this one. Every function either works or aborts the run
 * with a message: the kernel side has no error path for them.
 */

/* Writes len bytes to stderr. */
void host_write(const char *buf, unsigned long len);
/* Ends the run as a failure (exit status 1) after flushing stderr. */
void host_fail(void) __attribute__((noreturn));

void *host_malloc(unsigned long size);
/*
 * size bytes of zeroed memory mapped read-write at a low address (below
 * 2 GiB, so that 32-bit offsets from the program's data reach it) and
 * apart from the program's data and bss: the fuzzer's module area.
 */
void *host_map_low(unsigned long size);
void host_free(void *p);

/* A sleeping lock; host_lock_new() never returns NULL. */
void *host_lock_new(void);
void host_lock(void *lock);
void host_unlock(void *lock);

/* A reader-writer lock (the CPU hotplug lock's readers and writer). */
void *host_rwlock_new(void);
void host_read_lock(void *rw);
void host_read_unlock(void *rw);
void host_write_lock(void *rw);
void host_write_unlock(void *rw);

/* A condition over a host_lock_new() lock, held by the caller. */
void *host_cond_new(void);
void host_cond_wait(void *cond, void *lock);
/* Waits until woken or until the monotonic clock reaches deadline_ns. */
void host_cond_wait_until(void *cond, void *lock,
			  unsigned long long deadline_ns);
void host_cond_broadcast(void *cond);

/* The monotonic clock, in nanoseconds. */
unsigned long long host_now_ns(void);
void host_yield(void);
/* Sleeps for ns nanoseconds of the monotonic clock. */
void host_sleep_ns(unsigned long long ns);

/*
 * Starts fn(arg) in a new thread whose GS base is gs_base (the kernel
 * side's per-CPU area for it, see kernel.c). Returns a handle for join.
 */
void *host_thread_start(void (*fn)(void *arg), void *arg,
			unsigned long gs_base);
void host_thread_join(void *thread);
/* Sets the calling thread's GS base. */
void host_set_gs(unsigned long gs_base);

/* The command line, parsed by host.c; the kernel side's main takes it. */
struct host_args {
	unsigned long threads; /* workers doing random operations */
	unsigned long long ops; /* stop after this many in all (0: none) */
	unsigned long seconds; /* stop after this long (0: no limit) */
	unsigned long long seed;
	unsigned long drop_write;	/* the patch engine loses its nth write */
	int verbose;
};

int fuzz_main(const struct host_args *args);

#endif /* _FUZZ_ENGINE_HOST_H */
