"""``prefetch(array, index)`` inside compiled code: ask the processor to start loading
``array[index]`` into its caches, without waiting for it (imports numba).

The solver's table is far larger than the caches, so a table probe waits for memory; a
parent that prefetches its children's entries while it orders them has those loads under
way before the children probe.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from llvmlite.binding import llvm_version_info  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

READ = 0
HIGH_LOCALITY = 3
DATA_CACHE = 1
OPAQUE_POINTERS_LLVM = 15


@intrinsic
def _prefetch(typing_context: Any, array: Any, index: Any) -> Any:
    signature = types.void(array, index)

    def generate(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
        array_type = signature.args[0]
        structure = context.make_array(array_type)(context, builder, arguments[0])
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, structure, [arguments[1]], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        # LLVM names the intrinsic after its pointer type ("p0" for opaque pointers) and
        # renames a declaration to match when it reads the module
        suffix = "p0" if llvm_version_info[0] >= OPAQUE_POINTERS_LLVM else "p0i8"
        word = ir.IntType(32)
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, word, word, word]), f"llvm.prefetch.{suffix}"
        )
        builder.call(
            function,
            [builder.bitcast(pointer, byte_pointer), word(READ), word(HIGH_LOCALITY), word(DATA_CACHE)],
        )
        return context.get_dummy_value()

    return signature, generate


prefetch: Any = _prefetch
