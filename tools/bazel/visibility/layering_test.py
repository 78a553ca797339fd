"""The layering of twin/ and tools/, read from Bazel's own graph (genquery outputs).

deps_on_operators: every target of twin/ and tools/, transitively, filtered to ops/ and offline/.
component_edges: the dependency graph of their shipped targets (--output=graph).
components.txt: the allowed component graph, which the README's Architecture section repeats.
"""

import os
import re

HERE = os.path.join("tools", "bazel", "visibility")
EDGE = re.compile(r'^\s*"(//[^"]+)" -> "(//[^"]+)"$')


def read(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


def allowed_graph():
    """components.txt as {component: set of components it may use}, plus its arrow lines."""
    graph, lines = {}, []
    for line in read("components.txt").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        source, _, targets = line.partition("->")
        graph[source.strip()] = {t.strip() for t in targets.split(",") if t.strip()}
        lines.append(line)
    return graph, lines


def component_of(label, components):
    package = label[2:].split(":")[0]
    owners = [c for c in components if package == c or package.startswith(c + "/")]
    assert owners, "package //%s belongs to no component of components.txt" % package
    return max(owners, key=len)


def used_components(components):
    """The arrows between components that Bazel's graph of shipped targets holds."""
    used = {c: set() for c in components}
    for line in read("component_edges").splitlines():
        edge = EDGE.match(line)
        if not edge or edge.group(2).startswith("//tools/bazel/visibility:"):
            continue  # node lines, and package_group references of visibility declarations
        source, target = (component_of(label, components) for label in edge.groups())
        if source != target:
            used[source].add(target)
    return used


def test_twin_and_tools_never_reach_ops_or_offline():
    reached = read("deps_on_operators").split()
    assert reached == [], "twin/ or tools/ depend on: " + ", ".join(reached)


def test_component_arrows_are_exactly_the_allowed_graph():
    allowed, _ = allowed_graph()
    used = used_components(allowed)
    extra = ["%s -> %s" % (c, t) for c in sorted(used) for t in sorted(used[c] - allowed[c])]
    unused = ["%s -> %s" % (c, t) for c in sorted(allowed) for t in sorted(allowed[c] - used[c])]
    assert not extra, "arrows components.txt does not allow: " + "; ".join(extra)
    assert not unused, "arrows components.txt lists but Bazel's graph lacks: " + "; ".join(unused)


def test_component_of_names_the_longest_folder():
    components = ["twin", "twin/runtime", "tools/bisheng"]
    assert component_of("//twin/runtime/model:x", components) == "twin/runtime"
    assert component_of("//twin:install", components) == "twin"
    assert component_of("//tools/bisheng/tests:t", components) == "tools/bisheng"


def test_readme_shows_the_allowed_graph():
    _, lines = allowed_graph()
    with open("README.md") as f:
        readme = f.read()
    architecture = readme.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    missing = [line for line in lines if line not in architecture.splitlines()]
    assert not missing, "README Architecture lacks the arrows: " + "; ".join(missing)
