"""The input stage in SPICE (hardware/spice.py, ngspice): each fault case's currents,
the hottest part's dissipation, the over-voltage trip at each tolerance corner and the
hot-plugs, and the ESD strikes (hardware/esd.py), each beside its limit. Skips (one
line) without ngspice."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "hardware"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from benchlib import report  # noqa: E402


def main():
    import spice
    if not spice.available():
        print("py_spice: ngspice not installed (Debian package ngspice): skipped")
        return
    for board in ("pico-matrix", "pico-hall"):
        short = board.replace("pico-", "")
        for name, v_jack, v_usb, _ in spice.CASES:
            worst = None
            jack = usb = v5 = 0.0
            v5_low = 99.0
            bad = []
            for corner in spice.CORNERS:
                res = spice.run(board, name, corner)
                bad += spice.check(res)
                jack = max(jack, abs(res["jack_a"]))
                usb = max(usb, res["usb_a"])
                v5 = max(v5, res["v"]["+5V"])
                v5_low = min(v5_low, res["v"]["+5V"])
                for ref, kind, s in res["parts"]:
                    lim = spice.RATINGS.get(kind, {}).get("p")
                    if lim and "p" in s and (worst is None or s["p"] / lim > worst[0]):
                        worst = (s["p"] / lim, ref, kind, s["p"], lim)
            tag = "spice %s %s" % (short, name)
            if v_usb:
                report(tag + ": USB current", round(1e3 * usb, 1), "mA",
                       "<= %d mA" % (1e3 * spice.USB_DECLARED_A), usb <= spice.USB_DECLARED_A)
            if v_jack is not None and v_jack < 0:
                report(tag + ": jack current", round(1e3 * jack, 2), "mA", "<= 1 mA", jack <= 1e-3)
            elif v_jack:
                report(tag + ": jack current", round(1e3 * jack, 1), "mA")
            report(tag + ": +5V", round(v5, 3), "V", "<= %.1f V" % spice.LED_MAX_V, v5 <= spice.LED_MAX_V)
            fed = (v_jack is not None and 0 < v_jack <= 5.5) or (
                v_usb and not (v_jack or 0) > 0 and board != "pico-hall")
            if fed:
                report(tag + ": +5V lowest at the full LED cap", round(v5_low, 3), "V",
                       ">= %.1f V (74AHCT125)" % spice.RAIL_MIN_V, v5_low >= spice.RAIL_MIN_V)
            report(tag + ": hottest %s (%s) dissipation" % (worst[1], worst[2]), round(1e3 * worst[3], 1),
                   "mW", "<= %d mW" % (1e3 * worst[4]), worst[3] <= worst[4])
            report(tag + ": ratings exceeded", len(bad), "", "0", not bad)
    for corner in spice.CORNERS:
        t, v5, vsys = spice.trip("pico-matrix", corner)
        ok = t is not None and spice.ADAPTER_MAX < t <= 5.35
        report("spice over-voltage trip at the jack, %s corner" % corner, t, "V",
               "%.2f..5.35 V" % spice.ADAPTER_MAX, ok)
        report("spice +5V highest below the trip, %s corner" % corner, round(v5, 3), "V",
               "<= %.1f V" % spice.LED_MAX_V, v5 <= spice.LED_MAX_V)
        report("spice VSYS highest below the trip, %s corner" % corner, round(vsys, 3), "V",
               "<= %.1f V" % spice.PICO_MAX_V, vsys <= spice.PICO_MAX_V)
    peak, _ = spice.inrush("pico-matrix", "usb")
    report("spice USB attach: inrush above the load", round(1e3 * peak, 1), "mA",
           "<= %d mA" % (1e3 * spice.USB_INRUSH_A), peak <= spice.USB_INRUSH_A)
    for board in ("pico-matrix", "pico-hall"):
        peak, v5 = spice.inrush(board, "adapter5")
        report("spice %s: 5 V adapter plugged (no USB): jack current peak" % board,
               round(peak, 3), "A", "<= %g A (soft start; the jack's 2.5 A)" % spice.ADAPTER_INRUSH_A,
               peak <= spice.ADAPTER_INRUSH_A)
        peak, v5 = spice.inrush(board, "adapter12")
        report("spice %s: 12 V adapter plugged on USB, +5V peak" % board, round(v5, 3), "V",
               "<= %.1f V" % spice.LED_MAX_V, v5 <= spice.LED_MAX_V)
        report("spice %s: 12 V adapter plugged, jack current peak" % board, round(peak, 4), "A",
               "<= %g A (AOD4185 pulse)" % spice.RATINGS["PMOS_LR"]["id_pulse"],
               peak <= spice.RATINGS["PMOS_LR"]["id_pulse"])
    import esd
    cal = esd.calibrate(8.0)
    report("esd gun (IEC 61000-4-2, 8 kV contact into 2 ohm): first peak",
           round(cal["peak_a"], 1), "A", "30 A +-15 %", abs(cal["peak_a"] - 30.0) <= 4.5)
    report("esd gun: rise time", round(cal["rise_s"] * 1e9, 2), "ns", "0.8 ns +-25 %",
           abs(cal["rise_s"] - 0.8e-9) <= 0.2e-9)
    report("esd gun: at 30 / 60 ns", "%.1f / %.1f" % (cal["i30_a"], cal["i60_a"]), "A",
           "16 / 8 A +-30 %", abs(cal["i30_a"] - 16) <= 4.8 and abs(cal["i60_a"] - 8) <= 2.4)
    for line, kv, res, bad in esd.report():
        tag = "esd %s %+g kV contact" % (line, kv)
        target = esd.LINES[line]["target"]
        supply, kind = esd.TARGETS[target]
        report(tag + ": ESD array peak", round(res["array_a"], 1), "A",
               "<= %g A (IEC 61000-4-2 8 kV)" % esd.RATINGS["array_a"],
               res["array_a"] <= esd.RATINGS["array_a"])
        report(tag + ": clamp at the array", round(res["clamp_v"] if kv > 0 else res["clamp_vn"], 2),
               "V")
        if kind == "rp2040":
            ok = res["pin_v"] <= supply + 0.5 and res["pin_vn"] >= -0.5
            report(tag + ": %s peak" % target, "%+.2f / %+.2f" % (res["pin_v"], res["pin_vn"]),
                   "V", "-0.5..%.1f V (RP2040 Table 622)" % (supply + 0.5), ok)
        else:
            # (the USB pins: no voltage rating of their own in the datasheet; their ESD
            # rating, HBM 2 kV, is what they are held to: hardware/esd.py TARGETS)
            report(tag + ": %s peak" % target, "%+.2f / %+.2f" % (res["pin_v"], res["pin_vn"]), "V")
        if kind == "rp2040_usb":
            report(tag + ": charge into the %s" % target, round(1e9 * res["pin_q"], 1), "nC",
                   "<= %d nC (RP2040 HBM 2 kV, Table 623)" % round(1e9 * esd.RATINGS["pin_q"]),
                   res["pin_q"] <= esd.RATINGS["pin_q"])
            late = res["pin_v_late"]
            report(tag + ": %s %d us after" % (target, round(esd.PIN_SETTLE_S * 1e6)),
                   round(late, 2), "V", "-0.5..%.1f V (Table 622)" % (supply + 0.5),
                   -0.5 <= late <= supply + 0.5)
        limit = kind if not isinstance(kind, str) else esd.RATINGS["pin_a"]
        report(tag + ": into the %s" % target, round(1e3 * res["pin_a"], 1), "mA",
               "<= %d mA%s" % (round(1e3 * limit),
                               " (RP2040 HBM 2 kV)" if isinstance(kind, str) else ""),
               res["pin_a"] <= limit)
        report(tag + ": ratings exceeded", len(bad), "", "0", not bad)


if __name__ == "__main__":
    main()
