"""Every error `vision` raises; each also inherits the matching builtin so callers can catch either."""

from __future__ import annotations


class VisionError(Exception):
    """Base class of the errors raised by `vision`."""


class ImageReadError(VisionError, ValueError):
    """An image file is missing, unreadable or not an image."""


class CameraError(VisionError, RuntimeError):
    """A camera did not open, or vanished while it was read."""


class SourceSpecError(VisionError, ValueError):
    """A frame-source spec such as "opencv:0" could not be understood."""


class ModelFileError(VisionError, FileNotFoundError):
    """A model file a command needs is not in the folder it was asked to use."""
