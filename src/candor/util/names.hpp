#pragma once

#include <string>
#include <vector>

namespace candor {

// The message for a name that is none of `known`: "unknown WHAT 'given' (known: a, b, c)", followed by
// "; did you mean 'b'?" when one known name is within a small edit distance of it (a typo, a missing or
// doubled letter, two letters swapped).
std::string unknown_name_message(const std::string& what, const std::string& given,
                                 const std::vector<std::string>& known);

// The known name closest to `given` by edit distance (insertions, deletions, substitutions and swaps of
// neighbours, case ignored) when it is at most max(1, given's length / 3) away; empty otherwise.
std::string closest_name(const std::string& given, const std::vector<std::string>& known);

}  // namespace candor
