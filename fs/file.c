// SPDX-License-Identifier: GPL-2.0
/*
 * Files of processes: fds, the serial console (fds 0, 1, 2 of a spawned
 * process), pipes over kernel/pipe.c, and the system calls on them.
 * A struct file is shared by the fds dup() and fork() give (refs under
 * process_lock); a pipe's end is closed when its last file goes.
 */
#include <linux/kernel.h>
#include <linux/console.h>
#include <linux/pipe.h>
#include <linux/process.h>
#include <linux/syscalls.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#define O_ACCMODE 3
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_NONBLOCK 04000
#define O_CLOEXEC 02000000
#define S_IFIFO 0010000
#define S_IFCHR 0020000
#define S_IFREG 0100000
#define S_IFMT 0170000
#define SEEK_SET 0
#define SEEK_CUR 1
#define TCGETS 0x5401
#define PIPE_SIZE 65536
#define IO_CHUNK 512

struct file *file_alloc(const struct file_ops *ops, void *priv,
			unsigned int flags)
{
	struct file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->refs = 1;
	f->ops = ops;
	f->priv = priv;
	f->flags = flags;
	return f;
}

void file_get(struct file *f)
{
	unsigned long flags;

	spin_lock_irqsave(&process_lock, flags);
	f->refs++;
	spin_unlock_irqrestore(&process_lock, flags);
}

void file_put(struct file *f)
{
	unsigned long flags;
	int refs;

	spin_lock_irqsave(&process_lock, flags);
	refs = --f->refs;
	spin_unlock_irqrestore(&process_lock, flags);
	if (refs)
		return;
	if (f->ops->release)
		f->ops->release(f);
	kfree(f);
}

struct file *fd_get(int fd)
{
	struct process *p = current_process();
	struct file *f = NULL;
	unsigned long flags;

	if (fd < 0 || fd >= NR_OPEN)
		return NULL;
	spin_lock_irqsave(&process_lock, flags);
	f = p->files[fd];
	if (f)
		f->refs++;
	spin_unlock_irqrestore(&process_lock, flags);
	return f;
}

int fd_install(struct file *f, int min, bool cloexec)
{
	struct process *p = current_process();
	unsigned long flags;
	int fd;

	spin_lock_irqsave(&process_lock, flags);
	for (fd = min; fd < NR_OPEN && p->files[fd]; fd++)
		;
	if (fd < NR_OPEN) {
		p->files[fd] = f;
		if (cloexec)
			p->fds_cloexec |= 1ULL << fd;
		else
			p->fds_cloexec &= ~(1ULL << fd);
	}
	spin_unlock_irqrestore(&process_lock, flags);
	return fd < NR_OPEN ? fd : -EMFILE;
}

/* The console (<linux/console.h>): writes go to it; reads see end of file. */
static ssize_t console_file_read(struct file *f, void __user *buf,
				 size_t len)
{
	return 0;
}

static ssize_t console_file_write(struct file *f, const void __user *buf,
				  size_t len)
{
	char chunk[IO_CHUNK];
	size_t done = 0;

	while (done < len) {
		size_t n = min(len - done, sizeof(chunk));

		if (copy_from_user(chunk, (const u8 __user *)buf + done, n))
			return done ? done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return done;
}

static const struct file_ops console_ops = {
	.read = console_file_read,
	.write = console_file_write,
	.mode = S_IFCHR | 0620,
	.tty = true,
};

struct file *console_file(unsigned int flags)
{
	return file_alloc(&console_ops, NULL, flags);
}

/* Pipes: both ends' files point at one of these. */
struct upipe {
	struct pipe *pipe;
	int ends; /* files still open, at most 2 */
};

static void upipe_put(struct upipe *u)
{
	unsigned long flags;
	int ends;

	spin_lock_irqsave(&process_lock, flags);
	ends = --u->ends;
	spin_unlock_irqrestore(&process_lock, flags);
	if (!ends) {
		pipe_destroy(u->pipe);
		kfree(u);
	}
}

long __probe_user_write(void __user *p);

/*
 * Whether the kernel can write [buf, buf + len) (a range below
 * USER_ADDR_END): one byte of each page is read and written back, which
 * no other task can see (none shares the address space).
 */
static bool user_writable(void __user *buf, size_t len)
{
	unsigned long a = (unsigned long)buf, end = a + len;

	if (!access_ok(a, len))
		return false;
	while (a < end) {
		if (__probe_user_write((void __user *)a))
			return false;
		a = (a & PAGE_MASK) + PAGE_SIZE;
	}
	return true;
}

static ssize_t upipe_read(struct file *f, void __user *buf, size_t len)
{
	struct upipe *u = f->priv;
	char chunk[IO_CHUNK];
	ssize_t n;

	len = min(len, sizeof(chunk));
	/* A bad buffer leaves the data in the pipe, as on Linux. */
	if (!user_writable(buf, len))
		return -EFAULT;
	n = pipe_read_stoppable(u->pipe, chunk, len, process_signal_pending);
	if (n == -EINTR)
		return -ERESTARTSYS;
	if (n > 0 && copy_to_user(buf, chunk, n))
		return -EFAULT;
	return n;
}

static ssize_t upipe_write(struct file *f, const void __user *buf, size_t len)
{
	struct upipe *u = f->priv;
	char chunk[IO_CHUNK];
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		size_t k = min(len - done, sizeof(chunk));

		if (copy_from_user(chunk, (const u8 __user *)buf + done, k))
			return done ? done : -EFAULT;
		n = pipe_write_stoppable(u->pipe, chunk, k,
					 process_signal_pending);
		if (n < 0) {
			if (n == -EPIPE)
				process_kill(current_process(), SIGPIPE);
			if (n == -EINTR)
				n = -ERESTARTSYS;
			return done ? done : n;
		}
		done += n;
		if ((size_t)n < k)
			break;
	}
	return done;
}

static void upipe_release_read(struct file *f)
{
	pipe_close_read(((struct upipe *)f->priv)->pipe);
	upipe_put(f->priv);
}

static void upipe_release_write(struct file *f)
{
	pipe_close_write(((struct upipe *)f->priv)->pipe);
	upipe_put(f->priv);
}

static const struct file_ops pipe_read_ops = {
	.read = upipe_read,
	.release = upipe_release_read,
	.mode = S_IFIFO | 0600,
};

static const struct file_ops pipe_write_ops = {
	.write = upipe_write,
	.release = upipe_release_write,
	.mode = S_IFIFO | 0600,
};

long sys_pipe2(unsigned long ufds, unsigned long flags)
{
	struct file *r = NULL, *w = NULL;
	struct upipe *u;
	int fds[2];

	if (flags & ~(unsigned long)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	u->pipe = pipe_create(PIPE_SIZE);
	if (!u->pipe) {
		kfree(u);
		return -ENOMEM;
	}
	u->ends = 2;
	r = file_alloc(&pipe_read_ops, u, 0);
	w = file_alloc(&pipe_write_ops, u, O_WRONLY);
	if (!r || !w) {
		kfree(r);
		kfree(w);
		pipe_destroy(u->pipe);
		kfree(u);
		return -ENOMEM;
	}
	fds[0] = fd_install(r, 0, flags & O_CLOEXEC);
	if (fds[0] < 0) {
		file_put(r);
		file_put(w);
		return fds[0];
	}
	fds[1] = fd_install(w, 0, flags & O_CLOEXEC);
	if (fds[1] < 0) {
		sys_close(fds[0]);
		file_put(w);
		return fds[1];
	}
	if (copy_to_user((int __user *)ufds, fds, sizeof(fds))) {
		sys_close(fds[0]);
		sys_close(fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(unsigned long ufds)
{
	return sys_pipe2(ufds, 0);
}

long sys_read(unsigned long fd, unsigned long buf, unsigned long len)
{
	struct file *f = fd_get(fd);
	long ret;

	if (!f)
		return -EBADF;
	if (!f->ops->read || (f->flags & O_ACCMODE) == O_WRONLY)
		ret = -EBADF;
	else if (!access_ok(buf, len))
		ret = -EFAULT;
	else
		ret = f->ops->read(f, (void __user *)buf, len);
	file_put(f);
	return ret;
}

long sys_write(unsigned long fd, unsigned long buf, unsigned long len)
{
	struct file *f = fd_get(fd);
	long ret;

	if (!f)
		return -EBADF;
	if (!f->ops->write || (f->flags & O_ACCMODE) == O_RDONLY)
		ret = -EBADF;
	else if (!access_ok(buf, len))
		ret = -EFAULT;
	else
		ret = f->ops->write(f, (const void __user *)buf, len);
	file_put(f);
	return ret;
}

struct iovec {
	unsigned long base, len;
};

/*
 * Every iovec is checked before a byte is written (Linux's
 * import_iovec()): one that cannot be read, a negative length or a
 * range outside user space fails the call with nothing written.
 */
static long writev_check(unsigned long uiov, unsigned long cnt)
{
	struct iovec iov;
	unsigned long i;

	for (i = 0; i < cnt; i++) {
		if (copy_from_user(&iov, (struct iovec __user *)uiov + i,
				   sizeof(iov)))
			return -EFAULT;
		if ((long)iov.len < 0)
			return -EINVAL;
		if (!access_ok(iov.base, iov.len))
			return -EFAULT;
	}
	return 0;
}

long sys_writev(unsigned long fd, unsigned long uiov, unsigned long cnt)
{
	struct iovec iov;
	long total = 0, ret;
	struct file *f;
	unsigned long i;

	f = fd_get((unsigned int)fd);
	if (!f)
		return -EBADF;
	ret = !f->ops->write || (f->flags & O_ACCMODE) == O_RDONLY ? -EBADF : 0;
	file_put(f);
	if (ret)
		return ret;
	if (cnt > 1024)
		return -EINVAL;
	ret = writev_check(uiov, cnt);
	if (ret)
		return ret;
	for (i = 0; i < cnt; i++) {
		if (copy_from_user(&iov, (struct iovec __user *)uiov + i,
				   sizeof(iov)))
			return total ? total : -EFAULT;
		if (!iov.len)
			continue;
		ret = sys_write(fd, iov.base, iov.len);
		if (ret < 0)
			return total ? total : ret;
		total += ret;
		if ((unsigned long)ret < iov.len)
			break;
	}
	return total;
}

long sys_close(unsigned long fd)
{
	struct process *p = current_process();
	struct file *f;

	fd = (unsigned int)fd; /* Linux's fd arguments are unsigned int */
	if (fd >= NR_OPEN)
		return -EBADF;
	spin_lock_irq(&process_lock);
	f = p->files[fd];
	p->files[fd] = NULL;
	p->fds_cloexec &= ~(1ULL << fd);
	spin_unlock_irq(&process_lock);
	if (!f)
		return -EBADF;
	file_put(f);
	return 0;
}

long sys_dup3(unsigned long oldfd, unsigned long newfd, unsigned long flags)
{
	struct process *p = current_process();
	struct file *f, *old;

	oldfd = (unsigned int)oldfd;
	newfd = (unsigned int)newfd;
	if (flags & ~(unsigned long)O_CLOEXEC)
		return -EINVAL;
	if (newfd >= NR_OPEN)
		return -EBADF;
	if (oldfd == newfd)
		return -EINVAL;
	f = fd_get(oldfd);
	if (!f)
		return -EBADF;
	spin_lock_irq(&process_lock);
	old = p->files[newfd];
	p->files[newfd] = f;
	if (flags & O_CLOEXEC)
		p->fds_cloexec |= 1ULL << newfd;
	else
		p->fds_cloexec &= ~(1ULL << newfd);
	spin_unlock_irq(&process_lock);
	if (old)
		file_put(old);
	return newfd;
}

long sys_dup2(unsigned long oldfd, unsigned long newfd)
{
	struct file *f;

	oldfd = (unsigned int)oldfd;
	newfd = (unsigned int)newfd;
	if (oldfd != newfd)
		return sys_dup3(oldfd, newfd, 0);
	f = fd_get(oldfd);
	if (!f)
		return -EBADF;
	file_put(f);
	return newfd;
}

long sys_dup(unsigned long oldfd)
{
	struct file *f = fd_get(oldfd);
	int fd;

	if (!f)
		return -EBADF;
	fd = fd_install(f, 0, false);
	if (fd < 0)
		file_put(f);
	return fd;
}

/* Regular files (/proc's) move their position; the rest are streams. */
long sys_lseek(unsigned long fd, unsigned long off, unsigned long whence)
{
	struct file *f = fd_get(fd);
	long ret;

	if (!f)
		return -EBADF;
	if ((f->ops->mode & S_IFMT) != S_IFREG)
		ret = -ESPIPE;
	else if (whence == SEEK_SET && (long)off >= 0)
		ret = f->pos = off;
	else if (whence == SEEK_CUR && (long)(f->pos + off) >= 0)
		ret = f->pos += off;
	else
		ret = -EINVAL;
	file_put(f);
	return ret;
}

/* Linux's x86-64 struct stat: 144 bytes, st_mode at 24, st_blksize at 56. */
static long fill_stat(struct file *f, unsigned long ustat)
{
	u8 st[144] = {};
	u32 mode = f->ops->mode;
	long blksize = 4096;

	memcpy(st + 24, &mode, sizeof(mode));
	memcpy(st + 56, &blksize, sizeof(blksize));
	return copy_to_user((void __user *)ustat, st, sizeof(st)) ? -EFAULT : 0;
}

long sys_fstat(unsigned long fd, unsigned long ustat)
{
	struct file *f = fd_get(fd);
	long ret;

	if (!f)
		return -EBADF;
	ret = fill_stat(f, ustat);
	file_put(f);
	return ret;
}

#define AT_EMPTY_PATH 0x1000

long sys_newfstatat(unsigned long dfd, unsigned long upath, unsigned long ustat,
		    unsigned long flags)
{
	char c;

	if (copy_from_user(&c, (const char __user *)upath, 1))
		return -EFAULT;
	if (c || !(flags & AT_EMPTY_PATH))
		return -ENOENT;
	return sys_fstat(dfd, ustat);
}

long sys_ioctl(unsigned long fd, unsigned long cmd, unsigned long arg)
{
	struct file *f = fd_get(fd);
	u8 termios[36] = {}; /* the kernel's struct termios */
	long ret = -ENOTTY;

	if (!f)
		return -EBADF;
	if (f->ops->tty && cmd == TCGETS) {
		/* 115200 8N1, canonical with echo, as a serial tty reports. */
		u32 iflag = 0x500, oflag = 0x5, cflag = 0xcbd, lflag = 0x8a3b;

		memcpy(termios, &iflag, 4);
		memcpy(termios + 4, &oflag, 4);
		memcpy(termios + 8, &cflag, 4);
		memcpy(termios + 12, &lflag, 4);
		ret = copy_to_user((void __user *)arg, termios,
				   sizeof(termios)) ?
			      -EFAULT :
			      0;
	}
	file_put(f);
	return ret;
}

long sys_openat(unsigned long dfd, unsigned long upath, unsigned long flags,
		unsigned long mode)
{
	struct file *f;
	char path[128];
	long ret;
	int fd;

	ret = strncpy_from_user(path, (const char __user *)upath, sizeof(path));
	if (ret < 0)
		return ret;
	if (ret == sizeof(path))
		return -ENAMETOOLONG;
	ret = procfs_open(path, flags, &f);
	if (ret)
		return ret;
	fd = fd_install(f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		file_put(f);
	return fd;
}
