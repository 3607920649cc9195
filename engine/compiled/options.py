"""The numba options every engine kernel is compiled with (one place, so that each
element module and the integrators share them). Importing it places numba's cache
(engine/compiled/cache.py) before any kernel is defined: every kernel module imports it."""

from equilibria.engine.compiled import cache as kernel_cache  # noqa: F401  (first: before any kernel is defined)

# Options of every kernel of the engine. `_nrt=False` compiles a kernel without
# numba's runtime (NRT), whose only work in a kernel that never allocates is reference
# counting: each call atomically increments, then decrements, the count of every array
# it is passed, the 36 of ModelArrays included, some 1,000 updates per RK4 step. Without
# it an RK4 step of the benchmark truss takes 9 % less time at 2,000 bars, 29 % less at
# 400 and 71 % less at 40. Kernels only borrow arrays that their Python caller holds for
# the whole call, so nothing needs counting, and a kernel that allocates fails to compile
# with this option. (`_nrt` is numba's private switch; its developers give it as the
# workaround for this cost in numba issue #2345.)
KERNEL = {"cache": True, "error_model": "numpy", "_nrt": False}
# What a first start spends compiling (`python -m benchmarks.startup`), and two options
# that cut it by a third without changing the machine code's speed:
# - A kernel only other kernels call needs no Python entry point (INNER). numba makes one
#   for every function by default, and for one that takes the model (ModelArrays: 36
#   arrays) or the state, it is large code that LLVM spends seconds on.
# - A kernel called from one place is inlined there (inline="always"). numba otherwise
#   compiles it as a library of its own, optimises it and generates its machine code,
#   then links it into its caller and optimises and generates it all over again there:
#   _rk4_step, with eval_forces inside it, was compiled twice over on the RK4 path.
INNER = {**KERNEL, "no_cpython_wrapper": True}
# Kernels outside the stepping loop that need scratch arrays (tangents, relaxation):
# numba's runtime stays on so that they may allocate.
ALLOCATING = {"cache": True, "error_model": "numpy"}
