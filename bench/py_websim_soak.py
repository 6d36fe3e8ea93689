"""8 hours of board time on the web page's simulator (issue 30): the page's Session on a
virtual clock driven by the script (playboard_host.websim.soak): every game and mode, New
game 200 times, a sync and a live follower every 10 board-minutes (in games too),
takebacks, the engine at each game's top level in every fourth round.

Targets: 0 MemoryErrors, 0 refused link requests, 0 restarts, every game with moves
synced exactly once; the run itself in under 20 minutes of host time (BENCH_SCRIPT_S).
SOAK_MINUTES / SOAK_NEW_GAMES set a shorter run (default 480 and 200).
"""
import os
import sys

sys.path.insert(0, "firmware")
sys.path.insert(0, "host_tools")
sys.path.insert(0, "bench")

from benchlib import report  # noqa: E402


def main():
    from playboard_host.websim import soak

    minutes = int(os.environ.get("SOAK_MINUTES", "480"))
    games = int(os.environ.get("SOAK_NEW_GAMES", "200"))
    c = soak.run(minutes=minutes, new_games=games, sync_min=10, seed=30,
                 progress=lambda t: print(t, file=sys.stderr) if os.environ.get("SOAK_PROGRESS") else None)
    p = "websim soak: "
    report(p + "board time", c["board_minutes"], "board-min", ">= %d" % minutes, c["board_minutes"] >= minutes)
    report(p + "host time", c["wall_s"], "s", "< 1200", c["wall_s"] < 1200)
    report(p + "New games (every game and mode)", c.get("new_games", 0), "games", "== %d" % games,
           c.get("new_games", 0) == games)
    report(p + "games at the engine's top level", c.get("top_level_games", 0), "games")
    want = -(-minutes // 10)  # at 10, 20, ... board-minutes before the end, and the last at the end
    report(p + "syncs (every 10 board-min + last)", c.get("syncs", 0), "syncs", "== %d" % want,
           c.get("syncs", 0) == want)
    report(p + "live follower attaches", c.get("live_attaches", 0), "attaches", "== syncs",
           c.get("live_attaches", 0) == c.get("syncs", 0))
    report(p + "live events seen", c.get("live_events", 0), "events")
    report(p + "moves: player / engine", "%d / %d" % (c.get("player_moves", 0), c.get("engine_moves", 0)), "")
    report(p + "takebacks", c.get("takebacks", 0), "takebacks")
    report(p + "refused link requests", c["refused"], "", "== 0", c["refused"] == 0)
    report(p + "MemoryErrors", c["memory_errors"], "", "== 0", c["memory_errors"] == 0)
    report(p + "firmware restarts", c["restarts"], "", "== 0", c["restarts"] == 0 and c["alive"])
    ok = c["missing"] == 0 and c["extra"] == 0 and c["twice"] == 0 and c["library_games"] == c["played"]
    report(p + "games with moves synced exactly once", "%d of %d" % (c["library_games"], c["played"]), "games",
           "all, once", ok)
    report(p + "heap free, least at a sync", c.get("min_free"), "bytes")
    report(p + "engine's forced passes waited on (Tihbat)", c.get("engine_pass_waits", 0), "waits")
    report(p + "page actions refused by the position", c.get("page_refused", 0), "actions")


if __name__ == "__main__":
    main()
