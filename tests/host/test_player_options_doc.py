"""docs/player.md names, for each shared option, the commands that take it: the list
must be every command's parser's, no more and no less (a new user's report, item 12:
"Every command takes the same --library, --json and --port" was not so)."""
import argparse
import importlib
import os
import pkgutil
import re

import playboard_host.commands as commands

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _takes():
    out = {}
    for m in pkgutil.iter_modules(commands.__path__):
        mod = importlib.import_module("playboard_host.commands." + m.name)
        if not hasattr(mod, "add_arguments"):
            continue
        p = argparse.ArgumentParser()
        mod.add_arguments(p)
        opts = {o for a in p._actions for o in a.option_strings}
        for o in ("--library", "--port", "--json"):
            if o in opts:
                out.setdefault(o, set()).add(m.name.replace("_", "-"))
    return out


def test_player_md_names_the_commands_each_shared_option_goes_with():
    with open(os.path.join(ROOT, "docs", "player.md"), encoding="utf-8") as f:
        text = " ".join(f.read().split())
    assert "Every command takes" not in text
    takes = _takes()
    for opt in ("--library", "--port", "--json"):
        m = re.search(r"`%s[^`]*` \(([^)]*(?:\([^)]*\)[^)]*)*)\)" % opt, text)
        assert m, opt
        named = set(re.findall(r"`([a-z-]+)`", m.group(1)))
        assert named == takes[opt], (opt, sorted(named ^ takes[opt]))


def test_player_md_says_ports_lists_usb_ports_only():
    with open(os.path.join(ROOT, "docs", "player.md"), encoding="utf-8") as f:
        text = " ".join(f.read().split())
    assert "USB serial ports only" in text and "/dev/pts/N" in text
