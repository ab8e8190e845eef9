// SPDX-License-Identifier: GPL-2.0
/*
 * readlink(2) and readlinkat(2) with Linux's semantics over the files
 * this kernel has. The one symbolic link is /proc/self/exe once proc is
 * mounted: the path of the process's program (/bin/NAME). Every other
 * file that exists (/, /bin, /proc, the programs, /proc/sys/... once
 * mounted) is not a link: -EINVAL; anything else -ENOENT. The result is
 * not NUL-terminated and is cut at bufsiz (which must be positive). A
 * relative path is taken from the working directory ("/") with AT_FDCWD;
 * with another dirfd, which is never a directory here, -EBADF or
 * -ENOTDIR, as Linux says for such a dirfd.
 */
#include <linux/kernel.h>
#include <linux/process.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>

#define AT_FDCWD -100

/* The path of the current process's program, from its name. */
static const char *exe_path(void)
{
	const char *comm = current_process()->comm;
	size_t n = strlen(comm);
	const struct user_prog *u;
	const char *base;
	unsigned int i;

	for (i = 0; (u = exec_prog_get(i)); i++) {
		base = strrchr(u->name, '/') ? strrchr(u->name, '/') + 1 :
					       u->name;
		/* comm may be the name cut at 15 bytes */
		if (!strcmp(base, comm) ||
		    (n == sizeof(current_process()->comm) - 1 &&
		     !strncmp(base, comm, n)))
			return u->name;
	}
	return NULL;
}

/* Whether path (absolute) names a file or directory that is not a link. */
static bool exists(const char *path)
{
	static const char *const dirs[] = { "/", "/bin", "/proc" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strcmp(path, dirs[i]))
			return true;
	return exec_find(path) || procfs_exists(path);
}

long sys_readlinkat(unsigned long dfd, unsigned long upath, unsigned long ubuf,
		    unsigned long ubufsiz)
{
	int bufsiz = (int)ubufsiz, dirfd = (int)dfd;
	char path[130] = "/";
	const char *target;
	struct file *f;
	long n;

	if (bufsiz <= 0)
		return -EINVAL;
	n = strncpy_from_user(path + 1, (const char __user *)upath,
			      sizeof(path) - 1);
	if (n < 0)
		return n;
	if (n == sizeof(path) - 1)
		return -ENAMETOOLONG;
	if (!n)
		return -ENOENT;
	if (path[1] != '/' && dirfd != AT_FDCWD) {
		f = fd_get(dirfd);
		if (!f)
			return -EBADF;
		file_put(f);
		return -ENOTDIR;
	}
	target = path[1] == '/' ? path + 1 : path;
	if (!strcmp(target, "/proc/self/exe") && procfs_mounted()) {
		target = exe_path();
		if (!target)
			return -ENOENT;
		n = min_t(size_t, strlen(target), bufsiz);
		return copy_to_user((void __user *)ubuf, target, n) ? -EFAULT :
								      n;
	}
	return exists(target) ? -EINVAL : -ENOENT;
}

long sys_readlink(unsigned long upath, unsigned long ubuf, unsigned long bufsiz)
{
	return sys_readlinkat(AT_FDCWD, upath, ubuf, bufsiz);
}
