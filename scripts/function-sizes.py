#!/usr/bin/env python3
"""The longest functions of C++ sources, for issue 22's size budget (no
function in plugin/ over 100 lines): a brace matcher over definitions. A
definition starts where a '{' follows a ')' that is no control statement's or
lambda's; its length is the lines to its matching brace, lambdas and local
classes inside counted with it.

  scripts/function-sizes.py plugin            # the 15 longest
  N=40 scripts/function-sizes.py plugin/checks
"""
import re, sys, os
CTRL = re.compile(r'^\s*(if|for|while|switch|else|do|catch|try|return)\b|[=(,]\s*\[[^\]]*\]\s*\(|\]\s*\(.*\)\s*(mutable\s*)?(->.*)?\{\s*$')
def strip(line):
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split('//')[0]
def funcs(path):
    lines = open(path, errors='replace').read().split('\n')
    out = []
    depth_stack = []  # (start line, name, depth at open)
    depth = 0
    in_comment = False
    header = ''
    for i, raw in enumerate(lines):
        l = raw
        if in_comment:
            if '*/' in l: l = l.split('*/',1)[1]; in_comment=False
            else: continue
        while '/*' in l:
            a, b = l.split('/*',1)
            if '*/' in b: l = a + b.split('*/',1)[1]
            else: l = a; in_comment = True; break
        s = strip(l)
        if s.strip().startswith('#'):
            continue
        for ch_i, ch in enumerate(s):
            if ch == '{':
                pre = (header + ' ' + s[:ch_i]).strip()
                m = re.search(r'([~\w:<>]+)\s*\([^;{}]*\)\s*(const)?\s*(override|final|noexcept)?\s*(->\s*[\w:<>*& ]+)?\s*(:[^{;]*)?$', pre)
                isfunc = bool(m) and not CTRL.search(pre.split(';')[-1] + '{') and not re.search(r'\b(if|for|while|switch|catch)\s*\(', pre.split(';')[-1].split('}')[-1])
                depth_stack.append((i, m.group(1) if isfunc else None, isfunc))
                depth += 1
                header = ''
            elif ch == '}':
                depth -= 1
                if depth_stack:
                    st, name, isf = depth_stack.pop()
                    if isf and not any(x[2] for x in depth_stack):
                        out.append((i - st + 1, name, path, st + 1))
                header = ''
            elif ch == ';':
                header = ''
        tail = s
        if '{' in s or '}' in s or ';' in s:
            tail = re.split(r'[{};]', s)[-1]
            header = tail
        else:
            header = (header + ' ' + s)[-400:]
    return out
allf = []
for root in sys.argv[1:]:
    for dp, dn, fn in os.walk(root):
        for f in fn:
            if f.endswith(('.cpp', '.h')):
                allf += funcs(os.path.join(dp, f))
allf.sort(reverse=True)
n = int(os.environ.get('N', '15'))
for L, name, p, st in allf[:n]:
    print(f"{L:5d}  {p}:{st}  {name}")
