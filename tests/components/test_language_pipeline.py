import pytest
from conftest import project_crawler
from scrapy.exceptions import NotConfigured

from msze.items import PageItem
from msze.pipelines import LanguagePipeline


def pipeline(**settings):
    crawler = project_crawler(**{"LANGUAGE_ENABLED": True, **settings})
    return LanguagePipeline.from_crawler(crawler), crawler


def test_records_language_and_counts_it():
    pipe, crawler = pipeline()
    polish = PageItem(
        url="http://p.test/", text="Msze święte w niedziele o godzinie 8.00, 10.00 i 18.00. Zapraszamy."
    )
    english = PageItem(
        url="http://p.test/en", text="Holy Mass in English every Sunday at 1 pm in the lower church."
    )
    empty = PageItem(url="http://p.test/menu", text="» | 2026")
    assert pipe.process_item(polish)["language"] == "pl"
    assert pipe.process_item(english)["language"] == "en"
    assert pipe.process_item(empty)["language"] == "und"
    assert crawler.stats.get_value("msze/language/pl") == 1
    assert crawler.stats.get_value("msze/language/und") == 1


def test_keeps_a_stored_language():
    pipe, _ = pipeline()
    item = PageItem(
        url="http://p.test/", text="Holy Mass on Sundays at nine.", language="pl", change="not_modified"
    )
    assert pipe.process_item(item)["language"] == "pl"


def test_can_be_switched_off():
    with pytest.raises(NotConfigured):
        pipeline(LANGUAGE_ENABLED=False)
