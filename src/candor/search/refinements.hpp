#pragma once
// Evaluates every condition on one attribute over the examples a rule covers, without building a bitset
// per condition: nominal attributes by popcounts of (rule AND value AND class) or by one pass over the
// covered rows, whichever is cheaper; numeric attributes by one sweep over the covered rows in value
// order, cutting at boundary points: midpoints between adjacent distinct values, skipped where the
// examples on both sides all have one and the same label. With a target class the labels are "target"
// and "other" (a cut between two groups of other classes cannot improve a rule for the target); without
// one they are the classes.
//
// The sink is a template parameter so that the per-threshold call inlines: this is the innermost loop of
// every search.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "candor/coverage/coverage_index.hpp"

namespace candor {

// Storage that grows but never shrinks and is not zero-filled: attribute lists are rebuilt for every beam
// rule, and fresh zeroed allocations of that size cost more in page faults than the filtering itself.
template <class T>
class Buffer {
 public:
  // Room for n elements; the old contents are not kept.
  void reset(std::size_t n) {
    if (n > capacity_) {
      data_.reset(new T[n]);
      capacity_ = n;
    }
    size_ = n;
  }
  void shrink(std::size_t n) { size_ = n; }
  std::size_t size() const { return size_; }
  std::size_t capacity_bytes() const { return capacity_ * sizeof(T); }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

// A rule's covered non-missing rows of one numeric attribute, in value order (SLIQ's attribute lists):
// a refinement builds its own by filtering its parent's, so a sweep never walks rows its rule does not cover.
struct SortedColumn {
  Buffer<std::uint32_t> codes;  // values as CoverageIndex::sorted_codes holds them
  Buffer<ClassCode> classes;
  Buffer<double> weights;  // unused under unit weights
  Buffer<std::uint32_t> rows;
};
using SortedColumns = std::vector<SortedColumn>;  // one per attribute; nominal ones stay empty

// Asks for every cache line of a short array that is probably out of cache (a list another task built,
// the global order): the misses then overlap, where the hardware prefetcher would ramp up on each short
// stream in turn. Long arrays are left to the prefetcher.
template <class T>
inline void prefetch_short(const T* data, std::size_t size) {
  constexpr std::size_t kLine = 64 / sizeof(T);
  if (size * sizeof(T) > 16384) return;
  for (std::size_t i = 0; i < size; i += kLine) __builtin_prefetch(data + i);
}

// What a sweep reads of a list: a rule's own list or the index's global order.
struct ColumnView {
  const std::uint32_t* codes;
  const ClassCode* classes;
  const double* weights;  // null under unit weights
  std::size_t size;
};
// Bytes the lists' buffers hold (their capacity, not their current size).
std::size_t held_bytes(const SortedColumns& lists);

// A rule's rows counted where they are held (the parts of a fit across workers), as a search reads them when
// it holds no rows: how many it covers, their class counts and, per attribute, a table of its rows by cell and
// class. A nominal attribute's cells are its values, a binned numeric one's its bins, each then one more cell for
// the rows without a (declared) value; the classes have one more for rows without a label: the tables
// detail::count_bins counts. Tables of parts add up to the table of their rows (merge).
struct RuleHistogram {
  std::size_t rows = 0;
  std::vector<double> counts;
  bool unit_weights = true;  // every row's weight is 1; cell_weights is then empty
  std::vector<std::vector<std::uint32_t>> cell_rows;
  std::vector<std::vector<double>> cell_weights;
  void merge(const RuleHistogram& other);
};
// The cells of attribute a's table, its missing cell included (RuleHistogram).
std::size_t histogram_cells(const CoverageIndex& index, int a);
// The table of the rows `covered` (of the index's rows).
RuleHistogram rule_histogram(const CoverageIndex& index, const Bitset& covered);
// The table of each rule (its conditions) over the rows of `within` it covers.
std::vector<RuleHistogram> rule_histograms(const CoverageIndex& index, const Bitset& within,
                                           const std::vector<std::vector<Condition>>& rules);
// The class counts (into counts) and rows of the rule refined by `c`, from the rule's table: the counts of a
// condition the search evaluated, without its rows.
std::size_t condition_counts(const CoverageIndex& index, const RuleHistogram& rule, const Condition& c,
                             std::vector<double>& counts);

struct RuleCoverage {
  const Bitset* covered;                   // rows the rule covers
  const std::vector<std::uint32_t>* rows;  // the same rows as an ascending list
  const SortedColumns* sorted = nullptr;   // optional attribute lists of the rule
  const double* counts = nullptr;          // optional class counts of the covered rows
  // The rule's rows counted elsewhere: `covered` and `rows` are then empty, and every numeric attribute binned.
  const RuleHistogram* histogram = nullptr;
  std::size_t row_count() const { return histogram ? histogram->rows : rows->size(); }
  bool unit_weights(const CoverageIndex& index) const {
    return histogram ? histogram->unit_weights : index.unit_weights();
  }
};

// Adds the class counts (weights when given) of positions [from, to) to acc. With few classes, one pass
// per class into a register: accumulating into acc[cls[j]] chains every addition through memory.
inline void add_class_counts(const ClassCode* cls, const double* wts, std::size_t from, std::size_t to, std::size_t k,
                             double* acc) {
  if (k <= 8) {
    for (std::size_t c = 0; c < k; ++c) {
      const auto ci = static_cast<ClassCode>(c);
      if (!wts) {
        std::size_t cnt = 0;
        for (std::size_t j = from; j < to; ++j) cnt += cls[j] == ci;
        acc[c] += static_cast<double>(cnt);
      } else {
        double sum = 0;
        for (std::size_t j = from; j < to; ++j) sum += cls[j] == ci ? wts[j] : 0.0;
        acc[c] += sum;
      }
    }
    return;
  }
  for (std::size_t j = from; j < to; ++j) acc[cls[j]] += wts ? wts[j] : 1.0;
}

// Builds the list of numeric attribute a for the rows in `covered` (ascending `rows`): by sorting their
// ranks when they are few, else by filtering the parent's list (or, without one, the index's global order)
// with the coverage bitset.
void build_sorted_column(const CoverageIndex& index, const Bitset& covered, const std::vector<std::uint32_t>& rows,
                         const SortedColumn* parent, int a, SortedColumn& out);
// Bytes the attribute lists of a rule covering `rows` rows would take (binned attributes have none).
std::size_t sorted_columns_bytes(const CoverageIndex& index, std::size_t rows);

struct RefinementKinds {
  bool equal = true;       // A = v
  bool not_equal = false;  // A != v
  bool less_equal = true;  // A <= t
  bool greater = true;     // A > t
};

// Scratch memory reused across calls by one thread.
struct RefinementScratch {
  std::vector<double> table;
  std::vector<std::size_t> row_counts;
  SortedColumn column;  // the attribute list of a rule that has none of its own
  std::vector<std::uint32_t> starts, changes, cuts, below;
  std::vector<std::uint32_t> run_positives;  // positives before each run of a bounded sweep
  std::vector<double> cum, total, other;
  std::vector<double> batch_s, batch_n, batch_quality, batch_selection;  // a batch's candidates and scores
  std::vector<std::size_t> batch_rows;  // a weighted batch's candidates' rows (n is then their weight)
  // A binned attribute's counts by bin (detail::count_bins).
  std::vector<std::uint32_t> bin_rows, bin_label, bin_class_rows;
  std::vector<double> bin_table, bin_weight;
  std::vector<std::uint32_t> bins, cut_bin;              // the bins holding a covered row; the bin after each cut
  std::vector<std::uint64_t> bin_marks;                  // the bins a few rows touch, as bits
  std::vector<std::uint32_t> bin_count, bin_last_class;  // each bin's rows and the class of its last row
};

namespace detail {

template <class Sink>
void evaluate_nominal(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementKinds kinds,
                      RefinementScratch& sc, Sink&& sink) {
  const Dataset& d = index.data();
  const std::size_t k = index.num_classes();
  const std::size_t nv = d.attribute(a).values.size();
  sc.table.assign(nv * k, 0.0);
  sc.row_counts.assign(nv, 0);
  const std::size_t covered_rows = rule.row_count();
  const std::size_t words = rule.covered->num_words();
  if (rule.histogram) {
    // Rows without a label count in no value, as the popcounts of class rows count them.
    const RuleHistogram& h = *rule.histogram;
    const auto& rows = h.cell_rows[static_cast<std::size_t>(a)];
    for (std::size_t v = 0; v < nv; ++v)
      for (std::size_t c = 0; c < k; ++c) {
        const std::size_t cell = v * (k + 1) + c;
        sc.table[v * k + c] = h.unit_weights ? static_cast<double>(rows[cell]) : h.cell_weights[a][cell];
        sc.row_counts[v] += rows[cell];
      }
  } else if (index.unit_weights() && words * nv * k < 4 * covered_rows) {
    // Popcounts cost about words * values * classes word operations; the row pass about 4 per row.
    const std::uint64_t* cov = rule.covered->data();
    for (std::size_t v = 0; v < nv; ++v) {
      const std::uint64_t* vr = index.value_rows(a, static_cast<int>(v)).data();
      for (std::size_t c = 0; c < k; ++c) {
        const std::uint64_t* cr = index.class_rows(static_cast<int>(c)).data();
        std::size_t cnt = 0;
        for (std::size_t w = 0; w < words; ++w) cnt += static_cast<std::size_t>(std::popcount(cov[w] & vr[w] & cr[w]));
        sc.table[v * k + c] = static_cast<double>(cnt);
        sc.row_counts[v] += cnt;
      }
    }
  } else {
    const auto& codes = d.columns[a].codes;
    const auto& y = index.labels();
    const auto& w = index.weights();
    for (std::uint32_t r : *rule.rows) {
      int code = codes[r];
      if (code == kMissing) continue;
      sc.table[static_cast<std::size_t>(code) * k + static_cast<std::size_t>(y[r])] += w[r];
      ++sc.row_counts[static_cast<std::size_t>(code)];
    }
  }
  sc.total.assign(k, 0.0);
  std::size_t present_rows = 0;
  for (std::size_t v = 0; v < nv; ++v) {
    for (std::size_t c = 0; c < k; ++c) sc.total[c] += sc.table[v * k + c];
    present_rows += sc.row_counts[v];
  }
  sc.other.resize(k);
  for (std::size_t v = 0; v < nv; ++v) {
    if (kinds.equal && sc.row_counts[v] > 0)
      sink(Condition{a, Op::eq, static_cast<int>(v), 0.0}, &sc.table[v * k], sc.row_counts[v]);
    if (kinds.not_equal && sc.row_counts[v] > 0 && sc.row_counts[v] < present_rows) {
      for (std::size_t c = 0; c < k; ++c) sc.other[c] = sc.total[c] - sc.table[v * k + c];
      sink(Condition{a, Op::ne, static_cast<int>(v), 0.0}, sc.other.data(), present_rows - sc.row_counts[v]);
    }
  }
}

// The attribute list of numeric attribute a for the rule: its own; the index's global order when the rule
// covers every row (the empty rule of a search on all rows); else one built into scratch.
inline ColumnView rule_column(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementScratch& sc) {
  const bool unit = index.unit_weights();
  auto view = [&](const SortedColumn& c) {
    return ColumnView{c.codes.data(), c.classes.data(), unit ? nullptr : c.weights.data(), c.rows.size()};
  };
  if (rule.sorted) return view((*rule.sorted)[a]);
  if (rule.rows->size() == index.rows()) {
    const ColumnView global{index.sorted_codes(a).data(), index.sorted_classes(a).data(),
                            unit ? nullptr : index.sorted_weights(a).data(), index.sorted_rows(a).size()};
    prefetch_short(global.codes, global.size);
    prefetch_short(global.classes, global.size);
    return global;
  }
  build_sorted_column(index, *rule.covered, *rule.rows, nullptr, a, sc.column);
  return view(sc.column);
}

// The boundary points of a list of m >= 2 rows into sc.cuts (returns how many): position j is a cut when
// rows j-1 and j hold different values and a label changes within their two groups of equal values.
// `label(j)` is the label of position j; `step(j, label(j))` is called for j = 1..m-1, for callers that
// accumulate along the way.
template <class Label, class Step>
std::size_t find_cuts(const std::uint32_t* vals, std::size_t m, Label&& label, Step&& step, RefinementScratch& sc) {
  // Boundary points without data-dependent branches (on continuous attributes nearly every group holds one
  // row, and branching on values and labels per row mispredicts half the time):
  //  - starts: first position of each group of equal values, with m as a sentinel;
  //  - changes[j]: how many label changes lie between positions 0..j;
  //  - a cut between groups g-1 and g is kept when a label changes somewhere inside their union, i.e.
  //    unless both groups are pure with the same label.
  // The running counts and the previous label stay in registers (this loop reads every row of every sweep).
  sc.starts.resize(m + 1);
  sc.changes.resize(m);
  std::uint32_t* starts = sc.starts.data();
  std::uint32_t* changes = sc.changes.data();
  std::size_t groups = 1;
  starts[0] = 0;
  changes[0] = 0;
  std::uint32_t changed = 0;
  auto previous = label(0);
  for (std::size_t j = 1; j < m; ++j) {
    starts[groups] = static_cast<std::uint32_t>(j);
    groups += vals[j] != vals[j - 1];
    const auto current = label(j);
    changed += static_cast<std::uint32_t>(current != previous);
    changes[j] = changed;
    step(j, current);
    previous = current;
  }
  starts[groups] = static_cast<std::uint32_t>(m);
  sc.cuts.resize(groups);
  std::uint32_t* cuts = sc.cuts.data();
  std::size_t ncuts = 0;
  if (groups == m) {
    // Every value distinct (group g is position g): a cut wherever the label changes.
    for (std::size_t g = 1; g < m; ++g) {
      cuts[ncuts] = static_cast<std::uint32_t>(g);
      ncuts += changes[g] != changes[g - 1];
    }
    return ncuts;
  }
  for (std::size_t g = 1; g < groups; ++g) {
    cuts[ncuts] = starts[g];
    ncuts += changes[starts[g + 1] - 1] != changes[starts[g - 1]];
  }
  return ncuts;
}

// The threshold between two values lo < hi: their midpoint.
inline double midway(double lo, double hi) {
  const double t = lo + (hi - lo) / 2;
  return t < hi ? t : lo;  // adjacent doubles: the midpoint rounds up to hi
}

// The threshold of the cut before position `cut` of a list of value codes: the midpoint of the largest
// training value of the code before and the smallest of the code after (CoverageIndex::code_max, code_min).
inline double cut_threshold(const double* code_max, const double* code_min, const std::uint32_t* codes,
                            std::size_t cut) {
  return midway(code_max[codes[cut - 1]], code_min[codes[cut]]);
}

// A label no class has: the "mixed" mark of a bin of rows of two labels.
inline constexpr std::uint32_t kMixedLabels = 0xFFFFFFFE;

// Counts the rule's covered rows of binned attribute a by bin, in one pass over them: sc.bins receives the
// bins holding a covered row in ascending order, sc.bin_rows[b] their rows, sc.bin_table[b * k + c] their
// weight of class c, sc.bin_label[b] their one label (as find_cuts labels rows: the class, or whether it is
// the target) or kMixedLabels; the entries of bins not listed are left as they were. Returns the rows counted
// (those with a value). The pass counts rows by bin and class (a row without a value in an extra bin, one
// without a label in an extra class) and notes each bin's last class, so that it has no branch that depends
// on the data; a bin's label follows from its rows, the count of one class and its weights. The cost is the
// rule's rows plus its bins' weights, with no list of rows in value order: what makes binned searches cheap in
// memory. The counts are kept at zero between calls (each call clears the cells it filled) and a bin's label
// needs no pass over its classes, so that a rule of a few rows pays for neither every bin nor every class: on
// many classes that had cost more than the rows (arrhythmia: 255 bins of 17 cells per attribute and rule,
// for rules of tens of rows).
inline std::size_t count_bins(const CoverageIndex& index, const RuleCoverage& rule, int a, int target,
                              RefinementScratch& sc) {
  const bool unit = rule.unit_weights(index);
  const std::size_t k = index.num_classes(), stride = k + 1;
  const std::size_t nb = index.code_max(a).size();
  const std::size_t cells = (nb + 1) * stride;
  auto& rows_of = sc.bin_class_rows;
  auto& weight_of = sc.bin_weight;
  auto& bin_count = sc.bin_count;
  auto& last_class = sc.bin_last_class;
  if (rows_of.size() < cells) rows_of.resize(cells, 0);
  if (!unit && weight_of.size() < cells) weight_of.resize(cells, 0.0);
  if (bin_count.size() < nb + 1) {
    bin_count.resize(nb + 1, 0);
    last_class.resize(nb + 1);
  }
  if (sc.bin_rows.size() < nb) {
    sc.bin_rows.resize(nb);
    sc.bin_label.resize(nb);
  }
  if (sc.bin_table.size() < nb * k) sc.bin_table.resize(nb * k);
  sc.bins.clear();
  // Fewer rows than bins touch few bins: those are listed from the rows rather than found among all bins.
  bool sparse = false, tracked = false;
  if (rule.histogram) {
    const auto& rows = rule.histogram->cell_rows[static_cast<std::size_t>(a)];
    if (rows.size() != cells) throw std::logic_error("a rule's table of another binning than its index's");
    std::copy(rows.begin(), rows.end(), rows_of.begin());
    if (!unit) {
      const auto& weights = rule.histogram->cell_weights[static_cast<std::size_t>(a)];
      std::copy(weights.begin(), weights.end(), weight_of.begin());
    }
  } else {
    const int* labels = index.labels().data();
    const double* weights = index.weights().data();
    const std::uint16_t* bin_of = index.bin_of(a).data();
    sparse = rule.rows->size() < nb;
    // Each bin's rows and last class are counted with the rows where that costs less than reading them from
    // the table afterwards (two stores a row against every cell).
    tracked = 2 * rule.rows->size() < cells;
    auto count = [&](auto track) {
      for (std::uint32_t r : *rule.rows) {
        const std::uint16_t code = bin_of[r];
        const std::size_t b = code == CoverageIndex::kNoBin ? nb : code;
        const auto y = static_cast<std::size_t>(static_cast<unsigned>(labels[r]));
        const std::size_t c = y < k ? y : k;
        ++rows_of[b * stride + c];
        if constexpr (decltype(track)::value) {
          ++bin_count[b];
          last_class[b] = static_cast<std::uint32_t>(c);
        }
        if (!unit) weight_of[b * stride + c] += weights[r];
      }
    };
    if (tracked)
      count(std::true_type{});
    else
      count(std::false_type{});
    if (sparse) {  // the bins touched, marked in bits and read in ascending order
      sc.bin_marks.assign((nb + 64) / 64, 0);
      for (std::uint32_t r : *rule.rows) {
        const std::size_t b = bin_of[r] == CoverageIndex::kNoBin ? nb : bin_of[r];
        sc.bin_marks[b >> 6] |= std::uint64_t{1} << (b & 63);
      }
      for (std::size_t w = 0; w < sc.bin_marks.size(); ++w)
        for (std::uint64_t bits = sc.bin_marks[w]; bits; bits &= bits - 1) {
          const std::size_t b = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
          if (b < nb) sc.bins.push_back(static_cast<std::uint32_t>(b));
        }
    }
  }
  std::size_t present = 0;
  // One bin's outputs from its counts, which are then cleared; false when it holds no row. `fixed` is the
  // number of classes when known at compile time (0: k): a bin of two classes then copies and clears its few
  // cells in registers, where a call to memcpy and two to memset per bin had cost more than the copying.
  auto take = [&](std::size_t b, auto fixed) {
    constexpr std::size_t kFixed = decltype(fixed)::value;
    const std::size_t kb = kFixed ? kFixed : k;
    const std::uint32_t rows = bin_count[b];
    if (rows == 0) return false;
    std::uint32_t* counts = &rows_of[b * stride];
    sc.bin_rows[b] = rows;
    present += rows;
    double* table = &sc.bin_table[b * kb];
    if (unit) {
      for (std::size_t c = 0; c < kb; ++c) table[c] = static_cast<double>(counts[c]);
    } else {
      double* weight = &weight_of[b * stride];
      std::copy(weight, weight + kb, table);
      std::fill(weight, weight + kb + 1, 0.0);
    }
    if (target >= 0) {
      const std::uint32_t positives = counts[static_cast<std::size_t>(target)];
      sc.bin_label[b] = positives == 0 ? 0 : positives == rows ? 1 : kMixedLabels;
    } else {  // one class holds every row when the last row's class does
      sc.bin_label[b] = counts[last_class[b]] == rows ? last_class[b] : kMixedLabels;
    }
    std::fill(counts, counts + kb + 1, 0U);
    bin_count[b] = 0;
    return true;
  };
  auto take_all = [&](auto fixed) {
    if (sparse) {
      for (std::uint32_t b : sc.bins) take(b, fixed);
      return;
    }
    if (!tracked)
      for (std::size_t b = 0; b < nb; ++b) {
        std::uint32_t rows = 0, last = 0;
        for (std::size_t c = 0; c <= k; ++c) {
          const std::uint32_t n = rows_of[b * stride + c];
          rows += n;
          last = n > 0 ? static_cast<std::uint32_t>(c) : last;
        }
        bin_count[b] = rows;
        last_class[b] = last;
      }
    for (std::size_t b = 0; b < nb; ++b)
      if (take(b, fixed)) sc.bins.push_back(static_cast<std::uint32_t>(b));
  };
  if (k == 2)
    take_all(std::integral_constant<std::size_t, 2>{});
  else
    take_all(std::integral_constant<std::size_t, 0>{});
  // The rows without a value were counted in bin nb.
  std::fill(&rows_of[nb * stride], &rows_of[nb * stride] + stride, 0U);
  if (!unit) std::fill(&weight_of[nb * stride], &weight_of[nb * stride] + stride, 0.0);
  bin_count[nb] = 0;
  return present;
}

// The cuts between the counted bins (count_bins) as find_cuts places them between groups of equal values:
// between two consecutive bins unless both hold one and the same label. sc.cut_bin receives the position in
// sc.bins of the bin after each cut; returns how many.
// Written without a branch on the labels: on data where most bins are mixed or not, a branch per bin is
// mispredicted about as often as taken.
inline std::size_t bin_cuts(RefinementScratch& sc) {
  const std::size_t nbins = sc.bins.size();
  sc.cut_bin.resize(nbins);  // at most nbins - 1 cuts
  std::uint32_t* cut = sc.cut_bin.data();
  const std::uint32_t* bins = sc.bins.data();
  const std::uint32_t* label = sc.bin_label.data();
  std::size_t count = 0;
  std::uint32_t before = nbins > 0 ? label[bins[0]] : 0;
  for (std::size_t i = 1; i < nbins; ++i) {
    const std::uint32_t after = label[bins[i]];
    cut[count] = static_cast<std::uint32_t>(i);
    count += static_cast<std::size_t>((before == kMixedLabels) | (after == kMixedLabels) | (before != after));
    before = after;
  }
  sc.cut_bin.resize(count);
  return count;
}

// The threshold of cut i of bin_cuts: midway between the largest training value of the bin before and the
// smallest of the bin after.
inline double bin_cut_threshold(const CoverageIndex& index, int a, const RefinementScratch& sc, std::size_t i) {
  const std::size_t after = sc.cut_bin[i];
  return midway(index.code_max(a)[sc.bins[after - 1]], index.code_min(a)[sc.bins[after]]);
}

// evaluate_numeric of a binned attribute: the same candidates, counted by bin.
template <class Sink>
void evaluate_binned(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementKinds kinds, int target,
                     RefinementScratch& sc, Sink&& sink) {
  const std::size_t k = index.num_classes();
  const std::size_t m = count_bins(index, rule, a, target, sc);
  if (m < 2) return;
  const std::size_t ncuts = bin_cuts(sc);
  if (ncuts == 0) return;
  sc.total.assign(k, 0.0);
  if (rule.counts && m == rule.row_count())  // no covered row misses this attribute
    std::copy(rule.counts, rule.counts + k, sc.total.begin());
  else
    for (std::uint32_t b : sc.bins)
      for (std::size_t c = 0; c < k; ++c) sc.total[c] += sc.bin_table[b * k + c];
  sc.cum.assign(k, 0.0);
  sc.other.assign(k, 0.0);
  std::size_t done = 0, below = 0;
  for (std::size_t i = 0; i < ncuts; ++i) {
    for (; done < sc.cut_bin[i]; ++done) {
      const std::size_t b = sc.bins[done];
      below += sc.bin_rows[b];
      for (std::size_t c = 0; c < k; ++c) sc.cum[c] += sc.bin_table[b * k + c];
    }
    const double t = bin_cut_threshold(index, a, sc, i);
    if (kinds.less_equal) sink(Condition{a, Op::le, 0, t}, sc.cum.data(), below);
    if (kinds.greater) {
      for (std::size_t q = 0; q < k; ++q) sc.other[q] = sc.total[q] - sc.cum[q];
      sink(Condition{a, Op::gt, 0, t}, sc.other.data(), m - below);
    }
  }
}

template <class Sink>
void evaluate_numeric(const CoverageIndex& index, const RuleCoverage& rule, int a, RefinementKinds kinds, int target,
                      RefinementScratch& sc, Sink&& sink) {
  if (!kinds.less_equal && !kinds.greater) return;
  if (index.binned(a)) return evaluate_binned(index, rule, a, kinds, target, sc, sink);
  const std::size_t k = index.num_classes();
  const ColumnView col = rule_column(index, rule, a, sc);
  const std::uint32_t* vals = col.codes;
  const double* code_max = index.code_max(a).data();
  const double* code_min = index.code_min(a).data();
  const ClassCode* cls = col.classes;
  const double* wts = col.weights;
  const std::size_t m = col.size;
  if (m < 2) return;
  auto label = [cls, target](std::size_t j) {
    return target < 0 ? static_cast<int>(cls[j]) : static_cast<int>(cls[j] == target);
  };
  const std::size_t ncuts = find_cuts(
      vals, m, label, [](std::size_t, int) {}, sc);
  if (ncuts == 0) return;
  const auto& cuts = sc.cuts;

  sc.total.assign(k, 0.0);
  if (rule.counts && m == rule.rows->size())  // no covered row misses this attribute
    std::copy(rule.counts, rule.counts + k, sc.total.begin());
  else
    add_class_counts(cls, wts, 0, m, k, sc.total.data());
  sc.cum.assign(k, 0.0);
  sc.other.assign(k, 0.0);
  std::size_t done = 0;
  for (std::size_t c = 0; c < ncuts; ++c) {
    const std::size_t cut = cuts[c];
    add_class_counts(cls, wts, done, cut, k, sc.cum.data());
    done = cut;
    const double t = cut_threshold(code_max, code_min, vals, cut);
    if (kinds.less_equal) sink(Condition{a, Op::le, 0, t}, sc.cum.data(), cut);
    if (kinds.greater) {
      for (std::size_t q = 0; q < k; ++q) sc.other[q] = sc.total[q] - sc.cum[q];
      sink(Condition{a, Op::gt, 0, t}, sc.other.data(), m - cut);
    }
  }
}

}  // namespace detail

// The cuts of numeric attribute `attribute` for rules predicting `target` under unit weights. Such rules'
// measures often depend on the counts only through s (covered rows of the target) and n (covered rows), so
// the caller can score every A <= t and A > t in one batch (QualityMeasure::evaluate_batch) instead of
// receiving a call per threshold. Cut i: A <= t covers the first position[i] rows of the list, below[i] of
// them of the target; A > t covers the other rows - position[i], positives - below[i].
struct TargetCuts {
  const std::uint32_t* codes = nullptr;  // the list's value codes (detail::cut_threshold reads them)
  bool binned = false;                   // cuts of detail::bin_cuts (detail::bin_cut_threshold reads them)
  const std::uint32_t* position = nullptr;
  const std::uint32_t* below = nullptr;
  std::size_t count = 0;
  std::size_t rows = 0;       // covered rows with a value
  std::size_t positives = 0;  // of them of the target class
};
inline TargetCuts target_cuts(const CoverageIndex& index, const RuleCoverage& rule, int attribute, int target,
                              RefinementScratch& sc) {
  if (index.binned(attribute)) {
    // Under unit weights a bin's weight of the target is its positives.
    TargetCuts out;
    out.binned = true;
    out.rows = detail::count_bins(index, rule, attribute, target, sc);
    if (out.rows < 2) return out;
    out.count = detail::bin_cuts(sc);
    const std::size_t k = index.num_classes();
    sc.cuts.resize(out.count);
    sc.below.resize(out.count);
    std::size_t done = 0, rows = 0, positives = 0;
    for (std::size_t i = 0; i <= out.count; ++i) {
      const std::size_t end = i < out.count ? sc.cut_bin[i] : sc.bins.size();
      for (; done < end; ++done) {
        const std::size_t b = sc.bins[done];
        rows += sc.bin_rows[b];
        positives += static_cast<std::size_t>(sc.bin_table[b * k + static_cast<std::size_t>(target)]);
      }
      if (i == out.count) break;
      sc.cuts[i] = static_cast<std::uint32_t>(rows);
      sc.below[i] = static_cast<std::uint32_t>(positives);
    }
    out.positives = positives;
    out.position = sc.cuts.data();
    out.below = sc.below.data();
    return out;
  }
  const ColumnView col = detail::rule_column(index, rule, attribute, sc);
  TargetCuts out;
  out.rows = col.size;
  if (out.rows < 2) return out;
  const std::uint32_t* vals = col.codes;
  const ClassCode* cls = col.classes;
  // changes[] of find_cuts counts label changes; `prefix` (reusing `below` as storage) counts positives.
  auto& prefix_storage = sc.below;
  prefix_storage.resize(out.rows);
  std::uint32_t* prefix = prefix_storage.data();
  const ClassCode t = static_cast<ClassCode>(target);
  auto label = [cls, t](std::size_t j) { return cls[j] == t; };
  std::uint32_t positives = label(0);
  prefix[0] = positives;
  out.count = detail::find_cuts(
      vals, out.rows, label,
      [&](std::size_t j, bool positive) {
        positives += positive;
        prefix[j] = positives;
      },
      sc);
  out.positives = positives;
  // Overwrites prefix in place: cut i's count is the prefix before its position, and position[i] > i.
  for (std::size_t i = 0; i < out.count; ++i) prefix[i] = prefix[sc.cuts[i] - 1];
  out.codes = vals;
  out.position = sc.cuts.data();
  out.below = prefix;
  return out;
}

// The target class's cuts (as find_cuts defines them) at the positions [from, to) of a list of m rows, 1 <=
// from < to <= m, written to position[] from its start with the positives before each to below[] (`before`:
// the positives before `from`); returns how many. Reads the groups of equal values that straddle the range,
// so that a sweep can compute the cuts of the runs it cannot pass over and no others.
inline std::size_t target_cuts_between(const std::uint32_t* vals, const ClassCode* cls, std::size_t m, ClassCode target,
                                       std::size_t from, std::size_t to, std::uint32_t before, std::uint32_t* position,
                                       std::uint32_t* below) {
  // The group of equal values that begins at `start`: where it ends, whether its labels are all one, which,
  // and its positives.
  struct Group {
    std::size_t end;
    bool pure;
    bool label;
    std::uint32_t positives;
  };
  auto group_from = [&](std::size_t start) {
    const std::uint32_t v = vals[start];
    const bool first = cls[start] == target;
    Group g{start + 1, true, first, first};
    for (; g.end < m && vals[g.end] == v; ++g.end) {
      const bool label = cls[g.end] == target;
      g.pure = g.pure && label == first;
      g.positives += label;
    }
    return g;
  };
  std::size_t start = from - 1;
  while (start > 0 && vals[start - 1] == vals[from - 1]) --start;
  Group previous = group_from(start);
  // Positives in [from, previous.end): the part of the first group at or after `from`.
  std::uint32_t counted = before;
  for (std::size_t j = from; j < previous.end; ++j) counted += cls[j] == target;
  std::size_t count = 0;
  while (previous.end < to) {
    const std::size_t cut = previous.end;
    const Group next = group_from(cut);
    if (!(previous.pure && next.pure && previous.label == next.label)) {
      position[count] = static_cast<std::uint32_t>(cut);
      below[count] = counted;
      ++count;
    }
    counted += next.positives;
    previous = next;
  }
  return count;
}

// Calls sink(condition, class_counts, rows) for every admissible condition on `attribute` over the rule's
// covered rows. `target` < 0: boundaries between classes; otherwise between target and other classes.
template <class Sink>
void evaluate_attribute(const CoverageIndex& index, const RuleCoverage& rule, int attribute, RefinementKinds kinds,
                        int target, RefinementScratch& scratch, Sink&& sink) {
  if (index.data().attribute(attribute).is_nominal())
    detail::evaluate_nominal(index, rule, attribute, kinds, scratch, sink);
  else
    detail::evaluate_numeric(index, rule, attribute, kinds, target, scratch, sink);
}

}  // namespace candor
