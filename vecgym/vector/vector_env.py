"""The vector environment API: :class:`VectorEnv`, its wrappers and :class:`AutoresetMode`.

A vector environment runs ``num_envs`` copies of an environment side by side and batches what they
return: observations in the form of :attr:`VectorEnv.observation_space` (the single space batched by
:func:`vecgym.vector.utils.batch_space`), rewards / terminations / truncations as arrays of shape
``(num_envs,)``, and the per-env info dicts merged into one dict (see :meth:`VectorEnv._add_info`).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, cast

import numpy as np

from vecgym import logger
from vecgym.core import seeding
from vecgym.core.env import ActType, ObsType, RenderFrame, WrapperActType, WrapperObsType
from vecgym.vector._info_merge import fold_infos, merge_info_columns

if TYPE_CHECKING:
    from collections.abc import Sequence

    from typing_extensions import Self, TypeVar

    from vecgym.core.registration import EnvSpec
    from vecgym.core.spaces.space import Space
else:
    try:
        from typing_extensions import TypeVar
    except ImportError:  # pragma: no cover - typing_extensions is normally installed
        import typing

        def TypeVar(name: str, *constraints: Any, default: Any = None, **kwargs: Any) -> Any:
            return typing.TypeVar(name, *constraints, **kwargs)


__all__ = [
    "ArrayType",
    "AutoresetMode",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
]

#: The array type of rewards, terminations and truncations (numpy arrays for the built-in envs).
ArrayType = TypeVar("ArrayType", default=Any)

NOT_IMPLEMENTED_MSG = "{} does not implement {}()"
WRAPPER_ENV_TYPE_MSG = "a VectorWrapper can only wrap a vecgym.vector.VectorEnv, got {}"
MISSING_AUTORESET_MSG = (
    "VectorObservationWrapper cannot check the autoreset mode of {}: its metadata has no "
    "'autoreset_mode' key (set it to NEXT_STEP or DISABLED)"
)
OBS_WRAPPER_MODE_MSG = (
    "VectorObservationWrapper supports autoreset_mode NEXT_STEP or DISABLED only (in SAME_STEP "
    "mode the final observations in the infos would not be transformed), got {}"
)


class AutoresetMode(Enum):
    """How a vector environment restarts a sub-environment whose episode has ended.

    ``NEXT_STEP`` resets it on the step after the one that ended the episode, ``SAME_STEP`` resets
    it within that step (reporting the last observation in ``info["final_obs"]``), ``DISABLED``
    leaves resetting to the user. :mod:`vecgym.vector.autoreset` states the exact rules.
    """

    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"


class VectorEnv(Generic[ObsType, ActType, ArrayType]):
    """The base class of environments that run several copies of an environment together.

    Subclasses set :attr:`num_envs`, the four spaces and :attr:`metadata` (with the key
    ``"autoreset_mode"``) and implement :meth:`step`, :meth:`reset` (calling ``super().reset(seed=
    seed)`` if they use :attr:`np_random`), :meth:`render` and :meth:`close_extras`.

    Attributes:
        num_envs: the number of sub-environments.
        observation_space: the batched observation space.
        single_observation_space: the observation space of one sub-environment.
        action_space: the batched action space.
        single_action_space: the action space of one sub-environment.
        metadata: render modes, fps and ``"autoreset_mode"`` (an :class:`AutoresetMode`).
        spec: the spec the env was made from by ``make_vec``, else ``None``.
        render_mode: the sub-environments' render mode.
        closed: whether :meth:`close` has been called.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs.num_envs, envs.action_space
        (2, MultiDiscrete([2 2]))
        >>> envs.metadata["autoreset_mode"]
        <AutoresetMode.NEXT_STEP: 'NextStep'>
        >>> envs.close()
    """

    metadata: dict[str, Any] = {}
    spec: EnvSpec | None = None
    render_mode: str | None = None
    closed: bool = False

    observation_space: Space[Any]
    action_space: Space[Any]
    single_observation_space: Space[Any]
    single_action_space: Space[Any]

    num_envs: int

    _np_random: np.random.Generator | None = None
    _np_random_seed: int | None = None

    def reset(  # type: ignore[return]
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset every sub-environment and return the batched first observations and infos.

        The base implementation only seeds :attr:`np_random` when ``seed`` is given; subclasses
        call it and then do the resetting.

        Args:
            seed: the seed (the vectorisers also accept one seed per sub-environment).
            options: options passed to the sub-environments; the key ``"reset_mask"`` (a boolean
                array of shape ``(num_envs,)``) restricts the reset to the envs it marks.

        Returns:
            ``(observations, infos)``.
        """
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)

    def step(
        self, actions: ActType
    ) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step every sub-environment with its action.

        Args:
            actions: a batch of actions, an element of :attr:`action_space`.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``; sub-environments whose
            episode ended are reset according to ``metadata["autoreset_mode"]``.
        """
        raise NotImplementedError(NOT_IMPLEMENTED_MSG.format(self, "step"))

    def render(self) -> tuple[RenderFrame, ...] | None:
        """The sub-environments' rendered frames, one per env."""
        raise NotImplementedError(NOT_IMPLEMENTED_MSG.format(self, "render"))

    def close(self, **kwargs: Any) -> None:
        """Release the environment's resources; calling it again does nothing.

        The work is done by :meth:`close_extras` (which receives ``kwargs``); afterwards
        :attr:`closed` is ``True``.

        Args:
            **kwargs: passed to :meth:`close_extras`.
        """
        if self.closed:
            return
        self.close_extras(**kwargs)
        self.closed = True

    def close_extras(self, **kwargs: Any) -> None:
        """Release what the subclass holds (sub-environments, processes); a no-op here."""

    @property
    def np_random(self) -> np.random.Generator:
        """The vector env's own generator, seeded randomly on first use if never seeded."""
        if self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value
        self._np_random_seed = -1

    @property
    def np_random_seed(self) -> int | None:
        """The seed of :attr:`np_random`; ``-1`` when the generator was assigned directly."""
        if self._np_random_seed is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random_seed

    @property
    def unwrapped(self) -> Self:
        """The innermost vector environment (this one)."""
        return self

    def _add_info(
        self, vector_infos: dict[str, Any], env_info: dict[str, Any], env_num: int
    ) -> dict[str, Any]:
        """Merge one sub-environment's info into the batched infos, in place.

        Each key ``k`` of ``env_info`` becomes an array ``vector_infos[k]`` with one entry per
        sub-environment, next to a boolean mask ``vector_infos["_k"]`` telling which envs supplied
        it. The array is created the first time the key is seen:

        - Python ``int`` / ``float`` / ``bool`` and numpy number scalars: ``np.zeros(num_envs,
          dtype=type(value))``;
        - numpy arrays: ``np.zeros((num_envs, *value.shape), dtype=value.dtype)`` (every env is
          expected to give the same shape);
        - nested dicts: a nested batched-info dict, merged recursively;
        - ``"final_obs"`` and anything else: an object array filled with ``None``.

        Args:
            vector_infos: the batched infos so far (modified and returned).
            env_info: the info of sub-environment ``env_num``.
            env_num: the index of that sub-environment.

        Returns:
            ``vector_infos``.
        """
        return fold_infos(vector_infos, env_info, env_num, self.num_envs)

    def _merge_infos(self, entries: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        """The batched infos of several sub-environments, built one key at a time.

        The result equals folding :meth:`_add_info` over ``entries`` in order (same keys, key
        order, dtypes, widening and masks), but each key's array and mask are built once from
        the column of its values instead of once per env: see :func:`merge_info_columns`. A
        subclass that overrides :meth:`_add_info` gets the fold through its override.

        Args:
            entries: ``(env_index, info)`` pairs in increasing env order, each info non-empty.

        Returns:
            The batched infos (a new dict).
        """
        if type(self)._add_info is not VectorEnv._add_info:
            infos: dict[str, Any] = {}
            for env_num, info in entries:
                infos = self._add_info(infos, info, env_num)
            return infos
        return merge_info_columns(entries, self.num_envs)

    def __repr__(self) -> str:
        """``ClassName(env_id, num_envs=n)`` (the id only when the env has a spec)."""
        name = type(self).__name__
        if self.spec is None:
            return f"{name}(num_envs={self.num_envs})"
        return f"{name}({self.spec.id}, num_envs={self.num_envs})"


class SubEnvsVectorEnv(VectorEnv[ObsType, ActType, ArrayType]):
    """A vector env over separate sub-environment objects (Sync, Async and Ray vector envs): its
    :attr:`np_random` and :attr:`np_random_seed` are those of its sub-environments, one per env,
    read through ``get_attr``."""

    if TYPE_CHECKING:

        def get_attr(
            self, name: str, *, indices: int | Sequence[int] | None = None
        ) -> tuple[Any, ...]: ...

    @property
    def np_random_seed(self) -> tuple[int, ...]:  # type: ignore[override]
        """The ``np_random_seed`` of every sub-environment."""
        return self.get_attr("np_random_seed")

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The ``np_random`` generator of every sub-environment (copies, for remote ones)."""
        return self.get_attr("np_random")


class VectorWrapper(
    VectorEnv[WrapperObsType, WrapperActType, ArrayType],
    Generic[WrapperObsType, WrapperActType, ObsType, ActType, ArrayType],
):
    """A vector environment wrapping another (:attr:`env`) to change part of its behaviour.

    Everything not overridden is forwarded to the wrapped env: the spaces, :attr:`num_envs`,
    :attr:`metadata`, :attr:`spec`, :attr:`render_mode`, :attr:`closed`, the random generators,
    :meth:`reset`, :meth:`step`, :meth:`render`, :meth:`close` and (a vecgym addition, Gymnasium's
    wrapper lacks them) :meth:`call`, :meth:`get_attr` and :meth:`set_attr`. Setting a space or the
    metadata on the wrapper overrides it for this wrapper only.

    Subclasses overriding ``__init__`` must call ``super().__init__(env)``.

    Raises:
        TypeError: ``env`` is not a :class:`VectorEnv`.
    """

    env: VectorEnv[ObsType, ActType, ArrayType]

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        if not isinstance(env, VectorEnv):
            raise TypeError(WRAPPER_ENV_TYPE_MSG.format(type(env)))
        self.env = env
        self._observation_space: Space[Any] | None = None
        self._action_space: Space[Any] | None = None
        self._single_observation_space: Space[Any] | None = None
        self._single_action_space: Space[Any] | None = None
        self._metadata: dict[str, Any] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        """Reset the wrapped env (override when the wrapper changes observations)."""
        return cast(
            "tuple[WrapperObsType, dict[str, Any]]", self.env.reset(seed=seed, options=options)
        )

    def step(
        self, actions: WrapperActType
    ) -> tuple[WrapperObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the wrapped env (override when the wrapper changes observations or actions)."""
        return cast(
            "tuple[WrapperObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]",
            self.env.step(cast("ActType", actions)),
        )

    def render(self) -> tuple[RenderFrame, ...] | None:
        """The wrapped env's frames."""
        return self.env.render()

    def close(self, **kwargs: Any) -> None:
        """Close the wrapped env."""
        return self.env.close(**kwargs)

    def close_extras(self, **kwargs: Any) -> None:
        """Forwarded to the wrapped env."""
        return self.env.close_extras(**kwargs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Forwarded to the wrapped env's ``call``."""
        return cast(Any, self.env).call(name, *args, **kwargs)

    def get_attr(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Forwarded to the wrapped env's ``get_attr``."""
        return cast(Any, self.env).get_attr(name, *args, **kwargs)

    def set_attr(self, name: str, values: Any, *args: Any, **kwargs: Any) -> None:
        """Forwarded to the wrapped env's ``set_attr``."""
        cast(Any, self.env).set_attr(name, values, *args, **kwargs)

    @property
    def unwrapped(self) -> VectorEnv:  # type: ignore[override]
        """The innermost vector environment."""
        return self.env.unwrapped

    def __repr__(self) -> str:
        """``<WrapperName, inner env>``."""
        return f"<{type(self).__name__}, {self.env}>"

    @property
    def observation_space(self) -> Space[Any]:
        """The batched observation space (the wrapped env's unless set on this wrapper)."""
        if self._observation_space is None:
            return self.env.observation_space
        return self._observation_space

    @observation_space.setter
    def observation_space(self, space: Space[Any]) -> None:
        self._observation_space = space

    @property
    def action_space(self) -> Space[Any]:
        """The batched action space (the wrapped env's unless set on this wrapper)."""
        if self._action_space is None:
            return self.env.action_space
        return self._action_space

    @action_space.setter
    def action_space(self, space: Space[Any]) -> None:
        self._action_space = space

    @property
    def single_observation_space(self) -> Space[Any]:
        """One env's observation space (the wrapped env's unless set on this wrapper)."""
        if self._single_observation_space is None:
            return self.env.single_observation_space
        return self._single_observation_space

    @single_observation_space.setter
    def single_observation_space(self, space: Space[Any]) -> None:
        self._single_observation_space = space

    @property
    def single_action_space(self) -> Space[Any]:
        """One env's action space (the wrapped env's unless set on this wrapper)."""
        if self._single_action_space is None:
            return self.env.single_action_space
        return self._single_action_space

    @single_action_space.setter
    def single_action_space(self, space: Space[Any]) -> None:
        self._single_action_space = space

    @property
    def num_envs(self) -> int:  # type: ignore[override]
        """The wrapped env's number of sub-environments."""
        return self.env.num_envs

    @property
    def np_random(self) -> np.random.Generator:
        """The wrapped env's generator."""
        return self.env.np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.env.np_random = value

    @property
    def np_random_seed(self) -> int | None:
        """The wrapped env's seed(s)."""
        return self.env.np_random_seed

    @property
    def metadata(self) -> dict[str, Any]:
        """The wrapped env's metadata unless set on this wrapper."""
        if self._metadata is not None:
            return self._metadata
        return self.env.metadata

    @metadata.setter
    def metadata(self, value: dict[str, Any]) -> None:
        self._metadata = value

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        """The wrapped env's spec."""
        return self.env.spec

    @property
    def render_mode(self) -> str | None:  # type: ignore[override]
        """The wrapped env's render mode."""
        return self.env.render_mode

    @property
    def closed(self) -> bool:
        """Whether the wrapped env is closed."""
        return self.env.closed

    @closed.setter
    def closed(self, value: bool) -> None:
        self.env.closed = value


class VectorObservationWrapper(VectorWrapper[WrapperObsType, ActType, ObsType, ActType, ArrayType]):
    """A vector wrapper that transforms the batched observations with :meth:`observations`.

    Only ``NEXT_STEP`` and ``DISABLED`` autoreset are supported: in ``SAME_STEP`` mode the final
    observations in the infos would escape the transformation.

    Raises:
        ValueError: the wrapped env's ``metadata["autoreset_mode"]`` is ``SAME_STEP``.
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        super().__init__(env)
        if "autoreset_mode" not in env.metadata:
            logger.warn(MISSING_AUTORESET_MSG.format(env))
        elif env.metadata["autoreset_mode"] not in (
            AutoresetMode.NEXT_STEP,
            AutoresetMode.DISABLED,
        ):
            raise ValueError(OBS_WRAPPER_MODE_MSG.format(env.metadata["autoreset_mode"]))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        """Reset the wrapped env and transform its observations."""
        observations, infos = self.env.reset(seed=seed, options=options)
        return self.observations(observations), infos

    def step(
        self, actions: ActType
    ) -> tuple[WrapperObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the wrapped env and transform its observations."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return self.observations(observations), rewards, terminations, truncations, infos

    def observations(self, observations: ObsType) -> WrapperObsType:
        """Transform a batch of observations (to be overridden)."""
        raise NotImplementedError


class VectorActionWrapper(VectorWrapper[ObsType, WrapperActType, ObsType, ActType, ArrayType]):
    """A vector wrapper that transforms the batched actions with :meth:`actions` before stepping."""

    def step(
        self, actions: WrapperActType
    ) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the wrapped env with the transformed actions."""
        return self.env.step(self.actions(actions))

    def actions(self, actions: WrapperActType) -> ActType:
        """Transform a batch of actions (to be overridden)."""
        raise NotImplementedError


class VectorRewardWrapper(VectorWrapper[ObsType, ActType, ObsType, ActType, ArrayType]):
    """A vector wrapper that transforms the batched rewards with :meth:`rewards`."""

    def step(
        self, actions: ActType
    ) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the wrapped env and transform its rewards."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return observations, self.rewards(rewards), terminations, truncations, infos

    def rewards(self, rewards: ArrayType) -> ArrayType:
        """Transform a batch of rewards (to be overridden)."""
        raise NotImplementedError
