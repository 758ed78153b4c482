#include "candor/experiments/learner_options.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <type_traits>

#include "candor/coverage/condition.hpp"
#include "candor/learn/learner.hpp"

namespace candor {

CLI::Option* add_param_option(CLI::App* cmd, const ParamInfo& info, LearnerParams& p, const std::string& names) {
  const std::string flag = option_flag(info.name);
  const std::string values = info.values.describe();
  const std::string help = values.empty() ? std::string(info.help) : std::string(info.help) + " [" + values + "]";
  const std::string spelled = names.empty() ? flag : names;
  CLI::Option* option = nullptr;
  std::visit(
      [&](auto member) {
        using T = typename decltype(member)::type;
        if constexpr (std::is_same_v<decltype(member), ParamNameField>)
          option = cmd->add_option_function<std::string>(
                          spelled,
                          [&p, member, flag](const std::string& name) {
                            // A name the option does not know fails the parse, as a CLI11 check would.
                            try {
                              member.set(p, flag, name);
                            } catch (const std::invalid_argument& e) {
                              throw CLI::ValidationError(e.what());
                            }
                          },
                          help)
                       ->default_str(member.get(p));
        else if constexpr (std::is_same_v<T, bool>)
          option = cmd->add_flag(spelled, member.ref(p), help);
        else
          option = cmd->add_option(spelled, member.ref(p), help)->capture_default_str();
      },
      info.member);
  return option;
}

void add_learner_options(CLI::App* cmd, LearnerParams& p, const std::string& shown_learner) {
  bool filter = false;
  if (!shown_learner.empty()) {
    try {
      find_learner(shown_learner);
      filter = true;
    } catch (const std::invalid_argument&) {
      // An unknown learner is reported when the options are checked; the help lists every option.
    }
  }
  // The defaults shown are the ones the shown learner (else the default learner) fits with: an option whose
  // default is "the learner's own choice" shows that choice, as the model file records it.
  nlohmann::json used;
  LearnerParams shown_params;
  if (filter) shown_params.learner = shown_learner;
  try {
    used = params_to_json(shown_params);
  } catch (const std::invalid_argument&) {
    // Defaults that do not resolve leave the declared ones shown.
  }
  cmd->footer("Learner options show the defaults that " + shown_params.learner +
              " fits with; `--learner NAME --help` lists only the options of NAME, with its defaults.");
  for (const auto& info : param_table()) {
    // A boosted learner's options depend on its --base: the help shows those of any base.
    const bool read = !filter || learner_reads_option(shown_learner, info.name);
    CLI::Option* option = add_param_option(cmd, info, p);
    if (const auto it = used.find(info.name); it != used.end()) {
      if (it->is_string() && !it->get<std::string>().empty())
        option->default_str(it->get<std::string>());
      else if (it->is_number())
        option->default_str(format_number(it->get<double>()));
      // m given by the scale is not the m shown beside it.
      if (std::string(info.name) == "m" && used.value("m_scale", 0.0) > 0) option->default_str("m-scale*sqrt(N)");
    }
    // CLI11 leaves options of the empty group out of the help.
    option->group(read ? option_group_title(info.group) : "");
    // An --m given without --m-scale is the m meant: the learner's default scale (m = sqrt(N)) would replace
    // it. Callbacks run in declaration order, so an --m-scale given as well still wins.
    if (std::string(info.name) == "m")
      option->each([&p](const std::string&) {
        if (p.heuristics.m_scale == -1) p.heuristics.m_scale = 0;
      });
  }
}

std::string learner_on_command_line(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--learner" && i + 1 < argc) return argv[i + 1];
    if (a.rfind("--learner=", 0) == 0) return a.substr(10);
  }
  return "";
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
  if (!app.remaining().empty())
    throw std::invalid_argument("learner options '" + options + "': unexpected '" + app.remaining().front() + "'");
  validate(p);
  return p;
}

}  // namespace candor
