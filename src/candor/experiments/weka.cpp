#include "candor/experiments/weka.hpp"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/util/process.hpp"

namespace candor {

namespace fs = std::filesystem;

std::string weka_jar() {
  if (const char* env = std::getenv("CANDOR_WEKA_JAR")) return env;
  return "/usr/share/java/weka.jar";
}

namespace {

bool is_word_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// weka.classifiers.PACKAGE(.PACKAGE)*.Class: Java identifiers of ASCII letters, digits and '_'.
bool is_classifier_name(const std::string& name) {
  const std::string prefix = "weka.classifiers.";
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return false;
  bool start = true;
  for (std::size_t i = prefix.size(); i < name.size(); ++i) {
    const char c = name[i];
    if (c == '.') {
      if (start) return false;
      start = true;
    } else if (is_word_character(c) && !(start && c >= '0' && c <= '9')) {
      start = false;
    } else {
      return false;
    }
  }
  return !start;
}

// Options of Weka's Evaluation (weka.classifiers.Evaluation, 3.6 to 3.8) that read or write files, choose
// the data or its splits, or change what is printed and parsed here; and a classifier's options that do
// the same. Case matters to Weka: -S (a classifier's seed) is not -s.
const std::vector<std::string>& refused_options() {
  static const std::vector<std::string> refused{"-t",
                                                "-T",
                                                "-c",
                                                "-x",
                                                "-s",
                                                "-d",
                                                "-l",
                                                "-p",
                                                "-i",
                                                "-k",
                                                "-m",
                                                "-o",
                                                "-v",
                                                "-r",
                                                "-g",
                                                "-z",
                                                "-h",
                                                "-help",
                                                "-synopsis",
                                                "-info",
                                                "-distribution",
                                                "-classifications",
                                                "-threshold-file",
                                                "-threshold-label",
                                                "-xml",
                                                "-split-percentage",
                                                "-preserve-order",
                                                "-no-cv",
                                                "-force-batch-training",
                                                "-toggle",
                                                "-no-predictions",
                                                "-num-decimal-places",
                                                "-output-models-for-training-splits",
                                                "-do-not-output-per-class-statistics",
                                                "-model",
                                                "-file",
                                                "-cp",
                                                "-classpath",
                                                "-jar"};
  return refused;
}

// Classifiers whose purpose is to read a file named in their options.
const std::vector<std::string>& refused_classifiers() {
  static const std::vector<std::string> refused{"weka.classifiers.misc.SerializedClassifier",
                                                "weka.classifiers.misc.InputMappedClassifier"};
  return refused;
}

}  // namespace

std::string WekaClassifier::text() const {
  std::string s = class_name;
  for (const auto& o : options) s += " " + o;
  return s;
}

WekaClassifier parse_weka_classifier(const std::string& text) {
  const std::string what = "weka:" + printable(text, 120) + ": ";
  std::vector<std::string> tokens;
  std::string token;
  for (const char c : text + " ") {
    const auto u = static_cast<unsigned char>(c);
    if (c == ' ' || c == '\t') {
      if (!token.empty()) tokens.push_back(std::move(token));
      token.clear();
    } else if (u < 0x20 || u == 0x7f) {
      throw std::invalid_argument(what + "a control character (a newline, say) is not allowed");
    } else if (is_word_character(c) || c == '.' || c == '+' || c == ',' || c == ':' || c == '=' || c == '-') {
      token += c;
    } else {
      throw std::invalid_argument(
          what + "the character '" + printable(std::string(1, c), 4) +
          "' is not allowed (a Weka classifier is CLASS OPTIONS of letters, digits and . _ + , : = -; "
          "no quotes, paths or shell characters)");
    }
  }
  if (tokens.empty()) throw std::invalid_argument(what + "no Weka classifier named");
  WekaClassifier w;
  w.class_name = tokens[0];
  if (!is_classifier_name(w.class_name))
    throw std::invalid_argument(what + "'" + w.class_name +
                                "' is not a Weka classifier class (weka.classifiers.PACKAGE.Class)");
  for (const auto& refused : refused_classifiers())
    if (w.class_name == refused)
      throw std::invalid_argument(what + w.class_name + " reads files; it cannot run from a grid");
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const std::string& o = tokens[i];
    for (const auto& refused : refused_options())
      if (o == refused)
        throw std::invalid_argument(what + "option " + o +
                                    " belongs to Weka's evaluation or names a file; candor "
                                    "sets the data, the folds and the output itself");
    if (o.rfind("-D", 0) == 0 && o.size() > 2 && o.find('=') != std::string::npos)
      throw std::invalid_argument(what + "option " + o + " sets a Java property");
    w.options.push_back(o);
  }
  return w;
}

bool weka_available() {
  static const bool available = [] {
    if (!fs::exists(weka_jar())) return false;
    ProcessOptions quiet;
    quiet.capture_stdout = true;
    quiet.stderr_path = "/dev/null";
    const ProcessResult r = run_process({"java", "-cp", weka_jar(), "weka.core.Version"}, quiet);
    return r.exit_code == 0 && !r.output.empty();
  }();
  return available;
}

FoldResult evaluate_weka_split(const Dataset& train, const Dataset& test, const WekaClassifier& classifier) {
  // A fresh folder only this user can enter (mkdtemp: a unique name, mode 0700), so no other local user can
  // place or swap the fold files Weka reads.
  std::string pattern = (fs::temp_directory_path() / "candor-weka-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder for Weka's fold files");
  const fs::path dir = pattern;
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{dir};
  write_arff(train, (dir / "train.arff").string());
  write_arff(test, (dir / "test.arff").string());
  std::vector<std::string> command{"java", "-Xmx4g", "-cp", weka_jar(), classifier.class_name};
  command.insert(command.end(), classifier.options.begin(), classifier.options.end());
  command.insert(command.end(),
                 {"-t", (dir / "train.arff").string(), "-T", (dir / "test.arff").string(), "-p", "0", "-distribution"});
  ProcessOptions process;
  process.capture_stdout = true;
  process.stderr_path = (dir / "stderr.txt").string();
  FoldResult out;
  const auto t0 = std::chrono::steady_clock::now();
  const ProcessResult result = run_process(command, process);
  const std::string& text = result.output;
  out.fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Weka reports a bad option on its output and may still exit 0: any run that does not predict every test
  // row failed, and what Weka said is the message. The classifier and its options are the config's, so the
  // failure is reported as bad input (exit 2), not as candor's bug.
  auto failed = [&](const std::string& what) {
    std::ifstream err(dir / "stderr.txt");
    std::stringstream msg;
    msg << err.rdbuf();
    // Its first paragraph: Weka follows an error with its whole usage text.
    std::string said = msg.str() + text;
    said.erase(0, std::min(said.size(), said.find_first_not_of(" \t\r\n")));
    said = said.substr(0, said.find("\n\n"));
    while (!said.empty() && std::isspace(static_cast<unsigned char>(said.back()))) said.pop_back();
    return std::invalid_argument("Weka (" + classifier.text() + ") failed: " + what +
                                 (said.empty() ? "" : "; Weka said: " + said.substr(0, 500)));
  };
  if (result.exit_code != 0)
    throw failed(result.exit_code == 127 ? "java could not be started" : "exit " + std::to_string(result.exit_code));
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
    if (p.size() != test.num_classes()) throw failed("cannot read its prediction '" + line + "'");
    double sum = 0;
    for (double x : p) sum += x;
    for (double& x : p) x = sum > 0 ? x / sum : 1.0 / static_cast<double>(p.size());  // Weka rounds to 3 digits
    proba.push_back(std::move(p));
  }
  if (proba.size() != test.rows())
    throw failed("it predicted " + std::to_string(proba.size()) + " of " + std::to_string(test.rows()) + " test rows");
  out.metrics = compute_metrics(test.y, proba);
  out.adjusted_accuracy = out.metrics.accuracy;  // Weka's classifiers decide every case
  out.undecided_rate = 0;
  out.rules = 0;
  out.rule_rmse = NAN;
  out.test_rows = test.rows();
  return out;
}

}  // namespace candor
