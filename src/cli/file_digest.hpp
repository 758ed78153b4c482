#pragma once
// The SHA-256 of a model file, which exports and report pages name their model by.
#include <string>

namespace candor::cli {

// The SHA-256 of a file's bytes in hex, as sha256sum prints it; throws InputError when it cannot be read.
std::string file_sha256(const std::string& path);

}  // namespace candor::cli
