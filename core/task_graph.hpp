#pragma once
// Work units with dependencies, run on a pool of threads (docs/scaling.md, "Work units").
//
// A sweep is split into units - a reference's runs or segments, one level of one (scheme, problem)
// pair, the assessment of a pair once its levels and its reference are done - that the graph runs on
// as many workers as asked. Results never depend on the number of workers or the order the units
// happen to run in: each unit writes only its own output, a unit starts only after every unit it
// depends on has finished, and whatever combines outputs (a reference's finish, a pair's assessment)
// does so in a fixed order.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace rigidbench {

class TaskGraph {
 public:
  using Id = std::size_t;
  TaskGraph();
  ~TaskGraph();
  TaskGraph(const TaskGraph&) = delete;
  TaskGraph& operator=(const TaskGraph&) = delete;

  /// Adds a unit that runs after every unit of `after` (ids returned by earlier calls, so the graph
  /// has no cycle). Among the units ready to run, a worker takes the one of highest `priority`, the
  /// earliest added among equals: with one worker the order is fully determined.
  Id add(std::function<void()> work, const std::vector<Id>& after = {}, double priority = 0.0);
  std::size_t size() const;

  /// Runs every unit on `workers` threads (the calling thread is one of them) and returns when all
  /// have finished. When a unit throws, no further unit starts, those running finish, and the
  /// exception of the earliest-added unit that threw is rethrown. Runs once.
  void run(int workers);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rigidbench
