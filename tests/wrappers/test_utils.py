"""Tests for vecgym.wrappers.utils: running statistics, zero arrays, box rescaling, resizing."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym.error import CustomSpaceError
from vecgym.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    GraphInstance,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
)
from vecgym.wrappers.utils import (
    NO_ZERO_ARRAY_MSG,
    NOT_A_SPACE_MSG,
    RESCALE_BOUND_SHAPE_MSG,
    RESCALE_BOUND_TYPE_MSG,
    RESCALE_INFINITE_MSG,
    RESCALE_NOT_BOX_MSG,
    RESCALE_ORDER_MSG,
    RESIZE_NDIM_MSG,
    RESIZE_SHAPE_MSG,
    RunningMeanStd,
    create_zero_array,
    rescale_box,
    resize_image,
    update_mean_var_count_from_moments,
)

gymnasium = pytest.importorskip("gymnasium")


def test_running_mean_std_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    data = rng.normal(3.0, 2.0, size=(500, 3))
    rms = RunningMeanStd(epsilon=1e-12, shape=(3,))
    for batch in np.split(data, 10):
        rms.update(batch)
    np.testing.assert_allclose(rms.mean, data.mean(axis=0), rtol=1e-9)
    np.testing.assert_allclose(rms.var, data.var(axis=0), rtol=1e-9)
    assert rms.count == pytest.approx(500)


def test_running_mean_std_matches_gymnasium() -> None:
    from gymnasium.wrappers.utils import RunningMeanStd as GymRMS

    rng = np.random.default_rng(1)
    ours, theirs = RunningMeanStd(shape=(2,)), GymRMS(shape=(2,))
    assert ours.count == theirs.count
    for _ in range(5):
        batch = rng.normal(size=(4, 2))
        ours.update(batch)
        theirs.update(batch)
    np.testing.assert_array_equal(ours.mean, theirs.mean)
    np.testing.assert_array_equal(ours.var, theirs.var)


def test_update_from_moments_merges_two_sets() -> None:
    a, b = np.arange(5.0), np.arange(10.0, 13.0)
    mean, var, count = update_mean_var_count_from_moments(
        a.mean(), a.var(), 5, b.mean(), b.var(), 3
    )
    both = np.concatenate([a, b])
    assert count == 8
    assert mean == pytest.approx(both.mean())
    assert var == pytest.approx(both.var())


ZERO_CASES = [
    (
        Box(low=np.array([1.0, -2.0, -1.0]), high=np.array([3.0, -1.0, 1.0]), dtype=np.float64),
        [1.0, -1.0, 0.0],
    ),
    (Discrete(4, start=-2), -2),
    (MultiDiscrete([3, 4], start=[1, 2]), [1, 2]),
    (MultiBinary(3), [0, 0, 0]),
]


@pytest.mark.parametrize(("space", "expected"), ZERO_CASES)
def test_create_zero_array_simple(space: Space, expected: object) -> None:
    value = create_zero_array(space)
    np.testing.assert_array_equal(value, expected)
    assert value in space


def test_create_zero_array_composites() -> None:
    space = Dict(a=Tuple((Discrete(3, start=1), Box(2, 3, (2,)))), b=Text(5, min_length=2))
    value = create_zero_array(space)
    assert value in space
    assert value["a"][0] == 1
    np.testing.assert_array_equal(value["a"][1], [2, 2])
    assert value["b"] == space["b"].characters[0] * 2
    assert create_zero_array(Sequence(Discrete(2))) == ()
    stacked = create_zero_array(Sequence(Box(0, 1, (2,)), stack=True))
    assert stacked.shape == (1, 2)  # batch_space(feature, 1), as Gymnasium
    assert create_zero_array(OneOf((Discrete(2, start=5), Box(0, 1)))) == (0, 5)


def test_create_zero_array_graph() -> None:
    graph = create_zero_array(Graph(node_space=Box(1, 2, (3,)), edge_space=Discrete(4)))
    assert isinstance(graph, GraphInstance)
    np.testing.assert_array_equal(graph.nodes, [[1, 1, 1]])
    np.testing.assert_array_equal(graph.edges, [0])
    np.testing.assert_array_equal(graph.edge_links, [[0, 0]])
    assert create_zero_array(Graph(node_space=Discrete(3), edge_space=None)).edges is None


def test_create_zero_array_errors() -> None:
    class Custom(Space):
        pass

    with pytest.raises(
        CustomSpaceError, match=message_pattern(NO_ZERO_ARRAY_MSG, type_name="Custom")
    ):
        create_zero_array(Custom())
    with pytest.raises(TypeError, match=message_pattern(NOT_A_SPACE_MSG)):
        create_zero_array(3)


def test_create_zero_array_matches_gymnasium() -> None:
    from gymnasium import spaces as gs
    from gymnasium.wrappers.utils import create_zero_array as gym_zero

    low, high = np.array([1.0, -5.0], np.float32), np.array([2.0, -3.0], np.float32)
    ours = create_zero_array(Box(low, high))
    theirs = gym_zero(gs.Box(low, high))
    np.testing.assert_array_equal(ours, theirs)
    assert ours.dtype == theirs.dtype


def test_rescale_box_matches_gymnasium() -> None:
    from gymnasium import spaces as gs
    from gymnasium.wrappers.utils import rescale_box as gym_rescale

    low = np.array([-1.0, -np.inf, 0.0, -2.0], dtype=np.float32)
    high = np.array([1.0, 3.0, np.inf, 2.0], dtype=np.float32)
    new_min = np.array([0.0, -np.inf, 5.0, -1.0], dtype=np.float32)
    new_max = np.array([10.0, 4.0, np.inf, 1.0], dtype=np.float32)
    ours, fwd, back = rescale_box(Box(low, high), new_min, new_max)
    theirs, gfwd, _ = gym_rescale(gs.Box(low, high), new_min, new_max)
    np.testing.assert_array_equal(ours.low, theirs.low)
    np.testing.assert_array_equal(ours.high, theirs.high)
    x = np.array([0.5, 1.0, 2.0, -2.0], dtype=np.float32)
    np.testing.assert_array_equal(fwd(x), gfwd(x))
    np.testing.assert_allclose(back(fwd(x)), x, rtol=1e-6)


def test_rescale_box_degenerate_component_maps_to_new_min() -> None:
    box = Box(low=np.array([0.0, 2.0], np.float32), high=np.array([4.0, 2.0], np.float32))
    new_box, fwd, back = rescale_box(box, np.float32(-1), np.float32(1))
    out = fwd(np.array([4.0, 2.0], np.float32))
    np.testing.assert_array_equal(out, [1.0, -1.0])
    assert out in new_box
    np.testing.assert_array_equal(back(out), [4.0, 2.0])


@pytest.mark.parametrize(
    ("new_min", "new_max", "error", "match"),
    [
        ("a", 1.0, TypeError, message_pattern(RESCALE_BOUND_TYPE_MSG, name="new_min", type=str)),
        (
            np.zeros(3),
            1.0,
            ValueError,
            message_pattern(RESCALE_BOUND_SHAPE_MSG, name="new_min", expected=(2,), actual=(3,)),
        ),
        (np.float32(1), np.float32(0), ValueError, message_pattern(RESCALE_ORDER_MSG)),
        (
            np.array([-np.inf, 0.0]),
            np.float32(1),
            ValueError,
            message_pattern(RESCALE_INFINITE_MSG),
        ),
    ],
)
def test_rescale_box_errors(new_min: object, new_max: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        rescale_box(Box(0, 1, (2,)), new_min, new_max)
    with pytest.raises(TypeError, match=message_pattern(RESCALE_NOT_BOX_MSG)):
        rescale_box(Discrete(2), 0, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("shape", [(84, 84), (30, 200), (210, 160), (5, 3), (400, 321)])
@pytest.mark.parametrize("channels", [(), (1,), (3,)])
def test_resize_image_shape_dtype_constant(shape: tuple[int, int], channels: tuple) -> None:
    image = np.full((210, 160, *channels), 137, dtype=np.uint8)
    out = resize_image(image, shape)
    assert out.shape == shape + channels
    assert out.dtype == np.uint8
    assert np.all(out == 137)


@pytest.mark.parametrize("shape", [(84, 84), (500, 7), (13, 400)])
def test_resize_image_keeps_gradients_monotone(shape: tuple[int, int]) -> None:
    rows = np.linspace(0, 255, 210).astype(np.uint8)
    cols = np.linspace(0, 255, 160).astype(np.uint8)
    image = ((rows[:, None].astype(int) + cols[None, :]) // 2).astype(np.uint8)
    out = resize_image(image, shape).astype(int)
    assert np.all(np.diff(out, axis=0) >= 0)
    assert np.all(np.diff(out, axis=1) >= 0)
    assert out.min() >= image.min()
    assert out.max() <= image.max()


def test_resize_image_area_average_and_identity() -> None:
    image = np.array([[0, 10, 20, 30]], dtype=np.uint8)
    np.testing.assert_array_equal(resize_image(image, (1, 2)), [[5, 25]])
    np.testing.assert_array_equal(resize_image(image, (1, 1)), [[15]])
    np.testing.assert_array_equal(resize_image(image, (1, 4)), image)
    floats = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = resize_image(floats, (1, 3))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[1.5, 2.5, 3.5]])


@pytest.mark.parametrize("use_opencv", [None, False])
def test_resize_image_upscale_blends_only_at_cell_boundaries(use_opencv: bool | None) -> None:
    # INTER_AREA: an integer factor repeats pixels; 2 -> 3 blends the middle cell half and half.
    image = np.array([[0, 100]], dtype=np.uint8)
    np.testing.assert_array_equal(
        resize_image(image, (1, 4), use_opencv=use_opencv), [[0, 0, 100, 100]]
    )
    np.testing.assert_array_equal(
        resize_image(image, (1, 3), use_opencv=use_opencv), [[0, 50, 100]]
    )


def test_resize_image_errors() -> None:
    with pytest.raises(ValueError, match=message_pattern(RESIZE_NDIM_MSG)):
        resize_image(np.zeros(5), (2, 2))
    with pytest.raises(ValueError, match=message_pattern(RESIZE_SHAPE_MSG)):
        resize_image(np.zeros((4, 4)), (0, 2))
