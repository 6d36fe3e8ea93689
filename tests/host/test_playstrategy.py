"""Toguz Kumalak games to and from PlayStrategy (playboard_host.playstrategy): the
square keys of strategygames' Pos, a game PlayStrategy played (its moves as
strategygames' own replay test has them, https://playstrategy.org/FgWSk5be) read
and replayed by our rules, and library -> PlayStrategy PGN -> library giving the
same games."""
import io
import random
from types import SimpleNamespace

import pytest

from playboard.games.common import GameError
from playboard.games.registry import new_game
from playboard_host import cli, playstrategy as ps
from playboard_host.library import Library

# https://playstrategy.org/FgWSk5be (strategygames TogyzkumalakReplayTest: "full game replay")
PLAYSTRATEGY_GAME = (
    "g1d2 a2h1 f1d2 c2f1 a1h2 b2h1 b1e2 b2a2 i1c1 g2f1 d1a2 f2i1 h1i2 h2f2 i1g2 d2a1 e1c1 b2d1 g1d2 a2i2 "
    "i1g2 i2e2 a1c1 a2a1 h1h2 c2d1 a1b1 b2a2 b1h2 f2b2 b1c1 c2b2 f1i2 c2b2 f1g1 a2a1 a1b1 b2b1 a1b1 b2a2 "
    "i1g2 h2g2 h1i2 a2b1 a1b1 e2c1 a1b1 b2a2 b1d1 a2b1 a1b1 g2b2 i1i2 i2h2 g1h2 i2h2 g1h1 h2g2 h1i2 f2e2 "
    "e1g1 b2a2 g1h1 c2b2 f1g1 c2b2 g1h1 b2a2 h1i2 b2a2 c1i2 b2a2 h1i2 i2h2 i1d2").split()


def test_square_keys_follow_strategygames_pos():
    # Pos: a1..i1 index 0..8 (South's pits 1..9), then i2 (9) .. a2 (17): North's pits 1..9
    assert [ps.cell_key(c) for c in (0, 8, 9, 17)] == ["a1", "i1", "i2", "a2"]
    assert all(ps.key_cell(ps.cell_key(c)) == c for c in range(18))
    g = new_game("toguz")
    assert ps.move_uci(g, 6) == "g1d2" and g.move_text(6) == "76"  # 9 balls: S7-S9, N1-N6
    g.push(6)
    assert ps.move_uci(g, 8) == "a2h1" and g.move_text(8) == "98"
    with pytest.raises(GameError, match="lands on"):
        ps.uci_move(g, "a2g1")
    with pytest.raises(GameError, match="not South's|not North's"):
        ps.uci_move(g, "a1b1")
    with pytest.raises(ValueError):
        ps.key_cell("j1")


def test_a_game_played_on_playstrategy_imports_and_replays(tmp_path, capsys):
    text = ('[Event "Casual game"]\n[Site "https://playstrategy.org/FgWSk5be"]\n[Date "2023.01.05"]\n'
            '[White "p1"]\n[Black "p2"]\n[Result "*"]\n[Variant "Togyzkumalak"]\n\n')
    text += " ".join("%s%s" % ("%d. " % (i // 2 + 1) if i % 2 == 0 else "", m)
                     for i, m in enumerate(PLAYSTRATEGY_GAME)) + " *\n"
    games = ps.read_pgn(io.StringIO(text))
    assert len(games) == 1 and games[0][1] is None
    rec = games[0][0]
    assert len(rec.moves) == len(PLAYSTRATEGY_GAME) == 75 and rec.moves[:2] == ["76", "98"]
    g = new_game("toguz")
    for m in rec.moves:  # our rules core agrees with PlayStrategy's, move by move
        g.push_text(m)
    f = tmp_path / "ps.pgn"
    f.write_text(text + "\n" + text.replace('[Variant "Togyzkumalak"]', '[Variant "Oware"]'))
    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["import-games", str(f), "--library", db]) == 0
    out = capsys.readouterr().out
    assert "skipped game 2: variant Oware, not Togyzkumalak" in out and "imported 1 new game" in out
    assert cli.main(["import-games", str(f), "--library", db]) == 0  # again: nothing twice
    assert "imported 0 new games (1 already held)" in capsys.readouterr().out
    lib = Library(db)
    (stored,) = lib.games()
    lib.close()
    assert stored.moves == rec.moves and stored.board == "playstrategy" and stored.date == "2023.01.05"


def test_library_to_playstrategy_and_back_gives_the_same_games(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    rnd = random.Random(7)
    want = []
    set_up = "10S,1S,1S,1S,1S,t,2S,4S,1/1,2S,1S,1S,1S,2S,1S,t,2S 71 61 N 34"  # RULES.md 1.8's example
    for i, (fen, plies) in enumerate(((None, 60), (None, 400), (set_up, 30))):
        g = new_game("toguz", fen)
        moves = []
        while g.legal_moves() and len(moves) < plies:
            m = rnd.choice(g.legal_moves())
            moves.append(g.move_text(m))
            g.push(m)
        result = g.result() if g.is_game_over() else "*"
        rec = SimpleNamespace(uid="u%d" % i, id=i + 1, name="toguz", result=result,
                              termination=g.termination if g.is_game_over() else None,
                              tags={"Event": "Playboard", "Date": "2026.12.0%d" % (i + 1), "White": "Aru",
                                    "Black": "Bek"}, fen=fen, moves=moves)
        assert lib.add("hall-a", rec, b"raw%d" % i)
        want.append((fen, moves, result))
    tihbat = SimpleNamespace(uid="t", id=9, name="tihbat", result="*", termination=None, tags={"Date": "2026.12.01"},
                             fen=None, moves=["1"])
    lib.add("hall-a", tihbat, b"t")
    lib.close()
    out = str(tmp_path / "ps.pgn")
    assert cli.main(["export", "--library", db, "--format", "playstrategy", "-o", out]) == 0
    assert "1 game not Toguz Kumalak left out" in capsys.readouterr().err
    with open(out, encoding="utf-8") as f:
        text = f.read()
    assert text.count('[Variant "Togyzkumalak"]') == 3 and "1. " in text and '[SetUp "1"]' in text
    import re
    tokens = " ".join(ln for ln in text.splitlines() if not ln.startswith("[")).split()
    assert tokens and all(re.match(r"^(\d+\.(\.\.)?|[a-i][12][a-i][12]|1-0|0-1|1/2-1/2|\*)$", t) for t in tokens)
    db2 = str(tmp_path / "back.sqlite")
    assert cli.main(["import-games", out, "--library", db2]) == 0
    lib = Library(db2)
    got = [(g.fen, g.moves, g.result) for g in lib.games()]
    lib.close()
    assert got == want


def _synced_game(db, board="sim", tags=None, uid="u1"):
    """A two-player Toguz game stored as sync stores a board's game; its moves."""
    g = new_game("toguz")
    rnd = random.Random(3)
    moves = []
    for _ in range(40):
        m = rnd.choice(g.legal_moves())
        moves.append(g.move_text(m))
        g.push(m)
    rec = SimpleNamespace(uid=uid, id=1, name="toguz", result="*", termination=None, fen=None, moves=moves,
                          tags=tags if tags is not None else {"Event": "Playboard", "Date": "2026.12.05"})
    lib = Library(db)
    assert lib.add(board, rec, b"raw")
    lib.close()
    return moves


def test_a_game_exported_from_the_library_and_imported_again_is_already_held(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    _synced_game(db)
    out = str(tmp_path / "nu_ps.pgn")
    assert cli.main(["export", "--library", db, "--format", "playstrategy", "-o", out]) == 0
    assert '[BoardGame "1"]' in open(out, encoding="utf-8").read()
    capsys.readouterr()
    assert cli.main(["import-games", out, "--library", db]) == 0
    said = capsys.readouterr().out
    assert "game 1: already held (library game 1, from board sim)" in said, said
    assert "imported 0 new games (1 already held)" in said, said
    lib = Library(db)
    assert lib.count() == 1 and [b["board"] for b in lib.boards()] == ["sim"]
    lib.close()


def test_an_older_export_without_the_boards_ids_is_known_again_by_its_tags(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    _synced_game(db, tags={"Date": "2026.12.05", "White": "Aru", "Black": "Bek"})
    out = str(tmp_path / "ps.pgn")
    assert cli.main(["export", "--library", db, "--format", "playstrategy", "-o", out]) == 0
    with open(out, encoding="utf-8") as f:
        text = "".join(ln for ln in f if not ln.startswith(("[Board ", "[BoardGame ")))
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    capsys.readouterr()
    assert cli.main(["import-games", out, "--library", db]) == 0
    assert "imported 0 new games (1 already held)" in capsys.readouterr().out
    # the same moves by other players (another Black) are another game
    with open(out, "w", encoding="utf-8") as f:
        f.write(text.replace('[Black "Bek"]', '[Black "Dana"]'))
    assert cli.main(["import-games", out, "--library", db]) == 0
    assert "imported 1 new game into" in capsys.readouterr().out
    lib = Library(db)
    assert lib.count() == 2
    lib.close()
