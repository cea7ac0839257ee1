#include "rigidbench/core/so3.hpp"

#include <Eigen/SVD>

namespace rigidbench::so3 {

Mat3 nearest_rotation(const Mat3& M) {
  Eigen::JacobiSVD<Mat3> svd(M, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 D = Mat3::Identity();
  D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1.0 : 1.0;
  return svd.matrixU() * D * svd.matrixV().transpose();
}

}  // namespace rigidbench::so3
