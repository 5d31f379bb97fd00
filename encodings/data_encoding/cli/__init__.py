"""The ``data-encoding`` command: the node's catalogue from a shell.

``data-encoding list``, ``describe``, ``encode``, ``decode``, ``slice``,
``inspect``, ``sample``, ``describe-rpc`` and ``dump`` (``data-encoding
--help`` lists them, and ``data-encoding <command> --help`` shows each with
an example). ``encode``, ``decode`` and ``describe-rpc`` also read a
node's ``/describe`` answer (``--describe FILE``: :mod:`.answers`). The same
entry point runs as ``python -m data_encoding``.

Exit status: 0 when the command did what it was asked, 1 when the data was
bad (a value that does not encode, bytes that do not decode, input that is
not text, a batch with a failed line), 2 when the command line was (an
unknown id, option or file; with ``--describe``, what makes no codec), 3
when the output could not be written, 130 when interrupted
(:mod:`~data_encoding.cli.output` names them). Errors go to stderr as
``error: <message>``; nothing but results goes to stdout. Input is read
(:mod:`~data_encoding.cli.inputs`) and output written as bytes, the same
whatever the locale.
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
