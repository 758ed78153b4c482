#pragma once
// Precomputed row sets of one training data set: which rows hold each nominal value, which rows are of
// each class, and the numeric attributes' rows sorted by value. Built once per fit; read-only afterwards,
// so any number of threads may share it.
#include <cstdint>
#include <memory>
#include <vector>

#include "candor/coverage/bitset.hpp"
#include "candor/coverage/condition.hpp"
#include "candor/data/dataset.hpp"

namespace candor {

// A class label as the sorted lists hold it: sweeps read one per row, and two bytes instead of an int's four
// keep more of a list in cache. An unlabelled row (kMissing) is stored as kNoClassCode.
using ClassCode = std::uint16_t;
inline constexpr ClassCode kNoClassCode = 0xFFFF;
inline constexpr std::size_t kMaxIndexedClasses = kNoClassCode;

class CoverageIndex {
 public:
  // Sorts the numeric attributes on up to `threads` threads (<= 0: every hardware thread). Throws
  // std::invalid_argument for more than kMaxIndexedClasses classes.
  explicit CoverageIndex(const Dataset& data, int threads = 1);
  // The index of `changed`, a copy of base.data() that differs at most in its class labels and example
  // weights (EVC's class-permuted copies, gradient rules' reweighted ones): the value orders are taken from
  // `base` instead of sorted again.
  CoverageIndex(const CoverageIndex& base, const Dataset& changed);

  const Dataset& data() const { return *data_; }
  std::size_t rows() const { return data_->rows(); }
  std::size_t num_classes() const { return class_rows_.size(); }
  bool unit_weights() const { return unit_weights_; }

  // Rows whose nominal attribute a has value v.
  const Bitset& value_rows(int a, int v) const { return orders_->value_rows[a][v]; }
  // Rows whose attribute a is not missing.
  const Bitset& present_rows(int a) const { return orders_->present_rows[a]; }
  const Bitset& class_rows(int c) const { return class_rows_[c]; }
  // Numeric attribute a: its non-missing rows by ascending value (ties by row index), and each row's
  // position in that order (UINT32_MAX for missing).
  const std::vector<std::uint32_t>& sorted_rows(int a) const { return orders_->sorted_rows[a]; }
  const std::vector<std::uint32_t>& rank(int a) const { return orders_->rank[a]; }
  // The same order's values, classes and weights, so that sweeps read memory sequentially. A value is held
  // as its code, its rank among the attribute's distinct values (equal values share a code): four bytes
  // instead of eight, and distinct_values(a)[code] gives it back exactly.
  const std::vector<std::uint32_t>& sorted_codes(int a) const { return orders_->sorted_codes[a]; }
  const std::vector<double>& distinct_values(int a) const { return orders_->distinct_values[a]; }
  const std::vector<ClassCode>& sorted_classes(int a) const { return sorted_classes_[a]; }
  const std::vector<double>& sorted_weights(int a) const { return sorted_weights_[a]; }

  // Rows (among `within`) satisfying c.
  Bitset covered(const Condition& c, const Bitset& within) const;
  // Rows satisfying every one of `conditions` (all rows for none): the rows a rule covers.
  Bitset covered(const std::vector<Condition>& conditions) const;
  // Weighted class counts of `rows` into out[0..classes).
  void class_counts(const Bitset& rows, double* out) const;
  std::vector<double> class_counts(const Bitset& rows) const;

 private:
  // What does not depend on the labels: shared by an index and its relabelled copies (EVC calibration makes
  // one per permutation; on 500 rows x 5,000 attributes each copy would be 70 MB).
  struct ValueOrders {
    std::vector<std::vector<Bitset>> value_rows;
    std::vector<Bitset> present_rows;
    std::vector<std::vector<std::uint32_t>> sorted_rows, rank, sorted_codes;
    std::vector<std::vector<double>> distinct_values;
  };
  // What depends on the labels and weights: the class row sets, and the classes and weights in value order.
  void index_labels();
  const Dataset* data_;
  bool unit_weights_;
  std::shared_ptr<const ValueOrders> orders_;
  std::vector<Bitset> class_rows_;
  std::vector<std::vector<ClassCode>> sorted_classes_;
  std::vector<std::vector<double>> sorted_weights_;
};

}  // namespace candor
