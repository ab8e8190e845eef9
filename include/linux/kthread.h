/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KTHREAD_H
#define _LINUX_KTHREAD_H

#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/sched.h>

/*
 * Kernel threads, with Linux's API (kernel/kthread.c).
 *
 * kthread_create() returns a task that has not run yet (or ERR_PTR()):
 * bind it, then wake_up_process() it; kthread_run() does both but the
 * binding. threadfn(data) runs in process context, preemptible; its return
 * value is what kthread_stop() returns. The creator owns the task until
 * kthread_stop(), which must be called exactly once: it asks the thread to
 * stop (kthread_should_stop() becomes true and the thread is woken), waits
 * for threadfn to return, frees the thread's stack and returns the value.
 * A thread whose threadfn returned before kthread_stop() is a misuse that
 * WARNs once; kthread_stop() still returns its value.
 *
 * kthread_park() asks the thread to park and waits until it sits in
 * kthread_parkme() (the thread calls it when kthread_should_park());
 * kthread_unpark() lets it go on.
 */
__printf(3, 4) struct task_struct *kthread_create(int (*threadfn)(void *data),
						  void *data,
						  const char *namefmt, ...);

#define kthread_run(threadfn, data, namefmt, ...)                \
	({                                                       \
		struct task_struct *__k = kthread_create(        \
			threadfn, data, namefmt, ##__VA_ARGS__); \
		if (!IS_ERR(__k))                                \
			wake_up_process(__k);                    \
		__k;                                             \
	})

/* Before the first wake-up only: the thread will run on cpu. */
void kthread_bind(struct task_struct *k, unsigned int cpu);

/* kthread_create() bound to cpu; namefmt may print the CPU with one %u. */
struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data),
					  void *data, unsigned int cpu,
					  const char *namefmt);
/* The same, woken: it runs on cpu from now on. */
struct task_struct *kthread_run_on_cpu(int (*threadfn)(void *data),
				       void *data, unsigned int cpu,
				       const char *namefmt);
int kthread_stop(struct task_struct *k);
bool kthread_should_stop(void);
/* Ends the current kthread as if its threadfn had returned result. */
void __noreturn kthread_exit(int result);
/* Sleeps until kthread_stop() is called on the current kthread. */
void kthread_wait_stop(void);
int kthread_park(struct task_struct *k);
void kthread_unpark(struct task_struct *k);
bool kthread_should_park(void);
void kthread_parkme(void);

#endif /* _LINUX_KTHREAD_H */
