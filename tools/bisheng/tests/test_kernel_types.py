"""Kernel types read from the source (kernel_types.py) and written into the entries TU
(codegen.entries_source): __mix__, __cube__, __vector__ and KERNEL_TASK_TYPE_DEFAULT, as CANN's
examples spell them. Pure text: no compiler runs."""

from types import SimpleNamespace

from bisheng_driver import codegen
from bisheng_driver.arch import resolve_npu_arch
from bisheng_driver.kernel_types import base_identifier, kernel_types

SOURCE = """#include "kernel_operator.h"
// __global__ __cube__ void in_a_comment(GM_ADDR x) {}
extern "C" __global__ __mix__(1, 2) __aicore__ void mix12(GM_ADDR x) { }
__global__ __mix__(1, 1) void mix11(GM_ADDR x);
extern "C" __global__ __aicore__ void by_macro(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
    if (x) { int y = 0; (void)y; }
}
template <typename T>
__global__ __cube__ __aicore__ void cube_t(T* x) {}
namespace ns {
__global__ __vector__ __aicore__ void vec(GM_ADDR x) { const char* s = "__mix__(1, 2)"; (void)s; }
}
extern "C" __global__ __aicore__ void plain(GM_ADDR x) {}
extern "C" __global__ __mix__(1, 2) __aicore__ void macro_wins(GM_ADDR x) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
}
"""


def test_each_declaration_form_gives_cann_s_kernel_type():
    assert kernel_types(SOURCE) == {"mix12": 5, "mix11": 4, "by_macro": 2, "cube_t": 1, "vec": 0, "macro_wins": 1}


def test_comments_and_strings_declare_nothing():
    types = kernel_types(SOURCE)
    assert "in_a_comment" not in types
    assert "plain" not in types


def test_base_identifier_of_spelled_kernels():
    assert base_identifier("ns::cube_t<float>") == "cube_t"
    assert base_identifier("mix12") == "mix12"


def test_entries_carry_the_type_and_leave_undeclared_kernels_unset():
    kernels = [
        SimpleNamespace(name="mix12", spelled="mix12", ref="&mix12"),
        SimpleNamespace(name="plain", spelled="plain", ref="&plain"),
    ]
    text = codegen.entries_source("k.asc", resolve_npu_arch("dav-2201"), kernels, True, kernel_types(SOURCE))
    assert "ASC_TWIN_KERNEL_ENTRY_TYPED(mix12, 5u, &mix12)" in text
    assert "ASC_TWIN_KERNEL_ENTRY_AS(plain, &plain)" in text
    assert "abi=3" in text
