"""The :class:`Dict` space: the cartesian product of named spaces."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, KeysView, Mapping
from collections.abc import Sequence as AbcSequence
from typing import Any, Generic

import numpy as np

from vecgym import error
from vecgym.core.spaces._composite import T_co, seed_from_generator
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.tuple import BOTH_MASKS_MSG, is_int_seed

__all__ = ["Dict"]


INPUT_TYPE_MSG = (
    "Dict space `spaces` must be a mapping, a sequence of (key, space) pairs or None, got type "
    "{type}"
)
PAIRS_MSG = "Dict space expected a sequence of (key, space) pairs, got {value!r}"
DUPLICATE_KEY_MSG = "Dict space key '{key}' is given twice: in `spaces` and as a keyword argument"
SUBSPACE_TYPE_MSG = (
    "every value of a Dict space must be a vecgym Space, got key={key!r} with value {space}"
)
SETITEM_TYPE_MSG = "Dict space item {key!r} must be a vecgym Space, actual type: {type}"
SEED_KEYS_MSG = "a dict seed must have exactly the space's keys {space_keys}, got {seed_keys}"
SEED_TYPE_MSG = (
    "a Dict space seed must be None, an int or a dict with the space's keys, got type {type}"
)
MASK_TYPE_MSG = "`{kind}` for a Dict space sample must be a dict, got type {type}"
MASK_KEYS_MSG = "Expected the keys of `{kind}` to be the space keys {space_keys}, got {keys}"


def _ordered_items(spaces: Mapping[Any, Any], sort_keys: bool) -> dict[Any, Any]:
    """The items of a mapping, sorted by key when asked and the keys are comparable."""
    if sort_keys and not isinstance(spaces, OrderedDict):
        try:
            return dict(sorted(spaces.items(), key=lambda item: item[0]))
        except TypeError:  # keys of mixed or unorderable types keep their insertion order
            pass
    return dict(spaces.items())


def _from_pairs(pairs: AbcSequence[Any]) -> dict[Any, Any]:
    try:
        return dict(pairs)
    except (TypeError, ValueError) as exc:
        raise error.InvalidSpace(PAIRS_MSG.format(value=pairs)) from exc


class Dict(Space[dict[str, Any]], Mapping[str, Space[Any]], Generic[T_co]):
    """The cartesian product of named spaces: values are dicts with one value per key.

    The spaces may be given as a mapping, as ``(key, space)`` pairs, as keyword arguments, or
    both (a key in both is an error). A plain mapping is sorted by key (``sort_keys=True``, when
    the keys can be compared); an ``OrderedDict`` and pairs keep their order. The order of the keys
    is the order of sampling, seeding and flattening.

    Args:
        spaces: a mapping of keys to spaces, a sequence of ``(key, space)`` pairs, or ``None``.
        seed: an ``int`` seeds the subspaces through seeds drawn from it, a ``dict`` gives one
            seed per key (see :meth:`seed`); a ``numpy.random.Generator`` becomes this space's
            generator.
        sort_keys: whether to sort the keys of a plain mapping.
        **spaces_kwargs: more spaces by key.

    Raises:
        TypeError: ``spaces`` has an unsupported type, or a value is not a :class:`Space`.
        InvalidSpace: a key is given twice, or ``spaces`` is a sequence but not of pairs.

    Example:
        >>> from vecgym.spaces import Box, Dict, Discrete
        >>> space = Dict({"position": Box(-1, 1, shape=(2,)), "color": Discrete(3)}, seed=42)
        >>> space.sample()
        {'color': np.int64(0), 'position': array([-0.3991573 ,  0.21649833], dtype=float32)}
    """

    spaces: dict[str, Space[Any]]
    sort_keys: bool

    def __init__(
        self,
        spaces: Mapping[str, Space[T_co]] | AbcSequence[tuple[str, Space[T_co]]] | None = None,
        seed: dict[str, Any] | int | np.random.Generator | None = None,
        *,
        sort_keys: bool = True,
        **spaces_kwargs: Space[Any],
    ) -> None:
        self.sort_keys = sort_keys
        if isinstance(spaces, Mapping):
            spaces_dict = _ordered_items(spaces, sort_keys)
        elif isinstance(spaces, AbcSequence):
            spaces_dict = _from_pairs(spaces)
        elif spaces is None:
            spaces_dict = {}
        else:
            raise TypeError(INPUT_TYPE_MSG.format(type=type(spaces)))

        for key, space in spaces_kwargs.items():
            if key in spaces_dict:
                raise error.InvalidSpace(DUPLICATE_KEY_MSG.format(key=key))
            spaces_dict[key] = space

        for key, space in spaces_dict.items():
            if not isinstance(space, Space):
                raise TypeError(SUBSPACE_TYPE_MSG.format(key=key, space=space))
        self.spaces = spaces_dict
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every subspace can be flattened to a :class:`Box`."""
        return all(space.is_np_flattenable for space in self.spaces.values())

    def seed(self, seed: int | dict[str, Any] | None = None) -> dict[str, Any]:
        """Seed the subspaces.

        * ``None``: every subspace seeds itself from fresh entropy.
        * ``int``: this space's generator is seeded with it and draws one seed per subspace, in
          key order (below ``2**31 - 1``; distinct seeds are likely, not guaranteed).
        * ``dict``: one seed per key, and exactly the space's keys (nested forms for composite
          subspaces).

        Returns:
            The seeds the subspaces returned, by key.

        Raises:
            ValueError: a dict whose keys are not the space's keys.
            TypeError: any other type of seed.
        """
        if seed is None:
            return {key: space.seed(None) for key, space in self.spaces.items()}
        if is_int_seed(seed):
            super().seed(seed)
            subspace_seeds = seed_from_generator(list(self.spaces.values()), self.np_random)
            return dict(zip(self.spaces, subspace_seeds, strict=True))
        if isinstance(seed, dict):
            if seed.keys() != self.spaces.keys():
                raise error.InvalidSeed(
                    SEED_KEYS_MSG.format(seed_keys=list(seed), space_keys=list(self.spaces))
                )
            return {key: self.spaces[key].seed(seed[key]) for key in seed}
        raise TypeError(SEED_TYPE_MSG.format(type=type(seed)))

    def _check_mask(self, kind: str, value: object) -> None:
        if not isinstance(value, dict):
            raise error.InvalidMaskType(MASK_TYPE_MSG.format(kind=kind, type=type(value)))
        if value.keys() != self.spaces.keys():
            raise error.InvalidMask(
                MASK_KEYS_MSG.format(kind=kind, space_keys=list(self.spaces), keys=list(value))
            )

    def sample(
        self,
        mask: dict[str, Any] | None = None,
        probability: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Draw one value from each subspace, in key order.

        Args:
            mask: ``None``, or a dict with a mask (or ``None``) for every key.
            probability: ``None``, or a dict with a probability (or ``None``) for every key.

        Returns:
            A dict of the subspaces' samples.

        Raises:
            InvalidMask: both ``mask`` and ``probability`` are given, or one is not a dict with
                exactly the space's keys.
        """
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_MASKS_MSG.format(mask=mask, probability=probability))
        if mask is not None:
            self._check_mask("mask", mask)
            return {key: space.sample(mask=mask[key]) for key, space in self.spaces.items()}
        if probability is not None:
            self._check_mask("probability", probability)
            return {
                key: space.sample(probability=probability[key])
                for key, space in self.spaces.items()
            }
        return {key: space.sample() for key, space in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a dict with exactly the space's keys and a valid value for each."""
        if isinstance(x, dict) and x.keys() == self.spaces.keys():
            return all(x[key] in space for key, space in self.spaces.items())
        return False

    def __getitem__(self, key: str) -> Space[Any]:
        """The subspace of ``key``."""
        return self.spaces[key]

    def keys(self) -> KeysView[str]:
        """The keys, in order."""
        return KeysView(self.spaces)

    def __setitem__(self, key: str, value: Space[Any]) -> None:
        """Set (or add) the subspace of ``key``.

        Raises:
            TypeError: ``value`` is not a :class:`Space`.
        """
        if not isinstance(value, Space):
            raise TypeError(SETITEM_TYPE_MSG.format(key=key, type=type(value)))
        self.spaces[key] = value

    def __iter__(self) -> Iterator[str]:
        """Iterate over the keys, in order."""
        return iter(self.spaces)

    def __len__(self) -> int:
        """The number of subspaces."""
        return len(self.spaces)

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{key!r}: {space}" for key, space in self.spaces.items()) + ")"

    def __eq__(self, other: object) -> bool:
        """Dicts are equal when they map the same keys to equal spaces (in any key order, as in
        Gymnasium)."""
        return isinstance(other, Dict) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]

    def to_jsonable(self, sample_n: Iterable[dict[str, Any]]) -> dict[str, Any]:
        """Convert a batch of values to one JSON-able list per key."""
        samples = list(sample_n)
        return {
            key: space.to_jsonable([sample[key] for sample in samples])
            for key, space in self.spaces.items()
        }

    def from_jsonable(self, sample_n: dict[str, list[Any]]) -> list[dict[str, Any]]:  # type: ignore[override]
        """Convert the output of :meth:`to_jsonable` back to a list of dicts."""
        columns = {key: space.from_jsonable(sample_n[key]) for key, space in self.spaces.items()}
        count = len(next(iter(columns.values()))) if columns else 0
        return [{key: column[i] for key, column in columns.items()} for i in range(count)]
