#pragma once
// The learner registry. Every learner is one folder of learners/ (its options, its fit function and its
// registration): learners/<folder>/register.cpp defines `LearnerRegistration register_<folder>()`, and CMake
// lists every folder that has one in a generated file (learn/learner_registry.cpp.in), so adding a learner
// edits no shared file. A LearnerInfo says what the learner is, its fit function, its defaults and
// capabilities, which `fit`, the parameter checks, `candor params` and the model file all read.
//
// Two kinds of fit function: a rule learner (`fit`) gets its quality measure built (and EVC calibrated) by
// learn/fit.cpp and returns a RuleModel; any other learner (`fit_model`) gets the data and parameters and
// returns any Model (model/model.hpp), building on the rule learners through fit_rules() where it needs rules.
// Both are called with options fit_model() or fit() has checked (validate, once per fit).
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/learn/rule_options.hpp"
#include "candor/learn/rule_settings.hpp"
#include "candor/learn/tree_options.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

// Rule length meaning "no limit".
inline constexpr int kNoLengthLimit = 1000;

// Fits a model. `settings` are `params`' rule options resolved (learn/rule_settings.hpp), `quality` is the
// learner's (selection) measure, built by `fit`; `estimate`, when not null, estimates each rule's probability
// instead (EVC's measure under --correct evc). `threads` never changes the model. Throws
// std::invalid_argument for parameters the learner cannot use.
using LearnerFit = RuleModel (*)(const Dataset& data, const LearnerParams& params, const RuleSettings& settings,
                                 const QualityMeasure& quality, int threads, const QualityMeasure* estimate);

// Fits a model of any kind from options fit_model() checked. `threads` never changes the model. Throws
// std::invalid_argument for data the learner cannot use.
using ModelFit = std::unique_ptr<Model> (*)(const Dataset& data, const LearnerParams& params, int threads);

class FitRows;  // learn/fit_rows.hpp
// The same two on rows wherever they are held (learn/fit_rows.hpp): what a fit across workers calls.
using LearnerFitOnRows = RuleModel (*)(FitRows& rows, const LearnerParams& params, const RuleSettings& settings,
                                       const QualityMeasure& quality, int threads, const QualityMeasure* estimate);
using ModelFitOnRows = std::unique_ptr<Model> (*)(FitRows& rows, const LearnerParams& params, int threads);

struct LearnerInfo {
  const char* name = "";
  const char* description = "";  // for `candor params` and docs/reference.md
  LearnerFit fit = nullptr;      // a rule learner; null for the others
  ModelFit fit_model = nullptr;  // any other learner; null for rule learners
  // The learners that can fit on rows held elsewhere (a fit across Dask workers) have one of these;
  // `refuses_rows` says why given options cannot (an empty string: they can).
  LearnerFitOnRows fit_on_rows = nullptr;
  ModelFitOnRows fit_model_on_rows = nullptr;
  std::string (*refuses_rows)(const LearnerParams& p) = nullptr;
  // The learner whose searches find its rules, where that is another (rule-logistic: the one its --candidates
  // name): the defaults below, quality to not_equal, are then that learner's. Null: its own.
  const char* (*searches_with)(const LearnerParams& p) = nullptr;
  // Defaults of the options left unset (or 0); quality empty for learners without rule options.
  const char* quality = "";              // --quality
  SearchKind search = SearchKind::beam;  // --search
  int max_rule_length = 0;               // --max-rule-length
  Stopping stop = Stopping::none;        // --stop
  const char* combine = "";              // --combine; empty: one rule decides each prediction, nothing to combine
  double m_scale = 0;                    // --m-scale
  bool not_equal = false;                // true: its searches always generate A != v, as if --not-equal were given
  // Capabilities: what the parameter check accepts.
  const char* only_quality = nullptr;   // the one quality measure it can use; null: any
  bool layered_search = false;          // --search layered
  bool separate_heuristics = false;     // --refine-quality, --select-quality
  bool evc_quality = false;             // --quality evc
  bool correct_evc = false;             // --correct evc
  bool stopping = false;                // --stop other than none
  bool probabilistic_covering = false;  // --covering probabilistic
  // The option groups it reads (ParamInfo::group), space-separated: "rule", "linear", "leaf", "tree",
  // "boost", "pril"; "base" adds those of the learner named by --base. Any other option given is an error.
  const char* option_groups = "";
  // Default of --correct when the quality does not already estimate by EVC.
  Correction correct = Correction::none;
  // Default of --multiclass, for the learners that read it: a function of the other options (null: softmax).
  MulticlassForm (*multiclass)(const LearnerParams& p) = nullptr;
  // Default of --leaf-estimate, for the learners that read it (learn/tree_options.hpp).
  LeafEstimateOption leaf_estimate = LeafEstimateOption::laplace;
  bool stable_rules = false;  // --stable-resamples (a rule set's)
  // A weak learner (a stump, a single rule, one attribute's rules): a base for ensembles or a baseline, not
  // expected to classify well alone (the Python estimators tell scikit-learn's accuracy checks so).
  bool weak = false;
  // An ensemble over a base learner (option group "base"): the option that names the base learner (its
  // declared values are the base learners), and whether the base's options are read with these settings
  // (null: always).
  const char* base_option = nullptr;
  bool (*reads_base)(const LearnerParams& p) = nullptr;
  // Options that decide which others it reads (boost's --boosting and --base): checked before any other,
  // and named in the message for an option it does not read.
  std::vector<const char*> deciding_options = {};
  // Options outside its groups that it reads with these settings (null: none).
  bool (*also_reads)(const LearnerParams& p, std::string_view name) = nullptr;
  // What the learners' table (learners_markdown) says of how it predicts, for learners without rule options.
  const char* prediction = "";
  // The learner's own steps of the shared option handling, each null where it has none:
  // - check: which of its values go together, after each was checked against its declaration (validate);
  // - describe: the line that heads its models' text (describe(); null: the rule learners' line);
  // - write_options: the last step of params_to_json (options written only when asked for, resolved ones);
  // - paper_settings: what its paper's experiments pin (paper_params).
  void (*check)(const LearnerParams& p) = nullptr;
  std::string (*describe)(const LearnerParams& p) = nullptr;
  void (*write_options)(const LearnerParams& p, nlohmann::json& j) = nullptr;
  void (*paper_settings)(LearnerParams& p) = nullptr;

  // Whether it is an ensemble that reads its base learner's options with these settings.
  bool reads_base_options(const LearnerParams& p) const { return base_option && (!reads_base || reads_base(p)); }
};

// What a learner's folder registers.
struct LearnerRegistration {
  // Where its learners and its options come in every list (--help, `candor params`, docs/reference.md, the
  // learners' table): smaller first.
  int position = 0;
  std::vector<LearnerInfo> learners;
  // The options it declares (null: none of its own), in the order they are listed.
  const std::vector<ParamInfo>& (*params)() = nullptr;
  // The titles of its option groups in --help: {group, title}.
  std::vector<std::pair<std::string, std::string>> option_groups = {};
};
// Every folder's registration, in position order (the generated file calls each register_<folder>()).
const std::vector<LearnerRegistration>& learner_registrations();
// The registered learners, in position order.
const std::vector<LearnerInfo>& learner_table();
// The title of an option group in --help: its folder's, the rule options' or "Learner options".
std::string option_group_title(const std::string& group);
// The table as Markdown: name, what it is, default quality, search, rule length, stop and combination.
std::string learners_markdown();
// Throws std::invalid_argument naming the known learners when `name` is unknown.
const LearnerInfo& find_learner(const std::string& name);
// The names of learner_table(), in its order.
std::vector<std::string> learner_names();
// The learner whose rule defaults and capabilities apply to `p`: the one named by --base when the learner
// is an ensemble over a base learner, else the learner itself.
const LearnerInfo& rule_learner(const LearnerParams& p);
// The learner whose search defaults (quality, search, max length, stop, m scale, A != v) apply to `p`: that of
// rule_learner(p)'s searches_with, else rule_learner(p).
const LearnerInfo& search_defaults(const LearnerParams& p);
// ParamInfo::read_when of the rule options a learner reads where its rule learner can do what they set:
// the learners reading the rule options whose rule_learner(p) has `Capability`.
template <bool LearnerInfo::*Capability>
bool reads_when(const LearnerParams& p) {
  return reads_option_group(p, "rule") && rule_learner(p).*Capability;
}
// ... --combine: rule sets' (a rule learner with a default combination).
bool reads_combine(const LearnerParams& p);
// ... the EVC options: where EVC can run (--quality evc or --correct evc).
bool reads_evc(const LearnerParams& p);
// ... the stable-rule options: the learners offering stable rules.
bool reads_stable_rules(const LearnerParams& p);

// The learner named by the --base (LearnerInfo::base_option) of an ensemble `p`, null for any other learner.
const LearnerInfo* base_learner(const LearnerParams& p);
// The learners an ensemble of `learner` can use as its base: its base option's declared values.
std::vector<std::string> base_learner_names(const LearnerInfo& learner);

}  // namespace candor
