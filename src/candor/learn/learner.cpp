#include "candor/learn/learner.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "candor/util/names.hpp"

namespace candor {

// Defined in the file CMake generates from learn/learner_registry.cpp.in: every folder's registration.
std::vector<LearnerRegistration> registered_learner_folders();

const std::vector<LearnerRegistration>& learner_registrations() {
  static const std::vector<LearnerRegistration> registrations = [] {
    std::vector<LearnerRegistration> all = registered_learner_folders();
    std::stable_sort(all.begin(), all.end(), [](const LearnerRegistration& a, const LearnerRegistration& b) {
      return a.position < b.position;
    });
    return all;
  }();
  return registrations;
}

const std::vector<LearnerInfo>& learner_table() {
  static const std::vector<LearnerInfo> table = [] {
    std::vector<LearnerInfo> all;
    for (const auto& r : learner_registrations()) all.insert(all.end(), r.learners.begin(), r.learners.end());
    return all;
  }();
  return table;
}

std::string option_group_title(const std::string& group) {
  if (group == "rule") return "Rule options (search, quality, covering, EVC)";
  for (const auto& r : learner_registrations())
    for (const auto& [name, title] : r.option_groups)
      if (name == group) return title;
  return "Learner options";
}

namespace {
bool has_group(const LearnerInfo& l, const std::string& group) {
  const std::string groups = std::string(" ") + l.option_groups + " ";
  return groups.find(" " + group + " ") != std::string::npos;
}
}  // namespace

const LearnerInfo* base_learner(const LearnerParams& p) {
  const LearnerInfo& l = p.info();
  return l.base_option ? &p.entries.of(option_text(p, l.base_option)) : nullptr;
}

std::vector<std::string> base_learner_names(const LearnerInfo& learner) {
  for (const auto& info : param_table())
    if (learner.base_option && std::string_view(info.name) == learner.base_option && info.values.names)
      return info.values.names();
  return {};
}

const LearnerInfo& rule_learner(const LearnerParams& p) {
  const LearnerInfo* base = base_learner(p);
  return base ? *base : p.info();
}

const LearnerInfo& search_defaults(const LearnerParams& p) {
  const LearnerInfo& l = rule_learner(p);
  return l.searches_with ? p.entries.of(l.searches_with(p)) : l;
}

bool reads_option_group(const LearnerParams& p, const std::string& group) {
  if (group.empty()) return true;
  const LearnerInfo& l = p.info();
  if (has_group(l, group)) return true;
  const LearnerInfo* base = base_learner(p);
  if (!base || !l.reads_base_options(p)) return false;
  return has_group(*base, group);
}

bool reads_option(const LearnerParams& p, const std::string& name) {
  const ParamInfo* info = nullptr;
  for (const auto& i : param_table())
    if (name == i.name) info = &i;
  if (!info) return false;
  const LearnerInfo& learner = p.info();
  if (learner.also_reads && learner.also_reads(p, name)) return true;
  if (info->read_when) return info->read_when(p);
  return reads_option_group(p, info->group);
}

bool reads_combine(const LearnerParams& p) { return reads_option_group(p, "rule") && *rule_learner(p).combine; }

bool reads_evc(const LearnerParams& p) {
  return reads_option_group(p, "rule") && (rule_learner(p).evc_quality || rule_learner(p).correct_evc);
}

bool reads_stable_rules(const LearnerParams& p) { return reads_option_group(p, "rule") && p.info().stable_rules; }

bool learner_reads_option(const std::string& learner, const std::string& name) {
  LearnerParams probe;
  probe.learner = learner;
  if (reads_option(probe, name)) return true;
  const LearnerInfo& l = probe.info();
  if (!l.base_option) return false;
  for (const auto& base : base_learner_names(l)) {
    set_option_text(probe, l.base_option, base);
    if (reads_option(probe, name)) return true;
  }
  return false;
}

std::string option_readers(const std::string& name) {
  std::string readers;
  auto add = [&](const std::string& r) { readers += (readers.empty() ? "" : ", ") + r; };
  for (const auto& l : learner_table()) {
    LearnerParams probe;
    probe.learner = l.name;
    if (!l.base_option) {
      if (reads_option(probe, name)) add(l.name);
      continue;
    }
    bool every_base = true;
    std::vector<std::string> bases;
    for (const auto& base : base_learner_names(l)) {
      set_option_text(probe, l.base_option, base);
      if (reads_option(probe, name))
        bases.push_back(base);
      else
        every_base = false;
    }
    if (every_base)
      add(l.name);
    else
      for (const auto& base : bases) add(std::string(l.name) + " " + option_flag(l.base_option) + " " + base);
  }
  return readers;
}

std::string learners_markdown() {
  std::string out =
      "| learner | what | quality | m scale | search | max length | stop | combine "
      "|\n|---|---|---|---|---|---|---|---|\n";
  for (const auto& l : learner_table()) {
    if (!has_group(l, "rule")) {
      out += std::string("| `") + l.name + "` | " + l.description + " | - | - | - | - | - | " + l.prediction + " |\n";
      continue;
    }
    LearnerParams defaults;
    defaults.learner = l.name;
    const LearnerInfo& search = search_defaults(defaults);  // rule-logistic: its default candidates' learner
    const std::string length =
        search.max_rule_length >= kNoLengthLimit ? "none" : std::to_string(search.max_rule_length);
    const std::string combine = *l.prediction                    ? l.prediction
                                : std::string(l.combine).empty() ? "(one rule decides)"
                                                                 : l.combine;
    out += std::string("| `") + l.name + "` | " + l.description + " | " + search.quality + " | " +
           nlohmann::json(search.m_scale).dump() + " | " + name_of(kSearchNames, search.search) + " | " + length +
           " | " + name_of(kStoppingNames, search.stop) + " | " + combine + " |\n";
  }
  return out;
}

const LearnerInfo& LearnerEntries::of(const std::string& name) const {
  for (const auto& k : kept_)
    if (const LearnerInfo* l = k.load(std::memory_order_relaxed); l && name == l->name) return *l;
  const LearnerInfo& found = find_learner(name);
  // Oldest out: the learner itself is looked up first, and a base or searching learner after it.
  for (std::size_t i = kKept - 1; i > 0; --i)
    kept_[i].store(kept_[i - 1].load(std::memory_order_relaxed), std::memory_order_relaxed);
  kept_[0].store(&found, std::memory_order_relaxed);
  return found;
}

const LearnerInfo& find_learner(const std::string& name) {
  for (const auto& l : learner_table())
    if (name == l.name) return l;
  throw std::invalid_argument(unknown_name_message("learner", name, learner_names()));
}

std::vector<std::string> learner_names() {
  std::vector<std::string> out;
  for (const auto& l : learner_table()) out.emplace_back(l.name);
  return out;
}

}  // namespace candor
