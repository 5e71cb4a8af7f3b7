# The device's main.py (deployed to the root of its flash). MicroPython's ESP32 firmware boots
# at 160 MHz; the scan loop needs 240 MHz. Holding `back` at power-up skips the application.
import machine

machine.freq(240000000)

from firmware import safeboot  # noqa: E402

if safeboot.requested():
    print("agentboard: safe boot (back held at power-up): application not started; "
          "the REPL and mpremote are available")
else:
    from firmware import app  # noqa: E402
    app.main()
