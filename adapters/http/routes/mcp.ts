import { Readable } from 'node:stream';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import * as v from 'valibot';
import { tokenMayWrite } from '../../../core/households/access-tokens.js';
import type { Logger } from '../../../ports/logger.js';
import type { ServiceDeps } from '../deps.js';
import type { McpCaller } from '../mcp/handler.js';
import { TOOLS } from '../mcp/tools.js';
import { mount, resource } from '../route.js';

/** One JSON-RPC message of the Model Context Protocol; the SDK reads and checks the rest of it. */
const McpMessage = v.looseObject({ jsonrpc: v.literal('2.0'), method: v.optional(v.string()), id: v.optional(v.union([v.string(), v.number()])) });

const toolList = (writes: boolean) =>
  TOOLS.filter((t) => t.writes === writes)
    .map((t) => t.name)
    .join(', ');

const MCP_DOC =
  'The Model Context Protocol endpoint (Streamable HTTP, stateless), for assistants such as Home Assistant\'s Assist ' +
  'or a desktop assistant: Authorization: Bearer with a personal access token, and nothing else (the cookie is not read). ' +
  "It works for the token's one household as the token's person. Tools for every token: " +
  `${toolList(false)}; for a read-write token also: ${toolList(true)} (a read token is not offered them, and calling one ` +
  'answers an error). Each tool calls the same rules as its route (adults-only actions, the guests\' avoids, the ' +
  'planner\'s dinner rules); a refusal is a tool result with isError and the reason. Answers hold only the household\'s ' +
  'own data and no e-mail address. The body is one JSON-RPC message (application/json; no batches, as the protocol ' +
  'has none since its 2025-06-18 revision); the answer is JSON, or an ' +
  'event stream when the client accepts one. GET and DELETE answer 405: the endpoint keeps no sessions. Requests count ' +
  'in the token rate class. How to connect an assistant: README, "Assistants".';

type McpDeps = ServiceDeps & { readonly logger: Logger; readonly version: string };

const { handledRoute } = resource<McpDeps>('Assistants');

const mcpRoute = (deps: McpDeps) => {
  // One handler for the process, which builds a server for each request with that request's tools; the SDK is loaded
  // at the first request (an idle server does not hold it: docs/performance.md, R1).
  let loaded: Promise<McpHttpHandler> | null = null;
  const handler = () =>
    (loaded ??= import('../mcp/handler.js').then(
      (m) => m.mcpHandler(deps, deps.version, (err) => deps.logger.warn('mcp request failed', { err })),
      (err: unknown) => {
        // A load that failed is tried again by the next request.
        loaded = null;
        throw err;
      },
    ));
  return handledRoute({
    method: 'POST',
    path: '/mcp',
    operationId: 'mcp',
    summary: 'The MCP endpoint for assistants (personal access token only)',
    description: MCP_DOC,
    auth: 'token',
    versionGated: false,
    // A JSON body held to every request rule (UTF-8, no NUL, no prototype key, nesting), then handed to the SDK.
    body: McpMessage,
    responses: { 200: { description: 'The JSON-RPC answer (application/json or text/event-stream)', schema: v.looseObject({ jsonrpc: v.literal('2.0') }) }, 202: { description: 'A notification or answer was taken' } },
    handle: async (ctx, { caller, body }) => {
      const mcpCaller: McpCaller = { account: caller.account, householdId: caller.token.householdId, writes: tokenMayWrite(caller.token) };
      const headers = new Headers();
      for (const name of ['content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']) {
        const value = ctx.get(name);
        if (value) headers.set(name, value);
      }
      const request = new Request(new URL(ctx.originalUrl, 'http://localhost'), { method: 'POST', headers, body: JSON.stringify(body) });
      const answer = await (await handler()).fetch(request, { authInfo: { token: caller.token.id, clientId: caller.token.id, scopes: [caller.token.scope], extra: { caller: mcpCaller } } });
      ctx.status = answer.status;
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length') ctx.set(name, value);
      });
      ctx.body = answer.body ? Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream) : null;
    },
  })(deps);
};

/** The planner's gate comes with `deps`, as for the planner's routes: suggest_week counts where POST suggestions does. */
export const mcpRoutes = (deps: ServiceDeps, logger: Logger, version: string) => mount({ ...deps, logger, version }, [mcpRoute]);
