"""softfit.torch: gradcheck of the adjoint backward, and a noise-free synthetic fit."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="softfit.torch needs PyTorch (Debian python3-torch)")
import softfit  # noqa: E402
import softfit.torch as st  # noqa: E402


def scaled_trajectory(scene, names, scale):
    """params relative to `scale` (gradcheck perturbs by an absolute 1e-6)."""
    def f(p):
        x, v = st.simulate(scene, names, p * scale)
        return x, v
    return f


ALL = ["E", "nu", "alpha1", "alpha2", "gravity", "velocity"]


def gradcheck_parameters(scene, names, **options):
    values = torch.from_numpy(scene.get_parameters(names))
    scale = torch.where(values == 0, torch.ones_like(values), values.abs())
    p = (values / scale).clone().requires_grad_(True)
    return torch.autograd.gradcheck(scaled_trajectory(scene, names, scale), (p,), eps=1e-6, atol=1e-6, rtol=1e-4,
                                    **options)


def test_gradcheck_every_parameter_full_jacobian(small_scene):
    """E, nu, damping, gravity and the initial velocity: every entry of d(x, v)/dp."""
    small_scene.steps = 3  # in contact from step 1; one adjoint pass per output entry
    assert gradcheck_parameters(small_scene, ALL)


@pytest.mark.parametrize("names", [["E", "nu"], ["alpha1", "alpha2"], ["gravity"], ["velocity"]])
def test_gradcheck_longer_contact_run(small_scene, names):
    """Random projections of the Jacobian (gradcheck's fast mode) over 8 steps of contact."""
    assert gradcheck_parameters(small_scene, names, fast_mode=True)


def test_gradcheck_initial_velocity_and_position(small_scene):
    small_scene.steps = 4
    v0 = torch.from_numpy(small_scene.initial_v).clone().requires_grad_(True)
    x0 = torch.from_numpy(small_scene.initial_x).clone().requires_grad_(True)
    p = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)

    def f(p, x0, v0):
        return st.simulate(small_scene, ["E"], p * 3e3, x0=x0, v0=v0)

    assert torch.autograd.gradcheck(f, (p, x0, v0), eps=1e-6, atol=1e-6, rtol=1e-4, fast_mode=True)


def test_backward_is_one_adjoint_pass_per_call(small_scene, monkeypatch):
    calls = {"simulate": 0, "gradient": 0}
    real_sim, real_grad = softfit.Scene.simulate, softfit.Scene.trajectory_gradient

    class Counting:
        def __init__(self, scene):
            self.scene = scene

        def __getattr__(self, name):
            attr = getattr(self.scene, name)
            if name in ("simulate", "trajectory_gradient"):
                key = "simulate" if name == "simulate" else "gradient"

                def wrapped(*a, **k):
                    calls[key] += 1
                    return attr(*a, **k)
                return wrapped
            return attr

    scene = Counting(small_scene)
    p = torch.tensor([3e3, 0.3], dtype=torch.float64, requires_grad=True)
    x, v = st.simulate(scene, "E,nu", p)
    (x.sum() + v.square().sum()).backward()
    assert calls == {"simulate": 1, "gradient": 1}
    assert p.grad is not None and torch.all(torch.isfinite(p.grad))


def physical(q):
    return torch.stack([q[0].exp(), 0.25 * (1 + q[1].tanh())])


def test_noise_free_synthetic_fit_recovers_E_and_nu(small_scene):
    """torch.optim.LBFGS on a displacement loss against a noise-free synthetic trajectory."""
    truth = torch.tensor([3e3, 0.3], dtype=torch.float64)
    small_scene.steps = 8
    with torch.no_grad():
        target, _ = st.simulate(small_scene, ["E", "nu"], truth)
    # internal coordinates: log E and atanh(4 nu - 1) (nu in (0, 0.5)); start 40% / 0.07 off
    q = torch.tensor([np.log(4.2e3), np.arctanh(4 * 0.23 - 1)], dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([q], lr=1, max_iter=200, tolerance_grad=1e-16, tolerance_change=1e-30,
                                  history_size=10, line_search_fn="strong_wolfe")

    def closure():
        optimizer.zero_grad()
        x, _ = st.simulate(small_scene, ["E", "nu"], physical(q))
        loss = 1e4 * (x - target).square().sum()
        loss.backward()
        return loss

    for _ in range(3):
        optimizer.step(closure)
    E, nu = physical(q).tolist()
    assert abs(E / 3e3 - 1) < 1e-6, E
    assert abs(nu / 0.3 - 1) < 1e-6, nu
