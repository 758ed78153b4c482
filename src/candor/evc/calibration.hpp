#pragma once
// EVC calibration for rule learning (paper 000, Fig. 8): the Gumbel laws of the best LRS per rule length,
// fitted on class-permuted copies of the training data with the same search the learner runs.
//
// For each permutation (the class column shuffled; attributes and example weights stay with their rows)
// and each target class, one beam search ranked by LRS (eq. 14) records, for every length L, the largest
// LRS of any rule of length L it evaluated. Each permutation's maxima are made non-decreasing in L (a
// longer search can always return the best shorter rule), then a law per (class, length) is fitted;
// location parameters are made non-decreasing in L as well. Rules of length L are corrected with the
// law of length L (not L - 1, a bug of Orange 2's implementation).
//
// Pooling across classes (EvcPool::classes, candor's default; the papers use none): each class's law is
// fitted on its own maxima, but where the classes' mean maxima at a length differ by no more than their
// Monte Carlo noise, the means are shrunk towards the classes' common mean (empirical Bayes, the
// normal-means estimate of James and Stein with the between-class variance by moments): a class's location
// keeps the share tau^2 / (tau^2 + s^2 / K) of its own deviation, tau^2 the variance of the true means
// across classes, s^2 / K the noise of one class's mean of K maxima. Classes whose laws really differ keep
// them; classes whose laws agree share the permutations of all of them, so K permutations estimate each
// law about as well as K x classes would (docs/evc_calibration.md). With four or more classes of different
// sizes the target is not the common mean but the least-squares line of the class means on the log class
// size (rare classes have smaller maxima). Pooled calibrations of more than two classes therefore run fewer
// permutations (permutations_run): the pool keeps about as many maxima as a binary calibration's, each
// class at least ten.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/evc/laws.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/util/names.hpp"

namespace candor {

struct NumericBinning;  // coverage/coverage_index.hpp

// How many permutations a calibration of `classes` classes (those with training rows) runs: `permutations`, except
// under EvcPool::classes with more than two classes, where the classes share them: max(10, ceil(2 x permutations
// / classes)), at most `permutations`. Pooled, the classes' laws rest together on about as many maxima as a
// binary calibration's (2 x permutations) while each class keeps at least ten of its own: a search per
// class and permutation is the whole cost, so 24 classes cost 10 searches each instead of 20 (five each
// moved the rules' probabilities too far from the reference: docs/evc_calibration.md).
int permutations_run(const EvcSettings& settings, std::size_t classes);

// What a calibration's permuted searches found, before any pooling or fit: for each class of `classes` (in
// that order) and each permutation, the largest LRS of any rule of each length L the search evaluated, made
// non-decreasing in L. calibrate_evc fits its laws to these; bench/evc_maxima studies them.
struct CalibrationMaxima {
  std::vector<int> classes;                              // the classes calibrated
  int permutations_run = 0;                              // permutations_run(): the permutations searched
  std::vector<std::vector<std::vector<double>>> maxima;  // [index in classes][permutation][L - 1]
};
CalibrationMaxima calibration_maxima(const Dataset& data, const SearchOptions& search, const EvcSettings& settings,
                                     const std::vector<int>& classes, int threads);

// A binned search (search.numeric_bins > 0) on more rows than this is calibrated on a spread sample of this
// many (spread_rows) cut as the whole data is (numeric_binning): with at most numeric_bins cuts per attribute
// the permuted searches' best LRS hardly depends on the rows beyond it (docs/evc_calibration.md, "Large
// data"), and the calibration then costs the same at any size. A distributed fit calibrates on the same
// sample. Exact cuts (numeric_bins 0) calibrate on every row.
inline constexpr std::size_t kCalibrationRows = 20000;
// Whether a calibration of `rows` rows under `search` runs on that sample (a binned search of more rows).
bool calibrates_on_sample(std::size_t rows, const SearchOptions& search);
// The calibration of data held elsewhere (a distributed fit): on its spread sample, cut by its binning.
CalibrationMaxima calibration_maxima(const Dataset& sample, const NumericBinning& binning, const SearchOptions& search,
                                     const EvcSettings& settings, const std::vector<int>& classes, int threads);

// Calibrates the classes in `classes` (all when empty) on `data`. The search runs with `search`'s beam
// width, rule length, minimum coverage and condition kinds, ranked by LRS, one thread per permutation on
// up to `threads` threads; the result does not depend on `threads`.
EvcCalibration calibrate_evc(const Dataset& data, const SearchOptions& search, const EvcSettings& settings,
                             const std::vector<int>& classes, int threads);
EvcCalibration calibrate_evc(const Dataset& sample, const NumericBinning& binning, const SearchOptions& search,
                             const EvcSettings& settings, const std::vector<int>& classes, int threads);

// calibrate_evc through a process-wide cache: a calibration of identical inputs (the data's values, labels
// and weights, the search settings calibration uses, the EVC settings and classes) computed earlier in this
// process is returned instead of being computed again; concurrent callers with one key wait for a single
// computation. The result is the one calibrate_evc gives. Learners that share a training set (a grid's
// learners on one fold, EVC quality and --correct evc, ordered and unordered) calibrate once. The cache
// keeps the 64 most recent calibrations. `binning`, when given, is numeric_binning(data, search.numeric_bins),
// which the caller has at hand: a calibration of more than kCalibrationRows rows cuts its sample by it instead of
// binning the data again (the same calibration).
EvcCalibration calibrate_evc_cached(const Dataset& data, const SearchOptions& search, const EvcSettings& settings,
                                    const std::vector<int>& classes, int threads,
                                    const NumericBinning* binning = nullptr);
// How many calibrate_evc_cached calls this process answered from the cache (for tests and benchmarks).
std::size_t evc_cache_hits();

// A folder where calibrations persist between processes (candor fit and evaluate --evc-cache DIR, or the
// environment's CANDOR_EVC_CACHE; empty, the default: off). calibrate_evc_cached then reads a calibration
// computed earlier with identical inputs from DIR/<key>.json instead of computing it, and writes each one it
// computes there (crash-safe: a temporary file renamed). The key is the in-process cache's (the data's
// values, labels and weights, the search settings, the EVC settings, the classes) with candor's version and
// the file format. A file that cannot be read, or is not a calibration of that key and shape, is computed
// again and replaced; a folder that cannot be written only loses the saving. Both say so once on stderr.
// The folder holds at most `evc_cache_max_files` calibrations (4,096 unless set): a write past it removes
// the least recently used files (written or read; a read refreshes the file's time) down to three quarters
// of the limit, so that a full folder is not listed at every write. Files are about 0.4 KB per class.
void set_evc_cache_dir(const std::string& dir);
std::string evc_cache_dir();  // set_evc_cache_dir's, else CANDOR_EVC_CACHE's at the first call, else empty
void set_evc_cache_max_files(std::size_t files);
std::size_t evc_cache_max_files();

// The calibration of a cross-validation's fold (candor evaluate --evc-calibration). While an object of this
// class lives on a thread, calibrate_evc_cached called on that thread for `part` (that very object: the
// fold's training set) is watched, and with `share` calibrates `whole` (the data the cross-validation splits)
// instead, on `threads` threads, through the cache: the first fold computes it, the others wait for it and
// reuse it. Permuted labels carry no relation to the attributes, so the test folds' rows add only their
// attribute values and class counts (fixed by stratification) to the null distribution the laws describe;
// docs/evc_calibration.md ("One calibration per cross-validation") measures how far the folds' corrected
// probabilities move. Fits of any other data set on the thread (boosting's reweighted copies, resamples)
// calibrate as before. Scopes nest: a scope whose `whole` is the part of a sharing scope around it (the folds
// of a fit's own cross-validation, inside a fold of candor evaluate's) shares that scope's whole.
class FoldCalibrationScope {
 public:
  // Seconds spent computing shared calibrations, added by whichever thread computed one.
  struct Clock {
    std::atomic<double> computing{0.0};
  };
  FoldCalibrationScope(const Dataset& part, const Dataset& whole, bool share, int threads, Clock& clock);
  ~FoldCalibrationScope();
  FoldCalibrationScope(const FoldCalibrationScope&) = delete;
  FoldCalibrationScope& operator=(const FoldCalibrationScope&) = delete;
  // Whether the fold's fit calibrated EVC at all.
  bool calibrated() const { return calibrated_; }
  // Seconds this thread spent obtaining a shared calibration (computing or waiting) while this lived.
  double seconds_sharing() const { return sharing_; }
  const Dataset& part() const { return part_; }
  const Dataset& whole() const { return whole_; }
  bool shares() const { return share_; }

 private:
  friend EvcCalibration calibrate_evc_cached(const Dataset&, const SearchOptions&, const EvcSettings&,
                                             const std::vector<int>&, int, const NumericBinning*);
  const Dataset& part_;
  const Dataset& whole_;
  bool share_;
  int threads_;
  Clock& clock_;
  bool calibrated_ = false;
  double sharing_ = 0;
  FoldCalibrationScope* outer_;
};

// Shrinks the classes' samples towards each other where their means agree within their noise (see
// EvcPool::classes): maxima[c][p][L - 1] is shifted, per class and length, by the shrunk mean less its own
// mean. The target is the classes' common mean, or, with four or more classes of different `sizes` (the
// classes' row counts or weights), the least-squares line of the means on the log size. Classes of size 0
// are left out of the pool (and left as they are); so is everything with one class or one permutation.
// Empty `sizes`: every class pooled towards the common mean.
void pool_class_maxima(std::vector<std::vector<std::vector<double>>>& maxima, const std::vector<double>& sizes = {});

// Fits per-length laws to maxima[p][L - 1] (one row per permutation, already monotone in L).
std::vector<GumbelLaw> fit_length_laws(const std::vector<std::vector<double>>& maxima, GumbelFit fit,
                                       std::vector<double>* means = nullptr);

}  // namespace candor
