"""Read and write Makefile-style dependency files (as clang's -MD writes them)."""


def parse_deps(text: str) -> list:
    """Prerequisites of a single-rule depfile `target: dep dep \\\n dep`."""
    body = text.replace("\\\n", " ")
    _, _, prereqs = body.partition(": ")
    if "\\" not in prereqs and "$" not in prereqs:
        return prereqs.split()  # nothing escaped (the usual case): whitespace separates
    deps, word, i = [], "", 0
    while i < len(prereqs):
        ch = prereqs[i]
        if ch == "\\" and i + 1 < len(prereqs) and prereqs[i + 1] in " #":
            word += prereqs[i + 1]
            i += 2
            continue
        if ch == "$" and prereqs[i + 1 : i + 2] == "$":
            word += "$"
            i += 2
            continue
        if ch in " \t\n":
            if word:
                deps.append(word)
            word = ""
        else:
            word += ch
        i += 1
    if word:
        deps.append(word)
    return deps


def _escape(path: str) -> str:
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


def format_deps(targets: list, deps: list, phony: bool) -> str:
    lines = [" ".join(targets) + ":"]
    for dep in deps:
        lines[-1] += " \\"
        lines.append("  " + _escape(dep))
    text = "\n".join(lines) + "\n"
    if phony:
        text += "".join(f"\n{_escape(dep)}:\n" for dep in deps[1:])
    return text
