"""Both operators' targets exist side by side, each named after its operator; the OPP and
kernel outputs of both were built (they are this test's data)."""

import os

PACKAGE = "//tests/ge_op_two_ops:"
PER_OPERATOR = ["_kernel", "_kernel_cache_key", "_opp", "_opp_root", "_plugin", "_soc", "_runtime", "_online"]


def targets():
    with open(os.path.join("tests", "ge_op_two_ops", "check", "targets")) as f:
        return {line[len(PACKAGE) :] for line in f.read().split() if line.startswith(PACKAGE)}


def test_each_operator_has_its_own_targets():
    names = targets()
    for op in ("add_custom", "leaky_relu_custom"):
        missing = [op + suffix for suffix in PER_OPERATOR if op + suffix not in names]
        assert not missing, f"{op}: no {missing}"
    for module in ("two_add", "two_leaky"):
        assert {f"es_{module}", f"es_{module}_cc", f"es_{module}_code"} <= names


def test_no_operator_claims_the_short_names():
    # short_names is off for both: :online would be ambiguous in a package of two operators
    assert not {"online", "online_npu"} & targets()
