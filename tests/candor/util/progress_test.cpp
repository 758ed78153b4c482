// Progress lines: silent for terminal-only work when stderr is no terminal (as under the tests), the final
// count for other work, nothing at all once quiet.
#include <gtest/gtest.h>
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "candor/util/progress.hpp"

using namespace candor;

namespace {

// What `work` writes to std::cerr.
template <class Work>
std::string captured(Work&& work) {
  std::ostringstream sink;
  auto* before = std::cerr.rdbuf(sink.rdbuf());
  work();
  std::cerr.rdbuf(before);
  return sink.str();
}

}  // namespace

TEST(Progress, TerminalOnlyWorkIsSilentWithoutATerminalAndOtherWorkReportsItsEnd) {
  if (isatty(2)) GTEST_SKIP() << "stderr is a terminal here";
  const std::string terminal_only = captured([] {
    Progress p("evaluate", "folds", 3, true);
    for (int i = 0; i < 3; ++i) p.step();
  });
  EXPECT_EQ(terminal_only, "");
  const std::string logged = captured([] {
    Progress p("grid", "cells run", 2);
    p.step("a");
    p.step("b");
  });
  EXPECT_NE(logged.find("grid: 2/2 cells run, 0 s elapsed, about 0 s left; last b\n"), std::string::npos) << logged;
  set_progress_quiet(true);
  const std::string quiet = captured([] {
    Progress p("grid", "cells run", 1);
    p.step();
  });
  set_progress_quiet(false);
  EXPECT_EQ(quiet, "");
}

// Work inside other work (a fold's fit inside an evaluation, EVC's permutations inside a fit) is silent: the
// outermost reports, and once it is over the next work reports again.
TEST(Progress, OnlyTheOutermostWorkReports) {
  if (isatty(2)) GTEST_SKIP() << "stderr is a terminal here";
  const std::string nested = captured([] {
    Progress outer("grid", "cells run", 1);
    {
      Progress inner("grid inside", "cells run", 1);
      inner.step();
    }
    outer.step();
  });
  EXPECT_EQ(nested, "grid: 1/1 cells run, 0 s elapsed, about 0 s left\n");
  const std::string after = captured([] {
    Progress next("next", "cells run", 1);
    next.step();
  });
  EXPECT_EQ(after, "next: 1/1 cells run, 0 s elapsed, about 0 s left\n");
}
