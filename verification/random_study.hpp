#pragma once
// A random-family study (`verify --random N --seed S`, docs/metrics.md "Random families"): the suite
// run on N drawn problems, summarised per scheme as distributions over the family -- for every check,
// the fraction of problems where it passed, failed or could not be judged; the worst observed order
// and the worst Q_II; and the worst problem, which the command writes out as a problem file.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../problems/random_family.hpp"
#include "suite.hpp"

namespace rigidbench {

struct RandomStudy {
  RandomFamilyRequest request;
  struct Outcomes {
    std::size_t pass = 0, fail = 0, undefined = 0;
  };
  struct Scheme {
    std::string integrator;
    std::size_t problems = 0;  // pairs run (applicable)
    std::size_t skipped = 0;   // not applicable
    std::size_t failed = 0;    // problems with at least one failed check
    std::map<std::string, Outcomes> checks;  // by check name (PairResult::checks)
    double expected_order = kNaN;
    /// The smallest fitted slope of the attitude error at t_end (the order `verify` prints), over the
    /// problems where it is defined, and how many problems had none.
    double worst_order = kNaN;
    std::string worst_order_problem;
    std::size_t order_undefined = 0;
    /// The largest max |Q_II / 2^p - 1| of the primary level over the problems.
    double worst_q_ii_deviation = kNaN;
    std::string worst_q_ii_problem;
    /// The worst problem: the most failed checks; ties: the lowest observed order, then the first drawn.
    std::string worst_problem;
    std::size_t worst_problem_index = 0;  // into SuiteResult::problems
    std::size_t worst_failed_checks = 0;
  };
  std::vector<Scheme> schemes;  // in the suite's scheme order
};

RandomStudy summarize_random_study(const SuiteResult& s, const RandomFamilyRequest& req);

/// The report's `random` section; `worst_files` (by integrator) names the problem files written.
nlohmann::ordered_json random_study_json(const RandomStudy& study, const std::map<std::string, std::string>& worst_files);

}  // namespace rigidbench
