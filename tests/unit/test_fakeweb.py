"""The realistic mode of benchmarks/fakeweb.py: the shares its docstring states hold over 1 000 sites, the
same site number gives the same site, and the server answers gzip pages and robots.txt through its proxy port.

benchmarks/ is not a package, so the module is loaded from its path.
"""

from __future__ import annotations

import gzip
import importlib.util
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

FAKEWEB = Path(__file__).resolve().parents[2] / "benchmarks" / "fakeweb.py"


def _load():
    spec = importlib.util.spec_from_file_location("fakeweb", FAKEWEB)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fakeweb", module)
    spec.loader.exec_module(module)
    return module


fakeweb = _load()


def test_realistic_shares_are_the_stated_ones():
    stats = fakeweb.realistic_stats(1000)
    assert 0.80 <= stats["fast_share"] <= 0.90
    assert 0.07 <= stats["slow_share"] <= 0.13
    assert 0.015 <= stats["timeout_share"] <= 0.05
    assert 0.01 <= stats["drop_share"] <= 0.04
    assert 0.03 <= stats["robots_404_share"] <= 0.08
    assert 0.10 <= stats["robots_disallow_share"] <= 0.20
    assert 0.75 <= stats["gzip_share"] <= 0.85
    assert 30 <= stats["pages_median"] <= 70 and stats["pages_max"] <= 9 + 400 + 40 + 12
    assert 20 <= stats["html_mean_kb"] <= 60 and stats["gzip_ratio"] > 2


def test_timeouts_answer_after_the_crawl_timeout():
    late = [s for s in map(fakeweb.realistic_spec, range(1000)) if s.timeouts]
    assert late and all(s.delay > fakeweb.DOWNLOAD_TIMEOUT for s in late)


def test_realistic_mode_is_deterministic_and_leaves_the_default_mode_alone():
    first = [fakeweb.realistic_spec(n) for n in range(50)]
    fakeweb.realistic_spec.cache_clear()
    assert [fakeweb.realistic_spec(n) for n in range(50)] == first
    assert fakeweb.realistic_body(7, "/") == fakeweb.realistic_body(7, "/")
    assert not any(fakeweb.site_spec(n).realistic or fakeweb.site_spec(n).gzip for n in range(50))


def test_every_realistic_page_is_within_depth_3():
    spec = max(map(fakeweb.realistic_spec, range(200)), key=lambda s: len(s.pages))
    seen, frontier = {"/"}, ["/"]
    for _ in range(3):
        links = set()
        for path in frontier:
            html = fakeweb._html(spec, path).decode()
            links |= {p for p in spec.pages if f'href="{p}"' in html}
        frontier = sorted(links - seen)
        seen |= links
    assert seen == set(spec.pages)


SITES = 60


def _sites(predicate) -> list[int]:
    return [n for n in range(SITES) if predicate(fakeweb.realistic_spec(n))]


def _get(proxy: str, url: str, headers: dict[str, str]):
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": proxy}))
    return opener.open(urllib.request.Request(url, headers=headers), timeout=10)


@pytest.fixture(scope="module")
def realistic_web(tmp_path_factory):
    proc, proxy = fakeweb.start(SITES, tmp_path_factory.mktemp("web") / "urls.txt", realistic=True)
    yield proxy
    proc.terminate()
    proc.wait()


def _fast(spec) -> bool:
    return not spec.drops and not spec.timeouts and spec.delay < 1


def test_served_gzip_page_decodes(realistic_web):
    n = _sites(lambda s: s.gzip and _fast(s))[0]
    with _get(realistic_web, f"http://{fakeweb.host(n)}/", {"Accept-Encoding": "gzip"}) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        html = gzip.decompress(response.read()).decode("utf-8")
    assert "<title>Parafia" in html and 'href="/aktualnosci/"' in html
    with _get(realistic_web, f"http://{fakeweb.host(n)}/", {}) as response:  # no gzip asked: plain HTML
        assert response.headers["Content-Encoding"] is None
        assert response.read().decode("utf-8") == html


def test_robots_txt_served_or_404(realistic_web):
    for n in _sites(lambda s: s.robots and s.robots != fakeweb.ALLOW_ALL and _fast(s))[:2]:
        with _get(realistic_web, f"http://{fakeweb.host(n)}/robots.txt", {}) as response:
            assert response.read().decode() == fakeweb.realistic_spec(n).robots
            assert "Disallow: /" in fakeweb.realistic_spec(n).robots
    missing = _sites(lambda s: s.robots is None and _fast(s))
    assert missing
    for n in missing:
        with pytest.raises(urllib.error.HTTPError) as error:
            _get(realistic_web, f"http://{fakeweb.host(n)}/robots.txt", {})
        assert error.value.code == 404
