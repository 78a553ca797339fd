// RegularFile refuses what is not a regular file without blocking, reads what it is asked for,
// and says when a file ends early.
#include "twin/common/file/regular_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using asc_twin::file::RegularFile;

std::string TempDir() {
  const char *dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

TEST(RegularFile, ReadsWhatItIsAskedFor) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(1 + rng() % 300000);
  for (uint8_t &b : bytes) b = static_cast<uint8_t>(rng());
  const std::string path = TempDir() + "/data.bin";
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  RegularFile file;
  std::string cause;
  ASSERT_TRUE(file.Open(path.c_str(), &cause)) << cause;
  EXPECT_EQ(file.size(), bytes.size());
  std::vector<uint8_t> got;
  ASSERT_TRUE(file.ReadAt(0, bytes.size(), &got, &cause)) << cause;
  EXPECT_EQ(got, bytes);
  const size_t offset = rng() % bytes.size();
  ASSERT_TRUE(file.ReadAt(offset, bytes.size() - offset, &got, &cause));
  EXPECT_EQ(got, std::vector<uint8_t>(bytes.begin() + static_cast<long>(offset), bytes.end()));
  EXPECT_FALSE(file.ReadAt(offset, bytes.size() - offset + 1, &got, &cause));
  EXPECT_EQ(cause, "shrank while being read");
}

TEST(RegularFile, RefusesFifosDirectoriesAndDevicesWithoutBlocking) {
  const std::string fifo = TempDir() + "/in.fifo";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string &path : {fifo, TempDir(), std::string("/dev/zero")}) {
    RegularFile file;
    std::string cause;
    EXPECT_FALSE(file.Open(path.c_str(), &cause)) << path;
    EXPECT_EQ(cause, "is not a regular file") << path;
  }
  RegularFile missing;
  std::string cause;
  EXPECT_FALSE(missing.Open((TempDir() + "/nope").c_str(), &cause));
  EXPECT_EQ(cause, "cannot be opened: No such file or directory");
}

}  // namespace
