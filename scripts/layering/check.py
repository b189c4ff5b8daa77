#!/usr/bin/env python3
"""Holds every #include of core/, wizard/ and app/ to the layer order written in
docs/ARCHITECTURE.md (the fenced block after the line <!-- layer order -->): a folder includes its
own headers and those of the folders listed above it, never those of a folder listed below it
(Chromium's DEPS include_rules, LLVM's library layering). A word "!folder" after a layer's name
keeps that folder out of its reach although it is listed above (wizard !core/platform). Every
folder with sources under core/ must be listed, and every folder listed must exist.

An include is resolved as the compiler resolves it: beside the including file first, then in the
include roots core/ and wizard/. One that resolves to no file of the repository (a Qt header, a
generated moc file) is not an edge.

usage: check.py [--root DIR]
           prints file:line and the edge for every include against the order;
           exit 1 if there is any, 0 otherwise
       check.py --self-test
           plants includes against the order in a copy of the tree and fails unless each is
           found, and nothing is found in the unchanged copy
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..'))
ARCHITECTURE = os.path.join('docs', 'ARCHITECTURE.md')
TOPS = ('core', 'wizard', 'app')
INCLUDE_ROOTS = ('core', 'wizard')  # the include directories the targets export
SOURCE = re.compile(r'\.(h|cpp)$')
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
MARKER = '<!-- layer order -->'


class OrderError(Exception):
    pass


def layer_order(root):
    """The layers, lowest first, from the block after the marker: the first word of each line;
    with each layer, the folders its "!folder" words keep out of its reach."""
    path = os.path.join(root, ARCHITECTURE)
    with open(path, encoding='utf-8') as handle:
        lines = handle.read().split('\n')
    if MARKER not in lines:
        raise OrderError('%s has no line %s' % (ARCHITECTURE, MARKER))
    at = lines.index(MARKER) + 1
    if at >= len(lines) or not lines[at].startswith('```'):
        raise OrderError('%s: a fenced block must follow %s' % (ARCHITECTURE, MARKER))
    layers = []
    barred = {}
    for line in lines[at + 1:]:
        if line.startswith('```'):
            break
        words = line.split()
        if not words:
            continue
        if words[0] in layers:
            raise OrderError('%s: %s is listed twice' % (ARCHITECTURE, words[0]))
        layers.append(words[0])
        barred[words[0]] = set()
        for word in words[1:]:
            if not word.startswith('!'):
                break
            if word[1:] not in layers:
                raise OrderError('%s: %s keeps out %s, which is not listed above it'
                                 % (ARCHITECTURE, words[0], word[1:]))
            barred[words[0]].add(word[1:])
    else:
        raise OrderError('%s: the block after %s is not closed' % (ARCHITECTURE, MARKER))
    return layers, barred


def layer_of(relative):
    """'core/detect/Detector.cpp' -> 'core/detect', 'app/cudnnctl/main.cpp' -> 'app'."""
    parts = relative.split('/')
    if parts[0] == 'core' and len(parts) > 2:
        return '/'.join(parts[:2])
    return parts[0]


def sources(root):
    for top in TOPS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if SOURCE.search(name):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, '/')


def resolve(root, including, target):
    """The repository-relative file an include names, or None outside the repository."""
    candidates = [os.path.join(os.path.dirname(including), target)]
    candidates += [os.path.join(top, target) for top in INCLUDE_ROOTS]
    for candidate in candidates:
        relative = os.path.normpath(candidate).replace(os.sep, '/')
        if not relative.startswith('../') and os.path.isfile(os.path.join(root, relative)):
            return relative
    return None


def violations(root):
    layers, barred = layer_order(root)
    rank = {layer: index for index, layer in enumerate(layers)}
    found = []
    seen = set()
    for relative in sources(root):
        source = layer_of(relative)
        seen.add(source)
        if source not in rank:
            found.append('%s: %s is not in the layer order of %s' % (relative, source, ARCHITECTURE))
            continue
        with open(os.path.join(root, relative), encoding='utf-8', errors='replace') as handle:
            for number, line in enumerate(handle, 1):
                match = INCLUDE.match(line)
                target = match and resolve(root, relative, match.group(1))
                if not target or layer_of(target) == source:
                    continue
                destination = layer_of(target)
                if destination not in rank:
                    found.append('%s:%d: includes %s, whose folder %s is not in the layer order of %s'
                                 % (relative, number, match.group(1), destination, ARCHITECTURE))
                elif rank[destination] > rank[source]:
                    found.append('%s:%d: %s includes %s (%s), a layer above it in %s'
                                 % (relative, number, source, destination, match.group(1), ARCHITECTURE))
                elif destination in barred[source]:
                    found.append('%s:%d: %s includes %s (%s), which %s keeps out of its reach'
                                 % (relative, number, source, destination, match.group(1), ARCHITECTURE))
    # Only a listed folder that holds no source at all is stale; sources are what define a layer.
    for layer in layers:
        if layer not in seen:
            found.append('%s: %s is listed, but holds no source file' % (ARCHITECTURE, layer))
    return found


def self_test():
    """Copies the sources and the order, then plants one include against the order at a time."""
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        def fresh():
            copy = os.path.join(folder, 'tree')
            shutil.rmtree(copy, ignore_errors=True)
            os.makedirs(os.path.join(copy, 'docs'))
            shutil.copy(os.path.join(REPO, ARCHITECTURE), os.path.join(copy, ARCHITECTURE))
            for relative in sources(REPO):
                os.makedirs(os.path.dirname(os.path.join(copy, relative)), exist_ok=True)
                shutil.copy(os.path.join(REPO, relative), os.path.join(copy, relative))
            return copy

        def plant(copy, relative, line):
            path = os.path.join(copy, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'a', encoding='utf-8') as handle:
                handle.write(line + '\n')

        copy = fresh()
        layers, barred = layer_order(copy)
        lowest, highest_core = layers[0], [layer for layer in layers if layer.startswith('core/')][-1]
        low_file = next(f for f in sources(copy) if layer_of(f) == lowest and f.endswith('.cpp'))
        high_header = next(f for f in sources(copy) if layer_of(f) == highest_core and f.endswith('.h'))
        core_file = next(f for f in sources(copy) if layer_of(f) == 'core/detect' and f.endswith('.cpp'))
        wizard_header = next(f for f in sources(copy) if layer_of(f) == 'wizard' and f.endswith('.h'))
        app_header = next(f for f in sources(copy) if layer_of(f) == 'app' and f.endswith('.h'))

        untouched = violations(copy)  # the tree's own, which layering/order reports
        plants = {
            'the lowest layer including the highest core layer':
                (low_file, '#include "%s"' % high_header[len('core/'):], '%s includes %s' % (lowest, highest_core)),
            'core including the wizard':
                (core_file, '#include "%s"' % os.path.basename(wizard_header), 'core/detect includes wizard'),
            'the wizard including app by a relative path':
                ('wizard/Planted.cpp', '#include "../%s"' % app_header, 'wizard includes app'),
            'the wizard including core/platform, which it may not':
                ('wizard/Planted.cpp', '#include "platform/SystemContext.h"', 'wizard includes core/platform'),
            'a core folder missing from the order':
                ('core/planted/Planted.cpp', '#include "common/Expected.h"', 'core/planted is not in the layer order'),
        }
        for name, (relative, line, expected) in plants.items():
            copy = fresh()
            plant(copy, relative, line)
            found = [message for message in violations(copy) if message not in untouched]
            hit = [message for message in found if expected in message and message.startswith(relative)]
            if hit and len(found) == 1:
                print('found:   %s: %s' % (name, hit[0]))
            else:
                print('MISSED:  %s (%s): %s' % (name, line, found or 'nothing found'))
                ok = False
        copy = fresh()
        shutil.rmtree(os.path.join(copy, highest_core.replace('/', os.sep)))
        stale = [message for message in violations(copy) if 'holds no source file' in message]
        print('%s:  a listed folder that is gone' % ('found' if stale else 'MISSED'))
        ok = ok and bool(stale)
    print('self-test %s' % ('passed' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--root', default=REPO, help='repository to check (default: %(default)s)')
    parser.add_argument('--self-test', action='store_true', help='check the checker and exit')
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    try:
        found = violations(args.root)
    except (OrderError, OSError) as error:
        print('error: %s' % error, file=sys.stderr)
        return 2
    for message in found:
        print(message)
    print('%d against the layer order of %s' % (len(found), ARCHITECTURE))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
