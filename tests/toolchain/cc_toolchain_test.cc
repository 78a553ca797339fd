#include <google/protobuf/stubs/common.h>
#include <gtest/gtest.h>

// Python code uses protobuf==4.21.12, whose C++ core is 3.21.12: generated code from the
// one protoc must work on both sides.
TEST(Toolchain, ProtobufIsDebian3_21) {
  EXPECT_EQ(GOOGLE_PROTOBUF_VERSION / 1000, 3021);
}

TEST(Toolchain, CompilesAsCxx17) { EXPECT_GE(__cplusplus, 201703L); }
