"""The binary codec: an encoding's reader, writer and sizer, its compiled
``encode`` and ``decode``, JSON straight from the bytes and back, and the
lenient variant (``canonical=False``).

What ``Encoding``'s methods reach (the façade, ``tree/core.py``) is
exported here; the modules, lowest first:

* :mod:`.ops`: the op IR a compiled reader or writer is lowered to;
  :mod:`.render`: rendering it to Python;
* :mod:`.rules`: what the codec knows beyond that (``same_binary``,
  ``fixed_atom``, ``many``, the frame, list and union checks and their
  errors); :mod:`.jsonmode`: which nodes read or write their JSON form as
  they go; :mod:`.marking`: where a marker of a lenient reading may stand;
* :mod:`.inline`: what each node lowers to when inlined (``inline_ops``);
  :mod:`.parts`: records and tuples lowered; :mod:`.jsonlowering`: the
  lowering in JSON mode; :mod:`.lowering`: the lowering's state and its
  entry (``Lowering``, ``lowered``); :mod:`.joining`: what follows a
  choice, copied into its branches (one rewrite of the lowered block);
* :mod:`.compiled`: the compiled readers, writers and entry points;
* :mod:`.codec`: each node's reader, writer and sizer (compiled, or
  closures); :mod:`.lenient`: the lenient variant's;
* :mod:`.slicing`: where each part of a value's bytes lies
  (``data-encoding slice``).
"""

from .codec import build_reader, build_sizer, build_writer
from .compiled import build_decoder, build_encoder, compile_json_decoder, compile_json_encoder
from .lenient import (
    build_lenient_decoder,
    build_lenient_reader,
    build_marked_encoder,
    build_marked_writer,
    build_whole_reader,
    marker_first,
)

__all__ = [
    "build_decoder",
    "build_encoder",
    "build_lenient_decoder",
    "build_lenient_reader",
    "build_marked_encoder",
    "build_marked_writer",
    "build_reader",
    "build_sizer",
    "build_whole_reader",
    "build_writer",
    "compile_json_decoder",
    "compile_json_encoder",
    "marker_first",
]
