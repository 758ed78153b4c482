// Times reading one model file two ways, fastest of R runs each: parsing its text with nlohmann-json alone, and
// candor's model_from_text (parse, depth bound, the model built, the unknown-entry check). Prints one JSON
// line: {"bytes": B, "parse_s": P, "load_s": L, "ratio": L / P}. For bench/model_read.py.
//
//     build/model_read MODEL.json [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "candor/model/model.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: model_read MODEL.json [RUNS]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << argv[1] << ": cannot open the file\n";
    return 2;
  }
  std::ostringstream text_stream;
  text_stream << in.rdbuf();
  const std::string text = text_stream.str();
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  using Clock = std::chrono::steady_clock;
  double parse = 1e300, load = 1e300;
  for (int r = 0; r < runs; ++r) {
    auto start = Clock::now();
    { const auto j = nlohmann::json::parse(text); }
    parse = std::min(parse, std::chrono::duration<double>(Clock::now() - start).count());
    start = Clock::now();
    { const auto model = candor::model_from_text(text, argv[1]); }
    load = std::min(load, std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::printf("{\"bytes\": %zu, \"parse_s\": %.4f, \"load_s\": %.4f, \"ratio\": %.3f}\n", text.size(), parse, load,
              load / parse);
  return 0;
}
