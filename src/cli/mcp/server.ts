// The MCP server of `evident mcp`, on the official SDK's low-level server (the tools' JSON
// Schemas are defined once, in src/core/tools/toolSchemas.ts, for this server and for VS Code's
// language model tools alike, so no second schema language is involved). Two read-only tools,
// search_docs and check_answer, with results as structuredContent (checked by clients against
// the outputSchema listed here) and as text. A bad argument is a tool error the agent can read;
// an unknown tool a JSON-RPC error; nothing here throws past a request.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CHECK_INPUT_SCHEMA,
  CHECK_OUTPUT_SCHEMA,
  DocsTools,
  MCP_TOOL_NAMES,
  SEARCH_INPUT_SCHEMA,
  SEARCH_OUTPUT_SCHEMA,
  ToolInputError,
  checkResultText,
  searchResultText,
  toolDescriptions,
} from '../../core/tools';
import type { FreshIndex } from './freshIndex';

export const SERVER_INSTRUCTIONS =
  `Evident answers questions about this team's Markdown documents with checked citations. Call ${MCP_TOOL_NAMES.search} first, answer only from its passages ` +
  `with their evidence ids after each sentence ([E1]), then call ${MCP_TOOL_NAMES.check} with your answer and reply with the sentences it keeps.`;

export interface McpServerOptions {
  index: FreshIndex;
  topK: number;
  version: string;
  log(message: string): void;
}

/** The server over stdio, connected; it closes when the client does (or `close()` is called). */
export async function startStdioServer(options: McpServerOptions): Promise<Server> {
  const sdk = await import('./mcpSdk');
  const server = createMcpServer(options, sdk);
  // A line that is not JSON-RPC is refused by the transport: said on stderr, the server goes on.
  server.onerror = (error) => options.log(`protocol error: ${error.message}`);
  await server.connect(new sdk.StdioServerTransport());
  return server;
}

export function createMcpServer(options: McpServerOptions, sdk: typeof import('./mcpSdk')): Server {
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, Server } = sdk;
  const tools = new DocsTools(() => options.index.current(), { topK: () => options.topK });
  const descriptions = toolDescriptions(MCP_TOOL_NAMES);
  const server = new Server(
    { name: 'evident', title: 'Evident', version: options.version },
    { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: MCP_TOOL_NAMES.search,
        title: 'Search the docs',
        description: descriptions.search,
        inputSchema: SEARCH_INPUT_SCHEMA,
        outputSchema: SEARCH_OUTPUT_SCHEMA,
        annotations,
      },
      {
        name: MCP_TOOL_NAMES.check,
        title: 'Check an answer against the docs',
        description: descriptions.check,
        inputSchema: CHECK_INPUT_SCHEMA,
        outputSchema: CHECK_OUTPUT_SCHEMA,
        annotations,
      },
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    // One stdio connection is one client: its searches and checks share one ledger.
    const conversation = extra.sessionId ?? 'stdio';
    try {
      if (name === MCP_TOOL_NAMES.search) {
        const { passages } = await tools.search(conversation, name, args ?? {}, extra.signal);
        const structured = { passages };
        return {
          structuredContent: structured,
          content: [{ type: 'text', text: searchResultText(structured, MCP_TOOL_NAMES.check) }],
        };
      }
      if (name === MCP_TOOL_NAMES.check) {
        const { result } = await tools.check(conversation, name, args ?? {}, extra.signal);
        return { structuredContent: { ...result }, content: [{ type: 'text', text: checkResultText(result) }] };
      }
    } catch (error) {
      if (extra.signal.aborted) throw error;
      if (!(error instanceof ToolInputError)) options.log(`${name} failed: ${(error as Error).message}`);
      return { isError: true, content: [{ type: 'text', text: (error as Error).message }] };
    }
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool "${name}": Evident's tools are ${MCP_TOOL_NAMES.search} and ${MCP_TOOL_NAMES.check}.`,
    );
  });
  return server;
}
