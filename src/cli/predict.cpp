// candor predict MODEL DATA: one CSV row per example on stdout.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/experiments/report.hpp"
#include "candor/model/model.hpp"
#include "candor/util/output.hpp"
#include "command.hpp"
#include "data_options.hpp"

namespace candor::cli {

namespace {

struct PredictArguments {
  std::string model, input;
  bool proba = false, explain = false;
  std::vector<std::string> keys;
  int digits = 6;
  DataOptions data;
};

int run_predict(const PredictArguments& a) {
  const auto loaded = load_model(a.model);
  const Model& model = *loaded;
  Dataset data = load_for_model(a.input, a.data, model, a.keys);
  const auto& cls = model.schema.class_attribute;
  std::cout << "row";
  for (const auto& k : a.keys) std::cout << "," << csv_field(k);
  std::cout << ",predicted";
  bool has_actual = false;
  for (int y : data.y) has_actual |= y != kMissing;
  if (has_actual) std::cout << ",actual";
  if (a.proba)
    for (const auto& v : cls.values) std::cout << "," << csv_field("p(" + v + ")");
  if (a.explain) std::cout << ",rules";
  std::cout << "\n";
  for (std::size_t r = 0; r < data.rows(); ++r) {
    auto p = model.predict_proba(data, r);
    int pred = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
    // A case the model leaves undecided (PrIL) says so, never a silent guess.
    std::cout << (r + 1);
    for (const auto& key : data.keys) std::cout << "," << csv_field(key[r]);
    std::cout << "," << csv_field(model.decides(data, r) ? cls.values[pred] : std::string("undecided"));
    if (has_actual) std::cout << "," << csv_field(data.y[r] == kMissing ? std::string("?") : cls.values[data.y[r]]);
    if (a.proba)
      for (double x : p) std::cout << "," << format_number(x, a.digits);
    if (a.explain) {
      std::string s;
      for (const auto& part : model.explain(data, r)) s += (s.empty() ? "" : ";") + part;
      std::cout << "," << (s.empty() ? std::string("default") : csv_field(s));
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

Command add_predict_command(CLI::App& app) {
  auto a = std::make_shared<PredictArguments>();
  auto* cmd = app.add_subcommand("predict", "predict DATA with a model; CSV on stdout, one row per example");
  cmd->add_option("MODEL", a->model, "model file")->required();
  cmd->add_option("DATA", a->input, "data to predict (class column optional)")->required();
  cmd->add_flag("--proba", a->proba, "add one probability column per class");
  cmd->add_option("--key", a->keys,
                  "a column of DATA to carry through after row (an id to join on; repeatable), as its text");
  cmd->add_option("--digits", a->digits, "decimals of the probabilities (17 reads back exactly)")
      ->check(CLI::Range(1, 17))
      ->capture_default_str();
  cmd->add_flag("--explain", a->explain,
                "add what decided: the rule numbers of a rule model (1-based; 'default' if none), the five "
                "features that moved a logistic model's prediction most, with their effect on the logit, the "
                "leaves a tree sends the row to (with its share when a missing value splits it), the five "
                "members that moved a boosted ensemble's prediction most");
  add_missing_options(cmd, a->data);
  cmd->add_option("--weight-column", a->data.weight_column, "column holding example weights (ignored)");
  add_delimiter_option(cmd, a->data, "CSV separator: one character, or tab, semicolon");
  return {cmd, [a] { return run_predict(*a); }};
}

}  // namespace candor::cli
