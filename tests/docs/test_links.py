"""Every local link of the built site resolves: the file exists, and its #fragment is an id of
that page. Sphinx's linkcheck needs the network; this checks the internal links offline."""
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if attrs.get(key) and tag in ("a", "img", "link", "script", "source"):
                self.links.append(attrs[key])


def _parse(path, cache={}):
    if path not in cache:
        parser = _Links()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        cache[path] = parser
    return cache[path]


def test_every_local_link_of_the_built_site_resolves(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 50
    broken, remote_assets = [], []
    for page in pages:
        for link in _parse(page).links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https"):
                # a link a reader may follow is fine; an asset loaded from the network is not
                continue
            if parts.scheme in ("mailto", "data", "javascript"):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if not target.exists():
                broken.append((str(page.relative_to(site)), link))
                continue
            if parts.fragment and target.suffix == ".html":
                if unquote(parts.fragment) not in _parse(target).ids:
                    broken.append((str(page.relative_to(site)), link))
    assert broken == [], f"{len(broken)} broken links, e.g. {broken[:20]}"


def test_no_asset_of_the_built_site_comes_from_the_network(site):
    """Scripts, styles, fonts and images are local files (the browser test also watches the
    requests a page makes)."""
    remote = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        for tag in re.findall(r"<(?:script|link|img|source)\b[^>]*>", text):
            for url in re.findall(r'(?:src|href)="([^"]+)"', tag):
                if re.match(r"(?:https?:)?//", url) and "rel=\"canonical\"" not in tag:
                    remote.append((page.name, url))
        assert not re.search(r"<script[^>]*mathjax", text, flags=re.I), page
    for css in sorted(site.rglob("*.css")):
        for url in re.findall(r"url\(\s*['\"]?((?:https?:)?//[^)'\"]+)", css.read_text()):
            remote.append((css.name, url))
    assert remote == [], remote[:20]
