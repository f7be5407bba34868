"""Gymnasium's public path for the seeding helpers of :mod:`vecgym.core.seeding`."""

from vecgym.core.seeding import RNG as RNG
from vecgym.core.seeding import RandomNumberGenerator as RandomNumberGenerator
from vecgym.core.seeding import np_random as np_random

__all__ = ["RNG", "RandomNumberGenerator", "np_random"]
