#pragma once
// Writing output safely: files replaced whole or not at all, CSV that stays parseable, and write errors
// that are reported rather than lost (a full disk, a read-only place, standard output sent to /dev/full).
#include <string>
#include <string_view>

#include "candor/errors.hpp"

namespace candor {

// Writes `contents` to `path` so that a crash, a kill or a full disk at any moment leaves either the previous
// file whole or the new one whole: a temporary file in the same folder, flushed to disk, then renamed over
// `path`. The temporary file is removed when anything fails. Throws OutputError naming `path`.
// A file replaced keeps its permission bits, its owner and its group (when candor may not give the new file
// that owner, the write is refused rather than changing it); a new file gets the mode the umask leaves of 0666.
// A link at `path` is followed (the file it names is replaced and the link stays), and a device or FIFO is
// written in place, unless `follow_links` is false: then `path` itself must be a regular file or absent (a
// link there is replaced, never followed; anything else throws), as for a cache another user may plant into.
void write_file_atomic(const std::string& path, std::string_view contents, bool follow_links = true);

// Appends `text` to `path` (created if missing) and flushes it to disk; for logs whose earlier lines must
// stay (an interrupted append leaves at most one cut last line, which the reader repairs). Throws OutputError.
void append_to_file(const std::string& path, std::string_view text);

// One CSV field as RFC 4180 writes it: quoted (inner quotes doubled) when it holds a comma, a quote, a CR or
// an LF, or begins or ends with a space; unchanged otherwise.
std::string csv_field(const std::string& value);

// Flushes standard output and throws OutputError("standard output", reason) when any write to it failed.
// Call before exiting successfully: without it a full disk or /dev/full leaves a cut file and exit 0.
void finish_standard_output();

}  // namespace candor
