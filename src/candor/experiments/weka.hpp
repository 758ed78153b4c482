#pragma once
// Weka classifiers as peers in experiments: Debian's `weka` package run on exactly the folds candor's
// learners see (each fold's training and test rows written as ARFF, one JVM per fold).
#include <string>

#include "candor/data/dataset.hpp"
#include "candor/eval/evaluate.hpp"

namespace candor {

// $CANDOR_WEKA_JAR, else Debian's /usr/share/java/weka.jar.
std::string weka_jar();
// Whether the jar is readable and `java` runs it.
bool weka_available();
// Trains `classifier` (a Weka class name and its options, e.g. "weka.classifiers.rules.JRip") on `train`
// and measures its predicted distributions on `test` (read against the same schema). fit_seconds is the
// whole Weka command's wall time, JVM start included; rules and rule_rmse are not measured (0 and NaN).
// Throws std::runtime_error with Weka's message when it fails.
FoldResult evaluate_weka_split(const Dataset& train, const Dataset& test, const std::string& classifier);

}  // namespace candor
