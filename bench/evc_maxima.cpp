// The raw material of an EVC calibration: for each class and permutation, the largest LRS the default
// learner's search finds at each rule length on class-permuted copies of a data set (calibration_maxima, the
// values calibrate_evc pools and fits its Gumbel laws to). bench/evc_maxima.py reads them to ask which
// cheaper calibrations the maxima would allow.
//
//   build/evc_maxima DATA [--permutations 200] [--seed 1] [--threads 0]
//
// Prints CSV: class,permutation,L1,...,L<max rule length>, one row per class and permutation, every class
// searched on every permutation (unpooled, as --evc-pool none runs them).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <iostream>

#include "candor/data.hpp"
#include "candor/evc/calibration.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_settings.hpp"

int main(int argc, char** argv) {
  CLI::App app{"the per-permutation maxima of the default learner's EVC calibration, as CSV"};
  std::string path;
  int permutations = 200, threads = 0;
  std::uint64_t seed = 1;
  app.add_option("DATA", path, "data set (.arff, .csv)")->required();
  app.add_option("--permutations", permutations, "class permutations")->check(CLI::Range(1, 100000));
  app.add_option("--seed", seed, "seed of the permutations");
  app.add_option("--threads", threads, "threads (0: all cores); never changes the output")->check(CLI::Range(0, 4096));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help is not an error; bad arguments exit 2, as candor's do
  }
  try {
    const candor::Dataset data = candor::load_dataset(path);
    const candor::LearnerParams params;  // the default learner: its search is what the calibration repeats
    const candor::EvcSettings settings{permutations, params.evc.fit, seed, candor::EvcPool::none};
    const candor::CalibrationMaxima found = candor::calibration_maxima(
        data, candor::search_options(params, candor::resolve_rule_settings(params), threads), settings, {}, threads);
    std::cout << "class,permutation";
    const std::size_t lengths = found.maxima.empty() || found.maxima[0].empty() ? 0 : found.maxima[0][0].size();
    for (std::size_t l = 1; l <= lengths; ++l) std::cout << ",L" << l;
    std::cout << "\n";
    std::cout.precision(17);
    for (std::size_t ci = 0; ci < found.classes.size(); ++ci)
      for (std::size_t p = 0; p < found.maxima[ci].size(); ++p) {
        std::cout << data.schema.class_attribute.values[static_cast<std::size_t>(found.classes[ci])] << "," << p;
        for (double m : found.maxima[ci][p]) std::cout << "," << m;
        std::cout << "\n";
      }
  } catch (const std::exception& e) {
    std::cerr << "evc_maxima: " << e.what() << "\n";  // the reader's messages name the file
    return 2;
  }
  return 0;
}
