#include "candor/util/json_error.hpp"

namespace candor {

namespace {

bool find_path(const nlohmann::json& at, const nlohmann::json* entry, nlohmann::json::json_pointer& path) {
  if (&at == entry) return true;
  if (at.is_object()) {
    for (const auto& [key, value] : at.items()) {
      path.push_back(key);
      if (find_path(value, entry, path)) return true;
      path.pop_back();
    }
  } else if (at.is_array()) {
    for (std::size_t i = 0; i < at.size(); ++i) {
      path.push_back(std::to_string(i));
      if (find_path(at[i], entry, path)) return true;
      path.pop_back();
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> json_pointer_of(const nlohmann::json& document, const nlohmann::json* entry) {
  nlohmann::json::json_pointer path;
  if (!find_path(document, entry, path)) return std::nullopt;
  return path.to_string();
}

std::string json_exception_reason(const nlohmann::json::exception& e) {
  std::string text = e.what();
  if (text.rfind("[json.exception.", 0) == 0) {
    const auto close = text.find("] ");
    if (close != std::string::npos) text.erase(0, close + 2);
  }
  return text;
}

std::string json_error_text(const nlohmann::json& document, const std::exception& e) {
  if (const auto* at_entry = dynamic_cast<const JsonEntryError*>(&e)) {
    const auto pointer = json_pointer_of(document, at_entry->entry());
    if (!pointer) return e.what();
    return (pointer->empty() ? std::string("/") : *pointer) + ": " + e.what();
  }
  if (const auto* json_error = dynamic_cast<const nlohmann::json::exception*>(&e))
    return json_exception_reason(*json_error);
  return e.what();
}

}  // namespace candor
