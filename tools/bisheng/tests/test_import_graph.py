"""The driver's modules import each other without a circle, counting the imports inside
functions too (a circle there only waits for the call that closes it), and each module imports
alone in a fresh interpreter."""

import ast
import os
import subprocess
import sys

import bisheng_driver

PACKAGE_DIR = os.path.dirname(bisheng_driver.__file__)
PACKAGE = "bisheng_driver"


def modules():
    return sorted(name[:-3] for name in os.listdir(PACKAGE_DIR) if name.endswith(".py") and name != "__init__.py")


def imported_siblings(path, known):
    """The modules of the package that the file at path imports, anywhere in it."""
    found = set()
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:  # from .x import y
                found.add(node.module.split(".")[0])
            elif node.level == 1:  # from . import x, y
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.split(".")[0] == PACKAGE:
                rest = node.module.split(".")[1:]
                found.update(rest[:1] or [alias.name for alias in node.names])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == PACKAGE and len(parts) > 1:
                    found.add(parts[1])
    return found & known


def import_graph():
    known = set(modules())
    return {m: imported_siblings(os.path.join(PACKAGE_DIR, m + ".py"), known) - {m} for m in known}


def find_cycle(graph):
    """One import circle as [a, b, ..., a], or None (depth-first search, colouring the path)."""
    state, path = {}, []

    def visit(node):
        state[node] = "on path"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "on path":
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_find_cycle_reports_a_circle_and_accepts_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_imports_inside_functions_count(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from .compile import x\n    from . import rdc\nimport bisheng_driver.options\n")
    assert imported_siblings(str(source), {"compile", "rdc", "options", "link"}) == {"compile", "rdc", "options"}


def test_the_driver_has_no_import_circle():
    graph = import_graph()
    assert {"compile", "options", "cache_key", "rdc"} <= set(graph)  # the walk found the package
    cycle = find_cycle(graph)
    assert cycle is None, "import circle in bisheng_driver: " + " -> ".join(cycle)


def test_each_module_imports_alone():
    root = os.path.dirname(PACKAGE_DIR)
    failed = []
    for module in modules():
        proc = subprocess.run(
            [sys.executable, "-c", f"import {PACKAGE}.{module}"],
            cwd=root,
            env={**os.environ, "PYTHONPATH": root},
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            failed.append(f"{module}: {proc.stderr.strip().splitlines()[-1]}")
    assert not failed, "\n".join(failed)
