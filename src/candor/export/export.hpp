#pragma once
// What the export (candor/export.hpp) and the programs that drive one share: the formats by name, and the
// names an export gives the model's attributes.
#include <string>
#include <vector>

#include "candor/export.hpp"
#include "candor/model/model.hpp"
#include "candor/util/names.hpp"

namespace candor {

inline constexpr Named<ExportFormat> kExportFormatNames[] = {
    {"sql", ExportFormat::sql}, {"python", ExportFormat::python}, {"c", ExportFormat::c}};

// A name as a quoted SQL identifier ("a ""b"""), and a string as a C literal: for programs that drive an
// export (`candor export --check`).
std::string sql_identifier(const std::string& name);
std::string c_string_literal(const std::string& s);
// The C export's struct field of each attribute, in the schema's order (names made C identifiers: see
// docs/export.md).
std::vector<std::string> c_field_names(const Schema& schema);

}  // namespace candor
