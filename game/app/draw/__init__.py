"""Drawing on a pygame surface: the typeface, the palette, primitives, support symbols,
labels, the structure (render, beamdraw, contacts, cuts) and a frame saved as an image
(shots). Reads state, never writes it."""
