#include "so3.hpp"

#include <Eigen/SVD>
#include <cmath>

namespace rigidbench::so3 {

void sin_cos(double x, double& s, double& c) {
  s = std::sin(x);
  c = std::cos(x);
}

Mat3 nearest_rotation(const Mat3& M) {
  Eigen::JacobiSVD<Mat3> svd(M, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 D = Mat3::Identity();
  D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1.0 : 1.0;
  return svd.matrixU() * D * svd.matrixV().transpose();
}

}  // namespace rigidbench::so3
