! A scheme written in Fortran, scored by rigidbench from the trajectories it writes
! (docs/trajectory-files.md): no C++ and no binding, only files.
!
! The explicit Lie midpoint rule in the Munthe-Kaas form on SO(3) x R^3 (RKMK of order 2:
! Munthe-Kaas, BIT 38 (1998); Iserles, Munthe-Kaas, Norsett, Zanna, Acta Numerica 9 (2000) sec. 4),
! for a torque-free body, a(W) = J^{-1} ((J W) x W):
!   W_m = W_n + h/2 a(W_n),  W_{n+1} = W_n + h a(W_m),  R_{n+1} = R_n exp(h W_m).
! The same method as examples/external_scheme (C++) and examples/python (numpy).
!
! Usage: lie_midpoint LADDER_FILE OUT_DIR
!   LADDER_FILE is `rigidbench ladder --problem P --order 2` (key-value lines); one CSV per level is
!   written to OUT_DIR under the file name the ladder gives, with a row at every t0 + n h.
program lie_midpoint
  implicit none
  integer, parameter :: dp = kind(1.0d0), max_levels = 24
  character(len=1024) :: ladder_path, out_dir, line
  character(len=64) :: key, files(max_levels)
  real(dp) :: J(3, 3), Jinv(3, 3), R0(3, 3), W0(3), tmp(9), t0, h(max_levels)
  integer(8) :: steps(max_levels)
  integer :: nlev, nbodies, torque_free, translating, ios, u, k, idx

  if (command_argument_count() /= 2) then
    write (*, '(a)') 'usage: lie_midpoint LADDER_FILE OUT_DIR'
    stop 2
  end if
  call get_command_argument(1, ladder_path)
  call get_command_argument(2, out_dir)

  nlev = 0; nbodies = -1; torque_free = -1; translating = -1; t0 = 0
  open (newunit=u, file=trim(ladder_path), status='old', action='read', iostat=ios)
  if (ios /= 0) then
    write (*, '(a)') 'lie_midpoint: cannot open '//trim(ladder_path)
    stop 2
  end if
  do
    read (u, '(a)', iostat=ios) line
    if (ios /= 0) exit
    if (len_trim(line) == 0 .or. line(1:1) == '#') cycle
    read (line, *) key
    select case (trim(key))
    case ('bodies'); read (line, *) key, nbodies
    case ('translating'); read (line, *) key, translating
    case ('torque_free'); read (line, *) key, torque_free
    case ('t0'); read (line, *) key, t0
    case ('inertia'); read (line, *) key, tmp; J = transpose(reshape(tmp, [3, 3]))   ! rows in the file
    case ('R'); read (line, *) key, tmp; R0 = transpose(reshape(tmp, [3, 3]))
    case ('W'); read (line, *) key, W0
    case ('level')
      nlev = nlev + 1
      read (line, *) key, idx, h(nlev), steps(nlev), files(nlev)
    end select
  end do
  close (u)
  if (nbodies /= 1 .or. translating /= 0 .or. torque_free /= 1) then
    write (*, '(a)') 'lie_midpoint: this example integrates one torque-free rigid body only'
    stop 2
  end if
  Jinv = inverse3(J)
  do k = 1, nlev
    call integrate(trim(out_dir)//'/'//trim(files(k)), h(k), steps(k))
  end do

contains

  subroutine integrate(path, hk, n)
    character(len=*), intent(in) :: path
    real(dp), intent(in) :: hk
    integer(8), intent(in) :: n
    real(dp) :: R(3, 3), W(3), Wm(3)
    integer(8) :: i
    integer :: v
    open (newunit=v, file=path, status='replace', action='write')
    write (v, '(a)') 't,R11,R12,R13,R21,R22,R23,R31,R32,R33,W1,W2,W3'
    R = R0; W = W0
    call put(v, t0, R, W)
    do i = 1, n
      Wm = W + 0.5_dp*hk*accel(W)
      W = W + hk*accel(Wm)
      R = matmul(R, expm(hk*Wm))
      call put(v, t0 + real(i, dp)*hk, R, W)    ! t_n = t0 + n h, never accumulated
    end do
    close (v)
  end subroutine

  subroutine put(v, t, R, W)
    integer, intent(in) :: v
    real(dp), intent(in) :: t, R(3, 3), W(3)
    write (v, '(*(es25.17e3,:,","))') t, R(1, :), R(2, :), R(3, :), W
  end subroutine

  function accel(W) result(a)
    real(dp), intent(in) :: W(3)
    real(dp) :: a(3), JW(3), c(3)
    JW = matmul(J, W)
    c = cross(JW, W)
    a = matmul(Jinv, c)
  end function

  function cross(a, b) result(c)
    real(dp), intent(in) :: a(3), b(3)
    real(dp) :: c(3)
    c = [a(2)*b(3) - a(3)*b(2), a(3)*b(1) - a(1)*b(3), a(1)*b(2) - a(2)*b(1)]
  end function

  ! exp(hat(u)) by Rodrigues' formula, with the series near 0.
  function expm(u) result(E)
    real(dp), intent(in) :: u(3)
    real(dp) :: E(3, 3), K(3, 3), th2, th, a, b
    integer :: i
    K = reshape([0.0_dp, u(3), -u(2), -u(3), 0.0_dp, u(1), u(2), -u(1), 0.0_dp], [3, 3])
    th2 = dot_product(u, u)
    if (th2 < 1e-8_dp) then
      a = 1 - th2/6; b = 0.5_dp - th2/24
    else
      th = sqrt(th2); a = sin(th)/th; b = (1 - cos(th))/th2
    end if
    E = a*K + b*matmul(K, K)
    do i = 1, 3
      E(i, i) = E(i, i) + 1
    end do
  end function

  function inverse3(A) result(B)
    real(dp), intent(in) :: A(3, 3)
    real(dp) :: B(3, 3), det
    B(1, 1) = A(2, 2)*A(3, 3) - A(2, 3)*A(3, 2); B(1, 2) = A(1, 3)*A(3, 2) - A(1, 2)*A(3, 3)
    B(1, 3) = A(1, 2)*A(2, 3) - A(1, 3)*A(2, 2); B(2, 1) = A(2, 3)*A(3, 1) - A(2, 1)*A(3, 3)
    B(2, 2) = A(1, 1)*A(3, 3) - A(1, 3)*A(3, 1); B(2, 3) = A(1, 3)*A(2, 1) - A(1, 1)*A(2, 3)
    B(3, 1) = A(2, 1)*A(3, 2) - A(2, 2)*A(3, 1); B(3, 2) = A(1, 2)*A(3, 1) - A(1, 1)*A(3, 2)
    B(3, 3) = A(1, 1)*A(2, 2) - A(1, 2)*A(2, 1)
    det = A(1, 1)*B(1, 1) + A(1, 2)*B(2, 1) + A(1, 3)*B(3, 1)
    B = B/det
  end function

end program
