#include "candor/util/utf8.hpp"

#include <stdexcept>

namespace candor {

namespace {

// Decodes the sequence at text[i]: its code point and length, or length 0 when it is not well formed.
std::size_t decode(std::string_view text, std::size_t i, char32_t& cp) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t extra = lead < 0x80           ? 0
                            : (lead >> 5) == 0x6  ? 1
                            : (lead >> 4) == 0xe  ? 2
                            : (lead >> 3) == 0x1e ? 3
                                                  : 4;
  if (extra == 4 || i + extra >= text.size() + (extra == 0 ? 1 : 0)) return 0;
  cp = extra == 0 ? lead : lead & (0x3fu >> extra);
  for (std::size_t k = 1; k <= extra; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (next & 0x3f);
  }
  static constexpr char32_t smallest[] = {0, 0x80, 0x800, 0x10000};
  if (cp < smallest[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return extra + 1;
}

}  // namespace

std::size_t invalid_utf8_at(std::string_view text) {
  char32_t cp = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {  // the common case, without decoding
      ++i;
      continue;
    }
    const std::size_t length = decode(text, i, cp);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::vector<char32_t> utf8_code_points(std::string_view text, const std::string& what) {
  std::vector<char32_t> out;
  char32_t cp = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = decode(text, i, cp);
    if (length == 0) throw std::invalid_argument(what + " is not valid UTF-8 (byte " + std::to_string(i + 1) + ")");
    out.push_back(cp);
    i += length;
  }
  return out;
}

}  // namespace candor
