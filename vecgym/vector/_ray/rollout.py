"""One rollout inside a host actor: what the policy saw and did at each step, and what came back.

:class:`RolloutRecorder` holds the ``(T, m, ...)`` buffers of a host's ``m`` envs over ``T``
steps. In the ``DISABLED`` autoreset mode a host never steps an env whose episode has ended: its
rows from then on are not *stepped* (reward 0, flags ``False``, no infos, its last observation,
zero actions and extras; actions of a space that does not batch into arrays: ``None``), and the
host stops calling the policy once none of its envs runs. Such actions are recorded as one list of
per-env actions per step (their wire form, :mod:`vecgym.vector._ray.actions`).
"""

from __future__ import annotations

import copy as copy_module
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.vector._async.batch import copy_rows, select_rows, stack_trees
from vecgym.vector._ray.actions import ActionWire
from vecgym.vector._ray.observations import ObsStore
from vecgym.vector.utils import create_empty_array

__all__ = ["RolloutRecorder", "split_policy_output"]


def split_policy_output(out: Any) -> tuple[Any, Any]:
    """``(actions, extras)`` from what a policy returned: ``actions``, or ``(actions, extras)``
    with ``extras`` a dict or ``None`` (a batch of two Text actions is a pair of strings)."""
    if isinstance(out, tuple) and len(out) == 2 and (out[1] is None or isinstance(out[1], dict)):
        return out[0], out[1]
    return out, None


def _zero_rows(tree: Any, mask: npt.NDArray[np.bool_]) -> None:
    """Zero the ``(t, env)`` rows of ``mask`` in every ``(T, m, ...)`` array of ``tree``."""
    if isinstance(tree, np.ndarray):
        tree[mask] = 0
    elif isinstance(tree, dict):
        for sub in tree.values():
            _zero_rows(sub, mask)
    elif isinstance(tree, tuple):
        for sub in tree:
            _zero_rows(sub, mask)


class RolloutRecorder:
    """The buffers of one host rollout of ``num_steps`` steps over the envs of ``obs``."""

    def __init__(self, obs: ObsStore, num_steps: int, wire: ActionWire) -> None:
        self.obs = obs
        self.wire = wire
        self.num_steps = num_steps
        m = obs.n
        # arrays: a (T, m, ...) tree; other spaces: one list of m values per step
        self.observations: Any = stack_trees(obs.batch, num_steps) if obs.arrays else []
        self.actions: Any = None if wire.arrays else []
        self.extras: Any = None
        self.rewards = np.zeros((num_steps, m), dtype=np.float64)
        self.terminations = np.zeros((num_steps, m), dtype=np.bool_)
        self.truncations = np.zeros((num_steps, m), dtype=np.bool_)
        self.stepped = np.zeros((num_steps, m), dtype=np.bool_)
        self.infos: list[dict[str, Any]] = []

    def observe(self, t: int) -> Any:
        """Record the observations of step ``t``; returns the batch the policy receives."""
        if self.obs.arrays:
            copy_rows(self.observations, t, self.obs.batch)
            return select_rows(self.observations, t)
        values = copy_module.deepcopy(self.obs.values)  # an env may reuse its observation object
        self.observations.append(values)
        return self.obs.batch_of(values)

    def act(self, t: int, out: Any) -> Any:
        """Record the policy's output at step ``t``; returns its actions in their wire form.

        Raises:
            ValueError: (spaces that do not batch into arrays) not one action per env.
        """
        actions, extras = split_policy_output(out)
        if self.wire.arrays:
            if self.actions is None:
                self.actions = stack_trees(actions, self.num_steps)
            copy_rows(self.actions, t, actions)
        else:
            actions = self.wire.of(actions, self.obs.n)
            self.actions.append(copy_module.deepcopy(actions))  # the policy may reuse its arrays
        if extras is not None:
            if self.extras is None:
                self.extras = stack_trees(extras, self.num_steps)
            copy_rows(self.extras, t, extras)
        return actions

    def record(self, t: int, stepped: Any, result: tuple[Any, Any, Any, dict[str, Any]]) -> None:
        """Record step ``t``'s ``(rewards, terminations, truncations, infos)`` of the envs
        ``stepped`` (a bool mask, or ``None`` for all)."""
        rewards, terminated, truncated, info = result
        self.rewards[t] = rewards
        self.terminations[t] = terminated
        self.truncations[t] = truncated
        self.stepped[t] = True if stepped is None else stepped
        self.infos.append(info)

    def finish(self, done: int) -> dict[str, Any]:
        """The rollout's buffers, after ``done`` steps ran (the rest are not stepped)."""
        for _ in range(done, self.num_steps):
            self.infos.append({})
        if self.actions is None:  # the policy never ran: zero actions of the action space
            empty = create_empty_array(self.wire.space, n=self.obs.n, fn=np.zeros)
            self.actions = stack_trees(empty, self.num_steps)
        if not self.wire.arrays:
            missing = range(len(self.actions), self.num_steps)
            self.actions.extend([None] * self.obs.n for _ in missing)
        if done < self.num_steps:
            if self.obs.arrays:
                copy_rows(self.observations, slice(done, None), self.obs.batch)
            else:
                self.observations.extend(
                    copy_module.deepcopy(self.obs.values) for _ in range(done, self.num_steps)
                )
        idle = ~self.stepped
        if idle.any():
            if self.wire.arrays:
                _zero_rows(self.actions, idle)
            else:
                for t, j in zip(*np.nonzero(idle), strict=True):
                    self.actions[t][j] = None
            _zero_rows(self.extras, idle)
        return {
            "observations": self.observations,
            "actions": self.actions,
            "rewards": self.rewards,
            "terminations": self.terminations,
            "truncations": self.truncations,
            "stepped": self.stepped,
            "infos": self.infos,
            "extras": self.extras,
            "next_observations": self.obs.wire(),
        }
