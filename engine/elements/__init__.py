"""The element kinds, one module each (bar, beam with beam_chain and beam_stability, cst,
neo_hookean), and their compiled home (kernels: the State, the force assembly, the
break check). Imports only engine/compiled/."""
