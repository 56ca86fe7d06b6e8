"""The built documentation site in a real headless browser (Debian's chromium and
chromium-driver through selenium), opened from disk: the search finds a check by its id, a
gallery page shows its figure, each paper's catalog page lists its checks, and no page fetches
anything from the network (every request the browser makes is file:// or data:)."""
import json
import time

import pytest
from selenium.webdriver.common.by import By

from laocheck import checks

@pytest.fixture(scope="module")
def browser(chromium):
    drv = chromium(2000)
    drv.get_log("performance")
    return drv


def _requests(browser):
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def _open(browser, url):
    """Open ``url``; return the URLs the page requested, having checked they are all local."""
    browser.get_log("performance")
    browser.get(url)
    time.sleep(0.5)                                     # let late scripts and images start
    urls = _requests(browser)
    assert urls, "the performance log records the page's requests"
    remote = [u for u in urls if not u.startswith(("file://", "data:", "blob:"))]
    assert remote == [], f"requests leaving the machine from {url}: {remote}"
    return urls


def _wait(condition, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    return condition()


def test_front_page_opens_without_the_network(site, browser):
    _open(browser, (site / "index.html").as_uri())
    assert "laocheck" in browser.title
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_search_finds_a_check_by_its_id(site, browser):
    _open(browser, (site / "search.html").as_uri() + "?q=HK12.Lemma3.3")

    def hits():
        return [a.get_attribute("href") or "" for a in
                browser.find_elements(By.CSS_SELECTOR, "#search-results a")]

    links = _wait(lambda: [h for h in hits() if "catalog/HK12.html" in h])
    assert links, f"no result on the HK12 catalog page; results: {hits()[:10]}"
    # the first result is the lemma's section of the catalog, which lists its checks
    assert hits()[0].endswith("catalog/HK12.html#statement-HK12.Lemma3.3"), hits()[:5]
    browser.get(hits()[0])
    target = browser.find_element(By.ID, "statement-HK12.Lemma3.3")
    section = target.find_element(By.XPATH, "ancestor::section[1]")
    listed = {a.text for a in section.find_elements(By.CSS_SELECTOR, "h3")}
    assert {c.id for c in checks.checks("HK12.Lemma3.3.*")} <= {t.rstrip("#").strip()
                                                                 for t in listed}


def test_a_gallery_page_shows_its_figure(site, browser):
    page = site / "gallery" / "plot_02_bound_against_empirical.html"
    urls = _open(browser, page.as_uri())
    images = browser.find_elements(By.CSS_SELECTOR, "img.sphx-glr-single-img, img.sphx-glr-multi-img")
    assert images, "the gallery page has no figure"
    for img in images:
        width = _wait(lambda: browser.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth", img), timeout=20)
        assert width and width > 0, img.get_attribute("src")
    assert any(u.endswith(".png") for u in urls)


@pytest.mark.parametrize("paper", ["CB11", "HK12", "KS15", "LAO"])
def test_each_paper_s_catalog_page_lists_its_checks(site, browser, paper):
    _open(browser, (site / "reference" / "generated" / "catalog" / f"{paper}.html").as_uri())
    expected = {c.id for c in checks.checks() if c.id.split(".", 1)[0] == paper}
    assert expected
    headings = {h.text.strip().rstrip("#").strip()
                for h in browser.find_elements(By.CSS_SELECTOR, "section > h3")}
    assert expected <= headings, sorted(expected - headings)[:10]
