#pragma once
// Errors caused by the user's input (files, options). The CLI maps them to exit code 2.
#include <stdexcept>
#include <string>

namespace candor {

// A problem with input data: names the file, the 1-based line (0 when the problem is not tied to a line)
// and the reason. what() reads "FILE:LINE: REASON" so editors can jump to it.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::size_t line, const std::string& reason)
      : std::runtime_error(format(file, line, reason)), file_(std::move(file)), line_(line), reason_(reason) {}
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

}  // namespace candor
