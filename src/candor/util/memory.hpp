#pragma once
// Refusing work that cannot fit in memory before it starts, with a message naming what to change, instead of
// growing until the kernel kills the process without a word.
#include <cstdint>
#include <string>

#include "candor/errors.hpp"

namespace candor {

// The memory this process may use: the smaller of the machine's physical memory and its cgroup's limit
// (containers); $CANDOR_MEMORY_LIMIT (bytes, or a number with K, M, G or T) sets it instead.
std::uint64_t memory_limit_bytes();

// Throws MemoryLimitError("WHAT needs about X GB, more than the Y GB available; ADVICE") when `bytes` exceed
// memory_limit_bytes(). `bytes` is a double so that products of sizes cannot overflow.
void check_memory(double bytes, const std::string& what, const std::string& advice);

}  // namespace candor
