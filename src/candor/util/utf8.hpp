#pragma once
// UTF-8 as the readers accept it and the exports escape it: well-formed sequences only (no overlong forms,
// no surrogates, nothing past U+10FFFF), so that every text candor keeps means one string of characters in
// JSON, Python, SQL and HTML alike.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace candor {

// The byte offset of the first byte that does not begin or continue a well-formed sequence, or npos.
std::size_t invalid_utf8_at(std::string_view text);

// The code points of `text`; throws std::invalid_argument "WHAT is not valid UTF-8 (byte N)" when it is not.
std::vector<char32_t> utf8_code_points(std::string_view text, const std::string& what);

}  // namespace candor
