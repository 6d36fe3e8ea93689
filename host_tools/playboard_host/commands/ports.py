"""`playboard ports`: the serial ports of this computer, boards first (pyserial's list)."""
import json

from playboard_host.serial_link import DEFAULT_VID_PID, parse_vid_pid

HELP = "list this computer's serial ports (COM3, /dev/ttyACM0, /dev/cu.usbmodem...), Playboard boards marked"


def add_arguments(p):
    p.add_argument("--all", action="store_true", help="also ports without a USB id (built-in serial ports)")
    p.add_argument("--json", action="store_true", help="one JSON object per port")


def ports(vid_pid=DEFAULT_VID_PID, include_all=False, comports=None):
    """[{"port", "board" (bool: the Playboard's USB id), "usb" ("vvvv:pppp" or None),
    "description", "serial"}], boards first, then by name. ``comports``: a function giving
    pyserial ListPortInfo objects (default ``serial.tools.list_ports.comports``)."""
    if comports is None:
        from serial.tools.list_ports import comports
    vid, pid = parse_vid_pid(vid_pid)
    out = []
    for p in comports():
        usb = "%04x:%04x" % (p.vid, p.pid) if p.vid is not None and p.pid is not None else None
        if usb is None and not include_all:
            continue
        out.append({"port": p.device, "board": (p.vid, p.pid) == (vid, pid), "usb": usb,
                    "description": p.description if p.description and p.description != "n/a" else "",
                    "serial": p.serial_number or ""})
    out.sort(key=lambda d: (not d["board"], d["port"]))
    return out


def run(args):
    found = ports(include_all=args.all)
    if args.json:
        for d in found:
            print(json.dumps(d))
        return 0
    if not found:
        print("no USB serial ports found: plug the board in with a data cable (some cables only charge)")
        return 0
    for d in found:
        print("%-22s %s  %s%s" % (d["port"], d["usb"] or "         ", "Playboard board  " if d["board"] else "",
                                  d["description"]))
    n = sum(1 for d in found if d["board"])
    print("%d board%s: use it with --port %s" % (n, "" if n == 1 else "s", found[0]["port"]) if n else
          "no Playboard board among them (USB id %s); give another with --vid-pid" % DEFAULT_VID_PID)
    return 0
