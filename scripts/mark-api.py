#!/usr/bin/env python3
"""Put QK_API before every function declared in include/qrelkit/*.h that
lacks it (idempotent). A declaration is a top-level line, outside braces and
comments, that starts with a type and contains '(' and is not a typedef,
a macro or a static inline definition."""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
decl = re.compile(r'^(?:const\s+)?(?:unsigned\s+)?[A-Za-z_][A-Za-z0-9_]*(?:\s*\*\s*(?:const\b)?)*\s*\**\s*[A-Za-z_][A-Za-z0-9_]*\s*\(')
check = '--check' in sys.argv[1:]
changed = 0
unmarked = []
for h in sorted((root / 'include' / 'qrelkit').glob('*.h')):
    out = []
    depth = 0
    in_comment = False
    prev = ''
    for line in h.read_text().split('\n'):
        s = line
        if s.strip() == 'extern "C" {' or (s.strip() == '}' and prev.strip() == '#ifdef __cplusplus'):
            out.append(line)
            prev = s
            continue
        prev = s
        top = depth == 0 and not in_comment
        if top and s.startswith('extern const ') and s.rstrip().endswith('[];') or \
                top and s.startswith('extern const ') and '[]' in s.split(';')[0]:
            line = 'QK_API ' + line
            changed += 1
            unmarked.append(f'{h.name}: {s.strip()}')
        elif (top and decl.match(s) and not s.startswith(('typedef', 'static', 'return', 'QK_API', 'extern'))
                and not s.startswith('#')):
            line = 'QK_API ' + line
            changed += 1
            unmarked.append(f'{h.name}: {s.strip()}')
        # track comments and braces (good enough for these headers)
        t = re.sub(r'"(?:\\.|[^"\\])*"', '""', s)
        i = 0
        while i < len(t):
            if in_comment:
                j = t.find('*/', i)
                if j < 0:
                    break
                in_comment = False
                i = j + 2
                continue
            if t.startswith('/*', i):
                in_comment = True
                i += 2
                continue
            if t.startswith('//', i):
                break
            if t[i] == '{':
                depth += 1
            elif t[i] == '}':
                depth -= 1
            i += 1
        out.append(line)
    if not check:
        h.write_text('\n'.join(out))
if check:
    if unmarked:
        print('declarations without QK_API: ' + '; '.join(unmarked))
        sys.exit(1)
else:
    print(f'mark-api: {changed} declaration(s) marked', file=sys.stderr)
