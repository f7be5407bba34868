"""The machinery behind :class:`~vecgym.vector.AsyncVectorEnv` (private; the façade is
:mod:`vecgym.vector.async_vector_env`).

Modules, lowest first (a module imports only those above it, never the façade):

* :mod:`.protocol` -- the shared block, command / done words, the pickled messages;
* :mod:`.placement` -- usable cores, start method, env slices, pinning, BLAS / OpenMP thread caps;
* :mod:`.worker` -- the worker process body and its command handlers;
* :mod:`.local` -- the envs the parent steps itself (``parent_envs``), driven by those handlers;
* :mod:`.options` -- validation of the constructor's arguments;
* :mod:`.exits` -- how a worker ended, the errors a dead worker or a remote exception become;
* :mod:`.batch` -- writing and checking actions, copying and selecting batches, merging replies;
* :mod:`.pool` -- the processes, pipes, semaphores and views: spawn, attach, post, wait, stop;
* :mod:`.supervisor` -- collecting replies, restart seeds, the one path that replaces a worker;
* :mod:`.scheduler` -- the EnvPool-style ``send`` / ``recv`` state of each env;
* :mod:`.usual` -- the usual ``step`` on a short path, handing anything else to the general one.
"""
