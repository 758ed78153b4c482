#include <gtest/gtest.h>

#include "candor/util/json_error.hpp"
#include "candor/util/json_read.hpp"

namespace candor {
namespace {

const nlohmann::json kDocument = nlohmann::json::parse(R"({
  "rule_model": {"rules": [{"quality": 1.5}, {"quality": "high", "a/b": {"c~d": 2}}]},
  "intercepts": [0.5]
})");

TEST(JsonError, PointerOfAnEntryIsFoundByAddressAndEscaped) {
  const auto& second = kDocument.at("rule_model").at("rules").at(1);
  EXPECT_EQ(json_pointer_of(kDocument, &second), "/rule_model/rules/1");
  EXPECT_EQ(json_pointer_of(kDocument, &second.at("a/b").at("c~d")), "/rule_model/rules/1/a~1b/c~0d");
  EXPECT_EQ(json_pointer_of(kDocument, &kDocument), "");
  const nlohmann::json copy = second;  // a copy is not part of the document
  EXPECT_EQ(json_pointer_of(kDocument, &copy), std::nullopt);
}

TEST(JsonError, ReadersOfANestedPartNameTheEntryFromTheDocumentsRoot) {
  // The reader of the rule set sees only its part; the pointer comes from the whole document.
  const auto& rules = kDocument.at("rule_model").at("rules");
  try {
    for (const auto& rule : rules) read_entry(rule, [&] { return json_get<double>(rule, "quality"); });
    FAIL() << "a string was read as a number";
  } catch (const std::exception& e) {
    EXPECT_EQ(json_error_text(kDocument, e), "/rule_model/rules/1/quality: type must be number, but is string");
  }
  try {
    read_entry(rules.at(0), [&] { return json_get<double>(rules.at(0), "probability"); });
    FAIL() << "a missing entry was read";
  } catch (const std::exception& e) {
    EXPECT_EQ(json_error_text(kDocument, e), "/rule_model/rules/0: lacks \"probability\"");
  }
  // A check of the reader's own becomes a problem of the entry it reads.
  try {
    read_entry(rules.at(0), [&]() -> double { throw std::invalid_argument("rule quality must be at most 1"); });
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_EQ(json_error_text(kDocument, e), "/rule_model/rules/0: rule quality must be at most 1");
  }
  // Integers are checked where they stand.
  try {
    json_int(kDocument.at("rule_model").at("rules").at(0).at("quality"), "quality");
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_EQ(json_error_text(kDocument, e).rfind("/rule_model/rules/0/quality: quality must be an integer", 0), 0u)
        << json_error_text(kDocument, e);
  }
}

TEST(JsonError, OtherErrorsKeepTheirReasonWithoutNlohmannsId) {
  try {
    (void)kDocument.at("intercepts").get<std::string>();
    FAIL();
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_error_text(kDocument, e), "type must be string, but is array");
  }
  EXPECT_EQ(json_error_text(kDocument, std::invalid_argument("no rules")), "no rules");
}

}  // namespace
}  // namespace candor
