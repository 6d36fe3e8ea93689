"""The board's settings on flash: the small file ``settings`` of ``K`` records (key,
0, JSON value) closed by a ``Z`` record, rewritten whole (temp file + rename).

Cold: ``playboard.record.Store`` imports it to load or save the settings and drops
it after (``playboard.compat.unload``); every function takes the store ``st``.
"""
import json

from playboard.compat import const
from playboard.record.codec import encode_record
from playboard.record.read import read_small

_T_SETTING = const(0x4B)  # "K" (the record types: playboard.record)


def load(st, defaults=None):
    """Settings dict: ``defaults`` (dict) updated with the values saved on flash by
    store ``st``. Values are ints, bools, strs or None (JSON). A bad or missing file
    gives the defaults (and a line in ``st.report``)."""
    out = dict(defaults) if defaults else {}
    recs = read_small(st, "settings", _T_SETTING)
    if recs:
        for p in recs:
            try:
                k, v = p.split(b"\x00", 1)
                out[k.decode()] = json.loads(v)
            except (ValueError, IndexError):
                st._note("settings: unreadable entry skipped")
    return out


def save(st, settings):
    """Write ``settings`` (dict str -> int/bool/str/None) safely with store ``st``; True
    once on flash. StoreError for an entry longer than one record."""
    parts = []
    for k in settings:
        parts.append(encode_record(_T_SETTING, k + "\x00" + json.dumps(settings[k])))
    return st._write_small("settings", parts)
