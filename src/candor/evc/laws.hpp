#pragma once
// What an EVC calibration is, apart from how it is computed (evc/calibration.hpp runs the permuted
// searches): its settings and the Gumbel law of the best LRS per class and rule length, as a model holds
// them and writes them into its file. A model reads these laws to state its rules' corrected probabilities,
// so it includes this header, not the search.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candor/evc/gumbel.hpp"
#include "candor/util/names.hpp"

namespace candor {

enum class EvcPool { none, classes };
inline constexpr Named<EvcPool> kEvcPoolNames[] = {{"none", EvcPool::none}, {"classes", EvcPool::classes}};
inline EvcPool parse_evc_pool(const std::string& name) { return parse_named(kEvcPoolNames, "EVC pooling", name); }
inline const char* evc_pool_name(EvcPool pool) { return name_of(kEvcPoolNames, pool); }

struct EvcSettings {
  int permutations = 100;
  GumbelFit fit = GumbelFit::fixed_beta;
  std::uint64_t seed = 1;
  EvcPool pool = EvcPool::none;
  bool operator==(const EvcSettings&) const = default;
};

struct EvcCalibration {
  EvcSettings settings;
  std::vector<std::vector<GumbelLaw>> laws;      // [class][L - 1]; empty for classes not calibrated
  std::vector<std::vector<double>> mean_maxima;  // [class][L - 1], mean of the monotone maxima
  int permutations_run = 0;  // the permutations searched (permutations_run()); 0: settings.permutations

  // The law for rules of `length` predicting `klass`; lengths beyond the calibrated ones use the longest.
  // Throws std::out_of_range for a class that was not calibrated.
  const GumbelLaw& law(int klass, int length) const;
  bool operator==(const EvcCalibration&) const = default;
};

nlohmann::json calibration_to_json(const EvcCalibration& c, const std::vector<std::string>& class_names);
// Throws std::invalid_argument on a malformed object.
EvcCalibration calibration_from_json(const nlohmann::json& j, const std::vector<std::string>& class_names);

}  // namespace candor
