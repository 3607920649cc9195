"""The compiled helpers every kernel module uses: numba's options and cache folder
(options, cache) and slots for laws compiled once (slots). The engine's lowest room."""
