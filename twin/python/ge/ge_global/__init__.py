"""ge.ge_global: process-level GE setup."""

from .geapi import GeApi

__all__ = ["GeApi"]
