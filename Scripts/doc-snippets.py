#!/usr/bin/env python3
"""Turns every ```swift snippet of README.md and Docs/*.md into compiled, run test code, and
every ```swift snippet of a `///` comment in Sources/ into compiled code.

For each document with snippets it writes Tests/DocSnippetTests/Generated/<Doc>Snippets.swift:

- types, extensions and functions a snippet declares become module-level declarations,
  renamed with the document's prefix (`Todo` in Docs/Models.md is `ModelsDoc_Todo`), so
  documents do not clash and a document's snippets share their declarations;
- the rest of a snippet becomes the body of `<Doc>Doc.snippetN(_ context:)`; a bare
  expression statement is prefixed with `_ =` (snippets show values in comments);
- names the snippet uses from the document's context (`Tests/DocSnippetTests/Context/
  <Doc>Context.swift`: `struct Context { let task: …; … }` and `withContext(_:)`) are bound
  at the top of the body;
- one Swift Testing test per snippet runs it inside `withContext`, with private store,
  template and notification settings (`privately` in Tests/DocSnippetTests/Show.swift),
  so a snippet that sets a default store changes nothing other tests see.

An HTML comment on the line before a fence adjusts one snippet:
  <!-- snippet: compile-only -->   compiled, not run (loops forever, needs a server…)
  <!-- snippet: skip REASON -->     not compiled (a Package.swift fragment, another package)

Snippets in `///` comments (Sources/<Target>/…) are compiled, never run (they open files,
servers and databases): one file per target, Generated/Source<Target>DocSnippets.swift.
The free names they use come from Context/Source<Target>Context.swift (`struct Context`;
a field declared `var` is bound with `var`), and the models they name (`Todo`, `User`…)
from Context/SourceDocModels.swift (`SourceDoc_Todo`…); types a source file's snippets
declare themselves are prefixed with the target and file name. The same markers apply,
written in the comment: `/// <!-- snippet: skip REASON -->`.

Usage: Scripts/doc-snippets.py          regenerate
       Scripts/doc-snippets.py --check  fail when the generated files are stale (CI)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "DocSnippetTests", "Generated")
CONTEXT = os.path.join(ROOT, "Tests", "DocSnippetTests", "Context")
DECL = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|final|indirect)\s+)*(class|struct|enum|extension|protocol|actor|typealias|func)\s+(\w+)")
NO_DISCARD = re.compile(r"^(let|var|if|guard|for|while|repeat|do|switch|return|throw|defer|break|continue|case|default|import|#expect|_\s*=|\}|\)|\])\b|^(\}|\)|\]|//|#)")
ASSIGN = re.compile(r"^[\w.\[\]\"?!()\\:]+\s*(=|\+=|-=|\*=|/=)\s")


class Snippet:
    def __init__(self, doc, number, line, body, mode):
        self.doc, self.number, self.line, self.body, self.mode = doc, number, line, body, mode


def snippets(path, comment=False):
    lines = open(path, encoding="utf-8").read().split("\n")
    if comment:
        # Only `///` lines, with the marker removed; other lines become blank so that
        # fences never span code.
        lines = [re.sub(r"^\s*/// ?", "", l) if re.match(r"^\s*///", l) else "\u0000" for l in lines]
    found, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)```swift\s*$", lines[i])
        if m:
            indent, start, body = m.group(1), i + 1, []
            j = i + 1
            while j < len(lines) and lines[j] != "\u0000" and not re.match(r"^\s*```\s*$", lines[j]):
                body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
                j += 1
            mode = "run"
            k = i - 1
            while k >= 0 and lines[k].strip() == "":
                k -= 1
            marker = re.match(r"^\s*<!--\s*snippet:\s*(compile-only|skip)\b(.*?)-->\s*$", lines[k]) if k >= 0 else None
            if marker:
                mode = marker.group(1)
            found.append(Snippet(path, len(found) + 1, start, body, mode))
            i = j
        i += 1
    return found


def depth_delta(line):
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', line.split("//")[0] if '"' not in line else strip_comment(line))
    return sum(code.count(c) for c in "({[") - sum(code.count(c) for c in ")}]")


def strip_comment(line):
    out, quoted, k = "", False, 0
    while k < len(line):
        c = line[k]
        if c == "\\" and quoted:
            out += line[k:k + 2]
            k += 2
            continue
        if c == '"':
            quoted = not quoted
        if not quoted and line.startswith("//", k):
            break
        out += c
        k += 1
    return out


def split(body):
    """(imports, declarations, statements) at depth 0; each declaration keeps its lines."""
    imports, decls, stmts = [], [], []
    k, depth = 0, 0
    while k < len(body):
        line = body[k]
        stripped = line.strip()
        if depth == 0 and stripped.startswith("import "):
            imports.append(stripped.split("//")[0].strip())
            k += 1
            continue
        head = k
        while depth == 0 and head < len(body) and re.match(r"^@\w+(\(.*\))?$", body[head].strip()):
            head += 1
        if depth == 0 and head < len(body) and DECL.match(body[head].strip()):
            item, d = [], 0
            for n in range(k, len(body)):
                item.append(body[n])
                d += depth_delta(body[n])
                if n >= head and d <= 0 and ("{" in "".join(body[head:n + 1]) or body[n].strip().startswith("typealias")):
                    k = n + 1
                    break
            else:
                k = len(body)
            decls.append(item)
            continue
        stmts.append(line)
        depth += depth_delta(line)
        k += 1
    return imports, decls, stmts


def discard(stmts):
    """Wraps each depth-0 expression statement in `show(…)` (a no-op taking any values), so
    snippets that display values compile without unused-value warnings."""
    out, depth, continuing, open_at = [], 0, False, None
    for original in stmts:
        line, stripped = original, original.strip()
        starts = depth == 0 and not continuing and stripped and not stripped.startswith(".")
        if starts and not NO_DISCARD.match(stripped) and not ASSIGN.match(stripped):
            indent = line[: len(line) - len(line.lstrip())]
            m = re.match(r"^(try[?!]?\s+|await\s+|try\s+await\s+)?(.*)$", stripped)
            line = indent + (m.group(1) or "") + "show(" + m.group(2)
            open_at = len(out)
        out.append(line)
        code = strip_comment(original).rstrip()
        depth += depth_delta(original)
        continuing = depth > 0 or code.endswith((".", ",", "&&", "||", "=", "+", "-", "("))
        if open_at is not None and not continuing:
            last = out[-1]
            body = strip_comment(last).rstrip()
            out[-1] = body + ")" + last[len(body):]
            open_at = None
    return out


def bound_names(stmts):
    """Names declared with let/var at depth 0 (tuple patterns included)."""
    names, depth = [], 0
    for line in stmts:
        if depth == 0:
            m = re.match(r"^\s*(?:let|var)\s+(\(([^)]*)\)|\w+)", line)
            if m:
                names += re.findall(r"\w+", m.group(2)) if m.group(2) is not None else [m.group(1)]
        depth += depth_delta(line)
    return [n for n in names if n != "_"]


def snippet_function(stmts, title, name, parameter, fields, var_fields, renamed):
    """`static func <name>(_ <parameter>: Context) [async] throws` running one snippet's
    statements: the context fields it uses are bound first (found in code only: comments,
    string contents and argument labels such as `to:` bind nothing), the names it declares
    are shown at the end. Returns the lines and whether it is async."""
    text = "\n".join(re.sub(r'"(?:\\.|[^"\\])*"', interpolations, strip_comment(line)) for line in stmts)
    is_async = re.search(r"\bawait\b", text) is not None
    locally = set(re.findall(r"\b(?:let|var)\s+(?:\(\s*)?(\w+)", text)) | set(re.findall(r"\bfor\s+(\w+)\s+in\b", text))
    bind = [f for f in fields if f not in locally and re.search(r"(?<![\w.])" + f + r"\b(?!\s*:(?!:))", text)]
    body = [renamed(line) for line in discard(stmts)]
    names = bound_names(stmts)
    if names:
        body.append(renamed("show(" + ", ".join(names) + ")"))
    fn = [f"    /// {title}.", f"    static func {name}(_ {parameter}: Context) {'async ' if is_async else ''}throws {{"]
    for f in bind:
        fn.append(f"        {'var' if f in var_fields else 'let'} {f} = {parameter}.{f}")
    if not any(line.strip() for line in body) and not bind:
        fn.append(f"        _ = {parameter}")
    fn += ["        " + line if line.strip() else "" for line in body]
    fn.append("    }")
    return fn, is_async


def declared_names(declaration_lists):
    """The names of the types and functions declared (extensions excluded)."""
    declared = set()
    for d in declaration_lists:
        for item in d:
            for line in item:
                m = DECL.match(line.strip())
                if m:
                    if m.group(1) != "extension":
                        declared.add(m.group(2))
                    break
    return declared


def rename(text, names, prefix):
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(r"(?<![\w.])" + name + r"\b", prefix + name, text)
        text = re.sub(r"(?<=\.)" + name + r"\.self\b", prefix + name + ".self", text)
    return text


def context_fields(doc_key):
    """The context's fields, and the modules it stands in for (`// provides module: X`)."""
    path = os.path.join(CONTEXT, doc_key + "Context.swift")
    if not os.path.exists(path):
        return None, set(), set()
    text = open(path, encoding="utf-8").read()
    # Only the fields of `struct Context`, up to its closing brace at the same indentation.
    block = re.search(r"^(\s*)struct Context\b[^\n]*\{\n(.*?)^\1\}", text, re.M | re.S)
    fields = re.findall(r"^\s*(?:let|var)\s+(\w+)\s*:", block.group(2), re.M) if block else []
    types = set(re.findall(r"\b(?:class|struct|enum|typealias)\s+" + doc_key + r"_(\w+)", text))
    return fields, set(re.findall(r"^// provides module: (\w+)", text, re.M)), types


def generate(path):
    rel = os.path.relpath(path, ROOT)
    base = "Readme" if rel == "README.md" else os.path.splitext(os.path.basename(path))[0]
    doc = base + "Doc"
    prefix = doc + "_"
    found = [s for s in snippets(path) if s.mode != "skip"]
    if not found:
        return None, None
    imports = {"import Foundation", "import ArrayAdapter", "import FileAdapter", "import SQLiteAdapter", "import Testing"}
    decls, bodies = [], []
    for s in found:
        i, d, st = split(s.body)
        imports.update(i)
        decls.append(d)
        bodies.append(st)
    declared = declared_names(decls)
    fields, provided, context_types = context_fields(doc)
    declared |= context_types
    imports = {i for i in imports if i.split()[-1] not in provided}
    out = [f"// Generated from {rel} by Scripts/doc-snippets.py: do not edit; edit the document and rerun.",
           "// swift-format-ignore-file", ""]
    out += sorted(imports) + [""]
    for s, d in zip(found, decls):
        for item in d:
            out.append(f"// {rel}, snippet {s.number} (line {s.line})")
            out += [rename(line, declared, prefix) for line in item]
            out.append("")
    if fields is None:
        fields = []
        out += [f"/// The context of {rel}'s snippets: a fresh in-memory default store.",
                f"enum {doc} {{", "    struct Context {}", "",
                "    static func withContext(_ body: (Context) throws -> Void) throws {",
                "        try ModelStore.using(ArrayAdapter()) { try body(Context()) }", "    }", "}", ""]
    out.append(f"extension {doc} {{")
    tests = []
    for s, st in zip(found, bodies):
        fn, is_async = snippet_function(
            st, f"{rel}, snippet {s.number} (line {s.line})", f"snippet{s.number}", "context", fields, set(),
            lambda line: rename(line, declared, prefix))
        out += fn + [""]
        tests.append((s, is_async))
    out[-1:] = ["}", ""]
    out.append(f'@Suite("{rel} snippets") struct {doc}SnippetTests {{')
    for s, is_async in tests:
        if s.mode == "compile-only":
            out.append(f"    // snippet {s.number} is compiled only (marked compile-only in the document)")
            continue
        if is_async:
            out.append(f"    // snippet {s.number} is async: compiled only")
            continue
        out.append(f"    @Test func snippet{s.number}() throws {{ try privately {{ try {doc}.withContext {{ try {doc}.snippet{s.number}($0) }} }} }}")
    out.append("}")
    return os.path.join(OUT, doc + "Snippets.swift"), "\n".join(out) + "\n"


def rename_code(line, names, prefix):
    """``rename`` in code only: string literals (outside interpolations) and `//` comments
    keep their text."""
    out, code, k, quoted = "", "", 0, False
    while k < len(line):
        c = line[k]
        if not quoted and line.startswith("//", k):
            return out + rename(code, names, prefix) + line[k:]
        if c == '"':
            if quoted:
                out += c
            else:
                out += rename(code, names, prefix) + c
                code = ""
            quoted = not quoted
            k += 1
            continue
        if quoted and c == "\\" and k + 1 < len(line):
            if line[k + 1] == "(":
                depth, j = 1, k + 2
                while j < len(line) and depth:
                    depth += {"(": 1, ")": -1}.get(line[j], 0)
                    j += 1
                out += "\\(" + rename_code(line[k + 2:j - 1], names, prefix) + ")"
                k = j
                continue
            out += line[k:k + 2]
            k += 2
            continue
        if quoted:
            out += c
        else:
            code += c
        k += 1
    return out + rename(code, names, prefix)


def interpolations(match):
    """A string literal reduced to its interpolated code (for finding the names it uses)."""
    return " ".join(re.findall(r"\\\(([^()]*(?:\([^()]*\)[^()]*)*)\)", match.group(0))) or '""'


def source_models():
    """The shared models of source snippets: `SourceDoc_X` in Context/SourceDocModels.swift."""
    path = os.path.join(CONTEXT, "SourceDocModels.swift")
    if not os.path.exists(path):
        return set()
    return set(re.findall(r"\b(?:class|struct|enum|typealias|protocol|func)\s+SourceDoc_(\w+)", open(path, encoding="utf-8").read()))


def generate_sources(target, files):
    """Generated/Source<Target>DocSnippets.swift: the `///` snippets of one target, compiled."""
    doc = "Source" + target + "Doc"
    path = os.path.join(CONTEXT, "Source" + target + "Context.swift")
    fields, var_fields = [], set()
    if os.path.exists(path):
        text = open(path, encoding="utf-8").read()
        block = re.search(r"^(\s*)struct Context\b[^\n]*\{\n(.*?)^\1\}", text, re.M | re.S)
        for kind, name in re.findall(r"^\s*(let|var)\s+(\w+)\s*:", block.group(2) if block else "", re.M):
            fields.append(name)
            if kind == "var":
                var_fields.add(name)
    shared = source_models()
    imports = {"import Foundation", "import ArrayAdapter", "import FileAdapter", "import SQLiteAdapter", "import RESTAdapter",
               "import PostgresAdapter", "import Testing"}
    imports.discard("import " + target)
    imports.add("@testable import " + target)  # comments on internal types too
    out_decls, functions = [], []
    for file in files:
        rel = os.path.relpath(file, ROOT)
        found = [x for x in snippets(file, comment=True) if x.mode != "skip"]
        if not found:
            continue
        stem = re.sub(r"\W", "", os.path.splitext(os.path.basename(file))[0])
        prefix = target + stem + "_"
        parts = [split(x.body) for x in found]
        declared = declared_names(d for _, d, _ in parts)
        models = shared - declared

        def both(line):
            return rename_code(rename_code(line, declared, prefix), models, "SourceDoc_")

        for x, (i, d, st) in zip(found, parts):
            imports.update(i)
            for item in d:
                # No line numbers (unlike the guides): editing code above a comment leaves this file as it is.
                out_decls.append(f"// {rel}, snippet {x.number}")
                out_decls += [both(line) for line in item]
                out_decls.append("")
            fn, _ = snippet_function(st, f"{rel}, snippet {x.number}", f"{stem}{x.number}", "given", fields, var_fields, both)
            functions.append("\n".join(fn))
    if not functions:
        return None, None
    out = [f"// Generated from the `///` comments of Sources/{target} by Scripts/doc-snippets.py: do not edit;",
           "// edit the comments and rerun. Compiled, not run.", "// swift-format-ignore-file", ""]
    out += sorted(imports) + [""] + out_decls
    if not os.path.exists(path):
        out += [f"enum {doc} {{", "    struct Context {}", "}", ""]
    out.append(f"extension {doc} {{")
    out.append("\n\n".join(functions))
    out.append("}")
    return os.path.join(OUT, doc + "Snippets.swift"), "\n".join(out) + "\n"


def main():
    check = "--check" in sys.argv
    documents = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "Docs", "*.md")))
    wanted = {}
    for path in documents:
        target, text = generate(path)
        if target:
            wanted[target] = text
    for folder in sorted(glob.glob(os.path.join(ROOT, "Sources", "*"))):
        files = sorted(glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True))
        if not files:
            continue
        target, text = generate_sources(os.path.basename(folder), files)
        if target:
            wanted[target] = text
    os.makedirs(OUT, exist_ok=True)
    existing = set(glob.glob(os.path.join(OUT, "*.swift")))
    stale = [p for p, t in wanted.items() if not os.path.exists(p) or open(p, encoding="utf-8").read() != t]
    stale += [p for p in existing if p not in wanted]
    if check:
        if stale:
            print("doc snippets are stale; run Scripts/doc-snippets.py:", *[os.path.relpath(p, ROOT) for p in stale], sep="\n  ")
            sys.exit(1)
        print(f"doc snippets up to date ({len(wanted)} files)")
        return
    for p in existing - set(wanted):
        os.remove(p)
    for p, t in wanted.items():
        with open(p, "w", encoding="utf-8") as f:
            f.write(t)
    print(f"wrote {len(wanted)} files to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
