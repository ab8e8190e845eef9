# SPDX-License-Identifier: GPL-2.0
#
# Top-level Makefile: a small, non-recursive take on Kbuild.
#
# Each directory's Makefile lists "obj-y += foo.o" / "obj-$(CONFIG_X) += bar.o"
# and "obj-y += subdir/"; this file walks them from $(core-y) and builds every
# object into $(O), mirroring the source tree. "obj-m += foo.o" lists a
# loadable module instead (see "Modules" below). "make help" lists the targets.

PHONY :=

srctree := $(CURDIR)
O ?= build
include scripts/Makefile.builddir

# M=dir builds the modules listed in dir/Kbuild or dir/Makefile (outside
# the walk below) against this kernel, checked by modpost: Linux's
# "make -C <tree> M=<dir>". A dir inside the source tree builds into
# $(O)/dir; one anywhere else (an absolute path) into $(O)/extmod/<dir>,
# its sources left as they are. make run EXTRA_MODULES=dir puts them on
# the ISO (Documentation/modules.rst).
ifneq ($(origin M),undefined)
ifeq ($(strip $(M)),)
$(error M= is empty: give the directory of the modules, e.g. M=modules/foo)
endif
# A relative M= is taken from the tree's top, where make -C changed to: if
# the directory is not there but under the caller's ($(PWD)), say so.
m-abs := $(abspath $(M))
m-pwd := $(abspath $(PWD)/$(M))
m-hint :=
ifeq ($(filter /%,$(M))$(filter $(CURDIR),$(PWD)),)
m-hint := ; a relative M= is taken from the tree's top, $(CURDIR)
m-hint += $(if $(wildcard $(m-pwd)/.),(did you mean M=$(m-pwd)?))
endif
ifeq ($(wildcard $(m-abs)/.),)
$(error M=$(M): no such directory: looked for $(m-abs)$(m-hint))
endif
override M := $(patsubst $(CURDIR)/%,%,$(m-abs))
ifeq ($(wildcard $(M)/Kbuild $(M)/Makefile),)
$(error M=$(M): no $(M)/Kbuild or $(M)/Makefile listing the modules (obj-m += foo.o))
endif
endif
# Where the objects of directory dir/ go: $(O)/dir/, or $(O)/extmod/dir/
# for a dir outside the source tree.
objdir = $(O)/$(if $(filter /%,$(1)),extmod$(1),$(1))
# What an out-of-tree Makefile tests to know Kbuild is reading it.
KERNELRELEASE := 1.0-static-keys

KCONFIG_CONFIG ?= $(O)/.config
# kconfiglib reads $KCONFIG_CONFIG: it gets it on its own command lines and
# is not exported, so that the makes a recipe starts with another O= (the
# test runner's builds) use their own .config, not this one.
KCONFIG = KCONFIG_CONFIG=$(KCONFIG_CONFIG) $(PYTHON) -m

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-8s %s\n'
MAKEFLAGS += --no-print-directory
endif

PYTHON := /usr/bin/python3
CC := gcc
LD := ld
NM := nm
OBJCOPY := objcopy
HOSTCC := gcc
CPUS ?= 4
MEM ?= 256M
QEMU ?= qemu-system-x86_64
CMDLINE ?=

# M=dir builds against the kernel O holds as it is, as Linux's make M=
# does: a kernel older than its sources or configuration stops make here,
# before anything is remade, with the line scripts/check_tree.py prints.
ifdef M
ifneq ($(filter-out clean help,$(or $(MAKECMDGOALS),all)),)
m-stale := $(shell $(PYTHON) scripts/check_tree.py $(O) $(M))
ifneq ($(m-stale),)
$(error $(m-stale))
endif
endif
endif

config-targets := defconfig olddefconfig menuconfig savedefconfig \
		  fragconfig oldconfig
no-dot-config := help clean mrproper deps format bench stress fuzz fuzz-smoke user test check \
		 fuzz-engine fuzz-engine-smoke \
		 user-compare \
		 bench-linux stress-linux fuzz-shell model trace-flip \
		 $(config-targets)

# The default goal.
PHONY += all
all: $(O)/vmlinux modules

ifeq ($(filter-out $(no-dot-config),$(MAKECMDGOALS)),)
ifneq ($(MAKECMDGOALS),)
skip-config := 1
endif
endif

ifneq ($(skip-config),1)
-include $(O)/include/config/auto.conf
endif
# ---------------------------------------------------------------------------
# Flags
KBUILD_CPPFLAGS := -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
		   -Iinclude -Iarch/x86/include -I$(O)/include -Itests/include \
		   -include include/linux/kconfig.h -D__KERNEL__

KBUILD_CFLAGS := -std=gnu11 -ffreestanding -O2 -g -pipe \
		 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-sign-compare \
		 -Wno-missing-field-initializers -Wstrict-prototypes \
		 -Wmissing-prototypes -Wno-address-of-packed-member \
		 -fno-pie -fno-pic -mcmodel=kernel -mno-red-zone \
		 -mno-sse -mno-sse2 -mno-mmx -mno-80387 -mno-3dnow \
		 -mgeneral-regs-only -fno-stack-protector -fno-common \
		 -fno-strict-aliasing -fno-omit-frame-pointer \
		 -mno-omit-leaf-frame-pointer -fno-asynchronous-unwind-tables \
		 -fno-delete-null-pointer-checks -fcf-protection=none \
		 -fno-jump-tables

ifeq ($(CONFIG_DEBUG_INFO_REDUCED),y)
KBUILD_CFLAGS += -fno-var-tracking
endif

KBUILD_AFLAGS := -D__ASSEMBLY__ -g

KBUILD_LDFLAGS := -m elf_x86_64 -nostdlib -z max-page-size=0x1000 \
		  -z noexecstack --no-warn-rwx-segments --build-id=none
# ---------------------------------------------------------------------------
# The tree walk (scripts/Makefile.walk), the link order
# (scripts/Makefile.layout), Kconfig, host tools, compiling and linking
# vmlinux, modules and the boot image, as Kbuild splits them.
include scripts/Makefile.walk
include scripts/Makefile.kconfig
include scripts/Makefile.host
include scripts/Makefile.build
include scripts/Makefile.modules
include scripts/Makefile.iso

# scripts/qemu.py builds the QEMU command line (the runner uses it too) and
# turns QEMU's exit status into 0 (tests passed), 1 (failed) or 2 (crash).
QEMU_ARGS = --iso $(ISO_DIR)/kernel.iso --cpus $(CPUS) --mem $(MEM) --qemu '$(QEMU)'

PHONY += deps iso run test debug
deps:
	$(Q)scripts/install-deps.sh

iso: $(ISO_DIR)/kernel.iso

# Order-only: check the host tools before anything else is built.
$(KCONFIG_CONFIG) $(O)/include/config/auto.conf: | deps

# make run boots to the console ("shell", Documentation/console.rst); its
# test command runs suites. CMDLINE words come after, so
# CMDLINE='shell=off kunit.filter="speed>slow"' boots the quick suites
# instead (the last word of a name wins). Piped stdin reaches the console:
# echo "keys; poweroff" | make run.
# INIT=path/to/static-binary [INIT_ARGS="a b"]: the program goes on the
# ISO as /bin/<its name> and runs as pid 1 instead of the console
# (Documentation/userspace.rst says how QEMU's exit status tells its end).
run: override CMDLINE := $(if $(INIT),init=/bin/$(notdir $(INIT)) \
	$(if $(INIT_ARGS),init_args="$(INIT_ARGS)"),shell) $(value CMDLINE)
run: deps $(ISO_DIR)/kernel.iso
	$(Q)$(PYTHON) scripts/qemu.py run $(QEMU_ARGS)

# Build-time promises of the API: tests/build/*.c announce their outcome.
PHONY += buildcheck
buildcheck: $(O)/include/generated/autoconf.h
	@echo "Build-time API checks:"
	$(Q)$(PYTHON) scripts/check_build_expectations.py $(CC) $(KBUILD_CPPFLAGS) \
		$(KBUILD_CFLAGS) -- $(sort $(wildcard tests/build/*.c))
	$(Q)$(PYTHON) scripts/check_old_api.py
	$(Q)$(PYTHON) scripts/check_callers.py --build build/test-default

# make test and make check: scripts/make_test.py runs the plan and the host
# steps as one job graph on both cores (Documentation/testing.rst).
PHONY += check
test: deps
	$(Q)$(PYTHON) scripts/make_test.py

check: deps
	$(Q)$(PYTHON) scripts/make_test.py --check

# The long stresses (scripts/stress.sh: STRESS_FLIPS, STRESS_CYCLES,
# STRESS_FUZZ_SEEDS, STRESS_FUZZ_CALLS).
STRESS_FLIPS ?= 100000
STRESS_CYCLES ?= 1000
STRESS_FUZZ_SEEDS ?= 16
STRESS_FUZZ_CALLS ?= 20000
STRESS_LINUX_FLIPS ?= 2000
PHONY += stress
stress: deps
	$(Q)CPUS=$(CPUS) STRESS_FLIPS=$(STRESS_FLIPS) STRESS_CYCLES=$(STRESS_CYCLES) \
		STRESS_FUZZ_SEEDS=$(STRESS_FUZZ_SEEDS) \
		STRESS_FUZZ_CALLS=$(STRESS_FUZZ_CALLS) scripts/stress.sh

include scripts/Makefile.fuzz

# The SPIN model of the int3 batch (tests/model/text_poke.pml) and its
# mutants, in $(O)/model: exhaustive for 3 CPUs, MODEL_MINUTES for 4 and
# for the runs with NMIs.
MODEL_MINUTES ?= 1
PHONY += model
model: deps
	$(Q)$(PYTHON) scripts/check_model.py --build-dir $(O)/model \
		--minutes $(MODEL_MINUTES)

# Static keys y vs n, the Linux column, README's table (scripts/bench.sh);
# bench-linux: Debian's Linux under the same QEMU, its column alone;
# stress-linux: flips under readers on 4 vCPUs, Linux and ours
# (scripts/bench_linux.py).
PHONY += bench bench-linux stress-linux
bench:
	$(Q)scripts/bench.sh

bench-linux:
	$(Q)scripts/bench.sh linux

stress-linux: deps
	$(Q)$(PYTHON) scripts/bench_linux.py --stress --flips $(STRESS_LINUX_FLIPS)

# user/tests/uconform.c as /init on Debian's Linux (fetched as for
# bench-linux) and as pid 1 here: the two outputs diffed; no package: one
# line, skipped. See scripts/user_compare.py.
PHONY += user-compare
user-compare: deps
	$(Q)$(PYTHON) scripts/user_compare.py

# A flip on a timeline: defconfig in build/trace, booted on 4 CPUs; the
# console loads trace_flip (a key of 64 sites, readers on the other CPUs),
# turns the patch engine's and IPI events on and flips the key; the
# records become build/trace/flip.json (Chrome trace-event JSON: Perfetto,
# chrome://tracing) and flip.png (gnuplot). scripts/trace_flip.py.
TRACE_FLIP_DIR := build/trace
PHONY += trace-flip
trace-flip:
	$(Q)scripts/install-deps.sh --trace
	$(Q)$(MAKE) O=$(TRACE_FLIP_DIR) FRAGMENTS= fragconfig >/dev/null
	$(Q)$(MAKE) O=$(TRACE_FLIP_DIR) CMDLINE='shell trace_buf_size=4194304' iso >/dev/null
	$(Q)$(PYTHON) scripts/trace_flip.py --iso $(TRACE_FLIP_DIR)/kernel.iso \
		--out $(TRACE_FLIP_DIR) --cpus 4

# gdbinit: vmlinux, the commands of scripts/gdb/ (sk-keys, sk-sites, ...),
# then the stub.
debug: deps $(ISO_DIR)/kernel.iso
	$(Q)printf 'file %s\nsource %s\ntarget remote localhost:1234\n' \
		$(abspath $(O)/vmlinux) $(abspath scripts/gdb/vmlinux-gdb.py) > $(O)/gdbinit
	@echo "QEMU is halted with a gdb stub on :1234. In another terminal:"
	@echo "    gdb -x $(O)/gdbinit"
	$(Q)$(PYTHON) scripts/qemu.py run --gdb $(QEMU_ARGS)

PHONY += format clean mrproper help
format:
	$(Q)git ls-files '*.c' '*.h' | xargs clang-format -i

# With M=dir (Linux's "make -C <tree> M=dir clean"): that dir's objects only.
clean:
ifdef M
	$(Q)rm -rf $(patsubst %/,%,$(call objdir,$(M)/))
else
	$(Q)rm -rf $(filter-out $(KCONFIG_CONFIG),$(wildcard $(O)/*))
endif

mrproper:
	$(Q)rm -rf $(O)

include scripts/Makefile.help

# A variable given on make's command line that no Makefile reads but
# that looks like one that does (CPU=2 for CPUS=2, EXTRA_MODULE= for
# EXTRA_MODULES=) draws a warning naming both (scripts/similar_vars.py).
known-vars := O V M CPUS MEM QEMU CMDLINE ISO_DIR EXTRA_MODULES INIT \
	INIT_ARGS USER_PROGS FRAGMENTS KCONFIG_CONFIG STRESS_FLIPS \
	STRESS_CYCLES STRESS_LINUX_FLIPS FUZZ_TIME FUZZ_RUNS SHELL_FUZZ_RUNS \
	MODEL_MINUTES CC LD NM OBJCOPY HOSTCC PYTHON
ifeq ($(MAKELEVEL),0)
unknown-vars := $(filter-out $(known-vars),$(foreach v,$(.VARIABLES),\
	$(if $(filter command line,$(origin $(v))),$(v))))
ifneq ($(unknown-vars),)
$(foreach w,$(shell $(PYTHON) scripts/similar_vars.py $(known-vars) -- \
	$(unknown-vars)),$(warning $(firstword $(subst :, ,$(w)))=: no such \
	variable; did you mean $(lastword $(subst :, ,$(w)))=? (make help \
	lists them)))
endif
endif

PHONY += FORCE
FORCE:

.PHONY: $(PHONY)
.DELETE_ON_ERROR:
