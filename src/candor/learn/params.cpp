#include "candor/learn/params.hpp"

#include <stdexcept>

#include "candor/evc/gumbel.hpp"
#include "candor/model/combine.hpp"
#include "candor/quality/quality.hpp"

namespace candor {

const std::vector<std::string>& learner_names() {
  static const std::vector<std::string> names{"cn2-unordered", "cn2-ordered", "laplace-covering", "decision-list"};
  return names;
}

std::string LearnerParams::resolved_quality() const {
  if (learner == "decision-list" && !select_quality.empty()) return select_quality;
  if (!quality.empty()) return quality;
  return learner == "cn2-ordered" ? "entropy" : "laplace";
}

std::string LearnerParams::resolved_refine_quality() const {
  return refine_quality.empty() ? resolved_quality() : refine_quality;
}

std::string LearnerParams::resolved_search() const {
  if (!search.empty()) return search;
  if (learner == "laplace-covering") return "layered";
  if (learner == "decision-list") return "greedy";
  return "beam";
}

int LearnerParams::resolved_max_rule_length() const {
  if (max_rule_length > 0) return max_rule_length;
  return learner == "laplace-covering" || learner == "decision-list" ? 1000 : 5;
}

std::string LearnerParams::resolved_combine() const {
  if (learner != "cn2-unordered") return "first";
  return combine.empty() ? "counts" : combine;
}

std::string LearnerParams::resolved_stop() const {
  if (!stop.empty()) return stop;
  return learner == "cn2-unordered" || learner == "cn2-ordered" ? "none" : "none";
}

bool LearnerParams::uses_evc() const { return resolved_quality() == "evc" || correct == "evc"; }

int LearnerParams::search_width() const { return resolved_search() == "greedy" ? 1 : beam_width; }

const std::vector<ParamInfo>& param_table() {
  static const std::vector<ParamInfo> table{
      {"learner", &LearnerParams::learner,
       "cn2-unordered: rules per class, classification by summing the class distributions of firing rules "
       "(Clark and Boswell 1991); cn2-ordered: a decision list (Clark and Niblett 1989); laplace-covering: "
       "rules per class minimising the Laplace error, classification by the matching rule of lowest error "
       "(paper 002, section 4); decision-list: top-down hill-climbing separate-and-conquer with separate "
       "refinement and selection heuristics (paper 003)"},
      {"quality", &LearnerParams::quality,
       "rule quality: precision, laplace, m-estimate, wracc, entropy, lrs, evc, modified-precision, "
       "modified-laplace, modified-m-estimate (default: entropy for cn2-ordered, laplace otherwise); the "
       "selection heuristic of decision-list"},
      {"refine_quality", &LearnerParams::refine_quality,
       "decision-list: the heuristic that ranks refinements (default: the selection heuristic)"},
      {"select_quality", &LearnerParams::select_quality,
       "decision-list: the heuristic that picks the rule among those on the refinement path (default: "
       "--quality, else laplace)"},
      {"m", &LearnerParams::m, "m of the m-estimate family (m-estimate, modified-m-estimate)"},
      {"search", &LearnerParams::search,
       "greedy (beam width 1), beam (--beam-width) or layered (widths 1, 2, 4, ... --max-beam-width, the rule "
       "with the lowest r_w; laplace-covering only); default: layered for laplace-covering, greedy for "
       "decision-list, beam for CN2"},
      {"beam_width", &LearnerParams::beam_width, "rules kept in the beam at each refinement level"},
      {"max_beam_width", &LearnerParams::max_beam_width, "layered search: the widest beam tried"},
      {"max_rule_length", &LearnerParams::max_rule_length,
       "most conditions in a rule (0: the learner's default, 5 for CN2, no limit for laplace-covering and "
       "decision-list)"},
      {"min_covered", &LearnerParams::min_covered, "fewest training examples (rows) a rule must cover"},
      {"max_rules", &LearnerParams::max_rules, "stop after this many rules in all (0: no limit)"},
      {"target", &LearnerParams::target, "learn rules for this class value only (empty: every class)"},
      {"alpha", &LearnerParams::alpha,
       "CN2 significance test of a rule against the class prior; a rule is accepted only when significant at "
       "this level (1: no test)"},
      {"parent_alpha", &LearnerParams::parent_alpha,
       "the same test against the class distribution of the rule's parent (1: no test)"},
      {"not_equal", &LearnerParams::not_equal, "also generate nominal conditions A != v"},
      {"stop", &LearnerParams::stop,
       "stopping criterion: none (learn until no examples of the class are left or no rule qualifies) or "
       "prior (Orange 2's Stopping_Apriori, ABCN2's q > prior: accept a rule only when its probability, the "
       "quality measure's estimate or the EVC-corrected one, exceeds its class's prior, the training prior "
       "for a rule set and the share among the examples left for a decision list; the first rule that does "
       "not ends learning for its class, for a decision list the list); default: prior for the CN2 learners, "
       "none for laplace-covering and decision-list"},
      {"min_new_positives", &LearnerParams::min_new_positives,
       "stopping: a rule must cover at least this many (weighted) examples of its class not yet covered by "
       "an earlier rule (ABCN2's min_improved); the search only returns such rules"},
      {"min_new_share", &LearnerParams::min_new_share,
       "stopping: at least this share of the examples of its class a rule covers must be new (not covered "
       "by an earlier rule; ABCN2's min_improved_perc); the first rule below it ends learning for its class"},
      {"covering", &LearnerParams::covering,
       "cn2-unordered: remove (covered examples of the class leave the search) or probabilistic (ABCN2: an "
       "example stays until a rule whose probability exceeds its current best covers it; each rule must "
       "improve at least --min-new-positives examples)"},
      {"combine", &LearnerParams::combine,
       "cn2-unordered: how firing rules make a prediction: counts, m-counts, probability-sum, best-rule, "
       "lift-product (see `candor params`); decision lists use their first firing rule"},
      {"correct", &LearnerParams::correct,
       "evc: fit EVC's Gumbel laws as --quality evc does and report each rule's EVC-corrected probability "
       "while the learner keeps ranking by its own --quality (cn2 learners and decision-list)"},
      {"evc_permutations", &LearnerParams::evc_permutations,
       "evc: class permutations the Gumbel laws are fitted on (paper 000 and Orange 2: 100)"},
      {"evc_fit", &LearnerParams::evc_fit,
       "evc: how each Gumbel law is fitted: fixed-beta (beta = 2, mu from the mean; the authors' code), "
       "moments, or ml (maximum likelihood)"},
      {"seed", &LearnerParams::seed,
       "seed of every random step (evc permutations; in `evaluate` also the fold assignment)"},
  };
  return table;
}

LearnerParams paper_params(const std::string& learner) {
  LearnerParams p;
  p.learner = learner;
  p.quality = "";
  p.stop = "none";
  p.min_new_positives = 1;
  p.min_new_share = 0;
  p.covering = "remove";
  p.combine = learner == "cn2-unordered" ? "counts" : "";
  p.correct = "";
  p.beam_width = 5;
  return p;
}

void validate(const LearnerParams& p) {
  bool known = false;
  for (const auto& n : learner_names()) known |= n == p.learner;
  if (!known) {
    std::string all;
    for (const auto& n : learner_names()) all += (all.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown learner '" + p.learner + "' (known: " + all + ")");
  }
  if (p.resolved_quality() != "evc")
    make_quality(p.resolved_quality(), QualityParams{p.m, nullptr});  // throws for unknown names and bad m
  const std::string search = p.resolved_search();
  if (search != "greedy" && search != "beam" && search != "layered")
    throw std::invalid_argument("unknown search '" + search + "' (known: greedy, beam, layered)");
  if (search == "layered" && p.learner != "laplace-covering")
    throw std::invalid_argument("layered search is available with --learner laplace-covering");
  if (p.max_beam_width < 1) throw std::invalid_argument("max beam width must be at least 1");
  if (p.learner == "laplace-covering" && p.resolved_quality() != "laplace")
    throw std::invalid_argument("laplace-covering minimises the Laplace error; --quality must be laplace");
  if (!p.refine_quality.empty()) {
    if (p.learner != "decision-list")
      throw std::invalid_argument("--refine-quality is an option of --learner decision-list");
    if (p.refine_quality == "evc") throw std::invalid_argument("evc cannot rank refinements of decision-list");
    make_quality(p.refine_quality, QualityParams{p.m, nullptr});
  }
  if (!p.select_quality.empty()) {
    if (p.learner != "decision-list")
      throw std::invalid_argument("--select-quality is an option of --learner decision-list (others use --quality)");
    if (!p.quality.empty() && p.quality != p.select_quality)
      throw std::invalid_argument("--quality and --select-quality differ; for decision-list give one of them");
  }
  if (p.learner == "decision-list" && p.resolved_quality() == "evc")
    throw std::invalid_argument("decision-list does not support the evc quality");
  if (!p.combine.empty()) {
    if (p.learner != "cn2-unordered")
      throw std::invalid_argument("--combine is an option of --learner cn2-unordered (a decision list or best-rule "
                                  "set is decided by one rule)");
    find_combination(p.combine);  // throws for unknown names
  }
  if (p.resolved_stop() != "none" && p.resolved_stop() != "prior")
    throw std::invalid_argument("unknown stopping criterion '" + p.resolved_stop() + "' (known: none, prior)");
  if (p.resolved_stop() != "none" && p.learner == "laplace-covering")
    throw std::invalid_argument("laplace-covering has no stopping criterion (paper 002); use --stop none");
  if (p.covering != "remove" && p.covering != "probabilistic")
    throw std::invalid_argument("unknown covering '" + p.covering + "' (known: remove, probabilistic)");
  if (p.covering == "probabilistic" && p.learner != "cn2-unordered")
    throw std::invalid_argument("probabilistic covering is available with --learner cn2-unordered");
  if (!p.correct.empty()) {
    if (p.correct != "evc") throw std::invalid_argument("unknown correction '" + p.correct + "' (known: evc)");
    if (p.learner == "laplace-covering")
      throw std::invalid_argument("--correct evc needs a beam or greedy search (not laplace-covering's layered one)");
  }
  if (!(p.min_new_positives >= 0)) throw std::invalid_argument("min new positives must be non-negative");
  if (!(p.min_new_share >= 0 && p.min_new_share <= 1)) throw std::invalid_argument("min new share must lie in [0, 1]");
  if (p.evc_permutations < 1) throw std::invalid_argument("evc permutations must be at least 1");
  parse_gumbel_fit(p.evc_fit);  // throws for unknown fits
  if (p.seed < 0) throw std::invalid_argument("seed must be non-negative");
  if (p.beam_width < 1) throw std::invalid_argument("beam width must be at least 1");
  if (p.max_rule_length < 0) throw std::invalid_argument("max rule length must be 0 (the learner's default) or positive");
  if (p.min_covered < 1) throw std::invalid_argument("min covered must be at least 1");
  if (p.max_rules < 0) throw std::invalid_argument("max rules must be 0 (no limit) or positive");
  if (!(p.alpha > 0 && p.alpha <= 1) || !(p.parent_alpha > 0 && p.parent_alpha <= 1))
    throw std::invalid_argument("significance levels must lie in (0, 1]");
}

nlohmann::json params_to_json(const LearnerParams& p) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& info : param_table())
    std::visit([&](auto member) { j[info.name] = p.*member; }, info.member);
  j["quality"] = p.resolved_quality();
  j["search"] = p.resolved_search();
  j["max_rule_length"] = p.resolved_max_rule_length();
  j["combine"] = p.learner == "cn2-unordered" ? p.resolved_combine() : "";
  j["stop"] = p.resolved_stop();
  if (p.learner == "decision-list") {
    j["refine_quality"] = p.resolved_refine_quality();
    j["select_quality"] = p.resolved_quality();
  }
  return j;
}

LearnerParams params_from_json(const nlohmann::json& j) {
  LearnerParams p;
  if (!j.is_object()) throw std::invalid_argument("learner parameters must be a JSON object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    const ParamInfo* info = nullptr;
    for (const auto& candidate : param_table())
      if (it.key() == candidate.name) info = &candidate;
    if (!info) throw std::invalid_argument("unknown learner parameter '" + it.key() + "'");
    std::visit(
        [&](auto member) {
          using T = std::remove_reference_t<decltype(p.*member)>;
          p.*member = it.value().template get<T>();
        },
        info->member);
  }
  validate(p);
  return p;
}

std::string describe(const LearnerParams& p) {
  const int length = p.resolved_max_rule_length();
  std::string s = p.learner + " (";
  s += p.learner == "decision-list"
           ? "selection " + p.resolved_quality() + ", refinement " + p.resolved_refine_quality()
           : "quality " + p.resolved_quality();
  s += ", search " + p.resolved_search();
  if (p.resolved_search() == "beam") s += " " + std::to_string(p.beam_width);
  if (p.resolved_search() == "layered") s += " up to " + std::to_string(p.max_beam_width);
  s += ", max length " + (length >= 1000 ? std::string("none") : std::to_string(length));
  if (p.correct == "evc") s += ", evc-corrected probabilities";
  s += ", stop " + p.resolved_stop();
  if (p.min_new_positives != 1) s += ", min new positives " + nlohmann::json(p.min_new_positives).dump();
  if (p.min_new_share > 0) s += ", min new share " + nlohmann::json(p.min_new_share).dump();
  if (p.covering != "remove") s += ", " + p.covering + " covering";
  if (p.learner == "cn2-unordered") s += ", combine " + p.resolved_combine();
  s += ")";
  return s;
}

std::string params_markdown() {
  LearnerParams defaults;
  std::string out = "| option | default | meaning |\n|---|---|---|\n";
  for (const auto& info : param_table()) {
    std::string flag = std::string("--") + info.name;
    for (auto& ch : flag)
      if (ch == '_') ch = '-';
    std::string def = std::visit(
        [&](auto member) -> std::string {
          using T = std::remove_reference_t<decltype(defaults.*member)>;
          const auto& v = defaults.*member;
          if constexpr (std::is_same_v<T, std::string>) return v.empty() ? "(none)" : v;
          else if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
          else return nlohmann::json(v).dump();
        },
        info.member);
    out += "| `" + flag + "` | " + def + " | " + info.help + " |\n";
  }
  return out;
}

}  // namespace candor
