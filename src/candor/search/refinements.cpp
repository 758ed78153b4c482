#include "candor/search/refinements.hpp"

#include <algorithm>
#include <cmath>

namespace candor {

std::size_t sorted_columns_bytes(const CoverageIndex& index, std::size_t rows) {
  std::size_t numeric = 0;
  for (std::size_t a = 0; a < index.data().num_attributes(); ++a)
    numeric += !index.data().attribute(a).is_nominal() && !index.binned(static_cast<int>(a));
  const std::size_t per_row =
      sizeof(std::uint32_t) + sizeof(ClassCode) + sizeof(std::uint32_t) + (index.unit_weights() ? 0 : sizeof(double));
  return numeric * rows * per_row;
}

std::size_t held_bytes(const SortedColumns& lists) {
  std::size_t bytes = 0;
  for (const auto& c : lists)
    bytes +=
        c.codes.capacity_bytes() + c.classes.capacity_bytes() + c.weights.capacity_bytes() + c.rows.capacity_bytes();
  return bytes;
}

void build_sorted_column(const CoverageIndex& index, const Bitset& covered, const std::vector<std::uint32_t>& rows,
                         const SortedColumn* parent, int a, SortedColumn& col) {
  const bool unit = index.unit_weights();
  const auto& global_rows = index.sorted_rows(a);
  const auto& gv = index.sorted_codes(a);
  const auto& gc = index.sorted_classes(a);
  const auto& gw = index.sorted_weights(a);
  const std::size_t source_size = parent ? parent->rows.size() : global_rows.size();
  const double n = static_cast<double>(rows.size());
  if (n * (std::log2(n + 1) + 1) < static_cast<double>(source_size) / 2) {
    // Few rows: sort their ranks in the global order.
    const auto& rank = index.rank(a);
    thread_local std::vector<std::uint32_t> pos;
    pos.clear();
    for (std::uint32_t r : rows)
      if (rank[r] != UINT32_MAX) pos.push_back(rank[r]);
    std::sort(pos.begin(), pos.end());
    col.codes.reset(pos.size());
    col.classes.reset(pos.size());
    col.rows.reset(pos.size());
    if (!unit) col.weights.reset(pos.size());
    for (std::size_t j = 0; j < pos.size(); ++j) {
      col.codes[j] = gv[pos[j]];
      col.classes[j] = gc[pos[j]];
      col.rows[j] = global_rows[pos[j]];
      if (!unit) col.weights[j] = gw[pos[j]];
    }
    return;
  }
  // Filter the parent's list (or the global order) by the coverage bitset, without branches: coverage near
  // one half would make a branch here mispredict constantly.
  const std::uint32_t* sv = parent ? parent->codes.data() : gv.data();
  const ClassCode* sc = parent ? parent->classes.data() : gc.data();
  const double* sw = parent ? parent->weights.data() : gw.data();
  const std::uint32_t* sr = parent ? parent->rows.data() : global_rows.data();
  const std::uint64_t* cov = covered.data();
  // Every position is written (then kept or overwritten), so the list needs room for its covered rows plus
  // the write after the last of them; no more, so that recycled buffers sized by rows fit.
  const std::size_t room = std::min(source_size, rows.size() + 1);
  col.codes.reset(room);
  col.classes.reset(room);
  col.rows.reset(room);
  if (!unit) col.weights.reset(room);
  // The source is usually out of cache (another task built it, or the global order).
  prefetch_short(sr, source_size);
  prefetch_short(sv, source_size);
  prefetch_short(sc, source_size);
  if (!unit) prefetch_short(sw, source_size);
  std::size_t m = 0;
  for (std::size_t i = 0; i < source_size; ++i) {
    const std::uint32_t r = sr[i];
    col.codes[m] = sv[i];
    col.classes[m] = sc[i];
    col.rows[m] = r;
    if (!unit) col.weights[m] = sw[i];
    m += (cov[r >> 6] >> (r & 63)) & 1U;
  }
  col.codes.shrink(m);
  col.classes.shrink(m);
  col.rows.shrink(m);
  if (!unit) col.weights.shrink(m);
}

}  // namespace candor
