// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal /proc: after mount("proc", "/proc", "proc", ...), the files of
 * /proc/sys/kernel/ that stand for the kernel's static keys. Each reads
 * as "0\n" or "1\n" and takes "0" or "1" (a newline may follow); anything
 * else is -EINVAL and changes nothing, as Linux's proc_dointvec_minmax.
 */
#include <linux/kernel.h>
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

static ssize_t proc_bool_read(struct file *f, void __user *buf, size_t len)
{
	const struct proc_bool *pb = f->priv;
	char text[2] = { pb->get() ? '1' : '0', '\n' };
	size_t n;

	if (f->pos >= sizeof(text))
		return 0;
	n = min(len, sizeof(text) - f->pos);
	if (copy_to_user(buf, text + f->pos, n))
		return -EFAULT;
	f->pos += n;
	return n;
}

static ssize_t proc_bool_write(struct file *f, const void __user *buf,
			       size_t len)
{
	const struct proc_bool *pb = f->priv;
	char text[8];
	size_t n = len;

	if (!len)
		return 0;
	if (len > sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, buf, len))
		return -EFAULT;
	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		n--;
	if (n != 1 || (text[0] != '0' && text[0] != '1'))
		return -EINVAL;
	pb->set(text[0] == '1');
	return len;
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

long sys_mount(unsigned long usrc, unsigned long utarget, unsigned long utype,
	       unsigned long flags, unsigned long data)
{
	char target[16], type[16];
	long n;

	n = strncpy_from_user(target, (const char __user *)utarget,
			      sizeof(target));
	if (n < 0)
		return n;
	if (utype) {
		n = strncpy_from_user(type, (const char __user *)utype,
				      sizeof(type));
		if (n < 0)
			return n;
	} else {
		type[0] = 0;
	}
	if (strcmp(type, "proc"))
		return -ENODEV;
	if (strcmp(target, "/proc") && strcmp(target, "/proc/"))
		return -ENOENT;
	WRITE_ONCE(proc_mounted, true);
	return 0;
}
