"""The share of the bound that AsyncVectorEnv reaches, measured in interleaved rounds.

Usage::

    python benchmarks/bench_interleaved.py [--workload halfcheetah] [--num-envs 64]
        [--rounds 8] [--seconds 3] [--past-idle-wrappers] [--without-infos]

``bench_mujoco.py`` and ``bench_atari.py`` measure the single env (the bound) once and then each
runtime one after another, so a drift of the machine's speed between those measurements moves the
share of the bound, by up to a few percent either way on the shared 2-vCPU VM. Here one process
holds the single env and ``AsyncVectorEnv(num_workers=cores - 1, parent_envs=...)`` (the equal
share of the parent slice, as the other scripts' ``Async+parent`` rows) side by side and times
them in turns: in each round, ``--seconds`` of the single env in a plain loop, then ``--seconds``
of the vector env. The round's share of the bound is the vector env's rate over the same round's
single-env rate times the cores; the median and the range over the rounds are printed.

Each round also times two references that show how much of the bound any runtime could reach:

* **one core, half the envs**: this process steps the envs of the parent's share in a plain loop
  (a reset where an episode ended) while the other core idles. Against the single env this is
  the cost of stepping many envs in turn (caches) rather than one.
* **lockstep pair**: this process and one helper process each step their share of the envs (the
  same split as the vector env's) in a plain loop, and wait for each other after every step by
  spinning on a step counter in shared memory. Nothing else crosses between them: no actions,
  observations, rewards or infos. A ``step`` that steps every env once with that split over two
  processes, and returns the results, cannot be faster; so ``vecgym / lockstep`` is the part of
  the pair's rate that vecgym keeps, and the pair's own share of the bound is the ceiling on this
  machine (below 100% by the slowdown of an env beside a busy second core, the many envs' caches,
  and the wait for the slower half of each step).
* **lockstep pair writing the outputs**: the same pair, but each process also writes what every
  vector env has to hand over, in plain Python: each env's observation into a shared block, its
  reward and flags, and each numeric info key's value into a column of its own; after every step
  this process then builds the batch a Gymnasium ``step`` returns from them (new reward and flag
  arrays, a new array and an all-true mask per info key; the observations as the shared block, as
  ``copy=False`` returns them). No runtime that returns Gymnasium's results, with the envs stepped
  in Python, can do less; ``vecgym / outputs`` is the share of that rate vecgym keeps.

Both run only with two usable cores, the layout they model.

The vector envs step each env past the wrappers ``make`` adds once those are idle
(:func:`vecgym.vector.autoreset.direct_step`), while the single env of the bound, as defined, is
stepped through them (``env.step``). ``--past-idle-wrappers`` steps the single env, the one-core
loop and both pairs' envs past them too, as the vector envs do (the way chosen again at each reset
until it is final): the share of a stricter bound, the one of a loop that does the same work per
env step as the vector env. (They step with ``AutoresetEnv.env_step``, which applies
``TimeLimit``'s count in a closure; since the twenty-second stop the vector loops write that count
out themselves, about 0.1 us less per env step, 3% of a CartPole-v1 step, that this bound's loops
still pay.)

``--without-infos`` times, in each round, a second ``AsyncVectorEnv`` whose envs are wrapped to
return an empty info from every ``step`` (:class:`_InfosDropped`) and prints its rate over the
first vector env's: what the per-step infos cost the runtime (the single env of the bound keeps
its infos; the wrapper's own call, a fraction of a microsecond per env step, counts against the
second vector env, so the ratio understates that cost a little).

Workloads: ``halfcheetah`` (``gymnasium.make("HalfCheetah-v5")``, as ``bench_mujoco.py``),
``pong`` (``ALE/Pong-v5`` with vecgym's ``AtariPreprocessing`` and ``FrameStackObservation(4)``,
as ``bench_atari.py --vecgym-wrappers``) and ``cartpole`` (``vecgym.make("CartPole-v1")``, as
``vecgym bench``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

#: Seconds to wait for the lockstep helper to start, or to finish a phase, before giving up.
HELPER_TIMEOUT_S = 120.0
#: Spins of the wait for the helper between checks that it is still alive.
HELPER_CHECK_SPINS = 1 << 16
#: The lockstep counters in shared memory: steps posted by this process, steps the helper has
#: finished, and "the phase is over".
POSTED, FINISHED, OVER = 0, 1, 2


def _maker(workload: str) -> Callable[[], Any]:
    if workload == "halfcheetah":
        import bench_mujoco

        return bench_mujoco.make_env
    if workload == "pong":
        import bench_atari

        return bench_atari.make_vecgym_env
    import vecgym

    return lambda: vecgym.make("CartPole-v1")


def _step_all(envs: Sequence[Any], actions: Any, first: int) -> None:
    """One plain-loop step of ``envs`` with actions ``first``, ``first + 1``, ... of the batch."""
    for k, env in enumerate(envs):
        _, _, terminated, truncated, _ = env.step(actions[first + k])
        if terminated or truncated:
            env.reset()


class _PastIdleWrappers:
    """``env`` stepped as the vector envs step it (``--past-idle-wrappers``): with its
    ``AutoresetEnv``'s ``env_step``, which each reset (``begin_episode``) may move past the
    wrappers that have become idle."""

    def __init__(self, env: Any) -> None:
        from vecgym.vector import AutoresetMode
        from vecgym.vector.autoreset import AutoresetEnv

        self._auto = AutoresetEnv(env, AutoresetMode.NEXT_STEP)
        self.action_space = env.action_space
        self.step = self._auto.env_step

    def reset(self, **kwargs: Any) -> Any:
        result = self._auto.begin_episode(**kwargs)
        self.step = self._auto.env_step
        return result

    def close(self) -> None:
        self._auto.env.close()


def _infos_dropped(make: Callable[[], Any]) -> Any:
    """``make()`` wrapped so that its steps return an empty info (``--without-infos``)."""
    import gymnasium

    import vecgym

    env = make()
    base = vecgym.Wrapper if isinstance(env, vecgym.Env) else gymnasium.Wrapper

    class _InfosDropped(base):  # type: ignore[misc, valid-type]
        """The env's steps with an empty info (its resets keep theirs)."""

        def step(self, action: Any) -> Any:
            obs, reward, terminated, truncated, _ = self.env.step(action)
            return obs, reward, terminated, truncated, {}

    return _InfosDropped(env)


def _build(workload: str, count: int, first: int, direct: bool = False) -> list[Any]:
    make = _maker(workload)
    envs = [_PastIdleWrappers(make()) if direct else make() for _ in range(count)]
    for k, env in enumerate(envs):
        env.reset(seed=first + k)
    return envs


#: What the output block holds per env: ``(observation shape, observation dtype, [(info key,
#: dtype)])`` (dtypes as ``numpy.dtype.str``).
OutputSpec = tuple[tuple[int, ...], str, list[tuple[str, str]]]
#: Views of the output block: observation rows, rewards, terminations, truncations and
#: ``[(info key, column)]``, with the observation block itself last.
OutputViews = tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray, list[Any], np.ndarray]


def _output_spec(make: Callable[[], Any]) -> OutputSpec | None:
    """The output block's layout for the workload's envs: the observation of a reset and the
    numeric scalar info keys of a step (``None`` for observations that are not one array)."""
    env = make()
    try:
        obs, _ = env.reset(seed=0)
        env.action_space.seed(0)
        _, _, _, _, info = env.step(env.action_space.sample())
    finally:
        env.close()
    if not isinstance(obs, np.ndarray):
        return None
    keys = [
        (key, np.asarray(value).dtype.str)
        for key, value in info.items()
        if isinstance(value, (bool, int, float, np.bool_, np.number))
    ]
    return obs.shape, obs.dtype.str, keys


def _output_arrays(context: Any, num_envs: int, spec: OutputSpec) -> list[Any]:
    """Shared memory for the output block of ``num_envs`` envs: one raw array per part."""
    shape, obs_dtype, keys = spec
    sizes = [num_envs * int(np.prod(shape)) * np.dtype(obs_dtype).itemsize, 8 * num_envs]
    sizes += [num_envs, num_envs] + [num_envs * np.dtype(dtype).itemsize for _, dtype in keys]
    return [context.RawArray("b", max(1, size)) for size in sizes]


def _output_views(num_envs: int, spec: OutputSpec, arrays: list[Any]) -> OutputViews:
    shape, obs_dtype, keys = spec

    def view(raw: Any, dtype: Any, count: int) -> np.ndarray:
        return np.frombuffer(raw, dtype=np.uint8)[: count * np.dtype(dtype).itemsize].view(dtype)

    block = view(arrays[0], obs_dtype, num_envs * int(np.prod(shape))).reshape(num_envs, *shape)
    columns = [
        (key, view(raw, dtype, num_envs))
        for (key, dtype), raw in zip(keys, arrays[4:], strict=True)
    ]
    return (
        [block[i] for i in range(num_envs)],
        view(arrays[1], np.float64, num_envs),
        view(arrays[2], np.bool_, num_envs),
        view(arrays[3], np.bool_, num_envs),
        columns,
        block,
    )


def _step_writing(envs: Sequence[Any], actions: Any, first: int, out: OutputViews) -> None:
    """:func:`_step_all`, writing each env's results into the output block (rows ``first ..``)."""
    rows, rewards, terminated, truncated, columns, _ = out
    for k, env in enumerate(envs):
        i = first + k
        obs, reward, term, trunc, info = env.step(actions[i])
        rows[i][...] = obs
        rewards[i] = reward
        terminated[i] = term
        truncated[i] = trunc
        for key, column in columns:
            column[i] = info[key]
        if term or trunc:
            env.reset()


def _assemble(out: OutputViews) -> tuple[Any, ...]:
    """The batch a Gymnasium ``step`` returns, built from the output block (``copy=False``)."""
    _, rewards, terminated, truncated, columns, block = out
    infos: dict[str, np.ndarray] = {}
    for key, column in columns:
        infos[key] = column.copy()
        infos[f"_{key}"] = np.ones(len(column), dtype=np.bool_)
    return block, rewards.copy(), terminated.copy(), truncated.copy(), infos


def _posted(counters: np.ndarray, done: int) -> bool:
    """Spin until step ``done + 1`` is posted (``True``) or the phase is over (``False``)."""
    while counters[POSTED] == done:
        if counters[OVER]:
            return False
    return True


def _helper(
    workload: str,
    count: int,
    first: int,
    batches: list[Any],
    shared: Any,
    conn: Any,
    outputs: tuple[OutputSpec, list[Any]] | None,
    direct: bool,
) -> None:
    """The lockstep pair's second process: steps envs ``first ..`` on every posted step (writing
    their results into the output block when ``outputs`` is given; past idle wrappers with
    ``direct``)."""
    envs = _build(workload, count, first, direct)
    counters = np.frombuffer(shared, dtype=np.int64)
    out = None if outputs is None else _output_views(first + count, *outputs)
    conn.send("ready")
    while conn.recv() == "go":  # blocks between phases, so the other measurements run alone
        done = int(counters[FINISHED])
        while _posted(counters, done):
            done += 1
            if out is None:
                _step_all(envs, batches[done % len(batches)], first)
            else:
                _step_writing(envs, batches[done % len(batches)], first, out)
            counters[FINISHED] = done
        conn.send("idle")
    for env in envs:
        env.close()


class LockstepPair:
    """This process and a helper process stepping their shares of ``num_envs`` envs in lockstep.

    Args:
        workload: the workload's name (the helper builds its envs from it).
        num_envs: the envs of both processes together.
        local: the envs this process steps (the first ``local`` of each action batch).
        batches: pre-generated action batches of ``num_envs`` actions, cycled.
        outputs: the output block's layout (:func:`_output_spec`): both processes write their
            envs' results there and this process builds the step's batch from it after every
            step; ``None``: nothing is written.
        direct: both processes step their envs past idle wrappers (``--past-idle-wrappers``).
    """

    def __init__(
        self,
        workload: str,
        num_envs: int,
        local: int,
        batches: list[Any],
        outputs: OutputSpec | None = None,
        direct: bool = False,
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.num_envs, self.batches = num_envs, batches
        self.envs = _build(workload, local, 0, direct)
        self._shared = context.RawArray("q", 3)
        self._counters = np.frombuffer(self._shared, dtype=np.int64)
        self._out: OutputViews | None = None
        shared_outputs = None
        if outputs is not None:
            arrays = _output_arrays(context, num_envs, outputs)
            self._out = _output_views(num_envs, outputs, arrays)
            shared_outputs = (outputs, arrays)
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=_helper,
            args=(
                workload,
                num_envs - local,
                local,
                batches,
                self._shared,
                child,
                shared_outputs,
                direct,
            ),
            daemon=True,
        )
        self._process.start()
        child.close()
        self._expect("ready")

    def _expect(self, message: str) -> None:
        if not self._conn.poll(HELPER_TIMEOUT_S) or self._conn.recv() != message:
            raise RuntimeError(f"the lockstep helper did not answer {message!r} in time")

    def _run(self, seconds: float) -> tuple[int, float]:
        counters, batches, envs, out = self._counters, self.batches, self.envs, self._out
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            step = int(counters[POSTED]) + 1
            counters[POSTED] = step  # the helper starts its share now
            if out is None:
                _step_all(envs, batches[step % len(batches)], 0)
            else:
                _step_writing(envs, batches[step % len(batches)], 0, out)
            spins = 0
            while counters[FINISHED] != step:
                spins += 1
                if spins % HELPER_CHECK_SPINS == 0 and not self._process.is_alive():
                    raise RuntimeError("the lockstep helper process died")
            if out is not None:
                _assemble(out)
            steps += 1
            now = time.perf_counter()
            if now >= deadline:
                return steps, now - start

    def measure(self, seconds: float) -> float:
        """Env steps per second over about ``seconds`` (after a warm-up of a tenth of that)."""
        self._counters[OVER] = 0
        self._conn.send("go")
        try:
            self._run(seconds / 10)
            steps, elapsed = self._run(seconds)
        finally:
            self._counters[OVER] = 1
            self._expect("idle")
        return steps * self.num_envs / elapsed

    def close(self) -> None:
        """Stop the helper (terminated if it does not exit in time) and close the envs."""
        with contextlib.suppress(OSError):
            self._conn.send("stop")
        self._process.join(HELPER_TIMEOUT_S)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join()
        self._conn.close()
        for env in self.envs:
            env.close()


def _one_core(envs: Sequence[Any], batches: list[Any], seconds: float) -> float:
    """Env steps per second of ``envs`` in a plain loop in this process (after a warm-up)."""
    i = 0
    for length in (seconds / 10, seconds):  # the warm-up, then the timed run
        loops = 0
        start = now = time.perf_counter()
        while now - start < length:
            i += 1
            _step_all(envs, batches[i % len(batches)], 0)
            loops += 1
            now = time.perf_counter()
    return loops * len(envs) / (now - start)


def main() -> None:
    from vecgym.cli.measure import measure_single_env, measure_stepper, usable_cores
    from vecgym.cli.runtimes import BenchTarget, parent_share, vector_stepper
    from vecgym.vector import AsyncVectorEnv

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=["halfcheetah", "pong", "cartpole"])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument(
        "--past-idle-wrappers",
        action="store_true",
        help="step the single env and the references past idle wrappers, as the vector envs do",
    )
    parser.add_argument(
        "--without-infos",
        action="store_true",
        help="also time a vector env whose envs return empty step infos (what the infos cost)",
    )
    args = parser.parse_args()
    direct = args.past_idle_wrappers
    workload = args.workload or "halfcheetah"
    make = _maker(workload)
    cores = usable_cores()
    workers = max(1, cores - 1)
    local = parent_share(args.num_envs, workers)

    single = _PastIdleWrappers(make()) if direct else make()
    single.action_space.seed(0)
    single_actions = [single.action_space.sample() for _ in range(512)]
    envs = AsyncVectorEnv(
        [make] * args.num_envs,
        copy=False,  # as in the other scripts' rows
        num_workers=workers,
        parent_envs=local,
    )
    stepper, actions = vector_stepper(envs, BenchTarget(env_id=workload))
    bare = None
    if args.without_infos:
        bare_envs = AsyncVectorEnv(
            [functools.partial(_infos_dropped, make)] * args.num_envs,
            copy=False,
            num_workers=workers,
            parent_envs=local,
        )
        bare = vector_stepper(bare_envs, BenchTarget(env_id=workload))[0]
    bare_ratios: list[float] = []
    pair = writing = None
    if cores == 2:
        pair = LockstepPair(workload, args.num_envs, local, actions, direct=direct)
        spec = _output_spec(make)
        if spec is not None:
            writing = LockstepPair(
                workload, args.num_envs, local, actions, outputs=spec, direct=direct
            )
    shares: list[float] = []
    kept: list[float] = []
    kept_out: list[float] = []
    try:
        way = "past idle wrappers" if direct else "through env.step (the defined bound)"
        print(f"{workload}, {args.num_envs} envs, {cores} usable cores; the references {way}")
        print(
            "| round | single env | one core, half the envs | lockstep pair (% of bound) "
            "| lockstep pair writing the outputs (% of bound) "
            "| AsyncVectorEnv, parent slice (% of bound) | vecgym / lockstep | vecgym / outputs |"
            + (" infos dropped (% of bound) | infos dropped / vecgym |" if bare else "")
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if bare else ""))
        for r in range(args.rounds):
            rate = measure_single_env(single, single_actions, args.seconds).steps_per_s
            bound = rate * min(cores, args.num_envs)
            vector = measure_stepper(stepper, actions, args.seconds).steps_per_s
            shares.append(vector / bound)
            cells = [f"{rate:,.0f}", "-", "-", "-", f"{vector:,.0f} ({100 * shares[-1]:.1f}%)"]
            cells += ["-", "-"]
            if pair is not None:
                half = _one_core(pair.envs, actions, args.seconds)
                ceiling = pair.measure(args.seconds)
                kept.append(vector / ceiling)
                cells[1] = f"{half:,.0f} ({100 * half / rate:.1f}% of single)"
                cells[2] = f"{ceiling:,.0f} ({100 * ceiling / bound:.1f}%)"
                cells[5] = f"{100 * kept[-1]:.1f}%"
            if writing is not None:
                ceiling = writing.measure(args.seconds)
                kept_out.append(vector / ceiling)
                cells[3] = f"{ceiling:,.0f} ({100 * ceiling / bound:.1f}%)"
                cells[6] = f"{100 * kept_out[-1]:.1f}%"
            if bare is not None:
                dropped = measure_stepper(bare, actions, args.seconds).steps_per_s
                bare_ratios.append(dropped / vector)
                cells.append(f"{dropped:,.0f} ({100 * dropped / bound:.1f}%)")
                cells.append(f"{bare_ratios[-1]:.3f}")
            print(f"| {r} | " + " | ".join(cells) + " |", flush=True)
    finally:
        for reference in (pair, writing):
            if reference is not None:
                reference.close()
        if bare is not None:
            bare.close()
        stepper.close()
        single.close()
    print(
        f"median {100 * statistics.median(shares):.1f}% of the bound "
        f"(range {100 * min(shares):.1f}-{100 * max(shares):.1f}%)"
    )
    if bare_ratios:
        print(
            f"infos dropped / vecgym: median {statistics.median(bare_ratios):.3f} "
            f"(range {min(bare_ratios):.3f}-{max(bare_ratios):.3f})"
        )
    for name, ratios in (("lockstep pair", kept), ("pair writing the outputs", kept_out)):
        if ratios:
            print(
                f"vecgym / {name}: median {100 * statistics.median(ratios):.1f}% "
                f"(range {100 * min(ratios):.1f}-{100 * max(ratios):.1f}%)"
            )


if __name__ == "__main__":
    main()
