"""The device pass's text (device_source.py): which host-only functions leave it, and that
everything the kernels can reach stays, line for line. Pure text: no compiler runs."""

import random

from bisheng_driver.device_source import device_text, mentioned_in

PROGRAM = """#include "kernel_operator.h"
#include "tiling.h"
namespace tools {
int helper(int x) { return x + 1; }
void host_log(const char* what) { std::printf("%s", what); }
}
static float square(float v) { return v * v; }
constexpr int Tile() { return 64; }
template <typename T> T Twice(T v) { return v + v; }
struct Acc { int Add(int v) { return v; } };
int table[] = {1, 2, 3};
auto lambda = [](int q) { return q; };
#define USE_MACRO() macro_target()
float macro_target() { return 3.0f; }
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    ((__gm__ float*)x)[0] = square(tools::helper(Tile())) + USE_MACRO();
}
int with_directive() {
#ifdef EXTRA
    return 1;
#endif
    return 0;
}
int main(int argc, char** argv) {
    tools::host_log("start");
    k<<<1, nullptr, nullptr>>>(nullptr);
    return 0;
}
"""


def no_header_names(names):
    return set()


def test_host_only_functions_leave_and_kernel_code_stays():
    text, dropped = device_text(PROGRAM, ["k"], no_header_names)
    assert dropped == 2  # main and tools::host_log
    assert "int main" not in text and "host_log(const char" not in text
    for kept in (
        "int helper(int x) { return x + 1; }",
        "static float square",
        "constexpr int Tile()",
        "template <typename T> T Twice",
        "struct Acc { int Add",
        "int table[] = {1, 2, 3};",
        "auto lambda = [](int q)",
        "float macro_target() { return 3.0f; }",
        "void k(GM_ADDR x) {",
        "int with_directive() {\n#ifdef EXTRA",
    ):
        assert kept in text, kept
    # every kept line is where it was: same line numbers for __LINE__ and diagnostics
    original = PROGRAM.splitlines()
    for number, line in enumerate(text.splitlines()):
        assert line == "" or line == original[number], (number, line)


def test_a_name_a_header_spells_keeps_a_declaration():
    # A lookup from a header (ADL, a macro) could find it: the body goes, the declaration
    # stays, so a use fails the device link (and the whole file is compiled) instead of
    # silently finding another function.
    text, dropped = device_text(PROGRAM, ["k"], lambda names: names & {"host_log"})
    assert dropped == 2
    assert "void host_log(const char* what) ;" in text and "std::printf" not in text
    assert "int main" not in text  # main is never found by lookup


def test_appending_a_host_function_leaves_the_text_as_it_was():
    base, _ = device_text(PROGRAM, ["k"], no_header_names)
    seed = random.randrange(1 << 30)
    print(f"seed={seed}")
    rng = random.Random(seed)
    for _ in range(20):
        name = "edit_" + "".join(rng.choice("abcdefgh") for _ in range(8))
        edited = PROGRAM + f"\nint {name}(int v) {{ return v * {rng.randrange(100)}; }}\n" * rng.randrange(1, 4)
        assert device_text(edited, ["k"], no_header_names)[0] == base


def test_a_kernel_calling_a_function_keeps_it_to_a_fixed_point():
    source = (
        "int leaf() { return 1; }\nint middle() { return leaf(); }\nint lonely() { return 2; }\n"
        'extern "C" __global__ __aicore__ void k(GM_ADDR x) { *(__gm__ int*)x = middle(); }\n'
    )
    text, dropped = device_text(source, ["k"], no_header_names)
    assert dropped == 1 and "leaf() { return 1; }" in text and "middle() { return leaf(); }" in text
    assert "lonely" not in text


def test_braces_split_by_a_conditional_leave_the_file_whole():
    source = "#ifdef A\nint f() {\n#else\nint f(int) {\n#endif\n  return 0;\n}\nint main() { return 0; }\n"
    assert device_text(source, [], no_header_names) == (source, 0)


def test_mentioned_in_finds_whole_identifiers_only(tmp_path):
    header = tmp_path / "h.h"
    header.write_text("#define CALL() host_log(1)\nint host_logger;\n")
    assert mentioned_in([str(header)], {"host_log", "host_logg", "main"}) == {"host_log"}
    assert mentioned_in([str(tmp_path / "missing.h")], {"x"}) == {"x"}  # unreadable: assume named
