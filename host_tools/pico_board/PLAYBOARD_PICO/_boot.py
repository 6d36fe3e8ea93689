# Mount littlefs where the stock RPI_PICO image has it (flash 0xA0000, 1408 KB): past
# the journal on this board (its storage region starts JOURNAL_BYTES lower), the whole
# region on a board whose region is the stock one; format it only if it holds none.
import vfs
import rp2
from flashmap import FS_BYTES

bdev = rp2.Flash()
n = bdev.ioctl(4, 0) * 4096
if n > FS_BYTES:
    bdev = rp2.Flash(start=n - FS_BYTES)
try:
    fs = vfs.VfsLfs2(bdev, progsize=256)
except:  # noqa: E722 (as the port's own _boot.py: any failure to mount)
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    fs = vfs.VfsLfs2(bdev, progsize=256)
vfs.mount(fs, "/")

del vfs, rp2, bdev, fs, n, FS_BYTES
