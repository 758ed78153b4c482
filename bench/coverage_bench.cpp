// Google Benchmark of the coverage engine: refinements evaluated per second on 100k synthetic rows
// (10 nominal attributes with 5 values, 10 numeric attributes with 1000 distinct values, 3 classes).
#include <benchmark/benchmark.h>

#include <random>

#include "candor/coverage/coverage_index.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learn/qualities.hpp"
#include "candor/search/beam_search.hpp"
#include "candor/search/refinements.hpp"

using namespace candor;

namespace {

Dataset synthetic(std::size_t rows) {
  std::mt19937_64 rng(1);
  Dataset d;
  d.source = "synthetic";
  for (int a = 0; a < 20; ++a) {
    std::string name(1, a < 10 ? 'n' : 'x');
    name += std::to_string(a % 10);
    if (a < 10)
      d.schema.attributes.push_back({name, AttributeType::nominal, {"a", "b", "c", "d", "e"}});
    else
      d.schema.attributes.push_back({name, AttributeType::numeric, {}});
  }
  d.schema.class_attribute = {"class", AttributeType::nominal, {"p", "q", "r"}};
  d.columns.resize(20);
  for (std::size_t r = 0; r < rows; ++r) {
    int score = 0;
    for (int a = 0; a < 10; ++a) {
      int v = static_cast<int>(rng() % 5);
      d.columns[a].codes.push_back(v);
      score += a < 3 && v == 0;
    }
    for (int a = 0; a < 10; ++a) {
      double x = static_cast<double>(rng() % 1000);
      d.columns[10 + a].values.push_back(x);
      score += a < 2 && x < 300;
    }
    d.y.push_back(score >= 2 ? 0 : static_cast<int>(1 + rng() % 2));
    d.weights.push_back(1.0);
    d.lines.push_back(r + 1);
  }
  return d;
}

const Dataset& data100k() {
  static Dataset d = synthetic(100000);
  return d;
}

// Evaluates every condition on every attribute for a rule covering `range(0)` percent of the rows.
void BM_EvaluateAllRefinements(benchmark::State& state) {
  const Dataset& d = data100k();
  CoverageIndex index(d);
  Bitset covered(d.rows());
  std::mt19937_64 rng(2);
  for (std::size_t r = 0; r < d.rows(); ++r)
    if (static_cast<std::int64_t>(rng() % 100) < state.range(0)) covered.set(r);
  auto rows = covered.members();
  RuleCoverage rule{&covered, &rows};
  RefinementScratch scratch;
  std::size_t evaluated = 0;
  double sink_total = 0;
  for (auto _ : state) {
    for (int a = 0; a < 20; ++a)
      evaluate_attribute(index, rule, a, RefinementKinds{}, 0, scratch,
                         [&](const Condition&, const double* counts, std::size_t) {
                           sink_total += counts[0];
                           ++evaluated;
                         });
  }
  benchmark::DoNotOptimize(sink_total);
  state.counters["refinements/s"] = benchmark::Counter(static_cast<double>(evaluated), benchmark::Counter::kIsRate);
  state.counters["covered_rows"] = static_cast<double>(rows.size());
}
BENCHMARK(BM_EvaluateAllRefinements)->Arg(100)->Arg(30)->Arg(3)->Unit(benchmark::kMillisecond);

// One beam search (width 5, length 5) for class p over all rows.
void BM_BeamSearch(benchmark::State& state) {
  const Dataset& d = data100k();
  CoverageIndex index(d);
  Bitset all(d.rows(), true);
  auto quality = make_quality("laplace");
  SearchOptions o;
  o.threads = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(find_best_rule(index, all, 0, *quality, o));
}
BENCHMARK(BM_BeamSearch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
