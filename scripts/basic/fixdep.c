// SPDX-License-Identifier: GPL-2.0
/*
 * fixdep DEPFILE TARGET CONFIGDIR: rewrites the dependency file gcc wrote
 * with -MMD so that an object depends on the configuration symbols it uses
 * rather than on all of autoconf.h.
 *
 * Every file in DEPFILE stays a prerequisite of TARGET, except autoconf.h.
 * Each CONFIG_FOO_BAR mentioned in those files adds the prerequisite
 * $(wildcard CONFIGDIR/foo/bar.h), the file kconfiglib's sync_deps touches
 * when that symbol changes. A changed .config thus rebuilds only the objects
 * whose sources or headers mention a changed symbol.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SYMS 4096

static char *syms[MAX_SYMS];
static int nr_syms;

static char *read_file(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	buf = malloc(*len + 1);
	if (!buf || fread(buf, 1, *len, f) != (size_t)*len) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void add_sym(const char *s, int len)
{
	int i;

	for (i = 0; i < nr_syms; i++)
		if ((int)strlen(syms[i]) == len && !memcmp(syms[i], s, len))
			return;
	if (nr_syms == MAX_SYMS) {
		fprintf(stderr, "fixdep: more than %d CONFIG_ symbols\n", MAX_SYMS);
		exit(1);
	}
	syms[nr_syms++] = strndup(s, len);
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

static void scan_file(const char *path)
{
	long len, i;
	char *buf = read_file(path, &len);

	if (!buf) {
		fprintf(stderr, "fixdep: cannot read %s\n", path);
		exit(1);
	}
	for (i = 0; i + 7 < len; i++) {
		long j;

		if (memcmp(buf + i, "CONFIG_", 7) || (i && is_ident(buf[i - 1])))
			continue;
		for (j = i + 7; j < len && is_ident(buf[j]); j++)
			;
		if (j > i + 7)
			add_sym(buf + i + 7, j - i - 7);
		i = j;
	}
	free(buf);
}

static void print_sym_dep(const char *configdir, const char *sym)
{
	const char *p;

	printf("    $(wildcard %s/", configdir);
	for (p = sym; *p; p++)
		putchar(*p == '_' ? '/' : tolower((unsigned char)*p));
	printf(".h) \\\n");
}

int main(int argc, char **argv)
{
	char *buf, *tok, *colon;
	long len;
	int i;

	if (argc != 4) {
		fprintf(stderr, "usage: fixdep DEPFILE TARGET CONFIGDIR\n");
		return 2;
	}
	buf = read_file(argv[1], &len);
	if (!buf) {
		fprintf(stderr, "fixdep: cannot read %s\n", argv[1]);
		return 1;
	}
	/* Only the first rule matters: "target: prerequisites". */
	colon = strstr(buf, ": ");
	if (!colon)
		return 1;
	while ((tok = strstr(colon, "\\\n")))
		tok[0] = tok[1] = ' ';
	tok = strchr(colon, '\n');
	if (tok)
		*tok = '\0';
	printf("%s: \\\n", argv[2]);
	for (tok = strtok(colon + 1, " \t\n\\"); tok;
	     tok = strtok(NULL, " \t\n\\")) {
		if (strstr(tok, "generated/autoconf.h"))
			continue;
		scan_file(tok);
		printf("    %s \\\n", tok);
	}
	for (i = 0; i < nr_syms; i++)
		print_sym_dep(argv[3], syms[i]);
	printf("\n");
	return 0;
}
