#pragma once
// Every learner parameter, in one table: the CLI options of `fit` and `evaluate`, the "learner" object of
// the model file and the parameter list in the documentation are all generated from `param_table()`.
#include <atomic>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "candor/learn/evc_options.hpp"
#include "candor/learn/learner_options.hpp"
#include "candor/learn/rule_options.hpp"
#include "candor/learn/stable_options.hpp"
#include "candor/search/search_kind.hpp"
#include "candor/util/names.hpp"

namespace candor {

struct Model;        // model/model.hpp
struct LearnerInfo;  // learn/learner.hpp

// The entries of the learner table a LearnerParams names (its learner, its base learner, the learner whose
// searches it runs), kept beside the options once looked up, so that the option machinery, which asks for
// them for every option it writes or checks, looks each learner up once per set of options rather than once
// per question. Atomic because options are read from many threads at once; copies keep them, and they never
// take part in comparing options.
class LearnerEntries {
 public:
  LearnerEntries() = default;
  LearnerEntries(const LearnerEntries& o) { *this = o; }
  LearnerEntries& operator=(const LearnerEntries& o) {
    for (std::size_t i = 0; i < kKept; ++i)
      kept_[i].store(o.kept_[i].load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }
  bool operator==(const LearnerEntries&) const { return true; }
  // The entry of learner `name`: one kept, else found in the table (find_learner) and kept in place of the
  // oldest.
  const LearnerInfo& of(const std::string& name) const;

 private:
  static constexpr std::size_t kKept = 3;
  mutable std::atomic<const LearnerInfo*> kept_[kKept] = {nullptr, nullptr, nullptr};
};

// --multiclass, which two learners read: on more than two classes, one model over every class (softmax) or
// one binary model per class (one-vs-rest): rule-logistic's link and KBS's form.
enum class MulticlassForm { softmax, one_vs_rest };
inline constexpr Named<MulticlassForm> kMulticlassNames[] = {{"softmax", MulticlassForm::softmax},
                                                             {"one-vs-rest", MulticlassForm::one_vs_rest}};

struct LearnerParams {
  // The default: CN2 rules (m-estimate ranking) whose EVC-corrected probabilities a rules-only penalised
  // logistic model combines (docs/defaults.md, "Honest by default").
  std::string learner = "rule-logistic";
  // The rule learners' heuristics, search and covering (learn/rule_options.hpp).
  HeuristicOptions heuristics;
  RuleSearchOptions rule_search;
  RuleCoveringOptions rule_covering;
  // The combination (model/combine.hpp) by which a rule set's firing rules make a prediction; unset: the
  // learner's default.
  std::optional<std::string> combine;
  // Pseudo-examples of the training prior in every prediction (model/combine.hpp); 0: raw distributions.
  double prior_weight = 1;
  // evc: report EVC-corrected rule probabilities for a learner ranking rules by another measure; none: the
  // quality's own; unset: the learner's default (see resolved_correct).
  std::optional<Correction> correct;
  // --correct bootstrap: resamples the shrinkage is fitted on (learn/bootstrap_correction.hpp).
  int bootstrap_resamples = 20;
  // Stable rules (learn/stable_options.hpp), EVC's calibration (learn/evc_options.hpp).
  StableOptions stable;
  EvcOptions evc;
  // rule-logistic and KBS.
  std::optional<MulticlassForm> multiclass;  // unset: the learner's default (see resolved_multiclass)
  int seed = 1;
  // The options the learners declare in their own folders (rule-logistic's LinearOptions, the trees'
  // TreeOptions, BoostOptions, PrilOptions): options<PrilOptions>().steps reads or writes one.
  LearnerOptions learner_options;
  template <class T>
  const T& options() const {
    return learner_options.get<T>();
  }
  template <class T>
  T& options() {
    return learner_options.get<T>();
  }

  // The quality measure actually used: `quality`, or the learner's default. For decision-list it is the
  // selection heuristic (`select_quality` when given); resolved_refine_quality() ranks the refinements.
  std::string resolved_quality() const;
  std::string resolved_refine_quality() const;
  // `search`, or the learner's default: layered for laplace-covering, greedy (hill climbing) for
  // decision-list, beam for CN2.
  SearchKind resolved_search() const;
  // max_rule_length, or the learner's default: 5 for CN2, no limit (1000) for laplace-covering and
  // decision-list, whose papers refine until no refinement is possible.
  int resolved_max_rule_length() const;
  // `combine`, or the default: "first" for decision lists and best-rule sets (the kind decides; no other
  // value is accepted), the measured default for cn2-unordered rule sets.
  std::string resolved_combine() const;
  // `stop`, or the learner's default: prior for the CN2 learners, none for laplace-covering and
  // decision-list (their papers stop only when no examples of a class are left).
  Stopping resolved_stop() const;
  // m_scale, or the learner's default when negative: 1 for the CN2 learners, 0 (m as given) otherwise.
  double resolved_m_scale() const;
  // Whether the searches generate A != v: --not-equal, or the learner's default (gradient-rules' searches
  // always do).
  bool resolved_not_equal() const;
  // `correct`, or the default: none when the quality already estimates by EVC, else the learner's
  // (evc for rule-logistic, none for the others).
  Correction resolved_correct() const;
  // `multiclass`, or the learner's default (LearnerInfo::multiclass): for boost (kbs) softmax over calibrated
  // trees and one-vs-rest otherwise, softmax for rule-logistic (docs/boosting.md and docs/rule_logistic.md
  // measure both).
  MulticlassForm resolved_multiclass() const;
  // The learner's entry of the table (learn/learner.hpp; std::invalid_argument naming the known learners for
  // a name no learner has), looked up once for these options and again only when `learner` changes.
  const LearnerInfo& info() const { return entries.of(learner); }
  LearnerEntries entries;
  bool operator==(const LearnerParams&) const = default;
};

// Where a parameter lives in LearnerParams: a member of its own or of a component's options
// (option_field<&PrilOptions::steps>()), read and written through the same two functions.
template <class T>
struct ParamField {
  using type = T;
  T& (*ref)(LearnerParams&);
  const T& (*get)(const LearnerParams&);
  void set(LearnerParams& p, const std::string& /*flag*/, const T& value) const { ref(p) = value; }
};
// An option held as an enum and read and written by the names of its Named<E> table
// (named_option_field<kBoostingNames, &BoostOptions::boosting>()): to every reader of the
// table it is a text option whose value is always one of those names. An option held as std::optional (of an
// enum, or of a name such as a quality measure's) is unset where the learner's default applies, and reads
// and writes as the empty text there.
struct ParamNameField {
  using type = std::string;
  std::string (*get)(const LearnerParams&);
  // Throws std::invalid_argument naming `flag` and the known names for any other text (an enum's); a name
  // held as text is checked with the others by validate().
  void (*set_name)(LearnerParams&, const std::string& flag, const std::string& name);
  // Its names, in their table's order: the values param_table() declares for it (null: declared there).
  std::vector<std::string> (*names)();
  bool optional = false;  // empty: unset, the learner's default
  void set(LearnerParams& p, const std::string& flag, const std::string& name) const { set_name(p, flag, name); }
};
template <auto... Path>
auto field() {
  using T = std::remove_cvref_t<decltype((std::declval<LearnerParams&>().*....*Path))>;
  return ParamField<T>{[](LearnerParams& p) -> T& { return (p.*....*Path); },
                       [](const LearnerParams& p) -> const T& { return (p.*....*Path); }};
}
// The same for a member of a learner's own options (LearnerParams::options): option_field<&PrilOptions::steps>().
template <class Member>
struct member_of;
template <class T, class C>
struct member_of<T C::*> {
  using owner = C;
  using type = T;
};
template <auto Member>
auto option_field() {
  using C = typename member_of<decltype(Member)>::owner;
  using T = typename member_of<decltype(Member)>::type;
  return ParamField<T>{[](LearnerParams& p) -> T& { return p.options<C>().*Member; },
                       [](const LearnerParams& p) -> const T& { return p.options<C>().*Member; }};
}

namespace param_names {
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
// The text of a value held as an enum, a name, or an optional one ("" when unset).
template <const auto& Names, class T>
std::string text(const T& value) {
  if constexpr (is_optional<T>::value)
    return value ? text<Names>(*value) : std::string();
  else if constexpr (std::is_same_v<T, std::string>)
    return value;
  else
    return name_of(Names, value);
}
template <const auto& Names, class T>
void read(T& value, const std::string& flag, const std::string& text) {
  if constexpr (is_optional<T>::value) {
    if (text.empty()) {
      value.reset();
    } else {
      typename T::value_type v{};
      read<Names>(v, flag, text);
      value = v;
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    value = text;
  } else {
    value = parse_named(Names, flag + " value", text);
  }
}
// The names a Named<E> table holds; none for a name held as text (its declaration lists them).
inline constexpr int kNoNames = 0;
template <const auto& Names>
std::vector<std::string> (*names())() {
  if constexpr (std::is_same_v<std::remove_cvref_t<decltype(Names)>, int>)
    return nullptr;
  else
    return [] { return names_of(Names); };
}
}  // namespace param_names

// named_field<kStoppingNames, &LearnerParams::rule_covering, &RuleCoveringOptions::stop>(): a member held
// as an enum or an optional enum; named_field<param_names::kNoNames, ...>() a member held as an optional name.
template <const auto& Names, auto... Path>
ParamNameField named_field() {
  using T = std::remove_cvref_t<decltype((std::declval<LearnerParams&>().*....*Path))>;
  return ParamNameField{[](const LearnerParams& p) -> std::string { return param_names::text<Names>((p.*....*Path)); },
                        [](LearnerParams& p, const std::string& flag, const std::string& name) {
                          param_names::read<Names>((p.*....*Path), flag, name);
                        },
                        param_names::names<Names>(), param_names::is_optional<T>::value};
}
template <const auto& Names, auto Member>
ParamNameField named_option_field() {
  using C = typename member_of<decltype(Member)>::owner;
  using T = typename member_of<decltype(Member)>::type;
  return ParamNameField{
      [](const LearnerParams& p) -> std::string { return param_names::text<Names>(p.options<C>().*Member); },
      [](LearnerParams& p, const std::string& flag, const std::string& name) {
        param_names::read<Names>(p.options<C>().*Member, flag, name);
      },
      param_names::names<Names>(), param_names::is_optional<T>::value};
}
using ParamMember =
    std::variant<ParamField<std::string>, ParamField<int>, ParamField<double>, ParamField<bool>, ParamNameField>;

// The values a parameter may take, declared with it in param_table(): validate() checks every parameter
// against its own, and its message and the reference's "values" column are written from the same
// declaration. Numbers lie in [low, high] (either end open), or equal `or_value` where one value outside
// the range has a meaning of its own (-1: the learner's default); names are one of `names()`, or empty where
// empty means the learner's default. A default-constructed one allows anything (free text, flags).
struct ParamValues {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false, high_open = false;
  double or_value = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> (*names)() = nullptr;
  bool empty_is_default = false;

  ParamValues or_default(double value) const {
    ParamValues v = *this;
    v.or_value = value;
    return v;
  }
  // "at least 1", "in (0, 1]", "-1 or at least 0", "none, prior or empty (the learner's default)"; "" for any.
  std::string describe() const;
  // Throws std::invalid_argument naming `flag` ("--beam-width must be at least 1, not 0"), or the
  // unknown-name message with the known names and a did-you-mean.
  void check(const std::string& flag, double value) const;
  void check(const std::string& flag, const std::string& value) const;
};
ParamValues at_least(double low);
ParamValues in_range(double low, double high, bool low_open = false, bool high_open = false);
ParamValues one_of(std::vector<std::string> (*names)(), bool empty_is_default = false);

struct ParamInfo {
  const char* name;  // JSON key; the CLI flag is --name with '_' written as '-'
  ParamMember member;
  const char* help;
  // Which learners read it (LearnerInfo::option_groups): "" every learner, "rule" the rule learners (and
  // what is built on them), "linear", "leaf", "tree", "boost".
  const char* group = "rule";
  ParamValues values = {};
  // Of the learners reading its group, those that read it (null: all of them): a rule option that sets what
  // only some rule learners can do (--refine-quality, --stop, ...) names that capability here
  // (learn/learner.hpp: reads_when<&LearnerInfo::stopping>).
  bool (*read_when)(const LearnerParams& p) = nullptr;
};
const std::vector<ParamInfo>& param_table();
// The command-line spelling of a parameter: "--" and its name with '_' written '-' (max_rules: --max-rules).
std::string option_flag(const char* name);

// The settings the papers' experiments pin, whatever the defaults of `candor fit` become: `learner` with
// its paper's quality (entropy for cn2-ordered, Laplace for cn2-unordered), m as given, no stopping
// criterion, removal covering, CN2's count sum for rule sets, beam width 5. Experiments start from these so that their
// tables do not move with the defaults.
LearnerParams paper_params(const std::string& learner);

// PrIL's minimum reliabilities from --reliability: one value for all classes or one per class; with
// classes > 0 the result has one per class. Throws std::invalid_argument naming the text.
std::vector<double> parse_reliabilities(const std::string& text, std::size_t classes);

// Whether the learner of `p` reads the options of `group` (learn/learner.hpp).
bool reads_option_group(const LearnerParams& p, const std::string& group);
// Whether the learner of `p` reads the option `name` (a param_table() name): its group, narrowed by what the
// learner can do (--refine-quality only where refinement and selection heuristics are separate, --combine
// only for rule sets, the EVC options only where EVC can run, ...). This is the list `fit --learner X
// --help` and the Python estimators show.
bool reads_option(const LearnerParams& p, const std::string& name);
// Whether `learner` reads option `name` with some setting: for an ensemble over a --base, with any base.
bool learner_reads_option(const std::string& learner, const std::string& name);
// The learners (and `boost --base B`) that read option `name`, comma-separated, for messages.
std::string option_readers(const std::string& name);

// `p` for `learner`: the options it does not read back at their defaults (what an ensemble's base
// learner gets).
LearnerParams options_for(LearnerParams p, const std::string& learner);

// `p` with the options of the linear learners (features, penalty, rule_penalty, rule_sign, rule_data,
// multiclass, lambda, lambda_search, lambda_folds) at their defaults: what a rule learner inside them gets.
LearnerParams without_linear_options(LearnerParams p);

// Checks ranges and names; throws std::invalid_argument with a message for the user.
void validate(const LearnerParams& p);
nlohmann::json params_to_json(const LearnerParams& p);
// Unknown keys are an error (a typo must not silently fall back to a default).
LearnerParams params_from_json(const nlohmann::json& j);
// One line naming the learner and its resolved search settings, e.g.
// "cn2-unordered (quality laplace, search beam 5, max length 5)": the learner's own (LearnerInfo::describe)
// or describe_rule_learner's.
std::string describe(const LearnerParams& p);
// The line of a rule learner: its heuristics, search, correction, stopping, covering and combination.
std::string describe_rule_learner(const LearnerParams& p);
// The value of the text option `name` (a param_table() name; numbers and flags as JSON), and writing one by
// its text; std::invalid_argument for an unknown name, or a value the option does not take.
std::string option_text(const LearnerParams& p, std::string_view name);
// The value of the option `name` as JSON, as the options hold it (an option left to the learner's default reads
// as the empty text; params_to_json writes the default out); std::invalid_argument for an unknown name.
nlohmann::json option_value(const LearnerParams& p, std::string_view name);
void set_option_text(LearnerParams& p, std::string_view name, const std::string& text);
// The options a model was fitted with, read back from its learner object (Model::learner) and checked as
// any options are: a model file edited by hand may hold options no learner takes (std::invalid_argument).
LearnerParams model_options(const Model& m);
// The parameter table as Markdown (`candor params`, docs/reference.md).
std::string params_markdown();

}  // namespace candor
