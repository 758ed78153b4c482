#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "candor/data/readers.hpp"
#include "candor/quality/quality.hpp"

namespace candor::test {

inline std::string datasets_dir() {
  if (const char* env = std::getenv("CANDOR_DATASETS")) return env;
  return CANDOR_DATASETS_DIR;
}
inline std::string shared(const std::string& name) { return datasets_dir() + "/" + name; }
inline std::string repo(const std::string& rel) { return std::string(CANDOR_SOURCE_DIR) + "/" + rel; }

// Writes text to a fresh file under the test temp dir and returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  auto dir = std::filesystem::temp_directory_path() / "candor-tests";
  std::filesystem::create_directories(dir);
  auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

// A quality measure's value for a rule of length 1 with these class counts.
inline double quality_value(const std::string& name, std::vector<double> covered, std::vector<double> totals,
                            int target, double m = 2) {
  auto measure = make_quality(name, QualityParams{m, nullptr});
  return measure->evaluate(make_rule_stats(covered, totals, target, 1));
}

}  // namespace candor::test
