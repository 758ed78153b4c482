#pragma once
// Weka classifiers as peers in experiments: Debian's `weka` package run on exactly the folds candor's
// learners see (each fold's training and test rows written as ARFF, one JVM per fold).
//
// A grid config is shared between people, so the Weka classifier it names is untrusted text: it becomes a
// class name checked against a pattern and options passed to Java as separate arguments (never a shell), and
// options that would make Weka read or write files, or change what Java loads, are refused.
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/eval/evaluate.hpp"

namespace candor {

struct WekaClassifier {
  std::string class_name;            // weka.classifiers.PACKAGE.Class
  std::vector<std::string> options;  // the classifier's own options, one argument each
  bool empty() const { return class_name.empty(); }
  // "CLASS OPTION ...", as a config writes it.
  std::string text() const;
};

// Reads "CLASS OPTIONS" (options separated by spaces). Throws std::invalid_argument saying what is refused:
// a control character (a newline among them), a character outside letters, digits and . _ + , : = -, a class
// outside weka.classifiers, a classifier that reads files (SerializedClassifier, InputMappedClassifier), an
// option of Weka's evaluation (-t, -T, -d, -l, -xml, -classifications, ...) or one that begins with '@'.
WekaClassifier parse_weka_classifier(const std::string& text);

// $CANDOR_WEKA_JAR, else Debian's /usr/share/java/weka.jar.
std::string weka_jar();
// Whether the jar is readable and `java` runs it.
bool weka_available();
// Trains `classifier` on `train` and measures its predicted distributions on `test` (read against the same
// schema). fit_seconds is the whole Weka command's wall time, JVM start included; rules and rule_rmse are
// not measured (0 and NaN). Throws std::invalid_argument with Weka's message when it does not predict every
// test row (a bad option, a classifier that cannot handle the data, no java).
FoldResult evaluate_weka_split(const Dataset& train, const Dataset& test, const WekaClassifier& classifier);

}  // namespace candor
