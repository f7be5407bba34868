"""Gymnasium's public path for :class:`~vecgym.core.ezpickle.EzPickle`."""

from vecgym.core.ezpickle import EzPickle as EzPickle

__all__ = ["EzPickle"]
