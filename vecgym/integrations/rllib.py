"""RLlib on vecgym envs: an env creator that builds vecgym envs as ``gymnasium.Env`` objects.

RLlib builds its environments in its env-runner actors by calling a creator registered under a
name with the run's ``env_config``. :func:`env_creator` returns such a creator for a vecgym id;
the envs it builds are :func:`vecgym.interop.to_gymnasium` conversions, which RLlib's Gymnasium
checks accept. The recipe (needs ``ray[rllib]``, the ``rllib`` extra)::

    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env
    from vecgym.integrations.rllib import env_creator

    register_env("vecgym-CartPole", env_creator("CartPole-v1"))
    config = (
        PPOConfig()
        .environment("vecgym-CartPole", env_config={"max_episode_steps": 200})
        .env_runners(num_env_runners=2, num_envs_per_env_runner=4)
    )
    algo = config.build_algo()
    algo.train()

The creator itself needs neither Ray nor RLlib (it only builds envs), so it is tested directly
here; the RLlib part is tested where ``ray.rllib`` imports (``ray[rllib]`` 2.60 pins Gymnasium
1.2.2, so it was verified in a venv of its own: see ``docs/integrations.md``).

Example:
    >>> import gymnasium
    >>> create = env_creator("CartPole-v1")
    >>> env = create({"max_episode_steps": 200})  # what an RLlib env runner does
    >>> isinstance(env, gymnasium.Env), env.spec.max_episode_steps
    (True, 200)
    >>> env.close()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["VecgymEnvCreator", "env_creator"]


class VecgymEnvCreator:
    """An RLlib env creator: ``creator(env_config)`` builds ``to_gymnasium(vecgym.make(env_id,
    **make_kwargs, **env_config))``.

    It pickles (RLlib ships it to its env-runner actors). ``env_config`` is RLlib's
    ``EnvContext`` (a dict, with ``worker_index`` / ``vector_index`` attributes that are not
    passed on) or any mapping; its items override ``make_kwargs``.

    Args:
        env_id: a vecgym (or, through vecgym's registry, a Gymnasium) env id.
        **make_kwargs: keyword arguments of ``vecgym.make``.
    """

    def __init__(self, env_id: str, **make_kwargs: Any) -> None:
        self.env_id = env_id
        self.make_kwargs = make_kwargs

    def __call__(self, env_config: Mapping[str, Any] | None = None) -> Any:
        """The converted env, made with ``make_kwargs`` updated by ``env_config``."""
        import vecgym
        from vecgym.interop import to_gymnasium

        kwargs = {**self.make_kwargs, **dict(env_config or {})}
        return to_gymnasium(vecgym.make(self.env_id, **kwargs))

    def __repr__(self) -> str:
        return f"VecgymEnvCreator({self.env_id!r}, **{self.make_kwargs!r})"


def env_creator(env_id: str, **make_kwargs: Any) -> VecgymEnvCreator:
    """An RLlib env creator for ``env_id`` (see :class:`VecgymEnvCreator`)."""
    return VecgymEnvCreator(env_id, **make_kwargs)
