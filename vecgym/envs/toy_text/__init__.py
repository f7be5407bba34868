"""The toy-text environments: small tabular worlds with discrete states and actions.

FrozenLake, Taxi, CliffWalking and Blackjack behave exactly as Gymnasium 1.4's, seed for seed; their
frames are drawn with numpy.
"""

from __future__ import annotations

from vecgym.envs.toy_text.blackjack import BlackjackEnv as BlackjackEnv
from vecgym.envs.toy_text.cliffwalking import CliffWalkingEnv as CliffWalkingEnv
from vecgym.envs.toy_text.frozen_lake import FrozenLakeEnv as FrozenLakeEnv
from vecgym.envs.toy_text.taxi import TaxiEnv as TaxiEnv

__all__ = ["BlackjackEnv", "CliffWalkingEnv", "FrozenLakeEnv", "TaxiEnv"]
