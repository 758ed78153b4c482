// A program that uses candor as an installed C++ library, through its public API (include/candor/) alone:
// fits the default learner on an ARFF file, prints its rules and the class probabilities of the first rows,
// then cross-validates a CN2 rule set with EVC-corrected probabilities. Built against `cmake --install` output
// with find_package(candor) (examples/cpp/CMakeLists.txt); scripts/install_check.sh runs it in CI.
#include <cstdio>
#include <exception>
#include <iostream>

#include "candor/candor.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fit_and_predict DATA.arff\n";
    return 2;
  }
  try {
    const candor::Dataset data = candor::read_arff(argv[1]);
    const candor::Learner learner;  // the defaults of `candor fit`
    const auto model = candor::fit_model(data, learner, /*threads=*/2);
    std::cout << candor::model_text(*model) << "\n";  // its rules, headed by the learner and its options
    const auto& classes = data.schema.class_attribute.values;
    for (std::size_t row = 0; row < 3 && row < data.rows(); ++row) {
      const auto p = model->predict_proba(data, row);
      std::cout << "row " << row + 1 << ":";
      for (std::size_t c = 0; c < p.size(); ++c) std::printf(" P(%s) = %.4f", classes[c].c_str(), p[c]);
      std::cout << "\n";
    }
    // Options by the names of `candor params`, checked as they are set.
    const auto rule_set = candor::Learner("cn2-unordered").set("correct", "evc").set("max_rules", 10);
    const auto cv = candor::cross_validate(data, rule_set, /*folds=*/5, /*repeats=*/1, /*seed=*/1, /*threads=*/2);
    std::printf("%s: 5-fold accuracy %.4f, log loss %.4f, %.1f rules\n", rule_set.describe().c_str(), cv.mean.accuracy,
                cv.mean.log_loss, cv.rules);
  } catch (const std::exception& e) {
    std::cerr << "fit_and_predict: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
