// The memory of a run (docs/decisions.md, "Memory of a run"): the observation grid of many bodies is
// coarsened to fit its budget, and a run whose estimate exceeds what is available is refused before
// any work, with the estimate in the message. The measured growth: scripts/body-memory.py.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "../problems/catalogue.hpp"
#include "../verification/memory.hpp"
#include "../verification/runner.hpp"
#include "../verification/suite.hpp"
#include "support.hpp"

using namespace rigidbench;

namespace {

/// Sets RIGIDBENCH_MEMORY_LIMIT for its lifetime (the tests run one at a time in a process).
struct MemoryLimit {
  explicit MemoryLimit(const char* v) { setenv("RIGIDBENCH_MEMORY_LIMIT", v, 1); }
  ~MemoryLimit() { unsetenv("RIGIDBENCH_MEMORY_LIMIT"); }
  MemoryLimit(const MemoryLimit&) = delete;
  MemoryLimit& operator=(const MemoryLimit&) = delete;
};

double grid_bytes(const Problem& p, const Ladder& L) { return pair_grid_bytes(p, L.levels, L.m); }

}  // namespace

TEST_CASE("many bodies: the observation grid is halved until one pair fits its budget", "[memory]") {
  // The catalogue keeps its grid: 2000 spheres, 251 points (the budget was chosen above every
  // catalogue problem's own grid, the full suite's included).
  const Problem gas = catalogue_problem("particle_gas");
  const Ladder L = make_ladder(gas, 2);
  CHECK(L.obs_shift == 0);
  CHECK(L.m == 250);
  CHECK(grid_bytes(gas, L) <= kGridMemoryBudget);

  // 10^4 spheres on 251 points would take ~2.9 GB: every other step is observed.
  const Problem big = catalogue_problem("particle_gas_10000");
  const Ladder B = make_ladder(big, 2);
  CHECK(grid_bytes(big, make_ladder(gas, 2)) * 5 > kGridMemoryBudget);  // the finer grid does not fit
  CHECK(B.obs_shift == 1);
  CHECK(B.m == 125);
  CHECK(grid_bytes(big, B) <= kGridMemoryBudget);
  CHECK(B.obs_dt() == Approx(2 * L.obs_dt()));

  // A single body never meets the budget: the 2^15 bound alone sets its grid.
  const Problem top = catalogue_problem("heavy_top");
  CHECK(make_ladder(top, 1).m <= 32768);
  CHECK(make_ladder(top, 1).obs_shift == 4);
  CHECK(make_ladder(top, 2).obs_shift == 0);
}

TEST_CASE("the budget leaves every catalogue grid as the 2^15 bound alone sets it, full suite included",
          "[memory]") {
  for (const std::string& name : catalogue_names())
    for (const bool full : {false, true}) {
      Problem p = catalogue_problem(name);
      if (full) {  // as suite_problems makes the full suite: one level more, twice the span
        ++p.verification.levels;
        if (p.verification.t_end)
          p.verification.t_end = std::min(p.t_end, 2 * (*p.verification.t_end - p.t0) + p.t0);
        else
          p.t_end = p.t0 + 2 * (p.t_end - p.t0);
        p.finalize();
      }
      for (const int order : {1, 2}) {
        const Ladder L = make_ladder(p, order);
        int shift = 0;
        while ((L.n0 >> shift) > 32768 && ((L.n0 >> shift) & 1) == 0) ++shift;
        INFO(name << (full ? " (full)" : "") << " order " << order << ": grid " << grid_bytes(p, L) << " B");
        CHECK(L.obs_shift == shift);
        CHECK(grid_bytes(p, L) <= kGridMemoryBudget);
      }
    }
}

TEST_CASE("a run that would exceed the available memory is refused before any work", "[memory]") {
  SuiteRequest req;
  req.integrators = {"bg_body"};
  req.problems = {"particle_gas"};
  req.progress = false;
  req.reference.cache_dir = test::tmp_path("memory-cache");  // must stay empty: nothing is computed
  std::filesystem::remove_all(req.reference.cache_dir);
  {
    const MemoryLimit limit("100M");
    try {
      (void)run_suite(req);
      FAIL("run_suite did not refuse a run estimated above RIGIDBENCH_MEMORY_LIMIT");
    } catch (const InputError& e) {
      const std::string m = e.what();
      CHECK_THAT(m, Catch::Contains("verify: this run would need an estimated"));
      CHECK_THAT(m, Catch::Contains("more than the 100 MiB available (RIGIDBENCH_MEMORY_LIMIT)"));
      CHECK_THAT(m, Catch::Contains("references"));
    }
  }
  CHECK(!std::filesystem::exists(req.reference.cache_dir));

  SECTION("through the command line: exit 2, no report") {
    const MemoryLimit limit("1M");
    const std::string out = test::tmp_path("memory-refused.json");
    std::filesystem::remove(out);
    const auto r = test::run_cli("verify --integrator terze --problem heavy_top --no-cache --out " + out);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains("more than the 1 MiB available"));
    CHECK(!std::filesystem::exists(out));
  }
  SECTION("a malformed limit is an error, not ignored") {
    for (const char* bad : {"lots", "-5G", "0", "12X", "nan", "2 G"}) {
      const MemoryLimit limit(bad);
      std::string source;
      INFO(bad);
      CHECK_THROWS_WITH(memory_available(source), Catch::Contains("RIGIDBENCH_MEMORY_LIMIT must be a positive number"));
    }
  }
  SECTION("units are powers of 1024") {
    const MemoryLimit limit("1.5G");
    std::string source;
    const auto v = memory_available(source);
    REQUIRE(v);
    // The least of every known limit: the variable's value unless the machine has less.
    CHECK(*v <= 1.5 * 1024 * 1024 * 1024);
    CHECK(format_bytes(1.5 * 1024 * 1024 * 1024) == "1.5 GiB");
    CHECK(format_bytes(320 * 1024 * 1024.0) == "320 MiB");
  }
}
