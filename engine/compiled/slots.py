"""Compiled code a kernel reaches through a pointer, and scratch arrays on the stack.

numba links every kernel a kernel calls into the caller's own code and optimises the
whole again there, so a large law deep in the force loop is compiled once for itself and
once more for every kernel above it (eval_forces, `advance`, which holds eval_forces, the
energy and the tangents). A Slot compiles such a law once, as a C function, and lets
kernels call it through a cell: a pointer-sized word whose address the process lends
LLVM under the slot's name when the slot is made (on import of the module that makes
it, before any kernel that reads the cell is compiled or loaded from numba's cache). A
compiled kernel keeps the name, not an address, so its cached copy finds the cell in any
process. `ensure()` fills the cell, compiling the C function (or loading it from the
cache) the first time; a kernel asks `ready()` before calling, and its caller sees to it
that the slot is filled before any kernel has work for it.

`stack_array` and `pointer_array` make float64 arrays without numba's runtime (which the
force kernels run without, engine/compiled/options.py): on the caller's stack, or over the
memory a C function is given a pointer to (numba's own `carray` needs the runtime).
"""

from __future__ import annotations

import ctypes
import threading

from llvmlite import binding as llvm
from llvmlite import ir
from numba import cfunc, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

POINTER = types.CPointer(types.float64)


def _array_at(context, builder, data, r: int, c: int):
    """A (r, c) float64 C-ordered array over the memory at data, owned by no one."""
    ary = context.make_array(types.Array(types.float64, 2, "C"))(context, builder)
    intp = context.get_value_type(types.intp)
    populate_array(
        ary,
        data=data,
        shape=cgutils.pack_array(builder, [intp(r), intp(c)]),
        strides=cgutils.pack_array(builder, [intp(8 * c), intp(8)]),
        itemsize=context.get_constant(types.intp, 8),
        meminfo=None,
    )
    return ary._getvalue()


def _literals(*sizes) -> bool:
    return all(isinstance(n, types.IntegerLiteral) for n in sizes)


@intrinsic
def stack_array(typingctx, rows, cols):
    """A (rows, cols) float64 C-ordered array on the caller's stack (rows, cols: integer
    literals). Its contents start undefined; it lives as long as the function that
    asked for it (one slot per call site, in that function's entry block)."""
    if not _literals(rows, cols):
        return None
    r, c = rows.literal_value, cols.literal_value

    def codegen(context, builder, sig, args):
        data = cgutils.alloca_once(builder, context.get_value_type(types.float64), size=r * c)
        return _array_at(context, builder, data, r, c)

    return types.Array(types.float64, 2, "C")(rows, cols), codegen


@intrinsic
def pointer_array(typingctx, pointer, rows, cols):
    """The (rows, cols) float64 C-ordered array at a float64 pointer (rows, cols:
    integer literals)."""
    if not (_literals(rows, cols) and pointer == POINTER):
        return None
    r, c = rows.literal_value, cols.literal_value

    def codegen(context, builder, sig, args):
        return _array_at(context, builder, args[0], r, c)

    return types.Array(types.float64, 2, "C")(pointer, rows, cols), codegen


class Slot:
    """A C function (`entry` compiled to `signature`, which returns int64 and whose
    float64 pointers a kernel passes as C-ordered float64 arrays) behind a named cell."""

    def __init__(self, symbol: str, signature, entry) -> None:
        self.symbol = symbol
        self.signature = signature
        self.entry = entry
        self._cell = ctypes.c_void_p(0)
        self._compiled = None  # kept alive while its address is lent
        self._filling = threading.Lock()  # the game's warm-up thread and its window may both ask
        llvm.add_symbol(symbol, ctypes.addressof(self._cell))
        self.ready = self._ready_intrinsic()
        self.call = self._call_intrinsic()

    def ensure(self) -> None:
        """Fill the cell (seconds on a first start, then a load from numba's cache)."""
        with self._filling:
            if not self._cell.value:
                self._compiled = cfunc(self.signature, cache=True, error_model="numpy", _nrt=False)(self.entry)
                self._cell.value = self._compiled.address

    @property
    def filled(self) -> bool:
        return bool(self._cell.value)

    def _declared(self, builder):
        """The cell's declaration in the module being built (an external i8*)."""
        cell = builder.module.globals.get(self.symbol)
        if cell is None:
            cell = ir.GlobalVariable(builder.module, ir.IntType(8).as_pointer(), self.symbol)
            cell.linkage = "external"
        return cell

    def _ready_intrinsic(self):
        slot = self

        @intrinsic
        def ready(typingctx):
            """True once the cell holds the compiled function."""

            def codegen(context, builder, sig, args):
                cell = slot._declared(builder)
                return builder.icmp_unsigned("!=", builder.load(cell), ir.Constant(cell.type.pointee, None))

            return types.boolean(), codegen

        return ready

    def _call_intrinsic(self):
        slot = self
        wanted = slot.signature.args
        scalars_wanted = [t for t in wanted if t != POINTER]
        arrays_wanted = len(wanted) - len(scalars_wanted)
        if wanted[: len(scalars_wanted)] != tuple(scalars_wanted):
            raise ValueError("a slot's signature takes its scalars first, then its pointers")

        @intrinsic
        def call(typingctx, scalars, arrays):
            """The C function, called through the cell with a tuple of its scalars (each
            cast to its argument type) and a tuple of C-ordered float64 arrays, whose
            data it is passed."""
            if not (isinstance(scalars, types.BaseTuple) and isinstance(arrays, types.BaseTuple)):
                return None
            if len(scalars) != len(scalars_wanted) or len(arrays) != arrays_wanted:
                return None
            if not all(isinstance(t, types.Number | types.Boolean) for t in scalars):
                return None
            if not all(isinstance(a, types.Array) and a.dtype == types.float64 and a.layout == "C" for a in arrays):
                return None
            sig = slot.signature.return_type(scalars, arrays)

            def codegen(context, builder, sig, values):
                scalar_t, array_t = sig.args
                passed = []
                for k, want in enumerate(scalars_wanted):
                    passed.append(context.cast(builder, builder.extract_value(values[0], k), scalar_t[k], want))
                for k in range(arrays_wanted):
                    passed.append(context.make_array(array_t[k])(context, builder, builder.extract_value(values[1], k)).data)
                fnty = ir.FunctionType(context.get_value_type(slot.signature.return_type), [context.get_value_type(t) for t in wanted])
                entry = builder.load(slot._declared(builder))
                return builder.call(builder.bitcast(entry, fnty.as_pointer()), passed)

            return sig, codegen

        return call
