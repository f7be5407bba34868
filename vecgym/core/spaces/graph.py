"""The :class:`Graph` space: graphs whose nodes and edges carry values of given spaces."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence as AbcSequence
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

from vecgym import error, logger
from vecgym.core.spaces import batching
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.tuple import BOTH_MASKS_MSG, SUBSEED_BOUND, is_int_seed

__all__ = ["Graph", "GraphInstance"]

NODE_SPACE_TYPE_MSG = "Graph node_space must be a vecgym Space, got type {type}"
EDGE_SPACE_TYPE_MSG = "Graph edge_space must be a vecgym Space or None, got type {type}"
SEED_LENGTH_MSG = (
    "a Graph space seed given as a list / tuple must hold {expected} ints (one each for the Graph, "
    "its node space{edge}), got {got}"
)
SEED_TYPE_MSG = "a Graph space seed must be None, an int or a list / tuple of ints, got type {type}"
NUM_NODES_MSG = "num_nodes must be >= 1, got {value}"
NUM_EDGES_MSG = "num_edges must be >= 0, got {value}"
EDGES_WITHOUT_SPACE_MSG = (
    "num_edges={num_edges} asks for edges, but this Graph space has no edge space"
)
JSON_EDGES_MSG = "A JSON graph with edges must belong to a Graph space with an edge space"
MASK_FORM_MSG = (
    "`{kind}` for a Graph sample must be a pair (node {kind}, edge {kind}), got {value!r}"
)

# Links of sampled edges are stored with this dtype, as in Gymnasium.
EDGE_LINK_DTYPE = np.int32


class GraphInstance(NamedTuple):
    """A value of a :class:`Graph` space.

    Attributes:
        nodes: the node values, stacked: ``n`` values of the node space (an ``(n, ...)`` array for
            array node spaces).
        edges: the edge values, stacked likewise (``m`` of them), or ``None``.
        edge_links: an ``(m, 2)`` integer array of the ``(from, to)`` node indices of each edge,
            or ``None``.
    """

    nodes: Iterable[Any]
    edges: Iterable[Any] | None
    edge_links: NDArray[Any] | None


class Graph(Space[GraphInstance]):
    """Graphs of nodes connected by directed edges; nodes and edges carry values of given spaces.

    Args:
        node_space: the space of a node's value (usually a :class:`Box` or :class:`Discrete`).
        edge_space: the space of an edge's value, or ``None`` for graphs without edges.
        seed: an ``int`` seeds this space and, through seeds drawn from it, the node and edge
            spaces (see :meth:`seed`); a ``numpy.random.Generator`` becomes this space's
            generator.

    Raises:
        TypeError: ``node_space`` is not a :class:`Space`, or ``edge_space`` is neither a
            :class:`Space` nor ``None``.

    Example:
        >>> from vecgym.spaces import Box, Discrete, Graph
        >>> space = Graph(node_space=Box(-100, 100, shape=(3,)), edge_space=Discrete(3), seed=123)
        >>> instance = space.sample(num_nodes=4, num_edges=8)
        >>> instance.nodes.shape, instance.edges, instance.edge_links.shape
        ((4, 3), array([1, 0, 2, 0, 2, 1, 1, 2]), (8, 2))
    """

    node_space: Space[Any]
    edge_space: Space[Any] | None

    def __init__(
        self,
        node_space: Space[Any],
        edge_space: Space[Any] | None,
        seed: int | AbcSequence[Any] | np.random.Generator | None = None,
    ) -> None:
        if not isinstance(node_space, Space):
            raise TypeError(NODE_SPACE_TYPE_MSG.format(type=type(node_space)))
        if edge_space is not None and not isinstance(edge_space, Space):
            raise TypeError(EDGE_SPACE_TYPE_MSG.format(type=type(edge_space)))
        self.node_space = node_space
        self.edge_space = edge_space
        self.batch_node_space = batching.batch_space(node_space, 1)
        self.batch_edge_space = None if edge_space is None else batching.batch_space(edge_space, 1)
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    @property
    def is_np_flattenable(self) -> Literal[False]:
        """Always ``False``: graphs have no fixed size."""
        return False

    def seed(self, seed: int | AbcSequence[Any] | None = None) -> tuple[Any, ...]:
        """Seed this space's generator (edge counts and links) and the node / edge spaces.

        * ``None``: everything seeds itself from fresh entropy.
        * ``int``: this space is seeded with it and draws the node (and edge) space seeds; it is
          then seeded with it again, so that its stream is the same as after ``(seed, ...)``.
        * ``list`` / ``tuple``: ``(own seed, node seed)`` without an edge space,
          ``(own seed, node seed, edge seed)`` with one.

        Returns:
            ``(own seed, node seed)`` or ``(own seed, node seed, edge seed)``.

        Raises:
            ValueError: a list / tuple of the wrong length.
            TypeError: any other type of seed.
        """
        edge_space = self.edge_space
        if seed is None:
            own = super().seed(None)
            if edge_space is None:
                return own, self.node_space.seed(None)
            return own, self.node_space.seed(None), edge_space.seed(None)
        if is_int_seed(seed):
            own = super().seed(seed)
            if edge_space is None:
                node_seed = int(self.np_random.integers(SUBSEED_BOUND))
                super().seed(seed)
                return own, self.node_space.seed(node_seed)
            node_seed, edge_seed = self.np_random.integers(SUBSEED_BOUND, size=(2,))
            super().seed(seed)
            return own, self.node_space.seed(int(node_seed)), edge_space.seed(int(edge_seed))
        if isinstance(seed, (list, tuple)):
            expected = 2 if edge_space is None else 3
            if len(seed) != expected:
                edge = "" if edge_space is None else " and its edge space"
                raise error.InvalidSeed(
                    SEED_LENGTH_MSG.format(expected=expected, edge=edge, got=len(seed))
                )
            own = super().seed(seed[0])
            if edge_space is None:
                return own, self.node_space.seed(seed[1])
            return own, self.node_space.seed(seed[1]), edge_space.seed(seed[2])
        raise TypeError(SEED_TYPE_MSG.format(type=type(seed)))

    def sample(
        self,
        mask: tuple[Any, Any] | None = None,
        probability: tuple[Any, Any] | None = None,
        num_nodes: int = 10,
        num_edges: int | None = None,
    ) -> GraphInstance:
        """Draw a graph of ``num_nodes`` nodes.

        Draws, in order: the number of edges (when ``num_edges`` is ``None``: uniform in
        ``[0, n * (n - 1))`` from this space's generator, ``0`` for a single node), the node values
        and the edge values (each from a copy of the node / edge space's generator, which is then
        advanced by one draw), and the edge links (uniform node indices, from this space's
        generator).

        Args:
            mask: ``None`` or ``(node_mask, edge_mask)``, passed as ``mask`` to the batched node
                and edge spaces. Without ``num_edges``, ``edge_mask`` is repeated once per edge.
            probability: as ``mask``, passed as ``probability``.
            num_nodes: the number of nodes (> 0).
            num_edges: the number of edges (>= 0), or ``None`` for a random number. Edges are only
                sampled when there is an edge space (a warning is issued otherwise).

        Returns:
            A :class:`GraphInstance`; ``edges`` and ``edge_links`` are ``None`` when no edge was
            sampled.

        Raises:
            ValueError: ``num_nodes <= 0`` or ``num_edges < 0``.
            InvalidMask: both ``mask`` and ``probability`` are given, or one is not a pair.
        """
        if num_nodes <= 0:
            raise ValueError(NUM_NODES_MSG.format(value=num_nodes))
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_MASKS_MSG.format(mask=mask, probability=probability))
        kind: str | None = None
        node_mask: Any = None
        edge_mask: Any = None
        if mask is not None:
            kind, (node_mask, edge_mask) = "mask", self._split_mask("mask", mask)
        elif probability is not None:
            kind, (node_mask, edge_mask) = (
                "probability",
                self._split_mask("probability", probability),
            )

        if num_edges is None:
            num_edges = (
                int(self.np_random.integers(num_nodes * (num_nodes - 1))) if num_nodes > 1 else 0
            )
            if edge_mask is not None:
                edge_mask = tuple(edge_mask for _ in range(num_edges))
        else:
            if self.edge_space is None:
                logger.warn(EDGES_WITHOUT_SPACE_MSG.format(num_edges=num_edges))
            if num_edges < 0:
                raise ValueError(NUM_EDGES_MSG.format(value=num_edges))

        node_kwargs = {} if kind is None else {kind: node_mask}
        edge_kwargs = {} if kind is None else {kind: edge_mask}

        nodes = batching.batch_space(self.node_space, num_nodes).sample(**node_kwargs)
        # The batched space sampled from a copy of the node generator: move the original on.
        self.node_space.np_random.random()

        edges = None
        if num_edges >= 1 and self.edge_space is not None:
            edges = batching.batch_space(self.edge_space, num_edges).sample(**edge_kwargs)
            self.edge_space.np_random.random()

        edge_links = None
        if edges is not None:
            edge_links = self.np_random.integers(
                low=0, high=num_nodes, size=(num_edges, 2), dtype=EDGE_LINK_DTYPE
            )
        return GraphInstance(nodes, edges, edge_links)

    @staticmethod
    def _split_mask(kind: str, value: Any) -> tuple[Any, Any]:
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise error.InvalidMaskType(MASK_FORM_MSG.format(kind=kind, value=value))
        return value[0], value[1]

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a :class:`GraphInstance` of this space.

        Every node value must be in the node space. ``edges`` and ``edge_links`` are both ``None``,
        or (with an edge space) every edge value is in the edge space and ``edge_links`` is an
        integer ``(m, 2)`` array of valid node indices, ``m`` being the number of edges.
        """
        if not isinstance(x, GraphInstance) or x.nodes is None:
            return False
        nodes = self._values(self.batch_node_space, x.nodes)
        if nodes is None or not all(node in self.node_space for node in nodes):
            return False
        if x.edges is None or x.edge_links is None:
            return x.edges is None and x.edge_links is None
        if self.edge_space is None or self.batch_edge_space is None:
            return False
        links = x.edge_links
        if not isinstance(links, np.ndarray) or not np.issubdtype(links.dtype, np.integer):
            return False
        edges = self._values(self.batch_edge_space, x.edges)
        if edges is None or not all(edge in self.edge_space for edge in edges):
            return False
        return links.shape == (len(edges), 2) and bool(np.all((links >= 0) & (links < len(nodes))))

    @staticmethod
    def _values(batched: Space[Any], stacked: Any) -> list[Any] | None:
        """The single values of a stacked value, or ``None`` when it cannot be iterated."""
        try:
            return list(batching.iterate(batched, stacked))
        except TypeError:
            return None

    def __repr__(self) -> str:
        return f"Graph({self.node_space}, {self.edge_space})"

    def __eq__(self, other: object) -> bool:
        """Graphs are equal when their node spaces and edge spaces are equal."""
        return (
            isinstance(other, Graph)
            and self.node_space == other.node_space
            and self.edge_space == other.edge_space
        )

    __hash__ = None  # type: ignore[assignment]

    def to_jsonable(self, sample_n: Iterable[GraphInstance]) -> list[dict[str, Any]]:
        """Convert a batch of graphs to dicts with ``nodes`` (and ``edges``, ``edge_links``)."""
        result = []
        for sample in sample_n:
            item: dict[str, Any] = {"nodes": self.batch_node_space.to_jsonable([sample.nodes])}
            if sample.edges is not None and sample.edge_links is not None:
                assert self.batch_edge_space is not None
                item["edges"] = self.batch_edge_space.to_jsonable([sample.edges])
                item["edge_links"] = np.asarray(sample.edge_links).tolist()
            result.append(item)
        return result

    def from_jsonable(self, sample_n: AbcSequence[dict[str, Any]]) -> list[GraphInstance]:
        """Convert the output of :meth:`to_jsonable` back to :class:`GraphInstance` values."""
        result = []
        for sample in sample_n:
            nodes = self.batch_node_space.from_jsonable(sample["nodes"])[0]
            if "edges" in sample:
                if self.batch_edge_space is None:
                    raise ValueError(JSON_EDGES_MSG)
                edges = self.batch_edge_space.from_jsonable(sample["edges"])[0]
                links = np.asarray(sample["edge_links"], dtype=EDGE_LINK_DTYPE)
                result.append(GraphInstance(nodes, edges, links))
            else:
                result.append(GraphInstance(nodes, None, None))
        return result


@batching.create_empty_array.register(Graph)
def _empty_graph(space: Graph, n: int = 1, fn: Any = np.zeros) -> tuple[GraphInstance, ...]:
    def one() -> GraphInstance:
        nodes = batching.create_empty_array(space.node_space, n=1, fn=fn)
        if space.edge_space is None:
            return GraphInstance(nodes, None, None)
        edges = batching.create_empty_array(space.edge_space, n=1, fn=fn)
        return GraphInstance(nodes, edges, fn((1, 2), dtype=np.int64))

    return tuple(one() for _ in range(n))


# Registered by element type: batch_differing_spaces dispatches on type(spaces[0]) itself.
batching.batch_differing_spaces.register(Graph)(batching.differing_spaces_as_tuple)
