"""Registers the toy-text environments under Gymnasium 1.4's ids.

Imported once by :mod:`vecgym.envs`; entry points (and the numpy-vectorised
``vector_entry_point`` classes) name vecgym's own modules. Ids, kwargs,
``max_episode_steps`` and ``reward_threshold`` are Gymnasium's.
"""

from __future__ import annotations

from vecgym.core.registration import register

_PACKAGE = "vecgym.envs.toy_text"

register(
    id="Blackjack-v1",
    entry_point=f"{_PACKAGE}.blackjack:BlackjackEnv",
    vector_entry_point=f"{_PACKAGE}.blackjack:BlackjackVectorEnv",
    kwargs={"sab": True, "natural": False},
)
register(
    id="FrozenLake-v1",
    entry_point=f"{_PACKAGE}.frozen_lake:FrozenLakeEnv",
    vector_entry_point=f"{_PACKAGE}.frozen_lake:FrozenLakeVectorEnv",
    kwargs={"map_name": "4x4"},
    max_episode_steps=100,
    reward_threshold=0.70,
)
register(
    id="FrozenLake8x8-v1",
    entry_point=f"{_PACKAGE}.frozen_lake:FrozenLakeEnv",
    vector_entry_point=f"{_PACKAGE}.frozen_lake:FrozenLakeVectorEnv",
    kwargs={"map_name": "8x8"},
    max_episode_steps=200,
    reward_threshold=0.85,
)
register(
    id="CliffWalking-v1",
    entry_point=f"{_PACKAGE}.cliffwalking:CliffWalkingEnv",
    vector_entry_point=f"{_PACKAGE}.cliffwalking:CliffWalkingVectorEnv",
)
register(
    id="CliffWalkingSlippery-v1",
    entry_point=f"{_PACKAGE}.cliffwalking:CliffWalkingEnv",
    vector_entry_point=f"{_PACKAGE}.cliffwalking:CliffWalkingVectorEnv",
    kwargs={"is_slippery": True},
)
register(
    id="Taxi-v4",
    entry_point=f"{_PACKAGE}.taxi:TaxiEnv",
    vector_entry_point=f"{_PACKAGE}.taxi:TaxiVectorEnv",
    reward_threshold=8,
    max_episode_steps=200,
)
