"""Each report opened from disk in a real headless browser (Debian's chromium and
chromium-driver through selenium): every image loads, the console has no errors, no request
leaves the machine; a screenshot is saved (LAOCHECK_SCREENSHOTS=DIR keeps them in DIR)."""

import json
import os
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from .conftest import NAMES

@pytest.fixture(scope="module")
def browser(chromium):
    return chromium(2400)


@pytest.mark.parametrize("name", NAMES)
def test_report_opens_from_disk_in_a_browser(built, browser, name, tmp_path):
    report = built[name]
    page = (report.path / "index.html").resolve()
    browser.get_log("performance")                       # drop what came before
    browser.get_log("browser")
    browser.get(page.as_uri())
    assert browser.title == report.doc["title"]
    images = browser.find_elements(By.TAG_NAME, "img")
    assert len(images) == len(report.doc["figures"]) > 0
    for img in images:
        width = browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth",
                                       img)
        assert width and width > 0, img.get_attribute("src")
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    assert urls, "the performance log records the page's requests"
    remote = [u for u in urls if not u.startswith(("file://", "data:"))]
    assert remote == [], f"requests leaving the machine: {remote}"
    keep = os.environ.get("LAOCHECK_SCREENSHOTS")
    target = Path(keep) if keep else tmp_path
    target.mkdir(parents=True, exist_ok=True)
    shot = target / f"{name}.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


#: for every check id on the page (span.id), the characters after which the browser broke its
#: line: a line's top changes between two consecutive characters
_ID_BREAKS = """
const out = [];
for (const span of document.querySelectorAll('td span.id')) {
  const chars = [];
  const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      const rect = r.getClientRects()[0];
      if (rect) chars.push([node.data[i], rect.top]);
    }
  }
  for (let i = 1; i < chars.length; i++)
    if (chars[i][1] > chars[i - 1][1] + 1) out.push([span.textContent, chars[i - 1][0]]);
}
return out;
"""


def test_ids_break_only_after_a_dot_in_a_narrow_page(built, browser):
    """The verification report squeezed to 24em: ids do wrap, and only after a dot."""
    browser.get((built["verification"].path / "index.html").resolve().as_uri())
    browser.execute_script("document.body.style.maxWidth = '24em';")
    breaks = browser.execute_script(_ID_BREAKS)
    assert breaks, "at 24em some id must wrap (else this test shows nothing)"
    assert all(after == "." for _, after in breaks), breaks
