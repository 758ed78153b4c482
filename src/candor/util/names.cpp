#include "candor/util/names.hpp"

#include <algorithm>
#include <cctype>

namespace candor {

namespace {
// Optimal string alignment distance: Levenshtein plus the swap of two neighbouring letters, the commonest
// typing slip.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}
}  // namespace

std::string closest_name(const std::string& given, const std::vector<std::string>& known) {
  // Names this long are not typos of anything; the bound also keeps the table small.
  if (given.empty() || given.size() > 200) return "";
  const std::size_t allowed = std::max<std::size_t>(1, given.size() / 3);
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const auto& k : known) {
    const std::size_t distance = edit_distance(given, k);
    if (distance < best_distance) {
      best_distance = distance;
      best = k;
    }
  }
  return best;
}

std::string unknown_name_message(const std::string& what, const std::string& given,
                                 const std::vector<std::string>& known) {
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  // The suggestion comes before the list: a long list is what an error message gets cut in.
  // A long name is shown cut: no name is that long, and the list must stay in the message.
  std::string message = "unknown " + what + " '" + (given.size() > 100 ? given.substr(0, 100) + "..." : given) + "'";
  const std::string close = closest_name(given, known);
  if (!close.empty()) message += "; did you mean '" + close + "'?";
  return message + " (known: " + list + ")";
}

}  // namespace candor
