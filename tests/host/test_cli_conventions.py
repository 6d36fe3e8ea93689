"""One convention for the command line, checked over every command's parser (and every
action of `tournament`): ``--library FILE`` reads or fills the library, ``--json`` is a
flag printing JSON on standard output, ``--port`` is a board's serial port; results in
words where a person reads them."""
import argparse

from playboard_host import cli
from playboard_host.words import result_short


def _parsers():
    """(name, parser) of every command and every action's own parser."""
    root = cli.build_parser()
    out = []
    for a in root._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, p in a.choices.items():
                out.append((name, p))
                for b in p._actions:
                    if isinstance(b, argparse._SubParsersAction):
                        out.extend(("%s %s" % (name, n), q) for n, q in b.choices.items())
    return out


def _option(p, flag):
    for a in p._actions:
        if flag in a.option_strings:
            return a
    return None


def test_every_command_uses_the_same_library_json_and_port_options():
    parsers = _parsers()
    names = [n for n, _ in parsers]
    assert len(names) > 30 and "tournament list" in names and "export" in names
    with_library = []
    for name, p in parsers:
        lib = _option(p, "--library")
        if lib is not None:
            with_library.append(name)
            assert lib.dest == "library" and lib.metavar == "FILE" and lib.nargs is None, name
            assert "library" in lib.help and ("$PLAYBOARD_LIBRARY" in lib.help or "temporary" in lib.help), name
        js = _option(p, "--json")
        if js is not None:
            assert js.dest == "json" and js.nargs == 0 and js.const is True, name  # a flag, never a file
        port = _option(p, "--port")
        if port is not None and port.help != argparse.SUPPRESS:
            assert port.dest == "port" and "serial port" in port.help, name
    # every command that works on the library takes --library, every tournament action too
    for name in ("games", "export", "stats", "boards", "sync", "sim", "demo", "hall", "tournament"):
        assert name in with_library, name
    assert all(n in with_library for n in names if n.startswith("tournament "))
    for name in ("games", "export", "boards", "ports", "replay"):
        assert _option(dict(parsers)[name], "--json") is not None, name


def test_library_after_a_tournament_action_and_json_export(tmp_path, capsys):
    db = str(tmp_path / "none.sqlite")
    for argv in (["tournament", "--library", db, "list"], ["tournament", "list", "--library", db]):
        assert cli.main(argv) == 2
        assert capsys.readouterr().err == "playboard: no library at %s (playboard sync makes one)\n" % db
    args = cli.build_parser().parse_args(["tournament", "--library", "a.sqlite", "list"])
    assert args.library == "a.sqlite"  # not given after the action: the command's stays
    args = cli.build_parser().parse_args(["export", "--json"])
    assert args.json is True


def test_results_in_words():
    assert [result_short("tobit", r) for r in ("1-0", "0-1", "1/2-1/2", "*")] == [
        "White won", "Black won", "Draw", "Unfinished"]
    assert [result_short("toguz", r) for r in ("1-0", "0-1")] == ["South won", "North won"]
    assert result_short("tihbat", None) == "Unfinished" and result_short("tobit", "-/+") == "Black won by forfeit"
