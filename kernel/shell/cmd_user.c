// SPDX-License-Identifier: GPL-2.0
/*
 * The console's user-space commands: "progs" lists the programs the ISO
 * carries (/bin/NAME), "exec NAME [args]" runs one as a process with its
 * output on the console and prints how it ended, as a shell would.
 */
#include <linux/kernel.h>
#include <linux/process.h>
#include <linux/shell.h>

#define EXEC_ARGS 16

static int cmd_progs(int argc, char **argv)
{
	unsigned int i;

	for (i = 0; i < exec_prog_count(); i++)
		shell_printf("%-24s %8zu bytes\n", exec_prog_get(i)->name,
			     exec_prog_get(i)->size);
	if (!exec_prog_count())
		shell_printf(
			"no programs on the ISO (user/*/*.c, USER_PROGS=)\n");
	return 0;
}

static int cmd_exec(int argc, char **argv)
{
	const char *args[EXEC_ARGS + 2];
	const char *envp[] = { "HOME=/", "TERM=linux", NULL };
	struct process *p;
	int i, ret, status;

	for (i = 1; i < argc; i++)
		args[i - 1] = argv[i];
	args[argc - 1] = NULL;
	ret = process_spawn(argv[1], args, envp, &p);
	if (ret) {
		shell_printf(
			"exec: %s: %s (%d)\n", argv[1],
			ret == -ENOENT ?
				"no such program (see progs)" :
			ret == -ENOEXEC ?
				"not a static executable (the log says why)" :
				"cannot start",
			ret);
		return ret;
	}
	status = process_wait(p);
	if (status & 0x7f)
		shell_printf("%s: killed by signal %d\n", argv[1],
			     status & 0x7f);
	else
		shell_printf("%s: exit status %d\n", argv[1],
			     (status >> 8) & 0xff);
	return 0;
}

static void complete_prog(struct shell_completion *c)
{
	unsigned int i;

	if (c->argi == 1)
		for (i = 0; i < exec_prog_count(); i++)
			shell_complete_add(c, exec_prog_get(i)->name + 5);
}

const struct shell_cmd shell_user_cmds[] = {
	{ "progs", "", "the user programs the ISO carries", 0, 0, false,
	  cmd_progs },
	{ "exec", "<name> [args...]",
	  "run a program as a process and print its exit status", 1, EXEC_ARGS,
	  true, cmd_exec, complete_prog },
	{ NULL }
};
