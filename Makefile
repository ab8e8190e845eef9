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

# The build directory is normalised once, so that every spelling of one
# directory (build, ./build/, $(CURDIR)/build, a symlink to it) names the
# same targets: the dependency files written under one spelling must hold
# under the others (make test and the runner spell it differently). It
# becomes relative to the source tree when inside it, absolute otherwise.
# Checked before O is ever expanded: its raw text ($(value O)) may hold
# only name characters (and a space or ':', refused below with their own
# lines), never a quote, '$', ';', a glob or make's '%': each would reach
# a shell command or a make pattern as something else.
o-safe := a b c d e f g h i j k l m n o p q r s t u v w x y z \
	A B C D E F G H I J K L M N O P Q R S T U V W X Y Z \
	0 1 2 3 4 5 6 7 8 9 _ . - / + :
o-comma := ,
o-empty :=
o-space := $(o-empty) $(o-empty)
o-rest := $(subst $(o-space),,$(subst $(o-comma),,$(value O)))
$(foreach c,$(o-safe),$(eval o-rest := $$(subst $c,,$$(o-rest))))
ifneq ($(o-rest),)
$(error O=$(value O) holds $(o-rest), which a build directory's name may not: use letters, digits and _.-/+, only, e.g. O=build)
endif
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
override M := $(patsubst $(CURDIR)/%,%,$(abspath $(M)))
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
		 bench-linux stress-linux fuzz-shell model \
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

KBUILD_AFLAGS := -D__ASSEMBLY__ -g

KBUILD_LDFLAGS := -m elf_x86_64 -nostdlib -z max-page-size=0x1000 \
		  -z noexecstack --no-warn-rwx-segments --build-id=none

# ---------------------------------------------------------------------------
# Walk the obj-y and obj-m lists. descend(dir/,y) includes dir/Makefile with
# fresh lists: its obj-y objects go into the kernel, its obj-m objects are
# modules, and it recurses into the subdirectories either list names.
# descend(dir/,m) is for a directory of modules only (modules/, one an obj-m
# list names, M=): every object either list names is a module, so that
# obj-$(CONFIG_X) works there whether X is y or m. As in Kbuild, dir/Kbuild
# is read instead of dir/Makefile if there is one; ccflags-y are extra
# flags for the objects of that directory, $(src) and $(obj) name it.
core-y := arch/x86/ kernel/ mm/ lib/ fs/
modules-y := modules/ tests/modules/

define descend
obj-y :=
obj-m :=
ccflags-y :=
slow-y :=
hot-y :=
src := $(patsubst %/,%,$(1))
obj := $(patsubst %/,%,$(call objdir,$(1)))
include $(or $(wildcard $(1)Kbuild),$(1)Makefile)
mods-$(1) := $(if $(filter m,$(2)),$$(obj-y)) $$(obj-m)
kernel-objs += $(if $(filter y,$(2)),$$(addprefix $(1),$$(filter %.o,$$(obj-y))))
slow-objs += $(if $(filter y,$(2)),$$(addprefix $(1),$$(slow-y)))
hot-objs += $(if $(filter y,$(2)),$$(addprefix $(1),$$(hot-y)))
$$(foreach m,$$(filter %.o,$$(mods-$(1))),$$(eval $$(call add-module,$(1),$$(m))))
subdirs-y-$(1) := $(if $(filter y,$(2)),$$(addprefix $(1),$$(filter %/,$$(obj-y))))
subdirs-m-$(1) := $$(filter-out $$(subdirs-y-$(1)),$$(addprefix $(1),$$(filter %/,$$(mods-$(1)))))
$$(foreach d,$$(subdirs-y-$(1)),$$(eval $$(call descend,$$(d),y)))
$$(foreach d,$$(subdirs-m-$(1)),$$(eval $$(call descend,$$(d),m)))
endef

# add-module(dir/,foo.o): module foo from dir/, made of $(foo-y) (objects
# of dir/, "foo-y := a.o b.o", or Linux's older foo-objs) or else of foo.o.
# A name is a module's identity from the ISO to the loader, so two modules
# may not share one. As in Kbuild, a '-' in the file name is a '_' in the
# module's name.
define add-module
$(eval mod := $(subst -,_,$(basename $(2))))
$$(if $$(filter $(mod),$$(module-names)),$$(error $(1)Makefile: a module named $(mod) exists already, in $$(mod-dir-$(mod))))
module-names += $(mod)
$(mod-set) += $(mod)
mod-dir-$(mod) := $(1)
mod-ko-$(mod) := $(call objdir,$(1))$(basename $(2)).ko
mod-objs-$(mod) := $$(addprefix $(call objdir,$(1)),$$(or $$($(basename $(2))-y),$$($(basename $(2))-objs),$(2)))
$$(foreach o,$$(mod-objs-$(mod)),$$(eval ccflags-$$(o) := $$(ccflags-y)))
$(basename $(2))-y :=
$(basename $(2))-objs :=
endef

kernel-objs :=
slow-objs :=
hot-objs :=
iso-extra :=
modver-extra :=
modver-extra-objs :=
modver-extra-kos :=
module-names :=
modules :=
ext-modules :=
ifneq ($(skip-config),1)
mod-set := modules
$(foreach d,$(core-y),$(eval $(call descend,$(d),y)))
$(foreach d,$(modules-y),$(eval $(call descend,$(d),m)))
ifdef M
mod-set := ext-modules
$(eval $(call descend,$(M)/,m))
endif
endif
# A module is named after its object, without the directory (as in
# Linux): "obj-m += sub/foo.o" in a parent Makefile would make a module
# "sub/foo" whose ISO copy lands in a subdirectory GRUB never loads, and
# its test suite would silently drop out of make test. Build it from
# sub/Makefile instead.
bad-modnames := $(strip $(foreach m,$(modules) $(ext-modules),$(if $(findstring /,$(m)),$(m))))
ifneq ($(bad-modnames),)
$(error module name with a directory: $(bad-modnames); add obj-m to that directory's own Makefile)
endif
# Slow paths last. "slow-y += foo.o" (or "slow-y += dir/", all of it) in a
# directory's Makefile marks objects of its obj-y whose code runs only when
# keys flip, modules load, or the tracer, the console or a lock-order
# report runs: they link after every other object, so that the scheduler,
# pipe, timer and interrupt paths are not spread over their pages and
# cache sets (Documentation/footprint.rst measures it). As Linux did with
# jump_label.o in 2011. CONFIG_TEXT_LAYOUT_LINKORDER keeps the plain obj-y
# order, the old layout, for make bench to compare against.
# "hot-y += foo.o" marks the objects of the switch, interrupt entry,
# scheduler, pipe, wait, timer and memcpy paths: they link first, together,
# in as few pages as their size allows, and their functions start on a
# 64-byte line, so that the executed head of one shares no line with the
# unexecuted tail of the one before.
hot-cflags :=
ifneq ($(CONFIG_TEXT_LAYOUT_LINKORDER),y)
slow-pats := $(patsubst %/,%/%,$(slow-objs))
kernel-objs := $(filter $(hot-objs),$(kernel-objs)) \
	       $(filter-out $(hot-objs) $(slow-pats),$(kernel-objs)) \
	       $(filter $(slow-pats),$(kernel-objs))
hot-cflags := -falign-functions=64
endif
$(foreach o,$(hot-objs),$(eval hotflags-$(O)/$(o) := $(hot-cflags)))
kernel-objs := $(addprefix $(O)/,$(kernel-objs))

# ---------------------------------------------------------------------------
# Kconfig
KCONFIG_DEPS := $(shell find . -name 'Kconfig*' -not -path './$(O)/*')

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

# The static call table of the kernel image (scripts/static_call_table.c).
SC_TABLE := $(O)/scripts/static_call_table

$(SC_TABLE): scripts/static_call_table.c
	$(quiet) HOSTCC $@
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -O2 -Wall -Wextra -Werror -o $@ $< -lelf

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

# A module's objects are compiled with -DMODULE and the module's name
# (modname-<object>, set under "Modules" below); the kernel's with their
# own name as KBUILD_MODNAME, as in Kbuild: a built-in module_param() x of
# foo.c is the command line's foo.x.
modflags = $(if $(modname-$@),-DMODULE -DKBUILD_MODNAME='"$(modname-$@)"',\
	     -DKBUILD_MODNAME='"$(subst -,_,$(basename $(notdir $@)))"')
modtag = $(if $(modname-$@), [M])

$(O)/%.o: %.c | $(O)/include/generated/autoconf.h $(FIXDEP) $(TP_CALLS)
	$(quiet) 'CC$(modtag)' $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(modflags) \
		$(ccflags-$@) $(hotflags-$@) $(DEPFLAGS) -c -o $@ $<
	$(Q)$(fixdep)

# The sources of an M= directory outside the tree (objdir above).
$(O)/extmod/%.o: /%.c | $(O)/include/generated/autoconf.h $(FIXDEP) $(TP_CALLS)
	$(quiet) 'CC$(modtag)' $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(modflags) \
		$(ccflags-$@) $(hotflags-$@) $(DEPFLAGS) -c -o $@ $<
	$(Q)$(fixdep)

$(O)/%.o: %.S | $(O)/include/generated/autoconf.h $(FIXDEP)
	$(quiet) 'AS$(modtag)' $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_AFLAGS) $(modflags) -fno-pie \
		-mcmodel=kernel $(DEPFLAGS) -c -o $@ $<
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
link = $(LD) $(KBUILD_LDFLAGS) $(if $(CONFIG_STATIC_CALL),--emit-relocs) \
	-T $(LDS) -Map $(1).map -o $(1) $(kernel-objs) $(KCRCTAB).o $(2)
# The static call sites of pass $(1) for the next pass, like kallsyms.
sc-table = $(SC_TABLE) $(1) > $(2).S && $(call kallsyms-as,$(2).S,$(2).o)
kallsyms = $(NM) -n -S $(1) | $(PYTHON) scripts/kallsyms.py > $(2)
kallsyms-as = $(CC) $(KBUILD_CPPFLAGS) $(KBUILD_AFLAGS) -c -o $(2) $(1)

# The object list itself is a prerequisite: a config change that drops an
# object must relink even though every remaining object is up to date.
$(O)/.vmlinux.objs: FORCE
	@mkdir -p $(@D)
	@echo '$(kernel-objs)' | cmp -s - $@ || echo '$(kernel-objs)' > $@

# So are the hot objects' extra flags (hot-y): a layout change rebuilds them.
$(O)/.hot-cflags: FORCE
	@mkdir -p $(@D)
	@echo '$(hot-cflags)' | cmp -s - $@ || echo '$(hot-cflags)' > $@
$(addprefix $(O)/,$(hot-objs)): $(O)/.hot-cflags

# Symbol versions: the CRC of every export's types (scripts/modversions.py,
# Documentation/modules.rst "Versions"), a table linked into the kernel,
# and the version magic of this configuration (scripts/vermagic.py).
KCRCTAB := $(O)/.kcrctab
MODVER := $(PYTHON) scripts/modversions.py
$(KCRCTAB).stamp: $(kernel-objs) $(O)/.vmlinux.objs scripts/modversions.py \
		  scripts/symversions.py
	$(quiet) MODVER $(KCRCTAB).c
	$(Q)$(MODVER) --kernel $(KCRCTAB).c --db $(KCRCTAB).db $(kernel-objs)
	@touch $@
$(KCRCTAB).c: $(KCRCTAB).stamp ;
# The same CRCs for the modules' symbol versions, less the one object that
# lists the modules (the module_blob suite: no exports) and so waits for them.
kcrc-objs := $(filter-out $(O)/kernel/module/module_blob_test.o,$(kernel-objs))
$(O)/.kcrcs: $(kcrc-objs) $(O)/.vmlinux.objs scripts/modversions.py \
	     scripts/symversions.py
	$(Q)$(MODVER) --kernel-db --db $@ $(kcrc-objs) && touch $@
$(KCRCTAB).o: $(KCRCTAB).c
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) -c -o $@ $<
$(O)/include/generated/vermagic.h: $(O)/include/config/auto.conf \
				   scripts/vermagic.py FORCE
	$(Q)$(PYTHON) scripts/vermagic.py $< $@
$(O)/kernel/module/main.o: | $(O)/include/generated/vermagic.h

$(O)/vmlinux: $(kernel-objs) $(LDS) scripts/kallsyms.py $(O)/.vmlinux.objs \
	      $(JL_FIXUP) $(SC_TABLE) $(KCRCTAB).o
	$(quiet) LD $@
	$(Q)$(PYTHON) scripts/kallsyms.py --empty > $(O)/.tmp_kallsyms0.S
	$(Q)$(call kallsyms-as,$(O)/.tmp_kallsyms0.S,$(O)/.tmp_kallsyms0.o)
	$(Q)$(call sc-table,--empty,$(O)/.tmp_sc0)
	$(Q)$(call link,$(O)/.tmp_vmlinux1,$(O)/.tmp_kallsyms0.o $(O)/.tmp_sc0.o)
	$(quiet) KSYMS $@
	$(Q)$(call kallsyms,$(O)/.tmp_vmlinux1,$(O)/.tmp_kallsyms1.S)
	$(Q)$(call kallsyms-as,$(O)/.tmp_kallsyms1.S,$(O)/.tmp_kallsyms1.o)
	$(Q)$(call sc-table,$(O)/.tmp_vmlinux1,$(O)/.tmp_sc1)
	$(Q)$(call link,$(O)/.tmp_vmlinux2,$(O)/.tmp_kallsyms1.o $(O)/.tmp_sc1.o)
	$(Q)$(call kallsyms,$(O)/.tmp_vmlinux2,$(O)/.tmp_kallsyms2.S)
	$(Q)$(call kallsyms-as,$(O)/.tmp_kallsyms2.S,$(O)/.tmp_kallsyms2.o)
	$(Q)$(call sc-table,$(O)/.tmp_vmlinux2,$(O)/.tmp_sc2)
	$(Q)$(call link,$@,$(O)/.tmp_kallsyms2.o $(O)/.tmp_sc2.o)
	$(Q)$(call kallsyms,$@,$(O)/.tmp_kallsyms3.S)
	$(Q)cmp -s $(O)/.tmp_kallsyms2.S $(O)/.tmp_kallsyms3.S || \
		{ echo "kallsyms: symbol addresses moved between passes" >&2; exit 1; }
	$(Q)$(SC_TABLE) $@ > $(O)/.tmp_sc3.S
	$(Q)cmp -s $(O)/.tmp_sc2.S $(O)/.tmp_sc3.S || \
		{ echo "static_call_table: sites moved between passes" >&2; exit 1; }
	$(if $(CONFIG_STATIC_CALL),$(Q)$(OBJCOPY) --remove-relocations='*' $@)
	$(quiet) JUMPTBL $@
	$(Q)$(JL_FIXUP) $@ $(if $(filter 1,$(V)),,>/dev/null)
	$(Q)$(NM) -n $@ > $(O)/System.map

# ---------------------------------------------------------------------------
# Modules. Each module foo (add-module above) is compiled with the kernel's
# flags plus -DMODULE -DKBUILD_MODNAME='"foo"', then linked "ld -r" with a
# generated foo.mod.o (.modinfo: name=foo) into foo.ko beside its objects.
# scripts/modpost.py checks every .ko against the exports of vmlinux and of
# the other modules (a symbol nobody exports, a GPL-only one in a module
# whose license is not GPL-compatible, an export made twice: each stops the
# build with one line) and writes $(O)/Module.symvers.
#
# make modules also puts a copy of each module, without debug sections, in
# $(O)/iso-modules/<name>.ko: the ISO carries every .ko of that directory
# as a GRUB module whose string is <name>. Other rules may add blobs there;
# they add their files to $(iso-modules), so that the ISO (and the list of
# what it carries, which the kernel's module_blob test checks) waits for
# them.
ISO_MODULES_DIR := $(O)/iso-modules
MODPOST := $(PYTHON) scripts/modpost.py

mod-kos = $(foreach m,$(1),$(mod-ko-$(m)))
# $(call update-file,TEXT): TEXT into $@, unless $@ holds it already.
update-file = mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
mod-file = $(dir $(mod-ko-$(1))).$(notdir $(mod-ko-$(1))).$(2)
mod-all-objs := $(foreach m,$(modules) $(ext-modules),\
		  $(mod-objs-$(m)) $(mod-ko-$(m):.ko=.mod.o))
$(foreach m,$(modules) $(ext-modules),$(foreach o,$(mod-objs-$(m)) \
	$(mod-ko-$(m):.ko=.mod.o),$(eval modname-$(o) := $(m))))
iso-modules := $(foreach m,$(modules),$(ISO_MODULES_DIR)/$(m).ko)

# Modules built outside make modules (fixtures a directory Makefile adds to
# iso-extra, unchecked by modpost on purpose) go on the ISO too.
$(foreach k,$(iso-extra),$(eval $(ISO_MODULES_DIR)/$(notdir $(k)): $(k)))
$(addprefix $(ISO_MODULES_DIR)/,$(notdir $(iso-extra))):
	$(quiet) STRIP $@
	@mkdir -p $(@D)
	$(Q)$(OBJCOPY) --strip-debug $< $@
iso-modules += $(addprefix $(ISO_MODULES_DIR)/,$(notdir $(iso-extra)))

# The broken-module corpus (scripts/mkbadmodules.py): jlm_core_user with
# one thing wrong per file, for the module_corpus suite.
ifeq ($(CONFIG_JUMP_LABEL_MODULE_TEST),y)
bad-modules := $(patsubst %,$(ISO_MODULES_DIR)/bad_%.ko,\
		 $(shell $(PYTHON) scripts/mkbadmodules.py --list))
$(bad-modules) &: $(ISO_MODULES_DIR)/jlm_core_user.ko scripts/mkbadmodules.py
	$(quiet) BADMODS '$(ISO_MODULES_DIR)/bad_*.ko'
	$(Q)$(PYTHON) scripts/mkbadmodules.py $< $(ISO_MODULES_DIR) >/dev/null
iso-modules += $(bad-modules)
endif

# foo.mod.c: the module's name and version magic for .modinfo, the CRC of
# each symbol it exports and of each it uses (scripts/modversions.py, one
# run for all the modules of a set: a file changes only when its text does).
# Fixtures a directory Makefile builds unchecked add "!name=mod.c=objs" to
# modver-extra (their source gives the name).
comma := ,
mod-spec = $(1)=$(mod-ko-$(1):.ko=.mod.c)=$(subst $(o-space),$(comma),$(strip $(mod-objs-$(1))))
$(O)/.modversions: $(O)/.kcrcs $(foreach m,$(modules),$(mod-objs-$(m))) \
		   $(modver-extra-objs) $(O)/.modules
	$(quiet) MODVER '$(O)/*.mod.c'
	$(Q)$(MODVER) --stamp $@ --db-in $(O)/.kcrcs --db $(O)/.mcrcs \
		$(foreach m,$(modules),$(call mod-spec,$(m))) $(modver-extra)
$(foreach m,$(modules),$(mod-ko-$(m):.ko=.mod.c)) \
	$(modver-extra-kos:.ko=.mod.c): $(O)/.modversions ;

$(filter %.mod.o,$(mod-all-objs)) $(modver-extra-kos:.ko=.mod.o): %.mod.o: %.mod.c | \
		$(O)/include/generated/autoconf.h $(O)/include/generated/vermagic.h \
		$(FIXDEP)
	$(quiet) 'CC [M]' $@
	$(Q)$(CC) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(modflags) $(DEPFLAGS) \
		-c -o $@ $<
	$(Q)$(fixdep)

# A module's .ko, and the list of its objects: a changed foo-y relinks it.
define module-rules
$(mod-ko-$(1)): $(mod-objs-$(1)) $(mod-ko-$(1):.ko=.mod.o) $(call mod-file,$(1),objs)
	$$(quiet) 'LD [M]' $$@
	$$(Q)$$(LD) -r -m elf_x86_64 --build-id=none -o $$@ \
		$(mod-objs-$(1)) $(mod-ko-$(1):.ko=.mod.o)

$(call mod-file,$(1),objs): FORCE
	@$$(call update-file,$(mod-objs-$(1)))
endef

# The copy the ISO carries, named after the module (for in-tree modules).
define iso-module-rule
$(ISO_MODULES_DIR)/$(1).ko: $(mod-ko-$(1))
	$$(quiet) STRIP $$@
	@mkdir -p $$(@D)
	$$(Q)$$(OBJCOPY) --strip-debug $$< $$@
endef

$(foreach m,$(modules) $(ext-modules),$(eval $(call module-rules,$(m))))
$(foreach m,$(modules),$(eval $(call iso-module-rule,$(m))))

# The set of modules modpost checks: one going away reruns it too.
$(O)/.modules: FORCE
	@$(call update-file,$(call mod-kos,$(modules)))

$(O)/Module.symvers: $(O)/vmlinux $(call mod-kos,$(modules)) $(O)/.modules \
		     scripts/modpost.py
	$(quiet) MODPOST $@
	$(Q)$(MODPOST) --vmlinux $(O)/vmlinux --crcs $(O)/.kcrcs --crcs $(O)/.mcrcs \
		--out $@ $(call mod-kos,$(modules))

# M=dir: dir's modules against the kernel's and the in-tree modules' exports.
ifdef M
M-obj := $(patsubst %/,%,$(call objdir,$(M)/))
$(M-obj)/.modules: FORCE
	@$(call update-file,$(call mod-kos,$(ext-modules)))

$(M-obj)/Module.symvers: $(O)/Module.symvers $(call mod-kos,$(ext-modules)) \
			  $(M-obj)/.modules scripts/modpost.py
	$(quiet) MODPOST $@
	$(Q)$(MODPOST) --symvers $(O)/Module.symvers --crcs $(M-obj)/.mcrcs \
		--out $@ $(call mod-kos,$(ext-modules))

$(M-obj)/.modversions: $(O)/Module.symvers \
		       $(foreach m,$(ext-modules),$(mod-objs-$(m))) $(M-obj)/.modules
	$(quiet) MODVER '$(M-obj)/*.mod.c'
	$(Q)$(MODVER) --stamp $@ --symvers $(O)/Module.symvers --db $(M-obj)/.mcrcs \
		$(foreach m,$(ext-modules),$(call mod-spec,$(m)))
$(foreach m,$(ext-modules),$(mod-ko-$(m):.ko=.mod.c)): $(M-obj)/.modversions ;
endif

# What the ISO carries: each .ko of $(ISO_MODULES_DIR), its size, CRC32 and
# SHA-1, as a header the module_blob test compiles in. Rewritten only when
# it changes: the ISO (and that test) are rebuilt then, and only then.
$(O)/include/generated/module_blobs.h: $(iso-modules) scripts/module_blobs.py FORCE
	@mkdir -p $(@D) $(ISO_MODULES_DIR)
	$(Q)$(PYTHON) scripts/module_blobs.py $(ISO_MODULES_DIR) > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(O)/kernel/module/module_blob_test.o: $(O)/include/generated/module_blobs.h

PHONY += modules
ifdef M
modules: $(M-obj)/Module.symvers
else
modules: $(O)/Module.symvers $(O)/include/generated/module_blobs.h
endif

-include $(mod-all-objs:.o=.d)

# An object is compiled one way into the kernel and another (-DMODULE)
# into a module: a configuration that moves it between the two (a test
# suite from y to m) rebuilds it. .foo.o.mode beside it says which.
obj-mode = $(dir $(1)).$(notdir $(1)).mode
$(foreach o,$(kernel-objs) $(mod-all-objs),$(eval $(o): $(call obj-mode,$(o))))
%.o.mode: FORCE
	@$(call update-file,$(or $(modname-$(dir $@)$(patsubst .%.mode,%,$(notdir $@))),y))

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

# EXTRA_MODULES="dir ...": each dir's modules (a Linux-style Kbuild or
# Makefile anywhere) built as "make M=dir modules" does and carried by this
# ISO beside the in-tree ones (from $(ISO_EXTRA_DIR)), so that make run's
# insmod finds them. The kernel's module_blob list is the in-tree set's:
# its module_blob suite names the extra blobs as unexpected.
extra-dirs := $(patsubst $(CURDIR)/%,%,$(abspath $(EXTRA_MODULES)))
ISO_EXTRA_DIR := $(ISO_DIR)/extra-modules
$(ISO_EXTRA_DIR)/.extra: $(O)/Module.symvers FORCE
	$(Q)$(foreach d,$(extra-dirs),$(MAKE) O=$(O) M=$(d) modules &&) true
	$(Q)$(PYTHON) scripts/stage_extra_modules.py $(ISO_EXTRA_DIR) \
		$(ISO_MODULES_DIR) $(foreach d,$(extra-dirs),$(call objdir,$(d)/))

# User programs (user/Makefile, built by "make user"): on the ISO as
# /bin/<name>. The stamp rebuilds them when a source changes.
user-stamp := $(O)/user/.built
$(user-stamp): $(wildcard user/*/*.c user/*/*.h) user/Makefile
	$(Q)$(MAKE) -f user/Makefile O=$(O) Q=$(Q) user
	@touch $@
user-progs := $(user-stamp)
ifdef INIT
ifneq ($(abspath $(INIT)),$(abspath $(O)/user/$(notdir $(INIT))))
$(O)/user/$(notdir $(INIT)): $(INIT) FORCE
	@mkdir -p $(@D)
	$(Q)cp $(INIT) $@
endif
user-progs += $(O)/user/$(notdir $(INIT))
endif

# USER_PROGS: the programs the ISO carries. "all" (the default): every
# program of user/ (about 0.75 MB each, static glibc: with them MEM=6M is
# too little for GRUB, see Documentation/userspace.rst); empty: none; else
# the names to carry. INIT's program is carried in any case.
USER_PROGS ?= all
ifeq ($(strip $(USER_PROGS)),all)
iso-user-dir := $(O)/user
iso-user-deps := $(user-progs)
else
iso-user-dir := $(ISO_DIR)/user
iso-user-names := $(strip $(USER_PROGS) $(if $(INIT),$(notdir $(INIT))))
iso-user-deps := $(ISO_DIR)/user/.staged
$(ISO_DIR)/user/.staged: $(user-progs) FORCE
	$(Q)rm -rf $(@D) && mkdir -p $(@D)
	$(Q)for p in $(iso-user-names); do \
		[ -f $(O)/user/$$p ] || { echo "USER_PROGS: no program $$p in $(O)/user (user/*/$$p.c)" >&2; exit 1; }; \
		cp -p $(O)/user/$$p $(@D)/; done
	$(Q)echo '$(iso-user-names)' > $@.tmp; \
		if cmp -s $@.tmp $(ISO_DIR)/.user-names; then rm $@.tmp; else mv $@.tmp $(ISO_DIR)/.user-names; fi
	@touch -r $(ISO_DIR)/.user-names $@
endif

$(ISO_DIR)/kernel.iso: $(O)/vmlinux $(ISO_DIR)/cmdline scripts/mkiso.sh \
		       $(O)/Module.symvers $(O)/include/generated/module_blobs.h \
		       $(ISO_EXTRA_DIR)/.extra $(iso-user-deps)
	$(quiet) ISO $@
	$(Q)scripts/mkiso.sh $(O)/vmlinux $(ISO_DIR)/cmdline $@ $(ISO_MODULES_DIR) \
		$(ISO_EXTRA_DIR) $(iso-user-dir)

# scripts/qemu.py builds the QEMU command line (the runner uses it too) and
# turns QEMU's exit status into 0 (tests passed), 1 (failed) or 2 (crash).
QEMU_ARGS = --iso $(ISO_DIR)/kernel.iso --cpus $(CPUS) --mem $(MEM) --qemu '$(QEMU)'

PHONY += deps iso run test stress debug bench
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

# The long stresses, in build/stress and build/stress-hotplug: the int3 protocol, 100,000 flips of 4
# keys with readers on every other CPU (make test runs 2,000); then CPU
# hotplug, 1,000 offline/online cycles of CPUs 1..3 with a key flipping,
# readers, timers and delayed work (make test runs 50); then the int3
# stress once more with text_poke.park=off (tests/stress_park_off.json),
# which must die of a stray int3 under multi-threaded TCG. Between them
# the system-call fuzzer (user/fuzz/ufuzz.c), 16 seeds of 20,000 calls
# (make test runs 4 of 2,000), in build/stress-ufuzz.
STRESS_FLIPS ?= 100000
STRESS_CYCLES ?= 1000
STRESS_FUZZ_SEEDS ?= 16
STRESS_FUZZ_CALLS ?= 20000
stress: deps
	$(Q)$(PYTHON) scripts/kunit.py run --build_dir build/stress \
		--cpus $(CPUS) --timeout 5400 --filter 'text_patch.tpt_test_stress' \
		--kernel_args 'text_patch_test.flips=$(STRESS_FLIPS) text_patch_test.budget=5000 kunit.timeout=0'
	$(Q)$(PYTHON) scripts/kunit.py run --build_dir build/stress-hotplug \
		--cpus $(CPUS) --timeout 3600 --filter 'cpu_hotplug.cht_test_stress' \
		--kernel_args 'cpu_hotplug_test.cycles=$(STRESS_CYCLES) kunit.timeout=0'
	$(Q)$(PYTHON) scripts/kunit.py run --build_dir build/stress-ufuzz \
		--cpus $(CPUS) --timeout 5400 --filter 'userspace.ust_fuzz' \
		--kernel_args 'userspace_test.fuzz_seeds=$(STRESS_FUZZ_SEEDS) userspace_test.fuzz_calls=$(STRESS_FUZZ_CALLS) kunit.timeout=0'
	@echo "The int3 stress with text_poke.park=off, expected to die of a stray int3 (the park's reason):"
	$(Q)$(PYTHON) scripts/kunit.py plan tests/stress_park_off.json --cpus $(CPUS)

# The module loader's pure part under libFuzzer (tests/fuzz/module_fuzz.c),
# built for the host with clang, ASan and UBSan. Seeds: the test modules
# and whatever make modules put in $(O)/iso-modules. make fuzz runs
# FUZZ_TIME seconds on a corpus kept in $(O)/fuzz/corpus; make test runs a
# bounded pass (FUZZ_RUNS inputs). A crash or a sanitizer report fails it.
FUZZ_TIME ?= 600
FUZZ_RUNS ?= 200000
FUZZ_BIN := $(O)/fuzz/module_fuzz
FUZZ_SRCS := tests/fuzz/module_fuzz.c kernel/module/elf.c arch/x86/kernel/module.c
FUZZ_HDRS := include/linux/moduleloader.h include/linux/elf.h include/linux/module_mem.h

$(FUZZ_BIN): $(FUZZ_SRCS) $(FUZZ_HDRS)
	$(quiet) FUZZCC $@
	@mkdir -p $(@D)
	$(Q)clang-14 -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Wall -Werror -iquote include \
		-o $@ $(FUZZ_SRCS)

# Seeds: the test modules of the default test build, real modules, and
# the crafted files of tests/fuzz/seeds/*.S (each one a past finding).
FUZZ_SEEDS := $(patsubst tests/fuzz/seeds/%.S,$(O)/fuzz/seeds/%.o,\
		$(wildcard tests/fuzz/seeds/*.S))
$(O)/fuzz/seeds/%.o: tests/fuzz/seeds/%.S
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -c -o $@ $<

fuzz-seed = mkdir -p $(1) && \
	cp -f $(wildcard build/test-default/tests/modules/loader/*.ko \
		$(O)/tests/modules/loader/*.ko $(O)/iso-modules/*.ko) \
		$(FUZZ_SEEDS) $(1)/ 2>/dev/null; true

# The console's line editor and parser (tests/fuzz/shell_fuzz.c): the
# files as the kernel builds them, over a shim of three kernel headers.
# make fuzz-shell runs FUZZ_TIME seconds; make test SHELL_FUZZ_RUNS inputs.
SHELL_FUZZ_RUNS ?= 30000
SHELL_FUZZ_BIN := $(O)/fuzz/shell_fuzz
SHELL_FUZZ_SRCS := tests/fuzz/shell_fuzz.c kernel/shell/parse.c kernel/shell/editor.c

$(SHELL_FUZZ_BIN): $(SHELL_FUZZ_SRCS) include/linux/shell.h \
		   $(wildcard tests/fuzz/shim/linux/*.h)
	$(quiet) FUZZCC $@
	@mkdir -p $(@D)
	$(Q)clang-14 -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Wall -Werror -I tests/fuzz/shim \
		-I include -o $@ $(SHELL_FUZZ_SRCS)

# $(call fuzz-pass,binary,corpus,what): a bounded pass from a fresh corpus.
fuzz-pass = $(1) -runs=$(4) -seed=1 -print_final_stats=1 \
	-artifact_prefix=$(O)/fuzz/ $(2) > $(2).log 2>&1 || \
	{ tail -40 $(2).log; echo "fuzz: $(3) failed, see $(2).log" >&2; exit 1; }; \
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' $(2).log | tr '\n' ' '; echo

PHONY += fuzz fuzz-smoke fuzz-shell
fuzz: deps $(FUZZ_BIN) $(FUZZ_SEEDS)
	$(Q)$(call fuzz-seed,$(O)/fuzz/corpus)
	$(Q)$(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
		-artifact_prefix=$(O)/fuzz/ $(O)/fuzz/corpus

fuzz-shell: deps $(SHELL_FUZZ_BIN)
	$(Q)mkdir -p $(O)/fuzz/shell-corpus && cp -f tests/fuzz/shell-seeds/* $(O)/fuzz/shell-corpus/
	$(Q)$(SHELL_FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
		-artifact_prefix=$(O)/fuzz/ $(O)/fuzz/shell-corpus

fuzz-smoke: deps $(FUZZ_BIN) $(FUZZ_SEEDS) $(SHELL_FUZZ_BIN)
	$(Q)rm -rf $(O)/fuzz/smoke && $(call fuzz-seed,$(O)/fuzz/smoke)
	$(Q)$(call fuzz-pass,$(FUZZ_BIN),$(O)/fuzz/smoke,the module loader,$(FUZZ_RUNS))
	$(Q)rm -rf $(O)/fuzz/shell-smoke && mkdir -p $(O)/fuzz/shell-smoke && \
		cp -f tests/fuzz/shell-seeds/* $(O)/fuzz/shell-smoke/
	$(Q)$(call fuzz-pass,$(SHELL_FUZZ_BIN),$(O)/fuzz/shell-smoke,the console's editor and parser,$(SHELL_FUZZ_RUNS))

# The static key engine on the host (tests/fuzz/engine/), under
# ThreadSanitizer and under ASan/UBSan: make fuzz-engine runs each build
# FUZZ_TIME seconds, make test a bounded pass (scripts/fuzz_engine.sh).
FUZZ_THREADS ?= 4
FUZZ_ENGINE_OPS ?= 60000
PHONY += fuzz-engine fuzz-engine-smoke
fuzz-engine: deps
	$(Q)$(MAKE) -f tests/fuzz/engine/Makefile O=$(O) Q=$(Q)
	$(Q)scripts/fuzz_engine.sh $(O)/fuzz/engine --threads $(FUZZ_THREADS) \
		--seconds $(FUZZ_TIME)

fuzz-engine-smoke: deps
	$(Q)$(MAKE) -f tests/fuzz/engine/Makefile O=$(O) Q=$(Q)
	$(Q)scripts/fuzz_engine.sh $(O)/fuzz/engine --seeds "1 2 3" \
		--threads $(FUZZ_THREADS) --ops $(FUZZ_ENGINE_OPS)

# The SPIN model of the int3 batch (tests/model/text_poke.pml) and its
# mutants, in $(O)/model: exhaustive for 3 CPUs, MODEL_MINUTES for 4.
MODEL_MINUTES ?= 1
PHONY += model
model: deps
	$(Q)$(PYTHON) scripts/check_model.py --build-dir $(O)/model \
		--minutes $(MODEL_MINUTES)

# Static keys y vs n: builds and boots build/bench/{y,n,y-smp}, prints a
# table, writes build/bench/results.json and a gnuplot plot; then the
# Linux column (bench-linux), which a missing package only skips; last,
# README.md's Performance table from that one run
# (scripts/bench_readme.py, build/bench/README-table.md).
bench:
	$(Q)scripts/install-deps.sh --bench && { $(PYTHON) scripts/bench.py; \
		s=$$?; $(PYTHON) scripts/bench_linux.py || s=1; \
		$(PYTHON) scripts/bench_readme.py \
			--out build/bench/README-table.md || s=1; exit $$s; }

# Debian's Linux (linux-image-amd64, fetched and cached in build/bench/linux)
# under the same QEMU, the same user programs: its column beside ours (y,
# from build/bench/results.json) with ratios. stress-linux: Linux and this
# kernel on 4 vCPUs, STRESS_LINUX_FLIPS flips of four 4-site keys under
# readers; the flips each survived. See scripts/bench_linux.py.
STRESS_LINUX_FLIPS ?= 2000
PHONY += bench-linux stress-linux
bench-linux:
	$(Q)scripts/install-deps.sh --bench && $(PYTHON) scripts/bench_linux.py

stress-linux: deps
	$(Q)$(PYTHON) scripts/bench_linux.py --stress --flips $(STRESS_LINUX_FLIPS)

# user/tests/uconform.c as /init on Debian's Linux (fetched as for
# bench-linux) and as pid 1 here: the two outputs diffed; no package: one
# line, skipped. See scripts/user_compare.py.
PHONY += user-compare
user-compare: deps
	$(Q)$(PYTHON) scripts/user_compare.py

# The user programs (user/Makefile): every user/<dir>/<name>.c as the static
# executable $(O)/user/<name>, by the host's gcc -O2 -static.
PHONY += user
user:
	$(Q)$(MAKE) -f user/Makefile O=$(O) Q=$(Q) user

debug: deps $(ISO_DIR)/kernel.iso
	$(Q)printf 'file %s\ntarget remote localhost:1234\n' $(abspath $(O)/vmlinux) > $(O)/gdbinit
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

help:
	@echo 'Running:'
	@echo '  run            - build the kernel and ISO, boot it under QEMU, start the console; piped stdin is read as commands (CPUS=$(CPUS))'
	@echo '  test           - build and boot every test configuration, run all KUnit suites'
	@echo '  stress         - 100,000 flips with readers on every other CPU (STRESS_FLIPS=n),'
	@echo '                   then 1,000 CPU offline/online cycles (STRESS_CYCLES=n),'
	@echo '                   then the flips with text_poke.park=off, expected to crash'
	@echo '  bench          - static key benchmarks, JUMP_LABEL=y vs =n (build/bench), then bench-linux'
	@echo '  bench-linux    - the same programs on Debian'"'"'s Linux 6.1 under the same QEMU, ratios'
	@echo '  stress-linux   - flips under readers on 4 vCPUs, Linux and ours (STRESS_LINUX_FLIPS=n)'
	@echo '  model          - model-check the int3 batch with SPIN, and its mutants (MODEL_MINUTES=$(MODEL_MINUTES) for 4 CPUs)'
	@echo '  fuzz           - fuzz the module loader FUZZ_TIME=$(FUZZ_TIME) s (clang, ASan, UBSan)'
	@echo '  fuzz-shell     - fuzz the console'"'"'s line editor and parser FUZZ_TIME=$(FUZZ_TIME) s'
	@echo '  fuzz-engine    - the static key engine on the host, FUZZ_THREADS threads, FUZZ_TIME s'
	@echo '                   under TSan, then under ASan/UBSan'
	@echo '  debug          - boot QEMU halted with a gdb stub; gdb -x $(O)/gdbinit'
	@echo 'Building:'
	@echo '  all            - build $(O)/vmlinux and the modules (the default)'
	@echo '  modules        - build the modules (obj-m), check them (modpost), stage them'
	@echo '                   in $(O)/iso-modules; with M=dir, the modules of dir instead'
	@echo '  user-compare   - user/tests/uconform on Debian'"'"'s Linux 6.1 and on this kernel: the same output?'
	@echo '  user           - build the user programs user/*/*.c into $(O)/user (static, gcc -O2 -static)'
	@echo '  iso            - build $(ISO_DIR)/kernel.iso with CMDLINE="..." and the modules'
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
	@echo '           ISO_DIR=dir (kernel.iso and its cmdline, default O),'
	@echo '           M=dir (modules outside the tree walk, for make modules; a dir'
	@echo '           anywhere, with a Linux-style Kbuild or Makefile),'
	@echo '           EXTRA_MODULES="dir ..." (make run/iso: their modules on the ISO too)'

PHONY += FORCE
FORCE:

.PHONY: $(PHONY)
.DELETE_ON_ERROR:
