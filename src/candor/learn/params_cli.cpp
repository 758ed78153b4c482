#include "candor/learn/params_cli.hpp"

#include <stdexcept>
#include <type_traits>

namespace candor {

void add_learner_options(CLI::App* cmd, LearnerParams& p) {
  for (const auto& info : param_table()) {
    std::string flag = std::string("--") + info.name;
    for (auto& ch : flag)
      if (ch == '_') ch = '-';
    std::visit(
        [&](auto member) {
          using T = std::remove_reference_t<decltype(p.*member)>;
          if constexpr (std::is_same_v<T, bool>) cmd->add_flag(flag, p.*member, info.help);
          else cmd->add_option(flag, p.*member, info.help)->capture_default_str();
        },
        info.member);
  }
}

LearnerParams parse_learner_options(const std::string& options) {
  LearnerParams p;
  CLI::App app{"learner options"};
  add_learner_options(&app, p);
  try {
    app.parse(options, false);
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument("learner options '" + options + "': " + e.what());
  }
  if (!app.remaining().empty()) throw std::invalid_argument("learner options '" + options + "': unexpected '" + app.remaining().front() + "'");
  validate(p);
  return p;
}

}  // namespace candor
