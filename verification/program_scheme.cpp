#include "program_scheme.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <sstream>

#include "../core/cancel.hpp"
#include "../core/hash.hpp"
#include "../core/process.hpp"
#include "../core/signal_cleanup.hpp"
#include "../core/json_input.hpp"
#include "../integrators/integrate.hpp"
#include "../problems/problem_file.hpp"

namespace rigidbench {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kProtocol = 1;

PhysicalBody& physical_body_hook() {
  static PhysicalBody b;
  return b;
}

std::string format_hex(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}
/// The longest answer read (a run observed at every one of 10^6 steps of 12 columns is ~250 MB).
constexpr std::size_t kMaxAnswerBytes = std::size_t(1) << 30;

// ---- the declaration file ----

const std::vector<std::string_view> kProgramKeys{
    "name", "command", "args", "title", "source", "representation", "notes", "order", "kind", "families",
    "features", "spherical_only", "torque_free_only", "claims", "family_claims", "adaptive", "error_estimate_order",
    "dense_output", "error_estimate", "physical_body", "in_all", "memory_mb", "precision", "version", "attitude", "angular_velocity", "timeout_s", "settings", "variants",
    "meta"};

void only_keys(const json& j, const std::vector<std::string_view>& keys, const std::string& at) {
  for (const auto& [k, v] : j.items()) {
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) continue;
    std::string list;
    for (std::string_view x : keys) list += cat(list.empty() ? "" : ", ", std::string(x));
    throw InputError(cat(at, ": unknown key '", k.substr(0, 40), "' (known: ", list, ")"));
  }
}

std::string string_at(const json& j, const char* key, const std::string& at, std::string fallback = {}) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_string()) throw InputError(cat(at, ".", key, ": expected a string, got ", json_brief(j[key])));
  return j[key].get<std::string>();
}

std::vector<std::string> strings_at(const json& j, const char* key, const std::string& at) {
  std::vector<std::string> out;
  if (!j.contains(key)) return out;
  if (!j[key].is_array()) throw InputError(cat(at, ".", key, ": expected an array of strings"));
  for (const json& v : j[key]) {
    if (!v.is_string()) throw InputError(cat(at, ".", key, ": expected an array of strings, holds ", json_brief(v)));
    out.push_back(v.get<std::string>());
  }
  return out;
}

bool bool_at(const json& j, const char* key, const std::string& at, bool fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_boolean()) throw InputError(cat(at, ".", key, ": expected true or false, got ", json_brief(j[key])));
  return j[key].get<bool>();
}

double number_at(const json& j, const char* key, const std::string& at, double fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_number()) throw InputError(cat(at, ".", key, ": expected a number, got ", json_brief(j[key])));
  return j[key].get<double>();
}

int integer_at(const json& j, const char* key, const std::string& at, int fallback) {
  const double v = number_at(j, key, at, fallback);
  if (v != std::floor(v) || std::abs(v) > 1e6) throw InputError(cat(at, ".", key, ": expected an integer"));
  return int(v);
}

std::vector<SettingDeclaration> settings_at(const json& j, const std::string& at) {
  std::vector<SettingDeclaration> out;
  if (!j.contains("settings")) return out;
  if (!j["settings"].is_array()) throw InputError(cat(at, ".settings: expected an array of settings"));
  for (std::size_t i = 0; i < j["settings"].size(); ++i) {
    const json& s = j["settings"][i];
    const std::string here = cat(at, ".settings[", std::to_string(i), "]");
    if (!s.is_object()) throw InputError(cat(here, ": expected an object"));
    only_keys(s, {"name", "description", "default", "min", "max", "integer"}, here);
    for (const char* k : {"name", "default", "min", "max"})
      if (!s.contains(k)) throw InputError(cat(here, ": needs \"", k, "\""));
    out.push_back({string_at(s, "name", here), string_at(s, "description", here), number_at(s, "default", here, 0),
                   number_at(s, "min", here, 0), number_at(s, "max", here, 0), bool_at(s, "integer", here, false)});
  }
  return out;
}

ProgramDeclaration parse_declaration(const json& j, const std::string& at, const std::string& file, std::uint64_t file_hash);

/// {kind: claim} (docs/programs.md, "claims").
Claims claims_at(const json& j, const std::string& at) {
  if (!j.is_object()) throw InputError(cat(at, ": expected an object {kind: claim}"));
  Claims c;
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) throw InputError(cat(at, ".", k.substr(0, 40), ": expected none, bounded or exact"));
    try {
      set_claim(c, k, claim_from_string(v.get<std::string>()));
    } catch (const InputError& e) {
      throw InputError(cat(at, ".", k.substr(0, 40), ": ", e.what()));
    }
  }
  return c;
}

/// One scheme from its merged object (the program's keys with a variant's over them); every message
/// names the file and the entry.
ProgramDeclaration declaration_from(const json& j, const std::string& at, const std::string& file, std::uint64_t file_hash) {
  try {
    return parse_declaration(j, at, file, file_hash);
  } catch (const InputError& e) {
    if (std::string_view(e.what()).substr(0, at.size()) == at) throw;
    throw InputError(cat(at, ": ", e.what()));
  }
}

ProgramDeclaration parse_declaration(const json& j, const std::string& at, const std::string& file, std::uint64_t file_hash) {
  ProgramDeclaration d;
  d.file = file;
  d.dir = fs::absolute(fs::path(file)).parent_path().string();
  SchemeDeclaration& s = d.scheme;
  s.name = string_at(j, "name", at);
  if (s.name.empty()) throw InputError(cat(at, ": needs a \"name\""));
  d.command = strings_at(j, "command", at);
  if (d.command.empty() || d.command[0].empty())
    throw InputError(cat(at, ": needs \"command\", the program's command line as an array of strings"));
  for (std::string& a : strings_at(j, "args", at)) d.command.push_back(std::move(a));
  s.title = string_at(j, "title", at);
  s.source = string_at(j, "source", at);
  s.representation = string_at(j, "representation", at);
  s.notes = string_at(j, "notes", at);
  s.order = integer_at(j, "order", at, 0);
  s.kind = scheme_kind_from_string(string_at(j, "kind", at, "explicit"));
  if (j.contains("families")) s.families = strings_at(j, "families", at);
  s.features = strings_at(j, "features", at);
  s.spherical_only = bool_at(j, "spherical_only", at, false);
  s.torque_free_only = bool_at(j, "torque_free_only", at, false);
  if (j.contains("claims")) s.claims = claims_at(j["claims"], cat(at, ".claims"));
  if (j.contains("family_claims")) {
    if (!j["family_claims"].is_object())
      throw InputError(cat(at, ".family_claims: expected an object {family: {kind: claim}}"));
    for (const auto& [family, c] : j["family_claims"].items())
      s.family_claims.emplace_back(family, claims_at(c, cat(at, ".family_claims.", family.substr(0, 40))));
  }
  s.adaptive = bool_at(j, "adaptive", at, false);
  if (!j.contains("order") && !s.adaptive)
    throw InputError(cat(at, ": needs \"order\", the order the verdicts test (a whole number in [1, 12])"));
  s.error_estimate_order = integer_at(j, "error_estimate_order", at, -1);
  s.dense_output = bool_at(j, "dense_output", at, false);
  d.error_estimate = bool_at(j, "error_estimate", at, false);
  d.physical_body = bool_at(j, "physical_body", at, false);
  d.in_all = bool_at(j, "in_all", at, true);
  if (d.physical_body) {
    if (physical_body_hook().refusal == nullptr)
      throw InputError(cat(at, ".physical_body: needs the engines' library (the `rigidbench` command and the Python "
                               "module have it; a program linking librigidbench alone has not)"));
    s.refuses = physical_body_hook().refusal;
  }
  if (d.error_estimate && !s.adaptive)
    throw InputError(cat(at, ".error_estimate: only an adaptive scheme's error estimate is checked (docs/adaptive.md)"));
  s.version = string_at(j, "version", at);
  s.precision = string_at(j, "precision", at, "float64");
  if (s.precision != "float64" && s.precision != "float32")
    throw InputError(cat(at, ".precision: float64 (the default) or float32, not '", s.precision.substr(0, 40), "'"));
  if (s.precision == "float64") s.precision.clear();
  // What the history tells versions apart by: the declared version, else the declaration's text.
  s.identity = s.version.empty() ? cat("declaration ", format_hex(file_hash)) : s.version;
  s.settings = settings_at(j, at);
  d.conventions.attitude = attitude_form_from_string(string_at(j, "attitude", at, "R"));
  d.conventions.omega = omega_frame_from_string(string_at(j, "angular_velocity", at, "body"));
  d.memory_mb = number_at(j, "memory_mb", at, 0);
  if (j.contains("memory_mb") && (!(d.memory_mb >= 16) || !(d.memory_mb <= 1 << 20)))
    throw InputError(cat(at, ".memory_mb: expected a number of MiB in [16, 1048576]"));
  d.timeout_seconds = number_at(j, "timeout_s", at, 600);
  if (!(d.timeout_seconds > 0) || !(d.timeout_seconds <= 86400))
    throw InputError(cat(at, ".timeout_s: expected a number of seconds in (0, 86400]"));
  return d;
}

}  // namespace

void set_physical_body(PhysicalBody b) { physical_body_hook() = b; }

std::vector<ProgramDeclaration> read_program_declarations(const std::string& file) {
  const json doc = read_json_input(file, "program declaration", JsonLimits{16, std::uintmax_t(1) << 20});
  const std::string at0 = cat(file, ": ");
  if (!doc.is_object() || !doc.contains("programs") || !doc["programs"].is_array() || doc["programs"].empty())
    throw InputError(cat(file, ": a program declaration is {\"programs\": [{\"name\": ..., \"command\": [...], ...}]} "
                               "(docs/programs.md)"));
  only_keys(doc, {"programs", "meta"}, file);
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::uint64_t hash = fnv1a(text);
  std::vector<ProgramDeclaration> out;
  for (std::size_t i = 0; i < doc["programs"].size(); ++i) {
    const json& prog = doc["programs"][i];
    const std::string at = cat(file, ": programs[", std::to_string(i), "]");
    if (!prog.is_object()) throw InputError(cat(at, ": expected an object"));
    only_keys(prog, kProgramKeys, at);
    if (!prog.contains("variants")) {
      out.push_back(declaration_from(prog, at, file, hash));
      continue;
    }
    if (!prog["variants"].is_array() || prog["variants"].empty())
      throw InputError(cat(at, ".variants: expected a non-empty array of objects"));
    for (std::size_t v = 0; v < prog["variants"].size(); ++v) {
      const json& var = prog["variants"][v];
      const std::string vat = cat(at, ".variants[", std::to_string(v), "]");
      if (!var.is_object()) throw InputError(cat(vat, ": expected an object"));
      only_keys(var, kProgramKeys, vat);
      if (var.contains("variants") || var.contains("command"))
        throw InputError(cat(vat, ": a variant takes the program's command (add \"args\") and has no variants"));
      json merged = prog;
      merged.erase("variants");
      for (const auto& [k, val] : var.items()) merged[k] = val;
      if (prog.contains("args") && var.contains("args")) {
        // The program's args, then the variant's: both arrays (a string here once ended the process
        // in nlohmann's push_back, found by fuzz/program_declaration.cpp).
        for (const auto& [which, a] : {std::pair{at, &prog["args"]}, std::pair{vat, &var["args"]}})
          if (!a->is_array()) throw InputError(cat(which, ".args: expected an array of strings"));
        merged["args"] = prog["args"];
        for (const json& a : var["args"]) merged["args"].push_back(a);
      }
      out.push_back(declaration_from(merged, vat, file, hash));
    }
  }
  return out;
}

namespace {

// ---- the program's process ----

/// Seconds on a monotonic clock.
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string signal_text(int sig) {
  const char* name = strsignal(sig);
  return cat("signal ", std::to_string(sig), name ? cat(" (", name, ")") : std::string());
}

// ---- programs alive, for a signal that ends rigidbench ----
// Each program runs in a process group of its own (so that a timeout stops what it started too);
// the terminal's Ctrl-C and a kill of rigidbench therefore do not reach it. The groups alive are kept
// here, in slots a signal handler may read, and killed by the cleanup of core/signal_cleanup.hpp
// before a SIGINT, SIGTERM or SIGHUP ends rigidbench. (A SIGKILL of rigidbench leaves them:
// PR_SET_PDEATHSIG would follow the thread that started a program, not the process.)
constexpr std::size_t kSlots = 512;
std::atomic<pid_t> g_alive[kSlots];

void kill_programs() {
  for (std::atomic<pid_t>& slot : g_alive)
    if (const pid_t g = slot.load(); g > 0) kill(-g, SIGKILL);
}

void track(pid_t group, bool alive) {
  for (std::atomic<pid_t>& slot : g_alive) {
    pid_t expected = alive ? 0 : group;
    if (slot.compare_exchange_strong(expected, alive ? group : 0)) return;
  }
}

/// Why `exe` cannot be executed, or empty.
std::string not_executable(const std::string& exe) {
  std::error_code ec;
  if (!fs::exists(exe, ec)) return cat("'", exe, "' does not exist");
  if (fs::is_directory(exe, ec)) return cat("'", exe, "' is a directory");
  if (access(exe.c_str(), X_OK) != 0) return cat("'", exe, "' is not executable (", std::strerror(errno), ")");
  return {};
}

/// The program, started once and kept for the runs of one integrator: its standard input and output
/// are two sockets (a write to a program that has gone is an error here, never a SIGPIPE; a program
/// that closes its output is seen at once), its standard error a file whose last line a breakdown
/// quotes.
class ProgramProcess {
 public:
  explicit ProgramProcess(const ProgramDeclaration& d) : d_(d) {}
  ~ProgramProcess() { stop(); }
  ProgramProcess(const ProgramProcess&) = delete;
  ProgramProcess& operator=(const ProgramProcess&) = delete;

  /// One request and its answer; on failure, empty with `why` set (and the process stopped).
  std::optional<std::string> exchange(const std::string& request, double timeout, std::string& why) {
    if (pid_ < 0 && !start(why)) return std::nullopt;
    // Anything the program wrote since its last answer would be read as the answer to this request.
    if (!buffer_.empty() || readable_now()) {
      if (receive_available() && buffer_.empty()) {
        why = ended();  // it ended after its last answer: a program answers until its input ends
        return std::nullopt;
      }
      why = cat("the program wrote more after its last answer (\"", brief(buffer_), "\"): one line per request");
      stop();
      return std::nullopt;
    }
    if (!send_all(request + "\n", why)) return std::nullopt;
    std::optional<std::string> line = receive_line(timeout, why);
    // More came with the answer: in the read that ended the line, or already waiting (sent with the
    // answer's end, read in a later chunk). Written later, it is seen at the next request.
    if (line && (!buffer_.empty() || readable_now())) {
      receive_available();
      why = cat("the program wrote more after its answer (\"", brief(buffer_), "\"): one line per request");
      stop();
      return std::nullopt;
    }
    return line;
  }

 private:
  static std::string brief(const std::string& s) { return s.size() > 80 ? s.substr(0, 80) + "..." : s; }

  /// argv[0] as the child will execute it, or empty with `why` set.
  std::string executable(std::string& why) const {
    std::string exe = d_.command[0];
    if (exe.find('/') != std::string::npos && fs::path(exe).is_relative()) exe = (fs::path(d_.dir) / exe).string();
    if (exe.find('/') == std::string::npos) {
      // Looked up on PATH here, not by execvp in the child: after a fork in a process with threads the
      // child calls only what is safe there.
      const std::string found = find_on_path(exe);
      if (found.empty()) why = cat("the program '", exe, "' is not on PATH (", d_.file, ")");
      return found;
    }
    if (std::string bad = not_executable(exe); !bad.empty()) {
      why = cat("the program cannot be executed: ", bad, " (", d_.file, ")");
      return {};
    }
    return exe;
  }

  bool start(std::string& why) {
    const std::string exe = executable(why);
    if (exe.empty()) return false;
    int in[2], out[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) {
      why = cat("could not make the program's pipe: ", std::strerror(errno));
      return false;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, out) != 0) {
      why = cat("could not make the program's pipe: ", std::strerror(errno));
      close(in[0]), close(in[1]);
      return false;
    }
    char tmpl[] = "/tmp/rigidbench-program-XXXXXX";
    err_ = mkostemp(tmpl, O_CLOEXEC);
    if (err_ >= 0) unlink(tmpl);
    std::vector<std::string> args = d_.command;
    args[0] = exe;
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    on_fatal_signal(kill_programs);
    const rlim_t bytes = rlim_t(d_.memory_mb) << 20;
    const pid_t pid = fork();
    if (pid < 0) {
      why = cat("could not start the program: ", std::strerror(errno));
      close(in[0]), close(in[1]), close(out[0]), close(out[1]);
      return false;
    }
    if (pid == 0) {
      setpgid(0, 0);  // its own group: a timeout stops the program and what it started
      // Its data segment and private writable mappings (RLIMIT_DATA: what malloc and a WebAssembly
      // memory grow; not the address space V8 reserves, which RLIMIT_AS would count).
      const rlimit lim{bytes, bytes};
      if (bytes > 0) setrlimit(RLIMIT_DATA, &lim);
      dup2(in[1], 0);
      dup2(out[1], 1);
      if (err_ >= 0) dup2(err_, 2);
      if (chdir(d_.dir.c_str()) != 0) _exit(126);
      execv(argv[0], argv.data());
      const char msg[] = "rigidbench: the program could not be executed\n";
      [[maybe_unused]] const auto n = write(2, msg, sizeof msg - 1);
      _exit(127);
    }
    setpgid(pid, pid);  // also here, so that the group exists before either side goes on
    track(pid, true);
    close(in[1]);
    close(out[1]);
    to_ = in[0];
    from_ = out[0];
    pid_ = pid;
    buffer_.clear();
    scanned_ = 0;
    return true;
  }

  void stop() {
    if (pid_ > 0) {
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      track(pid_, false);
    }
    for (int* fd : {&to_, &from_, &err_})
      if (*fd >= 0) close(*fd), *fd = -1;
    pid_ = -1;
  }

  /// The last non-empty line the program wrote to its standard error, quoted for a reason.
  std::string last_error_line() const {
    if (err_ < 0) return {};
    const off_t size = lseek(err_, 0, SEEK_END);
    const off_t from = std::max<off_t>(0, size - 4096);
    std::string tail(std::size_t(std::max<off_t>(size - from, 0)), '\0');
    if (size <= 0 || pread(err_, tail.data(), tail.size(), from) <= 0) return {};
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ')) tail.pop_back();
    const std::size_t nl = tail.rfind('\n');
    std::string line = nl == std::string::npos ? tail : tail.substr(nl + 1);
    if (line.size() > 300) line = line.substr(0, 300) + "...";
    return line.empty() ? std::string() : cat("; its last line on stderr: \"", line, "\"");
  }

  /// Why the program's output ended: its exit status or signal, or that it closed its output and
  /// lives on (then it is stopped); and its stderr.
  std::string ended() {
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 100 && (done = waitpid(pid_, &status, WNOHANG)) == 0; ++i) usleep(5000);
    std::string how = "closed its output and was stopped";
    if (done == pid_ && WIFEXITED(status)) how = cat("exited with status ", std::to_string(WEXITSTATUS(status)));
    else if (done == pid_ && WIFSIGNALED(status)) how = cat("was killed by ", signal_text(WTERMSIG(status)));
    if (done == pid_) track(pid_, false), pid_ = -1;  // reaped: stop() must not signal the pid again
    std::string why = cat("the program ", how, " before answering", last_error_line());
    stop();
    return why;
  }

  bool send_all(const std::string& s, std::string& why) {
    std::size_t done = 0;
    while (done < s.size()) {
      const ssize_t n = send(to_, s.data() + done, s.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        why = ended();
        return false;
      }
      done += std::size_t(n);
    }
    return true;
  }

  bool readable_now() const {
    pollfd pfd{from_, POLLIN, 0};
    return poll(&pfd, 1, 0) > 0;
  }

  /// Reads what is there without waiting (for a message); true when the program has closed its output.
  bool receive_available() {
    char chunk[4096];
    while (buffer_.size() < 4096 && readable_now()) {
      const ssize_t n = recv(from_, chunk, sizeof chunk, MSG_DONTWAIT);
      if (n == 0) return true;
      if (n < 0) break;
      buffer_.append(chunk, std::size_t(n));
    }
    return false;
  }

  std::optional<std::string> receive_line(double timeout, std::string& why) {
    const double deadline = now() + timeout;
    char chunk[65536];
    for (;;) {
      // Only what arrived since the last look is searched: a long answer is scanned once.
      if (const std::size_t nl = buffer_.find('\n', scanned_); nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        scanned_ = 0;
        return line;
      }
      scanned_ = buffer_.size();
      if (buffer_.size() > kMaxAnswerBytes) {
        why = cat("the program's answer is longer than ", std::to_string(kMaxAnswerBytes >> 20), " MiB without an end of line");
        stop();
        return std::nullopt;
      }
      if (cancel_requested()) {
        why = kCancelledReason;
        stop();
        return std::nullopt;
      }
      const double left = deadline - now();
      if (left <= 0) {
        why = cat("the program gave no answer within ", message_number(timeout), " s (its timeout_s) and was stopped",
                  last_error_line());
        stop();
        return std::nullopt;
      }
      pollfd pfd{from_, POLLIN, 0};
      const int r = poll(&pfd, 1, int(std::min(100.0, left * 1000) + 1));
      if (r < 0 && errno != EINTR) {
        why = cat("waiting for the program: ", std::strerror(errno));
        stop();
        return std::nullopt;
      }
      if (r <= 0) continue;
      const ssize_t n = recv(from_, chunk, sizeof chunk, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        why = ended();
        return std::nullopt;
      }
      buffer_.append(chunk, std::size_t(n));
    }
  }

  const ProgramDeclaration& d_;
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1, err_ = -1;
  std::string buffer_;
  std::size_t scanned_ = 0;
};

// ---- the protocol, rigidbench's side ----

/// A state as one row of the default trajectory columns (R by rows, body W; x, v where translating).
json state_row(const Problem& p, const State& x) {
  const std::vector<std::string> cols = trajectory_columns(p);
  std::vector<double> v(cols.size() - 1);
  flatten(x, p.translating(), v.data());
  json row = json::object();
  for (std::size_t c = 1; c < cols.size(); ++c) row[cols[c]] = v[c - 1];
  return row;
}

/// The step counts after which the plan observes (plus the last, which every answer holds: the state
/// the next run starts from), and whether each is handed to the observer.
struct Expected {
  std::vector<std::int64_t> done;
  std::vector<bool> observed;
  std::int64_t every = 0;
  /// The observation's index after step n, as the driver's loop numbers it.
  std::int64_t index(std::int64_t n, std::int64_t from) const {
    if (n == from) return 0;
    return every > 0 ? (n + every - 1) / every : 1;
  }
};
Expected expected_rows(const FixedSteps& g, const ObservationPlan& plan) {
  Expected e;
  e.every = plan.every;
  if (plan.initial) e.done.push_back(g.from), e.observed.push_back(true);
  for (std::int64_t n = g.from + 1; n <= g.steps; ++n) {
    const bool obs = (plan.every > 0 && n % plan.every == 0) || (plan.last && n == g.steps);
    if (obs || n == g.steps) e.done.push_back(n), e.observed.push_back(obs);
  }
  return e;
}

std::uint64_t counter_at(const json& c, const char* key, const std::string& at) {
  if (!c.contains(key)) return 0;
  const json& v = c[key];
  if (!v.is_number() || !(v.get<double>() >= 0) || v.get<double>() != std::floor(v.get<double>()))
    throw InputError(cat(at, ".counters.", key, ": expected a count, got ", json_brief(v)));
  return v.get<std::uint64_t>();
}

Counters counters_from(const json& a, const std::string& at) {
  Counters c;
  if (!a.contains("counters")) return c;
  if (!a["counters"].is_object()) throw InputError(cat(at, ".counters: expected an object"));
  const json& j = a["counters"];
  only_keys(j, {"load_evaluations", "newton_iterations", "jacobian_evaluations", "accepted_steps", "rejected_steps",
                "rhs_evaluations", "shortened_steps"},
            cat(at, ".counters"));
  c.load_evaluations = counter_at(j, "load_evaluations", at);
  c.newton_iterations = counter_at(j, "newton_iterations", at);
  c.jacobian_evaluations = counter_at(j, "jacobian_evaluations", at);
  c.accepted_steps = counter_at(j, "accepted_steps", at);
  c.rejected_steps = counter_at(j, "rejected_steps", at);
  c.rhs_evaluations = counter_at(j, "rhs_evaluations", at);
  c.shortened_steps = counter_at(j, "shortened_steps", at);
  return c;
}

void add(Counters& to, const Counters& c) {
  to.load_evaluations += c.load_evaluations;
  to.newton_iterations += c.newton_iterations;
  to.jacobian_evaluations += c.jacobian_evaluations;
  to.accepted_steps += c.accepted_steps;
  to.rejected_steps += c.rejected_steps;
  to.rhs_evaluations += c.rhs_evaluations;
  to.shortened_steps += c.shortened_steps;
}

class ProgramScheme final : public AnyIntegrator, public detail::RunsElsewhere {
 public:
  ProgramScheme(const SchemeInfo& info, std::shared_ptr<const ProgramDeclaration> d, const Problem& p,
                const SchemeSettings& set)
      : info_(info), d_(std::move(d)), p_(p), process_(*d_), x_(p.bodies.size()) {
    json s = json::object();
    for (const SettingInfo& si : info.settings) s[std::string(si.name)] = set.get(si);
    // The parts of every request that do not change between runs, written once.
    fixed_ = json{{"protocol", kProtocol}, {"scheme", std::string(info.name)}, {"settings", s},
                  {"problem", json::parse(problem_to_json(p).dump())}};
    if (d_->physical_body) fixed_.update(physical_body_hook().body(p));
  }
  const SchemeInfo& info() const override { return info_; }
  void reset(const State& x0, double) override {
    x_ = x0;
    continues_ = false;
  }
  StepStatus step(double t, double h) override {
    State y(p_.bodies.size());
    const IntegrationOutcome r =
        run_elsewhere(FixedSteps{t, h, 1}, {.every = 0, .last = true}, y,
                      [](const Observation&, const State&) { return StepStatus::success(); }, nullptr);
    return r.ok ? StepStatus::success() : StepStatus::breakdown(r.cause);
  }
  void read(State& x) const override { x = x_; }
  Counters counters() const override { return counters_; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }
  /// One uncontrolled step's error estimate from the current state (docs/programs.md, the request
  /// `"op": "error_estimate"`), for the check of the estimator's order; nothing when the program does
  /// not declare it or does not give one.
  std::optional<double> error_estimate(double t, double h) override {
    if (!d_->error_estimate) return std::nullopt;
    json req = fixed_;
    req["op"] = "error_estimate";
    continues_ = false;  // the program is reset to this state for the estimate
    req["t0"] = t;
    req["h"] = h;
    req["state"] = state_row(p_, x_);
    std::string why;
    const std::optional<std::string> line = process_.exchange(req.dump(), d_->timeout_seconds, why);
    if (!line) return std::nullopt;
    try {
      const json a = parse_json_input(*line, "answer", JsonLimits{kTrajectoryJsonDepth});
      if (a.is_object() && a.contains("error_estimate") && a["error_estimate"].is_number() &&
          std::isfinite(a["error_estimate"].get<double>()) && a["error_estimate"].get<double>() >= 0)
        return a["error_estimate"].get<double>();
    } catch (const InputError&) {
    }
    return std::nullopt;
  }

  IntegrationOutcome run_elsewhere(const FixedSteps& g, const ObservationPlan& plan, State& x, const detail::ObserveFn& observe,
                                   detail::RunClock* clock) override {
    IntegrationOutcome out;
    out.steps = g.from;
    out.t = g.time(g.from);
    const Expected want = expected_rows(g, plan);
    json req = fixed_;
    req["t0"] = g.t0;
    req["h"] = g.h;
    req["from"] = g.from;
    req["steps"] = g.steps;
    if (g.land_on) req["land_on"] = *g.land_on;
    req["observe"] = {{"every", plan.every}, {"initial", plan.initial}, {"last", true}};
    req["state"] = state_row(p_, x_);
    // The state sent is the one the program's last answer ended at, with no reset since: the program
    // may go on from its own (docs/programs.md, "Continuing").
    req["continues"] = continues_;
    continues_ = false;
    std::string why;
    const double wall0 = now();
    const std::optional<std::string> line = process_.exchange(req.dump(), d_->timeout_seconds, why);
    const double wall = now() - wall0;
    const auto fail = [&](std::int64_t at, const std::string& reason) {
      out.ok = false;
      out.cause = reason;
      out.steps = at;
      out.t = g.time(at);
      out.failed_at = g.time(std::min(at + 1, g.steps));
      out.reason = step_breakdown(at, out.t, g.size(std::min(at, g.steps - 1)), reason);
      return out;
    };
    if (!line) return fail(g.from, why);
    try {
      return answer(*line, g, want, x, observe, clock, wall, out);
    } catch (const InputError& e) {
      return fail(g.from, cat("the program's answer is not one: ", e.what()));
    }
  }

 private:
  /// A breakdown the program declares: the step that failed and why (no reason: the run ends at the
  /// last step). Every state before it that was asked for must be in the answer.
  static std::pair<std::int64_t, std::string> declared_breakdown(const json& a, const FixedSteps& g) {
    if (!a.contains("breakdown") || a["breakdown"].is_null()) return {g.steps, {}};
    const json& b = a["breakdown"];
    if (!b.is_object() || !b.contains("step") || !b["step"].is_number_integer() || !b.contains("reason") ||
        !b["reason"].is_string())
      throw InputError("breakdown: expected {\"step\": n, \"reason\": \"...\"}");
    const std::int64_t end = b["step"].get<std::int64_t>();
    if (end < g.from || end >= g.steps)
      throw InputError(cat("breakdown.step ", std::to_string(end), " is not a step of this run (", std::to_string(g.from),
                           " to ", std::to_string(g.steps - 1), ")"));
    const std::string why = b["reason"].get<std::string>().substr(0, 500);
    return {end, why.empty() ? "the program declared a breakdown without a reason" : why};
  }

  /// The program's own time of its loop per step (docs/programs.md, the answer's `ns_per_step`):
  /// given with every run of steps, and no more than the exchange took - a program cannot spend longer on its steps than
  /// rigidbench waited for it.
  static double time_per_step(const json& a, double steps, double wall) {
    if (a.contains("ns_per_step") && !a["ns_per_step"].is_number())
      throw InputError(cat("\"ns_per_step\" is ", json_brief(a["ns_per_step"]), ", not a number"));
    const double ns = a.contains("ns_per_step") ? a["ns_per_step"].get<double>() : kNaN;
    if (steps <= 0) return ns;
    if (!(ns >= 0)) throw InputError("no \"ns_per_step\" (the program's own time per step, in ns, non-negative)");
    if (ns * steps * 1e-9 > 1.05 * wall + 0.01)
      throw InputError(cat("\"ns_per_step\" says ", format_number(ns, 6), " ns for ", format_number(steps, 10), " steps, ",
                           format_number(ns * steps * 1e-9, 4), " s, in an exchange of ", format_number(wall, 4), " s"));
    return ns;
  }

  /// The answer read and checked against what was asked; the observer called on each state asked for.
  IntegrationOutcome answer(const std::string& line, const FixedSteps& g, const Expected& want, State& x,
                            const detail::ObserveFn& observe, detail::RunClock* clock, double wall, IntegrationOutcome& out) {
    const std::string at = "answer";
    const json a = parse_json_input(line, at, JsonLimits{kTrajectoryJsonDepth});
    if (!a.is_object()) throw InputError("expected a JSON object on one line");
    only_keys(a, {"data", "steps", "breakdown", "counters", "ns_per_step", "error", "meta"}, at);
    // A run the program cannot make (a problem its engine cannot build): the pair's breakdown.
    if (a.contains("error")) {
      out.ok = false;
      out.cause = cat("the program refused the run: ", a["error"].is_string() ? a["error"].get<std::string>().substr(0, 500)
                                                                               : json_brief(a["error"]));
      out.reason = step_breakdown(g.from, g.time(g.from), g.size(g.from), out.cause);
      out.failed_at = g.time(g.from + 1);
      return out;
    }
    const RecordedTrajectory rows = trajectory_from_json(a, at, p_, want.done.size(), d_->conventions);
    const Counters c = counters_from(a, at);
    const auto [end, broke] = declared_breakdown(a, g);
    // A run that broke down owes no time (it is no cost figure).
    const double steps = broke.empty() ? double(g.steps - g.from) : 0;
    const double ns = time_per_step(a, steps, wall);
    // A whole number however written (1000.0 from a Python program that counted in floats).
    if (!a.contains("steps") || !a["steps"].is_number() || a["steps"].get<double>() != double(end))
      throw InputError(cat("\"steps\" says ", a.contains("steps") ? json_brief(a["steps"]) : std::string("nothing"),
                           ", but the run ", broke.empty() ? "was to end" : "broke down", " at step ", std::to_string(end)));
    std::size_t owed = 0;  // rows due before the end
    while (owed < want.done.size() && want.done[owed] <= end) ++owed;
    if (rows.breakdown) owed = std::min(owed, rows.t.size());
    if (rows.t.size() != owed)
      throw InputError(cat(std::to_string(rows.t.size()), " states, where ", std::to_string(owed), " were asked for"));
    add(counters_, c);
    for (std::size_t i = 0; i < rows.t.size(); ++i) {
      const std::int64_t n = want.done[i];
      const double t = g.time(n);
      if (!(std::abs(rows.t[i] - t) <= 1e-9 * std::max(1.0, std::abs(t))))
        throw InputError(cat("state ", std::to_string(i), " is at t = ", format_number(rows.t[i], 17), ", asked for after step ",
                             std::to_string(n), " at t = ", format_number(t, 17)));
      x_ = rows.states[i];
      out.steps = n;
      out.t = t;
      if (!want.observed[i]) continue;
      x = x_;
      const Observation o{want.index(n, g.from), n, t, g.size(n == g.from ? g.from : n - 1)};
      if (StepStatus st = observe(o, x); !st.ok) {
        out.ok = false;
        out.reason = out.cause = std::move(st.reason);
        out.failed_at = t;
        return out;
      }
    }
    if (rows.breakdown) {
      out.ok = false;
      out.cause = "non-finite state";
      out.reason = cat("non-finite state at t = ", format_number(rows.breakdown->t, 10), " (the program's)");
      out.failed_at = rows.breakdown->t;
      return out;
    }
    if (!broke.empty()) {
      out.ok = false;
      out.cause = broke;
      out.reason = step_breakdown(end, g.time(end), g.size(end), broke);
      out.steps = end;
      out.t = g.time(end);
      out.failed_at = g.time(end + 1);
      return out;
    }
    if (clock) {
      clock->cpu_seconds = clock->wall_seconds = steps > 0 ? ns * steps * 1e-9 : 0;
      clock->counters = counters_;
    }
    out.steps = g.steps;
    out.t = g.time(g.steps);
    continues_ = true;
    return out;
  }

  const SchemeInfo& info_;
  std::shared_ptr<const ProgramDeclaration> d_;
  Problem p_;
  ProgramProcess process_;
  State x_;
  Counters counters_;
  json fixed_;
  bool continues_ = false;
};

}  // namespace

SchemeEntry program_scheme_entry(ProgramDeclaration d) {
  const SchemeInfo& info = declare_scheme(d.scheme);
  auto shared = std::make_shared<const ProgramDeclaration>(std::move(d));
  SchemeEntry e{&info,
                [&info, shared](const Problem& p, const SchemeSettings& set) -> std::unique_ptr<AnyIntegrator> {
                  return std::make_unique<ProgramScheme>(info, shared, p, set);
                },
                {},
                false,
                SchemeOrigin::program};
  e.in_all = shared->in_all;
  e.cost_note = "the program's own time of its loop per step (ns_per_step in its answers, no more than the exchange's "
                "wall time; docs/programs.md), not the pipe's";
  return e;
}

std::vector<std::string> register_programs(const std::string& file, bool engines) {
  // A file given twice (--program and $RIGIDBENCH_PROGRAMS, two spellings of one path) is read once.
  static std::mutex m;
  static std::set<std::string> seen;
  std::error_code ec;
  const std::string key = fs::weakly_canonical(fs::absolute(file), ec).string();
  {
    std::lock_guard lock(m);
    if (!seen.insert(key).second) return {};
  }
  std::vector<std::string> names;
  for (ProgramDeclaration& d : read_program_declarations(file)) {
    names.push_back(d.scheme.name);
    d.scheme.engine = engines;
    try {
      register_scheme(program_scheme_entry(std::move(d)));
    } catch (const InputError& e) {  // declare_scheme's checks (the name, the order...) name the file too
      throw InputError(cat(file, ": ", e.what()));
    }
  }
  return names;
}

void register_programs_from_environment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* v = std::getenv("RIGIDBENCH_PROGRAMS");
    if (v == nullptr) return;
    std::string list = v;
    std::size_t from = 0;
    while (from <= list.size()) {
      const std::size_t colon = std::min(list.find(':', from), list.size());
      const std::string f = list.substr(from, colon - from);
      from = colon + 1;
      if (!f.empty()) register_programs(f);
    }
  });
}

void add_programs_to_environment(const std::vector<std::string>& files) {
  std::string list;
  if (const char* v = std::getenv("RIGIDBENCH_PROGRAMS")) list = v;
  for (const std::string& f : files) list += cat(list.empty() ? "" : ":", fs::absolute(f).string());
  setenv("RIGIDBENCH_PROGRAMS", list.c_str(), 1);
}

namespace {

// ---- the protocol, the program's side (the reference implementation) ----

/// One program's integrator, kept while the problem and the settings stay the same, and continued
/// without a reset when a run starts from the state it ended at (a built-in scheme's internal state -
/// a quaternion, a multistep history - then carries over as in one process).
struct Served {
  std::string key;
  std::optional<Problem> problem;
  std::unique_ptr<AnyIntegrator> s;
  std::optional<State> last;
  double last_t = 0;
};

/// The request's state (one row of the default columns), read as a one-row trajectory: the same checks.
State request_state(const json& r, const Problem& p, double t) {
  json one = json::object();
  one["t"] = json::array({t});
  for (const auto& [k, v] : r.at("state").items()) one[k] = json::array({v});
  return trajectory_from_json(json{{"data", one}}, "request.state", p, 1).states.at(0);
}

json serve_one(const SchemeEntry& e, const json& r, Served& sv) {
  if (!r.is_object() || !r.contains("protocol") || r["protocol"] != kProtocol)
    throw InputError(cat("not a request of protocol ", std::to_string(kProtocol)));
  const json settings = r.contains("settings") ? r["settings"] : json::object();
  const std::string key = cat(r.at("problem").dump(), settings.dump());
  if (key != sv.key) {
    sv.problem.emplace(problem_from_json(r.at("problem"), "request.problem"));
    SchemeSettings set;
    for (const auto& [k, v] : settings.items()) set.values[k] = v.get<double>();
    sv.s = e.make(*sv.problem, set);
    sv.key = key;
    sv.last.reset();
  }
  const Problem& p = *sv.problem;
  if (r.value("op", std::string("run")) == "error_estimate") {
    const double t = r.at("t0").get<double>(), h = r.at("h").get<double>();
    sv.s->reset(request_state(r, p, t), t);
    sv.last.reset();
    const std::optional<double> e = sv.s->error_estimate(t, h);
    if (!e) throw InputError("this scheme gives no error estimate");
    return json{{"error_estimate", *e}};
  }
  FixedSteps g{r.at("t0").get<double>(), r.at("h").get<double>(), r.at("steps").get<std::int64_t>(), std::nullopt,
               r.at("from").get<std::int64_t>()};
  if (r.contains("land_on")) g.land_on = r["land_on"].get<double>();
  const State x0 = request_state(r, p, g.time(g.from));
  const Counters c0 = sv.s->counters();  // before a reset, which may evaluate (an FSAL stage)
  if (!(r.value("continues", false) && sv.last && same_state(*sv.last, x0) && sv.last_t == g.time(g.from)))
    sv.s->reset(x0, g.time(g.from));
  const json& o = r.at("observe");
  const ObservationPlan plan{o.at("every").get<std::int64_t>(), o.at("initial").get<bool>(), o.at("last").get<bool>()};
  const std::vector<std::string> cols = trajectory_columns(p);
  std::vector<json> data(cols.size(), json::array());
  std::vector<double> v(cols.size() - 1);
  State x(p.bodies.size());
  const auto t0 = std::chrono::steady_clock::now();
  const IntegrationOutcome out = integrate(*sv.s, g, plan, x, [&](const Observation& ob, const State& y) {
    data[0].push_back(ob.t);
    flatten(y, p.translating(), v.data());
    for (std::size_t c = 1; c < cols.size(); ++c) data[c].push_back(v[c - 1]);
  });
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  json a = json::object();
  a["data"] = json::object();
  for (std::size_t c = 0; c < cols.size(); ++c) a["data"][cols[c]] = std::move(data[c]);
  a["steps"] = out.steps;
  if (!out.ok) a["breakdown"] = {{"step", out.steps}, {"reason", out.cause}};
  if (g.steps > g.from) a["ns_per_step"] = ns / double(g.steps - g.from);
  const Counters c1 = sv.s->counters();
  a["counters"] = {{"load_evaluations", c1.load_evaluations - c0.load_evaluations},
                   {"newton_iterations", c1.newton_iterations - c0.newton_iterations},
                   {"jacobian_evaluations", c1.jacobian_evaluations - c0.jacobian_evaluations},
                   {"accepted_steps", c1.accepted_steps - c0.accepted_steps},
                   {"rejected_steps", c1.rejected_steps - c0.rejected_steps},
                   {"rhs_evaluations", c1.rhs_evaluations - c0.rhs_evaluations},
                   {"shortened_steps", c1.shortened_steps - c0.shortened_steps}};
  if (out.ok) {
    sv.s->read(x);
    sv.last = x;
    sv.last_t = g.time(g.steps);
  } else {
    sv.last.reset();
  }
  return a;
}

}  // namespace

int serve_program(const SchemeEntry& e, std::istream& in, std::ostream& out) {
  Served sv;
  std::string line;
  while (std::getline(in, line)) {
    json a;
    try {
      a = serve_one(e, parse_json_input(line, "request"), sv);
    } catch (const std::exception& ex) {  // a malformed request, a problem the scheme refuses
      a = json{{"error", ex.what()}};
      sv = Served{};
    }
    out << a.dump() << '\n' << std::flush;
  }
  return 0;
}

}  // namespace rigidbench
