#pragma once
// Tables and plot specifications that experiments write.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace candor {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  void add(std::vector<std::string> row) { rows.push_back(std::move(row)); }
};

std::string format_number(double x, int digits);  // fixed digits; "n/a" for NaN
void write_csv(const Table& t, const std::string& path);
std::string markdown(const Table& t);
// Writes DIR/NAME.csv and DIR/NAME.md (the Markdown table under `title`).
void write_table(const Table& t, const std::string& dir, const std::string& name, const std::string& title);

// Writes DIR/plots.json and, when `draw` and a Python 3 with matplotlib is found, runs scripts/plot.py on
// it. Returns whether the PNGs were drawn; says why not on stderr when they were wanted.
bool draw_plots(const nlohmann::json& spec, const std::string& dir, bool draw);

}  // namespace candor
