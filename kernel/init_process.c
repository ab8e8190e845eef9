// SPDX-License-Identifier: GPL-2.0
/*
 * init=/bin/NAME (make run INIT=...): the program runs as pid 1 instead of
 * the console or the tests, its output on the serial console, with
 * init_args="a b c" as its arguments (split at spaces). It powers QEMU off
 * when it calls reboot(POWER_OFF) or when it ends (process_exit()).
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/process.h>
#include <linux/string.h>
#include <asm/reboot.h>

#define INIT_ARGV_MAX 16

static char init_path[64];
static char init_args[256];

static int __init init_setup(char *val)
{
	strscpy(init_path, val, sizeof(init_path));
	return 0;
}
__setup("init", init_setup);

static int __init init_args_setup(char *val)
{
	strscpy(init_args, val, sizeof(init_args));
	return 0;
}
__setup("init_args", init_args_setup);

bool init_requested(void)
{
	return init_path[0];
}

void __noreturn run_init_process(void)
{
	const char *argv[INIT_ARGV_MAX + 2] = { init_path };
	const char *envp[] = { "HOME=/", "TERM=linux", NULL };
	struct process *p;
	unsigned int argc = 1;
	char *s = init_args;
	int ret;

	while (*s && argc <= INIT_ARGV_MAX) {
		while (*s == ' ')
			*s++ = 0;
		if (!*s)
			break;
		argv[argc++] = s;
		while (*s && *s != ' ')
			s++;
	}
	argv[argc] = NULL;
	init_process_powers_off = true;
	ret = process_spawn(init_path, argv, envp, &p);
	if (ret) {
		pr_emerg(
			"Kernel panic - not syncing: Requested init %s failed (error %d).\n",
			init_path, ret);
		machine_power_off(QEMU_EXIT_PANIC);
	}
	process_wait(p); /* never returns: pid 1's end powers off */
	machine_power_off(QEMU_EXIT_PANIC);
}
