// SPDX-License-Identifier: GPL-2.0
/*
 * Console commands on the rest of the system: CPUs, modules, benchmarks,
 * tests, memory, time, the log, and the end of the machine.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/module_blob.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/shell.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/timekeeping.h>
#include <kunit/test.h>

static int cmd_cpus(int argc, char **argv)
{
	unsigned int cpu;

	shell_printf("%-4s %-8s %10s %10s %12s %8s\n", "CPU", "STATE",
		     "INT3 HITS", "IPIS", "SWITCHES", "RUNNING");
	for_each_possible_cpu(cpu)
		shell_printf("%-4u %-8s %10lu %10lu %12lu %8u\n", cpu,
			     cpu_online(cpu) ? "online" : "offline",
			     text_poke_cpu_int3_hits(cpu),
			     arch_ipis_received(cpu),
			     sched_cpu_stats(cpu).switches,
			     sched_nr_running(cpu));
	shell_printf("%u of %u CPUs online\n", num_online_cpus(),
		     num_possible_cpus());
	return 0;
}

static int cmd_cpu(int argc, char **argv)
{
	bool online = !strcmp(argv[2], "online");
	unsigned long cpu;
	int ret;

	if (kstrtoul(argv[1], 10, &cpu) ||
	    (!online && strcmp(argv[2], "offline")))
		return shell_usage(argv[0]);
	if (cpu >= NR_CPUS || !cpu_possible(cpu)) {
		shell_printf(
			"cpu %s: no such CPU: this machine has CPUs 0-%u ('cpus' lists them)\n",
			argv[1], num_possible_cpus() - 1);
		return -ENODEV;
	}
	ret = online ? add_cpu(cpu) : remove_cpu(cpu);
	if (ret) {
		shell_printf("cpu %lu: %s failed: %d\n", cpu, argv[2], ret);
		return ret;
	}
	shell_printf("cpu %lu: %s, %u CPUs online\n", cpu, argv[2],
		     num_online_cpus());
	return 0;
}

static unsigned int module_size(const struct module *mod)
{
	unsigned int t, size = 0;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++)
		size += mod->mem[t].size;
	return size;
}

static const char *const module_states[] = {
	[MODULE_STATE_LIVE] = "live",
	[MODULE_STATE_COMING] = "coming",
	[MODULE_STATE_GOING] = "going",
	[MODULE_STATE_UNFORMED] = "unformed",
};

static int cmd_lsmod(int argc, char **argv)
{
	struct module *mod;
	unsigned int i, nr = 0;

	shell_printf("%-24s %8s %5s %-8s %s\n", "MODULE", "SIZE", "REFS",
		     "STATE", "JUMP ENTRIES");
	mutex_lock(&module_mutex);
	list_for_each_entry(mod, &modules, list) {
		shell_printf("%-24s %8u %5u %-8s %u\n", mod->name,
			     module_size(mod), module_refcount(mod),
			     module_states[mod->state], mod->num_jump_entries);
		nr++;
	}
	mutex_unlock(&module_mutex);
	shell_printf("%u loaded; on the ISO:", nr);
	for (i = 0; i < module_blob_count(); i++)
		shell_printf(" %s", module_blob_get(i)->name);
	shell_printf("\n");
	return 0;
}

/*
 * argv[2..] as load_module()'s argument string: each word's blanks,
 * quotes and backslashes behind a '\\', so that the loader splits and
 * decodes it into the same words (b="two words" arrived as b=two words).
 */
static int insmod_args(char *buf, size_t size, int argc, char **argv)
{
	size_t len = 0;
	const char *p;
	int i;

	buf[0] = '\0';
	for (i = 2; i < argc; i++) {
		for (p = argv[i]; *p; p++) {
			if (len + 3 >= size)
				return -E2BIG;
			if (strchr(" \t\n\"\\'", *p))
				buf[len++] = '\\';
			buf[len++] = *p;
		}
		if (i + 1 < argc)
			buf[len++] = ' ';
		buf[len] = '\0';
	}
	return 0;
}

static int cmd_insmod(int argc, char **argv)
{
	static char args[SHELL_LINE_MAX * 2];
	struct text_poke_stats before = text_poke_get_stats();
	size_t n = strlen(argv[1]);
	struct module *mod;

	if (n > 3 && !strcmp(argv[1] + n - 3, ".ko") &&
	    !module_blob_find(argv[1])) {
		shell_printf(
			"insmod: %s: modules are named without .ko: insmod %.*s\n",
			argv[1], (int)(n - 3), argv[1]);
		return -ENOENT;
	}
	if (insmod_args(args, sizeof(args), argc, argv)) {
		shell_printf("insmod: %s: arguments too long\n", argv[1]);
		return -E2BIG;
	}
	mod = load_module(argv[1], args);

	if (IS_ERR(mod)) {
		shell_printf("insmod: %s: failed: %ld (the log says why)\n",
			     argv[1], PTR_ERR(mod));
		return PTR_ERR(mod);
	}
	/*
	 * The sites the load wrote, before its text was executable (its own
	 * jump labels and static calls): not what its init flipped after.
	 */
	shell_printf(
		"%s: loaded, %u bytes, %u jump entries, %lu sites patched\n",
		argv[1], module_size(mod), mod->num_jump_entries,
		text_poke_get_stats().nx_sites - before.nx_sites);
	return 0;
}

static void modinfo_record(const char *key, const char *value, void *data)
{
	shell_printf("%-12s %s\n", key, value);
}

static void modinfo_value(const char *name, const char *value, void *data)
{
	shell_printf("  %s=%s\n", name, value);
}

/* Its .modinfo as the ISO carries it, then its parameters' values. */
static int cmd_modinfo(int argc, char **argv)
{
	const struct module_blob *blob = module_blob_find(argv[1]);
	struct module *mod;
	int ret = 0;

	if (blob) {
		ret = module_blob_modinfo(blob, modinfo_record, NULL);
		if (ret)
			shell_printf(
				"modinfo: %s: not a module the loader accepts: %d (the log says why)\n",
				argv[1], ret);
	}
	mutex_lock(&module_mutex);
	mod = find_module(argv[1]);
	if (mod && mod->state == MODULE_STATE_LIVE) {
		shell_printf("parameters: %u\n", mod->num_kp);
		ret = module_params_show(mod, modinfo_value, NULL);
	} else if (blob) {
		shell_printf("not loaded\n");
	}
	mutex_unlock(&module_mutex);
	if (!blob && !mod) {
		shell_printf(
			"modinfo: %s: no such module ('lsmod' lists them)\n",
			argv[1]);
		return -ENOENT;
	}
	return ret;
}

static int cmd_rmmod(int argc, char **argv)
{
	int ret = delete_module(argv[1]);

	if (ret) {
		shell_printf("rmmod: %s: failed: %d%s\n", argv[1], ret,
			     ret == -ENOENT ? " (not loaded; 'lsmod')" :
			     ret == -EBUSY  ? " (in use)" :
					      "");
		return ret;
	}
	shell_printf("%s: unloaded\n", argv[1]);
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	int ret;

	if (!IS_ENABLED(CONFIG_BENCH)) {
		shell_printf(
			"bench: no benchmark is built in (CONFIG_BENCH=n; make bench's configuration has them)\n");
		return -ENOENT;
	}
	ret = bench_run_glob(argv[1]);
	shell_printf("bench: %s\n", ret < 0 ? "no case matches" :
				    ret	    ? "some cases reported nothing" :
					      "done");
	return ret;
}

static int cmd_test(int argc, char **argv)
{
	struct shell_state *state;
	int ret;

	if (!IS_ENABLED(CONFIG_KUNIT)) {
		shell_printf("test: no suite is built in (CONFIG_KUNIT=n)\n");
		return -ENOENT;
	}
	state = shell_state_save();
	ret = kunit_run_glob(argv[1]);
	shell_state_restore(state);
	if (ret < 0)
		shell_printf("test: %s: no suite matches\n", argv[1]);
	else
		shell_printf("test: %d failed\n", ret);
	return ret;
}

static int cmd_mem(int argc, char **argv)
{
	unsigned long total = nr_total_frames(), free = nr_free_frames();

	shell_printf(
		"frames: %lu total, %lu free, %lu used (%lu KiB free of %lu KiB)\n",
		total, free, total - free, free * 4, total * 4);
	return 0;
}

static int cmd_uptime(int argc, char **argv)
{
	u64 ns = ktime_get_ns();

	shell_printf("up %llu.%03llu s, jiffies %llu (HZ=%d), %u CPUs online\n",
		     ns / 1000000000, ns / 1000000 % 1000,
		     (unsigned long long)get_jiffies_64(), HZ,
		     num_online_cpus());
	return 0;
}

static int cmd_dmesg(int argc, char **argv)
{
	static char buf[256];
	u64 pos = 0;
	size_t n;

	while ((n = printk_log_read(&pos, buf, sizeof(buf))))
		shell_write(buf, n);
	return 0;
}

/*
 * Sleeps ms milliseconds (at most a minute), so that a piped script lets
 * time pass: "trace on sched_switch; sleep 100; trace". ^C at the console
 * ends it early, as a failure.
 */
static int cmd_sleep(int argc, char **argv)
{
	unsigned long ms;
	u64 end;

	if (kstrtoul(argv[1], 10, &ms) || ms > 60000)
		return shell_usage(argv[0]);
	end = ktime_get_ns() + ms * 1000000ULL;
	while (ktime_get_ns() < end) {
		if (shell_interrupted()) {
			shell_printf("sleep: interrupted\n");
			return -EINTR;
		}
		msleep(min_t(u64, 10, (end - ktime_get_ns()) / 1000000 + 1));
	}
	return 0;
}

static int cmd_reboot(int argc, char **argv)
{
	shell_printf("reboot: Restarting system\n");
	kernel_restart(NULL);
}

static int cmd_poweroff(int argc, char **argv)
{
	shell_printf("reboot: Power down\n");
	kernel_power_off();
}

static void complete_cpu(struct shell_completion *c)
{
	if (c->argi != 2)
		return;
	shell_complete_add(c, "online");
	shell_complete_add(c, "offline");
}

static void complete_blob(struct shell_completion *c)
{
	unsigned int i;

	if (c->argi == 1)
		for (i = 0; i < module_blob_count(); i++)
			shell_complete_add(c, module_blob_get(i)->name);
}

static void complete_module(struct shell_completion *c)
{
	struct module *mod;

	if (c->argi != 1)
		return;
	mutex_lock(&module_mutex);
	list_for_each_entry(mod, &modules, list)
		shell_complete_add(c, mod->name);
	mutex_unlock(&module_mutex);
}

const struct shell_cmd shell_sys_cmds[] = {
	{ "cpus", "",
	  "CPUs: online or not, int3 hits, IPIs taken, context switches", 0, 0,
	  false, cmd_cpus },
	{ "cpu", "<n> offline|online", "take a CPU down or bring it up", 2, 2,
	  true, cmd_cpu, complete_cpu },
	{ "lsmod", "", "loaded modules, and those the ISO carries", 0, 0, false,
	  cmd_lsmod },
	{ "insmod", "<name> [param=value...]",
	  "load a module the ISO carries, setting its parameters", 1,
	  SHELL_ARGV_MAX - 2, true, cmd_insmod, complete_blob },
	{ "modinfo", "<name>", "a module's .modinfo and its parameters' values",
	  1, 1, false, cmd_modinfo, complete_blob },
	{ "rmmod", "<name>", "unload a module", 1, 1, true, cmd_rmmod,
	  complete_module },
	{ "bench", "<glob>", "run the benchmark cases glob selects", 1, 1, true,
	  cmd_bench },
	{ "test", "<glob>", "run the KUnit suites glob selects (KTAP)", 1, 1,
	  true, cmd_test },
	{ "mem", "", "physical frames: total, free, used", 0, 0, false,
	  cmd_mem },
	{ "uptime", "", "time since boot, jiffies", 0, 0, false, cmd_uptime },
	{ "sleep", "<ms>", "wait ms milliseconds (at most 60000; ^C ends it)",
	  1, 1, false, cmd_sleep },
	{ "dmesg", "", "the kernel log (the last 64 KiB)", 0, 0, false,
	  cmd_dmesg },
	{ "reboot", "", "reset the machine (ends QEMU: -no-reboot)", 0, 0, true,
	  cmd_reboot },
	{ "poweroff", "", "power off (QEMU exits with success)", 0, 0, true,
	  cmd_poweroff },
	{ NULL }
};
