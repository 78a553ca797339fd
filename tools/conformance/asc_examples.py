"""Cases from asc-devkit's `examples/`: each folder with a CMakeLists.txt and a README whose
"run" block (the fenced shell block with the cmake line and the program run) says how to build,
run and check it. The block runs as written; only SCENARIO_NUM=1 becomes each scenario the
README lists, as its "switch case" note tells a user to do."""

import os
import re

from conformance_run import Case, classify_steps

ARCH = "dav-2201"
_FENCE = re.compile(r"^[ \t]*```[A-Za-z]*[ \t]*\n(.*?)^[ \t]*```", re.S | re.M)


def _strip_comment(line: str) -> str:
    """Drops a trailing `# ...` that is not inside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t;"):
            return line[:i]
    return line


def block_lines(block: str):
    lines, pending = [], ""
    for raw in block.splitlines():
        line = _strip_comment(raw).strip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = (pending + line).strip()
        pending = ""
        if line and not line.startswith("$"):
            lines.append(line)
    return lines


def run_block(readme: str):
    """The README's commands: the first block that configures with cmake and runs a program."""
    for block in _FENCE.findall(readme):
        lines = block_lines(block)
        if any("cmake" in line for line in lines) and any(re.match(r"\./|(bash|sh) ", line) for line in lines):
            return lines
    return None


def success_markers(readme: str):
    """Lines of the README's result block that announce success ("test pass!", "[Success] ...")."""
    at = readme.find("执行结果")
    if at < 0:
        at = readme.lower().find("execution result")
    if at < 0:
        return []
    m = _FENCE.search(readme, at)
    if not m:
        return []
    lines = [line.strip() for line in m.group(1).splitlines() if line.strip()]
    return [line for line in lines if re.search(r"\bpass(ed)?\b|\bsuccess|^OK$", line, re.I) and "*" not in line]


def _arches(lines):
    return set(re.findall(r"dav-[0-9a-z]+", " ".join(lines)))


def scenarios(readme: str, cmake: str):
    """Scenario numbers the README's option table (or the CMake cache's help) lists."""
    for line in readme.splitlines():
        if "SCENARIO_NUM" in line and line.lstrip().startswith("|"):
            cells = line.split("|")
            if len(cells) > 3:
                nums = sorted({int(n) for n in re.findall(r"`(\d+)`", cells[2])})
                rng = re.search(r"`?(\d+)`?\s*[-~～]\s*`?(\d+)`?", cells[2])
                if rng:
                    nums = sorted(set(nums) | set(range(int(rng.group(1)), int(rng.group(2)) + 1)))
                if nums:
                    return nums
    m = re.search(r"SCENARIO_NUM\s+\"?\d+\"?\s+CACHE\s+STRING\s+\"[^\"]*\((\d+)\s*-\s*(\d+)\)", cmake)
    if m:
        return list(range(int(m.group(1)), int(m.group(2)) + 1))
    return [1]


_CMAKE_BLOCK = re.compile(r"\b(if|elseif|else|endif)\s*\(([^)]*)\)", re.I)
# A message that says the build needs dav-3510 ("only supports dav-3510", "must be dav-3510",
# "only CMAKE_ASC_ARCHITECTURES=dav-3510 is supported"), not one that merely names it ("only
# supports dav-2201, not dav-3510" refuses 3510 and builds on 2201).
NEEDS_DAV3510 = (
    r"(?:only\s+supports?|requires?|must\s+be)\s+dav-3510"
    r"|only\s+(?:CMAKE_ASC_ARCHITECTURES\s*=\s*)?dav-3510\s+(?:is\s+)?supported"
)
_FOR_OTHER_ARCH = re.compile(
    r"FATAL_ERROR[^\n]*(?:" + NEEDS_DAV3510 + r")"
    r"|set\s*\(\s*CMAKE_ASC_ARCHITECTURES\s+\"?dav-3510",
    re.I,
)


def other_arch_scenarios(cmake: str):
    """Scenarios the CMakeLists builds for dav-3510 only: the body of an `if(SCENARIO_NUM ...)`
    (nested ifs included) forces dav-3510 or stops with a FATAL_ERROR naming it."""
    found, stack = set(), []  # stack of [condition, body start, depth-at-open]
    for m in _CMAKE_BLOCK.finditer(cmake):
        word = m.group(1).lower()
        if word == "if":
            stack.append([m.group(2), m.end()])
        elif stack and word in ("elseif", "else", "endif"):
            cond, start = stack[-1]
            if "SCENARIO_NUM" in cond and _FOR_OTHER_ARCH.search(cmake[start : m.start()]):
                found.update(int(n) for n in re.findall(r"(?:STREQUAL|EQUAL)\s+\"?(\d+)\"?", cond))
            if word == "endif":
                stack.pop()
            else:
                stack[-1] = [m.group(2) if word == "elseif" else "", m.end()]
    return found


_CUBE = re.compile(
    r"\b(Mmad|LoadData|Fixpipe|TPosition::(A1|B1|A2|B2|CO1|CO2|C1|C2)|QuePosition::(A1|B1|A2|B2|CO1|CO2)|"
    r"Matmul|MatmulImpl|REGIST_MATMUL_OBJ|KERNEL_TYPE_AIC_ONLY|KERNEL_TYPE_MIX|LoadData2D|LoadData3D)\b"
)
_ADVANCED_INCLUDE = re.compile(r"#\s*include\s*[<\"](lib/|adv_api/|tiling/tiling_api\.h)")
_ADV_DECL = re.compile(r"__aicore__ inline [\w:<>, ]*?\b([A-Z]\w+)\(")


def advanced_api_names(checkout: str):
    """Functions the checkout's own high-level API (include/adv_api) declares that its basic API
    does not: a call to one of them marks an example as needing the advanced API."""

    def names(sub):
        found = set()
        for root, _, files in os.walk(os.path.join(checkout, "include", sub)):
            for f in files:
                if f.endswith((".h", ".hpp")):
                    with open(os.path.join(root, f), errors="replace") as fh:
                        found.update(_ADV_DECL.findall(fh.read()))
        return found

    return frozenset(names("adv_api") - names("basic_api"))


_REG = re.compile(r"\b(RegTensor|MicroAPI|__VEC_SCOPE__|__simd_vf__|MaskReg|__simt|asc_simt|SIMT_VF)\b")


# An op defined for, or called through, an op package (OpDef, aclnn's two-phase calls, aclop's
# single-op execution), or a README that first deploys another example's op package.
_OP_PACKAGE = re.compile(
    r"\b(OP_ADD|aclnn\w+GetWorkspaceSize|aclopExecute\w*|aclopCompile\w*)\b|#\s*include\s*[<\"]aclnn"
)
_NEEDS_OP_PACKAGE = re.compile(r"\]\([^)]*/custom_op\)|--singleop")


# An example in the advanced API's own folder needs it (and links its libraries) even when
# every call it makes is also in the basic API; C++ custom ops run by GE's runner (EagerExecuteOp).
ADVANCED_FOLDER = "04_advanced_api"
_GE_CXX_OP = re.compile(r"\b(EagerExecuteOp|REG_AUTO_MAPPING_OP|EagerOpExecutionContext)\b")


def readme_text(folder: str) -> str:
    path = os.path.join(folder, "README.md")
    if not os.path.isfile(path):
        return ""
    with open(path, errors="replace") as f:
        return f.read()


def kind_of(folder: str, advanced=frozenset()) -> str:
    """What the example needs, read from its sources: the vector basic API, or more."""
    text, has_op_dirs, has_aicpu = "", False, False
    for root, dirs, files in os.walk(folder):
        if {"op_host", "op_kernel"} & set(dirs) or any(f.endswith(".json") and "op" in f for f in files):
            has_op_dirs = True
        has_aicpu = has_aicpu or any(f.endswith(".aicpu") for f in files)
        for f in files:
            if f.endswith((".asc", ".cpp", ".cc", ".h", ".hpp", ".c")):
                with open(os.path.join(root, f), errors="replace") as fh:
                    text += fh.read()
    if has_op_dirs or _OP_PACKAGE.search(text) or _NEEDS_OP_PACKAGE.search(readme_text(folder)):
        return "op project"
    if has_aicpu:
        return "AI CPU"
    if _GE_CXX_OP.search(text):
        return "GE C++ custom op"
    if re.search(r"#\s*include\s*[<\"]c_api/", text):
        return "C API"
    if _CUBE.search(text):
        return "cube"
    if (
        _ADVANCED_INCLUDE.search(text)
        or ADVANCED_FOLDER in folder.split(os.sep)
        or any(n in advanced for n in re.findall(r"AscendC::(\w+)", text))
    ):
        return "advanced API"
    if _REG.search(text):
        return "reg/SIMT"
    return "vector"


def cases(checkout: str, subtrees=("examples",)):
    out, advanced = [], advanced_api_names(checkout)
    for subtree in subtrees:
        base = os.path.join(checkout, subtree)
        for root, dirs, files in os.walk(base):
            dirs.sort()
            if "CMakeLists.txt" not in files or "README.md" not in files:
                continue
            parent = os.path.dirname(root)
            if os.path.isfile(os.path.join(parent, "CMakeLists.txt")) and os.path.isfile(
                os.path.join(parent, "README.md")
            ):
                continue  # a sub-project of an example already listed
            rel = os.path.relpath(root, base)
            out.extend(_cases_of(checkout, root, rel, advanced))
            dirs[:] = []  # an example's own subfolders are part of it
    return out


def _category(rel: str) -> str:
    parts = rel.split(os.sep)
    return "/".join(parts[:3]) if len(parts) > 3 else "/".join(parts[:-1]) or parts[0]


def _cases_of(checkout, folder, rel, advanced):
    with open(os.path.join(folder, "README.md"), errors="replace") as f:
        readme = f.read()
    with open(os.path.join(folder, "CMakeLists.txt"), errors="replace") as f:
        cmake = f.read()
    kind, category = kind_of(folder, advanced), _category(rel)
    lines = run_block(readme)
    common = dict(category=category, kind=kind, source_dir=folder, copy_root=checkout, other_target=NEEDS_DAV3510)
    if lines is None:
        return [Case(rel, steps=[], markers=[], skip_reason="README has no cmake + run block", **common)]
    arches = _arches(lines) or _arches([cmake])
    if arches and ARCH not in arches:
        return [Case(rel, steps=[], markers=[], skip_reason="for " + ", ".join(sorted(arches)) + " only", **common)]
    markers = success_markers(readme)
    uses_scenario = any(re.match(r"SCENARIO_NUM=\d+\s*$", line) for line in lines)
    nums = scenarios(readme, cmake) if uses_scenario else [None]
    result, foreign = [], other_arch_scenarios(cmake)
    for n in nums:
        these = [
            f"SCENARIO_NUM={n}" if n is not None and re.match(r"SCENARIO_NUM=\d+\s*$", line) else line for line in lines
        ]
        case_id = rel if n is None or len(nums) == 1 else f"{rel} #{n}"
        if n in foreign:
            result.append(
                Case(
                    case_id,
                    steps=[],
                    markers=[],
                    skip_reason=f"scenario {n} is for dav-3510 only (CMakeLists)",
                    **common,
                )
            )
            continue
        result.append(Case(case_id, steps=classify_steps(these), markers=markers, **common))
    return result
