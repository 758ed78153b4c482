#include "candor/util/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace candor {

namespace {

std::string reason(int error) { return std::strerror(error); }

// Writes all of `data` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

std::atomic<unsigned> temporary_counter{0};

// Writes straight into what is not a regular file (/dev/null, /dev/stdout, a FIFO): there is no previous
// file to keep, and renaming over a device would replace the device itself.
void write_special_file(const std::string& path, std::string_view contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw OutputError(path, reason(errno));
  int error = write_all(fd, contents);
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) throw OutputError(path, reason(error));
}

}  // namespace

void write_file_atomic(const std::string& path, std::string_view contents, bool follow_links) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path target(path);
  if (follow_links) {
    const fs::file_status status = fs::status(path, ec);  // of what a link points to
    if (fs::is_directory(status)) throw OutputError(path, "is a directory");
    if (fs::exists(status) && !fs::is_regular_file(status)) return write_special_file(path, contents);
    // A link to a file is followed: the file it names is replaced, and the link stays.
    for (int hops = 0; hops < 40 && fs::is_symlink(target, ec); ++hops) {
      const fs::path next = fs::read_symlink(target, ec);
      target = next.is_absolute() ? next : target.parent_path() / next;
    }
  } else {
    const fs::file_status status = fs::symlink_status(path, ec);
    if (fs::exists(status) && !fs::is_regular_file(status) && !fs::is_symlink(status))
      throw OutputError(path, "is not a regular file");
  }
  // What the file replaced was: its mode and owner pass to the new file.
  struct stat previous {};
  const bool replacing = ::lstat(target.c_str(), &previous) == 0 && S_ISREG(previous.st_mode);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // A name no other writer uses (process, thread counter, clock), hidden beside the target; O_EXCL makes sure.
  int fd = -1;
  std::string temporary;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
    temporary = (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                        std::to_string(temporary_counter++) + "-" + std::to_string(tick % 1000000)))
                    .string();
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) throw OutputError(path, reason(errno));
  }
  if (fd < 0) throw OutputError(path, "no free temporary name beside it");
  int error = 0;
  std::string why;
  if (replacing) {
    // The owner first: changing it clears the set-user-ID and set-group-ID bits, which the mode then restores.
    if ((previous.st_uid != ::geteuid() || previous.st_gid != ::getegid()) &&
        ::fchown(fd, previous.st_uid, previous.st_gid) != 0) {
      error = errno;
      why = "it belongs to another user or group, which candor cannot give the new file (" + reason(error) + ")";
    }
    if (error == 0 && ::fchmod(fd, previous.st_mode & 07777) != 0) error = errno;
  }
  if (error == 0) error = write_all(fd, contents);
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(temporary.c_str(), target.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    throw OutputError(path, why.empty() ? reason(error) : why);
  }
  // The rename itself reaches the disk with the folder's entry.
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

void append_to_file(const std::string& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0) throw OutputError(path, reason(errno));
  int error = write_all(fd, text);
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) throw OutputError(path, reason(error));
}

std::string csv_field(const std::string& value) {
  const bool padded = !value.empty() && (value.front() == ' ' || value.back() == ' ');
  if (!padded && value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

void finish_standard_output() {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (failed) {
    const int error = errno;
    std::cout.clear();
    std::clearerr(stdout);
    throw OutputError("standard output", error ? reason(error) : "write error");
  }
}

}  // namespace candor
