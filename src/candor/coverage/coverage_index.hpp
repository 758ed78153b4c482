#pragma once
// Precomputed row sets of one training data set: which rows hold each nominal value, which rows are of
// each class, and the numeric attributes' rows sorted by value. Built once per fit; read-only afterwards,
// so any number of threads may share it.
#include <cstdint>
#include <memory>
#include <vector>

#include "candor/coverage/bitset.hpp"
#include "candor/coverage/condition.hpp"
#include "candor/data.hpp"

namespace candor {

// A class label as the sorted lists hold it: sweeps read one per row, and two bytes instead of an int's four
// keep more of a list in cache. An unlabelled row (kMissing) is stored as kNoClassCode.
using ClassCode = std::uint16_t;
inline constexpr ClassCode kNoClassCode = 0xFFFF;
inline constexpr std::size_t kMaxIndexedClasses = kNoClassCode;

// How a binned index cuts numeric attributes into bins. The bins' bounds come from a spread sample of the
// rows (at most kBinSampleRows: every row of smaller data), and each bin's smallest and largest value from
// every row, so that data held in parts (a distributed fit) is binned exactly as the same rows held whole:
// the bounds need only the sample, the ranges merge by min and max.
struct NumericBinning {
  // The most bins of an attribute (0: not binned).
  std::size_t bins = 0;
  // Per attribute (empty for a nominal one, or a numeric one without a value in the sample): bin b holds the
  // values in (upper[b - 1], upper[b]], the last bin also every value above.
  std::vector<std::vector<double>> upper;
  // Per attribute and bin: the smallest and largest value of the rows in it (+inf and -inf while none).
  std::vector<std::vector<double>> low, high;
  std::size_t bin_of(std::size_t attribute, double value) const;
  bool operator==(const NumericBinning&) const = default;
};
// The rows a binning's bounds are taken from: more rows move a quantile bound by less than a bin's width
// (the sample's quantile of a bin of 1/255 of the rows errs by about a twentieth of that width at this size);
// data of up to this many rows keeps the bins of every row, as before the bins came from a sample.
inline constexpr std::size_t kBinSampleRows = 200000;

// The bounds of `sample`'s quantile bins (at most `bins` per attribute; one per value for an attribute of no
// more distinct values), with empty ranges.
NumericBinning binning_bounds(const Dataset& sample, std::size_t bins);
// Widens each bin's range by the values of `rows`; merge_bin_ranges widens by another binning's ranges.
void add_bin_ranges(NumericBinning& binning, const Dataset& rows);
void merge_bin_ranges(NumericBinning& into, const NumericBinning& from);
// The bounds of a spread sample of `data` (spread_rows, kBinSampleRows) with the ranges of all its rows.
NumericBinning numeric_binning(const Dataset& data, std::size_t bins);

// Throws MemoryLimitError (util/memory.hpp) when an index of `data` would not fit: a row set per nominal value,
// per attribute its present rows, and per numeric attribute its order, ranks, codes, weights and classes
// (binned: a bin per row). A nominal column with a value per row (an id) would take rows^2 / 8 bytes: refused,
// naming it, rather than killed by the kernel later. The index checks itself; a step that indexes a sample of
// data the fit will index whole (EVC's calibration) checks the whole first, so that it does not build the
// sample's index only to be refused after it.
void check_index_memory(const Dataset& data, bool binned);
// The bytes that index would take (check_index_memory's measure).
double index_bytes(const Dataset& data, bool binned);

class CoverageIndex {
 public:
  // Sorts the numeric attributes on up to `threads` threads (<= 0: every hardware thread). With
  // numeric_bins > 0 every numeric attribute is binned instead: one of more distinct values than that is cut
  // into at most numeric_bins quantile bins of its present rows, and a search cuts it only between bins; one
  // of fewer has a bin per value, and its searches cut where unbinned ones do. Throws std::invalid_argument
  // for more than kMaxIndexedClasses classes.
  explicit CoverageIndex(const Dataset& data, int threads = 1, std::size_t numeric_bins = 0);
  // Binned as `binning` says (numeric_binning of these rows, or of the data they are a sample of: bins without
  // a row of `data` are kept, with their ranges).
  CoverageIndex(const Dataset& data, int threads, const NumericBinning& binning);
  // The index of base.data()'s rows under other class labels and example weights (EVC's class-permuted
  // labels, gradient rules' residual weights), which must outlive the index: the value orders are taken from
  // `base` instead of sorted again, and no copy of the data is made (at a million rows a copy per permutation
  // or class would cost 80 MB).
  CoverageIndex(const CoverageIndex& base, const std::vector<int>& labels, const std::vector<double>& weights);
  // The index of base.data()'s rows `rows`, in that order, whose values, labels and weights `data` holds (as
  // Dataset::subset gives them), binned as `base` is: each row's bin is read from `base` instead of found again,
  // and the index is the one CoverageIndex(data, threads, binning) builds with base's binning. A sample a search
  // runs on costs a copy of its bins, not a search of the bounds per value. Throws std::invalid_argument for a
  // base whose numeric attributes are not binned, or rows that do not match `data`.
  CoverageIndex(const Dataset& data, const CoverageIndex& base, const std::vector<std::size_t>& rows);

  // The rows' attribute values. Their class labels and weights are labels() and weights(): a relabelled
  // index has its own.
  const Dataset& data() const { return *data_; }
  const std::vector<int>& labels() const { return *labels_; }
  const std::vector<double>& weights() const { return *weights_; }
  std::size_t rows() const { return data_->rows(); }
  std::size_t num_classes() const { return class_rows_.size(); }
  bool unit_weights() const { return unit_weights_; }

  // Rows whose nominal attribute a has value v.
  const Bitset& value_rows(int a, int v) const { return orders_->value_rows[a][v]; }
  // Rows whose attribute a is not missing.
  const Bitset& present_rows(int a) const { return orders_->present_rows[a]; }
  const Bitset& class_rows(int c) const { return class_rows_[c]; }
  // Numeric attribute a: its non-missing rows by ascending value (ties by row index), and each row's
  // position in that order (UINT32_MAX for missing). Empty for a binned attribute (bin_of).
  const std::vector<std::uint32_t>& sorted_rows(int a) const { return orders_->sorted_rows[a]; }
  const std::vector<std::uint32_t>& rank(int a) const { return orders_->rank[a]; }
  // The same order's values, classes and weights, so that sweeps read memory sequentially. A value is held
  // as its code, its rank among the attribute's distinct values (equal values share a code): four bytes
  // instead of eight. A binned attribute's code is its bin (bin_of). code_min(a)[code] and code_max(a)[code]
  // are the smallest and largest training value of a code (the value itself for an unbinned attribute): a cut
  // between codes lies between the two.
  const std::vector<std::uint32_t>& sorted_codes(int a) const { return orders_->sorted_codes[a]; }
  const std::vector<double>& code_min(int a) const {
    return orders_->code_min[a].empty() ? orders_->code_max[a] : orders_->code_min[a];
  }
  const std::vector<double>& code_max(int a) const { return orders_->code_max[a]; }
  std::size_t numeric_bins() const { return orders_->numeric_bins; }
  // A binned attribute's bin of each row (kNoBin for missing); empty for an attribute that is not binned.
  // Searches count a rule's rows by bin (detail::count_bins) instead of keeping its rows in value order.
  static constexpr std::uint16_t kNoBin = 0xFFFF;
  static constexpr std::size_t kMaxBins = kNoBin;
  const std::vector<std::uint16_t>& bin_of(int a) const { return orders_->bin_of[a]; }
  // Every numeric attribute of a binned index (numeric_bins() > 0) is binned, in an index of no rows too (the
  // schema and bins a search over rows held elsewhere cuts by: SearchOptions::count_rules).
  bool binned(int a) const { return orders_->numeric_bins > 0 && !data_->attribute(a).is_nominal(); }
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
    // Sized for `attributes` attributes of `rows` rows, no row present yet.
    ValueOrders(std::size_t attributes, std::size_t rows, std::size_t bins);
    // Nominal attribute a's value rows and present rows, from data's codes.
    void index_nominal(const Dataset& data, std::size_t a);
    std::vector<std::vector<Bitset>> value_rows;
    std::vector<Bitset> present_rows;
    std::vector<std::vector<std::uint32_t>> sorted_rows, rank, sorted_codes;
    std::vector<std::vector<double>> code_max, code_min;  // code_min empty: the same as code_max
    std::vector<std::vector<std::uint16_t>> bin_of;
    std::size_t numeric_bins = 0;
  };
  // What depends on the labels and weights: the class row sets, and the classes and weights in value order.
  void index_labels();
  const Dataset* data_;
  const std::vector<int>* labels_;
  const std::vector<double>* weights_;
  bool unit_weights_;
  std::shared_ptr<const ValueOrders> orders_;
  std::vector<Bitset> class_rows_;
  std::vector<std::vector<ClassCode>> sorted_classes_;
  std::vector<std::vector<double>> sorted_weights_;
};

}  // namespace candor
