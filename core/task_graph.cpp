#include "task_graph.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <tuple>

#include "parallel.hpp"

namespace rigidbench {

struct TaskGraph::Impl {
  struct Node {
    std::function<void()> work;
    std::vector<Id> dependants;
    std::size_t waiting = 0;  // unfinished units this one runs after
    double priority = 0;
  };
  std::vector<Node> nodes;
  bool ran = false;

  // Ready units: highest priority first, then the earliest added.
  struct Later {
    const std::vector<Node>* nodes;
    bool operator()(Id a, Id b) const {
      const double pa = (*nodes)[a].priority, pb = (*nodes)[b].priority;
      return pa != pb ? pa < pb : a > b;
    }
  };
};

TaskGraph::TaskGraph() : impl_(std::make_unique<Impl>()) {}
TaskGraph::~TaskGraph() = default;

std::size_t TaskGraph::size() const { return impl_->nodes.size(); }

TaskGraph::Id TaskGraph::add(std::function<void()> work, const std::vector<Id>& after, double priority) {
  const Id id = impl_->nodes.size();
  for (Id d : after)
    if (d >= id) throw std::logic_error("TaskGraph::add: a unit can only run after units added before it");
  Impl::Node n;
  n.work = std::move(work);
  n.priority = priority;
  for (Id d : after) {
    auto& deps = impl_->nodes[d].dependants;
    if (deps.empty() || deps.back() != id) {  // a repeated dependency counts once
      deps.push_back(id);
      ++n.waiting;
    }
  }
  impl_->nodes.push_back(std::move(n));
  return id;
}

void TaskGraph::run(int workers) {
  Impl& g = *impl_;
  if (g.ran) throw std::logic_error("TaskGraph::run: a graph runs once");
  g.ran = true;
  if (workers < 1) throw std::logic_error("TaskGraph::run: at least one worker");
  std::mutex m;
  std::condition_variable cv;
  std::priority_queue<Id, std::vector<Id>, Impl::Later> ready(Impl::Later{&g.nodes});
  for (Id i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].waiting == 0) ready.push(i);
  std::size_t finished = 0, running = 0;
  std::map<Id, std::exception_ptr> errors;  // by unit: the earliest added is rethrown

  int pool_size = 1;  // the workers that run (set before the first starts)
  auto worker = [&] {
    std::unique_lock lock(m);
    for (;;) {
      cv.wait(lock, [&] { return !ready.empty() || finished == g.nodes.size() || (!errors.empty()) || running == 0; });
      if (!errors.empty() || ready.empty()) {
        // Stopped by an error, or nothing left that could become ready: leave. (With no error and
        // nothing running, every unit has finished: the graph has no cycle.)
        if (errors.empty() && running > 0) continue;
        cv.notify_all();
        return;
      }
      const Id id = ready.top();
      ready.pop();
      ++running;
      lock.unlock();
      std::exception_ptr error;
      try {
        const parallel::UnitScope unit(pool_size);  // its inner loops share the workers the others leave
        g.nodes[id].work();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      --running;
      ++finished;
      if (error) {
        errors.emplace(id, error);
      } else {
        for (Id d : g.nodes[id].dependants)
          if (--g.nodes[d].waiting == 0) ready.push(d);
      }
      g.nodes[id].work = nullptr;  // frees what the unit captured
      cv.notify_all();
    }
  };
  // No more threads than units (a worker without a unit only waits), and when the system refuses a
  // thread (EAGAIN: --jobs 1000000), the pool runs with those it has: the results are the same on any
  // number of workers, so a refused thread must not turn a finished run into an internal error.
  const std::size_t wanted = std::min<std::size_t>(std::size_t(workers), std::max<std::size_t>(1, g.nodes.size()));
  pool_size = workers;  // the budget asked for (--jobs), which a lone unit may spread over
  std::vector<std::jthread> pool;
  try {
    for (std::size_t j = 1; j < wanted; ++j) pool.emplace_back(worker);
  } catch (const std::system_error&) {
  }
  worker();
  pool.clear();  // joins
  if (!errors.empty()) std::rethrow_exception(errors.begin()->second);
}

}  // namespace rigidbench
