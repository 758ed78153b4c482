// candor/distributed.hpp over learn/fit_rows.hpp.
#include <utility>

#include "candor/distributed.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/fit_rows.hpp"

namespace candor {

PartRows::PartRows(Dataset rows) : part_(std::make_unique<RowPart>(std::move(rows))) {}

PartRows::~PartRows() = default;

std::size_t PartRows::rows() const { return part_->rows(); }

std::string PartRows::answer(const std::string& request, const std::string& shared, const double* scores) {
  return answer_request(*part_, request, shared, scores);
}

std::vector<double> PartRows::update(const std::string& request, const std::string& shared,
                                     std::vector<double> scores) {
  return update_request(*part_, request, shared, std::move(scores));
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
