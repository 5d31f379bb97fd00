"""Hypothesis strategies of valid values for any encoding (needs the
``hypothesis`` extra): the public name of the strategies pass,
:mod:`data_encoding.passes.strategies`.

>>> from data_encoding import uint8
>>> from data_encoding.strategies import from_encoding
>>> from_encoding(uint8)
integers(min_value=0, max_value=255)
"""

from .passes.strategies import from_encoding

__all__ = ["from_encoding"]
