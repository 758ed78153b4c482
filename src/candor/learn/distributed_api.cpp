// candor/distributed.hpp over learn/fit_rows.hpp.
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "candor/coverage/coverage_index.hpp"
#include "candor/distributed.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/fit_rows.hpp"

namespace candor {

namespace {

Dataset without_lines(Dataset rows) {
  rows.lines.clear();
  rows.lines.shrink_to_fit();
  return rows;
}

}  // namespace

PartRows::PartRows(Dataset rows) : part_(std::make_unique<RowPart>(without_lines(std::move(rows)))) {}

PartRows::~PartRows() = default;

std::size_t PartRows::rows() const { return part_->rows(); }

std::size_t PartRows::score_size() const { return part_->rows() * part_->data().num_classes(); }

std::string PartRows::answer(const std::string& request, const std::string& shared,
                             std::optional<std::span<const double>> scores) {
  if (!scores) return answer_request(*part_, request, shared, nullptr);
  if (scores->size() != score_size()) throw std::invalid_argument("scores of another part");
  // A part of no rows has scores of no values, which still count as started.
  static constexpr double kNoRows = 0;
  return answer_request(*part_, request, shared, scores->empty() ? &kNoRows : scores->data());
}

void PartRows::update(const std::string& request, const std::string& shared, std::span<double> scores) {
  if (scores.size() != score_size()) throw std::invalid_argument("scores of another part");
  update_request(*part_, request, shared, scores.data());
}

std::size_t PartRows::bytes() const {
  const Dataset& d = part_->data();
  std::size_t out = d.y.capacity() * sizeof(int) + d.weights.capacity() * sizeof(double);
  for (const Column& c : d.columns) out += c.codes.capacity() * sizeof(int) + c.values.capacity() * sizeof(double);
  return out + static_cast<std::size_t>(index_bytes(d, true)) + part_->pattern_bytes();
}

std::string PartRows::to_bytes() const { return part_bytes(part_->data()); }

std::unique_ptr<PartRows> PartRows::from_bytes(const std::string& bytes) {
  return std::make_unique<PartRows>(rows_of_bytes(bytes));
}

PartsFit fit_model_on_parts(const Dataset& layout, const std::vector<std::size_t>& part_rows, PartTransport transport,
                            const Learner& learner, int threads) {
  RemoteRows rows(layout.schema, layout.source, part_rows, std::move(transport));
  PartsFit out;
  out.model = fit_model(rows, learner.params(), threads);
  out.requests = rows.requests();
  out.bytes = rows.bytes();
  return out;
}

std::string refuses_parts(const Learner& learner) { return refuses_rows(learner.params()); }

}  // namespace candor
