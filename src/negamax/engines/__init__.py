"""Engines that speak a GUI protocol over the library's search (UCI for chess)."""
