// The gyrostat family: a rigid body (the carrier) carrying a symmetric rotor that spins at a constant
// rate relative to it about a body-fixed axis (Volterra 1899; Wittenburg, Dynamics of Systems of Rigid
// Bodies (1977) sec. 5.5; Hughes, Spacecraft Attitude Dynamics (1986) ch. 7 -- docs/bibliography.md).
// With J the inertia of the whole gyrostat about the pivot (rotor included, as if locked) and
// h_B = J_r sigma a the rotor's angular momentum relative to the carrier (rotor axial inertia J_r,
// relative rate sigma, unit axis a), the body momentum and the equations are
//   Pi = J W + h_B,   Pi' = Pi x W + T(t, R),   R' = R hat(W):
// the rigid-body equations with an internal momentum (RigidBodyTerms, families/rigid_body.hpp), so the schemes
// of the rigid_body family that handle that term integrate it. Torque-free invariants: the energy
// 1/2 W.J W (the rotor's relative kinetic energy is constant and left out), |Pi| and the spatial
// momentum pi = R Pi; under loads, those the rigid-body structure leaves (rigid_body_invariants).
//
// Problem file: "rotor": {"axis": [a1, a2, a3] (body frame, normalised), "inertia": J_r > 0,
// "rate": sigma} (docs/problem-files.md).
#include <cmath>

#include "../../core/directions.hpp"
#include "../../core/so3.hpp"
#include "common.hpp"
#include "rigid_body.hpp"
#include "../file_reader.hpp"

namespace rigidbench::families {
namespace {

class Gyrostat final : public Family {
 public:
  std::string_view name() const override { return "gyrostat"; }
  std::string_view title() const override {
    return "rigid body carrying a rotor at constant relative rate: Pi = J W + h_B (Volterra gyrostat)";
  }
  std::string_view equations() const override { return "rigid_body"; }
  NameList required_features() const override { return {"internal_momentum"}; }

  void validate(Problem& p) const override {
    const std::string w = where(p);
    Vec3 axis;
    double Jr = 0, rate = 0;
    try {
      const auto& r = p.parameters.at("rotor");
      for (int i = 0; i < 3; ++i) axis[i] = r.at("axis").at(i).get<double>();
      Jr = r.at("inertia").get<double>();
      rate = r.at("rate").get<double>();
    } catch (const nlohmann::json::exception&) {
      throw InputError(w + "a gyrostat needs its rotor: parameters \"rotor\": {\"axis\": [3 numbers], "
                           "\"inertia\": J_r, \"rate\": sigma}");
    }
    require(axis.allFinite() && axis.norm() > 0, w + "rotor axis must be finite and non-zero");
    require(std::isfinite(Jr) && Jr > 0, w + "rotor inertia must be positive and finite (got " + num(Jr) + ")");
    require(std::isfinite(rate), w + "rotor rate must be finite");
    // The rotor's axial inertia is part of J: J - J_r a a^T (the carrier with the rotor's transverse
    // inertia) must stay positive definite, or no body carries such a rotor.
    const Vec3 a = unit_direction(axis);
    require(a.dot(p.inertia() * a) > Jr,
            w + "rotor inertia " + num(Jr) + " exceeds the gyrostat's inertia about the rotor axis (" +
                num(a.dot(p.inertia() * a)) + ")");
    p.family_data.edit<RigidBodyTerms>().internal_momentum = Jr * rate * a;
  }
  std::vector<InvariantGroup> invariants(const Problem& p) const override { return rigid_body_invariants(p); }
  double energy(const Problem& p, const State& s) const override { return rigid_body_energy(p, s); }
  bool momenta(const Problem& p, const State& s, std::vector<BodyMomenta>& m) const override {
    return rigid_momenta(p, s, m);
  }
  void velocities(const Problem& p, const std::vector<BodyMomenta>& m, State& s) const override {
    rigid_velocities(p, m, s);
  }
  std::vector<std::string> formulations(const Problem&) const override { return {"kirchhoff", "newton_euler"}; }

  std::vector<const char*> file_keys() const override { return {"rotor"}; }
  void read(const nlohmann::json& j, Problem& p, const ProblemFileReader& r) const override {
    if (!j.contains("rotor")) r.fail("", "a gyrostat needs \"rotor\": {\"axis\": [..], \"inertia\": J_r, \"rate\": sigma}");
    const nlohmann::json& ro = j["rotor"];
    r.only(ro, "/rotor", {"axis", "inertia", "rate"});
    const Vec3 axis = r.vec3(r.field(ro, "/rotor", "axis"), "/rotor/axis");
    if (axis.norm() == 0) r.fail("/rotor/axis", "the rotor axis must be non-zero");
    p.parameters["rotor"] = rotor(axis, r.number(r.field(ro, "/rotor", "inertia"), "/rotor/inertia"),
                                  r.number(r.field(ro, "/rotor", "rate"), "/rotor/rate"));
  }
  void write(const Problem& p, nlohmann::ordered_json& j) const override { j["rotor"] = p.parameters.at("rotor"); }

  /// The catalogue's gyrostat: the free body's carrier (J = diag(1, 2, 3), W(0) = (1, 0.5, -0.8)) with
  /// a rotor on the oblique axis (1, 1, 1)/sqrt(3), J_r = 0.1, sigma = 20 rad/s: |h_B| = 2, as large
  /// as |J W(0)| = 2.9, so the rotor reshapes the motion (no axis of the carrier is an equilibrium).
  std::vector<CatalogueEntry> catalogue() const override {
    return {{"gyrostat",
             [] {
               Problem p;
               p.name = "gyrostat";
               p.title = "Torque-free gyrostat: J = diag(1, 2, 3), rotor J_r = 0.1 at 20 rad/s on (1, 1, 1)/sqrt(3)";
               p.source = "Volterra gyrostat (Wittenburg 1977 sec. 5.5); docs/problems.md";
               p.family = &find_family("gyrostat");
               p.bodies = {BodyModel{Vec3(1, 2, 3).asDiagonal(), 1.0}};
               p.parameters["rotor"] = rotor(Vec3(1, 1, 1), 0.1, 20.0);
               p.initial.body().R = Mat3::Identity();
               p.initial.body().W = Vec3(1.0, 0.5, -0.8);
               p.t_end = 10.0;
               // |W| ~ 2 rad/s with the rotor's coupling: h0 = 0.05 is ~0.1 rad per step.
               p.verification = {.h0 = 0.05, .levels = 6, .h0_order1 = 0.0125, .sample_times = {2, 4, 6, 8, 10}};
               return p;
             },
             true}};
  }

  static nlohmann::ordered_json rotor(const Vec3& axis, double inertia, double rate) {
    const Vec3 a = unit_direction(axis);
    return {{"axis", json_vec(a)}, {"inertia", inertia}, {"rate", rate}};
  }
};

}  // namespace

std::unique_ptr<Family> gyrostat() { return std::make_unique<Gyrostat>(); }

}  // namespace rigidbench::families
