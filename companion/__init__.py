"""The table companion: referee engines, the table session and its event store, settings and the CLI."""
