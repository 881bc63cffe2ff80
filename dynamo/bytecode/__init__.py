"""Bytecode, in layers (as the ``bytecode`` library's own): reading, parameters, emitting,
resume functions.

- :mod:`.instructions`: a code object read once (``CodeInfo``: instructions with jump
  targets as indices, loop and ``try`` regions, exception handlers, stack depths);
- :mod:`.signature`: its parameters (``Params``), declared and in frame order;
- :mod:`.emit`: the instruction sequences a graph break is made of (load a variable, call
  the glue, call a resume function, route an island's calls through ``intercept``);
- :mod:`.cells`: which cells a code gets passed in (a resume function's: it keeps them as
  cell variables, so an empty one raises what the original raises);
- :mod:`.resume`: resume functions (the original code with a new prologue that jumps to
  the instruction after a break) and the code that runs at a break.
- :mod:`.branch_chains`: ``and`` chains of conditional jumps (``if a and b: break``),
  read through for the messages of a loop's exit test.

Nothing here imports the translator: it reads and writes code objects only.
"""
