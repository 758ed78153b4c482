#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace candor {

// An option value's name and the enum it reads as. A component declares its names once, as an array of
// these beside its enum; reading, the list in messages and in the reference all come from that array.
template <class E>
struct Named {
  const char* name;
  E value;
};

template <class E, std::size_t N>
std::vector<std::string> names_of(const Named<E> (&table)[N]) {
  std::vector<std::string> out;
  for (const auto& entry : table) out.emplace_back(entry.name);
  return out;
}

// The enum named `text`; throws std::invalid_argument with unknown_name_message(what, ...) otherwise.
template <class E, std::size_t N>
E parse_named(const Named<E> (&table)[N], const std::string& what, const std::string& text);

// The first name of `value` in `table`.
template <class E, std::size_t N>
const char* name_of(const Named<E> (&table)[N], E value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  throw std::logic_error("a value without a name");
}

// The message for a name that is none of `known`: "unknown WHAT 'given'; did you mean 'b'? (known: a, b,
// c)", the suggestion only when one known name is within a small edit distance of it (a typo, a missing or
// doubled letter, two letters swapped).
std::string unknown_name_message(const std::string& what, const std::string& given,
                                 const std::vector<std::string>& known);

// The known name closest to `given` by edit distance (insertions, deletions, substitutions and swaps of
// neighbours, case ignored) when it is at most max(1, given's length / 3) away; empty otherwise.
std::string closest_name(const std::string& given, const std::vector<std::string>& known);

template <class E, std::size_t N>
E parse_named(const Named<E> (&table)[N], const std::string& what, const std::string& text) {
  for (const auto& entry : table)
    if (text == entry.name) return entry.value;
  throw std::invalid_argument(unknown_name_message(what, text, names_of(table)));
}

}  // namespace candor
