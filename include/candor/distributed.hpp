#pragma once
// candor's public API: one fit over rows held in parts elsewhere, such as the partitions of a Dask DataFrame on
// its workers (docs/guide-distributed.md). The coordinator runs the fit and asks every part for samples of its
// rows and for sums over them (a rule's class counts, its gradient, the gaps of its thresholds, the weights' loss);
// each part answers with PartRows. Requests and replies are MessagePack bytes, so that any transport carries
// them. The learners that can fit so: rule-logistic with its gradient candidates (the default), gradient-rules and
// cn2-unordered (whose searches ask the parts for their rules' rows by value or bin and class); numeric attributes
// are cut into bins (--numeric-bins) taken from all the rows.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "candor/data.hpp"
#include "candor/learner.hpp"
#include "candor/model.hpp"

namespace candor {

// How the coordinator reaches its parts. `ask` sends one request to each part (in part order) and returns their
// replies; `update` sends each part a request that moves its scores (PartRows::update), answered by nothing;
// `share` makes one value (the bins, then the rules the weights are fitted over) known to every part for the
// requests after it. `end_scores`, which a transport may leave empty, says that no request reads the scores any
// more (the search is over and the weights are fitted next): the parts' scores may go, and the requests after it
// are answered with none. No reply grows with a part's rows but those of the rows a fit samples.
struct PartTransport {
  std::function<std::vector<std::string>(const std::vector<std::string>&)> ask;
  std::function<void(const std::vector<std::string>&)> update;
  std::function<void(const std::string&)> share;
  std::function<void()> end_scores;
};

class RowPart;  // learn/fit_rows.hpp

// One part of the rows, as a worker holds it: its rows with the schema of all of them. A part keeps no line
// numbers (the coordinator numbers the rows of all parts), so that a row costs a worker only its values.
class PartRows {
 public:
  explicit PartRows(Dataset rows);
  ~PartRows();
  PartRows(const PartRows&) = delete;
  PartRows& operator=(const PartRows&) = delete;
  std::size_t rows() const;
  // The length of the part's scores: rows x classes.
  std::size_t score_size() const;
  // The bytes the part holds: its rows, the binned index its rule queries count with (once they have run) and
  // the row patterns the weights' sums read (once asked), so that a transport such as Dask weighs the cost of
  // moving it.
  std::size_t bytes() const;
  // The reply to one request of `ask`. `scores`: the part's scores (score_size()) from its last `update`, none
  // before the first (not empty: a part of no rows has empty scores once they started); `shared`: the last value
  // shared, empty before it. Throws std::invalid_argument for scores of another size.
  std::string answer(const std::string& request, const std::string& shared,
                     std::optional<std::span<const double>> scores);
  // Moves `scores` (score_size(), in place) as one request of `update` says; the first request sets them.
  void update(const std::string& request, const std::string& shared, std::span<double> scores);
  // The part as bytes, for a transport that moves it between workers, and the part those bytes hold. from_bytes
  // throws std::invalid_argument for bytes to_bytes did not write.
  std::string to_bytes() const;
  static std::unique_ptr<PartRows> from_bytes(const std::string& bytes);

 private:
  std::unique_ptr<RowPart> part_;
};

struct PartsFit {
  std::unique_ptr<Model> model;
  std::size_t requests = 0;  // requests sent (one to every part counts once)
  std::size_t bytes = 0;     // of the requests and replies
};

// Fits `learner` on the rows of parts of `part_rows` rows each, in order, their schema and source that of `layout`
// (whose rows are not read). The model is the one fit_model gives on the same rows in one process, up to the
// order of its sums. Throws std::invalid_argument for a learner or options that need every row in one process.
PartsFit fit_model_on_parts(const Dataset& layout, const std::vector<std::size_t>& part_rows, PartTransport transport,
                            const Learner& learner, int threads = 1);
// Why `learner` cannot fit on parts; empty when it can.
std::string refuses_parts(const Learner& learner);

}  // namespace candor
