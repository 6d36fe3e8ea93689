"""The emulated Pico's USB host and PIO LED decoding (``usbhost.mjs``, ``pioleds.mjs``),
under Node without the chip: a fake USB controller answers as CircuitPython's composite
device with two CDC serial interfaces does (tests/rp2/test_circuitpython.py runs them on
the real image). Skips where Node is absent."""
import json
import pathlib
import shutil
import subprocess

import pytest

from playboard_host import pico

SCRIPT = r"""
import { CdcHost, cdcChannels } from 'USBHOST';
import { wordBytes } from 'PIOLEDS';

const iface = (n, cls, eps) => [9, 4, n, 0, eps, cls, 0, 0, 0];
const ep = (addr) => [7, 5, addr, 2, 64, 0, 0];
const body = [
  ...[8, 11, 0, 2, 2, 2, 0, 0],                 // IAD (skipped)
  ...iface(0, 2, 1), ...[7, 5, 0x81, 3, 8, 0, 16],  // CDC comm 0 (interrupt ep: skipped)
  ...iface(1, 10, 2), ...ep(0x02), ...ep(0x82),  // CDC data 1: out 2, in 2
  ...iface(2, 8, 2), ...ep(0x03), ...ep(0x83),   // mass storage (bulk, not CDC)
  ...iface(3, 2, 1), ...[7, 5, 0x84, 3, 8, 0, 16],  // CDC comm 3
  ...iface(4, 10, 2), ...ep(0x05), ...ep(0x85),  // CDC data 4: out 5, in 5
];
const total = 9 + body.length;
const desc = [9, 2, total & 0xff, total >> 8, 5, 1, 0, 0x80, 50, ...body];

const log = [];
const usb = {
  sendSetupPacket: (p) => log.push(['setup', Array.from(p)]),
  endpointReadDone: (e, b) => log.push(['read', e, Array.from(b)]),
  resetDevice: () => log.push(['reset']),
};
const host = new CdcHost(usb);
const seen = [];
let connected = 0;
host.onConnected = () => connected++;
host.onData = (ch, b) => seen.push([ch, Array.from(b)]);
usb.onUSBEnabled();
usb.onResetReceived();
usb.onEndpointWrite(0, new Uint8Array(0));            // SET_ADDRESS done
usb.onEndpointWrite(0, Uint8Array.from(desc.slice(0, 9)));
for (let i = 0; i < desc.length; i += 64) usb.onEndpointWrite(0, Uint8Array.from(desc.slice(i, i + 64)));
const beforeConfig = connected;
for (let k = 0; k < 3; k++) usb.onEndpointWrite(0, new Uint8Array(0));  // SET_CONFIGURATION, 2 x line state
usb.onEndpointRead(5, 64);                            // the data channel armed, nothing to send
const heldRead = log.filter((x) => x[0] === 'read').length;
host.send(1, [0x1e, 0x41]);
host.pump();
usb.onEndpointRead(2, 64);
host.send(0, [3]);
host.pump();
usb.onEndpointWrite(5, Uint8Array.from([7, 8]));
usb.onEndpointWrite(2, Uint8Array.from([62]));
console.log(JSON.stringify({
  channels: cdcChannels(desc), found: host.channels, log, seen, connected, beforeConfig, heldRead,
  bytes: [wordBytes(0xa5a5a5a5, 8, false), wordBytes(0x12345678, 24, false), wordBytes(0x12345678, 8, true),
          wordBytes(0x12345678, 32, false), wordBytes(0x12345678, 5, false)],
}));
"""


def test_the_usb_host_opens_both_cdc_channels_and_pio_words_give_their_bytes(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js not found")
    path = tmp_path / "usbhost_check.mjs"
    path.write_text(SCRIPT.replace("USBHOST", pathlib.Path(pico.HERE, "usbhost.mjs").as_uri())
                    .replace("PIOLEDS", pathlib.Path(pico.HERE, "pioleds.mjs").as_uri()))
    out = subprocess.run([node, str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    want = [{"comm": 0, "in": 2, "out": 2}, {"comm": 3, "in": 5, "out": 5}]
    assert r["channels"] == want and r["found"] == want
    setups = [x[1] for x in r["log"] if x[0] == "setup"]
    total = 9 + 8 + 9 + 7 + 9 + 14 + 9 + 14 + 9 + 7 + 9 + 14
    assert setups == [[0, 5, 1, 0, 0, 0, 0, 0],                    # SET_ADDRESS 1
                      [0x80, 6, 0, 2, 0, 0, 9, 0],                 # the configuration's head
                      [0x80, 6, 0, 2, 0, 0, total, 0],             # all of it
                      [0, 9, 1, 0, 0, 0, 0, 0],                    # SET_CONFIGURATION 1
                      [0x21, 0x22, 3, 0, 0, 0, 0, 0],              # DTR + RTS, interface 0
                      [0x21, 0x22, 3, 0, 3, 0, 0, 0]]              # and interface 3
    assert r["beforeConfig"] == 0 and r["connected"] == 1
    assert r["heldRead"] == 0  # (a read with nothing to send waits)
    assert [x for x in r["log"] if x[0] == "read"] == [["read", 5, [0x1E, 0x41]], ["read", 2, [3]]]
    assert r["seen"] == [[1, [7, 8]], [0, [62]]]
    assert r["bytes"] == [[0xA5], [0x12, 0x34, 0x56], [0x78], [0x12, 0x34, 0x56, 0x78], []]
