"""A virtual device: the MicroPython unix port behind a loopback socket (see device.py)."""
