// SPDX-License-Identifier: GPL-2.0
/*
 * System calls with bad input, fork/pipe/wait and /proc/sys: exits 0 if
 * every check passes, else with the number of the first that failed. The
 * same binary gives the same result on Linux (as root, /proc mountable,
 * run from /).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHECK(n, cond)                                                        \
	do {                                                                  \
		if (!(cond)) {                                                \
			printf("ucheck: check %d failed: %s (errno %d)\n", n, \
			       #cond, errno);                                 \
			return n;                                             \
		}                                                             \
	} while (0)

/* A bad buffer is -EFAULT and the data stays; a sleeping reader dies. */
static int pipes_bad_buffer(void)
{
	struct timespec ts = { 0, 20000000 };
	char buf[8] = {};
	int p[2], st;
	pid_t pid;

	CHECK(60, pipe(p) == 0);
	CHECK(61, write(p[1], "abc", 3) == 3);
	CHECK(62, syscall(SYS_read, p[0], NULL, 3) == -1 && errno == EFAULT);
	CHECK(63,
	      syscall(SYS_read, p[0], (void *)0xffffffff80100000UL, 3) == -1 &&
		      errno == EFAULT);
	CHECK(64, read(p[0], buf, sizeof(buf)) == 3 && !strcmp(buf, "abc"));
	CHECK(65, syscall(SYS_write, p[1], NULL, 3) == -1 && errno == EFAULT);
	CHECK(66, read(0, (void *)0, 0) == 0);
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		read(p[0], buf, 1); /* nothing comes: killed while asleep */
		_exit(1);
	}
	nanosleep(&ts, NULL);
	CHECK(67, kill(pid, SIGTERM) == 0);
	CHECK(68, waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
			  WTERMSIG(st) == SIGTERM);
	close(p[0]);
	close(p[1]);
	return 0;
}

static int pipes(void)
{
	int p[2], st;
	char c;
	pid_t pid;

	CHECK(20, pipe(p) == 0);
	pid = fork();
	CHECK(21, pid >= 0);
	if (pid == 0) {
		close(p[0]);
		write(p[1], "x", 1);
		_exit(7); /* the write end closes with the process */
	}
	close(p[1]);
	CHECK(22, read(p[0], &c, 1) == 1 && c == 'x');
	CHECK(23, read(p[0], &c, 1) == 0); /* EOF */
	CHECK(24, waitpid(pid, &st, 0) == pid);
	CHECK(25, WIFEXITED(st) && WEXITSTATUS(st) == 7);
	close(p[0]);
	CHECK(26, pipe(p) == 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	CHECK(27, write(p[1], "x", 1) == -1 && errno == EPIPE);
	close(p[1]);
	CHECK(28, wait(&st) == -1 && errno == ECHILD);
	CHECK(29, lseek(0, 0, SEEK_SET) == -1 && errno == ESPIPE);
	return pipes_bad_buffer();
}

static int schedstats_is(int on)
{
	char buf[8] = {};
	int fd = open("/proc/sys/kernel/sched_schedstats", O_RDONLY);
	long n = read(fd, buf, sizeof(buf));

	close(fd);
	return n == 2 && buf[0] == '0' + on;
}

static int schedstats(void)
{
	char buf[8] = {};
	int fd;

	CHECK(40,
	      mount("proc", "/proc", "proc", 0, NULL) == 0 || errno == EBUSY);
	fd = open("/proc/sys/kernel/sched_schedstats", O_RDWR);
	CHECK(41, fd >= 0);
	CHECK(42, write(fd, "1", 1) == 1);
	close(fd);
	fd = open("/proc/sys/kernel/sched_schedstats", O_RDWR);
	CHECK(43, read(fd, buf, sizeof(buf)) == 2 && !strcmp(buf, "1\n"));
	/* As Linux's sysctl files: a write past position 0 does nothing. */
	CHECK(49, write(fd, "0", 1) == 1 && schedstats_is(1));
	CHECK(50, lseek(fd, 0, SEEK_SET) == 0);
	CHECK(44, write(fd, "2", 1) == -1 && errno == EINVAL);
	CHECK(45, write(fd, "0\n", 2) == 2);
	CHECK(47, lseek(fd, 0, SEEK_SET) == 0);
	CHECK(48, read(fd, buf, sizeof(buf)) == 2 && !strcmp(buf, "0\n"));
	close(fd);
	CHECK(46,
	      open("/proc/no_such_file", O_RDONLY) == -1 && errno == ENOENT);
	return 0;
}

/*
 * readlink(2), readlinkat(2), after schedstats() mounted /proc: the one
 * link is /proc/self/exe, this program's path (/bin/ucheck here); the
 * result has no NUL and is cut at bufsiz; what is not a link is -EINVAL,
 * what does not exist -ENOENT. A relative path is taken from the working
 * directory, or from dirfd, which must then be a directory.
 */
static int readlinks(void)
{
	char buf[64], want[64];
	ssize_t n;

	memset(buf, 'x', sizeof(buf));
	n = readlink("/proc/self/exe", buf, sizeof(buf));
	CHECK(70, n > 7 && n < (ssize_t)sizeof(buf) &&
			  !memcmp(buf + n - 7, "/ucheck", 7) && buf[n] == 'x');
	memcpy(want, buf, n);
	want[n] = '\0';
	memset(buf, 'x', sizeof(buf));
	CHECK(71, readlink("/proc/self/exe", buf, 4) == 4 &&
			  !memcmp(buf, want, 4) && buf[4] == 'x');
	CHECK(72, readlink("/proc/self/exe", buf, 0) == -1 && errno == EINVAL);
	CHECK(73, readlink("/", buf, sizeof(buf)) == -1 && errno == EINVAL);
	CHECK(74, readlink("/proc/sys/kernel/sched_schedstats", buf,
			   sizeof(buf)) == -1 &&
			  errno == EINVAL);
	CHECK(75,
	      readlink("/no/such/file", buf, sizeof(buf)) == -1 && errno == ENOENT);
	CHECK(76, readlink("", buf, sizeof(buf)) == -1 && errno == ENOENT);
	CHECK(77, syscall(SYS_readlink, (void *)0, buf, sizeof(buf)) == -1 &&
			  errno == EFAULT);
	CHECK(78, syscall(SYS_readlink, "/proc/self/exe", (void *)8, 10) == -1 &&
			  errno == EFAULT);
	memset(buf, 'x', sizeof(buf)); /* relative to "/", the cwd here */
	CHECK(80, readlinkat(AT_FDCWD, "proc/self/exe", buf, sizeof(buf)) == n &&
			  !memcmp(buf, want, n) && buf[n] == 'x');
	CHECK(81, readlinkat(99, "proc/self/exe", buf, sizeof(buf)) == -1 &&
			  errno == EBADF);
	CHECK(82, readlinkat(0, "proc/self/exe", buf, sizeof(buf)) == -1 &&
			  errno == ENOTDIR);
	CHECK(83, readlinkat(99, "/proc/self/exe", buf, sizeof(buf)) == n);
	CHECK(84, readlink(want, buf, sizeof(buf)) == -1 && errno == EINVAL);
	return 0;
}

int main(void)
{
	int p[2], ret;

	CHECK(1, syscall(SYS_write, 1, (void *)0, 10) == -1 && errno == EFAULT);
	CHECK(2,
	      syscall(SYS_write, 1, (void *)0xffffffff80100000UL, 10) == -1 &&
		      errno == EFAULT);
	CHECK(3, syscall(SYS_read, 99, p, 1) == -1 && errno == EBADF);
	CHECK(4, syscall(SYS_write, -1, "x", 1) == -1 && errno == EBADF);
	CHECK(5, syscall(999) == -1 && errno == ENOSYS);
	CHECK(6, syscall(SYS_pipe, (void *)8) == -1 && errno == EFAULT);
	CHECK(7, syscall(SYS_close, 1000) == -1 && errno == EBADF);
	CHECK(8, syscall(SYS_uname, (void *)0xffff888000000000UL) == -1 &&
			 errno == EFAULT);
	CHECK(9,
	      syscall(SYS_wait4, -1, (void *)1, 0, 0) == -1 && errno == ECHILD);
	CHECK(10, getppid() >= 0 && getpid() > 0);
	ret = pipes();
	if (ret)
		return ret;
	ret = schedstats();
	if (ret)
		return ret;
	ret = readlinks();
	if (ret)
		return ret;
	printf("ucheck: all checks passed\n");
	return 0;
}
