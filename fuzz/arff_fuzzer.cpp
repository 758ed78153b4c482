// libFuzzer target: the ARFF reader, then the same text read against the schema it produced (the path
// `predict` takes), with and without class labels required.
#include "candor/data.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace candor;
  const std::string text = fuzz::text_of(data, size);
  for (bool labels : {true, false}) {
    fuzz::expected_errors_only([&] {
      LoadOptions o;
      o.require_labels = labels;
      std::vector<std::string> warnings, dropped;
      o.warnings = &warnings;
      o.drop_unsupported = !labels;
      const Dataset d = parse_arff(text, "fuzz.arff", o, &dropped);
      LoadOptions again;
      again.schema = &d.schema;
      again.require_labels = false;
      parse_arff(text, "fuzz.arff", again);
    });
  }
  return 0;
}
