"""The catalogue's ids, as the tests that run over every id take them.

A test that is a function of an id's *encoding* alone (its strategies,
hostile inputs, properties) runs once per encoding: several ids name one
encoding (a protocol's ``tez`` is its predecessor's very object, ``rpc.error``
and ``rpc.errors`` are one encoding), and what holds of an encoding holds
under each of its names. A test of an id's samples runs per id.
"""

from __future__ import annotations

from data_encoding.node import registry

IDS = registry.ids()
"""Every registered id, sorted."""

ENCODING_IDS = [id for id in IDS if registry.id_of(registry.find(id).encoding) == id]
"""One id per distinct encoding: the first registered of its ids."""
