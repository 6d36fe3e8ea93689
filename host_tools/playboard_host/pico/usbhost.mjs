// The USB host the emulated Pico is plugged into: enumerates the chip's device and opens
// every CDC ACM serial interface it offers (MicroPython: one, the REPL's; CircuitPython
// with `usb_cdc.enable(console=True, data=True)` in boot.py: two, the console's and the
// data channel's), each a byte channel of its own.
//
// rp2040js's USB controller gives the device side (its endpoint reads and writes); this is
// the host side over it: set the address, read the configuration descriptor (9 bytes,
// then all of it), find the CDC pairs (a communication interface, class 2, then its data
// interface, class 10, with a bulk IN and a bulk OUT endpoint), set configuration 1, then
// raise DTR and RTS on each communication interface in turn (SET_CONTROL_LINE_STATE; a
// serial port is "connected" to the device only then). One request at a time, each next
// one sent on the last one's status stage (a zero-length packet on endpoint 0).
//
// new CdcHost(usbCtrl): ``channels`` [{comm, in, out}] in descriptor order (channel 0 the
// first CDC: the console), ``onConnected()`` once every channel has DTR, ``onData(ch,
// bytes)`` what the device wrote on channel ch; ``send(ch, bytes)`` queues bytes to it,
// ``pump()`` (call it from the run loop) hands the queued bytes to an OUT endpoint the
// device has armed. A device read of an OUT endpoint is held until bytes wait (rp2040js's
// own helper answers at once with an empty packet: the device re-arms at once and its
// core never sleeps; a real host sends nothing meanwhile).

const CLASS_CDC = 2;
const CLASS_CDC_DATA = 10;
const DESC_CONFIGURATION = 2;
const DESC_INTERFACE = 4;
const DESC_ENDPOINT = 5;
const BULK = 2;
const CDC_SET_CONTROL_LINE_STATE = 0x22;
const DTR_RTS = 3;

function setup(bmRequestType, bRequest, wValue, wIndex, wLength) {
  return new Uint8Array([bmRequestType, bRequest, wValue & 0xff, wValue >> 8, wIndex & 0xff, wIndex >> 8,
                         wLength & 0xff, wLength >> 8]);
}

// [{comm, in, out}] of a configuration descriptor (bytes): each CDC data interface with its
// bulk endpoints, paired with the communication interface before it.
export function cdcChannels(desc) {
  const out = [];
  let comm = -1;
  let cur = null;
  for (let i = 0; i + 2 <= desc.length && desc[i] >= 2; i += desc[i]) {
    const len = desc[i];
    const type = desc[i + 1];
    if (type === DESC_INTERFACE && len >= 9) {
      cur = null;
      if (desc[i + 5] === CLASS_CDC) comm = desc[i + 2];
      else if (desc[i + 5] === CLASS_CDC_DATA && comm >= 0) {
        cur = { comm, in: -1, out: -1 };
        out.push(cur);
        comm = -1;
      }
    } else if (type === DESC_ENDPOINT && len >= 7 && cur && (desc[i + 3] & 3) === BULK) {
      if (desc[i + 2] & 0x80) cur.in = desc[i + 2] & 0xf;
      else cur.out = desc[i + 2] & 0xf;
    }
  }
  return out.filter((c) => c.in >= 0 && c.out >= 0);
}

export class CdcHost {
  constructor(usb) {
    this.usb = usb;
    this.channels = [];
    this.queues = [];      // per channel: bytes to send
    this.pending = {};     // OUT endpoint -> size the device armed it for
    this.onConnected = null;
    this.onData = null;
    this.stage = 'address';
    this.total = 0;
    this.desc = [];
    this.dtr = 0;          // channels given DTR so far
    usb.onUSBEnabled = () => usb.resetDevice();
    usb.onResetReceived = () => {
      this.stage = 'address';
      usb.sendSetupPacket(setup(0x00, 5, 1, 0, 0));  // SET_ADDRESS 1
    };
    usb.onEndpointWrite = (ep, buf) => this.written(ep, buf);
    usb.onEndpointRead = (ep, size) => {
      const ch = this.channels.findIndex((c) => c.out === ep);
      if (ch < 0) return;  // (no host traffic to other interfaces: mass storage, HID, MIDI)
      this.pending[ep] = size;
      this.pump();
    };
  }

  written(ep, buf) {
    if (ep !== 0) {
      const ch = this.channels.findIndex((c) => c.in === ep);
      if (ch >= 0 && this.onData) this.onData(ch, buf);
      return;
    }
    const usb = this.usb;
    if (this.stage === 'address' && buf.length === 0) {
      this.stage = 'head';
      usb.sendSetupPacket(setup(0x80, 6, DESC_CONFIGURATION << 8, 0, 9));
    } else if (this.stage === 'head' && buf.length >= 4) {
      this.total = buf[2] | (buf[3] << 8);
      this.desc = [];
      this.stage = 'descriptor';
      usb.sendSetupPacket(setup(0x80, 6, DESC_CONFIGURATION << 8, 0, this.total));
    } else if (this.stage === 'descriptor' && buf.length > 0) {
      this.desc.push(...buf);
      if (this.desc.length >= this.total) {
        this.channels = cdcChannels(this.desc);
        this.queues = this.channels.map(() => []);
        this.stage = 'configure';
        usb.sendSetupPacket(setup(0x00, 9, 1, 0, 0));  // SET_CONFIGURATION 1
      }
    } else if ((this.stage === 'configure' || this.stage === 'line') && buf.length === 0) {
      if (this.dtr < this.channels.length) {
        // (a class request to the interface, its number in wIndex)
        this.stage = 'line';
        usb.sendSetupPacket(setup(0x21, CDC_SET_CONTROL_LINE_STATE, DTR_RTS, this.channels[this.dtr].comm, 0));
        this.dtr++;
      } else {
        this.stage = 'open';
        if (this.onConnected) this.onConnected();
      }
    }
  }

  send(ch, bytes) {
    if (ch < this.queues.length) for (const b of bytes) this.queues[ch].push(b);
  }

  waiting(ch) {
    return ch < this.queues.length ? this.queues[ch].length : 0;
  }

  pump() {
    for (let ch = 0; ch < this.channels.length; ch++) {
      const ep = this.channels[ch].out;
      const q = this.queues[ch];
      if (this.pending[ep] !== undefined && q.length) {
        const n = Math.min(this.pending[ep], q.length);
        delete this.pending[ep];
        this.usb.endpointReadDone(ep, Uint8Array.from(q.splice(0, n)));
      }
    }
  }
}
