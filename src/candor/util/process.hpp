#pragma once
// Child processes started with an argument vector (posix_spawn), never through a shell: no text of a
// config, a path or an option is ever read by /bin/sh, so quotes, `;`, `$(...)` and newlines in it are
// just characters of one argument.
#include <string>
#include <vector>

namespace candor {

struct ProcessOptions {
  bool capture_stdout = false;    // collect the child's standard output into ProcessResult::output
  bool stdout_to_stderr = false;  // send it to our standard error instead (our stdout may carry JSON or CSV)
  bool stderr_to_stdout = false;  // the child's standard error joins its standard output (captured with it)
  std::string stderr_path;        // else, when not empty, this file, created or truncated; else our stderr
  std::string working_directory;  // when not empty, the child starts there
  bool stdin_null = false;        // the child reads /dev/null instead of our standard input
  // When positive, the child and every process it started (its own process group) are killed after this many
  // seconds; ProcessResult::timed_out says so.
  double time_limit_seconds = 0;
};

struct ProcessResult {
  // The child's exit status; 128 + N when signal N ended it; 127 when the program could not be started.
  int exit_code = 127;
  std::string output;  // standard output when captured
  bool timed_out = false;
};

// Runs argv[0] (looked up on PATH when it holds no '/') with arguments argv[1..] and waits for it.
// Safe to call from several threads at once: the pipe is close-on-exec, so no other child inherits it.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

}  // namespace candor
