"""What is wrong with a --port, said once for every command (flash, deploy, the console tools).

`problem(port)` looks at the name before anything opens it: an empty name, a socket:// address
without host or port number, a path that does not exist, a folder or a plain file. After a
tool failed to open a port, `open_problem(port)` opens it once more to learn why (esptool and
mpremote keep the reason to themselves) and says it for a person: busy, no permission, not a
serial port, nothing listening. `on_usb(bridges)` lists the serial ports whose USB bridge is
one of an ESP32 board's."""
import errno
import os
import stat

MAX_TCP_PORT = 65535
VIRTUAL_HINT = "socket://127.0.0.1:PORT, the address `agentboard virtual` prints"


def problem(port):
    """A sentence saying why `port` cannot be a board's port, or None if it may be one."""
    if not port:
        return "--port is empty: name the board's serial port, or leave --port out to find it"
    if "://" in port:
        scheme, rest = port.split("://", 1)
        if scheme != "socket":
            return None  # pyserial's other URL handlers (rfc2217://, loop://) judge their own
        host, _, number = rest.split("?", 1)[0].rstrip("/").rpartition(":")
        if not host or not number.isdigit() or not 1 <= int(number) <= MAX_TCP_PORT:
            return "%s is not a socket address: write %s" % (port, VIRTUAL_HINT)
        return None
    try:
        mode = os.stat(port).st_mode
    except FileNotFoundError:
        return "no board at %s: is it plugged in? (leave --port out to find it)" % port
    except OSError as e:
        return "cannot look at %s: %s" % (port, e.strerror)
    if stat.S_ISDIR(mode):
        return "%s is a folder, not a serial port: name the board's port, e.g. /dev/ttyUSB0" % port
    if not stat.S_ISCHR(mode):
        return "%s is not a serial port: name the board's port, e.g. /dev/ttyUSB0" % port
    return None


def open_problem(port):
    """Why opening `port` fails, as a sentence; None if it opens now."""
    reason = problem(port)
    if reason:
        return reason
    import serial
    try:
        ser = serial.serial_for_url(port, 115200, timeout=0.2, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        return explain(port, e)
    ser.close()
    return None


def explain(port, e):
    """The exception e from opening port, as a sentence for a person."""
    code = getattr(e, "errno", None)
    text = str(e)
    low = text.lower()
    if code in (errno.EBUSY, errno.EAGAIN) or "busy" in low or "lock" in low:
        return ("port %s is busy: close the program using it (a serial monitor, mpremote, "
                "`agentboard monitor`)" % port)
    if code == errno.EACCES or "permission denied" in low:
        return ("no permission to open %s: add yourself to the group that owns it (on most "
                "Linux systems `sudo usermod -aG dialout $USER`, then log in again)" % port)
    if code == errno.ENOTTY or "inappropriate ioctl" in low:
        return "%s is not a serial port: name the board's port, e.g. /dev/ttyUSB0" % port
    if code == errno.ENOENT or "no such file" in low:
        return "no board at %s: is it plugged in? (leave --port out to find it)" % port
    if "refused" in low:
        return ("nothing answers at %s: is the virtual device running? (`agentboard virtual` "
                "starts one)" % port)
    if "name or service" in low or "not known" in low:
        return "cannot find the host of %s: check the address" % port
    # pyserial repeats the port and the errno: keep its last, plainest part
    return "cannot open %s: %s" % (port, text.rsplit("] ", 1)[-1])


def on_usb(bridges, comports=None):
    """[(port, bridge name)] of the serial ports (pyserial's list_ports.comports(), or the
    ones given) behind one of `bridges` ((vendor id, product id) -> name), by device name."""
    if comports is None:
        from serial.tools import list_ports
        comports = list_ports.comports()
    found = [(p, bridges[(p.vid, p.pid)]) for p in comports if (p.vid, p.pid) in bridges]
    return sorted(found, key=lambda f: f[0].device)
