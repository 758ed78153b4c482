// The public Learner (candor/learner.hpp) over the options the inside of candor reads (learn/params.hpp), and
// the public fit (candor/fit.hpp).
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "candor/data.hpp"
#include "candor/fit.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/learner.hpp"
#include "candor/learn/params.hpp"
#include "candor/learner.hpp"
#include "candor/model.hpp"

namespace candor {

Learner::Learner() : given_(nlohmann::json::object()), params_(std::make_unique<LearnerParams>()) {}

Learner::Learner(const std::string& name) : Learner(from_json({{"learner", name}})) {}

Learner Learner::from_json(const nlohmann::json& options) {
  Learner l(params_from_json(options));
  l.given_ = options;
  return l;
}

Learner::Learner(const LearnerParams& options)
    : given_(params_to_json(options)), params_(std::make_unique<LearnerParams>(options)) {
  validate(*params_);
}

Learner::Learner(const Learner& other)
    : given_(other.given_), params_(std::make_unique<LearnerParams>(*other.params_)) {}

Learner& Learner::operator=(const Learner& other) {
  if (this != &other) {
    given_ = other.given_;
    params_ = std::make_unique<LearnerParams>(*other.params_);
  }
  return *this;
}

Learner::Learner(Learner&&) noexcept = default;
Learner& Learner::operator=(Learner&&) noexcept = default;
Learner::~Learner() = default;

Learner& Learner::set(const std::string& name, const nlohmann::json& value) {
  nlohmann::json given = given_;
  given[name] = value;
  // Checked as a whole, as a model file's learner object is: an m set without an m scale is the m meant.
  *params_ = params_from_json(given);
  given_ = std::move(given);
  return *this;
}

nlohmann::json Learner::get(const std::string& name) const { return option_value(*params_, name); }

nlohmann::json Learner::to_json() const { return params_to_json(*params_); }

std::string Learner::describe() const { return candor::describe(*params_); }

std::string Learner::name() const { return params_->learner; }

namespace {

const char* type_name(const ParamMember& m) {
  return std::visit(
      [](auto member) -> const char* {
        using T = typename decltype(member)::type;
        if constexpr (std::is_same_v<T, std::string>)
          return "str";
        else if constexpr (std::is_same_v<T, bool>)
          return "bool";
        else if constexpr (std::is_same_v<T, int>)
          return "int";
        else
          return "float";
      },
      m);
}

}  // namespace

std::vector<OptionInfo> option_table() {
  const LearnerParams defaults;
  std::vector<OptionInfo> out;
  for (const auto& info : param_table()) {
    OptionInfo o;
    o.name = info.name;
    o.type = type_name(info.member);
    std::visit([&](auto member) { o.default_value = member.get(defaults); }, info.member);
    o.values = info.values.describe();
    o.help = info.help;
    o.group = info.group;
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<LearnerDescription> learner_descriptions() {
  std::vector<LearnerDescription> out;
  for (const auto& l : learner_table()) {
    LearnerDescription d;
    d.name = l.name;
    d.description = l.description;
    d.weak = l.weak;
    for (const auto& info : param_table())
      if (std::string(info.name) != "learner" && learner_reads_option(l.name, info.name))
        d.options.emplace_back(info.name);
    out.push_back(std::move(d));
  }
  return out;
}

// A Learner's options were checked as it was made and set.
std::unique_ptr<Model> fit_model(const Dataset& data, const Learner& learner, int threads) {
  return fit_checked_model(data, learner.params(), threads);
}

}  // namespace candor
