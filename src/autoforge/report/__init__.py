"""Self-contained HTML reports (no external assets, everything escaped).

Building blocks (:mod:`.html`: tables, badges, cards, the page; :mod:`.charts`: inline SVG bar
charts; :mod:`.dag`: a task's blueprint DAG; :mod:`.tasks`: the task gallery) are shared by the
forge report (:mod:`.forge`) and later reports (evaluation).

```python
from autoforge.report import write_forge_report
write_forge_report(Path("runs/bookstore"))          # -> runs/bookstore/report.html
```
"""

from __future__ import annotations

from autoforge.report.forge import load_run, render_forge_report, write_forge_report

__all__ = ["load_run", "render_forge_report", "write_forge_report"]
