"""TorchRL on vecgym envs: TorchRL's ``GymWrapper`` over :func:`vecgym.interop.to_gymnasium`.

TorchRL wraps any ``gymnasium.Env`` or ``gymnasium.vector.VectorEnv``; a converted vecgym env is
one, so the recipe is one line::

    from torchrl.envs import GymWrapper
    import vecgym
    from vecgym.interop import to_gymnasium

    env = GymWrapper(to_gymnasium(vecgym.make("CartPole-v1")))
    envs = GymWrapper(to_gymnasium(vecgym.make_vec(
        "CartPole-v1", num_envs=8, vectorization_mode="async",
        vector_kwargs={"autoreset_mode": "Disabled"})))   # batch_size [8]

TorchRL resets ended envs itself, so a vector env must be made with ``autoreset_mode``
``"Disabled"`` (TorchRL's preference) or ``"SameStep"``; :func:`to_torchrl` checks that and
does the wrapping. TorchRL is imported on first use; without it
:class:`vecgym.error.DependencyNotInstalled` names the ``torchrl`` extra.

Example:
    >>> import vecgym
    >>> env = to_torchrl(vecgym.make("CartPole-v1"))
    >>> rollout = env.rollout(5)
    >>> rollout["next", "observation"].shape[-1]
    4
    >>> env.close()
"""

from __future__ import annotations

from typing import Any

from vecgym._extras import import_extra
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["to_torchrl"]

TORCHRL_EXTRA_MSG = (
    "to_torchrl needs torchrl (and gymnasium), which are not installed: "
    'pip install "vecgym[torchrl]"'
)
AUTORESET_MODE_MSG = (
    "TorchRL resets ended envs itself: the vector env must be made with autoreset_mode "
    "'Disabled' or 'SameStep', got {mode}"
)


def to_torchrl(env: Any, **wrapper_kwargs: Any) -> Any:
    """``torchrl.envs.GymWrapper(to_gymnasium(env), **wrapper_kwargs)``.

    Args:
        env: a vecgym env or vector env (a vector env in ``DISABLED`` or ``SAME_STEP`` mode).
        **wrapper_kwargs: passed to ``GymWrapper`` (``device``, ``categorical_action_encoding``,
            ``from_pixels``, ...).

    Raises:
        ValueError: a vector env in ``NEXT_STEP`` autoreset mode.
        DependencyNotInstalled: TorchRL or Gymnasium is missing (the ``torchrl`` extra).
    """
    if isinstance(env, VectorEnv):
        mode = AutoresetMode(env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP))
        if mode is AutoresetMode.NEXT_STEP:
            raise ValueError(AUTORESET_MODE_MSG.format(mode=mode))
    gym_wrapper = import_extra("torchrl.envs", TORCHRL_EXTRA_MSG).GymWrapper
    from vecgym.interop import to_gymnasium

    return gym_wrapper(to_gymnasium(env), **wrapper_kwargs)
