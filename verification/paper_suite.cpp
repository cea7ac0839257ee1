#include "paper_suite.hpp"

#include <chrono>

#include "papers/papers.hpp"

namespace rigidbench {

bool PaperSuiteResult::any_failed() const {
  for (const auto& i : items)
    if (i.verdict == Verdict::fail) return true;
  return false;
}

PaperSuiteResult run_paper_suite(bool progress) {
  const auto start = std::chrono::steady_clock::now();
  PaperSuiteResult out;
  papers::paper000_tables(out, progress);
  papers::paper001_fig1(out, progress);
  papers::paper001_torus(out, progress);
  papers::paper002(out, progress);
  papers::paper003(out, progress);
  papers::paper004(out, progress);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace rigidbench
