#include "candor/util/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

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

  ProcessResult result;
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &fa.actions, nullptr, args.data(), environ);
  write_end.reset();                // the child holds its copy; EOF comes when it exits
  if (spawned != 0) return result;  // 127: not found or not executable
  if (options.capture_stdout) {
    char buffer[65536];
    for (;;) {
      const ssize_t n = ::read(read_end.fd, buffer, sizeof buffer);
      if (n > 0)
        result.output.append(buffer, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR)
        break;
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return result;
  if (WIFEXITED(status))
    result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.exit_code = 128 + WTERMSIG(status);
  return result;
}

}  // namespace candor
