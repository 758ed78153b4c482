#pragma once
// candor's public API: learners and their options. A Learner is one of the learners `candor learners` lists
// with its options, each named as `candor params` lists it: the CLI's --beam-width is "beam_width" here, in
// the model file's "learner" object and among the Python estimators' parameters. Options not set keep the
// learner's defaults; setting one checks it with the others, as `candor fit` does.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace candor {

struct LearnerParams;  // the options as the inside of candor reads them (private)

class Learner {
 public:
  // The default learner, rule-logistic, with its defaults: `candor fit` without options.
  Learner();
  // The learner `name` with its defaults; std::invalid_argument naming the learners for an unknown name.
  explicit Learner(const std::string& name);
  // From a "learner" object (a model file's, or one written by hand): option names with their values (numbers,
  // true or false, names); the options it leaves out keep their defaults. std::invalid_argument names an
  // unknown option, a value of the wrong type or out of range, or options that do not go together.
  static Learner from_json(const nlohmann::json& options);
  // Options as the inside of candor holds them (learn/params.hpp), checked as from_json checks them.
  explicit Learner(const LearnerParams& options);
  Learner(const Learner& other);
  Learner& operator=(const Learner& other);
  Learner(Learner&&) noexcept;
  Learner& operator=(Learner&&) noexcept;
  ~Learner();

  // Sets the option `name` and checks the options (std::invalid_argument as from_json); returns *this, so that
  // settings chain: Learner("cn2-unordered").set("beam_width", 10).set("correct", "evc").
  Learner& set(const std::string& name, const nlohmann::json& value);
  // The value of the option `name` as the learner holds it: its default where it was not set, and the empty
  // text for an option whose default is the learner's own until it fits (quality, stop, ...: to_json() writes
  // those out). std::invalid_argument for an unknown name.
  nlohmann::json get(const std::string& name) const;
  // Every option with its value, the learner's defaults written out: the "learner" object a model records.
  nlohmann::json to_json() const;
  // The one line naming the learner and the options it reads (the heading of `candor rules`).
  std::string describe() const;
  // The learner's name.
  std::string name() const;
  const LearnerParams& params() const { return *params_; }

 private:
  nlohmann::json given_;  // the options set, by name
  std::unique_ptr<LearnerParams> params_;
};

// One option of `candor params`: its name, its type ("str", "bool", "int" or "float"), its default, the values
// it takes (as text), its help, and its group (which learners read it).
struct OptionInfo {
  std::string name, type;
  nlohmann::json default_value;
  std::string values, help, group;
};
// Every option, in the order of `candor params`.
std::vector<OptionInfo> option_table();

// One learner of `candor learners`: its name, what it is, whether it is a weak learner that boosting builds on,
// and the options it reads (for boost, those of every base learner).
struct LearnerDescription {
  std::string name, description;
  bool weak = false;
  std::vector<std::string> options;
};
std::vector<LearnerDescription> learner_descriptions();

}  // namespace candor
