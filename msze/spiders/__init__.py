"""Spiders: deon (parish directory), places (website lookup), parish (one parish site)."""
