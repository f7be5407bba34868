"""Generated differential tests: every vecgym space against Gymnasium 1.4's, input for input.

Hypothesis builds constructor arguments (Python scalars, numpy scalars, 0-d and n-d arrays of every
dtype kind, infinities, nan, values outside a dtype's range, bad shapes) and sampling masks and
probabilities (right and wrong shapes, dtypes and values). For each input both libraries are
called, and:

* when Gymnasium raises, vecgym raises an instance of the same type; where Gymnasium's error is a
  bare ``AssertionError`` (its sampling-mask checks) vecgym raises one of its own typed errors, a
  ``ValueError`` subclass, on purpose (CHANGELOG, "Differs from Gymnasium on purpose");
* when Gymnasium accepts, vecgym accepts and builds the same space (type, shape, dtype, bounds),
  draws the same ``sample()`` stream for the same seed, answers ``contains`` the same way, and
  flattens and batches to the same results.

Where they differ on purpose, CHANGELOG lists it and the test says so where it allows it: where
Gymnasium keeps numbers it was not given (a bound or count wrapped around by a cast to the dtype,
a count truncated), vecgym rejects them; a few inputs Gymnasium refuses by accident vecgym takes;
``contains`` answers ``False`` where Gymnasium raises.

Every example is derandomised, so the suite is deterministic and takes a few seconds; set
``VECGYM_DIFFERENTIAL_EXAMPLES`` (default 100 per test) to search further.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
hypothesis = pytest.importorskip("hypothesis")

from gymnasium.vector import utils as gym_vector_utils  # noqa: E402
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import vecgym.core.spaces as vs  # noqa: E402
from vecgym import error  # noqa: E402
from vecgym.core.spaces import batching  # noqa: E402

gs = gym.spaces

SETTINGS = settings(
    derandomize=True,
    deadline=None,
    max_examples=int(os.environ.get("VECGYM_DIFFERENTIAL_EXAMPLES", "100")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
)

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]
NUMERIC_DTYPES = [*INT_DTYPES, *FLOAT_DTYPES, np.bool_]
OTHER_DTYPES = [np.complex64, np.str_, np.object_]

# Interesting numbers: small values, the edges of the integer dtypes, huge floats, inf, nan.
NUMBERS: list[int | float] = [
    0, 1, -1, 2, 3, 5, -7, 0.5, -2.5, 100.25,
    127, 128, -128, -129, 255, 256, 32767, -32769, 65535, 2**31 - 1, -(2**31), 2**32,
    2**53, 2**63 - 1, -(2**63), 2**63, 2**64 - 1, 2**64,
    1e10, -1e10, 1e39, -1e39, 6e4, -7e4,
    float("inf"), float("-inf"), float("nan"),
]  # fmt: skip


# --- running both libraries -----------------------------------------------------------------------
class Outcome:
    """What one call gave: a value, or the exception it raised."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.value: Any = None
        self.exc: BaseException | None = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                self.value = fn()
            except Exception as exc:
                self.exc = exc

    def __repr__(self) -> str:
        return f"raised {self.exc!r}" if self.exc is not None else f"gave {self.value!r}"


def assert_same_rejection(ours: Outcome, theirs: Outcome, what: str) -> None:
    """Gymnasium raised: vecgym must raise an instance of the same type."""
    assert theirs.exc is not None
    assert ours.exc is not None, f"{what}: Gymnasium {theirs} but vecgym {ours}"
    if type(theirs.exc) is AssertionError:
        # Gymnasium validates masks with ``assert``; vecgym raises its own typed ValueError
        assert isinstance(ours.exc, error.Error), f"{what}: Gymnasium {theirs}, vecgym {ours}"
        assert isinstance(ours.exc, ValueError), f"{what}: Gymnasium {theirs}, vecgym {ours}"
        return
    expected: type[BaseException] = type(theirs.exc)
    if expected.__module__ == "gymnasium.error":
        expected = getattr(error, expected.__name__)  # vecgym's class of the same name
    assert isinstance(ours.exc, expected), f"{what}: Gymnasium {theirs}, vecgym {ours}"


def twin(value: Any) -> Any:
    """An independent copy (Gymnasium may write into arrays it is given)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, list):
        return [twin(v) for v in value]
    if isinstance(value, tuple):
        return tuple(twin(v) for v in value)
    if isinstance(value, dict):
        return {k: twin(v) for k, v in value.items()}
    return value


# --- comparing results ----------------------------------------------------------------------------
def assert_same_value(ours: Any, theirs: Any, where: str = "value") -> None:
    """Same structure, types, dtypes, shapes and contents."""
    if isinstance(theirs, gs.GraphInstance):
        assert isinstance(ours, vs.GraphInstance), where
        for name in ("nodes", "edges", "edge_links"):
            assert_same_value(getattr(ours, name), getattr(theirs, name), f"{where}.{name}")
        return
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), f"{where}: {ours!r} vs {theirs!r}"
        assert ours.dtype == theirs.dtype, f"{where}: {ours.dtype} vs {theirs.dtype}"
        assert ours.shape == theirs.shape, f"{where}: {ours.shape} vs {theirs.shape}"
        if theirs.dtype == object:
            for index in np.ndindex(theirs.shape):
                assert_same_value(ours[index], theirs[index], f"{where}[{index}]")
        else:
            assert ours.tobytes() == theirs.tobytes(), f"{where}: {ours!r} vs {theirs!r}"
        return
    if isinstance(theirs, (tuple, list)):
        assert type(ours) is type(theirs), f"{where}: {type(ours)} vs {type(theirs)}"
        assert len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same_value(a, b, f"{where}[{i}]")
        return
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), where
        assert list(ours) == list(theirs), where
        for key in theirs:
            assert_same_value(ours[key], theirs[key], f"{where}[{key!r}]")
        return
    if isinstance(theirs, np.generic):
        assert type(ours) is type(theirs), f"{where}: {type(ours)} vs {type(theirs)}"
    assert ours == theirs, f"{where}: {ours!r} vs {theirs!r}"


def assert_same_space(ours: Any, theirs: Any, where: str = "space") -> None:
    """Same type (by name), shape, dtype and parameters, recursively."""
    assert type(ours).__name__ == type(theirs).__name__, f"{where}: {ours!r} vs {theirs!r}"
    if theirs is None:
        return
    assert ours.shape == theirs.shape, f"{where}: {ours.shape} vs {theirs.shape}"
    assert ours.dtype == theirs.dtype, f"{where}: {ours.dtype} vs {theirs.dtype}"
    assert ours.is_np_flattenable == theirs.is_np_flattenable, where
    name = type(theirs).__name__
    if name == "Box":
        for attr in ("low", "high", "bounded_below", "bounded_above"):
            # a 0-d Gymnasium Box holds numpy scalars as its bounded flags, vecgym 0-d arrays
            mine, their = np.asarray(getattr(ours, attr)), np.asarray(getattr(theirs, attr))
            assert_same_value(mine, their, f"{where}.{attr}")
    elif name == "Discrete":
        assert_same_value(ours.n, theirs.n, f"{where}.n")
        assert_same_value(ours.start, theirs.start, f"{where}.start")
    elif name == "MultiDiscrete":
        assert_same_value(ours.nvec, theirs.nvec, f"{where}.nvec")
        assert_same_value(ours.start, theirs.start, f"{where}.start")
    elif name == "MultiBinary":
        assert_same_value(np.asarray(ours.n), np.asarray(theirs.n), f"{where}.n")
    elif name == "Text":
        assert (ours.min_length, ours.max_length) == (theirs.min_length, theirs.max_length)
        assert ours.character_set == theirs.character_set, where
    elif name in ("Tuple", "OneOf"):
        assert len(ours.spaces) == len(theirs.spaces), where
        for i, (a, b) in enumerate(zip(ours.spaces, theirs.spaces, strict=True)):
            assert_same_space(a, b, f"{where}[{i}]")
    elif name == "Dict":
        assert list(ours.spaces) == list(theirs.spaces), where
        for key in theirs.spaces:
            assert_same_space(ours.spaces[key], theirs.spaces[key], f"{where}[{key!r}]")
    elif name == "Sequence":
        assert ours.stack == theirs.stack, where
        assert_same_space(ours.feature_space, theirs.feature_space, f"{where}.feature_space")
    elif name == "Graph":
        assert_same_space(ours.node_space, theirs.node_space, f"{where}.node_space")
        assert_same_space(ours.edge_space, theirs.edge_space, f"{where}.edge_space")


def _gymnasium_bounds_are_faithful(theirs: Any, low: Any, high: Any) -> bool:
    """Whether Gymnasium's Box kept the bounds it was given (an infinity as the dtype's extreme).

    Gymnasium casts out-of-range bounds with ``astype``, which wraps them around (and casts
    ``float(2**63 - 1)`` to ``int64``'s minimum); vecgym refuses to build such a box.
    """
    for bound, kept in ((low, theirs.low), (high, theirs.high)):
        wanted = np.broadcast_to(np.asarray(bound, dtype=np.float64), kept.shape)
        if theirs.dtype.kind in "iu":
            info = np.iinfo(theirs.dtype)
            wanted = np.where(np.isneginf(wanted), float(info.min), wanted)
            wanted = np.where(np.isposinf(wanted), float(info.max), wanted)
            tolerance = 1.0 + 1e-9 * np.abs(wanted)
        elif theirs.dtype.kind == "b":
            tolerance = np.ones_like(wanted)
        else:
            # rounding to a narrower float is fine; overflowing to inf is not
            tolerance = 1e-2 * np.abs(wanted) + 1e-3
        kept64 = kept.astype(np.float64)
        same_infinity = np.isinf(wanted) & (kept64 == wanted)
        close = np.abs(kept64 - wanted) <= tolerance
        if not np.all(same_infinity | close):
            return False
    return True


def _integers_fit(space: Any, counts: Any, starts: Any) -> bool:
    """Whether a Discrete/MultiDiscrete kept the counts and starts given, and its largest elements
    ``start + n - 1`` fit its dtype (Gymnasium wraps numbers that do not fit, then draws values
    outside the space)."""
    counts_kept = np.asarray(space.nvec if hasattr(space, "nvec") else space.n).astype(object)
    starts_kept = np.asarray(space.start).astype(object)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wanted_counts = np.asarray(counts, dtype=object)
        wanted_starts = np.broadcast_to(np.asarray(starts, dtype=object), counts_kept.shape)
    if wanted_counts.shape != counts_kept.shape:
        return False
    same = np.all(counts_kept == wanted_counts) and np.all(starts_kept == wanted_starts)
    if not same or counts_kept.size == 0:
        return bool(same)
    info = np.iinfo(space.dtype)
    top = max(
        int(s) + int(c) - 1 for s, c in zip(starts_kept.ravel(), counts_kept.ravel(), strict=True)
    )
    return top <= int(info.max)


def _sample_is_faithful(space: Any, value: Any) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bool(space.contains(value))


def check_spaces_agree(ours: Any, theirs: Any, seed: int, probes: list[Any]) -> None:
    """All a user can observe of two equal spaces: draws, membership, flattening, batching."""
    assert_same_space(ours, theirs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # the sample stream for the same seed
        ours.seed(seed)
        theirs.seed(seed)
        draws = []
        for i in range(5):
            mine, their = Outcome(ours.sample), Outcome(theirs.sample)
            if their.exc is not None:
                assert_same_rejection(mine, their, f"sample {i}")
                return
            assert mine.exc is None, f"sample {i}: Gymnasium {their} but vecgym {mine}"
            a, b = mine.value, their.value
            if type(theirs).__name__ == "Box" and not _sample_is_faithful(theirs, b):
                # Gymnasium's integer draws near int64's extremes wrap around; vecgym's stay inside
                assert ours.contains(a), f"vecgym drew {a!r} outside {ours!r}"
                return
            assert_same_value(a, b, f"sample {i}")
            draws.append(b)
        # the printed form and the JSON form of the draws
        assert repr(ours) == repr(theirs).replace("gymnasium.spaces", "vecgym.core.spaces")
        # (OneOf's JSON form differs on purpose: vecgym keeps whole Tuple/Dict values)
        jsonable_a = Outcome(lambda: ours.to_jsonable(twin(draws)))
        jsonable_b = Outcome(lambda: theirs.to_jsonable(twin(draws)))
        if "OneOf" in repr(theirs) or not getattr(theirs, "spaces", True):
            pass  # (an empty Tuple/Dict: Gymnasium's from_jsonable raises StopIteration)
        elif jsonable_b.exc is not None:
            assert_same_rejection(jsonable_a, jsonable_b, "to_jsonable")
        else:
            assert_same_value(jsonable_a.value, jsonable_b.value, "to_jsonable")
            back_a = Outcome(lambda: ours.from_jsonable(twin(jsonable_a.value)))
            back_b = Outcome(lambda: theirs.from_jsonable(twin(jsonable_b.value)))
            if back_b.exc is not None:
                assert_same_rejection(back_a, back_b, "from_jsonable")
            else:
                assert_same_value(back_a.value, back_b.value, "from_jsonable")
        # membership, of the draws and of other probes
        for probe in [*draws, *probes]:
            mine = Outcome(lambda p=probe: ours.contains(twin(p)))
            their = Outcome(lambda p=probe: theirs.contains(twin(p)))
            if their.exc is not None and mine.value is False:
                continue  # on purpose: vecgym answers False where Gymnasium raises
            if their.exc is not None:
                assert_same_rejection(mine, their, f"contains({probe!r})")
            else:
                assert mine.exc is None, f"contains({probe!r}): vecgym {mine}"
                assert mine.value == their.value, f"contains({probe!r}): {mine} vs {their}"
        # flattening
        flat_dim_ours = Outcome(lambda: vs.flatdim(ours))
        flat_dim_theirs = Outcome(lambda: gs.flatdim(theirs))
        if flat_dim_theirs.exc is not None:
            assert_same_rejection(flat_dim_ours, flat_dim_theirs, "flatdim")
        else:
            assert flat_dim_ours.value == flat_dim_theirs.value
        flat_ours = Outcome(lambda: vs.flatten_space(ours))
        flat_theirs = Outcome(lambda: gs.flatten_space(theirs))
        if flat_theirs.exc is not None:
            assert_same_rejection(flat_ours, flat_theirs, "flatten_space")
        else:
            assert_same_space(flat_ours.value, flat_theirs.value, "flatten_space")
        if isinstance(flat_dim_theirs.value, int) and flat_dim_theirs.value > 10_000:
            return  # one-hot vectors that large are not worth the memory
        for i, draw in enumerate(draws[:2]):
            flat_a = Outcome(lambda d=draw: vs.flatten(ours, twin(d)))
            flat_b = Outcome(lambda d=draw: gs.flatten(theirs, twin(d)))
            if flat_b.exc is not None:
                assert_same_rejection(flat_a, flat_b, f"flatten(sample {i})")
                continue
            assert_same_value(flat_a.value, flat_b.value, f"flatten(sample {i})")
            back_a = Outcome(lambda f=flat_a.value: vs.unflatten(ours, f))
            back_b = Outcome(lambda f=flat_b.value: gs.unflatten(theirs, f))
            if back_b.exc is not None and back_a.exc is None:
                # on purpose: vecgym's unflatten inverts flatten where Gymnasium's fails (e.g. a
                # Sequence of a Tuple holding a Text)
                again = vs.flatten(ours, back_a.value)
                assert_same_value(again, flat_a.value, f"flatten(unflatten(sample {i}))")
            elif back_b.exc is not None:
                assert_same_rejection(back_a, back_b, f"unflatten(sample {i})")
            else:
                assert_same_value(back_a.value, back_b.value, f"unflatten(sample {i})")
        # batching
        batched_a = Outcome(lambda: batching.batch_space(ours, 3))
        batched_b = Outcome(lambda: gym_vector_utils.batch_space(theirs, 3))
        if batched_b.exc is not None:
            assert_same_rejection(batched_a, batched_b, "batch_space")
            return
        assert_same_space(batched_a.value, batched_b.value, "batch_space")
        empty_a = Outcome(lambda: batching.create_empty_array(ours, 3))
        empty_b = Outcome(lambda: gym_vector_utils.create_empty_array(theirs, 3))
        if empty_b.exc is not None:
            assert_same_rejection(empty_a, empty_b, "create_empty_array")
            return
        assert_same_value(empty_a.value, empty_b.value, "create_empty_array")
        items = [twin(d) for d in draws[:3]]
        if len(items) < 3:
            return
        joined_a = Outcome(lambda: batching.concatenate(ours, twin(items), empty_a.value))
        joined_b = Outcome(lambda: gym_vector_utils.concatenate(theirs, twin(items), empty_b.value))
        if joined_b.exc is not None:
            assert_same_rejection(joined_a, joined_b, "concatenate")
            return
        assert_same_value(joined_a.value, joined_b.value, "concatenate")
        split_a = Outcome(lambda: list(batching.iterate(batched_a.value, joined_a.value)))
        split_b = Outcome(lambda: list(gym_vector_utils.iterate(batched_b.value, joined_b.value)))
        if split_b.exc is not None and not getattr(batched_b.value, "spaces", True):
            # on purpose: an empty Tuple/Dict batch iterates as nothing (Gymnasium fails to unpack)
            assert split_a.value == [], f"iterate: vecgym {split_a}"
        elif split_b.exc is not None:
            assert_same_rejection(split_a, split_b, "iterate")
        else:
            assert_same_value(split_a.value, split_b.value, "iterate")


def compare_construction(
    build_ours: Callable[[], Any],
    build_theirs: Callable[[], Any],
    what: str,
    seed: int,
    probes: list[Any],
    *,
    faithful: Callable[[Any], bool] | None = None,
    on_purpose: str = "",
) -> None:
    """Build with both; compare as the module docstring says.

    ``faithful(space)`` says whether a space holds the numbers it was given; where Gymnasium's
    does not, vecgym must reject the input or build a faithful space. ``on_purpose`` names a
    documented difference ("accepts": vecgym takes input Gymnasium refuses; "rejects": the reverse).
    """
    theirs = Outcome(build_theirs)
    ours = Outcome(build_ours)
    event(f"Gymnasium {'rejects' if theirs.exc is not None else 'accepts'}")
    if on_purpose == "accepts" and theirs.exc is not None:
        # Gymnasium's refusal is an accident of its implementation: vecgym builds the space, or
        # refuses for a reason of its own
        assert ours.exc is None or isinstance(ours.exc, error.Error), f"{what}: vecgym {ours}"
        return
    if on_purpose == "rejects" and theirs.exc is None:
        assert isinstance(ours.exc, error.InvalidSpace), f"{what}: vecgym {ours}"
        return
    if theirs.exc is not None:
        assert_same_rejection(ours, theirs, what)
        return
    if faithful is not None and not faithful(theirs.value):
        # Gymnasium keeps numbers it was not given; vecgym rejects them or keeps the given ones
        if ours.exc is not None:
            assert isinstance(ours.exc, error.InvalidSpace), f"{what}: vecgym {ours}"
        else:
            assert faithful(ours.value), f"{what}: {ours}"
        return
    assert ours.exc is None, f"{what}: Gymnasium {theirs} but vecgym {ours}"
    check_spaces_agree(ours.value, theirs.value, seed, probes)


# --- strategies -----------------------------------------------------------------------------------
seeds = st.integers(min_value=0, max_value=2**32 - 1)
numeric_dtypes = st.sampled_from(NUMERIC_DTYPES)
any_dtypes = st.sampled_from([*NUMERIC_DTYPES, *OTHER_DTYPES])


def _fits(value: int | float, dtype: Any) -> bool:
    kind = np.dtype(dtype).kind
    if kind in "iu":
        if not float(value).is_integer():
            return False
        info = np.iinfo(dtype)
        return int(info.min) <= int(value) <= int(info.max)
    if kind == "b":
        return value in (0, 1)
    if kind == "f":
        number = float(value)
        return math.isnan(number) or math.isinf(number) or abs(number) <= float(np.finfo(dtype).max)
    return True


@st.composite
def numbers_of(draw: st.DrawFn, dtype: Any) -> Any:
    """A number that a numpy value of ``dtype`` can hold exactly (bar float rounding)."""
    pool = NUMBERS if draw(st.integers(0, 3)) == 0 else NUMBERS[:10]
    return draw(st.sampled_from([n for n in pool if _fits(n, dtype)]))


@st.composite
def numeric_inputs(draw: st.DrawFn, shape: tuple[int, ...]) -> Any:
    """A Python scalar, a numpy scalar, a 0-d array or an array of ``shape``, any numeric dtype."""
    form = draw(st.sampled_from(["int", "float", "np_scalar", "zero_d", "array"]))
    pool = NUMBERS if draw(st.integers(0, 3)) == 0 else NUMBERS[:10]
    if form == "int":
        return draw(st.sampled_from([n for n in pool if isinstance(n, int)]))
    if form == "float":
        return float(draw(st.sampled_from(pool)))
    dtype = draw(numeric_dtypes)
    if form == "np_scalar":
        return np.dtype(dtype).type(draw(numbers_of(dtype)))
    if form == "zero_d":
        return np.array(draw(numbers_of(dtype)), dtype=dtype)
    size = int(np.prod(shape))
    values = draw(st.lists(numbers_of(dtype), min_size=size, max_size=size))
    return np.array(values, dtype=dtype).reshape(shape)


shapes = st.sampled_from([(), (1,), (3,), (2, 2), (0,), (2, 1, 2)])


def probes_for(shape: tuple[int, ...] | None, dtype: Any) -> list[Any]:
    """Values to ask ``contains`` about: arrays of other dtypes and shapes, lists, scalars."""
    probes: list[Any] = [0, 1.5, -3, [0, 1], "a", None, np.array(0), np.array([0.5, 1.0])]
    if shape is not None:
        for other in (np.int64, np.float64, np.float32, np.uint8, np.bool_):
            probes.append(np.zeros(shape, dtype=other))
            probes.append(np.ones(shape, dtype=other))
        probes.append(np.zeros((*shape, 1), dtype=dtype))
        probes.append(np.zeros(shape, dtype=dtype).tolist())
    return probes


# --- Box ------------------------------------------------------------------------------------------
@settings(SETTINGS, max_examples=SETTINGS.max_examples * 5 // 3)
@given(data=st.data(), shape=shapes, dtype=any_dtypes, seed=seeds)
def test_box(data: st.DataObject, shape: tuple[int, ...], dtype: Any, seed: int) -> None:
    low = data.draw(numeric_inputs(shape), label="low")
    high = data.draw(numeric_inputs(shape), label="high")
    shape_arg = data.draw(
        st.sampled_from(
            [None, None, None, shape, shape, (*shape, 1), 3, (2.0,), (-1,), [np.int64(2)]]
        ),
        label="shape",
    )
    kwargs: dict[str, Any] = {"dtype": dtype, "seed": seed}
    if shape_arg is not None:
        kwargs["shape"] = shape_arg
    on_purpose = ""
    if np.dtype(dtype) == np.uint64 and any(
        isinstance(b, np.ndarray) and b.dtype == np.bool_ for b in (low, high)
    ):
        on_purpose = "accepts"  # Gymnasium compares 2**64 - 1 with the bool array and overflows
    compare_construction(
        lambda: vs.Box(twin(low), twin(high), **kwargs),
        lambda: gs.Box(twin(low), twin(high), **kwargs),
        f"Box({low!r}, {high!r}, **{kwargs})",
        seed,
        probes_for(shape, dtype),
        faithful=lambda space: _gymnasium_bounds_are_faithful(space, low, high),
        on_purpose=on_purpose,
    )


# --- Discrete -------------------------------------------------------------------------------------
counts = st.one_of(
    st.integers(min_value=-2, max_value=6),
    st.integers(min_value=1, max_value=6),
    st.sampled_from([300, 3.0, 2.5, True, "3", None, np.int8(4), np.uint64(3), np.int64(0)]),
    st.sampled_from([np.array(3), np.array([3]), np.float32(3.0)]),
)
starts = st.one_of(
    st.integers(min_value=-5, max_value=5),
    st.integers(min_value=-5, max_value=5),
    st.sampled_from([np.int32(-2), np.int64(2**40), 1.0, 0.5, np.array(1), None, "1"]),
)
integer_dtype_args = st.sampled_from(
    [
        *INT_DTYPES,
        *INT_DTYPES,
        np.float32,
        np.float64,
        np.bool_,
        "int32",
        "float32",
        np.complex64,
        np.str_,
    ]
)


@SETTINGS
@given(n=counts, start=starts, dtype=integer_dtype_args, seed=seeds, data=st.data())
def test_discrete(n: Any, start: Any, dtype: Any, seed: int, data: st.DataObject) -> None:
    what = f"Discrete({n!r}, start={start!r}, dtype={dtype!r})"
    compare_construction(
        lambda: vs.Discrete(n, seed=seed, start=start, dtype=dtype),
        lambda: gs.Discrete(n, seed=seed, start=start, dtype=dtype),
        what,
        seed,
        [0, 1, 2, -1, 3.0, 1.5, np.int8(1), np.array(1), np.array([1]), "1", True],
        faithful=lambda space: _integers_fit(space, n, start),
    )
    _compare_masks(
        data,
        lambda: vs.Discrete(n, seed=seed, start=start, dtype=dtype),
        lambda: gs.Discrete(n, seed=seed, start=start, dtype=dtype),
        mask_shapes=lambda space: [(int(space.n),)],
        what=what,
    )


# --- MultiDiscrete --------------------------------------------------------------------------------
nvecs = st.one_of(
    st.lists(st.integers(min_value=-1, max_value=5), min_size=0, max_size=3),
    st.sampled_from(
        [
            np.array([2, 3]),
            np.array([[2, 3], [4, 1]], dtype=np.int32),
            np.array(3),
            np.array([2.0, 3.0]),
            np.array([2.5]),
            np.array([2, 3], dtype=np.uint8),
            (2, 3),
            3,
            np.array([True, True]),
            np.array(["a"]),
            [[2, 3], [4]],
        ]
    ),
)
md_starts = st.sampled_from(
    [None, [0, 0], [-1, 2], np.array([1, 1]), np.array([0.5, 1.0]), 3, [1], np.array([[0, 0]])]
)


@SETTINGS
@given(nvec=nvecs, start=md_starts, dtype=integer_dtype_args, seed=seeds, data=st.data())
def test_multi_discrete(nvec: Any, start: Any, dtype: Any, seed: int, data: st.DataObject) -> None:
    what = f"MultiDiscrete({nvec!r}, dtype={dtype!r}, start={start!r})"
    compare_construction(
        lambda: vs.MultiDiscrete(twin(nvec), dtype=dtype, seed=seed, start=twin(start)),
        lambda: gs.MultiDiscrete(twin(nvec), dtype=dtype, seed=seed, start=twin(start)),
        what,
        seed,
        [[0, 0], np.array([0, 1]), np.array([[0, 0], [0, 0]]), np.array([1.0, 0.0]), 1, (0, 0)],
        faithful=lambda space: _integers_fit(space, nvec, 0 if start is None else start),
    )
    _compare_masks(
        data,
        lambda: vs.MultiDiscrete(twin(nvec), dtype=dtype, seed=seed, start=twin(start)),
        lambda: gs.MultiDiscrete(twin(nvec), dtype=dtype, seed=seed, start=twin(start)),
        mask_shapes=None,
        what=what,
    )


# --- MultiBinary ----------------------------------------------------------------------------------
binary_ns = st.sampled_from(
    [0, 1, 3, -1, [2, 3], (2,), np.array([2, 2]), np.array(3), np.int64(4), 2.0, [2.0], "3", [0]]
)


@SETTINGS
@given(n=binary_ns, seed=seeds, data=st.data())
def test_multi_binary(n: Any, seed: int, data: st.DataObject) -> None:
    what = f"MultiBinary({n!r})"
    on_purpose = ""
    if isinstance(n, np.integer):
        on_purpose = "accepts"  # a numpy integer is an integer
    elif isinstance(n, str) or (
        isinstance(n, list) and any(isinstance(d, float) and not d.is_integer() for d in n)
    ):
        on_purpose = "rejects"  # Gymnasium reads "12" as (1, 2) and [2.5] as (2,)
    compare_construction(
        lambda: vs.MultiBinary(twin(n), seed=seed),
        lambda: gs.MultiBinary(twin(n), seed=seed),
        what,
        seed,
        [[0, 1, 1], np.array([0, 1, 1]), np.array([0, 2, 1]), np.ones((2, 3), dtype=np.int8), 1],
        on_purpose=on_purpose,
    )
    _compare_masks(
        data,
        lambda: vs.MultiBinary(twin(n), seed=seed),
        lambda: gs.MultiBinary(twin(n), seed=seed),
        mask_shapes=None,
        what=what,
    )


# --- Text -----------------------------------------------------------------------------------------
@SETTINGS
@given(
    max_length=st.sampled_from([0, 1, 5, -1, 3.0, np.int64(4), "5"]),
    min_length=st.sampled_from([0, 1, 2, 6, -1, np.int32(2), 1.5]),
    charset=st.sampled_from(["abc", "a", frozenset("xyz"), {"p", "q"}, ["u", "v"], "", "aab", 5]),
    seed=seeds,
    data=st.data(),
)
def test_text(
    max_length: Any, min_length: Any, charset: Any, seed: int, data: st.DataObject
) -> None:
    what = f"Text({max_length!r}, min_length={min_length!r}, charset={charset!r})"
    compare_construction(
        lambda: vs.Text(max_length, min_length=min_length, charset=charset, seed=seed),
        lambda: gs.Text(max_length, min_length=min_length, charset=charset, seed=seed),
        what,
        seed,
        ["", "a", "ab", "abcabc", "zz", 5, None, ["a"]],
    )
    # masks are (length, character mask)
    mine = Outcome(lambda: vs.Text(max_length, min_length=min_length, charset=charset, seed=seed))
    their = Outcome(lambda: gs.Text(max_length, min_length=min_length, charset=charset, seed=seed))
    if their.exc is not None or mine.exc is not None:
        return
    n_chars = len(their.value.character_set)
    length = data.draw(st.sampled_from([None, 0, 1, 3, -1, 2.0, np.int64(2), 100]))
    charmask = data.draw(
        st.sampled_from(
            [
                None,
                np.ones(n_chars, dtype=np.int8),
                np.zeros(n_chars, dtype=np.int8),
                np.ones(n_chars + 1, dtype=np.int8),
                np.ones(n_chars, dtype=np.float32),
                np.full(n_chars, 2, dtype=np.int8),
            ]
        )
    )
    probability = data.draw(
        st.sampled_from(
            [
                None,
                np.full(n_chars, 1 / max(n_chars, 1), dtype=np.float64),
                np.ones(n_chars, dtype=np.float64),
                np.full(n_chars + 1, 1.0, dtype=np.float64),
                np.ones(n_chars, dtype=np.int8),
            ]
        )
    )
    for kind, arg in (("mask", (length, charmask)), ("probability", (length, probability))):
        compare_sampling(mine.value, their.value, {kind: twin(arg)}, what, seed)


# --- masks ----------------------------------------------------------------------------------------
def compare_sampling(ours: Any, theirs: Any, kwargs: dict[str, Any], what: str, seed: int) -> None:
    """``sample(**kwargs)`` on both spaces, seeded alike: same value, or the same kind of error."""
    ours.seed(seed)
    theirs.seed(seed)
    their = Outcome(lambda: theirs.sample(**twin(kwargs)))
    mine = Outcome(lambda: ours.sample(**twin(kwargs)))
    label = f"{what}.sample(**{kwargs!r})"
    if their.exc is not None:
        assert_same_rejection(mine, their, label)
    else:
        assert mine.exc is None, f"{label}: Gymnasium {their} but vecgym {mine}"
        assert_same_value(mine.value, their.value, label)


def _mask_candidates(shape: tuple[int, ...]) -> list[Any]:
    """Masks and probabilities of the right and of wrong shapes, dtypes and values."""
    size = int(np.prod(shape)) if shape else 1
    wrong = (*shape[:-1], shape[-1] + 1) if shape else (2,)
    uniform = np.full(shape, 1 / max(shape[-1] if shape else 1, 1), dtype=np.float64)
    return [
        np.ones(shape, dtype=np.int8),
        np.zeros(shape, dtype=np.int8),
        (np.arange(size).reshape(shape) % 2).astype(np.int8),
        np.full(shape, 2, dtype=np.int8),
        np.ones(shape, dtype=np.int64),
        np.ones(shape, dtype=np.bool_),
        np.ones(shape, dtype=np.float32),
        np.ones(wrong, dtype=np.int8),
        np.ones(shape, dtype=np.int8).tolist(),
        uniform,
        uniform.astype(np.float32),
        np.full(shape, -0.5),
        np.full(shape, np.nan),
        np.full(wrong, 0.5),
        1,
        "mask",
    ]


def _compare_masks(
    data: st.DataObject,
    build_ours: Callable[[], Any],
    build_theirs: Callable[[], Any],
    mask_shapes: Callable[[Any], list[tuple[int, ...]]] | None,
    what: str,
) -> None:
    their = Outcome(build_theirs)
    mine = Outcome(build_ours)
    if their.exc is not None or mine.exc is not None:
        return
    theirs, ours = their.value, mine.value
    shapes_ = mask_shapes(theirs) if mask_shapes is not None else [theirs.shape]
    if type(theirs).__name__ == "MultiDiscrete":
        # a mask per sub-action, nested as nvec is: tuples of 1-d masks
        masks = [tuple(np.ones(int(n), dtype=np.int8) for n in theirs.nvec.flatten())]
        masks += [tuple(np.zeros(int(n), dtype=np.int8) for n in theirs.nvec.flatten())]
        masks += [np.ones(theirs.shape, dtype=np.int8)]
        if theirs.nvec.ndim == 1:
            masks += [tuple(np.full(int(n), 1 / int(n)) for n in theirs.nvec if n > 0)]
            masks += [tuple(np.ones(int(n) + 1, dtype=np.int8) for n in theirs.nvec)]
            masks += [[np.ones(int(n), dtype=np.int8) for n in theirs.nvec]]
    else:
        masks = [m for shape in shapes_ for m in _mask_candidates(shape)]
    for kind in ("mask", "probability"):
        chosen = data.draw(st.sampled_from(masks), label=kind)
        compare_sampling(ours, theirs, {kind: chosen}, what, seed=3)


# --- composite spaces -----------------------------------------------------------------------------
LEAVES: list[tuple[str, Callable[[Any], Any]]] = [
    ("Box((2,))", lambda m: m.Box(-1.0, 1.0, shape=(2,), dtype=np.float32)),
    ("Box(())", lambda m: m.Box(np.array(-2), np.array(3), dtype=np.int64)),
    ("Box(inf)", lambda m: m.Box(-np.inf, np.inf, shape=(2, 1), dtype=np.float64)),
    ("Discrete(3)", lambda m: m.Discrete(3)),
    ("Discrete(4,start=-2)", lambda m: m.Discrete(4, start=-2)),
    ("MultiDiscrete", lambda m: m.MultiDiscrete([2, 3])),
    ("MultiBinary", lambda m: m.MultiBinary(3)),
    ("Text", lambda m: m.Text(4, charset="xyz")),
]


@st.composite
def leaf(draw: st.DrawFn) -> tuple[str, Callable[[Any], Any]]:
    return draw(st.sampled_from(LEAVES))


@st.composite
def composite(draw: st.DrawFn, depth: int = 0) -> tuple[str, Callable[[Any], Any]]:
    """A (name, builder) pair; the builder builds the space from a spaces module (either)."""
    kinds = ["leaf", "tuple", "dict", "oneof", "sequence", "graph"]
    if depth >= 2:
        kinds = ["leaf"]
    kind = draw(st.sampled_from(kinds))
    if kind == "leaf":
        return draw(leaf())
    if kind == "graph":
        node = draw(st.sampled_from(LEAVES[:6]))
        edge = draw(st.sampled_from([None, *LEAVES[:6]]))
        return (
            f"Graph({node[0]}, {edge and edge[0]})",
            lambda m: m.Graph(node[1](m), edge[1](m) if edge else None),
        )
    if kind == "sequence":
        inner = draw(composite(depth=depth + 1))
        stack = draw(st.booleans())
        return f"Sequence({inner[0]}, stack={stack})", lambda m: m.Sequence(
            inner[1](m), stack=stack
        )
    parts = draw(st.lists(composite(depth=depth + 1), min_size=1, max_size=3))
    names = ", ".join(p[0] for p in parts)
    if kind == "tuple":
        return f"Tuple({names})", lambda m: m.Tuple([p[1](m) for p in parts])
    if kind == "oneof":
        return f"OneOf({names})", lambda m: m.OneOf([p[1](m) for p in parts])
    return (
        f"Dict({names})",
        lambda m: m.Dict({f"k{len(parts) - i}": p[1](m) for i, p in enumerate(parts)}),
    )


@SETTINGS
@given(built=composite(), seed=seeds)
def test_composite_spaces(built: tuple[str, Callable[[Any], Any]], seed: int) -> None:
    name, build = built
    compare_construction(
        lambda: _seeded(build(vs), seed),
        lambda: _seeded(build(gs), seed),
        name,
        seed,
        [None, 0, (), {}, (0, np.zeros(2, dtype=np.float32)), "x"],
    )


def _seeded(space: Any, seed: int) -> Any:
    space.seed(seed)
    return space


@SETTINGS
@given(
    arguments=st.sampled_from(
        [
            ("Tuple", ([],)),
            ("Tuple", ((),)),
            ("Tuple", ([3],)),
            ("Tuple", ("ab",)),
            ("Tuple", (None,)),
            ("Tuple", (5,)),
            ("Dict", ({"a": 3},)),
            ("Dict", ({1: "space"},)),
            ("Dict", ([("a", None)],)),
            ("Dict", (5,)),
            ("Dict", ("ab",)),
            ("Dict", (None,)),
            ("OneOf", ([],)),
            ("OneOf", ([3],)),
            ("OneOf", (None,)),
            ("OneOf", (5,)),
            ("Sequence", (3,)),
            ("Sequence", (None,)),
            ("Graph", (3, None)),
            ("Graph", (None, None)),
            ("Graph", ("box", None)),
        ]
    ),
    seed=seeds,
)
def test_composite_spaces_reject_what_gymnasium_rejects(
    arguments: tuple[str, tuple[Any, ...]], seed: int
) -> None:
    name, args = arguments
    compare_construction(
        lambda: getattr(vs, name)(*twin(args), seed=seed),
        lambda: getattr(gs, name)(*twin(args), seed=seed),
        f"{name}{args!r}",
        seed,
        [],
    )


@SETTINGS
@given(built=composite(), data=st.data())
def test_composite_masks(built: tuple[str, Callable[[Any], Any]], data: st.DataObject) -> None:
    """Masks of composite spaces: the right structure, and ``None``/garbage in each position."""
    name, build = built
    theirs = build(gs)
    ours = build(vs)
    mask = data.draw(_structured_mask(theirs), label="mask")
    for kind in ("mask", "probability"):
        compare_sampling(ours, theirs, {kind: twin(mask)}, name, seed=11)


@st.composite
def _structured_mask(draw: st.DrawFn, space: Any) -> Any:
    name = type(space).__name__
    if name == "Tuple":
        return tuple(draw(_structured_mask(s)) for s in space.spaces)
    if name == "Dict":
        return {k: draw(_structured_mask(s)) for k, s in space.spaces.items()}
    if name == "OneOf":
        return tuple(draw(_structured_mask(s)) for s in space.spaces)
    if name == "Sequence":
        # length 0 for a stacked Sequence differs on purpose: see the test below
        lengths = [None, 2] if space.stack else [None, 2, 0]
        return (draw(st.sampled_from(lengths)), draw(_structured_mask(space.feature_space)))
    if name == "Graph":
        return (draw(_structured_mask(space.node_space)), None)
    if name == "Discrete":
        return draw(st.sampled_from([None, *_mask_candidates((int(space.n),))[:8]]))
    if name == "MultiBinary":
        return draw(st.sampled_from([None, *_mask_candidates(space.shape)[:8]]))
    if name == "MultiDiscrete":
        return draw(
            st.sampled_from([None, tuple(np.ones(int(n), dtype=np.int8) for n in space.nvec)])
        )
    if name == "Text":
        return draw(st.sampled_from([None, (2, None), (None, np.ones(3, dtype=np.int8))]))
    return None


def test_stacked_sequence_of_length_zero_is_an_empty_batch() -> None:
    """On purpose: Gymnasium fails to stack no items (``ValueError``); vecgym: an empty batch."""
    space = vs.Sequence(vs.Box(-1.0, 1.0, shape=(2,), dtype=np.float32), stack=True, seed=0)
    value = space.sample(mask=(0, None))
    assert isinstance(value, np.ndarray)
    assert value.shape == (0, 2)
    assert value.dtype == np.float32
    assert space.contains(value)
    theirs = gs.Sequence(gs.Box(-1.0, 1.0, shape=(2,), dtype=np.float32), stack=True, seed=0)
    with pytest.raises(ValueError):
        theirs.sample(mask=(0, None))


def test_contains_answers_false_where_gymnasium_raises() -> None:
    """On purpose: ``contains`` of a value that cannot be read is ``False``, never an error."""
    ours = vs.Sequence(vs.Box(-1.0, 1.0, shape=(2,), dtype=np.float32), stack=True)
    theirs = gs.Sequence(gs.Box(-1.0, 1.0, shape=(2,), dtype=np.float32), stack=True)
    assert ours.contains(None) is False
    with pytest.raises(TypeError):
        theirs.contains(None)


# --- seeding --------------------------------------------------------------------------------------
seed_arguments = st.sampled_from(
    [0, 7, 2**40, -1, 1.5, "7", np.int64(3), True, [1, 2], [1, 2, 3], (4, 5), {"k1": 1}, []]
)


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 2, 1))
@given(built=composite(), seed=seed_arguments)
def test_seed_arguments(built: tuple[str, Callable[[Any], Any]], seed: Any) -> None:
    """``space.seed(x)``: the same seeds returned and the same draws after, or the same error."""
    name, build = built
    ours, theirs = build(vs), build(gs)
    mine = Outcome(lambda: ours.seed(twin(seed)))
    their = Outcome(lambda: theirs.seed(twin(seed)))
    what = f"{name}.seed({seed!r})"
    if isinstance(seed, np.integer) and their.exc is not None:
        assert mine.exc is None, what  # on purpose: a numpy integer is a seed
        return
    if isinstance(seed, bool) and their.exc is None:
        assert isinstance(mine.exc, error.InvalidSeed), what  # on purpose: a bool is not
        return
    if their.exc is not None:
        assert_same_rejection(mine, their, what)
        return
    assert mine.exc is None, f"{what}: Gymnasium {their} but vecgym {mine}"
    assert_same_value(mine.value, their.value, what)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(3):
            assert_same_value(ours.sample(), theirs.sample(), f"{what} then sample {i}")
