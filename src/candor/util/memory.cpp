#include "candor/util/memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace candor {

namespace {

// "12G", "512M", "1000000": bytes; 0 for text that is not such a size.
std::uint64_t parse_size(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return 0;
  }
  double scale = 1;
  if (used < text.size()) {
    switch (text[used]) {
      case 'k':
      case 'K': scale = 1024.0; break;
      case 'm':
      case 'M': scale = 1024.0 * 1024; break;
      case 'g':
      case 'G': scale = 1024.0 * 1024 * 1024; break;
      case 't':
      case 'T': scale = 1024.0 * 1024 * 1024 * 1024; break;
      default: return 0;
    }
  }
  const double bytes = value * scale;
  return bytes > 0 && bytes < 1.8e19 ? static_cast<std::uint64_t>(bytes) : 0;
}

std::uint64_t cgroup_limit() {
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream f(path);
    std::string text;
    if (f >> text && text != "max")
      if (const std::uint64_t bytes = parse_size(text); bytes > 0) return bytes;
  }
  return 0;
}

std::string gigabytes(double bytes) {
  std::ostringstream s;
  s.precision(bytes < 1e10 ? 2 : 3);
  s << bytes / (1024.0 * 1024 * 1024) << " GB";
  return s.str();
}

}  // namespace

std::uint64_t memory_limit_bytes() {
  if (const char* env = std::getenv("CANDOR_MEMORY_LIMIT"))
    if (const std::uint64_t bytes = parse_size(env); bytes > 0) return bytes;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  std::uint64_t limit =
      pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : UINT64_MAX;
  if (const std::uint64_t cgroup = cgroup_limit(); cgroup > 0) limit = std::min(limit, cgroup);
  return limit;
}

void check_memory(double bytes, const std::string& what, const std::string& advice) {
  const double limit = static_cast<double>(memory_limit_bytes());
  if (!(bytes <= limit))
    throw MemoryLimitError(what + " needs about " + gigabytes(bytes) + ", more than the " + gigabytes(limit) +
                           " this machine allows; " + advice);
}

}  // namespace candor
