# Safe boot: holding `back` while the board powers up skips the application, so a device whose
# application misbehaves stays reachable by mpremote and the REPL. Reads only the pin map.
import json
import time

import machine


def requested(config_dir="config", samples=5, every_ms=10):
    """True when the back button is held down through `samples` reads at power-up."""
    try:
        with open(config_dir + "/pins.json") as f:
            gpio = json.load(f)["buttons"]["back"]
    except (OSError, ValueError, KeyError):
        return False  # no usable pin map: nothing to hold, boot normally
    pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
    for _ in range(samples):
        if pin.value() != 0:
            return False
        time.sleep_ms(every_ms)
    return True
