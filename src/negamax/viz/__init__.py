"""Seeing a search: renderers for recorded traces (text, JSON, DOT, SVG, HTML)."""
