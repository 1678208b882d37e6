"""What guards a run without being part of it.

- :mod:`.lock`: one writer per output folder (``.mlfs-lock``);
- :mod:`.trust`: no plug-in code named by a received config runs unless the
  user chose it.
"""
