// A real MCP server (the official TypeScript SDK) whose one tool, "try",
// attempts what a sandboxed server must not do and answers with what
// happened: "ok" or the error code (EACCES, EROFS, EPERM...).
// action "write" writes the file "path"; "connect" opens a TCP
// connection to 127.0.0.1:"port".
// Run: node escape.mjs NPM_DIR
const dir = process.argv[2];
const sdk = `${dir}/node_modules/@modelcontextprotocol/sdk/dist/esm`;
const { Server } = await import(`${sdk}/server/index.js`);
const { StdioServerTransport } = await import(`${sdk}/server/stdio.js`);
const { ListToolsRequestSchema, CallToolRequestSchema } = await import(`${sdk}/types.js`);
const fs = await import("node:fs");
const net = await import("node:net");

const server = new Server({ name: "escape", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{
    name: "try",
    description: "Attempts an action and reports the outcome.",
    inputSchema: { type: "object", properties: { action: { type: "string" }, path: { type: "string" }, port: { type: "number" } } },
  }],
}));

function connect(port) {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port }, () => { s.destroy(); resolve("ok"); });
    s.on("error", (e) => resolve(e.code || String(e)));
  });
}

server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const a = req.params.arguments || {};
  let outcome;
  if (a.action === "write") {
    try {
      fs.writeFileSync(a.path, "escaped\n");
      outcome = "ok";
    } catch (e) {
      outcome = e.code || String(e);
    }
  } else if (a.action === "connect") {
    outcome = await connect(a.port);
  } else {
    outcome = "unknown action";
  }
  return { content: [{ type: "text", text: outcome }] };
});
await server.connect(new StdioServerTransport());
