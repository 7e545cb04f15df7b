"""softfit.torch: the simulator as a differentiable torch function.

    import torch, softfit, softfit.torch as st
    scene = softfit.Scene("scene.json")
    names = ["E", "nu"]
    p = torch.tensor([5000.0, 0.3], dtype=torch.float64, requires_grad=True)
    x, v = st.simulate(scene, names, p)        # (T+1, N, 3) each
    loss = ((x - target) ** 2).sum(); loss.backward()   # p.grad by one adjoint pass

The backward pass is the exact adjoint (C++ reverse pass, no finite differences and no
autograd through the solver): the incoming gradients dL/dx and dL/dv of every frame are
the per-frame loss gradient of Scene.trajectory_gradient. Tensors are float64 on the CPU.
"""
import numpy as _np
import torch as _torch


def _numpy(t):
    return t.detach().to(dtype=_torch.float64, device="cpu").contiguous().numpy()


class Trajectory(_torch.autograd.Function):
    """(params, x0, v0) -> (x, v): the scene's trajectory for the named parameter values.

    x0 / v0 (optional, (N, 3)) replace the scene's initial state; velocity parameters, when
    named, are applied after them and overwrite v0. Parameters are set with trial=True
    (Scene.set_parameters): from the last values set without it, so every call with the
    same inputs gives the same bits.
    """

    @staticmethod
    def forward(ctx, scene, names, params, x0, v0):
        ctx.scene, ctx.names = scene, list(names)
        ctx.values = _numpy(params)
        ctx.x0 = None if x0 is None else _numpy(x0)
        ctx.v0 = None if v0 is None else _numpy(v0)
        ctx.has_x0, ctx.has_v0 = x0 is not None, v0 is not None
        _apply(scene, ctx.names, ctx.values, ctx.x0, ctx.v0)
        run = scene.simulate()
        return _torch.from_numpy(run["x"]), _torch.from_numpy(run["v"])

    @staticmethod
    def backward(ctx, grad_x, grad_v):
        scene = ctx.scene
        _apply(scene, ctx.names, ctx.values, ctx.x0, ctx.v0)  # the forward's values, whatever ran since
        dx = _numpy(grad_x) if grad_x is not None else None
        dv = _numpy(grad_v) if grad_v is not None else None
        shape = (scene.steps + 1, scene.node_count, 3)
        if dx is None:
            dx = _np.zeros(shape)
        g = scene.trajectory_gradient(ctx.names if ctx.names else None, dx, dv)
        grad_params = _torch.from_numpy(g["gradient"]) if ctx.needs_input_grad[2] else None
        grad_x0 = _torch.from_numpy(g["initial_x"]) if ctx.has_x0 and ctx.needs_input_grad[3] else None
        grad_v0 = _torch.from_numpy(g["initial_v"]) if ctx.has_v0 and ctx.needs_input_grad[4] else None
        return None, None, grad_params, grad_x0, grad_v0


def _apply(scene, names, values, x0, v0):
    if x0 is not None or v0 is not None:
        scene.set_initial_state(x0, v0)
    if names:
        scene.set_parameters(names, values, trial=True)  # the same bits in forward and backward


def simulate(scene, names, params, x0=None, v0=None):
    """x, v = simulate(scene, names, params[, x0, v0]): (T+1, N, 3) float64 tensors.

    names: the CLI's --params names as a list or "E,nu" (groups such as "gravity" expand
    to their components: params then has one entry per component, see
    scene.parameter_names). Gradients flow to params, x0 and v0 by one adjoint pass.
    """
    if isinstance(names, str):
        names = [n for n in names.split(",") if n]
    if names:
        expanded = scene.parameter_names(names)
        if params.numel() != len(expanded):
            raise ValueError("params: %d values for the parameters %s" % (params.numel(), ",".join(expanded)))
    return Trajectory.apply(scene, names, params, x0, v0)
