#pragma once
// Integers read from files candor wrote, checked. nlohmann's get<int>() converts any JSON number, 3.1e106 or
// 2.5 included, and a value that does not fit is undefined behaviour; get<std::size_t>() wraps -5 around.
// These accept only integers written as integers and within [lo, hi], and throw a JsonEntryError (a
// std::invalid_argument) about the entry, naming `what`, otherwise.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "candor/util/json_error.hpp"

namespace candor {

inline long long json_integer(const nlohmann::json& j, const std::string& what,
                              long long lo = std::numeric_limits<int>::min(),
                              long long hi = std::numeric_limits<int>::max()) {
  bool fits = false;
  long long value = 0;
  if (j.is_number_unsigned()) {
    const auto u = j.get<std::uint64_t>();
    fits = u <= static_cast<std::uint64_t>(std::numeric_limits<long long>::max());
    value = fits ? static_cast<long long>(u) : 0;
  } else if (j.is_number_integer()) {
    fits = true;
    value = j.get<long long>();
  }
  if (!fits || value < lo || value > hi)
    throw JsonEntryError(j, what + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                "], not " + j.dump().substr(0, 40));
  return value;
}

inline int json_int(const nlohmann::json& j, const std::string& what, int lo = std::numeric_limits<int>::min(),
                    int hi = std::numeric_limits<int>::max()) {
  return static_cast<int>(json_integer(j, what, lo, hi));
}

inline std::vector<int> json_ints(const nlohmann::json& j, const std::string& what,
                                  int lo = std::numeric_limits<int>::min(), int hi = std::numeric_limits<int>::max()) {
  if (!j.is_array()) throw std::invalid_argument(what + " must be a list of integers");
  std::vector<int> out;
  out.reserve(j.size());
  for (const auto& x : j) out.push_back(json_int(x, what, lo, hi));
  return out;
}

// An entry that no writer of candor's puts where the file has it: a typo or a hand edit that would otherwise
// be ignored without a word. Thrown at the entry's value; model_from_json names it by its JSON pointer.
class UnknownJsonEntry : public JsonEntryError {
 public:
  using JsonEntryError::JsonEntryError;
};

// One entry a writer puts in an object: its name, and whether it writes it for this object (an entry written
// for some objects only, a numeric split's threshold, is unknown on the others).
struct KnownEntry {
  std::string_view name;
  bool written = true;
};

// Throws UnknownJsonEntry at the first entry of object `j` that `known` does not hold as written. Each reader
// checks the objects it reads against the entries their writer writes: linear in the file, where checking
// the file against the model written out again cost as much as reading it twice.
// `also` holds entries shared by several writers (a model file's header).
inline void check_known_entries(const nlohmann::json& j, std::initializer_list<KnownEntry> known,
                                std::initializer_list<KnownEntry> also = {}) {
  if (!j.is_object()) return;  // the reader's own checks name what the value should be
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const auto is_key = [&](const KnownEntry& e) { return e.written && e.name == key; };
    if (std::none_of(known.begin(), known.end(), is_key) && std::none_of(also.begin(), also.end(), is_key))
      throw UnknownJsonEntry(*it, "unknown entry");
  }
}

}  // namespace candor
