#include "candor/search/beam_search.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <tuple>

#include "candor/quality/significance.hpp"
#include "candor/util/memory.hpp"
#include "candor/util/parallel.hpp"

namespace candor {

// A rule's conditions in a canonical order: the same rule reached by different paths has one key.
using ConditionKey = std::vector<std::tuple<int, int, int, double>>;
static ConditionKey key_of(const std::vector<Condition>& conds, const Condition* extra = nullptr) {
  ConditionKey key;
  for (const auto& c : conds) key.emplace_back(c.attribute, static_cast<int>(c.op), c.value, c.threshold);
  if (extra) key.emplace_back(extra->attribute, static_cast<int>(extra->op), extra->value, extra->threshold);
  std::sort(key.begin(), key.end());
  return key;
}

struct SearchMemo::Lists {
  const CoverageIndex* index = nullptr;
  Bitset active;                                  // the rows of the search that left the lists
  std::map<ConditionKey, SortedColumns> by_rule;  // the lists of its beam rules (and of the empty rule)
};
SearchMemo::SearchMemo() : lists(std::make_unique<Lists>()) {}
SearchMemo::~SearchMemo() = default;

namespace {

struct BeamRule {
  std::vector<Condition> conditions;
  Bitset covered;
  std::vector<std::uint32_t> rows;
  // Its rows counted where they are held (SearchOptions::count_rules), which `covered` and `rows` then are not.
  std::optional<RuleHistogram> histogram;
  std::size_t row_count = 0;  // the rows it covers
  // Attribute lists, empty when over the memory budget. The list of attribute a is built by the first task
  // that sweeps a over this rule (so the sweep reads it while it is still in cache); built[a] says whether
  // it has been. Its sources: the parent's list, or the same rule's list in the memo when shorter.
  SortedColumns sorted;
  std::vector<char> built;
  const BeamRule* parent = nullptr;           // in the previous beam, kept until this rule's lists are built
  const SortedColumns* remembered = nullptr;  // the memo's lists of this rule
  std::vector<double> counts;
  std::optional<SignificanceTest> parent_test;  // --parent-alpha against this rule's counts, when on
};

// A refinement that was evaluated but not built: building (a bitset and a row list) is left for the few
// that enter the beam or become the best rule.
struct Proposal {
  std::uint32_t parent;
  Condition condition;
  double quality;    // refinement measure: ranks the beam
  double selection;  // selection measure: ranks the best rule
  double bound;      // the selection measure's refinement_bound (prune only)
  std::size_t rows;
  int target;
  std::size_t length;
  bool can_be_best;  // passed the significance tests
};

// Orders proposals: higher quality, then more rows, then shorter, then a fixed order of generation, so that
// ties are broken the same way on every run and thread count.
bool tie_break(const Proposal& a, const Proposal& b) {
  if (a.rows != b.rows) return a.rows > b.rows;
  if (a.length != b.length) return a.length < b.length;
  if (a.parent != b.parent) return a.parent < b.parent;
  if (a.condition.attribute != b.condition.attribute) return a.condition.attribute < b.condition.attribute;
  if (a.condition.op != b.condition.op) return a.condition.op < b.condition.op;
  if (a.condition.value != b.condition.value) return a.condition.value < b.condition.value;
  return a.condition.threshold < b.condition.threshold;
}
bool better(const Proposal& a, const Proposal& b) {
  if (a.quality != b.quality) return a.quality > b.quality;
  return tie_break(a, b);
}
// The best-rule order: the selection measure first (the refinement measure breaks its ties).
bool better_selection(const Proposal& a, const Proposal& b) {
  if (a.selection != b.selection) return a.selection > b.selection;
  if (a.quality != b.quality) return a.quality > b.quality;
  return tie_break(a, b);
}

// What a rule may still add on attribute a: one A = v per nominal attribute (then nothing else on it),
// distinct A != v, and at most one A <= t and one A > t per numeric attribute.
RefinementKinds allowed_kinds(const std::vector<Condition>& conds, int a, RefinementKinds kinds) {
  for (const auto& c : conds) {
    if (c.attribute != a) continue;
    switch (c.op) {
      case Op::eq: kinds.equal = kinds.not_equal = false; break;
      case Op::ne: kinds.equal = false; break;  // A != v already holds; A = w would make it redundant
      case Op::le: kinds.less_equal = false; break;
      case Op::gt: kinds.greater = false; break;
    }
  }
  return kinds;
}

struct TaskResult {
  // Beam candidates of this task (gather_top), among them its best `task width`. Once it has held that many
  // (top_full), its front is the worst of them kept, and every candidate the task dropped ranks below it.
  std::vector<Proposal> top;
  bool top_full = false;
  std::vector<Proposal> best;  // best candidates for the returned rule (one, or accept_candidates): a heap
  double max_quality = -std::numeric_limits<double>::infinity();
};

// floor = max(floor, value), atomically.
void raise(std::atomic<double>& floor, double value) {
  double current = floor.load(std::memory_order_relaxed);
  while (value > current && !floor.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
}

// Keeps the `width` best proposals under `order` in a heap whose front is the worst kept (the bar a new one
// must beat). Readers sort what they take.
template <class Order>
void keep_top(std::vector<Proposal>& top, const Proposal& p, std::size_t width, Order order) {
  if (top.size() == width) {
    if (!order(p, top.front())) return;
    std::pop_heap(top.begin(), top.end(), order);
    top.back() = p;
  } else {
    if (top.capacity() == 0) top.reserve(std::min<std::size_t>(width, 8));
    top.push_back(p);
  }
  std::push_heap(top.begin(), top.end(), order);
}

// Gathers the beam candidates of a task into t.top. Narrow beams keep a heap of the best `width` (keep_top),
// whose worst is the bar at every insertion. Wide ones (layered search's go to 512) gather into a buffer cut
// back to its best `width` (nth_element) whenever it reaches twice that: an insertion costs O(1) amortised,
// where the heap's own work was 30% of a wide fit, but the bar moves only at each cut, so more candidates
// are evaluated (at the default's width 5 that cost 3% of a fit).
void gather_wide(TaskResult& t, const Proposal& p, std::size_t width) {
  if (t.top_full && !better(p, t.top.front())) return;
  if (t.top.capacity() == 0) t.top.reserve(16);
  t.top.push_back(p);
  if (t.top.size() < 2 * width) return;
  std::nth_element(t.top.begin(), t.top.begin() + static_cast<std::ptrdiff_t>(width - 1), t.top.end(), better);
  std::swap(t.top.front(), t.top[width - 1]);  // the worst kept at the front, as in the heap
  t.top.resize(width);
  t.top_full = true;
}
// Inlined, as the sorted list it replaced was: it runs for every candidate a task offers.
__attribute__((always_inline)) inline void gather_top(TaskResult& t, const Proposal& p, std::size_t width) {
  constexpr std::size_t kBufferFrom = 64;
  if (width >= kBufferFrom) return gather_wide(t, p, width);
  keep_top(t.top, p, width, better);
  t.top_full = t.top.size() == width;
}

// What one search derives once from its options and active rows, and every level reads.
struct SearchSetup {
  // `root`: the table of the empty rule when the rows are counted elsewhere (null: they are the index's).
  SearchSetup(const CoverageIndex& index, const Bitset& active, const RuleHistogram* root, int target,
              const QualityMeasure& quality, const SearchOptions& options)
      : index(index),
        quality(quality),
        select(options.select_quality ? *options.select_quality : quality),
        options(options),
        target(target),
        k(index.num_classes()),
        totals(root ? root->counts : index.class_counts(active)),
        width(static_cast<std::size_t>(std::max(1, options.beam_width))),
        na(static_cast<int>(index.data().num_attributes())),
        significance_tests(options.alpha < 1.0 || options.parent_alpha < 1.0),
        prior_test(totals, options.alpha),
        unit_weights(root ? root->unit_weights : index.unit_weights()),
        n_total(std::accumulate(totals.begin(), totals.end(), 0.0)),
        best_kept(options.accept ? std::max<std::size_t>(1, options.accept_candidates) : 1),
        share_floors(!options.prune && !options.accept),
        quick_bounds(&select == &quality) {
    const RuleStats probe{totals, totals, target, 1, 0.0, n_total};
    const bool s_and_n = target >= 0 && !significance_tests && !options.prune && quality.reads_only_s_and_n() &&
                         select.reads_only_s_and_n();
    by_s_and_n = s_and_n && unit_weights;
    batch_scores = s_and_n && quality.evaluate_batch(probe, {}, {}, {}) && select.evaluate_batch(probe, {}, {}, {});
    batch_bounds = s_and_n && !batch_scores && quick_bounds && quality.bound_batch(probe, {}, {}, {});
    weighted_batches = s_and_n && !unit_weights && (batch_scores || batch_bounds);
    // A measure without a box bound lets every box through, even below an infinite bar.
    box_bounds = by_s_and_n && (batch_scores || batch_bounds) && quick_bounds &&
                 !quality.box_may_reach(probe, 0.0, 1.0, std::numeric_limits<double>::infinity());
  }
  void set_parent_test(BeamRule& r) const {
    if (options.parent_alpha < 1.0) r.parent_test.emplace(r.counts, options.parent_alpha);
  }

  const CoverageIndex& index;
  const QualityMeasure& quality;  // ranks the beam
  const QualityMeasure& select;   // ranks the returned rule
  const SearchOptions& options;
  int target;
  std::size_t k;
  std::vector<double> totals;  // class counts of the active rows
  std::size_t width;
  int na;
  bool significance_tests;
  SignificanceTest prior_test;
  bool unit_weights;
  double n_total;
  std::size_t best_kept;  // candidates kept for the returned rule: accept() may pass over the best ones
  // Floors shared by a level's tasks (LevelBars); not with pruning or accept(), where a rule of the beam or
  // of the best lists may be passed over and the next one needed.
  bool share_floors;
  // Bounds may skip candidates only when one measure both ranks and selects.
  bool quick_bounds;
  // A target-class sweep under unit weights yields each threshold's s and n only. Numeric attributes go
  // that way when the measures read nothing else and nothing else needs a candidate's class counts
  // (significance tests, pruning bounds); they are then scored a whole sweep at a time (batch_scores), or
  // one by one after a batch of cheap bounds (batch_bounds) when evaluating costs more than bounding.
  bool by_s_and_n = false, batch_scores = false, batch_bounds = false;
  // Under other weights (gradient rules' residuals) a binned attribute's candidates are scored a whole sweep
  // at a time too, from the class weights sweep_counts would read (CutSweep::weighted_bins).
  bool weighted_batches = false;
  // Such sweeps may also go by runs of rows when one measure both ranks and selects and it bounds a box of
  // (s, n) (Task::sweep_cuts).
  bool box_bounds = false;
};

// The attribute lists of the beam's rules. They make each numeric sweep proportional to the rows its rule
// covers; they cost memory, so a rule keeps them only while they fit the budget (the sweep gathers from the
// global order otherwise). Lists of rules that left the beam are recycled through a pool on this thread,
// kept for the next search in the memo, or freed.
class AttributeLists {
 public:
  AttributeLists(const CoverageIndex& index, std::size_t width, SearchMemo* memo, const Bitset& active)
      : index_(index), na_(static_cast<int>(index.data().num_attributes())) {
    // The budget is 128 MiB or eight times the lists of every row, whichever is larger: on big data the
    // empty rule and the first level's rules must have lists, or each of their children filters the global
    // order (1M rows x 10 attributes: 160 MB per set of lists, 1.3 GB of budget). It never exceeds a quarter
    // of the memory the machine allows: lists are a cache (a rule without them sweeps the global order and
    // finds the same candidates), so a smaller budget costs time, never a different rule.
    static const std::size_t kMemoryQuarter = static_cast<std::size_t>(memory_limit_bytes() / 4);
    budget_ = std::min(kMemoryQuarter, std::max(std::size_t{1} << 27, 8 * sorted_columns_bytes(index, index.rows())));
    per_rule_budget_ = budget_ / (width + 1);
    // The memo's lists serve when its search ran on a superset of these rows over this index.
    memo_ = memo ? memo->lists.get() : nullptr;
    if (memo_ && !(memo_->index == &index && active.is_subset_of(memo_->active))) {
      for (auto& entry : memo_->by_rule) recycle(std::move(entry.second));
      memo_->by_rule.clear();
    }
  }

  // Gives the rule room for attribute lists (built later, by the sweeps) when they fit the budget.
  void give(BeamRule& r) {
    const std::size_t needed = sorted_columns_bytes(index_, r.rows.size());
    if (needed > per_rule_budget_ || needed == 0) return;  // none: every numeric attribute is binned
    if (r.rows.size() == index_.rows()) return;            // its lists are the index's global order
    if (memo_) {
      const auto it = memo_->by_rule.find(key_of(r.conditions));
      if (it != memo_->by_rule.end()) r.remembered = &it->second;
    }
    Pool& pool = pool_of_this_thread();
    if (!pool.spare.empty()) {
      // The smallest set that holds the rule's lists (else the largest): a set too small reallocates
      // every list it is given.
      auto fits = [&](const auto& x) { return x.first >= needed; };
      auto pick = pool.spare.begin();
      for (auto it = pool.spare.begin(); it != pool.spare.end(); ++it)
        if (fits(*it) ? !fits(*pick) || it->first < pick->first : !fits(*pick) && it->first > pick->first) pick = it;
      pool.bytes -= pick->first;
      r.sorted = std::move(pick->second);
      *pick = std::move(pool.spare.back());
      pool.spare.pop_back();
    }
    r.sorted.resize(static_cast<std::size_t>(na_));
    r.built.assign(static_cast<std::size_t>(na_), 0);
  }

  // The rule's list of numeric attribute a, built if it is not yet, filtered from the shortest source at
  // hand: the memo's list of the rule, the parent's, or the global order. Null when the rule has no lists.
  const SortedColumns* of(BeamRule& r, int a) const {
    if (r.sorted.empty()) return nullptr;
    if (!r.built[a]) {
      const SortedColumn* source = nullptr;
      std::size_t source_rows = index_.sorted_rows(a).size();
      if (r.parent && !r.parent->sorted.empty() && r.parent->built[a]) {
        source = &r.parent->sorted[a];
        source_rows = source->rows.size();
      }
      if (r.remembered && (*r.remembered)[a].rows.size() < source_rows) source = &(*r.remembered)[a];
      build_sorted_column(index_, r.covered, r.rows, source, a, r.sorted[a]);
      r.built[a] = 1;
    }
    return &r.sorted;
  }

  // Rules leaving the beam: their lists go to the memo (short rules, within a quarter of the budget) or
  // back to the pool.
  void retire(std::vector<BeamRule>& rules) {
    // Short rules recur in the next search and hold the longest lists; on waveform-5000 (beam 10) the next
    // search held 69% of the rules of one condition again, 33% of two, 9% of three.
    constexpr std::size_t kMemoLength = 2;
    for (auto& r : rules) {
      if (r.sorted.empty()) continue;
      bool complete = true;  // a task skipped by its bound leaves a list unbuilt
      for (int a = 0; a < na_; ++a)
        complete = complete && (r.built[a] || index_.data().attribute(a).is_nominal() || index_.binned(a));
      if (memo_ && complete && r.conditions.size() <= kMemoLength) {
        const std::size_t bytes = held_bytes(r.sorted);
        if (kept_bytes_ + bytes <= budget_ / 4) {
          kept_bytes_ += bytes;
          kept_.emplace(key_of(r.conditions), std::move(r.sorted));
          continue;
        }
      }
      recycle(std::move(r.sorted));
    }
  }

  // At the end of the search: the lists kept replace the memo's.
  void leave_in_memo(const Bitset& active) {
    if (!memo_) return;
    for (auto& entry : memo_->by_rule) recycle(std::move(entry.second));
    memo_->by_rule = std::move(kept_);
    memo_->active = active;
    memo_->index = &index_;
  }

 private:
  // Lists of rules that left the beam, each set with the bytes it holds, recycled within and across
  // searches on this thread. A search holds up to three beams of lists at once (parents, beam, children),
  // so a pool smaller than that frees and reallocates lists at every level (9% of a wide EVC calibration
  // with an eighth of the budget). It holds at most the budget: buffers keep the capacity of the largest
  // list they ever held, and layered search's wide beams would otherwise leave hundreds of full-size lists
  // behind.
  struct Pool {
    std::vector<std::pair<std::size_t, SortedColumns>> spare;
    std::size_t bytes = 0;
  };
  static Pool& pool_of_this_thread() {
    thread_local Pool pool;
    return pool;
  }
  void recycle(SortedColumns&& lists) {
    Pool& pool = pool_of_this_thread();
    const std::size_t bytes = held_bytes(lists);
    if (pool.bytes + bytes > budget_) return;
    pool.bytes += bytes;
    pool.spare.emplace_back(bytes, std::move(lists));
  }

  const CoverageIndex& index_;
  int na_;
  std::size_t budget_ = 0, per_rule_budget_ = 0;
  SearchMemo::Lists* memo_ = nullptr;
  std::map<ConditionKey, SortedColumns> kept_;  // this search's lists, for the memo
  std::size_t kept_bytes_ = 0;
};

// One level of the search: the beam it refines and the floors its tasks share. A task whose beam list is
// full holds `width` distinct rules scoring at least its last one, so no candidate of any task scoring
// below that can enter the beam; likewise a full best list. Tasks read the floors as they rise (in
// whatever order threads run), which changes what a task keeps but never the level's outcome.
struct Level {
  int length;       // the length of the rules it evaluates
  bool can_refine;  // its rules form a beam (with best_from_beam the last level's are the best's candidates)
  std::vector<BeamRule>& beam;
  const AttributeLists& lists;
  // How many beam candidates each task keeps: the beam's width, more when the level is evaluated again
  // because the next beam needed candidates a task had dropped (choose_beam).
  std::size_t task_width;
  std::atomic<double> beam_floor{-std::numeric_limits<double>::infinity()};
  std::atomic<double> best_floor{-std::numeric_limits<double>::infinity()};
  // The largest quality any task has seen (level_maxima): a candidate below it cannot raise the maximum.
  std::atomic<double> max_floor{-std::numeric_limits<double>::infinity()};
};

// One task of a level: the refinements of beam rule `task / na` on attribute `task % na`. `out` keeps the
// task's `width` best for the beam and best_kept best for the returned rule.
class Task {
 public:
  Task(const SearchSetup& s, Level& level, std::size_t task, TaskResult& out)
      : s_(s),
        level_(level),
        out_(out),
        p_(static_cast<std::uint32_t>(task / static_cast<std::size_t>(s.na))),
        a_(static_cast<int>(task % static_cast<std::size_t>(s.na))),
        parent_(level.beam[p_]) {}

  void run() {
    thread_local RefinementScratch scratch;
    const RefinementKinds kinds = allowed_kinds(parent_.conditions, a_, s_.options.kinds);
    RuleCoverage cov{&parent_.covered, &parent_.rows, nullptr, parent_.counts.data(),
                     parent_.histogram ? &*parent_.histogram : nullptr};
    // A task none of whose refinements can reach the bars is skipped whole (as each of its candidates
    // would be): the measure's refinement_bound of the parent bounds them all.
    if (s_.quick_bounds && s_.target >= 0) {
      const RuleStats parent_stats{parent_.counts,
                                   s_.totals,
                                   s_.target,
                                   level_.length,
                                   std::accumulate(parent_.counts.begin(), parent_.counts.end(), 0.0),
                                   s_.n_total};
      if (s_.quality.refinement_bound(parent_stats) < bar()) return;
    }
    const bool numeric = !s_.index.data().attribute(a_).is_nominal();
    if (numeric) {
      if (!kinds.less_equal && !kinds.greater) return;
      if (!s_.index.binned(a_)) cov.sorted = level_.lists.of(parent_, a_);  // a binned one is counted by bin
    }
    if (numeric && (s_.by_s_and_n || (s_.weighted_batches && s_.index.binned(a_))))
      sweep_cuts(cov, kinds, scratch);
    else
      sweep_counts(cov, kinds, scratch);
  }

 private:
  // The bars a candidate must reach to be kept by this task (exact: one scoring below every bar, this
  // task's full beam and best lists and the level's maximum when recorded, would be rejected anyway).
  static constexpr double kNever = std::numeric_limits<double>::infinity();
  double beam_bar() const {
    if (!level_.can_refine) return kNever;
    const double floor = level_.beam_floor.load(std::memory_order_relaxed);
    return out_.top_full ? std::max(out_.top.front().quality, floor) : floor;
  }
  double best_bar() const {
    if (s_.options.best_from_beam) return kNever;
    const double floor = level_.best_floor.load(std::memory_order_relaxed);
    return out_.best.size() == s_.best_kept ? std::max(out_.best.front().selection, floor) : floor;
  }
  double bar() const {
    const double max_bar =
        s_.options.level_maxima ? std::max(out_.max_quality, level_.max_floor.load(std::memory_order_relaxed)) : kNever;
    return std::min({beam_bar(), best_bar(), max_bar});
  }

  // Keeps an evaluated candidate in this task's lists where it ranks.
  __attribute__((always_inline)) void offer(const Condition& c, const RuleStats& stats, std::size_t rows, double q,
                                            double sel) {
    out_.max_quality = std::max(out_.max_quality, q);
    // Cheap rejection on the scores alone (ties go on to the full comparison).
    const bool beam_open = level_.can_refine && (!out_.top_full || q >= out_.top.front().quality) &&
                           !(q < level_.beam_floor.load(std::memory_order_relaxed));
    const bool best_open = !s_.options.best_from_beam &&
                           (out_.best.size() < s_.best_kept || sel >= out_.best.front().selection) &&
                           !(sel < level_.best_floor.load(std::memory_order_relaxed));
    if (!beam_open && !best_open) return;
    Proposal prop{p_,
                  c,
                  q,
                  sel,
                  s_.options.prune ? s_.select.refinement_bound(stats) : 0.0,
                  rows,
                  stats.target,
                  static_cast<std::size_t>(level_.length),
                  !s_.significance_tests || (s_.prior_test.passes(stats.covered) &&
                                             (!parent_.parent_test || parent_.parent_test->passes(stats.covered)))};
    if (beam_open) {
      gather_top(out_, prop, level_.task_width);
      if (s_.share_floors && out_.top_full) raise(level_.beam_floor, out_.top.front().quality);
    }
    if (best_open && prop.can_be_best) {
      keep_top(out_.best, prop, s_.best_kept, better_selection);
      if (s_.share_floors && out_.best.size() == s_.best_kept) raise(level_.best_floor, out_.best.front().selection);
    }
  }
  // A numeric attribute under SearchSetup::by_s_and_n: the target class's cuts, scored (or bounded) a whole
  // sweep at a time, then offered one by one where they may reach a bar. Under SearchSetup::box_bounds a
  // long list goes a run of rows at a time and passes over a run whose box of (s, n) cannot reach the bars
  // (QualityMeasure::box_may_reach) without finding its cuts: on permuted labels (the EVC calibration) nearly
  // every row is a cut and few runs hold a candidate for the beam, and on real data the bars soon rise above
  // most runs.
  // Not inlined into run(): the inliner then keeps sweep_counts' numeric loop there (2% fewer instructions on
  // a default fit of vowel, counted with callgrind).
  __attribute__((noinline)) void sweep_cuts(const RuleCoverage& cov, const RefinementKinds& kinds,
                                            RefinementScratch& scratch) {
    // Below about a thousand rows a list's runs are passed over too rarely to pay for their bounds (counted
    // with cachegrind on spambase, segment and diabetes: runs from 512, 1,024 or 2,048 rows cost about the
    // same, and runs of 16 to 64 rows 8% to 14% more instructions than the whole list on diabetes' 691-row
    // lists).
    constexpr std::size_t kRunsFrom = 1024;
    CutSweep sweep(*this, kinds, scratch);
    if (s_.weighted_batches) return sweep.weighted_bins(cov);
    // A binned attribute has few cuts: they are all scored.
    if (!s_.box_bounds || cov.rows->size() < kRunsFrom || s_.index.binned(a_))
      sweep.whole_list(cov);
    else
      sweep.by_runs(cov);
  }

  // One sweep of sweep_cuts: the candidates' s, n and scores in the scratch's batches, and the task's bars as
  // they stood when last refreshed.
  class CutSweep {
   public:
    CutSweep(Task& task, const RefinementKinds& kinds, RefinementScratch& scratch)
        : t_(task),
          kinds_(kinds),
          scratch_(scratch),
          s_(scratch.batch_s),
          n_(scratch.batch_n),
          q_(scratch.batch_quality),
          sel_(scratch.batch_selection),
          counts_(scratch.other),
          base_{zeroed(counts_, task.s_.k), task.s_.totals, task.s_.target, task.level_.length, 0.0, task.s_.n_total},
          separate_(&task.s_.select != &task.s_.quality),
          track_max_(task.s_.options.level_maxima != nullptr),
          scored_(task.s_.batch_scores),
          bounded_(task.s_.batch_bounds),
          parent_rows_(task.parent_.row_count),
          code_max_(task.s_.index.code_max(task.a_).data()),
          code_min_(task.s_.index.code_min(task.a_).data()) {
      refresh();
    }

    // Every cut of the rule's list (or bins), scored at once.
    void whole_list(const RuleCoverage& cov) {
      const SearchSetup& s = t_.s_;
      const TargetCuts cuts = target_cuts(s.index, cov, t_.a_, s.target, scratch_);
      if (cuts.count == 0) return;
      fill(cuts.count, cuts.position, cuts.below, static_cast<double>(cuts.rows), static_cast<double>(cuts.positives));
      score();
      if (cuts.binned)
        scan(s_.size(), [&](std::size_t i) { return detail::bin_cut_threshold(s.index, t_.a_, scratch_, i); });
      else
        scan(s_.size(),
             [&](std::size_t i) { return detail::cut_threshold(code_max_, code_min_, cuts.codes, cuts.position[i]); });
    }

    // Every cut of a binned attribute under weights (SearchSetup::weighted_batches), scored at once: each
    // candidate's s and n are its weight of the target and its class weights summed in class order, read from
    // the counts sweep_counts would evaluate it by, so that its scores are bit for bit the same.
    void weighted_bins(const RuleCoverage& cov) {
      const SearchSetup& s = t_.s_;
      const std::size_t k = s.k, target = static_cast<std::size_t>(s.target);
      std::vector<std::size_t>& rows = scratch_.batch_rows;
      s_.clear();
      n_.clear();
      rows.clear();
      // Both kinds, so that candidate j is A <= t of cut j / 2 when even and A > t when odd, as scan() reads.
      detail::evaluate_binned(
          s.index, cov, t_.a_, RefinementKinds{}, s.target,
          scratch_, [&](const Condition&, const double* counts, std::size_t covered) __attribute__((always_inline)) {
            s_.push_back(counts[target]);
            n_.push_back(std::accumulate(counts, counts + k, 0.0));
            rows.push_back(covered);
          });
      if (s_.empty()) return;
      q_.resize(s_.size());
      score();
      rows_ = rows.data();
      scan(s_.size(), [&](std::size_t i) { return detail::bin_cut_threshold(s.index, t_.a_, scratch_, i); });
    }

    // The rule's list a run of kRun rows at a time, passing over the runs whose box cannot reach the bars.
    void by_runs(const RuleCoverage& cov) {
      const SearchSetup& s = t_.s_;
      const ColumnView col = detail::rule_column(s.index, cov, t_.a_, scratch_);
      const std::size_t m = col.size;
      if (m < 2) return;
      const auto target = static_cast<ClassCode>(s.target);
      const ClassCode* cls = col.classes;
      // The positives before each run of kRun rows.
      constexpr std::size_t kRun = 64;
      const std::size_t runs = (m + kRun - 1) / kRun;
      auto& before = scratch_.run_positives;
      before.resize(runs + 1);
      before[0] = 0;
      for (std::size_t r = 0; r < runs; ++r) {
        std::uint32_t in_run = 0;
        for (std::size_t j = r * kRun, end = std::min(m, j + kRun); j < end; ++j) in_run += cls[j] == target;
        before[r + 1] = before[r] + in_run;
      }
      const double positives = before[runs], rows = static_cast<double>(m);
      scratch_.cuts.resize(kRun);
      scratch_.below.resize(kRun);
      constexpr double kLoses = -std::numeric_limits<double>::infinity();
      for (std::size_t r = 0; r < runs; ++r) {
        // Cuts lie at positions 1 .. m - 1; run r holds those in [from, to). Its A <= t rules cover at least
        // `from` rows and at most the positives before its end; its A > t rules at least m - (to - 1) rows and
        // at most the positives from `from` on.
        const std::size_t from = std::max<std::size_t>(1, r * kRun), to = std::min(m, (r + 1) * kRun);
        if (from >= to || col.codes[from - 1] == col.codes[to - 1]) continue;  // one value: no cut
        const std::uint32_t before_from = r == 0 ? static_cast<std::uint32_t>(cls[0] == target) : before[r];
        const double at = run_bar();
        const bool le_open = kinds_.less_equal && s.quality.box_may_reach(base_, before[r + 1], from, at);
        const bool gt_open = kinds_.greater && s.quality.box_may_reach(base_, positives - before_from,
                                                                       rows - static_cast<double>(to - 1), at);
        if (!le_open && !gt_open) continue;
        const std::size_t count = target_cuts_between(col.codes, cls, m, target, from, to, before_from,
                                                      scratch_.cuts.data(), scratch_.below.data());
        if (count == 0) continue;
        fill(count, scratch_.cuts.data(), scratch_.below.data(), rows, positives);
        if (scored_)
          s.quality.evaluate_batch(base_, s_, n_, q_);
        else
          s.quality.bound_batch(base_, s_, n_, q_);
        if (!le_open)
          for (std::size_t j = 0; j < q_.size(); j += 2) q_[j] = kLoses;
        if (!gt_open)
          for (std::size_t j = 1; j < q_.size(); j += 2) q_[j] = kLoses;
        scan(q_.size(),
             [&](std::size_t i) { return detail::cut_threshold(code_max_, code_min_, col.codes, scratch_.cuts[i]); });
      }
    }

   private:
    static std::vector<double>& zeroed(std::vector<double>& v, std::size_t k) {
      v.assign(k, 0.0);
      return v;
    }

    // Most candidates lose to the task's bars: those are passed over on their scores (or bounds) alone,
    // bars refreshed after every candidate that is offered, unless they may raise the level's maximum.
    void refresh() {
      beam_at_ = t_.beam_bar();
      best_at_ = t_.best_bar();
      any_at_ = t_.bar();
    }

    // The bar a whole run must stay below to be passed over, as scan() passes over a candidate: a bound below
    // any_at; a score below the beam's and the best's bars and not above the task's maximum.
    double run_bar() const {
      constexpr double kInfinity = std::numeric_limits<double>::infinity();
      if (bounded_) return any_at_;
      const double above_max = track_max_ ? std::nextafter(t_.out_.max_quality, kInfinity) : kInfinity;
      return std::min({beam_at_, best_at_, above_max});
    }

    // The batch's scores (scored_) or bounds (bounded_) into q_ (and sel_ for a separate selection measure).
    void score() {
      const SearchSetup& s = t_.s_;
      if (scored_) {
        s.quality.evaluate_batch(base_, s_, n_, q_);
        if (separate_) {
          sel_.resize(s_.size());
          s.select.evaluate_batch(base_, s_, n_, sel_);
        }
      } else if (bounded_) {
        s.quality.bound_batch(base_, s_, n_, q_);
      }
    }

    // The candidates of cuts [0, count) with below[i] positives before position[i], of a list of m rows
    // holding `positives`, into s and n.
    void fill(std::size_t count, const std::uint32_t* position, const std::uint32_t* below, double m,
              double positives) {
      s_.resize(2 * count);
      n_.resize(2 * count);
      q_.resize(2 * count);
      for (std::size_t i = 0; i < count; ++i) {
        s_[2 * i] = below[i];
        n_[2 * i] = position[i];
        s_[2 * i + 1] = positives - s_[2 * i];
        n_[2 * i + 1] = m - n_[2 * i];
      }
    }

    // Candidates [0, count) of s, n and q: candidate j is cut j / 2, whose threshold is threshold(j / 2),
    // A <= t when j is even, A > t when odd. Runs of passed-over candidates are skipped in tight loops over
    // locals: in the main loop, whose body calls out, the flags, bars and sizes would be reloaded from memory
    // at every candidate.
    template <class Threshold>
    void scan(std::size_t count, Threshold&& threshold) {
      const SearchSetup& s = t_.s_;
      const bool scored = scored_, bounded = bounded_, track_max = track_max_;
      const RefinementKinds kinds = kinds_;
      const std::size_t parent_rows = parent_rows_;
      const int a = t_.a_, length = t_.level_.length, target = s.target;
      // Nothing resizes the batches while they are scanned.
      const double* sv = s_.data();
      const double* nv = n_.data();
      const double* qv = q_.data();
      const double* sel_of = scored && separate_ ? sel_.data() : q_.data();
      double* target_count = counts_.data() + target;
      const std::span<const double> counts(counts_);
      for (std::size_t j = 0; j < count; ++j) {
        if (scored) {
          const double beam_bar_now = beam_at_, best_bar_now = best_at_;
          const double max_now = track_max ? t_.out_.max_quality : std::numeric_limits<double>::infinity();
          while (j < count && qv[j] < beam_bar_now && sel_of[j] < best_bar_now && !(qv[j] > max_now)) ++j;
        } else if (bounded) {
          const double bar_now = any_at_;
          while (j < count && qv[j] < bar_now) ++j;
        }
        if (j == count) break;
        const bool le = j % 2 == 0;
        if (le ? !kinds.less_equal : !kinds.greater) continue;
        const std::size_t rows = rows_ ? rows_[j] : static_cast<std::size_t>(nv[j]);
        if (rows >= parent_rows || rows < s.options.min_covered) continue;
        if (sv[j] <= 0 || sv[j] < s.options.min_positives) continue;
        *target_count = sv[j];
        const RuleStats stats{counts, s.totals, target, length, nv[j], s.n_total};
        // The threshold reads the attribute's code values (not in cache): only for candidates offered.
        auto condition = [&] { return Condition{a, le ? Op::le : Op::gt, 0, threshold(j / 2)}; };
        if (scored) {
          t_.offer(condition(), stats, rows, qv[j], sel_of[j]);
        } else {
          if (s.quick_bounds && !s.quality.may_reach(stats, any_at_)) continue;
          t_.offer(condition(), stats, rows, s.quality.evaluate(stats), s.select.evaluate(stats));
        }
        refresh();
      }
    }

    Task& t_;
    const RefinementKinds& kinds_;
    RefinementScratch& scratch_;
    // The batches (candidate j: its s, n, quality or bound, selection) and the class counts the measures read
    // (the target's s, the other classes left at zero; offer() reads no counts here: no significance tests,
    // no pruning bound).
    std::vector<double>& s_;
    std::vector<double>& n_;
    std::vector<double>& q_;
    std::vector<double>& sel_;
    std::vector<double>& counts_;
    const RuleStats base_;
    const bool separate_, track_max_;
    // Whether candidates are scored (batch_scores) or bounded (batch_bounds) a whole batch at a time.
    const bool scored_, bounded_;
    const std::size_t parent_rows_;
    const double* code_max_;
    const double* code_min_;
    const std::size_t* rows_ = nullptr;  // each candidate's rows where n_ holds weights (weighted_bins)
    double beam_at_ = 0, best_at_ = 0, any_at_ = 0;
  };

  // Any other attribute: each refinement with its class counts, evaluated one by one.
  void sweep_counts(const RuleCoverage& cov, const RefinementKinds& kinds, RefinementScratch& scratch) {
    const std::size_t k = s_.k, parent_rows = parent_.row_count;
    evaluate_attribute(
        s_.index, cov, a_, kinds, s_.target,
        scratch, [&](const Condition& c, const double* counts, std::size_t rows) __attribute__((always_inline)) {
          if (rows >= parent_rows || rows < s_.options.min_covered) return;
          int t = s_.target;
          if (t < 0) t = static_cast<int>(std::max_element(counts, counts + k) - counts);
          if (counts[t] <= 0 || counts[t] < s_.options.min_positives) return;
          std::span<const double> covered(counts, k);
          double n = static_cast<double>(rows);
          if (!s_.unit_weights) n = std::accumulate(counts, counts + k, 0.0);
          const RuleStats stats{covered, s_.totals, t, level_.length, n, s_.n_total};
          if (s_.quick_bounds && !s_.quality.may_reach(stats, bar())) return;
          offer(c, stats, rows, s_.quality.evaluate(stats), s_.select.evaluate(stats));
        });
  }

  const SearchSetup& s_;
  Level& level_;
  TaskResult& out_;
  std::uint32_t p_;
  int a_;
  BeamRule& parent_;
};

// A level's candidates: the union of every task's lists, the best candidates for the returned rule and the
// largest quality seen. Kept per task until the merge they would cost tasks x width proposals (gigabytes
// for layered search's width 512), so wide levels fold each task's list into one bounded heap per chunk of
// tasks instead, keeping the chunk's `keep` best. A full list or heap may have dropped candidates, each
// ranking below the worst it kept; `cut` is the best of those worst kept, so everything dropped ranks below
// it.
struct LevelCandidates {
  std::vector<Proposal> beam, best;
  double max_quality = -std::numeric_limits<double>::infinity();
  std::optional<Proposal> cut;
};

void lower_cut(std::optional<Proposal>& cut, const Proposal& worst_kept) {
  if (!cut || better(worst_kept, *cut)) cut = worst_kept;
}

LevelCandidates evaluate_per_task(const SearchSetup& s, Level& level) {
  const std::size_t tasks = level.beam.size() * static_cast<std::size_t>(s.na);
  std::vector<TaskResult> results(tasks);
  // Each task fills a list of its own stack and moves it out at the end: neighbouring results written by
  // two threads at once would share cache lines at every candidate.
  parallel_for(tasks, s.options.threads, [&](std::size_t task) {
    TaskResult local;
    Task(s, level, task, local).run();
    raise(level.max_floor, local.max_quality);
    results[task] = std::move(local);
  });
  // Merge in task order; ties are settled by `better`, so the merge order cannot change the outcome.
  LevelCandidates out;
  for (auto& r : results) {
    if (r.top_full) lower_cut(out.cut, r.top.front());
    out.max_quality = std::max(out.max_quality, r.max_quality);
    out.beam.insert(out.beam.end(), r.top.begin(), r.top.end());
    out.best.insert(out.best.end(), r.best.begin(), r.best.end());
  }
  return out;
}

LevelCandidates evaluate_folded(const SearchSetup& s, Level& level, std::size_t chunks, std::size_t keep) {
  const std::size_t tasks = level.beam.size() * static_cast<std::size_t>(s.na);
  struct Chunk {
    std::vector<Proposal> heap;  // worst kept at the front
    bool truncated = false;
    TaskResult best;                   // best_kept best for the returned rule and the maximum
    std::optional<Proposal> task_cut;  // the best worst-kept of its tasks' full lists
  };
  std::vector<Chunk> folded(chunks);
  parallel_for(chunks, s.options.threads, [&](std::size_t ci) {
    Chunk& ch = folded[ci];
    TaskResult local;
    for (std::size_t task = tasks * ci / chunks; task < tasks * (ci + 1) / chunks; ++task) {
      local.top.clear();
      local.top_full = false;
      local.best.clear();
      local.max_quality = -std::numeric_limits<double>::infinity();
      Task(s, level, task, local).run();
      raise(level.max_floor, local.max_quality);
      ch.best.max_quality = std::max(ch.best.max_quality, local.max_quality);
      for (const auto& prop : local.best) keep_top(ch.best.best, prop, s.best_kept, better_selection);
      if (local.top_full) lower_cut(ch.task_cut, local.top.front());
      for (const auto& prop : local.top) {
        if (ch.heap.size() < keep) {
          ch.heap.push_back(prop);
          std::push_heap(ch.heap.begin(), ch.heap.end(), better);
          continue;
        }
        ch.truncated = true;
        if (!better(prop, ch.heap.front())) continue;
        std::pop_heap(ch.heap.begin(), ch.heap.end(), better);
        ch.heap.back() = prop;
        std::push_heap(ch.heap.begin(), ch.heap.end(), better);
      }
    }
  });
  LevelCandidates out;
  for (auto& ch : folded) {
    out.max_quality = std::max(out.max_quality, ch.best.max_quality);
    out.beam.insert(out.beam.end(), ch.heap.begin(), ch.heap.end());
    out.best.insert(out.best.end(), ch.best.best.begin(), ch.best.best.end());
    // Every candidate a heap dropped is worse than its final front.
    if (ch.truncated) lower_cut(out.cut, ch.heap.front());
    if (ch.task_cut) lower_cut(out.cut, *ch.task_cut);
  }
  return out;
}

// Chunks need per-task best lists when accept() chooses among them; they pay off when the per-task lists
// would be several times the heaps.
LevelCandidates evaluate_level(const SearchSetup& s, Level& level, std::size_t keep) {
  const std::size_t tasks = level.beam.size() * static_cast<std::size_t>(s.na);
  const std::size_t chunks = std::min(tasks, 8 * static_cast<std::size_t>(resolve_threads(s.options.threads)));
  if (!s.options.accept && tasks * level.task_width > 4 * chunks * keep) return evaluate_folded(s, level, chunks, keep);
  return evaluate_per_task(s, level);
}

// The next beam: the best `width` distinct candidates, skipping those safe pruning rules out. Sorting only
// the front usually suffices; the rest is sorted when duplicates or pruning use it up, so the order is that
// of a full sort. Returns false when candidates past `cut` were needed (the level must keep more).
bool choose_beam(const SearchSetup& s, const std::vector<BeamRule>& beam, LevelCandidates& level,
                 const std::optional<Proposal>& best_proposal, std::vector<const Proposal*>& chosen) {
  chosen.clear();
  auto& candidates = level.beam;
  std::size_t sorted_upto = std::min(candidates.size(), 4 * s.width);
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(sorted_upto), candidates.end(),
                    better);
  std::set<ConditionKey> seen;
  for (std::size_t i = 0; i < candidates.size() && chosen.size() < s.width; ++i) {
    if (i == sorted_upto) {
      std::sort(candidates.begin() + static_cast<std::ptrdiff_t>(i), candidates.end(), better);
      sorted_upto = candidates.size();
    }
    const Proposal& prop = candidates[i];
    if (level.cut && better(*level.cut, prop)) return false;
    if (s.options.prune && best_proposal && prop.bound <= best_proposal->selection) continue;
    if (!seen.insert(key_of(beam[prop.parent].conditions, &prop.condition)).second) continue;
    chosen.push_back(&prop);
  }
  return chosen.size() == s.width || !level.cut;
}

// The rules of the next beam, built in parallel: each rule's rows; its attribute lists come with the next
// level's sweeps.
std::vector<BeamRule> build_beam(const SearchSetup& s, const std::vector<BeamRule>& beam,
                                 const std::vector<const Proposal*>& chosen) {
  std::vector<BeamRule> next(chosen.size());
  parallel_for(chosen.size(), s.options.threads, [&](std::size_t i) {
    const Proposal& prop = *chosen[i];
    const BeamRule& parent = beam[prop.parent];
    BeamRule& r = next[i];
    r.conditions = parent.conditions;
    r.conditions.push_back(prop.condition);
    if (parent.histogram) {
      r.row_count = condition_counts(s.index, *parent.histogram, prop.condition, r.counts);
    } else {
      r.covered = s.index.covered(prop.condition, parent.covered);
      r.rows = r.covered.members();
      r.row_count = r.rows.size();
      r.counts = s.index.class_counts(r.covered);
    }
    r.parent = &parent;
    s.set_parent_test(r);
  });
  return next;
}

// The rule a proposal describes; its parent must still be in the beam.
FoundRule build_found(const SearchSetup& s, const std::vector<BeamRule>& beam, const Proposal& prop) {
  const BeamRule& parent = beam[prop.parent];
  FoundRule found;
  found.conditions = parent.conditions;
  found.conditions.push_back(prop.condition);
  found.target = prop.target;
  if (parent.histogram) {
    condition_counts(s.index, *parent.histogram, prop.condition, found.counts);
  } else {
    found.covered = s.index.covered(prop.condition, parent.covered);
    found.counts = s.index.class_counts(found.covered);
  }
  found.quality = prop.quality;
  found.selection = prop.selection;
  return found;
}

// h_w of paper 002: every distinct set of attributes the level evaluated refinements on.
void record_attribute_sets(const SearchSetup& s, const std::vector<BeamRule>& beam, std::set<std::vector<int>>& sets) {
  for (const auto& rule : beam)
    for (int a = 0; a < s.na; ++a) {
      const RefinementKinds kinds = allowed_kinds(rule.conditions, a, s.options.kinds);
      if (!kinds.equal && !kinds.not_equal && !kinds.less_equal && !kinds.greater) continue;
      std::vector<int> attrs{a};
      for (const auto& c : rule.conditions) attrs.push_back(c.attribute);
      std::sort(attrs.begin(), attrs.end());
      attrs.erase(std::unique(attrs.begin(), attrs.end()), attrs.end());
      sets.insert(std::move(attrs));
    }
}

}  // namespace

void ThresholdGap::merge(const ThresholdGap& other) {
  below = std::max(below, other.below);
  above = std::min(above, other.above);
}

ThresholdGap threshold_gap(const std::vector<Condition>& conditions, std::size_t i, const CoverageIndex& index) {
  const Condition& c = conditions[i];
  Bitset others(index.rows(), true);
  for (std::size_t j = 0; j < conditions.size(); ++j)
    if (j != i) others = index.covered(conditions[j], others);
  ThresholdGap gap;
  const std::vector<double>& values = index.data().columns[static_cast<std::size_t>(c.attribute)].values;
  others.for_each([&](std::size_t r) {
    const double x = values[r];
    if (std::isnan(x)) return;
    if (x <= c.threshold)
      gap.below = std::max(gap.below, x);
    else
      gap.above = std::min(gap.above, x);
  });
  return gap;
}

void move_into_gap(Condition& c, const ThresholdGap& gap) {
  const double lo = gap.below, hi = gap.above;
  if (!std::isfinite(lo) || !std::isfinite(hi)) return;
  const double quarter = (hi - lo) / 4;
  const std::optional<double> t = shortest_decimal_in(lo + quarter, hi - quarter);
  if (t && *t >= lo && *t < hi) c.threshold = *t;
}

void shorten_thresholds(std::vector<Condition>& conditions, const CoverageIndex& index) {
  for (std::size_t i = 0; i < conditions.size(); ++i)
    if (conditions[i].op == Op::le || conditions[i].op == Op::gt)
      move_into_gap(conditions[i], threshold_gap(conditions, i, index));
}

std::optional<FoundRule> find_best_rule(const CoverageIndex& index, const Bitset& active, int target,
                                        const QualityMeasure& quality, const SearchOptions& options) {
  if (options.level_maxima)
    options.level_maxima->assign(static_cast<std::size_t>(std::max(0, options.max_rule_length)),
                                 -std::numeric_limits<double>::infinity());
  const bool elsewhere = static_cast<bool>(options.count_rules);
  if (elsewhere && (options.accept || options.memo || options.shortest_thresholds || !index.numeric_bins()))
    throw std::logic_error(
        "find_best_rule: rows counted elsewhere take no accept(), memo or shortest thresholds, "
        "and binned attributes");
  // Each level's rules are counted where the rows are, all at once; the empty rule's table gives the totals.
  auto count_beam = [&](std::vector<BeamRule>& rules) {
    std::vector<std::vector<Condition>> conditions;
    for (const BeamRule& r : rules) conditions.push_back(r.conditions);
    std::vector<RuleHistogram> tables = options.count_rules(conditions);
    if (tables.size() != rules.size()) throw std::logic_error("find_best_rule: a table per rule");
    for (std::size_t i = 0; i < rules.size(); ++i) rules[i].histogram = std::move(tables[i]);
  };
  std::vector<BeamRule> beam(1);
  if (elsewhere) count_beam(beam);
  const SearchSetup s(index, active, elsewhere ? &*beam[0].histogram : nullptr, target, quality, options);
  if (target >= 0 && s.totals[target] <= 0) return std::nullopt;

  AttributeLists lists(index, s.width, options.memo, active);
  if (elsewhere) {
    beam[0].row_count = beam[0].histogram->rows;
  } else {
    beam[0].covered = active;
    beam[0].rows = active.members();
    beam[0].row_count = beam[0].rows.size();
  }
  beam[0].counts = s.totals;
  lists.give(beam[0]);
  s.set_parent_test(beam[0]);
  std::vector<BeamRule> previous;  // the parents of the beam's rules, until their lists are built

  std::optional<FoundRule> best;
  std::optional<Proposal> best_proposal;
  for (int length = 1; length <= options.max_rule_length && !beam.empty(); ++length) {
    if (elsewhere && length > 1) count_beam(beam);
    Level level{length, length < options.max_rule_length || options.best_from_beam, beam, lists, s.width};
    std::size_t keep = s.width * (static_cast<std::size_t>(length) + 4);
    LevelCandidates candidates = evaluate_level(s, level, keep);
    if (options.level_maxima) {
      double& m = (*options.level_maxima)[static_cast<std::size_t>(length - 1)];
      m = std::max(m, candidates.max_quality);
    }
    // The level's best candidate that beats the best so far (and is accepted) becomes the best rule; it is
    // built now, while its parent is still in the beam.
    std::sort(candidates.best.begin(), candidates.best.end(), better_selection);
    for (const auto& prop : candidates.best) {
      if (best_proposal && !better_selection(prop, *best_proposal)) break;
      FoundRule found = build_found(s, beam, prop);
      if (options.accept && !options.accept(found)) continue;
      best_proposal = prop;
      best = std::move(found);
      break;
    }
    if (options.attribute_sets) record_attribute_sets(s, beam, *options.attribute_sets);

    // Pruning and duplicates can discard many of the best, and then candidates a task or a chunk dropped may
    // belong in the beam: keep eight times more (every list once that saves no memory). The beam's shared
    // floor came from the shorter task lists, so it starts again.
    std::vector<const Proposal*> chosen;
    while (!choose_beam(s, beam, candidates, best_proposal, chosen)) {
      keep *= 8;
      level.task_width *= 8;
      level.beam_floor.store(-std::numeric_limits<double>::infinity(), std::memory_order_relaxed);
      candidates = evaluate_level(s, level, keep);
    }
    std::vector<BeamRule> next = build_beam(s, beam, chosen);
    // Rules of the last level are never refined and get no lists.
    if (length < options.max_rule_length)
      for (auto& r : next) lists.give(r);
    if (options.best_from_beam)
      for (std::size_t i = 0; i < next.size(); ++i) {
        const Proposal& prop = *chosen[i];
        if (prop.can_be_best && (!best_proposal || better_selection(prop, *best_proposal))) {
          best_proposal = prop;
          best =
              FoundRule{next[i].conditions, prop.target, next[i].counts, next[i].covered, prop.quality, prop.selection};
        }
      }
    // The beam's lists are built (the sweeps are done), so its parents' lists have served; the beam's serve
    // its successors' (moving the vector keeps the rules where they are).
    lists.retire(previous);
    previous = std::move(beam);
    beam = std::move(next);
  }
  lists.retire(previous);
  lists.retire(beam);
  if (best && options.shortest_thresholds) shorten_thresholds(best->conditions, index);
  lists.leave_in_memo(active);
  return best;
}

}  // namespace candor
