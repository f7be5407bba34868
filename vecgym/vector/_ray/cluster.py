"""Ray itself for RayVectorEnv: importing it lazily, a host actor's slice, and waiting for a killed
actor to be gone."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from vecgym import error
from vecgym.vector._ray.messages import RAY_MISSING_MSG

__all__ = ["HostSlot", "import_ray", "wait_dead"]


def import_ray() -> Any:
    """The ``ray`` module, or :class:`~vecgym.error.DependencyNotInstalled` naming the extra."""
    try:
        import ray
    except ImportError as exc:
        raise error.DependencyNotInstalled(RAY_MISSING_MSG.format(exc)) from exc
    return ray


@dataclass
class HostSlot:
    """Host actor ``actor`` on ``node``, owning envs ``[start, stop)``; its ``send`` call in flight
    and the envs queued behind it."""

    actor: Any
    start: int
    stop: int
    node: str
    instance: str = ""
    ref: Any = None  # the send/recv call in flight
    ref_ids: Any = None  # its global env ids
    queued: list[int] = field(default_factory=list)
    queued_actions: list[Any] = field(default_factory=list)
    restarts: int = 0

    @property
    def envs(self) -> list[int]:
        """The global indices of the host's envs."""
        return list(range(self.start, self.stop))


def wait_dead(ray: Any, actor: Any, deadline: float) -> None:
    """Wait (until ``deadline``) for an ended or killed actor's process to be gone."""
    while time.monotonic() < deadline:
        try:
            ray.get(actor.ping.remote(), timeout=max(0.05, deadline - time.monotonic()))
        except ray.exceptions.RayActorError:
            return
        except Exception:
            return
        time.sleep(0.05)
