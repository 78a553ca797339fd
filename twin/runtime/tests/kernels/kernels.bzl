"""The runtime's test device binaries and the flags that hand them to a test, written once for
the tests (twin/runtime/tests) and the fuzzer's seeds (twin/runtime/fuzz)."""

TEST_KERNELS = [
    "//twin/runtime/tests/kernels:crafted_ctor.so",
    "//twin/runtime/tests/kernels:crafted_execstack.so",
    "//twin/runtime/tests/kernels:crafted_ifunc.so",
    "//twin/runtime/tests/kernels:crafted_needed.so",
    "//twin/runtime/tests/kernels:crafted_runpath.so",
    "//twin/runtime/tests/kernels:fault_kernels_2201",
    "//twin/runtime/tests/kernels:hostile_kernels_2201",
    "//twin/runtime/tests/kernels:test_kernels_2201",
    "//twin/runtime/tests/kernels:test_kernels_3510",
    "//twin/runtime/tests/kernels:test_kernels_nometa",
    "//twin/runtime/tests/kernels:test_kernels_host_object",
]

TEST_KERNEL_ARGS = [
    "--kctor=$(rootpath //twin/runtime/tests/kernels:crafted_ctor.so)",
    "--kneeded=$(rootpath //twin/runtime/tests/kernels:crafted_needed.so)",
    "--krunpath=$(rootpath //twin/runtime/tests/kernels:crafted_runpath.so)",
    "--kexecstack=$(rootpath //twin/runtime/tests/kernels:crafted_execstack.so)",
    "--kifunc=$(rootpath //twin/runtime/tests/kernels:crafted_ifunc.so)",
    "--kfault=$(rootpath //twin/runtime/tests/kernels:fault_kernels_2201)",
    "--khostile=$(rootpath //twin/runtime/tests/kernels:hostile_kernels_2201)",
    "--k2201=$(rootpath //twin/runtime/tests/kernels:test_kernels_2201)",
    "--k3510=$(rootpath //twin/runtime/tests/kernels:test_kernels_3510)",
    "--knometa=$(rootpath //twin/runtime/tests/kernels:test_kernels_nometa)",
    "--khost=$(rootpath //twin/runtime/tests/kernels:test_kernels_host_object)",
]
