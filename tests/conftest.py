"""Fixtures shared by the tests."""
import pytest

from laocheck.learners._base import DataPointSampling


@pytest.fixture(params=["dense", "sparse"])
def state_kind(request, monkeypatch):
    """Run a test on the dense states and on the sparse ones (``_sparse_min_d`` forced to 1:
    the sparse state at every d, for a named initial point); the value names the kind."""
    if request.param == "sparse":
        monkeypatch.setattr(DataPointSampling, "_sparse_min_d", 1)
    return request.param


#: how to install what the browser tests need (CI's .ci/run does)
CHROMIUM_APT = "apt-get install -y chromium chromium-driver"


@pytest.fixture(scope="module")
def chromium():
    """A factory of headless chromium drivers (Debian's chromium and chromium-driver through
    selenium) with the browser and performance logs on, for the browser tests of the reports
    and of the docs site; each driver made is quit at the end of the module. Fails, never
    skips, when chromium is missing (CI installs it)."""
    import os
    import shutil

    from selenium import webdriver

    os.environ.setdefault("SE_AVOID_STATS", "true")       # selenium-manager: no telemetry
    made = []

    def make(height):
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        driver = shutil.which("chromedriver")
        assert binary and driver, f"no chromium/chromedriver; install them with `{CHROMIUM_APT}`"
        opts = webdriver.ChromeOptions()
        opts.binary_location = binary
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", f"--window-size=1280,{height}", "--no-first-run",
                    "--disable-extensions", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-default-apps"):
            opts.add_argument(arg)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        drv = webdriver.Chrome(options=opts,
                               service=webdriver.ChromeService(executable_path=driver))
        made.append(drv)
        return drv

    yield make
    for drv in made:
        drv.quit()


@pytest.fixture
def ctrl_c():
    """Python's own SIGINT handler for the test's duration, for the tests that simulate Ctrl-C
    (``_thread.interrupt_main`` or ``os.kill(pid, SIGINT)``): a process started in the
    background by a non-interactive shell (``cmd &``) ignores SIGINT from the start, Python
    then installs no handler, and the simulated Ctrl-C would do nothing."""
    import signal                        # only these tests touch the signal dispositions

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
