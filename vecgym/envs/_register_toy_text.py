"""Registers the toy-text environments under Gymnasium 1.4's ids.

Imported once by :mod:`vecgym.envs`; entry points (and the numpy-vectorised classes in
:data:`~vecgym.core.registration.NUMPY_VECTORISED`) name vecgym's own modules. Ids, kwargs,
``max_episode_steps`` and ``reward_threshold`` are Gymnasium's.
"""

from __future__ import annotations

from vecgym.core.registration import add_numpy_vectorised, register

_PACKAGE = "vecgym.envs.toy_text"

register(
    id="Blackjack-v1",
    entry_point=f"{_PACKAGE}.blackjack:BlackjackEnv",
    kwargs={"sab": True, "natural": False},
)
register(
    id="FrozenLake-v1",
    entry_point=f"{_PACKAGE}.frozen_lake:FrozenLakeEnv",
    kwargs={"map_name": "4x4"},
    max_episode_steps=100,
    reward_threshold=0.70,
)
register(
    id="FrozenLake8x8-v1",
    entry_point=f"{_PACKAGE}.frozen_lake:FrozenLakeEnv",
    kwargs={"map_name": "8x8"},
    max_episode_steps=200,
    reward_threshold=0.85,
)
register(
    id="CliffWalking-v1",
    entry_point=f"{_PACKAGE}.cliffwalking:CliffWalkingEnv",
)
register(
    id="CliffWalkingSlippery-v1",
    entry_point=f"{_PACKAGE}.cliffwalking:CliffWalkingEnv",
    kwargs={"is_slippery": True},
)
register(
    id="Taxi-v4",
    entry_point=f"{_PACKAGE}.taxi:TaxiEnv",
    reward_threshold=8,
    max_episode_steps=200,
)

# vecgym vectorises these envs too; Gymnasium does not, so they stay out of the specs (make_vec
# builds them with vectorization_mode="vector_entry_point" only).
add_numpy_vectorised(
    _PACKAGE,
    {
        "blackjack": "Blackjack",
        "frozen_lake": "FrozenLake",
        "cliffwalking": "CliffWalking",
        "taxi": "Taxi",
    },
)
