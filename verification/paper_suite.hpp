#pragma once
// The `paper` suite: reproductions of the source papers' figures and claims from the harness's own
// runs (paper 001 Figs. 1, 4-7, paper 002 Hamiltonian plots, paper 000 Tables 1-6). Each item states the paper's claim,
// the measured data and a verdict; the data is what `report` plots.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "metrics.hpp"

namespace rigidbench {

struct PaperItem {
  std::string paper, item, integrator, problem;
  std::string claim;         // what the paper asserts, in words
  Verdict verdict = Verdict::undefined;
  std::string finding;       // what the harness measured, in words
  nlohmann::ordered_json data;
};

struct PaperSuiteResult {
  std::vector<PaperItem> items;
  double seconds = 0;
  bool any_failed() const;
};

PaperSuiteResult run_paper_suite(bool progress);

}  // namespace rigidbench
