"""The build: the stage table, the runner, the manifest and build key, the output folder and its lock, progress, preflight, watch."""
