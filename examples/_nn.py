"""A tiny numpy neural-network kit for the PPO and A2C examples (no torch needed).

* :class:`MLP`: a fully connected network with ``tanh`` hidden layers and a linear output, with
  a hand-written backward pass and orthogonal initialisation;
* :class:`Adam`: the Adam optimiser over a list of arrays, updated in place;
* :func:`clip_by_global_norm`: gradient clipping over several networks at once;
* categorical-policy helpers (:func:`log_softmax`, :func:`sample_categorical`,
  :func:`categorical_entropy`) and the gradients of the policy losses with respect to the
  logits (:func:`policy_logits_grad`).

Everything is float64: the networks are small, so precision costs nothing here, and the
finite-difference checks in ``tests/examples/test_examples.py`` stay tight.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]

__all__ = [
    "MLP",
    "Adam",
    "Array",
    "categorical_entropy",
    "clip_by_global_norm",
    "log_softmax",
    "orthogonal",
    "policy_logits_grad",
    "sample_categorical",
]


def orthogonal(rows: int, cols: int, gain: float, rng: np.random.Generator) -> Array:
    """A ``(rows, cols)`` matrix with orthonormal rows or columns, scaled by ``gain``.

    The QR decomposition of a Gaussian matrix gives a uniformly random orthogonal basis; fixing
    the signs by the diagonal of ``R`` keeps the distribution uniform.
    """
    big, small = max(rows, cols), min(rows, cols)
    q, r = np.linalg.qr(rng.standard_normal((big, small)))
    q = q * np.sign(np.diag(r))
    matrix = q if rows >= cols else q.T
    return gain * matrix


@dataclass
class _Cache:
    """What :meth:`MLP.forward` keeps for :meth:`MLP.backward`: each layer's input."""

    inputs: list[Array]


class MLP:
    """``tanh`` hidden layers, linear output, manual backprop.

    Args:
        sizes: layer widths, input first, e.g. ``(4, 64, 64, 2)``.
        rng: the generator used for the initial weights.
        hidden_gain: gain of the orthogonal init of the hidden layers (``sqrt(2)`` is usual).
        output_gain: gain of the last layer (small, e.g. ``0.01``, for a policy so that it starts
            close to uniform; ``1.0`` for a value function).

    Example:
        >>> net = MLP((4, 8, 2), np.random.default_rng(0))
        >>> out, cache = net.forward(np.ones((3, 4)))
        >>> out.shape, [g.shape for g in net.backward(cache, np.ones((3, 2)))]
        ((3, 2), [(4, 8), (8,), (8, 2), (2,)])
    """

    def __init__(
        self,
        sizes: Sequence[int],
        rng: np.random.Generator,
        hidden_gain: float = float(np.sqrt(2.0)),
        output_gain: float = 1.0,
    ) -> None:
        if len(sizes) < 2:
            raise ValueError(f"sizes must list at least an input and an output width, got {sizes}")
        self.params: list[Array] = []
        last = len(sizes) - 2
        for i, (fan_in, fan_out) in enumerate(itertools.pairwise(sizes)):
            gain = output_gain if i == last else hidden_gain
            self.params.append(orthogonal(fan_in, fan_out, gain, rng))
            self.params.append(np.zeros(fan_out))

    @property
    def num_layers(self) -> int:
        """How many linear layers the network has."""
        return len(self.params) // 2

    def forward(self, x: npt.ArrayLike) -> tuple[Array, _Cache]:
        """Outputs for the batch ``x`` (shape ``(batch, sizes[0])``) and the cache for backward."""
        h = np.asarray(x, dtype=np.float64)
        inputs = []
        for i in range(self.num_layers):
            inputs.append(h)
            h = h @ self.params[2 * i] + self.params[2 * i + 1]
            if i < self.num_layers - 1:
                h = np.tanh(h)
        return h, _Cache(inputs)

    def __call__(self, x: npt.ArrayLike) -> Array:
        """Outputs only (no cache): for acting."""
        return self.forward(x)[0]

    def backward(self, cache: _Cache, grad_out: Array) -> list[Array]:
        """Gradients of a loss with respect to :attr:`params`, given ``d loss / d outputs``."""
        grads: list[Array] = [np.empty(0)] * len(self.params)
        g = grad_out
        for i in reversed(range(self.num_layers)):
            h_in = cache.inputs[i]
            grads[2 * i] = h_in.T @ g
            grads[2 * i + 1] = g.sum(axis=0)
            if i > 0:
                # h_in = tanh(pre) for every layer but the first, and tanh' = 1 - tanh^2.
                g = (g @ self.params[2 * i].T) * (1.0 - h_in * h_in)
        return grads


class Adam:
    """Adam (Kingma & Ba, 2015) updating ``params`` in place.

    ``lr`` is a plain attribute so that callers can anneal it. ``eps`` defaults to ``1e-5`` as
    in most RL code (a larger epsilon than the paper's damps updates of rarely used weights).
    """

    def __init__(
        self,
        params: list[Array],
        lr: float,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-5,
    ) -> None:
        self.params = params
        self.lr = lr
        self.beta1, self.beta2 = betas
        self.eps = eps
        self.t = 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: Sequence[Array]) -> None:
        """Apply one update with ``grads`` (same order and shapes as ``params``)."""
        self.t += 1
        correct1 = 1.0 - self.beta1**self.t
        correct2 = 1.0 - self.beta2**self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= self.beta1
            m += (1.0 - self.beta1) * g
            v *= self.beta2
            v += (1.0 - self.beta2) * g * g
            p -= self.lr * (m / correct1) / (np.sqrt(v / correct2) + self.eps)


def clip_by_global_norm(grads: Sequence[Array], max_norm: float) -> tuple[list[Array], float]:
    """Scale ``grads`` so that their joint L2 norm is at most ``max_norm``; return the norm too."""
    norm = float(np.sqrt(sum(float(np.sum(g * g)) for g in grads)))
    scale = min(1.0, max_norm / (norm + 1e-6))
    return [g * scale for g in grads], norm


def log_softmax(logits: Array) -> Array:
    """Log-probabilities of a categorical distribution, row by row (numerically stable)."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def sample_categorical(logits: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row, drawn with the probabilities ``softmax(logits)`` (inverse CDF)."""
    probs = np.exp(log_softmax(logits))
    cdf = np.cumsum(probs, axis=-1)
    u = rng.random((logits.shape[0], 1))
    actions = (u > cdf).sum(axis=-1)
    return np.minimum(actions, logits.shape[-1] - 1).astype(np.int64)


def categorical_entropy(logp: Array) -> Array:
    """Entropy of each row's distribution, given its log-probabilities."""
    return -(np.exp(logp) * logp).sum(axis=-1)


def policy_logits_grad(
    logp: Array, actions: npt.NDArray[np.integer], grad_logp_a: Array, grad_entropy: Array
) -> Array:
    """``d loss / d logits`` for a loss that depends on ``log pi(a)`` and on the entropy.

    Args:
        logp: log-probabilities, shape ``(batch, n)``.
        actions: the actions taken, shape ``(batch,)``.
        grad_logp_a: ``d loss / d log pi(a_i)`` for each row, shape ``(batch,)``.
        grad_entropy: ``d loss / d H_i`` for each row, shape ``(batch,)``.

    Uses ``d log pi(a) / d z = onehot(a) - p`` and ``d H / d z_j = -p_j (log p_j + H)``.
    """
    probs = np.exp(logp)
    onehot = np.zeros_like(probs)
    onehot[np.arange(len(actions)), actions] = 1.0
    entropy = -(probs * logp).sum(axis=-1, keepdims=True)
    d_logp_a = grad_logp_a[:, None] * (onehot - probs)
    d_entropy = grad_entropy[:, None] * (-probs * (logp + entropy))
    return d_logp_a + d_entropy
