#include "candor/stats/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>

#include "candor/data/table.hpp"
#include "candor/errors.hpp"

namespace candor {

namespace {

bool is_missing_cell(const std::string& s) {
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return l.empty() || l == "?" || l == "n/a" || l == "nan" || l == "na";
}

std::size_t column_of(const std::vector<detail::CsvCell>& header, const std::string& name, const std::string& path) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i].text == name) return i;
  std::string have;
  for (const auto& c : header) have += (have.empty() ? "" : ", ") + c.text;
  throw InputError(path, 1, "no column '" + name + "' (columns: " + have + ")");
}

std::size_t index_of(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  names.push_back(name);
  return names.size() - 1;
}

}  // namespace

ResultsMatrix read_results(const std::string& path, const std::string& metric,
                           const std::vector<std::string>& only_learners,
                           const std::vector<std::string>& only_datasets) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open the results file");
  std::string raw;
  std::size_t line = 0;
  // Tab-separated when the name says so, comma-separated otherwise.
  const char delim = path.size() > 4 && path.compare(path.size() - 4, 4, ".tsv") == 0 ? '\t' : ',';
  std::vector<detail::CsvCell> header;
  while (header.empty() && std::getline(in, raw)) {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (!detail::trim(raw).empty()) header = detail::split_csv_line(raw, delim, path, line);
  }
  if (header.empty()) throw InputError(path, line, "the results file is empty");
  const std::size_t dcol = column_of(header, "dataset", path), lcol = column_of(header, "learner", path),
                    mcol = column_of(header, metric, path);
  ResultsMatrix out;
  out.metric = metric;
  out.learners = only_learners;
  std::vector<std::string> datasets = only_datasets;
  auto kept = [](const std::vector<std::string>& only, const std::string& name) {
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
  };
  // (data set, learner) -> sum and count of the values present; and whether any row of the pair lacked one
  std::map<std::pair<std::size_t, std::size_t>, std::pair<double, std::size_t>> sums;
  while (std::getline(in, raw)) {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (detail::trim(raw).empty()) continue;
    auto cells = detail::split_csv_line(raw, delim, path, line);
    if (cells.size() != header.size())
      throw InputError(
          path, line,
          std::to_string(cells.size()) + " values but the header has " + std::to_string(header.size()) + " columns");
    if (!kept(only_learners, cells[lcol].text) || !kept(only_datasets, cells[dcol].text)) continue;
    const std::size_t d = index_of(datasets, cells[dcol].text), l = index_of(out.learners, cells[lcol].text);
    auto& [sum, count] = sums[{d, l}];
    const std::string& v = cells[mcol].text;
    if (is_missing_cell(v)) continue;
    double x = 0;
    if (!detail::parse_number(v, x))
      throw InputError(path, line, "'" + v + "' in column '" + metric + "' is not a number");
    sum += x;
    ++count;
  }
  for (std::size_t d = 0; d < datasets.size(); ++d) {
    std::vector<double> row(out.learners.size());
    bool complete = true;
    for (std::size_t l = 0; l < out.learners.size(); ++l) {
      auto it = sums.find({d, l});
      if (it == sums.end() || it->second.second == 0) {
        complete = false;
        break;
      }
      row[l] = it->second.first / static_cast<double>(it->second.second);
    }
    if (complete) {
      out.datasets.push_back(datasets[d]);
      out.scores.push_back(std::move(row));
    } else {
      out.incomplete.push_back(datasets[d]);
    }
  }
  return out;
}

std::optional<bool> metric_higher_is_better(const std::string& metric) {
  if (metric == "accuracy" || metric == "auc" || metric == "adjusted_accuracy" ||
      metric == "adjusted_average_reliability")
    return true;
  if (metric == "undecided_rate" || metric == "brier" || metric == "log_loss" || metric == "ece" ||
      metric == "rule_rmse" || metric == "error" || metric == "rules" || metric == "mean_rule_length" ||
      metric == "conditions" || (metric.size() > 8 && metric.compare(metric.size() - 8, 8, "_seconds") == 0))
    return false;
  return std::nullopt;
}

Comparison compare_learners(const ResultsMatrix& r, bool higher_is_better, double alpha, const std::string& control) {
  const std::size_t k = r.learners.size(), n = r.datasets.size();
  if (k < 2)
    throw std::invalid_argument("comparing learners needs at least two learners (found " + std::to_string(k) + ")");
  if (n < 2)
    throw std::invalid_argument("comparing learners needs at least two data sets where every learner has a value of '" +
                                r.metric + "' (found " + std::to_string(n) + ")");
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("alpha must lie in (0, 1)");
  Comparison c;
  c.metric = r.metric;
  c.higher_is_better = higher_is_better;
  c.alpha = alpha;
  c.learners = r.learners;
  c.datasets = r.datasets;
  c.incomplete = r.incomplete;
  c.mean_scores.assign(k, 0.0);
  for (const auto& row : r.scores)
    for (std::size_t l = 0; l < k; ++l) c.mean_scores[l] += row[l] / static_cast<double>(n);
  c.average_ranks = mean_ranks(r.scores, higher_is_better);
  c.friedman = friedman(c.average_ranks, n);
  c.nemenyi_cd = nemenyi_cd(k, n, alpha);
  c.nemenyi_groups = cd_groups(c.average_ranks, c.nemenyi_cd);
  c.bonferroni_dunn_cd = bonferroni_dunn_cd(k, n, alpha);
  if (!control.empty()) {
    auto it = std::find(c.learners.begin(), c.learners.end(), control);
    if (it == c.learners.end()) throw std::invalid_argument("control learner '" + control + "' is not in the results");
    c.control = static_cast<std::size_t>(it - c.learners.begin());
    for (std::size_t l = 0; l < k; ++l)
      if (std::fabs(c.average_ranks[l] - c.average_ranks[*c.control]) < c.bonferroni_dunn_cd)
        c.same_as_control.push_back(l);
  }
  auto column = [&](std::size_t l) {
    std::vector<double> v(n);
    for (std::size_t d = 0; d < n; ++d) v[d] = r.scores[d][l];
    return v;
  };
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = a + 1; b < k; ++b) {
      PairComparison p;
      p.a = a;
      p.b = b;
      if (c.control) {
        if (a != *c.control && b != *c.control) continue;
        if (b == *c.control) std::swap(p.a, p.b);
      }
      auto x = column(p.a), y = column(p.b);
      p.sign = sign_test(x, y, higher_is_better);
      p.wilcoxon = higher_is_better ? wilcoxon_signed_rank(x, y) : wilcoxon_signed_rank(y, x);  // R+: a better
      c.pairs.push_back(p);
    }
  return c;
}

nlohmann::json comparison_json(const Comparison& c) {
  auto by_learner = [&](const std::vector<double>& v) {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t l = 0; l < c.learners.size(); ++l) j[c.learners[l]] = v[l];
    return j;
  };
  auto names = [&](const std::vector<std::size_t>& idx) {
    nlohmann::json j = nlohmann::json::array();
    for (auto i : idx) j.push_back(c.learners[i]);
    return j;
  };
  nlohmann::json j;
  j["metric"] = c.metric;
  j["higher_is_better"] = c.higher_is_better;
  j["alpha"] = c.alpha;
  j["n_datasets"] = c.datasets.size();
  j["datasets"] = c.datasets;
  j["incomplete"] = c.incomplete;
  j["mean_scores"] = by_learner(c.mean_scores);
  j["average_ranks"] = by_learner(c.average_ranks);
  j["chi2"] = c.friedman.chi2;
  j["p"] = c.friedman.p;
  j["iman_davenport_F"] =
      std::isinf(c.friedman.iman_davenport_f) ? nlohmann::json(nullptr) : nlohmann::json(c.friedman.iman_davenport_f);
  j["p_F"] = c.friedman.p_f;
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : c.nemenyi_groups) groups.push_back(names(g));
  j["nemenyi"] = {{"cd", c.nemenyi_cd}, {"groups", groups}};
  if (c.control)
    j["bonferroni_dunn"] = {{"control", c.learners[*c.control]},
                            {"cd", c.bonferroni_dunn_cd},
                            {"same_as_control", names(c.same_as_control)}};
  else
    j["bonferroni_dunn"] = {{"cd", c.bonferroni_dunn_cd}};
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& p : c.pairs)
    pairs.push_back({{"a", c.learners[p.a]},
                     {"b", c.learners[p.b]},
                     {"wins", p.sign.wins},
                     {"losses", p.sign.losses},
                     {"ties", p.sign.ties},
                     {"sign_p", p.sign.p},
                     {"wilcoxon_n", p.wilcoxon.n},
                     {"wilcoxon_r_plus", p.wilcoxon.r_plus},
                     {"wilcoxon_r_minus", p.wilcoxon.r_minus},
                     {"wilcoxon_t", p.wilcoxon.t},
                     {"wilcoxon_z", p.wilcoxon.z},
                     {"wilcoxon_p", p.wilcoxon.p},
                     {"wilcoxon_exact", p.wilcoxon.exact}});
  j["pairs"] = pairs;
  return j;
}

}  // namespace candor
