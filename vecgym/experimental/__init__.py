"""Experimental APIs (Gymnasium's ``gymnasium.experimental``): the functional environment base."""

from vecgym.experimental.functional import FuncEnv as FuncEnv

__all__ = ["FuncEnv"]
