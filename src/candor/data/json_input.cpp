#include "candor/data/json_input.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "candor/errors.hpp"
#include "candor/util/json_error.hpp"

namespace candor {

namespace {

std::size_t line_of(const std::string& text, std::size_t byte) {
  const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min(byte, text.size()));
  return 1 + static_cast<std::size_t>(std::count(text.begin(), end, '\n'));
}

// The byte at which nesting first passes kMaxJsonDepth, or npos. A scan of its own rather than a parser
// callback: nlohmann's callback parser walks the enclosing container at the end of every object, so a model
// of n nodes took time quadratic in n (a 100,000-node tree took 55 s to read).
std::size_t too_deep_at(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::string::npos;
}

template <class Json>
Json parse_bounded(const std::string& text, const std::string& source) {
  const std::size_t deepest_byte = too_deep_at(text);
  if (deepest_byte != std::string::npos)
    throw InputError(source, line_of(text, deepest_byte),
                     "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(source, line_of(text, e.byte), "not valid JSON: " + json_exception_reason(e));
  } catch (const nlohmann::json::exception& e) {  // a number out of range (1e999)
    throw InputError(source, 0, "not valid JSON: " + json_exception_reason(e));
  }
}

std::string read_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "is a directory, not a JSON file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path, 0, "cannot open the file");
  std::ostringstream text;
  text << f.rdbuf();
  return text.str();
}

}  // namespace

nlohmann::json parse_json_input(const std::string& text, const std::string& source) {
  return parse_bounded<nlohmann::json>(text, source);
}

nlohmann::ordered_json parse_ordered_json_input(const std::string& text, const std::string& source) {
  return parse_bounded<nlohmann::ordered_json>(text, source);
}

nlohmann::json read_json_file(const std::string& path) { return parse_json_input(read_text(path), path); }

nlohmann::ordered_json read_ordered_json_file(const std::string& path) {
  return parse_ordered_json_input(read_text(path), path);
}

std::string json_pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace candor
