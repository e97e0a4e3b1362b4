"""Schedule images drawn with Pillow, for the OCR tests and benchmarks/bench_ocr.py: a parish's Mass times
as a JPEG the way parishes post them (a scanned or exported sheet), with a chosen font, size, slight rotation,
JPEG noise and one or two columns. The true times are known by construction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from io import BytesIO

FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerifCondensed-Italic.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
)
# Rows a parish schedule is made of: (label, the hours its Masses may be at).
_SUNDAY = ("Niedziele i święta:", "W niedziele:", "Niedziela:")
_WEEKDAY = ("Dni powszednie:", "W tygodniu:", "Od poniedziałku do piątku:")
_OTHER = (("Sobota:", ("7:00", "8:00", "18:00")), ("Pierwszy piątek miesiąca:", ("17:00", "19:00")))
_SUNDAY_HOURS = ("6:30", "7:00", "7:30", "8:00", "9:00", "9:30", "10:00", "10:30", "11:00", "11:30", "12:00",
                 "12:30", "13:00", "16:00", "17:00", "18:00", "19:00", "20:00")  # fmt: skip
_WEEKDAY_HOURS = ("6:30", "7:00", "7:30", "8:00", "17:00", "17:30", "18:00", "18:30", "19:00")
# Lines with other clock times: an office's hours are no Masses (precision counts them).
_EXTRA = (
    "Kancelaria czynna: wtorek 9:00 - 11:00",
    "Spowiedź pół godziny przed każdą Mszą",
    "tel. 22 730 12 45",
)


@dataclass(frozen=True)
class Schedule:
    """Rows of (label, times "H:MM") under a title; `times()` are the Mass times it shows."""

    title: str = "Porządek Mszy świętych"
    rows: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("Niedziele i święta:", ("7:00", "9:00", "11:00", "18:00")),
        ("Dni powszednie:", ("7:00", "18:00")),
    )

    def times(self) -> set[str]:
        return {f"{int(t.split(':')[0]):02d}:{t.split(':')[1]}" for _, times in self.rows for t in times}


@dataclass(frozen=True)
class Style:
    font: str = FONTS[0]
    label_font: str | None = None  # the title's and the day labels' face when not `font` (a two-face poster)
    size: int = 28
    rotation: float = 0.0  # degrees
    quality: int = 75  # JPEG quality: lower is noisier
    noise: int = 0  # ± grey levels of random pixel noise
    columns: int = 1
    separator: str = ":"  # "7:00" or "7.00"
    seed: int = 0
    extra: tuple[str, ...] = field(default=())  # lines of other text (an office's hours are not Masses)


def render_schedule(schedule: Schedule, style: Style = Style()) -> bytes:
    """The schedule as JPEG bytes."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(style.font, style.size)
    label_font = ImageFont.truetype(style.label_font or style.font, style.size)
    title_font = ImageFont.truetype(style.label_font or style.font, round(style.size * 1.3))
    line = round(style.size * 1.6)
    rows = [(label, "   ".join(t.replace(":", style.separator) for t in ts)) for label, ts in schedule.rows]
    per_column = -(-len(rows) // style.columns)
    # wide enough for its longest line in its faces (a monospaced face's six times would run off the image)
    widest = [label_font.getlength(label) for label, _ in rows] + [font.getlength(t) for _, t in rows]
    column_width = max(style.size * 22, round(max(widest)) + style.size * 2)
    width = 60 + column_width * style.columns
    height = 80 + line * (2 + 2 * per_column + len(style.extra))
    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    draw.text((30, 25), schedule.title, font=title_font, fill=0)
    for i, (label, times) in enumerate(rows):
        x = 30 + column_width * (i // per_column)
        y = 25 + line * (2 + 2 * (i % per_column))
        draw.text((x, y), label, font=label_font, fill=0)
        draw.text((x, y + line), times, font=font, fill=0)
    for j, text in enumerate(style.extra):
        draw.text((30, 25 + line * (2 + 2 * per_column + j) + line // 2), text, font=font, fill=40)
    if style.noise:
        rng = random.Random(style.seed)
        pixels = image.load()
        for _ in range(width * height // 20):
            x, y = rng.randrange(width), rng.randrange(height)
            pixels[x, y] = max(0, min(255, pixels[x, y] + rng.randint(-style.noise, style.noise)))
    if style.rotation:
        image = image.rotate(style.rotation, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    out = BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=style.quality)
    return out.getvalue()


def scanned_pdf(image: bytes) -> bytes:
    """A PDF with no text layer, `image` as its one page (Pillow writes it), as a scanner gives it."""
    from PIL import Image

    out = BytesIO()
    Image.open(BytesIO(image)).save(out, "PDF", resolution=100)
    return out.getvalue()


def plain_image(width: int, height: int, text: str = "", fmt: str = "PNG") -> bytes:
    """An image that is no schedule (a logo, a photo of a gallery): grey with a word."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), (200, 180, 120))
    if text:
        ImageDraw.Draw(image).text((5, 5), text, fill=(0, 0, 0))
    out = BytesIO()
    image.save(out, fmt)
    return out.getvalue()


def varied_samples(count: int, seed: int = 0) -> list[tuple[Schedule, Style]]:
    """`count` schedules and their styles, varied the way posted schedules vary: fonts, 18-36 px, up to ±2.5°
    of rotation, JPEG quality 25-90 and pixel noise, one or two columns, "7:00" or "7.00", an office's hours
    under some of them. The same `seed` gives the same samples."""
    rng = random.Random(seed)
    samples = []
    for i in range(count):
        rows = [
            (rng.choice(_SUNDAY), _some(rng, _SUNDAY_HOURS, 3, 6)),
            (rng.choice(_WEEKDAY), _some(rng, _WEEKDAY_HOURS, 1, 3)),
        ]
        rows += rng.sample(_OTHER, rng.randint(0, 2))
        style = Style(
            font=FONTS[i % len(FONTS)],
            size=rng.randint(18, 36),
            rotation=round(rng.uniform(-2.5, 2.5), 1),
            quality=rng.randint(25, 90),
            noise=rng.choice((0, 20, 40, 60)),
            columns=1 + (i % 3 == 2),
            separator=rng.choice((":", ".")),
            seed=i,
            extra=tuple(rng.sample(_EXTRA, rng.randint(0, 2))),
        )
        samples.append((Schedule(rows=tuple(rows)), style))
    return samples


def _some(rng: random.Random, hours: tuple[str, ...], low: int, high: int) -> tuple[str, ...]:
    """low..high of `hours`, in the day's order."""
    return tuple(sorted(rng.sample(hours, rng.randint(low, high)), key=lambda t: int(t.replace(":", ""))))
