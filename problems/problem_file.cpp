#include "problem_file.hpp"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>

#include "../core/json_input.hpp"
#include "../core/quaternion.hpp"
#include "../core/rrp.hpp"
#include "../core/so3.hpp"
#include "catalogue.hpp"
#include "file_reader.hpp"
#include "../core/json_schema.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json json_vec(const Vec3& v) { return ordered_json::array({v[0], v[1], v[2]}); }
ordered_json json_mat(const Mat3& m) {
  ordered_json a = ordered_json::array();
  for (int i = 0; i < 3; ++i) a.push_back(ordered_json::array({m(i, 0), m(i, 1), m(i, 2)}));
  return a;
}

void ProblemFileReader::fail(const std::string& path, const std::string& what) const {
  throw InputError(origin + ": " + (path.empty() ? "/" : path) + ": " + what);
}
const json& ProblemFileReader::field(const json& obj, const std::string& path, const char* key) const {
  if (!obj.contains(key)) fail(path, std::string("missing required field '") + key + "'");
  return obj.at(key);
}
void ProblemFileReader::only(const json& obj, const std::string& path, const std::vector<const char*>& keys) const {
  if (!obj.is_object()) fail(path, "expected an object, got " + std::string(obj.type_name()));
  std::set<std::string> allowed(keys.begin(), keys.end());
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (!allowed.count(it.key())) {
      std::string list;
      for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
      fail(path, "unknown field '" + it.key() + "' (allowed: " + list + ")");
    }
}
double ProblemFileReader::number(const json& j, const std::string& path) const {
  if (!j.is_number()) fail(path, "expected a number, got " + json_brief(j));
  const double x = j.get<double>();
  if (!std::isfinite(x)) fail(path, "expected a finite number");
  return x;
}
long long ProblemFileReader::integer(const json& j, const std::string& path, long long lo, long long hi) const {
  if (!j.is_number_integer()) fail(path, "expected an integer, got " + json_brief(j));
  // nlohmann keeps a non-negative integer as unsigned (up to 2^64 - 1): compare before converting.
  bool ok;
  if (j.is_number_unsigned()) {
    const std::uint64_t u = j.get<std::uint64_t>();
    ok = hi >= 0 && u <= std::uint64_t(hi) && (lo <= 0 || u >= std::uint64_t(lo));
  } else {
    const std::int64_t v = j.get<std::int64_t>();
    ok = v >= lo && v <= hi;
  }
  if (!ok) fail(path, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + json_brief(j));
  return j.get<std::int64_t>();
}
std::string ProblemFileReader::text(const json& j, const std::string& path) const {
  if (!j.is_string()) fail(path, "expected a string, got " + std::string(j.type_name()));
  return j.get<std::string>();
}
Vec3 ProblemFileReader::vec3(const json& j, const std::string& path) const {
  if (!j.is_array() || j.size() != 3) fail(path, "expected an array of 3 numbers, got " + json_brief(j));
  return Vec3(number(j[0], path + "/0"), number(j[1], path + "/1"), number(j[2], path + "/2"));
}
Mat3 ProblemFileReader::mat3(const json& j, const std::string& path) const {
  if (!j.is_array() || j.size() != 3) fail(path, "expected a 3x3 array (3 rows of 3 numbers), got " + json_brief(j));
  Mat3 m;
  for (int i = 0; i < 3; ++i) m.row(i) = vec3(j[i], path + "/" + std::to_string(i)).transpose();
  return m;
}

constexpr int kFormatVersion = 1;


ordered_json problem_to_json(const Problem& p) {
  ordered_json j;
  j["rigidbench_problem"] = kFormatVersion;
  j["name"] = p.name;
  j["title"] = p.title;
  j["source"] = p.source;
  j["family"] = p.family->name();
  j["bodies"] = ordered_json::array();
  for (std::size_t i = 0; i < p.bodies.size(); ++i) {
    ordered_json bj = {{"inertia", json_mat(p.bodies[i].inertia)}, {"mass", p.bodies[i].mass}};
    p.family->write_body(p, i, bj);
    j["bodies"].push_back(bj);
  }
  j["loads"] = ordered_json::array();
  for (const Load& l : p.loads)
    j["loads"].push_back(std::visit(
        overloaded{[](const UniformField& f) -> ordered_json {
                     return {{"type", "uniform_field"}, {"mass", f.mass}, {"acceleration", json_vec(f.acceleration)},
                             {"point", json_vec(f.point)}};
                   },
                   [](const FollowerMoment& m) -> ordered_json {
                     ordered_json knots = ordered_json::array();
                     for (const auto& [t, v] : m.profile.knots) knots.push_back(ordered_json::array({t, v}));
                     return {{"type", "follower_moment"}, {"body", json_vec(m.body)}, {"profile", knots}};
                   }},
        l));
  p.family->write(p, j);  // the family's own section (docs/problem-files.md)
  j["initial"] = ordered_json::array();
  for (const BodyState& s : p.initial.bodies) {
    ordered_json b = {{"attitude", {{"matrix", json_mat(s.R)}}}, {"angular_velocity", {{"body", json_vec(s.W)}}}};
    if (p.translating()) {
      b["position"] = json_vec(s.x);
      b["velocity"] = json_vec(s.v);
    }
    j["initial"].push_back(b);
  }
  j["time"] = {{"t0", p.t0}, {"t_end", p.t_end}};
  const auto& v = p.verification;
  ordered_json vj = {{"h0", v.h0}, {"levels", v.levels}};
  if (v.h0_order1) vj["h0_order1"] = *v.h0_order1;
  vj["sample_times"] = v.sample_times;
  if (v.t_end) vj["t_end"] = *v.t_end;
  vj["exact_threshold"] = v.exact_threshold;
  j["verification"] = vj;
  return j;
}

namespace {

/// An initial attitude: exactly one of matrix, rotation_vector, rrp, quaternion (at: its JSON pointer).
Mat3 read_attitude(const json& att, const std::string& at, ProblemFileReader& r) {
  r.only(att, at, {"matrix", "rotation_vector", "rrp", "quaternion"});
  if (att.size() != 1)
    r.fail(at, "give exactly one of matrix, rotation_vector, rrp, quaternion");
  if (att.contains("matrix")) {
    return r.mat3(att["matrix"], at + "/matrix");
  } else if (att.contains("rotation_vector")) {
    return so3::exp(r.vec3(att["rotation_vector"], at + "/rotation_vector"));
  } else if (att.contains("rrp")) {
    return rrp::to_matrix(r.vec3(att["rrp"], at + "/rrp"));
  } else {
    const json& q = att["quaternion"];
    if (!q.is_array() || q.size() != 4) r.fail(at + "/quaternion", "expected [w, x, y, z]");
    Vec4 qv;
    for (int k = 0; k < 4; ++k) qv[k] = r.number(q[k], at + "/quaternion/" + std::to_string(k));
    if (std::abs(qv.norm() - 1.0) > 1e-10)
      r.fail(at + "/quaternion", "not a unit quaternion (|q| = " + std::to_string(qv.norm()) + ")");
    return quat::to_matrix(qv);
  }
}

/// "bodies": each body's inertia and mass (and the keys its family adds).
void read_bodies(const json& j, const std::vector<const char*>& body_keys, ProblemFileReader& r, Problem& p) {
  const json& bodies = r.field(j, "", "bodies");
  if (!bodies.is_array() || bodies.empty()) r.fail("/bodies", "expected a non-empty array of bodies");
  p.bodies.clear();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string bp = "/bodies/" + std::to_string(i);
    r.only(bodies[i], bp, body_keys);
    BodyModel b;
    b.inertia = r.mat3(r.field(bodies[i], bp, "inertia"), bp + "/inertia");
    b.mass = bodies[i].contains("mass") ? r.number(bodies[i]["mass"], bp + "/mass") : 1.0;
    p.bodies.push_back(b);
  }
}

/// "loads": uniform fields and follower moments.
void read_loads(const json& j, ProblemFileReader& r, Problem& p) {
  if (j.contains("loads")) {
    const json& loads = j["loads"];
    if (!loads.is_array()) r.fail("/loads", "expected an array");
    for (std::size_t i = 0; i < loads.size(); ++i) {
      const std::string lp = "/loads/" + std::to_string(i);
      const std::string type = r.text(r.field(loads[i], lp, "type"), lp + "/type");
      if (type == "follower_moment") {
        // {"type": "follower_moment", "body": [B1, B2, B3], "profile": [[t, f(t)], ...]}: m = f(t) R B.
        r.only(loads[i], lp, {"type", "body", "profile"});
        FollowerMoment m;
        m.body = r.vec3(r.field(loads[i], lp, "body"), lp + "/body");
        if (loads[i].contains("profile")) {
          const json& pr = loads[i]["profile"];
          if (!pr.is_array()) r.fail(lp + "/profile", "expected an array of [t, value] pairs");
          for (std::size_t k = 0; k < pr.size(); ++k) {
            const std::string kp = lp + "/profile/" + std::to_string(k);
            if (!pr[k].is_array() || pr[k].size() != 2) r.fail(kp, "expected [t, value], got " + json_brief(pr[k]));
            m.profile.knots.emplace_back(r.number(pr[k][0], kp + "/0"), r.number(pr[k][1], kp + "/1"));
          }
        }
        p.loads.push_back(m);
        continue;
      }
      r.only(loads[i], lp, {"type", "mass", "acceleration", "point"});
      if (type != "uniform_field")
        r.fail(lp + "/type", "unknown load type '" + type + "' (known: uniform_field, follower_moment)");
      p.loads.push_back(UniformField{.mass = r.number(r.field(loads[i], lp, "mass"), lp + "/mass"),
                                     .acceleration = r.vec3(r.field(loads[i], lp, "acceleration"), lp + "/acceleration"),
                                     .point = r.vec3(r.field(loads[i], lp, "point"), lp + "/point")});
    }
  }
}

/// "initial": each body's attitude, angular velocity and (translating families) position and velocity.
void read_initial(const json& j, ProblemFileReader& r, Problem& p) {
  const json& init = r.field(j, "", "initial");
  if (!init.is_array() || init.size() != p.bodies.size())
    r.fail("/initial", "expected an array with one entry per body (" + std::to_string(p.bodies.size()) + ")");
  p.initial = State(p.bodies.size());
  for (std::size_t i = 0; i < init.size(); ++i) {
    const std::string ip = "/initial/" + std::to_string(i);
    r.only(init[i], ip, {"attitude", "angular_velocity", "position", "velocity"});
    BodyState& s = p.initial.bodies[i];
    s.R = read_attitude(r.field(init[i], ip, "attitude"), ip + "/attitude", r);
    const json& av = r.field(init[i], ip, "angular_velocity");
    r.only(av, ip + "/angular_velocity", {"body", "spatial"});
    if (av.size() != 1) r.fail(ip + "/angular_velocity", "give exactly one of body, spatial");
    if (av.contains("body")) s.W = r.vec3(av["body"], ip + "/angular_velocity/body");
    else s.W = s.R.transpose() * r.vec3(av["spatial"], ip + "/angular_velocity/spatial");
    if (init[i].contains("position")) s.x = r.vec3(init[i]["position"], ip + "/position");
    if (init[i].contains("velocity")) s.v = r.vec3(init[i]["velocity"], ip + "/velocity");
  }
}

/// "time" and "verification": the span and the ladder's settings.
void read_time_and_verification(const json& j, ProblemFileReader& r, Problem& p) {
  const json& time = r.field(j, "", "time");
  r.only(time, "/time", {"t0", "t_end"});
  p.t0 = time.contains("t0") ? r.number(time["t0"], "/time/t0") : 0.0;
  p.t_end = r.number(r.field(time, "/time", "t_end"), "/time/t_end");

  const json& vj = r.field(j, "", "verification");
  r.only(vj, "/verification", {"h0", "levels", "h0_order1", "sample_times", "exact_threshold", "t_end"});
  auto& v = p.verification;
  v.h0 = r.number(r.field(vj, "/verification", "h0"), "/verification/h0");
  if (vj.contains("levels")) {
    v.levels = int(r.integer(vj["levels"], "/verification/levels", 3, 24));  // the ladder's bounds (verification/runner.cpp)
  }
  if (vj.contains("h0_order1")) v.h0_order1 = r.number(vj["h0_order1"], "/verification/h0_order1");
  if (vj.contains("t_end")) v.t_end = r.number(vj["t_end"], "/verification/t_end");
  if (vj.contains("sample_times")) {
    if (!vj["sample_times"].is_array()) r.fail("/verification/sample_times", "expected an array of numbers");
    for (std::size_t i = 0; i < vj["sample_times"].size(); ++i)
      v.sample_times.push_back(r.number(vj["sample_times"][i], "/verification/sample_times/" + std::to_string(i)));
  }
  if (vj.contains("exact_threshold")) v.exact_threshold = r.number(vj["exact_threshold"], "/verification/exact_threshold");
}

}  // namespace

Problem problem_from_json(const json& j, const std::string& origin) {
  ProblemFileReader r{origin};
  if (!j.is_object()) r.fail("", "expected an object, got " + std::string(j.type_name()));
  // The shape and types first, against the published schema (reports/schema/problem-1.schema.json);
  // what follows checks what a schema cannot say, and the keys of the problem's own family.
  validate_document(j, DocumentSchema::problem, origin);
  // The family first: it says which further keys the file may hold (its section).
  const std::string fam = r.text(r.field(j, "", "family"), "/family");
  const Family* family = nullptr;
  try {
    family = &find_family(fam);
  } catch (const InputError& e) {
    r.fail("/family", e.what());
  }
  std::vector<const char*> keys{"rigidbench_problem", "name", "title", "source", "family", "bodies", "loads",
                                "initial", "time", "verification"};
  for (const char* k : family->file_keys()) keys.push_back(k);
  std::vector<const char*> body_keys{"inertia", "mass"};
  for (const char* k : family->body_file_keys()) body_keys.push_back(k);
  r.only(j, "", keys);
  const json& ver = r.field(j, "", "rigidbench_problem");
  if (!ver.is_number_integer() || !(ver.is_number_unsigned() ? ver.get<std::uint64_t>() == kFormatVersion
                                                                 : ver.get<std::int64_t>() == kFormatVersion))
    r.fail("/rigidbench_problem", "unsupported problem-file version " + json_brief(ver) + " (this build reads " +
                                      std::to_string(kFormatVersion) + ")");
  Problem p;
  p.name = r.text(r.field(j, "", "name"), "/name");
  if (j.contains("title")) p.title = r.text(j["title"], "/title");
  if (j.contains("source")) p.source = r.text(j["source"], "/source");
  p.family = family;

  read_bodies(j, body_keys, r, p);
  read_loads(j, r, p);
  family->read(j, p, r);  // the family's own section

  read_initial(j, r, p);
  read_time_and_verification(j, r, p);

  try {
    p.finalize();
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
  return p;
}

Problem load_problem_file(const std::string& path) {
  return problem_from_json(read_json_input(path, "problem file"), "problem file '" + path + "'");
}

Problem resolve_problem(const std::string& name, const std::string& file) {
  if (!name.empty() && !file.empty()) throw InputError("give either --problem or --problem-file, not both");
  if (!file.empty()) return load_problem_file(file);
  if (name.empty()) throw InputError("no problem given (use --problem NAME or --problem-file FILE)");
  return catalogue_problem(name);
}

}  // namespace rigidbench
