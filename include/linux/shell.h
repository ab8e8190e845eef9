/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SHELL_H
#define _LINUX_SHELL_H

/*
 * The kernel console (kernel/shell/, Documentation/console.rst): a shell on
 * the serial console that lists and flips static keys, tracepoints, CPUs,
 * modules and benchmarks. It runs instead of the tests when the command
 * line says "shell" (make run does).
 *
 * The line editor, the completion and the parser are pure functions of
 * their state and input (no I/O, no locks), so that the KUnit suite
 * "shell" can feed them byte sequences and check the results.
 */
#include <linux/compiler.h>
#include <linux/types.h>

#define SHELL_LINE_MAX 256
#define SHELL_HISTORY 16
#define SHELL_ARGV_MAX 16
#define SHELL_OUT_MAX 512

/* What shell_edit_byte() reports after a byte. */
enum shell_edit {
	SHELL_EDIT_MORE, /* keep feeding bytes */
	SHELL_EDIT_LINE, /* a line is complete: ed->line */
	SHELL_EDIT_COMPLETE, /* tab: the caller completes the word */
	SHELL_EDIT_QUIT, /* ^C twice in a row: the caller ends the machine */
};

/*
 * Line editor state. line[0..len) is the text (NUL-terminated), cursor
 * in [0, len]. Bytes the terminal must see (echo, redraws) accumulate in
 * out[0..out_len); the caller writes and clears them after each byte.
 * history[] is a ring of the last SHELL_HISTORY lines, hist_len of them
 * valid, the newest at hist_next - 1; hist_pos is 0 while editing a new
 * line and n while showing the n-th newest (saved holds the new line).
 */
struct shell_editor {
	const char *prompt;
	char line[SHELL_LINE_MAX];
	unsigned int len, cursor;
	char out[SHELL_OUT_MAX];
	unsigned int out_len;
	u8 esc; /* escape state: 0, ESC seen, CSI seen, in a string */
	u8 csi_param; /* the CSI's number so far (ESC [ 3 ~) */
	bool last_cr; /* a CR ended the last line: skip one LF */
	bool too_long; /* bytes were dropped: the line is refused */
	bool last_intr; /* the last byte was a ^C that dropped the line */
	char history[SHELL_HISTORY][SHELL_LINE_MAX];
	unsigned int hist_next, hist_len, hist_pos;
	char saved[SHELL_LINE_MAX];
};

void shell_editor_init(struct shell_editor *ed, const char *prompt);
/* Starts a new line (after SHELL_EDIT_LINE); keeps the history. */
void shell_editor_reset(struct shell_editor *ed);
enum shell_edit shell_edit_byte(struct shell_editor *ed, u8 c);
/* Adds line to the history unless empty or equal to the newest. */
void shell_history_add(struct shell_editor *ed, const char *line);
/* Inserts s at the cursor (what does not fit is dropped); echoes it. */
void shell_edit_insert(struct shell_editor *ed, const char *s);

/*
 * Tab completion of the word before the cursor: shell_complete_begin()
 * takes the word, shell_complete_add() offers each candidate name (those
 * that do not start with the word are ignored), then
 * shell_complete_apply() inserts what all matches share and returns the
 * number of matches; with more than one and nothing inserted, the caller
 * lists them (shell_complete_add() keeps the first SHELL_COMPLETE_LIST).
 */
#define SHELL_COMPLETE_LIST 32
struct shell_completion {
	char word[SHELL_LINE_MAX];
	unsigned int word_len;
	unsigned int argi; /* which word: 0 the command */
	char first_word[SHELL_LINE_MAX];
	char common[SHELL_LINE_MAX]; /* longest shared prefix of matches */
	unsigned int matches;
	char list[SHELL_COMPLETE_LIST][48];
};

void shell_complete_begin(struct shell_completion *c,
			  const struct shell_editor *ed);
void shell_complete_add(struct shell_completion *c, const char *name);
unsigned int shell_complete_apply(struct shell_completion *c,
				  struct shell_editor *ed);

/*
 * Splits the first command of *line into argv (at most max words), in
 * place. Words are separated by blanks; double quotes group blanks, a
 * backslash takes the next byte as is; ';' ends a command. *line moves
 * past it (NULL when nothing is left). Returns argc, -EINVAL for an
 * unterminated quote or a trailing backslash (the rest of the line is
 * dropped), -E2BIG for too many words.
 */
int shell_split(char **line, char **argv, int max);

/* A command: fn gets argc/argv (argv[0] the name) and returns 0 or -errno. */
struct shell_cmd {
	const char *name;
	const char *usage; /* arguments, for help and errors */
	const char *help; /* one line */
	int min_args, max_args; /* counts after the name */
	bool changes; /* changes state: refused in the sandbox */
	int (*fn)(int argc, char **argv);
	/* Offers completions for word argi (>= 1), or NULL. */
	void (*complete)(struct shell_completion *c);
};

/* Where shell output goes; the fuzz test swaps in a sink. */
extern void (*shell_write)(const char *s, size_t len);
__printf(1, 2) void shell_printf(const char *fmt, ...);
/*
 * For a command that waits (sleep): true if a ^C came from the console
 * meanwhile. Other bytes read are kept for the line editor, in order.
 */
bool shell_interrupted(void);
/* One-line error with the usage hint: returns -EINVAL. */
int shell_usage(const char *name);

/*
 * Runs every command of line (modified in place); returns 0 if all
 * succeeded, else the status of the first that failed. Each command's
 * status goes to the session (kernel/shell/session.c).
 */
int shell_run_line(char *line);

/*
 * The session: shell_session_line() counts a line read,
 * shell_session_status() records a command's status (argv its words),
 * shell_last_status is the last one ($?); shell_session_end() is the end
 * of input: it reports the first failing command and powers off, QEMU
 * status 33 if none failed, 35 otherwise.
 */
void shell_session_line(void);
void shell_session_status(int argc, char **argv, int status);
void __noreturn shell_session_end(void);
extern int shell_last_status;
/* Completion for the editor's current word (writes a list if ambiguous). */
void shell_complete(struct shell_editor *ed);
/* In the sandbox (the fuzz test) commands that change state are refused. */
extern bool shell_sandbox;

/*
 * Online CPUs and enabled trace events, saved before a console 'test' and
 * put back after it (kernel/shell/test_state.c), each change said in one
 * line. save: NULL if out of memory (restore then does nothing).
 */
struct shell_state;
struct shell_state *shell_state_save(void);
void shell_state_restore(struct shell_state *s);

/* The command groups (kernel/shell/cmd_*.c). */
extern const struct shell_cmd shell_key_cmds[], shell_trace_cmds[],
	shell_sys_cmds[], shell_session_cmds[], shell_user_cmds[],
	shell_call_cmds[];
void shell_complete_keys(struct shell_completion *c);
/*
 * A static key's name for people (kernel/shell/key_name.c): the
 * tracepoint's name for a tracepoint's key (*type "tracepoint", else
 * "true" or "false"), "array[3]" for an element, "sym+0x18" inside a
 * structure; *modname its module's name or "".
 */
struct static_key;
void shell_key_name(struct static_key *key, char *buf, size_t size,
		    const char **modname, const char **type);

/* True when the command line asked for the shell ("shell"). */
bool shell_requested(void);
/* The console loop: reads COM1 until poweroff. Sleeps; never returns. */
void __noreturn shell_main(void);

#endif /* _LINUX_SHELL_H */
