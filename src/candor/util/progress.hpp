#pragma once
// A progress line on stderr for long work: "LABEL: done/total UNIT, elapsed, about ... left". step() is called
// once per finished task, from any thread. Nothing is written in the first 2 seconds (short work stays
// silent); after that at most every 2 seconds and at the end, rewriting one line on a terminal and adding lines
// otherwise. `terminal_only` work (fit, evaluate, stability) writes nothing unless stderr is a terminal, so
// pipes and logs stay clean; set_progress_quiet(true) (the CLI's --quiet) silences every Progress. A Progress
// made while another is alive (a fold's fit inside an evaluation, EVC's permutations inside a fit) is silent:
// the outermost work reports.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

#include "candor/fit.hpp"

namespace candor {

// set_progress_quiet and set_progress_everywhere (candor/fit.hpp) silence it, or make terminal-only work report
// where stderr is no terminal too (the Python estimators' verbose), as lines rather than one rewritten line.

class Progress {
 public:
  Progress(std::string label, std::string unit, std::size_t total, bool terminal_only = false);
  ~Progress();
  // `last` names the task just finished (optional).
  void step(const std::string& last = "");

 private:
  std::mutex mutex_;
  std::string label_, unit_;
  std::size_t total_, done_ = 0;
  std::chrono::steady_clock::time_point start_, last_report_;
  bool tty_, terminal_only_, enabled_, shown_ = false;
};

}  // namespace candor
