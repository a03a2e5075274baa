// heyoka_bench.cpp -- the problems of tools/bench/heyoka/run.py integrated
// by heyoka's taylor_adaptive<mppp::real> (MPFR through mp++), for the
// side-by-side measurement against hdo (issue 28).  Built against a heyoka
// installed outside the repository by tools/bench/heyoka/build.sh.
//
//   heyoka_bench PROBLEM BITS TOL REPEATS
//
// PROBLEM: pendulum (the angle ODE, no events), pendulum_events (its x = 0
// crossings as non-terminal events), pendulum_dae (heyoka has no algebraic
// equations: the same ODE with x = L sin th, y = -L cos th evaluated at the
// end), pendulum_cart (the Cartesian pendulum with the rod force solved by
// hand, lambda = (vx^2 + vy^2 - g y) / L^2), ball (terminal events with the
// reset v = -e v), fpu (the 20-mass FPU-beta chain).  BITS is the working
// precision, TOL the tolerance as a decimal string (run.py passes hdo's
// own, from its summary.json).  Every constant that is not a small integer
// (g, e, beta, the start values) is made at BITS by MPFR, from its decimal
// text or by correctly rounded operations: a double 9.8 would be a
// different problem.
//
// Output, one fact a line: "order N", "steps N", "jit_cpu_s S" (building
// the integrator: decomposition and LLVM compilation), "run_cpu_s S" (the
// least of REPEATS propagations from the same start), "event K T" (the
// event times of the last repetition), "final NAME V" (the state at the
// end).  Repetitions stop early once they took 2 s.  Times are the process's
// CPU time.
#include <heyoka/heyoka.hpp>
#include <mp++/real.hpp>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace hy = heyoka;
using mppp::real;

namespace
{

double
cpu_now()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) +
           1e-9 * static_cast<double>(ts.tv_nsec);
}

// One problem: the ODE, its start, its parameters (par[i]), its horizon,
// its events, and the named outputs printed at the end.
struct problem {
    std::vector<std::pair<hy::expression, hy::expression>> sys;
    std::vector<real> init;
    std::vector<real> pars;
    real t_end;
    std::vector<hy::nt_event<real>> nt;
    std::vector<hy::t_event<real>> te;
    std::vector<std::pair<std::string, std::function<real(const real *)>>>
        outputs;
};

// The event times, filled by the callbacks; cleared before each repetition.
std::vector<real> g_events;

real
num(const char *text, mpfr_prec_t bits)
{
    return real{text, bits};
}

std::function<real(const real *)>
state(std::size_t i)
{
    return [i](const real *s) { return s[i]; };
}

void
pendulum_angle(problem &p, mpfr_prec_t bits, bool events)
{
    auto [th, om] = hy::make_vars("th", "om");
    // g / L with L = 1: par[0] = 9.8
    p.sys = {hy::prime(th) = om, hy::prime(om) = -hy::par[0] * hy::sin(th)};
    p.init = {mppp::real_pi(bits) / 2, real{0, bits}};
    p.pars = {num("9.8", bits)};
    p.t_end = real{3, bits};
    if (events) {
        p.nt.emplace_back(th, [](hy::taylor_adaptive<real> &, const real &t,
                                 int) { g_events.push_back(t); });
    }
    p.outputs = {{"th", state(0)}, {"om", state(1)}};
}

void
pendulum_cart(problem &p, mpfr_prec_t bits)
{
    auto [x, y, vx, vy] = hy::make_vars("x", "y", "vx", "vy");
    // L = 1; lambda from the constraint differentiated twice
    auto lambda = vx * vx + vy * vy - hy::par[0] * y;
    p.sys = {hy::prime(x) = vx, hy::prime(y) = vy, hy::prime(vx) = -x * lambda,
             hy::prime(vy) = -y * lambda - hy::par[0]};
    p.init = {real{1, bits}, real{0, bits}, real{0, bits}, real{0, bits}};
    p.pars = {num("9.8", bits)};
    p.t_end = real{3, bits};
    p.nt.emplace_back(x, [](hy::taylor_adaptive<real> &, const real &t, int) {
        g_events.push_back(t);
    });
    p.outputs = {
        {"x", state(0)}, {"y", state(1)}, {"vx", state(2)}, {"vy", state(3)}};
}

void
ball(problem &p, mpfr_prec_t bits)
{
    auto [h, v] = hy::make_vars("h", "v");
    p.sys = {hy::prime(h) = v, hy::prime(v) = -hy::par[0]};
    p.init = {real{1, bits}, real{0, bits}};
    p.pars = {num("9.81", bits)};
    // before the accumulation point 2.5586...: heyoka has no Zeno limit
    p.t_end = num("2.5", bits);
    const real e = num("0.7", bits);
    p.te.emplace_back(
        h,
        hy::kw::callback =
            [e](hy::taylor_adaptive<real> &ta, int) {
                g_events.push_back(ta.get_time());
                ta.get_state_data()[1] = -e * ta.get_state_data()[1];
                return true;
            },
        hy::kw::direction = hy::event_direction::negative);
    p.outputs = {{"h", state(0)}, {"v", state(1)}};
}

void
fpu(problem &p, mpfr_prec_t bits)
{
    const int n = 20;
    std::vector<hy::expression> u, w;
    for (int i = 1; i <= n; ++i) {
        u.emplace_back(hy::variable("u" + std::to_string(i)));
        w.emplace_back(hy::variable("w" + std::to_string(i)));
    }
    // the springs' stretches, walls fixed at 0: d[i] = u[i+1] - u[i], i = 0..n
    std::vector<hy::expression> d;
    d.push_back(u[0]);
    for (int i = 0; i + 1 < n; ++i) {
        d.push_back(u[static_cast<std::size_t>(i) + 1] -
                    u[static_cast<std::size_t>(i)]);
    }
    d.push_back(-u[n - 1]);
    for (int i = 0; i < n; ++i) {
        p.sys.emplace_back(hy::prime(u[static_cast<std::size_t>(i)]) =
                               w[static_cast<std::size_t>(i)]);
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        const auto &r = d[i + 1], &l = d[i];
        p.sys.emplace_back(hy::prime(w[i]) =
                               (r - l) + hy::par[0] * (r * r * r - l * l * l));
    }
    // the state is u1..un then w1..wn (the order of sys); u[i] starts in
    // the first normal mode, sin(pi i / (n + 1)), w at rest
    for (int i = 1; i <= n; ++i) {
        p.init.push_back(mppp::sin(mppp::real_pi(bits) * i / (n + 1)));
    }
    for (int i = 1; i <= n; ++i) {
        p.init.emplace_back(0, bits);
    }
    p.pars = {real{1, bits} / 10};
    p.t_end = real{10, bits};
    for (int i = 1; i <= n; ++i) {
        p.outputs.emplace_back("u" + std::to_string(i),
                               state(static_cast<std::size_t>(i - 1)));
    }
    for (int i = 1; i <= n; ++i) {
        p.outputs.emplace_back("w" + std::to_string(i),
                               state(static_cast<std::size_t>(n + i - 1)));
    }
}

} // namespace

int
main(int argc, char **argv)
{
    if (argc != 5) {
        std::cerr << "usage: heyoka_bench PROBLEM BITS TOL REPEATS\n";
        return 2;
    }
    const std::string name = argv[1];
    const auto bits = static_cast<mpfr_prec_t>(std::atol(argv[2]));
    const int repeats = std::max(1, std::atoi(argv[4]));
    try {
        const real tol{argv[3], bits};
        problem p;
        if (name == "pendulum" || name == "pendulum_events") {
            pendulum_angle(p, bits, name == "pendulum_events");
        } else if (name == "pendulum_dae") {
            pendulum_angle(p, bits, true);
            p.outputs.emplace_back("x",
                                   [](const real *s) { return sin(s[0]); });
            p.outputs.emplace_back("y",
                                   [](const real *s) { return -cos(s[0]); });
        } else if (name == "pendulum_cart") {
            pendulum_cart(p, bits);
        } else if (name == "ball") {
            ball(p, bits);
        } else if (name == "fpu") {
            fpu(p, bits);
        } else {
            std::cerr << "heyoka_bench: unknown problem '" << name << "'\n";
            return 2;
        }

        double c0 = cpu_now();
        hy::taylor_adaptive<real> ta{p.sys,
                                     p.init,
                                     hy::kw::tol = tol,
                                     hy::kw::pars = p.pars,
                                     hy::kw::nt_events = p.nt,
                                     hy::kw::t_events = p.te};
        const double jit = cpu_now() - c0;

        double best = -1, spent = 0;
        std::size_t steps = 0;
        for (int r = 0; r < repeats; ++r) {
            ta.set_time(real{0, bits});
            std::copy(p.init.begin(), p.init.end(), ta.get_state_data());
            if (!p.te.empty()) {
                ta.reset_cooldowns(); // throws when there are no events
            }
            g_events.clear();
            c0 = cpu_now();
            // a cap far above the few dozen steps these problems take, so that
            // a run that has gone astray stops with step_limit
            auto res = ta.propagate_until(p.t_end, hy::kw::max_steps = 20000);
            const double t = cpu_now() - c0;
            if (std::get<0>(res) != hy::taylor_outcome::time_limit) {
                std::cerr << "heyoka_bench: " << name
                          << " stopped at t = " << ta.get_time() << ": "
                          << std::get<0>(res) << "\n";
                return 1;
            }
            steps = std::get<3>(res);
            best = best < 0 ? t : std::min(best, t);
            spent += t;
            if (spent > 2.0) { // enough for a figure; the machine is shared
                break;
            }
        }
        std::cout << "order " << ta.get_order() << "\nsteps " << steps
                  << "\njit_cpu_s " << jit << "\nrun_cpu_s " << best << "\n";
        for (std::size_t k = 0; k < g_events.size(); ++k) {
            std::cout << "event " << k + 1 << " " << g_events[k].to_string()
                      << "\n";
        }
        for (const auto &[oname, f] : p.outputs) {
            std::cout << "final " << oname << " "
                      << f(ta.get_state_data()).to_string() << "\n";
        }
    } catch (const std::exception &ex) {
        std::cerr << "heyoka_bench: " << name << ": " << ex.what() << "\n";
        return 1;
    }
    return 0;
}
