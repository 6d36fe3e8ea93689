"""The 74HC165 PIO program, proved off the board.

The firmware's own program (``playboard.hw.rp2.hc165_program``, written in
MicroPython's ``rp2.asm_pio`` language) is turned into pioasm text by a fake ``rp2``
module, assembled with PyPI ``adafruit-circuitpython-pioasm`` and run in PyPI
``rp2040-pio-emulator`` against a simulated chain of 74HC165s; then the rp2 backend
reads sensors through a fake ``rp2.StateMachine`` that runs that emulation.
"""
from collections import deque

import adafruit_pioasm
import pytest
from pioemu import State, emulate

from hwfakes import World, fake_machine, install_rp2
from playboard.config import load_board
from playboard.hw.open import open_board

# -- a fake rp2 module: asm_pio emits pioasm text ---------------------------------


class _Instr:
    def __init__(self, lines, text):
        self.text = text
        self.sideset = None
        self.delay = 0
        lines.append(self)

    def side(self, v):
        self.sideset = v
        return self

    def __getitem__(self, d):
        self.delay = d
        return self

    def render(self):
        t = "    " + self.text
        if self.sideset is not None:
            t += " side %d" % self.sideset
        if self.delay:
            t += " [%d]" % self.delay
        return t


class _Label:
    def __init__(self, lines, text):
        self.text = text
        lines.append(self)

    def render(self):
        return self.text


class FakePIO:
    IN_LOW, IN_HIGH, OUT_LOW, OUT_HIGH = 0, 1, 2, 3
    SHIFT_LEFT, SHIFT_RIGHT = 0, 1
    JOIN_NONE, JOIN_TX, JOIN_RX = 0, 1, 2


class Program:
    def __init__(self, name, lines, kw):
        self.name = name
        self.kw = kw
        side = kw.get("sideset_init")
        n_side = 0 if side is None else (len(side) if isinstance(side, tuple) else 1)
        head = [".program %s" % name] + ([".side_set %d" % n_side] if n_side else [])
        self.side_set_count = n_side
        self.text = "\n".join(head + [ln.render() for ln in lines]) + "\n"
        self.opcodes = list(adafruit_pioasm.assemble(self.text))


def asm_pio(**kw):
    def dec(f):
        lines = []

        def instr(fmt):
            return lambda *a: _Instr(lines, fmt % a)

        names = {
            "pins": "pins", "x": "x", "y": "y", "osr": "osr", "isr": "isr", "null": "null",
            "x_dec": "x--", "y_dec": "y--", "not_x": "!x", "not_y": "!y",
            "block": "block", "noblock": "noblock",
            "pull": lambda b="block": _Instr(lines, "pull %s" % b),
            "push": lambda b="block": _Instr(lines, "push %s" % b),
            "mov": instr("mov %s, %s"),
            "set": instr("set %s, %d"),
            "in_": instr("in %s, %d"),
            "out": instr("out %s, %d"),
            "nop": lambda: _Instr(lines, "nop"),
            "jmp": lambda c, lab=None: _Instr(lines, "jmp %s" % c if lab is None else "jmp %s %s" % (c, lab)),
            "label": lambda name: _Label(lines, "%s:" % name),
            "wrap_target": lambda: _Label(lines, ".wrap_target"),
            "wrap": lambda: _Label(lines, ".wrap"),
        }
        g = f.__globals__
        saved = dict(g)
        g.update(names)
        try:
            f()
        finally:
            g.clear()
            g.update(saved)
        return Program(f.__name__, lines, kw)

    return dec


# -- a simulated 74HC165 chain on emulator pins: data (QH) = 0, load = 1, clk = 2 ---

DATA, LOAD, CLK = 0, 1, 2


class Chain:
    """8 * n_chips inputs (chip k input j = inputs[k][j], A = 0); QH of chip 0 on DATA."""

    def __init__(self, inputs):
        self.inputs = inputs
        self.bits = [1] * (8 * len(inputs))
        self.prev_clk = 0
        self.rising = 0
        self.loads = 0
        self.violations = []
        self.prev_load = 1

    def parallel_load(self):
        self.bits = []
        for chip in self.inputs:
            self.bits += [chip[j] for j in range(7, -1, -1)]   # H first out

    def __call__(self, state: State) -> int:
        load = (state.pin_values >> LOAD) & 1
        clk = (state.pin_values >> CLK) & 1
        if load == 0:
            if self.prev_load == 1:
                self.loads += 1
            self.parallel_load()
            if clk and not self.prev_clk:
                self.violations.append(state.clock)
        elif clk and not self.prev_clk:
            self.rising += 1
            self.bits = self.bits[1:] + [1]      # SER of the last chip tied high
        self.prev_clk = clk
        self.prev_load = load
        return self.bits[0] << DATA


class FakeStateMachine:
    """rp2.StateMachine running the program in the emulator against a Chain."""

    chain = None   # set by the test

    def __init__(self, sm_id, prog, freq=0, in_base=None, set_base=None, sideset_base=None):
        self.prog = prog
        self.freq = freq
        self.pins = (in_base.id, set_base.id, sideset_base.id)
        kw = prog.kw
        assert kw["set_init"] == FakePIO.OUT_HIGH and kw["sideset_init"] == FakePIO.OUT_LOW
        self.state = State(pin_directions=(1 << LOAD) | (1 << CLK), pin_values=1 << LOAD)
        self.words = deque()
        self.gen = None
        self.active_flag = 0

    def active(self, v):
        self.active_flag = v

    def _start(self):
        kw = self.prog.kw
        self.gen = emulate(
            self.prog.opcodes, stop_when=lambda op, st: False, initial_state=self.state,
            input_source=self.chain, auto_push=kw["autopush"], push_threshold=kw["push_thresh"],
            shift_isr_right=kw["in_shiftdir"] == FakePIO.SHIFT_RIGHT,
            set_base=LOAD, set_count=1, side_set_base=CLK, side_set_count=self.prog.side_set_count)

    def put(self, value):
        assert self.active_flag
        self.state.transmit_fifo.append(value)
        if self.gen is None:
            self._start()
        # run until the program has pushed value + 1 bits (or stalls on the next pull)
        need = len(self.words) + (value + 1) // kw_push(self.prog)
        for _, st in self.gen:
            self.state = st
            while st.receive_fifo:
                self.words.append(st.receive_fifo.popleft())   # the CPU drains the FIFO
            if len(self.words) >= need:
                break
            assert st.clock < 100000, "PIO program did not finish"

    def get(self):
        return self.words.popleft()


def kw_push(prog):
    return prog.kw["push_thresh"]


class FakeRp2:
    PIO = FakePIO
    StateMachine = FakeStateMachine
    asm_pio = staticmethod(asm_pio)


# -- tests --------------------------------------------------------------------------


def program():
    mod = install_rp2(World(), FakeRp2)
    return mod.hc165_program()


def test_program_assembles():
    prog = program()
    assert prog.side_set_count == 1
    assert len(prog.opcodes) == 6
    assert "jmp x-- bit side 1" in prog.text and "set pins, 0 side 0 [1]" in prog.text
    assert prog.kw["autopush"] and prog.kw["push_thresh"] == 8
    assert prog.kw["fifo_join"] == FakePIO.JOIN_RX


def run_frames(inputs, frames=1):
    prog = program()
    chain = Chain(inputs)
    FakeStateMachine.chain = chain
    w = World()
    sm = FakeStateMachine(0, prog, 4000000, fake_machine(w).Pin(12), fake_machine(w).Pin(13),
                          fake_machine(w).Pin(14))
    sm.active(1)
    out = []
    for _ in range(frames):
        sm.put(8 * len(inputs) - 1)
        out.append([sm.get() & 0xFF for _ in inputs])
    return out, chain


@pytest.mark.parametrize("n_chips", [1, 3, 8])
def test_emulated_program_reads_every_input(n_chips):
    inputs = [[(k * 7 + j * 3) % 2 for j in range(8)] for k in range(n_chips)]
    inputs[0][7] = 0
    (words,), chain = run_frames(inputs)
    for k in range(n_chips):
        want = sum(inputs[k][j] << j for j in range(8))   # H in bit 7 ... A in bit 0
        assert words[k] == want, (k, words[k], want)
    assert chain.loads == 1
    # one rising clock between consecutive bits (the emulation stops at the last sample)
    assert chain.rising == 8 * n_chips - 1
    assert chain.violations == []            # clk never rises while load is low


def test_emulated_program_runs_frame_after_frame():
    inputs = [[1] * 8 for _ in range(2)]
    inputs[1][2] = 0
    words, chain = run_frames(inputs, frames=3)
    assert words == [[0xFF, 0xFB]] * 3
    assert chain.loads == 3


def test_backend_reads_sensors_through_the_emulated_pio():
    cfg = load_board("pico-165")
    inputs = [[1] * 8 for _ in range(8)]
    for s in (0, 9, 20, 63):
        inputs[s // 8][s % 8] = 0            # active low: a piece on sensors 0, 9, 20, 63
    FakeStateMachine.chain = Chain(inputs)
    install_rp2(World(), FakeRp2)
    b = open_board(cfg)
    sm = b._sm
    assert sm.pins == (12, 13, 14) and sm.freq == 4000000
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [0, 9, 20, 63]
    inputs[2][4] = 1                         # the piece on 20 lifted
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [0, 9, 63]
