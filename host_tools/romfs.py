"""The compiled firmware as one ROMFS image, for a board whose MicroPython has ROMFS
(docs/romfs.md): what goes in the image, the image itself (built by mpremote's own writer,
as `mpremote romfs build` builds it), and the code the board runs to report and write its
romfs partition the way `mpremote romfs deploy` writes an ESP32's (the partition object that
`vfs.rom_ioctl(2, 0)` answers: ioctl 4/5 for its size, ioctl 6 to erase a 4 KB block,
writeblocks with an offset to program). Nothing here talks to a board: host_tools/deploy.py
runs these pieces at its raw REPL.

Interruption: the image's first bytes (ROMFS's magic, D2 CD 31) are programmed last. Until
then MicroPython's VfsRom refuses the partition (ENODEV) and nothing is mounted at /rom; the
old image's magic is cleared (bits programmed to 0, no erase needed) before any of its sectors
is erased, so a cut never leaves a mountable half image of either build."""
import hashlib
import json

HEADER = b"\xd2\xcd\x31"  # extmod/vfs_rom.c: ROMFS_HEADER_BYTE0..2 ('R' | 0x80, 'M' | 0x80, '1')
# the folders whose files go in the image: code and the rules' data, read in place from flash;
# main.py, version.json and config/ stay in the file system (the board writes config/)
IN_IMAGE = ("firmware", "shared_rules")
VERSION = "version.json"  # in the image too: main.py checks the image is the build it names
BLOCK_ERASE = 6  # extmod/vfs.h, MP_BLOCKDEV_IOCTL_BLOCK_ERASE

# Runs on the board (inside deploy's PROBE): the romfs partition as
# {"size": bytes, "block": bytes, "image": sha256 of the whole image in it, or None} ; {"size": 0}
# for a ROMFS build without the partition; None for a MicroPython without ROMFS.
PROBE = """
def _rom_dev():
    try:
        import vfs
    except ImportError:
        return None
    if not hasattr(vfs, 'rom_ioctl'):
        return None
    if vfs.rom_ioctl(1) < 1:
        return 0
    d = vfs.rom_ioctl(2, 0)
    return d if hasattr(d, 'ioctl') else 0
def _rom_len(mv):
    if bytes(mv[:3]) != %r:
        return 0
    n = 0
    i = 3
    while i < 12:
        v = mv[i]
        n = (n << 7) | (v & 0x7f)
        i += 1
        if not v & 0x80:
            break
    return i + n if i + n <= len(mv) else 0
def _rom_hash(d, start, n):
    mv = memoryview(d)
    h = hashlib.sha256()
    for a in range(start, n, 4096):
        h.update(mv[a:min(n, a + 4096)])
    return binascii.hexlify(h.digest()).decode()
def _romfs():
    d = _rom_dev()
    if d is None:
        return None
    if d == 0:
        return {'size': 0}
    bs = d.ioctl(5, 0)
    n = _rom_len(memoryview(d))
    return {'size': d.ioctl(4, 0) * bs, 'block': bs,
            'image': _rom_hash(d, 0, n) if n else None}
""" % HEADER

# Runs on the board before writing: /rom let go of (as mpremote does), the old image's magic
# cleared so that it no longer mounts, then the blocks the new one needs erased.
PREPARE = """
import vfs, hashlib, binascii
try:
    vfs.umount('/rom')
except OSError:
    pass
_dev = vfs.rom_ioctl(2, 0)
_dev.writeblocks(0, bytes(%d), 0)
for _b in range(%d):
    _dev.ioctl(%d, _b)
"""


def image_files(files):
    """{path: bytes} of a build that go in the image: the code, the rules' data, version.json."""
    return dict((p, b) for p, b in files.items()
                if p.split("/")[0] in IN_IMAGE or p == VERSION)


def fs_files(files):
    """{path: bytes} of a build that stay in the file system beside the image: main.py,
    config/, and version.json saying that the code is in the image."""
    out = dict((p, b) for p, b in files.items() if p.split("/")[0] not in IN_IMAGE)
    stamp = json.loads(files[VERSION])
    stamp["romfs"] = True
    out[VERSION] = json.dumps(stamp, sort_keys=True).encode()
    return out


def make_image(files):
    """The ROMFS image of {path: bytes} (image_files()), with mpremote's VfsRomWriter: the
    same records `mpremote romfs build` writes for a folder of those files."""
    from mpremote.romfs import VfsRomWriter
    writer = VfsRomWriter()
    _add(writer, _tree(files))
    return writer.finalise()


def _tree(files):
    tree = {}
    for path, data in files.items():
        node = tree
        parts = path.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = data
    return tree


def _add(writer, tree):
    for name in sorted(tree):  # sorted, as mpremote lists a folder: the same image each time
        if isinstance(tree[name], dict):
            writer.opendir(name)
            _add(writer, tree[name])
            writer.closedir()
        else:
            writer.mkfile(name, tree[name])


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def prepare_code(image, block):
    return PREPARE % (len(HEADER), blocks(image, block), BLOCK_ERASE)


def blocks(image, block):
    return (len(image) + block - 1) // block


def write_code(image, block, k):
    """The board's code that programs block k of the image (without the magic, for block 0)."""
    import binascii
    off = len(HEADER) if k == 0 else 0
    data = image[k * block + off:(k + 1) * block]
    return "_dev.writeblocks(%d, binascii.a2b_base64(%r), %d)\n" % (
        k, binascii.b2a_base64(data, newline=False), off)


def head_code(image):
    return "_dev.writeblocks(0, %r, 0)\n" % image[:len(HEADER)]


def hash_code(start, n):
    """The board's code printing the sha256 of its partition's bytes start..n."""
    return "print(_rom_hash(_dev, %d, %d))\n" % (start, n)
