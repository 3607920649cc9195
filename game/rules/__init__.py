"""Challenge rules: the verdict on a player's solution, judged by running the engine.

Nothing is compared with a stored answer, so every correct solution passes, also ones
the author never thought of. A verdict says `passed`, a `reason` a student understands,
and the figures behind it. No pygame or pymunk here.

    judge.check(level, solution) → Verdict      the one entry: fitted, then judged by its kind
    balance     forces that hold a free body still                       (balance.py)
    zero_force  members that carry nothing                               (zero_force.py)
    build       a structure within a zone and a budget that carries its
                loads without breaking or sagging too far                (construction.py)
    stability   members or supports that turn a mechanism into a
                structure                                                (construction.py)
    section     a section of the student's choice through a truss, and
                the forces in the members it cuts                        (section.py)
    variants    numbers of their own for every student                   (variants.py)

Each kind describes itself in its module (`KIND`, game/rules/kind.py); the one table of
them is game/rules/kinds.py, which also says how to add one. This package's own module
imports nothing: importing any rule runs it first.
"""
