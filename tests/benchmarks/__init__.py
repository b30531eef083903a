"""Smoke runs of the benchmarks and checks of the calibration arithmetic (no timings asserted)."""
