#include "candor/learn/params.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "candor/evc/calibration.hpp"
#include "candor/evc/gumbel.hpp"
#include "candor/learn/covering.hpp"
#include "candor/learn/evc_options.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/learn/rule_options.hpp"
#include "candor/learn/stable_options.hpp"
#include "candor/model/combine.hpp"
#include "candor/model/model.hpp"
#include "candor/quality/quality.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/names.hpp"

namespace candor {

std::string LearnerParams::resolved_quality() const {
  if (rule_learner(*this).separate_heuristics && heuristics.select_quality) return *heuristics.select_quality;
  return heuristics.quality.value_or(search_defaults(*this).quality);
}

std::string LearnerParams::resolved_refine_quality() const {
  return heuristics.refine_quality.value_or(resolved_quality());
}

SearchKind LearnerParams::resolved_search() const { return rule_search.search.value_or(search_defaults(*this).search); }

int LearnerParams::resolved_max_rule_length() const {
  return rule_search.max_rule_length > 0 ? rule_search.max_rule_length : search_defaults(*this).max_rule_length;
}

std::string LearnerParams::resolved_combine() const {
  const std::string def = rule_learner(*this).combine;
  if (def.empty()) return "first";
  return combine.value_or(def);
}

double LearnerParams::resolved_m_scale() const {
  return heuristics.m_scale >= 0 ? heuristics.m_scale : search_defaults(*this).m_scale;
}

bool LearnerParams::resolved_not_equal() const { return rule_search.not_equal || search_defaults(*this).not_equal; }

Stopping LearnerParams::resolved_stop() const { return rule_covering.stop.value_or(search_defaults(*this).stop); }

Correction LearnerParams::resolved_correct() const {
  if (correct) return *correct;
  if (quality_needs_calibration(resolved_quality())) return Correction::none;
  return rule_learner(*this).correct;
}

MulticlassForm LearnerParams::resolved_multiclass() const {
  if (multiclass) return *multiclass;
  const auto by_default = info().multiclass;
  return by_default ? by_default(*this) : MulticlassForm::softmax;
}

namespace {

// Whole numbers in full (1000000, not 1e+06), others to 10 significant digits.
std::string number_text(double x) {
  if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  std::ostringstream out;
  out.precision(10);
  out << x;
  return out.str();
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

}  // namespace

ParamValues at_least(double low) { return ParamValues{.low = low}; }

ParamValues in_range(double low, double high, bool low_open, bool high_open) {
  return ParamValues{.low = low, .high = high, .low_open = low_open, .high_open = high_open};
}

ParamValues one_of(std::vector<std::string> (*names)(), bool empty_is_default) {
  return ParamValues{.names = names, .empty_is_default = empty_is_default};
}

std::string ParamValues::describe() const {
  if (names) {
    auto known = names();
    if (empty_is_default) known.emplace_back("empty (the learner's default)");
    return joined(known);
  }
  std::string range;
  const bool bounded_low = std::isfinite(low), bounded_high = std::isfinite(high);
  if (bounded_low && bounded_high)
    range = std::string("in ") + (low_open ? "(" : "[") + number_text(low) + ", " + number_text(high) +
            (high_open ? ")" : "]");
  else if (bounded_low)
    range = (low_open ? "above " : "at least ") + number_text(low);
  else if (bounded_high)
    range = (high_open ? "below " : "at most ") + number_text(high);
  if (!std::isnan(or_value) && !range.empty()) range = number_text(or_value) + " or " + range;
  return range;
}

void ParamValues::check(const std::string& flag, double value) const {
  if (value == or_value) return;
  const bool fits = (low_open ? value > low : value >= low) && (high_open ? value < high : value <= high);
  if (!fits) throw std::invalid_argument(flag + " must be " + describe() + ", not " + number_text(value));
}

void ParamValues::check(const std::string& flag, const std::string& value) const {
  if (!names || (value.empty() && empty_is_default)) return;
  const auto known = names();
  if (std::find(known.begin(), known.end(), value) == known.end())
    throw std::invalid_argument(unknown_name_message(flag + " value", value, known));
}

const std::vector<ParamInfo>& param_table() {
  static const std::vector<ParamInfo> table = [] {
    std::vector<ParamInfo> t{
        {"learner", field<&LearnerParams::learner>(), "the learner (see the learner table)", "", one_of(learner_names)},
    };
    // How rule models predict, read by every rule learner.
    const std::vector<ParamInfo> rule_outputs{
        {"combine", named_field<param_names::kNoNames, &LearnerParams::combine>(),
         "cn2-unordered: how firing rules make a prediction: counts, m-counts, probability-sum, best-rule, "
         "lift-product (see `candor params`); decision lists use their first firing rule",
         "rule", one_of(combination_names, true), &reads_combine},
        {"prior_weight", field<&LearnerParams::prior_weight>(),
         "pseudo-examples of the training prior mixed into every prediction, (N p + w prior) / (N + w), and the m "
         "(w x classes) that smooths the default rule's and a deciding rule's shares of the other classes; keeps "
         "every class seen in training strictly between 0 and 1; 0: the raw distributions; the same pseudo-examples "
         "smooth a tree leaf's counts and each KBS LIFT",
         "", at_least(0)},
        {"correct",
         named_field<kCorrectionNames, &LearnerParams::correct>(),
         "evc: fit EVC's Gumbel laws as --quality evc does and report each rule's EVC-corrected probability "
         "while the learner keeps ranking by its own --quality (cn2 learners, decision-list and rule-logistic); "
         "bootstrap: fit the learner on --bootstrap-resamples bootstrap resamples, score their rules on the rows "
         "each resample left out, and shrink each rule's frequency towards its class's prior by the m that fits "
         "those left-out rows best (one m per rule length; docs/method-bootstrap.md); "
         "none: the quality's own estimate (default: evc for rule-logistic, none for the others and for "
         "--quality evc, which corrects by itself)",
         "rule",
         {},
         &reads_when<&LearnerInfo::correct_evc>},
    };
    // The components that declare their options in their own files, in the order of `candor params`, then
    // the seed every learner reads.
    for (const auto* part :
         {&heuristic_params(), &rule_search_params(), &rule_covering_params(), &rule_outputs, &stable_params()})
      t.insert(t.end(), part->begin(), part->end());
    t.push_back({"bootstrap_resamples", field<&LearnerParams::bootstrap_resamples>(),
                 "bootstrap: resamples (fits of the learner, seeded by --seed) the shrinkage of --correct bootstrap or "
                 "--leaf-estimate bootstrap is fitted on",
                 "", at_least(2),
                 // the rule learners that can correct; the trees' bootstrap leaves say so themselves (also_reads)
                 &reads_when<&LearnerInfo::correct_evc>});
    t.insert(t.end(), evc_params().begin(), evc_params().end());
    // The learners' own options, each declared in its folder, in the order of the folders' positions.
    for (const auto& registration : learner_registrations())
      if (registration.params) t.insert(t.end(), registration.params().begin(), registration.params().end());
    t.push_back({"seed", field<&LearnerParams::seed>(),
                 "seed of every random step (evc permutations, subsamples; in `evaluate` also the fold assignment)", "",
                 at_least(0)});
    // An option held as an enum takes the names of its table (named_field): declared once, with the field.
    for (auto& info : t)
      if (const auto* named = std::get_if<ParamNameField>(&info.member); named && named->names && !info.values.names)
        info.values = one_of(named->names, named->optional);
    return t;
  }();
  return table;
}

LearnerParams paper_params(const std::string& learner) {
  LearnerParams p;
  p.learner = learner;
  p.rule_covering.stop = Stopping::none;
  p.rule_covering.min_new_positives = 1;
  p.rule_covering.min_new_share = 0;
  p.rule_covering.covering = Covering::remove;
  if (*p.info().combine) p.combine = "counts";
  p.correct = Correction::none;
  p.heuristics.m_scale = 0;
  p.prior_weight = 0;
  p.rule_search.beam_width = 5;
  p.rule_search.numeric_bins = 0;  // every cut, as the papers search
  p.evc.permutations = 100;
  p.evc.pool = EvcPool::none;
  // The learner's own (the CN2 papers' measures, LRRP's features); the others' defaults are their papers'.
  if (const auto paper_settings = p.info().paper_settings) paper_settings(p);
  return p;
}

LearnerParams without_linear_options(LearnerParams p) {
  const LearnerParams defaults;
  for (const auto& info : param_table())
    if (std::string(info.group) == "linear")
      std::visit([&](auto member) { member.set(p, info.name, member.get(defaults)); }, info.member);
  return p;
}

LearnerParams options_for(LearnerParams p, const std::string& learner) {
  p.learner = learner;
  const LearnerParams defaults;
  for (const auto& info : param_table())
    if (!reads_option_group(p, info.group))
      std::visit([&](auto member) { member.set(p, info.name, member.get(defaults)); }, info.member);
  return p;
}

std::string option_flag(const char* name) {
  std::string flag = std::string("--") + name;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

namespace {

// Every option given (not at its default) must be one the learner reads.
void check_options_read(const LearnerParams& p) {
  const LearnerParams defaults;
  for (const auto& info : param_table()) {
    if (reads_option_group(p, info.group) || reads_option(p, info.name)) continue;
    const bool given = std::visit([&](auto member) { return !(member.get(p) == member.get(defaults)); }, info.member);
    if (!given) continue;
    const std::string readers = option_readers(info.name);
    std::string where = "--learner " + p.learner;
    const LearnerInfo& learner = p.info();
    for (const char* deciding : learner.deciding_options)
      if (deciding != std::string_view(learner.base_option ? learner.base_option : "") || learner.reads_base_options(p))
        where += " " + option_flag(deciding) + " " + option_text(p, deciding);
    throw std::invalid_argument(option_flag(info.name) + " is an option of --learner " + readers + ", not of " + where);
  }
}

// The checks of the rule options (quality, search, stopping, ...) for a learner that reads them.
void validate_rule_options(const LearnerParams& p, const LearnerInfo& learner) {
  const std::string quality = p.resolved_quality();
  const bool calibrated = quality_needs_calibration(quality);
  if (learner.only_quality && quality != learner.only_quality)
    throw std::invalid_argument(p.learner + " works with --quality " + learner.only_quality + " only");
  if (calibrated && !learner.evc_quality)
    throw std::invalid_argument(p.learner + " does not support the " + quality + " quality");
  if (p.resolved_search() == SearchKind::layered && !learner.layered_search)
    throw std::invalid_argument("layered search is not available with --learner " + p.learner);
  if (const auto& refine = p.heuristics.refine_quality) {
    if (!learner.separate_heuristics)
      throw std::invalid_argument("--refine-quality is an option of --learner " + option_readers("refine_quality") +
                                  ", not of --learner " + p.learner);
    if (quality_needs_calibration(*refine)) throw std::invalid_argument(*refine + " cannot rank refinements");
  }
  if (p.heuristics.select_quality) {
    if (!learner.separate_heuristics)
      throw std::invalid_argument("--select-quality is an option of --learner " + option_readers("select_quality") +
                                  "; --learner " + p.learner + " has one heuristic, --quality");
    if (p.heuristics.quality && p.heuristics.quality != p.heuristics.select_quality)
      throw std::invalid_argument("--quality and --select-quality differ; give one of them");
  }
  if (p.combine && std::string(learner.combine).empty())
    throw std::invalid_argument("--combine is an option of --learner " + option_readers("combine") +
                                " (rule sets), not of --learner " + p.learner);
  if (p.resolved_stop() != Stopping::none && !learner.stopping)
    throw std::invalid_argument(p.learner + " has no stopping criterion; use --stop none");
  if (p.rule_covering.covering == Covering::probabilistic && !learner.probabilistic_covering)
    throw std::invalid_argument("probabilistic covering is not available with --learner " + p.learner);
  if (p.resolved_correct() != Correction::none && !learner.correct_evc)
    throw std::invalid_argument(std::string("--correct ") + name_of(kCorrectionNames, p.resolved_correct()) +
                                " is not available with --learner " + p.learner);
  if (p.stable.resamples > 0) {
    if (!p.info().stable_rules)
      throw std::invalid_argument(
          "stable rules (--stable-resamples) are a rule set's: --learner cn2-unordered or "
          "rule-logistic, not " +
          p.learner);
    if (p.resolved_correct() == Correction::bootstrap)
      throw std::invalid_argument("stable rules take --correct evc or none, not bootstrap");
  }
}

}  // namespace

std::vector<double> parse_reliabilities(const std::string& text, std::size_t classes) {
  std::vector<double> r;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || !(v > 0 && v < 1))
      throw std::invalid_argument("reliability '" + text + "': each value must be a number in (0, 1)");
    r.push_back(v);
    start = comma + 1;
  }
  if (classes > 0) {
    if (r.size() == 1) r.assign(classes, r[0]);
    if (r.size() != classes)
      throw std::invalid_argument("reliability '" + text + "' gives " + std::to_string(r.size()) + " values for " +
                                  std::to_string(classes) + " classes");
  }
  return r;
}

namespace {

// Checks `p`'s value of `info` against its declared values (ParamValues), naming its flag.
void check_declared_values(const LearnerParams& p, const ParamInfo& info) {
  const std::string flag = option_flag(info.name);
  std::visit(
      [&](auto member) {
        using T = typename decltype(member)::type;
        if constexpr (std::is_same_v<T, std::string>)
          info.values.check(flag, member.get(p));
        else if constexpr (!std::is_same_v<T, bool>)
          info.values.check(flag, static_cast<double>(member.get(p)));
      },
      info.member);
}

}  // namespace

void validate(const LearnerParams& p) {
  // Every number of the table, whatever it means: finite and of a size the estimates it enters can carry (a
  // larger m or prior weight, times the data's rows or classes, overflows to inf, which no model file holds).
  constexpr double kLargest = 1e12;
  for (const auto& info : param_table())
    if (const auto* member = std::get_if<ParamField<double>>(&info.member)) {
      const double x = member->get(p);
      if (!std::isfinite(x) || std::fabs(x) > kLargest)
        throw std::invalid_argument(option_flag(info.name) + " must be a finite number of at most 1e12 in size, not " +
                                    number_text(x));
    }
  // What decides which options a learner reads comes first, so that an option it does not read is named as
  // such (check_options_read) before any other value is judged.
  const auto deciding = [&](std::string_view name) {
    if (name == "learner") return true;
    for (const auto& l : learner_table())
      for (const char* option : l.deciding_options)
        if (name == option) return true;
    return false;
  };
  for (const auto& info : param_table())
    if (deciding(info.name)) check_declared_values(p, info);
  check_options_read(p);
  for (const auto& info : param_table()) check_declared_values(p, info);
  // What the declarations cannot say: which values go together.
  if (reads_option_group(p, "rule")) validate_rule_options(p, rule_learner(p));
  if (const auto check = p.info().check) check(p);
}

namespace {
void write_resolved_rule_options(const LearnerParams& p, nlohmann::json& j) {
  j["quality"] = p.resolved_quality();
  j["search"] = name_of(kSearchNames, p.resolved_search());
  j["max_rule_length"] = p.resolved_max_rule_length();
  j["combine"] = std::string(rule_learner(p).combine).empty() ? "" : p.resolved_combine();
  j["stop"] = name_of(kStoppingNames, p.resolved_stop());
  j["m_scale"] = p.resolved_m_scale();
  j["not_equal"] = p.resolved_not_equal();
  j["correct"] = name_of(kCorrectionNames, p.resolved_correct());
  if (p.info().separate_heuristics) {
    j["refine_quality"] = p.resolved_refine_quality();
    j["select_quality"] = p.resolved_quality();
  }
}
}  // namespace

nlohmann::json params_to_json(const LearnerParams& p) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& info : param_table())
    if (reads_option_group(p, info.group)) std::visit([&](auto member) { j[info.name] = member.get(p); }, info.member);
  // Options read only when asked for are left out otherwise: files of models without them stay as they were
  // before the options existed. The learner's own step (write_options) comes last.
  if (p.resolved_correct() != Correction::bootstrap) j.erase("bootstrap_resamples");
  if (p.stable.resamples == 0)
    for (const char* name :
         {"stable_resamples", "stable_frequency", "stable_quantiles", "stable_thresholds", "stable_size"})
      j.erase(name);
  else
    j["stable_size"] = name_of(kStableSizeNames, resolved_stable_size(p));
  if (reads_option_group(p, "rule")) write_resolved_rule_options(p, j);
  if (const auto write_options = p.info().write_options) write_options(p, j);
  return j;
}

LearnerParams params_from_json(const nlohmann::json& j) {
  LearnerParams p;
  if (!j.is_object()) throw std::invalid_argument("learner parameters must be a JSON object");
  std::vector<std::string> names;
  for (const auto& candidate : param_table()) names.emplace_back(candidate.name);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const ParamInfo* info = nullptr;
    for (const auto& candidate : param_table())
      if (it.key() == candidate.name) info = &candidate;
    if (!info) throw std::invalid_argument(unknown_name_message("learner parameter", it.key(), names));
    const std::string what = "learner parameter '" + it.key() + "'";
    std::visit(
        [&](auto member) {
          using T = typename decltype(member)::type;
          const auto& v = it.value();
          const std::string flag = option_flag(info->name);
          if constexpr (std::is_same_v<T, int>) {
            member.set(p, flag, json_int(v, what));
          } else if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean()) throw std::invalid_argument(what + " must be true or false, not " + v.dump());
            member.set(p, flag, v.template get<bool>());
          } else if constexpr (std::is_same_v<T, double>) {
            if (!v.is_number()) throw std::invalid_argument(what + " must be a number, not " + v.dump());
            member.set(p, flag, v.template get<double>());
          } else {
            // A text option may hold a number (PrIL's reliability "0.8" or 0.8): its shortest JSON form.
            if (v.is_number())
              member.set(p, flag, v.dump());
            else if (v.is_string())
              member.set(p, flag, v.template get<std::string>());
            else
              throw std::invalid_argument(what + " must be a text, not " + v.dump());
          }
        },
        info->member);
  }
  // An m given without an m scale is the m meant: the learner's default scale (m = sqrt(N)) would replace it.
  if (j.contains("m") && !j.contains("m_scale")) p.heuristics.m_scale = 0;
  validate(p);
  return p;
}

LearnerParams model_options(const Model& m) { return params_from_json(m.learner); }

std::string model_text(const Model& m) { return m.text(describe(model_options(m))); }

std::string describe(const LearnerParams& p) {
  if (const auto describe_learner = p.info().describe) return describe_learner(p);
  return describe_rule_learner(p);
}

std::string describe_rule_learner(const LearnerParams& p) {
  const int length = p.resolved_max_rule_length();
  std::string s = p.learner + " (";
  s += rule_learner(p).separate_heuristics
           ? "selection " + p.resolved_quality() + ", refinement " + p.resolved_refine_quality()
           : "quality " + p.resolved_quality();
  const SearchKind search = p.resolved_search();
  s += std::string(", search ") + name_of(kSearchNames, search);
  if (search == SearchKind::beam) s += " " + std::to_string(p.rule_search.beam_width);
  if (search == SearchKind::layered) s += " up to " + std::to_string(p.rule_search.max_beam_width);
  s += ", max length " + (length >= kNoLengthLimit ? std::string("none") : std::to_string(length));
  if (p.resolved_not_equal()) s += ", A != v";
  if (p.rule_search.numeric_bins > 0)
    s += ", numeric cuts between " + std::to_string(p.rule_search.numeric_bins) + " bins";
  if (quality_reads_m(p.resolved_quality()))
    s += p.resolved_m_scale() > 0 ? ", m " + nlohmann::json(p.resolved_m_scale()).dump() + " sqrt(N)"
                                  : ", m " + nlohmann::json(p.heuristics.m).dump();
  if (p.resolved_correct() == Correction::evc) s += ", evc-corrected probabilities";
  if (p.resolved_correct() == Correction::bootstrap)
    s += ", bootstrap-corrected probabilities (" + std::to_string(p.bootstrap_resamples) + " resamples)";
  if (p.stable.resamples > 0)
    s += ", stable rules (in " + nlohmann::json(p.stable.frequency).dump() + " of " +
         std::to_string(p.stable.resamples) + " resamples, " +
         (p.stable.thresholds == StableThresholds::searched ? "searched thresholds counted on " : "thresholds at ") +
         std::to_string(p.stable.quantiles) + "-quantiles" +
         (resolved_stable_size(p) == StableSize::learner ? ", at most the learner's number of rules" : "") + ")";
  s += std::string(", stop ") + name_of(kStoppingNames, p.resolved_stop());
  if (p.rule_covering.min_new_positives != 1)
    s += ", min new positives " + nlohmann::json(p.rule_covering.min_new_positives).dump();
  if (p.rule_covering.min_new_share > 0) s += ", min new share " + nlohmann::json(p.rule_covering.min_new_share).dump();
  if (p.rule_covering.covering != Covering::remove)
    s += ", " + std::string(name_of(kCoveringNames, p.rule_covering.covering)) + " covering";
  if (*rule_learner(p).combine) s += ", combine " + p.resolved_combine();  // a rule set's; a list's first rule decides
  return s + ")";
}

nlohmann::json option_value(const LearnerParams& p, std::string_view name) {
  for (const auto& info : param_table())
    if (name == info.name) return std::visit([&](auto member) { return nlohmann::json(member.get(p)); }, info.member);
  throw std::invalid_argument("no learner option '" + std::string(name) + "'");
}

std::string option_text(const LearnerParams& p, std::string_view name) {
  const nlohmann::json value = option_value(p, name);
  return value.is_string() ? value.get<std::string>() : value.dump();
}

void set_option_text(LearnerParams& p, std::string_view name, const std::string& text) {
  for (const auto& info : param_table())
    if (name == info.name) {
      const std::string flag = option_flag(info.name);
      if (const auto* named = std::get_if<ParamNameField>(&info.member)) return named->set(p, flag, text);
      if (const auto* field = std::get_if<ParamField<std::string>>(&info.member)) return field->set(p, flag, text);
      throw std::invalid_argument("learner option '" + std::string(name) + "' is not a text");
    }
  throw std::invalid_argument("no learner option '" + std::string(name) + "'");
}

std::string params_markdown() {
  LearnerParams defaults;
  std::string out = "| option | default | values | meaning |\n|---|---|---|---|\n";
  for (const auto& info : param_table()) {
    const std::string flag = option_flag(info.name);
    std::string def = std::visit(
        [&](auto member) -> std::string {
          using T = typename decltype(member)::type;
          const T& v = member.get(defaults);
          if constexpr (std::is_same_v<T, std::string>)
            return v.empty() ? "(see meaning)" : v;
          else if constexpr (std::is_same_v<T, bool>)
            return v ? "true" : "false";
          else
            return nlohmann::json(v).dump();
        },
        info.member);
    out += "| `" + flag + "` | " + def + " | " + info.values.describe() + " | " + info.help + " |\n";
  }
  return out;
}

}  // namespace candor
