// RIG_IMP's Newton system for the shared Jacobian test (rig_koziara_bicanic.hpp says why it lives
// in a translation unit of its own).
#include "rig_koziara_bicanic.hpp"

namespace rigidbench {

NewtonSystem rig_imp_newton_system(const Mat3& J, double h, const Vec3& c, const Vec3& guess) {
  return erase_newton_system<3>("Omega", guess, [J, h, c](const Vec3& w, Vec3& r, Mat3& Jac) {
    rig_imp_system(J, h, c, w, r, Jac);
  });
}

}  // namespace rigidbench
