// libFuzzer target: grid configs, the JSON a shared experiment brings (`candor experiment grid --config`,
// `candor.grid(...)`). The config is parsed and checked as the runner does before it runs any cell; a
// learner it accepts must satisfy what makes it safe to run: a Weka classifier is a weka.classifiers class
// and options with no character a shell, a path or a Java argument file would need.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "candor/data/json_input.hpp"
#include "candor/experiments/grid.hpp"
#include "fuzz_common.hpp"

namespace {

bool safe_argument(const std::string& a) {
  if (a.empty() || a[0] == '@') return false;
  for (const char c : a) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word && c != '.' && c != '+' && c != ',' && c != ':' && c != '=' && c != '-') return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace candor;
  const std::string input = fuzz::text_of(data, size);
  fuzz::expected_errors_only([&] {
    const GridSpec grid = grid_from_json(parse_ordered_json_input(input, "fuzz.json"), "fuzz.json");
    for (const auto& l : grid.learners) {
      if (l.weka.empty()) continue;
      bool safe = l.weka.class_name.rfind("weka.classifiers.", 0) == 0 && safe_argument(l.weka.class_name);
      for (const auto& o : l.weka.options) safe = safe && safe_argument(o) && o != "-d" && o != "-t" && o != "-l";
      if (!safe) {
        std::fprintf(stderr, "an unsafe Weka learner was accepted: %s\n", l.weka.text().c_str());
        std::abort();
      }
    }
    GridCellRunner runner(grid, "datasets");  // checks resampling, names and metrics; reads no data
  });
  return 0;
}
