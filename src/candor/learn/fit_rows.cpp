#include "candor/learn/fit_rows.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "candor/coverage/bitset.hpp"
#include "candor/data/resampling.hpp"
#include "candor/evc/calibration.hpp"

namespace candor {

using nlohmann::json;

void ExactRuleSums::merge(const ExactRuleSums& other) {
  candor::merge(counts, other.counts);
  gradient.merge(other.gradient);
  curvature.merge(other.curvature);
}

RuleSums ExactRuleSums::value() const { return RuleSums{values(counts), gradient.value(), curvature.value()}; }

void row_probabilities(const double* scores, std::size_t classes, double* p) {
  // The largest score's term is exp(0), exactly 1: not computed (of two classes, half the exponentials).
  const std::size_t top = static_cast<std::size_t>(std::max_element(scores, scores + classes) - scores);
  double sum = 0;
  for (std::size_t c = 0; c < classes; ++c) sum += p[c] = c == top ? 1.0 : std::exp(scores[c] - scores[top]);
  for (std::size_t c = 0; c < classes; ++c) p[c] /= sum;
}

// ---- RowPart ----------------------------------------------------------------------------------------------

RowPart::RowPart(const Dataset& rows) : data_(&rows) {}

RowPart::RowPart(Dataset&& rows) : owned_(std::move(rows)), data_(&*owned_) {}

void RowPart::index_with(const NumericBinning& binning, int threads) {
  if (indexed_with(binning)) return;
  index_.reset();
  asked_.clear();
  by_bin_.clear();
  shared_.clear();
  binning_ = binning;
  index_.emplace(*data_, threads, binning_);
}

std::vector<std::vector<std::uint32_t>> covered_rows(const Dataset& d, const std::vector<Rule>& rules,
                                                     const std::vector<std::size_t>* rows) {
  // A rule's rows are found 64 at a time, condition by condition (a word's later conditions skipped once none of
  // its rows is left), then counted and listed: Rule::covers row by row branched on every condition of every row.
  const std::size_t n = rows ? rows->size() : d.rows(), words = (n + 63) / 64;
  std::vector<std::vector<std::uint32_t>> out(rules.size());
  std::vector<std::uint64_t> fires(words);
  const std::size_t* at = rows ? rows->data() : nullptr;
  auto bits_of = [&](const Condition& c, std::size_t base, std::size_t end) {
    return at ? condition_bits(c, d, base, end, [at](std::size_t i) { return at[i]; })
              : condition_bits(c, d, base, end, [](std::size_t i) { return i; });
  };
  for (std::size_t k = 0; k < rules.size(); ++k) {
    std::size_t count = 0;
    for (std::size_t w = 0; w < words; ++w) {
      const std::size_t base = w * 64, end = std::min(n, base + 64);
      std::uint64_t bits = end - base == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (end - base)) - 1;
      for (const Condition& c : rules[k].conditions) {
        if (!bits) break;
        bits &= bits_of(c, base, end);
      }
      fires[w] = bits;
      count += static_cast<std::size_t>(std::popcount(bits));
    }
    out[k].reserve(count);
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t bits = fires[w]; bits; bits &= bits - 1)
        out[k].push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
  }
  return out;
}

void RowPart::index_gathered(std::optional<CoverageIndex>& into, const Dataset& gathered,
                             const std::vector<std::size_t>& rows, const NumericBinning& binning, int threads) const {
  if (binning.bins > 0 && indexed_with(binning))
    into.emplace(gathered, *index_, rows);
  else
    into.emplace(gathered, threads, binning);
}

const CoverageIndex& RowPart::index() const {
  if (!index_) throw std::logic_error("RowPart: a rule query before the part was indexed");
  return *index_;
}

std::vector<double> RowPart::probabilities(const double* scores, const std::vector<std::size_t>& rows) const {
  const std::size_t classes = data_->num_classes();
  std::vector<double> out(rows.size() * classes);
  for (std::size_t i = 0; i < rows.size(); ++i)
    row_probabilities(scores + rows[i] * classes, classes, &out[i * classes]);
  return out;
}

NumericBinning RowPart::bin_ranges(NumericBinning bounds) const {
  add_bin_ranges(bounds, *data_);
  return bounds;
}

const RowPart::RowsByBin& RowPart::rows_by_bin(int attribute) const {
  if (by_bin_.empty()) by_bin_.resize(data_->num_attributes());
  std::optional<RowsByBin>& out = by_bin_[static_cast<std::size_t>(attribute)];
  if (out) return *out;
  const std::vector<std::uint16_t>& bin = index().bin_of(attribute);
  std::size_t bins = 0;
  for (const std::uint16_t b : bin)
    if (b != CoverageIndex::kNoBin) bins = std::max<std::size_t>(bins, b + std::size_t{1});
  out.emplace();
  out->start.assign(bins + 1, 0);
  for (const std::uint16_t b : bin)
    if (b != CoverageIndex::kNoBin) ++out->start[b + std::size_t{1}];
  for (std::size_t b = 0; b < bins; ++b) out->start[b + 1] += out->start[b];
  out->rows.resize(out->start[bins]);
  std::vector<std::uint32_t> next(out->start.begin(), out->start.end() - 1);
  for (std::size_t r = 0; r < bin.size(); ++r)
    if (bin[r] != CoverageIndex::kNoBin) out->rows[next[bin[r]]++] = static_cast<std::uint32_t>(r);
  return *out;
}

template <class Covered>
ThresholdGap RowPart::gap_where(const Condition& c, const Covered& covered) const {
  // The gap's ends are the values nearest the threshold, on either side, of the rows `covered` accepts. So the
  // rows are read outwards from the threshold in value order until such a row is found on each side: a few rows
  // near the threshold, where covering the other conditions' rows would pass over all of them.
  const std::vector<double>& x = data_->columns[static_cast<std::size_t>(c.attribute)].values;
  ThresholdGap gap;
  const CoverageIndex& ix = index();
  if (!ix.binned(c.attribute)) {
    // Exact cuts: the attribute's rows by ascending value (missing values left out).
    const std::vector<std::uint32_t>& sorted = ix.sorted_rows(c.attribute);
    const auto above =
        std::partition_point(sorted.begin(), sorted.end(), [&](std::uint32_t r) { return x[r] <= c.threshold; });
    for (auto at = above; at != sorted.begin();)
      if (covered(*--at)) {
        gap.below = x[*at];
        break;
      }
    for (auto at = above; at != sorted.end(); ++at)
      if (covered(*at)) {
        gap.above = x[*at];
        break;
      }
    return gap;
  }
  // Binned: the threshold's bin holds values on both sides of it, every lower bin values below it and every
  // higher bin values above it (NumericBinning::bin_of), so the nearest covered value of a side is in the first
  // bin, going outwards, that holds a covered row.
  const RowsByBin& bins = rows_by_bin(c.attribute);
  const std::size_t count = bins.start.size() - 1;
  auto scan = [&](std::size_t b) {
    bool found = false;
    for (std::uint32_t k = bins.start[b]; k < bins.start[b + 1]; ++k) {
      const std::uint32_t r = bins.rows[k];
      if (!covered(r)) continue;
      found = true;
      if (x[r] <= c.threshold)
        gap.below = std::max(gap.below, x[r]);
      else
        gap.above = std::min(gap.above, x[r]);
    }
    return found;
  };
  const std::size_t home = std::min(binning_.bin_of(static_cast<std::size_t>(c.attribute), c.threshold), count);
  if (home < count) scan(home);
  if (gap.below == -std::numeric_limits<double>::infinity())
    for (std::size_t b = home; b-- > 0;)
      if (scan(b)) break;
  if (gap.above == std::numeric_limits<double>::infinity())
    for (std::size_t b = home + 1; b < count; ++b)
      if (scan(b)) break;
  return gap;
}

std::vector<GapBounds> RowPart::threshold_gaps(const std::vector<Condition>& conditions, std::size_t from) const {
  if (from >= conditions.size()) throw std::invalid_argument("threshold_gaps: no condition at the first position");
  const Dataset& d = *data_;
  std::vector<GapBounds> out(conditions.size() - from);
  // The numeric conditions before the one asked of, from `from` on, which move before it: the values their
  // moves may cross, inside this part's gap over the rows the others surely cover (the gap over every row holds
  // the move, and it lies within each part's gap over fewer rows). A row outside every such band is covered or
  // not as the conditions stand.
  struct Band {
    std::size_t at;
    double below, above;
  };
  std::vector<Band> bands;
  auto in_band = [&](const Band& b, std::uint32_t r) {
    const double v = d.columns[static_cast<std::size_t>(conditions[b.at].attribute)].values[r];
    return v > b.below && v < b.above;  // a missing value is covered by no move
  };
  for (std::size_t p = from; p < conditions.size(); ++p) {
    const Condition& c = conditions[p];
    if (c.op != Op::le && c.op != Op::gt) continue;
    auto certain = [&](std::uint32_t r) {
      for (const Band& b : bands)
        if (in_band(b, r)) return false;
      for (std::size_t k = 0; k < conditions.size(); ++k)
        if (k != p && !conditions[k].covers(d, r)) return false;
      return true;
    };
    auto possible = [&](std::uint32_t r) {
      for (std::size_t k = 0; k < conditions.size(); ++k) {
        if (k == p || conditions[k].covers(d, r)) continue;
        const auto moving = std::find_if(bands.begin(), bands.end(), [&](const Band& b) { return b.at == k; });
        if (moving == bands.end() || !in_band(*moving, r)) return false;
      }
      return true;
    };
    GapBounds& g = out[p - from];
    g.certain = gap_where(c, certain);
    g.possible = bands.empty() ? g.certain : gap_where(c, possible);
    bands.push_back(Band{p, g.certain.below, g.certain.above});
  }
  return out;
}

namespace {

// Class counts of `rows` as exact sums: of unit weights the index's (whole numbers, exact), else every weight.
std::vector<ExactSum> exact_class_counts(const CoverageIndex* index, const Dataset& d, const Bitset& rows) {
  std::vector<ExactSum> out(d.num_classes());
  if (index && index->unit_weights()) {
    const std::vector<double> counts = index->class_counts(rows);
    for (std::size_t c = 0; c < counts.size(); ++c) out[c].add(counts[c]);
    return out;
  }
  rows.for_each([&](std::size_t r) {
    if (d.y[r] != kMissing) out[static_cast<std::size_t>(d.y[r])].add(d.weights[r]);
  });
  return out;
}

}  // namespace

std::vector<ExactSum> RowPart::class_counts() const {
  return exact_class_counts(nullptr, *data_, Bitset(data_->rows(), true));
}

const Bitset& RowPart::rows_covered(const std::vector<Condition>& conditions) const {
  for (const auto& [asked, rows] : asked_)
    if (asked == conditions) return rows;
  // The newest are the round's. Covering asks of one rule at a time and never adds scores, so the oldest go.
  if (asked_.size() >= kept_coverages(data_->num_classes())) asked_.pop_front();
  return asked_.emplace_back(conditions, index().covered(conditions)).second;
}

ExactRuleSums RowPart::rule_sums(const std::vector<Condition>& conditions, int klass, const double* scores) const {
  const CoverageIndex& ix = index();
  const Bitset& covered = rows_covered(conditions);
  ExactRuleSums out;
  out.counts = exact_class_counts(&ix, *data_, covered);
  if (!scores) return out;
  const Dataset& d = *data_;
  const std::size_t classes = d.num_classes();
  std::vector<double> p(classes);
  covered.for_each([&](std::size_t r) {
    if (d.y[r] == kMissing) return;
    row_probabilities(scores + r * classes, classes, p.data());
    const double pc = p[static_cast<std::size_t>(klass)];
    out.gradient.add(d.weights[r] * ((d.y[r] == klass ? 1.0 : 0.0) - pc));
    out.curvature.add(d.weights[r] * pc * (1 - pc));
  });
  return out;
}

std::vector<char> RowPart::same_rows(const std::vector<Condition>& conditions,
                                     const std::vector<std::vector<Condition>>& others) const {
  std::vector<char> out;
  if (others.empty()) return out;
  const CoverageIndex& ix = index();
  const Bitset& covered = rows_covered(conditions);
  for (const auto& o : others) out.push_back(ix.covered(o) == covered ? 1 : 0);
  return out;
}

void RowPart::add_scores(double* scores, const std::vector<ScoreStep>& steps) const {
  const std::size_t classes = data_->num_classes();
  for (const ScoreStep& s : steps)
    rows_covered(s.conditions).for_each([&](std::size_t r) {
      scores[r * classes + static_cast<std::size_t>(s.klass)] += s.delta;
    });
  asked_.clear();
}

std::vector<RuleHistogram> RowPart::rule_histograms(int klass, const std::vector<std::vector<Condition>>& removed,
                                                    const std::vector<std::vector<Condition>>& rules) {
  const CoverageIndex& ix = index();
  if (klass < 0 || static_cast<std::size_t>(klass) >= ix.num_classes())
    throw std::invalid_argument("rule_histograms: no such class");
  const bool more = left_.size() == ix.rows() && klass == left_class_ && removed.size() >= left_removed_.size() &&
                    std::equal(left_removed_.begin(), left_removed_.end(), removed.begin());
  if (!more) {
    left_ = Bitset(ix.rows(), true);
    left_removed_.clear();
  }
  for (std::size_t k = left_removed_.size(); k < removed.size(); ++k)
    left_.subtract(ix.covered(removed[k]) & ix.class_rows(klass));
  left_class_ = klass;
  left_removed_ = removed;
  return candor::rule_histograms(ix, left_, rules);
}

void RowPart::patterns_with(const std::vector<Rule>& rules) {
  // The search is over once the weights are fitted: its index goes (patterns read the rows themselves), and so
  // do the last patterns, before the next are made.
  drop_index();
  patterns_.reset();
  shared_rules_.clear();
  patterns_ = row_patterns(data_->y, data_->weights, covered_rows(*data_, rules));
  // No sum reads a row's pattern.
  patterns_->of_row = {};
}

const RowPatterns& RowPart::patterns() const {
  if (!patterns_) throw std::logic_error("RowPart: the weights' sums asked for before their rules were given");
  return *patterns_;
}

PatternWeights RowPart::pattern_weights() const { return candor::pattern_weights(patterns(), data_->num_classes()); }

RuleLossSums RowPart::rule_loss(const RuleLossQuery& query) const {
  return candor::rule_loss(patterns(), data_->num_classes(), query);
}

std::size_t RowPart::pattern_bytes() const {
  if (!patterns_) return 0;
  std::size_t out = patterns_->y.capacity() * sizeof(int) + patterns_->w.capacity() * sizeof(double);
  for (const auto& c : patterns_->covered) out += c.capacity() * sizeof(std::uint32_t);
  return out;
}

void shorten_thresholds(FitRows& rows, const std::vector<std::vector<Condition>*>& rules) {
  auto numeric = [](const Condition& c) { return c.op == Op::le || c.op == Op::gt; };
  std::vector<std::size_t> from(rules.size(), 0);  // each rule's first condition still to move
  for (;;) {
    std::vector<GapQuery> queries;
    std::vector<std::size_t> of;
    for (std::size_t k = 0; k < rules.size(); ++k) {
      const auto& conditions = *rules[k];
      while (from[k] < conditions.size() && !numeric(conditions[from[k]])) ++from[k];
      if (from[k] == conditions.size()) continue;
      queries.push_back(GapQuery{conditions, from[k]});
      of.push_back(k);
    }
    if (queries.empty()) break;
    const std::vector<std::vector<GapBounds>> bounds = rows.threshold_gaps(queries);
    for (std::size_t q = 0; q < of.size(); ++q) {
      auto& conditions = *rules[of[q]];
      std::size_t p = from[of[q]];
      for (; p < conditions.size(); ++p) {
        if (!numeric(conditions[p])) continue;
        const GapBounds& gap = bounds[q][p - from[of[q]]];
        if (p != from[of[q]] && !gap.settled()) break;  // the first is settled: no condition before it moves
        move_into_gap(conditions[p], gap.certain);
      }
      from[of[q]] = p;
    }
  }
}

// ---- LocalRows --------------------------------------------------------------------------------------------

Dataset LocalRows::gather(const std::vector<std::size_t>& rows, std::vector<double>* probabilities) {
  if (probabilities) *probabilities = LocalRows::probabilities(rows);
  return part_.data().subset(rows);
}

std::vector<double> LocalRows::probabilities(const std::vector<std::size_t>& rows) {
  return part_.probabilities(scores_.data(), rows);
}

NumericBinning LocalRows::binning(std::size_t bins) {
  auto known = binnings_.find(bins);
  if (known != binnings_.end()) return known->second;
  return binnings_[bins] = numeric_binning(part_.data(), bins);
}

EvcCalibration LocalRows::calibrate_evc(const SearchOptions& search, const EvcSettings& settings,
                                        const std::vector<int>& classes, int threads) {
  // Large binned data calibrates on a sample cut by the bins of every row, which the search cuts by too.
  const bool sampled = calibrates_on_sample(part_.rows(), search);
  const NumericBinning whole = sampled ? binning(search.numeric_bins) : NumericBinning{};
  return calibrate_evc_cached(part_.data(), search, settings, classes, threads, sampled ? &whole : nullptr);
}

std::vector<std::vector<GapBounds>> LocalRows::threshold_gaps(const std::vector<GapQuery>& queries) {
  std::vector<std::vector<GapBounds>> out;
  for (const GapQuery& q : queries) out.push_back(part_.threshold_gaps(q.conditions, q.from));
  return out;
}

std::vector<RuleReply> LocalRows::rule_queries(const std::vector<RuleQuery>& queries) {
  std::vector<RuleReply> out;
  for (const RuleQuery& q : queries)
    out.push_back(RuleReply{part_.rule_sums(q.conditions, q.klass, scores_.data()).value(),
                            part_.same_rows(q.conditions, q.others)});
  return out;
}

void LocalRows::start_scores(const std::vector<double>& start) {
  scores_.resize(part_.rows() * start.size());
  for (std::size_t r = 0; r < part_.rows(); ++r)
    std::copy(start.begin(), start.end(), scores_.begin() + r * start.size());
}

void LocalRows::end_search() {
  part_.drop_index();
  scores_ = {};
}

PatternWeights LocalRows::weigh_with(const std::vector<Rule>& rules) {
  part_.patterns_with(rules);
  return part_.pattern_weights();
}

// ---- The requests -----------------------------------------------------------------------------------------

namespace {

json condition_json(const Condition& c) {
  return json::array({c.attribute, static_cast<int>(c.op), c.value, c.threshold});
}

json conditions_json(const std::vector<Condition>& conditions) {
  json out = json::array();
  for (const Condition& c : conditions) out.push_back(condition_json(c));
  return out;
}

std::vector<Condition> conditions_of(const json& j) {
  std::vector<Condition> out;
  for (const json& c : j) {
    Condition k;
    k.attribute = c.at(0).get<int>();
    k.op = static_cast<Op>(c.at(1).get<int>());
    k.value = c.at(2).get<int>();
    k.threshold = c.at(3).get<double>();
    out.push_back(k);
  }
  return out;
}

std::string pack(const json& j) {
  const std::vector<std::uint8_t> bytes = json::to_msgpack(j);
  return std::string(bytes.begin(), bytes.end());
}

json unpack(const std::string& bytes) { return json::from_msgpack(bytes); }

json binning_json(const NumericBinning& b) {
  return json{{"bins", b.bins}, {"upper", b.upper}, {"low", b.low}, {"high", b.high}};
}

NumericBinning binning_of(const json& j) {
  NumericBinning b;
  b.bins = j.at("bins").get<std::size_t>();
  b.upper = j.at("upper").get<std::vector<std::vector<double>>>();
  b.low = j.at("low").get<std::vector<std::vector<double>>>();
  b.high = j.at("high").get<std::vector<std::vector<double>>>();
  return b;
}

// The part's rows at `rows` (its own numbering): each attribute's codes or values, the classes and weights.
json rows_json(const Dataset& d, const std::vector<std::size_t>& rows) {
  json columns = json::array();
  for (std::size_t a = 0; a < d.num_attributes(); ++a) {
    if (d.attribute(a).is_nominal()) {
      std::vector<int> codes;
      for (std::size_t r : rows) codes.push_back(d.columns[a].codes[r]);
      columns.push_back(codes);
    } else {
      std::vector<double> values;
      for (std::size_t r : rows) values.push_back(d.columns[a].values[r]);
      columns.push_back(values);
    }
  }
  std::vector<int> y;
  std::vector<double> w;
  for (std::size_t r : rows) {
    y.push_back(d.y[r]);
    w.push_back(d.weights[r]);
  }
  return json{{"columns", columns}, {"y", y}, {"w", w}};
}

json sums_json(const std::vector<ExactSum>& sums) {
  json out = json::array();
  for (const ExactSum& s : sums) out.push_back(s.digits());
  return out;
}

std::vector<ExactSum> sums_of(const json& j) {
  std::vector<ExactSum> out;
  for (const json& s : j) out.push_back(ExactSum::from_digits(s.get<std::vector<std::int64_t>>()));
  return out;
}

// Raw arrays, as this machine lays them out: the bytes travel between the workers of one cluster.
template <class T>
json raw(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
  return json::binary(std::vector<std::uint8_t>(p, p + v.size() * sizeof(T)));
}

// The raw array of `n` values of j, or (n = SIZE_MAX) of as many values as its bytes hold.
template <class T>
std::vector<T> array_of(const json& j, const char* what, std::size_t n = SIZE_MAX) {
  if (!j.is_binary()) throw std::invalid_argument(std::string(what) + " is not an array of bytes");
  const auto& bytes = j.get_binary();
  if (n == SIZE_MAX) {
    if (bytes.size() % sizeof(T)) throw std::invalid_argument(std::string(what) + " is no whole number of values");
    n = bytes.size() / sizeof(T);
  }
  if (bytes.size() != n * sizeof(T)) throw std::invalid_argument(std::string(what) + " of another length");
  std::vector<T> out(n);
  if (n) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

const char* op_of(const json& request) { return request.at("op").get_ref<const std::string&>().c_str(); }

json histogram_json(const RuleHistogram& h) {
  json cells = json::array(), weights = json::array();
  for (const auto& c : h.cell_rows) cells.push_back(raw(c));
  for (const auto& w : h.cell_weights) weights.push_back(raw(w));
  return json{{"rows", h.rows}, {"counts", h.counts}, {"unit", h.unit_weights}, {"cells", cells}, {"weights", weights}};
}

RuleHistogram histogram_of(const json& j) {
  RuleHistogram h;
  h.rows = j.at("rows").get<std::size_t>();
  h.counts = j.at("counts").get<std::vector<double>>();
  h.unit_weights = j.at("unit").get<bool>();
  for (const json& c : j.at("cells")) h.cell_rows.push_back(array_of<std::uint32_t>(c, "rule_histograms: a table"));
  for (const json& w : j.at("weights"))
    h.cell_weights.push_back(array_of<double>(w, "rule_histograms: a table's weights"));
  if (h.cell_weights.size() != (h.unit_weights ? 0 : h.cell_rows.size()))
    throw std::invalid_argument("rule_histograms: a table's weights");
  for (std::size_t a = 0; a < h.cell_weights.size(); ++a)
    if (h.cell_weights[a].size() != h.cell_rows[a].size())
      throw std::invalid_argument("rule_histograms: a table's weights of another length");
  return h;
}

json rules_json(const std::vector<Rule>& rules) {
  json out = json::array();
  for (const Rule& r : rules) out.push_back(conditions_json(r.conditions));
  return out;
}

// Rules of the conditions alone: what their patterns need.
std::vector<Rule> rules_of(const json& j) {
  std::vector<Rule> out;
  for (const json& c : j) {
    Rule r;
    r.conditions = conditions_of(c);
    out.push_back(std::move(r));
  }
  return out;
}

json pattern_weights_json(const PatternWeights& p) {
  json rules = json::array();
  for (const auto& r : p.rules) rules.push_back(sums_json(r));
  return json{{"classes", sums_json(p.classes)}, {"rules", rules}};
}

PatternWeights pattern_weights_of(const json& j) {
  PatternWeights p;
  p.classes = sums_of(j.at("classes"));
  for (const json& r : j.at("rules")) p.rules.push_back(sums_of(r));
  return p;
}

// Curvature counts as their high and low 64 bits, two numbers each.
json curvature_json(const std::vector<CurvatureSteps>& counts) {
  json out = json::array();
  for (CurvatureSteps c : counts) {
    out.push_back(static_cast<std::int64_t>(c >> 64));
    out.push_back(static_cast<std::uint64_t>(c));
  }
  return out;
}

std::vector<CurvatureSteps> curvature_of(const json& j) {
  if (!j.is_array() || j.size() % 2 != 0) throw std::invalid_argument("rule_loss: curvature counts come in pairs");
  std::vector<CurvatureSteps> out;
  for (std::size_t e = 0; e < j.size(); e += 2) {
    const auto high = j[e].get<std::int64_t>();
    const auto low = j[e + 1].get<std::uint64_t>();
    out.push_back(static_cast<CurvatureSteps>(high) * (CurvatureSteps{1} << 64) + static_cast<CurvatureSteps>(low));
  }
  return out;
}

json rule_loss_query_json(const RuleLossQuery& q) {
  return json{{"op", "rule_loss"},          {"logits", q.logits},       {"positive", q.positive},
              {"rule_logit", q.rule_logit}, {"rule_sign", q.rule_sign}, {"intercepts", q.intercepts},
              {"rules", q.rules},           {"curvature", q.curvature}};
}

RuleLossQuery rule_loss_query_of(const json& j) {
  RuleLossQuery q;
  q.logits = j.at("logits").get<int>();
  q.positive = j.at("positive").get<int>();
  q.rule_logit = j.at("rule_logit").get<std::vector<int>>();
  q.rule_sign = j.at("rule_sign").get<std::vector<double>>();
  q.intercepts = j.at("intercepts").get<std::vector<double>>();
  q.rules = j.at("rules").get<std::vector<double>>();
  q.curvature = j.at("curvature").get<bool>();
  return q;
}

json rule_loss_json(const RuleLossSums& s) {
  return json{{"loss", s.loss.digits()},
              {"intercepts", sums_json(s.intercepts)},
              {"rules", sums_json(s.rules)},
              {"curvature", curvature_json(s.curvature)}};
}

RuleLossSums rule_loss_of(const json& j) {
  RuleLossSums s;
  s.loss = ExactSum::from_digits(j.at("loss").get<std::vector<std::int64_t>>());
  s.intercepts = sums_of(j.at("intercepts"));
  s.rules = sums_of(j.at("rules"));
  s.curvature = curvature_of(j.at("curvature"));
  return s;
}

}  // namespace

void RowPart::index_with_shared(const std::string& binning, const std::string& op) {
  if (binning.empty()) throw std::invalid_argument(op + ": a rule query before the binning was shared");
  if (index_ && shared_ == binning) return;
  const json shared = unpack(binning);
  if (!shared.contains("bins")) throw std::invalid_argument(op + ": a rule query, but what was shared is no binning");
  index_with(binning_of(shared), 1);
  shared_ = binning;
}

void RowPart::patterns_with_shared(const std::string& rules, const std::string& op) {
  if (patterns_ && !shared_rules_.empty() && shared_rules_ == rules) return;
  const json shared = rules.empty() ? json() : unpack(rules);
  if (!shared.is_object() || !shared.contains("rules"))
    throw std::invalid_argument(op + ": the weights' sums asked for before their rules were shared");
  patterns_with(rules_of(shared.at("rules")));
  shared_rules_ = rules;
}

std::string answer_request(RowPart& part, const std::string& request_bytes, const std::string& binning,
                           const double* scores) {
  const json request = unpack(request_bytes);
  const std::string op = op_of(request);
  if (op == "class_counts") return pack(sums_json(part.class_counts()));
  if (op == "gather" || op == "probabilities") {
    const auto rows = request.at("rows").get<std::vector<std::size_t>>();
    for (std::size_t r : rows)
      if (r >= part.rows()) throw std::invalid_argument(op + ": a row past the part's rows");
    std::vector<double> p;
    if (op == "probabilities" || request.value("probabilities", false)) {
      if (!scores) throw std::invalid_argument(op + ": probabilities asked for before the scores started");
      p = part.probabilities(scores, rows);
    }
    if (op == "probabilities") return pack(p);
    json out = rows_json(part.data(), rows);
    if (!p.empty()) out["p"] = p;
    return pack(out);
  }
  if (op == "bin_ranges") return pack(binning_json(part.bin_ranges(binning_of(request.at("bounds")))));
  if (op == "pattern_weights" || op == "rule_loss") {
    // The weights' sums read the patterns of the shared rules.
    part.patterns_with_shared(binning, op);
    if (op == "pattern_weights") return pack(pattern_weights_json(part.pattern_weights()));
    return pack(rule_loss_json(part.rule_loss(rule_loss_query_of(request))));
  }
  // The rule queries count on the index of the shared binning.
  part.index_with_shared(binning, op);
  if (op == "threshold_gaps") {
    json out = json::array();
    for (const json& q : request.at("queries")) {
      json positions = json::array();
      for (const GapBounds& g : part.threshold_gaps(conditions_of(q.at(0)), q.at(1).get<std::size_t>()))
        positions.push_back(json::array({g.certain.below, g.certain.above, g.possible.below, g.possible.above}));
      out.push_back(std::move(positions));
    }
    return pack(out);
  }
  if (op == "rule_histograms") {
    std::vector<std::vector<Condition>> removed, rules;
    for (const json& c : request.at("removed")) removed.push_back(conditions_of(c));
    for (const json& c : request.at("rules")) rules.push_back(conditions_of(c));
    json out = json::array();
    for (const RuleHistogram& h : part.rule_histograms(request.at("class").get<int>(), removed, rules))
      out.push_back(histogram_json(h));
    return pack(out);
  }
  if (op == "rule_queries") {
    json out = json::array();
    for (const json& q : request.at("queries")) {
      const std::vector<Condition> conditions = conditions_of(q.at(0));
      const ExactRuleSums s = part.rule_sums(conditions, q.at(1).get<int>(), scores);
      std::vector<std::vector<Condition>> others;
      for (const json& o : q.at(2)) others.push_back(conditions_of(o));
      const std::vector<char> same = part.same_rows(conditions, others);
      out.push_back(json{{"counts", sums_json(s.counts)},
                         {"gradient", s.gradient.digits()},
                         {"curvature", s.curvature.digits()},
                         {"same", std::vector<int>(same.begin(), same.end())}});
    }
    return pack(out);
  }
  throw std::invalid_argument("a request of unknown kind '" + op + "'");
}

void update_request(RowPart& part, const std::string& request_bytes, const std::string& binning, double* scores) {
  const json request = unpack(request_bytes);
  const std::string op = op_of(request);
  const std::size_t classes = part.data().num_classes();
  if (op == "start") {
    const auto start = request.at("start").get<std::vector<double>>();
    if (start.size() != classes) throw std::invalid_argument("start: one score per class");
    for (std::size_t r = 0; r < part.rows(); ++r) std::copy(start.begin(), start.end(), scores + r * classes);
    return;
  }
  if (op == "add_scores") {
    part.index_with_shared(binning, op);
    std::vector<ScoreStep> steps;
    for (const json& s : request.at("steps"))
      steps.push_back(ScoreStep{conditions_of(s.at(0)), s.at(1).get<int>(), s.at(2).get<double>()});
    part.add_scores(scores, steps);
    return;
  }
  throw std::invalid_argument("an update of unknown kind '" + op + "'");
}

namespace {

json attribute_json(const Attribute& a) {
  return json{{"name", a.name}, {"nominal", a.is_nominal()}, {"values", a.values}};
}

Attribute attribute_of(const json& j) {
  Attribute a;
  a.name = j.at("name").get<std::string>();
  a.type = j.at("nominal").get<bool>() ? AttributeType::nominal : AttributeType::numeric;
  a.values = j.at("values").get<std::vector<std::string>>();
  return a;
}

}  // namespace

std::string part_bytes(const Dataset& rows) {
  json attributes = json::array(), columns = json::array();
  for (std::size_t a = 0; a < rows.num_attributes(); ++a) {
    attributes.push_back(attribute_json(rows.attribute(a)));
    columns.push_back(rows.attribute(a).is_nominal() ? raw(rows.columns[a].codes) : raw(rows.columns[a].values));
  }
  return pack(json{{"source", rows.source},
                   {"attributes", attributes},
                   {"class", attribute_json(rows.schema.class_attribute)},
                   {"rows", rows.rows()},
                   {"columns", columns},
                   {"y", raw(rows.y)},
                   {"w", raw(rows.weights)}});
}

Dataset rows_of_bytes(const std::string& bytes) {
  try {
    const json j = unpack(bytes);
    Dataset d;
    d.source = j.at("source").get<std::string>();
    for (const json& a : j.at("attributes")) d.schema.attributes.push_back(attribute_of(a));
    d.schema.class_attribute = attribute_of(j.at("class"));
    const auto n = j.at("rows").get<std::size_t>();
    const json& columns = j.at("columns");
    if (columns.size() != d.num_attributes()) throw std::invalid_argument("part bytes: a column per attribute");
    d.columns.resize(d.num_attributes());
    for (std::size_t a = 0; a < d.num_attributes(); ++a) {
      if (d.attribute(a).is_nominal()) {
        d.columns[a].codes = array_of<int>(columns.at(a), "part bytes: a column", n);
      } else {
        d.columns[a].values = array_of<double>(columns.at(a), "part bytes: a column", n);
      }
    }
    d.y = array_of<int>(j.at("y"), "part bytes: the classes", n);
    d.weights = array_of<double>(j.at("w"), "part bytes: the weights", n);
    if (const std::string why = invalid_rows(d); !why.empty()) throw std::invalid_argument("part bytes: " + why);
    return d;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("part bytes: ") + e.what());
  }
}

// ---- RemoteRows -------------------------------------------------------------------------------------------

RemoteRows::RemoteRows(Schema schema, std::string source, std::vector<std::size_t> part_rows, RowTransport transport)
    : schema_(std::move(schema)),
      source_(std::move(source)),
      part_rows_(std::move(part_rows)),
      transport_(std::move(transport)) {
  if (part_rows_.empty()) throw std::invalid_argument("a fit across parts needs at least one part");
  for (std::size_t n : part_rows_) {
    part_start_.push_back(total_);
    total_ += n;
  }
}

std::vector<std::string> RemoteRows::ask(const std::vector<std::string>& requests) {
  ++requests_;
  for (const std::string& r : requests) bytes_ += r.size();
  std::vector<std::string> replies = transport_.ask(requests);
  if (replies.size() != requests.size()) throw std::runtime_error("the transport answered for another number of parts");
  for (const std::string& r : replies) bytes_ += r.size();
  return replies;
}

std::vector<std::string> RemoteRows::ask_all(const std::string& request) {
  return ask(std::vector<std::string>(part_rows_.size(), request));
}

void RemoteRows::update_all(const std::string& request) {
  ++requests_;
  bytes_ += request.size() * part_rows_.size();
  transport_.update(std::vector<std::string>(part_rows_.size(), request));
}

std::vector<double> RemoteRows::class_counts() {
  std::vector<ExactSum> out(schema_.class_attribute.values.size());
  for (const std::string& reply : ask_all(pack(json{{"op", "class_counts"}}))) merge(out, sums_of(unpack(reply)));
  return values(out);
}

std::vector<json> RemoteRows::ask_rows(const std::vector<std::size_t>& rows, json request,
                                       std::vector<std::pair<std::size_t, std::size_t>>& place) {
  // Each part is asked for its own rows, in the order asked.
  const std::size_t parts = part_rows_.size();
  std::vector<std::vector<std::size_t>> local(parts);
  place.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] >= total_) throw std::invalid_argument("a request for a row past the rows");
    const auto k = static_cast<std::size_t>(std::upper_bound(part_start_.begin(), part_start_.end(), rows[i]) -
                                            part_start_.begin() - 1);
    place[i] = {k, local[k].size()};
    local[k].push_back(rows[i] - part_start_[k]);
  }
  std::vector<std::string> requests;
  for (std::size_t k = 0; k < parts; ++k) {
    request["rows"] = local[k];
    requests.push_back(pack(request));
  }
  std::vector<json> replies;
  for (const std::string& r : ask(requests)) replies.push_back(unpack(r));
  return replies;
}

Dataset RemoteRows::gather(const std::vector<std::size_t>& rows, std::vector<double>* probabilities) {
  std::vector<std::pair<std::size_t, std::size_t>> place;
  const std::vector<json> replies =
      ask_rows(rows, json{{"op", "gather"}, {"probabilities", probabilities != nullptr}}, place);
  Dataset out;
  out.source = source_;
  out.schema = schema_;
  const std::size_t parts = part_rows_.size(), na = schema_.attributes.size();
  const std::size_t classes = schema_.class_attribute.values.size();
  out.columns.resize(na);
  if (probabilities) probabilities->assign(rows.size() * classes, 0.0);
  std::vector<const json*> column_of(parts * na);
  for (std::size_t k = 0; k < parts; ++k)
    for (std::size_t a = 0; a < na; ++a) column_of[k * na + a] = &replies[k].at("columns").at(a);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto [k, j] = place[i];
    for (std::size_t a = 0; a < na; ++a) {
      const json& column = *column_of[k * na + a];
      if (schema_.attributes[a].is_nominal())
        out.columns[a].codes.push_back(column.at(j).get<int>());
      else
        out.columns[a].values.push_back(column.at(j).get<double>());
    }
    out.y.push_back(replies[k].at("y").at(j).get<int>());
    out.weights.push_back(replies[k].at("w").at(j).get<double>());
    out.lines.push_back(rows[i] + 1);
    if (probabilities)
      for (std::size_t c = 0; c < classes; ++c)
        (*probabilities)[i * classes + c] = replies[k].at("p").at(j * classes + c).get<double>();
  }
  return out;
}

std::vector<double> RemoteRows::probabilities(const std::vector<std::size_t>& rows) {
  std::vector<std::pair<std::size_t, std::size_t>> place;
  const std::vector<json> replies = ask_rows(rows, json{{"op", "probabilities"}}, place);
  const std::size_t classes = schema_.class_attribute.values.size();
  std::vector<double> out(rows.size() * classes);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t c = 0; c < classes; ++c)
      out[i * classes + c] = replies[place[i].first].at(place[i].second * classes + c).get<double>();
  return out;
}

NumericBinning RemoteRows::binning(std::size_t bins) {
  auto known = binnings_.find(bins);
  if (known != binnings_.end()) return known->second;
  // numeric_binning's: bounds from the spread sample, ranges from every row, merged part by part.
  const Dataset sample = gather(spread_rows(total_, std::min(total_, kBinSampleRows)));
  const NumericBinning bounds = binning_bounds(sample, bins);
  std::optional<NumericBinning> out;
  for (const std::string& reply : ask_all(pack(json{{"op", "bin_ranges"}, {"bounds", binning_json(bounds)}}))) {
    const NumericBinning part = binning_of(unpack(reply));
    if (!out)
      out = part;
    else
      merge_bin_ranges(*out, part);
  }
  return binnings_[bins] = *out;
}

EvcCalibration RemoteRows::calibrate_evc(const SearchOptions& search, const EvcSettings& settings,
                                         const std::vector<int>& classes, int threads) {
  if (search.numeric_bins == 0)
    throw std::invalid_argument(
        "a fit across workers cuts numeric attributes into bins (--numeric-bins 0, exact cuts, needs every row in "
        "one process)");
  // calibrate_evc's rows: all of them up to kCalibrationRows, else its spread sample cut by the bins of all.
  if (!calibrates_on_sample(total_, search)) {
    const Dataset all = gather(spread_rows(total_, total_));
    return calibrate_evc_cached(all, search, settings, classes, threads);
  }
  const Dataset sample = gather(spread_rows(total_, kCalibrationRows));
  return candor::calibrate_evc(sample, binning(search.numeric_bins), search, settings, classes, threads);
}

void RemoteRows::index_with(const NumericBinning& binning) {
  const std::string shared = pack(binning_json(binning));
  ++requests_;
  bytes_ += shared.size() * part_rows_.size();
  transport_.share(shared);
}

void RemoteRows::start_scores(const std::vector<double>& start) {
  update_all(pack(json{{"op", "start"}, {"start", start}}));
}

std::vector<std::vector<GapBounds>> RemoteRows::threshold_gaps(const std::vector<GapQuery>& queries) {
  std::vector<std::vector<GapBounds>> out(queries.size());
  if (queries.empty()) return out;
  json list = json::array();
  for (std::size_t k = 0; k < queries.size(); ++k) {
    list.push_back(json::array({conditions_json(queries[k].conditions), queries[k].from}));
    out[k].resize(queries[k].conditions.size() - queries[k].from);
  }
  for (const std::string& reply : ask_all(pack(json{{"op", "threshold_gaps"}, {"queries", list}}))) {
    const json gaps = unpack(reply);
    for (std::size_t k = 0; k < out.size(); ++k)
      for (std::size_t p = 0; p < out[k].size(); ++p) {
        const json& g = gaps.at(k).at(p);
        out[k][p].merge(GapBounds{ThresholdGap{g.at(0).get<double>(), g.at(1).get<double>()},
                                  ThresholdGap{g.at(2).get<double>(), g.at(3).get<double>()}});
      }
  }
  return out;
}

std::vector<RuleReply> RemoteRows::rule_queries(const std::vector<RuleQuery>& queries) {
  if (queries.empty()) return {};
  json list = json::array();
  for (const RuleQuery& q : queries) {
    json others = json::array();
    for (const auto& o : q.others) others.push_back(conditions_json(o));
    list.push_back(json::array({conditions_json(q.conditions), q.klass, others}));
  }
  std::vector<ExactRuleSums> sums(queries.size());
  std::vector<RuleReply> out(queries.size());
  for (std::size_t k = 0; k < queries.size(); ++k) out[k].same.assign(queries[k].others.size(), 1);
  for (const std::string& reply : ask_all(pack(json{{"op", "rule_queries"}, {"queries", list}}))) {
    const json replies = unpack(reply);
    for (std::size_t k = 0; k < queries.size(); ++k) {
      const json& r = replies.at(k);
      sums[k].merge(ExactRuleSums{sums_of(r.at("counts")),
                                  ExactSum::from_digits(r.at("gradient").get<std::vector<std::int64_t>>()),
                                  ExactSum::from_digits(r.at("curvature").get<std::vector<std::int64_t>>())});
      const auto same = r.at("same").get<std::vector<int>>();
      for (std::size_t o = 0; o < out[k].same.size(); ++o) out[k].same[o] = out[k].same[o] && same.at(o);
    }
  }
  for (std::size_t k = 0; k < queries.size(); ++k) out[k].sums = sums[k].value();
  return out;
}

std::vector<RuleHistogram> RemoteRows::rule_histograms(int klass, const std::vector<std::vector<Condition>>& removed,
                                                       const std::vector<std::vector<Condition>>& rules) {
  json removed_list = json::array(), rule_list = json::array();
  for (const auto& c : removed) removed_list.push_back(conditions_json(c));
  for (const auto& c : rules) rule_list.push_back(conditions_json(c));
  std::vector<RuleHistogram> out;
  const std::string request =
      pack(json{{"op", "rule_histograms"}, {"class", klass}, {"removed", removed_list}, {"rules", rule_list}});
  for (const std::string& reply : ask_all(request)) {
    const json tables = unpack(reply);
    if (tables.size() != rules.size()) throw std::invalid_argument("rule_histograms: a table per rule");
    for (std::size_t k = 0; k < rules.size(); ++k) {
      RuleHistogram h = histogram_of(tables.at(k));
      if (out.size() < rules.size())
        out.push_back(std::move(h));
      else
        out[k].merge(h);
    }
  }
  return out;
}

void RemoteRows::add_scores(const std::vector<ScoreStep>& steps) {
  json list = json::array();
  for (const ScoreStep& s : steps) list.push_back(json::array({conditions_json(s.conditions), s.klass, s.delta}));
  update_all(pack(json{{"op", "add_scores"}, {"steps", list}}));
}

void RemoteRows::end_search() {
  if (transport_.end_scores) transport_.end_scores();
}

PatternWeights RemoteRows::weigh_with(const std::vector<Rule>& rules) {
  // The rules, shared as the binning was: every later request of the weights' sums reads their patterns.
  const std::string shared = pack(json{{"rules", rules_json(rules)}});
  ++requests_;
  bytes_ += shared.size() * part_rows_.size();
  transport_.share(shared);
  std::optional<PatternWeights> out;
  for (const std::string& reply : ask_all(pack(json{{"op", "pattern_weights"}}))) {
    PatternWeights part = pattern_weights_of(unpack(reply));
    if (part.classes.size() != schema_.class_attribute.values.size() || part.rules.size() != rules.size())
      throw std::runtime_error("a part's sums of other rules or classes");
    if (!out)
      out = std::move(part);
    else
      out->merge(part);
  }
  return std::move(*out);
}

RuleLossSums RemoteRows::rule_loss(const RuleLossQuery& query) {
  std::optional<RuleLossSums> out;
  for (const std::string& reply : ask_all(pack(rule_loss_query_json(query)))) {
    RuleLossSums part = rule_loss_of(unpack(reply));
    if (!out)
      out = std::move(part);
    else
      out->merge(part);
  }
  return std::move(*out);
}

}  // namespace candor
