#!/usr/bin/env python3
"""Fails when a test suite defines something with external linkage besides its test class.

The suites of one kind are linked into one executable (tools/Suite.h). Two suites that each define
a helper of the same name outside an anonymous namespace would break the one-definition rule, and
for classes and inline functions the linker would keep one of the two without a word. So a suite
keeps its helpers in an anonymous namespace: this reads each suite's source and refuses a class,
struct, union, enum or function defined at global or named-namespace scope, other than the one
QObject test class. (Two test classes of the same name cannot pass unseen: their moc code clashes
at link time.)

usage: check_suite_linkage.py STAMP SOURCE...   (touches STAMP when every source passes)
"""
import pathlib
import re
import sys

TOKEN = re.compile(r"""
    (?P<skip>//[^\n]*|/\*.*?\*/|R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'
             |^[ \t]*\#(?:\\\n|[^\n])*)
  | (?P<word>[A-Za-z_]\w*)
  | (?P<punct>[{}();=,<>:])
  | (?P<other>\S)
""", re.S | re.M | re.X)


def problems_in(path):
    text = path.read_text(encoding="utf-8")
    problems = []
    scopes = []  # "anonymous", "namespace", "type" or "block"
    recent = []  # the tokens since the last ; { or } at this level
    line = 1
    last_end = 0
    for match in TOKEN.finditer(text):
        line += text.count("\n", last_end, match.start())
        last_end = match.start()
        if match.group("skip"):
            continue
        token = match.group(0)
        exposed = all(scope == "namespace" for scope in scopes)
        if token == "{":
            words = [t for t in recent if re.match(r"\w", t)]
            if recent[:1] == ["namespace"]:
                scopes.append("namespace" if len(words) > 1 else "anonymous")
            elif any(t in ("class", "struct", "union", "enum") for t in recent[:3]) and "=" not in recent \
                    and "(" not in recent:
                kind_at = next(i for i, t in enumerate(recent) if t in ("class", "struct", "union", "enum"))
                name = next((t for t in recent[kind_at + 1:] if re.match(r"\w", t)
                             and t not in ("class", "final")), "")
                is_test_class = "QObject" in recent and name.startswith("Test")
                if exposed and not is_test_class:
                    problems.append(f"{path}:{line}: {recent[kind_at]} {name} has external linkage")
                scopes.append("type")
            else:
                ends_like_function = recent and recent[-1] in (")", "const", "noexcept", "override")
                if exposed and ends_like_function and "=" not in recent and "static" not in recent:
                    name = next((recent[i - 1] for i, t in enumerate(recent) if t == "(" and i > 0), "")
                    problems.append(f"{path}:{line}: function {name} has external linkage")
                scopes.append("block")
            recent = []
        elif token == "}":
            if scopes:
                scopes.pop()
            recent = []
        elif token == ";":
            recent = []
        else:
            recent.append(token)
    return problems


def main():
    stamp, sources = pathlib.Path(sys.argv[1]), [pathlib.Path(p) for p in sys.argv[2:]]
    problems = [problem for source in sources for problem in problems_in(source)]
    for problem in problems:
        print(f"{problem}; suites linked together keep their helpers in an anonymous namespace",
              file=sys.stderr)
    if problems:
        return 1
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.touch()
    return 0


if __name__ == "__main__":
    sys.exit(main())
