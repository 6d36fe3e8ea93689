// WS2812 bytes read where a PIO state machine takes them: its TX FIFO.
//
// CircuitPython's neopixel_write drives the LED pin from a PIO state machine (side-set or
// OUT pins on it), fed by DMA through the TX FIFO. pico.mjs steps PIO in batches, not in
// the chip's time, so the pin's pulse widths cannot be read back (MicroPython's
// machine.bitstream, timed by the CPU, is decoded from the pin instead); the words the
// state machine is given are the frame itself. hookPioLeds(mcu, pin, onBytes) wraps every
// state machine's FIFO write: a word written to a machine whose side-set or OUT pins
// include ``pin`` gives onBytes(bytes) the bytes it will shift out, as the shift register
// is set: ``pull_threshold`` bits a word (0 = 32, a multiple of 8), MSB first when it
// shifts left (a byte written by DMA is on all four lanes of the word: the chip's bus
// replicates it), LSB first when it shifts right.

const OUT_SHIFT_RIGHT = 1 << 19;

function drives(sm, pin) {
  const side = sm.sidesetCount;
  const inSide = side > 0 && pin >= sm.sidesetBase && pin < sm.sidesetBase + side;
  const inOut = sm.outCount > 0 && pin >= sm.outBase && pin < sm.outBase + sm.outCount;
  return inSide || inOut;
}

// The bytes a word shifts out (Array of 0..255), or [] if its width is not whole bytes.
export function wordBytes(value, threshold, shiftRight) {
  const bits = threshold === 0 ? 32 : threshold;
  if (bits % 8) return [];
  const out = [];
  for (let k = 0; k < bits / 8; k++) {
    out.push(shiftRight ? (value >>> (8 * k)) & 0xff : (value >>> (24 - 8 * k)) & 0xff);
  }
  return out;
}

export function hookPioLeds(mcu, pin, onBytes) {
  for (const pio of mcu.pio) {
    for (const sm of pio.machines) {
      const write = sm.writeFIFO.bind(sm);
      sm.writeFIFO = (value) => {
        if (!sm.txFIFO.full && drives(sm, pin)) {
          const bytes = wordBytes(value >>> 0, sm.pullThreshold, !!(sm.shiftCtrl & OUT_SHIFT_RIGHT));
          if (bytes.length) onBytes(bytes);
        }
        write(value);
      };
    }
  }
}
