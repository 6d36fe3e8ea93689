"""`make bench`'s table of the emulated Pico side by side (playboard_host.bench.side_by_side):
each row takes its figures from the three benches' names (MicroPython frozen, .mpy,
CircuitPython), "-" where one was not measured."""
from playboard_host.bench import side_by_side


def _f(name, value, unit):
    return {"name": name, "value": value, "unit": unit}


def test_rows_take_each_columns_figure_by_its_bench_name():
    figures = [
        _f("pico: free heap, play, Toguz v engine (.mpy)", 61, "KB"),
        _f("pico (frozen): engine toguz, top level nodes/s (middle game, 300 nodes): its own search / native",
           "1186 / 7657", "/s"),
        _f("pico: engine toguz, nodes/s (middle game)", 1178, "/s"),
        _f("pico: perft toguz (613 leaves), leaves/s", 21185, "/s"),
        _f("circuitpython: toguz demo level 9: free heap in play", 31552, "B"),
        _f("circuitpython: engine toguz, top level nodes/s (middle game, 300 nodes): its own search"
           " / NativeSearch as Python", "439 / 359", "/s"),
        _f("circuitpython: perft toguz (613 leaves), leaves/s", 975, "/s"),
        _f("pico (frozen): append one move record (on flash, median of 300)", 1.2, "ms"),
        _f("circuitpython: a Tihbat move made on the sensors: kept on flash (the nvm journal,"
           " hw/nvm.py), ms after it is read (a power cut every 10 ms)", 30, "ms"),
    ]
    lines = side_by_side(figures)
    rows = dict((ln[:66].rstrip(), ln[67:].split()) for ln in lines[2:])
    assert rows["free heap in play, Toguz Kumalak v engine"] == ["-", "61", "KB", "30.8", "KB"]
    assert rows["perft toguz, leaves/s"] == ["-", "21185", "/s", "975", "/s"]
    engine = [r for r in rows if r.startswith("engine toguz")][0]
    assert rows[engine] == ["1186", "/", "7657", "/s", "1178", "/s", "439", "/", "359", "/s"]
    assert rows["perft tobit, leaves/s"] == ["-", "-", "-"]
    move = [r for r in rows if r.startswith("a move on flash")][0]
    assert rows[move] == ["1.2", "ms", "-", "30", "ms"]
    assert lines[1].split()[1:] == ["MicroPython", "frozen", "MicroPython", ".mpy", "CircuitPython", ".mpy"]


def test_no_table_when_no_emulated_figure_was_measured():
    assert side_by_side([_f("mp: something else", 1, "ms")]) == []
