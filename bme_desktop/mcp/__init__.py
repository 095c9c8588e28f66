"""The memory as tools for agent clients: an MCP server (``bme-desktop mcp``)."""
