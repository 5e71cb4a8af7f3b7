# The virtual device (host_tools/virtual/device.py) when it cannot start: whatever it made for
# itself (its flash folder, its copy of the simulator) is removed, and the reason is the
# socket's own.
import os
import socket

import pytest

from host_tools.virtual.device import VirtualDevice


def test_a_port_in_use_is_refused_and_nothing_it_made_stays(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        with pytest.raises(OSError) as e:
            VirtualDevice(port=taken.getsockname()[1])
    finally:
        taken.close()
    assert e.value.errno is not None  # the bind's own error (address in use)
    assert os.listdir(str(tmp_path)) == []
