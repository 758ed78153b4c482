#include "candor/experiments/report.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace candor {

std::string format_number(double x, int digits) {
  if (std::isnan(x)) return "n/a";
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << x;
  return s.str();
}

namespace {
std::string csv_cell(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
}  // namespace

void write_csv(const Table& t, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  for (std::size_t i = 0; i < t.columns.size(); ++i) f << (i ? "," : "") << csv_cell(t.columns[i]);
  f << "\n";
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) f << (i ? "," : "") << csv_cell(row[i]);
    f << "\n";
  }
}

std::string markdown(const Table& t) {
  std::string s = "|";
  for (const auto& c : t.columns) s += " " + c + " |";
  s += "\n|";
  for (std::size_t i = 0; i < t.columns.size(); ++i) s += "---|";
  s += "\n";
  for (const auto& row : t.rows) {
    s += "|";
    for (const auto& v : row) s += " " + v + " |";
    s += "\n";
  }
  return s;
}

void write_table(const Table& t, const std::string& dir, const std::string& name, const std::string& title) {
  std::filesystem::create_directories(dir);
  write_csv(t, dir + "/" + name + ".csv");
  std::ofstream md(dir + "/" + name + ".md");
  md << "## " << title << "\n\n" << markdown(t);
}

bool draw_plots(const nlohmann::json& spec, const std::string& dir, bool draw) {
  std::filesystem::create_directories(dir);
  const std::string spec_path = dir + "/plots.json";
  std::ofstream(spec_path) << spec.dump(2) << "\n";
  if (!draw) return false;
  std::string script = CANDOR_PLOT_SCRIPT;
  if (const char* env = std::getenv("CANDOR_PLOT_SCRIPT")) script = env;
  if (!std::filesystem::exists(script)) {
    std::cerr << "plots: " << script << " not found; plot specification left in " << spec_path << "\n";
    return false;
  }
  // Debian's matplotlib lives with the system Python; try it before whatever python3 is first on PATH.
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    const std::string probe = std::string(python) + " -c 'import matplotlib' >/dev/null 2>&1";
    if (std::system(probe.c_str()) != 0) continue;
    const std::string cmd = std::string(python) + " '" + script + "' '" + spec_path + "'";
    if (std::system(cmd.c_str()) == 0) return true;
    std::cerr << "plots: " << cmd << " failed\n";
    return false;
  }
  std::cerr << "plots: no Python 3 with matplotlib (Debian: apt install python3-matplotlib); tables are written, "
               "plot specification left in " << spec_path << "\n";
  return false;
}

}  // namespace candor
