#pragma once
// What every fuzz target checks: the errors candor reports to its users (InputError, std::invalid_argument;
// exit 2 in the CLI) may end a run; any other exception escapes, terminates the process and is a finding,
// as are crashes, leaks and undefined behaviour (the targets build with ASan and UBSan).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "candor/errors.hpp"

namespace candor::fuzz {

template <class F>
void expected_errors_only(F&& f) {
  try {
    f();
  } catch (const InputError&) {
  } catch (const std::invalid_argument&) {
  }
}

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace candor::fuzz
