#pragma once
// candor's public API: the errors it throws besides std::invalid_argument (bad options or a malformed model)
// and std::bad_alloc. Each is the user's to fix, and the CLI maps each to exit code 2.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace candor {

// Text from the input made safe to echo in a message: control characters (NUL, escapes) shown as \xNN,
// and text longer than `longest` bytes cut there, saying how many bytes were left out.
inline std::string printable(const std::string& text, std::size_t longest) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < longest; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f)
      out.append("\\x").append(1, digits[c >> 4]).append(1, digits[c & 15]);
    else
      out += text[i];
  }
  if (text.size() > longest) out.append("... (" + std::to_string(text.size() - longest) + " more bytes)");
  return out;
}

// A problem with input data: names the file, the 1-based line (0 when the problem is not tied to a line)
// and the reason. what() reads "FILE:LINE: REASON" so editors can jump to it. The reason passes through
// printable(reason, kLongestReason): a huge or binary value echoed back stays short and readable, while the
// longest list of known names (the learner parameters, about 850 bytes) is shown whole.
class InputError : public std::runtime_error {
 public:
  static constexpr std::size_t kLongestReason = 1200;
  InputError(std::string file, std::size_t line, const std::string& reason)
      : std::runtime_error(format(file, line, printable(reason, kLongestReason))),
        file_(std::move(file)),
        line_(line),
        reason_(printable(reason, kLongestReason)) {}
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  const std::string& reason() const { return reason_; }

 private:
  static std::string format(const std::string& file, std::size_t line, const std::string& reason) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) out.append(":").append(std::to_string(line));
    out.append(": ").append(reason);
    return out;
  }
  std::string file_;
  std::size_t line_;
  std::string reason_;
};

// Too little memory for what the input and options ask: the CLI maps it to exit code 2, Python to MemoryError.
class MemoryLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file or stream that could not be written. what() reads "PATH: cannot write: REASON"; the CLI maps it to
// exit code 2 (the place given is full, read-only or missing: the user's to fix).
class OutputError : public std::runtime_error {
 public:
  OutputError(const std::string& path, const std::string& reason)
      : std::runtime_error(path + ": cannot write: " + reason) {}
};

}  // namespace candor
