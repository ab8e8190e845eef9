// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal /proc: after mount("proc", "/proc", "proc", ...), the files of
 * /proc/sys/kernel/ that stand for the kernel's static keys. Each reads
 * as "0\n" or "1\n" and takes "0" or "1" (a newline may follow); anything
 * else is -EINVAL and changes nothing, as Linux's proc_dointvec_minmax.
 */
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/process.h>
#include <linux/syscalls.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#define O_ACCMODE 3
#define S_IFREG 0100000

static bool proc_mounted;

struct proc_bool {
	const char *path;
	bool (*get)(void);
	void (*set)(bool on);
};

static bool schedstats_get(void)
{
	return schedstat_enabled();
}

static const struct proc_bool proc_files[] = {
	{ "/proc/sys/kernel/sched_schedstats", schedstats_get,
	  sched_set_schedstats },
};

/*
 * As Linux's sysctl files: a read at position 0 gets the text (or its
 * first len bytes), any read after it 0.
 */
static ssize_t proc_bool_read(struct file *f, void __user *buf, size_t len)
{
	const struct proc_bool *pb = f->priv;
	char text[2] = { pb->get() ? '1' : '0', '\n' };
	size_t n;

	if (f->pos || !len)
		return 0;
	n = min(len, sizeof(text));
	if (copy_to_user(buf, text, n))
		return -EFAULT;
	f->pos += n;
	return n;
}

static bool proc_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * An integer as Linux's proc_dointvec reads one: leading blanks, an
 * optional '-', base 0 (0x hex, 0 octal, else decimal), then a blank or
 * the end. *end: the first character not used (trailing blanks skipped).
 */
static int proc_parse_long(const char *s, size_t len, long *val, size_t *end)
{
	unsigned long v = 0, base = 10;
	size_t i = 0, digits = 0;
	bool neg = false;

	while (i < len && proc_space(s[i]))
		i++;
	if (i < len && s[i] == '-') {
		neg = true;
		i++;
	}
	if (i + 1 < len && s[i] == '0' &&
	    (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (i < len && s[i] == '0') {
		base = 8;
	}
	for (; i < len; i++, digits++) {
		char c = s[i];
		unsigned long d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		if (d >= base || v > (LONG_MAX - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	if (!digits || (i < len && !proc_space(s[i])))
		return -EINVAL;
	while (i < len && proc_space(s[i]))
		i++;
	*val = neg ? -(long)v : (long)v;
	*end = i;
	return 0;
}

/*
 * Takes 0 or 1 as Linux's proc_dointvec_minmax: anything else is -EINVAL
 * and changes nothing; a write past position 0 takes the bytes and
 * changes nothing, as Linux's strict sysctl writes.
 */
static ssize_t proc_bool_write(struct file *f, const void __user *buf,
			       size_t len)
{
	const struct proc_bool *pb = f->priv;
	char text[64];
	size_t used;
	long val;

	if (!len)
		return 0;
	if (f->pos) {
		f->pos += len;
		return len;
	}
	if (len > sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, buf, len))
		return -EFAULT;
	if (proc_parse_long(text, len, &val, &used) || val < 0 || val > 1)
		return -EINVAL;
	pb->set(val == 1);
	f->pos += used;
	return used;
}

static const struct file_ops proc_bool_ops = {
	.read = proc_bool_read,
	.write = proc_bool_write,
	.mode = S_IFREG | 0644,
};

int procfs_open(const char *path, unsigned int flags, struct file **out)
{
	unsigned int i;

	if (!READ_ONCE(proc_mounted))
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(proc_files); i++) {
		if (strcmp(path, proc_files[i].path))
			continue;
		*out = file_alloc(&proc_bool_ops, (void *)&proc_files[i],
				  flags & O_ACCMODE);
		return *out ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

/*
 * Whether the user string at u (up to max bytes, NUL included) can be
 * read: 0, -EFAULT, or -ENAMETOOLONG past max. Linux copies mount's
 * source and options even where the file system does not use them.
 */
static long user_string_ok(unsigned long u, long max)
{
	char chunk[64];
	long done, n;

	for (done = 0; done < max; done += n) {
		n = strncpy_from_user(chunk, (const char __user *)u + done,
				      sizeof(chunk));
		if (n < 0)
			return n;
		if (n < (long)sizeof(chunk))
			return 0;
	}
	return -ENAMETOOLONG;
}

/* Linux's copy_mount_options(): -EFAULT only if no byte can be read. */
static long user_options_ok(unsigned long u)
{
	char c;

	return copy_from_user(&c, (const void __user *)u, 1) ? -EFAULT : 0;
}

bool procfs_mounted(void)
{
	return READ_ONCE(proc_mounted);
}

bool procfs_exists(const char *path)
{
	static const char *const dirs[] = { "/proc/self", "/proc/sys",
					    "/proc/sys/kernel" };
	unsigned int i;

	if (!procfs_mounted())
		return false;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strcmp(path, dirs[i]))
			return true;
	for (i = 0; i < ARRAY_SIZE(proc_files); i++)
		if (!strcmp(path, proc_files[i].path))
			return true;
	return false;
}

long sys_mount(unsigned long usrc, unsigned long utarget, unsigned long utype,
	       unsigned long flags, unsigned long data)
{
	char target[16], type[16];
	long n;

	if (data && user_options_ok(data))
		return -EFAULT;
	if (utype) {
		n = strncpy_from_user(type, (const char __user *)utype,
				      sizeof(type));
		if (n < 0)
			return n;
		if (n == sizeof(type))
			return -ENODEV; /* longer than any type here */
	} else {
		type[0] = 0;
	}
	if (usrc) {
		n = user_string_ok(usrc, 4096);
		if (n < 0)
			return n;
	}
	n = strncpy_from_user(target, (const char __user *)utarget,
			      sizeof(target));
	if (n < 0)
		return n;
	if (strcmp(type, "proc"))
		return -ENODEV;
	if (n == sizeof(target) ||
	    (strcmp(target, "/proc") && strcmp(target, "/proc/")))
		return -ENOENT;
	WRITE_ONCE(proc_mounted, true);
	return 0;
}

/*
 * mkdir: there is no writable file system. The directories that exist
 * (/, /bin, /proc, /proc/sys, /proc/sys/kernel once proc is mounted) give
 * -EEXIST as on Linux; anything else -EROFS.
 */
long sys_mkdirat(unsigned long dfd, unsigned long upath, unsigned long mode)
{
	static const char *const dirs[] = { "/", "/bin", "/proc" };
	static const char *const proc_dirs[] = { "/proc/sys",
						 "/proc/sys/kernel" };
	char path[64];
	unsigned int i;
	long n;

	n = strncpy_from_user(path, (const char __user *)upath, sizeof(path));
	if (n < 0)
		return n;
	if (n == sizeof(path))
		return -ENAMETOOLONG;
	if (!n)
		return -ENOENT;
	while (n > 1 && path[n - 1] == '/')
		path[--n] = 0;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strcmp(path, dirs[i]))
			return -EEXIST;
	for (i = 0; i < ARRAY_SIZE(proc_dirs) && READ_ONCE(proc_mounted); i++)
		if (!strcmp(path, proc_dirs[i]))
			return -EEXIST;
	return -EROFS;
}

long sys_mkdir(unsigned long upath, unsigned long mode)
{
	return sys_mkdirat(-100 /* AT_FDCWD */, upath, mode);
}
