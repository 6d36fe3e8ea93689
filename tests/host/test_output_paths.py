"""Output paths are checked before the long work: a folder or a missing folder is one clear line."""
from playboard_host.cli import main


def test_output_paths_checked_before_the_work(capsys, tmp_path):
    cases = [
        (["demo", "-q", "--export", str(tmp_path)], "--export %s is a folder" % tmp_path),
        (["match", "--jsonl", str(tmp_path / "no" / "x.json"), "--game", "tihbat", "--games", "1",
          "--pair", "L8:greedy"], "no such folder"),
        (["tihbat-solve", "--out", str(tmp_path)], "--out %s is a folder" % tmp_path),
    ]
    for argv, want in cases:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert want in err and "Traceback" not in err, (argv, err)
    assert list(tmp_path.iterdir()) == []  # and nothing was left behind
