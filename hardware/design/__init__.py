"""The board as a checked design: the circuit generated from hardware/'s data (SKiDL), its
electrical rules check, the GPIO restriction check, the BOM, the connector lists and the power
budget. `python -m hardware.design --help`."""
