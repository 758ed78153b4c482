// candor rules MODEL: print a model, as text or as its rule table.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "candor/errors.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"
#include "candor/util/format.hpp"
#include "candor/util/output.hpp"
#include "command.hpp"
#include "run_options.hpp"

namespace candor::cli {

namespace {

// A rule table cell as CSV shows it: a whole number (a count) without decimals, another number with `digits`
// decimals, a list as [a,b] of those; text as it is.
std::string rule_table_cell(const nlohmann::json& row, const std::string& column, int digits) {
  if (!row.contains(column) || row.at(column).is_null()) return "";
  const std::function<std::string(const nlohmann::json&)> cell = [&](const nlohmann::json& v) -> std::string {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) {
      const double x = v.get<double>();
      return x == std::round(x) && std::abs(x) < 1e15 ? std::to_string(static_cast<long long>(x))
                                                      : fixed_digits(x, digits);
    }
    if (v.is_array()) {
      std::string s;
      for (const auto& e : v) s += (s.empty() ? "" : ",") + cell(e);
      return "[" + s + "]";
    }
    return v.dump();
  };
  return cell(row.at(column));
}

// The line naming the model's learner and its settings: describe() of the options its file records. Those are
// provenance, read back only here, so a file whose learner object was edited into options no learner takes
// is refused naming the file and the JSON pointer.
std::string learner_description(const Model& model, const std::string& path) {
  try {
    return describe(model_options(model));
  } catch (const std::invalid_argument& e) {
    throw InputError(path, 0, std::string("/learner: ") + e.what());
  }
}

// `candor rules --format markdown|csv|json`: the rule table of numbered_rule_table().
void print_rule_table(const Model& model, const std::string& path, const std::string& format, int digits) {
  const nlohmann::json rows = numbered_rule_table(model);
  if (format == "json") {
    nlohmann::json out{{"model", model.kind_name()},
                       {"learner", learner_description(model, path)},
                       {"classes", model.schema.class_attribute.values},
                       {"rules", rows}};
    if (model.stability) out["stability"] = stability_json(*model.stability);
    std::cout << out.dump(2) << "\n";
    return;
  }
  const auto columns = rule_table_columns(rows);
  if (format == "csv") {
    for (std::size_t c = 0; c < columns.size(); ++c) std::cout << (c ? "," : "") << csv_field(columns[c]);
    std::cout << "\n";
    for (const auto& row : rows) {
      for (std::size_t c = 0; c < columns.size(); ++c)
        std::cout << (c ? "," : "") << csv_field(rule_table_cell(row, columns[c], digits));
      std::cout << "\n";
    }
    return;
  }
  // For reading: numbers to 4 decimals (integers as integers), lists as "a, b", '|' escaped.
  std::function<std::string(const nlohmann::json&)> readable = [&](const nlohmann::json& v) -> std::string {
    if (v.is_null()) return "";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) {
      const double x = v.get<double>();
      return x == std::round(x) && std::abs(x) < 1e15 ? std::to_string(static_cast<long long>(x)) : fixed_digits(x, 4);
    }
    if (v.is_array()) {
      std::string s;
      for (const auto& e : v) s += (s.empty() ? "" : ", ") + readable(e);
      return s;
    }
    return v.dump();
  };
  const auto markdown_cell = [&](const nlohmann::json& row, const std::string& column) {
    std::string s = row.contains(column) ? readable(row.at(column)) : "";
    for (std::size_t at = 0; (at = s.find('|', at)) != std::string::npos; at += 2) s.insert(at, "\\");
    return s;
  };
  std::cout << "|";
  for (const auto& c : columns) std::cout << " " << c << " |";
  std::cout << "\n|";
  for (std::size_t c = 0; c < columns.size(); ++c) std::cout << "---|";
  std::cout << "\n";
  for (const auto& row : rows) {
    std::cout << "|";
    for (const auto& c : columns) std::cout << " " << markdown_cell(row, c) << " |";
    std::cout << "\n";
  }
}

}  // namespace

Command add_rules_command(CLI::App& app) {
  struct Arguments {
    std::string model, format = "text";
    int digits = 6;
  };
  auto a = std::make_shared<Arguments>();
  auto* cmd =
      app.add_subcommand("rules", "print a model: its rules with their statistics (and a logistic model's weights)");
  cmd->add_option("MODEL", a->model, "model file written by 'candor fit'")->required();
  cmd->add_option("--format", a->format,
                  "text (the model as a reader sees it), or the rule table, one row per rule with the columns of "
                  "Python's rules_: markdown, csv or json (with the model kind, learner and classes)")
      ->check(CLI::IsMember({"text", "markdown", "csv", "json"}));
  cmd->add_option("--digits", a->digits, "csv: decimals of numbers that are not whole (counts have none)")
      ->check(CLI::Range(1, 17))
      ->capture_default_str();
  return {cmd, [a] {
            const auto model = load_model(a->model);
            if (a->format == "text") {
              std::cout << model->text(learner_description(*model, a->model));
              if (model->stability) print_stability_text(*model->stability);
            } else {
              print_rule_table(*model, a->model, a->format, a->digits);
            }
            return 0;
          }};
}

}  // namespace candor::cli
