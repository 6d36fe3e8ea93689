"""The browser tests on a machine without Debian's Chromium: they skip, saying what is
missing and how to install it, instead of failing or passing silently."""
import importlib.util
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("module", ["test_websim_browser", "test_hall_browser"])
def test_browser_tests_skip_with_a_clear_message_without_chromium(module, monkeypatch):
    real = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: False if p == "/usr/bin/chromium" else real(p))
    spec = importlib.util.spec_from_file_location("_no_chromium_" + module, os.path.join(HERE, module + ".py"))
    with pytest.raises(pytest.skip.Exception) as e:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert str(e.value.msg).startswith("Debian's Chromium is not installed at /usr/bin/chromium: "
                                       "install it with `apt-get install chromium`")
