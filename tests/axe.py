"""axe-core (vendored from npm for the tests only: tests/browser/vendor/axe-core, scripts/vendor_js.sh) run in
a Playwright page: the accessibility violations that matter most."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).parent / "browser" / "vendor" / "axe-core" / "axe.min.js"


def serious_violations(page) -> list[str]:
    """axe's serious and critical violations of the page as it is now (WCAG 2 A and AA rules), one line each.
    The page's context needs `bypass_csp=True`: the pages allow no script that is not their own."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}})"
        ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})))"
    )
    return [f"{v['impact']} {v['id']}: {v['nodes']}" for v in found if v["impact"] in ("serious", "critical")]
