#include "candor/coverage/coverage_index.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "candor/data/resampling.hpp"
#include "candor/util/memory.hpp"
#include "candor/util/parallel.hpp"

namespace candor {

namespace {

std::size_t count_distinct(const std::vector<double>& x, const std::vector<std::uint32_t>& order) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < order.size(); ++i) count += i == 0 || x[order[i]] != x[order[i - 1]];
  return count;
}

// Codes of rows in value order (`order`): each value's rank among the distinct values, which are `values`;
// code(i, c) receives position i's code.
template <class Code>
void code_distinct(const std::vector<double>& x, const std::vector<std::uint32_t>& order, std::vector<double>& values,
                   Code&& code) {
  for (std::size_t i = 0; i < order.size(); ++i) {
    const double v = x[order[i]];
    if (values.empty() || v != values.back()) values.push_back(v);
    code(i, values.size() - 1);
  }
}

// Quantile bins of the rows in value order (`order`): a bin ends at the first change of value at or after
// which (b + 1) / bins of the rows lie before, so that equal values share a bin and there are at most
// `bins`. Writes each row's bin, and each bin's smallest and largest value.
void bin_numeric(const std::vector<double>& x, std::size_t bins, const std::vector<std::uint32_t>& order,
                 std::vector<std::uint16_t>& bin_of, std::vector<double>& lows, std::vector<double>& highs) {
  const std::size_t m = order.size();
  std::size_t bin = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const double v = x[order[i]];
    if (i > 0 && v != x[order[i - 1]] && i * bins >= (bin + 1) * m) {
      highs.push_back(x[order[i - 1]]);
      ++bin;
    }
    if (lows.size() == bin) lows.push_back(v);
    bin_of[order[i]] = static_cast<std::uint16_t>(bin);
  }
  if (m > 0) highs.push_back(x[order[m - 1]]);
}

}  // namespace

namespace {

// The bytes of attribute a's part of an index of `data`.
double index_column_bytes(const Dataset& data, std::size_t a, bool binned) {
  const double n = static_cast<double>(data.rows());
  const double row_set = std::ceil(n / 64) * 8;
  const Attribute& attr = data.attribute(a);
  return attr.is_nominal() ? (static_cast<double>(attr.values.size()) + 1) * row_set
                           : row_set + n * (binned ? 2 : 4 + 4 + 4 + 8 + 2);
}

}  // namespace

double index_bytes(const Dataset& data, bool binned) {
  double bytes = 0;
  for (std::size_t a = 0; a < data.num_attributes(); ++a) bytes += index_column_bytes(data, a, binned);
  return bytes;
}

void check_index_memory(const Dataset& data, bool binned) {
  const double bytes = index_bytes(data, binned);
  double widest_bytes = 0;
  std::size_t widest = 0;
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    const double column = index_column_bytes(data, a, binned);
    if (data.attribute(a).is_nominal() && column > widest_bytes) {
      widest_bytes = column;
      widest = a;
    }
  }
  const std::string source = data.source.empty() ? std::string("the data") : data.source;
  const std::string advice = widest_bytes > bytes / 2
                                 ? "attribute '" + data.attribute(widest).name + "' has " +
                                       std::to_string(data.attribute(widest).values.size()) +
                                       " distinct values: drop it (an identifier?) or group its values"
                                 : "use fewer rows or attributes";
  check_memory(bytes, "indexing " + source + " (" + std::to_string(data.rows()) + " rows)", advice);
}

std::size_t NumericBinning::bin_of(std::size_t attribute, double value) const {
  const auto& u = upper[attribute];
  if (u.empty()) return 0;
  // std::lower_bound's answer without its branches: the halving depends on no comparison, and the comparison
  // becomes a mask (g++ 12 turns `a < b ? half : 0` on doubles into a jump, mispredicted half the time), so
  // that every row of every index of binned data finds its bin about three times faster. The answer stays in
  // [first, first + len].
  const double* first = u.data();
  std::size_t len = u.size();
  while (len > 1) {
    const std::size_t half = len / 2;
    first += half & (std::size_t{0} - static_cast<std::size_t>(first[half - 1] < value));
    len -= half;
  }
  const auto at = static_cast<std::size_t>(first - u.data()) + (*first < value ? 1 : 0);
  return std::min(at, u.size() - 1);
}

NumericBinning binning_bounds(const Dataset& sample, std::size_t bins) {
  NumericBinning out;
  out.bins = std::min(bins, CoverageIndex::kMaxBins);
  const std::size_t na = sample.num_attributes();
  out.upper.resize(na);
  out.low.resize(na);
  out.high.resize(na);
  for (std::size_t a = 0; a < na; ++a) {
    if (sample.attribute(a).is_nominal()) continue;
    // The bounds need the values in order, not the rows: the values themselves are sorted (stably, so that of
    // equal values, 0 and -0, the first row's comes first, as in an order of the rows), which is several times
    // quicker than sorting row numbers by their values.
    std::vector<double> x;
    for (double v : sample.columns[a].values)
      if (!std::isnan(v)) x.push_back(v);
    std::stable_sort(x.begin(), x.end());
    std::vector<std::uint32_t> order(x.size());
    std::iota(order.begin(), order.end(), std::uint32_t{0});
    auto& upper = out.upper[a];
    if (count_distinct(x, order) > out.bins) {
      std::vector<std::uint16_t> bin_of(x.size());
      std::vector<double> lows;
      bin_numeric(x, out.bins, order, bin_of, lows, upper);
    } else {
      code_distinct(x, order, upper, [](std::size_t, std::size_t) {});
    }
    out.low[a].assign(std::max<std::size_t>(1, upper.size()), std::numeric_limits<double>::infinity());
    out.high[a].assign(out.low[a].size(), -std::numeric_limits<double>::infinity());
  }
  return out;
}

void add_bin_ranges(NumericBinning& binning, const Dataset& rows) {
  for (std::size_t a = 0; a < rows.num_attributes(); ++a) {
    if (rows.attribute(a).is_nominal()) continue;
    auto& low = binning.low[a];
    auto& high = binning.high[a];
    for (double v : rows.columns[a].values) {
      if (std::isnan(v)) continue;
      const std::size_t b = binning.bin_of(a, v);
      low[b] = std::min(low[b], v);
      high[b] = std::max(high[b], v);
    }
  }
}

void merge_bin_ranges(NumericBinning& into, const NumericBinning& from) {
  if (into.upper != from.upper) throw std::invalid_argument("merge_bin_ranges: the binnings' bounds differ");
  for (std::size_t a = 0; a < into.low.size(); ++a)
    for (std::size_t b = 0; b < into.low[a].size(); ++b) {
      into.low[a][b] = std::min(into.low[a][b], from.low[a][b]);
      into.high[a][b] = std::max(into.high[a][b], from.high[a][b]);
    }
}

NumericBinning numeric_binning(const Dataset& data, std::size_t bins) {
  NumericBinning out = data.rows() <= kBinSampleRows
                           ? binning_bounds(data, bins)
                           : binning_bounds(data.subset(spread_rows(data.rows(), kBinSampleRows)), bins);
  add_bin_ranges(out, data);
  return out;
}

CoverageIndex::ValueOrders::ValueOrders(std::size_t attributes, std::size_t rows, std::size_t bins)
    : value_rows(attributes),
      present_rows(attributes, Bitset(rows)),
      sorted_rows(attributes),
      rank(attributes),
      sorted_codes(attributes),
      code_max(attributes),
      code_min(attributes),
      bin_of(attributes),
      numeric_bins(bins) {}

void CoverageIndex::ValueOrders::index_nominal(const Dataset& data, std::size_t a) {
  const std::size_t n = data.rows(), values = data.attribute(a).values.size();
  value_rows[a].assign(values, Bitset(n));
  const auto& codes = data.columns[a].codes;
  for (std::size_t r = 0; r < n; ++r) {
    const int code = codes[r];
    // Codes beyond the declared values (unseen at fit time) are present but match no value.
    if (code == kMissing) continue;
    present_rows[a].set(r);
    if (code < static_cast<int>(values)) value_rows[a][static_cast<std::size_t>(code)].set(r);
  }
}

CoverageIndex::CoverageIndex(const Dataset& data, int threads, std::size_t numeric_bins)
    : CoverageIndex(data, threads, numeric_bins > 0 ? numeric_binning(data, numeric_bins) : NumericBinning{}) {}

CoverageIndex::CoverageIndex(const Dataset& data, int threads, const NumericBinning& binning)
    : data_(&data), labels_(&data.y), weights_(&data.weights), unit_weights_(data.unit_weights()) {
  if (data.num_classes() > kMaxIndexedClasses)
    throw std::invalid_argument("rule search supports at most " + std::to_string(kMaxIndexedClasses) +
                                " classes, the data has " + std::to_string(data.num_classes()));
  const std::size_t n = data.rows();
  const std::size_t na = data.num_attributes();
  const bool binned = binning.bins > 0;
  if (binned && binning.upper.size() != na)
    throw std::invalid_argument("CoverageIndex: the binning is of data with other attributes");
  check_index_memory(data, binned);
  auto orders = std::make_shared<ValueOrders>(na, n, binning.bins);
  ValueOrders& o = *orders;
  parallel_for(na, threads, [&](std::size_t a) {
    if (data.attribute(a).is_nominal()) {
      o.index_nominal(data, a);
    } else if (binned) {
      // Binned: each row's bin takes the place of the order, ranks and codes. Few values: one bin each.
      const auto& x = data.columns[a].values;
      auto& bins = o.bin_of[a];
      bins.assign(n, kNoBin);
      for (std::size_t r = 0; r < n; ++r)
        if (!std::isnan(x[r])) {
          bins[r] = static_cast<std::uint16_t>(binning.bin_of(a, x[r]));
          o.present_rows[a].set(r);
        }
      // An attribute without a value in the binned data has no bin; bins of one value each hold it once.
      const auto& low = binning.low[a];
      const auto& high = binning.high[a];
      if (binning.upper[a].empty() && !std::isfinite(high[0])) return;
      o.code_max[a] = high;
      if (low != high) o.code_min[a] = low;
    } else {
      const auto& x = data.columns[a].values;
      auto& order = o.sorted_rows[a];
      for (std::size_t r = 0; r < n; ++r)
        if (!std::isnan(x[r])) {
          order.push_back(static_cast<std::uint32_t>(r));
          o.present_rows[a].set(r);
        }
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t i, std::uint32_t j) { return x[i] < x[j]; });
      auto& codes = o.sorted_codes[a];
      codes.resize(order.size());
      code_distinct(x, order, o.code_max[a],
                    [&](std::size_t i, std::size_t code) { codes[i] = static_cast<std::uint32_t>(code); });
      o.rank[a].assign(n, std::numeric_limits<std::uint32_t>::max());
      for (std::size_t i = 0; i < order.size(); ++i) o.rank[a][order[i]] = static_cast<std::uint32_t>(i);
    }
  });
  orders_ = std::move(orders);
  index_labels();
}

CoverageIndex::CoverageIndex(const Dataset& data, const CoverageIndex& base, const std::vector<std::size_t>& rows)
    : data_(&data), labels_(&data.y), weights_(&data.weights), unit_weights_(data.unit_weights()) {
  const std::size_t n = data.rows(), na = data.num_attributes();
  if (base.numeric_bins() == 0) throw std::invalid_argument("CoverageIndex: the rows of an index that is not binned");
  if (rows.size() != n || na != base.data().num_attributes())
    throw std::invalid_argument("CoverageIndex: rows of another index than their data's");
  for (std::size_t r : rows)
    if (r >= base.rows()) throw std::invalid_argument("CoverageIndex: a row past the index");
  const ValueOrders& from = *base.orders_;
  auto orders = std::make_shared<ValueOrders>(na, n, from.numeric_bins);
  ValueOrders& o = *orders;
  for (std::size_t a = 0; a < na; ++a) {
    if (data.attribute(a).is_nominal()) {
      o.index_nominal(data, a);
      continue;
    }
    const auto& base_bins = from.bin_of[a];
    auto& bins = o.bin_of[a];
    bins.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
      bins[r] = base_bins[rows[r]];
      if (bins[r] != kNoBin) o.present_rows[a].set(r);
    }
    o.code_max[a] = from.code_max[a];
    o.code_min[a] = from.code_min[a];
  }
  orders_ = std::move(orders);
  index_labels();
}

CoverageIndex::CoverageIndex(const CoverageIndex& base, const std::vector<int>& labels,
                             const std::vector<double>& weights)
    : data_(base.data_),
      labels_(&labels),
      weights_(&weights),
      unit_weights_(std::all_of(weights.begin(), weights.end(), [](double w) { return w == 1.0; })),
      orders_(base.orders_) {
  if (labels.size() != base.rows() || weights.size() != base.rows())
    throw std::invalid_argument("CoverageIndex: relabelling needs a label and a weight per row of the base");
  index_labels();
}

void CoverageIndex::index_labels() {
  const std::vector<int>& y = *labels_;
  const std::vector<double>& w = *weights_;
  const std::size_t n = y.size();
  const auto& sorted_rows = orders_->sorted_rows;
  sorted_classes_.resize(sorted_rows.size());
  sorted_weights_.resize(sorted_rows.size());
  for (std::size_t a = 0; a < sorted_rows.size(); ++a) {
    auto& cls = sorted_classes_[a];
    auto& weights = sorted_weights_[a];
    cls.resize(sorted_rows[a].size());
    weights.resize(sorted_rows[a].size());
    for (std::size_t i = 0; i < cls.size(); ++i) {
      const int label = y[sorted_rows[a][i]];
      cls[i] = label == kMissing ? kNoClassCode : static_cast<ClassCode>(label);
      weights[i] = w[sorted_rows[a][i]];
    }
  }
  class_rows_.assign(data_->num_classes(), Bitset(n));
  for (std::size_t r = 0; r < n; ++r)
    if (y[r] != kMissing) class_rows_[static_cast<std::size_t>(y[r])].set(r);
}

Bitset CoverageIndex::covered(const std::vector<Condition>& conditions) const {
  Bitset out(rows(), true);
  for (const Condition& c : conditions) out = covered(c, out);
  return out;
}

Bitset CoverageIndex::covered(const Condition& c, const Bitset& within) const {
  switch (c.op) {
    case Op::eq: return within & orders_->value_rows[c.attribute][c.value];
    case Op::ne: {
      Bitset out = within & orders_->present_rows[c.attribute];
      return out.subtract(orders_->value_rows[c.attribute][c.value]);
    }
    case Op::le:
    case Op::gt: {
      Bitset out(within.size());
      const double* x = data_->columns[c.attribute].values.data();
      const bool le = c.op == Op::le;
      if (within.count() * 8 < within.size()) {
        within.for_each([&](std::size_t r) {
          if (!std::isnan(x[r]) && (le == (x[r] <= c.threshold))) out.set(r);
        });
        return out;
      }
      // Most rows inside: one branch-free pass over every row (NaN fails both tests) beats visiting members.
      const std::uint64_t* in = within.data();
      std::uint64_t* o = out.data();
      const std::size_t n = within.size();
      for (std::size_t w = 0; w < within.num_words(); ++w) {
        const std::size_t base = w * 64, end = std::min(n, base + 64);
        o[w] = condition_bits(c, *data_, base, end, [](std::size_t r) { return r; }) & in[w];
      }
      return out;
    }
  }
  return Bitset(within.size());
}

void CoverageIndex::class_counts(const Bitset& rows, double* out) const {
  const std::size_t k = class_rows_.size();
  if (unit_weights_) {
    for (std::size_t c = 0; c < k; ++c) out[c] = static_cast<double>(count_and(rows, class_rows_[c]));
    return;
  }
  std::fill(out, out + k, 0.0);
  const std::vector<int>& y = *labels_;
  const std::vector<double>& w = *weights_;
  rows.for_each([&](std::size_t r) {
    if (y[r] != kMissing) out[y[r]] += w[r];
  });
}

std::vector<double> CoverageIndex::class_counts(const Bitset& rows) const {
  std::vector<double> out(class_rows_.size());
  class_counts(rows, out.data());
  return out;
}

}  // namespace candor
