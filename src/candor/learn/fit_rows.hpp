#pragma once
// The rows of one fit, as the learners that can fit across workers read them (docs/guide-distributed.md): a
// rule search needs samples of rows, brought to it, and sums over every row, which each part of the rows
// computes alone and which merge. FitRows is that view. LocalRows holds all the rows in this process (every
// local fit of those learners goes through it); RemoteRows asks parts held elsewhere (Dask workers, through a
// transport given as three functions) with the requests answer_request and update_request serve on each part.
// Both ask the same RowPart, so a fit across parts is the local fit up to the order of its sums.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/coverage/coverage_index.hpp"
#include "candor/data.hpp"
#include "candor/distributed.hpp"
#include "candor/evc/laws.hpp"
#include "candor/linear/pattern_sums.hpp"
#include "candor/linear/row_patterns.hpp"
#include "candor/model/rule_model.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/search/refinements.hpp"
#include "candor/util/exact_sum.hpp"

namespace candor {

// What the rows a rule covers sum to, over every row: their class counts (weighted) and, for the rule's class
// under the scores so far, the gradient R and curvature H of its Newton step (learners/gradient_rules/).
struct RuleSums {
  std::vector<double> counts;
  double gradient = 0, curvature = 0;
};

// The same sums before they are read: exact (util/exact_sum.hpp), so that the sums of parts merge into those of
// the whole, bit for bit, and a fit across parts takes the steps of the fit in one process.
struct ExactRuleSums {
  std::vector<ExactSum> counts;
  ExactSum gradient, curvature;
  void merge(const ExactRuleSums& other);
  RuleSums value() const;
};

// The queries a round of the gradient search sends together, one per class's rule: the gaps of its thresholds
// from position `from` on (GapBounds), and a rule's sums with whether it covers the same rows as each of
// `others`.
struct GapQuery {
  std::vector<Condition> conditions;
  std::size_t from = 0;
};
// A rule's thresholds are moved into their gaps one after another (shorten_thresholds), each gap over the rows
// the other conditions cover once the conditions before it have moved. A query answers every numeric condition
// from its first position on at once: the gap over the rows the others surely cover and over those they may cover
// whatever the moves of the numeric conditions between (a move crosses only values within the gap it moves in,
// which no row the others cover holds). Where the two gaps agree, that is the gap after the moves; the first
// numeric condition's two always agree. Merged over parts as ThresholdGap is.
struct GapBounds {
  ThresholdGap certain, possible;
  void merge(const GapBounds& other) {
    certain.merge(other.certain);
    possible.merge(other.possible);
  }
  bool settled() const { return certain.below == possible.below && certain.above == possible.above; }
};
struct RuleQuery {
  std::vector<Condition> conditions;
  int klass = 0;
  std::vector<std::vector<Condition>> others;
};
struct RuleReply {
  RuleSums sums;
  std::vector<char> same;  // per other
};

// A move of the scores: `delta` added to the score of class `klass` on every row the conditions cover.
struct ScoreStep {
  std::vector<Condition> conditions;
  int klass = 0;
  double delta = 0;
};

// Class probabilities of one row from its scores (softmax), as every step of the gradient search computes them.
void row_probabilities(const double* scores, std::size_t classes, double* p);

// The rows (ascending, numbered by their place in `rows`, or by row where `rows` is null) each rule covers
// (Rule::covers). Each rule's rows are counted before they are listed: lists grown row by row would hold up to
// twice their rows (at a million rows, a hundred rules' lists are most of a fit's memory).
std::vector<std::vector<std::uint32_t>> covered_rows(const Dataset& d, const std::vector<Rule>& rules,
                                                     const std::vector<std::size_t>* rows = nullptr);

// One part of a fit's rows and what a rule search asks of them. Scores, where a request needs them, are held by
// the caller (rows x classes), so that a part holds nothing that a retry could lose.
class RowPart {
 public:
  explicit RowPart(const Dataset& rows);  // refers to `rows`, which must outlive the part
  explicit RowPart(Dataset&& rows);       // owns them
  RowPart(const RowPart&) = delete;
  RowPart& operator=(const RowPart&) = delete;

  const Dataset& data() const { return *data_; }
  std::size_t rows() const { return data_->rows(); }
  // The index rule queries count with, cut by `binning` (none: exact cuts); kept until the next binning.
  void index_with(const NumericBinning& binning, int threads);
  // The same for the rule queries of answer_request and update_request: the binning as RemoteRows shares it
  // (MessagePack, one thread), parsed only when those bytes change. Throws std::invalid_argument, naming `op`,
  // before any was shared.
  void index_with_shared(const std::string& binning, const std::string& op);
  void drop_index() {
    index_.reset();
    by_bin_.clear();
    shared_.clear();
    left_ = Bitset();
    left_removed_.clear();
    asked_.clear();
  }
  bool indexed_with(const NumericBinning& binning) const { return index_ && binning_ == binning; }
  // An index of `gathered`, the part's rows `rows` (Dataset::subset), cut by `binning`: from the part's own index
  // when it is cut so (its bins copied), else built.
  void index_gathered(std::optional<CoverageIndex>& into, const Dataset& gathered, const std::vector<std::size_t>& rows,
                      const NumericBinning& binning, int threads) const;

  // Class counts (weighted) of the labelled rows.
  std::vector<ExactSum> class_counts() const;
  NumericBinning bin_ranges(NumericBinning bounds) const;
  // The class probabilities of `rows` (the part's numbering) under `scores` (rows x classes).
  std::vector<double> probabilities(const double* scores, const std::vector<std::size_t>& rows) const;
  // GapBounds of each condition from position `from` on (a nominal condition's entry is left as it starts).
  std::vector<GapBounds> threshold_gaps(const std::vector<Condition>& conditions, std::size_t from) const;
  // The gap of numeric condition i over the rows every other condition covers.
  ThresholdGap threshold_gap(const std::vector<Condition>& conditions, std::size_t i) const {
    return threshold_gaps(conditions, i).front().certain;
  }
  ExactRuleSums rule_sums(const std::vector<Condition>& conditions, int klass, const double* scores) const;
  // For each of `others`: whether it covers exactly the rows `conditions` cover.
  std::vector<char> same_rows(const std::vector<Condition>& conditions,
                              const std::vector<std::vector<Condition>>& others) const;
  // Moves the scores of the rows each step's rule covers. Ends a round: the rows the round's rule_sums covered
  // are forgotten.
  void add_scores(double* scores, const std::vector<ScoreStep>& steps) const;
  // How many rules' covered rows a part of `classes` classes keeps within a round: a round asks of one rule per
  // class and of its prefixes (when they are pruned).
  static std::size_t kept_coverages(std::size_t classes) { return 4 * classes + 32; }
  // The tables (RuleHistogram) of `rules` over covering's rows left: every row of the part but those of class
  // `klass` that one of `removed` covers. The rows left follow from the request alone, so that a retry loses
  // nothing; those of the last request are kept, and a request that removes more than it subtracts only those.
  std::vector<RuleHistogram> rule_histograms(int klass, const std::vector<std::vector<Condition>>& removed,
                                             const std::vector<std::vector<Condition>>& rules);

  // The row patterns of `rules` (Rule::covers), which the weights' sums read; kept until the next, while the
  // index, which the search is over with, goes. The same for
  // requests, from the rules as RemoteRows shares them, built only when those bytes change (std::invalid_argument,
  // naming `op`, before any rules were shared).
  void patterns_with(const std::vector<Rule>& rules);
  void patterns_with_shared(const std::string& rules, const std::string& op);
  PatternWeights pattern_weights() const;
  RuleLossSums rule_loss(const RuleLossQuery& query) const;
  // The bytes the patterns take.
  std::size_t pattern_bytes() const;

 private:
  const CoverageIndex& index() const;
  const RowPatterns& patterns() const;
  // The rows `conditions` cover, from asked_ when this round covered them already.
  const Bitset& rows_covered(const std::vector<Condition>& conditions) const;
  // A binned attribute's rows by bin, in row order within a bin (rows[start[b]] to rows[start[b + 1]] hold bin
  // b): built when a threshold's gap first asks of the attribute, dropped with the index.
  struct RowsByBin {
    std::vector<std::uint32_t> start, rows;
  };
  const RowsByBin& rows_by_bin(int attribute) const;
  // The gap of numeric condition c over the rows `covered` accepts.
  template <class Covered>
  ThresholdGap gap_where(const Condition& c, const Covered& covered) const;
  std::optional<Dataset> owned_;
  const Dataset* data_;
  NumericBinning binning_;
  std::string shared_;  // the bytes binning_ came in, when it came through index_with_shared
  std::optional<CoverageIndex> index_;
  // Covering's rows left of the last rule_histograms request, and what it removed (of class left_class_).
  Bitset left_;
  int left_class_ = -1;
  std::vector<std::vector<Condition>> left_removed_;
  // The rows covered by the rules of this round's rule_sums (a round's rules, one per class), which same_rows and
  // add_scores ask of the same rules again (a gradient round covered each rule three times before).
  mutable std::deque<std::pair<std::vector<Condition>, Bitset>> asked_;
  mutable std::vector<std::optional<RowsByBin>> by_bin_;  // per attribute
  std::optional<RowPatterns> patterns_;
  std::string shared_rules_;  // the bytes patterns_' rules came in, when they came through patterns_with_shared
};

// The rows of a fit, wherever they are held. Row numbers are of all the rows, in their order.
class FitRows {
 public:
  virtual ~FitRows() = default;
  virtual const Schema& schema() const = 0;
  virtual const std::string& source() const = 0;
  virtual std::size_t rows() const = 0;
  virtual std::vector<double> class_counts() = 0;
  // The rows asked for, in that order; with `probabilities`, also their class probabilities under the scores
  // (rows x classes).
  virtual Dataset gather(const std::vector<std::size_t>& rows, std::vector<double>* probabilities = nullptr) = 0;
  // The class probabilities of `rows` under the scores (rows x classes).
  virtual std::vector<double> probabilities(const std::vector<std::size_t>& rows) = 0;
  // numeric_binning of all the rows.
  virtual NumericBinning binning(std::size_t bins) = 0;
  // calibrate_evc_cached of all the rows.
  virtual EvcCalibration calibrate_evc(const SearchOptions& search, const EvcSettings& settings,
                                       const std::vector<int>& classes, int threads) = 0;
  // The rule queries below count on an index cut by `binning`.
  virtual void index_with(const NumericBinning& binning) = 0;
  // An index of `gathered`, the rows `rows` that gather() brought, cut by `binning` (the one index_with was given):
  // the same index wherever the rows are; rows in this process copy the bins of their own index.
  virtual void index_gathered(std::optional<CoverageIndex>& into, const Dataset& gathered,
                              const std::vector<std::size_t>& /*rows*/, const NumericBinning& binning, int threads) {
    into.emplace(gathered, threads, binning);
  }
  virtual void start_scores(const std::vector<double>& start) = 0;
  // RowPart::threshold_gaps over all the rows, merged: per query, per position from its first on.
  virtual std::vector<std::vector<GapBounds>> threshold_gaps(const std::vector<GapQuery>& queries) = 0;
  virtual std::vector<RuleReply> rule_queries(const std::vector<RuleQuery>& queries) = 0;
  virtual void add_scores(const std::vector<ScoreStep>& steps) = 0;
  // RowPart::rule_histograms over all the rows, merged (RuleHistogram::merge).
  virtual std::vector<RuleHistogram> rule_histograms(int klass, const std::vector<std::vector<Condition>>& removed,
                                                     const std::vector<std::vector<Condition>>& rules) = 0;
  // The search is over: its index and scores may go.
  virtual void end_search() = 0;
  // The weights are fitted over `rules` next: the rows' summed weights by class, in all and under each rule
  // (linear/pattern_sums.hpp).
  virtual PatternWeights weigh_with(const std::vector<Rule>& rules) = 0;
  // The loss over every row of a problem over those rules, at a point.
  virtual RuleLossSums rule_loss(const RuleLossQuery& query) = 0;
};

// shorten_thresholds of each of `rules` over all the rows, asked of them: each request asks every rule's gaps from
// its first condition still to move on (GapBounds), and moves each condition whose gap is settled, up to the first
// that is not, where the next request starts (each gap with the earlier conditions moved, as one at a time).
void shorten_thresholds(FitRows& rows, const std::vector<std::vector<Condition>*>& rules);

// All the rows in this process: one part, the scores beside it.
class LocalRows : public FitRows {
 public:
  LocalRows(const Dataset& data, int threads) : part_(data), threads_(threads) {}
  const Schema& schema() const override { return part_.data().schema; }
  const std::string& source() const override { return part_.data().source; }
  std::size_t rows() const override { return part_.rows(); }
  std::vector<double> class_counts() override { return values(part_.class_counts()); }
  Dataset gather(const std::vector<std::size_t>& rows, std::vector<double>* probabilities = nullptr) override;
  std::vector<double> probabilities(const std::vector<std::size_t>& rows) override;
  NumericBinning binning(std::size_t bins) override;
  EvcCalibration calibrate_evc(const SearchOptions& search, const EvcSettings& settings,
                               const std::vector<int>& classes, int threads) override;
  void index_with(const NumericBinning& binning) override { part_.index_with(binning, threads_); }
  void index_gathered(std::optional<CoverageIndex>& into, const Dataset& gathered, const std::vector<std::size_t>& rows,
                      const NumericBinning& binning, int threads) override {
    part_.index_gathered(into, gathered, rows, binning, threads);
  }
  void start_scores(const std::vector<double>& start) override;
  std::vector<std::vector<GapBounds>> threshold_gaps(const std::vector<GapQuery>& queries) override;
  std::vector<RuleReply> rule_queries(const std::vector<RuleQuery>& queries) override;
  void add_scores(const std::vector<ScoreStep>& steps) override { part_.add_scores(scores_.data(), steps); }
  std::vector<RuleHistogram> rule_histograms(int klass, const std::vector<std::vector<Condition>>& removed,
                                             const std::vector<std::vector<Condition>>& rules) override {
    return part_.rule_histograms(klass, removed, rules);
  }
  void end_search() override;
  PatternWeights weigh_with(const std::vector<Rule>& rules) override;
  RuleLossSums rule_loss(const RuleLossQuery& query) override { return part_.rule_loss(query); }

 private:
  RowPart part_;
  std::vector<double> scores_;
  int threads_;
  std::map<std::size_t, NumericBinning> binnings_;  // binning(), by bins: EVC's calibration and the search share it
};

// How RemoteRows reaches its parts (candor/distributed.hpp).
using RowTransport = PartTransport;

// Rows held in parts elsewhere, of `part_rows` rows each, in order, with `schema`; `source` names them in the model.
class RemoteRows : public FitRows {
 public:
  RemoteRows(Schema schema, std::string source, std::vector<std::size_t> part_rows, RowTransport transport);
  const Schema& schema() const override { return schema_; }
  const std::string& source() const override { return source_; }
  std::size_t rows() const override { return total_; }
  std::vector<double> class_counts() override;
  Dataset gather(const std::vector<std::size_t>& rows, std::vector<double>* probabilities = nullptr) override;
  std::vector<double> probabilities(const std::vector<std::size_t>& rows) override;
  NumericBinning binning(std::size_t bins) override;
  EvcCalibration calibrate_evc(const SearchOptions& search, const EvcSettings& settings,
                               const std::vector<int>& classes, int threads) override;
  void index_with(const NumericBinning& binning) override;
  void start_scores(const std::vector<double>& start) override;
  std::vector<std::vector<GapBounds>> threshold_gaps(const std::vector<GapQuery>& queries) override;
  std::vector<RuleReply> rule_queries(const std::vector<RuleQuery>& queries) override;
  void add_scores(const std::vector<ScoreStep>& steps) override;
  std::vector<RuleHistogram> rule_histograms(int klass, const std::vector<std::vector<Condition>>& removed,
                                             const std::vector<std::vector<Condition>>& rules) override;
  void end_search() override;
  PatternWeights weigh_with(const std::vector<Rule>& rules) override;
  RuleLossSums rule_loss(const RuleLossQuery& query) override;
  // The requests sent so far (one to every part counts once) and the bytes they and their replies took.
  std::size_t requests() const { return requests_; }
  std::size_t bytes() const { return bytes_; }

 private:
  std::vector<std::string> ask(const std::vector<std::string>& requests);
  // The replies of each part to `op` on its share of `rows`, and which part and place answer each row.
  std::vector<nlohmann::json> ask_rows(const std::vector<std::size_t>& rows, nlohmann::json request,
                                       std::vector<std::pair<std::size_t, std::size_t>>& place);
  std::vector<std::string> ask_all(const std::string& request);
  void update_all(const std::string& request);
  Schema schema_;
  std::string source_;
  std::vector<std::size_t> part_rows_, part_start_;
  std::size_t total_ = 0;
  RowTransport transport_;
  std::map<std::size_t, NumericBinning> binnings_;
  std::size_t requests_ = 0, bytes_ = 0;
};

// The part's side of RemoteRows: the reply to one request of `ask` (`scores`: the part's, or null before the
// first `update`), and one request of `update`, which moves the part's scores (rows x classes) in place (the
// first sets them). `binning` is the last `share`d value (empty before it). Throws std::invalid_argument for a
// request that is not one of RemoteRows'.
std::string answer_request(RowPart& part, const std::string& request, const std::string& binning, const double* scores);
void update_request(RowPart& part, const std::string& request, const std::string& binning, double* scores);

// A part's rows as bytes (MessagePack: the schema, then each column, the classes and the weights as raw arrays),
// and the rows such bytes hold; rows_of_bytes throws std::invalid_argument for bytes part_bytes did not write.
std::string part_bytes(const Dataset& rows);
Dataset rows_of_bytes(const std::string& bytes);

}  // namespace candor
