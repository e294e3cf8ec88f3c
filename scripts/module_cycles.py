#!/usr/bin/env python3
"""Module-cycle check (issue 14): no module of any crate may import another
module that imports it back, directly or through others; a module and its
own parent or children are excepted.

For every crate under crates/*/ it follows `mod` declarations from each
crate root (src/lib.rs, src/main.rs, src/bin/*.rs), reads the `use crate::…`,
`super::…`, `self::…` paths (in `use` trees and in expressions) of every
module, and resolves each to the deepest module it names. A dependency of
module S on module D (neither inside the other) is counted, at their lowest
common ancestor P, as an edge between the two children of P that hold S and
D. The children of every module must form an acyclic graph; a cycle is
printed with one `file:line` per edge and the check exits with 1.

Usage: scripts/module_cycles.py [ROOT]   (ROOT: the repository, default .)
       scripts/module_cycles.py --self-test   (checks the check on fake trees)
Modules under `#[cfg(test)]` are skipped (tests may use any module).
Only python3's standard library is used.
"""

import os
import re
import sys
import tempfile


def strip(src):
    """Source with comments and string/char literal contents blanked (newlines kept)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', src[i:i + 300]) and not (
            i and (src[i - 1].isalnum() or src[i - 1] == "_")
        ):
            hashes = re.match(r'r(#*)"', src[i:]).group(1)
            end = src.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append('""' + re.sub(r"[^\n]", " ", src[i + 2:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append('"' + re.sub(r"[^\n]", " ", src[i + 1:j]) + '"')
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:i + 12])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def use_paths(tree):
    """Flat paths (lists of segments) of a `use` tree such as `a::{b, c::d as e}`."""
    tree = re.sub(r"\s+", "", tree)
    out = []

    def parse(s, prefix):
        parts = split_top(s, ",")
        for p in parts:
            if not p:
                continue
            if "{" in p:
                head, body = p.split("{", 1)
                body = body[: body.rfind("}")]
                segs = [x for x in head.split("::") if x]
                parse(body, prefix + segs)
            else:
                p = re.sub(r"as\w+$", "", p) if re.search(r"\bas\b", p) else p
                segs = [x for x in p.split("::") if x and x != "*"]
                if segs and segs[-1] == "self":
                    segs = segs[:-1]
                out.append(prefix + segs)

    parse(tree, [])
    return out


def split_top(s, sep):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


TOKEN = re.compile(
    r"(?P<mod>\bmod\s+(?:r#)?(?P<mname>\w+)\s*(?P<mend>[;{]))"
    r"|(?P<use>\buse\s+(?P<utree>[^;]*);)"
    r"|(?P<path>(?<![\$\w])(?:crate|super|self)(?:\s*::\s*\w+)+)"
    r"|(?P<open>\{)|(?P<close>\})"
)


# `#[cfg(test)]` (and other attributes) right before a `mod` declaration.
TEST_ONLY = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?\Z")


class Crate:
    def __init__(self, name):
        self.name = name
        self.modules = set()  # tuples of segments; () is the root
        self.refs = []  # (src module, raw path segments, file, line)


def load(crate, path, modpath, moddir):
    """Reads module `modpath` from `path`; child files are looked up in `moddir`."""
    try:
        with open(path, encoding="utf-8") as f:
            text = strip(f.read())
    except OSError:
        return
    crate.modules.add(modpath)
    # (module, dir for its children, brace depth it closes at, test-only)
    stack = [(modpath, moddir, None, False)]
    depth = 0
    for m in TOKEN.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        cur, cur_dir, _, test_only = stack[-1]
        if test_only and not (m.group("open") or m.group("close")):
            continue
        if m.group("mod"):
            name = m.group("mname")
            if TEST_ONLY.search(text, 0, m.start()):
                # a test-only module: its imports are not the crate's structure
                if m.group("mend") == "{":
                    depth += 1
                    stack.append((cur + (name,), os.path.join(cur_dir, name), depth, True))
                continue
            child = cur + (name,)
            if m.group("mend") == ";":
                for cand in (
                    os.path.join(cur_dir, name + ".rs"),
                    os.path.join(cur_dir, name, "mod.rs"),
                ):
                    if os.path.exists(cand):
                        load(crate, cand, child, os.path.join(cur_dir, name))
                        break
            else:
                depth += 1
                crate.modules.add(child)
                stack.append((child, os.path.join(cur_dir, name), depth, False))
        elif m.group("use"):
            for segs in use_paths(m.group("utree")):
                crate.refs.append((cur, segs, path, line))
        elif m.group("path"):
            segs = re.sub(r"\s+", "", m.group("path")).split("::")
            crate.refs.append((cur, segs, path, line))
        elif m.group("open"):
            depth += 1
        elif m.group("close"):
            if stack[-1][2] == depth:
                stack.pop()
            depth -= 1


def resolve(crate, src, segs):
    """The deepest module of `crate` named by path `segs` used in module `src`, or None."""
    if not segs:
        return None
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    elif segs[0] in ("super", "self"):
        base, rest = src, segs
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    elif src + (segs[0],) in crate.modules:
        base, rest = src, segs
    else:
        return None  # another crate
    target = base
    for s in rest:
        if target + (s,) in crate.modules:
            target = target + (s,)
        else:
            break
    return target


def cycles(crate):
    """Cycles among siblings: a list of lists of (from, to, file, line)."""
    graphs = {}  # parent -> {child: {child: (file, line)}}
    for src, segs, path, line in crate.refs:
        dst = resolve(crate, src, segs)
        if dst is None:
            continue
        k = 0
        while k < min(len(src), len(dst)) and src[k] == dst[k]:
            k += 1
        if k == len(src) or k == len(dst):
            continue  # the same module, an ancestor or a descendant
        parent = src[:k]
        edges = graphs.setdefault(parent, {}).setdefault(src[k], {})
        edges.setdefault(dst[k], (src, dst, path, line))
    found = []
    for parent, g in sorted(graphs.items()):
        for comp in scc(g):
            if len(comp) < 2:
                continue
            found.append(witness(parent, g, comp))
    return found


def scc(g):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    nodes = set(g) | {d for e in g.values() for d in e}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def witness(parent, g, comp):
    """One cycle through the component, as its edges."""
    comp = set(comp)
    start = min(comp)
    # breadth-first from start back to start inside the component
    prev = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(g.get(v, {})):
                if w not in comp:
                    continue
                if w == start:
                    path = [(v, w)]
                    while v != start:
                        path.append((prev[v], v))
                        v = prev[v]
                    path.reverse()
                    return [g[a][b] for a, b in path]
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return []


def name(crate, mod):
    return crate.name + "::" + "::".join(mod) if mod else crate.name


def check(root):
    crates_dir = os.path.join(root, "crates")
    failures = 0
    for cname in sorted(os.listdir(crates_dir)):
        src = os.path.join(crates_dir, cname, "src")
        if not os.path.isdir(src):
            continue
        roots = [os.path.join(src, r) for r in ("lib.rs", "main.rs")]
        bindir = os.path.join(src, "bin")
        if os.path.isdir(bindir):
            roots += [os.path.join(bindir, f) for f in sorted(os.listdir(bindir))]
        for r in roots:
            if not os.path.isfile(r):
                continue
            label = cname if r.endswith("lib.rs") else cname + " (" + os.path.relpath(r, src) + ")"
            crate = Crate(label)
            load(crate, r, (), src)
            for cyc in cycles(crate):
                failures += 1
                print(f"module cycle in {label}:", file=sys.stderr)
                for s, d, path, line in cyc:
                    rel = os.path.relpath(path, root)
                    print(f"  {name(crate, s)} -> {name(crate, d)}  ({rel}:{line})", file=sys.stderr)
    return failures


FAKE = {
    "cycle": {
        "lib.rs": "mod a;\nmod b;\n",
        "a.rs": "//! a\nuse crate::b::B;\npub struct A;\n",
        "b/mod.rs": "mod inner;\npub struct B;\n",
        "b/inner.rs": "fn f() { let _ = super::super::a::A; }\n",
    },
    "three": {
        "lib.rs": "mod a; mod b; mod c;\n",
        "a.rs": "use crate::{b::B, x};\n",
        "b.rs": "use crate::c::{self, C as D};\n",
        "c.rs": "pub fn f() -> crate::a::A { todo!() }\n",
    },
    "child_cycle": {
        "lib.rs": "mod a;\nmod b;\npub use a::A;\n",
        "a/mod.rs": "mod child;\nuse crate::b::B;\nuse child::C;\n// use crate::b::x; in a comment\n",
        "a/child.rs": "use super::A; // parent excepted\nconst S: &str = \"crate::b::B\";\n",
        "b.rs": "use crate::a::child::C; // names a's child; a names b: and a names b: a cycle\n",
    },
    "clean_tree": {
        "lib.rs": "mod a;\nmod b;\n",
        "a.rs": "use crate::b::B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        "b.rs": "pub struct B; fn f() { let _ = self::B; }\n",
    },
    "test_only": {
        "lib.rs": "mod a;\nmod b;\n",
        "a.rs": "use crate::b::B;\n",
        "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n"
        "#[cfg(test)]\nmod more;\nfn f() { let _ = crate::a::g; }\n",
        "b/more.rs": "use crate::a::A;\n",
    },
}


def self_test():
    expect = {"cycle": 1, "three": 1, "child_cycle": 1, "clean_tree": 0, "test_only": 1}
    ok = True
    for tree, files in FAKE.items():
        with tempfile.TemporaryDirectory() as d:
            for rel, text in files.items():
                p = os.path.join(d, "crates", "fake", "src", rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w", encoding="utf-8") as f:
                    f.write(text)
            devnull = open(os.devnull, "w")
            saved, sys.stderr = sys.stderr, devnull
            try:
                got = check(d)
            finally:
                sys.stderr = saved
                devnull.close()
        if got != expect[tree]:
            print(f"self-test {tree}: {got} cycles found, expected {expect[tree]}", file=sys.stderr)
            ok = False
    print("module_cycles self-test: " + ("ok" if ok else "FAILED"))
    return ok


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(0 if self_test() else 1)
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    n = check(root)
    if n:
        print(f"{n} module cycle(s) found", file=sys.stderr)
        sys.exit(1)
    print("module_cycles: no module cycle")


if __name__ == "__main__":
    main()
