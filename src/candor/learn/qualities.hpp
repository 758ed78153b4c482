#pragma once
// The quality measures by name: the table behind --quality, --refine-quality and --select-quality, the
// documentation and make_quality. It sits in learn/, above both quality/ (the plain measures) and evc/ (the
// measures built on a calibration), so that neither of those includes the other's layer above it.
#include <memory>
#include <string>
#include <vector>

#include "candor/quality/quality.hpp"

namespace candor {

// A measure is one entry of quality_table(): its name, what it computes, and how to build it.
struct QualityInfo {
  const char* name;
  const char* description;
  std::unique_ptr<QualityMeasure> (*make)(const QualityParams& params);  // throws std::invalid_argument
  bool needs_calibration = false;  // built from EVC's Gumbel laws (QualityParams::evc)
  bool reads_m = false;            // reads --m (or --m-scale)
};
// Every measure `make_quality` knows, for --help and the documentation.
const std::vector<QualityInfo>& quality_table();
// Throws std::invalid_argument naming the known measures when `name` is unknown, and for `evc` without a
// calibration.
std::unique_ptr<QualityMeasure> make_quality(const std::string& name, const QualityParams& params = {});
// The names of quality_table(), in its order.
std::vector<std::string> quality_names();
// Whether `name` is a known measure (without building it).
bool is_quality_name(const std::string& name);
// Whether the measure `name` needs EVC's calibration (evc, m-evc); false for unknown names.
bool quality_needs_calibration(const std::string& name);
// Whether the measure `name` reads --m or --m-scale; false for unknown names.
bool quality_reads_m(const std::string& name);

}  // namespace candor
