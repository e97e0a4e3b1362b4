"""msze: find the start times of Holy Masses on Polish parish websites."""

__version__ = "0.1.0"
