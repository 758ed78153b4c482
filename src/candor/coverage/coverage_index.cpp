#include "candor/coverage/coverage_index.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "candor/util/memory.hpp"
#include "candor/util/parallel.hpp"

namespace candor {

namespace {

// What the index below takes: a row set per nominal value, per attribute its present rows, and per numeric
// attribute its order, ranks, codes, weights and classes. A nominal column with a value per row (an id)
// would take rows^2 / 8 bytes: refused here, naming it, rather than killed by the kernel later.
void check_index_memory(const Dataset& data) {
  const double n = static_cast<double>(data.rows());
  const double row_set = std::ceil(n / 64) * 8;
  double bytes = 0, widest_bytes = 0;
  std::size_t widest = 0;
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    const Attribute& attr = data.attribute(a);
    const double column =
        attr.is_nominal() ? (static_cast<double>(attr.values.size()) + 1) * row_set : row_set + n * (4 + 4 + 4 + 8 + 2);
    bytes += column;
    if (attr.is_nominal() && column > widest_bytes) {
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

}  // namespace

CoverageIndex::CoverageIndex(const Dataset& data, int threads) : data_(&data), unit_weights_(data.unit_weights()) {
  if (data.num_classes() > kMaxIndexedClasses)
    throw std::invalid_argument("rule search supports at most " + std::to_string(kMaxIndexedClasses) +
                                " classes, the data has " + std::to_string(data.num_classes()));
  const std::size_t n = data.rows();
  const std::size_t na = data.num_attributes();
  check_index_memory(data);
  auto orders = std::make_shared<ValueOrders>();
  ValueOrders& o = *orders;
  o.value_rows.resize(na);
  o.present_rows.assign(na, Bitset(n));
  o.sorted_rows.resize(na);
  o.rank.resize(na);
  o.sorted_codes.resize(na);
  o.distinct_values.resize(na);
  parallel_for(na, threads, [&](std::size_t a) {
    const Attribute& attr = data.attribute(a);
    if (attr.is_nominal()) {
      o.value_rows[a].assign(attr.values.size(), Bitset(n));
      const auto& codes = data.columns[a].codes;
      for (std::size_t r = 0; r < n; ++r) {
        int code = codes[r];
        // Codes beyond the declared values (unseen at fit time) are present but match no value.
        if (code == kMissing) continue;
        o.present_rows[a].set(r);
        if (code < static_cast<int>(attr.values.size())) o.value_rows[a][code].set(r);
      }
    } else {
      const auto& x = data.columns[a].values;
      auto& order = o.sorted_rows[a];
      for (std::size_t r = 0; r < n; ++r)
        if (!std::isnan(x[r])) {
          order.push_back(static_cast<std::uint32_t>(r));
          o.present_rows[a].set(r);
        }
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t i, std::uint32_t j) { return x[i] < x[j]; });
      o.rank[a].assign(n, std::numeric_limits<std::uint32_t>::max());
      auto& codes = o.sorted_codes[a];
      auto& distinct = o.distinct_values[a];
      codes.resize(order.size());
      for (std::size_t i = 0; i < order.size(); ++i) {
        o.rank[a][order[i]] = static_cast<std::uint32_t>(i);
        const double v = x[order[i]];
        if (distinct.empty() || v != distinct.back()) distinct.push_back(v);
        codes[i] = static_cast<std::uint32_t>(distinct.size() - 1);
      }
    }
  });
  orders_ = std::move(orders);
  index_labels();
}

CoverageIndex::CoverageIndex(const CoverageIndex& base, const Dataset& changed)
    : data_(&changed), unit_weights_(changed.unit_weights()), orders_(base.orders_) {
  if (changed.rows() != base.rows() || changed.num_attributes() != base.data().num_attributes())
    throw std::invalid_argument("CoverageIndex: a relabelled copy must have the base's rows and attributes");
  index_labels();
}

void CoverageIndex::index_labels() {
  const Dataset& data = *data_;
  const std::size_t n = data.rows();
  const auto& sorted_rows = orders_->sorted_rows;
  sorted_classes_.resize(sorted_rows.size());
  sorted_weights_.resize(sorted_rows.size());
  for (std::size_t a = 0; a < sorted_rows.size(); ++a) {
    auto& cls = sorted_classes_[a];
    auto& weights = sorted_weights_[a];
    cls.resize(sorted_rows[a].size());
    weights.resize(sorted_rows[a].size());
    for (std::size_t i = 0; i < cls.size(); ++i) {
      const int y = data.y[sorted_rows[a][i]];
      cls[i] = y == kMissing ? kNoClassCode : static_cast<ClassCode>(y);
      weights[i] = data.weights[sorted_rows[a][i]];
    }
  }
  class_rows_.assign(data.num_classes(), Bitset(n));
  for (std::size_t r = 0; r < n; ++r)
    if (data.y[r] != kMissing) class_rows_[data.y[r]].set(r);
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
        std::uint64_t bits = 0;
        if (le)
          for (std::size_t r = base; r < end; ++r)
            bits |= static_cast<std::uint64_t>(x[r] <= c.threshold) << (r - base);
        else
          for (std::size_t r = base; r < end; ++r) bits |= static_cast<std::uint64_t>(x[r] > c.threshold) << (r - base);
        o[w] = bits & in[w];
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
  rows.for_each([&](std::size_t r) {
    if (data_->y[r] != kMissing) out[data_->y[r]] += data_->weights[r];
  });
}

std::vector<double> CoverageIndex::class_counts(const Bitset& rows) const {
  std::vector<double> out(class_rows_.size());
  class_counts(rows, out.data());
  return out;
}

}  // namespace candor
