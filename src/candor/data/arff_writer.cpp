#include <cmath>
#include <sstream>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "candor/util/output.hpp"

namespace candor {

namespace {

// ARFF names and nominal values: quoted when they hold a space or one of ARFF's special characters.
std::string arff_token(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t,{}'\"%?\\") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string nominal_header(const Attribute& a) {
  std::string s = "{";
  for (std::size_t v = 0; v < a.values.size(); ++v) s += (v ? "," : "") + arff_token(a.values[v]);
  return s + "}";
}

}  // namespace

void write_arff(const Dataset& d, const std::string& path) {
  std::ostringstream f;
  f << "@relation " << arff_token(d.source.empty() ? std::string("candor") : d.source) << "\n\n";
  for (const auto& a : d.schema.attributes)
    f << "@attribute " << arff_token(a.name) << " " << (a.is_nominal() ? nominal_header(a) : std::string("numeric"))
      << "\n";
  f << "@attribute " << arff_token(d.schema.class_attribute.name) << " " << nominal_header(d.schema.class_attribute)
    << "\n\n@data\n";
  std::ostringstream row;
  row.precision(17);
  for (std::size_t r = 0; r < d.rows(); ++r) {
    row.str("");
    for (std::size_t a = 0; a < d.num_attributes(); ++a) {
      if (d.is_missing(a, r))
        row << "?";
      else if (d.attribute(a).is_nominal())
        row << arff_token(d.attribute(a).values[static_cast<std::size_t>(d.columns[a].codes[r])]);
      else
        row << d.columns[a].values[r];
      row << ",";
    }
    row << (d.y[r] == kMissing ? std::string("?")
                               : arff_token(d.schema.class_attribute.values[static_cast<std::size_t>(d.y[r])]));
    if (d.weights[r] != 1.0) row << ",{" << d.weights[r] << "}";
    f << row.str() << "\n";
  }
  write_file_atomic(path, f.str());
}

}  // namespace candor
