// The parts of the official MCP SDK that `evident mcp` uses, as their own bundle (dist/mcpSdk.js):
// the CLI bundle requires it only when that command runs, so no other command parses or loads
// the SDK (with its schema libraries, about a third of a second and 1.7 MB). See esbuild.mjs.

export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
