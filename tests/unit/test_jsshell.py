"""is_js_shell: which pages only a script can give their text (msze/extraction/jsshell.py)."""

from __future__ import annotations

import pytest

from msze.extraction.jsshell import is_js_shell

SCHEDULE = "<p>Msze święte w niedziele o 8:00, 10:00 i 12:00, w dni powszednie o 18:00. </p>" * 20


@pytest.mark.parametrize(
    ("html", "reason"),
    [
        ('<html><body><div id="root"></div><script src="/main.js"></script></body></html>', "app_root"),
        ('<body><div id="app" class="x"> </div><script src="app.js"></script></body>', "app_root"),
        ("<body><app-root></app-root><script src=main.js></script></body>", "app_root"),
        (
            "<body><noscript><p>You need to enable JavaScript to run this app.</p></noscript>"
            "<script>boot()</script></body>",
            "noscript",
        ),
        ("<body><noscript>Włącz obsługę JavaScript</noscript><script>x()</script></body>", "noscript"),
        ('<head><script>var _wixCssImports = [];</script></head><body><div id="SITE"></div></body>', "wix"),
        (
            '<head><script src="https://static1.squarespace.com/static/x.js"></script></head><body>Menu</body>',
            "squarespace",
        ),
        ('<html data-wf-page="1a2b"><body><script src="webflow.js"></script></html>', "webflow"),
        ("<html><head><title>Parafia</title><script>load()</script></head><body></body></html>", "no_text"),
    ],
)
def test_shells_and_their_reason(html: str, reason: str) -> None:
    assert is_js_shell(html) == reason


@pytest.mark.parametrize(
    "html",
    [
        "",
        "<html><body><p>Krótka strona bez skryptów.</p></body></html>",  # no script: nothing to render
        f"<html><body>{SCHEDULE}<script>analytics()</script></body></html>",  # a page with text and a script
        # a builder's page whose server wrote the text: read as it is
        f'<head><script>var _wixCssImports=[]</script></head><body><div id="root"></div>{SCHEDULE}</body>',
    ],
)
def test_pages_with_their_text_are_not_shells(html: str) -> None:
    assert is_js_shell(html) is None


def test_script_and_style_text_is_not_page_text() -> None:
    code = "var schedule = " + '"x" + ' * 2000 + '"";'
    html = f"<html><head><style>{'p{}' * 2000}</style></head><body><script>{code}</script></body>"
    assert is_js_shell(html) == "no_text"
