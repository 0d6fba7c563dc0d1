#!/usr/bin/env python3
"""Checks the package's module seams from SwiftPM's own view of its targets
(`swift package describe --type json`): what each module may depend on, transitively.

- ModelServer links the REST contract (RESTContract), never the HTTP client
  (SwiftModelREST, RESTAdapter) nor a storage adapter.
- A storage adapter's implementation module depends only on the modules it uses
  (ModelCore, ModelEngine, ModelSQL, its C library): never the query builder, forms,
  validations or serialization, so changing those rebuilds no adapter.
- The REST contract depends on no client, server or adapter.

Exits non-zero naming each broken seam.

    Scripts/module-seams.py            # describes the package in the current directory
    Scripts/module-seams.py desc.json  # a saved description (tests)
"""
import json
import subprocess
import sys

FORBIDDEN = {
    "ModelServer": {"SwiftModelREST", "RESTAdapter", "SwiftModelSQLite", "SwiftModelPostgres", "SwiftModelArray",
                    "SwiftModelFile", "SQLiteAdapter", "PostgresAdapter", "ArrayAdapter", "FileAdapter"},
    "RESTContract": {"SwiftModelREST", "RESTAdapter", "ModelServer", "ModelForms", "SwiftModelSQLite", "SwiftModelPostgres"},
}
ADAPTER_ALLOWED = {
    "SwiftModelArray": {"ModelCore", "ModelEngine", "SwiftModelCRuntime"},
    "SwiftModelFile": {"ModelCore", "ModelEngine", "SwiftModelArray", "SwiftModelCRuntime"},
    "SwiftModelSQLite": {"ModelCore", "ModelEngine", "ModelSQL", "SwiftModelCSQLite", "SwiftModelCRuntime"},
    "SwiftModelPostgres": {"ModelCore", "ModelEngine", "ModelSQL", "SwiftModelCLibPQ", "SwiftModelCRuntime"},
}


def closure(targets, name):
    seen, stack = set(), list(targets.get(name, []))
    while stack:
        t = stack.pop()
        if t in seen:
            continue
        seen.add(t)
        stack += targets.get(t, [])
    return seen


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            description = json.load(f)
    else:
        out = subprocess.run(["swift", "package", "describe", "--type", "json"], check=True, capture_output=True, text=True)
        description = json.loads(out.stdout)
    targets = {t["name"]: t.get("target_dependencies", []) + [p for p in t.get("product_dependencies", [])]
               for t in description["targets"]}
    broken = []
    for name, forbidden in FORBIDDEN.items():
        if name not in targets:
            broken.append(f"{name}: no such target")
            continue
        for bad in sorted(closure(targets, name) & forbidden):
            broken.append(f"{name} depends on {bad}")
    for name, allowed in ADAPTER_ALLOWED.items():
        if name not in targets:
            broken.append(f"{name}: no such target")
            continue
        for bad in sorted(closure(targets, name) - allowed):
            broken.append(f"{name} depends on {bad}, which it does not use")
    for line in broken:
        print("module seam broken: " + line, file=sys.stderr)
    if not broken:
        print(f"module seams hold ({len(FORBIDDEN) + len(ADAPTER_ALLOWED)} modules checked)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
