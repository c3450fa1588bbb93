"""Through the Rift: hex-grid dieselpunk combat (seed 003). Being built; see docs/RULES.md."""
