"""Gymnasium's public path for :class:`~vecgym.core.record_constructor.RecordConstructorArgs`."""

from vecgym.core.record_constructor import RecordConstructorArgs as RecordConstructorArgs

__all__ = ["RecordConstructorArgs"]
