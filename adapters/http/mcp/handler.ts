import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { createMcpHandler, McpServer, type CallToolResult, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { ServiceDeps } from '../deps.js';
import { TOOLS, ToolRefusal, type ToolCaller } from './tools.js';

/** Who a request of the endpoint is for, as the token check found it (handed to the handler as its authInfo). */
export interface McpCaller extends ToolCaller {
  /** A read-and-write token: the tools that change the household are offered too. */
  readonly writes: boolean;
}

const INSTRUCTIONS =
  "A family's dinner planner: the household's planned dinners, its shopping list and recipes, for the one household " +
  'the access token was made for. Dates are YYYY-MM-DD in the household\'s time zone; weeks run Monday to Sunday.';

/**
 * The MCP endpoint's handler (Streamable HTTP, the official SDK, stateless: each request builds its own server with
 * the tools its caller may use). A read-only token is offered only the tools that read; the writing ones are not
 * listed and cannot be called.
 */
export function mcpHandler(deps: ServiceDeps, version: string, onError: (err: Error) => void): McpHttpHandler {
  return createMcpHandler(
    ({ authInfo }) => {
      const caller = authInfo?.extra?.['caller'] as McpCaller | undefined;
      if (!caller) throw new Error('an MCP request reached the handler without its caller');
      const server = new McpServer({ name: 'dinner-planner', version }, { instructions: INSTRUCTIONS });
      for (const t of TOOLS) {
        if (t.writes && !caller.writes) continue;
        server.registerTool(
          t.name,
          { title: t.title, description: t.description, inputSchema: toStandardJsonSchema(t.input), annotations: { readOnlyHint: !t.writes, destructiveHint: false, openWorldHint: false } },
          async (input: unknown): Promise<CallToolResult> => {
            try {
              const answer = await t.run(deps, caller, input as never);
              return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data };
            } catch (err) {
              if (err instanceof ToolRefusal) return { isError: true, content: [{ type: 'text', text: err.message }] };
              throw err;
            }
          },
        );
      }
      return server;
    },
    { onerror: onError },
  );
}
