"""The machinery of :class:`~vecgym.vector.RayVectorEnv` (the façade in ``ray_vector_env.py``).

``options`` checks the constructor's arguments, ``messages`` holds the error texts and time
limits, ``cluster`` starts Ray and describes a host actor's slice, ``host`` is the actor that runs
on a node, ``rollout`` records a rollout inside it, ``observations`` holds the latest
observations of any space (array batches, or one value per env), ``actions`` carries actions of
any space to the hosts (array batches, or one action per env), ``batches`` merges the hosts' rows
into the driver's batches and rollouts, and ``base`` waits for the hosts, maps their failures
onto vecgym's errors and restarts them. What the Ray backend shares with AsyncVectorEnv
(remote errors, ``env_ids`` checks, env slices, batch trees, restart seeds, argument predicates)
comes from :mod:`vecgym.vector._async` and :mod:`vecgym.vector._arguments`. Nothing here imports
the façade.
"""
