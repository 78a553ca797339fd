"""ascendc_jit uses bisheng's driver only through bisheng_driver.tool_api, its public module:
the rest of the driver may change without breaking the kernel toolkit."""

import ast
import os

import ascendc_jit

ALLOWED = "bisheng_driver.tool_api"


def driver_imports(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "bisheng_driver":
                names += ["bisheng_driver." + alias.name for alias in node.names]
            elif node.module.startswith("bisheng_driver."):
                names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names if a.name.split(".")[0] == "bisheng_driver"]
    return names


def test_driver_imports_sees_every_spelling(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "import bisheng_driver.pch\nfrom bisheng_driver import compile\n"
        "def f():\n    from bisheng_driver.tool_api import parse_deps\n"
    )
    assert sorted(driver_imports(str(source))) == [
        "bisheng_driver.compile",
        "bisheng_driver.pch",
        "bisheng_driver.tool_api",
    ]


def test_ascendc_jit_imports_only_the_tool_api():
    directory = os.path.dirname(ascendc_jit.__file__)
    used = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".py"):
            for module in driver_imports(os.path.join(directory, name)):
                used.setdefault(module, []).append(name)
    assert ALLOWED in used, "the walk found no use of the driver at all"
    others = {m: files for m, files in used.items() if m != ALLOWED}
    assert not others, f"ascendc_jit imports driver internals: {others}"


def test_tool_api_names_what_ascendc_jit_needs():
    from bisheng_driver import tool_api

    assert {"hash_fields", "parse_deps", "untrusted_reason"} <= set(tool_api.__all__)
