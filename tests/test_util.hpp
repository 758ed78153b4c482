#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/quality/quality.hpp"

namespace candor::test {

inline std::string datasets_dir() {
  if (const char* env = std::getenv("CANDOR_DATASETS")) return env;
  return CANDOR_DATASETS_DIR;
}
inline std::string shared(const std::string& name) { return datasets_dir() + "/" + name; }
inline std::string repo(const std::string& rel) { return std::string(CANDOR_SOURCE_DIR) + "/" + rel; }

// The words of a command line as a POSIX shell splits them, for tests that write commands as one string:
// spaces separate words; '...' keeps everything literally, "..." too except for \" and \\. No expansion of
// any kind: the words go to the program as arguments (util/process.hpp), never through a shell.
inline std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      in_word = true;
      for (++i; i < line.size() && line[i] != '\''; ++i) word += line[i];
    } else if (c == '"') {
      in_word = true;
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) ++i;
        word += line[i];
      }
    } else {
      in_word = true;
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// The tests' temporary folder: one per checkout, so that the tests of two checkouts run at once on one
// machine (a CI run beside a developer's) never read each other's files.
inline std::filesystem::path temp_dir() {
  const std::size_t checkout = std::hash<std::string>{}(CANDOR_SOURCE_DIR);
  return std::filesystem::temp_directory_path() / ("candor-tests-" + std::to_string(checkout % 1000000007));
}

// Writes text to a fresh file under the test temp dir and returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  auto dir = temp_dir();
  std::filesystem::create_directories(dir);
  auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

// An ARFF text written to a temporary file and read.
inline Dataset arff(const std::string& name, const std::string& text) { return read_arff(write_temp(name, text)); }
// Every row of d, in order, and a unit weight for each.
inline std::vector<std::size_t> all_rows(const Dataset& d) {
  std::vector<std::size_t> r(d.rows());
  std::iota(r.begin(), r.end(), 0);
  return r;
}
inline std::vector<double> unit_weights(const Dataset& d) { return std::vector<double>(d.rows(), 1.0); }

// A quality measure's value for a rule of length 1 with these class counts.
inline double quality_value(const std::string& name, std::vector<double> covered, std::vector<double> totals,
                            int target, double m = 2) {
  auto measure = make_quality(name, QualityParams{m, nullptr});
  return measure->evaluate(make_rule_stats(covered, totals, target, 1));
}

}  // namespace candor::test
