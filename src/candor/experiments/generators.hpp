#pragma once
// Breiman et al.'s (1984) artificial domains, used by paper 004's Table 2, seeded and portable.
#include <cstddef>

#include "candor/data.hpp"
#include "candor/util/random.hpp"

namespace candor {

// Waveform: 21 numeric attributes x_i = u a(i) + (1 - u) b(i) + N(0, 1), i = 1..21, u uniform on [0, 1],
// three classes (equally likely) mixing two of the triangular waves h1(i) = max(6 - |i - 7|, 0),
// h2(i) = max(6 - |i - 15|, 0), h3(i) = max(6 - |i - 11|, 0): class 0 h1 with h2, 1 h1 with h3, 2 h2 with h3.
Dataset generate_waveform(std::size_t rows, Rng& rng);

// LED display: the seven segments of a digit 0-9 (equally likely), each segment's value flipped with
// probability `noise` (0.1), plus `irrelevant` random binary attributes (17 for LED+17).
Dataset generate_led(std::size_t rows, int irrelevant, double noise, Rng& rng);

}  // namespace candor
