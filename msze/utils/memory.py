"""Giving a long crawl's freed memory back to the system (glibc's malloc; a no-op elsewhere).

A crawl process frees most of what it allocates (a page's HTML, its parse tree, an image being OCR'd) but
glibc keeps freed heap pages mapped, and gives each thread that allocates (DNS lookups, PDF and OCR
threads) an arena of its own: the resident size then follows the crawl's worst moments and grows with its
length. Two arenas and a periodic `malloc_trim` keep it near what is in use (docs/benchmarks.md measures
it).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from functools import lru_cache

M_ARENA_MAX = -8  # mallopt parameter, from glibc's malloc.h


@lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL | None:
    """glibc, or None where the C library has no mallopt/malloc_trim (musl, macOS)."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    if not (hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim")):
        return None
    return libc


def limit_arenas(count: int) -> bool:
    """At most `count` malloc arenas for threads created from now on; True when glibc took it."""
    libc = _libc()
    return bool(libc is not None and count > 0 and libc.mallopt(M_ARENA_MAX, count))


def trim_heap() -> int:
    """Return freed heap pages to the system; the bytes the resident size fell by (0 without glibc)."""
    libc = _libc()
    if libc is None:
        return 0
    before = resident_bytes()
    libc.malloc_trim(0)
    return max(0, before - resident_bytes())


def resident_bytes() -> int:
    """This process's resident set size (Linux /proc; 0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
