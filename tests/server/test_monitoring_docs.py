"""docs/monitoring.md, docs/grafana-dashboard.json and docs/prometheus-alerts.yml are the
metrics' contract: the dashboard and the rules parse, name only series the server
exports, the four alerts the operator needs are there, and every metric is documented
and on the dashboard; ``promtool`` checks the rules' PromQL."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml
from prometheus_client.metrics import MetricWrapperBase

from app.core import metric_families

DOCS = Path(__file__).resolve().parents[2] / "docs"
NAME = re.compile(r"\bfiveup_[a-z0-9_]+")
#: the series each type of metric gives, after its family's name
SUFFIXES = {
    "counter": ("_total",),
    "gauge": ("",),
    "histogram": ("_bucket", "_count", "_sum"),
}


def _families() -> dict[str, str]:
    """Each metric family the server defines: name → type."""
    found: dict[str, str] = {}
    for value in vars(metric_families).values():
        if isinstance(value, MetricWrapperBase):
            for family in value.describe():
                found[family.name] = family.type
    return found


def _series() -> set[str]:
    return {name + s for name, kind in _families().items() for s in SUFFIXES[kind]}


def _dashboard_exprs() -> list[str]:
    dashboard = json.loads((DOCS / "grafana-dashboard.json").read_text(encoding="utf-8"))
    exprs: list[str] = []

    def walk(panels: list[dict[str, Any]]) -> None:
        for panel in panels:
            walk(panel.get("panels", []))
            if panel.get("type") == "row":
                continue
            targets = panel.get("targets", [])
            assert targets, f"panel {panel.get('title')!r} has no query"
            exprs.extend(t["expr"] for t in targets)

    walk(dashboard["panels"])
    return exprs


def _alert_rules() -> list[dict[str, Any]]:
    rules = yaml.safe_load((DOCS / "prometheus-alerts.yml").read_text(encoding="utf-8"))
    return [rule for group in rules["groups"] for rule in group["rules"]]


def test_the_dashboard_queries_only_series_the_server_exports() -> None:
    exprs = _dashboard_exprs()
    named = {name for expr in exprs for name in NAME.findall(expr)}
    assert named, "no query names a metric"
    assert sorted(named - _series()) == []
    for expr in exprs:
        assert expr.count("(") == expr.count(")"), expr


def test_every_metric_is_on_the_dashboard_and_in_the_monitoring_doc() -> None:
    exprs = " ".join(_dashboard_exprs())
    doc = (DOCS / "monitoring.md").read_text(encoding="utf-8")
    families = _families()
    assert len(families) >= 20
    for name, kind in families.items():
        shown = name + ("_total" if kind == "counter" else "")
        assert f"`{shown}`" in doc, f"{shown} is not in docs/monitoring.md"
        assert shown in exprs, f"{shown} is on no panel of the dashboard"


def test_the_alert_rules_cover_slow_moves_5xx_database_down_and_notify_lag() -> None:
    rules = _alert_rules()
    for rule in rules:
        assert {"alert", "expr", "for", "labels", "annotations"} <= set(rule), rule
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        assert sorted(set(NAME.findall(rule["expr"])) - _series()) == [], rule["alert"]
    by_metric = " ".join(rule["expr"] for rule in rules)
    for needed in (
        "fiveup_move_commit_seconds_bucket",
        'fiveup_http_requests_total{status=~"5.."}',
        "fiveup_db_unreachable",
        "fiveup_notify_lag_seconds_bucket",
    ):
        assert needed in by_metric, needed


def test_promtool_accepts_the_alert_rules() -> None:
    # ./scripts/test installs Debian's prometheus for promtool (scripts/_common.sh)
    assert shutil.which("promtool"), "promtool is needed: install Prometheus, or run ./scripts/test"
    run = subprocess.run(
        ["promtool", "check", "rules", str(DOCS / "prometheus-alerts.yml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
