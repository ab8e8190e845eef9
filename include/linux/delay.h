/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_DELAY_H
#define _LINUX_DELAY_H

/*
 * Busy-waits of at least the given time, measured with the TSC (calibrated
 * against the PIT at boot; before that they return at once). For short
 * hardware waits: waiting for another CPU should poll its progress.
 */
void udelay(unsigned long usecs);
void mdelay(unsigned long msecs);
/* Sleeps (schedules) for at least msecs ms; a task only, never atomic. */
void msleep(unsigned int msecs);

#endif /* _LINUX_DELAY_H */
