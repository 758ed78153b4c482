#include "candor/evc/laws.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "candor/util/json_read.hpp"

namespace candor {

const GumbelLaw& EvcCalibration::law(int klass, int length) const {
  if (klass < 0 || static_cast<std::size_t>(klass) >= laws.size() || laws[klass].empty())
    throw std::out_of_range("EVC: class " + std::to_string(klass) + " was not calibrated");
  const auto& by_length = laws[klass];
  const std::size_t i = static_cast<std::size_t>(std::clamp(length, 1, static_cast<int>(by_length.size())) - 1);
  return by_length[i];
}

nlohmann::json calibration_to_json(const EvcCalibration& c, const std::vector<std::string>& class_names) {
  nlohmann::json laws = nlohmann::json::object();
  for (std::size_t k = 0; k < c.laws.size(); ++k) {
    if (c.laws[k].empty()) continue;
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t l = 0; l < c.laws[k].size(); ++l)
      rows.push_back({{"length", l + 1},
                      {"mu", c.laws[k][l].mu},
                      {"beta", c.laws[k][l].beta},
                      {"mean_max_lrs", l < c.mean_maxima[k].size() ? c.mean_maxima[k][l] : 0.0}});
    laws[class_names.at(k)] = rows;
  }
  nlohmann::json out = {{"permutations", c.settings.permutations},
                        {"fit", gumbel_fit_name(c.settings.fit)},
                        {"pool", evc_pool_name(c.settings.pool)},
                        {"seed", c.settings.seed},
                        {"laws", laws}};
  // Written only where the classes shared fewer permutations than asked for (see permutations_run), so
  // that binary and unpooled calibrations keep their files.
  if (c.permutations_run != 0 && c.permutations_run != c.settings.permutations)
    out["permutations_run"] = c.permutations_run;
  return out;
}

EvcCalibration calibration_from_json(const nlohmann::json& j, const std::vector<std::string>& class_names) {
  check_known_entries(j, {{"permutations"}, {"fit"}, {"pool"}, {"seed"}, {"laws"}, {"permutations_run"}});
  EvcCalibration c;
  c.settings.permutations = json_int(j.at("permutations"), "EVC permutations", 0);
  c.settings.fit = parse_gumbel_fit(json_get<std::string>(j, "fit"));
  // Models written before pooling existed fitted each class alone.
  c.settings.pool = j.contains("pool") ? parse_evc_pool(json_get<std::string>(j, "pool")) : EvcPool::none;
  if (!j.at("seed").is_number_unsigned()) throw std::invalid_argument("the EVC seed must be a non-negative integer");
  c.settings.seed = j.at("seed").get<std::uint64_t>();
  c.permutations_run =
      j.contains("permutations_run")
          ? static_cast<int>(json_integer(j.at("permutations_run"), "EVC permutations_run", 1, c.settings.permutations))
          : c.settings.permutations;
  c.laws.resize(class_names.size());
  c.mean_maxima.resize(class_names.size());
  for (auto it = j.at("laws").begin(); it != j.at("laws").end(); ++it) {
    auto pos = std::find(class_names.begin(), class_names.end(), it.key());
    if (pos == class_names.end()) throw std::invalid_argument("EVC calibration names unknown class '" + it.key() + "'");
    const std::size_t k = static_cast<std::size_t>(pos - class_names.begin());
    for (const auto& row : it.value()) {
      check_known_entries(row, {{"length"}, {"mu"}, {"beta"}, {"mean_max_lrs"}});
      if (json_integer(row.at("length"), "an EVC law's length", 1, 1 << 20) !=
          static_cast<long long>(c.laws[k].size() + 1))
        throw std::invalid_argument("EVC calibration lengths must run 1, 2, ...");
      GumbelLaw law{json_get<double>(row, "mu"), json_get<double>(row, "beta")};
      if (!(law.beta > 0) || !std::isfinite(law.mu))
        throw std::invalid_argument("EVC law needs finite mu and beta > 0");
      c.laws[k].push_back(law);
      c.mean_maxima[k].push_back(row.value("mean_max_lrs", 0.0));
    }
  }
  return c;
}

}  // namespace candor
