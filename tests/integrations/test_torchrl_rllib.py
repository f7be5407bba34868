"""The TorchRL and RLlib recipes (vecgym.integrations.torchrl, vecgym.integrations.rllib)."""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.processes import python_stdout
from vecgym.integrations.rllib import VecgymEnvCreator, env_creator
from vecgym.integrations.torchrl import AUTORESET_MODE_MSG, TORCHRL_EXTRA_MSG, to_torchrl
from vecgym.vector import AutoresetMode

gymnasium = pytest.importorskip("gymnasium")


# --- TorchRL --------------------------------------------------------------------------------------
@pytest.fixture
def torchrl() -> object:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return pytest.importorskip("torchrl")


def _rollouts(envs: tuple[Any, ...], seed: int, steps: int) -> list[Any]:
    """Each TorchRL env's ``rollout`` of ``steps`` (not stopping at episode ends), with the same
    env and torch seeds; the envs are closed."""
    import torch

    rollouts = []
    for env in envs:
        env.set_seed(seed)
        torch.manual_seed(seed)
        rollouts.append(env.rollout(steps, break_when_any_done=False))
        env.close()
    return rollouts


def test_torchrl_single_env_passes_its_spec_check_and_matches_gymnasium(torchrl: object) -> None:
    import torch
    from torchrl.envs import GymWrapper
    from torchrl.envs.utils import check_env_specs

    ours = to_torchrl(vecgym.make("CartPole-v1"))
    theirs = GymWrapper(gymnasium.make("CartPole-v1"))
    check_env_specs(ours, seed=0)
    rollouts = _rollouts((ours, theirs), 4, 100)
    for key in ("observation", "reward", "terminated", "truncated"):
        assert torch.equal(rollouts[0]["next", key], rollouts[1]["next", key]), key
    assert rollouts[0]["next", "done"].any()  # an episode ended and was reset by TorchRL


@pytest.mark.parametrize("env_id", ["CartPole-v1", "Pendulum-v1", "FrozenLake-v1"])
def test_torchrl_gym_wrapper_takes_a_vecgym_env_directly(torchrl: object, env_id: str) -> None:
    # A vecgym env is a gymnasium.Env where Gymnasium is installed: TorchRL's own GymWrapper
    # takes it without to_torchrl, with the rollouts it gives over Gymnasium's env.
    import torch
    from torchrl.envs import GymWrapper
    from torchrl.envs.utils import check_env_specs

    with warnings.catch_warnings():
        # torch's note, once a process, that vecgym's Box bounds are read-only (on purpose)
        warnings.filterwarnings("ignore", "The given NumPy array is not writable", UserWarning)
        ours = GymWrapper(vecgym.make(env_id))
    theirs = GymWrapper(gymnasium.make(env_id))
    check_env_specs(ours, seed=0)
    rollouts = _rollouts((ours, theirs), 4, 60)
    for key in ("observation", "reward", "terminated", "truncated"):
        assert torch.equal(rollouts[0]["next", key], rollouts[1]["next", key]), key


@pytest.mark.parametrize("mode", ["Disabled", "SameStep"])
def test_torchrl_vector_env_matches_gymnasiums(torchrl: object, mode: str) -> None:
    import torch
    from torchrl.envs import GymWrapper

    ours = to_torchrl(
        vecgym.make_vec(
            "CartPole-v1", 3, "async", vector_kwargs={"autoreset_mode": mode, "num_workers": 2}
        )
    )
    theirs = GymWrapper(
        gymnasium.make_vec(
            "CartPole-v1", 3, "sync", vector_kwargs={"autoreset_mode": AutoresetMode(mode).value}
        )
    )
    assert ours.batch_size == theirs.batch_size == torch.Size([3])
    rollouts = _rollouts((ours, theirs), 2, 80)
    for key in ("observation", "reward", "done"):
        assert torch.equal(rollouts[0]["next", key], rollouts[1]["next", key]), key
    assert rollouts[0]["next", "done"].sum() > 0


def test_torchrl_refuses_next_step_vector_envs() -> None:
    envs = vecgym.make_vec("CartPole-v1", 2, "sync")
    with pytest.raises(ValueError) as info:
        to_torchrl(envs)
    assert str(info.value) == AUTORESET_MODE_MSG.format(mode=AutoresetMode.NEXT_STEP)
    envs.close()


def test_missing_torchrl_raises_dependency_not_installed() -> None:
    code = (
        "import sys\nsys.modules['torchrl'] = None\nsys.modules['torchrl.envs'] = None\n"
        "import vecgym\nfrom vecgym.integrations import torchrl as m\n"
        "try:\n    m.to_torchrl(vecgym.make('CartPole-v1'))\n"
        "except vecgym.error.DependencyNotInstalled as exc:\n"
        "    assert str(exc) == m.TORCHRL_EXTRA_MSG, exc\n    print('raised')\n"
    )
    assert python_stdout(code) == "raised"
    assert "vecgym[torchrl]" in TORCHRL_EXTRA_MSG


# --- RLlib ----------------------------------------------------------------------------------------
def test_rllib_env_creator_builds_converted_envs_from_env_config() -> None:
    create = env_creator("FrozenLake-v1", is_slippery=False)
    copy = pickle.loads(pickle.dumps(create))  # shipped to RLlib's env-runner actors
    assert isinstance(copy, VecgymEnvCreator)
    env = copy({"map_name": "8x8", "max_episode_steps": 30})
    assert isinstance(env, gymnasium.Env)
    assert env.observation_space == gymnasium.spaces.Discrete(64)
    assert env.spec.max_episode_steps == 30
    assert env.spec.kwargs["is_slippery"] is False
    obs, _ = env.reset(seed=0)
    assert obs == 0
    env.close()
    default = create(None)
    assert default.observation_space == gymnasium.spaces.Discrete(16)
    default.close()


@pytest.mark.ray
def test_rllib_env_creator_runs_under_rllib() -> None:
    rllib = pytest.importorskip(
        "ray.rllib",
        reason=(
            "ray.rllib does not import (ray[rllib] 2.60 pins gymnasium 1.2.2: run this file in a "
            "venv of its own, see docs/integrations.md)"
        ),
        exc_type=ImportError,
    )
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
    from ray.tune.registry import register_env

    register_env("vecgym-CartPole", env_creator("CartPole-v1"))
    # a vecgym env is a gymnasium.Env: RLlib also takes a creator that returns one as it is
    register_env("vecgym-CartPole-direct", lambda config: vecgym.make("CartPole-v1"))
    for name in ("vecgym-CartPole", "vecgym-CartPole-direct"):
        config = rllib.algorithms.ppo.PPOConfig().environment(name)
        with warnings.catch_warnings():  # each runner registers RLlib's Gymnasium id again
            warnings.filterwarnings("ignore", ".*already in registry", UserWarning)
            runner = SingleAgentEnvRunner(config=config)
        episodes = runner.sample(num_timesteps=50, random_actions=True)
        assert sum(len(e) for e in episodes) >= 50
        assert np.isfinite(sum(e.get_return() for e in episodes))
        runner.stop()
