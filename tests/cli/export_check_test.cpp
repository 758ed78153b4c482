// `candor export --check` runs only what it verified: code that is not what candor's printer writes (a line
// added to the Python module, a directive or a call added to the C header) is refused before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "candor/data.hpp"
#include "candor/export/export.hpp"
#include "candor/learn/fit.hpp"
#include "export_check.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

struct Fitted {
  Dataset data;
  std::unique_ptr<Model> model;
};

Fitted vote() {
  Fitted f{read_arff(test::repo("data/vote.arff")), nullptr};
  LearnerParams params;
  params.learner = "cn2-unordered";
  f.model = fit_model(f.data, params);
  return f;
}

// Runs the check on `code`, expecting a refusal whose message holds `why`; no file named PWNED appears.
void expect_refused(const Fitted& f, ExportFormat format, const std::string& code, const std::string& why) {
  const auto marker = std::filesystem::temp_directory_path() / "candor-check-PWNED";
  std::filesystem::remove(marker);
  try {
    check_export(*f.model, f.data, format, ExportOptions{}, code);
    ADD_FAILURE() << "the check ran code that is not candor's:\n" << code.substr(code.size() - 300);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nothing of it ran"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(marker));
}

}  // namespace

TEST(ExportCheck, PassesTheExportAsWritten) {
  const Fitted f = vote();
  for (const auto format : {ExportFormat::sql, ExportFormat::python, ExportFormat::c}) {
    const std::string code = export_model(*f.model, format, ExportOptions{});
    const ExportCheck check = check_export(*f.model, f.data, format, ExportOptions{}, code);
    EXPECT_EQ(check.rows, f.data.rows());
    EXPECT_EQ(check.class_mismatches, 0u);
    EXPECT_LE(check.max_difference, 1e-9);
  }
}

TEST(ExportCheck, RefusesAPythonModuleWithCodeOfAnotherKind) {
  const Fitted f = vote();
  const std::string code = export_model(*f.model, ExportFormat::python, ExportOptions{});
  const std::string touch = "open('/tmp/candor-check-PWNED', 'w').close()\n";
  expect_refused(f, ExportFormat::python, code + touch, "candor does not write");
  expect_refused(f, ExportFormat::python, code + "import os\n", "imports something other than math");
  expect_refused(f, ExportFormat::python, "import os\n" + code, "imports something other than math");
  // Hidden in a function candor writes: a call of something that is not the printer's.
  std::string inside = code;
  inside.insert(inside.find("    p, _ = _predict(row)"), "    " + touch);
  expect_refused(f, ExportFormat::python, inside, "candor does not write");
  // A string that is none of the model's texts, where a value belongs.
  std::string value = code;
  value.replace(value.find("\"democrat\""), 10, "\"__import__\"");
  expect_refused(f, ExportFormat::python, value, "none of the model's");
  expect_refused(f, ExportFormat::python, code + "def f(:\n", "cannot parse");
}

TEST(ExportCheck, RefusesACHeaderWithCodeOfAnotherKind) {
  const Fitted f = vote();
  const std::string code = export_model(*f.model, ExportFormat::c, ExportOptions{});
  expect_refused(f, ExportFormat::c, "#include <stdlib.h>\n" + code, "preprocessor line");
  std::string call = code;
  call.insert(call.find("  (void)row;"), "  system(\"touch /tmp/candor-check-PWNED\");\n");
  expect_refused(f, ExportFormat::c, call, "names 'system'");
  std::string splice = code;
  splice.insert(splice.find("  (void)row;"), "  /* a */ \\\n");
  expect_refused(f, ExportFormat::c, splice, "line splice");
  std::string open_comment = code;
  open_comment.insert(open_comment.find("  (void)row;"), "  /* never closed\n");
  expect_refused(f, ExportFormat::c, open_comment.substr(0, open_comment.rfind("*/")), "comment that does not end");
}
