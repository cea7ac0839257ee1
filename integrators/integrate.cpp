#include "integrate.hpp"

#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <type_traits>

namespace rigidbench {

std::string detail::current_exception_text() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

void detail::scheme_threw(IntegrationOutcome& out, const FixedSteps& grid, std::int64_t at) {
  const double hn = at < grid.steps ? grid.size(at) : grid.h;
  out.ok = false;
  out.cause = cat("the scheme threw: ", current_exception_text());
  out.reason = step_breakdown(at, grid.time(at), hn, out.cause);
  out.steps = at;
  out.t = grid.time(at);
  out.failed_at = grid.time(at) + hn;
}

double detail::thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double detail::wall_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

std::string step_breakdown(std::int64_t n, double t, double h, std::string_view why) {
  return cat("step ", std::to_string(n), " (t = ", message_number(t), ", h = ", message_number(h), "): ", std::string(why));
}

std::string non_finite_at(const Observation& o) {
  if (o.steps == 0) return cat("non-finite initial state (t = ", message_number(o.t), ")");
  return cat("non-finite state at the observation after step ", std::to_string(o.steps - 1), " (t = ", message_number(o.t),
             ", h = ", message_number(o.h), ")");
}

FixedSteps FixedSteps::covering(double t0, double t_end, double h, double max_steps) {
  if (!std::isfinite(h) || h <= 0) throw InputError("step h must be positive and finite (got " + message_number(h) + ")");
  if (!std::isfinite(t_end) || !std::isfinite(t0) || t_end <= t0)
    throw InputError("t_end must be finite and greater than t0 = " + message_number(t0) + " (got " + message_number(t_end) + ")");
  const double span = t_end - t0;
  // A step longer than the span would be cut to the span: another h than the one asked for.
  if (h > span * (1 + 1e-9))
    throw InputError("step h = " + message_number(h) + " is longer than the span t_end - t0 = " + message_number(span) +
                     " (no step of that size fits; give h <= " + message_number(span) + ")");
  const double nd = std::ceil(span / h - 1e-9);
  if (!(nd <= max_steps))
    throw InputError("step h = " + message_number(h) + " needs " + message_number(nd) + " steps to cover [" + message_number(t0) + ", " + message_number(t_end) +
                     "], more than the limit of " + message_number(max_steps));
  return {t0, h, std::max<std::int64_t>(1, std::int64_t(nd)), t_end};
}

Trajectory simulate(AnyIntegrator& integ, const Problem& p, double h, double t_end, std::int64_t every) {
  Trajectory kept;
  Trajectory tr = simulate(integ, p, h, t_end, every, [&](double t, const State& s) {
    kept.t.push_back(t);
    kept.states.push_back(s);
  });
  tr.t = std::move(kept.t);
  tr.states = std::move(kept.states);
  return tr;
}

Trajectory simulate(AnyIntegrator& integ, const Problem& p, double h, double t_end, std::int64_t every,
                    const std::function<void(double, const State&)>& sink) {
  if (every < 1) throw InputError("--every must be >= 1");
  const FixedSteps grid = FixedSteps::covering(p.t0, t_end, h, 2e9);
  State x(p.bodies.size());
  integ.reset(p.initial, p.t0);
  const IntegrationOutcome r = integrate(integ, grid, {.every = every, .initial = true, .last = true}, x,
                                         [&](const Observation& o, const State& s) { sink(o.t, s); });
  Trajectory tr;
  tr.ok = r.ok;
  tr.reason = r.reason;
  return tr;
}

// ---- isolated schemes (integrate.hpp, "Isolated schemes") -----------------------------------------
namespace {

// Messages from the child, each a tag and its fields in this machine's representation (parent and
// child are the same program): 'O' an observation and its state; 'E' the outcome and the final
// state; 'I' / 'X' an InputError / another exception the run threw, with its message.
void put_bytes(std::string& b, const void* p, std::size_t n) { b.append(static_cast<const char*>(p), n); }
template <class T>
void put(std::string& b, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  put_bytes(b, &v, sizeof v);
}
void put_text(std::string& b, const std::string& s) {
  put(b, std::uint64_t(s.size()));
  b += s;
}
/// The state's observables (state.hpp, flatten), through a scratch vector kept by the caller: no
/// allocation per observation.
void put_state(std::string& b, const State& x, std::vector<double>& scratch) {
  scratch.resize(x.bodies.size() * std::size_t(observables_per_body(true)));
  flatten(x, true, scratch.data());
  put_bytes(b, scratch.data(), scratch.size() * sizeof(double));
}

bool write_all(int fd, const std::string& b) {
  std::size_t done = 0;
  while (done < b.size()) {
    const ssize_t k = ::write(fd, b.data() + done, b.size() - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    done += std::size_t(k);
  }
  return true;
}
bool read_all(int fd, void* p, std::size_t n) {
  auto* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t k = ::read(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    c += k;
    n -= std::size_t(k);
  }
  return true;
}
template <class T>
T get(int fd) {
  T v{};
  if (!read_all(fd, &v, sizeof v)) throw std::runtime_error("isolated run: message from the child cut short");
  return v;
}
std::string get_text(int fd) {
  std::string s(get<std::uint64_t>(fd), '\0');
  if (!s.empty() && !read_all(fd, s.data(), s.size()))
    throw std::runtime_error("isolated run: message from the child cut short");
  return s;
}
void get_state(int fd, State& x) {
  for (BodyState& b : x.bodies) {
    double v[18];
    if (!read_all(fd, v, sizeof v)) throw std::runtime_error("isolated run: message from the child cut short");
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) b.R(i, j) = v[3 * i + j];
      b.W[i] = v[9 + i];
      b.x[i] = v[12 + i];
      b.v[i] = v[15 + i];
    }
  }
}

/// The last non-empty line of what the child wrote (its standard output and error), at most 300
/// characters: an engine's assertion message.
std::string last_line(std::FILE* f) {
  std::string all;
  std::rewind(f);
  char buf[4096];
  for (std::size_t k; (k = std::fread(buf, 1, sizeof buf, f)) > 0;) all.append(buf, k);
  while (!all.empty() && (all.back() == '\n' || all.back() == '\r' || all.back() == ' ')) all.pop_back();
  std::string line = all.substr(all.find_last_of('\n') == std::string::npos ? 0 : all.find_last_of('\n') + 1);
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return line;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

[[noreturn]] void child(AnyIntegrator& s, const FixedSteps& grid, const ObservationPlan& plan, State& x, int out,
                        int log) {
  // The harness's handlers are the parent's business: a fault here must end this process, as it
  // would without rigidbench, and be seen by the parent.
  for (int sig : {SIGABRT, SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGPIPE}) std::signal(sig, SIG_DFL);
  ::dup2(log, 1);
  ::dup2(log, 2);
  std::string b;
  std::vector<double> scratch;
  try {
    const double cpu0 = detail::thread_cpu_seconds(), wall0 = detail::wall_seconds();
    const IntegrationOutcome r = detail::integrate_here(s, grid, plan, x, [&](const Observation& o, const State& y) {
      b.assign(1, 'O');
      put(b, o);
      put_state(b, y, scratch);
      if (!write_all(out, b)) ::_exit(3);  // the parent has gone
    });
    detail::RunClock clock{detail::thread_cpu_seconds() - cpu0, detail::wall_seconds() - wall0, s.counters()};
    b.assign(1, 'E');
    put(b, clock);
    put(b, r.ok);
    put_text(b, r.reason);
    put_text(b, r.cause);
    put(b, r.steps);
    put(b, r.t);
    put(b, r.failed_at);
    State xf = x;
    if (r.ok) s.read(xf);
    put_state(b, xf, scratch);
  } catch (const InputError& e) {
    b.assign(1, 'I');
    put_text(b, e.what());
  } catch (const std::exception& e) {
    b.assign(1, 'X');
    put_text(b, e.what());
  }
  std::fflush(nullptr);
  // _exit: no destructors, no atexit handlers - the objects of this process are copies of the parent's.
  ::_exit(write_all(out, b) ? 0 : 3);
}

/// The child of an isolated run, seen from the parent: the read end of its pipe, and its process,
/// reaped exactly once - killed first when the parent ends the run early or an exception leaves.
struct Child {
  pid_t pid;
  int in;
  bool reaped = false;
  int finish(bool kill_child) {
    reaped = true;
    if (kill_child) ::kill(pid, SIGKILL);
    ::close(in);
    return wait_for(pid);
  }
  ~Child() {
    if (!reaped) finish(true);
  }
  Child(pid_t p, int fd) : pid(p), in(fd) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
};

/// The child's outcome message ('E'); the scheme here is reset to the state the child reached, so
/// that runs chain.
IntegrationOutcome completed(Child& c, AnyIntegrator& s, const State& x, detail::RunClock* clock) {
  IntegrationOutcome r;
  const auto times = get<detail::RunClock>(c.in);
  if (clock) *clock = times;
  r.ok = get<bool>(c.in);
  r.reason = get_text(c.in);
  r.cause = get_text(c.in);
  r.steps = get<std::int64_t>(c.in);
  r.t = get<double>(c.in);
  r.failed_at = get<double>(c.in);
  State xf = x;
  get_state(c.in, xf);
  c.finish(false);
  if (r.ok) s.reset(xf, r.t);
  return r;
}

/// The breakdown of a child that ended without its outcome (the scheme's code ended its process):
/// the signal or exit status and its last line of output; `out` holds the last observation.
IntegrationOutcome died(int status, std::FILE* log, const FixedSteps& grid, const ObservationPlan& plan,
                        IntegrationOutcome out) {
  std::string why;
  if (WIFSIGNALED(status))
    why = cat("killed by signal ", std::to_string(WTERMSIG(status)), " (", strsignal(WTERMSIG(status)), ")");
  else
    why = cat("exited with status ", std::to_string(WEXITSTATUS(status)), " before the end of the run");
  if (const std::string line = last_line(log); !line.empty()) why += cat(": ", line);
  const std::int64_t next = std::min(grid.steps, out.steps + std::max<std::int64_t>(plan.every, 1));
  out.ok = false;
  out.cause = cat("the scheme's process was ", why);
  out.failed_at = plan.every > 0 ? grid.time(next) : grid.time(grid.steps);
  out.reason = cat("after step ", std::to_string(out.steps), " (t = ", message_number(out.t), "), before t = ",
                   message_number(out.failed_at), ": ", out.cause);
  return out;
}

}  // namespace

IntegrationOutcome detail::integrate_isolated(AnyIntegrator& s, const FixedSteps& grid, const ObservationPlan& plan,
                                              State& x, const ObserveFn& observe, RunClock* clock) {
  if (x.bodies.empty()) throw std::logic_error("integrate: an isolated scheme's run needs x sized to its problem");
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> log(std::tmpfile(), &std::fclose);
  int fds[2];
  if (!log || ::pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(cat("isolated run of ", std::string(s.info().name), ": ", std::strerror(errno)));
  std::fflush(nullptr);  // what is buffered here is not written again by the child
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(cat("isolated run of ", std::string(s.info().name), ": fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(s, grid, plan, x, fds[1], ::fileno(log.get()));
  }
  ::close(fds[1]);
  Child c(pid, fds[0]);
  IntegrationOutcome out;
  out.steps = grid.from;
  out.t = grid.time(grid.from);
  for (char tag = 0; read_all(c.in, &tag, 1);) {
    if (tag == 'E') return completed(c, s, x, clock);
    if (tag == 'I' || tag == 'X') {
      const std::string what = get_text(c.in);
      c.finish(false);
      if (tag == 'I') throw InputError(what);
      throw std::runtime_error(what);
    }
    if (tag != 'O') break;
    const auto o = get<Observation>(c.in);
    get_state(c.in, x);
    out.steps = o.steps;
    out.t = o.t;
    if (StepStatus st = observe(o, x); !st.ok) {
      c.finish(true);
      out.ok = false;
      out.reason = out.cause = std::move(st.reason);
      out.failed_at = o.t;
      return out;
    }
  }
  return died(c.finish(false), log.get(), grid, plan, out);
}

}  // namespace rigidbench
