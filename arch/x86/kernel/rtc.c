// SPDX-License-Identifier: GPL-2.0
/*
 * The CMOS real-time clock, read once for the wall clock of user
 * processes (CLOCK_REALTIME, gettimeofday, time): seconds since the epoch.
 */
#include <linux/kernel.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/user.h>

#define CMOS_INDEX 0x70
#define CMOS_DATA 0x71
#define RTC_STATUS_A 0x0a
#define RTC_STATUS_B 0x0b
#define RTC_UIP 0x80 /* A: an update is in progress */
#define RTC_24H 0x02 /* B */
#define RTC_BINARY 0x04 /* B */

static u8 cmos_read(u8 reg)
{
	outb(reg, CMOS_INDEX);
	return inb(CMOS_DATA);
}

static unsigned int rtc_field(u8 reg, u8 status_b)
{
	u8 v = cmos_read(reg);

	return status_b & RTC_BINARY ? v : (v >> 4) * 10 + (v & 15);
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static s64 days_from_civil(s64 y, unsigned int m, unsigned int d)
{
	s64 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

u64 rtc_read_seconds(void)
{
	unsigned int sec, min, hour, day, mon, year, tries = 1000000;
	u8 b;

	while ((cmos_read(RTC_STATUS_A) & RTC_UIP) && --tries)
		cpu_relax();
	b = cmos_read(RTC_STATUS_B);
	sec = rtc_field(0x00, b);
	min = rtc_field(0x02, b);
	hour = cmos_read(0x04);
	day = rtc_field(0x07, b);
	mon = rtc_field(0x08, b);
	year = rtc_field(0x09, b) + 2000; /* QEMU's CMOS: years 2000-2099 */
	if (!(b & RTC_24H)) {
		bool pm = hour & 0x80;

		hour &= 0x7f;
		hour = b & RTC_BINARY ? hour : (hour >> 4) * 10 + (hour & 15);
		hour = hour % 12 + (pm ? 12 : 0);
	} else {
		hour = b & RTC_BINARY ? hour : (hour >> 4) * 10 + (hour & 15);
	}
	if (mon < 1 || mon > 12 || day < 1 || day > 31)
		return 0;
	return days_from_civil(year, mon, day) * 86400ULL + hour * 3600 +
	       min * 60 + sec;
}
