#!/usr/bin/python3
"""checklint.py FILE...: the `check` lines of shell tests whose command is
more than one command.  `check DESC [ a ] && [ b ]` runs check on [ a ]
alone: the shell then tests [ b ] and ignores the result, so the second
half can never fail the test.  Lines joined by a trailing \\, && or || are
read as one; &&, || inside quotes, $(...) or (...) are fine.  Prints
FILE:LINE: TEXT for each and exits 1 if there is any."""
import sys

def logical_lines(text):
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        start = i
        cur = lines[i]
        while cur.rstrip().endswith(('\\', '&&', '||')) and i + 1 < len(lines):
            if cur.rstrip().endswith('\\'):
                cur = cur.rstrip()[:-1]
            i += 1
            cur += ' ' + lines[i]
        yield start + 1, cur
        i += 1

def top_level_ops(s):
    st = ['top']
    i = 0
    while i < len(s):
        c, top = s[i], st[-1]
        if top == '"':
            if c == '\\':
                i += 1
            elif c == '"':
                st.pop()
            elif s.startswith('$(', i):
                st.append('$('); i += 1
        else:
            if c == '\\':
                i += 1
            elif c == "'":
                j = s.find("'", i + 1)
                i = len(s) if j < 0 else j
            elif c == '"':
                st.append('"')
            elif s.startswith('$(', i):
                st.append('$('); i += 1
            elif c == '(':
                st.append('(')
            elif c == ')' and len(st) > 1:
                st.pop()
            elif c == '#' and top == 'top' and (i == 0 or s[i - 1] in ' \t'):
                break
            elif top == 'top' and s[i:i + 2] in ('&&', '||'):
                return True
        i += 1
    return False

bad = 0
for f in sys.argv[1:]:
    for no, line in logical_lines(open(f).read()):
        if line.lstrip().startswith('check ') and top_level_ops(line):
            print('%s:%d: %s' % (f, no, line.strip()[:150]))
            bad += 1
sys.exit(1 if bad else 0)
