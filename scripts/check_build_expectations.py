#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check_build_expectations.py CC-COMMAND... -- FILE...

Compiles each FILE with the kernel's compiler command and checks the
outcome its first lines announce:

    // expect: success                 compiles, no diagnostics at all
    // expect: error: REGEX            fails, with a diagnostic matching REGEX
    // expect: warning: REGEX          compiles, with a warning matching REGEX

so that the build-time promises of the API (a wrong key type fails the
build, the old API warns, the documented forms are clean) are tested.
Prints a line per file and "N passed, N failed" last; exits 1 on a failure.
"""
import re
import subprocess
import sys


def expectations(path):
    exp = []
    with open(path) as f:
        for line in f:
            m = re.match(r"//\s*expect:\s*(success|error|warning)(?::\s*(.*))?",
                         line)
            if not m:
                break
            exp.append((m.group(1), m.group(2)))
    return exp


def check(cc, path):
    exp = expectations(path)
    if not exp:
        return f"{path}: no '// expect:' line"
    # Warnings must stay warnings here, whatever -Werror the kernel uses.
    cmd = cc + ["-Wno-error", "-c", "-o", "/dev/null", path]
    res = subprocess.run(cmd, capture_output=True, text=True)
    out = res.stderr
    for kind, regex in exp:
        if kind == "success":
            if res.returncode or "warning" in out or "error" in out:
                return f"{path}: expected a clean build, got:\n{out}"
            continue
        if kind == "error" and res.returncode == 0:
            return f"{path}: expected the build to fail, it succeeded"
        if kind == "warning" and res.returncode:
            return f"{path}: expected a warning only, build failed:\n{out}"
        if not re.search(f"{kind}: {regex}", out):
            return f"{path}: no {kind} matching '{regex}' in:\n{out}"
    return None


def main(argv):
    if "--" not in argv:
        sys.exit(__doc__)
    sep = argv.index("--")
    cc, files = argv[1:sep], argv[sep + 1:]
    failed = 0
    for path in files:
        problem = check(cc, path)
        print(f"  {'ok' if not problem else 'FAILED'}  {path}")
        if problem:
            print(problem)
            failed += 1
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
