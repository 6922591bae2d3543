"""Cross-cutting helpers: settings, logging, security."""
