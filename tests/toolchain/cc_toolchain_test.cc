#include <gtest/gtest.h>

#include <string>

TEST(Toolchain, CompilesAsCxx17) { EXPECT_GE(__cplusplus, 201703L); }

// CANN's ABI (.bazelrc): the pre-C++11 std::string and std::list layouts.
TEST(Toolchain, UsesCannLibstdcxxAbi) { EXPECT_EQ(_GLIBCXX_USE_CXX11_ABI, 0); }

// PrintToString returns a std::string from googletest's compiled code: this links only if
// googletest was built with the same ABI (it is built from source; Debian's libgtest.a is not).
TEST(Toolchain, GoogletestSharesTheAbi) { EXPECT_EQ(::testing::PrintToString(std::string("abi")), "\"abi\""); }
