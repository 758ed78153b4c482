#include "candor/learn/qualities.hpp"

#include <stdexcept>

#include "candor/evc/measures.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/params.hpp"
#include "candor/quality/measures.hpp"
#include "candor/util/names.hpp"

namespace candor {

const std::vector<ParamInfo>& heuristic_params() {
  static const std::vector<ParamInfo> table{
      {"quality", named_field<param_names::kNoNames, &LearnerParams::heuristics, &HeuristicOptions::quality>(),
       "rule quality: precision, laplace, m-estimate, wracc, entropy, lrs, evc, m-evc, modified-precision, "
       "modified-laplace, modified-m-estimate (default: the learner's, see the learner table: m-estimate for "
       "the CN2 learners, laplace otherwise); the selection heuristic of decision-list",
       "rule", one_of(quality_names, true)},
      {"refine_quality",
       named_field<param_names::kNoNames, &LearnerParams::heuristics, &HeuristicOptions::refine_quality>(),
       "decision-list: the heuristic that ranks refinements (default: the selection heuristic)", "rule",
       one_of(quality_names, true), &reads_when<&LearnerInfo::separate_heuristics>},
      {"select_quality",
       named_field<param_names::kNoNames, &LearnerParams::heuristics, &HeuristicOptions::select_quality>(),
       "decision-list: the heuristic that picks the rule among those on the refinement path (default: "
       "--quality, else laplace)",
       "rule", one_of(quality_names, true), &reads_when<&LearnerInfo::separate_heuristics>},
      {"m", field<&LearnerParams::heuristics, &HeuristicOptions::m>(),
       "m of the m-estimate family (m-estimate, modified-m-estimate); given without --m-scale it is used as given, "
       "although the CN2 learners' default scales m with the data (m = sqrt(N))",
       "rule", at_least(0)},
      {"m_scale", field<&LearnerParams::heuristics, &HeuristicOptions::m_scale>(),
       "when positive, m grows with the data: m = m-scale x sqrt(N), N the (weighted) training examples, "
       "replacing --m (the model file records the m used); 0: --m as given; -1: the learner's default, 1 for "
       "the CN2 learners, 0 for laplace-covering and decision-list",
       "rule", at_least(0).or_default(-1)},
  };
  return table;
}

namespace {
template <class Measure>
std::unique_ptr<QualityMeasure> plain(const QualityParams&) {
  return std::make_unique<Measure>();
}
template <class Measure>
std::unique_ptr<QualityMeasure> with_m(const QualityParams& params) {
  if (!(params.m >= 0)) throw std::invalid_argument("the m-estimate family needs m >= 0");
  return std::make_unique<Measure>(params.m);
}
std::unique_ptr<QualityMeasure> evc(const QualityParams& params) {
  if (!params.evc) throw std::invalid_argument("the evc quality needs a calibration (see calibrate_evc)");
  return std::make_unique<measures::Evc>(params.evc);
}
std::unique_ptr<QualityMeasure> m_evc(const QualityParams& params) {
  if (!params.evc) throw std::invalid_argument("the m-evc quality needs a calibration (see calibrate_evc)");
  if (!(params.m >= 0)) throw std::invalid_argument("m-evc needs m >= 0");
  return std::make_unique<measures::MEvc>(params.evc, params.m);
}
}  // namespace

const std::vector<QualityInfo>& quality_table() {
  using namespace measures;
  static const std::vector<QualityInfo> table{
      {"precision", "relative frequency s/n of the predicted class among covered examples", plain<Precision>},
      {"laplace", "Laplace estimate (s + 1) / (n + k), k = number of classes", plain<Laplace>},
      {"m-estimate",
       "(s + m * P/N) / (n + m), shifts towards the class prior; m set by --m (default 22.466) or --m-scale "
       "(m = scale x sqrt(N))",
       with_m<MEstimate>, false, true},
      {"wracc", "weighted relative accuracy n/N * (s/n - P/N)", plain<WRAcc>},
      {"entropy", "minus the entropy (bits) of the covered class distribution (CN2's original)", plain<Entropy>},
      {"lrs", "likelihood-ratio statistic of the 2x2 table covered x class (paper 000, eq. 14)",
       plain<LikelihoodRatio>},
      {"modified-precision",
       "paper 003's refinement heuristic (N - n) / ((P + N) - (p + n)): precision of the negatives a rule leaves "
       "out (p, n covered positives, negatives; P, N all)",
       plain<ModifiedPrecision>},
      {"modified-laplace", "paper 003: (N - n + 1) / ((P + N) - (p + n - 2))", plain<ModifiedLaplace>},
      {"modified-m-estimate", "paper 003: (N - n + m P/(P + N)) / ((P + N) - (p + n - m)), m set by --m",
       with_m<ModifiedMEstimate>, false, true},
      {"evc",
       "extreme value corrected relative frequency s'/n (paper 000, section 4.1); the learner first fits Gumbel "
       "laws of the best LRS per rule length on class-permuted data",
       evc, true},
      {"m-evc",
       "Orange 2's mEVC: the m-estimate of the EVC-corrected count, (s' + m P/N) / (n + m), m set by --m or "
       "--m-scale; calibrates like evc",
       m_evc, true, true},
  };
  return table;
}

bool is_quality_name(const std::string& name) {
  for (const auto& q : quality_table())
    if (name == q.name) return true;
  return false;
}

bool quality_needs_calibration(const std::string& name) {
  for (const auto& q : quality_table())
    if (name == q.name) return q.needs_calibration;
  return false;
}

bool quality_reads_m(const std::string& name) {
  for (const auto& q : quality_table())
    if (name == q.name) return q.reads_m;
  return false;
}

std::unique_ptr<QualityMeasure> make_quality(const std::string& name, const QualityParams& params) {
  for (const auto& q : quality_table())
    if (name == q.name) return q.make(params);
  throw std::invalid_argument(unknown_name_message("quality measure", name, quality_names()));
}

std::vector<std::string> quality_names() {
  std::vector<std::string> out;
  for (const auto& q : quality_table()) out.emplace_back(q.name);
  return out;
}

}  // namespace candor
