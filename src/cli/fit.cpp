// candor fit DATA -o MODEL: learn a model and save it.
#include "candor/learn/fit.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "candor/eval/stability.hpp"
#include "candor/experiments/learner_options.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"
#include "candor/util/format.hpp"
#include "candor/util/parallel.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "run_options.hpp"

namespace candor::cli {

namespace {

struct FitArguments {
  std::string input, output;
  DataOptions data;
  RunOptions run;
  LearnerParams params;
};

int run_fit(const FitArguments& a) {
  apply_run_options(a.run);
  validate(a.params);
  Dataset data = load_training(a.input, a.data);
  const auto model = fit_checked_model(data, a.params, resolve_threads(a.run.threads));  // checked above
  if (a.run.resamples > 0)
    model->stability = measure_stability(data, a.params, stability_options(a.run, a.params), model.get());
  save_model(*model, a.output);
  std::cerr << "learned a " << model->kind_name() << " model with " << counted(model->rule_count(), "rule");
  // rule-logistic's count is of the rules with a weight; say so where the rule learner found more.
  if (model->rules_dropped() > 0) std::cerr << " (" << model->rules_dropped() << " more left at weight 0 and dropped)";
  std::cerr << " from " << data.rows() << " rows, class '" << data.schema.class_attribute.name << "' ("
            << counted(data.schema.class_attribute.values.size(), "value") << ")"
            << (a.data.class_name.empty() ? ", the last column (choose another with --class)" : "")
            << "; model written to " << a.output << "\n";
  return 0;
}

}  // namespace

Command add_fit_command(CLI::App& app, const CommandLine& line) {
  auto a = std::make_shared<FitArguments>();
  auto* cmd = app.add_subcommand("fit",
                                 "learn a model (rule set, decision list, logistic regression over rules) from "
                                 "DATA (ARFF or CSV) and save it as JSON");
  cmd->add_option("DATA", a->input, "training data (.arff, .csv, .tsv)")->required();
  cmd->add_option("-o,--output", a->output, "model file to write")->required();
  add_run_options(cmd, a->run, "the model",
                  "also fit on B resamples and record in the model file (shown by candor rules, rules_ and the "
                  "report)");
  add_data_options(cmd, a->data);
  add_learner_options(cmd, a->params, learner_on_command_line(line.argc, line.argv));
  return {cmd, [a] { return run_fit(*a); }};
}

}  // namespace candor::cli
