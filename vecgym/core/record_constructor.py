"""`RecordConstructorArgs`: a mixin that remembers the keyword arguments a class was built with.

:attr:`vecgym.Wrapper.spec` reads the remembered arguments to describe a wrapper in an
:class:`~vecgym.envs.registration.WrapperSpec`, so that ``make`` can rebuild the same wrapper stack.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["RecordConstructorArgs"]


class RecordConstructorArgs:
    """Mixin that stores the constructor's keyword arguments in ``_saved_kwargs``.

    Only the first call to ``RecordConstructorArgs.__init__`` on an object counts: later calls (for
    example from a parent class that also records its arguments) leave ``_saved_kwargs`` as it is.
    Call it first in ``__init__`` so the most derived class's arguments are the ones kept.

    Example:
        >>> class Scale(RecordConstructorArgs):
        ...     def __init__(self, factor: float = 2.0):
        ...         RecordConstructorArgs.__init__(self, factor=factor)
        ...         self.factor = factor
        >>> Scale(3.0)._saved_kwargs
        {'factor': 3.0}
    """

    _saved_kwargs: dict[str, Any]

    def __init__(self, *, _disable_deepcopy: bool = False, **kwargs: Any) -> None:
        """Remember ``kwargs`` unless this object already remembers some.

        Args:
            _disable_deepcopy: keep the given objects themselves instead of deep copies of them
                (for arguments that cannot or should not be copied).
            **kwargs: the constructor arguments to remember.
        """
        if hasattr(self, "_saved_kwargs"):
            return
        self._saved_kwargs = kwargs if _disable_deepcopy else copy.deepcopy(kwargs)
