#include "candor/experiments/generators.hpp"

#include <cmath>
#include <string>

namespace candor {

namespace {
// A standard normal by Box-Muller (std::normal_distribution's sequence differs between libraries).
double normal(Rng& rng) {
  double u = uniform01(rng);
  while (u <= 0) u = uniform01(rng);
  const double v = uniform01(rng);
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
}

Attribute nominal(const std::string& name, std::vector<std::string> values) {
  Attribute a;
  a.name = name;
  a.type = AttributeType::nominal;
  a.values = std::move(values);
  return a;
}
}  // namespace

Dataset generate_waveform(std::size_t rows, Rng& rng) {
  Dataset d;
  d.source = "waveform (generated)";
  for (int i = 1; i <= 21; ++i) {
    Attribute a;
    a.name = "x" + std::to_string(i);
    d.schema.attributes.push_back(a);
  }
  d.schema.class_attribute = nominal("class", {"0", "1", "2"});
  d.columns.resize(21);
  auto h = [](int centre, int i) { return std::max(6.0 - std::abs(i - centre), 0.0); };
  const int pairs[3][2] = {{7, 15}, {7, 11}, {15, 11}};
  for (std::size_t r = 0; r < rows; ++r) {
    const int klass = static_cast<int>(uniform_below(rng, 3));
    const double u = uniform01(rng);
    for (int i = 1; i <= 21; ++i)
      d.columns[i - 1].values.push_back(u * h(pairs[klass][0], i) + (1 - u) * h(pairs[klass][1], i) + normal(rng));
    d.y.push_back(klass);
    d.weights.push_back(1);
    d.lines.push_back(r + 1);
  }
  return d;
}

Dataset generate_led(std::size_t rows, int irrelevant, double noise, Rng& rng) {
  // Segments a (top), b (upper left), c (upper right), d (middle), e (lower left), f (lower right), g (bottom).
  static const int digits[10][7] = {{1, 1, 1, 0, 1, 1, 1}, {0, 0, 1, 0, 0, 1, 0}, {1, 0, 1, 1, 1, 0, 1},
                                    {1, 0, 1, 1, 0, 1, 1}, {0, 1, 1, 1, 0, 1, 0}, {1, 1, 0, 1, 0, 1, 1},
                                    {1, 1, 0, 1, 1, 1, 1}, {1, 0, 1, 0, 0, 1, 0}, {1, 1, 1, 1, 1, 1, 1},
                                    {1, 1, 1, 1, 0, 1, 1}};
  Dataset d;
  d.source = irrelevant ? "LED+" + std::to_string(irrelevant) + " (generated)" : "LED (generated)";
  const int attributes = 7 + irrelevant;
  for (int i = 0; i < attributes; ++i)
    d.schema.attributes.push_back(
        nominal(i < 7 ? std::string(1, static_cast<char>('a' + i)) : "r" + std::to_string(i - 6), {"0", "1"}));
  d.schema.class_attribute = nominal("digit", {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"});
  d.columns.resize(attributes);
  for (std::size_t r = 0; r < rows; ++r) {
    const int digit = static_cast<int>(uniform_below(rng, 10));
    for (int i = 0; i < attributes; ++i) {
      int v = i < 7 ? digits[digit][i] : static_cast<int>(uniform_below(rng, 2));
      if (i < 7 && uniform01(rng) < noise) v = 1 - v;
      d.columns[i].codes.push_back(v);
    }
    d.y.push_back(digit);
    d.weights.push_back(1);
    d.lines.push_back(r + 1);
  }
  return d;
}

}  // namespace candor
