"""msze.utils.memory: freed heap pages go back to the system (glibc; the CI machine is Debian)."""

import subprocess
import sys

from msze.utils.memory import limit_arenas, resident_bytes

# In a child process, so the heap is only the script's: 200 MB of 4 KB blocks (glibc's heap, not pymalloc's
# arenas), one in 64 kept, so the freed ones are holes glibc does not give back on its own.
FRAGMENTED_HEAP = """
from msze.utils.memory import resident_bytes, trim_heap
blocks = [bytes(4000) for _ in range(50_000)]
pinned = blocks[::64]
del blocks
held = resident_bytes()
released = trim_heap()
print(held, released, resident_bytes())
"""


def test_trim_gives_a_fragmented_heap_back():
    out = subprocess.run(
        [sys.executable, "-c", FRAGMENTED_HEAP], capture_output=True, text=True, check=True
    ).stdout
    held, released, after = map(int, out.split())
    assert released > 100 * 2**20  # most of the ~190 MB freed
    assert after < held - released / 2


def test_resident_bytes_and_arena_limit():
    assert resident_bytes() > 10 * 2**20  # this interpreter with pytest loaded
    assert limit_arenas(2) is True
    assert limit_arenas(0) is False  # "no limit" is not a value mallopt takes
