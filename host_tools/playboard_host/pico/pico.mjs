// A virtual Raspberry Pi Pico for Playboard: rp2040js (npm) running a MicroPython .uf2.
//
// Driven by playboard_host.pico.emulator (Python) over stdin/stdout, one JSON object a line.
// The Python side owns the pseudo-terminal, builds the flash filesystem and plays the
// sensors; this script only runs the chip and turns its pins into events.
//
// Arguments: --uf2 FILE --bootrom FILE [--fs FILE (littlefs2 image, flash 0xA0000)]
//            [--matrix ROWS:COLS e.g. 2,3,4:10,11] [--chain LOAD,CLK,DATA,CHIPS (a 74HC165
//            chain, active low)] [--hall SEL:ADC/EN,... e.g. 2,3,4,5:26/6,26/7 (CD74HC4067
//            multiplexers of hall sensors into the ADC)] [--leds PIN] [--speed X (emulated
//            s per host s while the core idles; 0 = as fast as possible)]
//            [--erase-us US --program-us US (the flash chip's time for a 4 KB sector erase
//            and a 256-byte page program: the core stalls that long, interrupts off, the
//            clock runs on; default 0 = instant; W25Q16: typical 45000 / 400, worst 400000 /
//            3000)]
//            [--qspi-cs-high 1 (the QSPI chip-select pad reads high, as the Pico's pull-up with
//            BOOTSEL released: CircuitPython senses BOOTSEL through it at boot and hangs without)]
//            [--exact-alarms 1 (a timer alarm set to the current microsecond fires at once, as on
//            the chip; rp2040js would fire it 2**32 us later: see boot())]
//            [--wfi-wake 0 (rp2040js's own WFI, for comparison: a core asleep with interrupts
//            masked stays asleep for an interrupt already pending; default 1: it wakes, as
//            on the chip: see maskedWake())]
// Commands (stdin):  {"cmd":"serial","hex":"...","ch":n}  bytes for USB CDC serial channel n
//                                                    (default 0, the REPL's; 1: CircuitPython's
//                                                    usb_cdc.data where boot.py enables it)
//                    {"cmd":"closed","idx":[...],"black":[...],"at":us}  the sensors on: closed
//                                                    switches (matrix: row * n_cols + col; chain:
//                                                    8 * chip + input), hall sensors under a White
//                                                    piece (idx) or a Black one (black), from
//                                                    emulated time ``at`` (default: now)
//                    {"cmd":"flash","off":N,"len":N} dump flash bytes -> {"ev":"flash",...}
//                    {"cmd":"snap","at":us,"id":k,"off":N,"len":N} at emulated time ``at``, keep a
//                                                    copy of those flash bytes (what a power cut then
//                                                    would leave; an erase or program under way counts
//                                                    as done) -> {"ev":"snap","id":k,"t":us,"erases":n,
//                                                    "programs":n,"stall":us} (as "time"'s, then)
//                    {"cmd":"flash","snap":k} that copy's bytes -> {"ev":"flash",...} (hex null: none)
//                    {"cmd":"quit"}
// Events (stdout):   {"ev":"ready"} {"ev":"usb","channels":n} (configured, DTR on each CDC
//                    serial channel: usbhost.mjs) {"ev":"serial","hex":...,"ch":n} (ch absent: 0)
//                    {"ev":"leds","t":us,"hex":...} one WS2812 frame (wire byte order; from the
//                    pin's pulses, or from a PIO state machine's TX FIFO on the pin: pioleds.mjs)
//                    {"ev":"wdt","t":us,"reason":"timer"|"force","boot":n} then a reboot
//                    {"ev":"time","t":us,"busy":us,"host_ms":ms,"wdt_min":us,"erases":n,"programs":n,
//                    "stall":us,"wakes":n} about every 100 ms emulated; wdt_min: the least time the
//                    watchdog had left at a feed (-1: none); erases: 4 KB sectors erased, programs:
//                    256-byte pages programmed, stall: emulated time the core stood still for them;
//                    wakes: sleeps ended for an interrupt pending while masked (maskedWake; with
//                    --wfi-wake 0: sleeps that would have ended) (all boots)
import fs from 'node:fs';
import readline from 'node:readline';
import { Simulator, LogLevel, ConsoleLogger } from 'rp2040js';
import { CdcHost } from './usbhost.mjs';
import { hookPioLeds } from './pioleds.mjs';

function parseArgs(argv) {
  const a = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) {
      a[argv[i].slice(2)] = argv[i + 1];
      i++;
    }
  }
  return a;
}

const args = parseArgs(process.argv.slice(2));
const FS_OFFSET = 0xa0000;
const FLASH_START = 0x10000000;
const speed = args.speed === undefined ? 1 : Number(args.speed);
const ERASE_NS = 1000 * Number(args['erase-us'] || 0);     // one 4 KB sector
const PROGRAM_NS = 1000 * Number(args['program-us'] || 0); // one 256-byte page
const SECTOR = 4096;
const PAGE = 256;
let erases = 0;     // sectors erased (all boots)
let programs = 0;   // pages programmed
let stallNanos = 0; // emulated time the core stood still for them
const bootrom = new Uint32Array(new Uint8Array(fs.readFileSync(args.bootrom)).buffer);

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// The flash contents survive a (watchdog) reboot: kept here, copied into each new chip.
let flash = null;

function loadUF2(bytes, target) {
  for (let off = 0; off + 512 <= bytes.length; off += 512) {
    const dv = new DataView(bytes.buffer, bytes.byteOffset + off, 512);
    if (dv.getUint32(0, true) !== 0x0a324655 || dv.getUint32(4, true) !== 0x9e5d5157) {
      throw new Error('not a UF2 block at ' + off);
    }
    const addr = dv.getUint32(12, true);
    const size = dv.getUint32(16, true);
    target.set(bytes.subarray(off + 32, off + 32 + size), addr - FLASH_START);
  }
}

// The bootrom's public function table: 16-bit pointer at 0x14, entries (code, address).
function romFunction(code) {
  const rom = new Uint8Array(bootrom.buffer);
  let p = rom[0x14] | (rom[0x15] << 8);
  for (;;) {
    const c = rom[p] | (rom[p + 1] << 8);
    if (c === 0) return -1;
    if (c === code) return (rom[p + 2] | (rom[p + 3] << 8)) & ~1;
    p += 4;
  }
}
const rc = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8);
const ROM_ERASE = romFunction(rc('RE'));
const ROM_PROGRAM = romFunction(rc('RP'));

// --- the board around the chip ---------------------------------------------------
let rows = [];
let cols = [];
if (args.matrix) {
  const [r, c] = args.matrix.split(':');
  rows = r.split(',').map(Number);
  cols = c.split(',').map(Number);
}
// a 74HC165 chain: load (PL, low latches the inputs), clk (a rising edge shifts), data
// (chip 0's QH); bit j out of the chain is chip j >> 3, input H..A (7 - (j & 7))
let chain = null;
if (args.chain) {
  const [load, clk, data, chips] = args.chain.split(',').map(Number);
  chain = { load, clk, data, chips, latched: new Uint8Array(8 * chips), pos: 0 };
}
// hall sensors behind CD74HC4067 multiplexers: select pins, then per multiplexer its ADC
// pin and its enable pin (active low); sensor 16 * mux + channel
let hall = null;
if (args.hall) {
  const [sel, muxes] = args.hall.split(':');
  hall = { sel: sel.split(',').map(Number),
           muxes: muxes.split(',').map((m) => m.split('/').map(Number)) };
}
const HALL_ZERO = 1241;  // 1.0 V, 12 bits at 3.3 V (a DRV5053 with no field)
const HALL_SWING = 620;  // 0.5 V: a piece's magnet, up for White, down for Black
let closed = new Set();
let black = new Set();
let schedule = []; // [{t (emulated ns), idx, black} | {t, snap, off, len}] sorted by t: sensor changes
                   // and flash snapshots to come
const snaps = new Map(); // snapshot id -> flash bytes (off .. off + len) at its moment
let nextChange = Infinity;

function applySchedule() {
  while (schedule.length && schedule[0].t <= now()) {
    const c = schedule.shift();
    if (c.snap !== undefined) {  // a power cut's flash: the bytes as they are at this moment
      snaps.set(c.snap, flash.slice(c.off, c.off + c.len));
      emit({ ev: 'snap', id: c.snap, t: Math.round(now() / 1000), erases, programs,
             stall: Math.round(stallNanos / 1000) });
      continue;
    }
    closed = new Set(c.idx);
    black = new Set(c.black || []);
    if (rows.length) updateMatrix();
  }
  nextChange = schedule.length ? schedule[0].t - emuBase : Infinity;
}

function chainBit() {
  const j = chain.pos;
  mcu.gpio[chain.data].setInputValue(j < chain.latched.length ? !!chain.latched[j] : true);
}

function onChainLoad(v) {
  if (v === 0) {  // parallel load: the inputs now (a closed switch pulls its input low)
    for (let j = 0; j < chain.latched.length; j++) {
      chain.latched[j] = closed.has(8 * (j >> 3) + 7 - (j & 7)) ? 0 : 1;
    }
    chain.pos = 0;
    chainBit();
  }
}

function onChainClk(v, old) {
  if (v === 1 && old === 0 && mcu.gpio[chain.load].value === 1) {
    chain.pos++;
    chainBit();
  }
}

function hallRead(channel) {
  // the multiplexer enabled on this ADC pin, the channel its select lines pick
  let s = -1;
  for (let m = 0; m < hall.muxes.length; m++) {
    const [adc, en] = hall.muxes[m];
    const pin = mcu.gpio[en];
    if (adc - 26 === channel && pin.outputEnable && !pin.outputValue) {
      let ch = 0;
      for (let k = 0; k < hall.sel.length; k++) if (mcu.gpio[hall.sel[k]].outputValue) ch |= 1 << k;
      s = 16 * m + ch;
    }
  }
  if (s < 0) return 0;
  return HALL_ZERO + (closed.has(s) ? HALL_SWING : 0) - (black.has(s) ? HALL_SWING : 0);
}
const ledPin = args.leds === undefined ? -1 : Number(args.leds);

let sim = null;
let mcu = null;
let cdc = null;
let boots = 0;
let busyNanos = 0;
let lastTimeEv = 0;
let quitting = false;
const hostStart = Date.now();
let emuBase = 0; // emulated ns before the current boot (the clock restarts at a reboot)

function now() {
  return emuBase + mcu.clock.nanos;
}

function updateMatrix() {
  // A column reads low when a row driven low reaches it through a closed switch.
  for (let ci = 0; ci < cols.length; ci++) {
    let low = false;
    for (let ri = 0; ri < rows.length && !low; ri++) {
      const pin = mcu.gpio[rows[ri]];
      if (pin.outputEnable && !pin.outputValue && closed.has(ri * cols.length + ci)) low = true;
    }
    mcu.gpio[cols[ci]].setInputValue(!low);
  }
}

// WS2812: a bit is a high pulse (about 0.4 us = 0, 0.8 us = 1); low for 50 us latches.
let ledBits = [];
let ledRise = -1;
let ledFall = -1;

function flushLeds() {
  if (ledBits.length >= 8) {
    const n = ledBits.length >> 3;
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (let b = 0; b < 8; b++) v = (v << 1) | ledBits[8 * i + b];
      out[i] = v;
    }
    emit({ ev: 'leds', t: Math.round(now() / 1000), hex: out.toString('hex') });
  }
  ledBits = [];
}

// CircuitPython's neopixel_write: the bytes its PIO state machine is given (pioleds.mjs);
// a frame ends 100 us after its last byte. Once seen, the pin's pulses are not decoded
// (PIO runs in batches here: their widths mean nothing).
let pioLedBytes = [];
let pioLedLast = -1;
let ledFromPio = false;

function flushPioLeds() {
  if (pioLedBytes.length) {
    emit({ ev: 'leds', t: Math.round(pioLedLast / 1000), hex: Buffer.from(pioLedBytes).toString('hex') });
  }
  pioLedBytes = [];
}

function onPioLedBytes(bytes) {
  const t = now();
  if (pioLedLast >= 0 && t - pioLedLast > 100000) flushPioLeds();
  for (const b of bytes) pioLedBytes.push(b);
  pioLedLast = t;
  ledFromPio = true;
  ledBits = [];
}

function onLedPin(value) {
  if (ledFromPio) return;
  const t = now();
  if (value === 1) {
    if (ledFall >= 0 && t - ledFall > 50000) flushLeds();
    ledRise = t;
  } else if (value === 0 && ledRise >= 0) {
    ledBits.push(t - ledRise > 600 ? 1 : 0);
    ledFall = t;
    ledRise = -1;
  }
}

function boot(reason) {
  if (mcu) {
    emuBase += mcu.clock.nanos;
    sim.stop();
  }
  sim = new Simulator();
  mcu = sim.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(bootrom);
  if (args['qspi-cs-high']) {
    mcu.qspi[1].padValue = 0x5a;
    mcu.qspi[1].setInputValue(true);
  }
  if (flash === null) {
    flash = mcu.flash; // first boot: the image goes in
    loadUF2(new Uint8Array(fs.readFileSync(args.uf2)), flash);
    // --fs-offset: where the image goes (default the filesystem's; lower to take the
    // product board's journal too)
    if (args.fs) flash.set(new Uint8Array(fs.readFileSync(args.fs)), args['fs-offset'] ? Number(args['fs-offset']) : FS_OFFSET);
  } else {
    mcu.flash.set(flash);
    flash = mcu.flash;
  }
  boots++;
  // The timer's alarms: rp2040js takes the distance to ALARMn from the clock's
  // fractional microseconds, so a target equal to the current microsecond (the
  // comparator matches at once on the chip) came out as -0.x us, wrapped to 2**32 us:
  // the alarm fired 71.6 emulated minutes late. CircuitPython's 1 ms tick (on while
  // keypad scans) sets such targets: its clock crawled while the emulated one raced.
  const timer = mcu.peripherals[0x40054];
  const timerWrite = timer.writeUint32.bind(timer);
  if (args['exact-alarms']) timer.writeUint32 = (offset, value) => {
    if (offset >= 0x10 && offset <= 0x1c && (offset & 3) === 0) {
      const alarm = timer.alarms[(offset - 0x10) >> 2];
      const nowUs = Math.floor(mcu.clock.nanos / 1000);
      const delta = ((value >>> 0) - nowUs) >>> 0;  // whole us to the match (mod 2**32)
      alarm.armed = true;
      alarm.targetMicros = value >>> 0;
      alarm.clockAlarm.schedule(Math.max(0, delta * 1000 - (mcu.clock.nanos - nowUs * 1000)));
      return;
    }
    timerWrite(offset, value);
  };
  const wd = mcu.peripherals[0x40058];
  // the least time the watchdog had left when it was fed or stopped (us; a feed is a
  // write of LOAD, or of CTRL: the SDK's watchdog_enable clears ENABLE first)
  const wdWrite = wd.writeUint32.bind(wd);
  wd.writeUint32 = (offset, value) => {
    if ((offset === 0x00 || offset === 0x04) && wd.enable) {
      const left = (wd.timer.counter & 0xffffff) / 2;  // (2 MHz: RP2040-E1 counts 2 a us)
      if (wdtMinLeft < 0 || left < wdtMinLeft) wdtMinLeft = left;
    }
    wdWrite(offset, value);
  };
  if (lastReason) wd.reason = lastReason;  // (REASON survives a watchdog reset)
  if (lastScratch) wd.scratchData.set(lastScratch);  // (so do the SCRATCH registers)
  wd.onWatchdogTrigger = () => {
    // The chip resets at once, its watchdog with it. rp2040js's periodic alarm would
    // fire again at the same emulated instant without end (its counter stays at 0 and
    // the next alarm is 0 ns away: clock.tick never returns): stop it here, once.
    wd.alarm.enable = false;
    wd.timer.enable = false;
    if (pendingReboot) return;
    const why = wd.reason === 2 ? 'force' : 'timer';
    lastReason = wd.reason;
    lastScratch = wd.scratchData.slice();
    flushLeds();
    emit({ ev: 'wdt', t: Math.round(now() / 1000), reason: why, boot: boots });
    pendingReboot = true;
  };
  cdc = new CdcHost(mcu.usbCtrl);
  cdc.onConnected = () => emit({ ev: 'usb', channels: cdc.channels.length });
  cdc.onData = (ch, buf) => emit(ch ? { ev: 'serial', ch, hex: Buffer.from(buf).toString('hex') }
                                    : { ev: 'serial', hex: Buffer.from(buf).toString('hex') });
  for (const r of rows) mcu.gpio[r].addListener(updateMatrix);
  if (rows.length) updateMatrix();
  for (const pio of mcu.pio) pio.run = pioRun;  // stepped by run(), not by a host timer
  pioOn = false;
  pioAcc = 0;
  if (chain) {
    mcu.gpio[chain.load].addListener(onChainLoad);
    mcu.gpio[chain.clk].addListener(onChainClk);
    chain.pos = 0;
    mcu.gpio[chain.data].setInputValue(true);
  }
  if (hall) {
    const adc = mcu.adc;
    const read = adc.onADCRead;
    adc.onADCRead = (channel) => {
      if (channel < 2) adc.channelValues[channel] = hallRead(channel);
      read(channel);
    };
  }
  if (ledPin >= 0) mcu.gpio[ledPin].addListener((v) => onLedPin(v));
  if (ledPin >= 0) hookPioLeds(mcu, ledPin, onPioLedBytes);
  pioLedBytes = [];
  pioLedLast = -1;
  mcu.core.PC = 0x10000000;
  ledBits = [];
  ledRise = ledFall = -1;
  applySchedule();
  if (reason) emit({ ev: 'boot', n: boots, reason });
}

// PIO: rp2040js runs it on a host timer of its own, unrelated to the chip's clock;
// here it is stepped from the run loop, one PIO cycle per clock divider of system
// cycles (the divider of the first state machine enabled)
let pioOn = false;
let pioDiv = 1;
let pioAcc = 0;

function pioRun() {
  pioOn = false;
  for (const pio of mcu.pio) {
    for (const sm of pio.machines) {
      if (sm.enabled) {
        pioDiv = Math.max(1, sm.clockDivInt + sm.clockDivFrac / 256);
        pioOn = true;
      }
    }
  }
}

function pioSteps(n) {
  for (let i = 0; i < n; i++) {
    for (const pio of mcu.pio) if (!pio.stopped) pio.step();
  }
}

let pendingReboot = false;
let wdtMinLeft = -1;  // the watchdog's least time left at a feed, all boots (us; -1: never fed)
let lastReason = 0;  // the watchdog's REASON at its last reset (carried to the next chip)
let lastScratch = null;  // its SCRATCH0-7 then (machine.reset() leaves 0 in 4, machine.WDT 0x6ab73121)

// The bootrom's flash erase/program (not emulated by rp2040js) done on the flash array,
// as a NOR chip does them: an erase sets whole 4 KB sectors to 0xff; a program can only
// clear bits (new = old AND data). The call takes the chip's time: the core stands still
// (the SDK calls these with interrupts off and the other core locked out: nothing else
// runs) while the clock, its timers and the watchdog run on; an alarm that falls due
// meanwhile is served once the caller turns interrupts back on.
function romCall(pc) {
  const core = mcu.core;
  const r = core.registers;
  let stall = 0;
  if (pc === ROM_ERASE) {
    const addr = r[0] >>> 0;
    const count = r[1] >>> 0;
    const first = Math.floor(addr / SECTOR);
    const n = Math.max(0, Math.ceil((addr + count) / SECTOR) - first);
    flash.fill(0xff, first * SECTOR, (first + n) * SECTOR);
    erases += n;
    stall = n * ERASE_NS;
  } else {
    const addr = r[0] >>> 0;
    const data = r[1] >>> 0;
    const count = r[2] >>> 0;
    for (let i = 0; i < count; i++) flash[addr + i] &= mcu.readUint8(data + i);
    const n = count ? Math.ceil((addr + count) / PAGE) - Math.floor(addr / PAGE) : 0;
    programs += n;
    stall = n * PROGRAM_NS;
  }
  if (stall > 0) {
    mcu.clock.tick(stall);
    busyNanos += stall;
    stallNanos += stall;
  }
  core.PC = r[14] & ~1; // return to the caller (LR)
}

const CYCLE_NS = 1e9 / 125e6;

// WFI (and WFE) with interrupts masked (PRIMASK set): on an ARMv6-M core the sleep ends
// for an interrupt that would preempt the running code were they not masked, one
// already pending when the core went to sleep too (ARMv6-M ARM B1.5.19); the code goes
// on after the WFI and takes the interrupt when it unmasks them. rp2040js ends a sleep
// only when an interrupt *becomes* pending (setInterrupt), so one that came between the
// masking and the WFI left the core asleep for good, its clock racing: CircuitPython's
// idle (interrupts masked, checks, WFI) lost that race about once a few thousand of its
// keypad's 1/1024 s ticks, the tick's own alarm being the interrupt missed.
const wfiWake = args['wfi-wake'] !== '0';
let wakes = 0;  // sleeps ended (or, without wfiWake, that would have ended) here
let stuck = false;  // (without wfiWake: asleep with such an interrupt pending, counted once)

function maskedWake(core) {
  const set = core.pendingInterrupts & core.enabledInterrupts;
  if (!set) return false;
  const active = core.exceptionPriority(core.IPSR);
  for (let p = 0; p < active; p++) if (set & core.interruptPriorities[p]) return true;
  return false;
}

function run() {
  if (quitting) return;
  const core = mcu.core;
  const clock = mcu.clock;
  // Emulated time may run ahead of host time (x speed) only while the core works.
  const limit = speed > 0 ? (Date.now() - hostStart) * 1e6 * speed - emuBase + 20e6 : Infinity;
  const t0 = Date.now();
  while (Date.now() - t0 < 5) {
    for (let i = 0; i < 20000; i++) {
      if (pendingReboot) break;
      if (clock.nanos >= nextChange) applySchedule();
      if (core.waiting && maskedWake(core)) {
        if (wfiWake) {
          wakes++;
          core.waiting = false;
          continue;
        }
        if (!stuck) wakes++;
        stuck = true;
      } else if (!core.waiting) stuck = false;
      if (core.waiting) {
        if (clock.nanos >= limit) break;
        const next = clock.nanosToNextAlarm;
        let step = next > 0 && next < 1e6 ? next : 1e6;
        if (nextChange - clock.nanos < step) step = Math.max(nextChange - clock.nanos, CYCLE_NS);
        clock.tick(step);
        // (a state machine works on while the core sleeps: at most 256 of its cycles
        // a sleep, enough for a frame of the chain; idle time stays cheap)
        if (pioOn) pioSteps(Math.min(256, Math.floor(step / (pioDiv * CYCLE_NS))));
      } else {
        const pc = core.PC;
        if (pc === ROM_ERASE || pc === ROM_PROGRAM) {
          romCall(pc);
          continue;
        }
        const cycles = core.executeInstruction();
        clock.tick(cycles * CYCLE_NS);
        busyNanos += cycles * CYCLE_NS;
        if (pioOn) {
          pioAcc += cycles;
          if (pioAcc >= pioDiv) {
            const n = Math.floor(pioAcc / pioDiv);
            pioAcc -= n * pioDiv;
            pioSteps(n);
          }
        }
      }
    }
    if (pendingReboot || (core.waiting && clock.nanos >= limit)) break;
    if (cdc.waiting(0) || cdc.waiting(1)) break;
  }
  if (ledRise < 0 && ledFall >= 0 && ledBits.length && now() - ledFall > 50000) flushLeds();
  if (pioLedBytes.length && now() - pioLedLast > 100000) flushPioLeds();
  if (now() - lastTimeEv >= 100e6) {
    lastTimeEv = now();
    emit({ ev: 'time', t: Math.round(now() / 1000), busy: Math.round(busyNanos / 1000), host_ms: Date.now() - hostStart,
           wdt_min: Math.round(wdtMinLeft), erases, programs, stall: Math.round(stallNanos / 1000), wakes });
  }
  if (pendingReboot) {
    pendingReboot = false;
    boot('watchdog');
  }
  cdc.pump();
  const idle = core.waiting && clock.nanos >= limit;
  if (idle) setTimeout(run, 2);
  else setImmediate(run);
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  const m = JSON.parse(line);
  if (m.cmd === 'serial') {
    cdc.send(m.ch || 0, Buffer.from(m.hex, 'hex'));
  } else if (m.cmd === 'closed') {
    const t = m.at === undefined ? now() : m.at * 1000;
    schedule.push({ t, idx: m.idx, black: m.black });
    schedule.sort((a, b) => a.t - b.t);
    applySchedule();
  } else if (m.cmd === 'snap') {
    schedule.push({ t: m.at * 1000, snap: m.id, off: m.off, len: m.len });
    schedule.sort((a, b) => a.t - b.t);
    applySchedule();
  } else if (m.cmd === 'flash') {
    const src = m.snap === undefined ? flash.subarray(m.off, m.off + m.len) : snaps.get(m.snap);
    emit({ ev: 'flash', off: m.off, hex: src === undefined ? null : Buffer.from(src).toString('hex') });
  } else if (m.cmd === 'quit') {
    quitting = true;
    emit({ ev: 'bye', t: Math.round(now() / 1000), busy: Math.round(busyNanos / 1000), pc: mcu.core.PC,
           erases, programs, stall: Math.round(stallNanos / 1000) });
    process.exit(0);
  }
});
rl.on('close', () => process.exit(0));

boot(null);
emit({ ev: 'ready', rom_erase: ROM_ERASE, rom_program: ROM_PROGRAM });
run();
