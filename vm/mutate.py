#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the mutants of the code under test, by rule (make mutate).

    vm/mutate.py SRC OUT

SRC holds the files of vm/mutate.targets (or of the file MUTATE_TARGETS
names) at their paths in the tree, the fix applied (vm/mutate.sh makes
it). Each mutant is written to
OUT/NAME.patch in the vm/mutants format: "# base: fix", what it changes,
"---", and a git diff against SRC. NAME is gen-FILE-FUNCTION-RULE-N: the
same code gives the same names, so a run can resume. The rules
(docs/mutation.md): delete a statement; a condition made true, made false
or negated; one operand of && or || dropped; a relation negated; == and
!= swapped; an assignment made to only set or only clear; a statement
moved above the test before it, or below the test after it. An assignment
of a constant is not made conditional: "if (C) x = C;" is the statement
itself or no statement, the original or the delete mutant. Its number is
still taken, so that the other names stay.
"""

import difflib
import os
import re
import sys

DECL = re.compile(r'^(const\s+)?(struct|enum|unsigned|signed|int|long|char|bool|'
                  r'u8|u16|u32|u64|s32|netdev_tx_t|__be16|__u32)\b')
COND = re.compile(r'^(\}\s*else\s+)?(if|while)\s*\((.*)\)\s*(\{)?$')
ASSIGN = re.compile(r'^([\w\->\.\[\]\(\)\*]+)\s*=\s*([^=].*);$')
CONSTANT = re.compile(r'^(-?\d+|[A-Z][A-Z0-9_]*|true|false)$')
REL = {'<=': '>', '>=': '<', '<': '>=', '>': '<='}
EQ = {'==': '!=', '!=': '=='}


def parse_targets(path):
    """(file, function, texts) triples; texts ("a|b") pick the statements
    to mutate (vm/mutate.targets), None the whole function."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].split()
            if line:
                out.append((line[0], line[1], line[2] if len(line) > 2 else None))
    return out


def function_span(lines, name):
    """First and last line index of the body of function NAME: from its
    definition's opening brace in column 0 to the closing one."""
    pat = re.compile(r'(^|[\s\*])' + re.escape(name) + r'\(')
    for i, l in enumerate(lines):
        if l[:1].isspace() or l.startswith(('#', '/', '*', '}')) or not pat.search(l):
            continue
        j = i
        while j < len(lines) and not lines[j].startswith('{'):
            if lines[j].rstrip().endswith(';'):
                break
            j += 1
        if j < len(lines) and lines[j].startswith('{'):
            k = j + 1
            while not lines[k].startswith('}'):
                k += 1
            return j + 1, k - 1
    raise SystemExit('mutate.py: no function %s' % name)


def depth(text):
    d = 0
    for c in text:
        d += (c == '(') - (c == ')')
    return d


def statements(lines, first, last):
    """Logical statements: (start, end, text, indent), text joined."""
    out, i = [], first
    while i <= last:
        raw = lines[i]
        s = raw.strip()
        if not s or s.startswith(('/*', '*', '//', '#')) or s in ('{', '}', '};'):
            i += 1
            continue
        j, text = i, s
        while depth(text) > 0 and j < last:
            j += 1
            text += ' ' + lines[j].strip()
        indent = raw[:len(raw) - len(raw.lstrip())]
        out.append((i, j, text, indent))
        i = j + 1
    return out


def split_top(cond, op):
    """Split COND at top-level OP (&& or ||)."""
    parts, d, cur, i = [], 0, '', 0
    while i < len(cond):
        c = cond[i]
        d += (c == '(') - (c == ')')
        if d == 0 and cond.startswith(op, i):
            parts.append(cur.strip())
            cur, i = '', i + len(op)
            continue
        cur += c
        i += 1
    parts.append(cur.strip())
    return parts if len(parts) > 1 else []


def relations(cond):
    """(position, operator) of each relation in COND written with spaces
    around it, as kernel style writes them."""
    out = []
    for m in re.finditer(r' (==|!=|<=|>=|<|>) ', cond):
        out.append((m.start(1), m.group(1)))
    return out


def body_end(stmts, k):
    """Index in STMTS of the last statement of the test at STMTS[k]."""
    start, end, text, indent = stmts[k]
    if text.endswith('{'):
        for m in range(k + 1, len(stmts)):
            if len(stmts[m][3]) <= len(indent):
                return m - 1
        return len(stmts) - 1
    return k + 1 if k + 1 < len(stmts) else k


def region(stmts, must):
    """The statements of a function to mutate: all, or each one holding
    one of the texts MUST names ("a|b"), with its body if it is a test."""
    if must is None:
        return list(range(len(stmts)))
    out = []
    for k, (_, _, text, _) in enumerate(stmts):
        if any(t in text for t in must.split('|')):
            last = body_end(stmts, k) if COND.match(text) else k
            out.extend(m for m in range(k, last + 1) if m not in out)
    if not out:
        raise SystemExit('mutate.py: no statement holding %s' % must)
    return out


RET = re.compile(r'^return (.*(&&|\|\||==|!=| < | > |<=|>=|!).*);$')


def cond_mutants(text):
    m = COND.match(text)
    r = RET.match(text)
    if m:
        head, kw, cond, brace = m.group(1) or '', m.group(2), m.group(3), m.group(4) or ''
        tail = ' ' + brace if brace else ''

        def make(c):
            return '%s%s (%s)%s' % (head, kw, c, tail)
    elif r:
        # A boolean result is a condition too.
        cond = r.group(1)

        def make(c):
            return 'return %s;' % c
    else:
        return []

    out = [('cond-true', make('1')), ('cond-false', make('0')),
           ('cond-negate', make('!(%s)' % cond))]
    for op, rule in (('&&', 'drop-and'), ('||', 'drop-or')):
        parts = split_top(cond, op)
        for i in range(len(parts)):
            rest = (' %s ' % op).join(p for j, p in enumerate(parts) if j != i)
            out.append((rule, make(rest)))
    for pos, op in relations(cond):
        new = (EQ if op in EQ else REL)[op]
        rule = 'swap-eq' if op in EQ else 'negate-rel'
        out.append((rule, make(cond[:pos] + new + cond[pos + len(op):])))
    return out


def simple(text):
    return (text.endswith(';') and not DECL.match(text) and not COND.match(text)
            and not text.startswith(('return', 'goto', 'break', 'continue', 'case', 'default')))


def stmt_mutants(text):
    out = []
    if text.endswith(';') and not DECL.match(text):
        out.append(('delete', ';'))
    m = ASSIGN.match(text)
    if m and not DECL.match(text):
        lhs, rhs = m.group(1), m.group(2).strip()
        same = CONSTANT.match(rhs)
        out.append(('set-only', None if same else 'if (%s) %s = %s;' % (rhs, lhs, rhs)))
        out.append(('clear-only', None if same else 'if (!(%s)) %s = %s;' % (rhs, lhs, rhs)))
    return out


def replaced(lines, start, end, indent, text):
    return lines[:start] + [indent + text + '\n'] + lines[end + 1:]


def moves(lines, stmts, k):
    """A statement moved above the test before it, or below the test
    after it (and its body), at the same indentation."""
    start, end, text, indent = stmts[k]
    out = []
    if not simple(text):
        return out
    block = lines[start:end + 1]
    for m in range(k - 1, -1, -1):
        if len(stmts[m][3]) < len(indent):
            break
        if stmts[m][3] == indent and COND.match(stmts[m][2]):
            if body_end(stmts, m) < k:
                s = stmts[m][0]
                out.append(('move-above', lines[:s] + block + lines[s:start] + lines[end + 1:]))
            break
    if k + 1 < len(stmts) and stmts[k + 1][3] == indent and COND.match(stmts[k + 1][2]):
        last = stmts[body_end(stmts, k + 1)][1]
        while stmts[body_end(stmts, k + 1)][2].endswith('{') and lines[last + 1].strip() != '}':
            last += 1
        if lines[last + 1].strip() == '}' and stmts[k + 1][2].endswith('{'):
            last += 1
        out.append(('move-below', lines[:start] + lines[end + 1:last + 1] + block + lines[last + 1:]))
    return out


def mutants_of(path, lines, func, must):
    first, last = function_span(lines, func)
    stmts = statements(lines, first, last)
    for k in region(stmts, must):
        start, end, text, indent = stmts[k]
        where = '%s:%d' % (path, start + 1)
        for rule, new in cond_mutants(text) + stmt_mutants(text):
            yield rule, where, text, new and replaced(lines, start, end, indent, new)
        for rule, new_lines in moves(lines, stmts, k):
            yield rule, where, text, new_lines


def write_mutant(out, name, path, rule, where, text, old, new):
    diff = list(difflib.unified_diff(old, new, 'a/' + path, 'b/' + path, n=3))
    if not diff:
        return False
    with open(os.path.join(out, name + '.patch'), 'w') as f:
        f.write('# base: fix\n')
        f.write('%s: rule %s at %s (generated by vm/mutate.py)\n\n' % (name, rule, where))
        f.write('The statement: %s\n---\n' % text)
        f.write('diff --git a/%s b/%s\n' % (path, path))
        f.writelines(diff)
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split('\n\n')[1])
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    targets = os.environ.get('MUTATE_TARGETS') or os.path.join(here, 'mutate.targets')
    count, seen = 0, {}
    for path, func, must in parse_targets(targets):
        with open(os.path.join(src, path)) as f:
            lines = f.readlines()
        stem = os.path.basename(path).split('.')[0]
        for rule, where, text, new in mutants_of(path, lines, func, must):
            key = (func, rule)
            seen[key] = seen.get(key, 0) + 1
            name = 'gen-%s-%s-%s-%d' % (stem, func.strip('_'), rule, seen[key])
            count += bool(new) and write_mutant(out, name, path, rule, where, text, lines, new)
    print('mutate.py: %d mutants in %s' % (count, out))


if __name__ == '__main__':
    main()
