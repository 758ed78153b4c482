#include "candor/search/refinements.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

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

void RuleHistogram::merge(const RuleHistogram& other) {
  if (counts.size() != other.counts.size() || cell_rows.size() != other.cell_rows.size())
    throw std::invalid_argument("the tables of rules of other data");
  rows += other.rows;
  for (std::size_t c = 0; c < counts.size(); ++c) counts[c] += other.counts[c];
  for (std::size_t a = 0; a < cell_rows.size(); ++a) {
    if (cell_rows[a].size() != other.cell_rows[a].size()) throw std::invalid_argument("the tables of other bins");
    for (std::size_t i = 0; i < cell_rows[a].size(); ++i) cell_rows[a][i] += other.cell_rows[a][i];
  }
  if (unit_weights && other.unit_weights) return;
  // A table of weights stands for one of unit weights by its rows.
  auto weights_of = [](const RuleHistogram& h, std::size_t a) {
    if (!h.unit_weights) return h.cell_weights[a];
    return std::vector<double>(h.cell_rows[a].begin(), h.cell_rows[a].end());
  };
  std::vector<std::vector<double>> merged(cell_rows.size());
  for (std::size_t a = 0; a < cell_rows.size(); ++a) {
    merged[a] = weights_of(*this, a);
    const std::vector<double> more = weights_of(other, a);
    for (std::size_t i = 0; i < merged[a].size(); ++i) merged[a][i] += more[i];
  }
  cell_weights = std::move(merged);
  unit_weights = false;
}

std::size_t histogram_cells(const CoverageIndex& index, int a) {
  const Attribute& attribute = index.data().attribute(static_cast<std::size_t>(a));
  if (attribute.is_nominal()) return attribute.values.size() + 1;
  if (!index.binned(a)) throw std::logic_error("the table of a numeric attribute that is not binned");
  return index.code_max(a).size() + 1;
}

RuleHistogram rule_histogram(const CoverageIndex& index, const Bitset& covered) {
  const Dataset& d = index.data();
  const std::size_t k = index.num_classes(), stride = k + 1;
  const int* labels = index.labels().data();
  const double* weights = index.weights().data();
  RuleHistogram out;
  out.unit_weights = index.unit_weights();
  out.counts = index.class_counts(covered);
  const std::vector<std::uint32_t> rows = covered.members();
  out.rows = rows.size();
  const std::size_t na = d.num_attributes();
  out.cell_rows.resize(na);
  if (!out.unit_weights) out.cell_weights.resize(na);
  for (std::size_t a = 0; a < na; ++a) {
    const std::size_t cells = histogram_cells(index, static_cast<int>(a));
    auto& table = out.cell_rows[a];
    table.assign(cells * stride, 0);
    if (!out.unit_weights) out.cell_weights[a].assign(cells * stride, 0.0);
    const bool nominal = d.attribute(a).is_nominal();
    const int* codes = nominal ? d.columns[a].codes.data() : nullptr;
    const std::uint16_t* bins = nominal ? nullptr : index.bin_of(static_cast<int>(a)).data();
    for (std::uint32_t r : rows) {
      std::size_t cell = cells - 1;
      if (nominal) {
        const int code = codes[r];
        if (code != kMissing && static_cast<std::size_t>(code) < cells - 1) cell = static_cast<std::size_t>(code);
      } else if (bins[r] != CoverageIndex::kNoBin) {
        cell = bins[r];
      }
      const auto y = static_cast<std::size_t>(static_cast<unsigned>(labels[r]));
      const std::size_t at = cell * stride + (y < k ? y : k);
      ++table[at];
      if (!out.unit_weights) out.cell_weights[a][at] += weights[r];
    }
  }
  return out;
}

std::vector<RuleHistogram> rule_histograms(const CoverageIndex& index, const Bitset& within,
                                           const std::vector<std::vector<Condition>>& rules) {
  std::vector<RuleHistogram> out;
  for (const auto& conditions : rules) {
    Bitset covered = within;
    for (const Condition& c : conditions) covered = index.covered(c, covered);
    out.push_back(rule_histogram(index, covered));
  }
  return out;
}

std::size_t condition_counts(const CoverageIndex& index, const RuleHistogram& rule, const Condition& c,
                             std::vector<double>& counts) {
  const std::size_t k = index.num_classes(), stride = k + 1;
  const auto a = static_cast<std::size_t>(c.attribute);
  const std::size_t values = histogram_cells(index, c.attribute) - 1;  // the cells with a value
  // Whether the condition holds on the rows of a cell with a value: a bin's rows lie between its least and
  // greatest value, and a search cuts between the greatest of one bin holding rows and the least of the next.
  auto holds = [&](std::size_t cell) {
    switch (c.op) {
      case Op::eq: return cell == static_cast<std::size_t>(c.value);
      case Op::ne: return cell != static_cast<std::size_t>(c.value);
      case Op::le: return index.code_max(c.attribute)[cell] <= c.threshold;
      case Op::gt: return index.code_max(c.attribute)[cell] > c.threshold;
    }
    return false;
  };
  counts.assign(k, 0.0);
  std::size_t rows = 0;
  for (std::size_t cell = 0; cell < values; ++cell) {
    if (!holds(cell)) continue;
    for (std::size_t y = 0; y <= k; ++y) {
      const std::size_t at = cell * stride + y;
      rows += rule.cell_rows[a][at];
      if (y < k) counts[y] += rule.unit_weights ? static_cast<double>(rule.cell_rows[a][at]) : rule.cell_weights[a][at];
    }
  }
  return rows;
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
