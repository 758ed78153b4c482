#include "candor/util/progress.hpp"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <iostream>
#include <sstream>
#include <utility>

namespace candor {

namespace {

std::atomic<bool> quiet{false};
std::atomic<bool> everywhere{false};
// Progress objects alive now: work inside other work (a fold's fit inside candor evaluate, EVC's permutations
// inside a fit) stays silent, so that one line reports the outermost work.
std::atomic<int> open_progress{0};

std::string duration(double seconds) {
  std::ostringstream s;
  if (seconds < 60)
    s << static_cast<int>(std::lround(seconds)) << " s";
  else if (seconds < 3600)
    s << static_cast<int>(seconds / 60) << " min " << static_cast<int>(std::fmod(seconds, 60)) << " s";
  else
    s << static_cast<int>(seconds / 3600) << " h " << static_cast<int>(std::fmod(seconds, 3600) / 60) << " min";
  return s.str();
}

}  // namespace

void set_progress_quiet(bool q) { quiet = q; }
void set_progress_everywhere(bool e) { everywhere = e; }

Progress::Progress(std::string label, std::string unit, std::size_t total, bool terminal_only)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      last_report_(start_),
      tty_(isatty(2)),
      terminal_only_(terminal_only),
      enabled_(open_progress.fetch_add(1) == 0 && !quiet && (tty_ || !terminal_only || everywhere)) {}

Progress::~Progress() {
  open_progress.fetch_sub(1);
  // A line rewritten on a terminal ends with the work, so that what is printed next starts on its own line.
  if (shown_ && tty_ && done_ < total_) std::cerr << "\n" << std::flush;
}

void Progress::step(const std::string& last) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  ++done_;
  const auto now = std::chrono::steady_clock::now();
  // Work that is over within 2 seconds says nothing where it reports only to a terminal; elsewhere its end
  // is reported (a grid's log ends with its count).
  if (now - last_report_ <= std::chrono::seconds(2) && (done_ < total_ || (terminal_only_ && !shown_))) return;
  last_report_ = now;
  shown_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double left = elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_);
  std::cerr << (tty_ ? "\r" : "") << label_ << ": " << done_ << "/" << total_ << " " << unit_ << ", "
            << duration(elapsed) << " elapsed, about " << duration(left) << " left"
            << (last.empty() ? "" : "; last " + last) << (tty_ && done_ < total_ ? "    " : "\n") << std::flush;
}

}  // namespace candor
