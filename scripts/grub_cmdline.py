#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel command line ($CMDLINE) as the arguments of GRUB's multiboot2.

The Makefile hands CMDLINE over in the environment (KERNEL_CMDLINE), never
through a shell.  The text is split into words as the kernel splits its
command line (kernel/params.c): blanks separate words, double quotes group
blanks into a word, a backslash takes the next character as it is; quotes
and backslashes are removed.  Each word is then written for grub.cfg in
single quotes, where GRUB takes every character literally.  GRUB hands the
words to the kernel in its own form (a word with a blank in double quotes,
a backslash before each backslash and quote), which the kernel decodes back
into the same words.

Refused, with a message and exit status 1: a double quote left open, a
backslash at the end, and control characters inside a word (GRUB would pass
a tab or a newline unquoted, and the kernel would split the word there).

    grub_cmdline.py            print KERNEL_CMDLINE's words for grub.cfg
    grub_cmdline.py --selftest check the cases below
"""

import os
import sys

BLANKS = ' \t'


class CmdlineError(Exception):
    pass


def _check_char(char, word):
    if ord(char) < 0x20 or ord(char) == 0x7f:
        raise CmdlineError(f'control character {char!r} in the word '
                           f'"{"".join(word)}...": it cannot reach the '
                           'kernel as part of a word')


def split_words(text):
    """The words of text, with quotes and backslashes removed."""
    words, word = [], []
    quoted = in_word = False
    chars = iter(text)
    for char in chars:
        if char == '\\':
            char = next(chars, None)
            if char is None:
                raise CmdlineError('it ends with a lone "\\"')
            _check_char(char, word)
            word.append(char)
            in_word = True
        elif char == '"':
            quoted = not quoted
            in_word = True
        elif char in BLANKS and not quoted:
            if in_word:
                words.append(''.join(word))
            word, in_word = [], False
        else:
            _check_char(char, word)
            word.append(char)
            in_word = True
    if quoted:
        raise CmdlineError(f'a \'"\' is not closed (in "{"".join(word)}")')
    if in_word:
        words.append(''.join(word))
    return [w for w in words if w]     # an empty word reaches nobody


def grub_quote(word):
    """word in single quotes; a quote inside becomes '\\''."""
    return "'" + word.replace("'", "'\\''") + "'"


def grub_args(text):
    return ' '.join(grub_quote(word) for word in split_words(text))


# (CMDLINE, the words the kernel must see, or None if refused)
CASES = [
    ('', []),
    ('  a=1   b\tc= ', ['a=1', 'b', 'c=']),
    ('foo="a b"', ['foo=a b']),
    ('"foo=a b"', ['foo=a b']),
    ('x=\\"y\\" z=a\\\\b', ['x="y"', 'z=a\\b']),
    ("c'd q='a b'", ["c'd", "q='a", "b'"]),
    ("a'; touch pwned; echo '", ["a';", 'touch', 'pwned;', "echo", "'"]),
    ('v="$HOME `id` $(id) ; # { }"', ['v=$HOME `id` $(id) ; # { }']),
    ('e="" f=""x', ['e=', 'f=x']),
    ('""', []),
    ('caf\u00e9=\u00fc', ['caf\u00e9=\u00fc']),
    ('a="b', None),
    ('a\\', None),
    ('a="b\tc"', None),
    ('a=b\nc', None),
]


def grub_split(line):
    """The arguments GRUB's lexer makes of line, for the words used here:
    blanks separate, '...' is literal, a backslash outside quotes takes
    the next character."""
    args, arg, quoted, in_arg = [], [], False, False
    chars = iter(line)
    for char in chars:
        if quoted:
            if char == "'":
                quoted = False
            else:
                arg.append(char)
        elif char == "'":
            quoted = in_arg = True
        elif char == '\\':
            arg.append(next(chars))
            in_arg = True
        elif char in BLANKS:
            if in_arg:
                args.append(''.join(arg))
            arg, in_arg = [], False
        else:
            arg.append(char)
            in_arg = True
    if in_arg:
        args.append(''.join(arg))
    return args


def selftest():
    failed = 0
    for text, want in CASES:
        try:
            got = split_words(text)
            line = grub_args(text)
        except CmdlineError:
            got = line = None
        if got != want:
            print(f'[FAILED] {text!r}: words {got!r}, expected {want!r}')
            failed += 1
        elif line is not None and grub_split(line) != want:
            print(f'[FAILED] {text!r}: GRUB would read {grub_split(line)!r} '
                  f'from {line!r}')
            failed += 1
    print(f'grub_cmdline: {len(CASES) - failed} passed, {failed} failed')
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ['--selftest']:
        return selftest()
    text = os.environ.get('KERNEL_CMDLINE', '')
    try:
        print(grub_args(text))
    except CmdlineError as exc:
        print(f'CMDLINE={text!r} refused: {exc}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
