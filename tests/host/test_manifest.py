"""firmware/manifest.py: a MicroPython freeze manifest that freezes the playboard package."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FW = os.path.join(ROOT, "firmware")


def test_manifest_includes_the_port_and_freezes_the_whole_package():
    calls = []

    def include(path, **kw):
        calls.append(("include", path, kw))

    def package(path, files=None, base_path=".", opt=None):
        calls.append(("package", path, {"files": files, "base_path": base_path, "opt": opt}))

    def module(path, base_path=".", opt=None):
        calls.append(("module", path, {"base_path": base_path, "opt": opt}))

    with open(os.path.join(FW, "manifest.py")) as f:
        exec(compile(f.read(), "manifest.py", "exec"),
             {"include": include, "package": package, "module": module, "require": include})
    assert ("include", "$(PORT_DIR)/boards/manifest.py", {}) in calls
    pkgs = [c for c in calls if c[0] == "package"]
    assert len(pkgs) == 1 and pkgs[0][1] == "playboard" and pkgs[0][2]["files"] is None
    # base_path "." is the manifest's folder: the package is there, with the app in it
    base = os.path.join(FW, pkgs[0][2]["base_path"], "playboard")
    for name in ("__init__.py", "app.py", "appui.py", "engine.py", "record.py", "link.py"):
        assert os.path.exists(os.path.join(base, name)), name
    assert pkgs[0][2]["opt"] == 3
