"""The board in a browser (issue: a live digital twin of the simulated hardware)."""
