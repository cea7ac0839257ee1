#include "cancel.hpp"

#include <atomic>

namespace rigidbench {

namespace {
// In the library, not in an inline function of the header: the Python module's symbols are hidden,
// and a header's static would be a second flag there.
std::atomic<bool> g_cancel{false};
}  // namespace

void request_cancel(bool on) { g_cancel.store(on, std::memory_order_relaxed); }
bool cancel_requested() { return g_cancel.load(std::memory_order_relaxed); }

}  // namespace rigidbench
