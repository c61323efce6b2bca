// Placeholder until the ingest lands.
