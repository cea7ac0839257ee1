#include "signal_cleanup.hpp"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace rigidbench {
namespace {

constexpr int kCleanups = 8;
std::atomic<void (*)()> g_cleanups[kCleanups];

extern "C" void run_cleanups_and_reraise(int sig) {
  for (auto& c : g_cleanups)
    if (void (*f)() = c.load(); f != nullptr) f();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void on_fatal_signal(void (*cleanup)()) {
  static std::mutex m;
  const std::lock_guard lock(m);
  bool known = false;
  for (auto& c : g_cleanups) known = known || c.load() == cleanup;
  if (!known)
    for (auto& c : g_cleanups)
      if (c.load() == nullptr) {
        c.store(cleanup);
        break;
      }
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // someone else's, or ignored
    struct sigaction sa {};
    sa.sa_handler = run_cleanups_and_reraise;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace rigidbench
