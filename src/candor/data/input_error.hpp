#pragma once
// Errors caused by the user's input (files, options). The CLI maps them to exit code 2.
#include <stdexcept>
#include <string>

namespace candor {

// A problem with input data: names the file, the 1-based line (0 when the problem is not tied to a line)
// and the reason. what() reads "FILE:LINE: REASON" so editors can jump to it. The reason is made safe to
// print: control characters (NUL, escapes) shown as \xNN, and a reason longer than 500 bytes (a huge value
// echoed back) cut there with the number of bytes left out.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::size_t line, const std::string& reason)
      : std::runtime_error(format(file, line, printable(reason))),
        file_(std::move(file)),
        line_(line),
        reason_(printable(reason)) {}
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  const std::string& reason() const { return reason_; }

 private:
  static std::string printable(const std::string& reason) {
    constexpr std::size_t kLongest = 500;
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < reason.size() && i < kLongest; ++i) {
      const auto c = static_cast<unsigned char>(reason[i]);
      if (c < 0x20 || c == 0x7f) out.append("\\x").append(1, digits[c >> 4]).append(1, digits[c & 15]);
      else out += reason[i];
    }
    if (reason.size() > kLongest) out.append("... (" + std::to_string(reason.size() - kLongest) + " more bytes)");
    return out;
  }
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

}  // namespace candor
