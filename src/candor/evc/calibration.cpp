#include "candor/evc/calibration.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "candor/coverage/coverage_index.hpp"
#include "candor/data/resampling.hpp"
#include "candor/evc/general.hpp"
#include "candor/quality/measures.hpp"
#include "candor/util/json_read.hpp"
#include "candor/util/memo_cache.hpp"
#include "candor/util/memory.hpp"
#include "candor/util/names.hpp"
#include "candor/util/output.hpp"
#include "candor/util/parallel.hpp"
#include "candor/util/progress.hpp"

namespace candor {

void pool_class_maxima(std::vector<std::vector<std::vector<double>>>& maxima, const std::vector<double>& sizes) {
  const std::size_t classes = maxima.size();
  if (classes < 2 || maxima[0].size() < 2) return;
  const std::size_t k = maxima[0].size();
  const std::size_t lengths = maxima[0][0].size();
  // The classes pooled: those with rows (a class without any has no rule and all-zero maxima, which would
  // only widen the others' spread). Their log sizes are the regressor of the shrinkage target.
  std::vector<std::size_t> pooled;
  for (std::size_t c = 0; c < classes; ++c)
    if (sizes.empty() || sizes[c] > 0) pooled.push_back(c);
  const std::size_t g = pooled.size();
  if (g < 2) return;
  std::vector<double> x(g, 0.0);
  double x_mean = 0, x_spread = 0;
  if (!sizes.empty()) {
    for (std::size_t i = 0; i < g; ++i) x_mean += (x[i] = std::log(sizes[pooled[i]])) / static_cast<double>(g);
    for (double v : x) x_spread += (v - x_mean) * (v - x_mean);
  }
  // With four or more classes of different sizes the target is the least-squares line of the class means on
  // the log class size (Efron and Morris's regression form of the James-Stein estimate): rare classes have
  // smaller maxima (fewer positives to find) and the line carries that, so what is shrunk is only the rest.
  // Fewer classes, or classes of one size, shrink towards the common mean.
  const bool line = g >= 4 && x_spread > 1e-12 * static_cast<double>(g);
  const double dof = static_cast<double>(g) - (line ? 2.0 : 1.0);
  std::vector<double> mean(g);
  for (std::size_t l = 0; l < lengths; ++l) {
    // Each class's mean of its K maxima, and the within-class variance pooled over the classes (all have K).
    double within = 0;
    for (std::size_t i = 0; i < g; ++i) {
      const auto& rows = maxima[pooled[i]];
      double sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += rows[p][l];
      mean[i] = sum / static_cast<double>(k);
      double squares = 0;
      for (std::size_t p = 0; p < k; ++p) squares += (rows[p][l] - mean[i]) * (rows[p][l] - mean[i]);
      within += squares / static_cast<double>(k - 1);
    }
    within /= static_cast<double>(g);
    const double noise = within / static_cast<double>(k);  // variance of one class's mean
    const double grand = std::accumulate(mean.begin(), mean.end(), 0.0) / static_cast<double>(g);
    double slope = 0;
    if (line) {
      double cross = 0;
      for (std::size_t i = 0; i < g; ++i) cross += (x[i] - x_mean) * (mean[i] - grand);
      slope = cross / x_spread;
    }
    auto target = [&](std::size_t i) { return grand + slope * (x[i] - x_mean); };
    double between = 0;
    for (std::size_t i = 0; i < g; ++i) between += (mean[i] - target(i)) * (mean[i] - target(i));
    between /= dof;  // estimates tau^2 + noise
    const double tau2 = std::max(0.0, between - noise);
    // The share of its own deviation a class keeps; maxima without spread are exact and keep all of it.
    const double keep = noise > 0 ? tau2 / (tau2 + noise) : 1.0;
    for (std::size_t i = 0; i < g; ++i) {
      const double shift = (target(i) + keep * (mean[i] - target(i))) - mean[i];
      for (std::size_t p = 0; p < k; ++p) maxima[pooled[i]][p][l] += shift;
    }
  }
}

std::vector<GumbelLaw> fit_length_laws(const std::vector<std::vector<double>>& maxima, GumbelFit fit,
                                       std::vector<double>* means) {
  if (maxima.empty()) throw std::invalid_argument("EVC: no permutations to fit");
  const std::size_t lengths = maxima.front().size();
  std::vector<GumbelLaw> laws;
  if (means) means->clear();
  std::vector<double> column(maxima.size());
  for (std::size_t l = 0; l < lengths; ++l) {
    double mean = 0;
    for (std::size_t p = 0; p < maxima.size(); ++p) {
      column[p] = maxima[p][l];
      mean += column[p];
    }
    mean /= static_cast<double>(maxima.size());
    GumbelLaw law = fit_gumbel(column, fit);
    if (!laws.empty()) law.mu = std::max(law.mu, laws.back().mu);
    laws.push_back(law);
    if (means) means->push_back(mean);
  }
  return laws;
}

bool calibrates_on_sample(std::size_t rows, const SearchOptions& search) {
  return search.numeric_bins > 0 && rows > kCalibrationRows;
}

int permutations_run(const EvcSettings& settings, std::size_t classes) {
  if (settings.pool != EvcPool::classes || classes <= 2) return settings.permutations;
  // The pool holds about as many maxima as two classes of `permutations` each (the binary case, unchanged),
  // and each class at least kMinPerClass of its own, so that its mean's noise and the between-class spread
  // can still be told apart.
  constexpr long long kMinPerClass = 10;
  const long long p = settings.permutations, c = static_cast<long long>(classes);
  return static_cast<int>(std::min(p, std::max(kMinPerClass, (2 * p + c - 1) / c)));
}

namespace {

// calibration_maxima on `data`, cut as `binning` says (null: as search.numeric_bins cuts `data` itself).
CalibrationMaxima maxima_on(const Dataset& data, const NumericBinning* binning, const SearchOptions& search,
                            const EvcSettings& settings, const std::vector<int>& classes_in, int threads) {
  if (settings.permutations < 1) throw std::invalid_argument("EVC needs at least one permutation");
  CalibrationMaxima out;
  out.classes = classes_in;
  std::vector<int>& classes = out.classes;
  if (classes.empty())
    for (int c = 0; c < static_cast<int>(data.num_classes()); ++c) classes.push_back(c);
  const std::size_t lengths = static_cast<std::size_t>(std::max(1, search.max_rule_length));
  measures::LikelihoodRatio lrs;  // the calibration ranks by LRS, whatever the learner ranks by
  SearchOptions options = search;
  options.alpha = options.parent_alpha = 1.0;  // significance only decides which rule is returned
  options.threads = 1;                         // parallel across permutations instead
  options.shortest_thresholds = false;         // the permuted searches' rules are not kept

  // The maxima kept, and on each thread a permuted copy of the data with its class index.
  const double per_thread =
      static_cast<double>(data.rows()) * (16.0 + 8.0 * static_cast<double>(data.num_attributes()));
  check_memory(
      static_cast<double>(classes.size()) * settings.permutations * (32.0 + 8.0 * static_cast<double>(lengths)) +
          per_thread * std::max(1, threads),
      "EVC calibration with --evc-permutations " + std::to_string(settings.permutations),
      "use fewer permutations (the papers use 100)");
  // Classes without training rows have no rule to find and do not count towards the sharing (heart-h
  // declares five classes and has rows of two: it is calibrated as the binary set it is).
  const std::vector<double> class_sizes = data.class_totals();
  std::size_t present = 0;
  for (int c : classes) present += class_sizes[static_cast<std::size_t>(c)] > 0;
  const int runs = permutations_run(settings, present);
  out.permutations_run = runs;
  auto& maxima = out.maxima;
  maxima.assign(classes.size(), std::vector<std::vector<double>>(static_cast<std::size_t>(runs)));
  // Rows without a label stay where they are; only the labels of labelled rows are shuffled among them.
  std::vector<std::size_t> labelled;
  for (std::size_t r = 0; r < data.rows(); ++r)
    if (data.y[r] != kMissing) labelled.push_back(r);

  // Permutations move labels only: every permutation's index reuses these value orders.
  const CoverageIndex base = binning ? CoverageIndex(data, 1, *binning) : CoverageIndex(data, 1, options.numeric_bins);
  Progress progress("fit: EVC calibration", "permutations", static_cast<std::size_t>(runs), true);
  parallel_for(static_cast<std::size_t>(runs), threads, [&](std::size_t p) {
    Rng rng(stream_seed(settings.seed, p));
    std::vector<int> labels;
    labels.reserve(labelled.size());
    for (std::size_t r : labelled) labels.push_back(data.y[r]);
    shuffle(labels, rng);
    std::vector<int> permuted = data.y;
    for (std::size_t i = 0; i < labelled.size(); ++i) permuted[labelled[i]] = labels[i];
    const CoverageIndex index(base, permuted, data.weights);
    Bitset all(data.rows(), true);
    std::vector<double> level_max;
    SearchOptions o = options;
    o.level_maxima = &level_max;
    for (std::size_t ci = 0; ci < classes.size(); ++ci) {
      find_best_rule(index, all, classes[ci], lrs, o);
      std::vector<double>& row = maxima[ci][p];
      row.assign(lengths, 0.0);
      double running = 0.0;  // LRS is never negative; lengths never reached keep the best shorter rule
      for (std::size_t l = 0; l < lengths; ++l) {
        if (l < level_max.size() && std::isfinite(level_max[l])) running = std::max(running, level_max[l]);
        row[l] = running;
      }
    }
    progress.step();
  });
  return out;
}

// calibrate_evc on `data` (see maxima_on).
EvcCalibration calibrate_on(const Dataset& data, const NumericBinning* binning, const SearchOptions& search,
                            const EvcSettings& settings, const std::vector<int>& classes_in, int threads) {
  CalibrationMaxima searched = maxima_on(data, binning, search, settings, classes_in, threads);
  const std::vector<int>& classes = searched.classes;
  auto& maxima = searched.maxima;
  const std::vector<double> class_sizes = data.class_totals();
  if (settings.pool == EvcPool::classes) {
    std::vector<double> sizes;
    for (int c : classes) sizes.push_back(class_sizes[static_cast<std::size_t>(c)]);
    pool_class_maxima(maxima, sizes);
  }

  EvcCalibration out;
  out.settings = settings;
  out.permutations_run = searched.permutations_run;
  out.laws.resize(data.num_classes());
  out.mean_maxima.resize(data.num_classes());
  for (std::size_t ci = 0; ci < classes.size(); ++ci)
    out.laws[classes[ci]] = fit_length_laws(maxima[ci], settings.fit, &out.mean_maxima[classes[ci]]);
  return out;
}

// `calibrate(rows, binning)` on the rows a calibration of `data` searches: `data` itself, cut as
// search.numeric_bins cuts it (binning null), or, where calibrates_on_sample, its spread sample cut by the whole
// data's bins (`whole` when the caller has them: numeric_binning(data, search.numeric_bins)), once the whole data
// is known to fit an index.
template <class Calibrate>
auto on_calibration_rows(const Dataset& data, const SearchOptions& search, const NumericBinning* whole,
                         Calibrate&& calibrate) {
  if (!calibrates_on_sample(data.rows(), search)) return calibrate(data, nullptr);
  check_index_memory(data, true);
  const Dataset sample = data.subset(spread_rows(data.rows(), kCalibrationRows));
  if (whole && whole->bins == search.numeric_bins) return calibrate(sample, whole);
  const NumericBinning binning = numeric_binning(data, search.numeric_bins);
  return calibrate(sample, &binning);
}

}  // namespace

CalibrationMaxima calibration_maxima(const Dataset& data, const SearchOptions& search, const EvcSettings& settings,
                                     const std::vector<int>& classes, int threads) {
  return on_calibration_rows(data, search, nullptr, [&](const Dataset& rows, const NumericBinning* binning) {
    return maxima_on(rows, binning, search, settings, classes, threads);
  });
}

CalibrationMaxima calibration_maxima(const Dataset& sample, const NumericBinning& binning, const SearchOptions& search,
                                     const EvcSettings& settings, const std::vector<int>& classes, int threads) {
  return maxima_on(sample, &binning, search, settings, classes, threads);
}

EvcCalibration calibrate_evc(const Dataset& data, const SearchOptions& search, const EvcSettings& settings,
                             const std::vector<int>& classes, int threads) {
  return on_calibration_rows(data, search, nullptr, [&](const Dataset& rows, const NumericBinning* binning) {
    return calibrate_on(rows, binning, search, settings, classes, threads);
  });
}

EvcCalibration calibrate_evc(const Dataset& sample, const NumericBinning& binning, const SearchOptions& search,
                             const EvcSettings& settings, const std::vector<int>& classes, int threads) {
  return calibrate_on(sample, &binning, search, settings, classes, threads);
}

namespace {

Digest calibration_key(const Dataset& data, const SearchOptions& s, const EvcSettings& settings,
                       const std::vector<int>& classes) {
  Digest k;
  k.add_value(data.rows());
  k.add_value(data.num_classes());
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    k.add_value(data.attribute(a).is_nominal());
    k.add_value(data.attribute(a).values.size());
    k.add_vector(data.columns[a].codes);
    k.add_vector(data.columns[a].values);
  }
  k.add_vector(data.y);
  k.add_vector(data.weights);
  k.add_value(s.beam_width);
  k.add_value(s.max_rule_length);
  k.add_value(s.min_covered);
  k.add_value(s.numeric_bins);
  k.add_value(s.min_positives);
  k.add_value(s.kinds.equal);
  k.add_value(s.kinds.not_equal);
  k.add_value(s.kinds.less_equal);
  k.add_value(s.kinds.greater);
  k.add_value(settings.permutations);
  k.add_value(settings.fit);
  k.add_value(settings.pool);
  k.add_value(settings.seed);
  k.add_vector(classes);
  // The rows a large data set is calibrated on: a calibration persisted by a build of another sample size
  // is not this build's.
  k.add_value(kCalibrationRows);
  return k;
}

MemoCache<EvcCalibration>& calibrations() {
  static MemoCache<EvcCalibration> cache(64);
  return cache;
}

thread_local FoldCalibrationScope* fold_scope = nullptr;

// --evc-cache: the folder, guarded, and whether it was set (else the environment's, read once).
struct PersistentCache {
  std::mutex mutex;
  std::optional<std::string> dir;
  std::atomic<bool> warned{false};
  std::atomic<std::size_t> max_files{4096};
};
PersistentCache& persistent_cache() {
  static PersistentCache cache;
  return cache;
}

void warn_once(const std::string& message) {
  if (!persistent_cache().warned.exchange(true)) std::cerr << "warning: " << message << "\n";
}

// The file name of a calibration: the in-process key with candor's version and this format, in hex.
std::string persisted_name(const Digest& key) {
  Digest d;
  d.add_value(key.a);
  d.add_value(key.b);
  const std::string format = std::string("candor ") + CANDOR_VERSION + ", EVC calibration file 2";
  d.add(format.data(), format.size());
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(d.a),
                static_cast<unsigned long long>(d.b));
  return hex;
}

// Whether a file name (less .json) is a calibration's: persisted_name's 32 hexadecimal digits.
bool is_calibration_name(const std::string& stem) {
  return stem.size() == 32 &&
         std::all_of(stem.begin(), stem.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Removes the least recently used calibrations of the folder (by file time: written, or read and touched)
// down to three quarters of the limit once it holds more than the limit. Other files are left alone, and
// so is a file another process removes first.
void prune_cache(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  const std::size_t limit = persistent_cache().max_files.load();
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const fs::path& path = it->path();
    if (path.extension() != ".json" || !is_calibration_name(path.stem().string())) continue;
    std::error_code time_error;
    const auto time = fs::last_write_time(path, time_error);
    if (!time_error) files.emplace_back(time, path);
  }
  if (files.size() <= limit) return;
  std::sort(files.begin(), files.end());
  const std::size_t keep = limit - limit / 4;
  for (std::size_t i = 0; i + keep < files.size(); ++i) {
    std::error_code remove_error;
    fs::remove(files[i].second, remove_error);
  }
}

// The calibration of `key` from the folder when it holds one, else compute()'s, written there. A file read
// must have the shape compute() gives: `lengths` laws for each class of `calibrated` (all when empty) of the
// data's `classes`, none for the others.
template <class Compute>
EvcCalibration calibrate_persisted(const Digest& key, std::size_t classes, const std::vector<int>& calibrated,
                                   int lengths, Compute&& compute) {
  const std::string dir = evc_cache_dir();
  if (dir.empty()) return compute();
  const std::string name = persisted_name(key);
  const std::filesystem::path path = std::filesystem::path(dir) / (name + ".json");
  std::vector<std::string> class_names;  // classes by index: the key holds codes, not names
  for (std::size_t c = 0; c < classes; ++c) class_names.push_back(std::to_string(c));
  // A file that cannot be opened is computed like a missing one when it is missing (never written, or
  // another process pruned the folder), and said to be unusable when it is there. Only a regular file is
  // read, and a link is not followed (O_NOFOLLOW): a link or FIFO planted in the folder is reported and
  // skipped, never read or written through; O_NONBLOCK keeps a FIFO from holding the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  const int open_error = fd < 0 ? errno : 0;
  struct stat file_status {};
  const bool regular = fd >= 0 && ::fstat(fd, &file_status) == 0 && S_ISREG(file_status.st_mode);
  const bool present = fd >= 0 || open_error != ENOENT;
  if (present) {
    nlohmann::json j;
    try {
      if (fd < 0)
        throw std::runtime_error(open_error == ELOOP ? "a link, which the cache does not follow"
                                                     : std::string("cannot be read: ") + std::strerror(open_error));
      if (!regular) throw std::runtime_error("not a regular file");
      std::string text;
      char buffer[65536];
      for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw std::runtime_error(std::string("cannot be read: ") + std::strerror(errno));
        text.append(buffer, static_cast<std::size_t>(n));
      }
      j = nlohmann::json::parse(text);
      if (!j.is_object() || j.value("key", "") != name) throw std::runtime_error("holds another calibration");
      EvcCalibration c = calibration_from_json(j.at("calibration"), class_names);
      for (std::size_t k = 0; k < classes; ++k) {
        const bool wanted = calibrated.empty() ||
                            std::find(calibrated.begin(), calibrated.end(), static_cast<int>(k)) != calibrated.end();
        if (c.laws[k].size() != (wanted ? static_cast<std::size_t>(lengths) : 0))
          throw std::runtime_error("its laws do not fit this calibration's classes and rule lengths");
      }
      // Read: the most recently used now, the last the pruning removes.
      ::futimens(fd, nullptr);
      ::close(fd);
      return c;
    } catch (const std::exception& e) {
      if (fd >= 0) ::close(fd);
      warn_once("EVC cache file " + path.string() + " is not usable (" + json_error_text(j, e) +
                "); calibrating again");
    }
    if (fd >= 0 && !regular) return compute();  // not ours to replace
    if (fd < 0 && open_error == ELOOP) return compute();
  }
  EvcCalibration c = compute();
  try {
    // A folder the cache makes is its user's alone (0700); one that exists keeps its mode.
    const std::filesystem::path folder(dir);
    if (folder.has_parent_path()) std::filesystem::create_directories(folder.parent_path());
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      throw std::runtime_error(std::string("cannot create it: ") + std::strerror(errno));
    const nlohmann::json j = {{"key", name}, {"calibration", calibration_to_json(c, class_names)}};
    write_file_atomic(path.string(), j.dump() + "\n", false);
    prune_cache(dir);
  } catch (const std::exception& e) {
    warn_once("the EVC cache folder " + dir + " cannot be written (" + e.what() + "); calibrations are not kept");
  }
  return c;
}

}  // namespace

void set_evc_cache_dir(const std::string& dir) {
  std::lock_guard lock(persistent_cache().mutex);
  persistent_cache().dir = dir;
}

void set_evc_cache_max_files(std::size_t files) { persistent_cache().max_files.store(files); }
std::size_t evc_cache_max_files() { return persistent_cache().max_files.load(); }

std::string evc_cache_dir() {
  PersistentCache& cache = persistent_cache();
  std::lock_guard lock(cache.mutex);
  if (!cache.dir) {
    const char* env = std::getenv("CANDOR_EVC_CACHE");
    cache.dir = env ? env : "";
  }
  return *cache.dir;
}

namespace {

// The data a scope over `whole` calibrates: a fold of a fold (a fit's own cross-validation inside a
// cross-validation's fold) shares what the outer fold shares.
const Dataset& shared_whole(const Dataset& whole, const FoldCalibrationScope* outer) {
  return outer && outer->shares() && &whole == &outer->part() ? outer->whole() : whole;
}

}  // namespace

FoldCalibrationScope::FoldCalibrationScope(const Dataset& part, const Dataset& whole, bool share, int threads,
                                           Clock& clock)
    : part_(part),
      whole_(shared_whole(whole, fold_scope)),
      share_(share),
      threads_(threads),
      clock_(clock),
      outer_(fold_scope) {
  fold_scope = this;
}

FoldCalibrationScope::~FoldCalibrationScope() { fold_scope = outer_; }

EvcCalibration calibrate_evc_cached(const Dataset& data, const SearchOptions& search, const EvcSettings& settings,
                                    const std::vector<int>& classes, int threads, const NumericBinning* binning) {
  FoldCalibrationScope* fold = fold_scope && &data == &fold_scope->part_ ? fold_scope : nullptr;
  if (fold) fold->calibrated_ = true;
  const bool share = fold && fold->share_;
  const Dataset& calibrated = share ? fold->whole_ : data;
  const int calibration_threads = share ? fold->threads_ : threads;
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point from) { return std::chrono::duration<double>(Clock::now() - from).count(); };
  const auto asked = Clock::now();
  const Digest key = calibration_key(calibrated, search, settings, classes);
  EvcCalibration out = calibrations().get(key, [&] {
    const auto started = Clock::now();
    EvcCalibration c =
        calibrate_persisted(key, calibrated.num_classes(), classes, std::max(1, search.max_rule_length), [&] {
          // calibrate_evc, with the caller's binning where it is of these very rows.
          return on_calibration_rows(calibrated, search, share ? nullptr : binning,
                                     [&](const Dataset& rows, const NumericBinning* cut) {
                                       return calibrate_on(rows, cut, search, settings, classes, calibration_threads);
                                     });
        });
    if (share) fold->clock_.computing.fetch_add(seconds(started));
    return c;
  });
  if (share) fold->sharing_ += seconds(asked);
  return out;
}

std::size_t evc_cache_hits() { return calibrations().hits(); }

}  // namespace candor
