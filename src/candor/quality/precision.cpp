#include "candor/quality/measures.hpp"

namespace candor::measures {

double Precision::value(const RuleStats&, double s, double n) const { return n > 0 ? s / n : 0.0; }

}  // namespace candor::measures

template class candor::ScoredBySAndN<candor::measures::Precision>;
