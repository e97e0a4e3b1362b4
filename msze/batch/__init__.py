"""Crawling many parishes: URL plans, the job database, per-parish results, the GNU parallel driver."""
