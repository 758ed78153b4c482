#include "candor/experiments/weka.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "candor/data/readers.hpp"
#include "candor/eval/metrics.hpp"

namespace candor {

namespace fs = std::filesystem;

std::string weka_jar() {
  if (const char* env = std::getenv("CANDOR_WEKA_JAR")) return env;
  return "/usr/share/java/weka.jar";
}

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; returns its exit status and its standard output (standard error goes to `err`).
int run(const std::string& command, std::string& out) {
  out.clear();
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 65536> buffer;
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  return pclose(pipe);
}

std::atomic<unsigned> counter{0};

}  // namespace

bool weka_available() {
  static const bool available = [] {
    if (!fs::exists(weka_jar())) return false;
    std::string out;
    return run("java -cp " + shell_quote(weka_jar()) + " weka.core.Version 2>/dev/null", out) == 0 && !out.empty();
  }();
  return available;
}

FoldResult evaluate_weka_split(const Dataset& train, const Dataset& test, const std::string& classifier) {
  const fs::path dir = fs::temp_directory_path() /
                       ("candor-weka-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};
  write_arff(train, (dir / "train.arff").string());
  write_arff(test, (dir / "test.arff").string());
  const std::string command = "java -Xmx4g -cp " + shell_quote(weka_jar()) + " " + classifier + " -t " +
                              shell_quote((dir / "train.arff").string()) + " -T " +
                              shell_quote((dir / "test.arff").string()) + " -p 0 -distribution 2>" +
                              shell_quote((dir / "stderr.txt").string());
  FoldResult out;
  const auto t0 = std::chrono::steady_clock::now();
  std::string text;
  const int status = run(command, text);
  out.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status != 0) {
    std::ifstream err(dir / "stderr.txt");
    std::stringstream msg;
    msg << err.rdbuf();
    throw std::runtime_error("Weka (" + classifier + ") failed: " + msg.str() + text.substr(0, 500));
  }
  // Lines "inst# actual predicted [+] d1,d2,...", the predicted class's probability marked with '*'.
  std::vector<std::vector<double>> proba;
  std::istringstream lines(text);
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("inst#") != std::string::npos) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    std::istringstream tokens(line);
    std::vector<std::string> cells;
    for (std::string t; tokens >> t;) cells.push_back(t);
    if (cells.size() < 4) continue;
    std::vector<double> p;
    std::stringstream dist(cells.back());
    for (std::string v; std::getline(dist, v, ',');) {
      if (!v.empty() && v[0] == '*') v.erase(0, 1);
      p.push_back(std::stod(v));
    }
    if (p.size() != test.num_classes()) throw std::runtime_error("Weka (" + classifier + "): cannot read '" + line + "'");
    double sum = 0;
    for (double x : p) sum += x;
    for (double& x : p) x = sum > 0 ? x / sum : 1.0 / static_cast<double>(p.size());  // Weka rounds to 3 digits
    proba.push_back(std::move(p));
  }
  if (proba.size() != test.rows())
    throw std::runtime_error("Weka (" + classifier + ") predicted " + std::to_string(proba.size()) + " of " +
                             std::to_string(test.rows()) + " test rows");
  out.metrics = compute_metrics(test.y, proba);
  out.adjusted_accuracy = out.metrics.accuracy;  // Weka's classifiers decide every case
  out.undecided_rate = 0;
  out.rules = 0;
  out.rule_rmse = NAN;
  out.test_rows = test.rows();
  return out;
}

}  // namespace candor
