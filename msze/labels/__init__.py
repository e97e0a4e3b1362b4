"""The project's labelled data (the repository's `data/`) joined to the texts it labels.

Labels are msze's own work and live in the repository; the page texts are other people's sentences and stay
out of it. A label names its text by URL and the SHA-256 of the exact text (a diocesan row by `source`,
"annotated-poznan.tsv:17"); `texts.TextStore` finds the texts in ../shared/data and, for pages not yet there,
a local folder (default ../data). A label whose text is missing or changed is counted and listed, never used.
"""
