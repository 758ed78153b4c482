#pragma once
// JSON files from outside (model files, grid configs, grid state) are untrusted input: parsed with a bound
// on nesting, since code that walks a document recursively (and nlohmann's own dump) would otherwise run out
// of stack on 100,000 nested objects, and with every error an InputError naming the file and line.
#include <nlohmann/json.hpp>
#include <string>

namespace candor {

// Deeper than any file candor writes (a model nests about 8 levels), shallow enough for any stack.
inline constexpr int kMaxJsonDepth = 100;

// Parses `text` read from `source`. Throws InputError(source, line, ...) for a syntax error, a number out of
// range (1e999) or nesting deeper than kMaxJsonDepth.
nlohmann::json parse_json_input(const std::string& text, const std::string& source);
nlohmann::ordered_json parse_ordered_json_input(const std::string& text, const std::string& source);

// Reads and parses the file at `path` (InputError when it cannot be read or is a directory).
nlohmann::json read_json_file(const std::string& path);
nlohmann::ordered_json read_ordered_json_file(const std::string& path);

// A JSON pointer's reference token: '~' as "~0" and '/' as "~1" (RFC 6901).
std::string json_pointer_token(const std::string& key);

}  // namespace candor
