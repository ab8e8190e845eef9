// SPDX-License-Identifier: GPL-2.0
/* The first user program: prints its arguments and exits with 3. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *p = malloc(100000);
	int i;

	printf("hello from pid %d, parent %d, argc %d\n", getpid(), getppid(),
	       argc);
	for (i = 0; i < argc; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	p[99999] = 1;
	free(p);
	return 3;
}
