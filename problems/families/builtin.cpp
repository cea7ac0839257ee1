// The built-in model families, one file each under problems/families/, each with its catalogue
// problems. Adding one is its file plus one line here. The order is the catalogue's (and so the quick
// suite's and its reports'): each family's problems, family by family, in this order.
#include <memory>
#include <vector>

#include "../family.hpp"

namespace rigidbench {

namespace families {
std::unique_ptr<Family> rigid_body();
std::unique_ptr<Family> kirchhoff_body();
std::unique_ptr<Family> non_twisting();
std::unique_ptr<Family> body_system();
std::unique_ptr<Family> gyrostat();
std::unique_ptr<Family> spherical_chain();
}  // namespace families

std::vector<std::unique_ptr<Family>> builtin_families() {
  std::vector<std::unique_ptr<Family>> f;
  f.push_back(families::rigid_body());
  f.push_back(families::kirchhoff_body());
  f.push_back(families::non_twisting());
  f.push_back(families::body_system());
  f.push_back(families::gyrostat());
  f.push_back(families::spherical_chain());
  return f;
}

}  // namespace rigidbench
