import pytest
from conftest import project_crawler, run_crawl
from scrapy.exceptions import NotConfigured

from msze.classifier.model import DEFAULT_MODEL_PATH
from msze.extraction.hours import find_hours
from msze.items import PageItem
from msze.pipelines import ClassifierPipeline

TEXT = (
    "Porządek Mszy Świętych\n\n"
    "W niedziele: 7:00, 9:30, 11:00\n\n"
    "Kancelaria parafialna czynna od 16:00 do 17:30\n\n"
    "Ogłoszenia: w piątek Msza św. o godz. 18:00 w kaplicy."
)


def hour_dicts(text: str, rules_mass: set[str]) -> list[dict]:
    out = []
    for h in find_hours(text):
        is_rule = h.time in rules_mass
        out.append(
            {
                "text": h.text, "time": h.time, "start": h.start, "end": h.end, "context": h.context,
                "context_start": h.context_start, "label": "mass" if is_rule else "other",
                "score": 1.0 if is_rule else 0.0, "source": "rules", "day": None,
            }
        )  # fmt: skip
    return out


def make_pipeline(**settings) -> ClassifierPipeline:
    return ClassifierPipeline.from_crawler(project_crawler(**settings))


def test_default_model_is_committed_and_small():
    assert DEFAULT_MODEL_PATH.is_file()
    assert DEFAULT_MODEL_PATH.stat().st_size < 5 * 1024 * 1024


def test_role_score_scores_the_hours_the_rules_left_and_the_rules_label_them():
    pipe = make_pipeline(CLASSIFIER_ROLE="score")
    hours = hour_dicts(TEXT, {"07:00", "09:30", "11:00"})
    out = pipe.process_item(PageItem(url="http://p.test/msze", text=TEXT, hours=[dict(h) for h in hours]))
    assert [(h["time"], h["label"], h["source"]) for h in out["hours"]] == [
        (h["time"], h["label"], "rules") for h in hours
    ]
    by_time = {h["time"]: h for h in out["hours"]}
    assert by_time["07:00"]["score"] == 1.0
    assert by_time["18:00"]["score"] > by_time["17:30"]["score"] > 0.0  # a P(Mass start), not the rules' 0.0
    assert out["masses"] == ["07:00", "09:30", "11:00"]
    assert pipe.crawler.stats.get_value("msze/classifier/scored") == 3
    assert pipe.crawler.stats.get_value("msze/classifier/mass") is None


def test_by_default_the_classifier_labels_only_the_hours_the_rules_found_no_cue_for():
    pipe = make_pipeline(CLASSIFIER_THRESHOLD="0.0")
    assert pipe.steps.classifier_role == "uncued"
    hours = hour_dicts(TEXT, set())
    for h in hours:
        h["reason"] = "no cue" if h["time"] == "18:00" else "from/to"
    out = pipe.process_item(PageItem(url="http://p.test/", text=TEXT, hours=hours))
    assert out["masses"] == ["18:00"]
    assert [h["time"] for h in out["hours"] if h["source"] == "classifier"] == ["18:00"]
    assert pipe.crawler.stats.get_value("msze/classifier/scored") == len(hours) - 1


def test_an_unknown_role_is_one_clear_error_at_start():
    with pytest.raises(NotConfigured, match="CLASSIFIER_ROLE 'guess': not one of score, uncued, all"):
        make_pipeline(CLASSIFIER_ROLE="guess")


def test_role_all_labels_every_hour_the_rules_left_and_recomputes_masses():
    pipe = make_pipeline(CLASSIFIER_ROLE="all")
    item = PageItem(url="http://p.test/msze", text=TEXT, hours=hour_dicts(TEXT, {"07:00", "09:30", "11:00"}))
    item["masses"] = ["07:00", "09:30", "11:00"]
    out = pipe.process_item(item)
    by_time = {h["time"]: h for h in out["hours"]}
    assert by_time["07:00"]["source"] == "rules" and by_time["07:00"]["score"] == 1.0
    for time in ("16:00", "17:30", "18:00"):
        assert by_time[time]["source"] == "classifier"
        assert 0.0 <= by_time[time]["score"] <= 1.0
        assert by_time[time]["label"] == (
            "mass" if by_time[time]["score"] >= pipe.steps.classifier.threshold else "other"
        )
    # office hours just under a Mass schedule: the same-line words ("kancelaria ... od", "do") keep them out
    assert by_time["16:00"]["label"] == "other" and by_time["17:30"]["label"] == "other"
    assert by_time["18:00"]["score"] > by_time["17:30"]["score"]
    classified = sorted(t for t in ("16:00", "17:30", "18:00") if by_time[t]["label"] == "mass")
    assert out["masses"] == sorted(["07:00", "09:30", "11:00", *classified])
    stats = pipe.crawler.stats
    assert stats.get_value("msze/classifier/pages") == 1
    assert stats.get_value("msze/classifier/hours") == 3
    assert (stats.get_value("msze/classifier/mass") or 0) + stats.get_value("msze/classifier/other") == 3


def test_pipeline_threshold_setting_overrides_the_models():
    pipe = make_pipeline(CLASSIFIER_THRESHOLD="1.01", CLASSIFIER_ROLE="all")
    item = PageItem(url="http://p.test/", text=TEXT, hours=hour_dicts(TEXT, set()))
    out = pipe.process_item(item)
    assert pipe.steps.classifier.threshold == 1.01
    assert out["masses"] == [] and all(h["source"] == "classifier" for h in out["hours"])


def test_pages_without_hours_are_skipped_and_counted():
    pipe = make_pipeline()
    out = pipe.process_item(PageItem(url="http://p.test/", text="Bez godzin.", hours=[]))
    assert "masses" not in out
    assert pipe.crawler.stats.get_value("msze/classifier/skipped") == 1


def test_missing_model_is_one_clear_error_at_start(tmp_path, caplog):
    crawler = project_crawler(CLASSIFIER_MODEL=str(tmp_path / "nope.ftz"))
    with pytest.raises(NotConfigured, match="hour classifier disabled: .*not found: .*nope.ftz"):
        ClassifierPipeline.from_crawler(crawler)
    assert crawler.stats.get_value("msze/classifier/disabled") == 1
    assert [r.levelname for r in caplog.records if "hour classifier disabled" in r.message] == ["ERROR"]


def test_disabled_by_setting():
    with pytest.raises(NotConfigured, match="CLASSIFIER_ENABLED"):
        make_pipeline(CLASSIFIER_ENABLED=False)


@pytest.mark.parametrize("role", ["score", "all"])
def test_fixture_crawl_scores_hours_with_the_classifier(fixture_web, tmp_path, role):
    result = run_crawl(
        "http://swwojciech.test/",
        tmp_path,
        "DEPTH_LIMIT=1",
        f"CLASSIFIER_ROLE={role}",
        proxy=fixture_web.proxy,
    )
    assert result.returncode == 0, result.log[-2000:]
    assert result.stats["msze/classifier/pages"] >= 1
    hours = [h for item in result.items for h in item.get("hours") or []]
    left = [h for h in hours if not (h["source"] == "rules" and h["label"] == "mass")]
    assert left and all(0 <= h["score"] <= 1 for h in left)
    labelled = [h for h in left if h["source"] == "classifier"]
    assert len(labelled) == (len(left) if role == "all" else 0)
    assert result.stats.get(f"msze/classifier/{'scored' if role == 'score' else 'other'}", 0) > 0
    for item in result.items:
        if item.get("hours"):
            assert item["masses"] == sorted({h["time"] for h in item["hours"] if h["label"] == "mass"})


def test_fixture_crawl_with_a_corrupt_model_logs_one_error_and_goes_on(fixture_web, tmp_path):
    bad = tmp_path / "bad.ftz"
    bad.write_bytes(b"not a model" * 100)
    result = run_crawl(
        "http://swwojciech.test/",
        tmp_path,
        "DEPTH_LIMIT=0",
        f"CLASSIFIER_MODEL={bad}",
        proxy=fixture_web.proxy,
    )
    assert result.returncode == 0
    assert result.log.count("hour classifier disabled") == 2  # our ERROR line + Scrapy's "Disabled ..." line
    assert result.stats["msze/classifier/disabled"] == 1
    assert "msze/classifier/pages" not in result.stats
    assert result.items and all(
        h["source"] == "rules" for item in result.items for h in item.get("hours") or []
    )


def test_hours_with_spans_off_the_text_are_left_alone():
    pipe = make_pipeline()
    hours = hour_dicts(TEXT, set())
    hours.append({**hours[0], "start": len(TEXT) + 5, "end": len(TEXT) + 9})
    out = pipe.process_item(PageItem(url="http://p.test/", text=TEXT, hours=hours))
    assert out["hours"][-1]["source"] == "rules"
    assert pipe.crawler.stats.get_value("msze/classifier/hours") == len(hours) - 1
