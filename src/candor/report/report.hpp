#pragma once
// The pieces of the report page (candor/report.hpp) that other pages and tests use: its plots as SVG and its
// escaping of text.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/eval/evaluate.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/model/model.hpp"
#include "candor/report.hpp"

namespace candor {

// The inline SVG plots of the page: the reliability diagram of the top-label confidence, and each rule's
// probability against the share of its class among the rows it decides (with its interval where it states
// one). Empty when there is nothing to draw.
std::string reliability_svg(const std::vector<ReliabilityBin>& bins);
std::string rule_points_svg(const std::vector<RulePoint>& points);

// Text made safe for HTML element content and attribute values.
std::string html_escape(const std::string& text);

}  // namespace candor
