! beam_quad -- an independent reference for cases/beam.hdae: the Test
! Set's Beam problem integrated in quadruple precision (real(16), 113
! bits) by Gragg-Bulirsch-Stoer extrapolation at a fixed macro step, the
! force's end t = pi a step boundary.  Its right-hand side is written from
! the problem's definition (docs in cases/beam.hdae): v = N^4 G th +
! N^2 F(t) (cos th + sin th), C w = D v + om^2 (tridiagonal, solved by
! elimination), th'' = C v + D w.
! usage: beam_quad MACRO_STEPS COLUMNS [TEND]  (prints i, y_i at TEND,
!   default 5; MACRO_STEPS is per 5 time units)
! build: gfortran -O2 beam_quad.f90 -o beam_quad
program beam_quad
  implicit none
  integer, parameter :: qp = 16, nb = 40, n = 2 * nb
  real(qp) :: y(n), t, h, pi, seg(3), tend
  real(qp), allocatable :: tab(:, :)
  integer :: nmacro, s, m, i, j, k, kk, nseg
  character(len=32) :: arg
  call get_command_argument(1, arg); read (arg, *) nmacro
  call get_command_argument(2, arg); read (arg, *) kk
  allocate (tab(n, kk))
  tend = 5
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg); read (arg, *) tend
  end if
  pi = 4 * atan(1.0_qp)
  seg = [0.0_qp, pi, tend]
  nseg = 2
  if (tend <= pi) then
    seg(2) = tend
    nseg = 1
  end if
  y = 0
  do s = 1, nseg
    m = max(1, nint(nmacro * (seg(s + 1) - seg(s)) / 5))
    h = (seg(s + 1) - seg(s)) / m
    do i = 1, m
      t = seg(s) + (i - 1) * h
      do j = 1, kk
        call midpoint(t, y, h, 2 * j, s == 1, tab(:, j))
      end do
      ! Aitken-Neville in h^2 over the step numbers 2, 4, ..., 2 kk
      do j = 2, kk
        do k = kk, j, -1
          tab(:, k) = tab(:, k) + (tab(:, k) - tab(:, k - 1)) / &
               (real(k, qp)**2 / real(k - j + 1, qp)**2 - 1)
        end do
      end do
      y = tab(:, kk)
    end do
  end do
  do i = 1, n
    write (*, '(i3, 1x, es42.33)') i, y(i)
  end do
contains
  subroutine f(t, y, forced, dy)
    real(qp), intent(in) :: t, y(n)
    logical, intent(in) :: forced
    real(qp), intent(out) :: dy(n)
    real(qp) :: th(nb), om(nb), v(nb), w(nb), u(nb), c(nb), sn(nb)
    real(qp) :: al(nb), be(nb), fr, q
    integer :: i
    th = y(1:nb); om = y(nb + 1:n)
    c = 0; sn = 0
    do i = 2, nb
      c(i) = cos(th(i) - th(i - 1)); sn(i) = sin(th(i) - th(i - 1))
    end do
    fr = 0
    if (forced) fr = 1.5_qp * sin(t)**2
    v(1) = -3 * th(1) + th(2)
    do i = 2, nb - 1
      v(i) = th(i - 1) - 2 * th(i) + th(i + 1)
    end do
    v(nb) = th(nb - 1) - th(nb)
    v = v * real(nb, qp)**4 + real(nb, qp)**2 * fr * (cos(th) + sin(th))
    ! w = D v + om^2
    w(1) = sn(2) * v(2)
    do i = 2, nb - 1
      w(i) = -sn(i) * v(i - 1) + sn(i + 1) * v(i + 1)
    end do
    w(nb) = -sn(nb) * v(nb - 1)
    w = w + om**2
    ! C w = w: diagonal al, off-diagonal be(i) = -c(i+1), from the bottom
    al = 2; al(1) = 1; al(nb) = 3
    be(1:nb - 1) = -c(2:nb)
    do i = nb - 1, 1, -1
      q = be(i) / al(i + 1)
      w(i) = w(i) - w(i + 1) * q
      al(i) = al(i) - be(i) * q
    end do
    w(1) = w(1) / al(1)
    do i = 2, nb
      w(i) = (w(i) - be(i - 1) * w(i - 1)) / al(i)
    end do
    ! u = C v + D w
    u(1) = v(1) - c(2) * v(2) + sn(2) * w(2)
    do i = 2, nb - 1
      u(i) = 2 * v(i) - c(i) * v(i - 1) - c(i + 1) * v(i + 1) &
           - sn(i) * w(i - 1) + sn(i + 1) * w(i + 1)
    end do
    u(nb) = 3 * v(nb) - c(nb) * v(nb - 1) - sn(nb) * w(nb - 1)
    dy(1:nb) = om
    dy(nb + 1:n) = u
  end subroutine
  subroutine midpoint(t, y0, h, ns, forced, out)
    real(qp), intent(in) :: t, y0(n), h
    integer, intent(in) :: ns
    logical, intent(in) :: forced
    real(qp), intent(out) :: out(n)
    real(qp) :: z0(n), z1(n), z2(n), d(n), hs
    integer :: l
    hs = h / ns
    z0 = y0
    call f(t, z0, forced, d)
    z1 = z0 + hs * d
    do l = 1, ns - 1
      call f(t + l * hs, z1, forced, d)
      z2 = z0 + 2 * hs * d
      z0 = z1; z1 = z2
    end do
    call f(t + h, z1, forced, d)
    out = (z0 + z1 + hs * d) / 2
  end subroutine
end program
