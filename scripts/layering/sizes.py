#!/usr/bin/env python3
"""Holds the sources of core/, wizard/ and app/ to the sizes CODING_GUIDELINES.md sets: no file
over 600 lines, no function over 100 (from the line of its opening brace to the line of its
closing one, the lambdas inside it included). A reader finds one responsibility in a file and one
step in a function; past these sizes that stops being true (Calamares' and Qt Installer
Framework's files stay well under them).

Functions are found on clang-formatted code by their braces, after comments, strings and
characters are blanked and only the first branch of each #if/#ifdef is kept (branches for other
systems often open a brace each): a function body is a brace opened at namespace or class scope
right after a parameter list, its qualifiers or a constructor's initializers.

usage: sizes.py [--root DIR]   prints each file and function over its limit; exit 1 if any
       sizes.py --self-test    plants an oversized function and file (and one just in limits) in a
                               copy of the tree and fails unless exactly the two are found
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..'))
TOPS = ('core', 'wizard', 'app')
FILE_LIMIT = 600
FUNCTION_LIMIT = 100
SOURCE = re.compile(r'\.(h|cpp)$')
# What may stand between a parameter list and the body: qualifiers and a trailing return type.
AFTER_PARAMETERS = re.compile(r'\)\s*((const|override|final|noexcept|mutable)\s*)*(->\s*[\w:<>,\s*&]+)?$')
CONTROL = re.compile(r'\b(if|for|while|switch|catch)\s*$')


def blank_literals(text):
    """The text with comments, string and character literals replaced by spaces (lines kept)."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            out.append(' ' * (end - i))
            i = end
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            delimiter = text[i + 2:text.find('(', i + 2)]
            end = text.find(')' + delimiter + '"', i)
            end = n if end < 0 else end + len(delimiter) + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(' ' * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def first_branches(lines):
    """The lines, with those of every #else/#elif branch blanked."""
    kept = []
    stack = []  # per open conditional: whether its current branch is skipped
    for line in lines:
        directive = line.strip()
        if re.match(r'#\s*if', directive):
            stack.append(False)
            kept.append('')
        elif re.match(r'#\s*(else|elif)', directive) and stack:
            stack[-1] = True
            kept.append('')
        elif re.match(r'#\s*endif', directive) and stack:
            stack.pop()
            kept.append('')
        elif any(stack) or directive.startswith('#'):
            kept.append('')
        else:
            kept.append(line)
    return kept


def functions(text):
    """(first line, last line, name) of each function body, lines counted from 1."""
    lines = first_branches(blank_literals(text).split('\n'))
    found = []
    stack = []  # per open brace: (kind, line, name); kind 'function' or 'scope'
    before = ''  # the code since the last ; { or } at this point
    for number, line in enumerate(lines, 1):
        for c in line:
            if c == '{':
                head = before.strip()
                inside_function = any(kind == 'function' for kind, _, _ in stack)
                is_function = (not inside_function and not CONTROL.search(head.split('(')[0] + ' ')
                               and (AFTER_PARAMETERS.search(head) or re.search(r'\)\s*:\s*.*[)}]$', head)))
                name = re.sub(r'\s+', ' ', head.split('(')[0]).split(' ')[-1] if is_function else ''
                stack.append(('function' if is_function else 'scope', number, name))
                before = ''
            elif c == '}':
                if stack:
                    kind, start, name = stack.pop()
                    if kind == 'function':
                        found.append((start, number, name))
                before = ''
            elif c == ';':
                before = ''
            else:
                before += c
        before += ' '
    return found


def oversized(root):
    problems = []
    for top in TOPS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not SOURCE.search(name):
                    continue
                path = os.path.join(folder, name)
                shown = os.path.relpath(path, root)
                with open(path, encoding='utf-8') as handle:
                    text = handle.read()
                count = text.count('\n')
                if count > FILE_LIMIT:
                    problems.append('%s: %d lines (at most %d)' % (shown, count, FILE_LIMIT))
                for start, end, function in functions(text):
                    if end - start + 1 > FUNCTION_LIMIT:
                        problems.append('%s:%d: %s is %d lines (at most %d)' %
                                        (shown, start, function, end - start + 1, FUNCTION_LIMIT))
    return sorted(problems)


def self_test():
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, 'tree')
        for top in TOPS:
            shutil.copytree(os.path.join(REPO, top), os.path.join(copy, top))
        baseline = set(oversized(copy))
        body = ''.join('    total += %d; // {\n' % i for i in range(FUNCTION_LIMIT))
        planted = {
            'core/common/PlantedLong.cpp': 'namespace x {\nint planted(int total) const\n{\n%s    return total;\n}\n}\n' % body,
            'core/common/PlantedBig.h': '#pragma once\n' + '// line\n' * FILE_LIMIT,
        }
        # Its braces, its return and the body: exactly the limit.
        fitting = ''.join('    total += %d;\n' % i for i in range(FUNCTION_LIMIT - 3))
        shorter = 'namespace x {\nint fits(int total)\n{\n%s    return total;\n}\n}\n' % fitting
        planted['core/common/PlantedFits.cpp'] = shorter
        for path, text in planted.items():
            with open(os.path.join(copy, path), 'w', encoding='utf-8') as handle:
                handle.write(text)
        found = [line for line in oversized(copy) if line not in baseline]
        expected = ['core/common/PlantedBig.h: %d lines' % (FILE_LIMIT + 1),
                    'core/common/PlantedLong.cpp:3: planted is %d lines' % (FUNCTION_LIMIT + 3)]
        missing = [want for want in expected if not any(line.startswith(want) for line in found)]
        extra = [line for line in found if 'PlantedFits' in line]
        if missing or extra or len(found) != len(expected):
            print('self-test failed: missing %s, found %s' % (missing, found))
            return 1
    print('self-test passed: the planted file and function were found, and nothing else')
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--root', default=REPO)
    parser.add_argument('--self-test', action='store_true')
    arguments = parser.parse_args()
    if arguments.self_test:
        return self_test()
    problems = oversized(arguments.root)
    for problem in problems:
        print(problem)
    if problems:
        print('%d over the limits: split by responsibility (CODING_GUIDELINES.md, "Files and names")' %
              len(problems))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
