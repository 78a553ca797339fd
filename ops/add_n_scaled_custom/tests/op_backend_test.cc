// The public C++ OpBackend enum (graph/custom_op.h) has CANN's values and underlying type.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "graph/custom_op.h"

TEST(OpBackendTest, ValuesAndUnderlyingTypeAreCanns) {
  static_assert(std::is_same<std::underlying_type<ge::OpBackend>::type, uint32_t>::value, "uint32_t enum");
  EXPECT_EQ(static_cast<uint32_t>(ge::OpBackend::kDevice), 0u);
  EXPECT_EQ(static_cast<uint32_t>(ge::OpBackend::kHostCPU), 1u);
}
