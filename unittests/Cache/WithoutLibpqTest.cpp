//===- WithoutLibpqTest.cpp - A build without libpq refuses PostgreSQL ----===//
//
// Built with lib/Cache/PostgresStore.cpp compiled as a build without libpq
// compiles it: a postgresql:// cache is refused with the reason, and the
// message still hides the password.
//
//===----------------------------------------------------------------------===//

#include "CacheStore.h"
#include "Support/ExpectedValue.h"

#include "gtest/gtest.h"

using namespace marlmap;

TEST(WithoutLibpq, APostgresqlCacheIsRefusedWithTheReason) {
  std::string error;
  EXPECT_FALSE(valueOr(
      openPostgresStore("postgresql://marlmap:s3cret@db.example:5432/cache"),
      error));
  EXPECT_NE(error.find("built without libpq"), std::string::npos) << error;
  EXPECT_NE(error.find("postgresql://marlmap:***@db.example:5432/cache"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("s3cret"), std::string::npos) << error;
}
