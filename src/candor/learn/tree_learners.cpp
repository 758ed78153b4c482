#include "candor/learn/tree_learners.hpp"

#include <stdexcept>

#include "candor/boost/base_learner.hpp"
#include "candor/boost/boost.hpp"
#include "candor/learn/covering.hpp"
#include "candor/model/boost_model.hpp"
#include "candor/model/tree_model.hpp"

namespace candor {

std::unique_ptr<Model> fit_tree(const Dataset& data, const LearnerParams& params, int threads) {
  auto model = std::make_unique<TreeModel>();
  model->params = params;
  model->resolve();
  record_training(*model, data);
  const auto rows = labelled_rows(data);
  const std::vector<double> weights = weights_of(data, rows);
  model->tree = fit_base_tree(data, rows, weights, params, params.learner, threads);
  return model;
}

RuleModel fit_best_rule(const Dataset& data, const LearnerParams& params, const QualityMeasure& quality, int threads,
                        const QualityMeasure* estimate) {
  LearnerParams one = params;
  one.max_rules = 1;
  RuleModel model = fit_cn2_ordered(data, one, quality, threads, estimate);
  model.params = params;
  return model;
}

std::unique_ptr<Model> fit_boost(const Dataset& data, const LearnerParams& params, int threads) {
  auto model = std::make_unique<BoostModel>();
  model->params = params;
  model->resolve();
  record_training(*model, data);
  if (model->method == BoostingMethod::logitboost && data.num_classes() < 2)
    throw std::invalid_argument("logitboost needs a class with at least two values");
  const auto rows = labelled_rows(data);
  if (rows.empty()) throw std::invalid_argument("boost needs labelled training examples");
  const std::vector<double> weights = weights_of(data, rows);
  switch (model->method) {
    case BoostingMethod::kbs: boost_kbs(*model, data, rows, weights, threads); break;
    case BoostingMethod::adaboost_m1: boost_adaboost_m1(*model, data, rows, weights, threads); break;
    case BoostingMethod::logitboost: boost_logitboost(*model, data, rows, weights, threads); break;
  }
  return model;
}

}  // namespace candor
