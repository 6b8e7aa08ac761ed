//===- TimeSharesTest.cpp - A network's time shared among its problems ----===//

#include "TimeShares.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// The deadline is far enough that the microseconds a test takes do not
/// show in the shares, which are compared within a second.
TimeShares sharesOf(double seconds, unsigned workers, double totalWeight) {
  return TimeShares(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(seconds)),
                    workers, totalWeight);
}

TEST(TimeShares, AProblemGetsItsWeightsPartOfWhatIsNotPromised) {
  TimeShares shares = sharesOf(1000, 2, 4.0);
  // 2000 worker-seconds, a quarter of them.
  EXPECT_NEAR(shares.start(0, 1.0), 500, 1);
  // 1500 left unpromised, a third of them.
  EXPECT_NEAR(shares.start(1, 1.0), 500, 1);
  // The first ends early: its promise goes back; the last weight gets
  // everything left but never past the deadline.
  shares.finish(0);
  EXPECT_NEAR(shares.start(2, 2.0), 1000, 1);
}

TEST(TimeShares, WaitingProblemsShareWhatIsLeftByWeight) {
  TimeShares shares = sharesOf(1000, 1, 2.0);
  EXPECT_NEAR(shares.start(0, 1.0), 500, 1);
  shares.finish(0);
  EXPECT_NEAR(shares.start(1, 1.0), 1000, 1);
  shares.finish(1);
  // Both stopped at their shares (here, at once) and wait: the waiting
  // weights share the time left, as the starting ones did.
  shares.wait(1.0);
  shares.wait(3.0);
  EXPECT_NEAR(shares.resume(0, 1.0), 250, 1);
  EXPECT_NEAR(shares.resume(1, 3.0), 750, 1);
  EXPECT_GT(shares.secondsLeft(), 990);
}

TEST(TimeShares, ASecondRoundSharesOnlyAmongTheWaiting) {
  TimeShares shares = sharesOf(1000, 2, 2.0);
  EXPECT_NEAR(shares.start(0, 1.0), 1000, 1);
  EXPECT_NEAR(shares.start(1, 1.0), 1000, 1);
  // The first stops and waits while the second still runs its first
  // round: alone among the waiting, it gets the 1000 worker-seconds not
  // promised to the second.
  shares.finish(0);
  shares.wait(1.0);
  EXPECT_NEAR(shares.resume(0, 1.0), 1000, 1);
}

TEST(TimeShares, NothingPastTheDeadline) {
  TimeShares shares = sharesOf(-1, 2, 1.0);
  EXPECT_EQ(shares.start(0, 1.0), 0.0);
  shares.finish(0);
  shares.wait(1.0);
  EXPECT_EQ(shares.resume(0, 1.0), 0.0);
  EXPECT_LT(shares.secondsLeft(), 0.0);
}

} // namespace
