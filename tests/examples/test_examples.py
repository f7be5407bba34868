"""examples/ppo.py, a2c.py, async_collect.py and their helpers (_nn.py, _rl.py).

Smoke runs of each script in a subprocess (small budgets, exit status, output lines), the GAE
computation on hand-worked cases (NEXT_STEP reset steps masked, truncation bootstrapped,
termination not), the reset-step flags of a real rollout, and finite-difference checks of the
numpy MLP's backward pass and of the PPO and A2C loss gradients.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym
from vecgym.wrappers.vector import RecordEpisodeStatistics

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMOKE_TIMEOUT_S = 120
PROGRESS_LINE = re.compile(r"^steps=\s*\d+\s+sps=\s*\d+\s+episodes=\s*\d+\s+mean_return")


@pytest.fixture(scope="module")
def examples() -> Iterator[dict[str, ModuleType]]:
    """The example modules, imported with ``examples/`` on ``sys.path`` as the scripts see it."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield {name: importlib.import_module(name) for name in ("_nn", "_rl", "ppo", "a2c")}
    finally:
        sys.path.remove(str(EXAMPLES))


def run_example(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=SMOKE_TIMEOUT_S,
        check=False,
    )


# --- smoke runs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("script", ["ppo.py", "a2c.py"])
def test_learner_smoke_run(script: str) -> None:
    name = script.removesuffix(".py")
    result = run_example(
        script,
        *("--total-steps", "2048", "--num-envs", "4", "--num-workers", "2"),
        *("--seed", "3", "--log-every", "512", "--target", "0", "--eval"),
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{name}: CartPole-v1, 4 envs on 2 workers, seed 3")
    assert sum(bool(PROGRESS_LINE.match(line)) for line in lines) >= 3
    assert any(line.startswith(f"{name}: done: 2048 env steps") for line in lines)
    assert any(re.match(rf"{name}: eval: mean return [\d.]+ over 10 greedy", ln) for ln in lines)


def test_ppo_exit_status_when_target_missed() -> None:
    result = run_example("ppo.py", "--total-steps", "512", "--num-envs", "2", "--num-workers", "1")
    assert result.returncode == 1, result.stderr
    assert "ppo: target not reached" in result.stdout


def test_async_collect_smoke_run() -> None:
    result = run_example("async_collect.py", "--total-steps", "2000", "--policy", "random")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "8 x CartPole-v1 on 2 workers, batch_size 4, random policy" in out
    first = re.search(r"env ids of the first \d+ batches: (.*)", out)
    assert first is not None
    # Each batch is one worker's four envs.
    for batch in re.findall(r"\[([^\]]*)\]", first.group(1)):
        assert batch in ("0, 1, 2, 3", "4, 5, 6, 7")
    assert re.search(r"send/recv: \d+ env steps in [\d.]+ s = [\d,]+ steps/s", out)
    assert re.search(r"came back twice in a row \d+ times", out)
    assert re.search(r"step\(\) on all 8 envs: \d+ env steps", out)


def test_async_collect_episode_counter_skips_reset_steps() -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        async_collect = importlib.import_module("async_collect")
    finally:
        sys.path.remove(str(EXAMPLES))
    counter = async_collect.EpisodeCounter(3)
    ids = np.array([2, 0])
    counter.add(ids, np.array([1.0, 1.0]), np.array([True, False]), np.array([False, False]))
    assert counter.returns == [1.0]
    # Env 2's next result is its reset step: not a step, not a return; env 1 steps once.
    counter.add(np.array([2, 1]), np.array([0.0, 1.0]), np.zeros(2, bool), np.array([False, True]))
    assert counter.env_steps == 3
    assert counter.returns == [1.0, 1.0]
    assert counter.pending_reset.tolist() == [False, True, False]


# --- GAE with NEXT_STEP autoreset ---------------------------------------------------------------
def gae_case() -> dict[str, np.ndarray]:
    """Two envs, five steps. Env 0 terminates at t=2 (t=3 is its reset step); env 1 is truncated
    at t=1 (t=2 is its reset step, whose observation is env 1's final one, value 8)."""
    return {
        "rewards": np.array([[1, 1], [1, 1], [1, 0], [0, 1], [1, 1]], dtype=float),
        "values": np.array([[0.5, 1], [1, 2], [2, 8], [4, 1], [3, 1]], dtype=float),
        "last_values": np.array([6.0, 2.0]),
        "terminated": np.array([[0, 0], [0, 0], [1, 0], [0, 0], [0, 0]], dtype=bool),
        "truncated": np.array([[0, 0], [0, 1], [0, 0], [0, 0], [0, 0]], dtype=bool),
        "reset_step": np.array([[0, 0], [0, 0], [0, 1], [1, 0], [0, 0]], dtype=bool),
    }


def test_gae_masks_reset_steps_and_bootstraps_truncation(examples: dict[str, ModuleType]) -> None:
    case = gae_case()
    advantages, returns = examples["_rl"].compute_gae(**case, gamma=0.5, lam=0.5)
    # By hand, gamma = 0.5 and gamma * lambda = 0.25:
    # env 0: t4: 1 + .5*6 - 3 = 1; t3 reset: 0; t2 terminated: 1 - 2 = -1 (no bootstrap, no
    #        carry); t1: (1 + .5*2 - 1) + .25*(-1) = .75; t0: (1 + .5*1 - .5) + .25*.75 = 1.1875
    # env 1: t4: 1 + .5*2 - 1 = 1; t3: (1 + .5*1 - 1) + .25*1 = .75; t2 reset: 0;
    #        t1 truncated: 1 + .5*8 - 2 = 3 (bootstraps from V(final obs) = 8, no carry);
    #        t0: (1 + .5*2 - 1) + .25*3 = 1.75
    expected = np.array([[1.1875, 1.75], [0.75, 3.0], [-1.0, 0.0], [0.0, 0.75], [1.0, 1.0]])
    np.testing.assert_allclose(advantages, expected)
    np.testing.assert_allclose(returns, expected + case["values"])


def test_gae_termination_does_not_bootstrap(examples: dict[str, ModuleType]) -> None:
    case = gae_case()
    case["terminated"][1, 1], case["truncated"][1, 1] = True, False
    advantages, _ = examples["_rl"].compute_gae(**case, gamma=0.5, lam=0.5)
    assert advantages[1, 1] == pytest.approx(1.0 - 2.0)  # r - V(s), the final value ignored
    assert advantages[0, 1] == pytest.approx(1.0 + 0.25 * -1.0)


def test_gae_lambda_one_is_n_step_return(examples: dict[str, ModuleType]) -> None:
    rewards = np.array([[1.0], [2.0], [3.0]])
    values = np.array([[0.3], [0.2], [0.1]])
    flags = np.zeros((3, 1), dtype=bool)
    _, returns = examples["_rl"].compute_gae(
        rewards, values, np.array([10.0]), flags, flags, flags, gamma=0.9, lam=1.0
    )
    expected0 = 1 + 0.9 * 2 + 0.81 * 3 + 0.729 * 10
    assert returns[0, 0] == pytest.approx(expected0)


def test_ppo_batch_drops_reset_steps(examples: dict[str, ModuleType]) -> None:
    rl, ppo = examples["_rl"], examples["ppo"]
    case = gae_case()
    rollout = rl.Rollout.empty(5, 2, 3)
    for key, value in case.items():
        setattr(rollout, key, value)
    rollout.obs = np.arange(30, dtype=float).reshape(5, 2, 3)
    rollout.actions = np.arange(10).reshape(5, 2)
    batch = ppo.make_batch(rollout, ppo.PPOConfig(gamma=0.5, gae_lambda=0.5))
    assert batch.actions.tolist() == [0, 1, 2, 3, 4, 7, 8, 9]  # rows (2, 1) and (3, 0) dropped
    np.testing.assert_array_equal(batch.obs[:, 0], 3 * batch.actions)
    np.testing.assert_allclose(batch.advantages, [1.1875, 1.75, 0.75, 3.0, -1.0, 0.75, 1.0, 1.0])


def test_collect_flags_next_step_reset_steps(examples: dict[str, ModuleType]) -> None:
    rl = examples["_rl"]
    envs = RecordEpisodeStatistics(
        vecgym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
    )
    rng = np.random.default_rng(0)
    agent = rl.ActorCritic(4, 2, rng)
    try:
        obs, _ = envs.reset(seed=0)
        state = rl.CollectorState(np.asarray(obs, float), np.zeros(2, bool))
        first, second = rl.Rollout.empty(40, 2, 4), rl.Rollout.empty(40, 2, 4)
        rl.collect(envs, agent, state, first, rng)
        rl.collect(envs, agent, state, second, rng)
    finally:
        envs.close()
    done = np.concatenate(
        [first.terminated | first.truncated, second.terminated | second.truncated]
    )
    reset = np.concatenate([first.reset_step, second.reset_step])
    obs_rows = np.concatenate([first.obs, second.obs])
    rewards = np.concatenate([first.rewards, second.rewards])
    assert done.any()  # random CartPole episodes are short
    np.testing.assert_array_equal(reset[1:], done[:-1])  # also across the two rollouts
    assert not reset[0].any()
    assert (rewards[reset] == 0).all()
    # The row of a reset step holds the final observation of the episode that just ended: a
    # CartPole termination means the pole or cart went out of bounds.
    final = obs_rows[1:][done[:-1]]
    assert ((np.abs(final[:, 2]) > 0.2095) | (np.abs(final[:, 0]) > 2.4)).all()


# --- gradients ----------------------------------------------------------------------------------
def numerical_grads(params: list[np.ndarray], loss: Callable[[], float]) -> list[np.ndarray]:
    """Central finite differences of ``loss`` with respect to every entry of ``params``."""
    eps = 1e-6
    grads = []
    for p in params:
        g = np.zeros_like(p)
        for index in np.ndindex(p.shape):
            saved = p[index]
            p[index] = saved + eps
            up = loss()
            p[index] = saved - eps
            down = loss()
            p[index] = saved
            g[index] = (up - down) / (2 * eps)
        grads.append(g)
    return grads


def assert_grads_close(analytic: list[np.ndarray], numeric: list[np.ndarray]) -> None:
    assert len(analytic) == len(numeric)
    for a, n in zip(analytic, numeric, strict=True):
        np.testing.assert_allclose(a, n, rtol=1e-5, atol=1e-7)


def test_mlp_backward_matches_finite_differences(examples: dict[str, ModuleType]) -> None:
    nn = examples["_nn"]
    rng = np.random.default_rng(0)
    net = nn.MLP((3, 5, 4, 2), rng, output_gain=1.0)
    x = rng.standard_normal((6, 3))
    weights = rng.standard_normal((6, 2))

    def loss() -> float:
        out = net(x)
        return float(np.sum(weights * out) + 0.5 * np.sum(out**2))

    out, cache = net.forward(x)
    analytic = net.backward(cache, weights + out)
    assert_grads_close(analytic, numerical_grads(net.params, loss))


def current_log_probs(
    examples: dict[str, ModuleType], agent: Any, obs: np.ndarray, actions: np.ndarray
) -> np.ndarray:
    """``log pi(a | s)`` of the agent's current policy, row by row."""
    logp = examples["_nn"].log_softmax(agent.actor(obs))
    return np.asarray(logp[np.arange(len(actions)), actions])


def make_rollout(examples: dict[str, ModuleType], agent: Any, rng: np.random.Generator) -> Any:
    """A random 6x3 rollout with an end of each kind, for the loss-gradient checks."""
    rollout = examples["_rl"].Rollout.empty(6, 3, 4)
    rollout.obs = rng.standard_normal((6, 3, 4))
    rollout.actions = rng.integers(0, 2, (6, 3))
    rollout.values = rng.standard_normal((6, 3))
    rollout.last_values = rng.standard_normal(3)
    rollout.rewards = rng.random((6, 3))
    rollout.terminated[2, 0] = rollout.truncated[3, 2] = True
    rollout.reset_step[3, 0] = rollout.reset_step[4, 2] = True
    logp = current_log_probs(
        examples, agent, rollout.obs.reshape(-1, 4), rollout.actions.reshape(-1)
    )
    # Old log-probabilities near the current ones: some ratios inside the clip range, some out.
    rollout.logp = logp.reshape(6, 3) + rng.uniform(-0.5, 0.5, (6, 3))
    return rollout


def test_ppo_loss_gradient_matches_finite_differences(examples: dict[str, ModuleType]) -> None:
    rl, ppo = examples["_rl"], examples["ppo"]
    rng = np.random.default_rng(1)
    agent = rl.ActorCritic(4, 2, rng, hidden=6)
    # A larger output gain than the default, so that the policy is far from uniform.
    agent.actor.params[-2] *= 100.0
    config = ppo.PPOConfig()
    batch = ppo.make_batch(make_rollout(examples, agent, rng), config)
    idx = np.arange(len(batch.actions))
    ratio = np.exp(current_log_probs(examples, agent, batch.obs, batch.actions) - batch.logp)
    clipped = np.abs(ratio - 1.0) > config.clip_coef
    assert clipped.any()
    assert not clipped.all()

    def loss() -> float:
        stats = ppo.ppo_gradients(agent, batch, idx, config)[1]
        return (
            stats["policy_loss"]
            + config.vf_coef * stats["value_loss"]
            - config.ent_coef * stats["entropy"]
        )

    analytic, _ = ppo.ppo_gradients(agent, batch, idx, config)
    assert_grads_close(analytic, numerical_grads(agent.params, loss))


def test_a2c_loss_gradient_matches_finite_differences(examples: dict[str, ModuleType]) -> None:
    rl, a2c = examples["_rl"], examples["a2c"]
    rng = np.random.default_rng(2)
    agent = rl.ActorCritic(4, 2, rng, hidden=6)
    agent.actor.params[-2] *= 100.0
    config = a2c.A2CConfig(ent_coef=0.0)
    rollout = make_rollout(examples, agent, rng)

    def loss() -> float:
        stats = a2c.a2c_gradients(agent, rollout, config)[1]
        return stats["policy_loss"] + config.vf_coef * stats["value_loss"]

    analytic, _ = a2c.a2c_gradients(agent, rollout, config)
    assert_grads_close(analytic, numerical_grads(agent.params, loss))


def test_policy_logits_grad_entropy_term(examples: dict[str, ModuleType]) -> None:
    nn = examples["_nn"]
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((4, 3))
    actions = np.array([0, 2, 1, 1])

    def entropy_sum(z: np.ndarray) -> float:
        return float(nn.categorical_entropy(nn.log_softmax(z)).sum())

    analytic = nn.policy_logits_grad(nn.log_softmax(logits), actions, np.zeros(4), np.ones(4))
    assert_grads_close([analytic], numerical_grads([logits], lambda: entropy_sum(logits)))


def test_adam_and_clipping(examples: dict[str, ModuleType]) -> None:
    nn = examples["_nn"]
    p = np.array([1.0, -2.0])
    opt = nn.Adam([p], lr=0.1)
    opt.step([np.array([3.0, -0.5])])
    # The first Adam step moves every weight by about lr against the sign of its gradient.
    np.testing.assert_allclose(p, [0.9, -1.9], atol=1e-4)
    clipped, norm = nn.clip_by_global_norm([np.array([3.0]), np.array([4.0])], 1.0)
    assert norm == pytest.approx(5.0)
    assert np.hypot(clipped[0][0], clipped[1][0]) == pytest.approx(1.0, rel=1e-5)


def test_sample_categorical_frequencies(examples: dict[str, ModuleType]) -> None:
    nn = examples["_nn"]
    logits = np.log(np.tile([[0.2, 0.5, 0.3]], (20_000, 1)))
    actions = nn.sample_categorical(logits, np.random.default_rng(0))
    np.testing.assert_allclose(np.bincount(actions) / len(actions), [0.2, 0.5, 0.3], atol=0.01)


def test_orthogonal_init(examples: dict[str, ModuleType]) -> None:
    nn = examples["_nn"]
    w = nn.orthogonal(8, 3, 2.0, np.random.default_rng(0))
    np.testing.assert_allclose(w.T @ w, 4.0 * np.eye(3), atol=1e-12)
