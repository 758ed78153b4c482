#include "candor/util/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace candor {

namespace {

// Closes a descriptor once, whatever path leaves the function.
struct Descriptor {
  int fd = -1;
  ~Descriptor() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

struct SpawnAttributes {
  posix_spawnattr_t attributes;
  SpawnAttributes() { posix_spawnattr_init(&attributes); }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes); }
};

struct FileActions {
  posix_spawn_file_actions_t actions;
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
};

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (argv.empty()) throw std::invalid_argument("run_process: no program");
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  FileActions fa;
  Descriptor read_end, write_end;
  if (options.capture_stdout) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe for a child process");
    read_end.fd = fds[0];
    write_end.fd = fds[1];
    posix_spawn_file_actions_adddup2(&fa.actions, write_end.fd, 1);
  } else if (options.stdout_to_stderr) {
    posix_spawn_file_actions_adddup2(&fa.actions, 2, 1);
  }
  if (options.stderr_to_stdout)
    posix_spawn_file_actions_adddup2(&fa.actions, 1, 2);
  else if (!options.stderr_path.empty())
    posix_spawn_file_actions_addopen(&fa.actions, 2, options.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);

  if (options.stdin_null) posix_spawn_file_actions_addopen(&fa.actions, 0, "/dev/null", O_RDONLY, 0);
  if (!options.working_directory.empty())
    posix_spawn_file_actions_addchdir_np(&fa.actions, options.working_directory.c_str());
  SpawnAttributes sa;
  const bool limited = options.time_limit_seconds > 0;
  if (limited) {  // a group of its own, so that the limit ends what the child started (a compiler's passes)
    posix_spawnattr_setflags(&sa.attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&sa.attributes, 0);
  }

  ProcessResult result;
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &fa.actions, &sa.attributes, args.data(), environ);
  write_end.reset();                // the child holds its copy; EOF comes when it exits
  if (spawned != 0) return result;  // 127: not found or not executable
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options.time_limit_seconds));
  auto past_deadline = [&] {
    if (!limited || result.timed_out || Clock::now() < deadline) return false;
    ::kill(-pid, SIGKILL);
    result.timed_out = true;
    return true;
  };
  if (options.capture_stdout) {
    char buffer[65536];
    for (;;) {
      if (limited) {
        pollfd p{read_end.fd, POLLIN, 0};
        if (::poll(&p, 1, 100) == 0) {
          if (past_deadline()) break;
          continue;
        }
      }
      const ssize_t n = ::read(read_end.fd, buffer, sizeof buffer);
      if (n > 0)
        result.output.append(buffer, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR)
        break;
      past_deadline();
    }
  }
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, limited && !result.timed_out ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return result;
    if (done == 0 && !past_deadline()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFEXITED(status))
    result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.exit_code = 128 + WTERMSIG(status);
  return result;
}

}  // namespace candor
