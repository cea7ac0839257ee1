#include "rigidbench/problems/problem_file.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "rigidbench/core/quaternion.hpp"
#include "rigidbench/core/rrp.hpp"
#include "rigidbench/core/so3.hpp"
#include "rigidbench/problems/catalogue.hpp"

namespace rigidbench {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr int kFormatVersion = 1;

ordered_json vec(const Vec3& v) { return ordered_json::array({v[0], v[1], v[2]}); }
ordered_json mat(const Mat3& m) {
  ordered_json a = ordered_json::array();
  for (int i = 0; i < 3; ++i) a.push_back(ordered_json::array({m(i, 0), m(i, 1), m(i, 2)}));
  return a;
}

/// Reader that knows where it is, so every error names the JSON path.
struct Reader {
  const std::string& origin;

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(origin + ": " + (path.empty() ? "/" : path) + ": " + what);
  }
  const json& field(const json& obj, const std::string& path, const char* key) const {
    if (!obj.contains(key)) fail(path, std::string("missing required field '") + key + "'");
    return obj.at(key);
  }
  void only(const json& obj, const std::string& path, std::initializer_list<const char*> keys) const {
    if (!obj.is_object()) fail(path, "expected an object, got " + std::string(obj.type_name()));
    std::set<std::string> allowed(keys.begin(), keys.end());
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!allowed.count(it.key())) {
        std::string list;
        for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
        fail(path, "unknown field '" + it.key() + "' (allowed: " + list + ")");
      }
  }
  double number(const json& j, const std::string& path) const {
    if (!j.is_number()) fail(path, "expected a number, got " + std::string(j.type_name()) + " " + j.dump());
    const double x = j.get<double>();
    if (!std::isfinite(x)) fail(path, "expected a finite number");
    return x;
  }
  std::string text(const json& j, const std::string& path) const {
    if (!j.is_string()) fail(path, "expected a string, got " + std::string(j.type_name()));
    return j.get<std::string>();
  }
  Vec3 vec3(const json& j, const std::string& path) const {
    if (!j.is_array() || j.size() != 3) fail(path, "expected an array of 3 numbers, got " + j.dump());
    return Vec3(number(j[0], path + "/0"), number(j[1], path + "/1"), number(j[2], path + "/2"));
  }
  Mat3 mat3(const json& j, const std::string& path) const {
    if (!j.is_array() || j.size() != 3) fail(path, "expected a 3x3 array (3 rows of 3 numbers), got " + j.dump());
    Mat3 m;
    for (int i = 0; i < 3; ++i) m.row(i) = vec3(j[i], path + "/" + std::to_string(i)).transpose();
    return m;
  }
};

}  // namespace

ordered_json problem_to_json(const Problem& p) {
  ordered_json j;
  j["rigidbench_problem"] = kFormatVersion;
  j["name"] = p.name;
  j["title"] = p.title;
  j["source"] = p.source;
  j["family"] = to_string(p.family);
  j["bodies"] = ordered_json::array();
  for (const BodyModel& b : p.bodies) {
    ordered_json bj = {{"inertia", mat(b.inertia)}, {"mass", b.mass}};
    if (p.family == ModelFamily::kirchhoff_body) bj["added_mass"] = mat(b.added_mass);
    if (p.family == ModelFamily::body_system) bj["diameter"] = b.diameter;
    j["bodies"].push_back(bj);
  }
  j["loads"] = ordered_json::array();
  for (const Load& l : p.loads)
    j["loads"].push_back(std::visit(
        overloaded{[](const UniformField& f) -> ordered_json {
                     return {{"type", "uniform_field"}, {"mass", f.mass}, {"acceleration", vec(f.acceleration)},
                             {"point", vec(f.point)}};
                   },
                   [](const FollowerMoment& m) -> ordered_json {
                     ordered_json knots = ordered_json::array();
                     for (const auto& [t, v] : m.profile.knots) knots.push_back(ordered_json::array({t, v}));
                     return {{"type", "follower_moment"}, {"body", vec(m.body)}, {"profile", knots}};
                   }},
        l));
  if (p.family == ModelFamily::body_system) {
    const Interactions& in = p.interactions;
    ordered_json bonds = ordered_json::array();
    for (const Bond& b : in.bonds)
      bonds.push_back({{"bodies", ordered_json::array({b.i, b.j})}, {"bending", b.bending}, {"axial", b.axial},
                       {"shear", b.shear}, {"rest", vec(b.rest)}});
    ordered_json walls = ordered_json::array();
    for (const Wall& w : in.walls) walls.push_back({{"normal", vec(w.normal)}, {"offset", w.offset}, {"stiffness", w.stiffness}});
    j["interactions"] = {{"bonds", bonds}, {"contact_stiffness", in.contact_stiffness}, {"walls", walls}};
  }
  j["initial"] = ordered_json::array();
  for (const BodyState& s : p.initial.bodies) {
    ordered_json b = {{"attitude", {{"matrix", mat(s.R)}}}, {"angular_velocity", {{"body", vec(s.W)}}}};
    if (p.translating()) {
      b["position"] = vec(s.x);
      b["velocity"] = vec(s.v);
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

Problem problem_from_json(const json& j, const std::string& origin) {
  Reader r{origin};
  r.only(j, "", {"rigidbench_problem", "name", "title", "source", "family", "bodies", "loads", "interactions", "initial",
                 "time", "verification"});
  const json& ver = r.field(j, "", "rigidbench_problem");
  if (!ver.is_number_integer() || ver.get<int>() != kFormatVersion)
    r.fail("/rigidbench_problem", "unsupported problem-file version " + ver.dump() + " (this build reads " +
                                      std::to_string(kFormatVersion) + ")");
  Problem p;
  p.name = r.text(r.field(j, "", "name"), "/name");
  if (j.contains("title")) p.title = r.text(j["title"], "/title");
  if (j.contains("source")) p.source = r.text(j["source"], "/source");
  const std::string fam = r.text(r.field(j, "", "family"), "/family");
  const auto f = model_family_from_string(fam);
  if (!f) r.fail("/family", "unknown model family '" + fam + "' (known: rigid_body, body_system, non_twisting, kirchhoff_body)");
  p.family = *f;

  const json& bodies = r.field(j, "", "bodies");
  if (!bodies.is_array() || bodies.empty()) r.fail("/bodies", "expected a non-empty array of bodies");
  p.bodies.clear();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string bp = "/bodies/" + std::to_string(i);
    r.only(bodies[i], bp, {"inertia", "mass", "added_mass", "diameter"});
    BodyModel b;
    b.inertia = r.mat3(r.field(bodies[i], bp, "inertia"), bp + "/inertia");
    b.mass = bodies[i].contains("mass") ? r.number(bodies[i]["mass"], bp + "/mass") : 1.0;
    if (bodies[i].contains("added_mass")) b.added_mass = r.mat3(bodies[i]["added_mass"], bp + "/added_mass");
    else if (p.family == ModelFamily::kirchhoff_body) r.fail(bp, "a kirchhoff_body needs added_mass (3x3, SPD)");
    if (bodies[i].contains("diameter")) b.diameter = r.number(bodies[i]["diameter"], bp + "/diameter");
    p.bodies.push_back(b);
  }

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
            if (!pr[k].is_array() || pr[k].size() != 2) r.fail(kp, "expected [t, value], got " + pr[k].dump());
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

  if (j.contains("interactions")) {
    // {"bonds": [{"bodies": [i, j], "bending": Km, "axial": Ka, "shear": Ks, "rest": [..]}],
    //  "contact_stiffness": Kpp, "walls": [{"normal": [..], "offset": c, "stiffness": K}]}
    const json& in = j["interactions"];
    r.only(in, "/interactions", {"bonds", "contact_stiffness", "walls"});
    if (in.contains("bonds")) {
      if (!in["bonds"].is_array()) r.fail("/interactions/bonds", "expected an array");
      for (std::size_t k = 0; k < in["bonds"].size(); ++k) {
        const json& b = in["bonds"][k];
        const std::string bp = "/interactions/bonds/" + std::to_string(k);
        r.only(b, bp, {"bodies", "bending", "axial", "shear", "rest"});
        const json& ij = r.field(b, bp, "bodies");
        if (!ij.is_array() || ij.size() != 2 || !ij[0].is_number_unsigned() || !ij[1].is_number_unsigned())
          r.fail(bp + "/bodies", "expected [i, j], two body indices, got " + ij.dump());
        Bond bd;
        bd.i = ij[0].get<std::size_t>();
        bd.j = ij[1].get<std::size_t>();
        if (b.contains("bending")) bd.bending = r.number(b["bending"], bp + "/bending");
        if (b.contains("axial")) bd.axial = r.number(b["axial"], bp + "/axial");
        if (b.contains("shear")) bd.shear = r.number(b["shear"], bp + "/shear");
        bd.rest = r.vec3(r.field(b, bp, "rest"), bp + "/rest");
        p.interactions.bonds.push_back(bd);
      }
    }
    if (in.contains("contact_stiffness"))
      p.interactions.contact_stiffness = r.number(in["contact_stiffness"], "/interactions/contact_stiffness");
    if (in.contains("walls")) {
      if (!in["walls"].is_array()) r.fail("/interactions/walls", "expected an array");
      for (std::size_t k = 0; k < in["walls"].size(); ++k) {
        const json& w = in["walls"][k];
        const std::string wp = "/interactions/walls/" + std::to_string(k);
        r.only(w, wp, {"normal", "offset", "stiffness"});
        p.interactions.walls.push_back(Wall{.normal = r.vec3(r.field(w, wp, "normal"), wp + "/normal"),
                                            .offset = w.contains("offset") ? r.number(w["offset"], wp + "/offset") : 0.0,
                                            .stiffness = r.number(r.field(w, wp, "stiffness"), wp + "/stiffness")});
      }
    }
  }

  const json& init = r.field(j, "", "initial");
  if (!init.is_array() || init.size() != p.bodies.size())
    r.fail("/initial", "expected an array with one entry per body (" + std::to_string(p.bodies.size()) + ")");
  p.initial = State(p.bodies.size());
  for (std::size_t i = 0; i < init.size(); ++i) {
    const std::string ip = "/initial/" + std::to_string(i);
    r.only(init[i], ip, {"attitude", "angular_velocity", "position", "velocity"});
    BodyState& s = p.initial.bodies[i];
    const json& att = r.field(init[i], ip, "attitude");
    r.only(att, ip + "/attitude", {"matrix", "rotation_vector", "rrp", "quaternion"});
    if (att.size() != 1)
      r.fail(ip + "/attitude", "give exactly one of matrix, rotation_vector, rrp, quaternion");
    if (att.contains("matrix")) {
      s.R = r.mat3(att["matrix"], ip + "/attitude/matrix");
    } else if (att.contains("rotation_vector")) {
      s.R = so3::exp(r.vec3(att["rotation_vector"], ip + "/attitude/rotation_vector"));
    } else if (att.contains("rrp")) {
      s.R = rrp::to_matrix(r.vec3(att["rrp"], ip + "/attitude/rrp"));
    } else {
      const json& q = att["quaternion"];
      if (!q.is_array() || q.size() != 4) r.fail(ip + "/attitude/quaternion", "expected [w, x, y, z]");
      Vec4 qv;
      for (int k = 0; k < 4; ++k) qv[k] = r.number(q[k], ip + "/attitude/quaternion/" + std::to_string(k));
      if (std::abs(qv.norm() - 1.0) > 1e-10)
        r.fail(ip + "/attitude/quaternion", "not a unit quaternion (|q| = " + std::to_string(qv.norm()) + ")");
      s.R = quat::to_matrix(qv);
    }
    const json& av = r.field(init[i], ip, "angular_velocity");
    r.only(av, ip + "/angular_velocity", {"body", "spatial"});
    if (av.size() != 1) r.fail(ip + "/angular_velocity", "give exactly one of body, spatial");
    if (av.contains("body")) s.W = r.vec3(av["body"], ip + "/angular_velocity/body");
    else s.W = s.R.transpose() * r.vec3(av["spatial"], ip + "/angular_velocity/spatial");
    if (init[i].contains("position")) s.x = r.vec3(init[i]["position"], ip + "/position");
    if (init[i].contains("velocity")) s.v = r.vec3(init[i]["velocity"], ip + "/velocity");
  }

  const json& time = r.field(j, "", "time");
  r.only(time, "/time", {"t0", "t_end"});
  p.t0 = time.contains("t0") ? r.number(time["t0"], "/time/t0") : 0.0;
  p.t_end = r.number(r.field(time, "/time", "t_end"), "/time/t_end");

  const json& vj = r.field(j, "", "verification");
  r.only(vj, "/verification", {"h0", "levels", "h0_order1", "sample_times", "exact_threshold", "t_end"});
  auto& v = p.verification;
  v.h0 = r.number(r.field(vj, "/verification", "h0"), "/verification/h0");
  if (vj.contains("levels")) {
    if (!vj["levels"].is_number_integer()) r.fail("/verification/levels", "expected an integer");
    v.levels = vj["levels"].get<int>();
  }
  if (vj.contains("h0_order1")) v.h0_order1 = r.number(vj["h0_order1"], "/verification/h0_order1");
  if (vj.contains("t_end")) v.t_end = r.number(vj["t_end"], "/verification/t_end");
  if (vj.contains("sample_times")) {
    if (!vj["sample_times"].is_array()) r.fail("/verification/sample_times", "expected an array of numbers");
    for (std::size_t i = 0; i < vj["sample_times"].size(); ++i)
      v.sample_times.push_back(r.number(vj["sample_times"][i], "/verification/sample_times/" + std::to_string(i)));
  }
  if (vj.contains("exact_threshold")) v.exact_threshold = r.number(vj["exact_threshold"], "/verification/exact_threshold");

  try {
    p.finalize();
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
  return p;
}

Problem load_problem_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open problem file '" + path + "'");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw InputError("problem file '" + path + "' is not valid JSON: " + e.what());
  }
  return problem_from_json(j, "problem file '" + path + "'");
}

Problem resolve_problem(const std::string& name, const std::string& file) {
  if (!name.empty() && !file.empty()) throw InputError("give either --problem or --problem-file, not both");
  if (!file.empty()) return load_problem_file(file);
  if (name.empty()) throw InputError("no problem given (use --problem NAME or --problem-file FILE)");
  return catalogue_problem(name);
}

}  // namespace rigidbench
