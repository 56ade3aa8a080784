#!/usr/bin/env python3
# The project's rule "no function over 7 parameters" (doc/HACKING.md),
# checked by `make check` over every function definition in src/: prints
# one "ok"/"not ok" line.  A variadic "..." is not counted.
#
#   params.py            the check
#   params.py --list N   every definition with N or more parameters, most first
import os
import re
import sys

MAX = 7

def strip(text):
    """The text without comments, string and character literals, and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    # a directive and its continued lines
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)
    return text


def count(params):
    """The parameters of a definition's list, "..." not counted."""
    parts, depth, cur = [], 0, ""
    for c in params:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    parts.append(cur.strip())
    parts = [p for p in parts if p and p != "..."]
    if parts == ["void"]:
        return 0
    return len(parts)


DEF = re.compile(r"(\w+)\s*\(([^{};]*)\)\s*(?:__attribute__\s*\(\(.*\)\)\s*)?$", re.S)


def definitions(path):
    """(name, parameters, line) of every function defined in path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip(f.read())
    depth, start, found = 0, 0, []
    for i, c in enumerate(text):
        if c == "{":
            if depth == 0:
                head = text[start:i]
                m = DEF.search(head)
                if m and not re.search(r"=\s*$", head):
                    line = text.count("\n", 0, start + m.start(1)) + 1
                    found.append((m.group(1), count(m.group(2)), line))
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            start = i + 1
    return found


def all_definitions(top):
    out = []
    for root, _, files in os.walk(os.path.join(top, "src")):
        for name in sorted(files):
            if name.endswith(".c"):
                path = os.path.join(root, name)
                for fn, n, line in definitions(path):
                    out.append((os.path.relpath(path, top), fn, n, line))
    return sorted(out)


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    defs = all_definitions(top)
    if len(sys.argv) == 3 and sys.argv[1] == "--list":
        least = int(sys.argv[2])
        for path, fn, n, line in sorted(defs, key=lambda d: (-d[2], d[0], d[3])):
            if n >= least:
                print(f"{n:3} {path}:{line} {fn}")
        return 0
    over = [d for d in defs if d[2] > MAX]
    if not defs:
        print("not ok - params: no function definition found in src/")
        return 0
    if over:
        print(f"not ok - no function over {MAX} parameters in src/")
        for path, fn, n, line in over:
            print(f"#   {path}:{line}: {fn} takes {n}")
    else:
        print(f"ok - no function over {MAX} parameters in src/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
