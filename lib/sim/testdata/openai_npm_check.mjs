// Decodes fluzo-sim answers with the official `openai` npm package and
// prints what it understood as one JSON line. Run by wire_npm_test.go.
import OpenAI from "openai";

const baseURL = process.argv[2];
const client = new OpenAI({ baseURL, apiKey: "sk-test", maxRetries: 0 });

const stream = client.chat.completions.stream({
  model: "m",
  messages: [{ role: "user", content: "fix the tests" }],
  tools: [{ type: "function", function: { name: "exec", parameters: { type: "object" } } }],
  stream_options: { include_usage: true },
});
let finishedCalls = 0;
stream.on("tool_calls.function.arguments.done", () => finishedCalls++);
const streamed = await stream.finalChatCompletion();

const plain = await client.chat.completions.create({
  model: "m",
  messages: [{ role: "user", content: "again" }],
});
const models = [];
for await (const m of client.models.list()) models.push(m.id);

const msg = streamed.choices[0].message;
console.log(JSON.stringify({
  version: OpenAI.VERSION ?? null,
  content: msg.content,
  finish: streamed.choices[0].finish_reason,
  calls: (msg.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: c.function.arguments })),
  finishedCalls,
  usage: streamed.usage ?? null,
  plain: plain.choices[0].message.content,
  models,
}));
