// Outputs never replace what is not theirs (issue "Reliability, third pass", class 1; docs/decisions.md,
// "Writing files"): every report, snapshot, table and JUnit file goes through AtomicFile, which
// renames a temporary over the target only when the target is a regular file or absent. A link is
// followed (its file replaced, the link kept), a character device or a FIFO is written through, and
// a folder, a block device or a socket is refused with IoError - each left as it was.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "../core/atomic_file.hpp"
#include "../core/json_input.hpp"
#include "../core/text_escape.hpp"
#include "../core/types.hpp"
#include "../reports/field_json.hpp"
#include "../reports/pair_report.hpp"
#include "../reports/result_fields.hpp"
#include "../reports/report.hpp"
#include "../reports/verify_report.hpp"
#include "../tracking/compare.hpp"
#include "support.hpp"

using namespace rigidbench;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A fresh, empty folder for one test case.
fs::path fresh(const std::string& name) {
  const fs::path d = test::tmp_path(name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// Nothing but `keep` in `dir`: no temporary left behind.
bool only(const fs::path& dir, std::initializer_list<const char*> keep) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++n;
  }
  return n == keep.size();
}

}  // namespace

TEST_CASE("outputs: a link is followed - its file is replaced and the link kept", "[outputs]") {
  const fs::path d = fresh("out-links");
  std::ofstream(d / "target.json") << "old";
  fs::create_symlink("target.json", d / "report.json");  // relative, as `ln -s` makes them
  write_atomic((d / "report.json").string(), "new");
  CHECK(fs::is_symlink(d / "report.json"));
  CHECK(slurp(d / "target.json") == "new");

  // A link to a file not there yet (a dangling link) creates that file, as a shell's `>` does.
  fs::create_symlink(d / "later.json", d / "dangling.json");
  write_atomic((d / "dangling.json").string(), "made");
  CHECK(fs::is_symlink(d / "dangling.json"));
  CHECK(fs::is_regular_file(d / "later.json"));
  CHECK(slurp(d / "later.json") == "made");

  // A loop of links is refused, both links left.
  fs::create_symlink("loop-b", d / "loop-a");
  fs::create_symlink("loop-a", d / "loop-b");
  CHECK_THROWS_AS(write_atomic((d / "loop-a").string(), "x"), IoError);
  CHECK(fs::is_symlink(d / "loop-a"));
  CHECK(only(d, {"target.json", "report.json", "dangling.json", "later.json", "loop-a", "loop-b"}));
}

TEST_CASE("outputs: a link planted where the temporary will be is never written through", "[outputs][security]") {
  // The temporary was ".<name>.tmp.<pid>.<n>", n counting up from 0 in the process, opened with
  // fopen "wb": a link at that name made a report overwrite whatever it pointed to. Links planted at
  // every such name this process could use leave the victim untouched now.
  const fs::path d = fresh("out-planted-tmp");
  std::ofstream(d / "victim") << "precious";
  for (int n = 0; n < 2000; ++n)
    fs::create_symlink(d / "victim", d / cat(".report.json.tmp.", std::to_string(::getpid()), ".", std::to_string(n)));
  write_atomic((d / "report.json").string(), "the report");
  CHECK(slurp(d / "victim") == "precious");
  CHECK(slurp(d / "report.json") == "the report");
  CHECK(fs::is_regular_file(fs::symlink_status(d / "report.json")));
}

TEST_CASE("outputs: a link or FIFO of another user's, at the file or on its way, is never written through",
          "[outputs][security]") {
  if (::geteuid() != 0) {
    WARN("not root: cannot plant a file of another user; skipped");
    return;
  }
  const auto refused = [](const fs::path& out) {
    try {
      write_atomic(out.string(), "overwritten");
      return false;
    } catch (const IoError& e) {
      return std::string(e.what()).find("another user (uid 4242)") != std::string::npos;
    }
  };
  const fs::path d = fresh("out-foreign");
  REQUIRE(::chmod(d.c_str(), 01777) == 0);  // like /tmp
  const fs::path victims = fresh("out-foreign-victims");
  std::ofstream(victims / "report.json") << "precious";
  // The file itself a link of uid 4242's, in a sticky folder and in an ordinary one (a folder another
  // user made at a predictable `--out /tmp/x`).
  fs::create_symlink(victims / "report.json", d / "report.json");
  REQUIRE(::lchown((d / "report.json").c_str(), 4242, 4242) == 0);
  CHECK(refused(d / "report.json"));
  const fs::path theirs = fresh("out-foreign-theirs");
  REQUIRE(::chown(theirs.c_str(), 4242, 4242) == 0);
  fs::create_symlink(victims / "report.json", theirs / "report.json");
  REQUIRE(::lchown((theirs / "report.json").c_str(), 4242, 4242) == 0);
  CHECK(refused(theirs / "report.json"));
  // A folder on the way a link of theirs (`--out S/ld`, S sticky).
  fs::create_symlink(victims, d / "ld");
  REQUIRE(::lchown((d / "ld").c_str(), 4242, 4242) == 0);
  CHECK(refused(d / "ld" / "report.json"));
  // Through a link of this user's that leads through one of theirs.
  fs::create_symlink(d / "ld", d / "mine");
  CHECK(refused(d / "mine" / "report.json"));
  CHECK(slurp(victims / "report.json") == "precious");
  // A FIFO of theirs (its reader would get the report).
  REQUIRE(::mkfifo((d / "pipe").c_str(), 0666) == 0);
  REQUIRE(::chown((d / "pipe").c_str(), 4242, 4242) == 0);
  const int reader = ::open((d / "pipe").c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  CHECK(refused(d / "pipe"));
  ::close(reader);
  // Links of this user's and root's are followed as before.
  fs::create_symlink(victims / "report.json", d / "own.json");
  write_atomic((d / "own.json").string(), "new");
  CHECK(slurp(victims / "report.json") == "new");
}

TEST_CASE("outputs: a file this process read as an input is never replaced", "[outputs][security]") {
  const fs::path d = fresh("out-over-input");
  std::ofstream(d / "in.json") << R"({"kept": true})";
  (void)read_json_input((d / "in.json").string(), "the report");
  fs::create_symlink("in.json", d / "alias.json");
  for (const fs::path& out : {d / "in.json", d / "alias.json", d / "." / "in.json"}) {
    try {
      write_atomic(out.string(), "replaced");
      FAIL("replaced an input through " << out);
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains("the report") && Catch::Contains("does not replace its own input"));
    }
  }
  CHECK(slurp(d / "in.json") == R"({"kept": true})");
  CHECK(only(d, {"in.json", "alias.json"}));
}

TEST_CASE("outputs: a FIFO is written through, and one nobody reads is refused at once", "[outputs]") {
  const fs::path d = fresh("out-fifo");
  const fs::path fifo = d / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);

  // No reader: an immediate IoError, not a process blocked forever in open().
  try {
    write_atomic(fifo.string(), "lost");
    FAIL("a FIFO without a reader was written");
  } catch (const IoError& e) {
    CHECK_THAT(e.what(), Catch::Contains("no program reads"));
  }
  CHECK(fs::is_fifo(fifo));

  // With a reader: the bytes arrive through the pipe, and the FIFO is still a FIFO.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  write_atomic(fifo.string(), "{\"through\": true}\n");
  char buf[64] = {};
  const ssize_t n = ::read(reader, buf, sizeof buf - 1);
  ::close(reader);
  CHECK(std::string(buf, n > 0 ? std::size_t(n) : 0) == "{\"through\": true}\n");
  CHECK(fs::is_fifo(fifo));
  CHECK(only(d, {"pipe"}));
}

TEST_CASE("outputs: a folder and a socket are refused and left as they are", "[outputs]") {
  const fs::path d = fresh("out-refused");
  fs::create_directories(d / "report.json");
  try {
    write_atomic((d / "report.json").string(), "x");
    FAIL("a folder was replaced");
  } catch (const IoError& e) {
    CHECK_THAT(e.what(), Catch::Contains("it is a folder"));
  }
  CHECK(fs::is_directory(d / "report.json"));

  const fs::path sock = d / "socket";
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(s >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  REQUIRE(sock.string().size() < sizeof addr.sun_path);
  std::strcpy(addr.sun_path, sock.c_str());
  REQUIRE(::bind(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
  try {
    write_atomic(sock.string(), "x");
    FAIL("a socket was replaced");
  } catch (const IoError& e) {
    CHECK_THAT(e.what(), Catch::Contains("it is a socket"));
  }
  ::close(s);
  CHECK(fs::is_socket(sock));
  CHECK(only(d, {"report.json", "socket"}));
}

TEST_CASE("outputs: a character device is written through, never replaced (as root: null and full)", "[outputs]") {
  // Device nodes of our own (mknod: root, outside a restricted container) rather than the system's
  // /dev/null and /dev/full: a regression here must not replace the machine's devices.
  const fs::path d = fresh("out-devices");
  const fs::path null_dev = d / "null", full_dev = d / "full";
  if (::mknod(null_dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0 ||
      ::mknod(full_dev.c_str(), S_IFCHR | 0666, ::makedev(1, 7)) != 0) {
    WARN("mknod refused (" << std::strerror(errno) << "): character devices not tested here");
    return;
  }
  write_atomic(null_dev.string(), "discarded");
  CHECK(fs::is_character_file(null_dev));
  try {
    write_atomic(full_dev.string(), std::string(1 << 16, 'x'));
    FAIL("a write to a full device succeeded");
  } catch (const IoError& e) {
    CHECK_THAT(e.what(), Catch::Contains("No space left on device"));
  }
  CHECK(fs::is_character_file(full_dev));
  CHECK(only(d, {"null", "full"}));
}

TEST_CASE("text from inputs: terminal and Markdown escapes", "[outputs]") {
  CHECK(terminal_text("plain text\twith tab\nand newline") == "plain text\twith tab\nand newline");
  CHECK(terminal_text("title\x1b]0;pwned\x07 and \r overwrite") == "title\\x1b]0;pwned\\x07 and \\x0d overwrite");
  // An identity stays one line: newline and tab escaped too (the history's keys).
  CHECK(line_text("v1\nr2\tx") == "v1\\x0ar2\\x09x");
  CHECK(line_text("v1.2-test") == "v1.2-test");
  CHECK(markdown_text("a|b\nc <script>x</script> & `d`") == "a\\|b c &lt;script&gt;x&lt;/script&gt; &amp; \\`d\\`");
  CHECK(markdown_text("lie_euler") == "lie_euler");

  // End to end: bytes that would reprogram the terminal reach it as text.
  const auto r = test::run_cli("verify --problem \"$(printf 'top\\033]0;pwned\\007')\" --out /nonexistent.json");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find('\x1b') == std::string::npos);
  CHECK(r.output.find('\x07') == std::string::npos);
  CHECK_THAT(r.output, Catch::Contains("top\\x1b]0;pwned\\x07"));
}

TEST_CASE("text from inputs: compare.md keeps its table whatever a report's strings hold", "[outputs]") {
  nlohmann::ordered_json c = {{"metric", "attitude_error_final"}, {"target_error", 1e-6}, {"method", "m"}};
  nlohmann::ordered_json P = {{"problem", "toy"},
                              {"title", "Toy | top\n<img src=x onerror=alert(1)>"},
                              {"rank_by", "instructions"},
                              {"h_fixed", 0.01},
                              {"rows", nlohmann::ordered_json::array()},
                              {"skipped", nlohmann::ordered_json::array()}};
  // Arrays spelled out: a one-element braced list is an array to GCC and a copy to Clang.
  P["skipped"].push_back({{"integrator", "lie_euler"}, {"reason", "no | table\nbreak <b>"}});
  c["problems"] = nlohmann::ordered_json::array();
  c["problems"].push_back(P);
  const std::string md = compare_markdown(c);
  CHECK(md.find("<img") == std::string::npos);
  CHECK(md.find("<b>") == std::string::npos);
  CHECK_THAT(md, Catch::Contains("## toy — Toy \\| top &lt;img"));
  CHECK_THAT(md, Catch::Contains("(no \\| table break &lt;b&gt;)"));
}

TEST_CASE("inputs: JSON within a stated number of values, read in linear time", "[inputs]") {
  JsonLimits limits;
  limits.max_values = 1000;
  std::string text = "[";
  for (int i = 0; i < 999; ++i) text += i ? ",{}" : "{}";
  text += "]";  // 1000 values: the array and 999 objects
  CHECK_NOTHROW(parse_json_input(text, "x", limits));
  text.insert(1, "{},");
  CHECK_THROWS_WITH(parse_json_input(text, "x", limits), Catch::Contains("more than 1000 JSON values"));
  // Keys count: an object of 600 keys and 600 numbers is 1201 values.
  std::string keys = "{";
  for (int i = 0; i < 600; ++i) keys += cat(i ? "," : "", "\"k", std::to_string(i), "\":1");
  CHECK_THROWS_WITH(parse_json_input(keys + "}", "x", limits), Catch::Contains("JSON values"));
  // 200 000 empty objects in one array: the callback parser used before rescanned the array at the
  // end of every object (2e10 steps, minutes); two linear passes take milliseconds. No time is
  // asserted here (scripts/input-memory.py measures the growth); a relapse shows as this test's time.
  std::string many = "[";
  for (int i = 0; i < 200000; ++i) many += i ? ",{}" : "{}";
  CHECK(parse_json_input(many + "]", "x").size() == 200000);
}

TEST_CASE("shell_text: a word a POSIX shell reads back as given", "[outputs]") {
  CHECK(shell_text("build/release/cli/rigidbench") == "build/release/cli/rigidbench");
  CHECK(shell_text("--integrator=gr_*") == "'--integrator=gr_*'");  // a glob is quoted
  CHECK(shell_text("a b") == "'a b'");
  CHECK(shell_text("it's") == "'it'\\''s'");
  CHECK(shell_text("") == "''");
  CHECK(shell_text("$(rm -rf /)") == "'$(rm -rf /)'");
}

TEST_CASE("field_json: what a declared field list writes and reads back", "[outputs]") {
  using nlohmann::ordered_json;
  // Numbers that could not be computed are null and read back as NaN; an enumeration by its name;
  // a field written only when set is absent otherwise; a group is one nested object.
  ToleranceStudy T;
  T.tol0 = 1e-4;
  T.proportionality.slope = kNaN;
  T.proportionality_verdict = Verdict::fail;
  ToleranceLevel lv;
  lv.tol = 1e-4;
  lv.errors["attitude_error_max"] = 2e-5;
  lv.counters.accepted_steps = 12;
  lv.invariant_drift = {{"energy", 1e-9}, {"spatial_momentum", kNaN}};
  T.levels.push_back(lv);
  const ordered_json j = field_json::write(T);
  CHECK(j["tol0"] == 1e-4);
  CHECK(j["proportionality"]["slope"].is_null());
  CHECK(j["proportionality"]["verdict"] == "fail");
  CHECK(j["proportionality"]["tolerance"] == kProportionalityTolerance);  // the rule's constant, written
  CHECK(!j.contains("estimator"));                                        // written only when set
  const ordered_json& l = j["levels"][0];
  CHECK(l["status"] == "ok");
  CHECK(l["attitude_error"] == 2e-5);  // the legacy key, from errors
  CHECK(l["omega_error"].is_null());
  CHECK(!l.contains("seconds_max"));
  CHECK(!l.contains("position_error"));  // not a translating problem
  CHECK(l["invariant_drift"].dump() == R"({"energy":1e-09,"spatial_momentum":null})");
  // Read back: the same document, and the values.
  const ToleranceStudy back = field_json::read_as<ToleranceStudy>(j);
  CHECK(field_json::write(back).dump() == j.dump());
  CHECK(back.proportionality_verdict == Verdict::fail);
  CHECK(std::isnan(back.proportionality.slope));
  CHECK(back.levels.at(0).counters.accepted_steps == 12);
  CHECK(std::isnan(back.levels.at(0).invariant_drift.at(1).second));
  // What the schema admits and the type cannot hold takes the default: an unknown name, a negative count.
  ordered_json odd = j;
  odd["proportionality"]["verdict"] = "maybe";
  odd["levels"][0]["accepted_steps"] = -3;
  const ToleranceStudy o = field_json::read_as<ToleranceStudy>(odd);
  CHECK(o.proportionality_verdict == Verdict::undefined);
  CHECK(o.levels.at(0).counters.accepted_steps == 0);
  // A report from before `errors` existed: its four keys are read into it.
  ordered_json old = j;
  old["levels"][0].erase("errors");
  CHECK(field_json::read_as<ToleranceStudy>(old).levels.at(0).error("attitude_error_max") == 2e-5);
  // A body system's reference: its largest estimate is a position's, which is not written apart;
  // read back and written again, the largest is the same.
  ReferenceSummary ref;
  ref.error_estimate = {1e-12, 2e-12, 5e-10, 3e-11};
  const ordered_json rj = field_json::write(ref);
  CHECK(rj["error_estimate"] == 5e-10);
  CHECK(field_json::write(field_json::read_as<ReferenceSummary>(rj)).dump() == rj.dump());
}

TEST_CASE("reports: a pair's result read back and written again is the same document", "[outputs]") {
  // Pairs with every section: Q_II and invariants (the top), anatomy and structure (dzhanibekov),
  // a skipped pair (the nonholonomic scheme on a free body), settings of a scheme (rig_neg's Newton).
  SuiteRequest req;
  req.problems = {"heavy_top", "dzhanibekov"};
  req.integrators = {"odeint_rk4_quat", "lgvi", "rig_neg", "gr_nonholonomic"};
  req.ladder.levels = 4;
  req.progress = false;
  req.measure_cost = false;
  const nlohmann::ordered_json report = suite_report(run_suite(req), {}, "2026-01-01T00:00:00Z");
  int skipped = 0, with_structure = 0, with_anatomy = 0;
  for (const auto& r : report["results"]) {
    INFO(r["integrator"].get<std::string>() << " on " << r["problem"].get<std::string>());
    const PairReport p = PairReport::read(r);
    CHECK(p.to_json().dump() == r.dump());  // the same bytes, key order included
    // From a report read with sorted keys (what the gate and the history read): the same values.
    const PairReport q = PairReport::read(nlohmann::json::parse(r.dump()));
    CHECK(nlohmann::json::parse(q.to_json().dump()) == nlohmann::json::parse(r.dump()));
    skipped += p.skipped();
    with_structure += p.structure.has_value();
    with_anatomy += p.anatomy.has_value();
  }
  CHECK(skipped >= 1);
  CHECK(with_structure >= 1);
  CHECK(with_anatomy >= 1);
  // The whole report too, with an expected-findings list applied (its outcomes and counts).
  VerifyReport whole = VerifyReport::read(report, "the report");
  CHECK(whole.to_json().dump() == report.dump());
  ExpectationReport e;
  e.outcomes.push_back({"rig_neg", "heavy_top", "q_ii", "expected_failure", "a listed reason"});
  e.expected_failures = 1;
  whole.add(e, "expected.json");
  const nlohmann::ordered_json with = whole.to_json();
  CHECK(with["summary"]["expected_failures"] == 1);
  CHECK(with["expectations"]["outcomes"][0]["reason"] == "a listed reason");
  CHECK(VerifyReport::read(with, "again").to_json().dump() == with.dump());
  // Not a report: refused by the reader with the JSON path.
  nlohmann::ordered_json bad = report;
  bad["results"][0]["status"] = "maybe";
  CHECK_THROWS_WITH(VerifyReport::read(bad, "the report"), Catch::Contains("the report") && Catch::Contains("/results/0/status"));
}
