#pragma once
// Errors in the JSON files candor reads (model files), named by the JSON pointer of the entry they are
// about. A reader of a nested part (the rule set inside a rule-logistic model, a member of an ensemble)
// does not know where its part sits in the file, so it throws JsonEntryError with the entry it holds, and
// whoever holds the whole document names that entry by its pointer (json_error_text), found by address.
// (nlohmann's JSON_DIAGNOSTICS would put pointers in its own exceptions, but it changes nlohmann's types for
// every program that links candor, and GCC before 15 warns falsely about it under -Wall -O2.)
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace candor {

class JsonEntryError : public std::invalid_argument {
 public:
  JsonEntryError(const nlohmann::json& entry, const std::string& reason)
      : std::invalid_argument(reason), entry_(&entry) {}
  const nlohmann::json* entry() const { return entry_; }

 private:
  const nlohmann::json* entry_;
};

// nlohmann's message without its error id: "type must be number, but is string".
std::string json_exception_reason(const nlohmann::json::exception& e);

// read() with a problem it throws that names no entry yet (a std::invalid_argument, or nlohmann's own
// exception) re-thrown as one about `entry`: the checks of a part's reader name the part.
template <class Read>
auto read_entry(const nlohmann::json& entry, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const JsonEntryError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw JsonEntryError(entry, e.what());
  } catch (const nlohmann::json::exception& e) {
    throw JsonEntryError(entry, json_exception_reason(e));
  }
}

// Entry `key` of object `j` as a T; its absence or a value of another type is a JsonEntryError about `j` or
// the entry. Integers are read with json_integer (json_read.hpp), which checks their range.
template <class T>
T json_get(const nlohmann::json& j, const char* key) {
  static_assert(!std::is_integral_v<T> || std::is_same_v<T, bool>, "read integers with json_integer");
  if (!j.is_object()) throw JsonEntryError(j, std::string("must be an object holding \"") + key + "\"");
  const auto it = j.find(key);
  if (it == j.end()) throw JsonEntryError(j, std::string("lacks \"") + key + "\"");
  try {
    return it->template get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw JsonEntryError(*it, json_exception_reason(e));
  }
}

// The JSON pointer of `entry` within `document` ("" for the document itself), found by its address; none
// when it is not part of the document (a copy of an entry is not).
std::optional<std::string> json_pointer_of(const nlohmann::json& document, const nlohmann::json* entry);

// An error met while reading `document`, as "POINTER: reason" for a JsonEntryError whose entry is part of
// it, else the reason alone (nlohmann's without its error id).
std::string json_error_text(const nlohmann::json& document, const std::exception& e);

}  // namespace candor
