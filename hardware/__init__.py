"""The reference hardware as data (pins.json, sensors.json, leds.json), installed with the
tools so that deploy and the simulator find the maps wherever the project is installed."""
