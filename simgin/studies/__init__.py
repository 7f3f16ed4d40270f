"""Studies over many runs: variant sweeps and tuning."""
