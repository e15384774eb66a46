// Drives an MCP server with the official TypeScript SDK client, over stdio
// Streamable HTTP, HTTP+SSE or WebSocket, and prints what it saw as one JSON object, for
// e2e_test.go to check.
// Usage: node client.mjs <command> [args...]
//        node client.mjs --http <url>     (Streamable HTTP)
//        node client.mjs --sse <url>      (HTTP+SSE of revision 2024-11-05)
//        node --experimental-websocket client.mjs --ws <url>   (WebSocket; Node 20)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { WebSocketClientTransport } from "@modelcontextprotocol/sdk/client/websocket.js";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "e2e-ts", version: "0.0.1" });
const transport = command === "--http" ? new StreamableHTTPClientTransport(new URL(args[0]))
  : command === "--sse" ? new SSEClientTransport(new URL(args[0]))
  : command === "--ws" ? new WebSocketClientTransport(new URL(args[0]))
  : new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
await client.connect(transport);

const out = { server: client.getServerVersion() };
out.tools = (await client.listTools()).tools;
out.good = await client.callTool({ name: "search_files", arguments: { pattern: "*.go", recursive: true } });
out.structured = await client.callTool({ name: "list_dir", arguments: { sort: "size" } });
out.bad = await client.callTool({ name: "search_files", arguments: { limit: 500, recursive: "yes" } });
try {
  await client.callTool({ name: "delete_everything", arguments: {} });
  out.unknown = { error: null };
} catch (e) {
  out.unknown = { error: { code: e.code, message: e.message } };
}
if (transport.sessionId) {
  await transport.terminateSession();
}
await client.close();
console.log(JSON.stringify(out));
