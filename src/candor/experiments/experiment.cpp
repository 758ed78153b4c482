#include "candor/experiments/experiment.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "candor/learn/params.hpp"

namespace candor {

void use_evc_options(const ExperimentOptions& options, LearnerParams& p) { p.evc = options.evc; }

std::vector<CorpusEntry> read_corpus_index(const std::string& dir) {
  std::ifstream f(dir + "/INDEX.tsv");
  if (!f) throw std::invalid_argument("cannot read " + dir + "/INDEX.tsv (set --datasets-dir)");
  std::vector<CorpusEntry> out;
  std::string line;
  std::getline(f, line);  // name rows attributes nominal_attrs numeric_attrs classes ...
  while (std::getline(f, line)) {
    std::istringstream s(line);
    std::vector<std::string> cells;
    for (std::string cell; std::getline(s, cell, '\t');) cells.push_back(cell);
    if (cells.size() < 6 || cells[0].empty()) continue;
    out.push_back(
        {cells[0], static_cast<std::size_t>(std::stoull(cells[1])), static_cast<std::size_t>(std::stoull(cells[5]))});
  }
  return out;
}

std::vector<std::string> corpus_sets_up_to(const ExperimentOptions& options, const std::vector<CorpusEntry>& corpus) {
  const std::size_t max_rows = options.max_rows ? options.max_rows : 5000;
  std::vector<std::string> out;
  for (const auto& e : corpus) {
    const bool split = e.name.find(".test") != std::string::npos || e.name.find(".train") != std::string::npos;
    if (e.rows <= max_rows && e.rows >= 50 && !split && e.name.rfind("weather.", 0) != 0) out.push_back(e.name);
  }
  return out;
}

}  // namespace candor
