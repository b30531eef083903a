"""The enginetest harness (invariants A-H) over many random games of each hidden-role ruleset.

Each big run is split into chunks of consecutive seeds so that ``pytest -n auto``
spreads them over the cores. Every chunk checks its own ``must_see`` labels and viewer
coverage, so nothing depends on chunks sharing memory or running in any order.

A failure names the chunk (the spec) and the seed; replay that one game with
``et.run_one(spec_for(chunk), seed)`` from the failing module.
"""
