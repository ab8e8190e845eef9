# SPDX-License-Identifier: GPL-2.0
#
# Top-level Makefile: a small, non-recursive take on Kbuild.
#
# Each directory's Makefile lists "obj-y += foo.o" / "obj-$(CONFIG_X) += bar.o"
# and "obj-y += subdir/"; this file walks them from $(core-y) and builds every
# object into $(O), mirroring the source tree. "make help" lists the targets.

PHONY :=

srctree := $(CURDIR)
O ?= build

# The build directory is normalised once, so that every spelling of one
# directory (build, ./build/, $(CURDIR)/build, a symlink to it) names the
# same targets: the dependency files written under one spelling must hold
# under the others (make test and the runner spell it differently). It
# becomes relative to the source tree when inside it, absolute otherwise.
ifeq ($(strip $(O)),)
$(error O= is empty: give the build directory, e.g. O=build)
endif
ifneq ($(words $(O)),1)
$(error O="$(O)" contains a space: make cannot handle such paths, choose a build directory without one)
endif
ifneq ($(findstring :,$(O)),)
$(error O=$(O) contains a ':': make cannot handle such paths, choose a build directory without one)
endif
build-dir := $(abspath $(O))
ifneq ($(realpath $(build-dir)),)
build-dir := $(realpath $(build-dir))
else ifneq ($(realpath $(dir $(build-dir))),)
build-dir := $(realpath $(dir $(build-dir)))/$(notdir $(build-dir))
endif
# "make clean" empties the build directory: never the source tree.
ifneq ($(filter $(patsubst %/,%,$(build-dir))/%,$(CURDIR)/),)
$(error O=$(O) is the source tree or contains it: choose a directory inside it, e.g. O=build)
endif
override O := $(patsubst $(CURDIR)/%,%,$(build-dir))

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

config-targets := defconfig olddefconfig menuconfig savedefconfig \
		  fragconfig oldconfig
no-dot-config := help clean mrproper deps format bench stress $(config-targets)

# The default goal.
PHONY += all
all: $(O)/vmlinux

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
		   -Iinclude -Iarch/x86/include -I$(O)/include \
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

KBUILD_AFLAGS := -D__ASSEMBLY__ -g

KBUILD_LDFLAGS := -m elf_x86_64 -nostdlib -z max-page-size=0x1000 \
		  -z noexecstack --no-warn-rwx-segments --build-id=none

# ---------------------------------------------------------------------------
# Walk the obj-y lists. descend(dir/) includes dir/Makefile with a fresh
# obj-y, records its objects and recurses into the subdirectories it names.
core-y := arch/x86/ kernel/ mm/ lib/

define descend
obj-y :=
include $(1)Makefile
objs-$(1) := $$(addprefix $(1),$$(filter %.o,$$(obj-y)))
subdirs-$(1) := $$(addprefix $(1),$$(filter %/,$$(obj-y)))
kernel-objs += $$(objs-$(1))
$$(foreach d,$$(subdirs-$(1)),$$(eval $$(call descend,$$(d))))
endef

kernel-objs :=
ifneq ($(skip-config),1)
$(foreach d,$(core-y),$(eval $(call descend,$(d))))
endif
kernel-objs := $(addprefix $(O)/,$(kernel-objs))

# ---------------------------------------------------------------------------
# Kconfig
KCONFIG_DEPS := $(shell find . -name Kconfig -not -path './$(O)/*')

$(KCONFIG_CONFIG):
	@echo "  no $(KCONFIG_CONFIG): using arch/x86/configs/defconfig"
	$(Q)mkdir -p $(O)
	$(Q)$(KCONFIG) defconfig --kconfig Kconfig arch/x86/configs/defconfig >/dev/null

$(O)/include/config/auto.conf: $(KCONFIG_CONFIG) $(KCONFIG_DEPS)
	$(quiet) GEN $@
	$(Q)mkdir -p $(O)/include/generated $(O)/include/config
	$(Q)$(KCONFIG) olddefconfig Kconfig >/dev/null
	$(Q)$(KCONFIG) genconfig --header-path $(O)/include/generated/autoconf.h \
		--config-out $(O)/include/config/auto.conf \
		--sync-deps $(O)/include/config/sym Kconfig
	$(Q)touch $@

$(O)/include/generated/autoconf.h: $(O)/include/config/auto.conf ;

PHONY += defconfig olddefconfig menuconfig savedefconfig oldconfig fragconfig
defconfig:
	$(Q)mkdir -p $(O)
	$(Q)$(KCONFIG) defconfig --kconfig Kconfig arch/x86/configs/defconfig

olddefconfig oldconfig menuconfig:
	$(Q)mkdir -p $(O)
	$(Q)$(KCONFIG) $@ Kconfig

savedefconfig:
	$(Q)test -f $(KCONFIG_CONFIG) || { echo "savedefconfig: no $(KCONFIG_CONFIG) to" \
		"save: run 'make O=$(O) defconfig' (or build) first" >&2; exit 1; }
	$(Q)$(KCONFIG) savedefconfig --kconfig Kconfig --out $(O)/defconfig
	@echo "  wrote $(O)/defconfig"

# make fragconfig FRAGMENTS="a.config b.config": defconfig plus fragments.
fragconfig:
	$(Q)mkdir -p $(O)
	$(Q)$(PYTHON) scripts/kconfig/merge_config.py Kconfig $(KCONFIG_CONFIG) \
		arch/x86/configs/defconfig $(FRAGMENTS)

# ---------------------------------------------------------------------------
# Host tools
FIXDEP := $(O)/scripts/basic/fixdep

$(FIXDEP): scripts/basic/fixdep.c
	$(quiet) HOSTCC $@
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -O2 -Wall -Werror -o $@ $<

JL_FIXUP := $(O)/scripts/jump_label_fixup

$(JL_FIXUP): scripts/jump_label_fixup.c arch/x86/include/asm/jump_label_insn.h
	$(quiet) HOSTCC $@
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -O2 -Wall -Wextra -Werror -Iarch/x86/include -o $@ $< -lelf

# ---------------------------------------------------------------------------
# Compilation. -MMD records header dependencies; fixdep turns the blanket
# dependency on autoconf.h into one per CONFIG_ symbol the sources mention,
# so a changed .config rebuilds only what the change affects.
DEPFLAGS = -MMD -MP -MF $(@:.o=.d.tmp)
fixdep = $(FIXDEP) $(@:.o=.d.tmp) $@ $(O)/include/config/sym > $(@:.o=.d) && \
	 rm -f $(@:.o=.d.tmp)

# trace_<name>() macros for every tracepoint in the tree (see the script).
TP_CALLS := $(O)/include/generated/tracepoint_calls.h
$(TP_CALLS): scripts/gen_tracepoint_calls.py FORCE
	$(Q)$(PYTHON) scripts/gen_tracepoint_calls.py $@ $(core-y) include modules tests

$(O)/%.o: %.c | $(O)/include/generated/autoconf.h $(FIXDEP) $(TP_CALLS)
	$(quiet) CC $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(CFLAGS_$(notdir $@)) \
		$(DEPFLAGS) -c -o $@ $<
	$(Q)$(fixdep)

$(O)/%.o: %.S | $(O)/include/generated/autoconf.h $(FIXDEP)
	$(quiet) AS $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_AFLAGS) -fno-pie -mcmodel=kernel \
		$(DEPFLAGS) -c -o $@ $<
	$(Q)$(fixdep)

$(O)/%.s: %.c $(O)/include/generated/autoconf.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) -S -o $@ $<

$(O)/arch/x86/kernel/vmlinux.lds: arch/x86/kernel/vmlinux.lds.S \
				  $(O)/include/generated/autoconf.h
	$(quiet) LDS $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(KBUILD_CPPFLAGS) -E -P -x c -D__ASSEMBLY__ -D__LINKER__ \
		-MMD -MP -MF $(@:.lds=.d) -MT $@ -o $@ $<

-include $(kernel-objs:.o=.d) $(O)/arch/x86/kernel/vmlinux.d

# ---------------------------------------------------------------------------
# Link, with the symbol table in three passes as kallsyms does: an empty table
# fixes the layout of everything else, the second pass gives the table its
# final size, the third gives it the final addresses; a check proves the
# addresses did not move.
LDS := $(O)/arch/x86/kernel/vmlinux.lds
link = $(LD) $(KBUILD_LDFLAGS) -T $(LDS) -Map $(1).map -o $(1) $(kernel-objs) $(2)
kallsyms = $(NM) -n -S $(1) | $(PYTHON) scripts/kallsyms.py > $(2)
kallsyms-as = $(CC) $(KBUILD_CPPFLAGS) $(KBUILD_AFLAGS) -c -o $(2) $(1)

# The object list itself is a prerequisite: a config change that drops an
# object must relink even though every remaining object is up to date.
$(O)/.vmlinux.objs: FORCE
	@mkdir -p $(@D)
	@echo '$(kernel-objs)' | cmp -s - $@ || echo '$(kernel-objs)' > $@

$(O)/vmlinux: $(kernel-objs) $(LDS) scripts/kallsyms.py $(O)/.vmlinux.objs \
	      $(JL_FIXUP)
	$(quiet) LD $@
	$(Q)$(PYTHON) scripts/kallsyms.py --empty > $(O)/.tmp_kallsyms0.S
	$(Q)$(call kallsyms-as,$(O)/.tmp_kallsyms0.S,$(O)/.tmp_kallsyms0.o)
	$(Q)$(call link,$(O)/.tmp_vmlinux1,$(O)/.tmp_kallsyms0.o)
	$(quiet) KSYMS $@
	$(Q)$(call kallsyms,$(O)/.tmp_vmlinux1,$(O)/.tmp_kallsyms1.S)
	$(Q)$(call kallsyms-as,$(O)/.tmp_kallsyms1.S,$(O)/.tmp_kallsyms1.o)
	$(Q)$(call link,$(O)/.tmp_vmlinux2,$(O)/.tmp_kallsyms1.o)
	$(Q)$(call kallsyms,$(O)/.tmp_vmlinux2,$(O)/.tmp_kallsyms2.S)
	$(Q)$(call kallsyms-as,$(O)/.tmp_kallsyms2.S,$(O)/.tmp_kallsyms2.o)
	$(Q)$(call link,$@,$(O)/.tmp_kallsyms2.o)
	$(Q)$(call kallsyms,$@,$(O)/.tmp_kallsyms3.S)
	$(Q)cmp -s $(O)/.tmp_kallsyms2.S $(O)/.tmp_kallsyms3.S || \
		{ echo "kallsyms: symbol addresses moved between passes" >&2; exit 1; }
	$(quiet) JUMPTBL $@
	$(Q)$(JL_FIXUP) $@ $(if $(filter 1,$(V)),,>/dev/null)
	$(Q)$(NM) -n $@ > $(O)/System.map

# ---------------------------------------------------------------------------
# Boot image: a GRUB (multiboot2) ISO whose command line is $(CMDLINE), in
# $(ISO_DIR) (default $(O); the runner boots one kernel with several command
# lines). CMDLINE reaches scripts/grub_cmdline.py unexpanded ($(value)) in
# the environment, never through a shell; $(ISO_DIR)/cmdline holds its
# words quoted for grub.cfg, and a CMDLINE that cannot be passed stops make.
ISO_DIR ?= $(O)
override ISO_DIR := $(patsubst %/,%,$(ISO_DIR))

$(ISO_DIR)/cmdline: export KERNEL_CMDLINE = $(value CMDLINE)
$(ISO_DIR)/cmdline: FORCE
	@mkdir -p $(@D)
	$(Q)$(PYTHON) scripts/grub_cmdline.py > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(ISO_DIR)/kernel.iso: $(O)/vmlinux $(ISO_DIR)/cmdline scripts/mkiso.sh
	$(quiet) ISO $@
	$(Q)scripts/mkiso.sh $(O)/vmlinux $(ISO_DIR)/cmdline $@

# scripts/qemu.py builds the QEMU command line (the runner uses it too) and
# turns QEMU's exit status into 0 (tests passed), 1 (failed) or 2 (crash).
QEMU_ARGS = --iso $(ISO_DIR)/kernel.iso --cpus $(CPUS) --mem $(MEM) --qemu '$(QEMU)'

PHONY += deps iso run test stress debug bench
deps:
	$(Q)scripts/install-deps.sh

iso: $(ISO_DIR)/kernel.iso

# Order-only: check the host tools before anything else is built.
$(KCONFIG_CONFIG) $(O)/include/config/auto.conf: | deps

# make run boots the quick suites: the slow ones (KUNIT_CASE_SLOW, the long
# stress) are left out with Linux's attribute filter; make stress runs them.
run: override CMDLINE := kunit.filter="speed>slow" $(value CMDLINE)
run: deps $(ISO_DIR)/kernel.iso
	$(Q)$(PYTHON) scripts/qemu.py run $(QEMU_ARGS)

# Build-time promises of the API: tests/build/*.c announce their outcome.
PHONY += buildcheck
buildcheck: $(O)/include/generated/autoconf.h
	@echo "Build-time API checks:"
	$(Q)$(PYTHON) scripts/check_build_expectations.py $(CC) $(KBUILD_CPPFLAGS) \
		$(KBUILD_CFLAGS) -- $(sort $(wildcard tests/build/*.c))

test: deps buildcheck
	$(Q)$(PYTHON) scripts/kunit.py selftest tests/kunit_runner_selftest
	$(Q)$(MAKE) O=build/test-default FRAGMENTS= fragconfig >/dev/null
	$(Q)$(MAKE) O=build/test-default all
	$(Q)$(PYTHON) scripts/check_jump_table.py build/test-default/vmlinux
	$(Q)$(PYTHON) scripts/grub_cmdline.py --selftest
	$(Q)$(PYTHON) scripts/check_make_input.py build/test-default
	@echo "Host tool checks (tests/tools):"
	$(Q)$(PYTHON) -m unittest discover -s tests/tools
	$(Q)$(PYTHON) scripts/kunit.py plan tests/plan.json --cpus $(CPUS)

# The long stresses, in build/stress and build/stress-hotplug: the int3 protocol, 100,000 flips of 4
# keys with readers on every other CPU (make test runs 2,000); then CPU
# hotplug, 1,000 offline/online cycles of CPUs 1..3 with a key flipping,
# readers, timers and delayed work (make test runs 50).
STRESS_FLIPS ?= 100000
STRESS_CYCLES ?= 1000
stress: deps
	$(Q)$(PYTHON) scripts/kunit.py run --build_dir build/stress \
		--cpus $(CPUS) --timeout 5400 --filter 'text_patch.tpt_test_stress' \
		--kernel_args 'text_patch_test.flips=$(STRESS_FLIPS) text_patch_test.budget=5000 kunit.timeout=0'
	$(Q)$(PYTHON) scripts/kunit.py run --build_dir build/stress-hotplug \
		--cpus $(CPUS) --timeout 3600 --filter 'cpu_hotplug.cht_test_stress' \
		--kernel_args 'cpu_hotplug_test.cycles=$(STRESS_CYCLES) kunit.timeout=0'

# Static keys y vs n: builds and boots build/bench/{y,n,y-smp}, prints a
# table, writes build/bench/results.json and a gnuplot plot.
bench:
	$(Q)scripts/install-deps.sh --bench && $(PYTHON) scripts/bench.py

debug: deps $(ISO_DIR)/kernel.iso
	$(Q)printf 'file %s\ntarget remote localhost:1234\n' $(abspath $(O)/vmlinux) > $(O)/gdbinit
	@echo "QEMU is halted with a gdb stub on :1234. In another terminal:"
	@echo "    gdb -x $(O)/gdbinit"
	$(Q)$(PYTHON) scripts/qemu.py run --gdb $(QEMU_ARGS)

PHONY += format clean mrproper help
format:
	$(Q)git ls-files '*.c' '*.h' | xargs clang-format -i

clean:
	$(Q)rm -rf $(filter-out $(KCONFIG_CONFIG),$(wildcard $(O)/*))

mrproper:
	$(Q)rm -rf $(O)

help:
	@echo 'Running:'
	@echo '  run            - build the kernel and ISO, boot it under QEMU, run the quick suites (CPUS=$(CPUS))'
	@echo '  test           - build and boot every test configuration, run all KUnit suites'
	@echo '  stress         - 100,000 flips with readers on every other CPU (STRESS_FLIPS=n),'
	@echo '                   then 1,000 CPU offline/online cycles (STRESS_CYCLES=n)'
	@echo '  bench          - static key benchmarks, JUMP_LABEL=y vs =n (build/bench)'
	@echo '  debug          - boot QEMU halted with a gdb stub; gdb -x $(O)/gdbinit'
	@echo 'Building:'
	@echo '  all            - build $(O)/vmlinux (the default)'
	@echo '  iso            - build $(ISO_DIR)/kernel.iso with CMDLINE="..."'
	@echo 'Configuration ($(KCONFIG_CONFIG)):'
	@echo '  defconfig      - the default configuration (arch/x86/configs/defconfig)'
	@echo '  olddefconfig   - update .config, new symbols take their defaults'
	@echo '  menuconfig     - edit .config in a terminal menu'
	@echo '  savedefconfig  - write a minimal $(O)/defconfig'
	@echo '  fragconfig     - defconfig merged with FRAGMENTS="a.config b.config"'
	@echo 'Other:'
	@echo '  deps           - install missing host packages (apt-get, as root)'
	@echo '  format         - clang-format every C file'
	@echo '  clean          - remove build products, keep .config'
	@echo '  mrproper       - remove $(O) entirely'
	@echo 'Variables: O=dir (build directory, default build), V=1 (show commands),'
	@echo '           CPUS=n, MEM=size, CMDLINE="kernel parameters" (passed as written),'
	@echo '           ISO_DIR=dir (kernel.iso and its cmdline, default O)'

PHONY += FORCE
FORCE:

.PHONY: $(PHONY)
.DELETE_ON_ERROR:
