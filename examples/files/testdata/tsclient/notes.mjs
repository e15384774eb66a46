// Drives the notes example over stdio with the official TypeScript SDK
// client and prints what it saw as one JSON object, for
// examples/notes/e2e_test.go to check. It lives here to share this
// folder's npm install. Usage: node notes.mjs <command> [args...]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "e2e-ts", version: "0.0.1" });
let resolveUpdate;
const updated = new Promise((resolve) => (resolveUpdate = resolve));
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolveUpdate(n.params.uri));
await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" }));

const out = { capabilities: client.getServerCapabilities(), errors: {} };
const failure = async (name, f) => {
  try {
    await f();
    out.errors[name] = null;
  } catch (e) {
    out.errors[name] = { code: e.code, message: e.message };
  }
};
out.resources = (await client.listResources()).resources;
out.templates = (await client.listResourceTemplates()).resourceTemplates;
out.index = await client.readResource({ uri: "notes://index" });
out.note = await client.readResource({ uri: "notes://gophers" });
await failure("notFound", () => client.readResource({ uri: "notes://nothing" }));
await failure("outside", () => client.readResource({ uri: "notes://..%2Fsecret" }));

await client.subscribeResource({ uri: "notes://gophers" });
await client.callTool({ name: "append_to_note", arguments: { id: "gophers", text: "And burrow." } });
out.updated = await Promise.race([updated, new Promise((r) => setTimeout(() => r("timeout"), 10000))]);
await client.unsubscribeResource({ uri: "notes://gophers" });
await client.callTool({ name: "create_note", arguments: { id: "back", text: "# Back" } });

out.prompts = (await client.listPrompts()).prompts;
out.prompt = await client.getPrompt({ name: "summarize_note", arguments: { id: "gophers", style: "detailed" } });
await failure("missingArg", () => client.getPrompt({ name: "summarize_note", arguments: {} }));
await failure("unknownPrompt", () => client.getPrompt({ name: "nope", arguments: {} }));
out.completion = await client.complete({ ref: { type: "ref/prompt", name: "summarize_note" }, argument: { name: "id", value: "g" } });
await client.close();
console.log(JSON.stringify(out));
