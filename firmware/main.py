# The device's main.py (deployed to the root of its flash). MicroPython's ESP32 firmware boots
# at 160 MHz; the scan loop needs 240 MHz. A deploy cut short while it was being put in place
# is finished first; holding `back` at power-up skips the application.
import machine
import sys

machine.freq(240000000)
ROM = "/rom"  # where MicroPython mounts the image in a romfs partition (docs/romfs.md)


def _in_image():
    """Whether `agentboard deploy` put the code in the ROMFS image (its version.json says
    "romfs"); OSError when the image at /rom is not the build version.json names: a deploy
    cut short while writing it leaves none that MicroPython mounts."""
    import json
    try:
        with open("version.json") as f:
            want = json.load(f)
    except (OSError, ValueError):
        return False
    if not want.get("romfs"):
        return False
    try:
        with open(ROM + "/version.json") as f:
            have = json.load(f).get("version")
    except (OSError, ValueError):
        have = None
    if have != want.get("version"):
        raise OSError("the ROMFS image is not build %s" % want.get("version"))
    return True


ready = False
try:
    rom = _in_image()
except OSError:
    print("agentboard: the firmware's ROMFS image is missing or not whole (a deploy was cut "
          "short while writing it): application not started; run `agentboard deploy` again")
else:
    if rom:  # the image's code before the flash's folders, which may hold an earlier build's
        sys.path.insert(0, ROM)
    try:
        from firmware import journal
        finished = journal.finish()
        del journal
        # the deploy's journal and the safe-boot check run once: dropped after it, their code
        # holds no heap while the board plays (ondemand imported only now: the journal may
        # have put a new version of it in place)
        from firmware import ondemand
        ondemand.drop("firmware.journal")
        if finished > 0 and _in_image() != rom:
            machine.reset()  # the finished deploy moved the code: start again from it
        ready = True
    except Exception as e:  # noqa: BLE001 - never start half an application
        print("agentboard: an unfinished deploy could not be completed (%r): application not "
              "started; run `agentboard deploy` again" % (e,))

if ready:
    from firmware import ondemand

    if ondemand.call("firmware.safeboot", "requested"):
        print("agentboard: safe boot (back held at power-up): application not started; "
              "the REPL and mpremote are available")
    else:
        from firmware import launch
        launch.main()
