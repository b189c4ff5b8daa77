#!/usr/bin/env python3
"""Holds the Simplified Chinese catalogue (translations/cudnn-setup_zh_CN.ts) to the glossary
(translations/GLOSSARY.md).

A message fails when
  - its translation is unfinished (type="unfinished") or empty (any numerus form empty);
  - a finished translation contains a rejected variant from the glossary's "Rejected variants"
    table, outside the longer fixed strings that row allows it in (case-sensitive substrings);
  - a Han character sits directly beside a half-width , ; : ! ? ( or ) -- except in a Qt
    accelerator written the zh_CN way, such as 浏览(&B), and in Qt's file-dialog filter
    separator ;; (所有文件 (*)). (Full-width punctuation is not counted:
    code such as os.add_dll_directory() may end a clause before 。);
  - its source or translation gives a version with a placeholder for its last part, such as
    580.xx or %1.xx: a student cannot compare that with the version installed (give one in
    full, 580.65 or 580.00).

usage: check_glossary.py [--ts FILE] [--glossary FILE]
           prints context, source, translation and problem for every failing message;
           exit 1 if there is any, 0 otherwise
       check_glossary.py --self-test
           writes a small catalogue and glossary with one violation of each kind (and traps for
           false alarms) into a temporary folder and fails unless each violation, and nothing
           else, is found
"""
import argparse
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_TS = os.path.join(ROOT, 'translations', 'cudnn-setup_zh_CN.ts')
DEFAULT_GLOSSARY = os.path.join(ROOT, 'translations', 'GLOSSARY.md')

TABLE_HEADING = '## Rejected variants'

# Han ideographs (CJK Unified Ideographs, Extension A, Compatibility Ideographs).
CJK = re.compile('[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]')
HALF_WIDTH = ',;:!?()'
# Qt's zh_CN convention for a mnemonic: 浏览(&B)…, 语言(&L)：
ACCELERATOR = re.compile(r'\(&[^\s)]\)')
# Qt's separator between file-dialog filters: JSON 文件 (*.json);;所有文件 (*)
FILTER_SEPARATOR = ';;'
# A version whose last part is a placeholder: 580.xx, %1.xx, 12.4.XX.
PLACEHOLDER_VERSION = re.compile(r'(?<![0-9A-Za-z_.%])(?:\d+|%\d)(?:\.\d+)*\.(?:xx|XX)(?![0-9A-Za-z_])')


class GlossaryError(Exception):
    pass


def _cell(text):
    text = text.strip()
    if len(text) >= 2 and text.startswith('`') and text.endswith('`'):
        text = text[1:-1]
    return text


def parse_glossary(path):
    """Returns [(rejected, use_instead, [allowed-in strings])] from the Rejected variants table."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == TABLE_HEADING)
    except StopIteration:
        raise GlossaryError('%s has no "%s" section' % (path, TABLE_HEADING))
    rows = []
    in_table = False
    for number, line in enumerate(lines[start + 1:], start + 2):
        stripped = line.strip()
        if not stripped.startswith('|'):
            if in_table:
                break
            if stripped.startswith('#'):
                break
            continue
        in_table = True
        cells = stripped.strip('|').split('|')
        if len(cells) != 3:
            raise GlossaryError('%s:%d: a row needs 3 cells: %s' % (path, number, line))
        rejected, instead = _cell(cells[0]), _cell(cells[1])
        allowed = cells[2].strip()
        if rejected == 'rejected' or set(rejected) <= set('-: '):
            continue  # header or separator row
        if not rejected:
            raise GlossaryError('%s:%d: empty rejected variant' % (path, number))
        allowed_in = [_cell(a) for a in allowed.split(' / ')] if allowed else []
        for fixed in allowed_in:
            if rejected not in fixed:
                raise GlossaryError('%s:%d: allowed-in "%s" does not contain "%s"'
                                    % (path, number, fixed, rejected))
        rows.append((rejected, instead, allowed_in))
    if not rows:
        raise GlossaryError('%s: the "%s" table is empty' % (path, TABLE_HEADING))
    return rows


def messages(path):
    """Yields (context, source, translation element) for every message of a .ts file."""
    root = ET.parse(path).getroot()
    for context in root.iter('context'):
        name = context.findtext('name') or ''
        for message in context.iter('message'):
            yield name, message.findtext('source') or '', message.find('translation')


def translation_texts(element):
    forms = element.findall('numerusform')
    if forms:
        return [f.text or '' for f in forms]
    return [element.text or '']


def placeholder_versions(text):
    return ['version with a placeholder "%s" (give it in full)' % m.group(0)
            for m in PLACEHOLDER_VERSION.finditer(text)]


def problems_in(text, rules):
    found = placeholder_versions(text)
    for rejected, instead, allowed_in in rules:
        if rejected not in text:
            continue
        rest = text
        for fixed in sorted(allowed_in, key=len, reverse=True):
            rest = rest.replace(fixed, '\0')
        if rejected in rest:
            found.append('rejected variant "%s" (use "%s")' % (rejected, instead))
    masked = ACCELERATOR.sub('\0', text).replace(FILTER_SEPARATOR, '\0')
    for i, char in enumerate(masked):
        if char not in HALF_WIDTH:
            continue
        before = masked[i - 1] if i > 0 else ''
        after = masked[i + 1] if i + 1 < len(masked) else ''
        if CJK.match(before) or CJK.match(after):
            found.append('half-width punctuation beside CJK: "%s"' % (before + char + after))
    return found


def check(ts_path, glossary_path):
    """Returns [(context, source, translation, problem)]."""
    rules = parse_glossary(glossary_path)
    failures = []
    for context, source, element in messages(ts_path):
        if element is None:
            failures.append((context, source, '', 'no <translation> element'))
            continue
        kind = element.get('type')
        if kind in ('vanished', 'obsolete'):
            continue
        for problem in placeholder_versions(source):
            failures.append((context, source, source, 'source: ' + problem))
        texts = translation_texts(element)
        shown = ' | '.join(texts)
        if kind == 'unfinished':
            failures.append((context, source, shown, 'unfinished'))
            continue
        if any(not t.strip() for t in texts):
            failures.append((context, source, shown, 'empty translation'))
            continue
        for text in texts:
            for problem in problems_in(text, rules):
                failures.append((context, source, text, problem))
    return failures


def report(failures, out=sys.stdout):
    for context, source, translation, problem in failures:
        out.write('%s\n  context:     %s\n  source:      %s\n  translation: %s\n\n'
                  % (problem, context, source.replace('\n', '\\n'), translation.replace('\n', '\\n')))
    out.write('%d problem(s)\n' % len(failures))


SELF_TEST_GLOSSARY = """# Test glossary

## Rejected variants
| rejected | use instead | allowed in |
|---|---|---|
| 您 | 你 | |
| GPU | 显卡 | GPU 编号 / NVIDIA GPU Computing Toolkit |
| `"` | “…” | `r"%1"` / `f("%1")` |

## After the table
| not | a | rule |
"""

SELF_TEST_TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>test</name>
    <message>
        <source>clean filter</source>
        <translation>cuDNN 压缩包 (cudnn*.zip);;所有文件 (*)</translation>
    </message>
    <message>
        <source>clean</source>
        <translation>请设置 GPU 编号，然后点击“浏览(&amp;B)…”；路径 C:\\Program Files\\NVIDIA GPU Computing Toolkit 与 os.add_dll_directory(r&quot;%1&quot;)（完成），再调用 f()。语言(&amp;L)：</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>按您的要求使用它。</translation>
    </message>
    <message>
        <source>rejected outside its allowed-in</source>
        <translation>GPU 编号 0 是这块 GPU。</translation>
    </message>
    <message>
        <source>ascii quote</source>
        <translation>运行 &quot;cudnnctl --help&quot; 查看帮助。</translation>
    </message>
    <message>
        <source>unfinished</source>
        <translation type="unfinished">还没译完</translation>
    </message>
    <message>
        <source>empty</source>
        <translation></translation>
    </message>
    <message>
        <source>comma</source>
        <translation>显卡,驱动</translation>
    </message>
    <message>
        <source>colon</source>
        <translation>结果: 通过</translation>
    </message>
    <message>
        <source>paren</source>
        <translation>计算能力(8.6)</translation>
    </message>
    <message>
        <source>Update the driver to %1.00 or newer (not 0x2A or file.xxx).</source>
        <translation>请把驱动更新到 %1.00 或更高版本（不是 0x2A 或 file.xxx）。</translation>
    </message>
    <message>
        <source>Update the driver to version %1.xx or newer.</source>
        <translation>请把驱动更新到 %1.00 或更高版本。</translation>
    </message>
    <message>
        <source>Update the driver to 580.65 or newer.</source>
        <translation>请把驱动更新到580.xx或更高版本。</translation>
    </message>
    <message>
        <source>vanished</source>
        <translation type="vanished">您</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>有 %n 个问题;请修复。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n empty form(s)</source>
        <translation>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
</TS>
"""

SELF_TEST_EXPECTED = [
    ('rejected', 'rejected variant "您"'),
    ('rejected outside its allowed-in', 'rejected variant "GPU"'),
    ('ascii quote', 'rejected variant """'),
    ('unfinished', 'unfinished'),
    ('empty', 'empty translation'),
    ('comma', 'half-width punctuation beside CJK: "卡,驱"'),
    ('colon', 'half-width punctuation beside CJK: "果: "'),
    ('paren', 'half-width punctuation beside CJK: "力(8"'),
    ('%n problem(s)', 'half-width punctuation beside CJK: "题;请"'),
    ('%n empty form(s)', 'empty translation'),
    ('Update the driver to version %1.xx or newer.', 'source: version with a placeholder "%1.xx"'),
    ('Update the driver to 580.65 or newer.', 'version with a placeholder "580.xx"'),
]


def self_test():
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        ts = os.path.join(folder, 'test_zh_CN.ts')
        glossary = os.path.join(folder, 'GLOSSARY.md')
        with open(ts, 'w', encoding='utf-8') as f:
            f.write(SELF_TEST_TS)
        with open(glossary, 'w', encoding='utf-8') as f:
            f.write(SELF_TEST_GLOSSARY)
        rules = parse_glossary(glossary)
        if [r[0] for r in rules] != ['您', 'GPU', '"'] or rules[2][2] != ['r"%1"', 'f("%1")']:
            print('FAIL: the glossary table parsed as %r' % (rules,))
            ok = False
        found = [(source, problem) for _, source, _, problem in check(ts, glossary)]

        def matches(got, want):
            return got[0] == want[0] and got[1].startswith(want[1])

        for expected in SELF_TEST_EXPECTED:
            if any(matches(got, expected) for got in found):
                print('found:   %s: %s' % expected)
            else:
                print('MISSED:  %s: %s' % expected)
                ok = False
        for got in found:
            if not any(matches(got, expected) for expected in SELF_TEST_EXPECTED):
                print('FALSE ALARM: %s: %s' % got)
                ok = False
        with open(glossary, 'w', encoding='utf-8') as f:
            f.write(SELF_TEST_GLOSSARY.replace('GPU 编号 /', '显卡编号 /'))
        try:
            parse_glossary(glossary)
            print('MISSED:  an allowed-in string without its rejected text')
            ok = False
        except GlossaryError as error:
            print('found:   %s' % error)
    print('self-test %s' % ('passed' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--ts', default=DEFAULT_TS, help='catalogue to check (default: %(default)s)')
    parser.add_argument('--glossary', default=DEFAULT_GLOSSARY,
                        help='glossary with the Rejected variants table (default: %(default)s)')
    parser.add_argument('--self-test', action='store_true', help='check the checker and exit')
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    try:
        failures = check(args.ts, args.glossary)
    except (GlossaryError, OSError, ET.ParseError) as error:
        print('error: %s' % error, file=sys.stderr)
        return 2
    report(failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
