/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test modules (kernel/module/test/, built by kernel/module/Makefile)
 * embedded in the image as read-only blobs, with a table of struct
 * module_blob {name, data, size} for the TEMPORARY weak module_blob_find()
 * of blob_weak.c. Once the blobs come from the ISO, the lead drops this
 * file and lets make modules put the same modules there.
 */
	.macro blob name
	.pushsection .rodata.modtest_blobs, "a"
	.balign 8			/* the loader wants 8-byte aligned images */
\name\()_data:
	.incbin "\name\().ko"		/* found through -Wa,-I */
\name\()_end:
	.popsection
	.pushsection .rodata.modtest_names, "aMS", @progbits, 1
\name\()_str:
	.asciz "\name"
	.popsection
	.quad \name\()_str, \name\()_data, \name\()_end - \name\()_data
	.endm

	.section .rodata, "a"
	.balign 8
	.globl module_test_blobs
module_test_blobs:
	blob modtest_basic
	blob modtest_user
	blob modtest_initfail
	blob modtest_unknown
	blob modtest_nolicense
	blob modtest_dupexport
	blob modtest_dupkernel
	blob modtest_nested
module_test_blobs_end:

	.balign 4
	.globl module_test_nr_blobs
module_test_nr_blobs:
	.long (module_test_blobs_end - module_test_blobs) / 24
