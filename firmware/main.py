# The device's main.py (deployed to the root of its flash). MicroPython's ESP32 firmware boots
# at 160 MHz; the scan loop needs 240 MHz. A deploy cut short while it was being put in place
# is finished first; holding `back` at power-up skips the application.
import machine

machine.freq(240000000)

try:
    from firmware import journal
    journal.finish()
    ready = True
except Exception as e:  # noqa: BLE001 - never start half an application
    print("agentboard: an unfinished deploy could not be completed (%r): application not "
          "started; run `agentboard deploy` again" % (e,))
    ready = False

if ready:
    from firmware import safeboot

    if safeboot.requested():
        print("agentboard: safe boot (back held at power-up): application not started; "
              "the REPL and mpremote are available")
    else:
        from firmware import launch
        launch.main()
