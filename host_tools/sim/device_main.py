# The simulated device: `micropython device_main.py ROOT CONFIG_DIR SEED [CARDS]` in the folder
# that is the device's flash (CARDS: the deck's card table in shared_rules/data, default Agent
# DOG's). Puts the hardware stand-ins in front of the firmware, then boots the way
# the device's main.py does (240 MHz, safe boot, the application) with the console routed
# through the control channel.
import sys

ROOT = sys.argv[1]
CONFIG = sys.argv[2]
SEED = int(sys.argv[3])
CARDS = sys.argv[4] if len(sys.argv) > 4 else None
sys.path.insert(0, ROOT + "/host_tools/sim/device")
sys.path.insert(1, ROOT)

from host_tools.sim import worlds  # noqa: E402
from host_tools.sim.control import Control  # noqa: E402

world = worlds.make(CONFIG, SEED, CARDS)
ctl = Control(world)
world.on_brownout = ctl.brownout  # the ESP32's brown-out reset: the host boots it again
world.advance_us(0)  # take requests (a power-on restores the world first) before booting

import machine  # noqa: E402

machine.freq(240000000)
from firmware import safeboot  # noqa: E402

if safeboot.requested(CONFIG):
    ctl.write('{"event": "safe_boot"}')
    while True:
        world.advance_us(1000000)
from firmware import launch  # noqa: E402

launch.main(CONFIG, ".", write=ctl.write, inp=ctl, write_parts=ctl.write_parts)
