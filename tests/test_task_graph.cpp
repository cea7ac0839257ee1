// The work-unit scheduler (core/task_graph.hpp): every unit runs once and after what it depends on,
// priorities order a single worker, an error stops the graph and the earliest unit's error surfaces.
#include <atomic>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>

#include "../core/task_graph.hpp"
#include "support.hpp"

using namespace rigidbench;

TEST_CASE("task graph: every unit runs once, after every unit it depends on, on any number of workers", "[task_graph]") {
  for (int workers : {1, 2, 7}) {
    std::mt19937_64 rng(42);
    const std::size_t n = 400;
    TaskGraph g;
    std::vector<std::vector<std::size_t>> deps(n);
    std::vector<std::atomic<int>> runs(n);
    std::vector<std::size_t> finished_at(n);
    std::atomic<std::size_t> clock{0};
    std::vector<std::atomic<bool>> done(n);
    std::atomic<int> violations{0};
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t d = 0; i > 0 && d < 3; ++d) deps[i].push_back(rng() % i);
      g.add(
          [&, i] {
            for (std::size_t d : deps[i])
              if (!done[d]) ++violations;
            ++runs[i];
            finished_at[i] = clock++;
            done[i] = true;
          },
          deps[i], double(rng() % 5));
    }
    CHECK(g.size() == n);
    g.run(workers);
    CHECK(violations == 0);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(runs[i] == 1);
      for (std::size_t d : deps[i]) CHECK(finished_at[d] < finished_at[i]);
    }
  }
}

TEST_CASE("task graph: one worker takes the ready unit of highest priority, the earliest added among equals", "[task_graph]") {
  TaskGraph g;
  std::vector<int> order;
  const auto a = g.add([&] { order.push_back(0); }, {}, 1.0);
  g.add([&] { order.push_back(1); }, {}, 3.0);
  g.add([&] { order.push_back(2); }, {a}, 5.0);  // ready only after unit 0
  g.add([&] { order.push_back(3); }, {}, 1.0);
  g.add([&] { order.push_back(4); }, {a, a}, 0.0);  // a repeated dependency counts once
  g.run(1);
  CHECK(order == std::vector<int>{1, 0, 2, 3, 4});
}

TEST_CASE("task graph: an error stops the graph - the earliest-added failing unit's error is rethrown", "[task_graph]") {
  for (int workers : {1, 3}) {
    TaskGraph g;
    std::atomic<int> after_failure{0};
    std::vector<TaskGraph::Id> ids;
    for (int i = 0; i < 50; ++i) ids.push_back(g.add([] {}));
    const auto bad1 = g.add([] { throw std::runtime_error("first"); }, {ids[3]});
    g.add([] { throw std::runtime_error("second"); }, {bad1}, 10.0);  // never runs: its dependency failed
    g.add([&] { ++after_failure; }, {bad1});
    try {
      g.run(workers);
      FAIL("no exception");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()) == "first");
    }
    CHECK(after_failure == 0);
  }
  TaskGraph g;
  CHECK_THROWS_AS(g.add([] {}, {0}), std::logic_error);  // only earlier units: no cycles
  g.add([] {});
  g.run(2);
  CHECK_THROWS_AS(g.run(2), std::logic_error);
  TaskGraph empty;
  empty.run(4);  // nothing to do
}
