// libFuzzer target: the CSV and TSV readers (type inference, missing markers, warnings), then the same text
// read against the schema it produced (the path `predict` takes).
#include "candor/data.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace candor;
  const std::string text = fuzz::text_of(data, size);
  for (char delimiter : {',', '\t'}) {
    fuzz::expected_errors_only([&] {
      LoadOptions o;
      std::vector<std::string> warnings;
      o.warnings = &warnings;
      o.require_labels = delimiter == ',';
      const Dataset d = parse_csv(text, "fuzz.csv", o, delimiter);
      LoadOptions again;
      again.schema = &d.schema;
      again.require_labels = false;
      again.warnings = &warnings;
      parse_csv(text, "fuzz.csv", again, delimiter);
    });
  }
  return 0;
}
