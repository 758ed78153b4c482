// Registers this folder's learners (learn/learner.hpp): CMake finds this file and lists it in the registry.
#include "candor/learn/learner.hpp"
#include "candor/learners/cn2/cn2.hpp"

namespace candor {

LearnerRegistration register_cn2() {
  return {.position = 10,
          .learners = {{.name = "cn2-unordered",
                        .description = "rules per class (Clark and Boswell 1991), combined by --combine",
                        .fit = fit_cn2_unordered,
                        .fit_on_rows = fit_cn2_unordered,
                        .refuses_rows = cn2_unordered_refuses_rows,
                        .quality = "m-estimate",
                        .search = SearchKind::beam,
                        .max_rule_length = 5,
                        .stop = Stopping::prior,
                        .combine = "lift-product",
                        .m_scale = 1.0,
                        .evc_quality = true,
                        .correct_evc = true,
                        .stopping = true,
                        .probabilistic_covering = true,
                        .option_groups = "rule",
                        .stable_rules = true,
                        .paper_settings = cn2_unordered_paper_settings},
                       {.name = "cn2-ordered",
                        .description = "a decision list (Clark and Niblett 1989): the first firing rule decides",
                        .fit = fit_cn2_ordered,
                        .quality = "m-estimate",
                        .search = SearchKind::beam,
                        .max_rule_length = 5,
                        .stop = Stopping::prior,
                        .m_scale = 1.0,
                        .evc_quality = true,
                        .correct_evc = true,
                        .stopping = true,
                        .option_groups = "rule",
                        .paper_settings = cn2_ordered_paper_settings}}};
}

}  // namespace candor
