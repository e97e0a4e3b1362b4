"""msze: find the start times of Holy Masses on Polish parish websites (`msze --version` says which)."""
