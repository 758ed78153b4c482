// libFuzzer target: the model loader, and the model applied to data. An input is a model file, optionally
// followed by a line "--data--" and CSV data; the data is read against the model's schema (the mapping
// `predict` does), and every row is predicted, decided and explained; the model is printed as text, as a
// rule table and as JSON, which must load again.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "candor/data.hpp"
#include "candor/learn/params.hpp"
#include "candor/model/model.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace candor;
  const std::string input = fuzz::text_of(data, size);
  const std::string separator = "\n--data--\n";
  const auto at = input.find(separator);
  const std::string file = input.substr(0, at);
  const std::string csv = at == std::string::npos ? std::string() : input.substr(at + separator.size());
  fuzz::expected_errors_only([&] {
    const auto model = model_from_text(file, "fuzz.json");
    try {
      (void)model_text(*model);  // the learner object read back as options
    } catch (const std::invalid_argument&) {
      // options no learner takes: refused where they are read back, the model still predicts
    }
    (void)model->rule_table().dump();
    // What loads must write and load again.
    try {
      (void)model_from_json(nlohmann::json::parse(model->to_json().dump()), "rewritten");
    } catch (const InputError& e) {
      std::fprintf(stderr, "a loaded model did not load again once written: %s\n", e.what());
      std::abort();
    }
    if (csv.empty()) return;
    LoadOptions o;
    o.schema = &model->schema;
    o.require_labels = false;
    const Dataset d = parse_csv(csv, "fuzz.csv", o);
    for (std::size_t r = 0; r < d.rows(); ++r) {
      (void)model->predict_proba(d, r);
      (void)model->decides(d, r);
      (void)model->explain(d, r);
    }
  });
  return 0;
}
